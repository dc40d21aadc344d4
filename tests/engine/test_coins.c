/* SPDX-License-Identifier: MIT */
/* Tests for coin-turning games (include/grundy/coins.h).
 *
 * Brute-force twin: a row of ROW coins as a bitmask of heads (bit i is coin
 * i + 1); every move of each rule generated literally from its description;
 * the value of every position by mex. Against it: single-head values, the
 * XOR rule for every position, and every move gr_coins_move_to proposes
 * (legal by the literal rule, and landing on value 0). Far positions (up to
 * 10^18) are checked algebraically, with values recomputed independently. */
#include "grundy/coins.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "check_main.h"

#define ROW 14u                  /* coins in the brute-force row */
#define POSITIONS (1u << ROW)    /* every set of heads */

static const gr_coins_rule rules[] = {
    GR_COINS_TURNING_TURTLES,
    GR_COINS_MOCK_TURTLES,
    GR_COINS_RULER,
};
#define NRULES (sizeof rules / sizeof rules[0])

/* ---- deterministic pseudo-random numbers (splitmix64) ---- */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* ---- brute-force twin over a row of ROW coins ---- */

static uint32_t coin_bit(unsigned pos)
{
    return 1u << (pos - 1);
}

/* The masks of coins turned by every move of `rule` whose rightmost coin is
 * p (p must be heads; the others may go either way), written to masks[];
 * returns their number. */
static unsigned literal_moves(gr_coins_rule rule, unsigned p, uint32_t *masks)
{
    unsigned n = 0;
    masks[n++] = coin_bit(p); /* p alone: allowed by every rule */
    switch (rule) {
    case GR_COINS_TURNING_TURTLES: /* plus one coin to its left */
        for (unsigned q = 1; q < p; q++)
            masks[n++] = coin_bit(p) | coin_bit(q);
        break;
    case GR_COINS_MOCK_TURTLES: /* plus one or two distinct coins to its left */
        for (unsigned q = 1; q < p; q++) {
            masks[n++] = coin_bit(p) | coin_bit(q);
            for (unsigned s = q + 1; s < p; s++)
                masks[n++] = coin_bit(p) | coin_bit(q) | coin_bit(s);
        }
        break;
    case GR_COINS_RULER: /* the run a .. p, a < p */
        for (unsigned a = 1; a < p; a++) {
            uint32_t run = 0;
            for (unsigned c = a; c <= p; c++)
                run |= coin_bit(c);
            masks[n++] = run;
        }
        break;
    }
    return n;
}

/* Every move lowers the mask (its highest changed bit goes 1 -> 0), so
 * ascending order sees every option first. */
static uint8_t *brute_values(gr_coins_rule rule)
{
    uint8_t *g = malloc(POSITIONS);
    REQUIRE(g != NULL);
    static uint32_t masks[1 + ROW * ROW];
    for (uint32_t pos = 0; pos < POSITIONS; pos++) {
        uint64_t seen = 0;
        for (unsigned p = 1; p <= ROW; p++) {
            if (!(pos & coin_bit(p)))
                continue;
            unsigned n = literal_moves(rule, p, masks);
            for (unsigned i = 0; i < n; i++) {
                uint32_t next = pos ^ masks[i];
                REQUIRE(next < pos && g[next] < 64);
                seen |= UINT64_C(1) << g[next];
            }
        }
        uint8_t m = 0;
        while (seen & (UINT64_C(1) << m))
            m++;
        g[pos] = m;
    }
    return g;
}

/* ---- the move as the engine describes it ---- */

/* The mask of coins a move turns in the brute-force row (pos <= ROW). */
static uint32_t move_mask(gr_coins_rule rule, const gr_coins_move *mv)
{
    uint32_t mask = coin_bit((unsigned)mv->pos);
    if (rule == GR_COINS_RULER) {
        for (uint64_t c = mv->run_from; c < mv->pos; c++)
            mask |= coin_bit((unsigned)c);
    } else {
        for (unsigned i = 0; i < mv->nothers; i++)
            mask |= coin_bit((unsigned)mv->others[i]);
    }
    return mask;
}

/* The shape the literal rule allows for a move on the head at p: others
 * (turtles: at most 1; mock turtles: at most 2) distinct, ascending, in
 * 1 .. p - 1; the ruler's run start in 1 .. p and no others. */
static void require_legal_shape(gr_coins_rule rule, uint64_t p, const gr_coins_move *mv)
{
    REQUIRE(mv->pos == p);
    if (rule == GR_COINS_RULER) {
        REQUIRE_EQ(mv->nothers, 0);
        REQUIRE(mv->run_from >= 1 && mv->run_from <= p);
        return;
    }
    REQUIRE(mv->nothers <= (rule == GR_COINS_TURNING_TURTLES ? 1u : 2u));
    REQUIRE(mv->run_from == p); /* no run for the turtles */
    for (unsigned i = 0; i < mv->nothers; i++) {
        REQUIRE(mv->others[i] >= 1 && mv->others[i] < p);
        if (i > 0)
            REQUIRE(mv->others[i - 1] < mv->others[i]);
    }
}

