/* SPDX-License-Identifier: MIT */
/* Tests for rule-defined subtraction sets (include/grundy/rules.h).
 *
 * Brute-force twins: set membership by trial division / repeated squaring
 * written here; Grundy values by a plain mex over every s <= n tested for
 * membership; win/loss by the definition (n wins iff some move reaches a
 * losing heap), independent of Grundy theory. Every move the engine
 * proposes is checked to be the smallest one reaching its target. */
#include "grundy/rules.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_main.h"


#define BIG_BUDGET UINT64_MAX
#define SMALL_N 2000u

static const gr_rule all_rules[GR_RULE_COUNT] = { GR_RULE_SQUARES, GR_RULE_POWERS_OF_TWO,
                                                  GR_RULE_PRIMES };

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* ---- brute-force twins ---- */

static bool naive_member(gr_rule rule, uint64_t s)
{
    if (rule == GR_RULE_SQUARES) {
        for (uint64_t k = 1; k * k <= s; k++)
            if (k * k == s)
                return true;
        return false;
    }
    if (rule == GR_RULE_POWERS_OF_TWO) {
        for (uint64_t p = 1; p <= s; p *= 2)
            if (p == s)
                return true;
        return false;
    }
    if (s < 2)
        return false;
    for (uint64_t d = 2; d * d <= s; d++)
        if (s % d == 0)
            return false;
    return true;
}

/* The set as a membership table over 0 .. n. */
static bool *naive_table(gr_rule rule, uint64_t n)
{
    bool *in = malloc((size_t)(n + 1) * sizeof *in);
    REQUIRE(in != NULL);
    for (uint64_t s = 0; s <= n; s++)
        in[s] = naive_member(rule, s);
    return in;
}

/* The members of S up to n, ascending, by naive_member; *k gets the count. */
static uint64_t *naive_list(gr_rule rule, uint64_t n, size_t *k)
{
    bool *in = naive_table(rule, n);
    uint64_t *list = malloc((size_t)(n + 1) * sizeof *list);
    REQUIRE(list != NULL);
    *k = 0;
    for (uint64_t s = 1; s <= n; s++)
        if (in[s])
            list[(*k)++] = s;
    free(in);
    return list;
}

/* g(0 .. n) by the definition: mex over every member s <= m. */
static uint16_t *naive_grundy(gr_rule rule, uint64_t n)
{
    size_t k;
    uint64_t *list = naive_list(rule, n, &k);
    uint16_t *g = malloc((size_t)(n + 1) * sizeof *g);
    bool *seen = malloc((k + 2) * sizeof *seen);
    REQUIRE(g != NULL && seen != NULL);
    for (uint64_t m = 0; m <= n; m++) {
        memset(seen, 0, (k + 2) * sizeof *seen);
        for (size_t i = 0; i < k && list[i] <= m; i++)
            if (g[m - list[i]] <= k)
                seen[g[m - list[i]]] = true;
        uint16_t v = 0;
        while (seen[v])
            v++;
        g[m] = v;
    }
    free(seen);
    free(list);
    return g;
}

/* win(0 .. n) by the definition (moves tried from the smallest, stopping
 * at the first that reaches a losing heap). */
static bool *naive_win(gr_rule rule, uint64_t n)
{
    size_t k;
    uint64_t *list = naive_list(rule, n, &k);
    bool *win = malloc((size_t)(n + 1) * sizeof *win);
    REQUIRE(win != NULL);
    for (uint64_t m = 0; m <= n; m++) {
        win[m] = false;
        for (size_t i = 0; i < k && list[i] <= m && !win[m]; i++)
            win[m] = !win[m - list[i]];
    }
    free(list);
    return win;
}

/* ---- engine wrappers ---- */

static gr_seq grundy_ok(gr_rule rule, uint64_t n_max)
{
    gr_budget b = gr_budget_make(BIG_BUDGET);
    gr_seq s;
    REQUIRE_EQ(gr_rule_grundy(rule, n_max, &b, &s), GR_OK);
    REQUIRE_EQ(s.count, n_max + 1);
    REQUIRE(!s.periodic && s.values == s.owned);
    return s;
}

static gr_outcome_bits outcomes_ok(gr_rule rule, uint64_t n_max)
{
    gr_budget b = gr_budget_make(BIG_BUDGET);
    gr_outcome_bits o;
    REQUIRE_EQ(gr_rule_outcomes(rule, n_max, &b, &o), GR_OK);
    REQUIRE_EQ(o.count, n_max + 1);
    REQUIRE(o.words == o.owned);
    return o;
}

