/* SPDX-License-Identifier: MIT */
#include "heap_sum.h"
#include "grundy/alloc.h"

#include "compound.h"
#include "heap_why.h"
#include "sum_why.h"
#include "why.h"
#include "grundy/heapplay.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

int gr_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

uint64_t gr_max_u64(const uint64_t *v, size_t n)
{
    uint64_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] > m)
            m = v[i];
    return m;
}

/* Appends pile p as it stands after mv (NULL: untouched); an emptied pile
 * stays as 0 and a split pile becomes its two parts, in place. */
static void append_size(gr_jw_node *arr, const gr_heap_rules *r, size_t i, uint64_t size)
{
    if (r && r->pile_put)
        r->pile_put(r->ctx, i, size, arr);
    else
        gr_jw_u64(arr, NULL, size);
}

static void append_pile(gr_jw_node *arr, const gr_heap_rules *r, size_t i, uint64_t p, const gr_heap_move *mv)
{
    if (!mv) {
        append_size(arr, r, i, p);
        return;
    }
    if (mv->nparts == 0)
        append_size(arr, r, i, 0);
    for (unsigned j = 0; j < mv->nparts; j++)
        append_size(arr, r, i, mv->part[j]);
}

static gr_jw_node *next_piles_array(gr_query *q)
{
    return gr_jw_array(gr_ans_next(q), "piles");
}

static int next_piles(gr_query *q, const uint64_t *piles, size_t n, size_t i, const gr_heap_move *mv,
                      const gr_heap_rules *r)
{
    gr_jw_node *arr = next_piles_array(q);
    for (size_t k = 0; k < n; k++)
        append_pile(arr, r, k, piles[k], k == i ? mv : NULL);
    return 0;
}

static int pile_components(gr_query *q, const uint64_t *piles, size_t n, const char *key,
                           const uint64_t *values, const gr_heap_rules *r)
{
    bool period = r && key[0] == 'g' && r->seq && r->seq->periodic;
    gr_jw_node *arr = gr_ans_components(q);
    for (size_t i = 0; i < n; i++) {
        gr_jw_node *c = gr_jw_object(arr, NULL);
        gr_jw_u64(c, "pile", i);
        gr_jw_u64(c, "size", piles[i]);
        if (r && r->pile_facts)
            r->pile_facts(r->ctx, i, c);
        if (values)
            gr_jw_u64(c, key, values[i]);
        else
            gr_jw_null(c, key);
        if (period) {
            gr_jw_node *p = gr_jw_object(c, "period");
            gr_jw_u64(p, "preperiod", r->seq->preperiod);
            gr_jw_u64(p, "period", r->seq->period);
        }
    }
    return 0;
}

int gr_pile_components(gr_query *q, const uint64_t *piles, size_t n, const uint64_t *grundy)
{
    return pile_components(q, piles, n, "grundy", grundy, NULL);
}

/* "Take 3 from pile 0 (5 -> 2)" and the like, without the full stop. */
static void move_text(gr_text *t, size_t i, uint64_t n, const gr_heap_move *mv)
{
    if (mv->nparts == 2 && mv->take == 0)
        gr_text_add(t, "split pile %zu (%" PRIu64 ") into %" PRIu64 " and %" PRIu64, i, n,
                    mv->part[0], mv->part[1]);
    else if (mv->nparts == 2)
        gr_text_add(t, "take %" PRIu64 " from pile %zu (%" PRIu64 ") and split the rest into %" PRIu64
                    " and %" PRIu64, mv->take, i, n, mv->part[0], mv->part[1]);
    else
        gr_text_add(t, "take %" PRIu64 " from pile %zu (%" PRIu64 " -> %" PRIu64 ")", mv->take, i, n,
                    n - mv->take);
}

static void add_move_fields(gr_jw_node *obj, size_t i, uint64_t pile, const gr_heap_move *mv)
{
    gr_jw_u64(obj, "pile", i);
    gr_jw_u64(obj, "take", mv->take);
    gr_jw_u64(obj, "from", pile);
    if (mv->nparts == 2)
        gr_jw_u64s(obj, "split", mv->part, 2);
    else
        gr_jw_u64(obj, "to", pile - mv->take);
}

