/* SPDX-License-Identifier: MIT */
/* The construction of misere quotients heap by heap (misere_quotient.h);
 * verification in misere_verify.c, new generators in misere_grow.c. */
#include <stdlib.h>
#include <string.h>

#include "misere_grow.h"
#include "grundy/alloc.h"

static void table_free(mq_table *t)
{
    gr_free(t->mul);
    gr_free(t->in_p);
    memset(t, 0, sizeof *t);
}

typedef struct trans_scan {
    const mq_table *t;
    const uint16_t *phi;
    mq_bits *out;
} trans_scan;

static void add_transition(void *arg, const gr_heap_move *mv)
{
    trans_scan *s = arg;
    uint16_t x = 0;
    for (unsigned i = 0; i < mv->nparts; i++)
        x = s->t->mul[(size_t)x * s->t->order + s->phi[mv->part[i]]];
    mq_set(s->out, x);
}

void mq_transitions(const gr_mq_rules *r, const mq_table *t, const uint16_t *phi, uint64_t n,
                    mq_bits *out)
{
    memset(out, 0, sizeof *out);
    trans_scan s = { t, phi, out };
    gr_mq_moves(r, n, UINT64_MAX, add_transition, &s);
}

/* Heap n alone is a P-position exactly when it has a move and none into P. */
static bool alone_in_p(const mq_table *t, const mq_bits *trans)
{
    bool any = false;
    for (uint16_t x = 0; x < t->order; x++) {
        if (!mq_bit(trans, x))
            continue;
        any = true;
        if (t->in_p[x])
            return false;
    }
    return any;
}

/* Tries every existing element as phi(n): 1 when none fits. */
static int extend_conservatively(mq_builder *bd, uint64_t n, const mq_bits *trans)
{
    bool p = alone_in_p(&bd->q, trans);
    for (uint16_t x = 0; x < bd->q.order; x++) {
        if ((bd->q.in_p[x] != 0) != p)
            continue;
        int rc = mq_verify_add(&bd->v, n, x, trans, false, bd->b);
        if (rc == 1)
            continue;
        if (rc == GR_OK)
            rc = mq_verify_add(&bd->v, n, x, trans, true, bd->b);
        if (rc == GR_OK)
            bd->phi[n] = x;
        return rc;
    }
    return 1;
}

static gr_status phi_reserve(mq_builder *bd, uint64_t n)
{
    if (n < bd->phi_cap)
        return GR_OK;
    size_t cap = bd->phi_cap ? 2 * bd->phi_cap : 256;
    while (cap <= n)
        cap *= 2;
    uint16_t *phi = gr_realloc(bd->phi, cap * sizeof *phi);
    mq_bits *trans = gr_realloc(bd->trans, cap * sizeof *trans);
    if (phi)
        bd->phi = phi;
    if (trans)
        bd->trans = trans;
    if (!phi || !trans)
        return GR_ENOMEM;
    bd->phi_cap = cap;
    return GR_OK;
}

/* The least p, then n0, that the periodicity criterion accepts at bound n. */
static bool certify_period(const mq_builder *bd, uint64_t n, uint64_t *n0_out, uint64_t *p_out)
{
    uint64_t t = gr_mq_reach(bd->r);
    if (t == UINT64_MAX)
        return false;
    for (uint64_t p = 1; p <= n / 2; p++) {
        uint64_t n0 = n - p + 1;
        while (n0 > 0 && bd->phi[n0 - 1] == bd->phi[n0 - 1 + p])
            n0--;
        if (n0 + p > n)
            continue;
        if (bd->last_growth < n0 + p && n >= 2 * n0 + 2 * p + t + 1) {
            *n0_out = n0;
            *p_out = p;
            return true;
        }
    }
    return false;
}

static void finish(mq_builder *bd, gr_mq *q)
{
    q->order = bd->q.order;
    q->mul = bd->q.mul;
    q->in_p = bd->q.in_p;
    q->p_size = 0;
    for (uint32_t x = 0; x < q->order; x++)
        q->p_size += q->in_p[x] != 0;
    q->phi = bd->phi;
    q->last_growth = bd->last_growth;
    q->generators = bd->generators;
    memset(&bd->q, 0, sizeof bd->q);
    bd->phi = NULL;
}

static gr_status start(mq_builder *bd, const gr_mq_rules *r, gr_budget *b)
{
    memset(bd, 0, sizeof *bd);
    bd->r = r;
    bd->b = b;
    bd->q.order = 1;
    bd->q.mul = gr_calloc(1, sizeof *bd->q.mul);
    bd->q.in_p = gr_calloc(1, 1);
    if (!bd->q.mul || !bd->q.in_p || phi_reserve(bd, 0) != GR_OK)
        return GR_ENOMEM;
    bd->phi[0] = 0;
    memset(&bd->trans[0], 0, sizeof bd->trans[0]);
    return mq_verify_init(&bd->v, &bd->q);
}

