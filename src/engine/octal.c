/* Octal games: parsing, values by mex, certified periods, and moves.
 *
 * Values. g(n) is the mex of the options of heap n: g(n - k) for digits
 * with bit 2, 0 when n = k for digits with bit 1, and g(a) ^ g(m - a) with
 * m = n - k, 1 <= a <= m / 2, for digits with bit 4. The splits of m are the
 * same for every splitting digit (heap n uses those of n - k), so the solver
 * keeps a table of the split values of each of the last RING heap sizes m
 * and builds it once: a code with three splitting digits costs what one
 * with a single one does.
 *
 * Two ways to fill those tables, chosen every time the count doubles or
 * the range of values grows (both give the same values):
 * - plain: every split of m, about m / 2 stores a table;
 * - rare/common, as for Grundy's game (grundys.c), when a mask found by a
 *   Walsh-Hadamard transform of the value counts makes at most 1/8 of the
 *   positions rare: the table holds only the splits with a rare part, which
 *   settle every common option; c is the least common value not an option,
 *   and the rare values below c that no table has are looked for by
 *   scanning the splits of the heap, stopping as soon as all have turned up.
 *
 * Periods. The certificate (octal.h), read conservatively: with N values
 * known, p certified when g(n + p) = g(n) for s <= n < N - p and
 * N - p >= max(2s + 2p + t - 1, p + t + 1), 3p <= N. It is checked at
 * checkpoints, every N / 16 values (each check costs about N comparisons,
 * see find_period), rather than after every value; when it holds, the count
 * is cut back to the least N at which it held, so the result is the one a
 * check after every value gives.
 *
 * Budget. Each value is charged, before it is computed, what the plain
 * method charged: one step per option plus count + 1 for the period
 * bookkeeping (step_cost). The work done is less, never more in total, so
 * a budget buys exactly the values it used to, and the status, the values
 * and the budget left are those of the plain method (values computed past
 * the certificate, up to the checkpoint, are not charged). */
#include "grundy/octal.h"

#include <stdlib.h>
#include <string.h>

#include "rare_mask.h"
#include "split_scan.h"

/* ---- parsing and formatting ---- */

gr_status gr_octal_parse(const char *text, gr_octal_code *code)
{
    if (text == NULL || code == NULL)
        return GR_EINVAL;
    gr_octal_code c;
    memset(&c, 0, sizeof c);
    if (text[0] != '0' || text[1] != '.')
        return GR_EINVAL;
    unsigned k = 0;
    for (const char *p = text + 2; *p != '\0'; p++) {
        if (*p < '0' || *p > '7' || k == GR_OCTAL_MAX_DIGITS)
            return GR_EINVAL;
        c.digit[++k] = (uint8_t)(*p - '0');
        if (c.digit[k] != 0)
            c.t = k;
    }
    if (c.t == 0) /* no digits, or all zero */
        return GR_EINVAL;
    *code = c;
    return GR_OK;
}

void gr_octal_format(const gr_octal_code *code, char buf[16])
{
    size_t i = 0;
    buf[i++] = '0';
    buf[i++] = '.';
    for (unsigned k = 1; k <= code->t && k <= GR_OCTAL_MAX_DIGITS; k++)
        buf[i++] = (char)('0' + (code->digit[k] & 7));
    buf[i] = '\0';
}

static bool code_valid(const gr_octal_code *code)
{
    if (code == NULL || code->t < 1 || code->t > GR_OCTAL_MAX_DIGITS)
        return false;
    if (code->digit[0] != 0 || code->digit[code->t] == 0)
        return false;
    for (unsigned k = 1; k <= GR_OCTAL_MAX_DIGITS; k++)
        if (code->digit[k] > 7 || (k > code->t && code->digit[k] != 0))
            return false;
    return true;
}

/* ---- values ---- */

#define VALUE_LIMIT 65535u     /* values must stay below this */
#define VALUE_SPACE 65536u     /* every XOR of two values */
#define RING 8u                /* split tables kept: S(m) for the last RING values of m */
#define FIRST_MASK_CHECK 64u   /* first count at which the mode and mask are chosen */
#define SPARSE_MIN_COUNT 256u  /* rare/common only from this many values on */
#define SPARSE_MAX_RARE_PER_64 8u /* ... and only while rare positions are at most 8/64 */
#define RUNS 8u                /* long partial periods remembered by a certificate scan */
#define RUN_MIN 32u            /* a partial period that long is remembered */

