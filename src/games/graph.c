/* SPDX-License-Identifier: MIT */
/* graph: tokens on a finite directed graph, cycles allowed. Client node ids are any
 * integers in range; without "nodes" they are compressed to dense indices. */
#include <inttypes.h>
#include "grundy/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "heap_sum.h"
#include "token_sum.h"
#include "grundy/graph.h"

typedef struct graph_input {
    uint64_t *ids;    /* edge endpoints then tokens: 2 * nedges + ntokens client ids */
    size_t nedges, ntokens;
    uint64_t *names;  /* dense index -> client id (sorted), when compressed */
    uint32_t *dense;  /* dense index of each entry of ids */
    uint32_t nnodes;
} graph_input;

static void free_input(graph_input *in)
{
    gr_free(in->ids);
    gr_free(in->names);
    gr_free(in->dense);
}

static int read_edge(gr_query *q, const cJSON *edge, size_t i, uint64_t *uv)
{
    return gr_q_u64_pair(q, edge, "edges", i, "each edge must be a pair [u, v] of node ids (a move "
                         "from u to v)", uv);
}

static int read_edges_and_tokens(gr_query *q, graph_input *in)
{
    const cJSON *edges = gr_q_get(q, "edges");
    if (!edges || !cJSON_IsArray(edges))
        return gr_fail(q->err, edges ? GR_E_INVALID_FIELD : GR_E_MISSING_FIELD, "edges",
                       "\"edges\" must be an array of pairs [u, v]; use [] for a graph without edges");
    in->nedges = (size_t)cJSON_GetArraySize(edges);
    if (in->nedges > q->limits->max_edges)
        return gr_fail(q->err, GR_E_TOO_MANY, "edges", "the graph has %zu edges; the limit is %" PRIu64,
                       in->nedges, q->limits->max_edges);
    uint64_t *tokens;
    if (gr_q_u64_list(q, "tokens", q->limits->max_items, true, &tokens, &in->ntokens))
        return -1;
    in->ids = gr_malloc((2 * in->nedges + in->ntokens + 1) * sizeof *in->ids);
    if (!in->ids) {
        gr_scratch_free(tokens);
        return gr_oom(q);
    }
    memcpy(in->ids + 2 * in->nedges, tokens, in->ntokens * sizeof *tokens);
    gr_scratch_free(tokens);
    size_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, edges) {
        if (read_edge(q, e, i, in->ids + 2 * i))
            return -1;
        i++;
    }
    return 0;
}

static const char *id_field(const graph_input *in, size_t k, char *buf, size_t n)
{
    if (k < 2 * in->nedges)
        snprintf(buf, n, "edges[%zu][%zu]", k / 2, k % 2);
    else
        snprintf(buf, n, "tokens[%zu]", k - 2 * in->nedges);
    return buf;
}

static int dense_given(gr_query *q, graph_input *in, uint64_t nodes)
{
    size_t total = 2 * in->nedges + in->ntokens;
    for (size_t k = 0; k < total; k++) {
        if (in->ids[k] < nodes) {
            in->dense[k] = (uint32_t)in->ids[k];
            continue;
        }
        char field[48];
        return gr_fail(q->err, GR_E_OUT_OF_RANGE, id_field(in, k, field, sizeof field),
                       "node %" PRIu64 " is not below \"nodes\" = %" PRIu64
                       "; node ids run from 0 to nodes - 1", in->ids[k], nodes);
    }
    in->nnodes = (uint32_t)nodes;
    return 0;
}

static int dense_compressed(gr_query *q, graph_input *in)
{
    size_t total = 2 * in->nedges + in->ntokens, m = 0;
    in->names = gr_malloc((total + 1) * sizeof *in->names);
    if (!in->names)
        return gr_oom(q);
    memcpy(in->names, in->ids, total * sizeof *in->ids);
    qsort(in->names, total, sizeof *in->names, gr_cmp_u64);
    for (size_t k = 0; k < total; k++)
        if (m == 0 || in->names[m - 1] != in->names[k])
            in->names[m++] = in->names[k];
    if (m > q->limits->max_nodes)
        return gr_fail(q->err, GR_E_TOO_MANY, "edges", "the graph has %zu nodes; the limit is %" PRIu64,
                       m, q->limits->max_nodes);
    for (size_t k = 0; k < total; k++) {
        const uint64_t *hit = bsearch(&in->ids[k], in->names, m, sizeof *in->names, gr_cmp_u64);
        in->dense[k] = (uint32_t)(hit - in->names);
    }
    in->nnodes = (uint32_t)m;
    return 0;
}

static int read_graph(gr_query *q, graph_input *in)
{
    if (read_edges_and_tokens(q, in))
        return -1;
    in->dense = gr_malloc((2 * in->nedges + in->ntokens + 1) * sizeof *in->dense);
    if (!in->dense)
        return gr_oom(q);
    const cJSON *nodes_item = gr_q_get(q, "nodes");
    if (!nodes_item || cJSON_IsNull(nodes_item))
        return dense_compressed(q, in);
    uint64_t nodes;
    if (gr_q_u64_at(q, nodes_item, "nodes", &nodes))
        return -1;
    if (nodes > q->limits->max_nodes)
        return gr_fail(q->err, GR_E_TOO_MANY, "nodes", "\"nodes\" is %" PRIu64 "; the limit is %" PRIu64,
                       nodes, q->limits->max_nodes);
    return dense_given(q, in, nodes);
}