static bool bit(const gr_outcome_bits *o, uint64_t n)
{
    bool w;
    REQUIRE_EQ(gr_outcome_bits_get(o, n, &w), GR_OK);
    return w;
}

/* Bits agree with win[0 .. count); p_count counts the zeros; the padding
 * past count in the last word is zero. */
static void check_outcomes(const gr_outcome_bits *o, const bool *win)
{
    uint64_t zeros = 0;
    for (uint64_t n = 0; n < o->count; n++) {
        bool w = o->words[n / 64] >> (n % 64) & 1;
        if (w != win[n])
            ck_abort_msg("heap %llu: engine %d, naive %d", (unsigned long long)n, w, win[n]);
        zeros += !w;
    }
    REQUIRE_EQ(o->p_count, zeros);
    if (o->count % 64 != 0)
        REQUIRE_EQ(o->words[o->count / 64] >> (o->count % 64), 0);
    bool w;
    REQUIRE_EQ(gr_outcome_bits_get(o, o->count, &w), GR_EBOUND);
}

/* ---- values against the twins ---- */

START_TEST(test_grundy_vs_naive)
{
    gr_rule rule = all_rules[_i];
    uint16_t *g = naive_grundy(rule, SMALL_N);
    gr_seq s = grundy_ok(rule, SMALL_N);
    uint16_t top = 0;
    for (uint64_t n = 0; n <= SMALL_N; n++) {
        if (s.values[n] != g[n])
            ck_abort_msg("%s g(%llu): engine %u, naive %u", gr_rule_name(rule),
                         (unsigned long long)n, s.values[n], g[n]);
        top = g[n] > top ? g[n] : top;
    }
    REQUIRE_EQ(s.max_value, top);
    gr_seq_free(&s);
    /* Shorter runs are prefixes of the long one. */
    for (uint64_t n_max = 0; n_max <= 70; n_max++) {
        s = grundy_ok(rule, n_max);
        REQUIRE(memcmp(s.values, g, (size_t)(n_max + 1) * sizeof *g) == 0);
        gr_seq_free(&s);
    }
    free(g);
}
END_TEST

START_TEST(test_outcomes_vs_naive)
{
    gr_rule rule = all_rules[_i];
    bool *win = naive_win(rule, 4200);
    uint16_t *g = naive_grundy(rule, SMALL_N);
    for (uint64_t n = 0; n <= SMALL_N; n++) /* Sprague-Grundy: zero iff a loss */
        REQUIRE_EQ(g[n] != 0, win[n]);
    gr_outcome_bits o = outcomes_ok(rule, SMALL_N);
    check_outcomes(&o, win);
    gr_outcome_bits_free(&o);
    REQUIRE(o.words == NULL && o.count == 0);
    /* Every bound up to 300, and around word and 4096 edges. */
    static const uint64_t edges[] = { 4031, 4032, 4033, 4095, 4096, 4097, 4159, 4160, 4200 };
    for (uint64_t n_max = 0; n_max <= 300 + sizeof edges / sizeof edges[0]; n_max++) {
        uint64_t m = n_max <= 300 ? n_max : edges[n_max - 301];
        o = outcomes_ok(rule, m);
        check_outcomes(&o, win);
        gr_outcome_bits_free(&o);
    }
    free(g);
    free(win);
}
END_TEST

/* Squares, larger: Grundy to 10^5 against the plain mex, win/loss to 10^7
 * against the definition (timed). */
START_TEST(test_squares_large)
{
    const uint64_t gn = 100000, wn = 10000000;
    uint16_t *g = naive_grundy(GR_RULE_SQUARES, gn);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    gr_seq s = grundy_ok(GR_RULE_SQUARES, gn);
    double gsecs = seconds_since(&t0);
    REQUIRE(memcmp(s.values, g, (size_t)(gn + 1) * sizeof *g) == 0);
    gr_seq_free(&s);
    free(g);

    clock_gettime(CLOCK_MONOTONIC, &t0);
    gr_outcome_bits o = outcomes_ok(GR_RULE_SQUARES, wn);
    double wsecs = seconds_since(&t0);
    bool *win = malloc((size_t)(wn + 1) * sizeof *win);
    REQUIRE(win != NULL);
    for (uint64_t m = 0; m <= wn; m++) {
        win[m] = false;
        for (uint64_t k = 1; k * k <= m && !win[m]; k++)
            win[m] = !win[m - k * k];
    }
    check_outcomes(&o, win);
    free(win);
    fprintf(stderr, "# squares: grundy 1e5 %.3f s, win/loss 1e7 %.3f s (%llu P-positions)\n",
            gsecs, wsecs, (unsigned long long)o.p_count);
    gr_outcome_bits_free(&o);
    REQUIRE(wsecs < 5.0);
}
END_TEST

