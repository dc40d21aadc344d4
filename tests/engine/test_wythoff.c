/* SPDX-License-Identifier: MIT */
/* Wythoff's game: P-positions and Grundy values against a brute-force
 * search, every winning move replayed, and the integer golden-ratio
 * arithmetic checked exactly near 10^18 and 2^63 - 1. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "grundy/u128.h"
#include "grundy/wythoff.h"

#define SMALL 64 /* brute force over 0..SMALL-1 squared */

/* ---- brute force from the rules ---- */

typedef struct brute_tables {
    bool p[SMALL][SMALL];
    unsigned g[SMALL][SMALL];
} brute_tables;

/* Options of (x, y): (x - d, y), (x, y - d), (x - d, y - d) for d >= 1. */
static void brute_fill(brute_tables *t)
{
    for (unsigned x = 0; x < SMALL; x++) {
        for (unsigned y = 0; y < SMALL; y++) {
            bool seen[3 * SMALL + 1] = { false };
            bool reaches_p = false;
            for (unsigned d = 1; d <= x; d++) {
                seen[t->g[x - d][y]] = true;
                reaches_p |= t->p[x - d][y];
            }
            for (unsigned d = 1; d <= y; d++) {
                seen[t->g[x][y - d]] = true;
                reaches_p |= t->p[x][y - d];
            }
            for (unsigned d = 1; d <= x && d <= y; d++) {
                seen[t->g[x - d][y - d]] = true;
                reaches_p |= t->p[x - d][y - d];
            }
            unsigned mex = 0;
            while (seen[mex])
                mex++;
            t->g[x][y] = mex;
            t->p[x][y] = !reaches_p;
        }
    }
}

static brute_tables *brute_get(void)
{
    brute_tables *t = calloc(1, sizeof *t);
    ck_assert_ptr_nonnull(t);
    brute_fill(t);
    return t;
}

/* A legal Wythoff move: one pile lowered, or both lowered by the same amount. */
static void check_legal(uint64_t x, uint64_t y, uint64_t nx, uint64_t ny)
{
    ck_assert(nx <= x && ny <= y);
    ck_assert(nx < x || ny < y);
    ck_assert_msg(nx == x || ny == y || x - nx == y - ny,
                  "illegal move (%llu,%llu) -> (%llu,%llu)", (unsigned long long)x,
                  (unsigned long long)y, (unsigned long long)nx, (unsigned long long)ny);
}

/* ---- 256-bit arithmetic for independent checks of floor(k * phi) ---- */

typedef struct u256 {
    gr_u128 hi, lo;
} u256;

static u256 mul_wide(gr_u128 a, gr_u128 b)
{
    gr_u128 a0 = (uint64_t)a, a1 = a >> 64, b0 = (uint64_t)b, b1 = b >> 64;
    gr_u128 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    gr_u128 mid = (p00 >> 64) + (uint64_t)p01 + (uint64_t)p10;
    u256 r;
    r.lo = (gr_u128)(uint64_t)p00 | ((gr_u128)(uint64_t)mid << 64);
    r.hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    return r;
}

static bool u256_le(u256 a, u256 b)
{
    return a.hi < b.hi || (a.hi == b.hi && a.lo <= b.lo);
}

/* a == floor(k * phi), k < 2^64, a < 2^65, from a <= k*phi < a + 1, i.e.
 * 2a - k <= k*sqrt(5) < 2a + 2 - k, squared in 256 bits. */
static bool is_floor_k_phi(gr_u128 a, uint64_t k)
{
    gr_u128 twice = 2 * a;
    if (twice < k)
        return false; /* a < k/2 < k*phi - 1 */
    u256 five_k2 = mul_wide((gr_u128)k * k, 5);
    u256 low = mul_wide(twice - k, twice - k);
    u256 high = mul_wide(twice + 2 - k, twice + 2 - k);
    return u256_le(low, five_k2) && !u256_le(high, five_k2);
}

