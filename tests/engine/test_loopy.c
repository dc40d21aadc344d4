/* SPDX-License-Identifier: MIT */
/* Tests for games on graphs with cycles (include/grundy/loopy.h).
 *
 * The brute-force twin shares no code with the engine and works on the raw
 * edge lists: win/loss/draw of sums of 1 to 3 tokens by retrograde analysis
 * in rounds over the joint position (round r decides exactly the positions
 * whose depth is r), Smith's definition checked node by node, Steinhaus'
 * remoteness by plain recursion, and the winner's anti-cycling strategy
 * played against every reply of the opponent. */
#include "grundy/loopy.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"

#define MAXN 32u     /* twin graphs: at most this many nodes */
#define MAXE 1024u   /* ... and this many edges */
#define PN 9u        /* joint positions: at most this many nodes */
#define MAXPOS (PN * PN * PN)
#define BIG 1000000u /* long chains and cycles */
#define INF GR_LOOPY_INF
#define UNDECIDED UINT32_MAX
#define NO_POS UINT32_MAX

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

static uint32_t edges_out_degree(const edges *e, uint32_t u)
{
    uint32_t d = 0;
    for (uint32_t i = 0; i < e->m; i++)
        d += e->from[i] == u;
    return d;
}

/* A few random edges again (duplicates are legal and must not matter). */
static void add_duplicates(uint64_t *s, edges *e)
{
    uint32_t dups = e->m == 0 ? 0 : rng_below(s, 3);
    for (uint32_t k = 0; k < dups; k++) {
        uint32_t i = rng_below(s, e->m);
        edges_add(e, e->from[i], e->to[i]);
    }
}

/* Random graph on n nodes: each ordered pair an edge with probability
 * pct / 100, self-loops in about a third of the graphs. */
static void random_loopy_pct(uint64_t *s, uint32_t n, uint32_t pct, edges *e)
{
    uint32_t loop_pct = rng_below(s, 3) == 0 ? 20 : 0;
    e->n = n;
    e->m = 0;
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t v = 0; v < n; v++)
            if (rng_below(s, 100) < (u == v ? loop_pct : pct))
                edges_add(e, u, v);
    add_duplicates(s, e);
}

static void random_loopy(uint64_t *s, uint32_t n, edges *e)
{
    random_loopy_pct(s, n, 5 + rng_below(s, 50), e);
}

/* Random DAG on n nodes: edges go from lower to higher rank in a random
 * order of the nodes. */
static void random_dag(uint64_t *s, uint32_t n, edges *e)
{
    uint32_t rank[MAXN], pct = 5 + rng_below(s, 60);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = rng_below(s, i + 1);
        rank[i] = rank[j];
        rank[j] = i;
    }
    e->n = n;
    e->m = 0;
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t v = 0; v < n; v++)
            if (rank[u] < rank[v] && rng_below(s, 100) < pct)
                edges_add(e, u, v);
    add_duplicates(s, e);
}

/* ---- the engine under test ---- */

typedef struct solved {
    gr_graph g;
    gr_loopy l;
} solved;

static void solve_ok(const edges *e, solved *x)
{
    REQUIRE_EQ(gr_graph_build(e->n, e->from, e->to, e->m, &x->g), GR_OK);
    gr_budget b = gr_budget_make(UINT64_MAX);
    REQUIRE_EQ(gr_loopy_solve(&x->g, &b, &x->l), GR_OK);
}

static void solved_free(solved *x)
{
    gr_loopy_free(&x->l);
    gr_graph_free(&x->g);
}

/* ---- brute force: joint positions of k tokens ---- */

/* Tokens are ordered (a multiset appears k! times at most, which costs time
 * but keeps the encoding trivial): position = tok[0] + n * tok[1] + ... */
static uint32_t pos_encode(const uint32_t *tok, uint32_t k, uint32_t n)
{
    uint32_t p = 0;
    for (uint32_t i = k; i-- > 0;)
        p = p * n + tok[i];
    return p;
}

static void pos_decode(uint32_t p, uint32_t k, uint32_t n, uint32_t *tok)
{
    for (uint32_t i = 0; i < k; i++) {
        tok[i] = p % n;
        p /= n;
    }
}

static uint32_t pos_count(uint32_t k, uint32_t n)
{
    uint32_t total = 1;
    for (uint32_t i = 0; i < k; i++)
        total *= n;
    return total;
}

/* The position after moving token i of tok along edge x. */
static uint32_t pos_after(const edges *e, const uint32_t *tok, uint32_t k, uint32_t i,
                          uint32_t x)
{
    uint32_t t2[3];
    memcpy(t2, tok, k * sizeof *tok);
    t2[i] = e->to[x];
    return pos_encode(t2, k, e->n);
}

