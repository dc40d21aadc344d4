/* SPDX-License-Identifier: MIT */
/* Tests for games on directed graphs (include/grundy/graph.h).
 *
 * The brute-force twin works on the raw edge lists, not on the CSR: a plain
 * memoized recursion over the definition (value = mex of successor values),
 * reachability by transitive closure, and win/loss of sums of tokens by
 * search over the joint position. */
#include "grundy/graph.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"

#define MAXN 32u       /* brute-force twin: at most this many nodes */
#define MAXE 1024u     /* ... and this many edges */
#define BIG 1000000u   /* long chains */


/* ---- deterministic pseudo-random numbers (splitmix64) ---- */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static uint32_t rng_below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(rng_next(s) % n);
}

static void random_perm(uint64_t *s, uint32_t *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        p[i] = i;
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = rng_below(s, i);
        uint32_t t = p[i - 1];
        p[i - 1] = p[j];
        p[j] = t;
    }
}

/* ---- a small graph as plain edge lists ---- */

typedef struct edges {
    uint32_t n, m;
    uint32_t from[MAXE], to[MAXE];
} edges;

static void edges_add(edges *e, uint32_t u, uint32_t v)
{
    REQUIRE(e->m < MAXE);
    e->from[e->m] = u;
    e->to[e->m] = v;
    e->m++;
}

static bool edges_has(const edges *e, uint32_t u, uint32_t v)
{
    for (uint32_t i = 0; i < e->m; i++)
        if (e->from[i] == u && e->to[i] == v)
            return true;
    return false;
}

static void build_ok(const edges *e, gr_graph *g)
{
    REQUIRE_EQ(gr_graph_build(e->n, e->from, e->to, e->m, g), GR_OK);
    REQUIRE_EQ(g->nnodes, e->n);
    REQUIRE_EQ(g->nedges, e->m);
}

/* Random DAG on n nodes: a random topological order, each forward pair an
 * edge with probability pct/100, and a few duplicated edges. */
static void random_dag(uint64_t *s, uint32_t n, uint32_t pct, edges *e)
{
    uint32_t order[MAXN];
    random_perm(s, order, n);
    e->n = n;
    e->m = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++)
            if (rng_below(s, 100) < pct)
                edges_add(e, order[i], order[j]);
    uint32_t dups = e->m == 0 ? 0 : rng_below(s, 3);
    for (uint32_t k = 0; k < dups; k++) {
        uint32_t i = rng_below(s, e->m);
        edges_add(e, e->from[i], e->to[i]);
    }
}

/* ---- brute-force twin ---- */

/* Grundy value of u by the definition; memo[u] == UINT32_MAX means unknown.
 * Only for acyclic graphs. */
static uint32_t brute_value(const edges *e, uint32_t u, uint32_t *memo)
{
    if (memo[u] != UINT32_MAX)
        return memo[u];
    bool seen[MAXE + 1];
    memset(seen, 0, sizeof seen);
    for (uint32_t i = 0; i < e->m; i++)
        if (e->from[i] == u)
            seen[brute_value(e, e->to[i], memo)] = true;
    uint32_t m = 0;
    while (seen[m])
        m++;
    memo[u] = m;
    return m;
}

static void brute_values(const edges *e, uint32_t *out)
{
    for (uint32_t u = 0; u < e->n; u++)
        out[u] = UINT32_MAX;
    for (uint32_t u = 0; u < e->n; u++)
        brute_value(e, u, out);
}

/* reach[u][v]: a path of at least one edge leads from u to v. */
static void brute_reach(const edges *e, bool reach[MAXN][MAXN])
{
    memset(reach, 0, sizeof(bool) * MAXN * MAXN);
    for (uint32_t i = 0; i < e->m; i++)
        reach[e->from[i]][e->to[i]] = true;
    for (uint32_t k = 0; k < e->n; k++)
        for (uint32_t i = 0; i < e->n; i++)
            for (uint32_t j = 0; j < e->n; j++)
                if (reach[i][k] && reach[k][j])
                    reach[i][j] = true;
}

