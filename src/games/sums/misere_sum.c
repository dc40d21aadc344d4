/* SPDX-License-Identifier: MIT */
/* Misere sums of heaps by misere quotients (misere_sum.h). */
#include "misere_sum.h"
#include "seq_cache.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "json.h"
#include "scratch.h"
#include "heap_sum.h"
#include "why.h"
#include "grundy/alloc.h"
#include "tables/tables.h"

/* Heaps a quotient is built to when no period ends it sooner; larger heaps
 * are covered only by a certified period. */
#define MISERE_MIN_HEAP 200u
#define MISERE_MAX_HEAP 1000u
/* Elements listed in an explanation before the list is elided. */
#define MISERE_LISTED 8u

/* ---- kept in the service's cache (--cache-bytes), beside the sequences ---- */

/* The cache's key for a game's quotient: "mq", then the rules' fields. */
static size_t quotient_key(const gr_mq_rules *r, unsigned char *key)
{
    size_t n = 0;
    memcpy(key, "mq", 2);
    n += 2;
    key[n++] = (unsigned char)r->kind;
    if (r->kind == GR_MQ_OCTAL) {
        memcpy(key + n, &r->code.t, sizeof r->code.t);
        n += sizeof r->code.t;
        memcpy(key + n, r->code.digit, sizeof r->code.digit);
        n += sizeof r->code.digit;
    } else if (r->kind == GR_MQ_SUBTRACTION) {
        memcpy(key + n, r->sub, r->nsub * sizeof r->sub[0]);
        n += r->nsub * sizeof r->sub[0];
    }
    return n;
}

#define QUOTIENT_KEY_MAX (3 + sizeof(gr_octal_code) + GR_MQ_MAX_SUB * sizeof(uint64_t))

/* A quotient the cache holds for these rules, with a reference in *held. */
static const gr_mq *cache_find(gr_query *q, const gr_mq_rules *r, gr_cache_entry **held)
{
    unsigned char key[QUOTIENT_KEY_MAX];
    *held = q->cache ? gr_seq_cache_get(q->cache, key, quotient_key(r, key)) : NULL;
    return *held ? gr_cache_entry_mq(*held) : NULL;
}

/* Moves *own into the cache (a reference in *held), or leaves it the
 * query's when the cache cannot take it; the quotient to use. */
static const gr_mq *cache_offer(gr_query *q, gr_mq *own, gr_cache_entry **held)
{
    unsigned char key[QUOTIENT_KEY_MAX];
    *held = q->cache ? gr_seq_cache_put_mq(q->cache, key, quotient_key(&own->rules, key), own) : NULL;
    return *held ? gr_cache_entry_mq(*held) : own;
}

static bool covers_all(const gr_mq *q, const uint64_t *piles, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!gr_mq_covers(q, piles[i]))
            return false;
    return true;
}

/* A finished construction (a period, or a stop that more budget would not
 * lift) is kept, and so is one the budget cut short past MISERE_KEEP_BOUND
 * heaps (exact as far as it goes), so that later queries do not spend their
 * budgets building it again; a shorter one serves this query only. */
#define MISERE_KEEP_BOUND 64u
static bool worth_keeping(const gr_mq *q, const gr_budget *b)
{
    return q->periodic || gr_budget_stopped(b) == GR_STOP_NONE || q->bound >= MISERE_KEEP_BOUND;
}

/* The table file's quotient for an octal code, borrowed into *view. */
static const gr_mq *table_quotient(const gr_query *q, const gr_mq_rules *r, gr_mq *view)
{
    char code[16], name[64];
    if (r->kind != GR_MQ_OCTAL || !q->tables)
        return NULL;
    gr_octal_format(&r->code, code);
    snprintf(name, sizeof name, "%s%s", GR_TN_MISERE_PREFIX, code);
    if (!gr_tables_misere(q->tables, name, view))
        return NULL;
    view->rules = *r;
    return view;
}

/* The quotient for the rules: the table file's (borrowed into *view), a
 * kept one, or one built now into *own. NULL only when memory runs out. */
static const gr_mq *quotient_for(gr_query *q, const gr_mq_rules *r, const uint64_t *piles,
                                 size_t n, gr_mq *own, gr_mq *view, gr_cache_entry **held)
{
    *held = NULL;
    const gr_mq *stored = table_quotient(q, r, view);
    if (stored)
        return stored;
    const gr_mq *kept = cache_find(q, r, held);
    if (kept)
        return kept;
    uint64_t need = gr_max_u64(piles, n);
    need = need < MISERE_MIN_HEAP ? MISERE_MIN_HEAP : need > MISERE_MAX_HEAP ? MISERE_MAX_HEAP : need;
    if (gr_mq_build(r, need, &q->budget, own) != GR_OK)
        return NULL;
    return worth_keeping(own, &q->budget) ? cache_offer(q, own, held) : own;
}

/* ---- the answer ---- */