typedef enum value_mode { MODE_PLAIN, MODE_SPARSE } value_mode;

typedef struct octal_solver {
    const gr_octal_code *code;
    unsigned t;
    unsigned split_k[GR_OCTAL_MAX_DIGITS]; /* digits k with bit 4, ascending */
    unsigned nsplit;
    uint16_t *g;             /* g[0 .. count) */
    uint64_t count, cap;
    uint16_t max_value;
    uint64_t *tally;         /* tally[v]: positions with value v */
    /* Options of the current heap other than those in split tables,
     * marked with hstamp. */
    uint8_t *hmark;
    uint8_t hstamp;
    /* Split tables: table[m % RING] describes m = slot_m[m % RING]: value v
     * is in it when table[v] == slot_stamp. In MODE_PLAIN it holds every
     * split of m, a + b = m, a, b >= 1; in MODE_SPARSE only those with a
     * rare part. */
    uint8_t *table[RING];
    uint64_t slot_m[RING];
    uint8_t slot_stamp[RING];
    bool slot_valid[RING];
    uint8_t next_stamp[RING];
    /* Rare/common state (see grundys.c for the method). */
    value_mode mode;
    unsigned mask;
    unsigned range;          /* least power of two above max_value and mask */
    unsigned top;            /* min(2 * range, VALUE_SPACE) */
    uint64_t *rare_pos;      /* rare positions >= 1, ascending (MODE_SPARSE) */
    uint16_t *rare_val;
    size_t nrare, rare_cap;
    uint16_t *common16;      /* bit j of common16[i]: 16 i + j is common (below top) */
    uint16_t *want;
    uint64_t next_check;     /* count at which mode and mask are chosen again */
    uint64_t work_sparse;    /* since the last choice, in MODE_SPARSE: its work, */
    uint64_t work_plain;     /* ... and what MODE_PLAIN would have done instead */
    bool sparse_lost;        /* MODE_SPARSE did worse over the last stretch */
    unsigned range_seen;
} octal_solver;

static void solver_free(octal_solver *sv)
{
    free(sv->g);
    free(sv->tally);
    free(sv->hmark);
    for (unsigned i = 0; i < RING; i++)
        free(sv->table[i]);
    free(sv->rare_pos);
    free(sv->rare_val);
    free(sv->common16);
    free(sv->want);
}

/* Rebuilds range, top and the common-value bits below top; needed
 * whenever the mask or the range changes. */
static void classify_values(octal_solver *sv)
{
    unsigned r = power_of_two_above(sv->max_value > sv->mask ? sv->max_value : sv->mask);
    sv->range = r;
    sv->top = 2 * r < VALUE_SPACE ? 2 * r : VALUE_SPACE;
    for (unsigned v0 = 0; v0 < sv->top; v0 += 16) {
        unsigned bits = 0;
        for (unsigned j = 0; j < 16; j++)
            bits |= (unsigned)!is_rare(v0 + j, sv->mask) << j;
        sv->common16[v0 / 16] = (uint16_t)bits;
    }
}

static gr_status solver_init(octal_solver *sv, const gr_octal_code *code)
{
    memset(sv, 0, sizeof *sv);
    sv->code = code;
    sv->t = code->t;
    for (unsigned k = 1; k <= code->t; k++)
        if (code->digit[k] & 4)
            sv->split_k[sv->nsplit++] = k;
    sv->mode = MODE_PLAIN;
    sv->mask = 1;
    sv->next_check = FIRST_MASK_CHECK;
    sv->range_seen = 1;
    sv->tally = calloc(VALUE_SPACE, sizeof *sv->tally);
    sv->hmark = calloc(VALUE_SPACE, sizeof *sv->hmark);
    sv->common16 = malloc(VALUE_SPACE / 16 * sizeof *sv->common16);
    sv->want = malloc(VALUE_SPACE * sizeof *sv->want);
    bool ok = sv->tally && sv->hmark && sv->common16 && sv->want;
    for (unsigned i = 0; i < RING && ok && sv->nsplit > 0; i++) {
        sv->table[i] = calloc(VALUE_SPACE, sizeof *sv->table[i]);
        ok = sv->table[i] != NULL;
    }
    if (!ok)
        return GR_ENOMEM;
    classify_values(sv);
    return GR_OK;
}

