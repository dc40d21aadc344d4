/* SPDX-License-Identifier: MIT */
/* Divisor game: parity rule and Grundy sieve against a brute-force search,
 * every winning move replayed. */
#include <stdint.h>
#include <stdlib.h>

#include "check_main.h"
#include "grundy/divisor.h"

#define SMALL 2000
#define MEDIUM 100000

/* ---- brute force from the rules: from n, move to n - x for every x with
 * 0 < x < n and x | n (x found by trial of every candidate). ---- */

typedef struct brute_tables {
    bool win[SMALL + 1];
    unsigned g[SMALL + 1];
} brute_tables;

static brute_tables *brute_get(void)
{
    brute_tables *t = calloc(1, sizeof *t);
    ck_assert_ptr_nonnull(t);
    for (unsigned n = 1; n <= SMALL; n++) {
        bool seen[SMALL + 1] = { false };
        for (unsigned x = 1; x < n; x++) {
            if (n % x != 0)
                continue;
            seen[t->g[n - x]] = true;
            t->win[n] |= !t->win[n - x];
        }
        unsigned mex = 0;
        while (seen[mex])
            mex++;
        t->g[n] = mex;
    }
    return t;
}

/* Values up to MEDIUM, each n's divisors found by trial division up to
 * sqrt(n): a second, faster brute force for spot checks further out. */
static unsigned *medium_values(void)
{
    unsigned *g = calloc(MEDIUM + 1, sizeof *g);
    ck_assert_ptr_nonnull(g);
    for (unsigned n = 1; n <= MEDIUM; n++) {
        bool seen[256] = { false };
        for (unsigned d = 1; d * d <= n; d++) {
            if (n % d != 0)
                continue;
            if (d < n)
                seen[g[n - d]] = true;
            if (n / d < n)
                seen[g[n - n / d]] = true;
        }
        unsigned mex = 0;
        while (seen[mex])
            mex++;
        ck_assert_uint_lt(mex, 255);
        g[n] = mex;
    }
    return g;
}

static uint64_t grundy_or_fail(uint64_t n)
{
    gr_budget b = gr_budget_make(UINT64_MAX);
    uint64_t g = 999999;
    ck_assert_int_eq(gr_divisor_grundy(n, &b, &g), GR_OK);
    return g;
}

/* ---- tests ---- */

START_TEST(test_moves_exhaustive)
{
    brute_tables *t = brute_get();
    for (uint64_t n = 1; n <= SMALL; n++) {
        uint64_t take = 0;
        bool win = gr_divisor_move(n, &take);
        ck_assert_int_eq(win, t->win[n]);
        if (!win)
            continue;
        ck_assert(take > 0 && take < n && n % take == 0);
        ck_assert(!t->win[n - take]);
    }
    free(t);
}
END_TEST

START_TEST(test_grundy_exhaustive)
{
    brute_tables *t = brute_get();
    for (uint64_t n = 1; n <= SMALL; n++)
        ck_assert_msg(grundy_or_fail(n) == t->g[n], "g(%llu) brute %u", (unsigned long long)n, t->g[n]);
    free(t);
}
END_TEST

/* Grundy values are not parity, but zero exactly at odd n (the losers). */
START_TEST(test_grundy_not_parity)
{
    brute_tables *t = brute_get();
    bool above_one = false;
    for (unsigned n = 1; n <= SMALL; n++) {
        ck_assert_int_eq(t->g[n] == 0, n % 2 == 1);
        above_one |= t->g[n] > 1;
    }
    ck_assert(above_one);
    ck_assert_uint_eq(grundy_or_fail(4), 2); /* options 3 (g 0) and 2 (g 1) */
    free(t);
}
END_TEST

/* Spot checks out to 10^5, including highly divisible n. */
static const uint64_t medium_points[] = {
    2048, 2310, 5040, 30030, 45360, 55440, 65536, 83160, 99991, 99999, 100000,
};

START_TEST(test_grundy_medium)
{
    unsigned *g = medium_values();
    uint64_t n = medium_points[_i];
    ck_assert_uint_eq(grundy_or_fail(n), g[n]);
    free(g);
}
END_TEST

START_TEST(test_large_moves)
{
    const uint64_t ns[] = { 2, 3, 1000000000000000000u, 1000000000000000001u, UINT64_MAX, UINT64_MAX - 1 };
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        uint64_t take = 0;
        bool win = gr_divisor_move(ns[i], &take);
        ck_assert_int_eq(win, ns[i] % 2 == 0);
        if (win)
            ck_assert(take > 0 && take < ns[i] && ns[i] % take == 0 && (ns[i] - take) % 2 == 1);
    }
    uint64_t take = 0;
    ck_assert(!gr_divisor_move(1, &take));
    ck_assert(!gr_divisor_move(0, &take));
}
END_TEST