/* P-position test written from the characterisation, not the engine. */
static bool is_p_independent(uint64_t x, uint64_t y)
{
    uint64_t lo = x < y ? x : y, hi = x < y ? y : x;
    return is_floor_k_phi(lo, hi - lo);
}

static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* ---- small positions ---- */

START_TEST(test_p_positions_and_moves_exhaustive)
{
    brute_tables *t = brute_get();
    for (uint64_t x = 0; x < SMALL; x++) {
        for (uint64_t y = 0; y < SMALL; y++) {
            ck_assert_int_eq(gr_wythoff_is_p(x, y), t->p[x][y]);
            uint64_t nx = 999, ny = 999;
            bool moved = gr_wythoff_move(x, y, &nx, &ny);
            ck_assert_int_eq(moved, !t->p[x][y]);
            if (!moved)
                continue;
            check_legal(x, y, nx, ny);
            ck_assert_msg(t->p[nx][ny], "(%llu,%llu) -> (%llu,%llu) is not P",
                          (unsigned long long)x, (unsigned long long)y,
                          (unsigned long long)nx, (unsigned long long)ny);
        }
    }
    free(t);
}
END_TEST

START_TEST(test_grundy_exhaustive)
{
    brute_tables *t = brute_get();
    for (uint64_t x = 0; x < SMALL; x++) {
        for (uint64_t y = 0; y < SMALL; y++) {
            gr_budget b = gr_budget_make(UINT64_MAX);
            uint64_t g = 12345;
            ck_assert_int_eq(gr_wythoff_grundy(x, y, &b, &g), GR_OK);
            ck_assert_msg(g == t->g[x][y], "g(%llu,%llu) = %llu, brute %u",
                          (unsigned long long)x, (unsigned long long)y,
                          (unsigned long long)g, t->g[x][y]);
            ck_assert_uint_le(g, x + y); /* the bound the DP relies on */
        }
    }
    free(t);
}
END_TEST

/* Beyond the brute-force range: zeros of the Grundy function are exactly
 * the P-positions. */
START_TEST(test_grundy_zero_iff_p)
{
    const uint64_t y = 250;
    for (uint64_t x = 0; x <= y; x++) {
        gr_budget b = gr_budget_make(UINT64_MAX);
        uint64_t g;
        ck_assert_int_eq(gr_wythoff_grundy(x, y, &b, &g), GR_OK);
        ck_assert_int_eq(g == 0, gr_wythoff_is_p(x, y));
        ck_assert_uint_le(g, x + y);
    }
}
END_TEST

static const uint64_t lower_known[] = { 0, 1, 3, 4, 6, 8, 9, 11, 12, 14, 16 };

START_TEST(test_lower_known)
{
    ck_assert_uint_eq(gr_wythoff_lower((uint64_t)_i), lower_known[_i]);
}
END_TEST

/* a_k from the classical construction, with no phi at all:
 * a_k = least positive integer not yet used, b_k = a_k + k. */
START_TEST(test_lower_matches_mex_construction)
{
    enum { K = 100000 };
    bool *used = calloc(3 * K, sizeof *used);
    ck_assert_ptr_nonnull(used);
    uint64_t a = 0;
    for (uint64_t k = 1; k < K; k++) {
        do
            a++;
        while (used[a]);
        used[a] = used[a + k] = true;
        ck_assert_uint_eq(gr_wythoff_lower(k), a);
        ck_assert_uint_eq(gr_wythoff_floor_div_phi(k), a - k);
    }
    free(used);
}
END_TEST

/* ---- large exact cases ---- */

static const uint64_t large_centres[] = {
    1000000000000000000u,             /* 10^18 */
    1000000000000000000u / 2,
    5702887u * 1000000000000u,
    9223372036854775807u - 100000u,   /* near 2^63 - 1 */
    9223372036854775807u - 1000u,
};

/* The defining inequality at every k in a window around the centre, and at
 * 2^63 - 1 itself. */
