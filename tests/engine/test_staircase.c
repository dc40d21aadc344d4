/* SPDX-License-Identifier: MIT */
/* Staircase Nim: fast rule against a brute-force game search, every winning
 * move replayed. */
#include <stdint.h>
#include <string.h>

#include "check_main.h"
#include "grundy/staircase.h"

#define MAX_STAIRS 5 /* stairs 0..4; stair 0 is the floor */
#define MAX_COINS 4  /* per stair at the start */
#define BASE 17      /* coins pile up as they descend: at most 4 * 4 on stair 1 */
#define STATES (BASE * BASE * BASE * BASE)

/* ---- brute force: stairs 1..4 as base-17 digits; the floor never moves ---- */

static signed char memo_win[STATES]; /* -1 unknown; written by one test process */

static unsigned digit_place(unsigned stair)
{
    unsigned place = 1;
    for (unsigned i = 1; i < stair; i++)
        place *= BASE;
    return place;
}

static bool brute_win(unsigned code)
{
    if (memo_win[code] >= 0)
        return memo_win[code] == 1;
    bool win = false;
    for (unsigned stair = 1; stair < MAX_STAIRS && !win; stair++) {
        unsigned place = digit_place(stair);
        unsigned coins = code / place % BASE;
        for (unsigned c = 1; c <= coins && !win; c++) {
            /* c coins leave `stair`; they land on stair - 1 unless that is the floor */
            unsigned next = code - c * place + (stair > 1 ? c * (place / BASE) : 0);
            win = !brute_win(next);
        }
    }
    memo_win[code] = win ? 1 : 0;
    return win;
}

static unsigned encode(const uint64_t *stairs, size_t n)
{
    unsigned code = 0;
    for (size_t i = n; i-- > 1;)
        code = code * BASE + (unsigned)stairs[i];
    return code;
}

static bool next_tuple(uint64_t *stairs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (stairs[i] < MAX_COINS) {
            stairs[i]++;
            return true;
        }
        stairs[i] = 0;
    }
    return false;
}

static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A legal move from an odd stair; applies it to `after`. */
static void check_and_apply(const uint64_t *stairs, size_t n, gr_stair_move move, uint64_t *after)
{
    ck_assert_uint_ge(move.from, 1);
    ck_assert_uint_lt(move.from, n);
    ck_assert_uint_eq(move.from % 2, 1);
    ck_assert_uint_ge(move.count, 1);
    ck_assert_uint_le(move.count, stairs[move.from]);
    memcpy(after, stairs, n * sizeof *after);
    after[move.from] -= move.count;
    after[move.from - 1] += move.count;
}

/* ---- tests ---- */

START_TEST(test_exhaustive)
{
    size_t n = (size_t)_i;
    memset(memo_win, -1, sizeof memo_win);
    uint64_t stairs[MAX_STAIRS] = { 0 };
    do {
        gr_stair_move move = { 0, 0 };
        bool fast = gr_staircase_normal(stairs, n, &move);
        bool brute = brute_win(encode(stairs, n));
        ck_assert_msg(fast == brute, "n=%zu code=%u: fast %d brute %d", n, encode(stairs, n), fast, brute);
        ck_assert_int_eq(gr_staircase_value(stairs, n) != 0, brute);
        if (!fast)
            continue;
        uint64_t after[MAX_STAIRS];
        check_and_apply(stairs, n, move, after);
        ck_assert(!brute_win(encode(after, n)));
    } while (next_tuple(stairs, n));
}
END_TEST

START_TEST(test_known_values)
{
    const uint64_t a[] = { 100, 3, 9, 5 };
    ck_assert_uint_eq(gr_staircase_value(a, 4), 3 ^ 5);
    const uint64_t b[] = { 0, 6, 1, 6 };
    gr_stair_move move;
    ck_assert(!gr_staircase_normal(b, 4, &move)); /* even stairs do not matter */
    ck_assert_uint_eq(gr_staircase_value(NULL, 0), 0);
    const uint64_t floor_only[] = { 7 };
    ck_assert(!gr_staircase_normal(floor_only, 1, &move));
}
END_TEST

START_TEST(test_large_moves)
{
    uint64_t seed = 7;
    for (int round = 0; round < 20000; round++) {
        size_t n = 1 + rng_next(&seed) % 9;
        uint64_t stairs[9];
        for (size_t i = 0; i < n; i++)
            stairs[i] = rng_next(&seed) >> 1; /* room for coins landing below */
        gr_stair_move move;
        bool win = gr_staircase_normal(stairs, n, &move);
        ck_assert_int_eq(win, gr_staircase_value(stairs, n) != 0);
        if (!win)
            continue;
        uint64_t after[9];
        check_and_apply(stairs, n, move, after);
        ck_assert_uint_eq(gr_staircase_value(after, n), 0);
    }
}
END_TEST

static Suite *staircase_suite(void)
{
    Suite *s = suite_create("staircase");
    TCase *tc = tcase_create("brute_force");
    tcase_add_loop_test(tc, test_exhaustive, 0, MAX_STAIRS + 1);
    suite_add_tcase(s, tc);
    tc = tcase_create("known");
    tcase_add_test(tc, test_known_values);
    tcase_add_test(tc, test_large_moves);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(staircase_suite());
}
