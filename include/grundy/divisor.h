/* Divisor game: from n >= 1, move to n - x for a divisor x of n, 0 < x < n.
 * The mover wins iff n is even (take 1). */
#ifndef GRUNDY_DIVISOR_H
#define GRUNDY_DIVISOR_H

#include <stdbool.h>
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

#endif
