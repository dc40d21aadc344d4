/* SPDX-License-Identifier: MIT */
/* Tests for octal games (include/grundy/octal.h, octal part).
 *
 * Brute-force twins: values by a plain mex over the moves, written from the
 * rules here (digits read from the text, not from gr_octal_parse); least
 * preperiod and period checked on those values far past the solver's count;
 * win/loss of sums of heaps by searching the game tree of heap multisets (no
 * Grundy values at all), against which every winning move is replayed. */
#include "grundy/octal.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "octal_twin.h"
#include "seq_check.h"

#define BIG_BUDGET 100000000000u
#define MAX_NAIVE 6000u

/* ---- brute-force twin: values ---- */

static void check_against_naive(const gr_seq *s, const uint16_t *g, uint64_t upto,
                                const char *text)
{
    for (uint64_t n = 0; n < upto; n++) {
        uint16_t v;
        REQUIRE_EQ(gr_seq_value(s, n, &v), GR_OK);
        if (v != g[n])
            ck_abort_msg("%s g(%llu): engine %u, naive %u", text, (unsigned long long)n, v,
                         g[n]);
    }
}

static gr_seq solve_code(const char *text, uint64_t need, uint64_t max_values, gr_status want)
{
    gr_octal_code code;
    REQUIRE_EQ(gr_octal_parse(text, &code), GR_OK);
    gr_budget b = gr_budget_make(BIG_BUDGET);
    gr_seq s;
    REQUIRE_EQ(gr_octal_solve(&code, need, max_values, &b, &s), want);
    if (want == GR_OK && s.periodic)
        REQUIRE(s.count >= s.preperiod + s.period);
    return s;
}

/* ---- parsing ---- */

START_TEST(test_parse_and_format)
{
    gr_octal_code c;
    char buf[16];
    REQUIRE_EQ(gr_octal_parse("0.77", &c), GR_OK);
    REQUIRE(c.t == 2 && c.digit[0] == 0 && c.digit[1] == 7 && c.digit[2] == 7);
    REQUIRE_EQ(gr_octal_parse("0.070", &c), GR_OK);
    REQUIRE(c.t == 2 && c.digit[1] == 0 && c.digit[2] == 7 && c.digit[3] == 0);
    gr_octal_format(&c, buf);
    REQUIRE(strcmp(buf, "0.07") == 0);
    REQUIRE_EQ(gr_octal_parse("0.12345670", &c), GR_OK);
    REQUIRE_EQ(c.t, 7);
    gr_octal_format(&c, buf);
    REQUIRE(strcmp(buf, "0.1234567") == 0);
    REQUIRE_EQ(gr_octal_parse("0.00000001", &c), GR_OK);
    REQUIRE_EQ(c.t, 8);
    gr_octal_format(&c, buf);
    REQUIRE(strcmp(buf, "0.00000001") == 0);

    static const char *bad[] = { "", "0", "0.", "0.0", "0.000", "1.7", "0.8", "0.123456701",
                                 "0.7x", " 0.7", "0.7 ", ".7", "0,7", "00.7", "0.-1", "4.", "5.07" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&c, 0x5a, sizeof c);
        if (gr_octal_parse(bad[i], &c) != GR_EINVAL)
            ck_abort_msg("accepted \"%s\"", bad[i]);
        REQUIRE_EQ(c.t, 0x5a5a5a5a); /* untouched */
    }
    REQUIRE_EQ(gr_octal_parse(NULL, &c), GR_EINVAL);
}
END_TEST

/* ---- known periods (references.md) ---- */

typedef struct known_case {
    const char *text;
    uint64_t pre, period;
} known_case;

/* 0.7777: period 24 and last exceptional value at 141, so preperiod 142. */
static const known_case known[] = {
    { "0.77", 71, 12 },
    { "0.07", 53, 34 },
    { "0.137", 52, 34 },
    { "0.7777", 142, 24 },
};

