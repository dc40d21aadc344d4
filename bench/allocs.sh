#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Heap allocations per request, by the shared object that makes them.
#
# Preloads the counting allocator (bench/alloc_count.c) into the optimised
# grundyd and sends each workload over one keep-alive connection twice:
# WARMUP requests alone, then WARMUP + N. The difference, divided by N, is
# what one request costs: grundyd's own count must be 0 for Nim (the
# target), libmicrohttpd's is its response and header objects, libcjson's is
# zero because grundyd routes cJSON through its per-thread arena.
#
# Usage: bench/allocs.sh [BUILD_DIR]   (default build-release; built if missing)
# Environment: N (20000), WARMUP (2000). Loopback only; about 20 s.
set -euo pipefail
bench_name=allocs.sh
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${1:-$root/build-release}
n=${N:-20000}
warmup=${WARMUP:-2000}
bench_build "$build"
shim=$build/bench-alloc-count.so
cc -O2 -shared -fPIC -o "$shim" bench/alloc_count.c -ldl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# counts WORKLOAD REQUESTS OUT: one daemon's life with REQUESTS requests.
counts() {
    local workload=$1 requests=$2 out=$3 port
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    ALLOC_COUNT_OUT=$out LD_PRELOAD=$shim "$build/grundyd" --port "$port" --threads 1 --access-log off \
        --tables "$build/grundy.tables" 2>"$work/log" &
    local pid=$!
    python3 bench/alloc_client.py "$port" "$workload" "$requests"
    kill -TERM "$pid"
    wait "$pid"
}

printf '%-14s %-22s %s\n' "workload" "object" "allocations per request"
for workload in nim nim_1e18 subtraction kayles grundys ndjson_nim; do
    counts "$workload" "$warmup" "$work/a"
    counts "$workload" $((warmup + n)) "$work/b"
    python3 - "$work/a" "$work/b" "$n" "$workload" <<'EOF'
import collections, sys
def load(path):
    c = collections.Counter()
    for line in open(path):
        name, v = line.split()
        c[name] += int(v)
    return c
a, b, n, workload = load(sys.argv[1]), load(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
for name in sorted(set(a) | set(b)):
    d = (b[name] - a[name]) / n
    if abs(d) >= 0.0005 or name.startswith("grundy"):
        print(f"{workload:<14} {name:<22} {d:.3f}")
EOF
done
