/* SPDX-License-Identifier: MIT */
/* Tokens on a directed graph, shared by graph and grid: every compound,
 * misere play of one token, and graphs with cycles (Smith's theory).
 * The games read their own input and say how a node is written. */
#ifndef GRUNDY_API_TOKEN_SUM_H
#define GRUNDY_API_TOKEN_SUM_H

#include <stddef.h>
#include <stdint.h>

#include "contract.h"
#include "query.h"
#include "grundy/graph.h"

typedef struct gr_token_board {
    const gr_graph *graph;
    const uint32_t *at;  /* the node of each token */
    size_t ntokens;
    const void *ctx;
    void (*node_put)(const void *ctx, uint32_t v, gr_jw_node *n, const char *key); /* as the request writes it */
    void (*node_text)(const void *ctx, uint32_t v, gr_text *t); /* for sentences */
    const char *board;   /* the board with its article: "a graph with 3 nodes and 2 edges" */
} gr_token_board;

/* Fills q->ans for the tokens (field "tokens") in the query's convention
 * and compound. */
int gr_token_sum(gr_query *q, const gr_token_board *b);

/* The 422 for misere play of several tokens. Returns -1. */
int gr_token_misere_refused(gr_query *q);

/* A token that does not move, in the destinations below. */
#define GR_TOKEN_STAY UINT32_MAX

/* Renders the move that takes token i to dest[i] (GR_TOKEN_STAY: it does
 * not move) as q->ans.move and q->ans.next: {"token", "from", "to", "text"},
 * or with `multi` {"moves": [...], "text"}; `why` (or NULL) ends the text.
 * 0, or -1 when memory runs out. */
int gr_token_answer_move(gr_query *q, const gr_token_board *b, const uint32_t *dest, bool multi,
                         const char *why);

/* The moves hook's common part (POST /v1/moves). The disjunctive compound:
 * every move of every token, token by token in request order, each along
 * its node's successors in the board's adjacency order (gr_graph_build
 * keeps the order of its edge list), rendered as gr_token_sum renders a
 * winning move but without the reason that ends its text. The other
 * compounds: a choice per token (compound.h), rendered as a move
 * of several tokens. A token on a node without successors has no moves.
 * Misere play of several tokens is refused as gr_token_sum refuses it.
 * 0, or -1 with q->err filled. */
int gr_token_moves(gr_query *q, const gr_token_board *b, gr_move_sink *sink);

/* The winning hook's common part (contract.h): under normal play, the
 * disjunctive compound and an acyclic board, every move that makes the
 * tokens' nim-sum 0 (a token to a successor of value its own XOR the
 * nim-sum, which may be larger than its own), in the order of
 * gr_token_moves; one budget step per edge looked at. 1 for any other
 * position (searched move by move instead); 0, or -1 with q->err. */
int gr_token_winning(gr_query *q, const gr_token_board *b, gr_move_sink *sink);

/* gr_token_moves or gr_token_winning, as a game's reader hands its board on. */
typedef int (*gr_token_list_fn)(gr_query *q, const gr_token_board *b, gr_move_sink *sink);

#endif
