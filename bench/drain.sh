#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# SIGTERM under load: how many requests are lost out of how many.
#
# CLIENTS Python client threads (bench/drain_client.py) send queries as fast
# as they are answered, half on fresh connections, half on keep-alive ones
# (a fifth of them heavy enough for the compute pool). After LOAD seconds the
# server gets SIGTERM; the clients go on until it has exited. Each request
# ends as one of:
#   answered  a complete HTTP response (any status: 503 while draining counts)
#   refused   the connection was refused: never accepted, nothing sent
#   lost      accepted and sent, then reset or closed without a response;
#             "reused" when it was a keep-alive connection's later request
#             (a client may resend those), "fresh" otherwise.
# Prints the counts, the server's event=stopped line and its exit time.
#
# Usage: bench/drain.sh [GRUNDYD]   (default: the release build, bench_build)
# Environment: CLIENTS (32), LOAD (3 s), GRACE (--drain-grace, 1),
#   TIMEOUT (--drain-timeout, 5), ROUNDS (3). GRACE= (empty) leaves out
#   --drain-grace, for builds before it.
# Needs python3, curl; loopback only.
set -euo pipefail
bench_name=drain.sh
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
clients=${CLIENTS:-32} load=${LOAD:-3} grace=${GRACE-1} timeout=${TIMEOUT:-5} rounds=${ROUNDS:-3}
grace_opt=()
[[ -n $grace ]] && grace_opt=(--drain-grace "$grace")
bench_scratch
if [[ $# -ge 1 ]]; then
    grundyd=$1
else
    bench_build build-release
    grundyd=build-release/grundyd
fi
tables=$(dirname "$grundyd")/grundy.tables

for round in $(seq "$rounds"); do
    port=$(free_port)
    "$grundyd" --host 127.0.0.1 --port "$port" --tables "$tables" --access-log off \
        "${grace_opt[@]}" --drain-timeout "$timeout" 2>"$work/log.$round" &
    pid=$!
    pids+=("$pid")
    wait_up "http://127.0.0.1:$port/v1/analyze"
    python3 bench/drain_client.py "$port" "$pid" "$clients" "$load" | sed "s/^/round $round: /"
    grep -o 'event=stopped.*' "$work/log.$round" | sed "s/^/round $round: /"
done
