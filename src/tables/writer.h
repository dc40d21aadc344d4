/* SPDX-License-Identifier: MIT */
/* Building a table file: sections are added in any order, then written in
 * one go to a temporary file that is renamed over the target, so a daemon
 * that has the old file mapped never sees a half-written one. */
#ifndef GRUNDY_TABLES_WRITER_H
#define GRUNDY_TABLES_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "grundy/seq.h"
#include "tables/format.h"

typedef struct gr_tf_writer gr_tf_writer;

gr_tf_writer *gr_tf_writer_new(void);
void gr_tf_writer_free(gr_tf_writer *w);

/* Each add copies what it is given; returns 0, or -1 when out of memory, the
 * name is too long or repeated, or there are too many sections. */
int gr_tf_add_sequence(gr_tf_writer *w, const char *name, const gr_seq *s);

/* `members[i].first` indexes `values`; keys must be strictly increasing. */
int gr_tf_add_family(gr_tf_writer *w, const char *name, const gr_tf_member *members, size_t n,
                     const uint16_t *values, size_t nvalues);

int gr_tf_add_grid(gr_tf_writer *w, const char *name, uint64_t rows, uint64_t cols,
                   const uint16_t *values);

/* bits[0 .. ceil(nbits / 64)): bit n % 64 of word n / 64; bits past nbits
 * must be 0. */
int gr_tf_add_bitset(gr_tf_writer *w, const char *name, const uint64_t *bits, uint64_t nbits);

/* A misere quotient (format.h, GR_TF_MISERE). */
struct gr_mq;
int gr_tf_add_misere(gr_tf_writer *w, const char *name, const struct gr_mq *q);

/* Lays out, checksums and writes the file atomically. On failure returns -1
 * with a sentence in why[0 .. n). */
int gr_tf_write(gr_tf_writer *w, const char *path, char *why, size_t n);

#endif