START_TEST(test_known_periods)
{
    const known_case *kc = &known[_i];
    gr_seq s = solve_code(kc->text, 0, 100000, GR_OK);
    REQUIRE(s.periodic);
    REQUIRE_EQ(s.preperiod, kc->pre);
    REQUIRE_EQ(s.period, kc->period);
    uint64_t upto = s.count + 2000;
    uint16_t *g = octal_twin_values(kc->text, upto);
    check_against_naive(&s, g, upto, kc->text);
    check_least_period(&s, g, upto);
    free(g);
    gr_seq_free(&s);
    REQUIRE(s.values == NULL && s.owned == NULL);
}
END_TEST

/* ---- exhaustive twin: every code with up to three digits ---- */

/* Codes 0.d1d2d3 with the loop index as the three octal digits. */
static void code_text(unsigned index, char text[8])
{
    text[0] = '0';
    text[1] = '.';
    text[2] = (char)('0' + (index >> 6));
    text[3] = (char)('0' + ((index >> 3) & 7));
    text[4] = (char)('0' + (index & 7));
    text[5] = '\0';
}

START_TEST(test_all_three_digit_codes)
{
    /* Loop index _i covers a slice of the 511 codes. */
    for (unsigned index = 1 + 64 * (unsigned)_i; index < 64 * (unsigned)(_i + 1) + 1 && index < 512;
         index++) {
        char text[8];
        code_text(index, text);
        gr_seq s = solve_code(text, 300, 3000, GR_OK);
        uint64_t upto = 301;
        if (s.periodic && s.count + 1000 <= MAX_NAIVE / 2)
            upto = s.count + 1000;
        uint16_t *g = octal_twin_values(text, upto);
        check_against_naive(&s, g, upto, text);
        if (s.periodic && upto > 301)
            check_least_period(&s, g, upto);
        if (!s.periodic)
            REQUIRE_EQ(s.count, 3000);
        free(g);
        gr_seq_free(&s);
    }
}
END_TEST

/* ---- twin of the period scan: the certificate checked after every value ---- */

/* The solver checks the certificate only at checkpoints and then cuts the
 * count back; this is the plain method it replaced, kept as the reference:
 * after each value, first_ok[p] = 1 + the last i with g(i) != g(i + p)
 * (0 when none), the least certified p (3p <= count), reduced to the least
 * d | p with first_ok[d] <= first_ok[p]. Runs over g[0 .. max_values) and
 * reports the first count at which a period is certified. */
typedef struct reference_period {
    bool periodic;
    uint64_t count, preperiod, period;
} reference_period;

static reference_period reference_certificate(const uint16_t *g, uint64_t max_values, unsigned t)
{
    reference_period r = { false, max_values, 0, 0 };
    uint64_t *first_ok = calloc(max_values + 1, sizeof *first_ok);
    REQUIRE(first_ok != NULL);
    for (uint64_t n = 0; n < max_values && !r.periodic; n++) {
        uint64_t count = n + 1;
        first_ok[n] = 0;
        for (uint64_t p = 1; p < n; p++)
            if (g[n - p] != g[n])
                first_ok[p] = n - p + 1;
        if (n >= 1 && g[0] != g[n])
            first_ok[n] = 1;
        for (uint64_t p = 1; 3 * p <= count; p++) {
            uint64_t s = first_ok[p], span = count - p;
            if (span < 2 * s + 2 * p + t - 1 || span < p + t + 1)
                continue;
            uint64_t d = 1;
            while (p % d != 0 || first_ok[d] > s)
                d++;
            r = (reference_period){ true, count, s, d };
            break;
        }
    }
    free(first_ok);
    return r;
}

/* Solves text with max_values and compares everything with the twins:
 * values with the naive mex (through the period when there is one) below
 * `upto`, and periodic / count / preperiod / period with the reference
 * scan over the naive values. */
