/* SPDX-License-Identifier: MIT */
/* Fibonacci Nim: Zeckendorf rule and Grundy DP against a brute-force game
 * search, every winning move replayed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "grundy/fibonacci.h"

#define SMALL 61 /* brute force over n = 0..60 */

/* ---- brute force from the rules: take t, 1 <= t <= min(q, n); the
 * opponent may then take up to 2t. Only min(q, n) matters, so q is capped
 * at n to index the memo. ---- */

typedef struct brute_memo {
    signed char win[SMALL][SMALL];
    int g[SMALL][SMALL]; /* -1 unknown */
} brute_memo;

static uint64_t cap(uint64_t q, uint64_t n)
{
    return q < n ? q : n;
}

static bool brute_win(brute_memo *memo, uint64_t n, uint64_t q)
{
    q = cap(q, n);
    if (memo->win[n][q] >= 0)
        return memo->win[n][q] == 1;
    bool win = false;
    for (uint64_t t = 1; t <= q && !win; t++)
        win = !brute_win(memo, n - t, 2 * t);
    memo->win[n][q] = win ? 1 : 0;
    return win;
}

static int brute_grundy(brute_memo *memo, uint64_t n, uint64_t q)
{
    q = cap(q, n);
    if (memo->g[n][q] >= 0)
        return memo->g[n][q];
    bool seen[SMALL + 1] = { false };
    for (uint64_t t = 1; t <= q; t++)
        seen[brute_grundy(memo, n - t, 2 * t)] = true;
    int mex = 0;
    while (seen[mex])
        mex++;
    memo->g[n][q] = mex;
    return mex;
}

static brute_memo *brute_get(void)
{
    brute_memo *memo = malloc(sizeof *memo);
    ck_assert_ptr_nonnull(memo);
    memset(memo->win, -1, sizeof memo->win);
    memset(memo->g, -1, sizeof memo->g);
    return memo;
}

/* ---- helpers ---- */

