/* Grundy's game by the rare/common ("sparse space") method.
 *
 * g(n) = mex{ g(a) ^ g(n - a) : 1 <= a < n - a }.
 *
 * With a mask m != 0, call a value v rare when popcount(v & m) is even and
 * common otherwise. Rare values form a subgroup of index 2 under XOR, so
 * rare ^ rare and common ^ common are rare while rare ^ common is common.
 * Every common option of n therefore comes from a split with exactly one
 * rare part: XOR-ing over the (few) rare positions finds them all, and so
 * c = the least common value that is not an option. The mex is c unless some
 * rare value below c is missing; those come only from rare ^ rare splits
 * (already seen) or common ^ common splits, so we scan all splits but stop
 * as soon as every rare value below c has turned up. If one never does, the
 * least missing one is g(n). Correct for any mask; a good mask (one with few
 * rare positions, chosen by a Walsh-Hadamard transform of the value counts)
 * makes it fast. */
#include "grundy/octal.h"

#include <stdlib.h>
#include <string.h>

#define VALUE_LIMIT 65535u       /* values must stay below this */
#define VALUE_SPACE 65536u       /* every XOR of two values */
#define SCAN_CHUNK 512u          /* splits paid for at a time */
#define SCAN_STRIDE 16u          /* interleaved passes of the split scan (measured best) */
#define FIRST_MASK_CHECK 64u     /* first heap count at which the mask is chosen */

typedef struct grundy_solver {
    uint16_t *g;        /* g[0 .. count) */
    uint64_t count;
    uint64_t *rare;     /* rare positions >= 1, ascending */
    uint16_t *rare_value; /* rare_value[i] = g[rare[i]], read without a dependent load */
    size_t nrare, rare_cap;
    size_t below_half;  /* rare positions r with 2r < count (the next n) */
    unsigned mask;
    uint64_t *excluded; /* excluded[v] == n + 1: v is an option of n */
    uint64_t *wanted;   /* wanted[v] == n + 1: rare v < c not yet seen */
    uint64_t *tally;    /* tally[v]: positions with value v */
    uint16_t max_value;
    uint64_t next_check; /* count at which the mask is chosen again */
} grundy_solver;

static bool is_rare(unsigned v, unsigned mask)
{
    unsigned x = v & mask;
    x ^= x >> 8;
    x ^= x >> 4;
    x ^= x >> 2;
    x ^= x >> 1;
    return (x & 1) == 0;
}

static gr_status rare_push(grundy_solver *sv, uint64_t pos)
{
    if (sv->nrare == sv->rare_cap) {
        size_t cap = sv->rare_cap ? 2 * sv->rare_cap : 256;
        uint64_t *r = realloc(sv->rare, cap * sizeof *r);
        if (r != NULL)
            sv->rare = r;
        uint16_t *rv = realloc(sv->rare_value, cap * sizeof *rv);
        if (rv != NULL)
            sv->rare_value = rv;
        if (r == NULL || rv == NULL)
            return GR_ENOMEM;
        sv->rare_cap = cap;
    }
    sv->rare[sv->nrare] = pos;
    sv->rare_value[sv->nrare++] = sv->g[pos];
    return GR_OK;
}

/* Smallest power of two above every value seen: the XOR of two values and
 * every candidate mask lie below it. */
static unsigned value_range(const grundy_solver *sv)
{
    unsigned r = 1;
    while (r <= sv->max_value)
        r *= 2;
    return r;
}

/* The mask m != 0 with the fewest rare positions so far. With W the
 * Walsh-Hadamard transform of the value tally, the rare positions number
 * (count + W(m)) / 2, so we take the least W(m) (ties: the smaller m). */
static gr_status best_mask(const grundy_solver *sv, unsigned *mask)
{
    unsigned range = value_range(sv);
    if (range < 2) {
        *mask = 1;
        return GR_OK;
    }
    int64_t *w = malloc(range * sizeof *w);
    if (w == NULL)
        return GR_ENOMEM;
    for (unsigned v = 0; v < range; v++)
        w[v] = (int64_t)sv->tally[v];
    for (unsigned h = 1; h < range; h *= 2)
        for (unsigned i = 0; i < range; i += 2 * h)
            for (unsigned j = i; j < i + h; j++) {
                int64_t x = w[j], y = w[j + h];
                w[j] = x + y;
                w[j + h] = x - y;
            }
    unsigned best = 1;
    for (unsigned m = 2; m < range; m++)
        if (w[m] < w[best])
            best = m;
    free(w);
    *mask = best;
    return GR_OK;
}

