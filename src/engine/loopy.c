/* SPDX-License-Identifier: MIT */
/* Games on directed graphs that may have cycles: Smith's generalised
 * Sprague-Grundy values by Fraenkel's level-by-level retrograde labelling,
 * and the win/loss/draw outcome of one token with its depth. Iterative
 * throughout (chains of any length are fine). See include/grundy/loopy.h
 * for the contract. */
#include "grundy/loopy.h"
#include "grundy/alloc.h"

#include <stdlib.h>
#include <string.h>

/* calloc for n elements of `size` bytes, never asking for zero bytes (so a
 * NULL result always means failure). calloc itself checks n * size. */
static void *alloc_zeroed(size_t n, size_t size)
{
    return gr_calloc(n == 0 ? 1 : n, size);
}

/* "No such node": node indices are below nnodes <= UINT32_MAX. */
#define NO_NODE UINT32_MAX

static uint32_t out_degree(const gr_graph *g, uint32_t u)
{
    return g->first[u + 1] - g->first[u];
}

/* ---- predecessor lists ---- */

/* CSR of the reversed graph. Duplicate edges are kept, so a node with two
 * edges to v is listed twice among v's predecessors: every count of
 * followers below is therefore a count of edges. */
typedef struct reverse_adj {
    uint32_t *pfirst; /* nnodes + 1 offsets into pred */
    uint32_t *pred;   /* nedges predecessor indices */
} reverse_adj;

static void reverse_free(reverse_adj *r)
{
    gr_free(r->pfirst);
    gr_free(r->pred);
    memset(r, 0, sizeof *r);
}

static uint32_t in_degree(const reverse_adj *r, uint32_t v)
{
    return r->pfirst[v + 1] - r->pfirst[v];
}

/* GR_ENOMEM, with nothing left allocated, when the lists do not fit. */
static gr_status reverse_build(const gr_graph *g, reverse_adj *r)
{
    size_t n = g->nnodes;
    r->pfirst = alloc_zeroed(n + 1, sizeof *r->pfirst);
    r->pred = alloc_zeroed(g->nedges, sizeof *r->pred);
    if (r->pfirst == NULL || r->pred == NULL) {
        reverse_free(r);
        return GR_ENOMEM;
    }
    /* Counting sort of the edges u -> v by v; pfirst[v] serves as v's
     * cursor and ends one block late, hence the shift back. */
    for (uint32_t e = 0; e < g->nedges; e++)
        r->pfirst[g->succ[e] + (size_t)1]++;
    for (size_t v = 0; v < n; v++)
        r->pfirst[v + 1] += r->pfirst[v];
    for (uint32_t u = 0; u < g->nnodes; u++)
        for (uint32_t e = g->first[u]; e < g->first[u + 1]; e++)
            r->pred[r->pfirst[g->succ[e]]++] = u;
    memmove(r->pfirst + 1, r->pfirst, n * sizeof *r->pfirst);
    r->pfirst[0] = 0;
    return GR_OK;
}

/* ---- Smith's labelling ---- */

/* Per-node state: a label, plus a flag valid only during one level. */
enum {
    ST_UNLABELLED = 0,
    ST_INFINITE = 1,
    ST_FINITE = 2,
    ST_LABEL = 3, /* mask of the label bits */
    ST_HIT = 4,   /* this level: the node has a follower labelled with it */
};

/* W, the active set, is every node unlabelled or infinite when a level
 * starts. Level m labels an unlabelled node m once it is not hit and all
 * its followers in W are hit (so a move into W can be answered by a move
 * back to m); count[u] tracks how many of those followers are not hit yet.
 * Nodes labelled finite leave W for good, so each level works on W only. */
typedef struct label_work {
    const gr_graph *g;
    reverse_adj rev;
    gr_loopy *out;
    uint8_t *state;
    uint32_t *count;    /* unlabelled u: edges from u into W not yet hit */
    uint32_t *active;   /* the nodes of W */
    uint32_t nactive;
    uint32_t nunlabelled;
    uint64_t cost;      /* what one level may touch: see level_cost */
    uint32_t *queue;    /* nodes labelled this level, in labelling order */
    uint32_t qtail;
    uint32_t level;     /* m */
    uint32_t seq;       /* the next counter: labelling order */
} label_work;

