#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs Prometheus's promtool with the given arguments, e.g.
#
#     scripts/promtool.sh check metrics < metrics.txt
#
# The tests check GET /metrics with `promtool check metrics`. promtool ships
# in Debian's `prometheus` package, but installing that package would also
# install (and may start) a Prometheus server. So, when no promtool is on
# PATH, this fetches the package's .deb with `apt-get download` (no install,
# no root needed when the package lists are present), extracts only
# usr/bin/promtool into build-tools/promtool/ (gitignored), and runs it from
# there. Idempotent: an extracted promtool that runs is used without the
# network; concurrent first runs take turns (flock).
#
# Exit status: promtool's own; 77 (with a message) when no promtool can be
# had, which the tests report as a skip.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$root/build-tools/promtool
bin=$dir/promtool

if [ "${GRUNDY_PROMTOOL:-}" != "" ]; then
    exec "$GRUNDY_PROMTOOL" "$@"
fi
if command -v promtool >/dev/null 2>&1; then
    exec promtool "$@"
fi

# Downloads the .deb into $1 and moves its promtool to $bin.
fetch_into() {
    local tmp=$1 deb sudo=""
    # apt-get download writes into the current directory; as root it warns
    # that the _apt user cannot write there, and downloads anyway.
    if ! (cd "$tmp" && apt-get download -qq prometheus >/dev/null 2>&1); then
        [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
        echo "promtool: apt-get download prometheus failed; updating the package lists" >&2
        $sudo apt-get update -qq >/dev/null 2>&1 || true
        (cd "$tmp" && apt-get download -qq prometheus >/dev/null 2>&1) || {
            echo "promtool: cannot download Debian's prometheus package" >&2
            return 1
        }
    fi
    deb=$(ls "$tmp"/prometheus_*.deb)
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" ./usr/bin/promtool || return 1
    "$tmp/usr/bin/promtool" --version >/dev/null 2>&1 || {
        echo "promtool: the extracted promtool does not run" >&2
        return 1
    }
    mv "$tmp/usr/bin/promtool" "$bin"
    echo "promtool: $("$bin" --version 2>&1 | head -n 1) from $(basename "$deb") into build-tools/promtool/" >&2
}

fetch() {
    local tmp rc=0
    tmp=$(mktemp -d "$dir/fetch.XXXXXX") || return 1
    fetch_into "$tmp" || rc=$?
    rm -rf "$tmp"
    return $rc
}

if ! "$bin" --version >/dev/null 2>&1; then
    if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-deb >/dev/null 2>&1; then
        echo "promtool: not on PATH, and no apt-get and dpkg-deb to fetch Debian's" >&2
        exit 77
    fi
    mkdir -p "$dir"
    (
        flock -w 600 9 || { echo "promtool: timed out waiting for $dir/.lock" >&2; exit 1; }
        "$bin" --version >/dev/null 2>&1 && exit 0
        fetch
    ) 9>"$dir/.lock" || exit 77
fi
exec "$bin" "$@"
