/* Disjunctive sums of heaps, shared by nim, subtraction, octal games and
 * Grundy's game: per-heap Grundy values, their XOR, a winning move found by
 * the game's own move search, and the answer in the contract's shape. */
#ifndef GRUNDY_API_HEAP_SUM_H
#define GRUNDY_API_HEAP_SUM_H

#include <stddef.h>
#include <stdint.h>

#include "api/query.h"
#include "grundy/heap.h"
#include "grundy/seq.h"

typedef struct gr_heap_rules {
    const void *ctx;
    gr_status (*value)(const void *ctx, uint64_t n, uint64_t *g);
    /* A move from heap n to heaps whose values XOR to target < value(n). */
    gr_status (*move)(const void *ctx, uint64_t n, uint64_t target, gr_heap_move *mv);
    const gr_seq *seq;  /* period facts to report, or NULL */
    const char *name;   /* the game as a person names it, for explanations */
} gr_heap_rules;

/* Fills q->ans for the heaps `piles` (field "piles") under normal play. */
int gr_heap_sum(gr_query *q, const uint64_t *piles, size_t n, const gr_heap_rules *r);

/* Writes ans.move ({pile, take, from, to | split, text}) and ans.next for
 * move mv on pile i: the one shape every heap game answers with. */
int gr_heap_answer_move(gr_query *q, const uint64_t *piles, size_t n, size_t i, const gr_heap_move *mv);

/* qsort/bsearch order for uint64_t. */
int gr_cmp_u64(const void *a, const void *b);

/* Largest entry of piles (0 for none). */
uint64_t gr_max_u64(const uint64_t *v, size_t n);

/* Adds "grundy values a ^ b ^ ... = x" to t, eliding long lists. */
void gr_text_nim_sum(gr_text *t, const uint64_t *values, size_t n, uint64_t x);

/* Writes next.piles: piles with pile i replaced by the move's parts in place
 * (an emptied pile stays as 0). */
int gr_next_piles(gr_query *q, const uint64_t *piles, size_t n, size_t i, const gr_heap_move *mv);

#endif
