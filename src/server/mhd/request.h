/* SPDX-License-Identifier: MIT */
/* The daemon's private state, shared by its modules: the server's (one per
 * gr_server_run, daemon.c), and each connection's request (dispatch.c reads and
 * answers it, response.c sends what it answers). */
#ifndef GRUNDY_SERVER_REQUEST_H
#define GRUNDY_SERVER_REQUEST_H

#include <microhttpd.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "analyze.h"
#include "contract.h"
#include "encoding.h"
#include "entity.h"
#include "json_ints.h"
#include "stream.h"
#include "admission.h"
#include "metrics.h"
#include "pool.h"
#include "request_id.h"
#include "routes.h"
#include "server_config.h"
#include "snapshot.h"
#include "static.h"
#include "watch.h"

/* What libmicrohttpd's URI callbacks saw of the head being read, before
 * the request's first callback (every_head.h); kept across request_reset
 * and cleared when the request ends. */
typedef struct gr_head_marks {
    bool control_byte;  /* a decoded part of the URL held a control byte */
    size_t target_len;  /* bytes of the raw request target */
} gr_head_marks;

typedef struct route {
    const char *path;
    const char *method; /* the one method the path answers (and OPTIONS, HEAD for GET) */
    route_id id;
} route;

/* One per gr_server_run (daemon.c), shared by every HTTP and compute
 * thread: what they change in it is atomic or behind a lock. */
typedef struct server_state {
    const gr_server_config *cfg;
    const char *tables_path;       /* the file SIGHUP re-maps */
    gr_snapshot_holder snaps;
    gr_pool *pool;
    gr_metrics metrics;
    char *games_json;              /* GET /v1/games, rendered once */
    gr_entity games, openapi;      /* GET /v1/games and /openapi.yaml with their gzip forms */
    char *games_strings_json;      /* the catalogue with integers as strings */
    gr_entity games_strings;       /* GET /v1/games?integers=string */
    gr_entity assets[GR_ASSET_COUNT]; /* the playground's files, in gr_static_index order */
    atomic_long in_flight;         /* requests being answered: from the full body to the reply sent */
    _Atomic int64_t drain_body_ms; /* when a body byte last arrived since the drain began (0: none) */
    atomic_bool draining;          /* set on SIGTERM: replies carry Connection: close */
    atomic_bool ready;
    gr_watch *watch;               /* requests on the compute pool, cancelled when their client goes */
    struct gr_verifier *verifier;  /* re-checks the table file (server/verify.h) */
    /* The drain's counts (daemon.c): requests answered after SIGTERM, and
     * those of them whose answer was a cancel (503 shutting_down). */
    atomic_ulong drain_answered, drain_cancelled;
} server_state;

/* Where a request's answer is: being read or answered on the HTTP thread,
 * waiting for the compute pool, done there (rq->reply holds it), or, for a
 * spooled NDJSON stream, its job started (rq->stream_response is to be
 * queued). */
typedef enum rq_state { RQ_READING, RQ_WAITING, RQ_DONE, RQ_STREAMING } rq_state;

/* A reply decided from the request line alone, sent once the body (if any)
 * has been read: answering earlier makes libmicrohttpd close the connection,
 * and a browser would then pay a new one for every preflight. */
typedef enum early_reply {
    EARLY_NONE,
    EARLY_NOT_FOUND,
    EARLY_WRONG_METHOD,
    EARLY_PREFLIGHT,
    EARLY_BAD_INTEGERS, /* ?integers= or Accept's integers= is neither string nor number */
    EARLY_BAD_HEAD      /* the head is refused (every_head.h): early_code, early_message */
} early_reply;

/* Per-request state. One lives as long as its connection (made when the
 * connection opens) and is reset for each request on it, keeping its body
 * and reply buffers, so that a keep-alive client's requests need no heap
 * allocation of ours. */
typedef struct request {
    server_state *st;
    gr_admitted *admitted; /* the connection's admission, kept across its requests (admission.h) */
    gr_head_marks head_marks; /* the head being read, seen before its first callback (every_head.h) */
    struct MHD_Connection *conn;
    route_id route;
    const route *entry;  /* the matched route, or NULL */
    const gr_asset *asset; /* the playground file asked for, on its route */
    char page_limit[24], page_cursor[48]; /* ?limit= and ?cursor= of /v1/moves, "" when absent */
    early_reply early;
    char request_id[GR_REQUEST_ID_MAX + 1]; /* X-Request-Id: the client's when sane, else made */
    gr_codings codings;  /* what Accept-Encoding allows */
    bool gzipped;        /* rq->reply.body is gzip (a JSON batch answer) */
    gr_int_form int_form; /* how the answer writes integers (response.c applies it) */
    bool ints_quoted;     /* the reply's body is already in int_form (response_put_ints) */
    char early_message[256]; /* EARLY_BAD_INTEGERS: what was refused (its value cut to 47
                              * characters) and what to send, whole; EARLY_BAD_HEAD the same */
    gr_error_code early_code; /* EARLY_BAD_HEAD's error */
    char *body;
    size_t len, cap;
    char *out;         /* the inline answer, sent from here (MHD_RESPMEM_PERSISTENT) */
    size_t out_cap;
    bool too_large;
    uint64_t dropped;  /* bytes of the body read and dropped after an early error or past the limit */
    bool answered;     /* a reply was queued, or the request was handed on */
    bool counted;      /* counted in in_flight; a body abandoned half-way is never counted,
                        * since libmicrohttpd reports such connections only at their timeout */
    gr_stream *stream; /* NDJSON batch; its job takes this reference when it starts */
    struct MHD_Response *stream_response; /* a spooled stream's 200, queued only once its job
                                           * has started; destroyed unsent otherwise */
    _Atomic rq_state state;
    gr_reply reply;    /* from the compute pool */
    gr_snapshot *snap; /* held while the request is answered */
    const gr_game *game;
    const char *error; /* the error code of the reply sent (gr_error_name's), NULL for none */
    int status;
    uint64_t bytes;
    struct timespec start;
    uint64_t inline_cpu_ns;  /* CPU time its inline attempt used, which the pool's deducts */
    gr_watched watch;  /* its cancel flag, while it is on the compute pool (server/watch.h) */
    bool spool_full;   /* an NDJSON body past --max-spool: 503, not 413 */
    unsigned long faults_at_start; /* the tables' faults when it started: more at its end, and it may
                                    * have read zeros (server/verify.h) */
} request;

#endif
