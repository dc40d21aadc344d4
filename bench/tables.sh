#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmarks of the table file (see bench/README.md, section "Tables"):
#
#  (a) build speed: `grundy tables build` of a file where only Grundy's game
#      is large, against the naive O(n^2) twin (bench/naive_grundys.c) to
#      20,000 values; values/s of both and their ratio;
#  (b) startup: from exec of grundyd to the first 200 on /healthz with the
#      default table file, best of 10;
#  (c) sharing: two grundyd on the same table file; Rss, Pss and
#      Shared_Clean of the file's mapping in each (/proc/PID/smaps).
#
# Usage: bench/tables.sh [BUILD_DIR]   (default: build/ beside bench/)
# Needs BUILD_DIR/grundy, BUILD_DIR/grundyd and BUILD_DIR/grundy.tables
# (`ninja -C build`), gcc and curl. Loopback only; about 10 s.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
grundy=$build/grundy
grundyd=$build/grundyd
tables=$build/grundy.tables
grundys_values=${GRUNDYS_VALUES:-4194304}   # the default table's bound
naive_values=20000
runs=10

for f in "$grundy" "$grundyd" "$tables"; do
    if [[ ! -e $f ]]; then
        echo "tables.sh: no $f; build it first (ninja -C build)" >&2
        exit 2
    fi
done
command -v gcc >/dev/null || { echo "tables.sh: needs gcc" >&2; exit 2; }
command -v curl >/dev/null || { echo "tables.sh: needs curl" >&2; exit 2; }

work=$(mktemp -d /tmp/grundy-bench-tables-XXXXXX)
pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do
        kill "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

ms() { awk -v ns="$1" 'BEGIN { printf "%.1f", ns / 1e6 }'; }

# Starts grundyd on 127.0.0.1 --port 0 with the table file, logging to $1;
# sets $pid and waits (bash builtins only, no sleeping) until event=ready
# names the port, which it sets in $port.
start_daemon() {
    local log=$1 deadline=$((SECONDS + 10)) line
    : >"$log"
    "$grundyd" --host 127.0.0.1 --port 0 --tables "$tables" 2>"$log" &
    pid=$!
    pids+=("$pid")
    port=
    while [[ -z $port ]]; do
        while IFS= read -r line; do
            if [[ $line =~ event=ready\ addr=[^\ ]*:([0-9]+) ]]; then
                port=${BASH_REMATCH[1]}
            fi
        done <"$log"
        if ! kill -0 "$pid" 2>/dev/null || ((SECONDS > deadline)); then
            echo "tables.sh: grundyd did not start:" >&2
            cat "$log" >&2
            exit 1
        fi
    done
}

stop_daemon() {
    kill -TERM "$1"
    wait "$1" 2>/dev/null || true
    local keep=() p
    for p in "${pids[@]}"; do
        [[ $p == "$1" ]] || keep+=("$p")
    done
    pids=("${keep[@]}")
}

# ---- (a) build speed -------------------------------------------------------

echo "== (a) build: Grundy's game to $grundys_values values, the other parts tiny"
built=$work/grundys.tables
"$grundy" tables build "$built" --grundys-values "$grundys_values" --octal-values 64 \
    --wythoff 8 --divisor 100 2>"$work/build.log"
sed 's/^/   /' "$work/build.log"
# Cumulative seconds; Grundy's game runs on its own thread from the start and
# is the last part to finish, so its line is its own time.
build_s=$(awk '/^tables: Grundy.s game/ { print $NF == "s" ? $(NF - 1) : $NF }' "$work/build.log")
build_vps=$(awk -v n="$grundys_values" -v s="$build_s" 'BEGIN { printf "%.0f", n / s }')

gcc -O2 -std=c11 -o "$work/naive_grundys" "$root/bench/naive_grundys.c"
best_naive=
for _ in 1 2 3; do
    out=$("$work/naive_grundys" "$naive_values")
    s=$(sed -n 's/.* in \([0-9.]*\) s .*/\1/p' <<<"$out")
    if [[ -z $best_naive ]] || awk -v a="$s" -v b="$best_naive" 'BEGIN { exit !(a < b) }'; then
        best_naive=$s
        best_out=$out
    fi
