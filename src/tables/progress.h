/* SPDX-License-Identifier: MIT */
/* Progress of a table build, for people watching it.
 *
 * The build runs two tracks at once: Grundy's game on its own thread, and
 * the other parts one after another on the calling thread. Each track
 * reports how far it is (items done of a known total); a reporter thread
 * turns that into one status line:
 *
 *   tables  42% | octal games 215/511 5.8/s | Grundy 61% 120k/s | 37 s, ETA 51 s
 *
 * ETA is the longer of the tracks' times left, each from its own rate so
 * far; the percent is the time so far over the time so far plus the ETA,
 * never shown going backwards. The parts of the other track are weighted
 * by their share of a default build's time, so its rate is an estimate.
 *
 * Live (a terminal): the status line is redrawn in place five times a
 * second, and a line per finished part ("tables: NAME   12.34 s") is
 * printed above it. Lines: the same part lines, and a status line once a
 * second and at the end, each on its own line (logs, tests). */
#ifndef GRUNDY_TABLES_PROGRESS_H
#define GRUNDY_TABLES_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct gr_progress gr_progress;

/* Starts the reporter on `to`; NULL (and every call below a no-op) when to
 * is NULL or memory or threads run out. grundys_total: the values of
 * Grundy's game to compute. */
gr_progress *gr_progress_start(FILE *to, bool live, uint64_t grundys_total);

/* The other track begins a part of `total` items, `name` in the status
 * line; its share of that track's work is `weight` (the shares sum to 1). */
void gr_progress_part(gr_progress *p, const char *name, uint64_t total, double weight);

/* Items of the current part done so far. */
void gr_progress_step(gr_progress *p, uint64_t done);

/* Values of Grundy's game computed so far (a gr_count_fn; ctx is the
 * gr_progress, and may be NULL). Safe from another thread. */
void gr_progress_grundys(void *ctx, uint64_t done);

/* "tables: WHAT   SECONDS s" for a finished part, SECONDS since the start. */
void gr_progress_line(gr_progress *p, const char *what);

/* Stops the reporter and frees p; the final status line ("100% | done in
 * N s") when built, else only the end of the live line. */
void gr_progress_stop(gr_progress *p, bool built);

#endif
