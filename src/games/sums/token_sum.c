/* SPDX-License-Identifier: MIT */
#include "token_sum.h"
#include "grundy/alloc.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "compound.h"
#include "heap_sum.h"
#include "sum_why.h"
#include "token_why.h"
#include "why.h"
#include "grundy/loopy.h"

#define OPTIONS_SHOWN 32      /* finite option values listed per infinite token */

static const char *outcome_name(uint8_t r)
{
    return r == GR_OUTCOME_WIN ? "win" : r == GR_OUTCOME_LOSS ? "loss" : "draw";
}

static bool is_terminal(const gr_graph *g, uint32_t u)
{
    return g->first[u] == g->first[u + 1];
}

static gr_jw_node *add_component(gr_query *q, const gr_token_board *b, size_t i)
{
    gr_jw_node *c = gr_ans_component(q);
    if (!c)
        return NULL;
    gr_jw_u64(c, "token", i);
    b->node_put(b->ctx, b->at[i], c, "node");
    return c;
}

static uint32_t *new_dest(gr_query *q, size_t n)
{
    uint32_t *dest = gr_malloc((n ? n : 1) * sizeof *dest);
    if (!dest) {
        gr_oom(q);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        dest[i] = GR_TOKEN_STAY;
    return dest;
}

static gr_jw_node *move_entry(gr_query *q, gr_jw_node *move, gr_jw_node *list)
{
    if (!list)
        return move;
    return gr_jw_object(list, NULL);
}

/* ans.move and ans.next for tokens moving to dest[i] (GR_TOKEN_STAY: unmoved). One
 * moving token gives {token, from, to, text}; with `multi`, the move is
 * {"moves": [...], "text"}. `why` ends the sentence (NULL: the move alone,
 * as a listed move is written). */
int gr_token_answer_move(gr_query *q, const gr_token_board *b, const uint32_t *dest, bool multi,
                         const char *why)
{
    gr_jw_node *move = gr_ans_move(q);
    gr_jw_node *next = move ? gr_ans_next(q) : NULL;
    gr_jw_node *arr = next ? gr_jw_array(next, "tokens") : NULL;
    gr_jw_node *list = arr && multi ? gr_jw_array(move, "moves") : NULL;
    if (!arr || (multi && !list))
        return gr_oom(q);
    gr_text t = { .len = 0 };
    for (size_t i = 0; i < b->ntokens; i++) {
        uint32_t to = dest[i] == GR_TOKEN_STAY ? b->at[i] : dest[i];
        b->node_put(b->ctx, to, arr, NULL);
        if (dest[i] == GR_TOKEN_STAY)
            continue;
        gr_jw_node *one = move_entry(q, move, list);
        if (!one)
            return -1;
        gr_jw_u64(one, "token", i);
        b->node_put(b->ctx, b->at[i], one, "from");
        b->node_put(b->ctx, to, one, "to");
        gr_text_add(&t, t.len ? "; token %zu from " : "Move token %zu from ", i);
        b->node_text(b->ctx, b->at[i], &t);
        gr_text_add(&t, " to ");
        b->node_text(b->ctx, to, &t);
    }
    if (why)
        gr_text_add(&t, ": %s", why);
    gr_text_add(&t, ".");
    gr_jw_str(move, "text", t.buf);
    return 0;
}

static int answer_one(gr_query *q, const gr_token_board *b, size_t i, uint32_t v, const char *why)
{
    uint32_t *dest = new_dest(q, b->ntokens);
    if (!dest)
        return -1;
    dest[i] = v;
    int rc = gr_token_answer_move(q, b, dest, false, why);
    gr_free(dest);
    return rc;
}

static bool draw_follower(const gr_graph *g, const uint8_t *res, uint32_t u, uint32_t *v)
{
    for (uint32_t e = g->first[u]; e < g->first[u + 1]; e++) {
        if (res[g->succ[e]] == GR_OUTCOME_DRAW) {
            *v = g->succ[e];
            return true;
        }
    }
    return false;
}

static int internal_no_move(gr_query *q)
{
    return gr_fail(q->err, GR_E_INTERNAL, "tokens", "no move found where one must exist; please "
                   "report this query");
}

/* ---- outcomes by retrograde analysis: misere play, conjunctive compounds -- */

typedef struct outcomes {
    uint8_t *res;
    uint32_t *depth;
} outcomes;

static int solve_outcomes(gr_query *q, const gr_graph *g, bool misere, outcomes *o)
{
    size_t n = (size_t)g->nnodes + 1;
    o->res = gr_malloc(n * sizeof *o->res);
    o->depth = gr_malloc(n * sizeof *o->depth);
    if (!o->res || !o->depth)
        return gr_oom(q);
    gr_status s = gr_graph_outcomes(g, misere, &q->budget, o->res, o->depth);
    return s == GR_OK ? 0 : gr_fail_engine(q->err, s, "edges", "the outcomes of this graph");
}

static void free_outcomes(outcomes *o)
{
    gr_free(o->res);
    gr_free(o->depth);
}

static int outcome_component(gr_query *q, const gr_token_board *b, const outcomes *o, size_t i)
{
    gr_jw_node *c = add_component(q, b, i);
    if (!c)
        return -1;
    uint32_t u = b->at[i];
    gr_jw_null(c, "grundy");
    gr_jw_str(c, "outcome", outcome_name(o->res[u]));
    if (o->res[u] == GR_OUTCOME_DRAW)
        gr_jw_null(c, "remoteness");
    else
        gr_jw_u64(c, "remoteness", o->depth[u]);
    return 0;
}

static int misere_answer(gr_query *q, const gr_token_board *b, const outcomes *o)
{
    uint32_t u = b->at[0], v;
    uint8_t r = o->res[u];
    q->ans.winner = r == GR_OUTCOME_WIN ? "first" : r == GR_OUTCOME_LOSS ? "second" : "draw";
    gr_ans_components(q);
    if (outcome_component(q, b, o, 0))
        return -1;
    if (r == GR_OUTCOME_WIN && is_terminal(b->graph, u)) {
        gr_token_why_retrograde(q, b, r, o->depth[u], "the token cannot move, so the player to move wins.");
        return 0;
    }
    if (r == GR_OUTCOME_LOSS) {
        gr_token_why_retrograde(q, b, r, o->depth[u], "every move leads to a win for the opponent.");
        return 0;
    }
    if (r == GR_OUTCOME_WIN) {
        gr_text t = { .len = 0 };
        gr_text_add(&t, "a win in %" PRIu32 " moves at most.", o->depth[u]);
        gr_token_why_retrograde(q, b, r, o->depth[u], t.buf);
        if (gr_graph_outcome_move(b->graph, o->res, o->depth, u, &v) != GR_OK)
            return internal_no_move(q);
        return answer_one(q, b, 0, v, "the opponent then loses, as quickly as it can be forced");
    }
    gr_token_why_retrograde(q, b, r, o->depth[u], "neither player can force a win: a draw.");
    if (!draw_follower(b->graph, o->res, u, &v))
        return internal_no_move(q);
    return answer_one(q, b, 0, v, "this keeps the game drawn");
}

int gr_token_misere_refused(gr_query *q)
{
    return gr_fail(q->err, GR_E_UNSUPPORTED_CONVENTION, "convention",
                   "misere play is answered for one token only: a misere sum is not decided "
                   "by the XOR of Grundy values; send one token, or use \"convention\": "
                   "\"normal\"");
}

static int misere_single(gr_query *q, const gr_token_board *b)
{
    if (b->ntokens > 1)
        return gr_token_misere_refused(q);
    if (b->ntokens == 0) {
        q->ans.winner = "first";
        gr_why_say(q, gr_why_step(q, "rule"), "No tokens: the player to move cannot move, and under "
                   "misere play that player wins.");
        gr_ans_components(q);
        return 0;
    }
    outcomes o = { 0 };
    int rc = solve_outcomes(q, b->graph, true, &o);
    if (rc == 0)
        rc = misere_answer(q, b, &o);
    free_outcomes(&o);
    return rc;
}

/* Conjunctive: the least remoteness over the tokens that are not drawn
 * decides (a drawn token never ends, so it cannot end the game); all drawn
 * is a draw. */
static int conjunctive_moves(gr_query *q, const gr_token_board *b, const outcomes *o, bool win)
{
    uint32_t *dest = new_dest(q, b->ntokens);
    if (!dest)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < b->ntokens && rc == 0; i++) {
        uint32_t u = b->at[i];
        gr_status s = GR_OK;
        if (o->res[u] == GR_OUTCOME_WIN)
            s = gr_graph_outcome_move(b->graph, o->res, o->depth, u, &dest[i]);
        else if (o->res[u] == GR_OUTCOME_LOSS)
            s = gr_graph_outcome_delay(b->graph, o->res, o->depth, u, &dest[i]);
        else if (!draw_follower(b->graph, o->res, u, &dest[i]))
            s = GR_EINVAL;
        if (s != GR_OK)
            rc = internal_no_move(q);
    }
    if (rc == 0)
        rc = gr_token_answer_move(q, b, dest, true, win ? "each token by its remoteness rule"
                                                 : "this keeps the game drawn");
    gr_free(dest);
    return rc;
}

