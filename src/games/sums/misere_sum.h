/* SPDX-License-Identifier: MIT */
/* Misere play of sums of heaps (octal games, subtraction sets, Grundy's
 * game) by misere quotients (include/grundy/misere_quotient.h): the table
 * file's ("misere:octal:CODE"), else one built on demand within the query's
 * budget and kept for later queries; where no quotient covers the sum, a
 * memoised direct search within the budget. */
#ifndef GRUNDY_API_MISERE_SUM_H
#define GRUNDY_API_MISERE_SUM_H

#include <stddef.h>
#include <stdint.h>

#include "query.h"
#include "grundy/misere_quotient.h"

/* The catalogue's note on misere play of the games answered here. */
#define GR_MISERE_SUM_NOTE                                                                   \
    "answered for any sum of heaps, under the disjunctive compound only: by the game's "     \
    "misere quotient where it covers the heaps (every heap once its pretending function is " \
    "certified periodic, else the heaps up to the bound its construction reached), "          \
    "otherwise by a direct search within the query's budget, past which a 422 beyond_bound " \
    "names the heap bound covered"

/* Fills q->ans for misere play of the sum `piles` (any number of heaps) of
 * the game `rules`, named `name` in explanations. */
int gr_heap_misere_sum(gr_query *q, const uint64_t *piles, size_t n, const gr_mq_rules *rules,
                       const char *name);

#endif
