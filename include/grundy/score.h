/* SPDX-License-Identifier: MIT */
/* Two-player score games: stone games and "Can I Win".
 *
 * Values are from the point of view of the player to move, with optimal play
 * by both. Pile sizes are int64_t with magnitude at most 2^63 - 1 (INT64_MIN
 * is outside every domain: GR_EINVAL). Sums of many piles exceed 64 bits, so
 * values are exact signed 128-bit integers: n piles of magnitude < 2^63 give
 * |value| < n * 2^63, far inside gr_i128 for any n a caller can allocate.
 *
 * Every solver takes a budget, spends before it works, and returns
 * GR_ELIMIT (with its out-parameters untouched) when the budget cannot cover
 * the work; GR_EINVAL for input outside the documented domain; GR_ENOMEM
 * when an allocation fails. No solver keeps state between calls. */
#ifndef GRUNDY_SCORE_H
#define GRUNDY_SCORE_H

#include <stddef.h>
#include <stdint.h>

#include "grundy/budget.h"
#include "grundy/status.h"

/* __extension__ keeps -Wpedantic quiet: the type is a GCC/Clang extension. */
__extension__ typedef __int128 gr_i128;

/* ---- stone row: take the first or the last pile ----------------------- */

typedef enum gr_row_end {
    GR_ROW_NONE = 0,  /* no move: the row is empty */
    GR_ROW_FIRST = 1, /* take piles[0] */
    GR_ROW_LAST = 2,  /* take piles[n - 1] */
} gr_row_end;

/* Piles in a row; a move takes the first or the last pile and adds it to the
 * mover's score. Writes *value = the best (mover's total - opponent's total)
 * and *best = the end to take for it (ties prefer GR_ROW_FIRST; GR_ROW_NONE
 * and value 0 for n == 0; a single pile is GR_ROW_FIRST).
 * Domain: piles[i] >= 0 (GR_EINVAL otherwise); piles may be NULL when n == 0.
 * Cost: interval DP over lengths with one rolling array, n(n+1)/2 steps
 * (spent before working) and 16 n bytes. n = 5000 takes ~12.5M steps. */
gr_status gr_stone_row(const int64_t *piles, size_t n, gr_budget *b, gr_i128 *value,
                       gr_row_end *best);

/* ---- stone prefix ("Stone Game II") ----------------------------------- */

#define GR_STONE_PREFIX_MAX_N 2048u /* longest row accepted (memory ~ 4 n^2 bytes) */

/* Piles in a row and a parameter m >= 1. A move takes the first x remaining
 * piles, 1 <= x <= 2m, then m becomes max(m, x). Both players maximise their
 * own totals (equivalently the game is zero-sum over the remaining stones).
 * Writes *value = the most stones the mover collects from the rest of the
 * game and *take = the x achieving it (ties prefer the smallest x; 0 and
 * value 0 for n == 0).
 * Domain: piles[i] >= 0, 1 <= m (any larger m acts like m = n),
 * n <= GR_STONE_PREFIX_MAX_N; GR_EINVAL otherwise.
 * Cost: states (i, m) with 2m < n - i are tabulated (about n^2 / 4 entries
 * of 16 bytes); each tries 2m moves, about n^3 / 12 steps in all (spent
 * before working). n = 1000 is ~84M steps (~0.1 s); n = 2048 ~720M steps. */
gr_status gr_stone_prefix(const int64_t *piles, size_t n, uint64_t m, gr_budget *b,
                          gr_i128 *value, uint64_t *take);

/* ---- stone front-3 ("Stone Game III") --------------------------------- */

/* Piles in a row; a move takes 1, 2 or 3 piles from the front (never more
 * than remain). Piles may be negative. Writes *value = the best (mover's
 * total - opponent's total) and *take = the count achieving it (ties prefer
 * the fewest piles; 0 and value 0 for n == 0).
 * Domain: piles[i] != INT64_MIN. Cost: 3n steps, O(1) memory (no
 * allocation). */
gr_status gr_stone_front3(const int64_t *piles, size_t n, gr_budget *b, gr_i128 *value,
                          unsigned *take);

/* ---- Can I Win (LeetCode 464, with used numbers and draws) ------------ */

#define GR_CAN_I_WIN_MAX 20u /* largest pool 1 .. max accepted */

/* Numbers 1 .. max; bit k-1 of `used` set means k is already taken. The
 * running total starts at the sum of the used numbers. Players alternately
 * pick an unused number and add it; whoever brings the total to >= target
 * wins. When no sequence of the remaining numbers can bring the total to
 * target (in particular when none remain), the game is a draw.
 *
 * Writes *outcome: +1 the mover wins, 0 draw, -1 the mover loses, and *pick:
 * the number to take, 0 for "no move". The pick is the smallest number that
 * wins if any, else the smallest that draws, else the smallest unused one.
 * If the total already reaches target at the start (target <= sum of used
 * numbers, including any target <= 0), the game is over: the previous mover
 * reached it, so *outcome = -1 and *pick = 0. With numbers left but target
 * out of reach, *outcome = 0 and *pick = the smallest unused number; with
 * none left, *outcome = 0 and *pick = 0.
 * Domain: max <= GR_CAN_I_WIN_MAX, used < 2^max (GR_EINVAL otherwise); any
 * target. Cost: a memo of 2^max bytes (1 MiB at 20), allocated per call;
 * `max` steps per position expanded, at most max * 2^max in all. */
gr_status gr_can_i_win(unsigned max, uint32_t used, int64_t target, gr_budget *b,
                       int *outcome, unsigned *pick);

#endif
