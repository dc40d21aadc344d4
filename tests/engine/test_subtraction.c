/* SPDX-License-Identifier: MIT */
/* Tests for subtraction games (include/grundy/subtraction.h).
 *
 * Brute-force twins: values by a plain mex loop written here; least
 * preperiod and period checked on those values; win/loss of sums of up to
 * three heaps by search over the joint position (no Sprague-Grundy theory),
 * against which every winning move the engine proposes is replayed. */
#include "grundy/subtraction.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "seq_check.h"


#define BIG_BUDGET 4000000000u
#define SMALL_HEAP 16u /* heaps of the exhaustive sum search: 0 .. SMALL_HEAP */

/* ---- deterministic pseudo-random numbers (splitmix64) ---- */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A random non-empty subset of {1 .. top} with at most `most` elements
 * (repeats possible in the draw, which also exercises deduplication). */
static size_t random_set(uint64_t *rng, uint64_t top, size_t most, uint64_t *set)
{
    size_t k = 1 + (size_t)(rng_next(rng) % most);
    for (size_t i = 0; i < k; i++)
        set[i] = 1 + rng_next(rng) % top;
    return k;
}

/* ---- brute-force twin ---- */

/* g(0 .. count) by the definition, into a malloc'd array. */
static uint16_t *naive_values(const uint64_t *set, size_t k, uint64_t count)
{
    uint16_t *g = malloc(count * sizeof *g);
    REQUIRE(g != NULL);
    for (uint64_t n = 0; n < count; n++) {
        bool seen[70] = { false }; /* mex of at most 64 options */
        for (size_t i = 0; i < k; i++)
            if (set[i] <= n && g[n - set[i]] < 70)
                seen[g[n - set[i]]] = true;
        uint16_t m = 0;
        while (seen[m])
            m++;
        g[n] = m;
    }
    return g;
}

static gr_seq solve_ok(const uint64_t *set, size_t k)
{
    gr_budget b = gr_budget_make(BIG_BUDGET);
    gr_seq s;
    gr_status st = gr_subtraction_solve(set, k, 0, &b, &s);
    REQUIRE_EQ(st, GR_OK);
    REQUIRE(s.periodic);
    REQUIRE(s.period >= 1);
    REQUIRE(s.count >= s.preperiod + s.period);
    REQUIRE(s.values == s.owned);
    return s;
}

/* Engine values agree with the twin for n < upto, through gr_seq_value (so
 * past count this checks the periodic extension). */
static void check_against_naive(const gr_seq *s, const uint16_t *g, uint64_t upto)
{
    for (uint64_t n = 0; n < upto; n++) {
        uint16_t v;
        REQUIRE_EQ(gr_seq_value(s, n, &v), GR_OK);
        if (v != g[n])
            ck_abort_msg("g(%llu): engine %u, naive %u", (unsigned long long)n, v, g[n]);
    }
}

/* ---- known vectors (references.md) ---- */

typedef struct vector_case {
    uint64_t set[5];
    size_t k;
    uint64_t pre, period;
    uint16_t first[7];
    size_t nfirst;
} vector_case;

static const vector_case vectors[] = {
    { { 1, 2, 3 }, 3, 0, 4, { 0, 1, 2, 3, 0, 1, 2 }, 7 },
    { { 1, 3, 4 }, 3, 0, 7, { 0, 1, 0, 1, 2, 3, 2 }, 7 },
    { { 2, 3 }, 2, 0, 5, { 0, 0, 1, 1, 2 }, 5 },
    { { 2, 5 }, 2, 0, 7, { 0, 0, 1, 1, 0, 2, 1 }, 7 },
    { { 3, 5, 9 }, 3, 14, 2, { 0 }, 0 },
    { { 1, 4, 7, 11, 15 }, 5, 47, 8, { 0 }, 0 },
    { { 15, 11, 4, 1, 7 }, 5, 47, 8, { 0 }, 0 }, /* any order */
    { { 3, 3, 9, 5, 9 }, 5, 14, 2, { 0 }, 0 },   /* repeats */
};

START_TEST(test_vectors)
{
    const vector_case *vc = &vectors[_i];
    gr_seq s = solve_ok(vc->set, vc->k);
    REQUIRE_EQ(s.preperiod, vc->pre);
    REQUIRE_EQ(s.period, vc->period);
    for (size_t i = 0; i < vc->nfirst; i++)
        REQUIRE_EQ(s.values[i], vc->first[i]);
    uint16_t *g = naive_values(vc->set, vc->k, s.count + 500);
    check_against_naive(&s, g, s.count + 500);
    check_least_period(&s, g, s.count + 500);
    free(g);
    gr_seq_free(&s);
    REQUIRE(s.values == NULL && s.owned == NULL && s.count == 0);
}
END_TEST

