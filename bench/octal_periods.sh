#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The long octal periods (0.127, 0.16, 0.56, 0.376) of the default table
# file:
#   (a) the CPU time to certify each with the engine's rare/common solver
#       (bench/octal_periods.c, gcc -O2), and the recomputed preperiod and
#       period against the published ones;
#   (b) the whole default table build, `grundy tables build` with its
#       defaults: wall and CPU time, and its per-part lines. With BEFORE set
#       to another `grundy` (a build of the commit before the long periods),
#       that one is timed the same way first, for the before/after.
#
# Usage: bench/octal_periods.sh [BUILD_DIR]   (default build/; about 1 to 3
# minutes on 2 cores; needs gcc)
#        BEFORE=/path/to/old/grundy bench/octal_periods.sh build
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
cd "$root"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc/engine bench/octal_periods.c \
    src/engine/octal_*.c src/engine/rare_mask.c src/engine/seq.c src/engine/status.c \
    src/engine/budget.c -o "$out/octal_periods"
echo "== (a) certifying the long periods (rare/common), CPU time of one core"
"$out/octal_periods"

build_once() { # LABEL GRUNDY
    local start end
    echo "== (b) default table build: $1"
    start=$(date +%s%N)
    TIMEFORMAT="   CPU: %U s user, %S s system"
    time "$2" tables build "$out/t.tables" --progress 2>&1 | grep -E '^tables: ' || true
    end=$(date +%s%N)
    echo "   wall: $(( (end - start) / 1000000 )) ms; file $(stat -c %s "$out/t.tables") bytes"
    rm -f "$out/t.tables"
}
if [[ -n ${BEFORE:-} ]]; then
    build_once "before ($BEFORE)" "$BEFORE"
fi
build_once "after ($build/grundy)" "$build/grundy"
