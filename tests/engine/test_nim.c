/* SPDX-License-Identifier: MIT */
/* Nim: fast rules against a brute-force game search, every winning move
 * replayed. */
#include <stdint.h>
#include <string.h>

#include "check_main.h"
#include "grundy/nim.h"

#define MAX_PILES 4
#define MAX_SIZE 7
#define STATES 4096 /* 8^4: piles encoded as base-8 digits */

/* ---- brute force: plain game search from the rules ---- */

typedef struct brute_memo {
    signed char win[STATES]; /* -1 unknown, 0 mover loses, 1 mover wins */
    bool misere;             /* the player who cannot move wins */
} brute_memo;

/* Pile i is base-8 digit i; absent piles are empty. */
static unsigned encode(const uint64_t *piles, size_t n)
{
    unsigned code = 0;
    for (size_t i = n; i-- > 0;)
        code = code * 8 + (unsigned)piles[i];
    return code;
}

static bool brute_win(brute_memo *memo, unsigned code)
{
    if (memo->win[code] >= 0)
        return memo->win[code] == 1;
    bool any_move = false, win = false;
    unsigned place = 1;
    for (int digit = 0; digit < MAX_PILES; digit++, place *= 8) {
        unsigned size = code / place % 8;
        for (unsigned take = 1; take <= size; take++) {
            any_move = true;
            if (!brute_win(memo, code - take * place))
                win = true;
        }
    }
    if (!any_move)
        win = memo->misere;
    memo->win[code] = win ? 1 : 0;
    return win;
}

static void brute_init(brute_memo *memo, bool misere)
{
    memset(memo->win, -1, sizeof memo->win);
    memo->misere = misere;
}

/* ---- helpers ---- */

static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Next tuple of n piles in 0..MAX_SIZE; false after the last. */
static bool next_tuple(uint64_t *piles, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (piles[i] < MAX_SIZE) {
            piles[i]++;
            return true;
        }
        piles[i] = 0;
    }
    return false;
}

static bool piles_all_empty(const uint64_t *piles, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (piles[i] != 0)
            return false;
    }
    return true;
}

static void check_move_legal(const uint64_t *piles, size_t n, gr_pile_move move)
{
    ck_assert_uint_lt(move.pile, n);
    ck_assert_uint_lt(move.to, piles[move.pile]);
}

/* Exhaustive agreement with the brute force for all positions with n piles,
 * replaying each winning move. */
static void check_all_positions(size_t n, bool misere)
{
    brute_memo memo;
    brute_init(&memo, misere);
    uint64_t piles[MAX_PILES] = { 0 };
    do {
        gr_pile_move move = { 999, 999 };
        bool fast = misere ? gr_nim_misere(piles, n, &move) : gr_nim_normal(piles, n, &move);
        bool brute = brute_win(&memo, encode(piles, n));
        ck_assert_msg(fast == brute, "n=%zu piles %llu %llu %llu %llu misere=%d: fast %d brute %d",
                      n, (unsigned long long)piles[0], (unsigned long long)piles[1],
                      (unsigned long long)piles[2], (unsigned long long)piles[3], misere, fast, brute);
        if (!fast)
            continue;
        if (misere && move.pile == 999) {
            /* a win without a move only when every pile is empty */
            ck_assert(piles_all_empty(piles, n));
            continue;
        }
        check_move_legal(piles, n, move);
        uint64_t after[MAX_PILES];
        memcpy(after, piles, sizeof after);
        after[move.pile] = move.to;
        ck_assert_msg(!brute_win(&memo, encode(after, n)), "move leaves a win for the opponent");
    } while (next_tuple(piles, n));
}

/* ---- tests ---- */

START_TEST(test_normal_exhaustive)
{
    check_all_positions((size_t)_i, false);
}
END_TEST

START_TEST(test_misere_exhaustive)
{
    check_all_positions((size_t)_i, true);
}
END_TEST

START_TEST(test_nim_sum_values)
{
    const uint64_t a[] = { 3, 4, 5 };
    ck_assert_uint_eq(gr_nim_sum(a, 3), 2);
    const uint64_t b[] = { UINT64_MAX, 1, 1u << 20 };
    ck_assert_uint_eq(gr_nim_sum(b, 3), UINT64_MAX ^ 1 ^ (1u << 20));
    ck_assert_uint_eq(gr_nim_sum(NULL, 0), 0);
}
END_TEST

