/* SPDX-License-Identifier: MIT */
/* One line per event on stderr, as key=value pairs after a UTC timestamp and
 * level, so logs stay greppable and machine-readable.
 *
 * While the writer runs (gr_log_start .. gr_log_stop), a line costs the
 * calling thread a copy into its own buffer: one thread, the writer, empties
 * every buffer to stderr in batches (when a buffer is half full, else a few
 * milliseconds after its first line). A thread never waits for stderr: when
 * its buffer is full because the writer is behind (a slow or stalled pipe),
 * the line is dropped and counted (gr_log_dropped). Before gr_log_start and
 * after gr_log_stop, lines go straight to stderr. */
#ifndef GRUNDY_SERVER_LOG_H
#define GRUNDY_SERVER_LOG_H

#include <stddef.h>

void gr_log(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Starts the writer; 0, or -1 when its thread cannot start (lines then go
 * straight to stderr). Also registers gr_log_stop with atexit. */
int gr_log_start(void);

/* Waits until every line logged before the call is written, or about two
 * seconds have passed (a stalled stderr). */
void gr_log_flush(void);

/* Writes what is buffered (giving up, and counting the lines as dropped,
 * once stderr has taken nothing for about a second) and stops the writer. */
void gr_log_stop(void);

/* Lines dropped since the start because stderr did not keep up. */
unsigned long long gr_log_dropped(void);

/* The current UTC time as "YYYY-MM-DDTHH:MM:SS.mmmZ" (24 characters, no
 * terminator); the date part is formatted once per second per thread. */
enum { GR_LOG_STAMP_LEN = 24 };
void gr_log_stamp(char out[GR_LOG_STAMP_LEN]);

/* Queues one finished line (ending in '\n', at most GR_LOG_LINE_MAX bytes). */
enum { GR_LOG_LINE_MAX = 2048 };
void gr_log_line(const char *line, size_t n);

#endif
