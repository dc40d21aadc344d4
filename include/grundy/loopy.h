/* SPDX-License-Identifier: MIT */
/* Games on directed graphs that may have cycles.
 *
 * Smith's generalised Sprague-Grundy values: every node gets a finite value
 * or infinity (GR_LOOPY_INF) together with K, the set of finite values among
 * its followers. Finite 0 is a loss for the player to move, finite > 0 a win,
 * infinity a win when 0 is in K and a draw otherwise. Sums: finite values
 * XOR; m + inf_K = inf_(K xor m); inf + inf is a draw.
 *
 * The labelling also yields Smith's counter, which keeps a winner from
 * cycling: for a node u with finite value g, every follower w of u whose
 * value is infinite or larger than g has a follower v with value g and
 * counter[v] < counter[u]. Reversing the opponent's move to such a v
 * therefore always makes progress.
 *
 * Acyclic graphs get their ordinary Grundy values (gr_graph_grundy). */
#ifndef GRUNDY_LOOPY_H
#define GRUNDY_LOOPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grundy/budget.h"
#include "grundy/graph.h"
#include "grundy/status.h"

#define GR_LOOPY_INF UINT32_MAX

typedef struct gr_loopy {
    uint32_t *value;   /* per node: finite value, or GR_LOOPY_INF */
    uint32_t *counter; /* per node with a finite value: Smith's counter (see above) */
} gr_loopy;

/* Labels every node of g. Spends about (nodes + edges still unlabelled or
 * infinite) per finite value level; GR_ELIMIT when the budget runs out,
 * GR_ENOMEM. On error *out is zeroed; free with gr_loopy_free. */
gr_status gr_loopy_solve(const gr_graph *g, gr_budget *b, gr_loopy *out);

void gr_loopy_free(gr_loopy *l);

/* The distinct finite values among u's followers, ascending (K when u is
 * infinite). Writes at most cap of them to out (out may be NULL when cap is
 * 0) and returns how many there are in all. */
size_t gr_loopy_options(const gr_graph *g, const gr_loopy *l, uint32_t u, uint32_t *out,
                        size_t cap);

/* true when u has a follower with finite value `target` (target in K). */
bool gr_loopy_has_option(const gr_graph *g, const gr_loopy *l, uint32_t u, uint32_t target);

/* The follower v of u with value[v] == target and the least counter:
 * GR_OK, or GR_EINVAL when u has no such follower. */
gr_status gr_loopy_move(const gr_graph *g, const gr_loopy *l, uint32_t u, uint32_t target,
                        uint32_t *v);

/* Outcome of a single token, by retrograde analysis (works with cycles). */
enum { GR_OUTCOME_LOSS = 0, GR_OUTCOME_WIN = 1, GR_OUTCOME_DRAW = 2 };

/* For every node: result[u] (GR_OUTCOME_*) for the player about to move,
 * and depth[u], the number of moves the game lasts from u when the winner
 * wins as fast as it can and the loser lasts as long as it can (0 at a
 * terminal node; unused for draws). A terminal node is a loss under normal
 * play and a win when misere is true. Under normal play on an acyclic graph
 * depth is Steinhaus' remoteness. Spends about nodes + edges steps. */
gr_status gr_graph_outcomes(const gr_graph *g, bool misere, gr_budget *b, uint8_t *result,
                            uint32_t *depth);

/* The move that keeps the depth promise from a node that is a win: a
 * follower that is a loss with the least depth. GR_EINVAL when u is not a
 * win or is terminal (a misere win by having no move). */
gr_status gr_graph_outcome_move(const gr_graph *g, const uint8_t *result, const uint32_t *depth,
                                uint32_t u, uint32_t *v);

/* From a node that is a loss and not terminal: the follower that is a win
 * with the greatest depth (the slowest way to lose; Steinhaus' rule for an
 * even remoteness). GR_EINVAL otherwise. */
gr_status gr_graph_outcome_delay(const gr_graph *g, const uint8_t *result, const uint32_t *depth,
                                 uint32_t u, uint32_t *v);

#endif
