/* SPDX-License-Identifier: MIT */
#include "heap_why.h"

#include <inttypes.h>

#include "sum_why.h"
#include "why.h"

gr_status gr_heap_option_value(const gr_heap_rules *r, size_t pile, const gr_heap_move *mv, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned j = 0; j < mv->nparts; j++) {
        uint64_t g;
        gr_status s = r->value(r->ctx, pile, mv->part[j], &g);
        if (s != GR_OK)
            return s;
        x ^= g;
    }
    *v = x;
    return GR_OK;
}

typedef struct option_fact {
    gr_heap_move mv;
    uint64_t value;
} option_fact;

typedef struct mex_facts {
    option_fact opt[GR_WHY_OPTIONS];
    size_t listed;
    bool all;           /* opt holds every option; else the winning move's */
    bool total_known;
    gr_u128 total;
} mex_facts;

static bool list_all(const gr_heap_rules *r, size_t i, uint64_t n, mex_facts *f)
{
    for (gr_u128 k = 0; k < f->total; k++) {
        option_fact *o = &f->opt[f->listed];
        r->options->at(r->options->ctx, i, n, k, &o->mv);
        if (gr_heap_option_value(r, i, &o->mv, &o->value) != GR_OK)
            return false;
        f->listed++;
    }
    return true;
}

/* The option of value `target` the winning move takes, found by the
 * game's own move search. */
static bool list_target(const gr_heap_rules *r, size_t i, uint64_t n, uint64_t target, mex_facts *f)
{
    option_fact *o = &f->opt[0];
    if (r->move(r->ctx, i, n, target, &o->mv) != GR_OK)
        return false;
    o->value = target;
    f->listed = 1;
    return true;
}

static uint64_t mex_of(const option_fact *opt, size_t n)
{
    uint64_t m = 0;
    for (bool found = true; found;) {
        found = false;
        for (size_t k = 0; k < n && !found; k++)
            found = opt[k].value == m;
        m += found;
    }
    return m;
}

/* "3 (take 2)" or "1 + 2 (split)" for the heaps an option leaves. */
static void option_text(gr_text *t, const option_fact *o)
{
    if (o->mv.nparts == 0)
        gr_text_add(t, "0 (take %" PRIu64 ")", o->mv.take);
    else if (o->mv.nparts == 1)
        gr_text_add(t, "%" PRIu64 " (take %" PRIu64 ")", o->mv.part[0], o->mv.take);
    else if (o->mv.take == 0)
        gr_text_add(t, "%" PRIu64 " + %" PRIu64, o->mv.part[0], o->mv.part[1]);
    else
        gr_text_add(t, "%" PRIu64 " + %" PRIu64 " (take %" PRIu64 ")", o->mv.part[0], o->mv.part[1],
                    o->mv.take);
    gr_text_add(t, " of value %" PRIu64, o->value);
}

static void add_options(gr_jw_node *step, const mex_facts *f)
{
    gr_jw_node *arr = gr_jw_array(step, "options");
    for (size_t k = 0; k < f->listed; k++) {
        gr_jw_node *o = gr_jw_object(arr, NULL);
        gr_jw_u64(o, "take", f->opt[k].mv.take);
        gr_jw_u64s(o, "heaps", f->opt[k].mv.part, f->opt[k].mv.nparts);
        gr_jw_u64(o, "grundy", f->opt[k].value);
    }
}

/* Options named in the sentence (the step lists up to GR_WHY_OPTIONS). */
enum { SAID = 3 };

static void say_options(gr_text *t, const mex_facts *f)
{
    for (size_t k = 0; k < f->listed && k < SAID; k++) {
        gr_text_add(t, k ? ", " : "");
        option_text(t, &f->opt[k]);
    }
    if (f->listed > SAID)
        gr_text_add(t, ", ... (%zu listed)", f->listed);
}

static void say_mex(gr_query *q, gr_jw_node *step, size_t i, uint64_t n, uint64_t g, const mex_facts *f)
{
    if (f->all) {
        gr_text t = { .len = 0 };
        gr_text_add(&t, "Pile %zu (%" PRIu64 ") has %zu option%s%s", i, n, f->listed,
                    f->listed == 1 ? "" : "s", f->listed ? ": " : "");
        say_options(&t, f);
        gr_text_add(&t, "; the least value missing among them is %" PRIu64 ", its Grundy value.",
                    mex_of(f->opt, f->listed));
        gr_why_say(q, step, "%s", t.buf);
    }
    /* else the "target" step has said why the move's option exists */
}