static void check_code_against_twins(const char *text, uint64_t max_values, uint64_t upto)
{
    unsigned digit[9], t = octal_twin_digits(text, digit);
    uint64_t top = upto > max_values ? upto : max_values;
    uint16_t *g = octal_twin_values(text, top);
    gr_seq s = solve_code(text, 0, max_values, GR_OK);
    uint64_t check = s.periodic ? upto : s.count;
    check_against_naive(&s, g, check, text);
    reference_period r = reference_certificate(g, max_values, t);
    if (s.periodic != r.periodic || s.count != r.count || s.preperiod != r.preperiod ||
        s.period != r.period)
        ck_abort_msg("%s: solver %d count %llu (%llu, %llu); reference %d count %llu (%llu, %llu)",
                     text, s.periodic, (unsigned long long)s.count,
                     (unsigned long long)s.preperiod, (unsigned long long)s.period, r.periodic,
                     (unsigned long long)r.count, (unsigned long long)r.preperiod,
                     (unsigned long long)r.period);
    uint16_t mx = 0;
    for (uint64_t n = 0; n < s.count; n++)
        mx = g[n] > mx ? g[n] : mx;
    REQUIRE_EQ(s.max_value, mx);
    free(g);
    gr_seq_free(&s);
}

#define TWIN_TOP 3000u

/* Every code with up to three digits: values to 3000 against the naive
 * mex, periods against the reference scan. Slice _i of the 511 codes. */
START_TEST(test_all_codes_against_twins)
{
    for (unsigned index = 1 + 64 * (unsigned)_i; index < 64 * (unsigned)(_i + 1) + 1 && index < 512;
         index++) {
        char text[8];
        code_text(index, text);
        check_code_against_twins(text, TWIN_TOP, TWIN_TOP);
    }
}
END_TEST

/* Codes of four to eight digits (a fixed pseudo-random choice), with
 * max_values that are not round numbers. */
START_TEST(test_long_codes_against_twins)
{
    uint32_t x = 12345u + 1000u * (uint32_t)_i;
    for (unsigned i = 0; i < 16; i++) {
        char text[16] = "0.";
        x = x * 1103515245u + 12345u;
        unsigned nd = 4 + (x >> 16) % 5;
        for (unsigned k = 0; k < nd; k++) {
            x = x * 1103515245u + 12345u;
            text[2 + k] = (char)('0' + (x >> 16) % 8);
        }
        text[2 + nd] = '\0';
        gr_octal_code code;
        if (gr_octal_parse(text, &code) != GR_OK)
            continue; /* all zero */
        x = x * 1103515245u + 12345u;
        check_code_against_twins(text, 700 + (x >> 16) % 1500, 2500);
    }
}
END_TEST

/* Any budget: GR_OK with right values (and, when periodic, the period of
 * an unlimited run) or GR_ELIMIT with nothing; never anything else. */
static const char *budget_codes[] = { "0.77", "0.007", "0.137", "0.4", "0.014", "0.156", "0.16" };

START_TEST(test_budget_sweep)
{
    const char *text = budget_codes[_i];
    gr_octal_code code;
    REQUIRE_EQ(gr_octal_parse(text, &code), GR_OK);
    gr_seq full = solve_code(text, 0, TWIN_TOP, GR_OK);
    uint16_t *g = octal_twin_values(text, TWIN_TOP);
    for (uint64_t steps = 1; steps < 100000000u; steps = steps * 3 + steps / 2) {
        for (uint64_t need = 0; need <= 200; need += 100) {
            gr_budget b = gr_budget_make(steps);
            gr_seq s;
            gr_status st = gr_octal_solve(&code, need, TWIN_TOP, &b, &s);
            if (st == GR_ELIMIT) {
                REQUIRE(s.values == NULL && s.count == 0 && !s.periodic);
                REQUIRE_EQ(b.left, 0);
                continue;
            }
            REQUIRE_EQ(st, GR_OK);
            REQUIRE(s.periodic || s.count > need);
            check_against_naive(&s, g, s.count, text);
            if (s.periodic) {
                REQUIRE(full.periodic);
                REQUIRE_EQ(s.preperiod, full.preperiod);
                REQUIRE_EQ(s.period, full.period);
                REQUIRE_EQ(s.count, full.count);
            }
            gr_seq_free(&s);
        }
    }
    free(g);
    gr_seq_free(&full);
}
END_TEST

