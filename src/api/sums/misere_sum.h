/* Misere play of sums of heaps (octal games, subtraction sets, Grundy's
 * game) by misere quotients (include/grundy/misere_quotient.h), built on
 * demand within the query's budget and kept for later queries; where no
 * quotient covers the sum, a memoised direct search within the budget. */
#ifndef GRUNDY_API_MISERE_SUM_H
#define GRUNDY_API_MISERE_SUM_H

#include <stddef.h>
#include <stdint.h>

#include "api/query.h"
#include "grundy/misere_quotient.h"

/* Fills q->ans for misere play of the sum `piles` (any number of heaps) of
 * the game `rules`, named `name` in explanations. */
int gr_heap_misere_sum(gr_query *q, const uint64_t *piles, size_t n, const gr_mq_rules *rules,
                       const char *name);

/* The quotients built so far, for GET /v1/tables: calls each(ctx, q) for
 * every kept quotient, in the order they were built. */
void gr_misere_cache_each(void (*each)(void *ctx, const gr_mq *q), void *ctx);

#endif