static int conjunctive_answer(gr_query *q, const gr_token_board *b, const outcomes *o)
{
    uint64_t *rem = gr_malloc((b->ntokens + 1) * sizeof *rem);
    if (!rem)
        return gr_oom(q);
    gr_ans_components(q);
    size_t finite = 0;
    int rc = 0;
    for (size_t i = 0; i < b->ntokens && rc == 0; i++) {
        if (o->res[b->at[i]] != GR_OUTCOME_DRAW)
            rem[finite++] = o->depth[b->at[i]];
        rc = outcome_component(q, b, o, i);
    }
    bool drawn = b->ntokens > 0 && finite == 0, win = gr_conjunctive_win(rem, finite);
    q->ans.winner = drawn ? "draw" : win ? "first" : "second";
    if (rc == 0 && drawn)
        gr_why_say(q, gr_why_step(q, "rule"), "Conjunctive compound on %s: every token is on a drawn "
                   "node (play can go on forever in each), so the compound is a draw.", b->board);
    else if (rc == 0)
        gr_compound_explain(q, rem, finite, "tokens", win);
    if (rc == 0 && finite < b->ntokens && !drawn) {
        gr_jw_node *step = gr_why_step(q, "drawn_tokens");
        gr_jw_u64(step, "drawn", b->ntokens - finite);
        gr_why_say(q, step, "Tokens on drawn nodes never end and do not count.");
    }
    if (rc == 0 && (win || drawn))
        rc = conjunctive_moves(q, b, o, win);
    gr_free(rem);
    return rc;
}

