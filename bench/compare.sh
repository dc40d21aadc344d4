#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One grundyd against another, same bench, same run: the release build of
# the working tree and that of REF (a commit, built in a temporary git
# worktree), each serving the same mixes (bench/mix/*.lua, Nim by default)
# in turn, ROUNDS rounds, the order alternating between rounds to cancel
# drift. Prints each build's requests/s, p50 and p99 per round and the
# median ratio new/old per mix. Both answer the Nim body identically before
# anything is timed.
#
# Usage: bench/compare.sh REF [MIX ...]   (default mix: nim)
# Environment: ROUNDS (5), DURATION per wrk run (5s), CONNS (32),
#   THREADS (1), PIN (1: servers on CPU 0, wrk on CPU 1, as bench/http.sh).
# Needs wrk, curl, python3; loopback only.
set -euo pipefail
bench_name=compare.sh
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
ref=${1:?usage: bench/compare.sh REF [MIX ...]}
shift
mixes=("${@:-nim}")
rounds=${ROUNDS:-5} duration=${DURATION:-5s} conns=${CONNS:-32} threads=${THREADS:-1}
server_cpu=() wrk_cpu=()
if [[ ${PIN:-1} == 1 ]] && (($(nproc) >= 2)) && command -v taskset >/dev/null; then
    server_cpu=(taskset -c 0) wrk_cpu=(taskset -c 1)
fi

work=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    git worktree remove --force "$work/old" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

build() { # SRC DIR: a release build of the source tree SRC in DIR
    [[ -f $2/build.ninja ]] || meson setup "$2" "$1" --buildtype=release -Dtests=false >/dev/null
    ninja -C "$2" grundyd grundy.tables >/dev/null
}
git worktree add --detach "$work/old" "$ref" >/dev/null
build "$work/old" "$work/build-old"
build . build-release

url= # set by start
start() { # BUILD: starts a grundyd of BUILD and sets url to its /v1/analyze
    local port
    port=$(free_port)
    "${server_cpu[@]}" "$1/grundyd" --port "$port" --threads "$threads" --access-log off \
        --tables "$1/grundy.tables" >/dev/null 2>&1 &
    pids+=($!)
    url="http://127.0.0.1:$port/v1/analyze"
    wait_up "$url"
}
start "$work/build-old"
old_url=$url
start build-release
new_url=$url
body='{"game":"nim","piles":[3,4,5,7]}'
old_answer=$(curl -s -d "$body" "$old_url")
new_answer=$(curl -s -d "$body" "$new_url")
[[ $old_answer == "$new_answer" ]] ||
    { printf 'compare.sh: the two builds answer the Nim body differently:\n%s\n%s\n' "$old_answer" "$new_answer" >&2
      exit 1; }

results=$work/results
run() { # LABEL URL MIX ROUND
    "${wrk_cpu[@]}" wrk -t1 -c"$conns" -d"$duration" --latency -s "bench/mix/$3.lua" "$2" | awk \
        -v label="$1" -v mix="$3" -v round="$4" '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        $1 == "Requests/sec:" { rps = $2 }
        $1 == "50%" { p50 = ms($2) }
        $1 == "99%" { p99 = ms($2) }
        END { printf "%s %s %d %.0f %.3f %.3f\n", label, mix, round, rps, p50, p99 }' >>"$results"
}
for ((r = 1; r <= rounds; r++)); do
    for mix in "${mixes[@]}"; do
        if ((r % 2)); then run old "$old_url" "$mix" "$r"; run new "$new_url" "$mix" "$r"
        else run new "$new_url" "$mix" "$r"; run old "$old_url" "$mix" "$r"; fi
    done
done
echo "build mix round req/s p50_ms p99_ms"
cat "$results"
python3 - "$results" "$ref" <<'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
for mix in dict.fromkeys(r[1] for r in rows):
    by = {(r[0], r[2]): float(r[3]) for r in rows if r[1] == mix}
    ratios = [by[("new", k)] / by[("old", k)] for (b, k) in by if b == "new"]
    p99 = {b: statistics.median(float(r[5]) for r in rows if r[1] == mix and r[0] == b) for b in ("old", "new")}
    print("%s: new/old requests/s median %.3f (rounds: %s); p99 old %.3f ms, new %.3f ms (HEAD against %s)"
          % (mix, statistics.median(ratios), " ".join("%.3f" % x for x in ratios), p99["old"], p99["new"], sys.argv[2]))
EOF
