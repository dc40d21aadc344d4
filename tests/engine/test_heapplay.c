/* SPDX-License-Identifier: MIT */
/* Tests for misere play and remoteness of one heap
 * (include/grundy/heapplay.h).
 *
 * Brute-force twins, sharing no code with the engine: the moves of a heap
 * written from the rules here (digits read from the code's text); misere
 * outcome, remoteness and Grundy values of every multiset of heaps of small
 * total by plain memoized recursion over sorted vectors, dead heaps kept
 * (so the engine's dropping of them is checked too); subtraction games by a
 * plain table far past the engine's certificates. Every move the engine
 * returns is replayed against the twin. */
#include "grundy/heapplay.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "grundy/subtraction.h"

#define BIG_BUDGET 100000000000u
#define TWIN_TOTAL 14u     /* positions of the heap-game twin: total size at most this, */
#define TWIN_LARGE 24u     /* ... or this for a few games (the engine's table then grows) */
#define TWIN_SLOTS 32768u  /* memo slots of that twin (far more than its positions) */
#define MAX_MOVES 256u     /* moves of one heap, at most (heaps up to 40) */
#define SUB_EVERY 3000u    /* subtraction heaps checked one by one */
#define SUB_TABLE 20000u   /* subtraction heaps of the plain table */

/* ---- deterministic pseudo-random numbers (splitmix64) ---- */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* ---- twin: the moves of one heap, from the rules ---- */

/* A heap game for the twin: octal digits, or Grundy's game. */
typedef struct twin_rules {
    const char *text; /* "0.d1d2..." or "grundys" */
    unsigned digit[9];
    unsigned t;
    bool grundys;
} twin_rules;

typedef struct twin_move {
    unsigned take, nparts, part[2];
} twin_move;

static twin_rules rules_of(const char *text)
{
    twin_rules r;
    memset(&r, 0, sizeof r);
    r.text = text;
    if (strcmp(text, "grundys") == 0) {
        r.grundys = true;
        return r;
    }
    for (unsigned k = 1; text[k + 1] != '\0'; k++) {
        r.digit[k] = (unsigned)(text[k + 1] - '0');
        if (r.digit[k] != 0)
            r.t = k;
    }
    return r;
}

/* Every move from heap h; returns how many (out has room for MAX_MOVES). */
static size_t twin_moves(const twin_rules *r, unsigned h, twin_move *out)
{
    size_t c = 0;
    if (r->grundys) {
        for (unsigned a = 1; 2 * a < h; a++)
            out[c++] = (twin_move){ 0, 2, { a, h - a } };
        return c;
    }
    for (unsigned k = 1; k <= r->t; k++) {
        if (k > h)
            break;
        if ((r->digit[k] & 1) && h == k)
            out[c++] = (twin_move){ k, 0, { 0, 0 } };
        if ((r->digit[k] & 2) && h > k)
            out[c++] = (twin_move){ k, 1, { h - k, 0 } };
        for (unsigned a = 1; (r->digit[k] & 4) && h > k && a <= h - k - a; a++)
            out[c++] = (twin_move){ k, 2, { a, h - k - a } };
    }
    return c;
}

/* ---- twin: multisets by memoized recursion ---- */

/* A position: heaps sorted ascending, all kept (dead ones too); the bytes
 * past count are zero, so the whole struct is the memo key. */
typedef struct twin_pos {
    uint8_t count;
    uint8_t h[TWIN_LARGE + 1];
} twin_pos;

typedef struct twin_value {
    bool misere_win;
    uint64_t remote; /* normal-play remoteness */
} twin_value;

typedef struct twin {
    twin_rules rules;
    bool used[TWIN_SLOTS];
    twin_pos key[TWIN_SLOTS];
    twin_value value[TWIN_SLOTS];
} twin;

static size_t pos_slot(const twin *tw, const twin_pos *p)
{
    uint64_t k = 14695981039346656037u;
    for (unsigned i = 0; i < p->count; i++)
        k = (k ^ p->h[i]) * 1099511628211u;
    size_t slot = (size_t)(k >> 40) & (TWIN_SLOTS - 1);
    while (tw->used[slot] && memcmp(&tw->key[slot], p, sizeof *p) != 0)
        slot = (slot + 1) & (TWIN_SLOTS - 1);
    return slot;
}

