/* SPDX-License-Identifier: MIT */
/* The steps of "why" that tokens on a graph have (graph and grid): the
 * options of the node a winning move leaves, with their Grundy values and
 * their mex ("node_mex"); the values of tokens on a graph with cycles
 * ("loopy_tokens"); the outcome of one token by retrograde analysis
 * ("retrograde"). The nim-sum and the target are the heap sums' steps
 * (sum_why.h). */
#ifndef GRUNDY_API_TOKEN_WHY_H
#define GRUNDY_API_TOKEN_WHY_H

#include "token_sum.h"
#include "grundy/loopy.h"

/* Options listed in a "node_mex" step: every successor when a node has at
 * most this many, else one successor of each value below the node's, up to
 * this many. */
#define GR_WHY_NODE_OPTIONS 16

/* "rule": how the tokens' values are found, for the board. */
void gr_token_why_rule(gr_query *q, const gr_token_board *b, const char *how);

/* "node_mex": {component, node, grundy, options_total, listed ("all" or
 * "witnesses"), options[{node, grundy}], mex} for token i on an acyclic
 * board with node values `values`. */
void gr_token_why_mex(gr_query *q, const gr_token_board *b, const uint32_t *values, size_t i);

/* "loopy_tokens": {tokens[{token, node, grundy | null, infinite,
 * finite_options[] (K, infinite tokens only), outcome, remoteness | null}],
 * infinite, nim_sum_finite}: each token's value by Smith's theory and, as
 * if it were alone, its outcome and remoteness (null for a draw; the whole
 * member is absent when the outcomes were not found within the budget). */
void gr_token_why_loopy(gr_query *q, const gr_token_board *b, const gr_loopy *l, uint64_t x,
                        size_t ninf);

/* "retrograde": {node, outcome, remoteness | null, misere}: one token's
 * outcome by retrograde analysis, with the sentence `verdict`. */
void gr_token_why_retrograde(gr_query *q, const gr_token_board *b, uint8_t outcome, uint32_t depth,
                             const char *verdict);

#endif