typedef struct product {
    const edges *e;
    uint32_t k, npos;
    bool misere;
    uint8_t result[MAXPOS]; /* GR_OUTCOME_* */
    uint32_t depth[MAXPOS]; /* the round that decided it; UNDECIDED: draw */
} product;

/* Tries to decide p in round r from the positions decided in earlier
 * rounds only: a win once a follower is a loss, a loss once every follower
 * is a win (a terminal position in round 0). */
static bool product_decide(product *pr, uint32_t p, uint32_t r)
{
    const edges *e = pr->e;
    uint32_t tok[3];
    bool all_win = true;
    pos_decode(p, pr->k, e->n, tok);
    for (uint32_t i = 0; i < pr->k; i++)
        for (uint32_t x = 0; x < e->m; x++) {
            if (e->from[x] != tok[i])
                continue;
            uint32_t q = pos_after(e, tok, pr->k, i, x);
            if (pr->depth[q] >= r) {
                all_win = false;
            } else if (pr->result[q] == GR_OUTCOME_LOSS) {
                pr->result[p] = GR_OUTCOME_WIN;
                return true;
            }
        }
    if (!all_win)
        return false;
    bool terminal = r == 0;
    pr->result[p] = terminal && pr->misere ? GR_OUTCOME_WIN : GR_OUTCOME_LOSS;
    return true;
}

static void brute_product(product *pr, const edges *e, uint32_t k, bool misere)
{
    REQUIRE(e->n <= PN);
    pr->e = e;
    pr->k = k;
    pr->misere = misere;
    pr->npos = pos_count(k, e->n);
    for (uint32_t p = 0; p < pr->npos; p++) {
        pr->result[p] = GR_OUTCOME_DRAW;
        pr->depth[p] = UNDECIDED;
    }
    bool changed = true;
    for (uint32_t r = 0; changed; r++) {
        changed = false;
        for (uint32_t p = 0; p < pr->npos; p++)
            if (pr->depth[p] == UNDECIDED && product_decide(pr, p, r)) {
                pr->depth[p] = r;
                changed = true;
            }
    }
}

/* ---- brute force: Smith's values node by node ---- */

/* s is in K(u): u has a follower with finite value s. */
static bool brute_in_k(const edges *e, const gr_loopy *l, uint32_t u, uint32_t s)
{
    for (uint32_t x = 0; x < e->m; x++)
        if (e->from[x] == u && l->value[e->to[x]] == s)
            return true;
    return false;
}

/* w has a follower with value g and a counter below c. */
static bool has_reversal(const edges *e, const gr_loopy *l, uint32_t w, uint32_t g, uint32_t c)
{
    for (uint32_t x = 0; x < e->m; x++)
        if (e->from[x] == w && l->value[e->to[x]] == g && l->counter[e->to[x]] < c)
            return true;
    return false;
}

/* Finite g: g = mex K(u), and every follower with a larger or infinite
 * value has a follower with value g and a smaller counter (which is the
 * counter property of the header and implies Smith's condition). Infinite:
 * some infinite follower has no follower with value mex K(u). */
static void check_smith_node(const edges *e, const gr_loopy *l, uint32_t u)
{
    uint32_t g = l->value[u];
    if (g != INF) {
        REQUIRE(g < e->n);
        REQUIRE(!brute_in_k(e, l, u, g));
        for (uint32_t j = 0; j < g; j++)
            REQUIRE(brute_in_k(e, l, u, j));
        for (uint32_t x = 0; x < e->m; x++)
            if (e->from[x] == u && l->value[e->to[x]] > g)
                REQUIRE(has_reversal(e, l, e->to[x], g, l->counter[u]));
        return;
    }
    uint32_t mex = 0;
    while (brute_in_k(e, l, u, mex))
        mex++;
    bool witness = false;
    for (uint32_t x = 0; x < e->m; x++)
        if (e->from[x] == u && l->value[e->to[x]] == INF && !brute_in_k(e, l, e->to[x], mex))
            witness = true;
    REQUIRE(witness);
}

/* The outcome Smith's theory predicts for the tokens tok[0 .. k). */
static uint8_t predict(const edges *e, const gr_loopy *l, const uint32_t *tok, uint32_t k)
{
    uint32_t ninf = 0, s = 0, inf_node = 0;
    for (uint32_t i = 0; i < k; i++) {
        if (l->value[tok[i]] == INF) {
            ninf++;
            inf_node = tok[i];
        } else {
            s ^= l->value[tok[i]];
        }
    }
    if (ninf == 0)
        return s != 0 ? GR_OUTCOME_WIN : GR_OUTCOME_LOSS;
    if (ninf >= 2)
        return GR_OUTCOME_DRAW;
    return brute_in_k(e, l, inf_node, s) ? GR_OUTCOME_WIN : GR_OUTCOME_DRAW;
}

