/* SPDX-License-Identifier: MIT */
/* Tests for Grundy's game (include/grundy/octal.h, gr_grundys_*).
 *
 * Brute-force twins: values by the plain O(n^2) mex over every unequal
 * split, written here; values sampled far out (every 997 heaps below 2^22)
 * by an independent implementation, from tests/data; win/loss of sums of
 * heaps by searching the game tree of heap multisets (no Grundy values),
 * against which every winning move is replayed. */
#include "grundy/octal.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"


#define BIG_BUDGET 1000000000000u
#define NAIVE_TOP 20000u             /* exhaustive agreement with the twin below this */
#define FAR_TOP (1u << 22)           /* the sampled values lie below this */
#define SAMPLES_FILE "grundys-game-samples.txt"

/* ---- brute-force twin ---- */

/* g(0 .. count) by the definition, O(count^2). */
static uint16_t *naive_values(uint64_t count)
{
    uint16_t *g = malloc(count * sizeof *g);
    REQUIRE(g != NULL);
    for (uint64_t n = 0; n < count; n++) {
        bool seen[1024] = { false };
        for (uint64_t a = 1; 2 * a < n; a++)
            seen[g[a] ^ g[n - a]] = true;
        uint16_t m = 0;
        while (seen[m])
            m++;
        REQUIRE(m < 512);
        g[n] = m;
    }
    return g;
}

static gr_seq solve_ok(uint64_t need)
{
    gr_budget b = gr_budget_make(BIG_BUDGET);
    gr_seq s;
    REQUIRE_EQ(gr_grundys_solve(need, &b, &s), GR_OK);
    REQUIRE_EQ(s.count, need + 1);
    REQUIRE(!s.periodic);
    REQUIRE(s.values == s.owned);
    return s;
}

/* ---- known values (references.md) ---- */

static const uint16_t first_values[] = { 0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0 };

START_TEST(test_first_values)
{
    gr_seq s = solve_ok(sizeof first_values / sizeof first_values[0] - 1);
    REQUIRE_EQ(s.values[_i], first_values[_i]);
    gr_seq_free(&s);
}
END_TEST

START_TEST(test_tiny_needs)
{
    for (uint64_t need = 0; need < 40; need++) {
        gr_seq s = solve_ok(need);
        uint16_t *g = naive_values(need + 1);
        for (uint64_t n = 0; n <= need; n++)
            REQUIRE_EQ(s.values[n], g[n]);
        free(g);
        gr_seq_free(&s);
    }
}
END_TEST

START_TEST(test_against_naive)
{
    gr_seq s = solve_ok(NAIVE_TOP);
    uint16_t *g = naive_values(NAIVE_TOP + 1);
    uint16_t mx = 0;
    for (uint64_t n = 0; n <= NAIVE_TOP; n++) {
        if (s.values[n] != g[n])
            ck_abort_msg("g(%llu): engine %u, naive %u", (unsigned long long)n, s.values[n],
                         g[n]);
        if (g[n] > mx)
            mx = g[n];
    }
    REQUIRE_EQ(s.max_value, mx);
    /* Zeros up to 12,000: 42 of them, the last at 1222. */
    unsigned zeros = 0;
    uint64_t last_zero = 0;
    for (uint64_t n = 0; n <= 12000; n++)
        if (g[n] == 0) {
            zeros++;
            last_zero = n;
        }
    REQUIRE_EQ(zeros, 42);
    REQUIRE_EQ(last_zero, 1222);
    free(g);
    gr_seq_free(&s);
}
END_TEST

/* ---- groups of heaps: needs that end a group anywhere ---- */

/* The solver computes heaps in groups of eight from heap 64 on and picks
 * its mask at powers of two; needs ending anywhere in a group, or right at
 * a mask check, give the definition's values. */
START_TEST(test_needs_at_group_edges)
{
    static const uint64_t needs[] = { 62,  63,  64,  65,  70,   71,   72,   73,   127,  128,
                                      129, 255, 256, 257, 1000, 4094, 4095, 4096, 4097, 4999 };
    uint16_t *g = naive_values(5000);
    for (size_t i = 0; i < sizeof needs / sizeof needs[0]; i++) {
        gr_seq s = solve_ok(needs[i]);
        for (uint64_t n = 0; n <= needs[i]; n++)
            if (s.values[n] != g[n])
                ck_abort_msg("need %llu, g(%llu): engine %u, naive %u",
                             (unsigned long long)needs[i], (unsigned long long)n, s.values[n],
                             g[n]);
        gr_seq_free(&s);
    }
    free(g);
}
END_TEST

