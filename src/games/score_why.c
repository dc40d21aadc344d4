/* SPDX-License-Identifier: MIT */
#include "score_why.h"
#include "grundy/alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "why.h"

gr_score_share gr_score_why_budget(gr_query *q, uint64_t spent)
{
    uint64_t want = spent > GR_WINNING_MIN_STEPS ? spent : GR_WINNING_MIN_STEPS;
    uint64_t given = q->slim ? 0 : want < q->budget.left / 2 ? want : q->budget.left / 2;
    gr_score_share s = { gr_budget_share(&q->budget, given), given };
    return s;
}

void gr_score_why_settle(gr_query *q, const gr_score_share *share)
{
    uint64_t left = share->budget.left < share->given ? share->budget.left : share->given;
    uint64_t spent = share->given - left;
    q->budget.left -= spent < q->budget.left ? spent : q->budget.left;
}

gr_score_entry *gr_score_entry_add(gr_score_entry *entries, size_t *n, const char *fmt, ...)
{
    gr_score_entry *e = &entries[*n];
    e->w = (gr_jw){ .depth = 0 };
    e->move = gr_jw_begin(&e->w, '{');
    e->value = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->label, sizeof e->label, fmt, ap);
    va_end(ap);
    (*n)++;
    return e;
}

void gr_score_entries_free(gr_score_entry *entries, size_t n)
{
    for (size_t i = 0; i < n; i++)
        gr_jw_free(&entries[i].w);
}

/* "+1", "0", "-7": a value in a sentence. */
static void signed_text(gr_text *t, gr_i128 v)
{
    char digits[48];
    gr_json_format_i128(v, digits);
    gr_text_add(t, "%s%s", v > 0 ? "+" : "", digits);
}

/* Appends {move, value} to list. */
static gr_jw_node *push_entry(gr_jw_node *list, gr_score_entry *e)
{
    gr_jw_node *o = gr_jw_object(list, NULL);
    gr_jw_end(&e->w);
    if (e->w.out.len)
        gr_jw_raw(o, "move", e->w.out.data, e->w.out.len);
    gr_jw_i128(o, "value", e->value);
    return o;
}

void gr_score_why_moves(gr_query *q, gr_score_entry *entries, size_t n, size_t legal, bool complete,
                        gr_i128 best, const char *unit)
{
    gr_jw_node *step = gr_why_step(q, "move_values");
    if (!step)
        return;
    gr_jw_node *list = gr_jw_array(step, "moves");
    gr_text t = { .len = 0 };
    gr_text_add(&t, "The %s each legal move gives its mover: ", unit);
    for (size_t i = 0; i < n; i++) {
        gr_text_add(&t, "%s%s: ", i ? ", " : "", entries[i].label);
        signed_text(&t, entries[i].value);
        push_entry(list, &entries[i]);
    }
    if (!complete)
        gr_text_add(&t, "%s(the other moves were not valued within the compute budget)", n ? " " : "");
    gr_jw_u64(step, "legal", legal);
    gr_jw_i128(step, "best", best);
    gr_jw_bool(step, "complete", complete);
    if (legal == 0) {
        t.len = 0;
        gr_text_add(&t, "No legal move: the game is over, with value ");
    } else {
        gr_text_add(&t, ". The best is ");
    }
    signed_text(&t, best);
    gr_why_say(q, step, "%s%s", t.buf, legal ? ", the position's value." : ".");
}

void gr_score_why_line(gr_query *q, gr_score_entry *line, size_t n, bool complete, const char *unit)
{
    gr_jw_node *step = gr_why_step(q, "principal_variation");
    if (!step)
        return;
    gr_jw_node *plies = gr_jw_array(step, "plies");
    gr_text t = { .len = 0 };
    gr_text_add(&t, "Best play from here, each move with the %s it gives its mover: ", unit);
    for (size_t i = 0; i < n; i++) {
        gr_text_add(&t, "%s%zu. %s: ", i ? ", " : "", i + 1, line[i].label);
        signed_text(&t, line[i].value);
        gr_jw_u64(push_entry(plies, &line[i]), "ply", i + 1);
    }
    gr_jw_u64(step, "length", n);
    gr_jw_bool(step, "complete", complete);
    if (n == 0 && complete)
        gr_why_say(q, step, "No line of play is left: the game is over.");
    else if (complete)
        gr_why_say(q, step, "%s, to the end of the game.", t.buf);
    else if (n == 0)
        gr_why_say(q, step, "No line of best play was found within the compute budget.");
    else
        gr_why_say(q, step, "%s (the line stops here: the cap of %d plies or the compute budget).", t.buf,
                   GR_SCORE_LINE_CAP);
}

