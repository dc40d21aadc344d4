/* libmicrohttpd glue: routing, bodies under size limits, CORS, replies, the
 * compute pool hand-off, NDJSON streams, metrics, the access log, SIGHUP
 * reloads and the drain on shutdown. The server never decides a game; it
 * hands bytes to the api layer and sends back what it returns.
 *
 * Where a query runs: every query first runs on the HTTP thread with a small
 * budget (--inline-budget). Most finish there in microseconds. One that runs
 * out of that budget (an uncached period search, a big graph or board), a
 * body too large to parse inline, and every batch are suspended
 * (MHD_suspend_connection) and handed to the compute pool, whose bounded
 * queue answers 503 with Retry-After when full; the worker resumes the
 * connection with the reply. So heavy work never holds an HTTP thread, and
 * light queries keep their latency while the pool is saturated. */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "api/analyze.h"
#include "api/batch.h"
#include "api/catalog.h"
#include "api/games.h"
#include "api/moves.h"
#include "api/mem.h"
#include "api/seq_cache.h"
#include "server/http_stream.h"
#include "server/log.h"
#include "server/metrics.h"
#include "server/pool.h"
#include "server/server.h"
#include "server/snapshot.h"
#include "server/routes.h"
#include "server/static.h"
#include "tables/locate.h"
#include "tables/tables.h"

extern const unsigned char gr_openapi_yaml[];
extern const unsigned long gr_openapi_yaml_len;

/* Bodies larger than this skip the inline attempt: parsing them is itself
 * heavy work. */
#define INLINE_BODY_MAX 65536

typedef struct route {
    const char *path;
    const char *method; /* the one method the path answers (and OPTIONS, HEAD for GET) */
    route_id id;
} route;

static const route routes[] = {
#define GR_ROUTE_ENTRY(id, path, method) { path, MHD_HTTP_METHOD_##method, ROUTE_##id },
    GR_ROUTES(GR_ROUTE_ENTRY)
#undef GR_ROUTE_ENTRY
};

/* Indexed by route_id; ROUTE_NONE is "other". */
static const char *const route_names[GR_METRIC_ROUTES] = {
#define GR_ROUTE_NAME(id, path, method) path,
    GR_ROUTES(GR_ROUTE_NAME)
#undef GR_ROUTE_NAME
    "other",
};

typedef struct server_state {
    const gr_server_config *cfg;
    const char *tables_path;       /* the file SIGHUP re-maps */
    gr_snapshot_holder snaps;
    gr_pool *pool;
    gr_metrics metrics;
    char *games_json;              /* GET /v1/games, rendered once */
    atomic_long in_flight;         /* requests being answered: from the full body to the reply sent */
    atomic_bool draining;          /* set on SIGTERM: replies carry Connection: close */
    atomic_bool ready;
} server_state;

typedef enum rq_state { RQ_READING, RQ_WAITING, RQ_DONE } rq_state;

/* Per-request state. One lives as long as its connection (made when the
 * connection opens) and is reset for each request on it, keeping its body
 * and reply buffers, so that a keep-alive client's requests need no heap
 * allocation of ours. */
/* A reply decided from the request line alone, sent once the body (if any)
 * has been read: answering earlier makes libmicrohttpd close the connection,
 * and a browser would then pay a new one for every preflight. */
typedef enum early_reply { EARLY_NONE, EARLY_NOT_FOUND, EARLY_WRONG_METHOD, EARLY_PREFLIGHT } early_reply;

typedef struct request {
    server_state *st;
    struct MHD_Connection *conn;
    route_id route;
    const route *entry;  /* the matched route, or NULL */
    const gr_asset *asset; /* the playground file asked for, on its route */
    char page_limit[24], page_cursor[48]; /* ?limit= and ?cursor= of /v1/moves, "" when absent */
    early_reply early;
    char *body;
    size_t len, cap;
    char *out;         /* the inline answer, sent from here (MHD_RESPMEM_PERSISTENT) */
    size_t out_cap;
    bool too_large;
    bool answered;     /* a reply was queued, or the request was handed on */
    bool counted;      /* counted in in_flight; a body abandoned half-way is never counted,
                        * since libmicrohttpd reports such connections only at their timeout */
    gr_stream *stream; /* NDJSON batch */
    _Atomic rq_state state;
    gr_reply reply;    /* from the compute pool */
    gr_snapshot *snap; /* held while the request is answered */
    const gr_game *game;
    int status;
    uint64_t bytes;
    struct timespec start;
} request;