/* Positions where the mislabelled tutorial rule ("losing iff (nim-sum 0 and
 * all heaps <= 1) or (nim-sum != 0 and some heap > 1)") gives the wrong
 * answer, and a few where it agrees. */
static const struct misere_case {
    uint64_t piles[4];
    size_t n;
    bool mover_wins;
} misere_cases[] = {
    { { 1, 1, 0, 0 }, 2, true },
    { { 1, 0, 0, 0 }, 1, false },
    { { 1, 1, 1, 0 }, 3, false },
    { { 2, 2, 0, 0 }, 2, false },
    { { 2, 0, 0, 0 }, 1, true },
    { { 3, 1, 1, 0 }, 3, true },
    { { 1, 2, 3, 0 }, 3, false },
    { { 0, 0, 0, 0 }, 0, true },
    { { 0, 0, 0, 0 }, 4, true },
};

START_TEST(test_misere_known)
{
    const struct misere_case *c = &misere_cases[_i];
    gr_pile_move move;
    ck_assert_int_eq(gr_nim_misere(c->piles, c->n, &move), c->mover_wins);
}
END_TEST

START_TEST(test_zero_piles_writes_no_move)
{
    gr_pile_move move = { 12345, 678 };
    const uint64_t empty[3] = { 0, 0, 0 };
    ck_assert(!gr_nim_normal(empty, 0, &move));
    ck_assert(gr_nim_misere(empty, 0, &move));
    ck_assert(gr_nim_misere(empty, 3, &move));
    ck_assert_uint_eq(move.pile, 12345);
    ck_assert_uint_eq(move.to, 678);
}
END_TEST

/* Large piles: the fast rule is the checker; moves must be legal and leave
 * a position the same rule calls lost, which also means nim-sum 0 (normal)
 * or the misere losing condition stated independently here. */
static bool misere_lost_by_definition(const uint64_t *piles, size_t n)
{
    size_t ones = 0;
    bool big = false;
    for (size_t i = 0; i < n; i++) {
        ones += piles[i] == 1;
        big = big || piles[i] > 1;
    }
    return big ? gr_nim_sum(piles, n) == 0 : ones % 2 == 1;
}

START_TEST(test_large_moves)
{
    uint64_t seed = 42;
    for (int round = 0; round < 20000; round++) {
        size_t n = 1 + rng_next(&seed) % 6;
        uint64_t piles[6];
        for (size_t i = 0; i < n; i++) {
            uint64_t r = rng_next(&seed);
            piles[i] = round % 3 == 0 ? r : round % 3 == 1 ? r % 3 : (r >> (r % 64));
        }
        gr_pile_move move;
        for (int misere = 0; misere <= 1; misere++) {
            bool win = misere ? gr_nim_misere(piles, n, &move) : gr_nim_normal(piles, n, &move);
            bool lost = misere ? misere_lost_by_definition(piles, n) : gr_nim_sum(piles, n) == 0;
            ck_assert_int_eq(win, !lost);
            if (!win || (misere && gr_nim_sum(piles, n) == 0 && piles_all_empty(piles, n)))
                continue;
            check_move_legal(piles, n, move);
            uint64_t after[6];
            memcpy(after, piles, sizeof after);
            after[move.pile] = move.to;
            if (misere)
                ck_assert(misere_lost_by_definition(after, n));
            else
                ck_assert_uint_eq(gr_nim_sum(after, n), 0);
        }
    }
}
END_TEST

static Suite *nim_suite(void)
{
    Suite *s = suite_create("nim");
    TCase *tc = tcase_create("brute_force");
    tcase_add_loop_test(tc, test_normal_exhaustive, 0, MAX_PILES + 1);
    tcase_add_loop_test(tc, test_misere_exhaustive, 0, MAX_PILES + 1);
    suite_add_tcase(s, tc);
    tc = tcase_create("known");
    tcase_add_test(tc, test_nim_sum_values);
    tcase_add_loop_test(tc, test_misere_known, 0, (int)(sizeof misere_cases / sizeof misere_cases[0]));
    tcase_add_test(tc, test_zero_piles_writes_no_move);
    tcase_add_test(tc, test_large_moves);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(nim_suite());
}
