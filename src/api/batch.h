/* SPDX-License-Identifier: MIT */
/* Many queries in one request: POST /v1/batch and `grundy batch`.
 *
 * JSON form: {"queries": [q1, q2, ...]} in, {"results": [r1, r2, ...]} out,
 * in order, where each r is byte for byte the body /v1/analyze answers for q
 * alone: the answer object, or {"error": {...}}. One bad query never fails
 * the others.
 *
 * NDJSON form: one query per line in, one answer per line out (the same
 * objects, each on one line), so line i of the output answers line i of the
 * input: an empty line is answered with an error too. gr_line_reader splits
 * a stream fed in arbitrary chunks into lines with bounded memory.
 *
 * Ids: a query of a batch (a JSON batch entry or an NDJSON line) may hold
 * "id", a string of at most GR_BATCH_ID_MAX_CHARS characters or an integer
 * in the signed 64-bit range (null is no id). Its answer, or its error,
 * then starts with the member "id" holding the same value (an integer as its
 * very digits), so answers can be matched to queries whatever their order.
 * An "id" that is none of these is the query's 422 naming "id", without an
 * id; outside a batch "id" is refused (validate.h).
 *
 * The batch budget: a run of queries (one JSON batch, or the lines of one
 * NDJSON request) has limits.batch_budget steps and limits.batch_cpu_ms of
 * CPU time in all, shared in order: each query gets at most the per-query
 * limits (limits.budget, limits.query_cpu_ms), less when less is left,
 * but never less than a floor of a GR_BATCH_FLOOR-th of them (500,000
 * steps and 1 ms by default), and the run is charged what it used. So a
 * cheap query after heavy ones is still answered; a query given less than
 * the per-query limits that hits its limit gets a 422 limit_exceeded that
 * names the batch budget (and counts as refused); and a run of n queries uses at
 * most batch_budget + n * budget / GR_BATCH_FLOOR steps (the CPU time
 * alike). A query's CPU time counts from its first reading of the clock,
 * after GR_BUDGET_CHECK_STEPS steps (gr_deadline_start_lazy): cheap queries,
 * most of a batch, never read it and are charged none. */
#ifndef GRUNDY_API_BATCH_H
#define GRUNDY_API_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze.h"

/* The floor of a query's share of its batch's budget: a GR_BATCH_FLOOR-th
 * of the per-query limits. */
#define GR_BATCH_FLOOR 1000

/* What a run of queries came to, for logs and metrics. */
typedef struct gr_batch_stats {
    uint64_t answered; /* queries answered 200 */
    uint64_t errors;   /* queries answered with an error object (the batch budget's included) */
    uint64_t refused;  /* of the errors, those that ran on the floor of a spent batch budget and hit it */
    uint64_t spent;    /* compute steps the queries spent together */
} gr_batch_stats;

#define GR_BATCH_ID_MAX_CHARS 128

/* A run of queries sharing one batch budget. */
typedef struct gr_batch_run {
    uint64_t left;        /* batch budget steps not yet spent */
    uint64_t cpu_left_ns; /* batch CPU time not yet used */
    const atomic_bool *cancel; /* NULL, or a flag that stops the run's queries (503 shutting_down) */
    gr_batch_stats stats; /* counts so far */
    /* Called with each query's reply (its game, status and error code) as it
     * is counted, when set (the daemon's metrics); may run on any thread. */
    void (*observe)(void *ctx, const gr_reply *reply);
    void *observe_ctx;
} gr_batch_run;

/* Starts a run with the batch budget's steps and CPU time, zero counts and
 * no cancel flag. */
void gr_batch_run_init(gr_batch_run *run, const gr_service *svc);

/* Answers the JSON form. 200 with {"results": [...]}; 400 bad_json when the
 * body is not JSON; 422 with field "queries" when it is not an object whose
 * "queries" is an array, names "queries" twice, or holds more than
 * limits.max_batch entries; 503 when memory runs out. *stats (may be NULL)
 * gets the run's counts, all zero unless the status is 200. Never fails. */
