/* SPDX-License-Identifier: MIT */
/* Tests for the score games (include/grundy/score.h).
 *
 * Brute-force twins: each game is solved by plain recursion over its
 * positions, written here with no memo and no DP cleverness, on every small
 * input; the engine's value and best move must match. Every best move is
 * also replayed through the engine: the value of the position it leaves,
 * seen from the opponent, combines with what was taken to the reported
 * value. Exact 128-bit arithmetic is checked on rows whose totals pass 2^64
 * (closed forms and scaling: value(c * a) = c * value(a) for c > 0). */
#include "grundy/score.h"
#include "grundy/u128.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_main.h"

#define REQUIRE_I128_EQ(a, b)                                               \
    do {                                                                    \
        gr_i128 a_ = (a), b_ = (b);                                         \
        if (a_ != b_)                                                       \
            ck_abort_msg("failed: %s == %s (%s != %s)", #a, #b,             \
                         i128_text(a_).s, i128_text(b_).s);                 \
    } while (0)

#define BIG_BUDGET UINT64_MAX

typedef struct i128_buf {
    char s[48];
} i128_buf;

/* Decimal text of v (for failure messages). */
static i128_buf i128_text(gr_i128 v)
{
    i128_buf out;
    char tmp[48];
    size_t len = 0;
    bool neg = v < 0;
    gr_u128 u = neg ? -(gr_u128)v : (gr_u128)v;
    do {
        tmp[len++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u != 0);
    size_t k = 0;
    if (neg)
        out.s[k++] = '-';
    while (len > 0)
        out.s[k++] = tmp[--len];
    out.s[k] = '\0';
    return out;
}

/* Advances the odometer a[0 .. n) over [lo, hi]^n; false after the last. */
static bool next_array(int64_t *a, size_t n, int64_t lo, int64_t hi)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i] < hi) {
            a[i]++;
            return true;
        }
        a[i] = lo;
    }
    return false;
}

static void fill(int64_t *a, size_t n, int64_t v)
{
    for (size_t i = 0; i < n; i++)
        a[i] = v;
}

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* ---- engine wrappers that must succeed ---- */

static gr_i128 row_value(const int64_t *a, size_t n, gr_row_end *best)
{
    gr_budget b = gr_budget_make(BIG_BUDGET);
    gr_i128 v;
    gr_row_end e;
    REQUIRE_EQ(gr_stone_row(a, n, &b, &v, &e), GR_OK);
    if (best != NULL)
        *best = e;
    return v;
}

static gr_i128 prefix_value(const int64_t *a, size_t n, uint64_t m, uint64_t *take)
{
    gr_budget b = gr_budget_make(BIG_BUDGET);
    gr_i128 v;
    uint64_t x;
    REQUIRE_EQ(gr_stone_prefix(a, n, m, &b, &v, &x), GR_OK);
    if (take != NULL)
        *take = x;
    return v;
}

static gr_i128 front3_value(const int64_t *a, size_t n, unsigned *take)
{
    gr_budget b = gr_budget_make(BIG_BUDGET);
    gr_i128 v;
    unsigned k;
    REQUIRE_EQ(gr_stone_front3(a, n, &b, &v, &k), GR_OK);
    if (take != NULL)
        *take = k;
    return v;
}

/* ---- brute-force twins ---- */

/* Stone row on a[lo .. hi): best difference for the mover. */
static gr_i128 naive_row(const int64_t *a, size_t lo, size_t hi)
{
    if (lo == hi)
        return 0;
    gr_i128 first = a[lo] - naive_row(a, lo + 1, hi);
    gr_i128 last = a[hi - 1] - naive_row(a, lo, hi - 1);
    return first >= last ? first : last;
}

static gr_i128 sum_from(const int64_t *a, size_t i, size_t n)
{
    gr_i128 s = 0;
    for (; i < n; i++)
        s += a[i];
    return s;
}

/* Stone prefix: stones the mover collects from a[i .. n) at parameter m;
 * *take gets the smallest best x when non-NULL. */
static gr_i128 naive_prefix(const int64_t *a, size_t n, size_t i, uint64_t m, uint64_t *take)
{
    gr_i128 best = 0;
    uint64_t best_x = 0;
    gr_i128 taken = 0;
    for (uint64_t x = 1; x <= 2 * m && i + x <= n; x++) {
        taken += a[i + x - 1];
        uint64_t m2 = x > m ? x : m;
        gr_i128 v = taken + (sum_from(a, i + x, n) - naive_prefix(a, n, i + x, m2, NULL));
        if (best_x == 0 || v > best) {
            best = v;
            best_x = x;
        }
    }
    if (take != NULL)
        *take = best_x;
    return best;
}

