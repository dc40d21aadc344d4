/* SPDX-License-Identifier: MIT */
/* Games on finite directed graphs: CSR adjacency, Grundy values by Kahn's
 * algorithm on out-degrees (iterative: deep chains are fine), cycle
 * reporting, and move lookup. See include/grundy/graph.h for the contract. */
#include "grundy/graph.h"
#include "grundy/alloc.h"

#include <stdlib.h>
#include <string.h>

/* calloc for n elements of `size` bytes, never asking for zero bytes (so a
 * NULL result always means failure). calloc itself checks n * size. */
static void *alloc_zeroed(size_t n, size_t size)
{
    return gr_calloc(n == 0 ? 1 : n, size);
}

/* True when every from[i] and to[i], i < nedges, is < nnodes. */
static int edges_valid(uint32_t nnodes, const uint32_t *from, const uint32_t *to,
                       uint32_t nedges)
{
    for (uint32_t i = 0; i < nedges; i++)
        if (from[i] >= nnodes || to[i] >= nnodes)
            return 0;
    return 1;
}

/* Counting sort of the edges by `from` into first/succ (both allocated by
 * the caller, first zeroed). Edges of one node keep their input order. */
static void csr_fill(uint32_t nnodes, const uint32_t *from, const uint32_t *to,
                     uint32_t nedges, uint32_t *first, uint32_t *succ)
{
    for (uint32_t i = 0; i < nedges; i++)
        first[from[i] + (size_t)1]++;
    for (size_t u = 0; u < nnodes; u++)
        first[u + 1] += first[u];
    /* first[u] is now the start of u's block; use it as a cursor. */
    for (uint32_t i = 0; i < nedges; i++)
        succ[first[from[i]]++] = to[i];
    /* Each cursor now holds the start of the next block: shift back. */
    memmove(first + 1, first, (size_t)nnodes * sizeof *first);
    first[0] = 0;
}

/* Contract (graph.h): on any error *g is left zeroed, so gr_graph_free(g)
 * is always safe. from/to may be NULL when nedges == 0. */
gr_status gr_graph_build(uint32_t nnodes, const uint32_t *from, const uint32_t *to,
                         uint32_t nedges, gr_graph *g)
{
    memset(g, 0, sizeof *g);
    if (!edges_valid(nnodes, from, to, nedges))
        return GR_EINVAL;
    uint32_t *first = alloc_zeroed((size_t)nnodes + 1, sizeof *first);
    uint32_t *succ = alloc_zeroed(nedges, sizeof *succ);
    if (first == NULL || succ == NULL) {
        gr_free(first);
        gr_free(succ);
        return GR_ENOMEM;
    }
    csr_fill(nnodes, from, to, nedges, first, succ);
    g->nnodes = nnodes;
    g->nedges = nedges;
    g->first = first;
    g->succ = succ;
    return GR_OK;
}

void gr_graph_free(gr_graph *g)
{
    gr_free(g->first);
    gr_free(g->succ);
    memset(g, 0, sizeof *g);
}

/* Scratch for gr_graph_grundy. pfirst/pred: predecessor lists (CSR of the
 * reversed graph, duplicates kept); left[u]: successors of u not yet valued;
 * queue: nodes whose successors are all valued, in processing order;
 * mark: mex marker indexed by value (0 .. max out-degree), stamped by node. */
typedef struct grundy_work {
    uint32_t *pfirst;
    uint32_t *pred;
    uint32_t *left;
    uint32_t *queue;
    uint32_t *mark;
} grundy_work;

static void work_free(grundy_work *w)
{
    gr_free(w->pfirst);
    gr_free(w->pred);
    gr_free(w->left);
    gr_free(w->queue);
    gr_free(w->mark);
}

static uint32_t out_degree(const gr_graph *g, uint32_t u)
{
    return g->first[u + 1] - g->first[u];
}

static uint32_t max_out_degree(const gr_graph *g)
{
    uint32_t best = 0;
    for (uint32_t u = 0; u < g->nnodes; u++)
        if (out_degree(g, u) > best)
            best = out_degree(g, u);
    return best;
}

/* Allocates the scratch and fills pfirst/pred and left. GR_ENOMEM (with
 * everything freed) when an allocation fails. */