static uint64_t micros_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    int64_t us = (int64_t)(t.tv_sec - t0->tv_sec) * 1000000 + (t.tv_nsec - t0->tv_nsec) / 1000;
    return us > 0 ? (uint64_t)us : 0;
}

/* ---- CORS ---------------------------------------------------------------- */

/* The Access-Control-Allow-Origin value for this request's Origin, or NULL. */
static const char *allowed_origin(const server_state *st, struct MHD_Connection *conn)
{
    const char *list = st->cfg->cors_origins;
    const char *origin = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Origin");
    if (!list || !*list || !origin)
        return NULL;
    if (strcmp(list, "*") == 0)
        return "*";
    size_t n = strlen(origin);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        while (len && p[0] == ' ') {
            p++;
            len--;
        }
        while (len && p[len - 1] == ' ')
            len--;
        if (len == n && strncmp(p, origin, n) == 0)
            return origin;
        p = end ? end + 1 : p + strlen(p);
    }
    return NULL;
}

static void add_common_headers(struct MHD_Response *resp, request *rq, const char *allow)
{
    const char *origin = allowed_origin(rq->st, rq->conn);
    if (origin) {
        MHD_add_response_header(resp, "Access-Control-Allow-Origin", origin);
        MHD_add_response_header(resp, "Vary", "Origin");
    }
    if (allow)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, allow);
    if (atomic_load(&rq->st->draining))
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
}

/* ---- replies ------------------------------------------------------------- */

static enum MHD_Result queue(request *rq, int status, struct MHD_Response *resp, const char *type,
                             const char *allow)
{
    if (!resp)
        return MHD_NO;
    if (type)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    if (status == MHD_HTTP_SERVICE_UNAVAILABLE)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, "1");
    add_common_headers(resp, rq, allow);
    rq->status = status;
    rq->answered = true;
    enum MHD_Result ok = MHD_queue_response(rq->conn, (unsigned)status, resp);
    MHD_destroy_response(resp);
    return ok;
}

static enum MHD_Result send_reply(request *rq, gr_reply *r, const char *allow)
{
    static const char fallback[] =
        "{\"error\":{\"code\":\"overloaded\",\"message\":\"out of memory; retry later\",\"field\":null}}";
    struct MHD_Response *resp;
    if (r->body) {
        resp = MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_MUST_FREE);
        rq->bytes = r->len;
    } else {
        r->status = MHD_HTTP_SERVICE_UNAVAILABLE;
        resp = MHD_create_response_from_buffer(sizeof fallback - 1, (void *)fallback,
                                               MHD_RESPMEM_PERSISTENT);
    }
    if (!resp)
        free(r->body);
    r->body = NULL;
    return queue(rq, r->status, resp, "application/json", allow);
}

/* Buffers a connection keeps between requests; larger ones are released
 * when the request ends, so idle connections hold little memory. */
#define KEEP_BUFFER_MAX 16384

/* Copies the reply into the connection's own buffer; false when memory runs out. */
static bool keep_reply(request *rq, const gr_reply *r)
{
    if (!r->body)
        return false;
    if (r->len > rq->out_cap) {
        size_t cap = r->len < 1024 ? 1024 : r->len;
        char *b = malloc(cap);
        if (!b)
            return false;
        free(rq->out);
        rq->out = b;
        rq->out_cap = cap;
    }
    memcpy(rq->out, r->body, r->len);
    return true;
}

/* Sends the reply keep_reply stored. The buffer outlives the response:
 * the connection's next request, the only one to reuse it, starts after
 * this response has been sent. */
static enum MHD_Result send_kept(request *rq, int status, size_t len)
{
    rq->bytes = len;
    struct MHD_Response *resp = MHD_create_response_from_buffer(len, rq->out, MHD_RESPMEM_PERSISTENT);
    return queue(rq, status, resp, "application/json", NULL);
}

static enum MHD_Result send_error(request *rq, gr_error_code code, const char *allow,
                                  const char *message)
{
    gr_api_error e;
    gr_fail(&e, code, "", "%s", message);
    gr_reply r;
    gr_api_error_reply(&e, &r);
    return send_reply(rq, &r, allow);
}

static enum MHD_Result send_static(request *rq, int status, const char *text, size_t len, const char *type)
{
    rq->bytes = len;
    struct MHD_Response *resp = MHD_create_response_from_buffer(len, (void *)text, MHD_RESPMEM_PERSISTENT);
    return queue(rq, status, resp, type, NULL);
}