static void pos_sort(twin_pos *p)
{
    for (unsigned i = 1; i < p->count; i++)
        for (unsigned j = i; j > 0 && p->h[j - 1] > p->h[j]; j--) {
            uint8_t t = p->h[j];
            p->h[j] = p->h[j - 1];
            p->h[j - 1] = t;
        }
}

/* The position after move mv on heap i. */
static twin_pos pos_after(const twin_pos *p, unsigned i, const twin_move *mv)
{
    twin_pos q = *p;
    q.h[i] = q.h[--q.count];
    q.h[q.count] = 0;
    for (unsigned j = 0; j < mv->nparts; j++)
        q.h[q.count++] = (uint8_t)mv->part[j];
    pos_sort(&q);
    return q;
}

static twin_value twin_solve(twin *tw, const twin_pos *p)
{
    size_t slot = pos_slot(tw, p);
    if (tw->used[slot])
        return tw->value[slot];
    bool any = false, loss_option = false;
    uint64_t even = UINT64_MAX, odd = 0;
    bool has_odd = false;
    for (unsigned i = 0; i < p->count; i++) {
        twin_move mv[MAX_MOVES];
        size_t c = twin_moves(&tw->rules, p->h[i], mv);
        for (size_t j = 0; j < c; j++) {
            twin_pos q = pos_after(p, i, &mv[j]);
            twin_value v = twin_solve(tw, &q);
            any = true;
            loss_option = loss_option || !v.misere_win;
            if (v.remote % 2 == 0 && v.remote < even)
                even = v.remote;
            if (v.remote % 2 == 1 && (!has_odd || v.remote > odd)) {
                odd = v.remote;
                has_odd = true;
            }
        }
    }
    twin_value v;
    v.misere_win = !any || loss_option;
    v.remote = !any ? 0 : 1 + (even != UINT64_MAX ? even : odd);
    slot = pos_slot(tw, p); /* the recursion filled other slots */
    tw->used[slot] = true;
    tw->key[slot] = *p;
    tw->value[slot] = v;
    return v;
}

static twin_pos pos_of_parts(unsigned nparts, const uint64_t *part)
{
    twin_pos p;
    memset(&p, 0, sizeof p);
    for (unsigned i = 0; i < nparts; i++)
        p.h[p.count++] = (uint8_t)part[i];
    pos_sort(&p);
    return p;
}

static twin_value twin_heap(twin *tw, unsigned n)
{
    uint64_t part = n;
    twin_pos p = pos_of_parts(n > 0, &part);
    return twin_solve(tw, &p);
}

/* Grundy values of single heaps 0 .. TWIN_LARGE by mex. */
static void twin_grundy(const twin_rules *r, unsigned g[TWIN_LARGE + 1])
{
    for (unsigned h = 0; h <= TWIN_LARGE; h++) {
        bool seen[64] = { false };
        twin_move mv[MAX_MOVES];
        size_t c = twin_moves(r, h, mv);
        for (size_t j = 0; j < c; j++) {
            unsigned x = 0;
            for (unsigned i = 0; i < mv[j].nparts; i++)
                x ^= g[mv[j].part[i]];
            seen[x] = true;
        }
        unsigned m = 0;
        while (seen[m])
            m++;
        g[h] = m;
    }
}

/* ---- the games checked ---- */

/* The first four are checked to TWIN_LARGE. */
static const char *named_games[] = {
    "grundys", "0.77", "0.07", "0.137", "0.6", "0.4", "0.7777", "0.3", "0.156", "0.165", "0.44",
};

