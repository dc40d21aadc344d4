/* SPDX-License-Identifier: MIT */
/* strange_nim: piles [x, k]; take between 1 and floor(x / k) from one pile.
 * A sum of heaps like any other, so it answers every compound through the
 * shared heap code; each pile carries its own k. */
#include <inttypes.h>
#include "grundy/alloc.h"
#include <stdio.h>
#include <stdlib.h>

#include "game.h"
#include "heap_sum.h"
#include "why.h"
#include "grundy/heapplay.h"
#include "grundy/strange.h"
#include "grundy/u128.h"

typedef struct strange_ctx {
    const uint64_t *k; /* per pile */
    gr_budget *budget;
} strange_ctx;

static gr_status strange_value(const void *ctx, size_t pile, uint64_t n, uint64_t *g)
{
    const strange_ctx *c = ctx;
    return gr_strange_value(n, c->k[pile], c->budget, g, NULL);
}

static gr_status strange_move(const void *ctx, size_t pile, uint64_t n, uint64_t target,
                              gr_heap_move *mv)
{
    const strange_ctx *c = ctx;
    uint64_t take = 0;
    gr_status s = gr_strange_move(n, c->k[pile], target, c->budget, &take);
    if (s != GR_OK)
        return s;
    *mv = gr_heap_take(n, take);
    return GR_OK;
}

/* The options of one pile for the direct remoteness search. */
static void strange_options(const void *ctx, uint64_t n, gr_heap_emit emit, void *arg)
{
    uint64_t k = *(const uint64_t *)ctx;
    for (uint64_t take = 1; take <= n / k; take++) {
        gr_heap_move mv = gr_heap_take(n, take);
        emit(arg, &mv);
    }
}

static gr_status strange_remote(const void *ctx, size_t pile, uint64_t n, gr_budget *b, uint64_t *r,
                                gr_heap_move *mv)
{
    const strange_ctx *c = ctx;
    /* The search visits every smaller pile and all its options: refuse up
     * front what the budget cannot cover, since options are not stoppable. */
    if ((gr_u128)(n / c->k[pile]) * n / 2 > b->left) {
        b->left = 0;
        return GR_ELIMIT;
    }
    gr_heap_game game = { &c->k[pile], strange_options };
    return gr_heap_remoteness(&game, n, b, r, mv);
}

static void strange_put(const void *ctx, size_t pile, uint64_t size, gr_jw_node *array)
{
    const strange_ctx *c = ctx;
    uint64_t pair[2] = { size, c->k[pile] };
    gr_jw_u64s(array, NULL, pair, 2);
}

static void strange_facts(const void *ctx, size_t pile, gr_jw_node *component)
{
    gr_jw_u64(component, "k", ((const strange_ctx *)ctx)->k[pile]);
}

static int read_pile(gr_query *q, const cJSON *item, size_t i, uint64_t *x, uint64_t *k)
{
    uint64_t xk[2];
    if (gr_q_u64_pair(q, item, "piles", i, "each pile must be a pair [x, k]: x tokens, and a move "
                      "takes 1 to floor(x / k) of them", xk))
        return -1;
    *x = xk[0];
    *k = xk[1];
    if (*k != 0)
        return 0;
    char field[48];
    snprintf(field, sizeof field, "piles[%zu][1]", i);
    return gr_fail(q->err, GR_E_OUT_OF_RANGE, field, "k must be at least 1");
}

static int read_piles(gr_query *q, uint64_t **x, uint64_t **k, size_t *n)
{
    const cJSON *arr = gr_q_get(q, "piles");
    *x = *k = NULL;
    if (!cJSON_IsArray(arr))
        return gr_fail(q->err, arr ? GR_E_INVALID_FIELD : GR_E_MISSING_FIELD, "piles",
                       "\"piles\" must be an array of pairs [x, k], such as [[10, 3], [7, 2]]");
    *n = (size_t)cJSON_GetArraySize(arr);
    if (*n > q->limits->max_items)
        return gr_fail(q->err, GR_E_TOO_MANY, "piles", "\"piles\" has %zu entries; the limit is %" PRIu64,
                       *n, q->limits->max_items);
    *x = gr_malloc((*n + 1) * sizeof **x);
    *k = gr_malloc((*n + 1) * sizeof **k);
    if (!*x || !*k)
        return gr_oom(q);
    size_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, arr) {
        if (read_pile(q, item, i, &(*x)[i], &(*k)[i]))
            return -1;
        i++;
    }
    return 0;
}

/* Piles whose formula a "strange_formula" step walks, and the terms of the
 * walk it lists. */
#define FORMULA_PILES 8
#define FORMULA_TERMS 12

/* "strange_formula": {pile, x, k, walk[] (x, then x - floor(x/k) - 1 while
 * k does not divide it; the first FORMULA_TERMS), walk_complete, ends_at,
 * grundy}: g(x) = x/k when k divides x, else g(x - floor(x/k) - 1). */