static void check_sums(const edges *e, const gr_loopy *l, uint32_t k)
{
    static product pr;
    uint32_t tok[3];
    brute_product(&pr, e, k, false);
    for (uint32_t p = 0; p < pr.npos; p++) {
        pos_decode(p, k, e->n, tok);
        REQUIRE_EQ(predict(e, l, tok, k), pr.result[p]);
    }
}

/* ---- hand-made examples ---- */

static void edges_from_list(edges *e, uint32_t n, const uint32_t (*list)[2], uint32_t m)
{
    e->n = n;
    e->m = 0;
    for (uint32_t i = 0; i < m; i++)
        edges_add(e, list[i][0], list[i][1]);
}

START_TEST(test_small_examples)
{
    static edges e;
    solved x;
    /* 0 <-> 1, 0 -> 2 (terminal): 2 = 0 first, then 1 (its only move goes
     * to 0, which is hit), then 0 = 1 at the next level. */
    edges_from_list(&e, 3, (const uint32_t[][2]){ { 0, 1 }, { 1, 0 }, { 0, 2 } }, 3);
    solve_ok(&e, &x);
    REQUIRE_EQ(x.l.value[0], 1);
    REQUIRE_EQ(x.l.value[1], 0);
    REQUIRE_EQ(x.l.value[2], 0);
    REQUIRE(x.l.counter[2] < x.l.counter[1]);
    REQUIRE(x.l.counter[1] < x.l.counter[0]);
    solved_free(&x);
    /* A lone self-loop is a draw (K empty); a self-loop beside a move to a
     * terminal node wins (K = {0}); the 2-cycle 3 <-> 4 is a draw. */
    edges_from_list(&e, 5,
                    (const uint32_t[][2]){ { 0, 0 }, { 1, 1 }, { 1, 2 }, { 3, 4 }, { 4, 3 } }, 5);
    solve_ok(&e, &x);
    const uint32_t want[] = { INF, INF, 0, INF, INF };
    for (uint32_t u = 0; u < 5; u++)
        REQUIRE_EQ(x.l.value[u], want[u]);
    REQUIRE_EQ(gr_loopy_options(&x.g, &x.l, 0, NULL, 0), 0);
    REQUIRE_EQ(gr_loopy_options(&x.g, &x.l, 1, NULL, 0), 1);
    REQUIRE(gr_loopy_has_option(&x.g, &x.l, 1, 0));
    REQUIRE_EQ(gr_loopy_options(&x.g, &x.l, 3, NULL, 0), 0);
    solved_free(&x);
    /* The empty graph. */
    gr_graph g;
    gr_loopy l;
    gr_budget b = gr_budget_make(0);
    REQUIRE_EQ(gr_graph_build(0, NULL, NULL, 0, &g), GR_OK);
    REQUIRE_EQ(gr_loopy_solve(&g, &b, &l), GR_OK);
    REQUIRE_EQ(gr_graph_outcomes(&g, false, &b, NULL, NULL), GR_OK);
    gr_loopy_free(&l);
    gr_graph_free(&g);
}
END_TEST

/* ---- values against the twin ---- */

START_TEST(test_random_sums)
{
    uint64_t s = 2024;
    static edges e;
    uint32_t infinite = 0, finite = 0;
    for (int iter = 0; iter < 2000; iter++) {
        random_loopy(&s, 1 + rng_below(&s, PN), &e);
        solved x;
        solve_ok(&e, &x);
        for (uint32_t u = 0; u < e.n; u++) {
            check_smith_node(&e, &x.l, u);
            infinite += x.l.value[u] == INF;
            finite += x.l.value[u] != INF;
        }
        for (uint32_t k = 1; k <= 3; k++)
            check_sums(&e, &x.l, k);
        solved_free(&x);
    }
    ck_assert_uint_gt(infinite, 1000);
    ck_assert_uint_gt(finite, 1000);
}
END_TEST

/* Acyclic graphs: Smith's values are the ordinary Grundy values. */
START_TEST(test_acyclic_grundy)
{
    uint64_t s = 99;
    static edges e;
    for (int iter = 0; iter < 1000; iter++) {
        random_dag(&s, 1 + rng_below(&s, MAXN), &e);
        solved x;
        uint32_t values[MAXN], cyc;
        solve_ok(&e, &x);
        gr_budget b = gr_budget_make(UINT64_MAX);
        REQUIRE_EQ(gr_graph_grundy(&x.g, &b, values, &cyc), GR_OK);
        for (uint32_t u = 0; u < e.n; u++) {
            REQUIRE_EQ(x.l.value[u], values[u]);
            check_smith_node(&e, &x.l, u);
        }
        solved_free(&x);
    }
}
END_TEST

/* ---- queries on a labelling ---- */

/* gr_loopy_options, gr_loopy_has_option and gr_loopy_move at u against K(u)
 * read off the edge lists. */