static gr_status solver_reserve(octal_solver *sv)
{
    if (sv->count < sv->cap)
        return GR_OK;
    uint64_t cap = sv->cap ? 2 * sv->cap : 1024;
    if (cap > SIZE_MAX / sizeof *sv->g)
        return GR_ENOMEM;
    uint16_t *g = realloc(sv->g, (size_t)cap * sizeof *g);
    if (g == NULL)
        return GR_ENOMEM;
    sv->g = g;
    sv->cap = cap;
    return GR_OK;
}

static gr_status rare_push(octal_solver *sv, uint64_t pos)
{
    if (sv->nrare == sv->rare_cap) {
        size_t cap = sv->rare_cap ? 2 * sv->rare_cap : 256;
        uint64_t *r = realloc(sv->rare_pos, cap * sizeof *r);
        if (r != NULL)
            sv->rare_pos = r;
        uint16_t *rv = realloc(sv->rare_val, cap * sizeof *rv);
        if (rv != NULL)
            sv->rare_val = rv;
        if (r == NULL || rv == NULL)
            return GR_ENOMEM;
        sv->rare_cap = cap;
    }
    sv->rare_pos[sv->nrare] = pos;
    sv->rare_val[sv->nrare++] = sv->g[pos];
    return GR_OK;
}

/* ---- split tables ---- */

/* Marks every split of m: g(a) ^ g(m - a), 1 <= a <= m / 2. With SSE2 on
 * x86-64, eight values are formed at once and taken out as two 64-bit
 * words (measured 20% faster than eight scalar pairs). */
static void mark_all_splits(const uint16_t *g, uint64_t m, uint8_t *table, uint8_t stamp)
{
    uint64_t last = m / 2, a = 1;
    const uint16_t *hi = g + m;
#if defined(__SSE2__) && defined(__x86_64__)
    for (; a + 8 <= last + 1; a += 8) {
        __m128i x = _mm_xor_si128(load_u16x8(g + a), reverse_u16(load_u16x8(hi - a - 7)));
        uint64_t q0 = (uint64_t)_mm_cvtsi128_si64(x);
        uint64_t q1 = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x));
        table[q0 & 0xFFFF] = stamp;
        table[(q0 >> 16) & 0xFFFF] = stamp;
        table[(q0 >> 32) & 0xFFFF] = stamp;
        table[q0 >> 48] = stamp;
        table[q1 & 0xFFFF] = stamp;
        table[(q1 >> 16) & 0xFFFF] = stamp;
        table[(q1 >> 32) & 0xFFFF] = stamp;
        table[q1 >> 48] = stamp;
    }
#endif
    for (; a + 8 <= last + 1; a += 8) {
        table[g[a] ^ *(hi - a)] = stamp;
        table[g[a + 1] ^ *(hi - a - 1)] = stamp;
        table[g[a + 2] ^ *(hi - a - 2)] = stamp;
        table[g[a + 3] ^ *(hi - a - 3)] = stamp;
        table[g[a + 4] ^ *(hi - a - 4)] = stamp;
        table[g[a + 5] ^ *(hi - a - 5)] = stamp;
        table[g[a + 6] ^ *(hi - a - 6)] = stamp;
        table[g[a + 7] ^ *(hi - a - 7)] = stamp;
    }
    for (; a <= last; a++)
        table[g[a] ^ *(hi - a)] = stamp;
}

/* Marks the splits of m with a rare part r: g(r) ^ g(m - r) for every rare
 * position r < m (a split with two rare parts is marked twice). */
