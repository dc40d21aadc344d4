/* SPDX-License-Identifier: MIT */
/* One query being answered: its JSON, the service's limits, its compute
 * budget, and the answer under construction. Game modules read fields with
 * the gr_q_* helpers, which name the field in every error. */
#ifndef GRUNDY_API_QUERY_H
#define GRUNDY_API_QUERY_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errors.h"
#include "json.h"
#include "jw.h"
#include "scratch.h"
#include "grundy/budget.h"
#include "grundy/octal.h"

/* Every limit a query is held to. Defaults in gr_limits_default; the daemon
 * and the CLI override them from options. */
typedef struct gr_limits {
    uint64_t budget;           /* compute steps per query */
    uint64_t max_items;        /* entries in piles, stairs or tokens */
    uint64_t max_moves;        /* entries in a subtraction set */
    uint64_t max_move;         /* largest element of a subtraction set */
    uint64_t max_nodes;        /* graph nodes */
    uint64_t max_edges;        /* graph edges */
    uint64_t octal_max_values; /* values computed for an octal game without a certified period */
    uint64_t grundys_max_heap; /* largest heap of Grundy's game computed on demand */
    uint64_t max_batch;        /* queries in one {"queries": [...]} batch */
    uint64_t batch_budget;     /* compute steps for all queries of one batch together */
    uint64_t max_line;         /* bytes in one NDJSON line, its "\n" not counted; at least 1 */
    uint64_t query_cpu_ms;     /* CPU time per query, in milliseconds (analyze.h says what counts) */
    uint64_t batch_cpu_ms;     /* CPU time for all queries of one batch together */
    uint64_t query_memory;     /* bytes one query may hold at once (grundy/alloc.h); 0: no limit */
} gr_limits;

/* Defaults: budget 500000000 steps, max_batch 10000, batch_budget 4 * budget
 * (2000000000: a batch does at most the work of four worst-case queries, so
 * one request cannot hold a worker much longer than a few single queries
 * would), max_line 1 MiB (the daemon's default body limit), query_cpu_ms
 * 1000, batch_cpu_ms 4 * query_cpu_ms and query_memory
 * GR_QUERY_MEMORY_DEFAULT. Whoever changes budget or
 * query_cpu_ms should scale the batch's with it unless told otherwise. */
void gr_limits_default(gr_limits *l);

/* Bytes a query may hold when nothing else says: enough for every query
 * the other default limits admit but the heaviest searches, which then
 * stop with 422 memory_limit instead of growing the process. */
#define GR_QUERY_MEMORY_DEFAULT ((uint64_t)256 << 20)

/* Nanoseconds in `ms` milliseconds, saturating; 0 ms means no limit
 * (UINT64_MAX). */
uint64_t gr_ms_to_ns(uint64_t ms);

struct gr_tables;

/* What answering needs besides the query: limits and, when a table file is
 * mapped, its sections. Read-only while requests run. */
typedef struct gr_service {
    gr_limits limits;
    const struct gr_tables *tables; /* NULL: every value is computed on demand */
    struct gr_seq_cache *cache;     /* NULL: nothing computed is kept */
    gr_rare_index grundys_rare;     /* of the table's Grundy's game; count 0 without one */
} gr_service;

/* Sets up a service over `tables` (may be NULL) with a cache of cache_bytes
 * and default limits (adjust svc->limits afterwards). Returns 0, or -1 when
 * out of memory. The service borrows the tables: close them after
 * gr_service_fini. */
int gr_service_init(gr_service *svc, const struct gr_tables *tables, size_t cache_bytes);
void gr_service_fini(gr_service *svc);

/* Fixed-size text builder for explanations and move texts; silently
 * truncates (with "...") rather than failing. A muted text takes nothing:
 * the explanation of a slim answer, so that no game formats prose that the
 * answer drops. */
typedef struct gr_text {
    char buf[1024];
    size_t len;
    bool muted;
} gr_text;