/* ---- far values: the samples file ---- */

/* Opens the samples: $GRUNDY_TEST_DATA (the file, or a directory holding
 * it), else the source tree's tests/data given at compile time, else
 * $GRUNDY_DATA_DIR (the shared data directory the meson test sets). */
static FILE *open_samples(void)
{
    const char *dirs[3] = { getenv("GRUNDY_TEST_DATA"), NULL, getenv("GRUNDY_DATA_DIR") };
#ifdef GRUNDY_TEST_DATA_DIR
    dirs[1] = GRUNDY_TEST_DATA_DIR;
#endif
    if (dirs[0] != NULL) {
        FILE *f = fopen(dirs[0], "r");
        char probe;
        if (f != NULL && fread(&probe, 1, 1, f) == 1) { /* a regular file */
            rewind(f);
            return f;
        }
        if (f != NULL)
            fclose(f);
    }
    for (int i = 0; i < 3; i++) {
        if (dirs[i] == NULL)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dirs[i], SAMPLES_FILE);
        FILE *f = fopen(path, "r");
        if (f != NULL)
            return f;
    }
    return NULL;
}

START_TEST(test_far_values)
{
    FILE *f = open_samples();
    if (f == NULL)
        ck_abort_msg("cannot find %s: set GRUNDY_TEST_DATA", SAMPLES_FILE);
    gr_seq s = solve_ok(FAR_TOP - 1);
    char line[256];
    unsigned checked = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        unsigned long long n;
        unsigned v;
        if (line[0] == '#')
            continue;
        REQUIRE(sscanf(line, "%llu %u", &n, &v) == 2);
        REQUIRE(n < FAR_TOP);
        if (s.values[n] != v)
            ck_abort_msg("g(%llu): engine %u, samples %u", n, s.values[n], v);
        checked++;
    }
    fclose(f);
    REQUIRE(checked > 4000);
    REQUIRE_EQ(s.max_value, 234);
    /* Rare positions for the mask of every bit but the lowest (values with
     * an even number of 1s above bit 0): 1274 below 2^22, counting heap 0,
     * the last at 82,860. */
    unsigned rare = 0;
    uint64_t last_rare = 0;
    for (uint64_t n = 0; n < FAR_TOP; n++) {
        unsigned v = s.values[n] >> 1, parity = 0;
        for (; v; v &= v - 1)
            parity ^= 1;
        if (parity == 0) {
            rare++;
            last_rare = n;
        }
    }
    REQUIRE_EQ(rare, 1274);
    REQUIRE_EQ(last_rare, 82860);
    gr_seq_free(&s);
}
END_TEST

/* ---- the game-tree search of heap multisets ---- */

#define MAXH 48u
#define MEMO_CAP (1u << 18)

typedef struct position {
    uint8_t n;
    uint8_t h[MAXH]; /* ascending, all >= 3: heaps of 1 or 2 have no move */
} position;

typedef struct memo_entry {
    position p;
    uint8_t state; /* 0 empty, 1 loss, 2 win for the player to move */
} memo_entry;

static uint64_t position_hash(const position *p)
{
    uint64_t h = 1469598103934665603u ^ p->n;
    for (unsigned i = 0; i < p->n; i++)
        h = (h ^ p->h[i]) * 1099511628211u;
    return h;
}

static memo_entry *memo_find(memo_entry *memo, const position *p)
{
    size_t i = (size_t)position_hash(p) & (MEMO_CAP - 1);
    for (size_t probes = 0; probes < MEMO_CAP; probes++, i = (i + 1) & (MEMO_CAP - 1)) {
        memo_entry *e = &memo[i];
        if (e->state == 0 || (e->p.n == p->n && memcmp(e->p.h, p->h, p->n) == 0))
            return e;
    }
    ck_abort_msg("memo full");
    return NULL;
}

/* p without heap i, plus the parts (those that can still move), sorted.
 * Dropping heaps of 1 and 2 only saves memory: no move ever touches them. */
static position replace_heap(const position *p, unsigned i, unsigned nparts,
                             const uint64_t *parts)
{
    position q;
    q.n = 0;
    for (unsigned j = 0; j < p->n; j++)
        if (j != i)
            q.h[q.n++] = p->h[j];
    for (unsigned j = 0; j < nparts; j++) {
        if (parts[j] < 3)
            continue;
        REQUIRE(q.n < MAXH && parts[j] < 256);
        unsigned at = q.n++;
        while (at > 0 && q.h[at - 1] > parts[j]) {
            q.h[at] = q.h[at - 1];
            at--;
        }
        q.h[at] = (uint8_t)parts[j];
    }
    return q;
}