static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Fibonacci numbers 1, 2, 3, 5, ... below 2^64, built here by addition with
 * an overflow stop (independent of the engine's table). */
static size_t fib_list(uint64_t fib[100])
{
    size_t count = 2;
    fib[0] = 1;
    fib[1] = 2;
    while (fib[count - 1] <= UINT64_MAX - fib[count - 2]) {
        fib[count] = fib[count - 1] + fib[count - 2];
        count++;
    }
    return count;
}

/* Index of v in the list, or -1. */
static int fib_index(const uint64_t *fib, size_t count, uint64_t v)
{
    for (size_t i = 0; i < count; i++) {
        if (fib[i] == v)
            return (int)i;
    }
    return -1;
}

/* The representation is valid: Fibonacci terms, largest first, no two
 * consecutive in the sequence, summing to n. */
static void check_zeckendorf(uint64_t n)
{
    uint64_t fib[100];
    size_t fcount = fib_list(fib);
    uint64_t terms[GR_ZECKENDORF_MAX_TERMS];
    size_t count = gr_zeckendorf(n, terms);
    REQUIRE(count <= GR_ZECKENDORF_MAX_TERMS);
    REQUIRE_EQ(count == 0, n == 0);
    uint64_t sum = 0;
    int prev = 1000;
    for (size_t i = 0; i < count; i++) {
        int idx = fib_index(fib, fcount, terms[i]);
        REQUIRE(idx >= 0);
        REQUIRE(idx < prev - 1); /* decreasing, non-consecutive */
        prev = idx;
        sum += terms[i];
    }
    REQUIRE(sum == n);
}

static uint64_t smallest_term(uint64_t n)
{
    uint64_t terms[GR_ZECKENDORF_MAX_TERMS];
    size_t count = gr_zeckendorf(n, terms);
    return count ? terms[count - 1] : 0;
}

/* ---- tests ---- */

START_TEST(test_zeckendorf_small_exhaustive)
{
    for (uint64_t n = 0; n <= 100000; n++)
        check_zeckendorf(n);
}
END_TEST

START_TEST(test_zeckendorf_known)
{
    uint64_t terms[GR_ZECKENDORF_MAX_TERMS];
    ck_assert_uint_eq(gr_zeckendorf(100, terms), 3);
    ck_assert_uint_eq(terms[0], 89);
    ck_assert_uint_eq(terms[1], 8);
    ck_assert_uint_eq(terms[2], 3);
    ck_assert_uint_eq(gr_zeckendorf(UINT64_MAX, terms) >= 1, 1);
    ck_assert_uint_eq(terms[0], 12200160415121876738u); /* F(93), the largest below 2^64 */
    /* F(2) + F(4) + ... + F(92): the longest representation below 2^64 */
    uint64_t fib[100], n = 0;
    size_t fcount = fib_list(fib);
    for (size_t i = 0; i < fcount; i += 2)
        n += fib[i];
    ck_assert_uint_eq(gr_zeckendorf(n, terms), GR_ZECKENDORF_MAX_TERMS);
    check_zeckendorf(n);
}
END_TEST

START_TEST(test_zeckendorf_large)
{
    uint64_t seed = 5;
    for (int round = 0; round < 20000; round++)
        check_zeckendorf(round < 100 ? UINT64_MAX - (uint64_t)round : rng_next(&seed) >> (round % 64));
}
END_TEST

START_TEST(test_moves_exhaustive)
{
    brute_memo *memo = brute_get();
    for (uint64_t n = 0; n < SMALL; n++) {
        for (uint64_t q = 0; q <= 2 * n + 3; q++) {
            uint64_t take = 999;
            bool fast = gr_fibonacci_move(n, q, &take);
            ck_assert_msg(fast == brute_win(memo, n, q), "(%llu,%llu)", (unsigned long long)n,
                          (unsigned long long)q);
            if (!fast)
                continue;
            ck_assert_uint_ge(take, 1);
            ck_assert_uint_le(take, cap(q, n));
            ck_assert(!brute_win(memo, n - take, 2 * take));
        }
    }
    free(memo);
}
END_TEST

START_TEST(test_grundy_exhaustive)
{
    brute_memo *memo = brute_get();
    for (uint64_t n = 0; n < SMALL; n++) {
        for (uint64_t q = 0; q <= n + 3; q++) {
            gr_budget b = gr_budget_make(UINT64_MAX);
            uint64_t g = 999;
            ck_assert_int_eq(gr_fibonacci_grundy(n, q, &b, &g), GR_OK);
            ck_assert_msg(g == (uint64_t)brute_grundy(memo, n, q), "g(%llu,%llu) = %llu, brute %d",
                          (unsigned long long)n, (unsigned long long)q, (unsigned long long)g,
                          brute_grundy(memo, n, q));
        }
    }
    free(memo);
}
END_TEST

/* Past brute force: g = 0 exactly where the Zeckendorf rule says the mover loses. */
START_TEST(test_grundy_zero_iff_lost)
{
    const uint64_t sizes[] = { 200, 233 };
    for (size_t i = 0; i < 2; i++) {
        uint64_t n = sizes[i];
        for (uint64_t q = 0; q <= n; q++) {
            gr_budget b = gr_budget_make(UINT64_MAX);
            uint64_t g, take;
            ck_assert_int_eq(gr_fibonacci_grundy(n, q, &b, &g), GR_OK);
            ck_assert_int_eq(g == 0, !gr_fibonacci_move(n, q, &take));
        }
    }
}
END_TEST

/* The opening (q = n - 1) is lost exactly for Fibonacci n. */
START_TEST(test_opening_lost_iff_fibonacci)
{
    uint64_t fib[100];
    size_t fcount = fib_list(fib);
    for (uint64_t n = 2; n <= 100000; n++) {
        uint64_t take;
        ck_assert_int_eq(!gr_fibonacci_move(n, n - 1, &take), fib_index(fib, fcount, n) >= 0);
    }
    for (size_t i = 1; i < fcount; i++) {
        uint64_t take;
        ck_assert(!gr_fibonacci_move(fib[i], fib[i] - 1, &take));
        if (i < 2)
            continue; /* 1 + 1 and 2 + 1 are Fibonacci themselves */
        ck_assert(gr_fibonacci_move(fib[i] + 1, fib[i], &take));
        ck_assert_uint_eq(take, 1);
    }
}
END_TEST

/* Large positions: the move is legal and the opponent is left with a
 * smallest term beyond reach (> twice the take), i.e. a loss. */
START_TEST(test_large_moves)
{
    uint64_t seed = 11;
    for (int round = 0; round < 20000; round++) {
        uint64_t n = rng_next(&seed) >> (round % 64);
        uint64_t q = rng_next(&seed) >> (rng_next(&seed) % 64);
        uint64_t take;
        bool win = gr_fibonacci_move(n, q, &take);
        ck_assert_int_eq(win, n > 0 && q > 0 && smallest_term(n) <= q);
        if (!win)
            continue;
        ck_assert_uint_ge(take, 1);
        ck_assert_uint_le(take, cap(q, n));
        uint64_t next_q = take > UINT64_MAX / 2 ? UINT64_MAX : 2 * take;
        uint64_t reply;
        ck_assert(!gr_fibonacci_move(n - take, next_q, &reply));
        ck_assert(n == take || smallest_term(n - take) > next_q);
    }
}
END_TEST

START_TEST(test_grundy_budget)
{
    uint64_t g = 777;
    gr_budget b = gr_budget_make(0);
    ck_assert_int_eq(gr_fibonacci_grundy(10, 5, &b, &g), GR_ELIMIT);
    b = gr_budget_make(1000000);
    ck_assert_int_eq(gr_fibonacci_grundy(1000000000, 5, &b, &g), GR_ELIMIT);
    ck_assert_uint_eq(b.left, 0);
    b = gr_budget_make(UINT64_MAX - 1);
    ck_assert_int_eq(gr_fibonacci_grundy(UINT64_MAX, UINT64_MAX, &b, &g), GR_ELIMIT);
    ck_assert_uint_eq(g, 777);
    b = gr_budget_make(50 * 50 + 1);
    ck_assert_int_eq(gr_fibonacci_grundy(50, 49, &b, &g), GR_OK);
    b = gr_budget_make(50 * 50);
    ck_assert_int_eq(gr_fibonacci_grundy(50, 49, &b, &g), GR_ELIMIT);
    /* no move: answered without a table */
    b = gr_budget_make(1);
    ck_assert_int_eq(gr_fibonacci_grundy(UINT64_MAX, 0, &b, &g), GR_OK);
    ck_assert_uint_eq(g, 0);
    b = gr_budget_make(1);
    ck_assert_int_eq(gr_fibonacci_grundy(0, 7, &b, &g), GR_OK);
    ck_assert_uint_eq(g, 0);
}
END_TEST

static Suite *fibonacci_suite(void)
{
    Suite *s = suite_create("fibonacci");
    TCase *tc = tcase_create("zeckendorf");
    tcase_add_test(tc, test_zeckendorf_small_exhaustive);
    tcase_add_test(tc, test_zeckendorf_known);
    tcase_add_test(tc, test_zeckendorf_large);
    suite_add_tcase(s, tc);
    tc = tcase_create("brute_force");
    tcase_add_test(tc, test_moves_exhaustive);
    tcase_add_test(tc, test_grundy_exhaustive);
    tcase_add_test(tc, test_grundy_zero_iff_lost);
    tcase_add_test(tc, test_opening_lost_iff_fibonacci);
    tcase_add_test(tc, test_large_moves);
    suite_add_tcase(s, tc);
    tc = tcase_create("budget");
    tcase_add_test(tc, test_grundy_budget);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(fibonacci_suite());
}