START_TEST(test_lower_defining_inequality)
{
    uint64_t centre = large_centres[_i];
    for (uint64_t k = centre - 2000; k <= centre + 1000 && k <= INT64_MAX; k++)
        ck_assert_msg(is_floor_k_phi(gr_wythoff_lower(k), k), "a_%llu wrong", (unsigned long long)k);
    ck_assert(is_floor_k_phi(gr_wythoff_lower(INT64_MAX), INT64_MAX));
    ck_assert(!is_floor_k_phi(gr_wythoff_lower(INT64_MAX) + 1, INT64_MAX));
    ck_assert(!is_floor_k_phi(gr_wythoff_lower(INT64_MAX) - 1, INT64_MAX));
}
END_TEST

/* Beatty: the a_k and the b_k = a_k + k (k >= 1) partition the positive
 * integers. Every value in a window around the centre must be hit exactly
 * once, and the sequences step by 1 or 2 (a) and 2 or 3 (b). */
START_TEST(test_beatty_complementarity)
{
    enum { W = 4096 };
    uint64_t lo = large_centres[_i] - W / 2;
    unsigned char *hits = calloc(W, 1);
    ck_assert_ptr_nonnull(hits);
    /* a_k ~ lo at k ~ lo/phi, b_m ~ lo at m ~ lo - lo/phi; a_k steps by at
     * least 1 and b_m by at least 2, so these index ranges overshoot the
     * window on both sides (a miss would show as a value hit 0 times) */
    uint64_t t = gr_wythoff_floor_div_phi(lo);
    uint64_t k_first = t - 10, k_last = t + W;
    uint64_t m_first = lo - t - 10, m_last = lo - t + W / 2;
    gr_u128 prev = 0;
    for (uint64_t k = k_first; k <= k_last; k++) {
        gr_u128 a = gr_wythoff_lower(k);
        if (k > k_first)
            ck_assert(a - prev == 1 || a - prev == 2);
        prev = a;
        if (a >= lo && a < (gr_u128)lo + W)
            hits[(uint64_t)a - lo]++;
    }
    for (uint64_t m = m_first; m <= m_last; m++) {
        gr_u128 b = (gr_u128)gr_wythoff_lower(m) + m;
        if (m > m_first)
            ck_assert(b - prev == 2 || b - prev == 3);
        prev = b;
        if (b >= lo && b < (gr_u128)lo + W)
            hits[(uint64_t)b - lo]++;
    }
    for (uint64_t v = 0; v < W; v++)
        ck_assert_msg(hits[v] == 1, "value %llu hit %u times", (unsigned long long)(lo + v), hits[v]);
    free(hits);
}
END_TEST

/* Checks one large position: move iff N, the move is legal and lands on a
 * P-position by both the engine and the independent characterisation. */
static void check_large_position(uint64_t x, uint64_t y)
{
    bool p = is_p_independent(x, y);
    ck_assert_int_eq(gr_wythoff_is_p(x, y), p);
    uint64_t nx, ny;
    bool moved = gr_wythoff_move(x, y, &nx, &ny);
    ck_assert_int_eq(moved, !p);
    if (!moved)
        return;
    check_legal(x, y, nx, ny);
    ck_assert(gr_wythoff_is_p(nx, ny));
    ck_assert(is_p_independent(nx, ny));
}

/* Positions around P-positions near the centre, built to exercise every
 * branch: (a_k, b_k) itself, both piles above it, a_c with a far larger
 * partner pile, b_m with a larger partner, and random nearby pairs. */