/* Stone front-3: best difference on a[i .. n); *take the fewest best count. */
static gr_i128 naive_front3(const int64_t *a, size_t n, size_t i, unsigned *take)
{
    gr_i128 best = 0, taken = 0;
    unsigned best_k = 0;
    for (unsigned k = 1; k <= 3 && i + k <= n; k++) {
        taken += a[i + k - 1];
        gr_i128 v = taken - naive_front3(a, n, i + k, NULL);
        if (best_k == 0 || v > best) {
            best = v;
            best_k = k;
        }
    }
    if (take != NULL)
        *take = best_k;
    return best;
}

/* Can I Win by the rules alone: the game ends when the total reaches the
 * target (the mover who did it won) or when no number is left (a draw). */
static int naive_ciw(unsigned max, uint32_t used, int64_t total, int64_t target, unsigned *pick)
{
    int best = -2;
    unsigned best_k = 0;
    if (total >= target) {
        best = -1; /* the previous mover reached the target */
    } else {
        for (unsigned k = 1; k <= max; k++) {
            if (used & (1u << (k - 1)))
                continue;
            int v = total + (int64_t)k >= target
                        ? 1
                        : -naive_ciw(max, used | (1u << (k - 1)), total + (int64_t)k, target, NULL);
            if (v > best) {
                best = v;
                best_k = k;
            }
        }
        if (best_k == 0)
            best = 0; /* nothing left, target not reached */
    }
    if (pick != NULL)
        *pick = best_k;
    return best;
}

static int64_t mask_sum(uint32_t used)
{
    int64_t s = 0;
    for (unsigned k = 1; k <= 32; k++)
        if (used & (UINT32_C(1) << (k - 1)))
            s += k;
    return s;
}

/* ---- stone row ---- */

/* Engine vs twin on a, and the best move replayed. */
static void check_row(const int64_t *a, size_t n)
{
    gr_row_end e;
    gr_i128 v = row_value(a, n, &e);
    REQUIRE_I128_EQ(v, naive_row(a, 0, n));
    if (n == 0) {
        REQUIRE_EQ(e, GR_ROW_NONE);
        return;
    }
    REQUIRE(e == GR_ROW_FIRST || e == GR_ROW_LAST);
    gr_i128 via_first = a[0] - row_value(a + 1, n - 1, NULL);
    gr_i128 via_last = a[n - 1] - row_value(a, n - 1, NULL);
    REQUIRE_I128_EQ(e == GR_ROW_FIRST ? via_first : via_last, v);
    if (e == GR_ROW_LAST)
        REQUIRE(via_first < v); /* ties prefer the first pile */
    else
        REQUIRE(via_last <= v);
}

START_TEST(test_row_exhaustive)
{
    size_t n = (size_t)_i; /* lengths 0 .. 7, values 0 .. 4 */
    int64_t a[8] = { 0 };
    fill(a, n, 0);
    do
        check_row(a, n);
    while (next_array(a, n, 0, 4));
}
END_TEST

START_TEST(test_row_known)
{
    int64_t a[] = { 5, 3, 4, 5 }; /* LeetCode 877: the mover wins */
    gr_row_end e;
    REQUIRE_I128_EQ(row_value(a, 4, &e), 1);
    REQUIRE_EQ(e, GR_ROW_FIRST);
    int64_t b[] = { 1, 5, 233, 7 }; /* LeetCode 486: 1 + 233 vs 5 + 7 */
    REQUIRE_I128_EQ(row_value(b, 4, &e), 222);
    REQUIRE_EQ(e, GR_ROW_FIRST);
    int64_t c[] = { 1, 5, 2 };
    REQUIRE_I128_EQ(row_value(c, 3, &e), -2);
    int64_t d[] = { 0, 7 };
    REQUIRE_I128_EQ(row_value(d, 2, &e), 7);
    REQUIRE_EQ(e, GR_ROW_LAST);
    int64_t one[] = { 9 };
    REQUIRE_I128_EQ(row_value(one, 1, &e), 9);
    REQUIRE_EQ(e, GR_ROW_FIRST);
}
END_TEST

