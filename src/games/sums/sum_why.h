/* SPDX-License-Identifier: MIT */
/* The steps of "why" shared by every disjunctive sum whose components have
 * Grundy values (heaps, odd stairs, coins): the nim-sum column by column
 * ("nim_sum") and the component a winning move changes ("target"). Facts are
 * exact for any number of components; the lists are capped at
 * GR_WHY_LISTED entries and say how many there are. */
#ifndef GRUNDY_API_SUM_WHY_H
#define GRUNDY_API_SUM_WHY_H

#include <stddef.h>
#include <stdint.h>

#include "query.h"

#define GR_WHY_LISTED 64

/* "nim_sum": {name, binary[], nim_sum_binary}: each value (the first
 * GR_WHY_LISTED; "components" then gives their number) in binary, all of
 * one width, and the nim-sum in the same width: bit b of nim_sum_binary is
 * the parity of column b. `what` (the step's "name") names one component
 * ("pile"). */
void gr_why_nim_sum(gr_query *q, const uint64_t *values, size_t n, uint64_t x, const char *what);

/* "target": {component, high_bit, to}: component i of value `value`
 * holds the nim-sum x's highest bit, so to = value ^ x < value, and the
 * mex definition gives it an option of that value. */
void gr_why_target(gr_query *q, size_t i, uint64_t value, uint64_t x, const char *what);

/* The index of the highest set bit of x > 0. */
unsigned gr_high_bit(uint64_t x);

#endif