static bool search_win(memo_entry *memo, const position *p)
{
    memo_entry *e = memo_find(memo, p);
    if (e->state != 0)
        return e->state == 2;
    bool win = false;
    for (unsigned i = 0; i < p->n && !win; i++) {
        if (i > 0 && p->h[i] == p->h[i - 1])
            continue;
        for (uint64_t a = 1; 2 * a < p->h[i] && !win; a++) {
            uint64_t parts[2] = { a, p->h[i] - a };
            position q = replace_heap(p, i, 2, parts);
            win = !search_win(memo, &q);
        }
    }
    e = memo_find(memo, p); /* again: the search may have filled the first slot */
    e->p = *p;
    e->state = win ? 2 : 1;
    return win;
}

static position make_position(const unsigned *heaps, unsigned count)
{
    uint64_t parts[4];
    for (unsigned i = 0; i < count; i++)
        parts[i] = heaps[i];
    position empty = { 0, { 0 } };
    return replace_heap(&empty, 0, count, parts);
}

#define SMALL_HEAP 14u

START_TEST(test_winning_moves_small_sums)
{
    memo_entry *memo = calloc(MEMO_CAP, sizeof *memo);
    REQUIRE(memo != NULL);
    gr_seq s = solve_ok(SMALL_HEAP);
    for (unsigned a = 0; a <= SMALL_HEAP; a++)
        for (unsigned b = a; b <= SMALL_HEAP; b++)
            for (unsigned c = b; c <= SMALL_HEAP; c++) {
                unsigned h[3] = { a, b, c };
                unsigned x = s.values[a] ^ s.values[b] ^ s.values[c];
                position p = make_position(h, 3);
                REQUIRE_EQ(x != 0, search_win(memo, &p));
                for (unsigned i = 0; i < 3; i++) {
                    uint16_t gi = s.values[h[i]], target = (uint16_t)(gi ^ x);
                    gr_heap_move m;
                    gr_status st = gr_grundys_move(&s, h[i], target, &m);
                    if (x == 0) {
                        REQUIRE_EQ(st, GR_EINVAL);
                        continue;
                    }
                    if (target < gi)
                        REQUIRE_EQ(st, GR_OK);
                    if (st != GR_OK) {
                        REQUIRE_EQ(st, GR_EINVAL);
                        continue;
                    }
                    REQUIRE(m.take == 0 && m.nparts == 2);
                    REQUIRE(m.part[0] >= 1 && m.part[0] < m.part[1]);
                    REQUIRE_EQ(m.part[0] + m.part[1], h[i]);
                    unsigned rest[4] = { h[(i + 1) % 3], h[(i + 2) % 3], (unsigned)m.part[0],
                                         (unsigned)m.part[1] };
                    position q = make_position(rest, 4);
                    REQUIRE(!search_win(memo, &q)); /* the opponent loses */
                }
            }
    gr_seq_free(&s);
    free(memo);
}
END_TEST

/* Moves at large heaps: every smaller value is reached, the split found is
 * the first in increasing a, and the value itself is never reached. */
START_TEST(test_moves_large_heaps)
{
    gr_seq s = solve_ok(300000);
    static const uint64_t heaps[] = { 3, 4, 1222, 82860, 99999, 250001, 300000 };
    for (size_t i = 0; i < sizeof heaps / sizeof heaps[0]; i++) {
        uint64_t n = heaps[i];
        bool reach[512] = { false };
        for (uint64_t a = 1; 2 * a < n; a++)
            reach[s.values[a] ^ s.values[n - a]] = true;
        for (unsigned target = 0; target < 512; target++) {
            gr_heap_move m;
            gr_status st = gr_grundys_move(&s, n, (uint16_t)target, &m);
            REQUIRE_EQ(st, reach[target] ? GR_OK : GR_EINVAL);
            if (target < s.values[n])
                REQUIRE(reach[target]);
            if (st != GR_OK)
                continue;
            REQUIRE(m.take == 0 && m.nparts == 2 && m.part[0] < m.part[1]);
            REQUIRE_EQ(m.part[0] + m.part[1], n);
            REQUIRE_EQ(s.values[m.part[0]] ^ s.values[m.part[1]], target);
            for (uint64_t a = 1; a < m.part[0]; a++)
                REQUIRE((s.values[a] ^ s.values[n - a]) != target);
        }
        REQUIRE(!reach[s.values[n]]);
    }
    gr_heap_move m;
    REQUIRE_EQ(gr_grundys_move(&s, 300001, 0, &m), GR_EBOUND);
    REQUIRE_EQ(gr_grundys_move(&s, UINT64_MAX, 0, &m), GR_EBOUND);
    REQUIRE_EQ(gr_grundys_move(&s, 0, 0, &m), GR_EINVAL);
    REQUIRE_EQ(gr_grundys_move(&s, 2, 0, &m), GR_EINVAL); /* 1 + 1 is not unequal */
    gr_seq_free(&s);
}
END_TEST