/* 5000 and 5001 piles of 2^62 (constant row: the mover's surplus is one pile
 * when n is odd), and 5000 alternating 2^62, 0 (the mover can take every
 * 2^62: value 2500 * 2^62, past 2^64). Also times n = 5000. */
START_TEST(test_row_big_exact)
{
    const size_t n = 5001;
    const int64_t c = INT64_C(1) << 62;
    int64_t *a = malloc(n * sizeof *a);
    REQUIRE(a != NULL);
    fill(a, n, c);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    gr_row_end e;
    REQUIRE_I128_EQ(row_value(a, 5000, &e), 0);
    double secs = seconds_since(&t0);
    REQUIRE_EQ(e, GR_ROW_FIRST);
    REQUIRE_I128_EQ(row_value(a, 5001, &e), c);
    for (size_t i = 0; i < 5000; i++)
        a[i] = i % 2 == 0 ? c : 0;
    REQUIRE_I128_EQ(row_value(a, 5000, &e), (gr_i128)2500 * c);
    REQUIRE_EQ(e, GR_ROW_FIRST);
    fill(a, n, INT64_MAX);
    REQUIRE_I128_EQ(row_value(a, 5001, &e), INT64_MAX);
    free(a);
    fprintf(stderr, "# stone_row n=5000: %.3f s\n", secs);
    REQUIRE(secs < 5.0);
}
END_TEST

/* ---- stone prefix ---- */

static void check_prefix(const int64_t *a, size_t n, uint64_t m)
{
    uint64_t x, want_x;
    gr_i128 v = prefix_value(a, n, m, &x);
    REQUIRE_I128_EQ(v, naive_prefix(a, n, 0, m, &want_x));
    REQUIRE_EQ(x, want_x);
    if (n == 0) {
        REQUIRE_EQ(x, 0);
        return;
    }
    REQUIRE(x >= 1 && x <= 2 * m && x <= n);
    uint64_t m2 = x > m ? x : m;
    gr_i128 rest = sum_from(a, x, n);
    gr_i128 replay = sum_from(a, 0, x) + (rest - prefix_value(a + x, n - x, m2, NULL));
    REQUIRE_I128_EQ(replay, v);
}

START_TEST(test_prefix_exhaustive)
{
    size_t n = (size_t)_i; /* lengths 0 .. 7, values 0 .. 3, m in {1, 2, 3} */
    int64_t a[8] = { 0 };
    fill(a, n, 0);
    do
        for (uint64_t m = 1; m <= 3; m++)
            check_prefix(a, n, m);
    while (next_array(a, n, 0, 3));
}
END_TEST

START_TEST(test_prefix_known)
{
    int64_t a[] = { 2, 7, 9, 4, 4 }; /* LeetCode 1140 */
    uint64_t x;
    REQUIRE_I128_EQ(prefix_value(a, 5, 1, &x), 10);
    int64_t b[] = { 1, 2, 3, 4, 5, 100 };
    REQUIRE_I128_EQ(prefix_value(b, 6, 1, &x), 104);
    /* A huge m acts like m = n: take everything (smallest x reaching it). */
    REQUIRE_I128_EQ(prefix_value(a, 5, UINT64_MAX, &x), 26);
    REQUIRE_EQ(x, 5);
    int64_t z[] = { 5, 0, 0 };
    REQUIRE_I128_EQ(prefix_value(z, 3, 2, &x), 5);
    REQUIRE_EQ(x, 1);
}
END_TEST

/* Random rows up to 12 piles against the twin (beyond the exhaustive
 * lengths, where the table has several rows of states). */
START_TEST(test_prefix_random)
{
    uint64_t rng = 0x51DE0001u;
    int64_t a[12];
    for (int round = 0; round < 400; round++) {
        size_t n = 8 + (size_t)(rng_next(&rng) % 5);
        for (size_t i = 0; i < n; i++)
            a[i] = (int64_t)(rng_next(&rng) % 20);
        check_prefix(a, n, 1 + rng_next(&rng) % 3);
    }
}
END_TEST

