/* SPDX-License-Identifier: MIT */
/* Exact verification of a candidate misere quotient over every sum of the
 * heaps added so far (misere_internal.h). */
#include <stdlib.h>
#include <string.h>

#include "misere_internal.h"
#include "grundy/alloc.h"

static uint16_t mul(const mq_table *t, uint16_t x, uint16_t y)
{
    return t->mul[(size_t)x * t->order + y];
}

gr_status mq_verify_init(mq_verify *v, const mq_table *t)
{
    memset(v, 0, sizeof *v);
    v->t = t;
    v->cap = 1024;
    v->nindex = 2048;
    v->s = gr_malloc(v->cap * sizeof *v->s);
    v->index = gr_calloc(v->nindex, sizeof *v->index);
    if (!v->s || !v->index) {
        mq_verify_free(v);
        return GR_ENOMEM;
    }
    memset(&v->s[0], 0, sizeof v->s[0]);
    v->count = 1; /* the empty sum: p = identity, F empty; never looked up */
    return GR_OK;
}

void mq_verify_free(mq_verify *v)
{
    gr_free(v->s);
    gr_free(v->index);
    gr_free(v->types);
    memset(v, 0, sizeof *v);
}

static uint64_t summary_hash(const mq_summary *s)
{
    uint64_t x = s->p * 0x9e3779b97f4a7c15u;
    for (unsigned i = 0; i < MQ_WORDS; i++)
        x = (x ^ s->f.w[i]) * 0xbf58476d1ce4e5b9u + i;
    return x ^ (x >> 29);
}

static bool same_summary(const mq_summary *a, const mq_summary *b)
{
    return a->p == b->p && a->movable == b->movable && memcmp(&a->f, &b->f, sizeof a->f) == 0;
}

static uint32_t *index_slot(mq_verify *v, const mq_summary *s)
{
    size_t i = summary_hash(s) & (v->nindex - 1);
    for (;; i = (i + 1) & (v->nindex - 1)) {
        uint32_t k = v->index[i];
        if (k == 0 || same_summary(&v->s[k - 1], s))
            return &v->index[i];
    }
}

static gr_status grow(mq_verify *v)
{
    if (v->count == v->cap) {
        mq_summary *s = gr_realloc(v->s, 2 * (size_t)v->cap * sizeof *s);
        if (!s)
            return GR_ENOMEM;
        v->s = s;
        v->cap *= 2;
    }
    if (2 * (v->count + 1) > v->nindex) {
        uint32_t *index = gr_calloc(2 * (size_t)v->nindex, sizeof *index);
        if (!index)
            return GR_ENOMEM;
        gr_free(v->index);
        v->index = index;
        v->nindex *= 2;
        for (uint32_t k = 1; k < v->count; k++)
            *index_slot(v, &v->s[k]) = k + 1;
    }
    return GR_OK;
}

static gr_status insert(mq_verify *v, const mq_summary *s)
{
    if (*index_slot(v, s))
        return GR_OK;
    if (v->count >= GR_MQ_MAX_STATES)
        return GR_ELIMIT;
    gr_status st = grow(v);
    if (st != GR_OK)
        return st;
    v->s[v->count] = *s;
    *index_slot(v, s) = v->count + 1;
    v->count++;
    return GR_OK;
}

/* Powers phi^0 .. phi^(k+2) with phi^(k+2) = phi^k, k least; the count k + 3. */
static unsigned powers(const mq_table *t, uint16_t phi, uint16_t *pw)
{
    pw[0] = 0;
    for (unsigned m = 1; m <= GR_MQ_MAX_ORDER + 2; m++) {
        pw[m] = mul(t, pw[m - 1], phi);
        if (m >= 2 && pw[m] == pw[m - 2])
            return m + 1;
    }
    return GR_MQ_MAX_ORDER + 3; /* not reached: a finite monoid's powers repeat */
}

