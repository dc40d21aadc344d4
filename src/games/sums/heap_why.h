/* SPDX-License-Identifier: MIT */
/* The steps of "why" that only heap games have: the options of the heap a
 * winning move changes, with their Grundy values and their mex ("mex"), and
 * the period that gave the values of heaps past those computed ("period"). */
#ifndef GRUNDY_API_HEAP_WHY_H
#define GRUNDY_API_HEAP_WHY_H

#include "heap_sum.h"

/* Options listed in a "mex" step: every option when a heap has at most this
 * many (the mex is then seen whole); else the answer's move is the option
 * that matters. */
#define GR_WHY_OPTIONS 16

/* "mex": {component, options_total (null when unknown), listed: "all"
 * with options[{take, heaps[], grundy}] and their mex, or "move": the
 * option of value `target` that the answer's move takes} for pile i of
 * size n and Grundy value g (its size and value are in its component).
 * Nothing on a slim query. */
void gr_heap_why_mex(gr_query *q, size_t i, uint64_t n, uint64_t g, uint64_t target,
                     const gr_heap_rules *r);

/* "period": {preperiod, period, bound, used, piles[{pile, size, reduced,
 * grundy}]} for the piles at or past r->seq's computed values (bound: the
 * heaps below it were computed and checked); nothing when none is. */
void gr_heap_why_period(gr_query *q, const uint64_t *piles, const uint64_t *values, size_t n,
                        const gr_heap_rules *r);

/* The "rule" step (the game as r names it) and, with values, the
 * "period" step. */
void gr_heap_why_game(gr_query *q, const uint64_t *piles, const uint64_t *values, size_t n,
                      const gr_heap_rules *r);

/* The whole account of a disjunctive sum of heaps of these values: rule,
 * period, nim_sum and, when the nim-sum is not 0, the target and the mex
 * of the first pile that holds its highest bit (the pile gr_heap_sum
 * moves). */
void gr_heap_why_disjunctive(gr_query *q, const uint64_t *piles, const uint64_t *values, size_t n,
                             const gr_heap_rules *r);

/* The Grundy value of the heaps an option leaves (the XOR of its parts'). */
gr_status gr_heap_option_value(const gr_heap_rules *r, size_t pile, const gr_heap_move *mv, uint64_t *v);

#endif