static void mark_rare_splits(const octal_solver *sv, uint64_t m, uint8_t *table, uint8_t stamp)
{
    const uint16_t *gm = sv->g + m;
    const uint64_t *pos = sv->rare_pos;
    const uint16_t *val = sv->rare_val;
    size_t i = 0;
    for (; i + 4 <= sv->nrare && pos[i + 3] < m; i += 4) {
        unsigned x0 = val[i] ^ *(gm - pos[i]);
        unsigned x1 = val[i + 1] ^ *(gm - pos[i + 1]);
        unsigned x2 = val[i + 2] ^ *(gm - pos[i + 2]);
        unsigned x3 = val[i + 3] ^ *(gm - pos[i + 3]);
        table[x0] = stamp;
        table[x1] = stamp;
        table[x2] = stamp;
        table[x3] = stamp;
    }
    for (; i < sv->nrare && pos[i] < m; i++)
        table[val[i] ^ *(gm - pos[i])] = stamp;
}

/* Makes the split table of m current. */
static void ensure_table(octal_solver *sv, uint64_t m)
{
    unsigned s = (unsigned)(m % RING);
    if (sv->slot_valid[s] && sv->slot_m[s] == m)
        return;
    if (sv->mode == MODE_SPARSE) {
        sv->work_sparse += sv->nrare;
        sv->work_plain += m / 2;
    }
    uint8_t stamp = fresh_stamp(&sv->next_stamp[s], sv->table[s], sv->top);
    if (sv->mode == MODE_PLAIN)
        mark_all_splits(sv->g, m, sv->table[s], stamp);
    else
        mark_rare_splits(sv, m, sv->table[s], stamp);
    sv->slot_m[s] = m;
    sv->slot_stamp[s] = stamp;
    sv->slot_valid[s] = true;
}

/* The split tables that bear on heap n: one per splitting digit k with
 * n - k >= 2 (smaller heaps cannot be split in two). */
typedef struct heap_tables {
    const uint8_t *table[GR_OCTAL_MAX_DIGITS];
    uint8_t stamp[GR_OCTAL_MAX_DIGITS];
    uint64_t m[GR_OCTAL_MAX_DIGITS];
    unsigned n;
#ifdef __SSE2__
    __m128i hstamp16, stamp16[GR_OCTAL_MAX_DIGITS]; /* the stamps in every byte */
#endif
} heap_tables;

static void gather_tables(octal_solver *sv, uint64_t n, heap_tables *ht)
{
    ht->n = 0;
    for (unsigned i = 0; i < sv->nsplit; i++) {
        unsigned k = sv->split_k[i];
        if (n < k + 2)
            continue;
        uint64_t m = n - k;
        ensure_table(sv, m);
        unsigned s = (unsigned)(m % RING);
        ht->table[ht->n] = sv->table[s];
        ht->stamp[ht->n] = sv->slot_stamp[s];
#ifdef __SSE2__
        ht->stamp16[ht->n] = _mm_set1_epi8((char)sv->slot_stamp[s]);
#endif
        ht->m[ht->n++] = m;
    }
#ifdef __SSE2__
    ht->hstamp16 = _mm_set1_epi8((char)sv->hstamp);
#endif
}

/* Bit i set: value v0 + i is known to be an option (0 <= i < 16;
 * v0 + 16 <= VALUE_SPACE). */
static unsigned option_bits16(const octal_solver *sv, const heap_tables *ht, unsigned v0)
{
#ifdef __SSE2__
    __m128i acc = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(sv->hmark + v0)),
                                 ht->hstamp16);
    for (unsigned i = 0; i < ht->n; i++)
        acc = _mm_or_si128(acc, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)
                                                                (ht->table[i] + v0)),
                                               ht->stamp16[i]));
    return (unsigned)_mm_movemask_epi8(acc);
#else
    unsigned bits = 0;
    for (unsigned j = 0; j < 16; j++) {
        bool on = sv->hmark[v0 + j] == sv->hstamp;
        for (unsigned i = 0; i < ht->n; i++)
            on = on || ht->table[i][v0 + j] == ht->stamp[i];
        bits |= (unsigned)on << j;
    }
    return bits;
#endif
}

/* Index of the lowest set bit of x != 0. */
static unsigned lowest_bit(unsigned x)
{
    unsigned i = 0;
    while (!(x & 1)) {
        x >>= 1;
        i++;
    }
    return i;
}

