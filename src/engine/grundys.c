/* SPDX-License-Identifier: MIT */
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
 * makes it fast.
 *
 * How the work is laid out (bench/README-engine.md has the measurements):
 * - Heaps are computed in groups of LANES consecutive heaps n0 .. n0+LANES-1.
 *   Each heap of a group has its own table of options, interleaved (value v
 *   of lane j at mark[v * LANES + j]) and stamped with the group's
 *   generation number, so nothing is cleared per heap. For a rare position
 *   r with LANES <= r < n0 (and n0 <= 2r < n0 + LANES false, so no lane
 *   meets the equal split), the values g(n0 + j - r) of all lanes are
 *   consecutive in memory and known before the group starts: one pass over
 *   those rare positions marks the rare splits of the whole group, eight
 *   stores per position with no branch. The few other rare positions (small
 *   ones, those near n0 / 2, those found inside the group) are handled heap
 *   by heap.
 * - Rare positions and their values are compact arrays (uint32_t, uint16_t).
 * - The split scan visits blocks of SCAN_BLOCK consecutive splits whose
 *   starts lie SCAN_SPAN apart (neighbouring splits give correlated values,
 *   so spreading the blocks finds the wanted values in fewer steps). While
 *   many values are wanted it marks the blocks' options and drops the
 *   marked values from the wanted list whenever the splits marked since the
 *   last time outnumber them; once at most FEW_WANTED are left it only
 *   compares a block's values with them (SSE2 when available) and marks the
 *   rare block that has one.
 * - The budget is spent per group for the shared pass, per heap for the
 *   rest of its rare splits, and per SCAN_CHUNK splits of a scan.
 *
 * Rare positions are stored as uint32_t, so heaps up to 2^32 - 1 are
 * supported (the values alone take 8 GiB there); build with
 * -DGR_GRUNDYS_WIDE_POSITIONS for uint64_t positions past that. A larger
 * need fails with GR_ENOMEM. Apart from the values (2 bytes a heap) every
 * array is O(rare positions) or O(value space). */
#include "grundy/octal.h"
#include "grundy/alloc.h"

#include <stdlib.h>
#include <string.h>

#include "rare_mask.h"
#include "split_scan.h"

#define VALUE_LIMIT 65535u   /* values must stay below this */
#define VALUE_SPACE 65536u   /* every XOR of two values */
#define LANES 8u             /* heaps computed as a group */
#define GROUP_MIN (8 * LANES) /* groups from this heap on share the rare pass */
#define SCAN_CHUNK 256u      /* splits paid for at a time (a multiple of SCAN_BLOCK) */
#define FIRST_MASK_CHECK 64u /* first heap count at which the mask is chosen */

#ifdef GR_GRUNDYS_WIDE_POSITIONS
typedef uint64_t rare_pos_t;
#else
typedef uint32_t rare_pos_t;
#endif

typedef struct grundy_solver {
    uint16_t *g;            /* g[0 .. count) */
    uint64_t count;
    rare_pos_t *rare_pos;   /* rare positions >= 1, ascending */
    uint16_t *rare_val;     /* rare_val[i] = g[rare_pos[i]] */
    size_t nrare, rare_cap;
    unsigned mask;
    unsigned range;         /* least power of two above max_value and mask */
    uint8_t *mark;          /* mark[v * LANES + j] == stamp: v is an option of n0 + j */
    uint8_t stamp;          /* 1 .. 255; mark[] is cleared when it wraps */
    uint16_t *common_vals;  /* the common values below top, ascending */
    uint16_t *rare_vals;    /* the rare values below top, ascending */
    size_t ncommon, nrare_vals;
    unsigned top;           /* min(2 * range, VALUE_SPACE): c < top (see next_value) */
    uint16_t *want;         /* rare values below c not yet seen as options */
    uint64_t *tally;        /* tally[v]: positions with value v */
    uint16_t max_value;
    uint64_t next_check;    /* count at which the mask is chosen again */
    unsigned range_seen;    /* value range at the last mask choice */
} grundy_solver;

/* The rare positions of the current group, by index into the rare list:
 * [0, small) lie below LANES, [half_lo, half_hi) have n0 <= 2r < n0 + LANES,
 * [before, nrare) were found inside the group; the others are shared. */
typedef struct group {
    uint64_t n0;
    bool shared;   /* false: every rare split is marked heap by heap */
    size_t small, half_lo, half_hi, before;
} group;