static void check_queries(const edges *e, const solved *x, uint32_t u)
{
    uint32_t want[MAXN + 1], nwant = 0, got[MAXN + 2];
    for (uint32_t t = 0; t <= e->n; t++)
        if (brute_in_k(e, &x->l, u, t))
            want[nwant++] = t;
    REQUIRE_EQ(gr_loopy_options(&x->g, &x->l, u, NULL, 0), nwant);
    for (uint32_t cap = 0; cap <= nwant + 1; cap++) {
        for (uint32_t i = 0; i < MAXN + 2; i++)
            got[i] = 0xdeadbeefu;
        REQUIRE_EQ(gr_loopy_options(&x->g, &x->l, u, got, cap), nwant);
        for (uint32_t i = 0; i < cap && i < nwant; i++)
            REQUIRE_EQ(got[i], want[i]);
        for (uint32_t i = cap < nwant ? cap : nwant; i < MAXN + 2; i++)
            REQUIRE_EQ(got[i], 0xdeadbeefu);
    }
    REQUIRE(!gr_loopy_has_option(&x->g, &x->l, u, INF));
    for (uint32_t t = 0; t <= e->n; t++) {
        bool in_k = brute_in_k(e, &x->l, u, t);
        REQUIRE_EQ(gr_loopy_has_option(&x->g, &x->l, u, t), in_k);
        uint32_t least = UINT32_MAX, v = NO_POS;
        for (uint32_t i = 0; i < e->m; i++)
            if (e->from[i] == u && x->l.value[e->to[i]] == t && x->l.counter[e->to[i]] < least)
                least = x->l.counter[e->to[i]];
        gr_status st = gr_loopy_move(&x->g, &x->l, u, t, &v);
        REQUIRE_EQ(st, in_k ? GR_OK : GR_EINVAL);
        if (!in_k) {
            REQUIRE_EQ(v, NO_POS);
            continue;
        }
        REQUIRE(edges_has(e, u, v));
        REQUIRE_EQ(x->l.value[v], t);
        REQUIRE_EQ(x->l.counter[v], least);
    }
}

START_TEST(test_queries)
{
    uint64_t s = 31337;
    static edges e;
    for (int iter = 0; iter < 600; iter++) {
        /* Up to 32 nodes, dense ones too: out-degrees past 16 take the
         * engine's other way to list options. */
        random_loopy_pct(&s, 1 + rng_below(&s, MAXN), 5 + rng_below(&s, 90), &e);
        solved x;
        solve_ok(&e, &x);
        for (uint32_t u = 0; u < e.n; u++)
            check_queries(&e, &x, u);
        solved_free(&x);
    }
}
END_TEST

/* A hub with many edges (17 to 80) into a DAG, which has many finite
 * values and many repeats, beside an infinite self-loop node. */
START_TEST(test_queries_hub)
{
    uint64_t s = 4711;
    static edges e;
    for (int iter = 0; iter < 300; iter++) {
        random_dag(&s, 1 + rng_below(&s, MAXN - 2), &e);
        uint32_t hub = e.n, loop = e.n + 1, deg = 17 + rng_below(&s, 64);
        e.n += 2;
        edges_add(&e, loop, loop);
        for (uint32_t i = 0; i < deg; i++)
            edges_add(&e, hub, rng_below(&s, e.n));
        solved x;
        solve_ok(&e, &x);
        for (uint32_t u = 0; u < e.n; u++)
            check_queries(&e, &x, u);
        solved_free(&x);
    }
}
END_TEST

/* A node index past the graph has no options and no move. */
START_TEST(test_queries_outside)
{
    uint64_t s = 5;
    static edges e;
    for (int iter = 0; iter < 10; iter++) {
        random_loopy(&s, 1 + rng_below(&s, MAXN), &e);
        solved x;
        solve_ok(&e, &x);
        uint32_t v = NO_POS;
        REQUIRE_EQ(gr_loopy_options(&x.g, &x.l, e.n, NULL, 0), 0);
        REQUIRE(!gr_loopy_has_option(&x.g, &x.l, e.n, 0));
        REQUIRE_EQ(gr_loopy_move(&x.g, &x.l, e.n, 0, &v), GR_EINVAL);
        REQUIRE_EQ(v, NO_POS);
        solved_free(&x);
    }
}
END_TEST

/* ---- one token: win, loss, draw and depth ---- */

/* depth[] obeys its definition given result[]: 0 at a terminal node, a win
 * 1 + the least depth of its losing followers, a loss 1 + the greatest depth
 * of its followers (all wins); a draw has no losing follower and a drawn one. */