/* ---- the split scan of MODE_SPARSE (as in grundys.c) ---- */

/* Scans the splits a of m, 1 <= a <= m / 2, marking their values in hmark,
 * until every wanted value (want[0 .. *nwant)) has turned up; leaves in want
 * the ones that did not. Blocks of SCAN_BLOCK consecutive splits are visited
 * in rows (starts 1 + o, 1 + o + span, ...; o = 0, SCAN_BLOCK, ...), every
 * split once. */
static void scan_splits(octal_solver *sv, uint64_t m, unsigned *nwant)
{
    uint64_t last = m / 2;
    uint64_t span = scan_span(last);
    const uint16_t *g = sv->g;
    uint8_t *mark = sv->hmark, stamp = sv->hstamp;
    uint16_t *want = sv->want;
    bool few = false;
    few_values fw;
    few_values_set(&fw, want, 1);
    unsigned since = 0; /* splits marked since the wanted list was last pruned */
    for (uint64_t o = 0; o < span; o += SCAN_BLOCK) {
        for (uint64_t s = 1 + o; s <= last; s += span) {
            unsigned len = last - s + 1 < SCAN_BLOCK ? (unsigned)(last - s + 1) : SCAN_BLOCK;
            const uint16_t *lo = g + s, *hi = g + (m - s);
            if (few && len == SCAN_BLOCK && !block_hits(&fw, lo, hi)) {
                sv->work_sparse += SCAN_BLOCK / 4;
                continue;
            }
            sv->work_sparse += len;
            for (unsigned i = 0; i < len; i++)
                mark[lo[i] ^ *(hi - i)] = stamp;
            /* Drop the values found; with many wanted, only once the
             * splits marked since the last time outnumber them. */
            since += len;
            if (since < *nwant && !few)
                continue;
            since = 0;
            unsigned had = *nwant;
            *nwant = prune_wanted(want, had, mark, 1, stamp);
            if (*nwant == 0)
                return;
            if (*nwant <= FEW_WANTED && *nwant < had) {
                few_values_set(&fw, want, *nwant);
                few = true;
            }
        }
    }
    *nwant = prune_wanted(want, *nwant, mark, 1, stamp);
}

/* ---- one value ---- */

/* The budget charged for value n: one step per option (every split of
 * every splitting digit) plus n + 1 for the period bookkeeping, before the
 * value is computed. This is what the plain method did and charged; the
 * solver does less (tables shared between digits, rare/common, checkpoints)
 * but charges the same, so a budget buys exactly the values it used to. */
static uint64_t step_cost(const gr_octal_code *code, uint64_t n)
{
    uint64_t cost = code->t + n + 1;
    for (unsigned k = 1; k <= code->t; k++)
        if ((code->digit[k] & 4) && n >= k + 2)
            cost += (n - k) / 2;
    return cost;
}

/* g(n), n = count, g[0 .. n) known. */
static gr_status next_value(octal_solver *sv, uint16_t *value)
{
    uint64_t n = sv->count;
    const gr_octal_code *code = sv->code;
    fresh_stamp(&sv->hstamp, sv->hmark, sv->top);
    for (unsigned k = 1; k <= sv->t; k++) {
        unsigned d = code->digit[k];
        if ((d & 1) && n == k)
            sv->hmark[0] = sv->hstamp;
        if ((d & 2) && n > k)
            sv->hmark[sv->g[n - k]] = sv->hstamp;
    }
    heap_tables ht;
    gather_tables(sv, n, &ht);
    unsigned v = VALUE_SPACE;
    if (sv->mode == MODE_PLAIN) {
        for (unsigned v0 = 0; v0 < VALUE_SPACE; v0 += 16) {
            unsigned avail = ~option_bits16(sv, &ht, v0) & 0xFFFFu;
            if (avail != 0) {
                v = v0 + lowest_bit(avail);
                break;
            }
        }
    } else {
        /* c: least common value not an option; the rare values below c
         * that no table has are found, or not, by scanning the splits. */
        unsigned c = sv->top;
        for (unsigned v0 = 0; v0 < sv->top; v0 += 16) {
            unsigned avail = ~option_bits16(sv, &ht, v0) & sv->common16[v0 / 16];
            if (avail != 0) {
                c = v0 + lowest_bit(avail);
                break;
            }
        }
        unsigned nwant = 0;
        for (unsigned v0 = 0; v0 < c; v0 += 16) {
            unsigned avail = ~option_bits16(sv, &ht, v0) & ~sv->common16[v0 / 16] & 0xFFFFu;
            for (; avail != 0; avail &= avail - 1) {
                unsigned w = v0 + lowest_bit(avail);
                if (w < c)
                    sv->want[nwant++] = (uint16_t)w;
            }
        }
        for (unsigned i = 0; i < ht.n && nwant > 0; i++)
            scan_splits(sv, ht.m[i], &nwant);
        v = c;
        for (unsigned k = 0; k < nwant; k++)
            if (sv->want[k] < v)
                v = sv->want[k];
    }
    if (v >= VALUE_LIMIT)
        return GR_ERANGE;
    *value = (uint16_t)v;
    return GR_OK;
}

