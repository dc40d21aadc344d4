#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The default configuration against the bare stack: grundyd started exactly
# as scripts/run.sh starts it (no option but the port: access log on, thread
# counts from its CPUs), its stderr a pipe drained to a file as a container
# runtime or journald would, against bench/baseline.c, the thinnest
# libmicrohttpd + cJSON Nim server. Both run under `taskset -c 0` (so
# grundyd's defaults are 1 HTTP and 1 compute thread, and the baseline gets
# one thread too) and wrk -t1 -c32 on CPU 1, ROUNDS rounds, the order
# alternating. grundyd answers the same Nim query twice each round: slim
# ("explain": false, bench/mix/nim_slim.lua) and in its default, explained
# form (bench/mix/nim.lua). Prints each run, the median ratio
# grundyd/baseline of each form and grundyd's median p99 of the slim one,
# the access lines written and the lines dropped. Exits 1 when the slim
# median ratio is below 0.95 or its median p99 above 1 ms (the targets of
# issue 25); the default form's ratio is reported beside it.
#
# Usage: bench/defaults.sh [BUILD_DIR]   (default build-release, built as
# scripts/run.sh does when missing)
# Environment: ROUNDS (3), DURATION per wrk run (5s), CONNS (32).
# Needs wrk, curl, taskset, python3, a C compiler; loopback only.
set -euo pipefail
bench_name=defaults.sh
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${1:-$root/build-release}
rounds=${ROUNDS:-3} duration=${DURATION:-5s} conns=${CONNS:-32}
for tool in wrk curl taskset python3 cc pkg-config; do
    command -v "$tool" >/dev/null || { echo "defaults.sh: $tool is missing" >&2; exit 2; }
done
(($(nproc) >= 2)) || { echo "defaults.sh: needs 2 CPUs (servers on 0, wrk on 1)" >&2; exit 2; }
bench_build "$build"
bench_baseline "$build"

bench_scratch

gport=$(free_port) bport=$(free_port)
# As scripts/run.sh: `exec build-release/grundyd "$@"`, here with --port.
taskset -c 0 "$build/grundyd" --port "$gport" 2> >(cat >"$work/grundyd.log") &
pids+=($!)
taskset -c 0 "$build/bench-baseline" "$bport" 1 &
pids+=($!)
wait_up "http://127.0.0.1:$gport/v1/analyze"
wait_up "http://127.0.0.1:$bport/"
grep -o 'event=ready.*' "$work/grundyd.log" | head -1 | cut -c1-200

results=$work/results
run() { # label url [script]
    local out
    out=$(taskset -c 1 wrk -t1 -c"$conns" -d"$duration" --latency -s "${3:-bench/mix/nim.lua}" "$2")
    grep -q "Non-2xx" <<<"$out" && { echo "defaults.sh: $1: non-2xx answers" >&2; echo "$out" >&2; exit 1; }
    awk -v label="$1" -v round="$round" '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        $1 == "Requests/sec:" { rps = $2 }
        $1 == "99%" { p99 = ms($2) }
        END { printf "%s %d %.0f %.3f\n", label, round, rps, p99 }' <<<"$out" | tee -a "$results" |
        awk '{ printf "  round %d %-9s %9s req/s  p99 %6s ms\n", $2, $1, $3, $4 }'
}
for ((round = 1; round <= rounds; round++)); do
    if ((round % 2)); then
        run baseline "http://127.0.0.1:$bport/"
        run slim "http://127.0.0.1:$gport/v1/analyze" bench/mix/nim_slim.lua
        run default "http://127.0.0.1:$gport/v1/analyze"
    else
        run default "http://127.0.0.1:$gport/v1/analyze"
        run slim "http://127.0.0.1:$gport/v1/analyze" bench/mix/nim_slim.lua
        run baseline "http://127.0.0.1:$bport/"
    fi
done
dropped=$(curl -s "http://127.0.0.1:$gport/metrics" | awk '$1 == "grundyd_access_log_dropped_lines_total" { print $2 }')
sleep 0.2
lines=$(grep -c 'event=access' "$work/grundyd.log" || true)
python3 - "$results" "$lines" "$dropped" <<'PY'
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1])]
by = {}
for label, rnd, rps, p99 in rows:
    by.setdefault(int(rnd), {})[label] = (float(rps), float(p99))
def ratios(form):
    return [r[form][0] / r["baseline"][0] for r in by.values()]
p99 = st.median(r["slim"][1] for r in by.values())
for form in ("slim", "default"):
    print("  median ratio grundyd %s/baseline Nim: %.3f (rounds: %s); median p99 %.2f ms (max %.2f)"
          % (form, st.median(ratios(form)), ", ".join("%.3f" % x for x in ratios(form)),
             st.median(r[form][1] for r in by.values()), max(r[form][1] for r in by.values())))
print("  access lines written: %s; dropped: %s" % (sys.argv[2], sys.argv[3]))
ok = st.median(ratios("slim")) >= 0.95 and p99 <= 1.0
print("  targets (slim ratio >= 0.95, slim p99 <= 1 ms): " + ("met" if ok else "NOT met"))
sys.exit(0 if ok else 1)
PY
