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
 * Layout, for speed (see bench/README-engine.md for the measurements):
 * - rare positions and their values are two compact arrays (uint32_t and
 *   uint16_t), walked by a loop with no branch in its body;
 * - options are marked in one byte array indexed by value, stamped with a
 *   byte-wide generation number, so nothing is cleared per heap;
 * - the split scan visits blocks of SCAN_BLOCK consecutive splits whose
 *   starts lie SCAN_SPAN apart (neighbouring splits give correlated values,
 *   so spreading the blocks finds the wanted values in fewer steps), marks
 *   options without branching, and looks at the wanted list once per block;
 *   once only a few values are wanted it compares instead of marking;
 * - the budget is spent once per heap for the rare splits and once per
 *   SCAN_CHUNK splits of the scan.
 *
 * Rare positions are stored as uint32_t, so heaps up to 2^32 - 2 are
 * supported (the values alone take 8 GiB there); build with
 * -DGR_GRUNDYS_WIDE_POSITIONS for uint64_t positions past that. A larger
 * need fails with GR_ENOMEM. Apart from the values (2 bytes a heap) every
 * array is O(rare positions) or O(value space). */
#include "grundy/octal.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define VALUE_LIMIT 65535u   /* values must stay below this */
#define VALUE_SPACE 65536u   /* every XOR of two values */
#define SCAN_BLOCK 16u       /* consecutive splits visited together */
#define SCAN_SPAN 4096u      /* distance between the starts of blocks visited in a row */
#define SCAN_CHUNK 256u      /* splits paid for at a time (a multiple of SCAN_BLOCK) */
#define FEW_WANTED 16u       /* this many wanted values or fewer: compare, do not mark */
#define FEW_WANTED_WIDE 4u   /* the same when some wanted value is above 254 */
#define FIRST_MASK_CHECK 64u /* first heap count at which the mask is chosen */

#ifdef GR_GRUNDYS_WIDE_POSITIONS
typedef uint64_t rare_pos_t;
#define RARE_POS_MAX UINT64_MAX
#else
typedef uint32_t rare_pos_t;
#define RARE_POS_MAX UINT32_MAX
#endif

typedef struct grundy_solver {
    uint16_t *g;            /* g[0 .. count) */
    uint64_t count;
    rare_pos_t *rare_pos;   /* rare positions >= 1, ascending */
    uint16_t *rare_val;     /* rare_val[i] = g[rare_pos[i]] */
    size_t nrare, rare_cap;
    size_t below_half;      /* rare positions r with 2r < count (the next n) */
    unsigned mask;
    unsigned range;         /* least power of two above max_value and mask */
    uint8_t *mark;          /* mark[v] == stamp: v is an option of the current n */
    uint8_t stamp;          /* 1 .. 255; mark[] is cleared when it wraps */
    uint16_t *common_vals;  /* the common values below top, ascending */
    uint16_t *rare_vals;    /* the rare values below top, ascending */
    size_t ncommon, nrare_vals;
    unsigned top;           /* min(2 * range, VALUE_SPACE): c < top (see next_value) */
    uint16_t *want;         /* rare values below c not seen among the rare splits */
    uint8_t *want_flag;     /* want_flag[v]: v is wanted and not yet seen; else 0 */
    uint64_t *tally;        /* tally[v]: positions with value v */
    uint16_t max_value;
    uint64_t next_check;    /* count at which the mask is chosen again */
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
        rare_pos_t *r = realloc(sv->rare_pos, cap * sizeof *r);
        if (r != NULL)
            sv->rare_pos = r;
        uint16_t *rv = realloc(sv->rare_val, cap * sizeof *rv);
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
    unsigned r = 1;
    while (r <= sv->max_value || r <= sv->mask)
        r *= 2;
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
    classify_values(sv);
    sv->nrare = 0;
    sv->below_half = 0;
    for (uint64_t pos = 1; pos < sv->count && st == GR_OK; pos++)
        if (is_rare(sv->g[pos], mask))
            st = rare_push(sv, pos);
    return st;
}

/* Marks the values of the splits (r, n - r) for the rare positions r in
 * [from, to) of the rare list. */
static void mark_rare_range(const grundy_solver *sv, const uint16_t *gn, size_t from,
                            size_t to, uint8_t stamp)
{
    const rare_pos_t *pos = sv->rare_pos;
    const uint16_t *val = sv->rare_val;
    uint8_t *mark = sv->mark;
    size_t i = from;
    for (; i + 4 <= to; i += 4) {
        unsigned x0 = val[i] ^ *(gn - pos[i]);
        unsigned x1 = val[i + 1] ^ *(gn - pos[i + 1]);
        unsigned x2 = val[i + 2] ^ *(gn - pos[i + 2]);
        unsigned x3 = val[i + 3] ^ *(gn - pos[i + 3]);
        mark[x0] = stamp;
        mark[x1] = stamp;
        mark[x2] = stamp;
        mark[x3] = stamp;
    }
    for (; i < to; i++)
        mark[val[i] ^ *(gn - pos[i])] = stamp;
}