/* Primes, larger: win/loss to 2 * 10^5 against the definition. */
START_TEST(test_primes_large)
{
    const uint64_t wn = 200000;
    bool *win = naive_win(GR_RULE_PRIMES, wn);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    gr_outcome_bits o = outcomes_ok(GR_RULE_PRIMES, wn);
    double secs = seconds_since(&t0);
    check_outcomes(&o, win);
    gr_outcome_bits_free(&o);
    free(win);
    fprintf(stderr, "# primes: win/loss 2e5 %.3f s\n", secs);
}
END_TEST

/* powers_of_two: g(n) = n mod 3 and the P-positions are the multiples of 3
 * (computed, not assumed: the engine knows nothing of it). */
START_TEST(test_powers_of_two_mod3)
{
    gr_seq s = grundy_ok(GR_RULE_POWERS_OF_TWO, 1000000);
    for (uint64_t n = 0; n < s.count; n++)
        if (s.values[n] != n % 3)
            ck_abort_msg("g(%llu) = %u", (unsigned long long)n, s.values[n]);
    REQUIRE_EQ(s.max_value, 2);
    gr_seq_free(&s);
    gr_outcome_bits o = outcomes_ok(GR_RULE_POWERS_OF_TWO, 10000000);
    for (uint64_t n = 0; n < o.count; n++)
        if (bit(&o, n) != (n % 3 != 0))
            ck_abort_msg("win(%llu)", (unsigned long long)n);
    REQUIRE_EQ(o.p_count, 10000000 / 3 + 1);
    gr_outcome_bits_free(&o);
}
END_TEST

/* Known P-positions of the squares game (0, 2, 5, 7, 10, 12, 15, 17, 20, 22,
 * 34, ...), checked against the naive twin as well as the engine. */
START_TEST(test_squares_known)
{
    static const uint64_t known[] = { 0,  2,  5,  7,  10, 12, 15, 17, 20, 22,
                                      34, 39, 44, 52, 57, 62, 65, 67, 72, 85 };
    const size_t nk = sizeof known / sizeof known[0];
    bool *win = naive_win(GR_RULE_SQUARES, 85);
    gr_outcome_bits o = outcomes_ok(GR_RULE_SQUARES, 85);
    size_t k = 0;
    for (uint64_t n = 0; n <= 85; n++) {
        bool listed = k < nk && known[k] == n;
        REQUIRE_EQ(!win[n], listed);
        REQUIRE_EQ(!bit(&o, n), listed);
        k += listed;
    }
    REQUIRE_EQ(k, nk);
    REQUIRE_EQ(o.p_count, nk);
    gr_outcome_bits_free(&o);
    free(win);
}
END_TEST

/* ---- moves ---- */