START_TEST(test_grundy_budget_and_domain)
{
    uint64_t g = 777;
    gr_budget b = gr_budget_make(UINT64_MAX);
    ck_assert_int_eq(gr_divisor_grundy(0, &b, &g), GR_EINVAL);
    b = gr_budget_make(0);
    ck_assert_int_eq(gr_divisor_grundy(1, &b, &g), GR_ELIMIT);
    b = gr_budget_make(1000000);
    ck_assert_int_eq(gr_divisor_grundy(10000000, &b, &g), GR_ELIMIT);
    ck_assert_uint_eq(b.left, 0);
    b = gr_budget_make(UINT64_MAX - 1);
    ck_assert_int_eq(gr_divisor_grundy(UINT64_MAX, &b, &g), GR_ELIMIT);
    ck_assert_uint_eq(g, 777);
    /* 1000 * (1 + floor(log2 1000)) + 1 = 10001 is the documented bound */
    b = gr_budget_make(10001);
    ck_assert_int_eq(gr_divisor_grundy(1000, &b, &g), GR_OK);
    b = gr_budget_make(10000);
    ck_assert_int_eq(gr_divisor_grundy(1000, &b, &g), GR_ELIMIT);
}
END_TEST

/* The divisor list against trial division for every n up to SMALL. */
START_TEST(test_list_exhaustive)
{
    for (uint64_t n = 1; n <= SMALL; n++) {
        gr_budget b = gr_budget_make(UINT64_MAX);
        uint64_t *d = NULL;
        size_t count = 0, k = 0;
        REQUIRE_EQ(gr_divisor_list(n, &b, &d, &count), GR_OK);
        for (uint64_t x = 1; x <= n; x++)
            if (n % x == 0) {
                REQUIRE(k < count);
                REQUIRE_EQ(d[k], x);
                k++;
            }
        REQUIRE_EQ(k, count);
        free(d);
    }
}
END_TEST

/* Large n: primes, a product of two primes near sqrt(2^63), prime powers
 * and the n < 2^63 with the most divisors, each checked by division. */
static const struct { uint64_t n; size_t count; } large_lists[] = {
    { 9223372036854775783u, 2 },             /* the largest prime below 2^63 */
    { 18446744073709551557u, 2 },            /* the largest prime below 2^64 */
    { 9223371873002223329u, 4 },             /* 3037000453 * 3037000493 */
    { 9223372036854775807u, 96 },            /* 2^63 - 1 = 7^2 * 73 * 127 * 337 * 92737 * 649657 */
    { 4611686018427387904u, 63 },            /* 2^62 */
    { 9200527969062830400u, 161280 },
    { 1000000000000000000u, 361 },           /* 2^18 * 5^18 */
    { 4295098369u, 3 },                      /* 65537^2 */
};

START_TEST(test_list_large)
{
    uint64_t n = large_lists[_i].n;
    gr_budget b = gr_budget_make(10000000);
    uint64_t *d = NULL;
    size_t count = 0;
    ck_assert_int_eq(gr_divisor_list(n, &b, &d, &count), GR_OK);
    ck_assert_uint_eq(count, large_lists[_i].count);
    ck_assert_uint_eq(d[0], 1);
    ck_assert_uint_eq(d[count - 1], n);
    for (size_t k = 0; k < count; k++) {
        REQUIRE(n % d[k] == 0);
        REQUIRE(k == 0 || d[k - 1] < d[k]);
        REQUIRE(d[k] * d[count - 1 - k] == n); /* divisors pair up: none missing */
    }
    free(d);
}
END_TEST

START_TEST(test_list_budget_and_domain)
{
    uint64_t *d = NULL;
    size_t count = 0;
    gr_budget b = gr_budget_make(UINT64_MAX);
    ck_assert_int_eq(gr_divisor_list(0, &b, &d, &count), GR_EINVAL);
    b = gr_budget_make(10);
    ck_assert_int_eq(gr_divisor_list(12, &b, &d, &count), GR_ELIMIT);
    b = gr_budget_make(5000);
    ck_assert_int_eq(gr_divisor_list(9223371873002223329u, &b, &d, &count), GR_ELIMIT);
    ck_assert_ptr_null(d);
}
END_TEST

static Suite *divisor_suite(void)
{
    Suite *s = suite_create("divisor");
    TCase *tc = tcase_create("brute_force");
    tcase_add_test(tc, test_moves_exhaustive);
    tcase_add_test(tc, test_grundy_exhaustive);
    tcase_add_test(tc, test_grundy_not_parity);
    tcase_add_loop_test(tc, test_grundy_medium, 0, (int)(sizeof medium_points / sizeof medium_points[0]));
    tcase_add_test(tc, test_large_moves);
    tcase_add_test(tc, test_list_exhaustive);
    tcase_add_loop_test(tc, test_list_large, 0, (int)(sizeof large_lists / sizeof large_lists[0]));
    suite_add_tcase(s, tc);
    tc = tcase_create("budget");
    tcase_add_test(tc, test_grundy_budget_and_domain);
    tcase_add_test(tc, test_list_budget_and_domain);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(divisor_suite());
}
