/* SPDX-License-Identifier: MIT */
/* An independent check of the misere quotients (include/grundy/misere_quotient.h)
 * against exhaustive play, sharing no code with the engine.
 *
 * The brute force knows only the rules: the moves of a heap are written here
 * from the octal digits or the subtraction set, a position is a multiset of
 * heaps (kept as its parts in ascending order) and its misere outcome is found
 * by memoised recursion (the player who cannot move wins). For every position
 * of total <= N tokens the quotient's verdict (the product of the heaps'
 * elements lies in P iff the player to move loses) must equal the brute
 * force's.
 *
 * Distinguishable classes: positions G, H are distinguished when some X gives
 * o(G + X) != o(H + X). Counting the classes of the positions of total <= a
 * under every X of total <= b (a + b <= N) gives a lower bound on the order of
 * any quotient that decides them; each class must be a distinct element of the
 * engine's quotient. Where the count equals the number of elements the
 * engine gives those positions, the engine's quotient is exactly the minimal
 * one on them.
 *
 * Figures, each pinned in its test: Kayles every position of total <= 48
 * (918,220) and 24 classes = the 24 elements of its quotient of heaps <= 24;
 * Dawson's Kayles every covered position of total <= 40; six codes of the
 * table file to total 36; subtraction sets {1,2}, {2,3}, {1,3,4} to total 40,
 * whose 6 classes are each one's whole quotient.
 *
 * Past what exhaustive play reaches, test_misere_closure.c decides every sum
 * of heaps <= 1000. About 20 s of one core in a debugoptimized build; run the
 * binary to see the figures on stderr. */
#include "grundy/misere_quotient.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "misere_rules.h"

#define MAX_TOTAL 63u /* a key holds 1 + largest part + parts <= 2 N + 1 bits */

__extension__ typedef unsigned __int128 key128;

/* ---- positions: ascending parts, keyed by their gap code ---- */

typedef struct position {
    unsigned k;
    uint8_t part[MAX_TOTAL];
} position;

/* A sentinel 1, then for each part (ascending) its rise over the previous
 * part as zeros and a closing 1: distinct multisets get distinct keys. */
static key128 key_of(const position *p)
{
    key128 key = 1;
    unsigned prev = 0;
    for (unsigned i = 0; i < p->k; i++) {
        key = (key << (p->part[i] - prev + 1)) | 1u;
        prev = p->part[i];
    }
    return key;
}

static void insert_part(position *p, unsigned v)
{
    if (v == 0)
        return;
    unsigned i = p->k++;
    for (; i > 0 && p->part[i - 1] > v; i--)
        p->part[i] = p->part[i - 1];
    p->part[i] = (uint8_t)v;
}

/* ---- the memo: open addressing over keys (0 marks a free slot) ---- */

typedef struct brute {
    rules r;
    key128 *key;
    uint8_t *win; /* 1: the player to move wins */
    size_t mask;
    size_t solved;
} brute;

static brute *brute_new(rules r, unsigned log_slots)
{
    brute *b = calloc(1, sizeof *b);
    ck_assert_ptr_nonnull(b);
    b->r = r;
    b->mask = ((size_t)1 << log_slots) - 1;
    b->key = calloc(b->mask + 1, sizeof *b->key);
    b->win = calloc(b->mask + 1, 1);
    ck_assert_ptr_nonnull(b->key);
    ck_assert_ptr_nonnull(b->win);
    return b;
}

static void brute_free(brute *b)
{
    free(b->key);
    free(b->win);
    free(b);
}

static size_t slot_of(const brute *b, key128 key)
{
    uint64_t h = (uint64_t)key ^ (uint64_t)(key >> 64) * 0x9e3779b97f4a7c15u;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9u;
    h ^= h >> 32;
    size_t i = (size_t)h & b->mask;
    while (b->key[i] && b->key[i] != key)
        i = (i + 1) & b->mask;
    return i;
}