/* ---- exhaustive twin: every subset of {1 .. 8} ---- */

START_TEST(test_all_subsets_of_1_to_8)
{
    for (unsigned mask = 1; mask < 256; mask++) {
        uint64_t set[8];
        size_t k = 0;
        for (unsigned i = 0; i < 8; i++)
            if (mask & (1u << i))
                set[k++] = i + 1;
        gr_seq s = solve_ok(set, k);
        uint64_t upto = s.count + 200 > 400 ? s.count + 200 : 400;
        uint16_t *g = naive_values(set, k, upto);
        check_against_naive(&s, g, upto);
        check_least_period(&s, g, upto);
        free(g);
        gr_seq_free(&s);
    }
}
END_TEST

/* ---- random sets in {1 .. 64}: extrapolation far past count ---- */

START_TEST(test_random_sets_extrapolate)
{
    uint64_t rng = 0x5eed0001u + (uint64_t)_i;
    for (int round = 0; round < 100; round++) {
        uint64_t set[12];
        size_t k = random_set(&rng, 64, 12, set);
        gr_seq s = solve_ok(set, k);
        uint64_t upto = s.count + 2000;
        uint16_t *g = naive_values(set, k, upto);
        check_against_naive(&s, g, upto);
        check_least_period(&s, g, upto);
        free(g);
        gr_seq_free(&s);
    }
}
END_TEST

/* The largest moves accepted. S = {65536}: g(n) = floor(n / 65536) mod 2. */
START_TEST(test_largest_moves)
{
    uint64_t one[] = { GR_SUBTRACTION_MAX_MOVE };
    gr_seq s = solve_ok(one, 1);
    REQUIRE_EQ(s.preperiod, 0);
    REQUIRE_EQ(s.period, 2 * 65536);
    uint16_t v;
    REQUIRE_EQ(gr_seq_value(&s, UINT64_MAX, &v), GR_OK);
    REQUIRE_EQ(v, (UINT64_MAX / 65536) % 2);
    gr_seq_free(&s);

    uint64_t mixed[] = { 65536, 1, 40000, 3 };
    s = solve_ok(mixed, 4);
    uint64_t upto = s.count + 70000;
    uint16_t *g = naive_values(mixed, 4, upto);
    check_against_naive(&s, g, upto);
    check_least_period(&s, g, upto);
    free(g);
    gr_seq_free(&s);
}
END_TEST

/* ---- winning moves replayed against a search of the joint position ---- */

/* win[a][b][c]: the player to move wins the sum of heaps a, b, c, found by
 * searching moves (take s from one heap), with no Grundy values at all. */
typedef struct sum_table {
    bool win[SMALL_HEAP + 1][SMALL_HEAP + 1][SMALL_HEAP + 1];
} sum_table;

static void search_sums(const uint64_t *set, size_t k, sum_table *t)
{
    for (unsigned total = 0; total <= 3 * SMALL_HEAP; total++)
        for (unsigned a = 0; a <= SMALL_HEAP; a++)
            for (unsigned b = 0; b <= SMALL_HEAP; b++) {
                if (a + b > total || total - a - b > SMALL_HEAP)
                    continue;
                unsigned c = total - a - b, h[3] = { a, b, c };
                bool win = false;
                for (unsigned i = 0; i < 3 && !win; i++)
                    for (size_t j = 0; j < k && !win; j++) {
                        if (set[j] > h[i])
                            continue;
                        unsigned n[3] = { a, b, c };
                        n[i] -= (unsigned)set[j];
                        win = !t->win[n[0]][n[1]][n[2]];
                    }
                t->win[a][b][c] = win;
            }
}