/* ---- exhaustive twin ---- */

START_TEST(test_single_heads)
{
    gr_coins_rule rule = rules[_i];
    uint8_t *g = brute_values(rule);
    for (unsigned p = 1; p <= ROW; p++)
        REQUIRE_EQ(gr_coins_value(rule, p), g[coin_bit(p)]);
    free(g);
}
END_TEST

START_TEST(test_xor_of_heads)
{
    gr_coins_rule rule = rules[_i];
    uint8_t *g = brute_values(rule);
    for (uint32_t pos = 0; pos < POSITIONS; pos++) {
        uint64_t x = 0;
        for (unsigned p = 1; p <= ROW; p++)
            if (pos & coin_bit(p))
                x ^= gr_coins_value(rule, p);
        if (x != g[pos])
            ck_abort_msg("rule %d, heads %#x: xor %llu, brute %u", (int)rule, pos,
                         (unsigned long long)x, g[pos]);
    }
    free(g);
}
END_TEST

/* Every winning head of every position: the proposed move is legal by the
 * literal rule, is one of the literally generated moves, and lands on 0. */
START_TEST(test_winning_moves)
{
    gr_coins_rule rule = rules[_i];
    uint8_t *g = brute_values(rule);
    static uint32_t masks[1 + ROW * ROW];
    for (uint32_t pos = 1; pos < POSITIONS; pos++) {
        for (unsigned p = 1; p <= ROW; p++) {
            if (!(pos & coin_bit(p)))
                continue;
            uint64_t gp = gr_coins_value(rule, p), target = gp ^ g[pos];
            gr_coins_move mv;
            if (target >= gp) {
                REQUIRE_EQ(gr_coins_move_to(rule, p, target, &mv), GR_EINVAL);
                continue;
            }
            REQUIRE_EQ(gr_coins_move_to(rule, p, target, &mv), GR_OK);
            require_legal_shape(rule, p, &mv);
            uint32_t mask = move_mask(rule, &mv);
            unsigned n = literal_moves(rule, p, masks);
            bool listed = false;
            for (unsigned i = 0; i < n; i++)
                listed = listed || masks[i] == mask;
            REQUIRE(listed);
            if (g[pos ^ mask] != 0)
                ck_abort_msg("rule %d, heads %#x, head %u: lands on %u", (int)rule, pos, p,
                             g[pos ^ mask]);
        }
    }
    free(g);
}
END_TEST

/* ---- far positions: independent value formulas ---- */

static bool odd_popcount(uint64_t v)
{
    bool odd = false;
    for (; v != 0; v >>= 1)
        odd ^= (v & 1) != 0;
    return odd;
}

/* Mock turtles: g(p) is odious and has exactly p - 1 odious numbers below it
 * (each pair 2m, 2m + 1 holds exactly one), so it is the p-th one. */
static void require_odious_rank(uint64_t p, uint64_t v)
{
    REQUIRE(odd_popcount(v));
    uint64_t below = v / 2; /* pairs below v; if v is odd, v - 1 is evil */
    REQUIRE_EQ(below, p - 1);
}

/* XOR of lowbit(i) over i in [a, b] (1 <= a, b may be a - 1), by counting
 * for every j how many i have lowbit(i) == 2^j: no Gray codes. */
static uint64_t ruler_range_xor(uint64_t a, uint64_t b)
{
    uint64_t x = 0;
    for (unsigned j = 0; j < 63; j++) {
        uint64_t mult_j = (b >> j) - ((a - 1) >> j);
        uint64_t mult_j1 = (b >> (j + 1)) - ((a - 1) >> (j + 1));
        if ((mult_j - mult_j1) & 1)
            x ^= UINT64_C(1) << j;
    }
    return x;
}

static uint64_t value_by_rule(gr_coins_rule rule, uint64_t p)
{
    uint64_t v = gr_coins_value(rule, p);
    switch (rule) {
    case GR_COINS_TURNING_TURTLES:
        REQUIRE(v == p);
        break;
    case GR_COINS_MOCK_TURTLES:
        require_odious_rank(p, v);
        break;
    case GR_COINS_RULER:
        REQUIRE(v == ruler_range_xor(p, p) && v != 0 && p % v == 0 && (p / v) % 2 == 1);
        break;
    }
    return v;
}

/* The move to `target` on the head at p: legal shape, and the values of the
 * other turned coins XOR to target. */
static void check_far_move(gr_coins_rule rule, uint64_t p, uint64_t target)
{
    gr_coins_move mv;
    REQUIRE_EQ(gr_coins_move_to(rule, p, target, &mv), GR_OK);
    require_legal_shape(rule, p, &mv);
    uint64_t x = 0;
    if (rule == GR_COINS_RULER) {
        x = mv.run_from < p ? ruler_range_xor(mv.run_from, p - 1) : 0;
    } else {
        for (unsigned i = 0; i < mv.nothers; i++)
            x ^= value_by_rule(rule, mv.others[i]);
    }
    if (x != target)
        ck_abort_msg("rule %d, p %llu, target %llu: others xor %llu", (int)rule,
                     (unsigned long long)p, (unsigned long long)target, (unsigned long long)x);
}

