/* SPDX-License-Identifier: MIT */
/* Tests for Strange Nim (include/grundy/strange.h).
 *
 * Brute-force twin: g(x) by the definition (mex over removing 1 .. x/k) for
 * every x <= SMALL_X and many k; against it every value, the iteration
 * count against gr_strange_step_bound, and every move to every smaller
 * value. Far piles (x up to 10^18): the header's recurrence and the known
 * closed forms (k = 1, 2) checked through the engine itself, iteration
 * counts against the bound, and every move replayed. */
#include "grundy/strange.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "grundy/u128.h"

#define SMALL_X 3000u          /* brute-force twin: piles 0 .. SMALL_X */
#define HUGE_BUDGET UINT64_MAX /* the engine never runs out of this */
#define FAR_BUDGET 4000000u    /* random far piles: walks cut at this many steps */
#define MAX_X UINT64_C(1000000000000000000) /* 10^18 */

/* ---- deterministic pseudo-random numbers (splitmix64) ---- */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A number in [1, top], log-uniform-ish: a random bit length, then bits. */
static uint64_t rng_spread(uint64_t *s, uint64_t top)
{
    unsigned bits = 1 + (unsigned)(rng_next(s) % 60);
    uint64_t v = rng_next(s) >> (64 - bits);
    return 1 + v % top;
}

/* ---- brute-force twin ---- */

/* g(0 .. SMALL_X) for parameter k by the definition. */
static uint32_t *brute_values(uint64_t k)
{
    uint32_t *g = malloc((SMALL_X + 1) * sizeof *g);
    uint32_t *stamp = calloc(SMALL_X + 2, sizeof *stamp); /* stamp[v] == x + 1: v seen at x */
    REQUIRE(g != NULL && stamp != NULL);
    for (uint32_t x = 0; x <= SMALL_X; x++) {
        for (uint32_t take = 1; take <= x / k; take++)
            stamp[g[x - take]] = x + 1;
        uint32_t m = 0;
        while (stamp[m] == x + 1)
            m++;
        g[x] = m;
    }
    free(stamp);
    return g;
}

/* ---- the lift walk's bound (proved in strange.c, recomputed here) ---- */

static uint64_t ceil_three_eighths(uint64_t z)
{
    return (uint64_t)(((gr_u128)z * 3 + 7) / 8);
}

/* Iterations of the move's lift walk from x (k >= 2, x >= 1):
 * min(floor((x - 1)/(k - 1)) + 1, (k - 1) + k * h'), h' >= 1 the number of
 * times z -> ceil(3z/8) takes x - 1 to at most (k - 1)^2. */
static uint64_t lift_bound(uint64_t x, uint64_t k)
{
    uint64_t by_ranges = (x - 1) / (k - 1) + 1;
    gr_u128 square = (gr_u128)(k - 1) * (k - 1);
    uint64_t h = 1;
    for (uint64_t z = ceil_three_eighths(x - 1); z > square; z = ceil_three_eighths(z))
        h++;
    gr_u128 by_growth = (gr_u128)(k - 1) + (gr_u128)k * h;
    return by_growth < by_ranges ? (uint64_t)by_growth : by_ranges;
}

/* ---- engine calls that must succeed ---- */

static uint64_t value_ok(uint64_t x, uint64_t k, uint64_t *steps)
{
    gr_budget b = gr_budget_make(HUGE_BUDGET);
    uint64_t g = 0, n = 0;
    REQUIRE_EQ(gr_strange_value(x, k, &b, &g, &n), GR_OK);
    REQUIRE_EQ(HUGE_BUDGET - b.left, n); /* one budget step per iteration */
    if (n > gr_strange_step_bound(x, k))
        ck_abort_msg("x %llu k %llu: %llu iterations, bound %llu", (unsigned long long)x,
                     (unsigned long long)k, (unsigned long long)n,
                     (unsigned long long)gr_strange_step_bound(x, k));
    if (steps != NULL)
        *steps = n;
    return g;
}

/* The move to target: within the rules, and its cost within the value walk
 * plus the lift bound. Returns the pile left. */
static uint64_t move_ok(uint64_t x, uint64_t k, uint64_t target, uint64_t value_steps)
{
    gr_budget b = gr_budget_make(HUGE_BUDGET);
    uint64_t take = 0;
    REQUIRE_EQ(gr_strange_move(x, k, target, &b, &take), GR_OK);
    REQUIRE(take >= 1 && take <= x / k);
    uint64_t spent = HUGE_BUDGET - b.left;
    uint64_t allowed = value_steps + (k >= 2 ? lift_bound(x, k) : 0);
    if (spent > allowed)
        ck_abort_msg("move x %llu k %llu t %llu: spent %llu > %llu", (unsigned long long)x,
                     (unsigned long long)k, (unsigned long long)target,
                     (unsigned long long)spent, (unsigned long long)allowed);
    return x - take;
}

/* ---- exhaustive twin ---- */