/* Marks every option coming from a split with a rare part: the splits
 * (r, n - r) for every rare r < n (rare positions are added in order, so all
 * of them), except r = n / 2, which is not an unequal split. */
static void mark_rare_splits(grundy_solver *sv, uint64_t n, uint8_t stamp)
{
    while (sv->below_half < sv->nrare && 2 * (uint64_t)sv->rare_pos[sv->below_half] < n)
        sv->below_half++;
    size_t h = sv->below_half;
    size_t skip_half = h < sv->nrare && 2 * (uint64_t)sv->rare_pos[h] == n;
    const uint16_t *gn = sv->g + n;
    mark_rare_range(sv, gn, 0, h, stamp);
    mark_rare_range(sv, gn, h + skip_half, sv->nrare, stamp);
}

/* Visits the splits (s + i, n - s - i), 0 <= i < len, taking every value
 * they yield off the wanted list: want_flag[v] is 1 exactly for the wanted
 * values, and *nwant counts them. No branch depends on the values. */
static void take_block(uint8_t *want_flag, const uint16_t *lo, const uint16_t *hi,
                       unsigned len, unsigned *nwant)
{
    unsigned m = *nwant;
    if (len == SCAN_BLOCK) {
        for (unsigned i = 0; i < SCAN_BLOCK; i++) {
            unsigned x = lo[i] ^ *(hi - i);
            m -= want_flag[x];
            want_flag[x] = 0;
        }
    } else {
        for (unsigned i = 0; i < len; i++) {
            unsigned x = lo[i] ^ *(hi - i);
            m -= want_flag[x];
            want_flag[x] = 0;
        }
    }
    *nwant = m;
}

/* The values still wanted, when there are at most FEW_WANTED of them, set
 * up for block_hits: each broadcast to every lane of a vector; as bytes when
 * all are below 255 (then a block's 16 values are compared at once). */
#ifdef __SSE2__
typedef struct few_values {
    __m128i v[FEW_WANTED];
    unsigned k;  /* vectors in use */
    bool bytes;  /* compare bytes (every value < 255) rather than 16-bit lanes */
} few_values;

static void few_values_set(few_values *fw, const uint16_t *want, unsigned m)
{
    fw->bytes = true;
    for (unsigned j = 0; j < m; j++)
        fw->bytes = fw->bytes && want[j] < 255;
    fw->k = fw->bytes || m <= FEW_WANTED_WIDE ? m : 0;
    for (unsigned j = 0; j < fw->k; j++)
        fw->v[j] = fw->bytes ? _mm_set1_epi8((char)want[j]) : _mm_set1_epi16((short)want[j]);
}

/* The eight 16-bit lanes of v in reverse order. */
static __m128i reverse_u16(__m128i v)
{
    v = _mm_shuffle_epi32(v, _MM_SHUFFLE(0, 1, 2, 3));
    v = _mm_shufflelo_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
    return _mm_shufflehi_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
}

static __m128i load_u16x8(const uint16_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* Whether a full block of splits (s + i, n - s - i) may yield a wanted value
 * (lo = g + s, hi = g + n - s). Never wrong when it says no. Byte compares
 * see values above 254 as 255 or 0: a false yes at worst. */
static bool block_hits(const few_values *fw, const uint16_t *lo, const uint16_t *hi)
{
    __m128i x0 = _mm_xor_si128(load_u16x8(lo), reverse_u16(load_u16x8(hi - 7)));
    __m128i x1 = _mm_xor_si128(load_u16x8(lo + 8), reverse_u16(load_u16x8(hi - 15)));
    __m128i hit = _mm_setzero_si128();
    if (fw->bytes) {
        __m128i x = _mm_packus_epi16(x0, x1);
        for (unsigned j = 0; j < fw->k; j++)
            hit = _mm_or_si128(hit, _mm_cmpeq_epi8(x, fw->v[j]));
    } else {
        for (unsigned j = 0; j < fw->k; j++)
            hit = _mm_or_si128(hit, _mm_or_si128(_mm_cmpeq_epi16(x0, fw->v[j]),
                                                 _mm_cmpeq_epi16(x1, fw->v[j])));
    }
    return _mm_movemask_epi8(hit) != 0;
}

static bool few_values_usable(const few_values *fw)
{
    return fw->k > 0;
}
#else
typedef struct few_values {
    uint16_t v[FEW_WANTED];
    unsigned k;
} few_values;

static void few_values_set(few_values *fw, const uint16_t *want, unsigned m)
{
    fw->k = m <= FEW_WANTED_WIDE ? m : 0;
    for (unsigned j = 0; j < fw->k; j++)
        fw->v[j] = want[j];
}

static bool block_hits(const few_values *fw, const uint16_t *lo, const uint16_t *hi)
{
    unsigned hit = 0;
    for (unsigned i = 0; i < SCAN_BLOCK; i++) {
        unsigned x = lo[i] ^ *(hi - i);
        for (unsigned j = 0; j < fw->k; j++)
            hit |= x == fw->v[j];
    }
    return hit != 0;
}

static bool few_values_usable(const few_values *fw)
{
    return fw->k > 0;
}
#endif

/* Scans the splits a of n, 1 <= a <= last, until every wanted value has
 * turned up as an option. want[0 .. listed) lists the wanted values, of
 * which *nwant are still flagged in want_flag; on return the flagged ones
 * never turned up. Blocks of SCAN_BLOCK consecutive splits are visited in
 * rows: the blocks starting at 1 + o, 1 + o + span, 1 + o + 2 span, ... for
 * o = 0, SCAN_BLOCK, ... Every split is still visited exactly once. */
static gr_status scan_splits(const grundy_solver *sv, uint64_t n, unsigned listed,
                             unsigned *nwant, gr_budget *b)
{
    uint64_t last = n >= 1 ? (n - 1) / 2 : 0; /* a < n - a */
    uint64_t span = SCAN_SPAN;
    if (last < span)
        span = (last + SCAN_BLOCK - 1) / SCAN_BLOCK * SCAN_BLOCK;
    const uint16_t *g = sv->g;
    uint8_t *want_flag = sv->want_flag;
    uint64_t paid = 0;      /* splits paid for and not yet visited */
    uint64_t unpaid = last; /* splits not yet paid for */
    bool few = false;       /* fw holds the (at most FEW_WANTED) values still wanted */
    few_values fw;
    fw.k = 0;
    fw.bytes = false;
    uint16_t left[FEW_WANTED];
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
            unsigned before = *nwant;
            take_block(want_flag, lo, hi, len, nwant);
            if (*nwant == 0)
                return GR_OK;
            if (*nwant <= FEW_WANTED && (!few || *nwant < before)) {
                unsigned m = 0;
                for (unsigned k = 0; k < listed; k++)
                    if (want_flag[sv->want[k]])
                        left[m++] = sv->want[k];
                few_values_set(&fw, left, m);
                few = few_values_usable(&fw);
            }
        }
    }
    return GR_OK;
}