/* Scaling past 64 bits, and the n = 1000 / 2048 timings. */
START_TEST(test_prefix_big)
{
    const size_t n = GR_STONE_PREFIX_MAX_N;
    int64_t *a = malloc(n * sizeof *a);
    int64_t *c = malloc(n * sizeof *c);
    REQUIRE(a != NULL && c != NULL);
    uint64_t rng = 0xB16u;
    for (size_t i = 0; i < n; i++) {
        a[i] = (int64_t)(1 + rng_next(&rng) % 3);
        c[i] = a[i] * (INT64_MAX / 3);
    }
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t x1, x2;
    gr_i128 v1 = prefix_value(a, 1000, 1, &x1);
    double secs1000 = seconds_since(&t0);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    gr_i128 v2 = prefix_value(c, n, 1, &x2);
    double secs_max = seconds_since(&t0);
    gr_i128 v3 = prefix_value(a, n, 1, &x1);
    REQUIRE_I128_EQ(v2, v3 * (INT64_MAX / 3));
    REQUIRE_EQ(x1, x2);
    REQUIRE(v1 > 0 && v3 > v1);
    free(a);
    free(c);
    fprintf(stderr, "# stone_prefix n=1000: %.3f s, n=%zu: %.3f s\n", secs1000, n, secs_max);
}
END_TEST

/* ---- stone front-3 ---- */

static void check_front3(const int64_t *a, size_t n)
{
    unsigned k, want_k;
    gr_i128 v = front3_value(a, n, &k);
    REQUIRE_I128_EQ(v, naive_front3(a, n, 0, &want_k));
    REQUIRE_EQ(k, want_k);
    if (n == 0) {
        REQUIRE_EQ(k, 0);
        return;
    }
    REQUIRE(k >= 1 && k <= 3 && k <= n);
    gr_i128 replay = sum_from(a, 0, k) - front3_value(a + k, n - k, NULL);
    REQUIRE_I128_EQ(replay, v);
}

START_TEST(test_front3_exhaustive)
{
    size_t n = (size_t)_i; /* lengths 0 .. 8, values -3 .. 3 */
    int64_t a[8] = { 0 };
    fill(a, n, -3);
    do
        check_front3(a, n);
    while (next_array(a, n, -3, 3));
}
END_TEST

START_TEST(test_front3_known)
{
    unsigned k;
    int64_t a[] = { 1, 2, 3, 7 }; /* LeetCode 1406: Bob wins */
    REQUIRE_I128_EQ(front3_value(a, 4, &k), -1);
    int64_t b[] = { 1, 2, 3, -9 }; /* Alice wins: 6, and Bob must take -9 */
    REQUIRE_I128_EQ(front3_value(b, 4, &k), 15);
    REQUIRE_EQ(k, 3);
    int64_t c[] = { 1, 2, 3, 6 }; /* tie */
    REQUIRE_I128_EQ(front3_value(c, 4, &k), 0);
    int64_t d[] = { -1, -2, -3 };
    REQUIRE_I128_EQ(front3_value(d, 3, &k), 0); /* take -1 -2, leave -3 */
    REQUIRE_EQ(k, 2);
}
END_TEST

/* Values of magnitude INT64_MAX and sums far past 2^64: scaling by
 * c = INT64_MAX / 3 of random rows in -3 .. 3 and by INT64_MAX of a row of
 * ones; and a long row of -INT64_MAX (closed form: the players alternate
 * single piles, so the value is 0 or -INT64_MAX by parity). */
START_TEST(test_front3_big)
{
    const size_t n = 100000;
    const int64_t c = INT64_MAX / 3;
    int64_t *a = malloc(n * sizeof *a), *s = malloc(n * sizeof *s);
    REQUIRE(a != NULL && s != NULL);
    uint64_t rng = 0xF3u;
    for (size_t i = 0; i < n; i++) {
        a[i] = (int64_t)(rng_next(&rng) % 7) - 3;
        s[i] = a[i] * c;
    }
    unsigned k1, k2;
    gr_i128 v1 = front3_value(a, n, &k1), v2 = front3_value(s, n, &k2);
    REQUIRE_I128_EQ(v2, v1 * c);
    REQUIRE_EQ(k1, k2);
    fill(a, n, 1);
    gr_i128 ones = front3_value(a, n, &k1);
    fill(a, n, INT64_MAX);
    REQUIRE_I128_EQ(front3_value(a, n, &k2), ones * INT64_MAX);
    REQUIRE_EQ(k1, k2);
    fill(a, n, -INT64_MAX);
    gr_i128 v = front3_value(a, n, &k1);
    /* Taking as few as possible: the players alternate single piles. */
    REQUIRE_I128_EQ(v, n % 2 == 0 ? 0 : -(gr_i128)INT64_MAX);
    REQUIRE_EQ(k1, 1);
    free(a);
    free(s);
}
END_TEST

