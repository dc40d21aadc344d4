/* SPDX-License-Identifier: MIT */
/* Games on finite directed graphs: tokens move along edges; a node with no
 * outgoing edge is terminal. Nodes are dense indices 0 .. nnodes - 1 (the
 * API layer maps client ids to them). */
#ifndef GRUNDY_GRAPH_H
#define GRUNDY_GRAPH_H

#include <stdint.h>

#include "grundy/budget.h"
#include "grundy/status.h"

typedef struct gr_graph {
    uint32_t nnodes;
    uint32_t nedges;
    uint32_t *first; /* nnodes + 1 offsets: successors of u are succ[first[u] .. first[u+1]) */
    uint32_t *succ;  /* nedges successor indices */
} gr_graph;

/* Builds the adjacency (CSR) from edge lists from[i] -> to[i]; every index
 * must be < nnodes (GR_EINVAL otherwise). Duplicate edges are kept, and each
 * node's successors keep the order of the edge list (POST /v1/moves lists
 * them in that order). */
gr_status gr_graph_build(uint32_t nnodes, const uint32_t *from, const uint32_t *to,
                         uint32_t nedges, gr_graph *g);

void gr_graph_free(gr_graph *g);

/* Grundy value of every node of an acyclic graph into values[0 .. nnodes).
 * GR_ECYCLE when the graph has a cycle, with *cycle_node set to a node that
 * lies on one. Spends about nnodes + nedges steps; GR_ELIMIT beyond that. */
gr_status gr_graph_grundy(const gr_graph *g, gr_budget *b, uint32_t *values,
                          uint32_t *cycle_node);

/* A successor v of u with values[v] == target: GR_OK, or GR_EINVAL if none. */
gr_status gr_graph_move(const gr_graph *g, const uint32_t *values, uint32_t u,
                        uint32_t target, uint32_t *v);

#endif