/* "0.d1d2" for i = 1 .. 63 (i = 8 d1 + d2), then random "0.d1d2d3". */
static void code_text(unsigned i, char text[8])
{
    if (i < 64) {
        text[0] = '0';
        text[1] = '.';
        text[2] = (char)('0' + i / 8);
        text[3] = (char)('0' + i % 8);
        text[4] = '\0';
        return;
    }
    uint64_t rng = 0xc0de0000u + i;
    unsigned d;
    do
        d = (unsigned)(rng_next(&rng) % 512);
    while (d % 8 == 0); /* three digits, the last non-zero */
    text[0] = '0';
    text[1] = '.';
    text[2] = (char)('0' + d / 64);
    text[3] = (char)('0' + d / 8 % 8);
    text[4] = (char)('0' + d % 8);
    text[5] = '\0';
}

static gr_heap_game game_of(const twin_rules *r, gr_octal_code *code)
{
    if (r->grundys)
        return gr_heap_game_grundys();
    REQUIRE_EQ(gr_octal_parse(r->text, code), GR_OK);
    return gr_heap_game_octal(code);
}

/* ---- options() against the rules ---- */

typedef struct move_list {
    gr_heap_move mv[256];
    size_t count;
} move_list;

static void collect(void *arg, const gr_heap_move *mv)
{
    move_list *l = arg;
    REQUIRE(l->count < 256);
    l->mv[l->count++] = *mv;
}

static bool same_move(const gr_heap_move *a, const twin_move *b)
{
    if (a->take != b->take || a->nparts != b->nparts)
        return false;
    for (unsigned i = 0; i < a->nparts; i++)
        if (a->part[i] != b->part[i])
            return false;
    return true;
}

static bool move_listed(const gr_heap_move *mv, const twin_move *list, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (same_move(mv, &list[i]))
            return true;
    return false;
}

static void check_options(const twin_rules *r)
{
    gr_octal_code code;
    gr_heap_game g = game_of(r, &code);
    for (unsigned n = 0; n <= 40; n++) {
        move_list l = { .count = 0 };
        g.options(g.ctx, n, collect, &l);
        twin_move want[MAX_MOVES];
        size_t c = twin_moves(r, n, want);
        REQUIRE_EQ(l.count, c); /* each exactly once: no two rules give one move */
        for (size_t i = 0; i < l.count; i++)
            REQUIRE(move_listed(&l.mv[i], want, c));
    }
}

START_TEST(test_options_match_rules)
{
    for (unsigned i = 1; i < 64; i++) {
        char text[8];
        code_text(i, text);
        twin_rules r = rules_of(text);
        check_options(&r);
    }
    for (size_t i = 0; i < sizeof named_games / sizeof named_games[0]; i++) {
        twin_rules r = rules_of(named_games[i]);
        check_options(&r);
    }
}
END_TEST

/* ---- engine against the twin, moves replayed ---- */

static twin_value value_after(twin *tw, const gr_heap_move *mv)
{
    twin_pos p = pos_of_parts(mv->nparts, mv->part);
    return twin_solve(tw, &p);
}

static void check_misere_heap(twin *tw, const gr_heap_game *g, unsigned n)
{
    twin_value want = twin_heap(tw, n);
    gr_budget b = gr_budget_make(BIG_BUDGET);
    bool win = !want.misere_win;
    gr_heap_move mv;
    REQUIRE_EQ(gr_heap_misere(g, n, &b, &win, &mv), GR_OK);
    if (win != want.misere_win)
        ck_abort_msg("%s misere heap %u: engine %d, twin %d", tw->rules.text, n, win,
                     want.misere_win);
    twin_move list[MAX_MOVES];
    size_t c = twin_moves(&tw->rules, n, list);
    if (!win || c == 0) { /* a loss, or a win by having no move: no move given */
        REQUIRE(mv.take == 0 && mv.nparts == 0);
        return;
    }
    REQUIRE(move_listed(&mv, list, c));
    REQUIRE(!value_after(tw, &mv).misere_win);
}

