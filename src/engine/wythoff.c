/* SPDX-License-Identifier: MIT */
/* Wythoff's game with exact integer arithmetic.
 *
 * The P-positions are (a_k, a_k + k) with a_k = floor(k * phi) =
 * k + floor(k / phi). Everything on phi reduces to the test
 * t <= k / phi  <=>  t^2 + t*k <= k^2, done in 128 bits. The helpers accept
 * any 64-bit k, so positions with piles up to 2^64 - 1 are handled; the
 * header promises 2^63 - 1, where a_k itself still fits 64 bits. */
#include "grundy/wythoff.h"
#include "grundy/alloc.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "grundy/u128.h"

/* True when t <= k / phi, for t <= k. Since t <= k/phi <=> 2t + k <= k*sqrt(5)
 * <=> t^2 + t*k <= k^2 <=> t^2 <= k * (k - t); both sides are < 2^128, and
 * equality is impossible for k > 0 because sqrt(5) is irrational. */
static bool wythoff_below_k_over_phi(uint64_t t, uint64_t k)
{
    return (gr_u128)t * t <= (gr_u128)k * (k - t);
}

/* Any k < 2^64. Binary search keeps lo <= k/phi < hi: k/2 is below
 * (1/phi > 0.5) and k is above (1/phi < 1). */