static void replay_sums(const uint64_t *set, size_t k)
{
    sum_table *t = calloc(1, sizeof *t);
    REQUIRE(t != NULL);
    search_sums(set, k, t);
    gr_seq s = solve_ok(set, k);
    for (unsigned a = 0; a <= SMALL_HEAP; a++)
        for (unsigned b = 0; b <= SMALL_HEAP; b++)
            for (unsigned c = 0; c <= SMALL_HEAP; c++) {
                unsigned h[3] = { a, b, c };
                uint16_t g[3];
                for (unsigned i = 0; i < 3; i++)
                    REQUIRE_EQ(gr_seq_value(&s, h[i], &g[i]), GR_OK);
                unsigned x = g[0] ^ g[1] ^ g[2];
                REQUIRE_EQ(x != 0, t->win[a][b][c]);
                for (unsigned i = 0; i < 3; i++) {
                    uint16_t target = (uint16_t)(g[i] ^ x);
                    uint64_t take = 0;
                    gr_status st = gr_subtraction_move(set, k, &s, h[i], target, &take);
                    if (x == 0) { /* a P-position: no move keeps a value */
                        REQUIRE_EQ(st, GR_EINVAL);
                        continue;
                    }
                    if (target < g[i]) /* the mex reaches every smaller value */
                        REQUIRE_EQ(st, GR_OK);
                    if (st != GR_OK) {
                        REQUIRE_EQ(st, GR_EINVAL);
                        continue;
                    }
                    bool legal = false;
                    for (size_t j = 0; j < k; j++)
                        legal = legal || set[j] == take;
                    REQUIRE(legal && take <= h[i]);
                    unsigned n[3] = { a, b, c };
                    n[i] -= (unsigned)take;
                    REQUIRE(!t->win[n[0]][n[1]][n[2]]); /* the opponent loses */
                    /* the least such take */
                    for (size_t j = 0; j < k; j++) {
                        uint16_t other;
                        if (set[j] >= take)
                            continue;
                        REQUIRE_EQ(gr_seq_value(&s, h[i] - set[j], &other), GR_OK);
                        REQUIRE(other != target);
                    }
                }
            }
    gr_seq_free(&s);
    free(t);
}