static void check_small_k(uint64_t k)
{
    uint32_t *g = brute_values(k);
    for (uint32_t x = 0; x <= SMALL_X; x++) {
        uint64_t steps;
        uint64_t v = value_ok(x, k, &steps);
        if (v != g[x])
            ck_abort_msg("x %u k %llu: engine %llu, brute %u", x, (unsigned long long)k,
                         (unsigned long long)v, g[x]);
        for (uint32_t t = 0; t < g[x]; t++) {
            uint64_t y = move_ok(x, k, t, steps);
            REQUIRE_EQ(g[y], t);
        }
        uint64_t take = 77;
        gr_budget b = gr_budget_make(HUGE_BUDGET);
        REQUIRE_EQ(gr_strange_move(x, k, g[x], &b, &take), GR_EINVAL);
        REQUIRE_EQ(take, 77);
    }
    free(g);
}

START_TEST(test_brute_small_k)
{
    check_small_k((uint64_t)_i);
}
END_TEST

START_TEST(test_brute_large_k)
{
    static const uint64_t ks[] = { 41, 50, 64, 99, 100, 255, 256, 1000, 2999, 3000, 3001, 100000 };
    check_small_k(ks[_i]);
}
END_TEST

/* ---- closed forms and the recurrence, far out ---- */

START_TEST(test_nim_and_halving)
{
    uint64_t rng = 0x57a9e001u;
    for (int i = 0; i < 20000; i++) {
        uint64_t x = rng_spread(&rng, MAX_X);
        REQUIRE_EQ(value_ok(x, 1, NULL), x); /* k = 1 is Nim */
        uint64_t m = x / 2;
        REQUIRE_EQ(value_ok(2 * m, 2, NULL), m);
        REQUIRE_EQ(value_ok(2 * m + 1, 2, NULL), value_ok(m, 2, NULL));
    }
}
END_TEST

/* g(x) = x/k on multiples, else g(x - floor(x/k) - 1), for random far
 * piles whose walk is cheap enough. */
START_TEST(test_recurrence_far)
{
    uint64_t rng = 0x57a9e002u;
    int checked = 0;
    while (checked < 3000) {
        uint64_t x = rng_spread(&rng, MAX_X), k = rng_spread(&rng, x);
        if (gr_strange_step_bound(x, k) > 200000)
            continue;
        uint64_t q = x / k;
        uint64_t expect = x % k == 0 ? q : value_ok(x - q - 1, k, NULL);
        REQUIRE_EQ(value_ok(x, k, NULL), expect);
        checked++;
    }
}
END_TEST

/* ---- the step bound, far out ---- */

/* Random far piles: the measured iterations are within the bound; a walk
 * cut by the budget has already run more iterations than the budget, so
 * the bound must exceed the budget. Every finished walk's moves replayed. */
START_TEST(test_far_bound_and_moves)
{
    uint64_t rng = 0x57a9e003u + (uint64_t)_i;
    for (int i = 0; i < 400; i++) {
        uint64_t x = rng_spread(&rng, MAX_X), k = rng_spread(&rng, x);
        gr_budget b = gr_budget_make(FAR_BUDGET);
        uint64_t g = 0, steps = 0;
        gr_status st = gr_strange_value(x, k, &b, &g, &steps);
        if (st == GR_ELIMIT) {
            REQUIRE_EQ(steps, FAR_BUDGET);
            REQUIRE(gr_strange_step_bound(x, k) > FAR_BUDGET);
            continue;
        }
        REQUIRE_EQ(st, GR_OK);
        REQUIRE(steps <= gr_strange_step_bound(x, k));
        REQUIRE(g <= x / k);
        if (g == 0 || (k >= 2 && lift_bound(x, k) > FAR_BUDGET))
            continue;
        uint64_t targets[3] = { 0, g - 1, rng_next(&rng) % g };
        for (int j = 0; j < 3; j++) {
            uint64_t y = move_ok(x, k, targets[j], steps);
            REQUIRE_EQ(value_ok(y, k, NULL), targets[j]);
        }
    }
}
END_TEST

/* Named heavy cases (x near 10^18): the bound holds and moves replay. */
START_TEST(test_named_cases)
{
    static const uint64_t cases[][2] = {
        { MAX_X, 3 },
        { MAX_X - 1, 3 },
        { MAX_X - 1, 1000003 },
        { MAX_X - 7, 1000000 },
        { MAX_X - 1, UINT64_C(100000000000000003) },
        { MAX_X - 3, UINT64_C(100000000000000000) },
        { UINT64_C(10000000000000000) - 1, 100000007 }, /* ~10^8 narrow blocks */
        { UINT64_MAX, 1 },
        { UINT64_MAX, 2 },
        { UINT64_MAX, UINT64_MAX },
        { UINT64_MAX - 1, UINT64_MAX },
        { UINT64_MAX, UINT64_C(4294967295) },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t x = cases[i][0], k = cases[i][1], steps;
        uint64_t g = value_ok(x, k, &steps);
        if (g == 0)
            continue;
        uint64_t y = move_ok(x, k, g - 1, steps);
        REQUIRE_EQ(value_ok(y, k, NULL), g - 1);
        if (k >= 2 && lift_bound(x, k) > 100000000)
            continue;
        y = move_ok(x, k, 0, steps);
        REQUIRE_EQ(value_ok(y, k, NULL), 0);
    }
}
END_TEST

