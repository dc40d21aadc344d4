#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's two commands on a fresh Debian 12, as someone new to the
# project runs them:
#
#     scripts/fresh-test.sh
#     GRUNDY_SANITIZERS=0 GRUNDY_CONTAINER=0 scripts/fresh-test.sh    # quicker
#
# 1. A clean Debian 12 root: `debootstrap --variant=minbase bookworm` from the
#    mirror the host's apt uses (scripts/host-apt.sh), with its bookworm,
#    bookworm-updates and bookworm-security sources. The debootstrap result
#    is cached as build-fresh/debian-bookworm-minbase-1.tar (gitignored); each
#    run unpacks it anew into build-fresh/root.
# 2. The checkout's HEAD (`git archive`: committed files only, so no build
#    directories, node_modules or build-tools) in /root/grundyd.
# 3. In a chroot, as root, with a login's environment (env -i) and /proc,
#    /sys, /dev and a /run tmpfs mounted:
#    a. scripts/run.sh in the background, on a port free now (GRUNDYD_PORT;
#       the chroot shares the host's network), until
#       `curl -d '{"game":"nim","piles":[3,4,5]}' .../v1/analyze` answers,
#       then stopped with SIGTERM;
#    b. scripts/test.sh; its stage lines are shown as it runs, its last lines
#       at the end with the node versions the root has.
#    Every step is bounded in time. Mounts are undone, processes left in the
#    root ended, and the root removed on exit, whatever happened.
#
# Prints the total time; exits 0 only when both commands succeeded. Logs in
# build-fresh/logs/. Needs root (debootstrap, mount, chroot) and the network
# the two commands need: the Debian mirror and the npm registry.
#
# Environment:
#   GRUNDY_*                  passed to scripts/run.sh and scripts/test.sh in
#                             the chroot, e.g. GRUNDY_SANITIZERS=0 (no sanitizer
#                             runs), GRUNDY_CONTAINER=0 (no podman image stage),
#                             GRUNDY_BROWSER=0; the GRUNDY_FRESH_* below are not
#   GRUNDY_FRESH_CA           a PEM file of extra CA certificates the network
#                             needs (a TLS-intercepting proxy), given to npm in
#                             the root as NODE_EXTRA_CA_CERTS; default: the
#                             host's $NODE_EXTRA_CA_CERTS, if set; "none": none
#   GRUNDY_FRESH_KEEP=1       keep build-fresh/root afterwards (unmounted)
#   GRUNDY_FRESH_REBOOTSTRAP=1  debootstrap again rather than use the cache
#   GRUNDY_FRESH_RUN_TIMEOUT  seconds for the run command's first answer (1200)
#   GRUNDY_FRESH_TEST_TIMEOUT seconds for the test command (5400)
set -euo pipefail
cd "$(dirname "$0")/.."