static enum MHD_Result send_copy(request *rq, int status, const char *text, const char *type)
{
    gr_reply r = { status, strdup(text), strlen(text), NULL };
    if (strcmp(type, "application/json") == 0)
        return send_reply(rq, &r, NULL);
    if (!r.body)
        return send_error(rq, GR_E_OVERLOADED, NULL, "out of memory; retry later");
    rq->bytes = r.len;
    struct MHD_Response *resp = MHD_create_response_from_buffer(r.len, r.body, MHD_RESPMEM_MUST_FREE);
    if (!resp)
        free(r.body);
    return queue(rq, status, resp, type, NULL);
}

static enum MHD_Result send_busy(request *rq)
{
    atomic_fetch_add(&rq->st->metrics.pool_rejected, 1);
    return send_error(rq, GR_E_OVERLOADED, NULL,
                      "the compute queue is full; retry after a second");
}

/* ---- routing ------------------------------------------------------------- */

static enum MHD_Result preflight(request *rq, const route *r)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (!resp)
        return MHD_NO;
    char methods[48];
    snprintf(methods, sizeof methods, "%s, OPTIONS%s", r->method,
             strcmp(r->method, MHD_HTTP_METHOD_GET) == 0 ? ", HEAD" : "");
    if (allowed_origin(rq->st, rq->conn)) {
        MHD_add_response_header(resp, "Access-Control-Allow-Methods", methods);
        MHD_add_response_header(resp, "Access-Control-Allow-Headers", "Content-Type");
        MHD_add_response_header(resp, "Access-Control-Max-Age", "600");
    }
    return queue(rq, MHD_HTTP_NO_CONTENT, resp, NULL, methods);
}

/* Resolves the route, or records the 404, 405 or preflight to send. */
static void find_route(request *rq, const char *url, const char *method)
{
    rq->route = ROUTE_NONE;
    rq->early = EARLY_NOT_FOUND;
    rq->asset = gr_static_find(url);
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        const route *r = &routes[i];
        if (strcmp(r->path, url) != 0 && !(r->id == ROUTE_PLAYGROUND && rq->asset))
            continue;
        bool get = strcmp(r->method, MHD_HTTP_METHOD_GET) == 0;
        rq->route = r->id;
        rq->entry = r;
        if (strcmp(method, MHD_HTTP_METHOD_OPTIONS) == 0)
            rq->early = EARLY_PREFLIGHT;
        else if (strcmp(r->method, method) == 0 || (get && strcmp(method, MHD_HTTP_METHOD_HEAD) == 0))
            rq->early = EARLY_NONE;
        else
            rq->early = EARLY_WRONG_METHOD;
        return;
    }
}

/* "no such path; see GET /openapi.yaml: POST /v1/analyze, ..., GET / (the
 * playground)", from the route table, built once. */
static char not_found_text[512];
static pthread_once_t not_found_once = PTHREAD_ONCE_INIT;

static void build_not_found(void)
{
    size_t used = (size_t)snprintf(not_found_text, sizeof not_found_text, "no such path; see GET /openapi.yaml:");
    for (size_t i = 0; i < sizeof routes / sizeof routes[0] && used < sizeof not_found_text; i++)
        used += (size_t)snprintf(not_found_text + used, sizeof not_found_text - used, "%s %s %s%s",
                                 i ? "," : "", routes[i].method, routes[i].path,
                                 routes[i].id == ROUTE_PLAYGROUND ? " (the playground)" : "");
}

static const char *not_found_message(void)
{
    pthread_once(&not_found_once, build_not_found);
    return not_found_text;
}

static enum MHD_Result send_early(request *rq)
{
    const route *r = rq->entry;
    if (rq->early == EARLY_PREFLIGHT)
        return preflight(rq, r);
    if (rq->early == EARLY_NOT_FOUND)
        return send_error(rq, GR_E_NOT_FOUND, NULL, not_found_message());
    bool get = strcmp(r->method, MHD_HTTP_METHOD_GET) == 0;
    char msg[64], allow[32];
    snprintf(msg, sizeof msg, "this path answers %s only", r->method);
    snprintf(allow, sizeof allow, "%s, OPTIONS%s", r->method, get ? ", HEAD" : "");
    return send_error(rq, GR_E_METHOD_NOT_ALLOWED, allow, msg);
}

