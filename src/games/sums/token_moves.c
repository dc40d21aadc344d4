/* SPDX-License-Identifier: MIT */
/* POST /v1/moves for tokens on a board (graph, grid): every move of the
 * query's compound, from an index (token_sum.h states the order). */
#include <stdlib.h>
#include "grundy/alloc.h"

#include "grundy/graph.h"

#include "compound.h"
#include "token_sum.h"

static uint32_t out_degree(const gr_graph *g, uint32_t u)
{
    return g->first[u + 1] - g->first[u];
}

/* The board with its tokens where dest puts them, in memory for a sink. */
typedef struct token_after {
    gr_token_board board;
    uint32_t *at;
    gr_position position;
} token_after;

static int solve_after(gr_query *q, const void *pos)
{
    return gr_token_sum(q, &((const token_after *)pos)->board);
}

static const gr_position *after_move(token_after *a, const gr_token_board *b, const uint32_t *dest)
{
    for (size_t i = 0; i < b->ntokens; i++)
        a->at[i] = dest[i] == GR_TOKEN_STAY ? b->at[i] : dest[i];
    a->board = *b;
    a->board.at = a->at;
    a->position = (gr_position){ solve_after, a };
    return &a->position;
}

static int disjunctive_moves(gr_query *q, const gr_token_board *b, const gr_u128 *counts,
                             uint32_t *dest, token_after *after, gr_move_sink *sink)
{
    const gr_graph *g = b->graph;
    gr_u128 skip = sink->from;
    for (size_t i = 0; i < b->ntokens; i++) {
        uint32_t u = b->at[i];
        if (skip >= counts[i]) {
            skip -= counts[i];
            continue;
        }
        for (uint32_t e = g->first[u] + (uint32_t)skip; e < g->first[u + 1]; e++) {
            dest[i] = g->succ[e];
            int rc = gr_token_answer_move(q, b, dest, false, NULL);
            const gr_position *pos = after_move(after, b, dest);
            dest[i] = GR_TOKEN_STAY;
            if (rc)
                return -1;
            if (!sink->put(sink, q, pos))
                return q->err->code ? -1 : 0;
        }
        skip = 0;
    }
    return 0;
}

/* Each choice is 0 (the token stays) or 1 + the index of its edge. */
static int compound_moves(gr_query *q, const gr_token_board *b, gr_compound_walk *w, uint32_t *dest,
                          token_after *after, gr_move_sink *sink)
{
    const gr_graph *g = b->graph;
    if (sink->from >= sink->total)
        return 0;
    gr_compound_seek(w, sink->from);
    do {
        for (size_t i = 0; i < b->ntokens; i++)
            dest[i] = w->choice[i] ? g->succ[g->first[b->at[i]] + (uint32_t)(w->choice[i] - 1)]
                                   : GR_TOKEN_STAY;
        if (gr_token_answer_move(q, b, dest, true, NULL))
            return -1;
        if (!sink->put(sink, q, after_move(after, b, dest)))
            return q->err->code ? -1 : 0;
    } while (gr_compound_next(w));
    return 0;
}

int gr_token_moves(gr_query *q, const gr_token_board *b, gr_move_sink *sink)
{
    if (q->misere && b->ntokens > 1)
        return gr_token_misere_refused(q); /* no position after a move could be answered either */
    size_t n = b->ntokens;
    gr_u128 *counts = gr_malloc((n ? n : 1) * sizeof *counts);
    gr_u128 *choice = gr_malloc((n ? n : 1) * sizeof *choice);
    uint32_t *dest = gr_malloc((n ? n : 1) * sizeof *dest);
    token_after after = { .at = gr_malloc((n ? n : 1) * sizeof *after.at) };
    int rc = counts && choice && dest && after.at ? 0 : gr_oom(q);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        counts[i] = out_degree(b->graph, b->at[i]);
        dest[i] = GR_TOKEN_STAY;
    }
    gr_compound_walk w = { .compound = q->compound, .counts = counts, .n = n, .choice = choice };
    if (rc == 0 && !gr_compound_count(&w, &sink->total))
        rc = gr_fail(q->err, GR_E_LIMIT_EXCEEDED, "tokens", "this %s compound has more than 2^128 - 1 "
                     "moves, past what is listed; send fewer tokens", gr_compound_name(q->compound));
    else if (rc == 0)
        rc = q->compound == GR_DISJUNCTIVE ? disjunctive_moves(q, b, counts, dest, &after, sink)
                                           : compound_moves(q, b, &w, dest, &after, sink);
    gr_free(after.at);
    gr_free(counts);
    gr_free(choice);
    gr_free(dest);
    return rc;
}

/* Whether successor e of token i's node is a winning move: values XOR x. */
static bool wins(const gr_graph *g, const uint32_t *values, uint32_t u, uint32_t e, uint32_t x)
{
    return x && values[g->succ[e]] == (values[u] ^ x);
}

static int put_winning(gr_query *q, const gr_token_board *b, const uint32_t *values, uint32_t x,
                       uint32_t *dest, gr_move_sink *sink)
{
    const gr_graph *g = b->graph;
    gr_u128 index = 0;
    for (size_t i = 0; i < b->ntokens; i++) {
        uint32_t u = b->at[i];
        for (uint32_t e = g->first[u]; e < g->first[u + 1]; e++) {
            if (!wins(g, values, u, e, x) || index++ < sink->from)
                continue;
            dest[i] = g->succ[e];
            int rc = gr_token_answer_move(q, b, dest, false, NULL);
            dest[i] = GR_TOKEN_STAY;
            if (rc)
                return -1;
            if (!sink->put(sink, q, NULL)) /* a winning move's outcome is known */
                return q->err->code ? -1 : 0;
        }
    }
    return 0;
}

int gr_token_winning(gr_query *q, const gr_token_board *b, gr_move_sink *sink)
{
    if (q->misere || q->compound != GR_DISJUNCTIVE)
        return 1;
    const gr_graph *g = b->graph;
    uint32_t *values = gr_malloc(((size_t)g->nnodes + 1) * sizeof *values), cyc = 0, x = 0;
    uint32_t *dest = gr_malloc((b->ntokens + 1) * sizeof *dest);
    if (!values || !dest) {
        gr_free(values);
        gr_free(dest);
        return gr_oom(q);
    }
    gr_status s = gr_graph_grundy(g, &q->budget, values, &cyc);
    int rc = s == GR_ECYCLE ? 1 : s != GR_OK ? gr_fail_engine(q->err, s, "edges", "the Grundy values") : 0;
    for (size_t i = 0; rc == 0 && i < b->ntokens; i++) {
        x ^= values[b->at[i]];
        dest[i] = GR_TOKEN_STAY;
    }
    sink->total = 0;
    for (size_t i = 0; rc == 0 && i < b->ntokens; i++) {
        uint32_t u = b->at[i];
        if (!gr_budget_spend(&q->budget, 1 + out_degree(g, u)))
            rc = gr_fail_engine(q->err, GR_ELIMIT, "tokens", "counting the winning moves");
        for (uint32_t e = g->first[u]; rc == 0 && e < g->first[u + 1]; e++)
            sink->total += wins(g, values, u, e, x);
    }
    if (rc == 0)
        rc = put_winning(q, b, values, x, dest, sink);
    gr_free(values);
    gr_free(dest);
    return rc;
}