/* ---- mode and mask ---- */

/* Smallest power of two above every value seen. */
static unsigned value_range(const octal_solver *sv)
{
    return power_of_two_above(sv->max_value);
}

/* Chooses between the plain mex and rare/common (with the best mask) when
 * the count doubles or the value range grows. Values are the same either
 * way; only the speed differs. */
static gr_status choose_mode(octal_solver *sv)
{
    if (!rare_mask_due(sv->count, FIRST_MASK_CHECK, value_range(sv), &sv->next_check,
                       &sv->range_seen) ||
        sv->nsplit == 0)
        return GR_OK;
    /* The mask m != 0 with the fewest rare positions so far, and how many
     * (Walsh-Hadamard transform of the tally: rare_mask.c). */
    unsigned mask;
    uint64_t rare;
    gr_status st = gr_rare_mask_best(sv->tally, value_range(sv), &mask, &rare);
    if (st != GR_OK)
        return st;
    /* Rare/common pays when rare positions are few and the scans short;
     * when a stretch in it cost more than 3/4 of what the plain way would
     * have, the next stretch (twice as long) goes the plain way, and the
     * one after tries again. */
    bool lost = sv->mode == MODE_SPARSE && 4 * sv->work_sparse > 3 * sv->work_plain;
    bool retry = !sv->sparse_lost;
    sv->sparse_lost = lost;
    sv->work_sparse = sv->work_plain = 0;
    value_mode mode = sv->count >= SPARSE_MIN_COUNT && !lost && retry &&
                              64 * rare <= SPARSE_MAX_RARE_PER_64 * sv->count
                          ? MODE_SPARSE : MODE_PLAIN;
    if (mode == sv->mode && (mode == MODE_PLAIN || mask == sv->mask))
        return GR_OK;
    sv->mode = mode;
    sv->mask = mask;
    classify_values(sv);
    for (unsigned i = 0; i < RING; i++)
        sv->slot_valid[i] = false;
    sv->nrare = 0;
    for (uint64_t pos = 1; mode == MODE_SPARSE && pos < sv->count && st == GR_OK; pos++)
        if (is_rare(sv->g[pos], mask))
            st = rare_push(sv, pos);
    return st;
}

static gr_status append_value(octal_solver *sv, uint16_t v)
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
    if (sv->mode == MODE_SPARSE && n >= 1 && is_rare(v, sv->mask))
        return rare_push(sv, n);
    return GR_OK;
}

/* ---- periods ---- */

/* The certificate, checked for count = N values: the least p with 3p <= N
 * whose least preperiod s within the known values (1 + the last i with
 * g(i) != g(i + p), i + p < N; 0 when none) satisfies
 * N - p >= max(2s + 2p + t - 1, p + t + 1). That p is the least period of
 * the whole sequence (any certified p is a true period, every period is a
 * multiple of the least one, and the least one is certified whenever a
 * multiple is), and s its least preperiod.
 *
 * For each p the pairs are compared from the top down, so most p fail after
 * a comparison or two, and the scan stops at the least s that would pass.
 * A p whose pairs agree over a long stretch [L, N - p) is remembered: the
 * multiples of p then agree over [L, N - multiple) without comparing. */