static bool brute_has_cycle(const edges *e, bool reach[MAXN][MAXN])
{
    for (uint32_t u = 0; u < e->n; u++)
        if (reach[u][u])
            return true;
    return false;
}

/* Does the node on the CSR graph reach itself? Independent of the engine's
 * walk: a breadth-first search over g's successors. */
static bool csr_on_cycle(const gr_graph *g, uint32_t c)
{
    uint8_t *seen = calloc(g->nnodes, 1);
    uint32_t *queue = malloc((size_t)g->nnodes * sizeof *queue);
    ck_assert_ptr_nonnull(seen);
    ck_assert_ptr_nonnull(queue);
    uint32_t head = 0, tail = 0;
    bool found = false;
    seen[c] = 1;
    queue[tail++] = c;
    while (head < tail && !found) {
        uint32_t u = queue[head++];
        for (uint32_t i = g->first[u]; i < g->first[u + 1]; i++) {
            uint32_t v = g->succ[i];
            if (v == c)
                found = true;
            if (!seen[v]) {
                seen[v] = 1;
                queue[tail++] = v;
            }
        }
    }
    free(seen);
    free(queue);
    return found;
}

/* ---- checks shared by several tests ---- */

/* The engine's values equal the twin's, and gr_graph_move finds, for every u
 * and every target below values[u], a legal successor with that value, and
 * none with value values[u] itself. */
static void check_dag(const edges *e)
{
    gr_graph g;
    uint32_t got[MAXN], want[MAXN], cyc = UINT32_MAX;
    build_ok(e, &g);
    gr_budget b = gr_budget_make(UINT64_MAX);
    REQUIRE_EQ(gr_graph_grundy(&g, &b, got, &cyc), GR_OK);
    brute_values(e, want);
    for (uint32_t u = 0; u < e->n; u++) {
        REQUIRE_EQ(got[u], want[u]);
        for (uint32_t t = 0; t < got[u]; t++) {
            uint32_t v = UINT32_MAX;
            REQUIRE_EQ(gr_graph_move(&g, got, u, t, &v), GR_OK);
            REQUIRE(edges_has(e, u, v));
            REQUIRE_EQ(got[v], t);
        }
        uint32_t v = UINT32_MAX;
        REQUIRE_EQ(gr_graph_move(&g, got, u, got[u], &v), GR_EINVAL);
    }
    gr_graph_free(&g);
}

/* ---- CSR construction ---- */

START_TEST(test_build_small)
{
    /* 0->2, 1->0, 0->1, 0->2 (duplicate), 3 isolated, 2->2 (loop) */
    const uint32_t from[] = { 0, 1, 0, 0, 2 };
    const uint32_t to[] = { 2, 0, 1, 2, 2 };
    const uint32_t first[] = { 0, 3, 4, 5, 5 };
    const uint32_t succ[] = { 2, 1, 2, 0, 2 };
    gr_graph g;
    REQUIRE_EQ(gr_graph_build(4, from, to, 5, &g), GR_OK);
    REQUIRE_EQ(g.nnodes, 4);
    REQUIRE_EQ(g.nedges, 5);
    for (int i = 0; i < 5; i++)
        REQUIRE_EQ(g.first[i], first[i]);
    for (int i = 0; i < 5; i++)
        REQUIRE_EQ(g.succ[i], succ[i]);
    gr_graph_free(&g);
    ck_assert_ptr_null(g.first);
    ck_assert_ptr_null(g.succ);
    REQUIRE_EQ(g.nnodes, 0);
}
END_TEST

