/* SPDX-License-Identifier: MIT */
/* The state of a misere quotient under construction, shared by
 * misere_quotient.c (heap by heap) and misere_grow.c (new generators). */
#ifndef GRUNDY_MISERE_GROW_H
#define GRUNDY_MISERE_GROW_H

#include "misere_internal.h"

/* mq_grow's result when the quotient would pass GR_MQ_MAX_ORDER elements
 * or its verification GR_MQ_MAX_STATES summaries. */
#define GR_MQ_TOO_LARGE 2

typedef struct mq_builder {
    const gr_mq_rules *r;
    gr_budget *b;
    mq_table q;     /* the quotient of the heaps below the current one */
    uint16_t *phi;  /* phi[0 .. heap] */
    mq_bits *trans; /* trans[h]: the elements of heap h's options */
    size_t phi_cap;
    mq_verify v;    /* the summaries of every sum of the heaps done */
    uint64_t last_growth;
    uint32_t generators;
} mq_builder;

/* The elements of the options of heap n, under phi. */
void mq_transitions(const gr_mq_rules *r, const mq_table *t, const uint16_t *phi, uint64_t n,
                    mq_bits *out);

/* Adds a generator for heap n (phi[0 .. n-1] and trans[0 .. n] set): GR_OK
 * with bd's quotient, phi, trans and summaries replaced; 1 when no cyclic
 * generator tried verifies; GR_MQ_TOO_LARGE, GR_ELIMIT, GR_ENOMEM. */
int mq_grow(mq_builder *bd, uint64_t n);

#endif
