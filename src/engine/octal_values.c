/* SPDX-License-Identifier: MIT */
/* Octal games: the value of one more heap, g(n) for n = count, as the mex
 * of its options (octal.h).
 *
 * Options of heap n: g(n - k) for digits with bit 2, 0 when n = k for
 * digits with bit 1, and g(a) ^ g(m - a) with m = n - k, 1 <= a <= m / 2,
 * for digits with bit 4 (d0 = 4 included: m = n). The splits of m are the same for every splitting
 * digit (heap n uses those of n - k), so the solver keeps a table of the
 * split values of each of the last RING heap sizes m and builds it once: a
 * code with three splitting digits costs what one with a single one does.
 *
 * The tables are filled one of two ways, as octal_solve.c chooses (both
 * give the same values):
 * - plain: every split of m, about m / 2 stores a table;
 * - rare/common, as for Grundy's game (grundys.c): the table holds only
 *   the splits with a rare part, which settle every common option; c is
 *   the least common value not an option, and the rare values below c that
 *   no table has are looked for by scanning the splits of the heap,
 *   stopping as soon as all have turned up. */
#include "octal_solver.h"

#include "split_scan.h"

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

/* The split tables that bear on heap n: one per splitting digit k >= 0 with
 * n - k >= 2 (smaller heaps cannot be split in two); RING holds them all. */
typedef struct heap_tables {
    const uint8_t *table[RING];
    uint8_t stamp[RING];
    uint64_t m[RING];
    unsigned n;
#ifdef __SSE2__
    __m128i hstamp16, stamp16[RING]; /* the stamps in every byte */
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
 * first for a in 1 .. span, in order, then in rows (starts 1 + o + span,
 * 1 + o + 2 span, ...; o = 0, SCAN_BLOCK, ...), every split once. The first
 * stretch reads the smallest heaps and the ones just computed, which are in
 * cache: scanning it first took 0.376 (4.5 million values, long scans) from
 * 30 to 9 s of CPU, and left the 3-digit family's time as it was. */
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
    for (uint64_t pass = 0; pass < 2; pass++) {
        /* pass 0: the first block of each row, a = 1 .. span in order;
         * pass 1: the rows' other blocks */
        uint64_t step = pass == 0 ? last + 1 : span;
        for (uint64_t o = 0; o < span; o += SCAN_BLOCK) {
            for (uint64_t s = 1 + o + pass * span; s <= last; s += step) {
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
    }
    *nwant = prune_wanted(want, *nwant, mark, 1, stamp);
}

/* ---- one value ---- */

/* g(n), n = count, g[0 .. n) known. */
gr_status octal_next_value(octal_solver *sv, uint16_t *value)
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