START_TEST(test_build_random)
{
    uint64_t s = 11;
    static edges e;
    for (int iter = 0; iter < 300; iter++) {
        e.n = 1 + rng_below(&s, MAXN);
        e.m = 0;
        uint32_t m = rng_below(&s, 200);
        for (uint32_t i = 0; i < m; i++)
            edges_add(&e, rng_below(&s, e.n), rng_below(&s, e.n));
        gr_graph g;
        build_ok(&e, &g);
        REQUIRE_EQ(g.first[0], 0);
        REQUIRE_EQ(g.first[e.n], e.m);
        /* Each node's block holds its edges in input order. */
        for (uint32_t u = 0; u < e.n; u++) {
            uint32_t k = g.first[u];
            for (uint32_t i = 0; i < e.m; i++)
                if (e.from[i] == u)
                    REQUIRE_EQ(g.succ[k++], e.to[i]);
            REQUIRE_EQ(k, g.first[u + 1]);
        }
        gr_graph_free(&g);
    }
}
END_TEST

START_TEST(test_build_invalid)
{
    const uint32_t ok[] = { 0, 1, 2 };
    const uint32_t bad_hi[] = { 0, 3, 1 };
    const uint32_t bad_max[] = { UINT32_MAX, 0, 1 };
    gr_graph g;
    REQUIRE_EQ(gr_graph_build(3, bad_hi, ok, 3, &g), GR_EINVAL);
    ck_assert_ptr_null(g.first);
    REQUIRE_EQ(gr_graph_build(3, ok, bad_hi, 3, &g), GR_EINVAL);
    REQUIRE_EQ(gr_graph_build(3, bad_max, ok, 3, &g), GR_EINVAL);
    REQUIRE_EQ(gr_graph_build(3, ok, bad_max, 3, &g), GR_EINVAL);
    REQUIRE_EQ(gr_graph_build(0, ok, ok, 1, &g), GR_EINVAL);
    gr_graph_free(&g); /* safe after a failed build */
    /* The bad index is past the edges counted: fine. */
    REQUIRE_EQ(gr_graph_build(3, bad_hi, ok, 1, &g), GR_OK);
    gr_graph_free(&g);
}
END_TEST

START_TEST(test_empty_and_edgeless)
{
    gr_graph g;
    uint32_t cyc, values[5];
    gr_budget b = gr_budget_make(0);
    REQUIRE_EQ(gr_graph_build(0, NULL, NULL, 0, &g), GR_OK);
    REQUIRE_EQ(g.first[0], 0);
    REQUIRE_EQ(gr_graph_grundy(&g, &b, values, &cyc), GR_OK);
    uint32_t v;
    REQUIRE_EQ(gr_graph_move(&g, values, 0, 0, &v), GR_EINVAL);
    gr_graph_free(&g);

    REQUIRE_EQ(gr_graph_build(5, NULL, NULL, 0, &g), GR_OK);
    b = gr_budget_make(5);
    memset(values, 0xff, sizeof values);
    REQUIRE_EQ(gr_graph_grundy(&g, &b, values, &cyc), GR_OK);
    REQUIRE_EQ(b.left, 0);
    for (int u = 0; u < 5; u++) {
        REQUIRE_EQ(values[u], 0);
        REQUIRE_EQ(gr_graph_move(&g, values, (uint32_t)u, 0, &v), GR_EINVAL);
    }
    gr_graph_free(&g);
}
END_TEST

/* ---- values against the twin ---- */

static bool next_perm(uint32_t *p, uint32_t n)
{
    if (n < 2)
        return false;
    uint32_t i = n - 1;
    while (i > 0 && p[i - 1] >= p[i])
        i--;
    if (i == 0)
        return false;
    uint32_t j = n - 1;
    while (p[j] <= p[i - 1])
        j--;
    uint32_t t = p[i - 1];
    p[i - 1] = p[j];
    p[j] = t;
    for (uint32_t a = i, z = n - 1; a < z; a++, z--) {
        t = p[a];
        p[a] = p[z];
        p[z] = t;
    }
    return true;
}

