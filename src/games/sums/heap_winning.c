/* SPDX-License-Identifier: MIT */
/* The winning hook of heap sums (heap_sum.h): in a disjunctive
 * sum a move wins exactly when it takes its pile to the pile's target,
 * value ^ nim-sum, so the count needs each pile's options and their values,
 * not a search of every position after a move. The target may be above the
 * pile's value (an option can exceed its heap's value), so every pile's
 * options are looked at, but for Nim, whose options have exactly the
 * values below the heap's. */
#include "heap_sum.h"

#include <inttypes.h>
#include <stdio.h>

#include "heap_why.h"

typedef struct winning_walk {
    gr_query *q;
    const uint64_t *piles, *values;
    size_t n;
    uint64_t x;
    const gr_heap_rules *r;
    gr_move_sink *sink; /* NULL while counting */
    gr_u128 seen;       /* winning moves met so far */
    bool stop;          /* the sink wants no more */
} winning_walk;

static int walk_failed(winning_walk *w, gr_status s, size_t i)
{
    char field[40];
    snprintf(field, sizeof field, "piles[%zu]", i);
    return gr_fail_engine(w->q->err, s, field, "counting the winning moves of this pile");
}

/* A winning move met: counted, and handed over when listing from sink->from. */
static int met(winning_walk *w, size_t i, const gr_heap_move *mv)
{
    gr_u128 k = w->seen++;
    if (!w->sink || k < w->sink->from)
        return 0;
    if (gr_heap_render_move(w->q, w->piles, w->n, i, mv, w->r))
        return -1;
    w->stop = !w->sink->put(w->sink, w->q, NULL); /* a winning move's outcome is known */
    return w->stop && w->q->err->code ? -1 : 0;
}

static int walk_pile(winning_walk *w, size_t i)
{
    const gr_heap_rules *r = w->r;
    uint64_t target = w->values[i] ^ w->x;
    gr_heap_move mv;
    if (r->one_option_per_value) {
        if (target >= w->values[i])
            return 0;
        gr_status s = r->move(r->ctx, i, w->piles[i], target, &mv);
        return s != GR_OK ? walk_failed(w, s, i) : met(w, i, &mv);
    }
    if (!r->options)
        return walk_failed(w, GR_EINVAL, i);
    gr_u128 count = r->options->count(r->options->ctx, i, w->piles[i]);
    for (gr_u128 k = 0; k < count && !w->stop; k++) {
        if (!gr_budget_spend(&w->q->budget, 1))
            return walk_failed(w, GR_ELIMIT, i);
        r->options->at(r->options->ctx, i, w->piles[i], k, &mv);
        uint64_t v;
        gr_status s = gr_heap_option_value(r, i, &mv, &v);
        if (s != GR_OK)
            return walk_failed(w, s, i);
        if (v == target && met(w, i, &mv))
            return -1;
    }
    return 0;
}

/* Options looked at, at most, for one count: past it the count is left
 * unknown at once rather than after the whole budget is spent (a heap of
 * 10^18 tokens of an octal game that splits has ~10^18 options). */
#define WINNING_OPTIONS_MAX (UINT64_C(1) << 20)

static bool too_many_options(const winning_walk *w)
{
    if (w->r->one_option_per_value)
        return false;
    gr_u128 total = 0;
    for (size_t i = 0; i < w->n && w->r->options; i++)
        total += w->r->options->count(w->r->options->ctx, i, w->piles[i]);
    return total > WINNING_OPTIONS_MAX;
}

static int walk(winning_walk *w)
{
    for (size_t i = 0; i < w->n && !w->stop; i++)
        if (walk_pile(w, i))
            return -1;
    return 0;
}

int gr_heap_winning(gr_query *q, const uint64_t *piles, size_t n, const gr_heap_rules *r,
                    gr_move_sink *sink)
{
    if (q->compound != GR_DISJUNCTIVE)
        return 1;
    uint64_t *values = gr_scratch_alloc((n ? n : 1) * sizeof *values);
    if (!values)
        return gr_oom(q);
    winning_walk w = { .q = q, .piles = piles, .values = values, .n = n, .r = r };
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        gr_status s = r->value(r->ctx, i, piles[i], &values[i]);
        rc = s != GR_OK ? walk_failed(&w, s, i) : 0;
        w.x ^= values[i];
    }
    if (rc == 0 && w.x && too_many_options(&w))
        rc = gr_fail(q->err, GR_E_LIMIT_EXCEEDED, "piles", "the piles have more than %" PRIu64
                     " options in all, too many to count the winning ones", WINNING_OPTIONS_MAX);
    if (rc == 0 && w.x)
        rc = walk(&w); /* the count */
    if (rc == 0) {
        sink->total = w.seen;
        w.seen = 0;
        w.sink = sink;
        if (w.x)
            rc = walk(&w);
    }
    gr_scratch_free(values);
    return rc;
}