/* Re-chooses the mask and, when it changes, rebuilds the rare list. */
static gr_status maybe_change_mask(grundy_solver *sv, gr_budget *b)
{
    unsigned mask;
    gr_status st = best_mask(sv, &mask);
    if (st != GR_OK || mask == sv->mask)
        return st;
    if (!gr_budget_spend(b, sv->count))
        return GR_ELIMIT;
    sv->mask = mask;
    sv->nrare = 0;
    sv->below_half = 0;
    for (uint64_t pos = 1; pos < sv->count && st == GR_OK; pos++)
        if (is_rare(sv->g[pos], mask))
            st = rare_push(sv, pos);
    return st;
}

/* Marks the values of the splits (r, n - r) for rare positions r in
 * [from, to) of the rare list. */
static void exclude_range(const grundy_solver *sv, uint64_t n, size_t from, size_t to,
                          uint64_t stamp)
{
    const uint16_t *g = sv->g;
    uint64_t *excluded = sv->excluded;
    for (size_t i = from; i < to; i++)
        excluded[sv->rare_value[i] ^ g[n - sv->rare[i]]] = stamp;
}

/* Marks every option coming from a split with a rare part: the splits
 * (r, n - r) for every rare r < n (rare positions are added in order, so all
 * of them), except r = n / 2, which is not an unequal split. */
static void exclude_rare_splits(grundy_solver *sv, uint64_t n, uint64_t stamp)
{
    while (sv->below_half < sv->nrare && 2 * sv->rare[sv->below_half] < n)
        sv->below_half++;
    size_t h = sv->below_half;
    bool skip_half = h < sv->nrare && 2 * sv->rare[h] == n;
    exclude_range(sv, n, 0, h, stamp);
    exclude_range(sv, n, h + skip_half, sv->nrare, stamp);
}

/* Marks the rare values below c that are not yet options; returns how many. */
static unsigned want_rare_below(const grundy_solver *sv, unsigned c, uint64_t stamp)
{
    unsigned missing = 0;
    for (unsigned v = 0; v < c; v++)
        if (is_rare(v, sv->mask) && sv->excluded[v] != stamp) {
            sv->wanted[v] = stamp;
            missing++;
        }
    return missing;
}

/* Visits splits a = first, first + SCAN_STRIDE, ... up to `last`, marking
 * wanted values as found; stops early when none is missing. */
static gr_status scan_pass(const grundy_solver *sv, uint64_t n, uint64_t first,
                           uint64_t last, uint64_t stamp, unsigned *missing, gr_budget *b)
{
    const uint16_t *g = sv->g;
    uint64_t *wanted = sv->wanted;
    for (uint64_t a = first; a <= last;) {
        uint64_t steps = (last - a) / SCAN_STRIDE + 1;
        if (steps > SCAN_CHUNK)
            steps = SCAN_CHUNK;
        if (!gr_budget_spend(b, steps))
            return GR_ELIMIT;
        for (uint64_t end = a + steps * SCAN_STRIDE; a < end; a += SCAN_STRIDE) {
            unsigned x = g[a] ^ g[n - a];
            if (wanted[x] == stamp) {
                wanted[x] = 0;
                if (--*missing == 0)
                    return GR_OK;
            }
        }
    }
    return GR_OK;
}

/* Scans the splits of n until every wanted value has turned up, leaving in
 * *missing how many never did. Splits are visited in SCAN_STRIDE interleaved
 * passes: neighbouring splits give correlated values (the sequence is
 * locally near-periodic), so striding finds the wanted values in about half
 * the steps of a plain ascending scan. Every split a with 1 <= a < n - a is
 * still visited exactly once. */
static gr_status scan_splits(const grundy_solver *sv, uint64_t n, uint64_t stamp,
                             unsigned *missing, gr_budget *b)
{
    uint64_t last = n >= 1 ? (n - 1) / 2 : 0; /* a < n - a */
    gr_status st = GR_OK;
    for (uint64_t first = 1; first <= SCAN_STRIDE && *missing > 0 && st == GR_OK; first++)
        st = scan_pass(sv, n, first, last, stamp, missing, b);
    return st;
}

