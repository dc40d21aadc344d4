#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# grundyd over HTTP, side by side with the thinnest libmicrohttpd + cJSON
# server that answers a Nim query (bench/baseline.c).
#
# Builds the optimised grundyd (meson release, as scripts/run.sh does) and
# the baseline with the same compiler flags, starts both with the same
# libmicrohttpd thread mode and pool size, checks that both answer, and
# then, for ROUNDS rounds, runs wrk on each mix (bench/mix/*.lua): the
# baseline's Nim at the start and at the end of every round, grundyd's mixes
# in between, the order of the mixes alternating between rounds to cancel
# drift. Prints requests/s, p50 and p99 per mix (medians over the rounds),
# and each mix's ratio to the baseline's Nim requests/s in the same round.
# Then it measures NDJSON batch throughput: NDJSON_LINES Nim queries in one
# POST /v1/batch, answered once and checked line for line against `grundy
# batch`, then three times timed by curl, which discards the bytes (writing
# 700 MB to a file would time the client's disk) and checks their count.
#
# Usage: bench/http.sh [BUILD_DIR]   (default build-release; built if missing)
# Environment: ROUNDS (3), DURATION per wrk run (5s), CONNS (32),
#   THREADS (1: grundyd --threads and the baseline's pool), WRK_THREADS (1),
#   PIN (1: with two or more cores the servers run on CPU 0 and wrk on CPU 1,
#   so that the load generator never preempts the server it measures; with
#   two wrk threads and two server threads on two cores both servers' p99
#   grows to about 3 ms),
#   NDJSON_LINES (1000000), ACCESS_LOG (off: grundyd --access-log).
# Needs wrk, curl, python3, a C compiler; loopback only. About 3 minutes
# with the defaults (a first build of the table file adds about a minute).
set -euo pipefail
bench_name=http.sh
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${1:-$root/build-release}
rounds=${ROUNDS:-3}
duration=${DURATION:-5s}
conns=${CONNS:-32}
threads=${THREADS:-1}
wrk_threads=${WRK_THREADS:-1}
ndjson_lines=${NDJSON_LINES:-1000000}
access_log=${ACCESS_LOG:-off}
server_cpu=() wrk_cpu=()
if [[ ${PIN:-1} == 1 ]] && (($(nproc) >= 2)) && command -v taskset >/dev/null; then
    server_cpu=(taskset -c 0) wrk_cpu=(taskset -c 1)
fi
mixes=(nim subtraction kayles grundys mixed)

for tool in wrk curl python3 cc pkg-config; do
    command -v "$tool" >/dev/null || { echo "http.sh: $tool is missing (apt-get install wrk curl)" >&2; exit 2; }
done

# ---- build ---------------------------------------------------------------
bench_build "$build"
bench_baseline "$build"

# ---- servers ---------------------------------------------------------------
bench_scratch



gport=$(free_port)
"${server_cpu[@]}" "$build/grundyd" --port "$gport" --threads "$threads" --access-log "$access_log" \
    --tables "$build/grundy.tables" 2>"$work/grundyd.log" &
pids+=($!)
bport=$(free_port)
"${server_cpu[@]}" "$build/bench-baseline" "$bport" "$threads" &
pids+=($!)
gurl=http://127.0.0.1:$gport/v1/analyze
burl=http://127.0.0.1:$bport/
wait_up "$gurl"
wait_up "$burl"

# Both must answer the Nim mix's body alike before anything is timed.
python3 - "$gurl" "$burl" <<'EOF'
import json, sys, urllib.request
body = b'{"game":"nim","piles":[3,4,5,7]}'
def ask(url):
    req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(req, timeout=5))
g, b = ask(sys.argv[1]), ask(sys.argv[2])
assert (g["winner"], g["grundy"]) == (b["winner"], b["grundy"]) == ("first", 5), (g, b)
m = g["move"]
assert (m["pile"], m["to"]) == (b["move"]["pile"], b["move"]["to"]), (g, b)
EOF

# ---- wrk runs -------------------------------------------------------------
# run LABEL URL SCRIPT: appends "LABEL round rps p50_ms p99_ms" to results.
results=$work/results
run() {
    local label=$1 url=$2 script=$3 out
    out=$("${wrk_cpu[@]}" wrk -t"$wrk_threads" -c"$conns" -d"$duration" --latency -s "$script" "$url")
    if grep -q "Non-2xx" <<<"$out"; then
        echo "http.sh: $label: some answers were not 2xx:" >&2
        echo "$out" >&2
        exit 1
    fi
    awk -v label="$label" -v round="$round" '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        $1 == "Requests/sec:" { rps = $2 }
        $1 == "50%" { p50 = ms($2) }
        $1 == "99%" { p99 = ms($2) }
        END { printf "%s %d %.0f %.3f %.3f\n", label, round, rps, p50, p99 }' <<<"$out" >>"$results"
    tail -1 "$results" | awk '{ printf "  %-22s %9s req/s  p50 %7s ms  p99 %7s ms\n", $1, $3, $4, $5 }'
}