static void describe_quotient(gr_text *t, const gr_mq *m)
{
    gr_text_add(t, "the misere quotient of this game has %" PRIu32 " elements, %" PRIu32
                " of them in its P-portion, ", m->order, m->p_size);
    if (m->periodic)
        gr_text_add(t, "and its pretending function has period %" PRIu64 " from heap %" PRIu64
                    " (certified at heap %" PRIu64 "), so it covers every heap. ",
                    m->period, m->preperiod, m->bound);
    else
        gr_text_add(t, "covering heaps up to %" PRIu64 ". ", m->bound);
}

/* The "misere_quotient" step: the quotient's facts, each heap's element
 * (the first MISERE_LISTED), their product and whether it lies in P. */
static void explain(gr_query *q, const gr_mq *m, const uint64_t *piles, size_t n, bool win,
                    bool moves, const char *name)
{
    gr_jw_node *step = gr_why_step(q, "misere_quotient");
    if (!step)
        return;
    gr_jw_u64(step, "order", m->order);
    gr_jw_u64(step, "p_portion_size", m->p_size);
    gr_jw_u64(step, "heap_bound", m->bound);
    gr_jw_bool(step, "periodic", m->periodic);
    if (m->periodic) {
        gr_jw_u64(step, "preperiod", m->preperiod);
        gr_jw_u64(step, "period", m->period);
    }
    gr_jw_node *elements = gr_jw_array(step, "elements");
    for (size_t i = 0; i < n && i < MISERE_LISTED && elements; i++)
        gr_jw_u64(elements, NULL, gr_mq_phi(m, piles[i]));
    uint16_t product = gr_mq_product(m, piles, n);
    gr_jw_u64(step, "product", product);
    gr_jw_bool(step, "product_in_p", !win);
    gr_text t = { .len = 0 };
    gr_text_add(&t, "Misere %s (the player who cannot move wins), a sum of %zu heaps: ", name, n);
    describe_quotient(&t, m);
    gr_text_add(&t, "The heaps map to the quotient's elements ");
    for (size_t i = 0; i < n && i < MISERE_LISTED; i++)
        gr_text_add(&t, "%se%" PRIu16, i ? " * " : "", gr_mq_phi(m, piles[i]));
    gr_text_add(&t, "%s, whose product in the quotient's own table is e%" PRIu16 ", which %s in the "
                "P-portion, so ", n > MISERE_LISTED ? " * ..." : "", product, win ? "is not" : "is");
    if (!win)
        gr_text_add(&t, "every move leads to a position the opponent wins, and the player to move loses.");
    else
        gr_text_add(&t, "the player to move wins%s", moves ? " by moving to a product in the P-portion."
                                                           : " (no move is left).");
    gr_why_say(q, step, "%s", t.buf);
}

/* {pile, size, grundy: null} per pile, and with a quotient the pile's
 * "misere" facts: the quotient's order and P-portion size, the pile's
 * element and whether that element alone lies in P. */
static int misere_components(gr_query *q, const gr_mq *m, const uint64_t *piles, size_t n)
{
    gr_ans_components(q);
    for (size_t i = 0; i < n; i++) {
        gr_jw_node *c = gr_ans_component(q);
        if (!c)
            return -1;
        gr_jw_u64(c, "pile", i);
        gr_jw_u64(c, "size", piles[i]);
        gr_jw_null(c, "grundy");
        if (!m)
            continue;
        gr_jw_node *f = gr_jw_object(c, "misere");
        if (!f)
            return -1;
        uint16_t x = gr_mq_phi(m, piles[i]);
        gr_jw_u64(f, "quotient_order", m->order);
        gr_jw_u64(f, "p_portion_size", m->p_size);
        gr_jw_u64(f, "element", x);
        gr_jw_bool(f, "element_in_p", m->in_p[x] != 0);
    }
    return 0;
}

/* Conway's genus argument, for sums of at most GENUS_PILES heaps up to
 * GENUS_HEAP, within GENUS_STEPS of the query's budget: when every heap is
 * tame (hereditarily of a nim heap's genus) the heaps add like misere nim
 * heaps *g. Adds the sentence, and returns whether the argument applied
 * (it decides as the quotient does: tests/engine/test_misere.c holds them to it). */