static void work_free(label_work *w)
{
    reverse_free(&w->rev);
    gr_free(w->state);
    gr_free(w->count);
    gr_free(w->active);
    gr_free(w->queue);
}

/* u's share of the work of a level while u is in W: u itself, its
 * out-edges (counted while u is unlabelled) and its in-edges (visited when
 * u is labelled or first hit, which happens at most once a level). */
static uint64_t level_cost(const label_work *w, uint32_t u)
{
    return 1 + (uint64_t)out_degree(w->g, u) + in_degree(&w->rev, u);
}

/* GR_ENOMEM, with nothing left allocated, when the scratch does not fit.
 * Every node starts unlabelled and in W. */
static gr_status work_init(const gr_graph *g, gr_loopy *out, label_work *w)
{
    size_t n = g->nnodes;
    memset(w, 0, sizeof *w);
    w->g = g;
    w->out = out;
    if (reverse_build(g, &w->rev) != GR_OK)
        return GR_ENOMEM;
    w->state = alloc_zeroed(n, sizeof *w->state);
    w->count = alloc_zeroed(n, sizeof *w->count);
    w->active = alloc_zeroed(n, sizeof *w->active);
    w->queue = alloc_zeroed(n, sizeof *w->queue);
    if (!w->state || !w->count || !w->active || !w->queue) {
        work_free(w);
        return GR_ENOMEM;
    }
    for (uint32_t u = 0; u < g->nnodes; u++) {
        w->active[u] = u;
        w->cost += level_cost(w, u);
    }
    w->nactive = g->nnodes;
    w->nunlabelled = g->nnodes;
    return GR_OK;
}

static unsigned label_of(const label_work *w, uint32_t u)
{
    return w->state[u] & ST_LABEL;
}

static bool is_hit(const label_work *w, uint32_t u)
{
    return (w->state[u] & ST_HIT) != 0;
}

/* Counts, for every unlabelled node of W, its edges into W, and clears the
 * hit flags left by the previous level. */
static void level_count(label_work *w)
{
    const gr_graph *g = w->g;
    for (uint32_t i = 0; i < w->nactive; i++) {
        uint32_t u = w->active[i];
        w->state[u] &= ST_LABEL;
        if (label_of(w, u) != ST_UNLABELLED)
            continue;
        uint32_t c = 0;
        for (uint32_t e = g->first[u]; e < g->first[u + 1]; e++)
            c += label_of(w, g->succ[e]) != ST_FINITE;
        w->count[u] = c;
    }
}

/* Gives u the value of this level and the next counter. Its predecessors
 * learn about it when the queue is drained (level_propagate). */
static void label_finite(label_work *w, uint32_t u)
{
    w->state[u] = ST_FINITE;
    w->out->value[u] = w->level;
    w->out->counter[u] = w->seq++;
    w->nunlabelled--;
    w->queue[w->qtail++] = u;
}

/* Nodes all of whose followers have finite values below the level: no
 * follower can be labelled at this level, so they qualify at once. */
static void level_seed(label_work *w)
{
    for (uint32_t i = 0; i < w->nactive; i++) {
        uint32_t u = w->active[i];
        if (label_of(w, u) == ST_UNLABELLED && w->count[u] == 0)
            label_finite(w, u);
    }
}

/* p (in W) has a follower labelled with this level. The first time, every
 * unlabelled predecessor q has one more follower in W that is hit; once all
 * of them are, and q is not hit itself, q gets the level. (A hit q cannot
 * get there anyway: its edge to the follower labelled at this level stays
 * counted, as labelled nodes are never hit; the test states the rule.) Such
 * a q can never become hit later: its followers are finite below the level
 * or hit, and a hit node is never labelled at this level. */