static void check_far_head(gr_coins_rule rule, uint64_t p, uint64_t *rng)
{
    uint64_t gp = value_by_rule(rule, p);
    check_far_move(rule, p, 0);
    check_far_move(rule, p, gp - 1);
    check_far_move(rule, p, rng_next(rng) % gp);
    for (uint64_t t = 1; t < gp; t <<= 1)
        check_far_move(rule, p, t);
    gr_coins_move mv;
    REQUIRE_EQ(gr_coins_move_to(rule, p, gp, &mv), GR_EINVAL);
}

START_TEST(test_far_heads)
{
    gr_coins_rule rule = rules[_i];
    uint64_t rng = 0xc0175u + (uint64_t)_i;
    static const uint64_t fixed[] = {
        1, 2, 3, 4, 1023, 1024, 1025, UINT64_C(1) << 59, (UINT64_C(1) << 59) + 1,
        (UINT64_C(1) << 59) - 1, UINT64_C(576460752303423488) * 3 / 2,
        GR_COINS_MAX_POS - 1, GR_COINS_MAX_POS,
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        check_far_head(rule, fixed[i], &rng);
    for (int i = 0; i < 20000; i++) {
        uint64_t p = 1 + rng_next(&rng) % GR_COINS_MAX_POS;
        if (i % 2 == 0) /* many trailing zeros: long ruler runs */
            p = (p >> (rng_next(&rng) % 60)) << (rng_next(&rng) % 60);
        if (p == 0 || p > GR_COINS_MAX_POS)
            continue;
        check_far_head(rule, p, &rng);
    }
}
END_TEST

/* Ruler: the run start never passes p, for every p <= 2^12 and every target
 * (the bound the engine's Gray-code inversion relies on), and the run's
 * values, summed one by one, XOR to the target. */
START_TEST(test_ruler_runs_exhaustive)
{
    for (uint64_t p = 1; p <= 4096; p++) {
        for (uint64_t t = 0; t < (p & (~p + 1)); t++) {
            gr_coins_move mv;
            REQUIRE_EQ(gr_coins_move_to(GR_COINS_RULER, p, t, &mv), GR_OK);
            REQUIRE(mv.run_from >= 1 && mv.run_from <= p);
            REQUIRE_EQ(mv.run_from == p, t == 0);
            uint64_t x = 0;
            for (uint64_t c = mv.run_from; c < p; c++)
                x ^= c & (~c + 1);
            REQUIRE_EQ(x, t);
        }
    }
}
END_TEST

/* Mock turtles: the first 2^16 values are the odious numbers in order. */
START_TEST(test_mock_turtles_enumeration)
{
    uint64_t p = 1;
    for (uint64_t v = 0; p <= 65536; v++) {
        if (odd_popcount(v)) {
            REQUIRE_EQ(gr_coins_value(GR_COINS_MOCK_TURTLES, p), v);
            p++;
        }
    }
}
END_TEST

START_TEST(test_invalid)
{
    gr_coins_move mv = { .pos = 77, .nothers = 0, .others = { 0, 0 }, .run_from = 77 };
    for (size_t r = 0; r < NRULES; r++) {
        REQUIRE_EQ(gr_coins_move_to(rules[r], 0, 0, &mv), GR_EINVAL);
        REQUIRE_EQ(gr_coins_move_to(rules[r], GR_COINS_MAX_POS + 1, 0, &mv), GR_EINVAL);
        REQUIRE_EQ(gr_coins_move_to(rules[r], 6, 5000, &mv), GR_EINVAL);
        REQUIRE_EQ(gr_coins_move_to(rules[r], 6, 0, NULL), GR_EINVAL);
        REQUIRE_EQ(gr_coins_value(rules[r], 0), 0);
    }
    REQUIRE_EQ(gr_coins_move_to(GR_COINS_RULER, 6, 2, &mv), GR_EINVAL); /* g(6) = 2 */
    REQUIRE_EQ(gr_coins_move_to((gr_coins_rule)42, 6, 0, &mv), GR_EINVAL);
    REQUIRE_EQ(mv.pos, 77); /* untouched on failure */
}
END_TEST

static Suite *coins_suite(void)
{
    Suite *suite = suite_create("coins");
    TCase *brute = tcase_create("brute");
    tcase_set_timeout(brute, 60);
    tcase_add_loop_test(brute, test_single_heads, 0, (int)NRULES);
    tcase_add_loop_test(brute, test_xor_of_heads, 0, (int)NRULES);
    tcase_add_loop_test(brute, test_winning_moves, 0, (int)NRULES);
    suite_add_tcase(suite, brute);

    TCase *far = tcase_create("far");
    tcase_set_timeout(far, 60);
    tcase_add_loop_test(far, test_far_heads, 0, (int)NRULES);
    tcase_add_test(far, test_ruler_runs_exhaustive);
    tcase_add_test(far, test_mock_turtles_enumeration);
    tcase_add_test(far, test_invalid);
    suite_add_tcase(suite, far);
    return suite;
}

int main(void)
{
    return gr_check_run(coins_suite());
}
