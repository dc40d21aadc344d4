/* SPDX-License-Identifier: MIT */
/* Private to the engine: pieces of the split scan shared by the
 * rare/common solvers of Grundy's game (grundys.c) and octal games
 * (octal_values.c). A scan visits blocks of SCAN_BLOCK consecutive splits
 * (a, m - a) whose starts lie SCAN_SPAN apart, marking their values in a
 * stamped byte table; once at most FEW_WANTED values are still wanted it
 * only compares a block's values with them (SSE2 when available). */
#ifndef GRUNDY_ENGINE_SPLIT_SCAN_H
#define GRUNDY_ENGINE_SPLIT_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define SCAN_BLOCK 16u  /* consecutive splits visited together */
#define SCAN_SPAN 4176u /* distance between the starts of blocks visited in a row */
#define FEW_WANTED 4u   /* this many wanted values or fewer: compare, do not mark */

/* The distance between the starts of blocks visited in a row when the
 * splits are 1 .. last: SCAN_SPAN, or less (a multiple of SCAN_BLOCK) when
 * there are fewer splits than that. */
static inline uint64_t scan_span(uint64_t last)
{
    uint64_t span = SCAN_SPAN;
    if (last < span)
        span = (last + SCAN_BLOCK - 1) / SCAN_BLOCK * SCAN_BLOCK;
    return span;
}

/* A fresh stamp for a byte table of which [0, size) may have been written:
 * the table is cleared when the stamp wraps. */
static inline uint8_t fresh_stamp(uint8_t *stamp, uint8_t *table, size_t size)
{
    if (++*stamp == 0) {
        memset(table, 0, size);
        *stamp = 1;
    }
    return *stamp;
}

/* Drops from want[0 .. n) the values v marked (mark[v * stride] == stamp),
 * keeping the order of the others; returns how many are left. */
static inline unsigned prune_wanted(uint16_t *want, unsigned n, const uint8_t *mark,
                                    size_t stride, uint8_t stamp)
{
    unsigned kept = 0;
    for (unsigned k = 0; k < n; k++) {
        uint16_t w = want[k];
        want[kept] = w;
        kept += mark[(size_t)w * stride] != stamp;
    }
    return kept;
}

/* The values still wanted, when there are at most FEW_WANTED of them, set
 * up for block_hits: with SSE2, each broadcast to every lane of a vector. */
#ifdef __SSE2__
typedef struct few_values {
    __m128i v[FEW_WANTED];
} few_values;

/* want[0 .. m), 1 <= m <= FEW_WANTED (the missing ones repeat want[0]). */
static inline void few_values_set(few_values *fw, const uint16_t *want, unsigned m)
{
    for (unsigned j = 0; j < FEW_WANTED; j++)
        fw->v[j] = _mm_set1_epi16((short)want[j < m ? j : 0]);
}

/* The eight 16-bit lanes of v in reverse order. */
static inline __m128i reverse_u16(__m128i v)
{
    v = _mm_shuffle_epi32(v, _MM_SHUFFLE(0, 1, 2, 3));
    v = _mm_shufflelo_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
    return _mm_shufflehi_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
}

static inline __m128i load_u16x8(const uint16_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* Whether a full block of splits (s + i, m - s - i), lo = g + s and
 * hi = g + m - s, yields a wanted value. */
static inline bool block_hits(const few_values *fw, const uint16_t *lo, const uint16_t *hi)
{
    __m128i x0 = _mm_xor_si128(load_u16x8(lo), reverse_u16(load_u16x8(hi - 7)));
    __m128i x1 = _mm_xor_si128(load_u16x8(lo + 8), reverse_u16(load_u16x8(hi - 15)));
    __m128i hit = _mm_setzero_si128();
    for (unsigned j = 0; j < FEW_WANTED; j++)
        hit = _mm_or_si128(hit, _mm_or_si128(_mm_cmpeq_epi16(x0, fw->v[j]),
                                             _mm_cmpeq_epi16(x1, fw->v[j])));
    return _mm_movemask_epi8(hit) != 0;
}
#else
typedef struct few_values {
    uint16_t v[FEW_WANTED];
} few_values;

static inline void few_values_set(few_values *fw, const uint16_t *want, unsigned m)
{
    for (unsigned j = 0; j < FEW_WANTED; j++)
        fw->v[j] = want[j < m ? j : 0];
}

static inline bool block_hits(const few_values *fw, const uint16_t *lo, const uint16_t *hi)
{
    unsigned hit = 0;
    for (unsigned i = 0; i < SCAN_BLOCK; i++) {
        unsigned x = lo[i] ^ *(hi - i);
        for (unsigned j = 0; j < FEW_WANTED; j++)
            hit |= x == fw->v[j];
    }
    return hit != 0;
}
#endif

#endif