/* Ends the move text with a full stop and capitalises it. */
static void capitalised_sentence(gr_text *t)
{
    gr_text_add(t, ".");
    if (t->buf[0] >= 'a' && t->buf[0] <= 'z')
        t->buf[0] = (char)(t->buf[0] - 'a' + 'A');
}

static void add_text(gr_jw_node *move, gr_text *t)
{
    capitalised_sentence(t);
    gr_jw_str(move, "text", t->buf);
}

static int answer_move(gr_query *q, const uint64_t *piles, size_t n, size_t i, const gr_heap_move *mv,
                       const gr_heap_rules *r)
{
    gr_jw_node *move = gr_ans_move(q);
    add_move_fields(move, i, piles[i], mv);
    gr_text t = { .len = 0 };
    move_text(&t, i, piles[i], mv);
    add_text(move, &t);
    return next_piles(q, piles, n, i, mv, r);
}

int gr_heap_answer_move(gr_query *q, const uint64_t *piles, size_t n, size_t i, const gr_heap_move *mv)
{
    return answer_move(q, piles, n, i, mv, NULL);
}

int gr_heap_render_move(gr_query *q, const uint64_t *piles, size_t n, size_t i, const gr_heap_move *mv,
                        const gr_heap_rules *r)
{
    return answer_move(q, piles, n, i, mv, r);
}

/* A move of several piles at once (selective and conjunctive compounds):
 * ans.move = {"moves": [...], "text"} and every changed pile in ans.next. */
static int answer_moves(gr_query *q, const uint64_t *piles, size_t n, const bool *moved,
                        const gr_heap_move *mv, const gr_heap_rules *r)
{
    gr_jw_node *move = gr_ans_move(q);
    gr_jw_node *list = gr_jw_array(move, "moves");
    gr_jw_node *arr = next_piles_array(q);
    gr_text t = { .len = 0 };
    for (size_t i = 0; i < n; i++) {
        append_pile(arr, r, i, piles[i], moved[i] ? &mv[i] : NULL);
        if (!moved[i])
            continue;
        gr_jw_node *one = gr_jw_object(list, NULL);
        add_move_fields(one, i, piles[i], &mv[i]);
        if (t.len)
            gr_text_add(&t, "; ");
        move_text(&t, i, piles[i], &mv[i]);
    }
    add_text(move, &t);
    return 0;
}

/* The first heap whose value can drop to value ^ x, and the game's move there. */
static int find_move(gr_query *q, const uint64_t *piles, const uint64_t *values, size_t n,
                     uint64_t x, const gr_heap_rules *r)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t target = values[i] ^ x;
        if (target >= values[i])
            continue;
        gr_heap_move mv = { 0 };
        gr_status s = r->move(r->ctx, i, piles[i], target, &mv);
        if (s != GR_OK) {
            char field[40];
            snprintf(field, sizeof field, "piles[%zu]", i);
            return gr_fail_engine(q->err, s, field, "finding the winning move");
        }
        return answer_move(q, piles, n, i, &mv, r);
    }
    return gr_fail(q->err, GR_E_INTERNAL, "piles", "no winning move found; please report this query");
}

static int pile_failure(gr_query *q, gr_status s, size_t i, const char *what)
{
    char field[40];
    snprintf(field, sizeof field, "piles[%zu]", i);
    return gr_fail_engine(q->err, s, field, what);
}

/* Every pile's Grundy value into a new array (free it), or NULL with the
 * error recorded. */
static uint64_t *heap_values(gr_query *q, const uint64_t *piles, size_t n, const gr_heap_rules *r)
{
    uint64_t *values = gr_scratch_alloc((n ? n : 1) * sizeof *values);
    if (!values) {
        gr_oom(q);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        gr_status s = r->value(r->ctx, i, piles[i], &values[i]);
        if (s != GR_OK) {
            pile_failure(q, s, i, "the Grundy value of this pile");
            gr_scratch_free(values);
            return NULL;
        }
    }
    return values;
}

