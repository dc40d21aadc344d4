#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Misere quotient benchmark, CPU time of one core (bench/engine_misere.c):
# building the Kayles quotient, answering misere Kayles sums of 1,000 heaps
# up to 10^18 with a winning move (every move checked), and building the
# quotients of every 1-2 digit octal code.
#
# Usage: bench/misere.sh   (a few seconds; needs gcc)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc/engine bench/engine_misere.c \
    src/engine/misere_*.c src/engine/octal_code.c src/engine/budget.c src/engine/status.c \
    -o "$out/misere"
"$out/misere"