void gr_api_batch(const gr_service *svc, const char *body, size_t len, gr_reply *out,
                  gr_batch_stats *stats);

/* gr_api_batch under `run`, whose observer sees each query; run->stats
 * holds the counts (meaningful when the status is 200). */
void gr_api_batch_run(const gr_service *svc, gr_batch_run *run, const char *body, size_t len,
                      gr_reply *out);

/* Answers one NDJSON line (without its "\n"; a trailing "\r" is allowed)
 * as gr_api_analyze would, but for its id (above), with the query's own
 * budget only; an empty or whitespace-only line gets a 400 bad_json error.
 * Never fails. */
void gr_api_batch_line(const gr_service *svc, const char *line, size_t len, gr_reply *out);

/* gr_api_batch_line under the run's batch budget (above), counted in
 * run->stats. */
void gr_batch_run_line(const gr_service *svc, gr_batch_run *run, const char *line, size_t len,
                       gr_reply *out);

/* The fast path of gr_batch_run_line (gr_api_fast): appends the line's
 * answer to out and counts it, when a game's fast hook answers the line
 * and some batch budget is left; false (out unchanged) otherwise. With
 * GR_FAST_MAX_ANSWER bytes free in out, out never grows: a caller may
 * write into a buffer of its own. */
bool gr_batch_run_fast(const gr_service *svc, gr_batch_run *run, const char *line, size_t len, gr_buf *out);

/* gr_api_line_too_long, counted in the run. */
void gr_batch_run_too_long(const gr_service *svc, gr_batch_run *run, gr_reply *out);

/* The answer to a line that gr_line_reader refused as longer than
 * limits.max_line: 413 line_too_long naming the limit. Never fails. */
void gr_api_line_too_long(const gr_service *svc, gr_reply *out);

/* ---- lines from a stream ------------------------------------------------ */

typedef enum gr_line_kind {
    GR_LINE_NONE,     /* no complete line in what was fed: feed more, or finish */
    GR_LINE_OK,       /* *line, *len: one line, without its "\n" and a "\r" before it */
    GR_LINE_TOO_LONG, /* a line of more than max_line bytes (or more than memory
                         allows to hold): answer it with gr_api_line_too_long; its
                         remaining bytes up to the next "\n" are skipped unbuffered,
                         and reading resumes after it */
} gr_line_kind;

/* Splits a byte stream into lines. Holds at most max_line bytes of a line
 * split across chunks (in a buffer grown on demand), however long the stream
 * or its lines; a line wholly inside one chunk is not copied. */
typedef struct gr_line_reader {
    size_t max_line;   /* longest line, in bytes before its "\n" (a "\r" counts) */
    char *buf;         /* the partial line carried between chunks */
    size_t len;        /* bytes in buf */
    size_t cap;        /* bytes allocated for buf, at most max_line */
    bool skipping;     /* discarding the rest of an overlong line */
    const char *in;    /* the fed chunk not yet consumed (borrowed) */
    size_t in_len;
} gr_line_reader;

/* Returns 0 (-1 is reserved for out of memory; nothing is allocated until a
 * line spans chunks). max_line 0 counts as 1; SIZE_MAX means no limit. */
int gr_line_reader_init(gr_line_reader *r, size_t max_line);
void gr_line_reader_fini(gr_line_reader *r);

/* Hands over the next chunk of the stream; data must stay valid until
 * gr_line_reader_next returns GR_LINE_NONE. Call only after it did (or
 * before the first call). */
void gr_line_reader_feed(gr_line_reader *r, const char *data, size_t len);

/* The next complete line of what was fed. A line is valid until the next
 * call on the reader (it may point into the fed chunk). */
gr_line_kind gr_line_reader_next(gr_line_reader *r, const char **line, size_t *len);

/* At the end of the stream (after gr_line_reader_next returned GR_LINE_NONE):
 * the last line when it had no "\n", else GR_LINE_NONE. A stream ending in
 * "\n" has no empty line after it. Leaves the reader empty. */
gr_line_kind gr_line_reader_finish(gr_line_reader *r, const char **line, size_t *len);

#endif