/* Every DAG on n <= 4 nodes: every subset of the u < v edges, under every
 * relabelling of the nodes. */
START_TEST(test_dag_exhaustive)
{
    static edges e;
    uint32_t pu[6], pv[6], npairs = 0, count = 0;
    for (uint32_t n = 1; n <= 4; n++) {
        npairs = 0;
        for (uint32_t u = 0; u < n; u++)
            for (uint32_t v = u + 1; v < n; v++) {
                pu[npairs] = u;
                pv[npairs] = v;
                npairs++;
            }
        for (uint32_t mask = 0; mask < (1u << npairs); mask++) {
            uint32_t p[4] = { 0, 1, 2, 3 };
            do {
                e.n = n;
                e.m = 0;
                for (uint32_t k = 0; k < npairs; k++)
                    if (mask & (1u << k))
                        edges_add(&e, p[pu[k]], p[pv[k]]);
                check_dag(&e);
                count++;
            } while (next_perm(p, n));
        }
    }
    /* 1 + 2*2 + 8*6 + 64*24 */
    REQUIRE_EQ(count, 1 + 4 + 48 + 1536);
}
END_TEST

START_TEST(test_dag_random)
{
    uint64_t s = 12345;
    static edges e;
    for (int iter = 0; iter < 3000; iter++) {
        uint32_t n = 1 + rng_below(&s, 30);
        random_dag(&s, n, 5 + rng_below(&s, 60), &e);
        check_dag(&e);
    }
}
END_TEST

/* Complete DAG i -> j for all i < j: value of i is n-1-i, the largest value
 * possible for its out-degree (the mex marker is filled to the top). */
START_TEST(test_dag_complete)
{
    const uint32_t n = 600;
    uint64_t m = (uint64_t)n * (n - 1) / 2;
    uint32_t *from = malloc(m * sizeof *from), *to = malloc(m * sizeof *to);
    uint32_t *values = malloc(n * sizeof *values), cyc;
    ck_assert_ptr_nonnull(from);
    ck_assert_ptr_nonnull(to);
    ck_assert_ptr_nonnull(values);
    uint64_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = n; j-- > i + 1;) {
            from[k] = i;
            to[k] = j;
            k++;
        }
    gr_graph g;
    REQUIRE_EQ(gr_graph_build(n, from, to, (uint32_t)m, &g), GR_OK);
    gr_budget b = gr_budget_make(UINT64_MAX);
    REQUIRE_EQ(gr_graph_grundy(&g, &b, values, &cyc), GR_OK);
    for (uint32_t i = 0; i < n; i++)
        REQUIRE_EQ(values[i], n - 1 - i);
    gr_graph_free(&g);
    free(from);
    free(to);
    free(values);
}
END_TEST

/* ---- sums of tokens ---- */

/* A joint position of k tokens on n nodes, encoded in base n. */
typedef struct sum_ctx {
    const edges *e;
    uint32_t k;
    int8_t memo[MAXN * MAXN * MAXN]; /* -1 unknown, 0 loss, 1 win */
} sum_ctx;

static uint32_t pos_encode(const uint32_t *tok, uint32_t k, uint32_t n)
{
    uint32_t p = 0;
    for (uint32_t i = k; i-- > 0;)
        p = p * n + tok[i];
    return p;
}

/* Win (the player to move wins) for the joint position, by trying every
 * move of every token. */
static bool brute_win(sum_ctx *c, const uint32_t *tok)
{
    uint32_t p = pos_encode(tok, c->k, c->e->n);
    if (c->memo[p] >= 0)
        return c->memo[p] == 1;
    bool win = false;
    uint32_t t2[3];
    for (uint32_t i = 0; i < c->k && !win; i++)
        for (uint32_t x = 0; x < c->e->m && !win; x++) {
            if (c->e->from[x] != tok[i])
                continue;
            memcpy(t2, tok, sizeof t2);
            t2[i] = c->e->to[x];
            win = !brute_win(c, t2);
        }
    c->memo[p] = win ? 1 : 0;
    return win;
}

