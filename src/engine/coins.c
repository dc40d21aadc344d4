/* SPDX-License-Identifier: MIT */
/* Coin-turning games: values of single heads in closed form, and the move on
 * one head that sets its contribution to a chosen value (the other turned
 * coins' values XOR to exactly that target).
 *
 * Every formula here is re-derived by brute force over all positions of a
 * short row in tests/engine/test_coins.c. */
#include "grundy/coins.h"

#include <stdbool.h>
#include <stddef.h>

static bool popcount_is_odd(uint64_t v)
{
    return (__builtin_popcountll(v) & 1) != 0;
}

static uint64_t lowest_bit(uint64_t v)
{
    return v & (~v + 1);
}

/* The p-th odious number (p >= 1): 2(p - 1), plus 1 when that alone would be
 * evil. Below 2^61 for p <= 10^18, so no overflow. */
static uint64_t odious_at(uint64_t p)
{
    uint64_t even = 2 * (p - 1);
    return popcount_is_odd(even) ? even : even + 1;
}

/* Inverse of odious_at for an odious v: the odious numbers 2m and 2m + 1
 * cannot both be odious, so v / 2 + 1 recovers the position. */
static uint64_t odious_position(uint64_t v)
{
    return v / 2 + 1;
}

/* XOR of lowbit(1) .. lowbit(n), i.e. of the ruler values of coins 1 .. n:
 * the Gray code of n (gray(n) ^ gray(n - 1) = lowbit(n)). */
static uint64_t gray_code(uint64_t n)
{
    return n ^ (n >> 1);
}

/* The n with gray_code(n) == g: bit i of n is the XOR of bits >= i of g. */
static uint64_t gray_inverse(uint64_t g)
{
    for (unsigned shift = 1; shift < 64; shift <<= 1)
        g ^= g >> shift;
    return g;
}

uint64_t gr_coins_value(gr_coins_rule rule, uint64_t p)
{
    if (p == 0 || p > GR_COINS_MAX_POS)
        return 0; /* outside the domain; documented as 1 <= p <= max */
    switch (rule) {
    case GR_COINS_TURNING_TURTLES:
        return p;
    case GR_COINS_MOCK_TURTLES:
        return odious_at(p);
    case GR_COINS_RULER:
        return lowest_bit(p);
    }
    return 0;
}

/* Turning turtles: the second coin is the one at position target (its value
 * is target, and target < p); none when target is 0. */
static void turtles_move(uint64_t target, gr_coins_move *mv)
{
    if (target != 0)
        mv->others[mv->nothers++] = target;
}

/* Mock turtles (target < g(p)): no other coin for 0; one coin of value
 * target when target is odious; otherwise target is evil and non-zero, so
 * it has at least two 1 bits and splits into lowbit(target) and the rest,
 * both odious (one bit; an odd count), distinct, ascending, and below
 * target < g(p), hence at positions below p (odious_at is increasing). */
static void mock_turtles_move(uint64_t target, gr_coins_move *mv)
{
    if (target == 0)
        return;
    if (popcount_is_odd(target)) {
        mv->others[mv->nothers++] = odious_position(target);
        return;
    }
    uint64_t low = lowest_bit(target);
    mv->others[mv->nothers++] = odious_position(low);
    mv->others[mv->nothers++] = odious_position(target ^ low);
}

/* Ruler (target < lowbit(p) = 2^j): the run a .. p - 1 has value
 * gray(p - 1) ^ gray(a - 1), so a - 1 = gray_inverse(gray(p - 1) ^ target).
 * p - 1 has its low j bits set and target only touches those bits of the
 * Gray code, which leaves bits >= j of the inverse as in p - 1; the low j
 * bits of a - 1 are at most all ones, so a - 1 <= p - 1 (equal iff target
 * is 0: an empty run). */
static void ruler_move(uint64_t p, uint64_t target, gr_coins_move *mv)
{
    mv->run_from = gray_inverse(gray_code(p - 1) ^ target) + 1;
}

/* Turtles' moves have run_from == pos (no run); the ruler's have no others.
 * *mv is written only on success. */
gr_status gr_coins_move_to(gr_coins_rule rule, uint64_t p, uint64_t target, gr_coins_move *mv)
{
    if (mv == NULL || p == 0 || p > GR_COINS_MAX_POS)
        return GR_EINVAL;
    if (rule != GR_COINS_TURNING_TURTLES && rule != GR_COINS_MOCK_TURTLES && rule != GR_COINS_RULER)
        return GR_EINVAL;
    if (target >= gr_coins_value(rule, p))
        return GR_EINVAL;
    gr_coins_move out = { .pos = p, .nothers = 0, .others = { 0, 0 }, .run_from = p };
    switch (rule) {
    case GR_COINS_TURNING_TURTLES:
        turtles_move(target, &out);
        break;
    case GR_COINS_MOCK_TURTLES:
        mock_turtles_move(target, &out);
        break;
    case GR_COINS_RULER:
        ruler_move(p, target, &out);
        break;
    }
    *mv = out;
    return GR_OK;
}