static void check_remoteness_heap(twin *tw, const gr_heap_game *g, unsigned n)
{
    twin_value want = twin_heap(tw, n);
    gr_budget b = gr_budget_make(BIG_BUDGET);
    uint64_t r = UINT64_MAX;
    gr_heap_move mv;
    REQUIRE_EQ(gr_heap_remoteness(g, n, &b, &r, &mv), GR_OK);
    if (r != want.remote)
        ck_abort_msg("%s remoteness heap %u: engine %llu, twin %llu", tw->rules.text, n,
                     (unsigned long long)r, (unsigned long long)want.remote);
    if (r == 0) {
        REQUIRE(mv.take == 0 && mv.nparts == 0);
        return;
    }
    twin_move list[MAX_MOVES];
    size_t c = twin_moves(&tw->rules, n, list);
    REQUIRE(move_listed(&mv, list, c));
    REQUIRE_EQ(value_after(tw, &mv).remote, r - 1);
}

/* Every multiset of heaps >= least with total <= rest, added to p. */
static void each_position(twin *tw, const unsigned g[], twin_pos *p, unsigned rest, unsigned least)
{
    twin_value v = twin_solve(tw, p);
    unsigned x = 0;
    for (unsigned i = 0; i < p->count; i++)
        x ^= g[p->h[i]];
    /* normal play: the player to move wins exactly when R is odd, and
     * (Sprague-Grundy) when the XOR of the heaps' values is non-zero */
    if ((v.remote % 2 == 1) != (x != 0))
        ck_abort_msg("%s: remoteness %llu but Grundy value %u", tw->rules.text,
                     (unsigned long long)v.remote, x);
    for (unsigned h = least; h <= rest; h++) {
        p->h[p->count++] = (uint8_t)h;
        each_position(tw, g, p, rest - h, h);
        p->h[--p->count] = 0;
    }
}

/* Single heaps up to `total` against the twin; every position of that
 * total for the parity of remoteness. */
static void check_game(const char *text, unsigned total)
{
    twin *tw = calloc(1, sizeof *tw);
    REQUIRE(tw != NULL);
    tw->rules = rules_of(text);
    gr_octal_code code;
    gr_heap_game g = game_of(&tw->rules, &code);
    for (unsigned n = 0; n <= total; n++) {
        check_misere_heap(tw, &g, n);
        check_remoteness_heap(tw, &g, n);
    }
    unsigned gv[TWIN_LARGE + 1];
    twin_grundy(&tw->rules, gv);
    twin_pos p;
    memset(&p, 0, sizeof p);
    each_position(tw, gv, &p, total, 1);
    for (unsigned n = 0; n <= total; n++) { /* the engine's R against Grundy values */
        gr_budget b = gr_budget_make(BIG_BUDGET);
        uint64_t r;
        gr_heap_move mv;
        REQUIRE_EQ(gr_heap_remoteness(&g, n, &b, &r, &mv), GR_OK);
        REQUIRE_EQ(r % 2 == 1, gv[n] != 0);
    }
    free(tw);
}

START_TEST(test_two_digit_codes)
{
    char text[8];
    code_text((unsigned)_i, text);
    check_game(text, TWIN_TOTAL);
}
END_TEST

START_TEST(test_three_digit_codes)
{
    char text[8];
    code_text(64 + (unsigned)_i, text);
    check_game(text, TWIN_TOTAL);
}
END_TEST

START_TEST(test_named_games)
{
    check_game(named_games[_i], _i < 4 ? TWIN_LARGE : TWIN_TOTAL);
}
END_TEST

/* ---- the search's bounds ---- */

/* 0.3 removes one token: R(n) = n, and the misere player to move wins
 * exactly at even n. A heap of 10^5 searched without deep recursion. */
START_TEST(test_deep_heap)
{
    gr_octal_code code;
    REQUIRE_EQ(gr_octal_parse("0.3", &code), GR_OK);
    gr_heap_game g = gr_heap_game_octal(&code);
    gr_budget b = gr_budget_make(BIG_BUDGET);
    uint64_t r;
    gr_heap_move mv;
    REQUIRE_EQ(gr_heap_remoteness(&g, 100000, &b, &r, &mv), GR_OK);
    REQUIRE_EQ(r, 100000);
    REQUIRE(mv.take == 1 && mv.nparts == 1 && mv.part[0] == 99999);
    bool win;
    REQUIRE_EQ(gr_heap_misere(&g, 100000, &b, &win, &mv), GR_OK);
    REQUIRE(win && mv.take == 1 && mv.nparts == 1 && mv.part[0] == 99999);
    REQUIRE_EQ(gr_heap_misere(&g, 99999, &b, &win, &mv), GR_OK);
    REQUIRE(!win);
}
END_TEST