static bool brute_win(brute *b, const position *p)
{
    key128 key = key_of(p);
    size_t i = slot_of(b, key);
    if (b->key[i])
        return b->win[i];
    bool any = false, win = false;
    for (unsigned j = 0; j < p->k && !win; j++) {
        if (j > 0 && p->part[j] == p->part[j - 1])
            continue;
        option opt[256];
        unsigned count = options_of(&b->r, p->part[j], opt);
        for (unsigned m = 0; m < count && !win; m++) {
            position next = { .k = 0 };
            for (unsigned t = 0; t < p->k; t++)
                if (t != j)
                    next.part[next.k++] = p->part[t];
            for (unsigned t = 0; t < opt[m].nparts; t++)
                insert_part(&next, opt[m].part[t]);
            any = true;
            win = !brute_win(b, &next);
        }
    }
    if (!any)
        win = true; /* misere: the player who cannot move wins */
    REQUIRE(b->solved * 2 < b->mask); /* the memo stays at most half full */
    i = slot_of(b, key); /* the recursion may have moved the free slot */
    b->key[i] = key;
    b->win[i] = win;
    b->solved++;
    return win;
}

/* ---- every position of total <= n, parts ascending ---- */

typedef struct position_list {
    position *at;
    size_t count, cap;
} position_list;

static void list_push(position_list *l, const position *p)
{
    if (l->count == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->at = realloc(l->at, l->cap * sizeof *l->at);
        ck_assert_ptr_nonnull(l->at);
    }
    l->at[l->count++] = *p;
}

static void extend(position_list *l, position *p, unsigned min_part, unsigned left)
{
    list_push(l, p);
    for (unsigned v = min_part; v <= left; v++) {
        p->part[p->k++] = (uint8_t)v;
        extend(l, p, v, left - v);
        p->k--;
    }
}

static position_list all_positions(unsigned total)
{
    position_list l = { 0 };
    position p = { .k = 0 };
    extend(&l, &p, 1, total);
    return l;
}

/* ---- the engine's verdict ---- */

static uint16_t element_of(const gr_mq *q, const position *p)
{
    uint16_t x = 0;
    for (unsigned i = 0; i < p->k; i++) {
        REQUIRE(gr_mq_covers(q, p->part[i]));
        x = gr_mq_mul(q, x, gr_mq_phi(q, p->part[i]));
    }
    return x;
}

/* The engine's winning move from p (a win by its quotient) is a legal move
 * of the rules, and the brute force calls the position it leaves a loss. */
static void replay_winning_move(brute *b, const gr_mq *q, const position *p)
{
    uint64_t heaps[MAX_TOTAL];
    bool movable = false;
    option opt[256];
    for (unsigned i = 0; i < p->k; i++) {
        heaps[i] = p->part[i];
        movable |= options_of(&b->r, p->part[i], opt) > 0;
    }
    if (!movable)
        return; /* a win with no move: the player who cannot move wins */
    gr_budget budget = gr_budget_make(BIG_BUDGET);
    bool win = false;
    size_t pile = 0;
    gr_heap_move mv;
    REQUIRE(gr_mq_solve(q, heaps, p->k, &budget, &win, &pile, &mv) == GR_OK);
    REQUIRE(win);
    REQUIRE(pile < p->k);
    unsigned count = options_of(&b->r, p->part[pile], opt), legal = 0;
    for (unsigned m = 0; m < count; m++) {
        unsigned lo = opt[m].part[0], hi = opt[m].part[1];
        if (opt[m].nparts == 2 && lo > hi)
            lo = opt[m].part[1], hi = opt[m].part[0];
        legal |= opt[m].nparts == mv.nparts && (mv.nparts < 1 || mv.part[0] == lo) &&
                 (mv.nparts < 2 || mv.part[1] == hi);
    }
    REQUIRE(legal);
    position next = { .k = 0 };
    for (unsigned t = 0; t < p->k; t++)
        if (t != pile)
            next.part[next.k++] = p->part[t];
    for (unsigned t = 0; t < mv.nparts; t++)
        insert_part(&next, (unsigned)mv.part[t]);
    REQUIRE(!brute_win(b, &next));
}