static const char *stop_reason(int rc, const gr_budget *b)
{
    if (rc == GR_ELIMIT && gr_budget_stopped(b) != GR_STOP_NONE)
        return "the work budget ran out";
    if (rc == GR_MQ_TOO_LARGE || rc == GR_ELIMIT)
        return "the quotient outgrew the element or position-summary cap";
    return "no trial presentation for the next heap verified";
}

gr_status gr_mq_build(const gr_mq_rules *r, uint64_t max_heap, gr_budget *b, gr_mq *q)
{
    memset(q, 0, sizeof *q);
    q->rules = *r;
    mq_builder bd;
    gr_status st = start(&bd, &q->rules, b);
    uint64_t n = 1;
    for (; st == GR_OK && n <= max_heap; n++) {
        if (phi_reserve(&bd, n) != GR_OK) {
            st = GR_ENOMEM;
            break;
        }
        mq_transitions(bd.r, &bd.q, bd.phi, n, &bd.trans[n]);
        int rc = extend_conservatively(&bd, n, &bd.trans[n]);
        if (rc == 1)
            rc = mq_grow(&bd, n);
        if (rc == GR_ENOMEM) {
            st = GR_ENOMEM;
        } else if (rc != GR_OK) {
            q->stop = stop_reason(rc, b);
            break;
        } else if (certify_period(&bd, n, &q->preperiod, &q->period)) {
            q->periodic = true;
            n++;
            break;
        }
    }
    q->bound = n - 1;
    finish(&bd, q);
    mq_verify_free(&bd.v);
    table_free(&bd.q);
    gr_free(bd.phi);
    gr_free(bd.trans);
    return st;
}

void gr_mq_free(gr_mq *q)
{
    gr_free(q->mul);
    gr_free(q->in_p);
    gr_free(q->phi);
    memset(q, 0, sizeof *q);
}

bool gr_mq_covers(const gr_mq *q, uint64_t n)
{
    return n <= q->bound || q->periodic;
}

uint16_t gr_mq_phi(const gr_mq *q, uint64_t n)
{
    if (n > q->bound)
        n = q->preperiod + (n - q->preperiod) % q->period;
    return q->phi[n];
}

uint16_t gr_mq_product(const gr_mq *q, const uint64_t *heaps, size_t n)
{
    uint16_t x = 0;
    for (size_t i = 0; i < n; i++)
        x = gr_mq_mul(q, x, gr_mq_phi(q, heaps[i]));
    return x;
}

typedef struct move_scan {
    const gr_mq *q;
    gr_budget *b;
    uint16_t rest; /* the product of the other heaps */
    bool found, out_of_budget;
    gr_heap_move move;
} move_scan;

static void test_move(void *arg, const gr_heap_move *mv)
{
    move_scan *s = arg;
    if (s->found || s->out_of_budget)
        return;
    if (!gr_budget_spend(s->b, 1)) {
        s->out_of_budget = true;
        return;
    }
    uint16_t x = s->rest;
    for (unsigned i = 0; i < mv->nparts; i++)
        x = gr_mq_mul(s->q, x, gr_mq_phi(s->q, mv->part[i]));
    if (s->q->in_p[x]) {
        s->found = true;
        s->move = *mv;
    }
}

/* Splits a <= b with a >= preperiod + period have the element of
 * (a - period, b + period): the smaller parts up to that bound suffice. */
static uint64_t small_part_cap(const gr_mq *q, uint64_t heap)
{
    return heap > q->bound && q->periodic ? q->preperiod + q->period : UINT64_MAX;
}

gr_status gr_mq_solve(const gr_mq *q, const uint64_t *heaps, size_t n, gr_budget *b, bool *win,
                      size_t *pile, gr_heap_move *mv)
{
    uint16_t *pre = gr_malloc((n + 1) * sizeof *pre);
    if (!pre)
        return GR_ENOMEM;
    pre[0] = 0;
    for (size_t i = 0; i < n; i++)
        pre[i + 1] = gr_mq_mul(q, pre[i], gr_mq_phi(q, heaps[i]));
    *win = !q->in_p[pre[n]];
    *pile = SIZE_MAX;
    move_scan s = { .q = q, .b = b };
    uint16_t suffix = 0;
    for (size_t i = n; *win && i-- > 0 && !s.found && !s.out_of_budget;) {
        s.rest = gr_mq_mul(q, pre[i], suffix);
        gr_mq_moves(&q->rules, heaps[i], small_part_cap(q, heaps[i]), test_move, &s);
        if (s.found) {
            *pile = i;
            *mv = s.move;
        }
        suffix = gr_mq_mul(q, suffix, gr_mq_phi(q, heaps[i]));
    }
    gr_free(pre);
    return s.out_of_budget ? GR_ELIMIT : GR_OK;
}