static bool find_period(const uint16_t *g, uint64_t N, unsigned t, uint64_t *pre,
                        uint64_t *period)
{
    uint64_t run_p[RUNS], run_lo[RUNS];
    unsigned nruns = 0;
    for (uint64_t p = 1; 3 * p <= N && 2 * p + t + 1 <= N && 3 * p + t <= N + 1; p++) {
        uint64_t smax = (N + 1 - 3 * p - t) / 2; /* largest s that passes */
        uint64_t lo = N - p;                     /* pairs i >= lo agree */
        for (unsigned r = 0; r < nruns; r++)
            if (p % run_p[r] == 0 && run_lo[r] < lo)
                lo = run_lo[r];
        while (lo > smax && g[lo - 1] == g[lo - 1 + p])
            lo--;
        if (lo <= smax) {
            while (lo > 0 && g[lo - 1] == g[lo - 1 + p])
                lo--;
            *pre = lo;
            *period = p;
            return true;
        }
        if (N - p - lo >= RUN_MIN) {
            unsigned r = nruns;
            if (nruns < RUNS) {
                nruns++;
            } else { /* full: replace the one reaching least far down, if worse */
                r = 0;
                for (unsigned q = 1; q < RUNS; q++)
                    if (run_lo[q] > run_lo[r])
                        r = q;
                if (run_lo[r] <= lo)
                    continue;
            }
            run_p[r] = p;
            run_lo[r] = lo;
        }
    }
    return false;
}

/* Checks the certificate at the current count; on success trims the count
 * to where the certificate first held: with least period p and least
 * preperiod s, N0 = max(2s + 3p + t - 1, 2p + t + 1) (both p and s are
 * properties of the whole sequence, so the certificate holds at N0 and at
 * no smaller count). */
static bool certify(octal_solver *sv, uint64_t *pre, uint64_t *period)
{
    if (!find_period(sv->g, sv->count, sv->t, pre, period))
        return false;
    uint64_t a = 2 * *pre + 3 * *period + sv->t - 1, b = 2 * *period + sv->t + 1;
    uint64_t first = a > b ? a : b;
    if (first < sv->count)
        sv->count = first;
    return true;
}

static uint16_t max_of(const uint16_t *v, uint64_t count)
{
    uint16_t mx = 0;
    for (uint64_t i = 0; i < count; i++)
        if (v[i] > mx)
            mx = v[i];
    return mx;
}

static void solver_emit(octal_solver *sv, gr_seq *out)
{
    uint16_t *v = sv->g;
    if (sv->count > 0) {
        uint16_t *shrunk = realloc(v, (size_t)sv->count * sizeof *v);
        if (shrunk != NULL)
            v = shrunk;
    }
    sv->g = NULL;
    out->values = v;
    out->owned = v;
    out->count = sv->count;
    out->max_value = max_of(v, sv->count);
}

/* Computes one more value, paying first what the plain method would have
 * cost (step_cost). */
static gr_status solver_step(octal_solver *sv, gr_budget *b)
{
    if (!gr_budget_spend(b, step_cost(sv->code, sv->count)))
        return GR_ELIMIT;
    gr_status st = solver_reserve(sv);
    uint16_t v = 0;
    if (st == GR_OK)
        st = next_value(sv, &v);
    if (st == GR_OK)
        st = append_value(sv, v);
    if (st == GR_OK)
        st = choose_mode(sv);
    return st;
}

