/* Tokens on a directed graph, shared by graph and grid: every compound,
 * misere play of one token, and graphs with cycles (Smith's theory).
 * The games read their own input and say how a node is written. */
#ifndef GRUNDY_API_TOKEN_SUM_H
#define GRUNDY_API_TOKEN_SUM_H

#include <stddef.h>
#include <stdint.h>

#include "api/games.h"
#include "api/query.h"
#include "grundy/graph.h"

typedef struct gr_token_board {
    const gr_graph *graph;
    const uint32_t *at;  /* the node of each token */
    size_t ntokens;
    const void *ctx;
    cJSON *(*node_item)(const void *ctx, uint32_t v);           /* as the request writes it */
    void (*node_text)(const void *ctx, uint32_t v, gr_text *t); /* for sentences */
    const char *board;   /* the board with its article: "a graph with 3 nodes and 2 edges" */
} gr_token_board;

/* Fills q->ans for the tokens (field "tokens") in the query's convention
 * and compound. */
int gr_token_sum(gr_query *q, const gr_token_board *b);

/* The moves hook's common part (POST /v1/moves): every move of every token,
 * token by token in request order, each along its node's successors in the
 * board's adjacency order (gr_graph_build keeps the order of its edge list),
 * rendered as gr_token_sum renders a winning move but without the reason
 * that ends its text. A token on a node without successors has no moves.
 * Misere play of several tokens is refused as gr_token_sum refuses it.
 * 0, or -1 with q->err filled. */
int gr_token_moves(gr_query *q, const gr_token_board *b, gr_move_sink *sink);

#endif