/* The budget: each value costs one step per option plus count + 1, paid
 * before it is computed, and nothing else; the count reported (cut back to
 * the first certificate) is what was paid for. The same budget one step
 * short of a value stops before it. */
static uint64_t plain_cost(const char *text, uint64_t count)
{
    unsigned digit[9], t = octal_twin_digits(text, digit);
    uint64_t total = 0;
    for (uint64_t n = 0; n < count; n++) {
        total += t + n + 1;
        for (unsigned k = 1; k <= t; k++)
            if ((digit[k] & 4) && n >= k + 2)
                total += (n - k) / 2;
    }
    return total;
}

START_TEST(test_budget_accounting)
{
    const char *text = budget_codes[_i];
    gr_octal_code code;
    REQUIRE_EQ(gr_octal_parse(text, &code), GR_OK);
    gr_budget b = gr_budget_make(BIG_BUDGET);
    gr_seq s;
    REQUIRE_EQ(gr_octal_solve(&code, 0, TWIN_TOP, &b, &s), GR_OK);
    uint64_t spent = plain_cost(text, s.count);
    REQUIRE_EQ(BIG_BUDGET - b.left, spent);
    bool periodic = s.periodic;
    uint64_t count = s.count;
    gr_seq_free(&s);
    /* Exactly enough: the same answer, nothing left. */
    b = gr_budget_make(spent);
    REQUIRE_EQ(gr_octal_solve(&code, 0, TWIN_TOP, &b, &s), GR_OK);
    REQUIRE_EQ(b.left, 0);
    REQUIRE_EQ(s.count, count);
    REQUIRE_EQ(s.periodic, periodic);
    gr_seq_free(&s);
    /* One step short: the last value is not paid for. */
    if (count >= 2) {
        b = gr_budget_make(spent - 1);
        REQUIRE_EQ(gr_octal_solve(&code, count - 1, TWIN_TOP, &b, &s), GR_ELIMIT);
        REQUIRE_EQ(b.left, 0);
        b = gr_budget_make(spent - 1);
        REQUIRE_EQ(gr_octal_solve(&code, count - 2, TWIN_TOP, &b, &s), GR_OK);
        REQUIRE(!s.periodic);
        REQUIRE_EQ(s.count, count - 1);
        gr_seq_free(&s);
    }
}
END_TEST

/* Past the rare/common switch (256 values and more): a code solved that
 * way for thousands of values, against the naive mex, with max_values
 * reached. */
START_TEST(test_sparse_values_far)
{
    static const char *codes[] = { "0.014", "0.015", "0.156", "0.54", "0.341" };
    const char *text = codes[_i];
    enum { FAR = 9000 };
    uint16_t *g = octal_twin_values(text, FAR);
    gr_seq s = solve_code(text, FAR - 1, FAR, GR_OK);
    check_against_naive(&s, g, s.periodic ? FAR : s.count, text);
    if (!s.periodic)
        REQUIRE_EQ(s.count, FAR);
    free(g);
    gr_seq_free(&s);
}
END_TEST

/* ---- the game-tree search of heap multisets ---- */

#define MAXH 40u
#define MEMO_CAP (1u << 18)

typedef struct position {
    uint8_t n;
    uint8_t h[MAXH]; /* ascending, all >= 1 */
} position;