static int disjunctive(gr_query *q, const uint64_t *piles, const uint64_t *values, size_t n,
                       const gr_heap_rules *r)
{
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++)
        x ^= values[i];
    q->ans.grundy_known = true;
    q->ans.grundy = x;
    q->ans.winner = x ? "first" : "second";
    return x ? find_move(q, piles, values, n, x, r) : 0;
}

/* The selective compounds: every planned pile moves to its target value. */
static int selective(gr_query *q, const uint64_t *piles, const uint64_t *values, size_t n,
                     const gr_heap_rules *r)
{
    bool *moved = gr_calloc(n ? n : 1, sizeof *moved);
    uint64_t *target = gr_malloc((n ? n : 1) * sizeof *target);
    gr_heap_move *mv = gr_calloc(n ? n : 1, sizeof *mv);
    int rc = -1;
    if (!moved || !target || !mv) {
        rc = gr_oom(q);
        goto out;
    }
    bool win = gr_selective_plan(q->compound, values, n, moved, target);
    q->ans.winner = win ? "first" : "second";
    gr_compound_explain(q, values, n, "piles", win);
    rc = 0;
    for (size_t i = 0; win && i < n && rc == 0; i++) {
        gr_status s = moved[i] ? r->move(r->ctx, i, piles[i], target[i], &mv[i]) : GR_OK;
        if (s != GR_OK)
            rc = pile_failure(q, s, i, "finding the winning move");
    }
    if (win && rc == 0)
        rc = answer_moves(q, piles, n, moved, mv, r);
out:
    gr_free(moved);
    gr_free(target);
    gr_free(mv);
    return rc;
}


static int conjunctive(gr_query *q, const uint64_t *piles, size_t n, const gr_heap_rules *r)
{
    if (!r->remote)
        return gr_fail(q->err, GR_E_UNSUPPORTED_COMPOUND, "compound",
                       "the conjunctive compound is not answered for this game; use "
                       "\"disjunctive\", \"selective\" or \"selective_proper\"");
    uint64_t *rem = gr_malloc((n ? n : 1) * sizeof *rem);
    gr_heap_move *mv = gr_calloc(n ? n : 1, sizeof *mv);
    bool *moved = gr_malloc((n ? n : 1) * sizeof *moved);
    int rc = 0;
    if (!rem || !mv || !moved)
        rc = gr_oom(q);
    for (size_t i = 0; i < n && rc == 0; i++) {
        moved[i] = true;
        gr_status s = r->remote(r->ctx, i, piles[i], &q->budget, &rem[i], &mv[i]);
        if (s != GR_OK)
            rc = pile_failure(q, s, i, "the remoteness of this pile");
    }
    if (rc == 0) {
        bool win = gr_conjunctive_win(rem, n);
        q->ans.winner = win ? "first" : "second";
        gr_heap_why_game(q, piles, NULL, n, r);
        gr_compound_explain(q, rem, n, "piles", win);
        rc = pile_components(q, piles, n, "remoteness", rem, r);
        if (rc == 0 && win)
            rc = answer_moves(q, piles, n, moved, mv, r);
    }
    gr_free(rem);
    gr_free(mv);
    gr_free(moved);
    return rc;
}

/* The compounds other than the disjunctive one are refused for games whose
 * moves split a heap: the two heaps would remain one component. */
static int refuse_split_compound(gr_query *q)
{
    return gr_fail(q->err, GR_E_UNSUPPORTED_COMPOUND, "compound",
                   "the %s compound is not answered for games whose moves split a heap: the "
                   "two heaps would remain one component, which \"piles\" cannot express; "
                   "use the disjunctive compound (the default)", gr_compound_name(q->compound));
}

