/* SPDX-License-Identifier: MIT */
#include "token_why.h"
#include "grundy/alloc.h"

#include <inttypes.h>
#include <stdlib.h>

#include "why.h"

static const char *outcome_word(uint8_t r)
{
    return r == GR_OUTCOME_WIN ? "win" : r == GR_OUTCOME_LOSS ? "loss" : "draw";
}

void gr_token_why_rule(gr_query *q, const gr_token_board *b, const char *how)
{
    gr_why_say(q, gr_why_step(q, "rule"), "Tokens on %s; %s.", b->board, how);
}

/* Whether successor e of u is listed: all of them when few, else the first
 * of each value below the node's. */
static bool listed_option(const gr_graph *g, const uint32_t *values, uint32_t u, uint32_t e, bool all)
{
    uint32_t v = values[g->succ[e]];
    if (all)
        return true;
    if (v >= values[u] || v >= GR_WHY_NODE_OPTIONS)
        return false;
    for (uint32_t f = g->first[u]; f < e; f++)
        if (values[g->succ[f]] == v)
            return false;
    return true;
}

void gr_token_why_mex(gr_query *q, const gr_token_board *b, const uint32_t *values, size_t i)
{
    gr_jw_node *step = gr_why_step(q, "node_mex");
    if (!step)
        return;
    const gr_graph *g = b->graph;
    uint32_t u = b->at[i], total = g->first[u + 1] - g->first[u];
    bool all = total <= GR_WHY_NODE_OPTIONS;
    gr_jw_u64(step, "component", i);
    b->node_put(b->ctx, u, step, "node");
    gr_jw_u64(step, "grundy", values[u]);
    gr_jw_u64(step, "options_total", total);
    gr_jw_str(step, "listed", all ? "all" : "witnesses");
    gr_jw_node *options = gr_jw_array(step, "options");
    gr_text t = { .len = 0 };
    gr_text_add(&t, "Token %zu is on ", i);
    b->node_text(b->ctx, u, &t);
    gr_text_add(&t, ", whose %s%" PRIu32 " successor%s ha%s Grundy value%s ", all ? "" : "witness options among its ",
                total, total == 1 ? "" : "s", total == 1 ? "s" : "ve", total == 1 ? "" : "s");
    size_t shown = 0;
    for (uint32_t e = g->first[u]; e < g->first[u + 1]; e++) {
        if (!listed_option(g, values, u, e, all))
            continue;
        gr_jw_node *o = gr_jw_object(options, NULL);
        if (o)
            b->node_put(b->ctx, g->succ[e], o, "node");
        gr_jw_u64(o, "grundy", values[g->succ[e]]);
        gr_text_add(&t, "%s%" PRIu32, shown++ ? ", " : "", values[g->succ[e]]);
    }
    if (total == 0)
        gr_text_add(&t, "none (no successors)");
    gr_jw_u64(step, "mex", values[u]);
    gr_why_say(q, step, "%s; the mex (least value not among them) is %" PRIu32 ", the node's Grundy value.",
               t.buf, values[u]);
}

/* Each token's outcome and remoteness as if alone, or NULL (budget, memory). */
static bool lone_outcomes(gr_query *q, const gr_graph *g, uint8_t **res, uint32_t **depth)
{
    size_t n = (size_t)g->nnodes + 1;
    *res = gr_malloc(n);
    *depth = gr_malloc(n * sizeof **depth);
    gr_budget share = gr_budget_share(&q->budget, q->budget.left / 2);
    uint64_t given = share.left;
    bool ok = *res && *depth && gr_graph_outcomes(g, false, &share, *res, *depth) == GR_OK;
    q->budget.left -= given - share.left;
    return ok;
}