typedef struct memo_entry {
    position p;
    uint8_t state; /* 0 empty, 1 loss, 2 win for the player to move */
} memo_entry;

typedef struct searcher {
    unsigned digit[9], t;
    memo_entry *memo;
} searcher;

static uint64_t position_hash(const position *p)
{
    uint64_t h = 1469598103934665603u ^ p->n;
    for (unsigned i = 0; i < p->n; i++)
        h = (h ^ p->h[i]) * 1099511628211u;
    return h;
}

static memo_entry *memo_find(searcher *sr, const position *p)
{
    size_t i = (size_t)position_hash(p) & (MEMO_CAP - 1);
    for (size_t probes = 0; probes < MEMO_CAP; probes++, i = (i + 1) & (MEMO_CAP - 1)) {
        memo_entry *e = &sr->memo[i];
        if (e->state == 0 || (e->p.n == p->n && memcmp(e->p.h, p->h, p->n) == 0))
            return e;
    }
    ck_abort_msg("memo full");
    return NULL;
}

/* p without heap i, plus the given parts, kept sorted. */
static position replace_heap(const position *p, unsigned i, unsigned nparts,
                             const uint64_t *parts)
{
    position q;
    q.n = 0;
    for (unsigned j = 0; j < p->n; j++)
        if (j != i)
            q.h[q.n++] = p->h[j];
    for (unsigned j = 0; j < nparts; j++) {
        REQUIRE(q.n < MAXH && parts[j] >= 1 && parts[j] < 256);
        unsigned at = q.n++;
        while (at > 0 && q.h[at - 1] > parts[j]) {
            q.h[at] = q.h[at - 1];
            at--;
        }
        q.h[at] = (uint8_t)parts[j];
    }
    return q;
}

static bool search_win(searcher *sr, const position *p);

/* Whether some move on heap i reaches a position lost for the opponent. */
static bool heap_has_winning_move(searcher *sr, const position *p, unsigned i)
{
    unsigned h = p->h[i];
    for (unsigned k = 1; k <= sr->t && k <= h; k++) {
        unsigned d = sr->digit[k];
        uint64_t parts[2];
        if ((d & 1) && h == k) {
            position q = replace_heap(p, i, 0, parts);
            if (!search_win(sr, &q))
                return true;
        }
        if ((d & 2) && h > k) {
            parts[0] = h - k;
            position q = replace_heap(p, i, 1, parts);
            if (!search_win(sr, &q))
                return true;
        }
        for (unsigned a = 1; (d & 4) && h > k && 2 * a <= h - k; a++) {
            parts[0] = a;
            parts[1] = h - k - a;
            position q = replace_heap(p, i, 2, parts);
            if (!search_win(sr, &q))
                return true;
        }
    }
    return false;
}

static bool search_win(searcher *sr, const position *p)
{
    memo_entry *e = memo_find(sr, p);
    if (e->state != 0)
        return e->state == 2;
    bool win = false;
    for (unsigned i = 0; i < p->n && !win; i++)
        if (i == 0 || p->h[i] != p->h[i - 1])
            win = heap_has_winning_move(sr, p, i);
    e = memo_find(sr, p); /* again: the search may have filled the first slot */
    e->p = *p;
    e->state = win ? 2 : 1;
    return win;
}

static position make_position(const unsigned *heaps, unsigned count)
{
    position p = { 0, { 0 } };
    uint64_t parts[4]; /* up to four heaps: two others and the two parts of a split */
    unsigned np = 0;
    REQUIRE(count <= 4);
    for (unsigned i = 0; i < count; i++)
        if (heaps[i] > 0)
            parts[np++] = heaps[i];
    position empty = { 0, { 0 } };
    p = replace_heap(&empty, 0, np, parts);
    return p;
}