void gr_heap_why_mex(gr_query *q, size_t i, uint64_t n, uint64_t g, uint64_t target,
                     const gr_heap_rules *r)
{
    if (q->slim)
        return;
    mex_facts f = { .listed = 0 };
    if (r->options) {
        f.total = r->options->count(r->options->ctx, i, n);
        f.total_known = true;
    }
    f.all = f.total_known && f.total <= GR_WHY_OPTIONS;
    if (!(f.all ? list_all(r, i, n, &f) : list_target(r, i, n, target, &f)))
        return;
    gr_jw_node *step = gr_why_step(q, "mex");
    gr_jw_u64(step, "component", i);
    if (f.total_known)
        gr_jw_u128(step, "options_total", f.total);
    else
        gr_jw_null(step, "options_total");
    gr_jw_str(step, "listed", f.all ? "all" : "move");
    if (f.all) {
        add_options(step, &f);
        gr_jw_u64(step, "mex", mex_of(f.opt, f.listed));
    }
    say_mex(q, step, i, n, g, &f);
}

static uint64_t reduced_index(const gr_seq *s, uint64_t n)
{
    return n < s->preperiod ? n : s->preperiod + (n - s->preperiod) % s->period;
}

void gr_heap_why_period(gr_query *q, const uint64_t *piles, const uint64_t *values, size_t n,
                        const gr_heap_rules *r)
{
    const gr_seq *s = r->seq;
    if (q->slim || !s || !s->periodic)
        return;
    size_t used = 0, first = n;
    for (size_t i = 0; i < n; i++)
        if (piles[i] >= s->count && used++ == 0)
            first = i;
    if (used == 0)
        return;
    gr_jw_node *step = gr_why_step(q, "period");
    gr_jw_u64(step, "preperiod", s->preperiod);
    gr_jw_u64(step, "period", s->period);
    gr_jw_u64(step, "bound", s->count);
    gr_jw_u64(step, "used", used);
    gr_jw_node *arr = gr_jw_array(step, "piles");
    size_t listed = 0;
    for (size_t i = 0; i < n && listed < GR_WHY_LISTED; i++) {
        if (piles[i] < s->count)
            continue;
        gr_jw_node *p = gr_jw_object(arr, NULL);
        gr_jw_u64(p, "pile", i);
        gr_jw_u64(p, "size", piles[i]);
        gr_jw_u64(p, "reduced", reduced_index(s, piles[i]));
        gr_jw_u64(p, "grundy", values[i]);
        listed++;
    }
    gr_why_say(q, step,
               "Values are periodic with period %" PRIu64 " from heap %" PRIu64 ", certified by those "
               "computed for heaps below %" PRIu64 "; %zu pile%s past them: pile %zu (%" PRIu64
               ") reduces to %" PRIu64 " + (%" PRIu64 " - %" PRIu64 ") mod %" PRIu64 " = %" PRIu64
               ", of value %" PRIu64 ".",
               s->period, s->preperiod, s->count, used, used == 1 ? " is" : "s are", first, piles[first],
               s->preperiod, piles[first], s->preperiod, s->period, reduced_index(s, piles[first]),
               values[first]);
}

void gr_heap_why_game(gr_query *q, const uint64_t *piles, const uint64_t *values, size_t n,
                      const gr_heap_rules *r)
{
    gr_why_say(q, gr_why_step(q, "rule"), "%s.", r->name);
    if (values)
        gr_heap_why_period(q, piles, values, n, r);
}

void gr_heap_why_disjunctive(gr_query *q, const uint64_t *piles, const uint64_t *values, size_t n,
                             const gr_heap_rules *r)
{
    if (q->slim)
        return;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++)
        x ^= values[i];
    gr_heap_why_game(q, piles, values, n, r);
    gr_why_nim_sum(q, values, n, x, "pile");
    for (size_t i = 0; x && i < n; i++) {
        if ((values[i] ^ x) >= values[i])
            continue;
        gr_why_target(q, i, values[i], x, "pile");
        gr_heap_why_mex(q, i, piles[i], values[i], values[i] ^ x, r);
        return;
    }
}