/* ---- Can I Win ---- */

static void check_ciw(unsigned max, uint32_t used, int64_t target)
{
    gr_budget b = gr_budget_make(BIG_BUDGET);
    int o;
    unsigned k, want_k;
    REQUIRE_EQ(gr_can_i_win(max, used, target, &b, &o, &k), GR_OK);
    int64_t total = mask_sum(used);
    int want = naive_ciw(max, used, total, target, &want_k);
    if (o != want || k != want_k)
        ck_abort_msg("max %u used %#x target %lld: engine (%d, %u), naive (%d, %u)", max, used,
                     (long long)target, o, k, want, want_k);
    if (k == 0)
        return;
    REQUIRE(k <= max && !(used & (1u << (k - 1))));
    if (total + (int64_t)k >= target) {
        REQUIRE_EQ(o, 1);
        return;
    }
    int after;
    unsigned k2;
    REQUIRE_EQ(gr_can_i_win(max, used | (1u << (k - 1)), target, &b, &after, &k2), GR_OK);
    REQUIRE_EQ(-after, o);
}

START_TEST(test_ciw_exhaustive)
{
    unsigned max = (unsigned)_i; /* max 0 .. 6, targets -2 .. 25 and huge, all masks */
    for (uint32_t used = 0; used < (1u << max); used++) {
        for (int64_t t = -2; t <= 25; t++)
            check_ciw(max, used, t);
        check_ciw(max, used, INT64_MAX);
        check_ciw(max, used, INT64_MIN);
    }
}
END_TEST

/* An independent memoised twin (LeetCode style: win/loss only) for pools of
 * 10 .. 14 numbers, where the plain recursion is too slow. */
static int memo_ciw(unsigned max, uint32_t used, int64_t total, int64_t target, int8_t *memo)
{
    if (memo[used] != 0)
        return memo[used];
    int r = -1;
    for (unsigned k = 1; k <= max && r < 0; k++) {
        uint32_t bit = 1u << (k - 1);
        if (!(used & bit) &&
            (total + k >= target || memo_ciw(max, used | bit, total + k, target, memo) < 0))
            r = 1;
    }
    memo[used] = (int8_t)r;
    return r;
}

START_TEST(test_ciw_memo_twin)
{
    uint64_t rng = 0xC1Du;
    for (int round = 0; round < 60; round++) {
        unsigned max = 10 + (unsigned)(rng_next(&rng) % 5);
        uint32_t used = (uint32_t)rng_next(&rng) & ((1u << max) - 1) & (uint32_t)rng_next(&rng);
        int64_t full = (int64_t)max * (max + 1) / 2, total = mask_sum(used);
        int64_t target = total + 1 + (int64_t)(rng_next(&rng) % (uint64_t)(full - total + 5));
        gr_budget b = gr_budget_make(BIG_BUDGET);
        int o;
        unsigned k;
        REQUIRE_EQ(gr_can_i_win(max, used, target, &b, &o, &k), GR_OK);
        if (target > full) {
            REQUIRE_EQ(o, 0);
            continue;
        }
        int8_t *memo = calloc((size_t)1 << max, 1);
        REQUIRE(memo != NULL);
        REQUIRE_EQ(o, memo_ciw(max, used, total, target, memo));
        if (total + (int64_t)k < target) /* the pick leaves the opponent lost */
            REQUIRE(o < 0 || memo_ciw(max, used | (1u << (k - 1)), total + k, target, memo) < 0);
        free(memo);
    }
}
END_TEST

