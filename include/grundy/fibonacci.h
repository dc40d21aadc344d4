/* SPDX-License-Identifier: MIT */
/* Fibonacci Nim: state (n, q); the mover takes t with 1 <= t <= min(q, n),
 * and the opponent's limit becomes 2t. On the opening move q = n - 1. */
#ifndef GRUNDY_FIBONACCI_H
#define GRUNDY_FIBONACCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grundy/budget.h"
#include "grundy/status.h"

#define GR_ZECKENDORF_MAX_TERMS 46 /* enough for any n < 2^64 */

/* Zeckendorf representation of n >= 1: distinct, non-consecutive Fibonacci
 * numbers summing to n, written largest first. Returns the number of terms
 * (0 for n = 0). */
size_t gr_zeckendorf(uint64_t n, uint64_t terms[GR_ZECKENDORF_MAX_TERMS]);

/* Returns true when the mover wins from (n, q), and then writes the winning
 * take (the smallest Zeckendorf term of n) to *take. */
bool gr_fibonacci_move(uint64_t n, uint64_t q, uint64_t *take);

/* Grundy value of (n, q) by dynamic programming over states (m, r) with
 * m <= n. Spends about n^2 steps; GR_ELIMIT beyond the budget, GR_ENOMEM
 * when the tables cannot be had. */
gr_status gr_fibonacci_grundy(uint64_t n, uint64_t q, gr_budget *b, uint64_t *g);

#endif
