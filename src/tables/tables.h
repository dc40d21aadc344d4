/* SPDX-License-Identifier: MIT */
/* A mapped table file: opened once, validated completely, then read-only.
 * Lookups never read outside a section: every index is checked against the
 * facts that validation proved consistent with the section's length. */
#ifndef GRUNDY_TABLES_H
#define GRUNDY_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grundy/misere_quotient.h"
#include "grundy/seq.h"

/* Section names: the one place they are spelled. */
#define GR_TN_GRUNDYS "grundys_game"
#define GR_TN_DIVISOR "divisor"
#define GR_TN_WYTHOFF "wythoff"
#define GR_TN_OCTAL_FAMILY "octal:3-digit"
#define GR_TN_OCTAL_PREFIX "octal:"
#define GR_TN_SUBTRACTION_FAMILY "subtraction:1-12"
#define GR_TN_SUBTRACTION_MAX 12u /* largest move of the sets in the family */
#define GR_TN_MISERE_PREFIX "misere:octal:" /* + the canonical code: a misere quotient */
#define GR_TN_RULE_PREFIX "subtraction:"      /* + rule name + ":grundy" or ":outcome" */

typedef struct gr_tables gr_tables;

typedef struct gr_table_info {
    const char *name;
    const char *kind;      /* "sequence", "family" or "grid" */
    uint64_t count;        /* values (sequence, grid) or members (family) */
    bool periodic;
    uint64_t preperiod, period;
    uint64_t max_value;
    uint64_t checksum;
    uint64_t bytes;
    uint64_t param;        /* family: values stored; grid: rows */
} gr_table_info;

/* Maps `path` PROT_READ/MAP_SHARED, pre-faults it and validates every header
 * field, bound and checksum. On failure returns -1 and writes a sentence
 * naming the fault to why[0 .. whylen). */
int gr_tables_open(const char *path, gr_tables **out, char *why, size_t whylen);

void gr_tables_close(gr_tables *t);

const char *gr_tables_path(const gr_tables *t);
uint64_t gr_tables_bytes(const gr_tables *t);
size_t gr_tables_count(const gr_tables *t);
void gr_tables_info(const gr_tables *t, size_t i, gr_table_info *info);

/* A SEQUENCE section as a borrowed gr_seq (owned == NULL). */
bool gr_tables_sequence(const gr_tables *t, const char *name, gr_seq *view);

/* Member `key` of a FAMILY section as a borrowed gr_seq. */
bool gr_tables_member(const gr_tables *t, const char *family, uint64_t key, gr_seq *view);

/* Bit n of a BITSET section; false when there is none or n is past it. */
bool gr_tables_bit(const gr_tables *t, const char *name, uint64_t n, bool *bit);

/* Number of bits in a BITSET section (0 when there is none). */
uint64_t gr_tables_bits(const gr_tables *t, const char *name);

/* A MISERE section as a borrowed quotient (never gr_mq_free it); its rules
 * are left zero for the caller to fill. */
bool gr_tables_misere(const gr_tables *t, const char *name, gr_mq *view);

/* Value at (r, c) of a GRID section; false when outside it. */
bool gr_tables_grid(const gr_tables *t, const char *name, uint64_t r, uint64_t c, uint16_t *v);

#endif
