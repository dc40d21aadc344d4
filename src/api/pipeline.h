/* SPDX-License-Identifier: MIT */
/* The pipeline's steps that every endpoint shares: reading a query as far
 * as its game's hooks need (game, contract, convention, compound, explain),
 * the head of an answer, error replies, and naming the limit that stopped
 * a query. The endpoints (analyze.h, moves.h, batch.h) are built on it. */
#ifndef GRUNDY_API_PIPELINE_H
#define GRUNDY_API_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "query.h"

struct gr_game;

typedef struct gr_reply {
    int status;  /* HTTP status */
    char *body;  /* JSON from gr_scratch_alloc (gr_scratch_free), or NULL when even the error could not be rendered */
    size_t len;
    const struct gr_game *game; /* the game the query named, when it named one; for metrics and logs */
    const char *error; /* an error reply's code (gr_error_name's string), NULL for an answer */
} gr_reply;

struct gr_mem_account;

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

/* Reads q->obj as far as every hook needs: its game, every member checked
 * against the game's contract (validate.h; `extra` names the members an
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

/* The fast path: the first game whose fast hook (contract.h) answers the
 * body appends that answer to out, exactly as gr_api_analyze would write
 * it; that game, or NULL with out unchanged. */
const struct gr_game *gr_api_fast(const gr_limits *limits, const char *body, size_t len, gr_buf *out);

#endif