static int conjunctive(gr_query *q, const gr_token_board *b)
{
    outcomes o = { 0 };
    int rc = solve_outcomes(q, b->graph, false, &o);
    if (rc == 0)
        rc = conjunctive_answer(q, b, &o);
    free_outcomes(&o);
    return rc;
}

/* ---- acyclic graphs: Grundy values ------------------------------------- */

static uint64_t *token_values(gr_query *q, const gr_token_board *b, const uint32_t *values)
{
    uint64_t *tv = gr_malloc((b->ntokens + 1) * sizeof *tv);
    gr_ans_components(q);
    if (!tv) {
        gr_oom(q);
        return NULL;
    }
    for (size_t i = 0; i < b->ntokens; i++) {
        tv[i] = values[b->at[i]];
        gr_jw_node *c = add_component(q, b, i);
        if (!c) {
            gr_free(tv);
            return NULL;
        }
        gr_jw_u64(c, "grundy", tv[i]);
    }
    return tv;
}

static int dag_disjunctive(gr_query *q, const gr_token_board *b, const uint32_t *values,
                           const uint64_t *tv)
{
    uint64_t x = 0;
    for (size_t i = 0; i < b->ntokens; i++)
        x ^= tv[i];
    q->ans.grundy_known = true;
    q->ans.grundy = x;
    q->ans.winner = x ? "first" : "second";
    gr_token_why_rule(q, b, "each node's Grundy value is the mex of its successors'");
    gr_why_nim_sum(q, tv, b->ntokens, x, "token");
    for (size_t i = 0; x && i < b->ntokens; i++) {
        uint32_t target = (uint32_t)(tv[i] ^ x), v;
        if (target < tv[i] && gr_graph_move(b->graph, values, b->at[i], target, &v) == GR_OK) {
            gr_why_target(q, i, tv[i], x, "token");
            gr_token_why_mex(q, b, values, i);
            return answer_one(q, b, i, v, "the nim-sum becomes 0");
        }
    }
    return x ? internal_no_move(q) : 0;
}