/* Computes g(n) for n = count by the method at the top. */
static gr_status next_value(grundy_solver *sv, gr_budget *b, uint16_t *value)
{
    uint64_t n = sv->count;
    if (!gr_budget_spend(b, sv->nrare + 1))
        return GR_ELIMIT;
    if (++sv->stamp == 0) { /* wrapped: clear what earlier heaps marked */
        memset(sv->mark, 0, VALUE_SPACE);
        sv->stamp = 1;
    }
    uint8_t stamp = sv->stamp;
    mark_rare_splits(sv, n, stamp);
    /* c: every option lies below range, and the top bit of the mask is a
     * common value below range, so c < range + range <= top unless top was
     * capped at VALUE_SPACE. */
    size_t j = 0;
    while (j < sv->ncommon && sv->mark[sv->common_vals[j]] == stamp)
        j++;
    unsigned c = j < sv->ncommon ? sv->common_vals[j] : sv->top;
    unsigned nwant = 0;
    for (size_t k = 0; k < sv->nrare_vals && sv->rare_vals[k] < c; k++) {
        uint16_t v = sv->rare_vals[k];
        uint8_t missing = sv->mark[v] != stamp;
        sv->want[nwant] = v;
        sv->want_flag[v] = missing;
        nwant += missing;
    }
    unsigned listed = nwant; /* want[0 .. listed) holds every flagged value */
    gr_status st = GR_OK;
    if (nwant > 0)
        st = scan_splits(sv, n, listed, &nwant, b);
    unsigned v = c;
    for (unsigned k = 0; k < listed; k++) {
        uint16_t w = sv->want[k];
        if (sv->want_flag[w] && w < v)
            v = w;
        sv->want_flag[w] = 0;
    }
    if (st != GR_OK)
        return st;
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

static void solver_free(grundy_solver *sv)
{
    free(sv->g);
    free(sv->rare_pos);
    free(sv->rare_val);
    free(sv->mark);
    free(sv->common_vals);
    free(sv->rare_vals);
    free(sv->want);
    free(sv->want_flag);
    free(sv->tally);
}

static gr_status solver_init(grundy_solver *sv, uint64_t total)
{
    memset(sv, 0, sizeof *sv);
    sv->mask = 1;
    sv->next_check = FIRST_MASK_CHECK;
    if (total > SIZE_MAX / sizeof *sv->g)
        return GR_ENOMEM;
#ifndef GR_GRUNDYS_WIDE_POSITIONS
    if (total - 1 > RARE_POS_MAX)
        return GR_ENOMEM;
#endif
    sv->g = malloc((size_t)total * sizeof *sv->g);
    sv->mark = calloc(VALUE_SPACE, sizeof *sv->mark);
    sv->common_vals = malloc(VALUE_SPACE * sizeof *sv->common_vals);
    sv->rare_vals = malloc(VALUE_SPACE * sizeof *sv->rare_vals);
    sv->want = malloc(VALUE_SPACE * sizeof *sv->want);
    sv->want_flag = calloc(VALUE_SPACE, sizeof *sv->want_flag);
    sv->tally = calloc(VALUE_SPACE, sizeof *sv->tally);
    if (!sv->g || !sv->mark || !sv->common_vals || !sv->rare_vals || !sv->want || !sv->want_flag ||
        !sv->tally)
        return GR_ENOMEM;
    classify_values(sv);
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