/* Computes g(n) for n = count by the method at the top. */
static gr_status next_value(grundy_solver *sv, gr_budget *b, uint16_t *value)
{
    uint64_t n = sv->count, stamp = n + 1;
    if (!gr_budget_spend(b, sv->nrare + 1))
        return GR_ELIMIT;
    exclude_rare_splits(sv, n, stamp);
    unsigned c = 0;
    while (c < VALUE_SPACE && (is_rare(c, sv->mask) || sv->excluded[c] == stamp))
        c++;
    unsigned missing = want_rare_below(sv, c, stamp);
    if (missing > 0) {
        gr_status st = scan_splits(sv, n, stamp, &missing, b);
        if (st != GR_OK)
            return st;
    }
    unsigned v = c;
    if (missing > 0)
        for (v = 0; sv->wanted[v] != stamp; v++)
            ;
    if (v >= VALUE_LIMIT)
        return GR_ERANGE;
    *value = (uint16_t)v;
    return GR_OK;
}

static gr_status append_value(grundy_solver *sv, uint16_t v)
{
    uint64_t n = sv->count;
    sv->g[n] = v;
    sv->count = n + 1;
    sv->tally[v]++;
    if (v > sv->max_value)
        sv->max_value = v;
    if (n >= 1 && is_rare(v, sv->mask))
        return rare_push(sv, n);
    return GR_OK;
}

static void solver_free(grundy_solver *sv)
{
    free(sv->g);
    free(sv->rare);
    free(sv->rare_value);
    free(sv->excluded);
    free(sv->wanted);
    free(sv->tally);
}

static gr_status solver_init(grundy_solver *sv, uint64_t total)
{
    memset(sv, 0, sizeof *sv);
    sv->mask = 1;
    sv->next_check = FIRST_MASK_CHECK;
    if (total > SIZE_MAX / sizeof *sv->g)
        return GR_ENOMEM;
    sv->g = malloc((size_t)total * sizeof *sv->g);
    sv->excluded = calloc(VALUE_SPACE, sizeof *sv->excluded);
    sv->wanted = calloc(VALUE_SPACE, sizeof *sv->wanted);
    sv->tally = calloc(VALUE_SPACE, sizeof *sv->tally);
    if (!sv->g || !sv->excluded || !sv->wanted || !sv->tally)
        return GR_ENOMEM;
    return GR_OK;
}

/* One value, plus a fresh mask choice when the heap count doubles or the
 * value range has grown past the last choice. */
static gr_status solver_step(grundy_solver *sv, gr_budget *b, unsigned *range_seen)
{
    uint16_t v;
    gr_status st = next_value(sv, b, &v);
    if (st == GR_OK)
        st = append_value(sv, v);
    if (st != GR_OK)
        return st;
    if (sv->count == sv->next_check || (sv->count >= FIRST_MASK_CHECK &&
                                        value_range(sv) > *range_seen)) {
        if (sv->count == sv->next_check)
            sv->next_check *= 2;
        *range_seen = value_range(sv);
        st = maybe_change_mask(sv, b);
    }
    return st;
}

gr_status gr_grundys_solve(uint64_t need, gr_budget *b, gr_seq *out)
{
    memset(out, 0, sizeof *out);
    if (need >= b->left) { /* at least one step per value */
        b->left = 0;
        return GR_ELIMIT;
    }
    (void)gr_budget_spend(b, need + 1); /* covered: need < b->left */
    grundy_solver sv;
    gr_status st = solver_init(&sv, need + 1);
    unsigned range_seen = 1;
    while (st == GR_OK && sv.count <= need)
        st = solver_step(&sv, b, &range_seen);
    if (st == GR_OK) {
        out->values = sv.g;
        out->owned = sv.g;
        out->count = sv.count;
        out->max_value = sv.max_value;
        sv.g = NULL;
    }
    solver_free(&sv);
    return st;
}

gr_status gr_grundys_move(const gr_seq *s, uint64_t n, uint16_t target, gr_heap_move *move)
{
    if (s == NULL || move == NULL)
        return GR_EINVAL;
    if (n >= s->count)
        return GR_EBOUND;
    for (uint64_t a = 1; 2 * a < n; a++)
        if ((s->values[a] ^ s->values[n - a]) == target) {
            move->take = 0;
            move->nparts = 2;
            move->part[0] = a;
            move->part[1] = n - a;
            return GR_OK;
        }
    return GR_EINVAL;
}