static int dag_selective(gr_query *q, const gr_token_board *b, const uint32_t *values,
                         const uint64_t *tv)
{
    size_t n = b->ntokens;
    bool *moves = gr_malloc((n + 1) * sizeof *moves);
    uint64_t *target = gr_malloc((n + 1) * sizeof *target);
    uint32_t *dest = new_dest(q, n);
    int rc = 0;
    if (!moves || !target || !dest)
        rc = dest ? gr_oom(q) : -1;
    bool win = rc == 0 && gr_selective_plan(q->compound, tv, n, moves, target);
    if (rc == 0) {
        q->ans.winner = win ? "first" : "second";
        gr_token_why_rule(q, b, "each node's Grundy value is the mex of its successors'");
        gr_compound_explain(q, tv, n, "tokens", win);
    }
    for (size_t i = 0; win && rc == 0 && i < n; i++)
        if (moves[i] && gr_graph_move(b->graph, values, b->at[i], (uint32_t)target[i], &dest[i]) != GR_OK)
            rc = internal_no_move(q);
    if (win && rc == 0)
        rc = gr_token_answer_move(q, b, dest, true, "every moved token reaches its target value");
    gr_free(moves);
    gr_free(target);
    gr_free(dest);
    return rc;
}

/* ---- graphs with cycles: Smith's theory ---------------------------------- */

typedef struct loopy_sum {
    gr_loopy l;
    size_t ninf;    /* tokens with an infinite value */
    size_t inf_at;  /* one of them */
    uint64_t x;     /* XOR of the finite values */
} loopy_sum;

static int loopy_component(gr_query *q, const gr_token_board *b, const gr_loopy *l, size_t i)
{
    gr_jw_node *c = add_component(q, b, i);
    if (!c)
        return -1;
    uint32_t u = b->at[i];
    if (l->value[u] != GR_LOOPY_INF) {
        gr_jw_u64(c, "grundy", l->value[u]);
        return 0;
    }
    uint32_t k[OPTIONS_SHOWN];
    size_t n = gr_loopy_options(b->graph, l, u, k, OPTIONS_SHOWN);
    gr_jw_null(c, "grundy");
    gr_jw_bool(c, "infinite", true);
    gr_jw_node *arr = gr_jw_array(c, "finite_options");
    for (size_t j = 0; arr && j < n && j < OPTIONS_SHOWN; j++)
        gr_jw_u64(arr, NULL, k[j]);
    if (n > OPTIONS_SHOWN)
        gr_jw_u64(c, "finite_options_total", n);
    return 0;
}

/* Among moves to a position with every value finite and nim-sum 0, the one
 * that least raises (sum of values, sum of counters): successive positions
 * the winner leaves then strictly decrease in that order, whatever the
 * opponent does, so play cannot cycle. */