static void mark_hit(label_work *w, uint32_t p)
{
    if (label_of(w, p) == ST_FINITE || is_hit(w, p))
        return;
    w->state[p] |= ST_HIT;
    for (uint32_t e = w->rev.pfirst[p]; e < w->rev.pfirst[p + 1]; e++) {
        uint32_t q = w->rev.pred[e];
        if (label_of(w, q) != ST_UNLABELLED)
            continue;
        if (--w->count[q] == 0 && !is_hit(w, q))
            label_finite(w, q);
    }
}

/* Drains the queue: each node labelled at this level hits its predecessors,
 * which may label more nodes (appended to the queue). */
static void level_propagate(label_work *w)
{
    for (uint32_t head = 0; head < w->qtail; head++) {
        uint32_t x = w->queue[head];
        for (uint32_t e = w->rev.pfirst[x]; e < w->rev.pfirst[x + 1]; e++)
            mark_hit(w, w->rev.pred[e]);
    }
}

/* Unlabelled nodes that are not hit have no follower with this value and
 * cannot take it, so no finite value is left for them: infinity. Nodes
 * labelled finite leave W. */
static void level_close(label_work *w)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < w->nactive; i++) {
        uint32_t u = w->active[i];
        if (label_of(w, u) == ST_FINITE) {
            w->cost -= level_cost(w, u);
            continue;
        }
        if (label_of(w, u) == ST_UNLABELLED && !is_hit(w, u)) {
            w->state[u] = ST_INFINITE;
            w->out->value[u] = GR_LOOPY_INF;
            w->nunlabelled--;
        }
        w->active[kept++] = u;
    }
    w->nactive = kept;
}

/* Levels 0, 1, 2, ... until every node is labelled. An unlabelled node
 * after level m has followers with every value 0 .. m, so there are at most
 * max out-degree + 1 levels. */
static gr_status label_levels(label_work *w, gr_budget *b)
{
    while (w->nunlabelled > 0) {
        if (!gr_budget_spend(b, w->cost))
            return GR_ELIMIT;
        w->qtail = 0;
        level_count(w);
        level_seed(w);
        level_propagate(w);
        level_close(w);
        w->level++;
    }
    return GR_OK;
}

/* Contract (loopy.h): spends nnodes + nedges for the predecessor lists,
 * then, before each level, the nodes of W plus their in- and out-edges.
 * Counters number the finite nodes 0, 1, 2, ... in labelling order (every
 * counter is distinct); infinite nodes get counter 0, which means nothing.
 * Scratch: about 4 * (4 * nnodes + nedges) + nnodes bytes. */
gr_status gr_loopy_solve(const gr_graph *g, gr_budget *b, gr_loopy *out)
{
    memset(out, 0, sizeof *out);
    if (!gr_budget_spend(b, (uint64_t)g->nnodes + g->nedges))
        return GR_ELIMIT;
    out->value = alloc_zeroed(g->nnodes, sizeof *out->value);
    out->counter = alloc_zeroed(g->nnodes, sizeof *out->counter);
    label_work w;
    gr_status st = GR_ENOMEM;
    if (out->value != NULL && out->counter != NULL && work_init(g, out, &w) == GR_OK) {
        st = label_levels(&w, b);
        work_free(&w);
    }
    if (st != GR_OK)
        gr_loopy_free(out);
    return st;
}

void gr_loopy_free(gr_loopy *l)
{
    gr_free(l->value);
    gr_free(l->counter);
    memset(l, 0, sizeof *l);
}

/* ---- queries on a labelling ---- */

/* Hands out[0 .. cap) the n-th distinct value when n < cap; returns n + 1. */
static size_t emit(uint32_t *out, size_t cap, size_t n, uint32_t value)
{
    if (n < cap)
        out[n] = value;
    return n + 1;
}

/* gr_loopy_options by repeated scans for the least value above the last
 * one: no memory, but time out-degree times the answer. */
