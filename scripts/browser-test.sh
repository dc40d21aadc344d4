#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The playground in a real browser: starts BUILD_DIR/grundyd on a free
# loopback port, drives Debian's Chromium with playwright-core
# (tests/browser/playground.test.mjs), and writes the TAP to OUT.tap and
# stdout. Screenshots go to BUILD_DIR/browser-artifacts/ (their paths are
# printed). Installs Chromium with apt-get when it is missing (root or sudo)
# and the pinned npm modules with scripts/npm-deps.sh, and runs them under
# Node.js 20.19 or newer (scripts/node-env.sh). The daemon is always
# stopped. Every wait is bounded; the run takes well under a minute.
#
#     scripts/browser-test.sh OUT.tap [BUILD_DIR]     (BUILD_DIR: build-test)
#
# Exits 0 when every test passed, 1 otherwise; a setup failure (no Chromium,
# no daemon) is written to OUT.tap as a failed test.
set -uo pipefail
cd "$(dirname "$0")/.."

out=${1:?usage: scripts/browser-test.sh OUT.tap [BUILD_DIR]}
bindir=${2:-build-test}
chromium=${CHROMIUM:-/usr/bin/chromium}
artifacts="$bindir/browser-artifacts"
mkdir -p "$(dirname "$out")"

# A setup failure: one failed test in the TAP, and exit 1.
fail() {
    printf '1..1\nnot ok 1 - browser tests: %s\n' "$1" | tee "$out"
    exit 1
}

if [ ! -x "$chromium" ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "browser-test: installing chromium"
    { $sudo apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
          chromium fonts-dejavu-core >/dev/null; } || fail "cannot install chromium with apt-get"
    [ -x "$chromium" ] || fail "no $chromium after installing chromium"
fi
. scripts/node-env.sh || fail "no Node.js 20.19 or newer (scripts/node-env.sh)"
scripts/npm-deps.sh || fail "scripts/npm-deps.sh failed"
[ -d node_modules/playwright-core ] || fail "node_modules/playwright-core is missing"
[ -x "$bindir/grundyd" ] || fail "no $bindir/grundyd: build it first"

log=$(mktemp)
profile=$(mktemp -d)
pid=""
cleanup() {
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null
    fi
    [ -n "$pid" ] && wait "$pid" 2>/dev/null
    rm -rf "$profile" "$log"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

"$bindir/grundyd" --host 127.0.0.1 --port 0 --drain-timeout 2 --access-log off \
    </dev/null >/dev/null 2>"$log" &
pid=$!

# The port from the event=ready line (--port 0 picks a free one), then
# /healthz: 10 s at most for each.
port=""
for _ in $(seq 1 100); do
    port=$(sed -n 's/.*event=ready addr=[^ ]*:\([0-9][0-9]*\).*/\1/p' "$log" | head -n 1)
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
[ -n "$port" ] || fail "grundyd did not start: $(tr '\n' ' ' <"$log" | cut -c1-400)"
url="http://127.0.0.1:$port"
healthy=""
for _ in $(seq 1 100); do
    if curl -fsS --max-time 1 "$url/healthz" >/dev/null 2>&1; then healthy=1; break; fi
    sleep 0.1
done
[ -n "$healthy" ] || fail "grundyd at $url did not answer /healthz"

echo "browser-test: grundyd at $url; screenshots in $artifacts/"
CHROMIUM="$chromium" timeout -k 5 110 node tests/browser/playground.test.mjs "$url" "$artifacts" "$profile" | tee "$out"
exit "${PIPESTATUS[0]}"