static bool is_ndjson(struct MHD_Connection *conn)
{
    const char *ct = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    return ct && strncasecmp(ct, "application/x-ndjson", 20) == 0;
}

static uint64_t body_limit(const request *rq)
{
    return rq->stream ? rq->st->cfg->max_stream : rq->st->cfg->max_body;
}

/* A valid Content-Length over the limit. Malformed or out-of-range values
 * are libmicrohttpd's to refuse (it answers them itself). */
static bool declared_too_large(struct MHD_Connection *conn, uint64_t max)
{
    const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (!cl || *cl < '0' || *cl > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(cl, &end, 10);
    return errno == 0 && *end == '\0' && v > max;
}

static enum MHD_Result count_length(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    (void)value;
    if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0)
        (*(unsigned *)cls)++;
    return MHD_YES;
}

/* Two Content-Length headers make the body's end ambiguous (request
 * smuggling behind a proxy): RFC 9112 says refuse and close. */
static bool repeated_length(struct MHD_Connection *conn)
{
    unsigned n = 0;
    MHD_get_connection_values(conn, MHD_HEADER_KIND, count_length, &n);
    return n > 1;
}

static enum MHD_Result too_large(request *rq)
{
    char msg[160];
    snprintf(msg, sizeof msg, "the body is larger than the limit of %llu bytes (%s); send a smaller one",
             (unsigned long long)body_limit(rq), rq->stream ? "--max-stream" : "--max-body");
    return send_error(rq, GR_E_BODY_TOO_LARGE, NULL, msg);
}

static void append_body(request *rq, const char *data, size_t n)
{
    if (rq->too_large || rq->len + n > body_limit(rq)) {
        rq->too_large = true;
        return;
    }
    if (rq->stream) {
        rq->too_large = gr_stream_spool(rq->stream, data, n) != 0;
        rq->len += n;
        return;
    }
    if (rq->len + n + 1 > rq->cap) {
        size_t cap = rq->cap ? rq->cap : 4096;
        while (cap < rq->len + n + 1)
            cap *= 2;
        char *b = realloc(rq->body, cap);
        if (!b) {
            rq->too_large = true; /* treated as unreadable; answered 413 */
            return;
        }
        rq->body = b;
        rq->cap = cap;
    }
    memcpy(rq->body + rq->len, data, n);
    rq->len += n;
}

/* Ends what the last request on this connection held and clears its state,
 * keeping the buffers (trimmed to KEEP_BUFFER_MAX). */
static void request_reset(request *rq)
{
    gr_snapshot_release(rq->snap);
    gr_stream_release(rq->stream);
    free(rq->reply.body);
    char *body = rq->body, *out = rq->out;
    size_t cap = rq->cap, out_cap = rq->out_cap;
    if (cap > KEEP_BUFFER_MAX) {
        free(body);
        body = NULL;
        cap = 0;
    }
    if (out_cap > KEEP_BUFFER_MAX) {
        free(out);
        out = NULL;
        out_cap = 0;
    }
    memset(rq, 0, sizeof *rq);
    atomic_init(&rq->state, RQ_READING);
    rq->body = body;
    rq->cap = cap;
    rq->out = out;
    rq->out_cap = out_cap;
}

/* Copies a paging argument; one too long for its buffer is no value the
 * service accepts, and is kept as "-" so that it is refused as such. */
static void copy_arg(char *out, size_t size, const char *value)
{
    if (value && strlen(value) >= size)
        value = "-";
    snprintf(out, size, "%s", value ? value : "");
}

static void copy_page_args(request *rq)
{
    copy_arg(rq->page_limit, sizeof rq->page_limit,
             MHD_lookup_connection_value(rq->conn, MHD_GET_ARGUMENT_KIND, "limit"));
    copy_arg(rq->page_cursor, sizeof rq->page_cursor,
             MHD_lookup_connection_value(rq->conn, MHD_GET_ARGUMENT_KIND, "cursor"));
}