static uint64_t client_id(const graph_input *in, uint32_t v)
{
    return in->names ? in->names[v] : v;
}

static void graph_node_put(const void *ctx, uint32_t v, gr_jw_node *n, const char *key)
{
    gr_jw_u64(n, key, client_id(ctx, v));
}

static void graph_node_text(const void *ctx, uint32_t v, gr_text *t)
{
    gr_text_add(t, "node %" PRIu64, client_id(ctx, v));
}

/* Answers the position (sink NULL) or lists its moves (`list`) into sink. */
static int graph_answer(gr_query *q, const graph_input *in, const gr_graph *g, gr_move_sink *sink,
                        gr_token_list_fn list)
{
    char board[96];
    snprintf(board, sizeof board, "a graph with %" PRIu32 " node%s and %zu edge%s", g->nnodes,
             g->nnodes == 1 ? "" : "s", in->nedges, in->nedges == 1 ? "" : "s");
    gr_token_board b = { .graph = g, .at = in->dense + 2 * in->nedges, .ntokens = in->ntokens,
                         .ctx = in, .node_put = graph_node_put, .node_text = graph_node_text,
                         .board = board };
    return sink ? list(q, &b, sink) : gr_token_sum(q, &b);
}

static int solve_graph(gr_query *q, const graph_input *in, gr_move_sink *sink, gr_token_list_fn list)
{
    gr_graph g = { 0 };
    uint32_t *from = gr_malloc((in->nedges + 1) * sizeof *from), *to = gr_malloc((in->nedges + 1) * sizeof *to);
    int rc = -1;
    if (!from || !to) {
        rc = gr_oom(q);
        goto out;
    }
    for (size_t i = 0; i < in->nedges; i++) {
        from[i] = in->dense[2 * i];
        to[i] = in->dense[2 * i + 1];
    }
    gr_status s = gr_graph_build(in->nnodes, from, to, (uint32_t)in->nedges, &g);
    if (s != GR_OK)
        rc = gr_fail_engine(q->err, s, "edges", "this graph");
    else
        rc = graph_answer(q, in, &g, sink, list);
out:
    gr_graph_free(&g);
    gr_free(from);
    gr_free(to);
    return rc;
}

static int read_and_solve(gr_query *q, gr_move_sink *sink, gr_token_list_fn list)
{
    graph_input in = { 0 };
    int rc = read_graph(q, &in);
    if (rc == 0)
        rc = solve_graph(q, &in, sink, list);
    free_input(&in);
    return rc;
}

static int analyze_graph(gr_query *q)
{
    return read_and_solve(q, NULL, NULL);
}

/* Canonical order: token by token as "tokens" lists them; a token's moves
 * follow the edges leaving its node in the order "edges" lists them. Each
 * edge is one move, so an edge given twice is listed twice; a self-loop
 * [u, u] is a move that leaves the position as it was. */
static int moves_graph(gr_query *q, gr_move_sink *sink)
{
    return read_and_solve(q, sink, gr_token_moves);
}

/* The moves that make the nim-sum 0 (token_sum.h). */
static int winning_graph(gr_query *q, gr_move_sink *sink)
{
    return read_and_solve(q, sink, gr_token_winning);
}

/* ---- contract ------------------------------------------------------------ */

static const gr_field graph_fields[] = {
    { .name = "edges", .type = GR_FIELD_INTEGER_PAIRS, .required = true,
      .description = "Directed edges [u, v] (a move from node u to node v); cycles are allowed; "
                     "[] for a graph without edges.",
      .count = UPTO(GR_LIMIT_MAX_EDGES), .value = ANY_U },
    { .name = "tokens", .type = GR_FIELD_INTEGER_ARRAY, .required = true,
      .description = "The node of each token; several may share a node. May be empty.",
      .count = UPTO(GR_LIMIT_MAX_ITEMS), .value = ANY_U },
    { .name = "nodes", .type = GR_FIELD_INTEGER,
      .description = "The node count: ids then run from 0 to nodes - 1. Absent or null: node ids "
                     "may be any integers and are numbered by the service.",
      .value = UPTO(GR_LIMIT_MAX_NODES) },
};

static const gr_constraint graph_constraints[] = {
    { "distinct node ids (or nodes)", UPTO(GR_LIMIT_MAX_NODES) },
};

const gr_game gr_game_graph = { .name = "graph", .summary = "Move one token along an edge of a directed graph (cycles allowed).",
    .misere = true, .compounds = SUMS, .compound_note = CYCLE_NOTE, .analyze = analyze_graph,
    .moves = moves_graph, .winning = winning_graph, .kind = GR_KIND_IMPARTIAL, FIELDS(graph_fields),
    CONSTRAINTS(graph_constraints),
    .example = "{\"game\":\"graph\",\"edges\":[[0,1],[1,2]],\"tokens\":[0,0,1],\"nodes\":3}"
};