/* The move is legal for heap h under the code. */
static bool legal_move(const searcher *sr, uint64_t h, const gr_heap_move *m)
{
    if (m->take < 1 || m->take > sr->t || m->take > h)
        return false;
    unsigned d = sr->digit[m->take];
    uint64_t rest = h - m->take;
    switch (m->nparts) {
    case 0: return (d & 1) && rest == 0;
    case 1: return (d & 2) && rest >= 1 && m->part[0] == rest;
    case 2:
        return (d & 4) && m->part[0] >= 1 && m->part[0] <= m->part[1] &&
               m->part[0] + m->part[1] == rest;
    }
    return false;
}

static const char *replay_codes[] = { "0.77", "0.07", "0.137", "0.7777", "0.4", "0.6", "0.156",
                                      "0.37", "0.51", "0.007", "0.333" };
#define SMALL_HEAP 9u

START_TEST(test_winning_moves_small_sums)
{
    const char *text = replay_codes[_i];
    searcher sr;
    sr.t = octal_twin_digits(text, sr.digit);
    sr.memo = calloc(MEMO_CAP, sizeof *sr.memo);
    REQUIRE(sr.memo != NULL);
    gr_octal_code code;
    REQUIRE_EQ(gr_octal_parse(text, &code), GR_OK);
    gr_seq s = solve_code(text, 3 * SMALL_HEAP, 1000, GR_OK);
    for (unsigned a = 0; a <= SMALL_HEAP; a++)
        for (unsigned b = a; b <= SMALL_HEAP; b++)
            for (unsigned c = b; c <= SMALL_HEAP; c++) {
                unsigned h[3] = { a, b, c };
                uint16_t g[3];
                for (unsigned i = 0; i < 3; i++)
                    REQUIRE_EQ(gr_seq_value(&s, h[i], &g[i]), GR_OK);
                unsigned x = g[0] ^ g[1] ^ g[2];
                position p = make_position(h, 3);
                REQUIRE_EQ(x != 0, search_win(&sr, &p));
                for (unsigned i = 0; i < 3; i++) {
                    uint16_t target = (uint16_t)(g[i] ^ x);
                    gr_heap_move m;
                    gr_status st = gr_octal_move(&code, &s, h[i], target, &m);
                    if (x == 0) {
                        REQUIRE_EQ(st, GR_EINVAL);
                        continue;
                    }
                    if (target < g[i])
                        REQUIRE_EQ(st, GR_OK);
                    if (st != GR_OK) {
                        REQUIRE_EQ(st, GR_EINVAL);
                        continue;
                    }
                    REQUIRE(legal_move(&sr, h[i], &m));
                    unsigned rest[4] = { h[(i + 1) % 3], h[(i + 2) % 3], 0, 0 };
                    for (unsigned j = 0; j < m.nparts; j++)
                        rest[2 + j] = (unsigned)m.part[j];
                    position q = make_position(rest, 4);
                    REQUIRE(!search_win(&sr, &q)); /* the opponent loses */
                }
            }
    gr_seq_free(&s);
    free(sr.memo);
}
END_TEST

/* ---- moves past count, against a full scan of every option ---- */

/* For each heap up to 5000 and each target below 64, gr_octal_move finds a
 * move exactly when a full scan of all options (values extended through the
 * period) reaches the target, and what it finds is legal and right. */