START_TEST(test_moves)
{
    gr_rule rule = all_rules[_i];
    bool *in = naive_table(rule, SMALL_N);
    gr_seq s = grundy_ok(rule, SMALL_N);
    gr_outcome_bits o = outcomes_ok(rule, SMALL_N);
    for (uint64_t n = 0; n <= SMALL_N; n++) {
        for (unsigned t = 0; t <= (unsigned)s.max_value + 1; t++) {
            uint64_t want = 0;
            for (uint64_t x = 1; x <= n && want == 0; x++)
                if (in[x] && s.values[n - x] == t)
                    want = x;
            gr_budget b = gr_budget_make(BIG_BUDGET);
            uint64_t take = 0;
            gr_status st = gr_rule_move_grundy(rule, &s, n, (uint16_t)t, &b, &take);
            REQUIRE_EQ(st, want == 0 ? GR_EINVAL : GR_OK);
            if (want != 0)
                REQUIRE_EQ(take, want);
            if (t == s.values[n])
                REQUIRE_EQ(st, GR_EINVAL); /* mex: no option has the own value */
            if (t < s.values[n])
                REQUIRE_EQ(st, GR_OK); /* mex: every smaller value is an option */
        }
        gr_budget b = gr_budget_make(BIG_BUDGET);
        uint64_t take = 0;
        gr_status st = gr_rule_move_win(rule, &o, n, &b, &take);
        if (!bit(&o, n)) {
            REQUIRE_EQ(st, GR_EINVAL);
            continue;
        }
        REQUIRE_EQ(st, GR_OK);
        REQUIRE(take <= n && in[take] && !bit(&o, n - take));
        for (uint64_t x = 1; x < take; x++)
            REQUIRE(!in[x] || bit(&o, n - x));
    }
    gr_budget b = gr_budget_make(BIG_BUDGET);
    uint64_t take;
    REQUIRE_EQ(gr_rule_move_grundy(rule, &s, SMALL_N + 1, 0, &b, &take), GR_EBOUND);
    REQUIRE_EQ(gr_rule_move_win(rule, &o, SMALL_N + 1, &b, &take), GR_EBOUND);
    b = gr_budget_make(0);
    uint64_t n = SMALL_N;
    while (!bit(&o, n))
        n--;
    REQUIRE_EQ(gr_rule_move_win(rule, &o, n, &b, &take), GR_ELIMIT);
    REQUIRE_EQ(gr_rule_move_grundy(rule, &s, n, 0, &b, &take), GR_ELIMIT);
    gr_outcome_bits_free(&o);
    gr_seq_free(&s);
    free(in);
}
END_TEST

/* ---- sets, membership, iteration ---- */

START_TEST(test_membership)
{
    gr_rule rule = all_rules[_i];
    for (uint64_t s = 0; s <= 100000; s++)
        if (gr_rule_contains(rule, s) != naive_member(rule, s))
            ck_abort_msg("%s contains(%llu)", gr_rule_name(rule), (unsigned long long)s);
    uint64_t s = 0, next;
    for (uint64_t x = 0; x <= 20000; x++) {
        if (x == s && x > 0)
            REQUIRE(naive_member(rule, x));
        if (x >= s) {
            REQUIRE(gr_rule_next(rule, x, &next));
            REQUIRE(next > x && naive_member(rule, next));
            for (uint64_t y = x + 1; y < next; y++)
                REQUIRE(!naive_member(rule, y));
            s = next;
        }
    }
}
END_TEST

START_TEST(test_membership_extremes)
{
    const uint64_t max_sq = UINT64_C(18446744065119617025); /* (2^32 - 1)^2 */
    uint64_t next;
    REQUIRE(gr_rule_contains(GR_RULE_SQUARES, max_sq));
    REQUIRE(!gr_rule_contains(GR_RULE_SQUARES, max_sq + 1));
    REQUIRE(!gr_rule_contains(GR_RULE_SQUARES, max_sq - 1));
    REQUIRE(!gr_rule_contains(GR_RULE_SQUARES, UINT64_MAX));
    REQUIRE(gr_rule_contains(GR_RULE_SQUARES, UINT64_C(1) << 62));
    REQUIRE(gr_rule_next(GR_RULE_SQUARES, max_sq - 1, &next) && next == max_sq);
    REQUIRE(!gr_rule_next(GR_RULE_SQUARES, max_sq, &next));
    REQUIRE(gr_rule_contains(GR_RULE_POWERS_OF_TWO, UINT64_C(1) << 63));
    REQUIRE(!gr_rule_contains(GR_RULE_POWERS_OF_TWO, UINT64_MAX));
    REQUIRE(!gr_rule_contains(GR_RULE_POWERS_OF_TWO, 0));
    REQUIRE(gr_rule_next(GR_RULE_POWERS_OF_TWO, 0, &next) && next == 1);
    REQUIRE(!gr_rule_next(GR_RULE_POWERS_OF_TWO, UINT64_C(1) << 63, &next));
    /* Primes: Mersenne, the largest below 2^64, and strong pseudoprimes
     * that fool smaller base sets (4759123141 passes 2, 7 and 61;
     * 3825123056546413051 passes every prime base up to 23). */
    REQUIRE(gr_rule_contains(GR_RULE_PRIMES, (UINT64_C(1) << 61) - 1));
    REQUIRE(gr_rule_contains(GR_RULE_PRIMES, UINT64_MAX - 58));
    REQUIRE(gr_rule_contains(GR_RULE_PRIMES, UINT64_C(4294967291))); /* largest below 2^32 */
    REQUIRE(!gr_rule_contains(GR_RULE_PRIMES, UINT64_C(4759123141)));
    REQUIRE(!gr_rule_contains(GR_RULE_PRIMES, UINT64_C(3825123056546413051)));
    REQUIRE(!gr_rule_contains(GR_RULE_PRIMES, UINT64_C(3215031751)));
    REQUIRE(!gr_rule_contains(GR_RULE_PRIMES, 561));
    REQUIRE(!gr_rule_contains(GR_RULE_PRIMES, UINT64_C(4294967297))); /* 641 * 6700417 */
    REQUIRE(!gr_rule_contains(GR_RULE_PRIMES, UINT64_MAX));
    REQUIRE(gr_rule_next(GR_RULE_PRIMES, UINT64_MAX - 60, &next) && next == UINT64_MAX - 58);
    REQUIRE(!gr_rule_next(GR_RULE_PRIMES, UINT64_MAX - 58, &next));
    REQUIRE(!gr_rule_next(GR_RULE_PRIMES, UINT64_MAX, &next));
    REQUIRE(gr_rule_next(GR_RULE_PRIMES, 0, &next) && next == 2);
    REQUIRE(gr_rule_next(GR_RULE_PRIMES, UINT64_C(4294967291), &next));
    REQUIRE(next == UINT64_C(4294967311)); /* the least prime above 2^32 */
}
END_TEST