static gr_status work_init(const gr_graph *g, grundy_work *w)
{
    size_t n = g->nnodes;
    memset(w, 0, sizeof *w);
    w->pfirst = alloc_zeroed(n + 1, sizeof *w->pfirst);
    w->pred = alloc_zeroed(g->nedges, sizeof *w->pred);
    w->left = alloc_zeroed(n, sizeof *w->left);
    w->queue = alloc_zeroed(n, sizeof *w->queue);
    w->mark = alloc_zeroed((size_t)max_out_degree(g) + 1, sizeof *w->mark);
    if (!w->pfirst || !w->pred || !w->left || !w->queue || !w->mark) {
        work_free(w);
        return GR_ENOMEM;
    }
    for (uint32_t u = 0; u < g->nnodes; u++)
        w->left[u] = out_degree(g, u);
    /* Reverse edges u -> v as v -> u: the same counting sort, by `to`. */
    for (uint32_t e = 0; e < g->nedges; e++)
        w->pfirst[g->succ[e] + (size_t)1]++;
    for (size_t v = 0; v < n; v++)
        w->pfirst[v + 1] += w->pfirst[v];
    for (uint32_t u = 0; u < g->nnodes; u++)
        for (uint32_t e = g->first[u]; e < g->first[u + 1]; e++)
            w->pred[w->pfirst[g->succ[e]]++] = u;
    memmove(w->pfirst + 1, w->pfirst, n * sizeof *w->pfirst);
    w->pfirst[0] = 0;
    return GR_OK;
}

/* Minimum excluded value among the (already valued) successors of v. Values
 * above out_degree(v) cannot affect the mex and are skipped, so the marker
 * (size max out-degree + 1) is never overrun. The stamp v + 1 is unique to
 * this call, so the marker needs no clearing. */
static uint32_t mex_of(const gr_graph *g, const uint32_t *values, uint32_t *mark,
                       uint32_t v)
{
    uint32_t deg = out_degree(g, v);
    uint32_t stamp = v + 1;
    for (uint32_t e = g->first[v]; e < g->first[v + 1]; e++)
        if (values[g->succ[e]] <= deg)
            mark[values[g->succ[e]]] = stamp;
    uint32_t m = 0;
    while (mark[m] == stamp)
        m++;
    return m;
}

/* Kahn's algorithm on out-degrees: a node is valued once all its successors
 * are. Returns how many nodes were valued (nnodes exactly when acyclic). */
static uint32_t kahn(const gr_graph *g, grundy_work *w, uint32_t *values)
{
    uint32_t head = 0, tail = 0;
    for (uint32_t u = 0; u < g->nnodes; u++)
        if (w->left[u] == 0)
            w->queue[tail++] = u;
    while (head < tail) {
        uint32_t v = w->queue[head++];
        values[v] = mex_of(g, values, w->mark, v);
        for (uint32_t e = w->pfirst[v]; e < w->pfirst[v + 1]; e++)
            if (--w->left[w->pred[e]] == 0)
                w->queue[tail++] = w->pred[e];
    }
    return tail;
}

/* After kahn() left some nodes unvalued (left[u] > 0): each of them has an
 * unvalued successor, so walking unvalued successors from any of them must
 * revisit a node, and the first node revisited lies on a cycle. `seen` is
 * nnodes of scratch. */
static uint32_t find_cycle_node(const gr_graph *g, const uint32_t *left, uint32_t *seen)
{
    uint32_t u = 0;
    while (left[u] == 0)
        u++;
    memset(seen, 0, (size_t)g->nnodes * sizeof *seen);
    while (!seen[u]) {
        seen[u] = 1;
        uint32_t e = g->first[u];
        while (left[g->succ[e]] == 0)
            e++;
        u = g->succ[e];
    }
    return u;
}

/* Contract (graph.h): spends exactly nnodes + nedges steps before any work
 * (GR_ELIMIT, budget emptied, when they are not there). On GR_OK every
 * values[u] is set; on an error values[] is unspecified. *cycle_node is
 * written only on GR_ECYCLE. GR_ENOMEM when scratch cannot be allocated
 * (about 4 * (3 * nnodes + nedges + max out-degree) bytes). */
gr_status gr_graph_grundy(const gr_graph *g, gr_budget *b, uint32_t *values,
                          uint32_t *cycle_node)
{
    if (!gr_budget_spend(b, (uint64_t)g->nnodes + g->nedges))
        return GR_ELIMIT;
    grundy_work w;
    gr_status st = work_init(g, &w);
    if (st != GR_OK)
        return st;
    if (kahn(g, &w, values) != g->nnodes) {
        *cycle_node = find_cycle_node(g, w.left, w.queue);
        st = GR_ECYCLE;
    }
    work_free(&w);
    return st;
}

/* Contract (graph.h): the first successor of u (in edge order) whose value
 * is target; GR_EINVAL, *v untouched, when u >= nnodes or none matches. */
gr_status gr_graph_move(const gr_graph *g, const uint32_t *values, uint32_t u,
                        uint32_t target, uint32_t *v)
{
    if (u >= g->nnodes)
        return GR_EINVAL;
    for (uint32_t e = g->first[u]; e < g->first[u + 1]; e++) {
        if (values[g->succ[e]] == target) {
            *v = g->succ[e];
            return GR_OK;
        }
    }
    return GR_EINVAL;
}
