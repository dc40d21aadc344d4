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
/* The file's base name, and the checksum of its header (which covers every
 * section's checksum): what /v1/tables shows instead of the path. */
const char *gr_tables_file_name(const gr_tables *t);
uint64_t gr_tables_checksum(const gr_tables *t);
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

/* A file changed under the daemon. It is replaced by rename, never edited
 * in place; should it be, the mapping's pages change with it. Validation
 * copied the directory, so only section data is read from the mapping; a
 * section whose bytes no longer match its checksum (gr_tables_verify), or
 * that faulted because the file shrank (SIGBUS; tables/guard.h), is off:
 * lookups behave as if it were not in the file, and the games compute
 * without it. */

/* Re-checksums every section still on; turns off those that changed,
 * calling changed(ctx, name) for each; returns how many. Reading a page of
 * a shrunk file faults, and turns its sections off too. */
size_t gr_tables_verify(gr_tables *t, void (*changed)(void *ctx, const char *name), void *ctx);

/* Whether section i (gr_tables_info's order) is off; how many are. */
bool gr_tables_section_off(const gr_tables *t, size_t i);
size_t gr_tables_off_count(const gr_tables *t);

/* Faults taken in the mapping so far. A query that read the tables while
 * this grew may have read zeros in place of values: the daemon answers it
 * 503 instead. */
unsigned long gr_tables_faults(const gr_tables *t);

/* For the SIGBUS handler (tables/guard.c). */
bool gr_tables_contains(const gr_tables *t, const void *addr);
void gr_tables_fault(gr_tables *t, const void *addr);

#endif
