/* SPDX-License-Identifier: MIT */
/* Subtraction games: a move takes s in S from one heap, S a finite set of
 * positive integers. g(n) = mex{ g(n - s) : s in S, s <= n }.
 *
 * Periodicity: for n >= m = max S, g(n) depends only on the window
 * g[n-m .. n). The first window that repeats, g[j .. j+m) = g[j+p .. j+p+m),
 * certifies g(n + p) = g(n) for all n >= j, with j the least preperiod and p
 * the least period. */
#ifndef GRUNDY_SUBTRACTION_H
#define GRUNDY_SUBTRACTION_H

#include <stddef.h>
#include <stdint.h>

#include "grundy/budget.h"
#include "grundy/seq.h"
#include "grundy/status.h"

#define GR_SUBTRACTION_MAX_MOVE 65536u /* largest element of S accepted */

/* A sorted copy of `moves` without repeats, into *out (malloc'd; free it)
 * and *nout. GR_EINVAL on an empty set or a move outside
 * [1, GR_SUBTRACTION_MAX_MOVE], GR_ENOMEM; *out is NULL on error. */
gr_status gr_subtraction_moves_copy(const uint64_t *moves, size_t nmoves, uint64_t **out,
                                    size_t *nout);

/* Computes g until a period is certified; out->periodic is then true and
 * out->count >= preperiod + period.
 * `moves` may be in any order and may repeat; each must be in
 * [1, GR_SUBTRACTION_MAX_MOVE], else GR_EINVAL (also for nmoves == 0).
 * If the budget runs out first: GR_OK with out->periodic false when
 * g(0 .. need) are all known, else GR_ELIMIT. GR_ENOMEM on allocation failure.
 * On any error *out is left zeroed. The caller frees *out with gr_seq_free. */
gr_status gr_subtraction_solve(const uint64_t *moves, size_t nmoves, uint64_t need,
                               gr_budget *b, gr_seq *out);

/* Finds s in moves with s <= n and g(n - s) == target, for a sequence made by
 * gr_subtraction_solve from the same moves. Writes the smallest such s to
 * *take. GR_EINVAL when no move reaches target; GR_EBOUND when some needed
 * value lies past a non-periodic sequence. */
gr_status gr_subtraction_move(const uint64_t *moves, size_t nmoves, const gr_seq *s,
                              uint64_t n, uint16_t target, uint64_t *take);

#endif