static enum MHD_Result begin_request(server_state *st, struct MHD_Connection *conn, const char *url,
                                     const char *method, void **con_cls)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    request *rq = ci ? ci->socket_context : NULL;
    if (!rq)
        return MHD_NO; /* its allocation failed when the connection opened */
    request_reset(rq);
    rq->st = st;
    rq->conn = conn;
    clock_gettime(CLOCK_MONOTONIC, &rq->start);
    atomic_init(&rq->state, RQ_READING);
    *con_cls = rq;
    find_route(rq, url, method);
    if (repeated_length(conn)) /* answered at once, so the connection closes */
        return send_error(rq, GR_E_BAD_REQUEST, NULL,
                          "the request has more than one Content-Length header; send one");
    if (rq->early != EARLY_NONE)
        return MHD_YES;
    if (rq->route == ROUTE_MOVES)
        copy_page_args(rq);
    if (rq->route == ROUTE_BATCH && is_ndjson(conn)) {
        rq->stream = gr_stream_new(conn);
        if (!rq->stream)
            return send_error(rq, GR_E_OVERLOADED, NULL, "cannot open a spool file for the stream; retry later");
    }
    if ((rq->route == ROUTE_ANALYZE || rq->route == ROUTE_BATCH || rq->route == ROUTE_MOVES) &&
        declared_too_large(conn, body_limit(rq)))
        return too_large(rq);
    return MHD_YES;
}

/* ---- answering ------------------------------------------------------------ */

static void analyze_job(void *arg)
{
    request *rq = arg;
    gr_api_analyze(&rq->snap->svc, rq->body ? rq->body : "", rq->len, &rq->reply);
    rq->game = rq->reply.game;
    struct MHD_Connection *conn = rq->conn;
    atomic_store(&rq->state, RQ_DONE);
    MHD_resume_connection(conn);
}

static void batch_job(void *arg)
{
    request *rq = arg;
    gr_api_batch(&rq->snap->svc, rq->body ? rq->body : "", rq->len, &rq->reply, NULL);
    struct MHD_Connection *conn = rq->conn;
    atomic_store(&rq->state, RQ_DONE);
    MHD_resume_connection(conn);
}

/* Every move of a position evaluates a position: always the compute pool's
 * work. The URL's ?limit= and ?cursor= are read on the HTTP thread, while
 * the connection is ours. */
static void moves_job(void *arg)
{
    request *rq = arg;
    gr_page_args page = { rq->page_limit[0] ? rq->page_limit : NULL, rq->page_cursor[0] ? rq->page_cursor : NULL };
    gr_api_moves(&rq->snap->svc, rq->body ? rq->body : "", rq->len, &page, &rq->reply);
    rq->game = rq->reply.game;
    struct MHD_Connection *conn = rq->conn;
    atomic_store(&rq->state, RQ_DONE);
    MHD_resume_connection(conn);
}

/* Suspends the connection and queues fn(rq) on the compute pool, or 503. */
static enum MHD_Result offload(request *rq, gr_job_fn fn)
{
    if (!gr_pool_reserve(rq->st->pool))
        return send_busy(rq);
    atomic_fetch_add(&rq->st->metrics.pool_jobs, 1);
    rq->answered = true;
    atomic_store(&rq->state, RQ_WAITING);
    MHD_suspend_connection(rq->conn);
    gr_pool_push(rq->st->pool, fn, rq);
    return MHD_YES;
}

/* The inline attempt: answered here unless it runs out of the inline
 * budget, in which case the whole query moves to the pool. */
static enum MHD_Result answer_analyze(request *rq)
{
    const gr_service *svc = &rq->snap->svc;
    if (rq->len > INLINE_BODY_MAX)
        return offload(rq, analyze_job);
    bool scoped = gr_mem_begin();
    gr_reply r;
    bool done = gr_api_answer_within(svc, rq->body ? rq->body : "", rq->len, rq->st->cfg->inline_budget, &r);
    rq->game = r.game;
    bool kept = done && keep_reply(rq, &r);
    gr_mem_free(r.body);
    if (scoped)
        gr_mem_end();
    if (!done)
        return offload(rq, analyze_job);
    return kept ? send_kept(rq, r.status, r.len) : send_reply(rq, &(gr_reply){ r.status, NULL, 0, NULL }, NULL);
}

static enum MHD_Result answer_stream(request *rq)
{
    if (!gr_pool_reserve(rq->st->pool))
        return send_busy(rq);
    atomic_fetch_add(&rq->st->metrics.pool_jobs, 1);
    struct MHD_Response *resp = gr_stream_response(rq->stream, rq->snap);
    if (!resp) {
        gr_pool_unreserve(rq->st->pool);
        return send_error(rq, GR_E_OVERLOADED, NULL, "out of memory; retry later");
    }
    gr_stream *s = rq->stream;
    rq->stream = NULL; /* the response and the job own it now */
    enum MHD_Result ok = queue(rq, 200, resp, "application/x-ndjson", NULL);
    gr_pool_push(rq->st->pool, gr_stream_produce, s);
    return ok;
}

