/* SPDX-License-Identifier: MIT */
/* The whole request path shared by the daemon and the CLI: bytes of one
 * query in, status and bytes of one answer (or error) out. */
#ifndef GRUNDY_API_ANALYZE_H
#define GRUNDY_API_ANALYZE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "api/query.h"

struct gr_game;

typedef struct gr_reply {
    int status;  /* HTTP status */
    char *body;  /* JSON from gr_mem_alloc (gr_mem_free), or NULL when even the error could not be rendered */
    size_t len;
    const struct gr_game *game; /* the game the query named, when it named one; for metrics and logs */
    const char *error; /* an error reply's code (gr_error_name's string), NULL for an answer */
} gr_reply;

/* Answers one query. Never fails: errors become error bodies. */
void gr_api_analyze(const gr_service *svc, const char *body, size_t len, gr_reply *out);

/* The one request pipeline (bytes, parse, validate, solve, render), with
 * the Nim fast path inside it: answers the body as gr_api_analyze does,
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

/* Rewrites a limit_exceeded error caused by budget's deadline to name it:
 * the CPU time (of a query alone, or of a batch's query when `batch`), or a
 * cancel (503 shutting_down). Other errors are left as they are. */
void gr_explain_stop(const gr_limits *limits, const gr_budget *budget, bool batch, gr_api_error *err);

struct gr_mem_account;

/* Rewrites an out-of-memory error (503 overloaded) caused by the query's
 * memory account (grundy/alloc.h) to name it: past the query's own limit a
 * 422 memory_limit naming --query-memory; past the total over the queries
 * in flight a 503 overloaded (sent with Retry-After) naming
 * --query-memory-total. Other errors are left as they are. */
void gr_explain_memory(const gr_limits *limits, const struct gr_mem_account *mem, gr_api_error *err);

/* Answers the query `node` of the parsed document `doc` (the whole body, or
 * one entry of a batch: any JSON value) exactly as gr_api_analyze answers a
 * body holding only that value, spending from *budget, the query's compute
 * budget (on return it holds what is left). Integers are read exactly
 * through `doc`. Never fails: when out->status is not 200, *err holds the
 * error that out->body renders. */
void gr_api_answer_node(const gr_service *svc, const gr_json_doc *doc, const cJSON *node,
                        gr_budget *budget, gr_api_error *err, gr_reply *out);

/* gr_api_answer_node for a query of a batch, which may also hold "id" (the
 * caller reads it: api/batch.h). Any other answer or error is the same. */
void gr_api_answer_batch_node(const gr_service *svc, const gr_json_doc *doc, const cJSON *node,
                              gr_budget *budget, gr_api_error *err, gr_reply *out);

/* The fast path (api/games/nim_fast.h): answers the body as gr_api_analyze would
 * and returns true when it is in the fast path's form; false otherwise. */
bool gr_api_answer_fast(const gr_service *svc, const char *body, size_t len, gr_reply *out);

/* Reads q->obj as far as every hook needs: its game, every member checked
 * against the game's contract (api/validate.h; `extra` names the members an
 * endpoint adds, NULL-terminated, or NULL), its convention and compound.
 * 0, or -1 with q->err filled. */
int gr_query_prepare(gr_query *q, const struct gr_game **game, const char *const *extra);

/* gr_query_prepare, then the game's analyze hook: q->ans holds the answer
 * (move and next cleared when the player to move loses). 0, or -1. */
int gr_query_answer(gr_query *q, const struct gr_game **game);

/* Frees what q->ans holds and clears it. */
void gr_answer_free(gr_answer *a);

/* An answer's first members: {"game", "convention" and, when not the
 * disjunctive one, "compound" (the object left open). */
void gr_render_head(gr_buf *b, const gr_query *q, const struct gr_game *game);

/* Renders an error reply (used by the server for 404, 405, 413, ...). */
void gr_api_error_reply(const gr_api_error *e, gr_reply *out);

#endif