done
echo "   $best_out (best of 3)"
naive_g=$(sed -n 's/.*= \([0-9]*\)$/\1/p' <<<"$best_out")
naive_vps=$(awk -v n="$naive_values" -v s="$best_naive" 'BEGIN { printf "%.0f", n / s }')
ratio=$(awk -v a="$build_vps" -v b="$naive_vps" 'BEGIN { printf "%.1f", a / b }')
# The naive cost grows as n^2: its time to the builder's bound, extrapolated.
naive_full_s=$(awk -v n="$grundys_values" -v m="$naive_values" -v s="$best_naive" \
    'BEGIN { printf "%.0f", s * (n / m) ^ 2 }')
# Cross-check: the built table and the naive twin agree at heap naive_values-1.
table_g=$("$grundy" query --tables "$built" \
    "{\"game\":\"grundys_game\",\"piles\":[$((naive_values - 1))]}" |
    sed -n 's/.*"grundy":\([0-9]*\),.*/\1/p')
if [[ $table_g != "$naive_g" ]]; then
    echo "tables.sh: g($((naive_values - 1))) is $table_g in the table, $naive_g by the naive twin" >&2
    exit 1
fi
echo "   g($((naive_values - 1))) = $table_g in both"

# ---- (b) startup -------------------------------------------------------------

echo "== (b) startup: exec to the first 200 on /healthz, $(du -h "$tables" | cut -f1) table file, best of $runs"
best_ns=
for i in $(seq "$runs"); do
    t0=$(date +%s%N)
    start_daemon "$work/start.log"
    until [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$port/healthz") == 200 ]]; do
        kill -0 "$pid" 2>/dev/null || { cat "$work/start.log" >&2; exit 1; }
    done
    t1=$(date +%s%N)
    stop_daemon "$pid"
    dt=$((t1 - t0))
    echo "   run $i: $(ms "$dt") ms"
    if [[ -z $best_ns ]] || ((dt < best_ns)); then
        best_ns=$dt
    fi
done

# ---- (c) sharing -------------------------------------------------------------

echo "== (c) sharing: two grundyd on $tables"
real_tables=$(readlink -f "$tables")
# Sums a field (kB) over the mappings of the table file in /proc/PID/smaps.
smaps_kb() {
    awk -v file="$real_tables" -v field="$2:" '
        /^[0-9a-f]+-[0-9a-f]+ / { inside = ($NF == file) }
        inside && $1 == field { kb += $2 }
        END { print kb + 0 }' "/proc/$1/smaps"
}
start_daemon "$work/d1.log"
pid1=$pid
start_daemon "$work/d2.log"
pid2=$pid
# Both have mapped (MAP_POPULATE) and validated every page before event=ready.
declare -A mem
for p in "$pid1" "$pid2"; do
    for f in Rss Pss Shared_Clean Private_Clean; do
        mem[$p,$f]=$(smaps_kb "$p" "$f")
    done
    echo "   pid $p: Rss ${mem[$p,Rss]} kB, Pss ${mem[$p,Pss]} kB, Shared_Clean ${mem[$p,Shared_Clean]} kB, Private_Clean ${mem[$p,Private_Clean]} kB"
done
stop_daemon "$pid1"
stop_daemon "$pid2"

# ---- results -----------------------------------------------------------------

echo
echo "| measure | result |"
echo "| --- | --- |"
echo "| build, Grundy's game to $grundys_values values | $build_s s, $build_vps values/s |"
echo "| naive O(n^2) twin to $naive_values values | $best_naive s, $naive_vps values/s (to $grundys_values: ~$naive_full_s s extrapolated) |"
echo "| values/s, builder / naive | ${ratio}x |"
echo "| startup to first 200 on /healthz (best of $runs) | $(ms "$best_ns") ms |"
i=1
for p in "$pid1" "$pid2"; do
    echo "| daemon $i, table mapping | Rss ${mem[$p,Rss]} kB, Pss ${mem[$p,Pss]} kB, Shared_Clean ${mem[$p,Shared_Clean]} kB |"
    i=$((i + 1))
done