START_TEST(test_winning_moves_small_sums)
{
    static const uint64_t sets[][4] = {
        { 1, 2, 3 }, { 1, 3, 4 }, { 2, 3 }, { 2, 5 }, { 3, 5, 9 }, { 1, 4, 7, 11 }, { 4, 1, 1 },
    };
    static const size_t sizes[] = { 3, 3, 2, 2, 3, 4, 3 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        replay_sums(sets[i], sizes[i]);
}
END_TEST

/* ---- moves at huge heaps ---- */

static void check_huge_moves(const uint64_t *set, size_t k, const gr_seq *s, uint64_t n)
{
    uint16_t gn;
    REQUIRE_EQ(gr_seq_value(s, n, &gn), GR_OK);
    for (unsigned target = 0; target <= s->max_value + 1u; target++) {
        uint64_t take = 0;
        gr_status st = gr_subtraction_move(set, k, s, n, (uint16_t)target, &take);
        if (target == gn) {
            REQUIRE_EQ(st, GR_EINVAL);
            continue;
        }
        if (target < gn)
            REQUIRE_EQ(st, GR_OK); /* the mex reaches every smaller value */
        if (st != GR_OK) {
            REQUIRE_EQ(st, GR_EINVAL);
            continue;
        }
        bool legal = false;
        for (size_t j = 0; j < k; j++)
            legal = legal || set[j] == take;
        REQUIRE(legal);
        uint16_t after;
        REQUIRE_EQ(gr_seq_value(s, n - take, &after), GR_OK);
        REQUIRE_EQ(after, target);
    }
}

START_TEST(test_huge_heaps)
{
    static const uint64_t heaps[] = { 1000000000000000000u, UINT64_MAX >> 1, UINT64_MAX,
                                      999999999999999989u };
    uint64_t rng = 0xfeedu;
    for (int round = 0; round < 60; round++) {
        uint64_t set[12];
        size_t k = random_set(&rng, 64, 12, set);
        gr_seq s = solve_ok(set, k);
        for (size_t i = 0; i < sizeof heaps / sizeof heaps[0]; i++)
            check_huge_moves(set, k, &s, heaps[i]);
        gr_seq_free(&s);
    }
}
END_TEST

/* ---- budget, bounds, invalid input ---- */

START_TEST(test_budget)
{
    uint64_t set[] = { 3, 5, 9 }; /* needs 25 values: 25 * (3 + 4) steps and more */
    gr_seq s;
    gr_budget b = gr_budget_make(5);
    REQUIRE_EQ(gr_subtraction_solve(set, 3, 0, &b, &s), GR_ELIMIT);
    REQUIRE(s.values == NULL && s.count == 0 && s.owned == NULL);
    REQUIRE_EQ(b.left, 0);

    /* Enough for a few values but not the period: OK when need is covered. */
    b = gr_budget_make(70);
    REQUIRE_EQ(gr_subtraction_solve(set, 3, 3, &b, &s), GR_OK);
    REQUIRE(!s.periodic);
    REQUIRE(s.count > 3 && s.count < 25);
    REQUIRE_EQ(s.values[3], 1);
    uint16_t v;
    REQUIRE_EQ(gr_seq_value(&s, s.count, &v), GR_EBOUND);
    uint64_t take;
    REQUIRE_EQ(gr_subtraction_move(set, 3, &s, s.count + 3, 0, &take), GR_EBOUND);
    REQUIRE_EQ(gr_subtraction_move(set, 3, &s, s.count - 1 + 3, 0, &take) == GR_EBOUND, false);
    gr_seq_free(&s);

    b = gr_budget_make(70);
    REQUIRE_EQ(gr_subtraction_solve(set, 3, 1000, &b, &s), GR_ELIMIT);
    REQUIRE(s.values == NULL && s.count == 0);

    /* A budget that covers the period exactly is enough; spending is exact. */
    b = gr_budget_make(BIG_BUDGET);
    REQUIRE_EQ(gr_subtraction_solve(set, 3, 0, &b, &s), GR_OK);
    uint64_t spent = BIG_BUDGET - b.left;
    gr_seq_free(&s);
    b = gr_budget_make(spent);
    REQUIRE_EQ(gr_subtraction_solve(set, 3, 1000, &b, &s), GR_OK);
    REQUIRE(s.periodic);
    gr_seq_free(&s);
    b = gr_budget_make(spent - 1);
    REQUIRE_EQ(gr_subtraction_solve(set, 3, 1000, &b, &s), GR_ELIMIT);
}
END_TEST

START_TEST(test_invalid)
{
    gr_seq s;
    gr_budget b = gr_budget_make(BIG_BUDGET);
    uint64_t zero[] = { 2, 0 };
    uint64_t too_big[] = { 1, GR_SUBTRACTION_MAX_MOVE + 1 };
    REQUIRE_EQ(gr_subtraction_solve(zero, 0, 0, &b, &s), GR_EINVAL);
    REQUIRE_EQ(gr_subtraction_solve(zero, 2, 0, &b, &s), GR_EINVAL);
    REQUIRE(s.values == NULL && s.count == 0);
    REQUIRE_EQ(gr_subtraction_solve(too_big, 2, 0, &b, &s), GR_EINVAL);
    REQUIRE_EQ(gr_subtraction_solve(NULL, 1, 0, &b, &s), GR_EINVAL);

    uint64_t set[] = { 1, 2 };
    s = solve_ok(set, 2);
    uint64_t take = 77;
    REQUIRE_EQ(gr_subtraction_move(set, 0, &s, 5, 0, &take), GR_EINVAL);
    REQUIRE_EQ(gr_subtraction_move(zero, 2, &s, 5, 0, &take), GR_EINVAL);
    REQUIRE_EQ(gr_subtraction_move(set, 2, &s, 0, 0, &take), GR_EINVAL); /* no move at 0 */
    REQUIRE_EQ(gr_subtraction_move(set, 2, &s, 5, 7, &take), GR_EINVAL);
    REQUIRE_EQ(take, 77); /* untouched on failure */
    gr_seq_free(&s);
}
END_TEST

static Suite *subtraction_suite(void)
{
    Suite *suite = suite_create("subtraction");
    TCase *tc = tcase_create("values");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_vectors, 0, (int)(sizeof vectors / sizeof vectors[0]));
    tcase_add_test(tc, test_all_subsets_of_1_to_8);
    tcase_add_loop_test(tc, test_random_sets_extrapolate, 0, 4);
    tcase_add_test(tc, test_largest_moves);
    suite_add_tcase(suite, tc);

    TCase *moves = tcase_create("moves");
    tcase_set_timeout(moves, 60);
    tcase_add_test(moves, test_winning_moves_small_sums);
    tcase_add_test(moves, test_huge_heaps);
    suite_add_tcase(suite, moves);

    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, test_budget);
    tcase_add_test(limits, test_invalid);
    suite_add_tcase(suite, limits);
    return suite;
}

int main(void)
{
    return gr_check_run(subtraction_suite());
}