START_TEST(test_limits)
{
    gr_octal_code code;
    REQUIRE_EQ(gr_octal_parse("0.77", &code), GR_OK);
    gr_heap_game g = gr_heap_game_octal(&code);
    uint64_t r;
    bool win;
    gr_heap_move mv;

    /* a budget that covers the search exactly is enough; one step less is not */
    gr_budget b = gr_budget_make(BIG_BUDGET);
    REQUIRE_EQ(gr_heap_remoteness(&g, 20, &b, &r, &mv), GR_OK);
    uint64_t spent = BIG_BUDGET - b.left;
    b = gr_budget_make(spent);
    REQUIRE_EQ(gr_heap_remoteness(&g, 20, &b, &r, &mv), GR_OK);
    b = gr_budget_make(spent - 1);
    REQUIRE_EQ(gr_heap_remoteness(&g, 20, &b, &r, &mv), GR_ELIMIT);
    REQUIRE_EQ(b.left, 0);
    b = gr_budget_make(1000);
    REQUIRE_EQ(gr_heap_misere(&g, 40, &b, &win, &mv), GR_ELIMIT);
    REQUIRE_EQ(b.left, 0);

    /* heaps far past the state cap are refused at once */
    b = gr_budget_make(BIG_BUDGET);
    REQUIRE_EQ(gr_heap_misere(&g, UINT64_MAX, &b, &win, &mv), GR_ELIMIT);
    gr_heap_game gg = gr_heap_game_grundys();
    b = gr_budget_make(BIG_BUDGET);
    REQUIRE_EQ(gr_heap_remoteness(&gg, 1000000000000u, &b, &r, &mv), GR_ELIMIT);

    /* the state cap: one position per heap of 0.3 */
    REQUIRE_EQ(gr_octal_parse("0.3", &code), GR_OK);
    g = gr_heap_game_octal(&code);
    b = gr_budget_make(BIG_BUDGET);
    REQUIRE_EQ(gr_heap_remoteness(&g, GR_HEAPPLAY_MAX_STATES, &b, &r, &mv), GR_OK);
    REQUIRE_EQ(r, GR_HEAPPLAY_MAX_STATES);
    b = gr_budget_make(BIG_BUDGET);
    REQUIRE_EQ(gr_heap_remoteness(&g, GR_HEAPPLAY_MAX_STATES + 1u, &b, &r, &mv), GR_ELIMIT);
}
END_TEST

/* A move that neither removes a token nor splits (a pass) is refused. */
static void pass_options(const void *ctx, uint64_t n, gr_heap_emit emit, void *arg)
{
    (void)ctx;
    gr_heap_move mv = { .take = 0, .nparts = 1, .part = { n, 0 } };
    emit(arg, &mv);
}

/* Moves out of contract: a wrong sum, unsorted parts. */
static void bad_sum_options(const void *ctx, uint64_t n, gr_heap_emit emit, void *arg)
{
    (void)ctx;
    gr_heap_move mv = { .take = 1, .nparts = 2, .part = { 1, n } };
    emit(arg, &mv);
}