static gr_status rare_push(grundy_solver *sv, uint64_t pos)
{
    if (sv->nrare == sv->rare_cap) {
        size_t cap = sv->rare_cap ? 2 * sv->rare_cap : 256;
        rare_pos_t *r = gr_realloc(sv->rare_pos, cap * sizeof *r);
        if (r != NULL)
            sv->rare_pos = r;
        uint16_t *rv = gr_realloc(sv->rare_val, cap * sizeof *rv);
        if (rv != NULL)
            sv->rare_val = rv;
        if (r == NULL || rv == NULL)
            return GR_ENOMEM;
        sv->rare_cap = cap;
    }
    sv->rare_pos[sv->nrare] = (rare_pos_t)pos;
    sv->rare_val[sv->nrare++] = sv->g[pos];
    return GR_OK;
}

/* Rebuilds the lists of common and rare values below top; needed whenever
 * the mask or the range changes. */
static void classify_values(grundy_solver *sv)
{
    unsigned r = power_of_two_above(sv->max_value > sv->mask ? sv->max_value : sv->mask);
    sv->range = r;
    sv->top = 2 * r < VALUE_SPACE ? 2 * r : VALUE_SPACE;
    sv->ncommon = sv->nrare_vals = 0;
    for (unsigned v = 0; v < sv->top; v++) {
        if (is_rare(v, sv->mask))
            sv->rare_vals[sv->nrare_vals++] = (uint16_t)v;
        else
            sv->common_vals[sv->ncommon++] = (uint16_t)v;
    }
}

/* Smallest power of two above every value seen: the XOR of two values and
 * every candidate mask lie below it. */
static unsigned value_range(const grundy_solver *sv)
{
    return power_of_two_above(sv->max_value);
}

/* Re-chooses the mask (the one with the fewest rare positions so far, by a
 * Walsh-Hadamard transform of the value tally: rare_mask.c) and, when it
 * changes, rebuilds the rare list. */
static gr_status maybe_change_mask(grundy_solver *sv, gr_budget *b)
{
    unsigned mask;
    gr_status st = gr_rare_mask_best(sv->tally, value_range(sv), &mask, NULL);
    if (st != GR_OK || mask == sv->mask)
        return st;
    if (!gr_budget_spend(b, sv->count))
        return GR_ELIMIT;
    sv->mask = mask;
    classify_values(sv);
    sv->nrare = 0;
    for (uint64_t pos = 1; pos < sv->count && st == GR_OK; pos++)
        if (is_rare(sv->g[pos], mask))
            st = rare_push(sv, pos);
    return st;
}

