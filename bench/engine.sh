#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Engine microbenchmarks, CPU time of one core:
#   - subtraction period detection: random sets in {1..64}, values/s
#     (bench/engine_subtraction.c, checked against a plain twin);
#   - rare/common values of Grundy's game: 2^20 and 2^22 values, values/s
#     (bench/engine_grundys.c, checked against tests/data);
#   - octal games: every code 0.d1, 0.d1d2, 0.d1d2d3 until a period is
#     certified or 16384 values are known (bench/engine_grundys.c octal).
# The table file's build time and the daemon's startup are bench/tables.sh.
#
# Usage: bench/engine.sh   (about 15 s; needs gcc)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
flags=(-O3 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc/engine)
gcc "${flags[@]}" bench/engine_subtraction.c src/engine/subtraction.c src/engine/window_table.c \
    src/engine/seq.c src/engine/status.c -o "$out/subtraction"
gcc "${flags[@]}" bench/engine_grundys.c src/engine/grundys.c src/engine/octal_*.c \
    src/engine/rare_mask.c src/engine/seq.c src/engine/status.c -o "$out/grundys"
echo "== subtraction"
"$out/subtraction" 20000
echo "== Grundy's game (rare/common)"
"$out/grundys" 20 22
echo "== octal games (rare/common), to a period or 16384 values"
"$out/grundys" octal 16384 | head -5