static void check_depth_definition(const edges *e, bool misere, const uint8_t *res,
                                   const uint32_t *depth)
{
    for (uint32_t u = 0; u < e->n; u++) {
        uint32_t least_loss = UINT32_MAX, most_win = 0, nloss = 0, ndraw = 0, nwin = 0;
        for (uint32_t x = 0; x < e->m; x++) {
            if (e->from[x] != u)
                continue;
            uint32_t v = e->to[x];
            if (res[v] == GR_OUTCOME_LOSS && depth[v] < least_loss)
                least_loss = depth[v];
            if (res[v] == GR_OUTCOME_WIN && depth[v] > most_win)
                most_win = depth[v];
            nloss += res[v] == GR_OUTCOME_LOSS;
            nwin += res[v] == GR_OUTCOME_WIN;
            ndraw += res[v] == GR_OUTCOME_DRAW;
        }
        if (nloss + nwin + ndraw == 0) {
            REQUIRE_EQ(res[u], misere ? GR_OUTCOME_WIN : GR_OUTCOME_LOSS);
            REQUIRE_EQ(depth[u], 0);
        } else if (res[u] == GR_OUTCOME_WIN) {
            REQUIRE(nloss > 0);
            REQUIRE_EQ(depth[u], least_loss + 1);
        } else if (res[u] == GR_OUTCOME_LOSS) {
            REQUIRE(nloss + ndraw == 0);
            REQUIRE_EQ(depth[u], most_win + 1);
        } else {
            REQUIRE_EQ(res[u], GR_OUTCOME_DRAW);
            REQUIRE(nloss == 0 && ndraw > 0);
        }
    }
}

/* gr_graph_outcome_move / _delay at every node: a legal move that keeps the
 * depth promise exactly when the header says there is one. */
static void check_outcome_moves(const edges *e, const gr_graph *g, const uint8_t *res,
                                const uint32_t *depth)
{
    for (uint32_t u = 0; u <= e->n; u++) {
        bool has_moves = u < e->n && edges_out_degree(e, u) > 0;
        uint32_t v = NO_POS;
        gr_status st = gr_graph_outcome_move(g, res, depth, u, &v);
        if (has_moves && res[u] == GR_OUTCOME_WIN) {
            REQUIRE_EQ(st, GR_OK);
            REQUIRE(edges_has(e, u, v));
            REQUIRE_EQ(res[v], GR_OUTCOME_LOSS);
            REQUIRE_EQ(depth[u], depth[v] + 1);
        } else {
            REQUIRE_EQ(st, GR_EINVAL);
            REQUIRE_EQ(v, NO_POS);
        }
        st = gr_graph_outcome_delay(g, res, depth, u, &v);
        if (has_moves && res[u] == GR_OUTCOME_LOSS) {
            REQUIRE_EQ(st, GR_OK);
            REQUIRE(edges_has(e, u, v));
            REQUIRE_EQ(res[v], GR_OUTCOME_WIN);
            REQUIRE_EQ(depth[u], depth[v] + 1);
        } else {
            REQUIRE_EQ(st, GR_EINVAL);
        }
    }
}

static void check_outcomes(const edges *e, bool misere)
{
    static product pr;
    gr_graph g;
    uint8_t res[MAXN + 1];
    uint32_t depth[MAXN + 1];
    REQUIRE_EQ(gr_graph_build(e->n, e->from, e->to, e->m, &g), GR_OK);
    gr_budget b = gr_budget_make((uint64_t)e->n + e->m);
    REQUIRE_EQ(gr_graph_outcomes(&g, misere, &b, res, depth), GR_OK);
    brute_product(&pr, e, 1, misere);
    for (uint32_t u = 0; u < e->n; u++) {
        REQUIRE_EQ(res[u], pr.result[u]);
        if (res[u] != GR_OUTCOME_DRAW)
            REQUIRE_EQ(depth[u], pr.depth[u]);
    }
    check_depth_definition(e, misere, res, depth);
    check_outcome_moves(e, &g, res, depth);
    gr_graph_free(&g);
}

START_TEST(test_outcomes_random)
{
    uint64_t s = 2024; /* the graphs of test_random_sums */
    static edges e;
    for (int iter = 0; iter < 2000; iter++) {
        random_loopy(&s, 1 + rng_below(&s, PN), &e);
        check_outcomes(&e, false);
        check_outcomes(&e, true);
    }
}
END_TEST

/* Steinhaus' remoteness by plain recursion (acyclic graphs only): 0 at a
 * terminal node; else 1 + the least even remoteness among the followers if
 * there is one (a win), 1 + the greatest odd one otherwise (a loss). */
static uint32_t remoteness(const edges *e, uint32_t u, uint32_t *memo)
{
    if (memo[u] != UNDECIDED)
        return memo[u];
    uint32_t least_even = UINT32_MAX, most_odd = 0;
    bool any = false;
    for (uint32_t x = 0; x < e->m; x++) {
        if (e->from[x] != u)
            continue;
        uint32_t r = remoteness(e, e->to[x], memo);
        any = true;
        if (r % 2 == 0 && r < least_even)
            least_even = r;
        if (r % 2 == 1 && r > most_odd)
            most_odd = r;
    }
    memo[u] = !any ? 0 : least_even != UINT32_MAX ? least_even + 1 : most_odd + 1;
    return memo[u];
}

