/* SPDX-License-Identifier: MIT */
/* Strange Nim: from a pile of x tokens with parameter k >= 1, remove between
 * 1 and floor(x / k) tokens (no move when x < k).
 *
 * g(x) = x / k when k divides x, else g(x - floor(x / k) - 1): the map
 * x -> x - floor(x/k) - 1 renumbers the non-multiples of k as 0, 1, 2, ...
 * The solver walks this recurrence in blocks (all x with the same
 * floor(x / k) at once): at most min(floor(x/k) + 1, about k log(x / k^2) +
 * k) iterations (gr_strange_step_bound), so small and large k are fast and
 * the worst case, k near sqrt(x), takes about 10^9 iterations (1.5 s) at
 * x = 10^18. Past the step below the walk is the Josephus recurrence, for
 * which no way to skip rounds is known. */
#ifndef GRUNDY_STRANGE_H
#define GRUNDY_STRANGE_H

#include <stdint.h>

#include "grundy/budget.h"
#include "grundy/status.h"

/* g(x) for the pile (x, k), k >= 1 (GR_EINVAL for k == 0). Spends one
 * budget step per iteration of the block walk; GR_ELIMIT when it runs out.
 * *steps (may be NULL) receives the number of iterations. */
gr_status gr_strange_value(uint64_t x, uint64_t k, gr_budget *b, uint64_t *g, uint64_t *steps);

/* An upper bound on the iterations gr_strange_value takes for (x, k),
 * proved in the tests against the measured counts. */
uint64_t gr_strange_step_bound(uint64_t x, uint64_t k);

/* A move from (x, k) to a pile of value `target` < g(x): writes the number of
 * tokens to take (1 <= take <= floor(x / k)). Spends the value walk plus a
 * walk of about the same length up to the move (up to about twice
 * gr_strange_value). GR_EINVAL when target >= g(x). */
gr_status gr_strange_move(uint64_t x, uint64_t k, uint64_t target, gr_budget *b, uint64_t *take);

#endif
