/* SPDX-License-Identifier: MIT */
/* Tests for octal codes with a d0 digit (include/grundy/octal.h): d0 = 4
 * splits a heap into two non-empty heaps without removing a token (4.7 is
 * Daisies); d0 with bit 1 or 2 names no game and is refused.
 *
 * Brute-force twins: values by a plain mex over every move, from the rules
 * written here (digits read from the text, not from gr_octal_parse), far
 * past where the solver certified its period; every move gr_octal_move
 * returns is replayed against the rules and the twin's values; misere play
 * of one heap (heap play) against a direct search written here. */
#include "grundy/octal.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "grundy/heapplay.h"
#include "octal_twin.h"
#include "seq_check.h"

#define BIG_BUDGET 100000000000u
#define TWIN_VALUES 1200u  /* values the twin computes */
#define SOLVER_VALUES 8192u /* values the solver may compute without a certificate */

static gr_seq solve(const char *text)
{
    gr_octal_code code;
    REQUIRE_EQ(gr_octal_parse(text, &code), GR_OK);
    gr_budget b = gr_budget_make(BIG_BUDGET);
    gr_seq s;
    REQUIRE_EQ(gr_octal_solve(&code, 0, SOLVER_VALUES, &b, &s), GR_OK);
    return s;
}

/* Every d0 = 4 code 4.d1 and 4.d1d2, and some longer ones. */
static void code_text(int i, char text[16])
{
    static const char *const longer[] = { "4.007", "4.137", "4.0007", "4.777", "4.1234567",
                                          "4.00000004" };
    if (i < 8)
        snprintf(text, 16, "4.%d", i);
    else if (i < 8 + 64)
        snprintf(text, 16, "4.%d%d", (i - 8) / 8, (i - 8) % 8);
    else
        snprintf(text, 16, "%s", longer[i - 72]);
}
#define NCODES (72 + 6)

/* ---- parsing ---- */

START_TEST(test_parse_d0)
{
    gr_octal_code c;
    char buf[16];
    REQUIRE_EQ(gr_octal_parse("4.7", &c), GR_OK);
    REQUIRE(c.digit[0] == 4 && c.digit[1] == 7 && c.t == 1);
    gr_octal_format(&c, buf);
    REQUIRE(strcmp(buf, "4.7") == 0);
    REQUIRE_EQ(gr_octal_parse("4.370", &c), GR_OK);
    REQUIRE(c.digit[0] == 4 && c.digit[1] == 3 && c.digit[2] == 7 && c.t == 2);
    gr_octal_format(&c, buf);
    REQUIRE(strcmp(buf, "4.37") == 0);
    REQUIRE_EQ(gr_octal_parse("4.000", &c), GR_OK); /* splitting alone is a game */
    REQUIRE(c.digit[0] == 4 && c.t == 0);
    gr_octal_format(&c, buf);
    REQUIRE(strcmp(buf, "4.0") == 0);
    /* d0 with bit 1 (take an empty heap) or bit 2 (a pass) is no game. */
    static const char *bad[] = { "1.7", "2.7", "3.7", "5.7", "6.7", "7.7", "8.7", "4.", "4.8",
                                 "4.123456701", "44.7", "4,7", "0.0" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&c, 0x5a, sizeof c);
        if (gr_octal_parse(bad[i], &c) != GR_EINVAL)
            ck_abort_msg("accepted \"%s\"", bad[i]);
        REQUIRE_EQ(c.t, 0x5a5a5a5a);
    }
    /* The solver refuses a d0 it could not play, whatever made the code. */
    REQUIRE_EQ(gr_octal_parse("0.7", &c), GR_OK);
    gr_budget b = gr_budget_make(1000);
    gr_seq s;
    for (uint8_t d0 = 1; d0 < 8; d0++) {
        c.digit[0] = d0;
        REQUIRE_EQ(gr_octal_solve(&c, 0, 10, &b, &s), d0 == 4 ? GR_OK : GR_EINVAL);
        gr_seq_free(&s);
    }
}
END_TEST

/* ---- values and periods against the twin ---- */

