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
 * Figures (debugoptimized build, one core): see each test's comment. */
#include "grundy/misere_quotient.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"

#define MAX_TOTAL 63u /* a key holds 1 + largest part + parts <= 2 N + 1 bits */
#define BIG_BUDGET (UINT64_C(1) << 40)

__extension__ typedef unsigned __int128 key128;

/* ---- the rules, written from the game's definition ---- */

typedef struct rules {
    unsigned digit[10]; /* octal: digit[k], k = 1 .. ndigits */
    unsigned ndigits;
    unsigned sub[8];    /* subtraction set, when nsub > 0 */
    unsigned nsub;
} rules;

typedef struct option {
    unsigned nparts, part[2]; /* the heaps a move leaves in place of one heap */
} option;

/* Octal digit d for taking k: bit 1 leaves nothing, bit 2 one heap, bit 4 two
 * nonempty heaps. */
static unsigned options_of(const rules *r, unsigned n, option *out)
{
    unsigned count = 0;
    if (r->nsub) {
        for (unsigned i = 0; i < r->nsub; i++) {
            if (r->sub[i] == n)
                out[count++] = (option){ 0, { 0, 0 } };
            else if (r->sub[i] < n)
                out[count++] = (option){ 1, { n - r->sub[i], 0 } };
        }
        return count;
    }
    for (unsigned k = 1; k <= r->ndigits && k <= n; k++) {
        unsigned d = r->digit[k], rest = n - k;
        if ((d & 1) && rest == 0)
            out[count++] = (option){ 0, { 0, 0 } };
        if ((d & 2) && rest > 0)
            out[count++] = (option){ 1, { rest, 0 } };
        for (unsigned a = 1; (d & 4) && 2 * a <= rest; a++)
            out[count++] = (option){ 2, { a, rest - a } };
    }
    return count;
}

static rules octal_rules(const char *text)
{
    rules r = { 0 };
    for (const char *p = strchr(text, '.') + 1; *p; p++)
        r.digit[++r.ndigits] = (unsigned)(*p - '0');
    return r;
}

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

/* Every position of total <= n: the quotient and the brute force agree.
 * Returns the positions checked. */
static size_t check_outcomes(brute *b, const gr_mq *q, unsigned n)
{
    position_list l = all_positions(n);
    size_t checked = 0;
    for (size_t i = 0; i < l.count; i++) {
        if (l.at[i].k && !gr_mq_covers(q, l.at[i].part[l.at[i].k - 1]))
            continue; /* a heap past the quotient's bound */
        checked++;
        bool engine_win = !q->in_p[element_of(q, &l.at[i])];
        if (engine_win != brute_win(b, &l.at[i])) {
            char text[256] = "";
            for (unsigned j = 0; j < l.at[i].k; j++)
                snprintf(text + strlen(text), sizeof text - strlen(text), " %u",
                         l.at[i].part[j]);
            ck_abort_msg("outcome differs at heaps%s: engine %d, brute force %d", text,
                         engine_win, !engine_win);
        }
    }
    free(l.at);
    return checked;
}

/* ---- distinguishable classes ---- */

typedef struct class_count {
    size_t classes;  /* distinct outcome rows */
    size_t elements; /* distinct engine elements of the same positions */
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
    class_count c = { 0, 0 };
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

static void build(const gr_mq_rules *r, uint64_t max_heap, gr_mq *q)
{
    gr_budget b = gr_budget_make(BIG_BUDGET);
    REQUIRE(gr_mq_build(r, max_heap, &b, q) == GR_OK);
}

/* One game's figures: the positions of total <= n agree with the quotient,
 * and the classes under the splits (a, n - a) are counted. */
typedef struct figures {
    size_t positions, solved;
    class_count split[3];
} figures;

static figures check_game(rules rr, const gr_mq *q, unsigned n, const unsigned *a, size_t nsplit,
                          const char *name)
{
    brute *b = brute_new(rr, 22);
    figures f = { 0 };
    f.positions = check_outcomes(b, q, n);
    for (size_t i = 0; i < nsplit; i++) {
        f.split[i] = count_classes(b, q, a[i], n - a[i]);
        REQUIRE(f.split[i].classes <= q->order);
        fprintf(stderr, "%s: G <= %u, X <= %u: %zu classes, %zu engine elements (order %u)\n",
                name, a[i], n - a[i], f.split[i].classes, f.split[i].elements, q->order);
    }
    f.solved = b->solved;
    fprintf(stderr, "%s: N = %u, %zu positions checked, %zu solved\n", name, n, f.positions,
            f.solved);
    brute_free(b);
    return f;
}

static void octal_quotient(const char *text, uint64_t max_heap, gr_mq *q)
{
    gr_octal_code code;
    REQUIRE(gr_octal_parse(text, &code) == GR_OK);
    gr_mq_rules r = gr_mq_octal(&code);
    build(&r, max_heap, q);
}

/* The game up to total n against its quotient for heaps <= max_heap; the
 * classes of the positions of total <= a under tests of total <= n - a. */
static figures check_octal(const char *text, uint64_t max_heap, unsigned n, unsigned a)
{
    gr_mq q;
    octal_quotient(text, max_heap, &q);
    REQUIRE(q.periodic || q.bound >= n);
    figures f = check_game(octal_rules(text), &q, n, &a, 1, text);
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
    figures f = check_game(rr, &q, n, &a, 1, name);
    gr_mq_free(&q);
    return f;
}

/* Kayles: N = 44 (584,545 positions); the 26 classes of the positions of
 * total <= 22 are 26 distinct elements of the engine's 40. */
START_TEST(test_kayles)
{
    figures f = check_octal("0.77", 1000, 44, 22);
    REQUIRE_EQ(f.split[0].classes, f.split[0].elements);
}
END_TEST

/* Dawson's Kayles has no known finite quotient: only the positions the
 * engine claims to cover (every heap <= its bound) are compared. */
START_TEST(test_dawsons_kayles)
{
    gr_mq q;
    octal_quotient("0.07", 200, &q);
    REQUIRE(!q.periodic);
    unsigned n = 40, a = q.bound >= 20 ? 20u : (unsigned)q.bound;
    fprintf(stderr, "0.07: bound %llu, order %u\n", (unsigned long long)q.bound, q.order);
    figures f = check_game(octal_rules("0.07"), &q, n, &a, 1, "0.07");
    (void)f;
    gr_mq_free(&q);
}
END_TEST

START_TEST(test_table_codes)
{
    static const char *const codes[] = { "0.15", "0.71", "0.44", "0.72", "0.53", "0.34" };
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
        check_octal(codes[i], 400, 36, 18);
}
END_TEST

START_TEST(test_subtraction_sets)
{
    check_subtraction((unsigned[]){ 1, 2 }, 2, 40, 20, "{1,2}");
    check_subtraction((unsigned[]){ 2, 3 }, 2, 40, 20, "{2,3}");
    check_subtraction((unsigned[]){ 1, 3, 4 }, 3, 40, 20, "{1,3,4}");
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
    suite_add_tcase(s, tc);
    return gr_check_run(s);
}
