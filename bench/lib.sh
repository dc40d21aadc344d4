# SPDX-License-Identifier: MIT
# Shared by the bench scripts (sourced, not run): the release build they
# measure, a scratch directory with the servers started in it, loopback ports
# and readiness polling. The sourcing script sets `set -euo pipefail` and
# names itself in $bench_name (for messages).

# bench_build DIR: a release build in DIR (configured when missing), brought
# up to date.
bench_build() {
    if [[ ! -f $1/build.ninja ]]; then
        meson setup "$1" --buildtype=release -Dtests=false >/dev/null
    fi
    ninja -C "$1" >/dev/null
}

# bench_baseline DIR: the bare libmicrohttpd + cJSON handler (bench/baseline.c)
# as DIR/bench-baseline, at meson's release optimisation (-O3).
bench_baseline() {
    cc -O3 -std=c11 -D_GNU_SOURCE -Wall -Wextra -o "$1/bench-baseline" bench/baseline.c \
        $(pkg-config --cflags --libs libmicrohttpd libcjson) -lpthread
}

# bench_scratch: $work, a scratch directory, and $pids, the servers started
# (append each one's pid); both are cleaned up on exit.
bench_scratch() {
    work=$(mktemp -d)
    pids=()
    trap bench_cleanup EXIT
}
bench_cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}

# free_port: a loopback port free now.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# wait_up URL: polls POST URL with a Nim query for up to 10 s; exits when
# nothing answers.
wait_up() {
    for _ in $(seq 100); do
        curl -sf -o /dev/null -d '{"game":"nim","piles":[1]}' "$1" && return 0
        sleep 0.1
    done
    echo "$bench_name: nothing answers at $1" >&2
    exit 1
}