START_TEST(test_values_against_twin)
{
    char text[16];
    code_text(_i, text);
    gr_seq s = solve(text);
    uint16_t *g = octal_twin_values(text, TWIN_VALUES);
    for (uint64_t n = 0; n < TWIN_VALUES; n++) {
        uint16_t v;
        REQUIRE_EQ(gr_seq_value(&s, n, &v), GR_OK);
        if (v != g[n])
            ck_abort_msg("%s g(%llu): solver %u, twin %u", text, (unsigned long long)n, v, g[n]);
    }
    /* Past its certificate the solver's values are the period's: the twin
     * holds them to that period, and it is the least one. Codes without a
     * period in SOLVER_VALUES (4.4, 4.6 and others like Grundy's game) are
     * held to the twin alone. */
    if (s.periodic && s.preperiod + 2 * s.period <= TWIN_VALUES)
        check_least_period(&s, g, TWIN_VALUES);
    free(g);
    gr_seq_free(&s);
}
END_TEST

/* Daisies (4.7): the twin's values, and a period that covers 10^18. */
START_TEST(test_daisies)
{
    gr_seq s = solve("4.7");
    uint16_t *g = octal_twin_values("4.7", 64);
    static const uint16_t first[] = { 0, 1, 2, 1, 2, 1, 2, 1 };
    for (unsigned n = 0; n < 8; n++)
        REQUIRE_EQ(g[n], first[n]);
    uint16_t v;
    REQUIRE_EQ(gr_seq_value(&s, UINT64_C(1000000000000000000), &v), GR_OK);
    REQUIRE_EQ(v, g[s.preperiod + (UINT64_C(1000000000000000000) - s.preperiod) % s.period]);
    free(g);
    gr_seq_free(&s);
}
END_TEST

/* ---- moves: every target below g(n) reached, replayed on the rules ---- */

static bool move_is_legal(const unsigned digit[9], uint64_t n, const gr_heap_move *mv)
{
    if (mv->take > 8 || mv->take > n)
        return false;
    unsigned d = digit[mv->take];
    uint64_t rest = n - mv->take;
    switch (mv->nparts) {
    case 0:
        return (d & 1) && rest == 0;
    case 1:
        return (d & 2) && mv->part[0] == rest && rest >= 1;
    case 2:
        return (d & 4) && mv->part[0] >= 1 && mv->part[0] <= mv->part[1] &&
               mv->part[0] + mv->part[1] == rest;
    default:
        return false;
    }
}

START_TEST(test_moves_replayed)
{
    char text[16];
    code_text(_i, text);
    unsigned digit[9];
    octal_twin_digits(text, digit);
    gr_octal_code code;
    REQUIRE_EQ(gr_octal_parse(text, &code), GR_OK);
    gr_seq s = solve(text);
    uint16_t *g = octal_twin_values(text, TWIN_VALUES);
    static const uint64_t far[] = { UINT64_C(1000000000000000000), UINT64_C(123456789012345),
                                    UINT64_MAX / 2 };
    for (unsigned i = 0; i < 60 + 3; i++) {
        if (i >= 60 && !s.periodic)
            break; /* far heaps need the period */
        uint64_t n = i < 60 ? i : far[i - 60];
        uint16_t gn;
        REQUIRE_EQ(gr_seq_value(&s, n, &gn), GR_OK);
        for (uint16_t target = 0; target <= gn; target++) {
            gr_heap_move mv;
            gr_status st = gr_octal_move(&code, &s, n, target, &mv);
            if (target == gn) { /* no option has the heap's own value */
                REQUIRE_EQ(st, GR_EINVAL);
                continue;
            }
            REQUIRE_EQ(st, GR_OK);
            if (!move_is_legal(digit, n, &mv))
                ck_abort_msg("%s heap %llu: illegal move take %llu into %u parts", text,
                             (unsigned long long)n, (unsigned long long)mv.take, mv.nparts);
            /* the parts' values: the twin's, or past it the solver's (held
             * to the twin's values by test_values_against_twin) */
            uint16_t after = 0, v;
            for (unsigned p = 0; p < mv.nparts; p++) {
                uint64_t h = mv.part[p];
                if (h < TWIN_VALUES)
                    v = g[h];
                else
                    REQUIRE_EQ(gr_seq_value(&s, h, &v), GR_OK);
                after ^= v;
            }
            REQUIRE_EQ(after, target);
        }
    }
    free(g);
    gr_seq_free(&s);
}
END_TEST

/* ---- misere play of one heap ---- */

/* Misere win/loss of sums of small heaps (at most 11 tokens in all), by a
 * memoised search over sorted multisets: a position's key is its heaps
 * sorted and packed four bits each. */
#define MEMO_SIZE 4096u
typedef struct misere_twin {
    unsigned digit[9], t;
    uint64_t key[MEMO_SIZE];
    uint8_t state[MEMO_SIZE]; /* 0 empty, 1 loss, 2 win */
} misere_twin;