START_TEST(test_outcomes_acyclic)
{
    uint64_t s = 5150;
    static edges e;
    for (int iter = 0; iter < 1000; iter++) {
        random_dag(&s, 1 + rng_below(&s, MAXN), &e);
        gr_graph g;
        uint8_t res[MAXN];
        uint32_t depth[MAXN], memo[MAXN];
        REQUIRE_EQ(gr_graph_build(e.n, e.from, e.to, e.m, &g), GR_OK);
        gr_budget b = gr_budget_make(UINT64_MAX);
        REQUIRE_EQ(gr_graph_outcomes(&g, false, &b, res, depth), GR_OK);
        for (uint32_t u = 0; u < e.n; u++)
            memo[u] = UNDECIDED;
        for (uint32_t u = 0; u < e.n; u++) {
            uint32_t r = remoteness(&e, u, memo);
            REQUIRE_EQ(depth[u], r);
            REQUIRE_EQ(res[u], r % 2 == 1 ? GR_OUTCOME_WIN : GR_OUTCOME_LOSS);
        }
        gr_graph_free(&g);
    }
}
END_TEST

/* ---- the winner's strategy, played out ---- */

/* The service's strategy: move to a position whose tokens are all finite
 * with XOR 0, the one least in (sum of values, sum of counters). Playing it
 * against every reply must end in a terminal loss for the opponent: a cycle
 * or a game longer than the cutoff fails. */
typedef struct playout {
    const edges *e;
    const gr_loopy *l;
    uint32_t k, npos, cutoff;
    uint8_t color[MAXPOS];  /* 0 unseen, 1 on the search path, 2 done */
    uint32_t plies[MAXPOS]; /* done: the longest play from here to the end */
} playout;

/* Position p is all finite with XOR 0: its (sum of values, sum of counters)
 * in *key; false otherwise. */
static bool zero_key(const playout *po, uint32_t p, uint64_t key[2])
{
    uint32_t tok[3], x = 0;
    pos_decode(p, po->k, po->e->n, tok);
    key[0] = key[1] = 0;
    for (uint32_t i = 0; i < po->k; i++) {
        uint32_t v = po->l->value[tok[i]];
        if (v == INF)
            return false;
        x ^= v;
        key[0] += v;
        key[1] += po->l->counter[tok[i]];
    }
    return x == 0;
}

/* The strategy's move from p, or NO_POS when no move reaches XOR 0. */
static uint32_t strategy_move(const playout *po, uint32_t p)
{
    const edges *e = po->e;
    uint32_t tok[3], best = NO_POS;
    uint64_t best_key[2] = { 0, 0 }, key[2];
    pos_decode(p, po->k, e->n, tok);
    for (uint32_t i = 0; i < po->k; i++)
        for (uint32_t x = 0; x < e->m; x++) {
            if (e->from[x] != tok[i])
                continue;
            uint32_t q = pos_after(e, tok, po->k, i, x);
            if (!zero_key(po, q, key))
                continue;
            if (best == NO_POS || key[0] < best_key[0] ||
                (key[0] == best_key[0] && key[1] < best_key[1])) {
                best = q;
                best_key[0] = key[0];
                best_key[1] = key[1];
            }
        }
    return best;
}

/* Exhaustive search of every play from p (the winner to move), memoised by
 * position: a position met again on the current path is a cycle the
 * opponent could force. Returns the most plies until the opponent is stuck.
 * Recursion depth is at most the number of positions (729). */
static uint32_t play_out(playout *po, uint32_t p)
{
    if (po->color[p] == 2)
        return po->plies[p];
    if (po->color[p] == 1)
        ck_abort_msg("the opponent can force a cycle through position %u", p);
    po->color[p] = 1;
    uint32_t q = strategy_move(po, p), tok[3], most = 1;
    REQUIRE(q != NO_POS);
    pos_decode(q, po->k, po->e->n, tok);
    for (uint32_t i = 0; i < po->k; i++)
        for (uint32_t x = 0; x < po->e->m; x++) {
            if (po->e->from[x] != tok[i])
                continue;
            uint32_t r = 2 + play_out(po, pos_after(po->e, tok, po->k, i, x));
            most = r > most ? r : most;
        }
    REQUIRE(most <= po->cutoff);
    po->color[p] = 2;
    po->plies[p] = most;
    return most;
}

