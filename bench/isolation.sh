#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Isolation of heavy work (issue: "light Nim queries keep a p99 latency of
# at most 5 ms at 32 connections while heavy queries saturate the pool").
#
# Starts grundyd, saturates its compute pool with heavy queries
# (bench/heavy.lua: each about a second of work on a compute thread), and
# meanwhile measures Nim queries (bench/nim.lua) at 32 connections with wrk.
# Prints the light p50/p99 with and without the heavy load, the heavy
# requests completed and refused (503), and the verdict against 5 ms.
#
# Usage: bench/isolation.sh [BUILD_DIR]   (default: build-release, built if missing)
# Environment: THREADS (grundyd --threads, 2), COMPUTE_THREADS (2),
#   WRK_THREADS (the light load's wrk threads, 1: on two cores a second one
#   preempts grundyd's HTTP threads and the p99 measures that).
# Loopback only; about 25 s.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-release}
if [[ ! -x $build/grundyd ]]; then
    meson setup "$build" --buildtype=release -Dtests=false >/dev/null
    ninja -C "$build" >/dev/null
fi
port=${PORT:-18181}
log=$(mktemp)
"$build/grundyd" --port "$port" --tables "$build/grundy.tables" --access-log off \
    --threads "${THREADS:-2}" --compute-threads "${COMPUTE_THREADS:-2}" --queue 64 2>"$log" &
pid=$!
trap 'kill $pid 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break
    sleep 0.1
done
url=http://127.0.0.1:$port/v1/analyze

light() { wrk -t"${WRK_THREADS:-1}" -c32 -d"$1" --latency -s "$root/bench/nim.lua" "$url"; }
percentile() { awk -v p="$1" '$1 == p { print $2 }'; }

echo "== light only (nim, 32 connections, 5 s)"
base=$(light 5s)
echo "$base" | grep -E "Requests/sec|^ +(50|99)%"

echo "== light while heavy queries saturate the pool (heavy: 8 connections)"
wrk -t1 -c8 -d14s --timeout 30s -s "$root/bench/heavy.lua" "$url" >"$log.heavy" &
hpid=$!
sleep 2
loaded=$(light 10s)
wait $hpid || true
echo "$loaded" | grep -E "Requests/sec|^ +(50|99)%"
echo "-- heavy:"
grep -E "requests in|Non-2xx" "$log.heavy" || true
depth=$(curl -s "http://127.0.0.1:$port/metrics" | awk '$1 == "grundyd_compute_rejected_total" { print $2 }')
echo "heavy refused with 503 (queue full): ${depth:-0}"
p99=$(echo "$loaded" | percentile "99%")
rm -f "$log.heavy"
echo "light p99 under heavy load: $p99 (target: at most 5ms)"