void gr_text_add(gr_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gr_text_vadd(gr_text *t, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

typedef struct gr_answer {
    const char *winner; /* "first", "second" or "draw" */
    bool grundy_known;
    uint64_t grundy;
    bool has_value;     /* score and partisan games: "value" from the mover's view */
    gr_json_i128 value;
    /* The answer's members, written straight out by the game (jw.h):
     * "components" (an array; nothing written: []), "move" and "next"
     * (objects; nothing written: null). */
    gr_jw components, move, next;
    /* "winning_moves" (winning.h), filled after the game has answered
     * when the answer is not slim. */
    struct gr_winning {
        bool listed;       /* computed: rendered only then */
        bool total_known;  /* total is exact; else note says why not */
        __extension__ unsigned __int128 total;
        gr_buf moves;      /* the first GR_WINNING_MOVES_CAP, as a JSON array */
        const char *note;  /* a sentence, or NULL */
    } winning;
    /* The structured account (why.h): {"steps": [...]}; nothing
     * written on a slim answer. */
    gr_jw why;
    /* The answer's "explanation": the texts of why's steps, joined (only
     * gr_why_say writes it, so the two never disagree). */
    gr_text explanation;
} gr_answer;

/* How the components of a position combine (references.md, compounds):
 * disjunctive moves in exactly one, selective in any non-empty set,
 * selective_proper in any non-empty set but not all, conjunctive in all. */
typedef enum gr_compound {
    GR_DISJUNCTIVE,
    GR_SELECTIVE,
    GR_SELECTIVE_PROPER,
    GR_CONJUNCTIVE,
} gr_compound;

#define GR_COMPOUND_BIT(c) (1u << (c))
#define GR_COMPOUNDS_ALL 0xFu

/* "disjunctive", "selective", "selective_proper" or "conjunctive". */
const char *gr_compound_name(gr_compound c);

typedef struct gr_query {
    const gr_json_doc *doc;
    const cJSON *obj; /* the query object */
    const gr_limits *limits;
    const struct gr_tables *tables; /* may be NULL */
    struct gr_seq_cache *cache;     /* may be NULL */
    const gr_rare_index *grundys_rare;
    gr_budget budget;
    bool misere;
    gr_compound compound;
    bool batch;       /* a query of a batch, which may also hold "id" (batch.h reads it) */
    /* "explain": false. The one flag every writer of prose for people
     * consults: a slim answer has no "explanation" (nor any later member of
     * the kind), and its explanation text is muted so that it is never
     * formatted. Set by gr_query_prepare. */
    bool slim;
    /* Set by a caller that needs only the outcome (the positions that
     * POST /v1/moves and "winning_moves" evaluate): the query is slim
     * whatever its "explain" says. */
    bool outcome_only;
    gr_api_error *err;
    gr_answer ans;
} gr_query;

/* The member `name`, or NULL when absent. */
const cJSON *gr_q_get(const gr_query *q, const char *name);

/* Integer member: required when `dflt` is NULL, else *dflt when absent. */
int gr_q_u64(gr_query *q, const char *name, const uint64_t *dflt, uint64_t *out);

/* Integer array member, 1..max entries unless allow_empty; *out is from
 * gr_scratch_alloc (free it with gr_scratch_free), entries read exactly and named "name[i]" in errors. */
int gr_q_u64_list(gr_query *q, const char *name, uint64_t max, bool allow_empty,
                  uint64_t **out, size_t *n);

/* Integer read from an arbitrary node, with field path `field`. */
int gr_q_u64_at(gr_query *q, const cJSON *node, const char *field, uint64_t *out);

/* Entry i of the array member `name`, an integer, or a pair [a, b] of
 * integers (`shape` is the message when it is not a pair); signed or not
 * as the name says. Errors name "name[i]" or "name[i][k]". These run for
 * every entry of arrays of up to --max-items, so the path is written only
 * when a read fails. */
int gr_q_u64_entry(gr_query *q, const cJSON *item, const char *name, size_t i, uint64_t *out);
int gr_q_i64_entry(gr_query *q, const cJSON *item, const char *name, size_t i, int64_t *out);
int gr_q_u64_pair(gr_query *q, const cJSON *item, const char *name, size_t i, const char *shape,
                  uint64_t out[2]);
int gr_q_i64_pair(gr_query *q, const cJSON *item, const char *name, size_t i, const char *shape,
                  int64_t out[2]);

/* Answer helpers: each begins its member afresh and returns its node.
 * Memory running out shows once, when the answer is rendered. */
gr_jw_node *gr_ans_components(gr_query *q);        /* begins ans.components */
gr_jw_node *gr_ans_component(gr_query *q);         /* appends a new object to it */
gr_jw_node *gr_ans_move(gr_query *q);              /* begins ans.move; the game adds "text" last */
gr_jw_node *gr_ans_next(gr_query *q);              /* begins ans.next */
void gr_ans_clear_move(gr_answer *a);              /* move and next back to null */
int gr_oom(gr_query *q);                           /* records the 503; returns -1 */

/* For games of one component whose Grundy value is computed when the budget
 * allows: records the answer's grundy (known when s is GR_OK, null after
 * GR_ELIMIT), creates the components array and returns its one entry with
 * the "grundy" member still to be added by gr_add_grundy. Any other status
 * fails for `field` with `what`; NULL then. */
gr_jw_node *gr_ans_single(gr_query *q, gr_status s, uint64_t g, const char *field, const char *what);

/* Adds "grundy": the answer's value, or null when it is unknown. */
void gr_add_grundy(const gr_query *q, gr_jw_node *component);

#endif