static bool engine_agrees(brute *b, const gr_mq *q, const position *p)
{
    return !q->in_p[element_of(q, p)] == brute_win(b, p);
}

/* Every position of total <= n: the quotient and the brute force agree, and
 * every winning move the engine gives from a position of total <= replay_n
 * is replayed. Returns the positions checked. */
static size_t check_outcomes(brute *b, const gr_mq *q, unsigned n, unsigned replay_n)
{
    position_list l = all_positions(n);
    size_t checked = 0;
    for (size_t i = 0; i < l.count; i++) {
        if (l.at[i].k && !gr_mq_covers(q, l.at[i].part[l.at[i].k - 1]))
            continue; /* a heap past the quotient's bound */
        checked++;
        bool engine_win = !q->in_p[element_of(q, &l.at[i])];
        if (!engine_agrees(b, q, &l.at[i])) {
            char text[256] = "";
            for (unsigned j = 0; j < l.at[i].k; j++)
                snprintf(text + strlen(text), sizeof text - strlen(text), " %u",
                         l.at[i].part[j]);
            ck_abort_msg("outcome differs at heaps%s: engine %d, brute force %d", text,
                         engine_win, !engine_win);
        }
        unsigned total = 0;
        for (unsigned j = 0; j < l.at[i].k; j++)
            total += l.at[i].part[j];
        if (engine_win && l.at[i].k > 0 && total <= replay_n)
            replay_winning_move(b, q, &l.at[i]);
    }
    free(l.at);
    return checked;
}

/* ---- distinguishable classes ---- */

typedef struct class_count {
    size_t classes;  /* distinct outcome rows */
    size_t elements; /* distinct engine elements of the same positions */
    uint32_t small_order; /* the engine's quotient of the heaps <= a */
} class_count;

static size_t row_words;
static const uint64_t *row_base;

static int row_cmp(const void *x, const void *y)
{
    const uint64_t *a = row_base + *(const size_t *)x * row_words;
    const uint64_t *b = row_base + *(const size_t *)y * row_words;
    return memcmp(a, b, row_words * sizeof *a);
}

static bool sum_win(brute *b, const position *g, const position *x)
{
    position s = *g;
    for (unsigned i = 0; i < x->k; i++)
        insert_part(&s, x->part[i]);
    return brute_win(b, &s);
}

/* Classes of the positions of total <= a under the tests X of total <= b;
 * rows that differ must get different engine elements. */
static class_count count_classes(brute *b, const gr_mq *q, unsigned a, unsigned tests)
{
    position_list gs = all_positions(a), xs = all_positions(tests);
    size_t words = (xs.count + 63) / 64;
    uint64_t *rows = calloc(gs.count * words, sizeof *rows);
    size_t *order = malloc(gs.count * sizeof *order);
    uint16_t *element = malloc(gs.count * sizeof *element);
    uint8_t *seen = calloc(q->order, 1);
    ck_assert_ptr_nonnull(rows);
    ck_assert_ptr_nonnull(order);
    ck_assert_ptr_nonnull(element);
    ck_assert_ptr_nonnull(seen);
    class_count c = { 0, 0, 0 };
    for (size_t g = 0; g < gs.count; g++) {
        order[g] = g;
        element[g] = element_of(q, &gs.at[g]);
        c.elements += !seen[element[g]];
        seen[element[g]] = 1;
        for (size_t x = 0; x < xs.count; x++)
            if (sum_win(b, &gs.at[g], &xs.at[x]))
                rows[g * words + x / 64] |= UINT64_C(1) << (x % 64);
    }
    row_words = words;
    row_base = rows;
    qsort(order, gs.count, sizeof *order, row_cmp);
    /* each element's class: one engine element never covers two classes */
    size_t *class_of = calloc(q->order, sizeof *class_of);
    ck_assert_ptr_nonnull(class_of);
    for (size_t i = 0; i < gs.count; i++) {
        c.classes += i == 0 || row_cmp(&order[i - 1], &order[i]) != 0;
        size_t *owner = &class_of[element[order[i]]];
        REQUIRE(*owner == 0 || *owner == c.classes);
        *owner = c.classes;
    }
    free(class_of);
    free(rows);
    free(order);
    free(element);
    free(seen);
    free(gs.at);
    free(xs.at);
    return c;
}