for ((round = 1; round <= rounds; round++)); do
    echo "== round $round of $rounds (wrk -t$wrk_threads -c$conns -d$duration; servers: $threads threads${server_cpu:+; servers on CPU 0, wrk on CPU 1})"
    order=("${mixes[@]}")
    if ((round % 2 == 0)); then
        order=(); for ((i = ${#mixes[@]} - 1; i >= 0; i--)); do order+=("${mixes[i]}"); done
    fi
    run baseline:nim "$burl" bench/mix/nim.lua
    for mix in "${order[@]}"; do
        run "grundyd:$mix" "$gurl" "bench/mix/$mix.lua"
    done
    run baseline:nim "$burl" bench/mix/nim.lua
done

echo
echo "== medians over $rounds rounds; ratio = grundyd req/s / baseline Nim req/s of the same round"
touch "$results"
python3 - "$results" "${mixes[@]}" <<'EOF'
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1])]
if not rows:
    sys.exit(0)
base = {}
for label, rnd, rps, p50, p99 in rows:
    if label == "baseline:nim":
        base.setdefault(int(rnd), []).append(float(rps))
def line(name, sel, ratio):
    rps = st.median(float(r[2]) for r in sel)
    p50 = st.median(float(r[3]) for r in sel)
    p99 = st.median(float(r[4]) for r in sel)
    rat = st.median(ratio) if ratio else None
    print(f"| {name} | {rps:,.0f} | {p50:.2f} | {p99:.2f} | " + (f"{rat:.2f}" if rat else "1.00 (reference)") + " |")
print("| mix | req/s | p50 ms | p99 ms | ratio to baseline Nim |")
print("| --- | --- | --- | --- | --- |")
line("baseline: nim", [r for r in rows if r[0] == "baseline:nim"], None)
for mix in sys.argv[2:]:
    sel = [r for r in rows if r[0] == "grundyd:" + mix]
    line("grundyd: " + mix, sel, [float(r[2]) / st.mean(base[int(r[1])]) for r in sel])
EOF

# ---- NDJSON batch ----------------------------------------------------------
# NDJSON is one request: the daemon as deployed (default threads, no
# pinning) may use every core for it.
nport=$(free_port)
"$build/grundyd" --port "$nport" --access-log "$access_log" --tables "$build/grundy.tables" 2>"$work/ndjson.log" &
pids+=($!)
wait_up "http://127.0.0.1:$nport/v1/analyze"
echo
echo "== NDJSON: $ndjson_lines Nim queries in one POST /v1/batch (grundyd with its default threads, not pinned)"
python3 - "$ndjson_lines" "$work/nim.ndjson" <<'EOF'
import random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(7)
with open(path, "w") as f:
    for _ in range(n):
        piles = [rng.randrange(10 ** rng.randint(1, 18)) for _ in range(rng.randint(1, 6))]
        f.write('{"game":"nim","piles":[%s]}\n' % ",".join(map(str, piles)))
EOF
"$build/grundy" batch --tables "$build/grundy.tables" "$work/nim.ndjson" >"$work/expected.ndjson" || true
curl -s -H 'Content-Type: application/x-ndjson' --data-binary @"$work/nim.ndjson" \
    "http://127.0.0.1:$nport/v1/batch" -o "$work/got.ndjson"
cmp -s "$work/got.ndjson" "$work/expected.ndjson" || { echo "http.sh: NDJSON answers differ from grundy batch" >&2; exit 1; }
want=$(stat -c %s "$work/expected.ndjson")
echo "  answers checked line for line against grundy batch ($want bytes); timed runs discard the bytes"
best=""
for i in 1 2 3; do
    read -r t got < <(curl -s -H 'Content-Type: application/x-ndjson' --data-binary @"$work/nim.ndjson" \
        "http://127.0.0.1:$nport/v1/batch" -o /dev/null -w '%{time_total} %{size_download}\n')
    [[ $got == "$want" ]] || { echo "http.sh: run $i received $got bytes, want $want" >&2; exit 1; }
    rate=$(python3 -c "print(round($ndjson_lines / $t))")
    echo "  run $i: $t s, $rate answers/s"
    [[ -z $best || $rate -gt $best ]] && best=$rate
done
echo "  best: $best answers/s (target: 1000000)"
