#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Smoke test of the runtime image, run by the Dockerfile's `smoke` stage as a
# RUN step inside that image, as its non-root user and with its environment:
# starts grundyd in the background, waits (bounded) for /healthz with the
# image's own probe (grundy healthcheck), checks exact answers, the routes a
# load balancer and a front end use, a 4xx JSON error, an NDJSON stream
# (spooled to /tmp), that nothing was written outside /tmp, and a clean exit
# on SIGTERM. The image has no HTTP client, so requests go through bash's
# /dev/tcp. Prints TAP ("ok N - ..."); exits 1 if any check failed, which
# fails the image build.
set -euo pipefail
export LC_ALL=C # ${#body} counts bytes, as Content-Length must

port=${GRUNDYD_PORT:-8080}
n=0
failed=0
work=$(mktemp -d /tmp/smoke.XXXXXX)
log=$work/grundyd.log
touch "$work/marker"
# A command that fails outside a check ends the script (set -e): say where,
# rather than leave a TAP stream that just stops.
trap 'echo "not ok - smoke.sh stopped by a failing command at line $LINENO"' ERR

ok() { # ok CONDITION-STATUS NAME [DIAGNOSTIC]
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $n - $2"
    else
        failed=$((failed + 1))
        echo "not ok $n - $2"
        [ -z "${3:-}" ] || printf '%s\n' "${3:0:2000}" | sed 's/^/# /'
    fi
}