/* Replays one winning move (token i from its node to v) and checks it: a
 * legal edge, to a position that is a loss for the opponent. */
static void replay(sum_ctx *c, const uint32_t *tok, uint32_t i, uint32_t v)
{
    uint32_t t2[3];
    REQUIRE(edges_has(c->e, tok[i], v));
    memcpy(t2, tok, sizeof t2);
    t2[i] = v;
    REQUIRE(!brute_win(c, t2));
}

/* Checks one joint position: winner by XOR agrees with brute force, every
 * move to the right value is replayed, and gr_graph_move finds one. */
static void check_position(sum_ctx *c, const gr_graph *g, const uint32_t *values,
                           const uint32_t *tok)
{
    uint32_t x = 0, found = 0;
    for (uint32_t i = 0; i < c->k; i++)
        x ^= values[tok[i]];
    REQUIRE_EQ(brute_win(c, tok), x != 0);
    for (uint32_t i = 0; i < c->k; i++) {
        uint32_t u = tok[i], target = values[u] ^ x, v = UINT32_MAX;
        gr_status st = gr_graph_move(g, values, u, target, &v);
        if (x == 0)
            REQUIRE_EQ(st, GR_EINVAL); /* no successor has values[u] */
        else if (target < values[u])
            REQUIRE_EQ(st, GR_OK); /* the mex guarantees one */
        if (st != GR_OK)
            continue;
        /* Any move to value target (downward, or upward if one exists)
         * leaves XOR 0: replay the one found and every other. */
        REQUIRE_EQ(values[v], target);
        replay(c, tok, i, v);
        found++;
        for (uint32_t y = g->first[u]; y < g->first[u + 1]; y++)
            if (values[g->succ[y]] == target)
                replay(c, tok, i, g->succ[y]);
    }
    REQUIRE_EQ(found > 0, x != 0);
}

static void check_sums(const edges *e, uint32_t k)
{
    static sum_ctx c;
    gr_graph g;
    uint32_t values[MAXN], cyc, tok[3] = { 0, 0, 0 }, total = 1;
    c.e = e;
    c.k = k;
    for (uint32_t i = 0; i < k; i++)
        total *= e->n;
    memset(c.memo, -1, total);
    build_ok(e, &g);
    gr_budget b = gr_budget_make(UINT64_MAX);
    REQUIRE_EQ(gr_graph_grundy(&g, &b, values, &cyc), GR_OK);
    for (uint32_t p = 0; p < total; p++) {
        uint32_t q = p;
        for (uint32_t i = 0; i < k; i++) {
            tok[i] = q % e->n;
            q /= e->n;
        }
        check_position(&c, &g, values, tok);
    }
    gr_graph_free(&g);
}

START_TEST(test_sums)
{
    uint64_t s = 777;
    static edges e;
    for (int iter = 0; iter < 120; iter++) {
        uint32_t n = 1 + rng_below(&s, 12);
        random_dag(&s, n, 15 + rng_below(&s, 50), &e);
        for (uint32_t k = 1; k <= 3; k++)
            check_sums(&e, k);
    }
}
END_TEST

/* ---- cycles ---- */

static void expect_cycle(const edges *e, const uint32_t *allowed, uint32_t nallowed)
{
    gr_graph g;
    uint32_t values[MAXN], cyc = UINT32_MAX;
    build_ok(e, &g);
    gr_budget b = gr_budget_make(UINT64_MAX);
    REQUIRE_EQ(gr_graph_grundy(&g, &b, values, &cyc), GR_ECYCLE);
    REQUIRE(cyc < e->n);
    REQUIRE(csr_on_cycle(&g, cyc));
    bool ok = false;
    for (uint32_t i = 0; i < nallowed; i++)
        ok = ok || cyc == allowed[i];
    ck_assert_msg(ok, "cycle node %u not on the cycle", cyc);
    gr_graph_free(&g);
}