START_TEST(test_moves_against_full_scan)
{
    const char *text = known[_i].text;
    searcher sr;
    sr.t = octal_twin_digits(text, sr.digit);
    gr_octal_code code;
    REQUIRE_EQ(gr_octal_parse(text, &code), GR_OK);
    gr_seq s = solve_code(text, 0, 100000, GR_OK);
    REQUIRE(s.periodic);
    enum { TOP = 5000 };
    uint16_t *ext = malloc((TOP + 1) * sizeof *ext);
    REQUIRE(ext != NULL);
    for (uint64_t n = 0; n <= TOP; n++)
        REQUIRE_EQ(gr_seq_value(&s, n, &ext[n]), GR_OK);
    for (uint64_t n = 0; n <= TOP; n++) {
        bool reach[64] = { false };
        for (unsigned k = 1; k <= sr.t; k++) {
            unsigned d = sr.digit[k];
            if ((d & 1) && n == k)
                reach[0] = true;
            if ((d & 2) && n > k)
                reach[ext[n - k]] = true;
            for (uint64_t a = 1; (d & 4) && n > k && 2 * a <= n - k; a++)
                reach[ext[a] ^ ext[n - k - a]] = true;
        }
        for (unsigned target = 0; target < 64; target++) {
            gr_heap_move m;
            gr_status st = gr_octal_move(&code, &s, n, (uint16_t)target, &m);
            REQUIRE_EQ(st, reach[target] ? GR_OK : GR_EINVAL);
            if (st != GR_OK)
                continue;
            REQUIRE(legal_move(&sr, n, &m));
            unsigned v = 0;
            for (unsigned j = 0; j < m.nparts; j++)
                v ^= ext[m.part[j]];
            REQUIRE_EQ(v, target);
        }
    }
    free(ext);
    gr_seq_free(&s);
}
END_TEST

/* ---- moves at huge heaps ---- */

START_TEST(test_huge_heaps)
{
    static const uint64_t heaps[] = { 1000000000000000000u, UINT64_MAX >> 1, UINT64_MAX,
                                      1000000000000000001u, 1000000000000000002u,
                                      999999999999999989u };
    const char *text = known[_i].text;
    searcher sr;
    sr.t = octal_twin_digits(text, sr.digit);
    gr_octal_code code;
    REQUIRE_EQ(gr_octal_parse(text, &code), GR_OK);
    gr_seq s = solve_code(text, 0, 100000, GR_OK);
    for (size_t i = 0; i < sizeof heaps / sizeof heaps[0]; i++) {
        uint64_t n = heaps[i];
        uint16_t gn;
        REQUIRE_EQ(gr_seq_value(&s, n, &gn), GR_OK);
        for (unsigned target = 0; target <= s.max_value + 1u; target++) {
            gr_heap_move m;
            gr_status st = gr_octal_move(&code, &s, n, (uint16_t)target, &m);
            if (target == gn)
                REQUIRE_EQ(st, GR_EINVAL);
            if (target < gn)
                REQUIRE_EQ(st, GR_OK);
            if (st != GR_OK) {
                REQUIRE_EQ(st, GR_EINVAL);
                continue;
            }
            REQUIRE(legal_move(&sr, n, &m));
            unsigned v = 0;
            for (unsigned j = 0; j < m.nparts; j++) {
                uint16_t gp;
                REQUIRE_EQ(gr_seq_value(&s, m.part[j], &gp), GR_OK);
                v ^= gp;
            }
            REQUIRE_EQ(v, target);
        }
    }
    gr_seq_free(&s);
}
END_TEST

/* ---- budget, bounds, invalid input ---- */