/* Index of the first rare position r with 2r >= twice (rare list ascending). */
static size_t rare_index_half(const grundy_solver *sv, uint64_t twice)
{
    size_t lo = 0, hi = sv->nrare;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (2 * (uint64_t)sv->rare_pos[mid] < twice)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Marks, for every lane j, the values g(r) ^ g(n0 + j - r) of the rare
 * positions r with index in [from, to): LANES <= r < n0 for all of them. */
static void mark_shared_range(const grundy_solver *sv, uint64_t n0, size_t from, size_t to,
                              uint8_t stamp)
{
    const rare_pos_t *pos = sv->rare_pos;
    const uint16_t *val = sv->rare_val;
    const uint16_t *gn = sv->g + n0;
    uint8_t *mark = sv->mark;
    for (size_t i = from; i < to; i++) {
        const uint16_t *src = gn - pos[i];
        unsigned v = val[i];
        mark[(size_t)(src[0] ^ v) * LANES + 0] = stamp;
        mark[(size_t)(src[1] ^ v) * LANES + 1] = stamp;
        mark[(size_t)(src[2] ^ v) * LANES + 2] = stamp;
        mark[(size_t)(src[3] ^ v) * LANES + 3] = stamp;
        mark[(size_t)(src[4] ^ v) * LANES + 4] = stamp;
        mark[(size_t)(src[5] ^ v) * LANES + 5] = stamp;
        mark[(size_t)(src[6] ^ v) * LANES + 6] = stamp;
        mark[(size_t)(src[7] ^ v) * LANES + 7] = stamp;
    }
}

/* Marks the values g(r) ^ g(n - r) for the rare positions r with index in
 * [from, to), skipping r = n / 2 (not an unequal split). */
static void mark_rare_range(const grundy_solver *sv, uint8_t *mark, uint64_t n, size_t from,
                            size_t to, uint8_t stamp)
{
    const uint16_t *gn = sv->g + n;
    for (size_t i = from; i < to; i++) {
        uint64_t r = sv->rare_pos[i];
        if (2 * r != n)
            mark[(size_t)(sv->rare_val[i] ^ *(gn - r)) * LANES] = stamp;
    }
}

/* Marks the values of the splits (s + i, n - s - i), 0 <= i < len. */
static void mark_block(uint8_t *mark, const uint16_t *lo, const uint16_t *hi, unsigned len,
                       uint8_t stamp)
{
    if (len == SCAN_BLOCK) {
        for (unsigned i = 0; i < SCAN_BLOCK; i++)
            mark[(size_t)(lo[i] ^ *(hi - i)) * LANES] = stamp;
    } else {
        for (unsigned i = 0; i < len; i++)
            mark[(size_t)(lo[i] ^ *(hi - i)) * LANES] = stamp;
    }
}

/* Scans the splits a of n, 1 <= a <= last, until every wanted value (the
 * *nwant values in want) has turned up as an option, leaving in want the
 * ones that never did. Blocks of SCAN_BLOCK consecutive splits are visited
 * in rows: the blocks starting at 1 + o, 1 + o + span, 1 + o + 2 span, ...
 * for o = 0, SCAN_BLOCK, ... Every split is still visited exactly once. */
static gr_status scan_splits(grundy_solver *sv, uint8_t *mark, uint64_t n, uint8_t stamp,
                             unsigned *nwant, gr_budget *b)
{
    uint64_t last = n >= 1 ? (n - 1) / 2 : 0; /* a < n - a */
    uint64_t span = scan_span(last);
    const uint16_t *g = sv->g;
    uint16_t *want = sv->want;
    uint64_t paid = 0;      /* splits paid for and not yet visited */
    uint64_t unpaid = last; /* splits not yet paid for */
    bool few = false;       /* fw holds the (at most FEW_WANTED) values still wanted */
    few_values fw;
    few_values_set(&fw, want, 1);
    unsigned since = 0; /* splits marked since the wanted list was last pruned */
    for (uint64_t o = 0; o < span; o += SCAN_BLOCK) {
        for (uint64_t s = 1 + o; s <= last; s += span) {
            unsigned len = last - s + 1 < SCAN_BLOCK ? (unsigned)(last - s + 1) : SCAN_BLOCK;
            if (paid < len) {
                uint64_t steps = unpaid < SCAN_CHUNK ? unpaid : SCAN_CHUNK;
                if (!gr_budget_spend(b, steps))
                    return GR_ELIMIT;
                paid += steps;
                unpaid -= steps;
            }
            paid -= len;
            const uint16_t *lo = g + s, *hi = g + (n - s);
            if (few && len == SCAN_BLOCK && !block_hits(&fw, lo, hi))
                continue;
            mark_block(mark, lo, hi, len, stamp);
            /* With many wanted, drop the values found only once the splits
             * marked since the last time outnumber them. */
            since += len;
            if (since < *nwant && !few)
                continue;
            since = 0;
            unsigned m = *nwant, kept = prune_wanted(want, m, mark, LANES, stamp);
            *nwant = kept;
            if (kept == 0)
                return GR_OK;
            if (kept <= FEW_WANTED && kept < m) {
                few_values_set(&fw, want, kept);
                few = true;
            }
        }
    }
    /* the last blocks may not have been looked at */
    *nwant = prune_wanted(want, *nwant, mark, LANES, stamp);
    return GR_OK;
}

/* Computes g(n) for n = count, lane n - n0 of group gp, by the method at
 * the top. */
static gr_status next_value(grundy_solver *sv, const group *gp, gr_budget *b,
                            uint16_t *value)
{
    uint64_t n = sv->count;
    uint8_t stamp = sv->stamp;
    uint8_t *mark = sv->mark + (n - gp->n0);
    if (gp->shared) {
        if (!gr_budget_spend(b, gp->small + (gp->half_hi - gp->half_lo) +
                                    (sv->nrare - gp->before) + 1))
            return GR_ELIMIT;
        mark_rare_range(sv, mark, n, 0, gp->small, stamp);
        mark_rare_range(sv, mark, n, gp->half_lo, gp->half_hi, stamp);
        mark_rare_range(sv, mark, n, gp->before, sv->nrare, stamp);
    } else {
        if (!gr_budget_spend(b, sv->nrare + 1))
            return GR_ELIMIT;
        mark_rare_range(sv, mark, n, 0, sv->nrare, stamp);
    }
    /* c: every option lies below range, and the top bit of the mask is a
     * common value below range, so c < range + range <= top unless top was
     * capped at VALUE_SPACE. */
    size_t j = 0;
    while (j < sv->ncommon && mark[(size_t)sv->common_vals[j] * LANES] == stamp)
        j++;
    unsigned c = j < sv->ncommon ? sv->common_vals[j] : sv->top;
    unsigned nwant = 0;
    for (size_t k = 0; k < sv->nrare_vals && sv->rare_vals[k] < c; k++) {
        uint16_t v = sv->rare_vals[k];
        sv->want[nwant] = v;
        nwant += mark[(size_t)v * LANES] != stamp;
    }
    if (nwant > 0) {
        gr_status st = scan_splits(sv, mark, n, stamp, &nwant, b);
        if (st != GR_OK)
            return st;
    }
    unsigned v = c;
    for (unsigned k = 0; k < nwant; k++)
        if (sv->want[k] < v)
            v = sv->want[k];
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
    if (v > sv->max_value) {
        sv->max_value = v;
        if (v >= sv->range)
            classify_values(sv);
    }
    if (n >= 1 && is_rare(v, sv->mask))
        return rare_push(sv, n);
    return GR_OK;
}

/* Starts the group of heaps n0 = count ..: a fresh stamp, and the shared
 * pass over the rare positions when n0 is large enough. */
static gr_status group_start(grundy_solver *sv, group *gp, gr_budget *b)
{
    /* on a wrap, clear what earlier groups marked */
    fresh_stamp(&sv->stamp, sv->mark, (size_t)sv->top * LANES);
    uint64_t n0 = sv->count;
    gp->n0 = n0;
    gp->shared = n0 >= GROUP_MIN;
    if (!gp->shared)
        return GR_OK;
    gp->before = sv->nrare;
    gp->small = 0;
    while (gp->small < sv->nrare && sv->rare_pos[gp->small] < LANES)
        gp->small++;
    gp->half_lo = rare_index_half(sv, n0);
    gp->half_hi = rare_index_half(sv, n0 + LANES);
    uint64_t shared = (gp->half_lo - gp->small) + (gp->before - gp->half_hi);
    if (!gr_budget_spend(b, shared * LANES))
        return GR_ELIMIT;
    mark_shared_range(sv, n0, gp->small, gp->half_lo, sv->stamp);
    mark_shared_range(sv, n0, gp->half_hi, gp->before, sv->stamp);
    return GR_OK;
}

/* After a group: a fresh mask choice when the heap count has doubled or the
 * value range has grown past the last choice. */
static gr_status group_end(grundy_solver *sv, gr_budget *b)
{
    if (!rare_mask_due(sv->count, FIRST_MASK_CHECK, value_range(sv), &sv->next_check,
                       &sv->range_seen))
        return GR_OK;
    return maybe_change_mask(sv, b);
}

static void solver_free(grundy_solver *sv)
{
    gr_free(sv->g);
    gr_free(sv->rare_pos);
    gr_free(sv->rare_val);
    gr_free(sv->mark);
    gr_free(sv->common_vals);
    gr_free(sv->rare_vals);
    gr_free(sv->want);
    gr_free(sv->tally);
}

static gr_status solver_init(grundy_solver *sv, uint64_t total)
{
    memset(sv, 0, sizeof *sv);
    sv->mask = 1;
    sv->next_check = FIRST_MASK_CHECK;
    sv->range_seen = 1;
    if (total > SIZE_MAX / sizeof *sv->g)
        return GR_ENOMEM;
#ifndef GR_GRUNDYS_WIDE_POSITIONS
    if (total - 1 > UINT32_MAX)
        return GR_ENOMEM;
#endif
    sv->g = gr_malloc((size_t)total * sizeof *sv->g);
    sv->mark = gr_calloc((size_t)VALUE_SPACE * LANES, sizeof *sv->mark);
    sv->common_vals = gr_malloc(VALUE_SPACE * sizeof *sv->common_vals);
    sv->rare_vals = gr_malloc(VALUE_SPACE * sizeof *sv->rare_vals);
    sv->want = gr_malloc(VALUE_SPACE * sizeof *sv->want);
    sv->tally = gr_calloc(VALUE_SPACE, sizeof *sv->tally);
    if (!sv->g || !sv->mark || !sv->common_vals || !sv->rare_vals || !sv->want || !sv->tally)
        return GR_ENOMEM;
    classify_values(sv);
    return GR_OK;
}

gr_status gr_grundys_solve(uint64_t need, gr_budget *b, gr_seq *out)
{
    return gr_grundys_solve_counted(need, b, out, NULL, NULL);
}

#define COUNT_EVERY (UINT64_C(1) << 16) /* values between calls of the counter */

gr_status gr_grundys_solve_counted(uint64_t need, gr_budget *b, gr_seq *out, gr_count_fn *count,
                                   void *ctx)
{
    memset(out, 0, sizeof *out);
    if (need >= b->left) { /* at least one step per value */
        b->left = 0;
        return GR_ELIMIT;
    }
    (void)gr_budget_spend(b, need + 1); /* covered: need < b->left */
    grundy_solver sv;
    gr_status st = solver_init(&sv, need + 1);
    while (st == GR_OK && sv.count <= need) {
        group gp = { 0 };
        st = group_start(&sv, &gp, b);
        for (unsigned j = 0; j < LANES && st == GR_OK && sv.count <= need; j++) {
            uint16_t v;
            st = next_value(&sv, &gp, b, &v);
            if (st == GR_OK)
                st = append_value(&sv, v);
        }
        if (st == GR_OK)
            st = group_end(&sv, b);
        if (count && sv.count % COUNT_EVERY < LANES)
            count(ctx, sv.count);
    }
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
