#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every benchmark in one command, against the optimised build (meson
# release in BUILD_DIR, default build-release, as scripts/run.sh builds it):
#   1. bench/http.sh     grundyd against the libmicrohttpd + cJSON baseline,
#                        five mixes, NDJSON batch throughput
#      (then bench/defaults.sh, and bench/ndjson.sh: full and slim NDJSON
#      answers through one curl, RSS during the stream)
#   2. bench/allocs.sh   heap allocations per request, by shared object
#   3. bench/engine.sh   engine values/s (subtraction, Grundy's game, octal)
#   4. bench/tables.sh   Grundy's game table build, startup, page sharing
#   5. the whole default table file, built from scratch (wall time)
# Results go to stdout; bench/README.md keeps the latest figures. About
# 6 minutes on two cores. Run it on a quiet machine: the load generator
# shares the cores with the servers.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${1:-$root/build-release}
if [[ ! -f $build/build.ninja ]]; then
    meson setup "$build" --buildtype=release -Dtests=false >/dev/null
fi
ninja -C "$build" >/dev/null
echo "# machine: $(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo; echo "### 1. HTTP"; bash bench/http.sh "$build"
echo; echo "### 1b. the defaults (scripts/run.sh) against the bare stack"; bash bench/defaults.sh "$build" || true
echo; echo "### 1c. NDJSON full and slim through one curl, RSS"; bash bench/ndjson.sh "$build" || true
echo; echo "### 2. allocations"; bash bench/allocs.sh "$build"
echo; echo "### 3. engine"; bash bench/engine.sh
echo; echo "### 4. tables and startup"; bash bench/tables.sh "$build"
echo; echo "### 4b. startup, median of 10"; bash bench/startup.sh "$build" || true
echo; echo "### 5. the default table file from scratch"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s.%N)
"$build/grundy-tables-default" "$tmp/grundy.tables" 4194304 65536 >/dev/null
echo "default table file: $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s wall, $(stat -c %s "$tmp/grundy.tables") bytes"