static uint64_t position_key(const uint8_t *heaps, unsigned nheaps)
{
    uint8_t sorted[16];
    memcpy(sorted, heaps, nheaps);
    for (unsigned i = 1; i < nheaps; i++)
        for (unsigned j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            uint8_t x = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = x;
        }
    uint64_t key = 1;
    for (unsigned i = 0; i < nheaps; i++)
        key = key << 4 | sorted[i];
    return key;
}

static bool misere_win(misere_twin *m, const uint8_t *heaps, unsigned nheaps);

/* Whether some move of heap i leaves a misere loss; *moved when any move exists. */
static bool wins_by_heap(misere_twin *m, const uint8_t *heaps, unsigned nheaps, unsigned i,
                         bool *moved)
{
    uint8_t n = heaps[i], next[16];
    unsigned nn = 0;
    for (unsigned j = 0; j < nheaps; j++)
        if (j != i)
            next[nn++] = heaps[j];
    for (unsigned k = 0; k <= m->t && k <= n; k++) {
        unsigned d = m->digit[k];
        uint8_t rest = (uint8_t)(n - k);
        if ((d & 1) && rest == 0 && (*moved = true) && !misere_win(m, next, nn))
            return true;
        next[nn] = rest;
        if ((d & 2) && rest >= 1 && (*moved = true) && !misere_win(m, next, nn + 1))
            return true;
        for (uint8_t a = 1; (d & 4) && a <= rest / 2; a++) {
            *moved = true;
            next[nn] = a;
            next[nn + 1] = (uint8_t)(rest - a);
            if (!misere_win(m, next, nn + 2))
                return true;
        }
    }
    return false;
}

static bool misere_win(misere_twin *m, const uint8_t *heaps, unsigned nheaps)
{
    uint64_t key = position_key(heaps, nheaps);
    unsigned slot = (unsigned)(key * 0x9E3779B97F4A7C15u >> 52) % MEMO_SIZE;
    while (m->state[slot] != 0 && m->key[slot] != key)
        slot = (slot + 1) % MEMO_SIZE;
    if (m->state[slot] != 0)
        return m->state[slot] == 2;
    bool moved = false, win = false;
    for (unsigned i = 0; i < nheaps && !win; i++)
        win = wins_by_heap(m, heaps, nheaps, i, &moved);
    win = win || !moved; /* no move left: the player to move wins */
    m->key[slot] = key;
    m->state[slot] = win ? 2 : 1;
    return win;
}

START_TEST(test_misere_one_heap)
{
    static const char *const codes[] = { "4.7", "4.37", "4.0", "4.07", "4.6", "4.4" };
    static misere_twin m;
    memset(&m, 0, sizeof m);
    m.t = octal_twin_digits(codes[_i], m.digit);
    gr_octal_code code;
    REQUIRE_EQ(gr_octal_parse(codes[_i], &code), GR_OK);
    gr_heap_game game = gr_heap_game_octal(&code);
    for (uint8_t n = 0; n <= 11; n++) {
        gr_budget b = gr_budget_make(BIG_BUDGET);
        bool win;
        gr_heap_move mv;
        REQUIRE_EQ(gr_heap_misere(&game, n, &b, &win, &mv), GR_OK);
        bool twin = misere_win(&m, &n, n > 0);
        if (win != twin)
            ck_abort_msg("%s misere heap %u: heap play %d, twin %d", codes[_i], n, win, twin);
        if (win && n > 0 && (mv.nparts > 0 || mv.take > 0)) { /* replay: a loss for the opponent */
            REQUIRE(move_is_legal(m.digit, n, &mv));
            uint8_t after[2] = { (uint8_t)mv.part[0], (uint8_t)mv.part[1] };
            REQUIRE(!misere_win(&m, after, mv.nparts));
        }
    }
}
END_TEST

static Suite *octal_d0_suite(void)
{
    Suite *suite = suite_create("octal_d0");
    TCase *tc = tcase_create("d0");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_parse_d0);
    tcase_add_loop_test(tc, test_values_against_twin, 0, NCODES);
    tcase_add_test(tc, test_daisies);
    tcase_add_loop_test(tc, test_moves_replayed, 0, NCODES);
    tcase_add_loop_test(tc, test_misere_one_heap, 0, 6);
    suite_add_tcase(suite, tc);
    return suite;
}

int main(void)
{
    return gr_check_run(octal_d0_suite());
}