START_TEST(test_cycle_self_loop)
{
    static edges e;
    e.n = 1;
    e.m = 0;
    edges_add(&e, 0, 0);
    expect_cycle(&e, (const uint32_t[]){ 0 }, 1);
    /* 0 -> 1 -> 2 -> 2, 3 -> 1: only 2 lies on a cycle */
    e.n = 4;
    e.m = 0;
    edges_add(&e, 0, 1);
    edges_add(&e, 1, 2);
    edges_add(&e, 2, 2);
    edges_add(&e, 3, 1);
    expect_cycle(&e, (const uint32_t[]){ 2 }, 1);
}
END_TEST

START_TEST(test_cycle_two)
{
    static edges e;
    e.n = 2;
    e.m = 0;
    edges_add(&e, 0, 1);
    edges_add(&e, 1, 0);
    expect_cycle(&e, (const uint32_t[]){ 0, 1 }, 2);
    /* the 2-cycle 3 <-> 4 below a chain 0 -> 1 -> 2 -> 3, with 2 -> 5 terminal */
    e.n = 6;
    e.m = 0;
    edges_add(&e, 0, 1);
    edges_add(&e, 1, 2);
    edges_add(&e, 2, 5);
    edges_add(&e, 2, 3);
    edges_add(&e, 3, 4);
    edges_add(&e, 4, 3);
    expect_cycle(&e, (const uint32_t[]){ 3, 4 }, 2);
}
END_TEST

/* A cycle 5 -> 6 -> 7 -> 5 reached from an acyclic part: nodes 0..4 reach
 * it (lower indices than any cycle node), 8..9 hang below it, 10 is apart. */
START_TEST(test_cycle_reachable)
{
    static edges e;
    e.n = 11;
    e.m = 0;
    edges_add(&e, 0, 1);
    edges_add(&e, 0, 2);
    edges_add(&e, 1, 3);
    edges_add(&e, 2, 3);
    edges_add(&e, 3, 4);
    edges_add(&e, 4, 5);
    edges_add(&e, 5, 6);
    edges_add(&e, 6, 7);
    edges_add(&e, 7, 5);
    edges_add(&e, 6, 8);
    edges_add(&e, 8, 9);
    edges_add(&e, 3, 9);
    expect_cycle(&e, (const uint32_t[]){ 5, 6, 7 }, 3);
}
END_TEST

/* Random graphs with arbitrary edges: a cycle exactly when the twin's
 * closure has one; the reported node reaches itself; otherwise values agree. */
START_TEST(test_cycle_random)
{
    uint64_t s = 4242;
    static edges e;
    static bool reach[MAXN][MAXN];
    uint32_t cycles = 0;
    for (int iter = 0; iter < 2000; iter++) {
        e.n = 1 + rng_below(&s, 14);
        e.m = 0;
        uint32_t m = rng_below(&s, 2 * e.n);
        for (uint32_t i = 0; i < m; i++)
            edges_add(&e, rng_below(&s, e.n), rng_below(&s, e.n));
        brute_reach(&e, reach);
        if (!brute_has_cycle(&e, reach)) {
            check_dag(&e);
            continue;
        }
        cycles++;
        gr_graph g;
        uint32_t values[MAXN], cyc = UINT32_MAX;
        build_ok(&e, &g);
        gr_budget b = gr_budget_make(UINT64_MAX);
        REQUIRE_EQ(gr_graph_grundy(&g, &b, values, &cyc), GR_ECYCLE);
        REQUIRE(cyc < e.n);
        REQUIRE(reach[cyc][cyc]);
        gr_graph_free(&g);
    }
    ck_assert_uint_gt(cycles, 100);
}
END_TEST