typedef struct figures {
    size_t positions, solved;
    uint32_t order; /* the engine's quotient checked */
    class_count split[3];
} figures;

static figures check_game(rules rr, const gr_mq_rules *r, const gr_mq *q, unsigned n,
                          unsigned replay_n, const unsigned *a, size_t nsplit, const char *name)
{
    brute *b = brute_new(rr, 22);
    figures f = { 0 };
    f.positions = check_outcomes(b, q, n, replay_n);
    for (size_t i = 0; i < nsplit; i++) {
        f.split[i] = count_classes(b, q, a[i], n - a[i]);
        REQUIRE(f.split[i].classes <= q->order);
        gr_mq small; /* the quotient of the heaps <= a[i] */
        build(r, a[i], &small);
        f.split[i].small_order = small.order;
        REQUIRE(f.split[i].classes <= small.order);
        gr_mq_free(&small);
        fprintf(stderr,
                "%s: G <= %u, X <= %u: %zu classes, %zu engine elements; order %u for heaps <= %u, "
                "%u in all\n",
                name, a[i], n - a[i], f.split[i].classes, f.split[i].elements,
                f.split[i].small_order, a[i], q->order);
    }
    f.solved = b->solved;
    f.order = q->order;
    fprintf(stderr, "%s: N = %u, %zu positions checked, %zu solved\n", name, n, f.positions,
            f.solved);
    brute_free(b);
    return f;
}

/* The game up to total n against its quotient for heaps <= max_heap; the
 * classes of the positions of total <= a under tests of total <= n - a. */
static figures check_octal(const char *text, uint64_t max_heap, unsigned n, unsigned replay_n,
                           unsigned a)
{
    gr_mq q;
    gr_mq_rules r = octal_quotient(text, max_heap, &q);
    REQUIRE(q.periodic || q.bound >= n);
    figures f = check_game(octal_rules(text), &r, &q, n, replay_n, &a, 1, text);
    gr_mq_free(&q);
    return f;
}

static figures check_subtraction(const unsigned *moves, size_t nmoves, unsigned n, unsigned a,
                                 const char *name)
{
    uint64_t m64[8];
    rules rr = { .nsub = (unsigned)nmoves };
    for (size_t i = 0; i < nmoves; i++) {
        m64[i] = moves[i];
        rr.sub[i] = moves[i];
    }
    gr_mq_rules r;
    REQUIRE(gr_mq_subtraction(m64, nmoves, &r) == GR_OK);
    gr_mq q;
    build(&r, 1000, &q);
    REQUIRE(q.periodic);
    figures f = check_game(rr, &r, &q, n, n, &a, 1, name);
    gr_mq_free(&q);
    return f;
}

/* Kayles: every position of total <= 48 (918,220) agrees with the quotient
 * and every winning move replays. The positions of total <= 24 fall into 24
 * classes under the tests of total <= 24: as many as the engine's quotient of
 * the heaps <= 24 has elements, so on them it is exactly the minimal one. */
START_TEST(test_kayles)
{
    figures f = check_octal("0.77", 1000, 48, 48, 24);
    REQUIRE_EQ(f.positions, 918220);
    REQUIRE_EQ(f.split[0].classes, 24);
    REQUIRE_EQ(f.split[0].elements, 24);
    REQUIRE_EQ(f.split[0].small_order, 24);
}
END_TEST