static int loopy_finite_win(gr_query *q, const gr_token_board *b, const loopy_sum *ls)
{
    const gr_loopy *l = &ls->l;
    size_t best = SIZE_MAX;
    uint32_t best_v = 0;
    uint64_t best_drop = 0;
    int64_t best_dc = 0;
    for (size_t i = 0; i < b->ntokens; i++) {
        uint32_t u = b->at[i], val = l->value[u], target = val ^ (uint32_t)ls->x, v;
        if (target >= val || gr_loopy_move(b->graph, l, u, target, &v) != GR_OK)
            continue;
        uint64_t drop = val - target;
        int64_t dc = (int64_t)l->counter[v] - (int64_t)l->counter[u];
        if (best == SIZE_MAX || drop > best_drop || (drop == best_drop && dc < best_dc)) {
            best = i;
            best_v = v;
            best_drop = drop;
            best_dc = dc;
        }
    }
    if (best == SIZE_MAX)
        return internal_no_move(q);
    return answer_one(q, b, best, best_v, "the nim-sum becomes 0 with every value finite, and "
                      "the counters keep play from cycling");
}

/* Whether moving token i to v leaves the opponent without a win. */
static bool keeps_draw(const gr_token_board *b, const loopy_sum *ls, size_t i, uint32_t v)
{
    const gr_loopy *l = &ls->l;
    uint32_t u = b->at[i];
    bool u_inf = l->value[u] == GR_LOOPY_INF, v_inf = l->value[v] == GR_LOOPY_INF;
    size_t ninf = ls->ninf - u_inf + v_inf;
    uint64_t x = ls->x ^ (u_inf ? 0 : l->value[u]) ^ (v_inf ? 0 : l->value[v]);
    if (ninf != 1)
        return ninf >= 2;
    uint32_t w = v_inf ? v : b->at[ls->inf_at];
    return x > UINT32_MAX || !gr_loopy_has_option(b->graph, l, w, (uint32_t)x);
}

static int loopy_draw_move(gr_query *q, const gr_token_board *b, const loopy_sum *ls)
{
    const gr_graph *g = b->graph;
    for (size_t i = 0; i < b->ntokens; i++) {
        uint32_t u = b->at[i];
        for (uint32_t e = g->first[u]; e < g->first[u + 1]; e++) {
            if (!gr_budget_spend(&q->budget, 1 + g->first[g->succ[e] + 1] - g->first[g->succ[e]]))
                return 0; /* the draw stands; a move that keeps it is only offered */
            if (keeps_draw(b, ls, i, g->succ[e]))
                return answer_one(q, b, i, g->succ[e], "this keeps the game drawn");
        }
    }
    return internal_no_move(q);
}

static void loopy_explain(gr_query *q, const gr_token_board *b, const loopy_sum *ls, bool win)
{
    gr_token_why_rule(q, b, "with cycles: values follow Smith's theory (a finite value, or infinity with "
                      "the set K of finite values among the node's followers)");
    gr_token_why_loopy(q, b, &ls->l, ls->x, ls->ninf);
    gr_jw_node *step = gr_why_step(q, "loopy_sum");
    gr_jw_u64(step, "infinite", ls->ninf);
    gr_jw_u64(step, "nim_sum_finite", ls->x);
    gr_jw_str(step, "outcome", win ? "win" : ls->ninf ? "draw" : "loss");
    if (ls->ninf == 1)
        gr_jw_u64(step, "infinite_token", ls->inf_at);
    if (ls->ninf == 0)
        gr_why_say(q, step, "Every token has a finite value; their nim-sum is %" PRIu64 ", %s", ls->x,
                   win ? "non-zero: the player to move wins." : "zero: the player to move loses.");
    else if (ls->ninf >= 2)
        gr_why_say(q, step, "%zu tokens have infinite values, and a sum of two infinities is a draw.",
                   ls->ninf);
    else
        gr_why_say(q, step, "Token %zu is at infinity; the other tokens' nim-sum %" PRIu64 " is %s",
                   ls->inf_at, ls->x, win ? "in its K: the player to move wins by moving that token to a "
                                            "follower of that value."
                                          : "not in its K: neither player can force a win, a draw.");
}