/* ---- long chains (no recursion anywhere) ---- */

typedef struct big {
    uint32_t *from, *to, *values;
    gr_graph g;
} big;

static void big_alloc(big *x, uint32_t m)
{
    x->from = malloc((size_t)m * sizeof *x->from);
    x->to = malloc((size_t)m * sizeof *x->to);
    x->values = malloc((size_t)BIG * sizeof *x->values);
    ck_assert_ptr_nonnull(x->from);
    ck_assert_ptr_nonnull(x->to);
    ck_assert_ptr_nonnull(x->values);
}

static void big_free(big *x)
{
    gr_graph_free(&x->g);
    free(x->from);
    free(x->to);
    free(x->values);
}

/* Chain of BIG nodes, forward (i -> i+1) or backward (i+1 -> i). */
static void big_chain(big *x, bool forward)
{
    big_alloc(x, BIG);
    for (uint32_t i = 0; i + 1 < BIG; i++) {
        x->from[i] = forward ? i : i + 1;
        x->to[i] = forward ? i + 1 : i;
    }
}

START_TEST(test_long_chain)
{
    for (int dir = 0; dir < 2; dir++) {
        big x;
        uint32_t cyc = UINT32_MAX;
        big_chain(&x, dir == 0);
        REQUIRE_EQ(gr_graph_build(BIG, x.from, x.to, BIG - 1, &x.g), GR_OK);
        gr_budget b = gr_budget_make((uint64_t)BIG + BIG - 1);
        REQUIRE_EQ(gr_graph_grundy(&x.g, &b, x.values, &cyc), GR_OK);
        for (uint32_t i = 0; i < BIG; i++) {
            uint32_t dist = dir == 0 ? BIG - 1 - i : i; /* moves to the end */
            REQUIRE_EQ(x.values[i], dist % 2);
        }
        big_free(&x);
    }
}
END_TEST

/* A BIG-node chain ending in a cycle: a long cycle (last -> first), and a
 * chain into a self-loop at its last node (the only node on a cycle). */
START_TEST(test_long_cycles)
{
    big x;
    uint32_t cyc = UINT32_MAX;
    big_alloc(&x, BIG);
    for (uint32_t i = 0; i < BIG; i++) {
        x.from[i] = i;
        x.to[i] = (i + 1) % BIG;
    }
    REQUIRE_EQ(gr_graph_build(BIG, x.from, x.to, BIG, &x.g), GR_OK);
    gr_budget b = gr_budget_make(UINT64_MAX);
    REQUIRE_EQ(gr_graph_grundy(&x.g, &b, x.values, &cyc), GR_ECYCLE);
    REQUIRE(cyc < BIG);
    gr_graph_free(&x.g);

    x.to[BIG - 1] = BIG - 1;
    cyc = UINT32_MAX;
    REQUIRE_EQ(gr_graph_build(BIG, x.from, x.to, BIG, &x.g), GR_OK);
    REQUIRE_EQ(gr_graph_grundy(&x.g, &b, x.values, &cyc), GR_ECYCLE);
    REQUIRE_EQ(cyc, BIG - 1);
    big_free(&x);
}
END_TEST

/* ---- budget and arguments ---- */