/* Dawson's Kayles has no known finite quotient: only the positions the
 * engine claims to cover (every heap <= its bound) are compared, those of
 * total <= 40, and every sum of heaps <= the bound by the closure. */
START_TEST(test_dawsons_kayles)
{
    gr_mq q;
    gr_mq_rules r = octal_quotient("0.07", 200, &q);
    REQUIRE(!q.periodic);
    REQUIRE(q.bound >= 20);
    unsigned a = 20;
    fprintf(stderr, "0.07: bound %llu, order %u\n", (unsigned long long)q.bound, q.order);
    figures f = check_game(octal_rules("0.07"), &r, &q, 40, 40, &a, 1, "0.07");
    REQUIRE(f.positions > 200000);
    REQUIRE_EQ(f.split[0].classes, 16); /* positions of total <= 20, tests <= 20 */
    gr_mq_free(&q);
}
END_TEST

/* Codes the table file holds (certified periodic within heap 400), every
 * position of total <= 36 (99,133); classes of the positions of total <= 18
 * (a brute-force fact each). 0.34's 12 classes are its whole quotient. */
START_TEST(test_table_codes)
{
    static const struct {
        const char *code;
        size_t classes;
    } games[] = { { "0.15", 8 },  { "0.71", 33 }, { "0.44", 10 },
                  { "0.72", 16 }, { "0.53", 14 }, { "0.34", 12 } };
    for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
        figures f = check_octal(games[i].code, 400, 36, 36, 18);
        REQUIRE_EQ(f.positions, 99133);
        REQUIRE_EQ(f.split[0].classes, games[i].classes);
    }
    gr_mq q;
    octal_quotient("0.34", 400, &q);
    REQUIRE(q.periodic);
    REQUIRE_EQ(q.order, 12);
    gr_mq_free(&q);
}
END_TEST

/* Subtraction sets {1,2}, {2,3}, {1,3,4}: every position of total <= 40
 * (215,308); the 6 classes of the positions of total <= 20 are the whole
 * quotient of each. */
START_TEST(test_subtraction_sets)
{
    static const unsigned sets[3][3] = { { 1, 2 }, { 2, 3 }, { 1, 3, 4 } };
    static const size_t sizes[3] = { 2, 2, 3 };
    static const char *const names[3] = { "{1,2}", "{2,3}", "{1,3,4}" };
    for (size_t i = 0; i < 3; i++) {
        figures f = check_subtraction(sets[i], sizes[i], 40, 20, names[i]);
        REQUIRE_EQ(f.positions, 215308);
        REQUIRE_EQ(f.split[0].classes, 6);
        REQUIRE_EQ(f.order, 6);
    }
}
END_TEST

/* The check has teeth: Kayles' quotient with one heap's element replaced by
 * the next heap's (a wrong pretending function) is caught by some position of
 * total <= 24, for every heap 1 .. 20. */
START_TEST(test_wrong_quotient_caught)
{
    gr_mq q;
    octal_quotient("0.77", 30, &q);
    brute *b = brute_new(octal_rules("0.77"), 20);
    position_list l = all_positions(24);
    for (unsigned h = 1; h <= 20; h++) {
        uint16_t right = q.phi[h];
        REQUIRE(right != q.phi[h + 1]);
        q.phi[h] = q.phi[h + 1];
        bool caught = false;
        for (size_t i = 0; i < l.count && !caught; i++)
            caught = !engine_agrees(b, &q, &l.at[i]);
        REQUIRE(caught);
        q.phi[h] = right;
    }
    free(l.at);
    brute_free(b);
    gr_mq_free(&q);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("misere_brute");
    TCase *tc = tcase_create("brute");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_kayles);
    tcase_add_test(tc, test_dawsons_kayles);
    tcase_add_test(tc, test_table_codes);
    tcase_add_test(tc, test_subtraction_sets);
    tcase_add_test(tc, test_wrong_quotient_caught);
    suite_add_tcase(s, tc);
    return gr_check_run(s);
}