/* Every legal move of s with its value; *n entries, *legal moves, false
 * when some were not valued (budget) or memory ran out. */
static bool value_all(const gr_score_game *g, const void *ctx, const void *s, gr_budget *b,
                      gr_score_entry *e, size_t *n, size_t *legal)
{
    *legal = g->moves(ctx, s, e, g->max_moves);
    if (*legal == SIZE_MAX) {
        *legal = *n = 0;
        return false;
    }
    for (*n = 0; *n < *legal; (*n)++) {
        if (g->value(ctx, s, *n, b, &e[*n].value))
            break;
    }
    for (size_t i = *n; i < *legal; i++)
        gr_jw_free(&e[i].w);
    return *n == *legal;
}

/* The line from s: at most GR_SCORE_LINE_CAP plies into line; *n plies. */
static bool walk_line(const gr_score_game *g, const void *ctx, const void *start, gr_budget *b,
                      gr_score_entry *scratch, gr_score_entry *line, size_t *n)
{
    unsigned char s[GR_SCORE_STATE_MAX];
    memcpy(s, start, g->state_size);
    *n = 0;
    for (;;) {
        size_t legal = g->moves(ctx, s, scratch, g->max_moves), i = 0;
        if (legal == SIZE_MAX)
            return false;
        gr_i128 v = 0;
        bool stop = legal == 0 || *n == GR_SCORE_LINE_CAP || g->best(ctx, s, b, &i, &v) != 0;
        if (!stop) {
            line[*n] = scratch[i];
            line[*n].value = v;
            scratch[i].w = (gr_jw){ .depth = 0 }; /* line[*n] owns its text now */
            (*n)++;
            g->play(ctx, s, i);
        }
        gr_score_entries_free(scratch, legal);
        if (stop)
            return legal == 0;
    }
}

void gr_score_why_account(gr_query *q, const gr_score_game *g, const void *ctx, const void *s,
                          gr_i128 value, uint64_t spent)
{
    if (q->slim)
        return;
    gr_score_entry *e = gr_calloc(g->max_moves + 1, sizeof *e);
    gr_score_entry *line = gr_calloc(GR_SCORE_LINE_CAP, sizeof *line);
    gr_score_share share = gr_score_why_budget(q, spent);
    size_t n = 0, legal = 0;
    if (e && line) {
        bool all = value_all(g, ctx, s, &share.budget, e, &n, &legal);
        gr_score_why_moves(q, e, n, legal, all, value, g->unit);
        gr_score_entries_free(e, n);
        bool complete = walk_line(g, ctx, s, &share.budget, e, line, &n);
        gr_score_why_line(q, line, n, complete, g->unit);
        gr_score_entries_free(line, n);
    }
    gr_score_why_settle(q, &share);
    gr_free(e);
    gr_free(line);
}

int gr_score_optimal_moves(gr_query *q, const gr_score_game *g, const void *ctx, const void *s,
                           gr_move_sink *sink)
{
    gr_score_entry *e = gr_calloc(g->max_moves + 1, sizeof *e);
    if (!e)
        return gr_oom(q);
    size_t n = 0, legal = 0;
    bool all = value_all(g, ctx, s, &q->budget, e, &n, &legal);
    gr_score_entries_free(e, n);
    int rc = 0;
    if (!all) {
        rc = gr_fail(q->err, GR_E_LIMIT_EXCEEDED, "stones", "the moves were not all valued within "
                     "the compute budget");
    } else {
        gr_i128 best = 0;
        for (size_t i = 0; i < n; i++)
            best = (i == 0 || e[i].value > best) ? e[i].value : best;
        sink->total = 0;
        for (size_t i = 0; i < n; i++)
            sink->total += e[i].value == best;
        for (size_t i = 0; i < n && rc == 0; i++) {
            if (e[i].value != best)
                continue;
            if (g->render(q, ctx, s, i))
                rc = -1;
            else if (!sink->put(sink, q, NULL)) /* an optimal move's value is the position's */
                break;
        }
        rc = rc == 0 && q->err->code ? -1 : rc;
    }
    gr_free(e);
    return rc;
}