START_TEST(test_budget)
{
    static edges e;
    uint64_t s = 99;
    random_dag(&s, 20, 40, &e);
    uint64_t need = (uint64_t)e.n + e.m;
    gr_graph g;
    uint32_t values[MAXN], cyc;
    build_ok(&e, &g);
    gr_budget b = gr_budget_make(0);
    REQUIRE_EQ(gr_graph_grundy(&g, &b, values, &cyc), GR_ELIMIT);
    b = gr_budget_make(1);
    REQUIRE_EQ(gr_graph_grundy(&g, &b, values, &cyc), GR_ELIMIT);
    REQUIRE_EQ(b.left, 0);
    b = gr_budget_make(need / 2);
    REQUIRE_EQ(gr_graph_grundy(&g, &b, values, &cyc), GR_ELIMIT);
    /* About nnodes + nedges steps: twice that always suffices. */
    b = gr_budget_make(2 * need);
    REQUIRE_EQ(gr_graph_grundy(&g, &b, values, &cyc), GR_OK);
    ck_assert_uint_ge(b.left, need / 2);
    ck_assert_uint_le(b.left, 2 * need - need / 2);
    gr_graph_free(&g);

    /* A long chain with a budget far too small. */
    big x;
    big_chain(&x, true);
    REQUIRE_EQ(gr_graph_build(BIG, x.from, x.to, BIG - 1, &x.g), GR_OK);
    b = gr_budget_make(1000);
    REQUIRE_EQ(gr_graph_grundy(&x.g, &b, x.values, &cyc), GR_ELIMIT);
    big_free(&x);
}
END_TEST

START_TEST(test_move_invalid)
{
    static edges e;
    e.n = 3;
    e.m = 0;
    edges_add(&e, 0, 1);
    edges_add(&e, 1, 2);
    gr_graph g;
    uint32_t values[3], cyc, v = 42;
    build_ok(&e, &g);
    gr_budget b = gr_budget_make(100);
    REQUIRE_EQ(gr_graph_grundy(&g, &b, values, &cyc), GR_OK);
    REQUIRE_EQ(gr_graph_move(&g, values, 3, 0, &v), GR_EINVAL);
    REQUIRE_EQ(gr_graph_move(&g, values, UINT32_MAX, 0, &v), GR_EINVAL);
    REQUIRE_EQ(gr_graph_move(&g, values, 0, 5, &v), GR_EINVAL);
    REQUIRE_EQ(gr_graph_move(&g, values, 2, 0, &v), GR_EINVAL);
    REQUIRE_EQ(v, 42);
    REQUIRE_EQ(gr_graph_move(&g, values, 0, 0, &v), GR_EINVAL);
    REQUIRE_EQ(v, 42);
    REQUIRE_EQ(gr_graph_move(&g, values, 0, 1, &v), GR_OK);
    REQUIRE_EQ(v, 1);
    REQUIRE_EQ(gr_graph_move(&g, values, 1, 0, &v), GR_OK);
    REQUIRE_EQ(v, 2);
    gr_graph_free(&g);
}
END_TEST

static Suite *graph_suite(void)
{
    Suite *s = suite_create("graph");
    TCase *build = tcase_create("build");
    tcase_add_test(build, test_build_small);
    tcase_add_test(build, test_build_random);
    tcase_add_test(build, test_build_invalid);
    tcase_add_test(build, test_empty_and_edgeless);
    suite_add_tcase(s, build);

    TCase *values = tcase_create("values");
    tcase_set_timeout(values, 60);
    tcase_add_test(values, test_dag_exhaustive);
    tcase_add_test(values, test_dag_random);
    tcase_add_test(values, test_dag_complete);
    tcase_add_test(values, test_sums);
    suite_add_tcase(s, values);

    TCase *cycles = tcase_create("cycles");
    tcase_set_timeout(cycles, 60);
    tcase_add_test(cycles, test_cycle_self_loop);
    tcase_add_test(cycles, test_cycle_two);
    tcase_add_test(cycles, test_cycle_reachable);
    tcase_add_test(cycles, test_cycle_random);
    suite_add_tcase(s, cycles);

    TCase *big_tc = tcase_create("big");
    tcase_set_timeout(big_tc, 60);
    tcase_add_test(big_tc, test_long_chain);
    tcase_add_test(big_tc, test_long_cycles);
    tcase_add_test(big_tc, test_budget);
    tcase_add_test(big_tc, test_move_invalid);
    suite_add_tcase(s, big_tc);
    return s;
}

int main(void)
{
    return gr_check_run(graph_suite());
}