# http METHOD PATH [BODY [CONTENT-TYPE]]: one HTTP/1.0 exchange with the
# daemon on loopback, in a subshell so that a refused connection is only a
# failed check; sets $status ("000" when there was no answer) and $body.
# Bounded: 10 s.
http() {
    local method=$1 path=$2 data=${3:-} type=${4:-application/json} resp
    resp=$(
        exec 3<>"/dev/tcp/127.0.0.1/$port"
        printf '%s %s HTTP/1.0\r\nHost: localhost\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s' \
            "$method" "$path" "$type" "${#data}" "$data" >&3
        timeout 10 cat <&3
    ) 2>/dev/null || true
    # Parameter expansions, not pipes: with pipefail, `printf | head` fails
    # whenever head exits before printf has written a long body.
    resp=${resp//$'\r'/}
    status=${resp%%$'\n'*}
    status=${status#HTTP/1.? }
    status=${status%% *}
    [[ $status =~ ^[0-9]{3}$ ]] || status=000
    body=""
    [[ $resp != *$'\n\n'* ]] || body=${resp#*$'\n\n'}
}

# has TEXT NEEDLE: 0 when NEEDLE occurs in TEXT, literally.
has() { case $1 in *"$2"*) return 0 ;; *) return 1 ;; esac; }

grundyd >"$log" 2>&1 &
pid=$!
trap 'kill -KILL "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

# Up within 20 s (the table file is mapped and validated first).
up=1
for _ in $(seq 100); do
    if grundy healthcheck --timeout 1 >/dev/null 2>&1; then
        up=0
        break
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
done
ok $up "grundyd answers /healthz (grundy healthcheck) within 20 s" "$(cat "$log")"
if [ $up -ne 0 ]; then
    echo "1..$n"
    exit 1
fi
r=0; has "$(cat "$log")" "event=ready" && has "$(cat "$log")" "0.0.0.0:$port" || r=1
ok $r "the ready log line names 0.0.0.0:$port" "$(cat "$log")"
r=0; grundy healthcheck --path /readyz >/dev/null || r=1
ok $r "/readyz is 200: tables mapped, workers up"

q='{"game":"nim","piles":[3,4,5]}'
http POST /v1/analyze "$q"
r=0; [ "$status" = 200 ] && has "$body" '"winner":"first","grundy":2,' &&
    has "$body" '"move":{"pile":0,"take":2,"from":3,"to":1,' && has "$body" '"next":{"piles":[1,4,5]}' || r=1
ok $r "nim [3,4,5]: first player wins, grundy 2, take 2 from pile 0" "$status $body"
r=0; [ "$body" = "$(grundy query "$q")" ] || r=1
ok $r "the daemon's answer is byte for byte the CLI's" "$body"

http POST /v1/analyze '{"game":"nim","piles":[1000000000000000001,"1000000000000000000"]}'
r=0; [ "$status" = 200 ] && has "$body" '"grundy":1,' &&
    has "$body" '"move":{"pile":0,"take":1,"from":1000000000000000001,"to":1000000000000000000,' || r=1
ok $r "nim at 10^18: exact integers, grundy 1, take 1 from pile 0" "$status $body"

http POST /v1/analyze '{"game":"wythoff","piles":[1000000000000000000,1618033988749894848]}'
r=0; [ "$status" = 200 ] && has "$body" '"next":{"piles":[999999999999999999,1618033988749894847]}' || r=1
ok $r "wythoff at 10^18: the exact losing position to move to" "$status $body"

http POST /v1/analyze '{"game":"grundys_game","piles":[4000000]}'
r=0; [ "$status" = 200 ] && has "$body" '"grundy":' || r=1
ok $r "grundys_game heap 4,000,000: answered from the image's table file" "$status $body"

http GET /v1/games
r=0; [ "$status" = 200 ] && has "$body" '"nim"' && has "$body" '"wythoff"' || r=1
ok $r "GET /v1/games lists the games" "$status ${body:0:300}"

http GET /v1/tables
r=0; [ "$status" = 200 ] && has "$body" 'grundys_game' || r=1
ok $r "GET /v1/tables lists the mapped sections" "$status ${body:0:300}"

http POST /v1/analyze '{"game":"nim","piles":[1.5]}'
r=0; [ "$status" = 422 ] && has "$body" '{"error":{"code":"invalid_integer",' && has "$body" '"field":"piles[0]"' || r=1
ok $r "a fraction is 422 invalid_integer naming piles[0]" "$status $body"

http POST /v1/analyze 'not json'
r=0; [ "$status" = 400 ] && has "$body" '{"error":{"code":"bad_json",' || r=1
ok $r "a body that is not JSON is 400 bad_json" "$status $body"

http GET /nope
r=0; [ "$status" = 404 ] && has "$body" '"code":"not_found"' || r=1
ok $r "an unknown path is 404 not_found" "$status $body"

nd=$'{"game":"nim","piles":[3]}\n{"game":"divisor","n":12}\n'
http POST /v1/batch "$nd" application/x-ndjson
r=0; [ "$status" = 200 ] && [ "$(printf '%s\n' "$body" | grep -c '"winner":"first"')" = 2 ] || r=1
ok $r "an NDJSON batch (spooled to a temporary file under /tmp) answers both lines" "$status $body"

http GET /metrics
r=0; [ "$status" = 200 ] && has "$body" 'grundyd_' || r=1
ok $r "GET /metrics is Prometheus text" "$status ${body:0:300}"

# A read-only root filesystem must do: nothing outside /tmp was written
# (directories the non-root user cannot read it cannot write either).
written=$(find / -xdev \( -path /tmp -o -path /proc -o -path /sys -o -path /dev \) -prune -o \
    -newer "$work/marker" -print 2>/dev/null | head -n 20 || true)
r=0; [ -z "$written" ] || r=1
ok $r "grundyd wrote nothing outside /tmp" "$written"

kill -TERM "$pid"
rc=0
for _ in $(seq 150); do # the drain timeout is 10 s by default
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
wait "$pid" || rc=$?
r=0; [ $rc -eq 0 ] && grep -q "event=stopped" "$log" || r=1
ok $r "SIGTERM: grundyd drains and exits 0 (exit status $rc)" "$(tail -n 5 "$log")"
trap 'rm -rf "$work"' EXIT

echo "1..$n"
[ $failed -eq 0 ]