START_TEST(test_invalid)
{
    gr_heap_game pass = { NULL, pass_options }, bad = { NULL, bad_sum_options };
    gr_heap_game none = { NULL, NULL };
    gr_budget b = gr_budget_make(BIG_BUDGET);
    uint64_t r;
    bool win;
    gr_heap_move mv;
    REQUIRE_EQ(gr_heap_remoteness(&pass, 5, &b, &r, &mv), GR_EINVAL);
    REQUIRE_EQ(gr_heap_misere(&bad, 5, &b, &win, &mv), GR_EINVAL);
    REQUIRE_EQ(gr_heap_misere(&none, 5, &b, &win, &mv), GR_EINVAL);
    REQUIRE_EQ(gr_heap_misere(NULL, 5, &b, &win, &mv), GR_EINVAL);
    /* heap 0 has no move: nothing is asked of options() */
    REQUIRE_EQ(gr_heap_remoteness(&pass, 0, &b, &r, &mv), GR_OK);
    REQUIRE_EQ(r, 0);
    REQUIRE_EQ(gr_heap_misere(&pass, 0, &b, &win, &mv), GR_OK);
    REQUIRE(win && mv.take == 0 && mv.nparts == 0);

    uint64_t set[] = { 1, 2 }, zero[] = { 0 }, big[] = { GR_SUBTRACTION_MAX_MOVE + 1u };
    uint64_t take;
    REQUIRE_EQ(gr_subtraction_misere(set, 0, 5, &b, &win, &take), GR_EINVAL);
    REQUIRE_EQ(gr_subtraction_misere(zero, 1, 5, &b, &win, &take), GR_EINVAL);
    REQUIRE_EQ(gr_subtraction_remoteness(big, 1, 5, &b, &r, &take), GR_EINVAL);
    REQUIRE_EQ(gr_subtraction_remoteness(NULL, 1, 5, &b, &r, &take), GR_EINVAL);
    REQUIRE_EQ(gr_subtraction_remoteness(set, 2, (uint64_t)INT64_MAX + 1u, &b, &r, &take),
               GR_EINVAL);
}
END_TEST

/* ---- subtraction games ---- */

/* Plain tables: misere outcome (1 win) and remoteness of heaps 0 .. count. */
typedef struct sub_table {
    uint8_t *win;
    uint64_t *remote;
} sub_table;

static sub_table sub_twin(const uint64_t *set, size_t k, uint64_t count)
{
    sub_table t = { malloc(count), malloc(count * sizeof(uint64_t)) };
    REQUIRE(t.win != NULL && t.remote != NULL);
    for (uint64_t n = 0; n < count; n++) {
        bool any = false, loss = false, has_even = false;
        uint64_t even = 0, odd = 0;
        for (size_t i = 0; i < k; i++) {
            if (set[i] > n)
                continue;
            uint64_t x = n - set[i];
            any = true;
            loss = loss || !t.win[x];
            if (t.remote[x] % 2 == 0 && (!has_even || t.remote[x] < even)) {
                even = t.remote[x];
                has_even = true;
            }
            if (t.remote[x] % 2 == 1 && t.remote[x] > odd)
                odd = t.remote[x];
        }
        t.win[n] = !any || loss;
        t.remote[n] = !any ? 0 : 1 + (has_even ? even : odd);
    }
    return t;
}

static bool in_set(const uint64_t *set, size_t k, uint64_t s)
{
    for (size_t i = 0; i < k; i++)
        if (set[i] == s)
            return true;
    return false;
}

/* The least s in the set with s <= n and want(n - s). */
static uint64_t least_move_to(const uint64_t *set, size_t k, uint64_t n, const sub_table *t,
                              bool misere, uint64_t target)
{
    uint64_t best = 0;
    for (size_t i = 0; i < k; i++) {
        if (set[i] > n || (best != 0 && set[i] >= best))
            continue;
        bool hit = misere ? !t->win[n - set[i]] : t->remote[n - set[i]] == target;
        if (hit)
            best = set[i];
    }
    return best;
}