int gr_heap_sum(gr_query *q, const uint64_t *piles, size_t n, const gr_heap_rules *r)
{
    if (q->compound != GR_DISJUNCTIVE && r->splits)
        return refuse_split_compound(q);
    if (q->compound == GR_CONJUNCTIVE)
        return conjunctive(q, piles, n, r);
    uint64_t *values = heap_values(q, piles, n, r);
    if (!values)
        return -1;
    int rc = pile_components(q, piles, n, "grundy", values, r);
    if (q->compound == GR_DISJUNCTIVE)
        gr_heap_why_disjunctive(q, piles, values, n, r);
    else
        gr_heap_why_game(q, piles, values, n, r);
    if (rc == 0)
        rc = q->compound == GR_DISJUNCTIVE ? disjunctive(q, piles, values, n, r)
                                           : selective(q, piles, values, n, r);
    gr_scratch_free(values);
    return rc;
}

int gr_heap_misere_single(gr_query *q, const uint64_t *piles, size_t n, gr_heap_misere_fn solve,
                          const void *ctx, const char *name)
{
    if (n > 1)
        return gr_fail(q->err, GR_E_UNSUPPORTED_CONVENTION, "convention",
                       "misere play of %s is answered for one heap only: a misere sum is not "
                       "decided by the XOR of Grundy values (that rule holds for nim alone); "
                       "send one pile, or use \"convention\": \"normal\"", name);
    bool win = true;
    gr_heap_move mv = { 0 };
    gr_status s = n ? solve(ctx, piles[0], &q->budget, &win, &mv) : GR_OK;
    if (s != GR_OK)
        return pile_failure(q, s, 0, "the misere outcome of this heap");
    q->ans.winner = win ? "first" : "second";
    if (gr_pile_components(q, piles, n, NULL))
        return -1;
    bool moves = win && (mv.take > 0 || mv.nparts == 2);
    gr_jw_node *step = gr_why_step(q, "misere_heap");
    gr_jw_u64(step, "size", n ? piles[0] : 0);
    gr_jw_bool(step, "win", win);
    gr_jw_bool(step, "moves", moves);
    gr_why_say(q, step, "Misere %s (the player who cannot move wins), one heap: %s", name,
                !win ? "every move leads to a position the opponent wins, so the player to move loses."
                : moves ? "the player to move wins by moving to a position the opponent loses."
                        : "no move is left, so the player to move wins.");
    return moves ? gr_heap_answer_move(q, piles, n, 0, &mv) : 0;
}

gr_status gr_heap_game_misere(const void *ctx, uint64_t n, gr_budget *b, bool *win, gr_heap_move *mv)
{
    return gr_heap_misere(ctx, n, b, win, mv);
}

static int solve_after(gr_query *q, const void *pos)
{
    const gr_heap_after *a = pos;
    return a->solver->solve(q, a->solver->ctx, a->piles, a->n);
}

void gr_heap_after_init(gr_heap_after *a, const gr_heap_solver *solver, uint64_t *scratch)
{
    *a = (gr_heap_after){ .solver = solver, .piles = scratch, .position = { solve_after, a } };
}

/* Appends pile p after mv (NULL: untouched) to a, as next writes it. */
static void after_pile(gr_heap_after *a, uint64_t p, const gr_heap_move *mv)
{
    if (!mv) {
        a->piles[a->n++] = p;
        return;
    }
    if (mv->nparts == 0)
        a->piles[a->n++] = 0;
    for (unsigned j = 0; j < mv->nparts; j++)
        a->piles[a->n++] = mv->part[j];
}

const gr_position *gr_heap_after_move(gr_heap_after *a, const uint64_t *piles, size_t n, size_t i,
                                      const gr_heap_move *mv)
{
    if (!a->solver)
        return NULL;
    a->n = 0;
    for (size_t k = 0; k < n; k++)
        after_pile(a, piles[k], k == i ? mv : NULL);
    return &a->position;
}

const gr_position *gr_heap_after_moves(gr_heap_after *a, const uint64_t *piles, size_t n,
                                       const bool *moved, const gr_heap_move *mv)
{
    if (!a->solver)
        return NULL;
    a->n = 0;
    for (size_t k = 0; k < n; k++)
        after_pile(a, piles[k], moved[k] ? &mv[k] : NULL);
    return &a->position;
}

