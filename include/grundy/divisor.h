/* SPDX-License-Identifier: MIT */
/* Divisor game: from n >= 1, move to n - x for a divisor x of n, 0 < x < n.
 * The mover wins iff n is even (take 1). */
#ifndef GRUNDY_DIVISOR_H
#define GRUNDY_DIVISOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grundy/budget.h"
#include "grundy/status.h"

/* n >= 1. Returns true when the mover wins, and then writes a winning x. */
bool gr_divisor_move(uint64_t n, uint64_t *take);

/* Grundy value of n >= 1 by a divisor sieve over 1..n. Spends about
 * n * ln(n) steps; GR_ELIMIT beyond the budget, GR_EINVAL for n = 0,
 * GR_ENOMEM when the tables cannot be had (always for n >= 2^32). */
gr_status gr_divisor_grundy(uint64_t n, gr_budget *b, uint64_t *g);

/* Grundy values g(1 .. n) into values[1 .. n] (values[0] = 0; n + 1
 * entries). Same costs and limits as gr_divisor_grundy. */
gr_status gr_divisor_values(uint64_t n, gr_budget *b, uint16_t *values);

/* Every divisor of n >= 1, ascending (1 first, n last), into a new array
 * (free() it) of *count entries. n is factored by trial division by the
 * primes below 64, then Pollard's rho (Brent's variant) with a Miller-Rabin
 * test that is exact below 2^64. Spends about 20 steps a divisor plus the
 * factoring (some 10^5 steps for the hardest n < 2^63, a product of two
 * primes near 3 * 10^9); GR_ELIMIT when the budget cannot cover it,
 * GR_EINVAL for n = 0, GR_ENOMEM when the array cannot be had. No n < 2^63
 * has more than 161280 divisors (9200527969062830400 has that many). */
gr_status gr_divisor_list(uint64_t n, gr_budget *b, uint64_t **divs, size_t *count);

#endif