static size_t options_by_scan(const gr_graph *g, const gr_loopy *l, uint32_t u, uint32_t *out,
                              size_t cap)
{
    size_t n = 0;
    uint32_t floor = 0; /* least value still wanted */
    for (;;) {
        uint32_t best = GR_LOOPY_INF;
        for (uint32_t e = g->first[u]; e < g->first[u + 1]; e++) {
            uint32_t x = l->value[g->succ[e]];
            if (x >= floor && x < best)
                best = x;
        }
        if (best == GR_LOOPY_INF)
            return n;
        n = emit(out, cap, n, best);
        floor = best + 1;
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* gr_loopy_options by sorting the finite follower values in scratch (one
 * slot per out-edge). */
static size_t options_by_sort(const gr_graph *g, const gr_loopy *l, uint32_t u, uint32_t *out,
                              size_t cap, uint32_t *scratch)
{
    size_t k = 0, n = 0;
    for (uint32_t e = g->first[u]; e < g->first[u + 1]; e++)
        if (l->value[g->succ[e]] != GR_LOOPY_INF)
            scratch[k++] = l->value[g->succ[e]];
    qsort(scratch, k, sizeof *scratch, cmp_u32);
    for (size_t i = 0; i < k; i++)
        if (i == 0 || scratch[i] != scratch[i - 1])
            n = emit(out, cap, n, scratch[i]);
    return n;
}

/* Below this out-degree the scan is as cheap as sorting. */
#define OPTIONS_SCAN_MAX_DEGREE 16u

/* Contract (loopy.h): 0 when u >= nnodes. The answer does not depend on
 * memory: when scratch for sorting cannot be had, the scan is used. */
size_t gr_loopy_options(const gr_graph *g, const gr_loopy *l, uint32_t u, uint32_t *out,
                        size_t cap)
{
    if (u >= g->nnodes)
        return 0;
    uint32_t deg = out_degree(g, u);
    uint32_t *scratch = deg > OPTIONS_SCAN_MAX_DEGREE ? gr_malloc(deg * sizeof *scratch) : NULL;
    if (scratch == NULL)
        return options_by_scan(g, l, u, out, cap);
    size_t n = options_by_sort(g, l, u, out, cap, scratch);
    gr_free(scratch);
    return n;
}

/* Contract (loopy.h): false when u >= nnodes or target is GR_LOOPY_INF. */
bool gr_loopy_has_option(const gr_graph *g, const gr_loopy *l, uint32_t u, uint32_t target)
{
    if (u >= g->nnodes || target == GR_LOOPY_INF)
        return false;
    for (uint32_t e = g->first[u]; e < g->first[u + 1]; e++)
        if (l->value[g->succ[e]] == target)
            return true;
    return false;
}

/* Contract (loopy.h): GR_EINVAL, *v untouched, also when u >= nnodes or
 * target is GR_LOOPY_INF (infinite nodes have no counter to order by). */
gr_status gr_loopy_move(const gr_graph *g, const gr_loopy *l, uint32_t u, uint32_t target,
                        uint32_t *v)
{
    if (u >= g->nnodes || target == GR_LOOPY_INF)
        return GR_EINVAL;
    uint32_t best = NO_NODE;
    for (uint32_t e = g->first[u]; e < g->first[u + 1]; e++) {
        uint32_t x = g->succ[e];
        if (l->value[x] == target && (best == NO_NODE || l->counter[x] < l->counter[best]))
            best = x;
    }
    if (best == NO_NODE)
        return GR_EINVAL;
    *v = best;
    return GR_OK;
}

/* ---- win / loss / draw of one token ---- */

/* Retrograde analysis from the terminal nodes, breadth first: nodes are
 * decided, and queued, in order of depth. A node becomes a win at the first
 * loss among its followers to be dequeued (the least deep), and a loss when
 * the last of its followers is dequeued as a win (the deepest). left[u]
 * counts u's out-edges whose head is not yet known to be a win. */
static void outcomes_bfs(const gr_graph *g, const reverse_adj *rev, bool misere,
                         uint32_t *left, uint32_t *queue, uint8_t *result, uint32_t *depth)
{
    uint32_t tail = 0;
    for (uint32_t u = 0; u < g->nnodes; u++) {
        left[u] = out_degree(g, u);
        depth[u] = 0;
        result[u] = GR_OUTCOME_DRAW;
        if (left[u] == 0) {
            result[u] = misere ? GR_OUTCOME_WIN : GR_OUTCOME_LOSS;
            queue[tail++] = u;
        }
    }
    for (uint32_t head = 0; head < tail; head++) {
        uint32_t x = queue[head];
        for (uint32_t e = rev->pfirst[x]; e < rev->pfirst[x + 1]; e++) {
            uint32_t p = rev->pred[e];
            if (result[p] != GR_OUTCOME_DRAW)
                continue;
            if (result[x] == GR_OUTCOME_LOSS)
                result[p] = GR_OUTCOME_WIN;
            else if (--left[p] == 0)
                result[p] = GR_OUTCOME_LOSS;
            else
                continue;
            depth[p] = depth[x] + 1;
            queue[tail++] = p;
        }
    }
}

/* Contract (loopy.h): spends exactly nnodes + nedges steps before any work.
 * Draws get depth 0. On an error result[] and depth[] are untouched.
 * Scratch: about 4 * (3 * nnodes + nedges) bytes. */
gr_status gr_graph_outcomes(const gr_graph *g, bool misere, gr_budget *b, uint8_t *result,
                            uint32_t *depth)
{
    if (!gr_budget_spend(b, (uint64_t)g->nnodes + g->nedges))
        return GR_ELIMIT;
    reverse_adj rev;
    if (reverse_build(g, &rev) != GR_OK)
        return GR_ENOMEM;
    uint32_t *left = alloc_zeroed(g->nnodes, sizeof *left);
    uint32_t *queue = alloc_zeroed(g->nnodes, sizeof *queue);
    gr_status st = GR_ENOMEM;
    if (left != NULL && queue != NULL) {
        outcomes_bfs(g, &rev, misere, left, queue, result, depth);
        st = GR_OK;
    }
    gr_free(left);
    gr_free(queue);
    reverse_free(&rev);
    return st;
}

/* The first follower of u (in edge order) whose result is `want`, with the
 * least depth (deepest when `deepest`), or NO_NODE when none. */
static uint32_t pick_follower(const gr_graph *g, const uint8_t *result, const uint32_t *depth,
                              uint32_t u, uint8_t want, bool deepest)
{
    uint32_t best = NO_NODE;
    for (uint32_t e = g->first[u]; e < g->first[u + 1]; e++) {
        uint32_t x = g->succ[e];
        if (result[x] != want)
            continue;
        if (best == NO_NODE || (deepest ? depth[x] > depth[best] : depth[x] < depth[best]))
            best = x;
    }
    return best;
}

/* Contract (loopy.h): GR_EINVAL, *v untouched, also when u >= nnodes. */
gr_status gr_graph_outcome_move(const gr_graph *g, const uint8_t *result, const uint32_t *depth,
                                uint32_t u, uint32_t *v)
{
    if (u >= g->nnodes || result[u] != GR_OUTCOME_WIN)
        return GR_EINVAL;
    uint32_t x = pick_follower(g, result, depth, u, GR_OUTCOME_LOSS, false);
    if (x == NO_NODE)
        return GR_EINVAL;
    *v = x;
    return GR_OK;
}

/* Contract (loopy.h): GR_EINVAL, *v untouched, also when u >= nnodes. */
gr_status gr_graph_outcome_delay(const gr_graph *g, const uint8_t *result, const uint32_t *depth,
                                 uint32_t u, uint32_t *v)
{
    if (u >= g->nnodes || result[u] != GR_OUTCOME_LOSS)
        return GR_EINVAL;
    uint32_t x = pick_follower(g, result, depth, u, GR_OUTCOME_WIN, true);
    if (x == NO_NODE)
        return GR_EINVAL;
    *v = x;
    return GR_OK;
}