uint64_t gr_wythoff_floor_div_phi(uint64_t k)
{
    if (k == 0)
        return 0;
    uint64_t lo = k / 2, hi = k;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (wythoff_below_k_over_phi(mid, k))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* a_k for any k < 2^64; it may need 65 bits. */
static gr_u128 wythoff_lower_wide(uint64_t k)
{
    return (gr_u128)k + gr_wythoff_floor_div_phi(k);
}

uint64_t gr_wythoff_lower(uint64_t k)
{
    return (uint64_t)wythoff_lower_wide(k);
}

bool gr_wythoff_is_p(uint64_t x, uint64_t y)
{
    uint64_t lo = x < y ? x : y;
    uint64_t hi = x < y ? y : x;
    return (gr_u128)lo == wythoff_lower_wide(hi - lo);
}

/* The other coordinate of the P-position that has x as one coordinate
 * (Beatty: every x >= 1 is exactly one of a_c, b_m = a_m + m; and x = 0 is
 * a_0). With t = floor(x / phi), c = t + 1 and m = x - t; a window of
 * neighbours is checked exactly so the identity is never trusted blindly.
 * The result may need 65 bits (when x = a_c it is b_c = x + c). */
static gr_u128 wythoff_partner(uint64_t x)
{
    if (x == 0)
        return 0;
    uint64_t t = gr_wythoff_floor_div_phi(x); /* t <= x - 1 */
    for (uint64_t c = t; c <= t + 2; c++) {
        if (wythoff_lower_wide(c) == x)
            return (gr_u128)x + c;
    }
    for (uint64_t m = x - t - 1; m <= x - t + 1; m++) {
        gr_u128 a = wythoff_lower_wide(m);
        if (a + m == x)
            return a;
    }
    return x; /* unreachable by Beatty's theorem; tests check the windows */
}

/* lo <= hi, k = hi - lo. Writes the new sizes of the pile that held lo and
 * of the pile that held hi. If lo > a_k, take lo - a_k from both, reaching
 * (a_k, a_k + k). If lo < a_k, the partner p of lo is below hi (a_c with
 * c < k gives p = lo + c < hi; b_m gives p = a_m < lo), so move hi to p. */
static bool wythoff_move_sorted(uint64_t lo, uint64_t hi, uint64_t *new_lo, uint64_t *new_hi)
{
    gr_u128 a = wythoff_lower_wide(hi - lo);
    if ((gr_u128)lo == a)
        return false;
    if ((gr_u128)lo > a) {
        uint64_t d = lo - (uint64_t)a;
        *new_lo = lo - d;
        *new_hi = hi - d;
        return true;
    }
    *new_lo = lo;
    *new_hi = (uint64_t)wythoff_partner(lo);
    return true;
}

bool gr_wythoff_move(uint64_t x, uint64_t y, uint64_t *nx, uint64_t *ny)
{
    if (x <= y)
        return wythoff_move_sorted(x, y, nx, ny);
    return wythoff_move_sorted(y, x, ny, nx);
}

/* (x+1)(y+1)(x+y+2)/64 + 1 steps, saturated at UINT64_MAX. */
static uint64_t wythoff_grundy_cost(uint64_t x, uint64_t y)
{
    const gr_u128 max = ~(gr_u128)0;
    gr_u128 rows = (gr_u128)x + 1, cols = (gr_u128)y + 1, width = (gr_u128)x + y + 2;
    if (rows > max / cols)
        return UINT64_MAX;
    gr_u128 cells = rows * cols;
    if (cells > max / width)
        return UINT64_MAX;
    gr_u128 steps = cells * width / 64 + 1;
    return steps > UINT64_MAX ? UINT64_MAX : (uint64_t)steps;
}

/* Least value in none of the three bitsets. The caller sizes the bitsets
 * so that a zero bit always exists (see wythoff_grundy_dp). */
static uint64_t wythoff_mex3(const uint64_t *a, const uint64_t *b, const uint64_t *c, size_t words)
{
    for (size_t w = 0; w < words; w++) {
        uint64_t free_bits = ~(a[w] | b[w] | c[w]);
        if (free_bits != 0)
            return (uint64_t)w * 64 + (uint64_t)__builtin_ctzll(free_bits);
    }
    return (uint64_t)words * 64; /* unreachable: see the sizing */
}

static void wythoff_set_bit(uint64_t *set, uint64_t v)
{
    set[v / 64] |= (uint64_t)1 << (v % 64);
}

/* x <= y. Columns j = 0..y outermost, rows i = 0..x inside, so only
 * x + 1 row sets (values g(i, j') for j' < j), one column set (g(i', j) for
 * i' < i) and a ring of x + 1 diagonal sets (g(i - d, j - d), diagonal
 * j - i at slot (j - i) mod (x + 1)) are live: memory O(x * (x + y)).
 * Cell (i, j) has i + j + min(i, j) <= 2x + y options, so its value is at
 * most 2x + y and the sets get 2x + y + 1 bits. */
static gr_status wythoff_grundy_dp(uint64_t x, uint64_t y, gr_budget *b, uint64_t *g, uint16_t *grid)
{
    gr_u128 words128 = ((gr_u128)2 * x + y) / 64 + 1;
    gr_u128 sets = (gr_u128)2 * x + 3;
    /* also keeps y < 2^64 - 1, so the column loop below ends */
    if (words128 > SIZE_MAX / sizeof(uint64_t) / sets)
        return GR_ENOMEM;
    size_t words = (size_t)words128;
    uint64_t *store = gr_calloc((size_t)(sets * words128), sizeof(uint64_t));
    if (store == NULL)
        return GR_ENOMEM;
    uint64_t *row_sets = store;
    uint64_t *diag_sets = store + (size_t)(x + 1) * words;
    uint64_t *column = diag_sets + (size_t)(x + 1) * words;
    uint64_t ring = x + 1, value = 0;
    for (uint64_t j = 0; j <= y; j++) {
        if (!gr_budget_tick(b, (x + 1) * words)) { /* paid by the caller; the deadline may stop it */
            gr_free(store);
            return GR_ELIMIT;
        }
        memset(column, 0, words * sizeof(uint64_t));
        /* diagonal j starts at (0, j); its slot held diagonal j - x - 1,
         * which no later cell uses */
        memset(diag_sets + (size_t)(j % ring) * words, 0, words * sizeof(uint64_t));
        for (uint64_t i = 0; i <= x; i++) {
            uint64_t *row = row_sets + (size_t)i * words;
            uint64_t *diag = diag_sets + (size_t)((j % ring + ring - i) % ring) * words;
            value = wythoff_mex3(row, column, diag, words);
            wythoff_set_bit(row, value);
            wythoff_set_bit(column, value);
            wythoff_set_bit(diag, value);
            if (grid)
                grid[i * (y + 1) + j] = (uint16_t)value;
        }
    }
    gr_free(store);
    *g = value;
    return GR_OK;
}

gr_status gr_wythoff_grundy(uint64_t x, uint64_t y, gr_budget *b, uint64_t *g)
{
    if (!gr_budget_spend(b, wythoff_grundy_cost(x, y)))
        return GR_ELIMIT;
    /* g is symmetric; the smaller pile indexes the rows */
    return x <= y ? wythoff_grundy_dp(x, y, b, g, NULL) : wythoff_grundy_dp(y, x, b, g, NULL);
}

gr_status gr_wythoff_table(uint64_t n, gr_budget *b, uint16_t *grid)
{
    if (n == 0 || n > 8192)
        return GR_EINVAL;
    if (!gr_budget_spend(b, wythoff_grundy_cost(n - 1, n - 1)))
        return GR_ELIMIT;
    uint64_t last;
    return wythoff_grundy_dp(n - 1, n - 1, b, &last, grid);
}