/* ---- budget ---- */

START_TEST(test_budget)
{
    gr_seq s;
    gr_budget b = gr_budget_make(1000);
    REQUIRE_EQ(gr_grundys_solve(1000, &b, &s), GR_ELIMIT); /* not even a step a value */
    REQUIRE(s.values == NULL && s.count == 0 && s.owned == NULL);
    REQUIRE_EQ(b.left, 0);
    b = gr_budget_make(100000);
    REQUIRE_EQ(gr_grundys_solve(20000, &b, &s), GR_ELIMIT);
    REQUIRE(s.values == NULL && s.count == 0);
    REQUIRE_EQ(gr_grundys_solve(UINT64_MAX, &b, &s), GR_ELIMIT);

    /* The exact cost succeeds, one step less does not. */
    b = gr_budget_make(BIG_BUDGET);
    REQUIRE_EQ(gr_grundys_solve(20000, &b, &s), GR_OK);
    uint64_t spent = BIG_BUDGET - b.left;
    gr_seq_free(&s);
    REQUIRE(spent > 20000);
    b = gr_budget_make(spent);
    REQUIRE_EQ(gr_grundys_solve(20000, &b, &s), GR_OK);
    REQUIRE_EQ(b.left, 0);
    gr_seq_free(&s);
    b = gr_budget_make(spent - 1);
    REQUIRE_EQ(gr_grundys_solve(20000, &b, &s), GR_ELIMIT);
    REQUIRE(s.values == NULL);
}
END_TEST

/* Any budget: GR_OK with the right values, or GR_ELIMIT with nothing and
 * the budget emptied; once a budget suffices, every larger one does. */
START_TEST(test_budget_sweep)
{
    enum { NEED = 3000 };
    uint16_t *g = naive_values(NEED + 1);
    bool enough = false;
    for (uint64_t steps = 1; steps < 100000000u; steps = steps * 5 / 4 + 1) {
        gr_budget b = gr_budget_make(steps);
        gr_seq s;
        gr_status st = gr_grundys_solve(NEED, &b, &s);
        if (st == GR_ELIMIT) {
            REQUIRE(!enough);
            REQUIRE(s.values == NULL && s.count == 0);
            REQUIRE_EQ(b.left, 0);
            continue;
        }
        REQUIRE_EQ(st, GR_OK);
        enough = true;
        REQUIRE_EQ(s.count, NEED + 1);
        REQUIRE(memcmp(s.values, g, (NEED + 1) * sizeof *g) == 0);
        gr_seq_free(&s);
    }
    REQUIRE(enough);
    free(g);
}
END_TEST

static Suite *grundys_suite(void)
{
    Suite *suite = suite_create("grundys");
    TCase *tc = tcase_create("values");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_first_values, 0,
                        (int)(sizeof first_values / sizeof first_values[0]));
    tcase_add_test(tc, test_tiny_needs);
    tcase_add_test(tc, test_against_naive);
    tcase_add_test(tc, test_needs_at_group_edges);
    tcase_add_test(tc, test_far_values);
    suite_add_tcase(suite, tc);

    TCase *moves = tcase_create("moves");
    tcase_set_timeout(moves, 60);
    tcase_add_test(moves, test_winning_moves_small_sums);
    tcase_add_test(moves, test_moves_large_heaps);
    suite_add_tcase(suite, moves);

    TCase *limits = tcase_create("limits");
    tcase_set_timeout(limits, 60);
    tcase_add_test(limits, test_budget);
    tcase_add_test(limits, test_budget_sweep);
    suite_add_tcase(suite, limits);
    return suite;
}

int main(void)
{
    return gr_check_run(grundys_suite());
}