START_TEST(test_ciw_known)
{
    gr_budget b = gr_budget_make(BIG_BUDGET);
    int o;
    unsigned k;
    REQUIRE_EQ(gr_can_i_win(10, 0, 11, &b, &o, &k), GR_OK); /* LeetCode 464: false */
    REQUIRE_EQ(o, -1);
    REQUIRE_EQ(k, 1);
    REQUIRE_EQ(gr_can_i_win(10, 0, 1, &b, &o, &k), GR_OK);
    REQUIRE_EQ(o, 1);
    REQUIRE_EQ(k, 1);
    REQUIRE_EQ(gr_can_i_win(10, 0, 0, &b, &o, &k), GR_OK); /* over before it starts */
    REQUIRE_EQ(o, -1);
    REQUIRE_EQ(k, 0);
    /* Take 1: no single number then reaches 12, and any reply leaves 11 or less. */
    REQUIRE_EQ(gr_can_i_win(10, 0, 12, &b, &o, &k), GR_OK);
    REQUIRE_EQ(o, 1);
    REQUIRE_EQ(k, 1);
    REQUIRE_EQ(gr_can_i_win(5, 0x1F, 16, &b, &o, &k), GR_OK); /* all used, 15 < 16 */
    REQUIRE_EQ(o, 0);
    REQUIRE_EQ(k, 0);
    REQUIRE_EQ(gr_can_i_win(5, 0x01, 16, &b, &o, &k), GR_OK); /* unreachable: draw */
    REQUIRE_EQ(o, 0);
    REQUIRE_EQ(k, 2);
    /* The full pool of 20 up to 210: 20 picks, the second player makes the
     * last (every line takes all numbers), so the mover loses. */
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    REQUIRE_EQ(gr_can_i_win(20, 0, 210, &b, &o, &k), GR_OK);
    double secs = seconds_since(&t0);
    REQUIRE_EQ(o, -1);
    REQUIRE_EQ(gr_can_i_win(20, 0, 211, &b, &o, &k), GR_OK);
    REQUIRE_EQ(o, 0);
    REQUIRE_EQ(gr_can_i_win(20, 0, INT64_MAX, &b, &o, &k), GR_OK);
    REQUIRE_EQ(o, 0);
    REQUIRE_EQ(k, 1);
    fprintf(stderr, "# can_i_win max=20 target=210: %.3f s\n", secs);
}
END_TEST

/* Every target of the 20-pool: the engine agrees with the memo twin, and
 * the whole sweep stays fast. */
START_TEST(test_ciw_pool20)
{
    int8_t *memo = malloc((size_t)1 << 20);
    REQUIRE(memo != NULL);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int64_t t = 1; t <= 210; t += 19) {
        gr_budget b = gr_budget_make(BIG_BUDGET);
        int o;
        unsigned k;
        REQUIRE_EQ(gr_can_i_win(20, 0, t, &b, &o, &k), GR_OK);
        memset(memo, 0, (size_t)1 << 20);
        REQUIRE_EQ(o, memo_ciw(20, 0, 0, t, memo));
    }
    fprintf(stderr, "# can_i_win max=20, 12 targets with twin: %.3f s\n", seconds_since(&t0));
    free(memo);
}
END_TEST

/* ---- limits and invalid input ---- */

START_TEST(test_budget)
{
    int64_t a[6] = { 3, 1, 4, 1, 5, 9 };
    gr_i128 v = 42;
    gr_row_end e = GR_ROW_LAST;
    gr_budget b = gr_budget_make(20); /* 6 * 7 / 2 = 21 needed */
    REQUIRE_EQ(gr_stone_row(a, 6, &b, &v, &e), GR_ELIMIT);
    REQUIRE(v == 42 && e == GR_ROW_LAST && b.left == 0);
    b = gr_budget_make(21);
    REQUIRE_EQ(gr_stone_row(a, 6, &b, &v, &e), GR_OK);
    REQUIRE_EQ(b.left, 0);

    unsigned k = 7;
    b = gr_budget_make(17);
    REQUIRE_EQ(gr_stone_front3(a, 6, &b, &v, &k), GR_ELIMIT);
    REQUIRE_EQ(k, 7);
    b = gr_budget_make(18);
    REQUIRE_EQ(gr_stone_front3(a, 6, &b, &v, &k), GR_OK);

    uint64_t x = 7;
    v = 42;
    b = gr_budget_make(5);
    REQUIRE_EQ(gr_stone_prefix(a, 6, 1, &b, &v, &x), GR_ELIMIT);
    REQUIRE(v == 42 && x == 7);
    b = gr_budget_make(1000);
    REQUIRE_EQ(gr_stone_prefix(a, 6, 1, &b, &v, &x), GR_OK);
    uint64_t spent = 1000 - b.left;
    b = gr_budget_make(spent - 1);
    REQUIRE_EQ(gr_stone_prefix(a, 6, 1, &b, &v, &x), GR_ELIMIT);
    b = gr_budget_make(spent);
    REQUIRE_EQ(gr_stone_prefix(a, 6, 1, &b, &v, &x), GR_OK);

    int o = 5;
    k = 7;
    b = gr_budget_make(1000);
    REQUIRE_EQ(gr_can_i_win(20, 0, 150, &b, &o, &k), GR_ELIMIT);
    REQUIRE(o == 5 && k == 7);
}
END_TEST