static enum MHD_Result answer_metrics(request *rq)
{
    server_state *st = rq->st;
    gr_cache_stats cs = { 0 };
    gr_seq_cache_stats(rq->snap->svc.cache, &cs);
    gr_metric_gauges g = { .in_flight = atomic_load(&st->in_flight), .queue_depth = gr_pool_depth(st->pool),
                           .table_bytes = gr_tables_bytes(rq->snap->tables), .cache_hits = cs.hits,
                           .cache_misses = cs.misses, .cache_bytes = cs.bytes,
                           .cache_entries = cs.entries, .ready = atomic_load(&st->ready) };
    char *text = gr_metrics_render(&st->metrics, &g);
    if (!text)
        return send_error(rq, GR_E_OVERLOADED, NULL, "out of memory; retry later");
    rq->bytes = strlen(text);
    struct MHD_Response *resp = MHD_create_response_from_buffer(rq->bytes, text, MHD_RESPMEM_MUST_FREE);
    if (!resp)
        free(text);
    return queue(rq, 200, resp, "text/plain; version=0.0.4; charset=utf-8", NULL);
}

/* The playground's page and files: 200, or 304 when If-None-Match names them. */
static enum MHD_Result answer_playground(request *rq)
{
    const gr_asset *a = rq->asset;
    if (!a)
        return send_error(rq, GR_E_NOT_FOUND, NULL, "no such file");
    int status = MHD_HTTP_OK;
    const char *inm = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
    struct MHD_Response *resp = gr_static_response(a, inm, &status);
    rq->bytes = status == MHD_HTTP_OK ? *a->len : 0;
    return queue(rq, status, resp, a->type, NULL);
}

static enum MHD_Result answer_readyz(request *rq)
{
    if (atomic_load(&rq->st->ready) && !atomic_load(&rq->st->draining))
        return send_static(rq, 200, "{\"status\":\"ready\"}", 18, "application/json");
    return send_error(rq, GR_E_NOT_READY, NULL,
                      atomic_load(&rq->st->draining) ? "shutting down: send requests to another replica"
                                                     : "starting: the tables are not mapped yet");
}

static enum MHD_Result answer(request *rq)
{
    switch (rq->route) {
    case ROUTE_HEALTHZ:
        return send_static(rq, 200, "{\"status\":\"ok\"}", 15, "application/json");
    case ROUTE_READYZ:
        return answer_readyz(rq);
    case ROUTE_TABLES:
        return send_copy(rq, 200, rq->snap->tables_json, "application/json");
    case ROUTE_GAMES:
        return send_static(rq, 200, rq->st->games_json, strlen(rq->st->games_json), "application/json");
    case ROUTE_OPENAPI:
        return send_static(rq, 200, (const char *)gr_openapi_yaml, gr_openapi_yaml_len, "application/yaml");
    case ROUTE_METRICS:
        return answer_metrics(rq);
    case ROUTE_PLAYGROUND:
        return answer_playground(rq);
    default:
        break;
    }
    if (rq->too_large)
        return too_large(rq);
    if (rq->route == ROUTE_BATCH)
        return rq->stream ? answer_stream(rq) : offload(rq, batch_job);
    if (rq->route == ROUTE_MOVES)
        return offload(rq, moves_job);
    return answer_analyze(rq);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **con_cls)
{
    server_state *st = cls;
    (void)version;
    if (*con_cls == NULL)
        return begin_request(st, conn, url, method, con_cls);
    request *rq = *con_cls;
    if (*upload_data_size) {
        if (!rq->answered && rq->early == EARLY_NONE)
            append_body(rq, upload_data, *upload_data_size);
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (rq->early != EARLY_NONE && !rq->answered)
        return send_early(rq);
    if (atomic_load(&rq->state) == RQ_DONE) {
        atomic_store(&rq->state, RQ_READING);
        return send_reply(rq, &rq->reply, NULL);
    }
    if (rq->answered)
        return MHD_YES;
    rq->counted = true;
    atomic_fetch_add(&st->in_flight, 1);
    rq->snap = gr_snapshot_acquire(&st->snaps);
    return answer(rq);
}

static void access_log(const request *rq, uint64_t us)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(rq->conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    char addr[INET6_ADDRSTRLEN] = "-";
    if (ci && ci->client_addr) {
        const struct sockaddr *sa = ci->client_addr;
        if (sa->sa_family == AF_INET)
            inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, addr, sizeof addr);
        else if (sa->sa_family == AF_INET6)
            inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, addr, sizeof addr);
    }
    gr_log("info", "event=access client=%s route=%s status=%d game=%s bytes=%llu duration_us=%llu",
           addr, rq->route == ROUTE_NONE ? "other" : route_names[rq->route], rq->status,
           rq->game ? rq->game->name : "-", (unsigned long long)rq->bytes, (unsigned long long)us);
}