static void check_sub_heap(const uint64_t *set, size_t k, const sub_table *t, uint64_t n)
{
    gr_budget b = gr_budget_make(BIG_BUDGET);
    bool win;
    uint64_t take = 77, r = UINT64_MAX;
    REQUIRE_EQ(gr_subtraction_misere(set, k, n, &b, &win, &take), GR_OK);
    if (win != (bool)t->win[n])
        ck_abort_msg("misere heap %llu: engine %d, table %d", (unsigned long long)n, win,
                     t->win[n]);
    REQUIRE_EQ(take, win ? least_move_to(set, k, n, t, true, 0) : 0);
    if (take != 0)
        REQUIRE(in_set(set, k, take) && take <= n && !t->win[n - take]);

    REQUIRE_EQ(gr_subtraction_remoteness(set, k, n, &b, &r, &take), GR_OK);
    if (r != t->remote[n])
        ck_abort_msg("remoteness heap %llu: engine %llu, table %llu", (unsigned long long)n,
                     (unsigned long long)r, (unsigned long long)t->remote[n]);
    REQUIRE_EQ(take, r ? least_move_to(set, k, n, t, false, r - 1) : 0);
    if (r != 0)
        REQUIRE(in_set(set, k, take) && take <= n && t->remote[n - take] == r - 1);
}

static void check_sub_set(const uint64_t *set, size_t k, uint64_t *rng)
{
    sub_table t = sub_twin(set, k, SUB_TABLE);
    for (uint64_t n = 0; n <= SUB_EVERY; n++)
        check_sub_heap(set, k, &t, n);
    for (int i = 0; i < 100; i++) /* past the certificate: the extension */
        check_sub_heap(set, k, &t, SUB_EVERY + rng_next(rng) % (SUB_TABLE - SUB_EVERY));
    free(t.win);
    free(t.remote);
}

START_TEST(test_subsets_of_1_to_7)
{
    uint64_t rng = 0x5eedu + (uint64_t)_i;
    for (unsigned mask = 1 + 32 * (unsigned)_i; mask < 128 && mask < 33 + 32 * (unsigned)_i;
         mask++) {
        uint64_t set[7];
        size_t k = 0;
        for (unsigned i = 0; i < 7; i++)
            if (mask & (1u << i))
                set[k++] = i + 1;
        check_sub_set(set, k, &rng);
    }
}
END_TEST

START_TEST(test_random_sets_to_20)
{
    uint64_t rng = 0xabcdu + (uint64_t)_i;
    for (int round = 0; round < 8; round++) {
        uint64_t set[6];
        size_t k = 1 + (size_t)(rng_next(&rng) % 6);
        for (size_t i = 0; i < k; i++) /* repeats possible, and any order */
            set[i] = 1 + rng_next(&rng) % 20;
        check_sub_set(set, k, &rng);
    }
}
END_TEST

/* Huge heaps: known closed forms, then random sets checked for consistency
 * (the move's option is one less, parity against the Grundy value). */
START_TEST(test_huge_heaps)
{
    uint64_t n = 1000000000000000000u, big = (uint64_t)INT64_MAX, r, take;
    bool win;
    gr_budget b = gr_budget_make(1000000);
    uint64_t one[] = { 1 };
    REQUIRE_EQ(gr_subtraction_remoteness(one, 1, big, &b, &r, &take), GR_OK);
    REQUIRE(r == big && take == 1);
    REQUIRE_EQ(gr_subtraction_misere(one, 1, n, &b, &win, &take), GR_OK);
    REQUIRE(win && take == 1);
    REQUIRE_EQ(gr_subtraction_misere(one, 1, n + 1, &b, &win, &take), GR_OK);
    REQUIRE(!win && take == 0);
    uint64_t two[] = { 2, 1 }; /* R(3j) = 2j, R(3j + 1) = R(3j + 2) = 2j + 1 */
    REQUIRE_EQ(gr_subtraction_remoteness(two, 2, n, &b, &r, &take), GR_OK);
    REQUIRE_EQ(r, 2 * (n / 3) + 1);
    REQUIRE_EQ(take, 1);
    REQUIRE_EQ(gr_subtraction_remoteness(two, 2, big - big % 3, &b, &r, &take), GR_OK);
    REQUIRE_EQ(r, 2 * (big / 3));
    REQUIRE_EQ(take, 1);
    REQUIRE(b.left > 0);

    uint64_t rng = 0xfeedu;
    for (int round = 0; round < 40; round++) {
        uint64_t set[8];
        size_t k = 1 + (size_t)(rng_next(&rng) % 8);
        for (size_t i = 0; i < k; i++)
            set[i] = 1 + rng_next(&rng) % 40;
        uint64_t x = n + rng_next(&rng) % 1000, r2, t2;
        b = gr_budget_make(50000000);
        REQUIRE_EQ(gr_subtraction_remoteness(set, k, x, &b, &r, &take), GR_OK);
        REQUIRE(r > 0 && r <= x && in_set(set, k, take));
        REQUIRE_EQ(gr_subtraction_remoteness(set, k, x - take, &b, &r2, &t2), GR_OK);
        REQUIRE_EQ(r2, r - 1);
        gr_seq s;
        REQUIRE_EQ(gr_subtraction_solve(set, k, 0, &b, &s), GR_OK);
        uint16_t g;
        REQUIRE_EQ(gr_seq_value(&s, x, &g), GR_OK);
        REQUIRE_EQ(r % 2 == 1, g != 0);
        gr_seq_free(&s);
        REQUIRE_EQ(gr_subtraction_misere(set, k, x, &b, &win, &take), GR_OK);
        REQUIRE(win == (take != 0)); /* x >= max S: a win is by a move */
        if (win) {
            REQUIRE(in_set(set, k, take));
            REQUIRE_EQ(gr_subtraction_misere(set, k, x - take, &b, &win, &t2), GR_OK);
            REQUIRE(!win);
        }
    }
}
END_TEST