static int loopy_answer(gr_query *q, const gr_token_board *b, loopy_sum *ls)
{
    gr_ans_components(q);
    for (size_t i = 0; i < b->ntokens; i++) {
        uint32_t val = ls->l.value[b->at[i]];
        if (loopy_component(q, b, &ls->l, i))
            return -1;
        if (val == GR_LOOPY_INF) {
            ls->ninf++;
            ls->inf_at = i;
        } else {
            ls->x ^= val;
        }
    }
    uint32_t w = ls->ninf ? b->at[ls->inf_at] : 0, v;
    bool win = ls->ninf == 0 ? ls->x != 0
             : ls->ninf == 1 && ls->x <= UINT32_MAX &&
               gr_loopy_has_option(b->graph, &ls->l, w, (uint32_t)ls->x);
    bool drawn = ls->ninf > 0 && !win;
    q->ans.winner = win ? "first" : drawn ? "draw" : "second";
    q->ans.grundy_known = ls->ninf == 0;
    q->ans.grundy = ls->x;
    loopy_explain(q, b, ls, win);
    if (drawn)
        return loopy_draw_move(q, b, ls);
    if (!win)
        return 0;
    if (ls->ninf == 0)
        return loopy_finite_win(q, b, ls);
    if (gr_loopy_move(b->graph, &ls->l, w, (uint32_t)ls->x, &v) != GR_OK)
        return internal_no_move(q);
    return answer_one(q, b, ls->inf_at, v, "every value becomes finite with nim-sum 0");
}

static int loopy(gr_query *q, const gr_token_board *b)
{
    loopy_sum ls = { .ninf = 0 };
    gr_status s = gr_loopy_solve(b->graph, &q->budget, &ls.l);
    int rc = s == GR_OK ? loopy_answer(q, b, &ls)
                        : gr_fail_engine(q->err, s, "edges", "the values of this graph");
    gr_loopy_free(&ls.l);
    return rc;
}

/* ---- dispatch ------------------------------------------------------------ */

static int cycle_refused(gr_query *q, const gr_token_board *b, uint32_t node)
{
    gr_text at = { .len = 0 };
    b->node_text(b->ctx, node, &at);
    return gr_fail(q->err, GR_E_CYCLE, "compound",
                   "the %s compound is answered on acyclic boards only, and this one has a cycle "
                   "(through %s); use the disjunctive or conjunctive compound",
                   gr_compound_name(q->compound), at.buf);
}

int gr_token_sum(gr_query *q, const gr_token_board *b)
{
    if (q->misere)
        return misere_single(q, b);
    if (q->compound == GR_CONJUNCTIVE)
        return conjunctive(q, b);
    uint32_t *values = gr_malloc(((size_t)b->graph->nnodes + 1) * sizeof *values), cyc = 0;
    if (!values)
        return gr_oom(q);
    gr_status s = gr_graph_grundy(b->graph, &q->budget, values, &cyc);
    int rc;
    if (s == GR_ECYCLE) {
        rc = q->compound == GR_DISJUNCTIVE ? loopy(q, b) : cycle_refused(q, b, cyc);
    } else if (s != GR_OK) {
        rc = gr_fail_engine(q->err, s, "edges", "the Grundy values of this graph");
    } else {
        uint64_t *tv = token_values(q, b, values);
        rc = !tv ? -1 : q->compound == GR_DISJUNCTIVE ? dag_disjunctive(q, b, values, tv)
                                                       : dag_selective(q, b, values, tv);
        gr_free(tv);
    }
    gr_free(values);
    return rc;
}