static void request_done(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    server_state *st = cls;
    request *rq = *con_cls;
    (void)conn;
    (void)toe;
    if (!rq)
        return;
    uint64_t us = micros_since(&rq->start);
    if (rq->status) {
        gr_metrics_observe(&st->metrics, rq->route == ROUTE_NONE ? GR_METRIC_ROUTES - 1 : (unsigned)rq->route,
                           rq->status, rq->game, us);
        if (st->cfg->access_log)
            access_log(rq, us);
    }
    if (rq->counted)
        atomic_fetch_sub(&st->in_flight, 1);
    request_reset(rq);
    *con_cls = NULL;
}

/* A connection's request state lives from its opening to its closing;
 * libmicrohttpd reports the last request's end (request_done) first. */
static void connection_event(void *cls, struct MHD_Connection *conn, void **socket_context,
                             enum MHD_ConnectionNotificationCode code)
{
    (void)cls;
    (void)conn;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        request *rq = calloc(1, sizeof *rq);
        if (rq)
            atomic_init(&rq->state, RQ_READING);
        *socket_context = rq;
        return;
    }
    request *rq = *socket_context;
    if (!rq)
        return;
    request_reset(rq);
    free(rq->body);
    free(rq->out);
    free(rq);
    *socket_context = NULL;
}

/* ---- the daemon ------------------------------------------------------------ */

static void log_mhd(void *cls, const char *fmt, va_list ap)
{
    char msg[512];
    (void)cls;
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
        msg[--n] = '\0';
    gr_log("warn", "event=httpd message=\"%s\"", msg);
}

/* Resolves host:port into *ss; returns 0 or -1 (logged). */
static int resolve(const gr_server_config *c, struct sockaddr_storage *ss, bool *ipv6)
{
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE };
    struct addrinfo *res = NULL;
    char port[8];
    snprintf(port, sizeof port, "%u", (unsigned)c->port);
    int rc = getaddrinfo(c->host, port, &hints, &res);
    if (rc != 0 || !res) {
        gr_log("error", "event=start error=\"cannot resolve host %s: %s\"", c->host, gai_strerror(rc));
        return -1;
    }
    memcpy(ss, res->ai_addr, res->ai_addrlen);
    *ipv6 = res->ai_family == AF_INET6;
    freeaddrinfo(res);
    return 0;
}

static struct MHD_Daemon *start_daemon(const gr_server_config *c, server_state *st)
{
    struct sockaddr_storage ss;
    bool ipv6 = false;
    if (resolve(c, &ss, &ipv6))
        return NULL;
    unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
    if (ipv6)
        flags |= MHD_USE_IPv6;
    return MHD_start_daemon(flags, c->port, NULL, NULL, handle, st,
                            MHD_OPTION_EXTERNAL_LOGGER, log_mhd, NULL,
                            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
                            MHD_OPTION_THREAD_POOL_SIZE, (unsigned)c->threads,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned)c->conn_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)c->conn_timeout,
                            MHD_OPTION_NOTIFY_COMPLETED, request_done, st,
                            MHD_OPTION_NOTIFY_CONNECTION, connection_event, st,
                            MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
                            MHD_OPTION_END);
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* Waits until no request is in flight, twice in a row 20 ms apart (a request
 * whose bytes just arrived gets its chance to start), or the drain time ends. */
static long drain(server_state *st, unsigned seconds)
{
    long waited = 0, quiet = 0;
    while (waited < (long)seconds * 1000 && quiet < 2) {
        quiet = atomic_load(&st->in_flight) == 0 ? quiet + 1 : 0;
        sleep_ms(20);
        waited += 20;
    }
    return atomic_load(&st->in_flight);
}

static int wait_for_signal(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    int sig = 0;
    while (sigwait(&set, &sig) != 0)
        ;
    return sig;
}