START_TEST(test_sets)
{
    gr_rule rule = all_rules[_i];
    for (uint64_t limit = 0; limit <= 3000; limit += limit < 70 ? 1 : 97) {
        gr_budget b = gr_budget_make(BIG_BUDGET);
        gr_rule_set set;
        REQUIRE_EQ(gr_rule_set_make(rule, limit, &b, &set), GR_OK);
        REQUIRE_EQ(set.limit, limit);
        size_t k = 0;
        for (uint64_t s = 0; s <= limit; s++) {
            if (!naive_member(rule, s))
                continue;
            REQUIRE(k < set.count);
            REQUIRE_EQ(set.s[k], s);
            k++;
        }
        REQUIRE_EQ(k, set.count);
        gr_rule_set_free(&set);
        REQUIRE(set.s == NULL && set.count == 0);
    }
    static const uint64_t counts[GR_RULE_COUNT] = { 1000, 20, 78498 }; /* |S <= 10^6| */
    gr_budget b = gr_budget_make(BIG_BUDGET);
    gr_rule_set set;
    REQUIRE_EQ(gr_rule_set_make(rule, 1000000, &b, &set), GR_OK);
    REQUIRE_EQ(set.count, counts[rule]);
    gr_rule_set_free(&set);
}
END_TEST

START_TEST(test_names)
{
    gr_rule r;
    for (unsigned i = 0; i < GR_RULE_COUNT; i++) {
        REQUIRE_EQ(gr_rule_parse(gr_rule_name(all_rules[i]), &r), GR_OK);
        REQUIRE_EQ(r, all_rules[i]);
    }
    REQUIRE(strcmp(gr_rule_name(GR_RULE_POWERS_OF_TWO), "powers_of_two") == 0);
    REQUIRE(gr_rule_name((gr_rule)3) == NULL);
    REQUIRE_EQ(gr_rule_parse("Squares", &r), GR_EINVAL);
    REQUIRE_EQ(gr_rule_parse("", &r), GR_EINVAL);
    REQUIRE_EQ(gr_rule_parse(NULL, &r), GR_EINVAL);
}
END_TEST

/* ---- limits and invalid input ---- */

