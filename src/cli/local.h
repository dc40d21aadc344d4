/* SPDX-License-Identifier: MIT */
/* The in-process side of `grundy query`, `moves` and `batch`: the service
 * over the table file, and the input plumbing both sides share. */
#ifndef GRUNDY_CLI_LOCAL_H
#define GRUNDY_CLI_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "batch.h"
#include "query.h"

typedef struct gr_local {
    gr_service svc;
    struct gr_tables *tables;
} gr_local;

/* The service over `tables_path`, or the default table file when NULL and
 * one exists (else values are computed on demand). 0, or -1 after a line on
 * stderr. */
int gr_local_open(gr_local *l, const char *tables_path);
void gr_local_close(gr_local *l);

/* What one line of input comes to: 0 answered, 1 answered with an error,
 * or a negative number to stop reading (the loop then returns its
 * negation as the exit status). */
typedef int gr_line_fn(void *ctx, gr_line_kind kind, const char *line, size_t len);

/* Reads `in` in chunks and calls fn for each line as soon as it is complete
 * (lines longer than max_line come as GR_LINE_TOO_LONG), flushing `out`
 * before each read, since the writer of a pipe may wait for the answers.
 * Memory stays bounded by the chunk and max_line. Returns the exit status:
 * 0, 1 when some line failed or `in` could not be read to its end, or the
 * code of a stop. */
int gr_cli_lines(FILE *in, FILE *out, size_t max_line, gr_line_fn *fn, void *ctx);

/* All of `in` in one malloc'd buffer; NULL after a line on stderr. */
char *gr_cli_read_all(FILE *in, size_t *len);

/* `query`: one query, or each non-blank line of `in` (NDJSON); the answers
 * in words when human. Returns the exit status. */
int gr_local_query(const gr_local *l, const char *query, bool human);
int gr_local_query_lines(const gr_local *l, FILE *in, bool human);

/* `moves`: the legal moves, as POST /v1/moves. */
int gr_local_moves(const gr_local *l, const char *query);

/* `games`: each game's name and summary, one game per line, or the
 * catalogue as GET /v1/games answers it (json). Needs no table file. */
int gr_local_games(bool json);

/* `batch`: NDJSON lines held to limits.max_line, or one JSON batch. */
int gr_local_batch(const gr_local *l, FILE *in, bool json);

#endif