#define GENUS_PILES 16u
#define GENUS_HEAP 40u
#define GENUS_STEPS (UINT64_C(1) << 20)
static void explain_genus(gr_query *q, const gr_mq_rules *r, const uint64_t *piles, size_t n, bool win)
{
    if (n > GENUS_PILES || gr_max_u64(piles, n) > GENUS_HEAP)
        return;
    gr_budget b = gr_budget_share(&q->budget, GENUS_STEPS);
    uint64_t x = 0;
    bool big = false;
    gr_genus g[GENUS_PILES];
    for (size_t i = 0; i < n; i++) {
        if (gr_mq_genus(r, piles[i], &b, &g[i]) != GR_OK || !g[i].tame)
            return;
        x ^= g[i].g;
        big |= g[i].g > 1;
    }
    bool p_position = big ? x == 0 : x == 1;
    if (p_position == win)
        return;
    gr_jw_node *step = gr_why_step(q, "genus");
    gr_jw_node *genera = gr_jw_array(step, "genera");
    gr_text t = { .len = 0 };
    gr_text_add(&t, "Every heap is tame (genus");
    for (size_t i = 0; i < n && i < MISERE_LISTED; i++) {
        gr_jw_node *one = gr_jw_object(genera, NULL);
        gr_jw_u64(one, "g", g[i].g);
        uint64_t gamma[3] = { g[i].gamma[0], g[i].gamma[1], g[i].gamma[2] };
        gr_jw_u64s(one, "gamma", gamma, 3);
        gr_text_add(&t, " %" PRIu16 "^%" PRIu8 "%" PRIu8 "%" PRIu8, g[i].g, g[i].gamma[0], g[i].gamma[1],
                    g[i].gamma[2]);
    }
    gr_jw_u64(step, "nim_sum", x);
    gr_jw_bool(step, "p_position", p_position);
    gr_text_add(&t, "%s), so by Conway's genus theory the heaps add as misere nim heaps: %s, nim-sum %"
                PRIu64 ", %s.", n > MISERE_LISTED ? " ..." : "",
                big ? "some heap is *2 or more" : "every heap is *0 or *1", x,
                p_position ? "a P-position" : "an N-position");
    gr_why_say(q, step, "%s", t.buf);
}

static int answer_by_quotient(gr_query *q, const gr_mq *m, const uint64_t *piles, size_t n,
                              const char *name)
{
    bool win;
    size_t pile;
    gr_heap_move mv;
    gr_status s = gr_mq_solve(m, piles, n, &q->budget, &win, &pile, &mv);
    if (s != GR_OK)
        return gr_fail_engine(q->err, s, "piles", "a winning move of this misere sum");
    q->ans.winner = win ? "first" : "second";
    if (misere_components(q, m, piles, n))
        return gr_oom(q);
    explain(q, m, piles, n, win, pile != SIZE_MAX, name);
    explain_genus(q, &m->rules, piles, n, win);
    return win && pile != SIZE_MAX ? gr_heap_answer_move(q, piles, n, pile, &mv) : 0;
}

static int answer_directly(gr_query *q, const gr_mq *m, const gr_mq_rules *r, const uint64_t *piles,
                           size_t n, const char *name)
{
    bool win;
    size_t pile = SIZE_MAX;
    gr_heap_move mv;
    gr_status s = gr_mq_direct(r, piles, n, &q->budget, &win, &pile, &mv);
    if (s == GR_ELIMIT)
        return gr_fail(q->err, GR_E_BEYOND_BOUND, "piles",
                       "misere %s: the misere quotient covers heaps up to %" PRIu64 " only (%s), "
                       "and a direct search of this sum ran past the per-query compute budget; "
                       "send heaps up to %" PRIu64 ", or a smaller sum",
                       name, m ? m->bound : 0, m && m->stop ? m->stop : "not built further",
                       m ? m->bound : 0);
    if (s != GR_OK)
        return gr_fail_engine(q->err, s, "piles", "the misere outcome of this sum");
    q->ans.winner = win ? "first" : "second";
    if (misere_components(q, NULL, piles, n))
        return gr_oom(q);
    gr_jw_node *step = gr_why_step(q, "misere_search");
    gr_jw_u64(step, "heap_bound", m ? m->bound : 0);
    gr_why_say(q, step,
                "Misere %s (the player who cannot move wins), a sum of %zu heaps: the misere quotient "
                "covers heaps up to %" PRIu64 " only, so this sum was searched directly: %s",
                name, n, m ? m->bound : 0,
                !win ? "every move leads to a position the opponent wins, so the player to move loses."
                : pile != SIZE_MAX ? "the player to move wins by moving to a position the opponent loses."
                                   : "no move is left, so the player to move wins.");
    return win && pile != SIZE_MAX ? gr_heap_answer_move(q, piles, n, pile, &mv) : 0;
}

int gr_heap_misere_sum(gr_query *q, const uint64_t *piles, size_t n, const gr_mq_rules *rules,
                       const char *name)
{
    gr_mq own = { 0 }, view;
    gr_cache_entry *held;
    const gr_mq *m = quotient_for(q, rules, piles, n, &own, &view, &held);
    int rc;
    if (!m)
        rc = gr_oom(q);
    else if (covers_all(m, piles, n))
        rc = answer_by_quotient(q, m, piles, n, name);
    else
        rc = answer_directly(q, m, rules, piles, n, name);
    if (held)
        gr_seq_cache_release(q->cache, held);
    gr_mq_free(&own);
    return rc;
}