START_TEST(test_large_moves)
{
    uint64_t centre = large_centres[_i], seed = centre;
    for (int round = 0; round < 3000; round++) {
        uint64_t k = centre / 3 + rng_next(&seed) % 1000000;
        uint64_t a = gr_wythoff_lower(k), b = a + k;
        uint64_t d = 1 + rng_next(&seed) % 1000;
        check_large_position(a, b);
        check_large_position(b, a);
        check_large_position(a + d, b + d);
        check_large_position(b + d, a + d);
        check_large_position(a, b + d);
        check_large_position(b + d, a);
        check_large_position(b, b + d);
        check_large_position(a + d, b);
        uint64_t x = centre - rng_next(&seed) % 1000000, y = centre - rng_next(&seed) % 1000000;
        check_large_position(x, y);
    }
}
END_TEST

/* The engine also handles piles up to 2^64 - 1 (k beyond 2^63 - 1 inside). */
START_TEST(test_full_range_moves)
{
    uint64_t seed = 99;
    for (int round = 0; round < 20000; round++) {
        uint64_t x = rng_next(&seed), y = rng_next(&seed);
        if (round % 2)
            x = UINT64_MAX - (x % 100000);
        check_large_position(x, y);
    }
    check_large_position(UINT64_MAX, UINT64_MAX);
    check_large_position(0, UINT64_MAX);
    check_large_position(UINT64_MAX, 0);
}
END_TEST

/* ---- budget ---- */

START_TEST(test_grundy_budget)
{
    uint64_t g = 777;
    gr_budget b = gr_budget_make(0);
    ck_assert_int_eq(gr_wythoff_grundy(0, 0, &b, &g), GR_ELIMIT);
    b = gr_budget_make(1000);
    ck_assert_int_eq(gr_wythoff_grundy(50, 60, &b, &g), GR_ELIMIT);
    ck_assert_uint_eq(b.left, 0);
    ck_assert_uint_eq(g, 777);
    /* overflow-safe estimate: astronomically large, refused at once */
    b = gr_budget_make(UINT64_MAX - 1);
    ck_assert_int_eq(gr_wythoff_grundy(INT64_MAX, INT64_MAX, &b, &g), GR_ELIMIT);
    b = gr_budget_make(UINT64_MAX - 1);
    ck_assert_int_eq(gr_wythoff_grundy(UINT64_MAX, UINT64_MAX, &b, &g), GR_ELIMIT);
    b = gr_budget_make(UINT64_MAX - 1);
    ck_assert_int_eq(gr_wythoff_grundy(0, UINT64_MAX, &b, &g), GR_ELIMIT);
    /* the documented estimate suffices, and is what is spent */
    uint64_t need = 51u * 61u * 112u / 64u + 1u;
    b = gr_budget_make(need);
    ck_assert_int_eq(gr_wythoff_grundy(50, 60, &b, &g), GR_OK);
    ck_assert_uint_eq(b.left, 0);
    b = gr_budget_make(need - 1);
    ck_assert_int_eq(gr_wythoff_grundy(60, 50, &b, &g), GR_ELIMIT);
}
END_TEST

static Suite *wythoff_suite(void)
{
    Suite *s = suite_create("wythoff");
    TCase *tc = tcase_create("brute_force");
    tcase_add_test(tc, test_p_positions_and_moves_exhaustive);
    tcase_add_test(tc, test_grundy_exhaustive);
    tcase_add_test(tc, test_grundy_zero_iff_p);
    suite_add_tcase(s, tc);
    tc = tcase_create("exact");
    int centres = (int)(sizeof large_centres / sizeof large_centres[0]);
    tcase_add_loop_test(tc, test_lower_known, 0, (int)(sizeof lower_known / sizeof lower_known[0]));
    tcase_add_test(tc, test_lower_matches_mex_construction);
    tcase_add_loop_test(tc, test_lower_defining_inequality, 0, centres);
    tcase_add_loop_test(tc, test_beatty_complementarity, 0, centres);
    tcase_add_loop_test(tc, test_large_moves, 0, centres);
    tcase_add_test(tc, test_full_range_moves);
    suite_add_tcase(s, tc);
    tc = tcase_create("budget");
    tcase_add_test(tc, test_grundy_budget);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(wythoff_suite());
}