static void explain_formula(gr_query *q, size_t pile, uint64_t x, uint64_t k)
{
    gr_jw_node *step = gr_why_step(q, "strange_formula");
    if (!step)
        return;
    uint64_t walk[FORMULA_TERMS];
    size_t n = 0;
    walk[n++] = x;
    while (x % k != 0 && n < FORMULA_TERMS) {
        x = x - x / k - 1;
        walk[n++] = x;
    }
    bool done = x % k == 0;
    gr_jw_u64(step, "pile", pile);
    gr_jw_u64(step, "x", walk[0]);
    gr_jw_u64(step, "k", k);
    gr_jw_u64s(step, "walk", walk, n);
    gr_jw_bool(step, "walk_complete", done);
    gr_text t = { .len = 0 };
    for (size_t i = 0; i < n; i++)
        gr_text_add(&t, "%sg(%" PRIu64 ")", i ? " = " : "", walk[i]);
    if (done) {
        gr_jw_u64(step, "ends_at", x);
        gr_jw_u64(step, "grundy", x / k);
        gr_why_say(q, step, "Pile %zu, [%" PRIu64 ", %" PRIu64 "]: %s = %" PRIu64 " / %" PRIu64 " = %" PRIu64
                   " (each step x -> x - floor(x/k) - 1 until k divides x).", pile, walk[0], k, t.buf, x, k,
                   x / k);
    } else {
        gr_why_say(q, step, "Pile %zu, [%" PRIu64 ", %" PRIu64 "]: %s = ... (each step x -> x - floor(x/k) "
                   "- 1 until k divides x; the walk goes on in blocks of equal floor(x/k)).", pile, walk[0], k,
                   t.buf);
    }
}

/* Answers piles x[i] of move limits k[i] (k held in ctx), in memory. */
static int answer_piles(gr_query *q, const void *k, const uint64_t *x, size_t n)
{
    strange_ctx ctx = { k, &q->budget };
    gr_heap_rules rules = { .ctx = &ctx, .value = strange_value, .move = strange_move,
                            .name = "Strange nim: g(x) = x/k when k divides x, else "
                                    "g(x - floor(x/k) - 1)",
                            .remote = strange_remote, .pile_put = strange_put,
                            .pile_facts = strange_facts };
    int rc = gr_heap_sum(q, x, n, &rules);
    for (size_t i = 0; rc == 0 && i < n && i < FORMULA_PILES; i++)
        explain_formula(q, i, x[i], ctx.k[i]);
    return rc;
}

static int analyze_strange_nim(gr_query *q)
{
    uint64_t *x, *k;
    size_t n = 0;
    int rc = read_piles(q, &x, &k, &n);
    if (rc == 0)
        rc = answer_piles(q, k, x, n);
    gr_free(x);
    gr_free(k);
    return rc;
}

/* ---- listing moves: pile [x, k] takes 1 .. floor(x / k), ascending ------- */

static gr_u128 strange_count(void *ctx, size_t pile, uint64_t n)
{
    return n / ((const strange_ctx *)ctx)->k[pile];
}

static void strange_at(void *ctx, size_t pile, uint64_t n, gr_u128 k, gr_heap_move *mv)
{
    (void)ctx;
    (void)pile;
    *mv = gr_heap_take(n, (uint64_t)k + 1);
}

static int moves_strange_nim(gr_query *q, gr_move_sink *sink)
{
    uint64_t *x, *k;
    size_t n = 0;
    int rc = read_piles(q, &x, &k, &n);
    if (rc == 0) {
        strange_ctx ctx = { k, &q->budget };
        gr_heap_rules rules = { .ctx = &ctx, .pile_put = strange_put };
        gr_heap_options o = { .ctx = &ctx, .count = strange_count, .at = strange_at };
        gr_heap_solver solver = { answer_piles, k };
        rc = gr_heap_moves(q, x, n, &rules, &o, &solver, sink);
    }
    gr_free(x);
    gr_free(k);
    return rc;
}

/* ---- contract ------------------------------------------------------------ */

static const gr_field strange_fields[] = {
    { .name = "piles", .type = GR_FIELD_INTEGER_PAIRS, .required = true,
      .description = "Piles [x, k]: x tokens, and a move takes 1 to floor(x / k) of them; k is at "
                     "least 1. May be empty.",
      .count = UPTO(GR_LIMIT_MAX_ITEMS), .value = ANY_U },
};

const gr_game gr_game_strange_nim = { .name = "strange_nim",
    .summary = "Piles [x, k]: take between 1 and floor(x / k) tokens from one pile.",
    .compounds = SUMS, .analyze = analyze_strange_nim, .moves = moves_strange_nim,
    .kind = GR_KIND_IMPARTIAL, FIELDS(strange_fields),
    .example = "{\"game\":\"strange_nim\",\"piles\":[[10,3],[7,2]]}"
};