/* ---- budget and invalid input ---- */

START_TEST(test_budget)
{
    uint64_t x = MAX_X - 9, k = 1000, steps; /* 5993 iterations */
    uint64_t g = value_ok(x, k, &steps);
    REQUIRE(steps > 10);
    gr_budget b = gr_budget_make(steps);
    uint64_t v = 0, n = 0;
    REQUIRE_EQ(gr_strange_value(x, k, &b, &v, &n), GR_OK);
    REQUIRE_EQ(v, g);
    REQUIRE_EQ(b.left, 0);
    b = gr_budget_make(steps - 1);
    v = 12345;
    REQUIRE_EQ(gr_strange_value(x, k, &b, &v, &n), GR_ELIMIT);
    REQUIRE_EQ(v, 12345); /* untouched */
    REQUIRE_EQ(n, steps - 1);
    REQUIRE_EQ(b.left, 0);
    b = gr_budget_make(0);
    REQUIRE_EQ(gr_strange_value(0, 5, &b, &v, NULL), GR_ELIMIT);

    /* The move: exactly its spend is enough, one less is not. */
    REQUIRE(g > 0);
    b = gr_budget_make(HUGE_BUDGET);
    uint64_t take = 0;
    REQUIRE_EQ(gr_strange_move(x, k, 0, &b, &take), GR_OK);
    uint64_t spent = HUGE_BUDGET - b.left;
    REQUIRE(spent > steps);
    uint64_t again = 0;
    b = gr_budget_make(spent);
    REQUIRE_EQ(gr_strange_move(x, k, 0, &b, &again), GR_OK);
    REQUIRE_EQ(again, take);
    b = gr_budget_make(spent - 1);
    again = 99;
    REQUIRE_EQ(gr_strange_move(x, k, 0, &b, &again), GR_ELIMIT);
    REQUIRE_EQ(again, 99);
    b = gr_budget_make(steps - 1);
    REQUIRE_EQ(gr_strange_move(x, k, 0, &b, &again), GR_ELIMIT);
}
END_TEST

START_TEST(test_invalid)
{
    gr_budget b = gr_budget_make(HUGE_BUDGET);
    uint64_t v = 5, take = 5;
    REQUIRE_EQ(gr_strange_value(10, 0, &b, &v, NULL), GR_EINVAL);
    REQUIRE_EQ(gr_strange_value(10, 2, NULL, &v, NULL), GR_EINVAL);
    REQUIRE_EQ(gr_strange_value(10, 2, &b, NULL, NULL), GR_EINVAL);
    REQUIRE_EQ(gr_strange_move(10, 0, 0, &b, &take), GR_EINVAL);
    REQUIRE_EQ(gr_strange_move(3, 4, 0, &b, &take), GR_EINVAL); /* x < k: no move */
    REQUIRE_EQ(gr_strange_move(0, 1, 0, &b, &take), GR_EINVAL);
    REQUIRE_EQ(gr_strange_move(10, 2, 5, &b, &take), GR_EINVAL); /* g(10) = 5 */
    REQUIRE_EQ(gr_strange_move(10, 2, 0, &b, NULL), GR_EINVAL);
    REQUIRE_EQ(v, 5);
    REQUIRE_EQ(take, 5);
    REQUIRE_EQ(gr_strange_step_bound(10, 0), 0);
    REQUIRE_EQ(gr_strange_step_bound(0, 1), 1);
    uint64_t nim_bound = gr_strange_step_bound(UINT64_MAX, 1); /* k * h + k, h ~ log_{8/3} x */
    REQUIRE(nim_bound >= 1 && nim_bound <= 64);
}
END_TEST

static Suite *strange_suite(void)
{
    Suite *suite = suite_create("strange");
    TCase *brute = tcase_create("brute");
    tcase_set_timeout(brute, 120);
    tcase_add_loop_test(brute, test_brute_small_k, 1, 41);
    tcase_add_loop_test(brute, test_brute_large_k, 0, 12);
    suite_add_tcase(suite, brute);

    TCase *far = tcase_create("far");
    tcase_set_timeout(far, 120);
    tcase_add_test(far, test_nim_and_halving);
    tcase_add_test(far, test_recurrence_far);
    tcase_add_loop_test(far, test_far_bound_and_moves, 0, 4);
    tcase_add_test(far, test_named_cases);
    tcase_add_test(far, test_budget);
    tcase_add_test(far, test_invalid);
    suite_add_tcase(suite, far);
    return suite;
}

int main(void)
{
    return gr_check_run(strange_suite());
}