START_TEST(test_strategy_playout)
{
    uint64_t s = 8086;
    static edges e;
    static product pr;
    static playout po;
    uint32_t wins = 0;
    for (int iter = 0; iter < 600; iter++) {
        random_loopy(&s, 1 + rng_below(&s, 7), &e);
        solved x;
        solve_ok(&e, &x);
        for (uint32_t k = 1; k <= 3; k++) {
            brute_product(&pr, &e, k, false);
            po.e = &e;
            po.l = &x.l;
            po.k = k;
            po.npos = pr.npos;
            po.cutoff = 4 * pr.npos;
            memset(po.color, 0, po.npos);
            for (uint32_t p = 0; p < pr.npos; p++)
                if (pr.result[p] == GR_OUTCOME_WIN) {
                    play_out(&po, p);
                    wins++;
                }
        }
        solved_free(&x);
    }
    ck_assert_uint_gt(wins, 10000);
}
END_TEST

/* ---- budgets and big graphs ---- */

typedef struct big {
    uint32_t *from, *to;
    gr_graph g;
} big;

static void big_make(big *x, uint32_t n, uint32_t m, uint64_t seed)
{
    x->from = malloc((size_t)(m ? m : 1) * sizeof *x->from);
    x->to = malloc((size_t)(m ? m : 1) * sizeof *x->to);
    ck_assert_ptr_nonnull(x->from);
    ck_assert_ptr_nonnull(x->to);
    for (uint32_t i = 0; i < m; i++) {
        x->from[i] = rng_below(&seed, n);
        x->to[i] = rng_below(&seed, n);
    }
}

static void big_build(big *x, uint32_t n, uint32_t m)
{
    REQUIRE_EQ(gr_graph_build(n, x->from, x->to, m, &x->g), GR_OK);
}

static void big_free(big *x)
{
    gr_graph_free(&x->g);
    free(x->from);
    free(x->to);
}

/* Solves with budget `steps`; returns the status and frees the labelling
 * (checking that an error leaves it zeroed). */
static gr_status solve_with(const gr_graph *g, uint64_t steps, uint64_t *spent)
{
    gr_budget b = gr_budget_make(steps);
    gr_loopy l;
    gr_status st = gr_loopy_solve(g, &b, &l);
    if (st != GR_OK) {
        ck_assert_ptr_null(l.value);
        ck_assert_ptr_null(l.counter);
        REQUIRE_EQ(b.left, 0);
    }
    if (spent != NULL)
        *spent = steps - b.left;
    gr_loopy_free(&l);
    return st;
}

START_TEST(test_budget)
{
    const uint32_t n = 20000, m = 200000;
    big x;
    uint64_t spent = 0;
    big_make(&x, n, m, 7);
    big_build(&x, n, m);
    REQUIRE_EQ(solve_with(&x.g, 10, NULL), GR_ELIMIT);
    REQUIRE_EQ(solve_with(&x.g, (uint64_t)n + m, NULL), GR_ELIMIT); /* no level */
    REQUIRE_EQ(solve_with(&x.g, UINT64_MAX, &spent), GR_OK);
    /* Spent before the work: the exact amount is enough, one less is not. */
    REQUIRE_EQ(solve_with(&x.g, spent, NULL), GR_OK);
    REQUIRE_EQ(solve_with(&x.g, spent - 1, NULL), GR_ELIMIT);
    /* About nodes + edges per level, at least one level. */
    REQUIRE(spent >= 2 * ((uint64_t)n + m));
    REQUIRE(spent <= 40 * ((uint64_t)n + m));

    uint8_t *res = malloc(n);
    uint32_t *depth = malloc((size_t)n * sizeof *depth);
    ck_assert_ptr_nonnull(res);
    ck_assert_ptr_nonnull(depth);
    memset(res, 0xee, n);
    gr_budget b = gr_budget_make((uint64_t)n + m - 1);
    REQUIRE_EQ(gr_graph_outcomes(&x.g, false, &b, res, depth), GR_ELIMIT);
    REQUIRE_EQ(b.left, 0);
    for (uint32_t u = 0; u < n; u++)
        REQUIRE_EQ(res[u], 0xee);
    b = gr_budget_make((uint64_t)n + m);
    REQUIRE_EQ(gr_graph_outcomes(&x.g, false, &b, res, depth), GR_OK);
    REQUIRE_EQ(b.left, 0);
    free(res);
    free(depth);
    big_free(&x);
}
END_TEST

/* The level budget follows the active set: a long cycle with a ladder of
 * ever larger values (a complete DAG) beside it pays for the cycle at every
 * level, so it runs out long before a budget of a few times the size. */
START_TEST(test_budget_levels)
{
    const uint32_t cyc = 100000, dag = 300;
    uint32_t m = cyc + dag * (dag - 1) / 2, k = 0;
    big x;
    big_make(&x, 1, m, 0);
    for (uint32_t i = 0; i < cyc; i++) {
        x.from[k] = i;
        x.to[k++] = (i + 1) % cyc;
    }
    for (uint32_t i = 0; i < dag; i++)
        for (uint32_t j = i + 1; j < dag; j++) {
            x.from[k] = cyc + i;
            x.to[k++] = cyc + j;
        }
    big_build(&x, cyc + dag, m);
    uint64_t spent = 0;
    REQUIRE_EQ(solve_with(&x.g, UINT64_MAX, &spent), GR_OK);
    REQUIRE(spent >= (uint64_t)dag * 2 * cyc); /* dag levels, each over the cycle */
    REQUIRE_EQ(solve_with(&x.g, 10 * ((uint64_t)m + cyc + dag), NULL), GR_ELIMIT);
    big_free(&x);
}
END_TEST