static void loopy_token(gr_jw_node *tokens, const gr_token_board *b, const gr_loopy *l, size_t i,
                        const uint8_t *res, const uint32_t *depth)
{
    uint32_t u = b->at[i];
    gr_jw_node *o = gr_jw_object(tokens, NULL);
    if (!o)
        return;
    gr_jw_u64(o, "token", i);
    b->node_put(b->ctx, u, o, "node");
    bool inf = l->value[u] == GR_LOOPY_INF;
    if (inf)
        gr_jw_null(o, "grundy");
    else
        gr_jw_u64(o, "grundy", l->value[u]);
    gr_jw_bool(o, "infinite", inf);
    if (inf) {
        uint32_t k[GR_WHY_NODE_OPTIONS];
        size_t nk = gr_loopy_options(b->graph, l, u, k, GR_WHY_NODE_OPTIONS);
        uint64_t k64[GR_WHY_NODE_OPTIONS];
        for (size_t j = 0; j < nk && j < GR_WHY_NODE_OPTIONS; j++)
            k64[j] = k[j];
        gr_jw_u64s(o, "finite_options", k64, nk < GR_WHY_NODE_OPTIONS ? nk : GR_WHY_NODE_OPTIONS);
        gr_jw_u64(o, "finite_options_total", nk);
    }
    if (!res)
        return;
    gr_jw_str(o, "outcome", outcome_word(res[u]));
    if (res[u] == GR_OUTCOME_DRAW)
        gr_jw_null(o, "remoteness");
    else
        gr_jw_u64(o, "remoteness", depth[u]);
}

void gr_token_why_loopy(gr_query *q, const gr_token_board *b, const gr_loopy *l, uint64_t x,
                        size_t ninf)
{
    gr_jw_node *step = gr_why_step(q, "loopy_tokens");
    if (!step)
        return;
    uint8_t *res = NULL;
    uint32_t *depth = NULL;
    bool known = lone_outcomes(q, b->graph, &res, &depth);
    gr_jw_node *tokens = gr_jw_array(step, "tokens");
    gr_text t = { .len = 0 };
    size_t drawn = 0;
    for (size_t i = 0; i < b->ntokens; i++) {
        loopy_token(tokens, b, l, i, known ? res : NULL, depth);
        uint32_t u = b->at[i];
        if (i < 8) {
            gr_text_add(&t, "%stoken %zu on ", i ? "; " : "", i);
            b->node_text(b->ctx, u, &t);
            if (l->value[u] == GR_LOOPY_INF)
                gr_text_add(&t, ": infinite");
            else
                gr_text_add(&t, ": %" PRIu32, l->value[u]);
            if (known && res[u] == GR_OUTCOME_DRAW)
                gr_text_add(&t, ", alone a draw (play can go on forever)");
            else if (known && depth[u] == 0)
                gr_text_add(&t, ", alone a %s (no move left)", outcome_word(res[u]));
            else if (known)
                gr_text_add(&t, ", alone a %s in %" PRIu32 " move%s", outcome_word(res[u]), depth[u],
                            depth[u] == 1 ? "" : "s");
        }
        drawn += known && res[u] == GR_OUTCOME_DRAW;
    }
    if (b->ntokens > 8)
        gr_text_add(&t, "; ... (%zu tokens)", b->ntokens);
    gr_jw_u64(step, "infinite", ninf);
    gr_jw_u64(step, "nim_sum_finite", x);
    if (known)
        gr_jw_u64(step, "drawn_alone", drawn);
    gr_why_say(q, step, "Values by token%s%s.", b->ntokens ? ": " : "", b->ntokens ? t.buf : "s: none");
    gr_free(res);
    gr_free(depth);
}

void gr_token_why_retrograde(gr_query *q, const gr_token_board *b, uint8_t outcome, uint32_t depth,
                             const char *verdict)
{
    gr_jw_node *step = gr_why_step(q, "retrograde");
    if (!step)
        return;
    b->node_put(b->ctx, b->at[0], step, "node");
    gr_jw_str(step, "outcome", outcome_word(outcome));
    if (outcome == GR_OUTCOME_DRAW)
        gr_jw_null(step, "remoteness");
    else
        gr_jw_u64(step, "remoteness", depth);
    gr_jw_bool(step, "misere", q->misere);
    gr_why_say(q, step, "Misere play (the player who cannot move wins) of one token on %s, solved by "
               "retrograde analysis: %s", b->board, verdict);
}