START_TEST(test_invalid)
{
    gr_budget b = gr_budget_make(BIG_BUDGET);
    gr_i128 v;
    gr_row_end e;
    uint64_t x;
    unsigned k;
    int o;
    int64_t neg[3] = { 1, -1, 2 }, min[2] = { 0, INT64_MIN };
    REQUIRE_EQ(gr_stone_row(neg, 3, &b, &v, &e), GR_EINVAL);
    REQUIRE_EQ(gr_stone_row(NULL, 3, &b, &v, &e), GR_EINVAL);
    REQUIRE_EQ(gr_stone_row(NULL, 0, &b, &v, &e), GR_OK);
    REQUIRE(v == 0 && e == GR_ROW_NONE);
    REQUIRE_EQ(gr_stone_prefix(neg, 3, 1, &b, &v, &x), GR_EINVAL);
    REQUIRE_EQ(gr_stone_prefix(neg + 2, 1, 0, &b, &v, &x), GR_EINVAL);
    REQUIRE_EQ(gr_stone_prefix(NULL, 0, 1, &b, &v, &x), GR_OK);
    REQUIRE(v == 0 && x == 0);
    int64_t *big = calloc(GR_STONE_PREFIX_MAX_N + 1, sizeof *big);
    REQUIRE(big != NULL);
    REQUIRE_EQ(gr_stone_prefix(big, GR_STONE_PREFIX_MAX_N + 1, 1, &b, &v, &x), GR_EINVAL);
    free(big);
    REQUIRE_EQ(gr_stone_front3(min, 2, &b, &v, &k), GR_EINVAL);
    REQUIRE_EQ(gr_stone_front3(neg, 3, &b, &v, &k), GR_OK);
    REQUIRE_EQ(gr_stone_front3(NULL, 0, &b, &v, &k), GR_OK);
    REQUIRE(v == 0 && k == 0);
    REQUIRE_EQ(gr_can_i_win(21, 0, 5, &b, &o, &k), GR_EINVAL);
    REQUIRE_EQ(gr_can_i_win(5, 0x20, 5, &b, &o, &k), GR_EINVAL);
    REQUIRE_EQ(gr_can_i_win(20, 0x100000, 5, &b, &o, &k), GR_EINVAL);
    REQUIRE_EQ(gr_can_i_win(0, 0, 1, &b, &o, &k), GR_OK);
    REQUIRE(o == 0 && k == 0);
}
END_TEST

static Suite *score_suite(void)
{
    Suite *suite = suite_create("score");
    TCase *row = tcase_create("stone_row");
    tcase_set_timeout(row, 60);
    tcase_add_loop_test(row, test_row_exhaustive, 0, 8);
    tcase_add_test(row, test_row_known);
    tcase_add_test(row, test_row_big_exact);
    suite_add_tcase(suite, row);

    TCase *prefix = tcase_create("stone_prefix");
    tcase_set_timeout(prefix, 60);
    tcase_add_loop_test(prefix, test_prefix_exhaustive, 0, 8);
    tcase_add_test(prefix, test_prefix_known);
    tcase_add_test(prefix, test_prefix_random);
    tcase_add_test(prefix, test_prefix_big);
    suite_add_tcase(suite, prefix);

    TCase *front = tcase_create("stone_front3");
    tcase_set_timeout(front, 60);
    tcase_add_loop_test(front, test_front3_exhaustive, 0, 9);
    tcase_add_test(front, test_front3_known);
    tcase_add_test(front, test_front3_big);
    suite_add_tcase(suite, front);

    TCase *ciw = tcase_create("can_i_win");
    tcase_set_timeout(ciw, 60);
    tcase_add_loop_test(ciw, test_ciw_exhaustive, 0, 7);
    tcase_add_test(ciw, test_ciw_memo_twin);
    tcase_add_test(ciw, test_ciw_known);
    tcase_add_test(ciw, test_ciw_pool20);
    suite_add_tcase(suite, ciw);

    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, test_budget);
    tcase_add_test(limits, test_invalid);
    suite_add_tcase(suite, limits);
    return suite;
}

int main(void)
{
    return gr_check_run(score_suite());
}
