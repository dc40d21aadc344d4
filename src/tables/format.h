/* SPDX-License-Identifier: MIT */
/* The table file: precomputed Grundy values and certified periods, mapped
 * read-only and shared by every daemon on a host.
 *
 * Layout (all integers little-endian, every section 64-byte aligned):
 *
 *   header     64 bytes   gr_tf_header
 *   directory  section_count * 128 bytes, gr_tf_entry each, sorted by name
 *   data       the sections, each at a multiple of 64
 *
 * Every byte is covered by a checksum: the header by header_checksum, the
 * directory by directory_checksum, each section by its entry's checksum.
 * A reader trusts nothing before all of them, and every bound, agree. */
#ifndef GRUNDY_TABLES_FORMAT_H
#define GRUNDY_TABLES_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define GR_TF_MAGIC "GRUNDYTB"           /* 8 bytes, no NUL */
#define GR_TF_VERSION 1u
#define GR_TF_BYTE_ORDER 0x01020304u     /* reads back as 0x04030201 on the wrong byte order */
#define GR_TF_ALIGN 64u
#define GR_TF_MAX_SECTIONS 4096u
#define GR_TF_NAME_LEN 48u

/* Section kinds. */
enum {
    GR_TF_SEQUENCE = 1, /* one heap game: uint16 values g(0 .. count) */
    GR_TF_FAMILY = 2,   /* many heap games: gr_tf_member index, then uint16 values */
    GR_TF_GRID = 3,     /* uint16 values of a two-pile game, rows x cols, row-major */
    GR_TF_BITSET = 4,   /* one bit per n < count in uint64 words, bit n % 64 of word n / 64 */
    GR_TF_MISERE = 5,   /* a misere quotient: gr_tf_misere, uint16 mul[count * count],
                         * uint8 in_p[count] (zero-padded to a multiple of 8), uint16 phi[param + 1] */
};

/* The head of a MISERE section (grundy/misere_quotient.h); the entry's facts
 * repeat it: count = order, param = bound, preperiod and period (flags
 * GR_TF_PERIODIC), max_value = p_size. */
typedef struct gr_tf_misere {
    uint32_t order, p_size;
    uint64_t bound, preperiod, period, last_growth;
    uint32_t generators, periodic;
    uint64_t reserved[2];
} gr_tf_misere;
_Static_assert(sizeof(gr_tf_misere) == 64, "a misere head is 64 bytes");

/* Entry flags. */
enum { GR_TF_PERIODIC = 1u };

typedef struct gr_tf_header {
    char magic[8];
    uint32_t version;
    uint32_t byte_order;
    uint32_t section_count;
    uint32_t header_size;        /* 64 */
    uint64_t file_size;
    uint64_t directory_offset;   /* 64 */
    uint64_t directory_checksum;
    uint64_t reserved;
    uint64_t header_checksum;    /* of the 56 bytes before it */
} gr_tf_header;

typedef struct gr_tf_entry {
    char name[GR_TF_NAME_LEN];   /* NUL-terminated, NUL-padded; e.g. "octal:0.77" */
    uint32_t kind;
    uint32_t flags;
    uint64_t offset;             /* from the start of the file; multiple of 64 */
    uint64_t length;             /* bytes */
    uint64_t checksum;           /* of the section's bytes */
    /* facts: SEQUENCE: count values, period facts, largest value.
     * FAMILY: count = members; param = values stored in total.
     * GRID: count = rows * cols; param = rows (cols = count / rows).
     * BITSET: count = bits; param = bits set; bits past count are 0. */
    uint64_t count;
    uint64_t preperiod;
    uint64_t period;
    uint64_t max_value;
    uint64_t param;
    uint64_t reserved;           /* 0 */
} gr_tf_entry;

/* One member of a FAMILY section. `first` indexes the section's value array. */
typedef struct gr_tf_member {
    uint64_t key;       /* octal: digits as an octal number (0.137 -> 0137); subtraction: bit s-1 for s in S */
    uint64_t first;
    uint64_t count;
    uint64_t preperiod;
    uint64_t period;
    uint32_t flags;
    uint16_t max_value;
    uint16_t reserved16;
    uint64_t reserved[2];
} gr_tf_member;

_Static_assert(sizeof(gr_tf_header) == 64, "header is 64 bytes");
_Static_assert(sizeof(gr_tf_entry) == 128, "directory entries are 128 bytes");
_Static_assert(sizeof(gr_tf_member) == 64, "family members are 64 bytes");

/* A 64-bit checksum: a multiply-xorshift chain over 8-byte little-endian
 * words (a short tail is zero-padded), seeded with the length. Any single
 * flipped byte changes it. */
uint64_t gr_tf_checksum(const void *data, size_t len);

#endif
