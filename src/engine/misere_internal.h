/* SPDX-License-Identifier: MIT */
/* The exact verification of a candidate misere quotient (misere_verify.c),
 * shared with its construction (misere_quotient.c).
 *
 * A sum X of heaps <= n is summarised by (p, F, movable): p its element,
 * F the set of z in Q such that X + Z, for any Z of element z, has a move in
 * X's heaps to an element of P, and whether X has a move at all. The
 * candidate decides every sum exactly when every summary has p in P iff (X
 * has a move and the identity is not in F): induction on the size of X,
 * since its options are decided. The
 * summaries of all sums are reached by adding each heap type (element, set
 * of transitions) with multiplicities 0 .. k + 2, where phi^(k+2) =
 * phi^k: a larger multiplicity gives the same summary as two fewer. */
#ifndef GRUNDY_MISERE_INTERNAL_H
#define GRUNDY_MISERE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "grundy/budget.h"
#include "grundy/misere_quotient.h"
#include "grundy/status.h"

#define MQ_WORDS (GR_MQ_MAX_ORDER / 64u)

typedef struct mq_bits {
    uint64_t w[MQ_WORDS];
} mq_bits;

static inline bool mq_bit(const mq_bits *s, unsigned x)
{
    return (s->w[x >> 6] >> (x & 63)) & 1;
}

static inline void mq_set(mq_bits *s, unsigned x)
{
    s->w[x >> 6] |= UINT64_C(1) << (x & 63);
}

/* A monoid with its P-portion; element 0 is the identity. */
typedef struct mq_table {
    uint32_t order;
    uint16_t *mul;
    uint8_t *in_p;
} mq_table;

typedef struct mq_summary {
    mq_bits f;
    uint16_t p;
    bool movable;    /* some heap of X has a move */
    uint8_t mult;    /* how X was reached: `mult` heaps of type `type` added */
    uint16_t type;   /* to the sum of summary `parent` */
    uint32_t parent;
} mq_summary;

typedef struct mq_types {
    uint16_t phi;
    uint64_t heap; /* the first heap of this type */
    mq_bits trans;
} mq_type;

/* A sum the candidate decides wrongly: heap[i] taken mult[i] times. */
#define MQ_WITNESS_MAX 64u
typedef struct mq_witness {
    uint64_t heap[MQ_WITNESS_MAX];
    uint32_t mult[MQ_WITNESS_MAX];
    uint32_t len;
} mq_witness;

typedef struct mq_verify {
    const mq_table *t;
    mq_summary *s;
    uint32_t count, cap;
    uint32_t *index; /* open addressing over s, index + 1; 0 free */
    uint32_t nindex;
    mq_type *types;
    uint32_t ntypes, types_cap;
    mq_witness failure; /* set when mq_verify_add returns 1 */
} mq_verify;

/* Starts with the empty sum alone. */
gr_status mq_verify_init(mq_verify *v, const mq_table *t);
void mq_verify_free(mq_verify *v);

/* Adds heaps (heap `heap`, element phi, transition set trans) to every sum
 * so far. GR_OK when every new sum is decided correctly (and, when `keep`,
 * they are kept), 1 when one is not (nothing kept; v->failure is such a
 * sum), GR_ELIMIT past the budget or GR_MQ_MAX_STATES summaries, GR_ENOMEM.
 * A type added before is free. */
int mq_verify_add(mq_verify *v, uint64_t heap, uint16_t phi, const mq_bits *trans, bool keep,
                  gr_budget *b);

#endif
