#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# NDJSON at memory speed (issue 19): LINES Nim queries of 3 piles of random
# sizes up to 10^18, generated once into two files (full answers, and slim
# ones: the same queries with "explain": false), streamed through one curl
# over loopback to grundyd started exactly as scripts/run.sh starts it (no
# option but the port: default threads, access log on):
#
#   curl -sS --data-binary @FILE -H 'Content-Type: application/x-ndjson' \
#        http://127.0.0.1:PORT/v1/batch -o /dev/null
#
# Each form's answers are first checked byte for byte against `grundy
# batch` on the same file; then ROUNDS rounds time both forms, alternating
# which goes first. The daemon's VmRSS is sampled every 10 ms during every
# stream and compared with its idle VmRSS (after a warm-up; VmHWM at the end
# too). Prints each run, the best and the median answers/s of each form, and
# the RSS peak over idle. Exits 1 when the slim form's best is below 3,000,000
# answers/s or the peak RSS is more than 64 MiB over idle (the targets of
# issue 19); the figures are printed either way.
#
# Usage: bench/ndjson.sh [BUILD_DIR]   (default build-release, built as
# scripts/run.sh does when missing)
# Environment: LINES (1000000), ROUNDS (3).
# Needs curl and python3; loopback only. About 30 s on two quiet cores.
set -euo pipefail
bench_name=ndjson.sh
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${1:-$root/build-release}
lines=${LINES:-1000000} rounds=${ROUNDS:-3}
for tool in curl python3; do
    command -v "$tool" >/dev/null || { echo "ndjson.sh: $tool is missing" >&2; exit 2; }
done
bench_build "$build"

bench_scratch

python3 - "$lines" "$work/full.ndjson" "$work/slim.ndjson" <<'EOF'
import random, sys
n, full, slim = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rng = random.Random(19)
with open(full, "w") as f, open(slim, "w") as g:
    for _ in range(n):
        piles = ",".join(str(rng.randrange(10 ** 18 + 1)) for _ in range(3))
        f.write('{"game":"nim","piles":[%s]}\n' % piles)
        g.write('{"game":"nim","piles":[%s],"explain":false}\n' % piles)
EOF

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
url="http://127.0.0.1:$port/v1/batch"
"$build/grundyd" --port "$port" 2>"$work/grundyd.log" &
pid=$!
pids+=("$pid")
for _ in $(seq 100); do
    curl -sf -o /dev/null -d '{"game":"nim","piles":[1]}' "http://127.0.0.1:$port/v1/analyze" && break
    sleep 0.1
done

stream() { # file [out]: "seconds bytes" of one stream
    curl -sS --data-binary @"$1" -H 'Content-Type: application/x-ndjson' "$url" -o "${2:-/dev/null}" \
        -w '%{time_total} %{size_download}\n'
}
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status"; }

echo "== NDJSON: $lines Nim queries (3 piles up to 10^18) through one curl; grundyd as scripts/run.sh starts it"
echo "   machine: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A want
for form in full slim; do
    "$build/grundy" batch --tables "$build/grundy.tables" "$work/$form.ndjson" >"$work/expected" || true
    stream "$work/$form.ndjson" "$work/got" >/dev/null
    cmp -s "$work/got" "$work/expected" || { echo "ndjson.sh: $form answers differ from grundy batch" >&2; exit 1; }
    want[$form]=$(stat -c %s "$work/expected")
    echo "   $form: $(stat -c %s "$work/$form.ndjson") bytes in, ${want[$form]} out, checked against grundy batch"
done
rm -f "$work/got" "$work/expected"
sleep 0.5
idle=$(rss)
echo "   idle VmRSS after the checks: $idle kB"

peak=$idle
declare -A runs
for r in $(seq "$rounds"); do
    order=(full slim)
    ((r % 2 == 0)) && order=(slim full)
    for form in "${order[@]}"; do
        : >"$work/rss"
        (while :; do rss >>"$work/rss"; sleep 0.01; done) &
        sampler=$!
        read -r t got < <(stream "$work/$form.ndjson")
        kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null || true
        [[ $got == "${want[$form]}" ]] || { echo "ndjson.sh: $form run $r received $got bytes, want ${want[$form]}" >&2; exit 1; }
        top=$(sort -n "$work/rss" | tail -1)
        ((top > peak)) && peak=$top
        rate=$(python3 -c "print(round($lines / $t))")
        runs[$form]+="$rate "
        echo "   round $r $form: $t s, $rate answers/s, peak VmRSS $top kB"
    done
done
hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status")
echo "   load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "${runs[full]}" "${runs[slim]}" "$idle" "$peak" "$hwm" <<'EOF'
import statistics, sys
full, slim = [list(map(int, a.split())) for a in sys.argv[1:3]]
idle, peak, hwm = map(int, sys.argv[3:6])
for name, v in (("full", full), ("slim", slim)):
    print("   %s: best %s answers/s, median %s" % (name, format(max(v), ","), format(round(statistics.median(v)), ",")))
print("   slim/full (medians): %.2f" % (statistics.median(slim) / statistics.median(full)))
print("   VmRSS: idle %.1f MiB, peak sampled %.1f MiB (+%.1f MiB); VmHWM %.1f MiB" %
      (idle / 1024, peak / 1024, (peak - idle) / 1024, hwm / 1024))
ok = max(slim) >= 3000000 and peak - idle <= 64 * 1024
print("   targets (slim >= 3,000,000 answers/s; peak within 64 MiB of idle): %s" % ("met" if ok else "NOT met"))
sys.exit(0 if ok else 1)
EOF