START_TEST(test_budget_and_bounds)
{
    gr_octal_code code;
    gr_seq s;
    REQUIRE_EQ(gr_octal_parse("0.77", &code), GR_OK);
    gr_budget b = gr_budget_make(100);
    REQUIRE_EQ(gr_octal_solve(&code, 1000, 100000, &b, &s), GR_ELIMIT);
    REQUIRE(s.values == NULL && s.count == 0 && s.owned == NULL);
    REQUIRE_EQ(b.left, 0);
    b = gr_budget_make(0);
    REQUIRE_EQ(gr_octal_solve(&code, 0, 100000, &b, &s), GR_ELIMIT);

    /* Budget for a few values: OK for a small need, not periodic. */
    b = gr_budget_make(100);
    REQUIRE_EQ(gr_octal_solve(&code, 5, 100000, &b, &s), GR_OK);
    REQUIRE(!s.periodic && s.count > 5);
    gr_seq_free(&s);

    /* Treblecross has no known period: past max_values is a bound error. */
    REQUIRE_EQ(gr_octal_parse("0.007", &code), GR_OK);
    b = gr_budget_make(BIG_BUDGET);
    REQUIRE_EQ(gr_octal_solve(&code, 5000, 1000, &b, &s), GR_EBOUND);
    REQUIRE(s.values == NULL && s.count == 0);
    b = gr_budget_make(BIG_BUDGET);
    REQUIRE_EQ(gr_octal_solve(&code, 999, 1000, &b, &s), GR_OK);
    REQUIRE(!s.periodic);
    REQUIRE_EQ(s.count, 1000);
    uint16_t *g = octal_twin_values("0.007", 1000);
    check_against_naive(&s, g, 1000, "0.007");
    free(g);
    gr_heap_move m;
    REQUIRE_EQ(gr_octal_move(&code, &s, 1000, 0, &m), GR_EBOUND);
    REQUIRE_EQ(gr_octal_move(&code, &s, UINT64_MAX, 0, &m), GR_EBOUND);
    REQUIRE_EQ(gr_octal_move(&code, &s, 999, s.values[999] == 0 ? 1 : 0, &m) == GR_EBOUND,
               false);
    uint16_t v;
    REQUIRE_EQ(gr_seq_value(&s, 1000, &v), GR_EBOUND);
    gr_seq_free(&s);

    b = gr_budget_make(BIG_BUDGET);
    REQUIRE_EQ(gr_octal_solve(&code, 0, 0, &b, &s), GR_EBOUND);

    /* Invalid codes. */
    gr_octal_code bad = code;
    bad.t = 0;
    REQUIRE_EQ(gr_octal_solve(&bad, 0, 10, &b, &s), GR_EINVAL);
    bad = code;
    bad.digit[3] = 8;
    REQUIRE_EQ(gr_octal_solve(&bad, 0, 10, &b, &s), GR_EINVAL);
    bad = code;
    bad.t = 9;
    REQUIRE_EQ(gr_octal_solve(&bad, 0, 10, &b, &s), GR_EINVAL);
    REQUIRE(s.values == NULL);
}
END_TEST

static Suite *octal_suite(void)
{
    Suite *suite = suite_create("octal");
    TCase *tc = tcase_create("values");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_parse_and_format);
    tcase_add_loop_test(tc, test_known_periods, 0, (int)(sizeof known / sizeof known[0]));
    tcase_add_loop_test(tc, test_all_three_digit_codes, 0, 8);
    suite_add_tcase(suite, tc);

    TCase *twins = tcase_create("twins");
    tcase_set_timeout(twins, 120);
    tcase_add_loop_test(twins, test_all_codes_against_twins, 0, 8);
    tcase_add_loop_test(twins, test_long_codes_against_twins, 0, 4);
    tcase_add_loop_test(twins, test_sparse_values_far, 0, 5);
    tcase_add_loop_test(twins, test_budget_sweep, 0,
                        (int)(sizeof budget_codes / sizeof budget_codes[0]));
    tcase_add_loop_test(twins, test_budget_accounting, 0,
                        (int)(sizeof budget_codes / sizeof budget_codes[0]));
    suite_add_tcase(suite, twins);

    TCase *moves = tcase_create("moves");
    tcase_set_timeout(moves, 60);
    tcase_add_loop_test(moves, test_winning_moves_small_sums, 0,
                        (int)(sizeof replay_codes / sizeof replay_codes[0]));
    tcase_add_loop_test(moves, test_moves_against_full_scan, 0,
                        (int)(sizeof known / sizeof known[0]));
    tcase_add_loop_test(moves, test_huge_heaps, 0, 3);
    suite_add_tcase(suite, moves);

    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, test_budget_and_bounds);
    suite_add_tcase(suite, limits);
    return suite;
}

int main(void)
{
    return gr_check_run(octal_suite());
}