gr_status gr_octal_solve(const gr_octal_code *code, uint64_t need, uint64_t max_values,
                         gr_budget *b, gr_seq *out)
{
    memset(out, 0, sizeof *out);
    if (!code_valid(code))
        return GR_EINVAL;
    octal_solver sv;
    gr_status st = solver_init(&sv, code);
    uint64_t budget_at_start = b->left;
    bool periodic = false;
    uint64_t pre = 0, period = 0;
    uint64_t next_certify = 1, certified_at = 0;
    while (st == GR_OK && !periodic && sv.count < max_values) {
        st = solver_step(&sv, b);
        if (st == GR_OK && (sv.count >= next_certify || sv.count == max_values)) {
            /* Checkpoints every count / 16 values: the certificate first
             * holds at N0 (see certify), found here at most N0 / 16 values
             * later, and the count is trimmed back to N0. */
            next_certify = sv.count + (sv.count / 16 > 0 ? sv.count / 16 : 1);
            certified_at = sv.count;
            periodic = certify(&sv, &pre, &period);
        }
    }
    /* Stopped between checkpoints (budget, or memory for values past the
     * certificate): the certificate may already hold. */
    if ((st == GR_ELIMIT || st == GR_ENOMEM) && sv.count > certified_at)
        periodic = certify(&sv, &pre, &period);
    if (periodic) {
        /* Charged as if values had stopped where the certificate first
         * held: the values computed past it, up to the checkpoint, are not
         * charged, and a budget that ran out there has not. */
        uint64_t spent = 0;
        for (uint64_t n = 0; n < sv.count; n++)
            spent += step_cost(code, n);
        b->left = budget_at_start - spent;
        st = GR_OK;
        out->periodic = true;
        out->preperiod = pre;
        out->period = period;
    } else if (st == GR_OK || st == GR_ELIMIT) {
        if (need < sv.count)
            st = GR_OK;
        else if (st == GR_OK)
            st = GR_EBOUND; /* max_values reached */
    }
    if (st == GR_OK)
        solver_emit(&sv, out);
    solver_free(&sv);
    return st;
}

/* ---- moves ---- */

/* Splits of `rest` tokens into a + (rest - a), 1 <= a <= rest / 2, searched
 * for a value target. When the sequence is periodic (s, p), the pair of
 * values for a >= s depends only on a mod p as long as both parts are >= s;
 * any a >= s + p can be lowered by multiples of p into [s, s + p) (raising
 * the other part, which stays >= a >= s), so scanning a < s + p suffices. */
static gr_status find_split(const gr_seq *s, uint64_t rest, uint16_t target, uint64_t *part)
{
    uint64_t last = rest / 2;
    if (s->periodic && s->preperiod + s->period - 1 < last)
        last = s->preperiod + s->period - 1;
    for (uint64_t a = 1; a <= last; a++) {
        uint16_t ga, gb;
        gr_status st = gr_seq_value(s, a, &ga);
        if (st == GR_OK)
            st = gr_seq_value(s, rest - a, &gb);
        if (st != GR_OK)
            return st;
        if ((ga ^ gb) == target) {
            *part = a;
            return GR_OK;
        }
    }
    return GR_EINVAL;
}

static void set_move(gr_heap_move *move, uint64_t take, uint8_t nparts, uint64_t p0, uint64_t p1)
{
    move->take = take;
    move->nparts = nparts;
    move->part[0] = p0;
    move->part[1] = p1;
}

/* Tries every move that removes k tokens; GR_EINVAL when none reaches target. */
static gr_status move_removing(const gr_octal_code *code, const gr_seq *s, uint64_t n,
                               unsigned k, uint16_t target, gr_heap_move *move)
{
    unsigned d = code->digit[k];
    if ((d & 1) && n == k && target == 0) {
        set_move(move, k, 0, 0, 0);
        return GR_OK;
    }
    if ((d & 2) && n > k) {
        uint16_t g;
        gr_status st = gr_seq_value(s, n - k, &g);
        if (st != GR_OK)
            return st;
        if (g == target) {
            set_move(move, k, 1, n - k, 0);
            return GR_OK;
        }
    }
    if ((d & 4) && n >= k + 2) {
        uint64_t a = 0;
        gr_status st = find_split(s, n - k, target, &a);
        if (st == GR_OK)
            set_move(move, k, 2, a, n - k - a);
        return st;
    }
    return GR_EINVAL;
}

gr_status gr_octal_move(const gr_octal_code *code, const gr_seq *s, uint64_t n,
                        uint16_t target, gr_heap_move *move)
{
    if (!code_valid(code) || s == NULL || move == NULL)
        return GR_EINVAL;
    if (n >= s->count && !s->periodic)
        return GR_EBOUND;
    for (unsigned k = 1; k <= code->t; k++) {
        gr_status st = move_removing(code, s, n, k, target, move);
        if (st != GR_EINVAL)
            return st;
    }
    return GR_EINVAL;
}