/* W: the y with a transition tau such that y tau lies in P. */
static mq_bits winners(const mq_table *t, const mq_bits *trans)
{
    mq_bits w = { { 0 } };
    for (uint16_t y = 0; y < t->order; y++)
        for (uint16_t tau = 0; tau < t->order; tau++)
            if (mq_bit(trans, tau) && t->in_p[mul(t, y, tau)]) {
                mq_set(&w, y);
                break;
            }
    return w;
}

/* The summary of X + m heaps of the type (m >= 1), from X's. */
static mq_summary add_heaps(const mq_table *t, const mq_summary *x, const uint16_t *pw,
                            unsigned m, const mq_bits *win, bool movable)
{
    mq_summary s = { .p = mul(t, x->p, pw[m]), .movable = x->movable || movable };
    uint16_t before = mul(t, x->p, pw[m - 1]);
    for (uint16_t z = 0; z < t->order; z++)
        if (mq_bit(&x->f, mul(t, pw[m], z)) || mq_bit(win, mul(t, before, z)))
            mq_set(&s.f, z);
    return s;
}

static bool decided(const mq_table *t, const mq_summary *s)
{
    return (t->in_p[s->p] != 0) == (s->movable && !mq_bit(&s->f, 0));
}

static bool type_known(const mq_verify *v, uint16_t phi, const mq_bits *trans)
{
    for (uint32_t i = 0; i < v->ntypes; i++)
        if (v->types[i].phi == phi && memcmp(&v->types[i].trans, trans, sizeof *trans) == 0)
            return true;
    return false;
}

static gr_status remember_type(mq_verify *v, uint64_t heap, uint16_t phi, const mq_bits *trans)
{
    if (v->ntypes == v->types_cap) {
        uint32_t cap = v->types_cap ? 2 * v->types_cap : 16;
        mq_type *types = gr_realloc(v->types, cap * sizeof *types);
        if (!types)
            return GR_ENOMEM;
        v->types = types;
        v->types_cap = cap;
    }
    v->types[v->ntypes].phi = phi;
    v->types[v->ntypes].heap = heap;
    v->types[v->ntypes].trans = *trans;
    v->ntypes++;
    return GR_OK;
}

/* The sum that summary s (reached from summary `parent` by `mult` heaps of
 * the type being added, `heap`) stands for. */
static void record_failure(mq_verify *v, uint32_t parent, uint64_t heap, unsigned mult)
{
    mq_witness *w = &v->failure;
    w->len = 0;
    w->heap[w->len] = heap;
    w->mult[w->len++] = mult;
    for (uint32_t i = parent; i != 0 && w->len < MQ_WITNESS_MAX; i = v->s[i].parent) {
        w->heap[w->len] = v->types[v->s[i].type].heap;
        w->mult[w->len++] = v->s[i].mult;
    }
}

int mq_verify_add(mq_verify *v, uint64_t heap, uint16_t phi, const mq_bits *trans, bool keep,
                  gr_budget *b)
{
    if (type_known(v, phi, trans))
        return GR_OK;
    const mq_table *t = v->t;
    uint16_t pw[GR_MQ_MAX_ORDER + 3];
    unsigned npw = powers(t, phi, pw);
    mq_bits win = winners(t, trans);
    bool movable = false;
    for (unsigned i = 0; i < MQ_WORDS; i++)
        movable |= trans->w[i] != 0;
    uint32_t before = v->count;
    for (int pass = 0; pass < (keep ? 2 : 1); pass++) {
        for (uint32_t i = 0; i < before; i++) {
            if (!gr_budget_spend(b, (uint64_t)npw * t->order))
                return GR_ELIMIT;
            for (unsigned m = 1; m < npw; m++) {
                mq_summary s = add_heaps(t, &v->s[i], pw, m, &win, movable);
                s.parent = i;
                s.type = (uint16_t)v->ntypes;
                s.mult = (uint8_t)m;
                if (pass == 0 && !decided(t, &s)) {
                    record_failure(v, i, heap, m);
                    return 1;
                }
                gr_status st = pass == 1 ? insert(v, &s) : GR_OK;
                if (st != GR_OK)
                    return st;
            }
        }
    }
    return keep ? remember_type(v, heap, phi, trans) : GR_OK;
}