/* SIGHUP: maps the file again; a bad file leaves the old tables in place. */
static void reload(server_state *st)
{
    char why[512];
    gr_snapshot *s = gr_snapshot_load(st->tables_path, &st->cfg->service.limits,
                                      (size_t)st->cfg->cache_bytes, why, sizeof why);
    if (!s) {
        atomic_fetch_add(&st->metrics.reloads_failed, 1);
        gr_log("error", "event=reload ok=false tables=%s error=\"%s; the old tables stay\"", st->tables_path, why);
        return;
    }
    gr_snapshot_install(&st->snaps, s);
    atomic_fetch_add(&st->metrics.reloads_ok, 1);
    gr_log("info", "event=reload ok=true tables=%s bytes=%llu", st->tables_path,
           (unsigned long long)gr_tables_bytes(s->tables));
}

static void stop(server_state *st, struct MHD_Daemon *d, int sig)
{
    atomic_store(&st->draining, true);
    MHD_socket listener = MHD_quiesce_daemon(d);
    gr_log("info", "event=draining signal=%s in_flight=%ld", sig == SIGTERM ? "TERM" : "INT",
           atomic_load(&st->in_flight));
    long left = drain(st, st->cfg->drain_timeout);
    /* Workers still running resume their connections: stop them before the
     * daemon, cutting NDJSON streams short (each ends with an error line). */
    if (left)
        gr_stream_abort_all();
    gr_pool_stop(st->pool);
    MHD_stop_daemon(d);
    if (listener != MHD_INVALID_SOCKET)
        close(listener);
    gr_log("info", "event=stopped abandoned=%ld", left);
}

/* Serves until a stop signal, reloading on SIGHUP, then drains. */
static int serve(server_state *st)
{
    const gr_server_config *c = st->cfg;
    struct MHD_Daemon *d = start_daemon(c, st);
    if (!d) {
        gr_log("error", "event=start error=\"cannot listen on %s:%u: %s\"", c->host, (unsigned)c->port,
               strerror(errno));
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    unsigned port = info ? info->port : c->port;
    atomic_store(&st->ready, true);
    gr_log("info", "event=ready addr=%s:%u threads=%u compute_threads=%u queue=%u max_body=%llu "
           "conn_limit=%u tables=%s", c->host, port, c->threads, c->compute_threads, c->queue,
           (unsigned long long)c->max_body, c->conn_limit, st->tables_path);
    int sig;
    while ((sig = wait_for_signal()) == SIGHUP)
        reload(st);
    stop(st, d, sig);
    return 0;
}

/* The configured or default table file; NULL (logged) when there is none. */
static const char *tables_path(const gr_server_config *c, char paths[4][4096])
{
    char searched[1024];
    if (c->tables_path)
        return c->tables_path;
    const char *p = gr_tables_locate(paths, 4, searched, sizeof searched);
    if (!p)
        gr_log("error", "event=start error=\"no table file found (looked for %s); build one with "
               "'grundy tables build FILE' and pass --tables FILE\"", searched);
    return p;
}

static int start(server_state *st)
{
    const gr_server_config *c = st->cfg;
    char why[512];
    gr_snapshot *s = gr_snapshot_load(st->tables_path, &c->service.limits, (size_t)c->cache_bytes, why,
                                      sizeof why);
    if (!s) {
        gr_log("error", "event=start tables=%s error=\"table file %s: %s\"", st->tables_path,
               st->tables_path, why);
        return -1;
    }
    st->snaps.current = s;
    st->games_json = gr_api_games_json(&c->service.limits);
    st->pool = st->games_json ? gr_pool_start(c->compute_threads, c->queue) : NULL;
    if (!st->pool) {
        gr_log("error", "event=start error=\"out of memory or threads\"");
        return -1;
    }
    return 0;
}

int gr_server_run(gr_server_config *c)
{
    char paths[4][4096];
    server_state st = { .cfg = c, .tables_path = tables_path(c, paths) };
    pthread_mutex_init(&st.snaps.mu, NULL);
    atomic_init(&st.in_flight, 0);
    atomic_init(&st.draining, false);
    atomic_init(&st.ready, false);
    gr_metrics_init(&st.metrics, route_names);
    int rc = st.tables_path && start(&st) == 0 ? serve(&st) : 1;
    if (rc != 0 && st.pool)
        gr_pool_stop(st.pool);
    gr_snapshot_release(st.snaps.current);
    pthread_mutex_destroy(&st.snaps.mu);
    free(st.games_json);
    return rc;
}