static void big_outcomes(const gr_graph *g, uint8_t **res, uint32_t **depth)
{
    *res = malloc(g->nnodes);
    *depth = malloc((size_t)g->nnodes * sizeof **depth);
    ck_assert_ptr_nonnull(*res);
    ck_assert_ptr_nonnull(*depth);
    gr_budget b = gr_budget_make(UINT64_MAX);
    REQUIRE_EQ(gr_graph_outcomes(g, false, &b, *res, *depth), GR_OK);
}

/* Chain 0 -> 1 -> ... -> BIG-1: values alternate from the end, the depth
 * is the distance to the end. */
START_TEST(test_long_chain)
{
    big x;
    gr_loopy l;
    uint8_t *res;
    uint32_t *depth;
    big_make(&x, 1, BIG - 1, 0);
    for (uint32_t i = 0; i + 1 < BIG; i++) {
        x.from[i] = i;
        x.to[i] = i + 1;
    }
    big_build(&x, BIG, BIG - 1);
    gr_budget b = gr_budget_make(UINT64_MAX);
    REQUIRE_EQ(gr_loopy_solve(&x.g, &b, &l), GR_OK);
    big_outcomes(&x.g, &res, &depth);
    for (uint32_t i = 0; i < BIG; i++) {
        uint32_t dist = BIG - 1 - i;
        REQUIRE_EQ(l.value[i], dist % 2);
        REQUIRE_EQ(depth[i], dist);
        REQUIRE_EQ(res[i], dist % 2 ? GR_OUTCOME_WIN : GR_OUTCOME_LOSS);
    }
    gr_loopy_free(&l);
    free(res);
    free(depth);
    big_free(&x);
}
END_TEST

/* A cycle of BIG nodes: all infinite with K empty (draws). With a move
 * from every cycle node to one terminal node added: all infinite with
 * K = {0} (wins in one move). */
START_TEST(test_long_cycle)
{
    for (int spokes = 0; spokes < 2; spokes++) {
        uint32_t n = BIG + (uint32_t)spokes, m = spokes ? 2 * BIG : BIG;
        big x;
        gr_loopy l;
        uint8_t *res;
        uint32_t *depth, k = 0;
        big_make(&x, 1, m, 0);
        for (uint32_t i = 0; i < BIG; i++) {
            x.from[k] = i;
            x.to[k++] = (i + 1) % BIG;
            if (spokes) {
                x.from[k] = i;
                x.to[k++] = BIG;
            }
        }
        big_build(&x, n, m);
        gr_budget b = gr_budget_make(UINT64_MAX);
        REQUIRE_EQ(gr_loopy_solve(&x.g, &b, &l), GR_OK);
        big_outcomes(&x.g, &res, &depth);
        for (uint32_t i = 0; i < BIG; i++) {
            REQUIRE_EQ(l.value[i], INF);
            REQUIRE_EQ(gr_loopy_has_option(&x.g, &l, i, 0), spokes);
            REQUIRE_EQ(res[i], spokes ? GR_OUTCOME_WIN : GR_OUTCOME_DRAW);
            if (spokes)
                REQUIRE_EQ(depth[i], 1);
        }
        gr_loopy_free(&l);
        free(res);
        free(depth);
        big_free(&x);
    }
}
END_TEST

static Suite *loopy_suite(void)
{
    Suite *s = suite_create("loopy");
    TCase *tc = tcase_create("values");
    tcase_add_test(tc, test_small_examples);
    tcase_add_test(tc, test_random_sums);
    tcase_add_test(tc, test_acyclic_grundy);
    tcase_add_test(tc, test_queries);
    tcase_add_test(tc, test_queries_hub);
    tcase_add_test(tc, test_queries_outside);
    suite_add_tcase(s, tc);
    tc = tcase_create("outcomes");
    tcase_add_test(tc, test_outcomes_random);
    tcase_add_test(tc, test_outcomes_acyclic);
    suite_add_tcase(s, tc);
    tc = tcase_create("strategy");
    tcase_add_test(tc, test_strategy_playout);
    suite_add_tcase(s, tc);
    tc = tcase_create("big");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_budget);
    tcase_add_test(tc, test_budget_levels);
    tcase_add_test(tc, test_long_chain);
    tcase_add_test(tc, test_long_cycle);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(loopy_suite());
}