t_start=$SECONDS
RECIPE=minbase-1 # changing how the root is made below means changing this
top=$(pwd -P)/build-fresh
root=$top/root
logs=$top/logs
tarball=$top/debian-bookworm-$RECIPE.tar
run_timeout=${GRUNDY_FRESH_RUN_TIMEOUT:-1200}
test_timeout=${GRUNDY_FRESH_TEST_TIMEOUT:-5400}
ca=${GRUNDY_FRESH_CA:-${NODE_EXTRA_CA_CERTS:-none}}
say() { echo "fresh-test: $*"; }
die() { say "FAILED: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, mount, chroot)"
export PATH=$PATH:/usr/sbin:/sbin
mkdir -p "$logs"

# mounts_under DIR: the mount points at or below DIR, deepest first.
mounts_under() {
    awk -v d="$1" '{ gsub(/\\040/, " ", $2); if ($2 == d || index($2, d "/") == 1) print $2 }' /proc/self/mounts |
        sort -r
}
# end_processes: every process whose root is the chroot (all started here).
end_processes() {
    local sig p pids
    for sig in TERM KILL; do
        pids=()
        for p in /proc/[0-9]*; do
            [ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && pids+=("${p#/proc/}")
        done
        [ ${#pids[@]} -gt 0 ] || return 0
        say "ending ${#pids[@]} processes left in the root (SIG$sig)"
        kill -s "$sig" "${pids[@]}" 2>/dev/null || true
        for _ in $(seq 1 50); do
            local alive=0
            for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
            [ $alive -eq 1 ] || break
            sleep 0.2
        done
    done
}
# busy: the names of the processes running in the root, most frequent first.
busy() {
    local p
    for p in /proc/[0-9]*; do
        [ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && cat "$p/comm" 2>/dev/null
    done | sort | uniq -c | sort -rn | awk '{ printf "%s%s", (NR > 1 ? ", " : ""), $2 } NR == 6 { exit }'
}
# release: no process, no mount left in the root; removes it unless kept.
# Never removes a root that still has something mounted in it.
release() {
    local m
    [ -d "$root" ] || return 0
    end_processes
    for m in $(mounts_under "$root"); do
        umount -R "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
    done
    if [ -n "$(mounts_under "$root")" ]; then
        say "mounts left under $root, not removing it:" >&2
        mounts_under "$root" >&2
        return 1
    fi
    if [ "${GRUNDY_FRESH_KEEP:-0}" != 1 ]; then
        rm -rf --one-file-system "$root"
    fi
}
run_pid=""
test_pid=""
cleanup() {
    local status=$?
    trap - EXIT INT TERM
    [ -z "$run_pid" ] || kill -TERM -- "-$run_pid" 2>/dev/null || true
    [ -z "$test_pid" ] || kill -TERM -- "-$test_pid" 2>/dev/null || true
    release || status=1
    [ "${GRUNDY_FRESH_KEEP:-0}" != 1 ] || say "kept the root in $root"
    say "total $((SECONDS - t_start)) s"
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Anything left from an interrupted run.
GRUNDY_FRESH_KEEP=0 release || die "could not clear the last run's $root"

[ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] ||
    say "note: uncommitted changes are not tested (the root gets HEAD, $(git rev-parse --short HEAD))"

# 1. The root.
# shellcheck source=scripts/host-apt.sh
. scripts/host-apt.sh
say "mirror $mirror, security $security${apt_proxy:+, apt proxy $apt_proxy}"
if ! command -v debootstrap >/dev/null; then
    say "installing debootstrap"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
          debootstrap >"$logs/apt.log" 2>&1; } || die "cannot install debootstrap (see $logs/apt.log)"
fi
t0=$SECONDS
if [ ! -s "$tarball" ] || [ "${GRUNDY_FRESH_REBOOTSTRAP:-0}" = 1 ]; then
    scratch=$top/rootfs.tmp
    rm -rf --one-file-system "$scratch"
    say "debootstrap --variant=minbase bookworm from $mirror (a few minutes)"
    timeout 1200 env ${apt_proxy:+http_proxy=$apt_proxy} \
        debootstrap --variant=minbase bookworm "$scratch" "$mirror" >"$logs/debootstrap.log" 2>&1 ||
        die "debootstrap failed: $(tail -n 5 "$logs/debootstrap.log")"
    # A Debian 12 system's sources; no package caches or lists.
    printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s bookworm-security main\n' \
        "$mirror" "$mirror" "$security" >"$scratch/etc/apt/sources.list"
    find "$scratch/var/cache/apt" "$scratch/var/lib/apt/lists" -type f -delete
    rm -rf "$scratch/var/log/"*.log "$scratch/var/log/apt" "$scratch/debootstrap"
    tar --numeric-owner -C "$scratch" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
    rm -rf --one-file-system "$scratch"
    say "debootstrap took $((SECONDS - t0)) s; cached as ${tarball#"$PWD"/}"
else
    say "Debian 12 minbase from the cached ${tarball#"$PWD"/}"
fi
mkdir -p "$root"
tar --numeric-owner -C "$root" -xf "$tarball"
# The host's network settings: its resolver, its apt proxy and Valid-Until
# setting (a mirror serving a frozen snapshot), and the CA certificates its
# network needs, if any.
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
[ -z "$apt_proxy" ] || printf 'Acquire::http::Proxy "%s";\n' "$apt_proxy" >"$root/etc/apt/apt.conf.d/90host-proxy"
[ "$valid_until" != false ] ||
    printf 'Acquire::Check-Valid-Until "false";\n' >"$root/etc/apt/apt.conf.d/90host-valid-until"
root_env=(HOME=/root USER=root LOGNAME=root SHELL=/bin/bash TERM=dumb LANG=C.UTF-8
          PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
if [ "$ca" != none ]; then
    [ -r "$ca" ] || die "GRUNDY_FRESH_CA: cannot read $ca"
    mkdir -p "$root/usr/local/share/grundy-fresh"
    cp -L "$ca" "$root/usr/local/share/grundy-fresh/extra-ca.pem"
    root_env+=(NODE_EXTRA_CA_CERTS=/usr/local/share/grundy-fresh/extra-ca.pem)
    say "extra CA certificates for npm: $ca"
fi
while IFS='=' read -r name _; do
    case "$name" in GRUNDY_FRESH_*) ;; GRUNDY_*) root_env+=("$name=${!name}") ;; esac
done < <(env)
passed=$(printf '%s\n' "${root_env[@]}" | grep '^GRUNDY_' | tr '\n' ' ' || true)
[ -z "$passed" ] || say "passed to the root: $passed"
mkdir -p "$root/root/grundyd"
git archive --format=tar HEAD | tar -C "$root/root/grundyd" -xf -
say "root ready in $((SECONDS - t0)) s: Debian $(cat "$root/etc/debian_version"), checkout $(git rev-parse --short HEAD)"

mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys"
mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev"
mount -t tmpfs -o mode=755 tmpfs "$root/run"

# A login shell's environment in the root.
in_root=(chroot "$root" /usr/bin/env -i "${root_env[@]}")

# 2. The run command, until its first answer.
t0=$SECONDS
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
say "run command: scripts/run.sh with GRUNDYD_PORT=$port (log: ${logs#"$PWD"/}/run.log)"
# In a session of its own (setsid, no fork here: this is no group leader),
# so that it is stopped whole.
setsid "${in_root[@]}" GRUNDYD_PORT="$port" /bin/bash -c 'cd /root/grundyd && exec scripts/run.sh' \
    >"$logs/run.log" 2>&1 </dev/null &
run_pid=$!
answer=""
next_note=$((SECONDS + 30))
while [ $((SECONDS - t0)) -lt "$run_timeout" ]; do
    if answer=$(curl -s --max-time 5 -d '{"game":"nim","piles":[3,4,5]}' "http://127.0.0.1:$port/v1/analyze") &&
       [[ "$answer" == *'"winner":"first"'* ]]; then
        break
    fi
    answer=""
    kill -0 "$run_pid" 2>/dev/null || break
    if [ $SECONDS -ge $next_note ]; then
        say "  no answer yet after $((SECONDS - t0)) s; running in the root: $(busy)"
        next_note=$((SECONDS + 30))
    fi
    sleep 2
done
run_ok=0
if [ -n "$answer" ]; then
    say "run command answered after $((SECONDS - t0)) s: $(printf '%s' "$answer" | cut -c1-110)..."
    kill -TERM -- "-$run_pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$run_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$run_pid" 2>/dev/null || true
    wait "$run_pid" 2>/dev/null || true
else
    run_ok=1
    if kill -0 "$run_pid" 2>/dev/null; then
        say "run command: no answer within $run_timeout s" >&2
        kill -KILL -- "-$run_pid" 2>/dev/null || true
    else
        say "run command ended without an answer" >&2
    fi
    wait "$run_pid" 2>/dev/null || true
    tail -n 30 "$logs/run.log" | sed 's/^/  | /' >&2
fi
run_pid=""
end_processes

# 3. The test command, its own lines shown as they come.
t0=$SECONDS
say "test command: scripts/test.sh${GRUNDY_SANITIZERS:+ (GRUNDY_SANITIZERS=$GRUNDY_SANITIZERS)}" \
    "(at most $test_timeout s; log: ${logs#"$PWD"/}/test.log)"
# timeout runs it in a process group of its own, and ends that group.
timeout -k 30 "$test_timeout" "${in_root[@]}" /bin/bash -c 'cd /root/grundyd && scripts/test.sh' \
    >"$logs/test.log" 2>&1 </dev/null &
test_pid=$!
tail -n +1 -f --pid="$test_pid" "$logs/test.log" |
    grep --line-buffered -E '^(test\.sh|install-deps|node-env|browser-test|container-test|lint-openapi|manifests-test): |^[a-z+]+: +[0-9]+ passed|^failed: |^    # |^total: |^ *[0-9]+/[0-9]+ .* (FAIL|TIMEOUT) ' |
    sed -u 's/^/  | /' || true
test_status=0
wait "$test_pid" || test_status=$?
test_pid=""
[ $test_status -ne 124 ] || say "test command: no end within $test_timeout s" >&2
end_processes

say "the test command's last lines:"
tail -n 50 "$logs/test.log" | sed 's/^/  | /'
system_node=$(chroot "$root" /usr/bin/node --version 2>/dev/null || echo none)
pinned_node=$(chroot "$root" /root/grundyd/build-tools/node/bin/node --version 2>/dev/null || echo none)
say "node: Debian's /usr/bin/node $system_node; the project's build-tools/node $pinned_node"
say "run command $([ $run_ok -eq 0 ] && echo ok || echo FAILED);" \
    "test command exit $test_status after $((SECONDS - t0)) s"
[ $run_ok -eq 0 ] && [ $test_status -eq 0 ]
