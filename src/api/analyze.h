/* SPDX-License-Identifier: MIT */
/* The whole request path shared by the daemon and the CLI: bytes of one
 * query in, status and bytes of one answer (or error) out. */
#ifndef GRUNDY_API_ANALYZE_H
#define GRUNDY_API_ANALYZE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "pipeline.h"
#include "query.h"

/* Answers one query. Never fails: errors become error bodies. */
void gr_api_analyze(const gr_service *svc, const char *body, size_t len, gr_reply *out);

/* The one request pipeline (bytes, parse, validate, solve, render), with
 * the games' fast hooks inside it: answers the body as gr_api_analyze does,
 * spending at most `inline_budget` compute steps (or the per-query budget
 * when that is smaller): gr_api_attempt with no CPU time used before.
 * Returns false, with *out empty but for its game, when a smaller inline budget ran out
 * before the answer: the caller answers again with gr_api_analyze where
 * long work may run (the daemon's compute pool). */
bool gr_api_answer_within(const gr_service *svc, const char *body, size_t len,
                          uint64_t inline_budget, gr_reply *out);

/* One attempt at a query. The query's CPU time (limits.query_cpu_ms)
 * counts from the attempt's start (parsing included; the Nim fast path,
 * which does no search, is not timed) to its end, on the thread that runs
 * it, and spans attempts: an attempt that gives up (below) adds what it
 * used to cpu_used_ns, and the next attempt gets what is left. Past the
 * CPU time the query is a 422 limit_exceeded naming --query-cpu-ms; when
 * `cancel` is raised, a 503 shutting_down. */
typedef struct gr_attempt {
    uint64_t steps;            /* steps this attempt may spend; at least the per-query budget: no limit */
    uint64_t cpu_used_ns;      /* CPU time earlier attempts at the query used */
    const atomic_bool *cancel; /* NULL, or a flag another thread raises to stop the query */
} gr_attempt;

/* Answers the body as gr_api_analyze does within a->steps; false, with
 * *out empty but for its game and a->cpu_used_ns grown, when fewer steps
 * than the per-query budget ran out before the answer (the caller answers
 * again where long work may run, the daemon's compute pool). */
bool gr_api_attempt(const gr_service *svc, const char *body, size_t len, gr_attempt *a, gr_reply *out);

/* Answers the query `node` of the parsed document `doc` (the whole body, or
 * one entry of a batch: any JSON value) exactly as gr_api_analyze answers a
 * body holding only that value, spending from *budget, the query's compute
 * budget (on return it holds what is left). Integers are read exactly
 * through `doc`. Never fails: when out->status is not 200, *err holds the
 * error that out->body renders. */
void gr_api_answer_node(const gr_service *svc, const gr_json_doc *doc, const cJSON *node,
                        gr_budget *budget, gr_api_error *err, gr_reply *out);

/* gr_api_answer_node for a query of a batch, which may also hold "id" (the
 * caller reads it: batch.h). Any other answer or error is the same. */
void gr_api_answer_batch_node(const gr_service *svc, const gr_json_doc *doc, const cJSON *node,
                              gr_budget *budget, gr_api_error *err, gr_reply *out);

/* gr_api_fast as a reply: true when a fast hook answered the body. */
bool gr_api_answer_fast(const gr_service *svc, const char *body, size_t len, gr_reply *out);

#endif