/* The disjunctive sum's moves: every option of every pile, pile by pile. */
static int disjunctive_moves(gr_query *q, const uint64_t *piles, size_t n, const gr_heap_rules *r,
                             const gr_heap_options *o, const gr_u128 *counts, gr_heap_after *after,
                             gr_move_sink *sink)
{
    gr_u128 skip = sink->from;
    for (size_t i = 0; i < n; i++) {
        if (skip >= counts[i]) {
            skip -= counts[i];
            continue;
        }
        for (gr_u128 k = skip; k < counts[i]; k++) {
            gr_heap_move mv;
            o->at(o->ctx, i, piles[i], k, &mv);
            if (answer_move(q, piles, n, i, &mv, r))
                return -1;
            if (!sink->put(sink, q, gr_heap_after_move(after, piles, n, i, &mv)))
                return q->err->code ? -1 : 0;
        }
        skip = 0;
    }
    return 0;
}

/* The other compounds' moves: a choice per pile (compound.h), each
 * rendered as the analyze hook renders a move of several piles. */
static int compound_moves(gr_query *q, const uint64_t *piles, size_t n, const gr_heap_rules *r,
                          const gr_heap_options *o, gr_compound_walk *w, gr_heap_after *after,
                          gr_move_sink *sink)
{
    bool *moved = gr_calloc(n ? n : 1, sizeof *moved);
    gr_heap_move *mv = gr_calloc(n ? n : 1, sizeof *mv);
    int rc = moved && mv ? 0 : gr_oom(q);
    bool more = rc == 0 && sink->from < sink->total;
    if (more)
        gr_compound_seek(w, sink->from);
    while (more && rc == 0) {
        for (size_t i = 0; i < n; i++) {
            moved[i] = w->choice[i] != 0;
            if (moved[i])
                o->at(o->ctx, i, piles[i], w->choice[i] - 1, &mv[i]);
        }
        rc = answer_moves(q, piles, n, moved, mv, r);
        if (rc == 0 && !sink->put(sink, q, gr_heap_after_moves(after, piles, n, moved, mv)))
            rc = q->err->code ? -1 : 1;
        more = rc == 0 && gr_compound_next(w);
    }
    gr_free(moved);
    gr_free(mv);
    return rc < 0 ? -1 : 0;
}

int gr_heap_moves(gr_query *q, const uint64_t *piles, size_t n, const gr_heap_rules *r,
                  const gr_heap_options *o, const gr_heap_solver *solver, gr_move_sink *sink)
{
    if (q->compound != GR_DISJUNCTIVE && r && r->splits)
        return refuse_split_compound(q);
    gr_u128 *counts = gr_malloc((n ? n : 1) * sizeof *counts);
    gr_u128 *choice = gr_malloc((n ? n : 1) * sizeof *choice);
    uint64_t *scratch = gr_malloc((n + 2) * 2 * sizeof *scratch); /* a split per pile at most */
    if (!counts || !choice || !scratch) {
        gr_free(counts);
        gr_free(choice);
        gr_free(scratch);
        return gr_oom(q);
    }
    gr_heap_after after;
    gr_heap_after_init(&after, solver, scratch);
    for (size_t i = 0; i < n; i++)
        counts[i] = o->count(o->ctx, i, piles[i]);
    gr_compound_walk w = { .compound = q->compound, .counts = counts, .n = n, .choice = choice };
    int rc;
    if (!gr_compound_count(&w, &sink->total))
        rc = gr_fail(q->err, GR_E_LIMIT_EXCEEDED, "piles", "this %s compound has more than 2^128 - 1 "
                     "moves, past what is listed; send fewer or smaller piles", gr_compound_name(q->compound));
    else if (q->compound == GR_DISJUNCTIVE)
        rc = disjunctive_moves(q, piles, n, r, o, counts, &after, sink);
    else
        rc = compound_moves(q, piles, n, r, o, &w, &after, sink);
    gr_free(counts);
    gr_free(choice);
    gr_free(scratch);
    return rc;
}