START_TEST(test_limits)
{
    gr_budget b = gr_budget_make(BIG_BUDGET);
    gr_seq s;
    gr_outcome_bits o;
    gr_rule_set set;
    REQUIRE_EQ(gr_rule_grundy((gr_rule)3, 10, &b, &s), GR_EINVAL);
    REQUIRE_EQ(gr_rule_outcomes((gr_rule)3, 10, &b, &o), GR_EINVAL);
    REQUIRE_EQ(gr_rule_set_make((gr_rule)3, 10, &b, &set), GR_EINVAL);
    REQUIRE_EQ(gr_rule_grundy(GR_RULE_SQUARES, GR_RULE_MAX_N + 1, &b, &s), GR_EINVAL);
    REQUIRE_EQ(gr_rule_outcomes(GR_RULE_PRIMES, GR_RULE_MAX_N + 1, &b, &o), GR_EINVAL);
    REQUIRE_EQ(gr_rule_set_make(GR_RULE_PRIMES, UINT64_MAX, &b, &set), GR_EINVAL);
    REQUIRE(!gr_rule_contains((gr_rule)3, 4));
    uint64_t next;
    REQUIRE(!gr_rule_next((gr_rule)3, 4, &next));

    /* A budget far too small for the whole range: the limit, nothing kept. */
    for (unsigned i = 0; i < GR_RULE_COUNT; i++) {
        b = gr_budget_make(100000);
        REQUIRE_EQ(gr_rule_outcomes(all_rules[i], GR_RULE_MAX_N, &b, &o), GR_ELIMIT);
        REQUIRE(o.words == NULL && o.owned == NULL && o.count == 0);
        b = gr_budget_make(100000);
        REQUIRE_EQ(gr_rule_grundy(all_rules[i], 1000000, &b, &s), GR_ELIMIT);
        REQUIRE(s.values == NULL && s.owned == NULL && s.count == 0);
        b = gr_budget_make(1000);
        REQUIRE_EQ(gr_rule_outcomes(all_rules[i], 100000, &b, &o), GR_ELIMIT);
        REQUIRE_EQ(b.left, 0);
    }
    b = gr_budget_make(1000);
    REQUIRE_EQ(gr_rule_set_make(GR_RULE_PRIMES, 1000, &b, &set), GR_ELIMIT);
    REQUIRE(set.s == NULL && set.count == 0);

    /* Exactly the steps a run spends are enough for it. */
    for (unsigned i = 0; i < GR_RULE_COUNT; i++) {
        b = gr_budget_make(BIG_BUDGET);
        REQUIRE_EQ(gr_rule_grundy(all_rules[i], 5000, &b, &s), GR_OK);
        gr_seq_free(&s);
        uint64_t spent = BIG_BUDGET - b.left;
        b = gr_budget_make(spent);
        REQUIRE_EQ(gr_rule_grundy(all_rules[i], 5000, &b, &s), GR_OK);
        gr_seq_free(&s);
        b = gr_budget_make(spent - 1);
        REQUIRE_EQ(gr_rule_grundy(all_rules[i], 5000, &b, &s), GR_ELIMIT);
        b = gr_budget_make(BIG_BUDGET);
        REQUIRE_EQ(gr_rule_outcomes(all_rules[i], 5000, &b, &o), GR_OK);
        gr_outcome_bits_free(&o);
        spent = BIG_BUDGET - b.left;
        b = gr_budget_make(spent);
        REQUIRE_EQ(gr_rule_outcomes(all_rules[i], 5000, &b, &o), GR_OK);
        gr_outcome_bits_free(&o);
        b = gr_budget_make(spent - 1);
        REQUIRE_EQ(gr_rule_outcomes(all_rules[i], 5000, &b, &o), GR_ELIMIT);
    }
}
END_TEST

static Suite *rules_suite(void)
{
    Suite *suite = suite_create("rules");
    TCase *values = tcase_create("values");
    tcase_set_timeout(values, 60);
    tcase_add_loop_test(values, test_grundy_vs_naive, 0, GR_RULE_COUNT);
    tcase_add_loop_test(values, test_outcomes_vs_naive, 0, GR_RULE_COUNT);
    tcase_add_test(values, test_squares_large);
    tcase_add_test(values, test_primes_large);
    tcase_add_test(values, test_powers_of_two_mod3);
    tcase_add_test(values, test_squares_known);
    suite_add_tcase(suite, values);

    TCase *moves = tcase_create("moves");
    tcase_set_timeout(moves, 60);
    tcase_add_loop_test(moves, test_moves, 0, GR_RULE_COUNT);
    suite_add_tcase(suite, moves);

    TCase *sets = tcase_create("sets");
    tcase_set_timeout(sets, 60);
    tcase_add_loop_test(sets, test_membership, 0, GR_RULE_COUNT);
    tcase_add_test(sets, test_membership_extremes);
    tcase_add_loop_test(sets, test_sets, 0, GR_RULE_COUNT);
    tcase_add_test(sets, test_names);
    suite_add_tcase(suite, sets);

    TCase *limits = tcase_create("limits");
    tcase_set_timeout(limits, 60);
    tcase_add_test(limits, test_limits);
    suite_add_tcase(suite, limits);
    return suite;
}

int main(void)
{
    return gr_check_run(rules_suite());
}
