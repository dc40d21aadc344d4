#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fuzzes the request head for a bounded time: builds tests/fuzz/fuzz_http_head.c
# with clang's libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer
# (every report fatal) against the daemon's sources, then runs it from a copy
# of tests/fuzz/corpus/http for SECONDS (default 20, or $GRUNDY_FUZZ_SECONDS).
# Prints TAP: one test, skipped when clang or its libFuzzer runtime is missing.
#
# Usage: run-http-fuzz.sh BUILD_DIR TABLE_FILE [SECONDS]
#   BUILD_DIR holds meson's generated sources (grundy_version.h, the
#   embedded openapi.yaml and playground files).
# A crash leaves its input in BUILD_DIR/fuzz-http/ (crash-*, timeout-*);
# once fixed it goes into tests/fuzz/regressions-http/.
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
tables=$2
seconds=${3:-${GRUNDY_FUZZ_SECONDS:-20}}
work=$build/fuzz-http
echo "1..1"
if ! command -v clang >/dev/null || ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' |
        clang -x c -fsanitize=fuzzer - -o /dev/null 2>/dev/null; then
    echo "ok 1 - fuzz the request head # SKIP clang with libFuzzer (libclang-rt-14-dev) is not installed"
    exit 0
fi
mkdir -p "$work/corpus"
cp "$src"/tests/fuzz/corpus/http/* "$work/corpus/"
bin=$work/fuzz_http_head
if ! nice clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -std=c11 \
        -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DGRUNDY_TABLES_INSTALLED='"/nonexistent"' \
        -I"$build" -I"$build/src/server/mhd" -I"$src/include" -I"$src/src" -I"$src/src/engine" -I/usr/include/cjson \
        -I"$src/src/core" -I"$src/src/games" -I"$src/src/games/sums" -I"$src/src/api" \
        $(for d in "$src"/src/server/*/; do printf -- '-I%s ' "$d"; done) \
        "$src"/tests/fuzz/fuzz_http_head.c "$src"/src/server/*/*.c "$src"/src/core/*.c \
        "$src"/src/games/*.c "$src"/src/games/sums/*.c "$src"/src/api/*.c "$src"/src/engine/*.c \
        "$src"/src/tables/checksum.c "$src"/src/tables/tables.c "$src"/src/tables/locate.c "$src"/src/tables/guard.c \
        "$build"/src/server/mhd/openapi_yaml.c "$build"/src/server/mhd/gr_web_*.c \
        -lmicrohttpd -lcjson -lz -lpthread -lm -o "$bin" > "$work/build.log" 2>&1; then
    echo "not ok 1 - fuzz the request head: the build failed"
    sed 's/^/# /' "$work/build.log" | tail -40
    exit 1
fi
cd "$work" || exit 1
GRUNDYD_TABLES=$tables ASAN_OPTIONS=detect_leaks=0 "$bin" -max_total_time="$seconds" -max_len=4096 \
    -timeout=20 -rss_limit_mb=2048 -detect_leaks=0 -artifact_prefix="$work/" corpus > fuzz.log 2>&1
rc=$?
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' fuzz.log | grep -o '[0-9]*$')
if [ -z "$runs" ]; then
    runs=$(grep -Eo '^#[0-9]+' fuzz.log | tail -1 | tr -d '#')
fi
if [ $rc -ne 0 ]; then
    echo "not ok 1 - fuzz the request head for $seconds s: exit $rc after ${runs:-?} inputs"
    # The verdict and the input first (a summary shows a failure's first
    # lines), as base64: `base64 -d` of it replays with fuzz_http_head_replay.
    grep -E '^(fuzz_http_head:|==[0-9]+==ERROR|SUMMARY:|Base64:)|runtime error:' fuzz.log | sed 's/^/# /'
    grep -v 'event=httpd' fuzz.log | tail -40 | sed 's/^/# /'
    exit 1
fi
echo "ok 1 - fuzz the request head for $seconds s: ${runs:-?} inputs, no crash, hang or bad answer"