START_TEST(test_sub_budget)
{
    uint64_t set[] = { 3, 5, 9 }, r, take;
    bool win;
    gr_budget b = gr_budget_make(5);
    REQUIRE_EQ(gr_subtraction_remoteness(set, 3, 100, &b, &r, &take), GR_ELIMIT);
    REQUIRE_EQ(b.left, 0);
    b = gr_budget_make(5);
    REQUIRE_EQ(gr_subtraction_misere(set, 3, 100, &b, &win, &take), GR_ELIMIT);
    REQUIRE_EQ(b.left, 0);
    /* exact spending: the budget used is enough, one step less is not */
    b = gr_budget_make(BIG_BUDGET);
    REQUIRE_EQ(gr_subtraction_remoteness(set, 3, 1000000000000u, &b, &r, &take), GR_OK);
    uint64_t spent = BIG_BUDGET - b.left;
    b = gr_budget_make(spent);
    REQUIRE_EQ(gr_subtraction_remoteness(set, 3, 1000000000000u, &b, &r, &take), GR_OK);
    b = gr_budget_make(spent - 1);
    REQUIRE_EQ(gr_subtraction_remoteness(set, 3, 1000000000000u, &b, &r, &take), GR_ELIMIT);
    /* small heaps need only the values up to them */
    b = gr_budget_make(100 * (3 + 4));
    REQUIRE_EQ(gr_subtraction_misere(set, 3, 99, &b, &win, &take), GR_OK);
}
END_TEST

static Suite *heapplay_suite(void)
{
    Suite *suite = suite_create("heapplay");
    TCase *heaps = tcase_create("heaps");
    tcase_set_timeout(heaps, 60);
    tcase_add_test(heaps, test_options_match_rules);
    tcase_add_loop_test(heaps, test_two_digit_codes, 1, 64);
    tcase_add_loop_test(heaps, test_three_digit_codes, 0, 40);
    tcase_add_loop_test(heaps, test_named_games, 0,
                        (int)(sizeof named_games / sizeof named_games[0]));
    tcase_add_test(heaps, test_deep_heap);
    tcase_add_test(heaps, test_limits);
    tcase_add_test(heaps, test_invalid);
    suite_add_tcase(suite, heaps);

    TCase *sub = tcase_create("subtraction");
    tcase_set_timeout(sub, 60);
    tcase_add_loop_test(sub, test_subsets_of_1_to_7, 0, 4);
    tcase_add_loop_test(sub, test_random_sets_to_20, 0, 4);
    tcase_add_test(sub, test_huge_heaps);
    tcase_add_test(sub, test_sub_budget);
    suite_add_tcase(suite, sub);
    return suite;
}

int main(void)
{
    return gr_check_run(heapplay_suite());
}
