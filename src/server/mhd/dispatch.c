/* SPDX-License-Identifier: MIT */
/* The request side of libmicrohttpd: routing, bodies under size limits,
 * NDJSON streams, metrics and the access log; what runs on the compute pool
 * is compute.c's. Replies
 * go out through response.c; the daemon's start, SIGHUP reloads and the drain on
 * shutdown are daemon.c's. The server never decides a game; it hands bytes
 * to the api layer and sends back what it returns.
 *
 * Where a query runs: every query first runs on the HTTP thread with a small
 * budget (--inline-budget). Most finish there in microseconds. One that runs
 * out of that budget (an uncached period search, a big graph or board), a
 * body too large to parse inline, and every batch are suspended
 * (MHD_suspend_connection) and handed to the compute pool, whose bounded
 * queue answers 503 with Retry-After when full; the worker resumes the
 * connection with the reply. So heavy work never holds an HTTP thread, and
 * light queries keep their latency while the pool is saturated. A job that
 * waited in the queue past --queue-wait-ms is answered 503 instead of run.
 *
 * Before any route, every_head.c judges the head (control bytes in the
 * URL, its length, the head's size, transfer codings); admission.c keeps
 * the connection table's limits; the body read and dropped after an early
 * answer is bounded here (lingering). */
#include "dispatch.h"

#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "seq_cache.h"
#include "access_log.h"
#include "compute.h"
#include "duplex.h"
#include "admission.h"
#include "bg_thread.h"
#include "every_head.h"
#include "log.h"
#include "response.h"
#include "spool_quota.h"

/* Buffers a connection keeps between requests; larger ones are released
 * when the request ends, so idle connections hold little memory. */
#define KEEP_BUFFER_MAX 16384

static const route routes[] = {
#define GR_ROUTE_ENTRY(id, path, method, varies) { path, MHD_HTTP_METHOD_##method, ROUTE_##id },
    GR_ROUTES(GR_ROUTE_ENTRY)
#undef GR_ROUTE_ENTRY
};

_Static_assert(ROUTE_NONE + 1 <= GR_METRIC_ROUTES, "a metrics row for every route and \"other\"");

const char *const http_route_names[ROUTE_NONE + 1] = {
#define GR_ROUTE_NAME(id, path, method, varies) path,
    GR_ROUTES(GR_ROUTE_NAME)
#undef GR_ROUTE_NAME
    "other",
};

static uint64_t micros_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    int64_t us = (int64_t)(t.tv_sec - t0->tv_sec) * 1000000 + (t.tv_nsec - t0->tv_nsec) / 1000;
    return us > 0 ? (uint64_t)us : 0;
}

/* ---- routing ------------------------------------------------------------- */

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

/* How a JSON answer writes integers: ?integers= first, else the integers=
 * parameter of Accept. A value other than "string" or "number" is a 400
 * naming `integers`, sent once the body is read, unless the path or the
 * method is at fault already (those answers hold no integer). */
static void read_int_form(request *rq)
{
    if (rq->route == ROUTE_METRICS || rq->route == ROUTE_OPENAPI || rq->route == ROUTE_PLAYGROUND)
        return; /* answers that are not JSON */
    const char *query = MHD_lookup_connection_value(rq->conn, MHD_GET_ARGUMENT_KIND, "integers");
    char bad[48] = "";
    bool ok;
    if (query) {
        ok = gr_int_form_parse(query, strlen(query), &rq->int_form);
        if (!ok)
            gr_printable(query, bad, sizeof bad);
    } else {
        const char *accept = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
        ok = gr_accept_int_form(accept, &rq->int_form, bad, sizeof bad) == 0;
    }
    if (ok)
        return;
    rq->int_form = GR_INTS_NUMBER;
    snprintf(rq->early_message, sizeof rq->early_message,
             "%s integers=\"%s\" is not a form of integers; send integers=string (every integer of the "
             "answer as a decimal string) or integers=number (the default)",
             query ? "the query's" : "the Accept header's", bad);
    if (rq->early == EARLY_NONE)
        rq->early = EARLY_BAD_INTEGERS;
}

static enum MHD_Result send_early(request *rq)
{
    if (rq->early == EARLY_NOT_FOUND)
        return response_error(rq, GR_E_NOT_FOUND, NULL, not_found_message());
    if (rq->early == EARLY_BAD_INTEGERS)
        return response_field_error(rq, GR_E_BAD_REQUEST, "integers", rq->early_message);
    if (rq->early == EARLY_BAD_HEAD)
        return response_error(rq, rq->early_code, NULL, rq->early_message);
    const route *r = rq->entry;
    char allow[48];
    snprintf(allow, sizeof allow, "%s, OPTIONS%s", r->method,
             strcmp(r->method, MHD_HTTP_METHOD_GET) == 0 ? ", HEAD" : "");
    if (rq->early == EARLY_PREFLIGHT)
        return response_preflight(rq, allow);
    char msg[64];
    snprintf(msg, sizeof msg, "this path answers %s only", r->method);
    return response_error(rq, GR_E_METHOD_NOT_ALLOWED, allow, msg);
}

/* ---- reading the request ------------------------------------------------- */

static bool is_ndjson(struct MHD_Connection *conn)
{
    const char *ct = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    return ct && strncasecmp(ct, "application/x-ndjson", 20) == 0;
}

static uint64_t body_limit(const request *rq)
{
    return rq->stream ? rq->st->cfg->max_stream : rq->st->cfg->max_body;
}

bool http_declared_length(struct MHD_Connection *conn, uint64_t *length)
{
    const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (!cl || *cl < '0' || *cl > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(cl, &end, 10);
    *length = v;
    return errno == 0 && *end == '\0';
}

/* ---- lingering: the body after an early answer ---------------------------- */

static uint64_t elapsed_ms(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    int64_t ms = (int64_t)(t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
    return ms > 0 ? (uint64_t)ms : 0;
}

/* Whether n more bytes of a body that is being dropped (after an early
 * error, or past the body limit) are still read; false once the bytes or
 * the time of lingering are spent, when the connection is closed. */
static bool linger_more(request *rq, size_t n)
{
    const gr_server_config *c = rq->st->cfg;
    rq->dropped += n;
    return rq->dropped <= c->linger_bytes && elapsed_ms(&rq->start) <= (uint64_t)c->linger_time * 1000;
}

/* Whether a declared body over its limit is read to its end (and dropped)
 * to answer after it, rather than at once: when it is within --linger-bytes. */
static bool linger_declared(const request *rq, uint64_t declared)
{
    return declared <= rq->st->cfg->linger_bytes;
}

/* --max-spool is taken by other streams: a 503 (with Retry-After), since
 * the same body fits once they end. */
static enum MHD_Result spool_full(request *rq)
{
    char msg[256];
    snprintf(msg, sizeof msg, "the server's NDJSON spool is full: streams being received hold %llu of "
             "its %llu bytes (--max-spool); retry after a second",
             (unsigned long long)gr_spool_quota_used(), (unsigned long long)gr_spool_quota_max());
    return response_error(rq, GR_E_OVERLOADED, NULL, msg);
}

/* A JSON batch too large for --max-body is pointed to the NDJSON stream,
 * whose limit is --max-stream and whose answers start before it ends. */
static enum MHD_Result too_large(request *rq)
{
    char msg[384];
    int n = snprintf(msg, sizeof msg, "the body is larger than the limit of %llu bytes (%s); ",
                     (unsigned long long)body_limit(rq), rq->stream ? "--max-stream" : "--max-body");
    if (rq->route == ROUTE_BATCH && !rq->stream)
        snprintf(msg + n, sizeof msg - (size_t)n,
                 "for a large job stream the queries as NDJSON instead: POST /v1/batch with "
                 "Content-Type: application/x-ndjson, one query per line, up to %llu bytes "
                 "(--max-stream), answered line by line as they are computed",
                 (unsigned long long)rq->st->cfg->max_stream);
    else
        snprintf(msg + n, sizeof msg - (size_t)n, "send a smaller one");
    return response_error(rq, GR_E_BODY_TOO_LARGE, NULL, msg);
}

static void append_body(request *rq, const char *data, size_t n)
{
    if (rq->too_large || rq->len + n > body_limit(rq)) {
        rq->too_large = true;
        return;
    }
    if (rq->stream) {
        int rc = gr_stream_spool(rq->stream, data, n);
        rq->spool_full = rc == -2;
        rq->too_large = rc != 0;
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
    if (rq->stream_response)
        MHD_destroy_response(rq->stream_response); /* never queued: its stream is cancelled */
    gr_snapshot_release(rq->snap);
    gr_stream_release(rq->stream);
    free(rq->reply.body);
    gr_admitted *admitted = rq->admitted;
    gr_head_marks marks = rq->head_marks;
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
    rq->admitted = admitted;
    rq->head_marks = marks;
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
    if (!rq || !gr_admission_head_arrived(rq->admitted))
        return MHD_NO; /* its allocation failed when it opened, or it was refused or timed out */
    request_reset(rq);
    rq->st = st;
    rq->conn = conn;
    clock_gettime(CLOCK_MONOTONIC, &rq->start);
    atomic_init(&rq->state, RQ_READING);
    *con_cls = rq;
    find_route(rq, url, method);
    gr_request_id_take(rq->request_id, MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Request-Id"));
    gr_codings_parse(&rq->codings,
                     MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING));
    read_int_form(rq);
    /* Every head, a keep-alive connection's later ones too, is judged here;
     * a first head was judged before libmicrohttpd read it (acceptor.h). */
    bool in_doubt;
    gr_error_code head = gr_every_head_check(rq, &in_doubt, rq->early_message, sizeof rq->early_message);
    if (in_doubt) /* a body whose end is unknown: answered at once, so libmicrohttpd closes the connection */
        return response_error(rq, head, NULL, rq->early_message);
    if (head != GR_NERROR_CODES) { /* answered after the body, read and dropped (lingering) */
        rq->early = EARLY_BAD_HEAD;
        rq->early_code = head;
        return MHD_YES;
    }
    if (rq->early != EARLY_NONE)
        return MHD_YES;
    if (rq->route == ROUTE_MOVES)
        copy_page_args(rq);
    if (rq->route == ROUTE_BATCH && is_ndjson(conn)) {
        rq->stream = gr_stream_new(conn, rq->int_form, compute_count_batch_query, &st->metrics);
        if (!rq->stream)
            return response_error(rq, GR_E_OVERLOADED, NULL, "cannot open a spool file for the stream; retry later");
    }
    uint64_t declared;
    if ((rq->route == ROUTE_ANALYZE || rq->route == ROUTE_BATCH || rq->route == ROUTE_MOVES) &&
        http_declared_length(conn, &declared) && declared > body_limit(rq)) {
        if (!linger_declared(rq, declared))
            return too_large(rq);
        rq->too_large = true; /* answered after the body, read and dropped (lingering) */
    }
    if (!rq->too_large && rq->stream && http_declared_length(conn, &declared) &&
        !gr_stream_reserve(rq->stream, declared))
        return spool_full(rq);
    return MHD_YES;
}

/* ---- answering ------------------------------------------------------------ */


static enum MHD_Result answer_metrics(request *rq)
{
    server_state *st = rq->st;
    gr_cache_stats cs = { 0 };
    gr_seq_cache_stats(rq->snap->svc.cache, &cs);
    gr_metric_gauges g = { .in_flight = atomic_load(&st->in_flight), .queue_depth = gr_pool_depth(st->pool),
                           .table_bytes = gr_tables_bytes(rq->snap->tables), .cache_hits = cs.hits,
                           .cache_misses = cs.misses, .cache_bytes = cs.bytes,
                           .cache_entries = cs.entries, .access_log_dropped = gr_log_dropped(),
                           .spool_bytes = gr_spool_quota_used(),
                           .ready = atomic_load(&st->ready), .version = gr_server_version() };
    char *text = gr_metrics_render(&st->metrics, &g);
    if (text)
        text = gr_snapshot_health_metrics(rq->snap, text);
    if (text)
        text = gr_watch_metrics(st->watch, text);
    if (!text)
        return response_error(rq, GR_E_OVERLOADED, NULL, "out of memory; retry later");
    rq->bytes = strlen(text);
    struct MHD_Response *resp = MHD_create_response_from_buffer(rq->bytes, text, MHD_RESPMEM_MUST_FREE);
    if (!resp)
        free(text);
    return response_queue(rq, 200, resp, "text/plain; version=0.0.4; charset=utf-8", NULL);
}

/* The playground's page and files: 200, or 304 when If-None-Match names them. */
static enum MHD_Result answer_playground(request *rq)
{
    const gr_asset *a = rq->asset;
    if (!a)
        return response_error(rq, GR_E_NOT_FOUND, NULL, "no such file");
    return response_entity(rq, &rq->st->assets[gr_static_index(a)], a->type, gr_static_headers);
}

static enum MHD_Result answer_readyz(request *rq)
{
    if (atomic_load(&rq->st->ready) && !atomic_load(&rq->st->draining)) {
        if (!gr_tables_off_count(rq->snap->tables))
            return response_static(rq, 200, "{\"status\":\"ready\"}", 18, "application/json");
        char *body = gr_snapshot_ready_json(rq->snap); /* with the sections no longer used */
        if (!body)
            return response_error(rq, GR_E_OVERLOADED, NULL, "out of memory; retry later");
        enum MHD_Result ok = response_copy(rq, 200, body, "application/json");
        cJSON_free(body);
        return ok;
    }
    return response_error(rq, GR_E_NOT_READY, NULL,
                      atomic_load(&rq->st->draining) ? "shutting down: send requests to another replica"
                                                     : "starting: the tables are not mapped yet");
}

static enum MHD_Result answer(request *rq)
{
    switch (rq->route) {
    case ROUTE_HEALTHZ:
        return response_static(rq, 200, "{\"status\":\"ok\"}", 15, "application/json");
    case ROUTE_READYZ:
        return answer_readyz(rq);
    case ROUTE_TABLES:
        return response_copy(rq, 200, rq->snap->tables_json, "application/json");
    case ROUTE_GAMES:
        return response_entity(rq, rq->int_form == GR_INTS_STRING ? &rq->st->games_strings : &rq->st->games,
                            "application/json", NULL);
    case ROUTE_OPENAPI:
        return response_entity(rq, &rq->st->openapi, "application/yaml", NULL);
    case ROUTE_METRICS:
        return answer_metrics(rq);
    case ROUTE_PLAYGROUND:
        return answer_playground(rq);
    default:
        break;
    }
    if (rq->spool_full)
        return spool_full(rq);
    if (rq->too_large)
        return too_large(rq);
    if (rq->route == ROUTE_BATCH)
        return rq->stream ? compute_stream(rq) : compute_batch(rq);
    if (rq->route == ROUTE_MOVES)
        return compute_moves(rq);
    return compute_analyze(rq);
}

enum MHD_Result http_handle(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                            const char *version, const char *upload_data, size_t *upload_data_size,
                            void **con_cls)
{
    server_state *st = cls;
    if (*con_cls == NULL)
        return begin_request(st, conn, url, method, con_cls);
    request *rq = *con_cls;
    if (*upload_data_size) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (atomic_load_explicit(&st->draining, memory_order_relaxed))
            atomic_store(&st->drain_body_ms, gr_monotonic_ms()); /* the drain waits while uploads move */
        if (rq->answered)
            return MHD_YES;
        if (rq->early != EARLY_NONE || rq->too_large) /* a body to drop, within bounds */
            return linger_more(rq, n) ? MHD_YES : MHD_NO;
        append_body(rq, upload_data, n);
        if (rq->stream && !rq->too_large)
            http_start_duplex(rq, version);
        return MHD_YES;
    }
    if (rq->early != EARLY_NONE && !rq->answered)
        return send_early(rq);
    rq_state state = atomic_load(&rq->state);
    if (state == RQ_DONE || state == RQ_STREAMING) {
        atomic_store(&rq->state, RQ_READING);
        return state == RQ_STREAMING ? compute_stream_start(rq) : response_send_coded(rq, &rq->reply, NULL, rq->gzipped);
    }
    if (rq->answered)
        return MHD_YES;
    rq->counted = true;
    atomic_fetch_add(&st->in_flight, 1);
    rq->snap = gr_snapshot_acquire(&st->snaps);
    rq->faults_at_start = gr_tables_faults(rq->snap->tables);
    return answer(rq);
}

static void access_log(const request *rq, uint64_t us, gr_access_format format)
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
    gr_access a = { .client = addr[0] != '-' ? addr : NULL,
                    .request_id = rq->request_id[0] ? rq->request_id : NULL,
                    .route = rq->route == ROUTE_NONE ? "other" : http_route_names[rq->route],
                    .game = rq->game ? rq->game->name : NULL, .status = rq->status, .bytes = rq->bytes,
                    .duration_us = us };
    gr_access_log(format, &a);
}

/* The drain's counts (server/drain.h): a request read in full is answered
 * when its reply went out whole. */
static void count_drained(server_state *st, const request *rq, enum MHD_RequestTerminationCode toe)
{
    if (toe != MHD_REQUEST_TERMINATED_COMPLETED_OK || !rq->status)
        return;
    atomic_fetch_add(&st->drain_answered, 1);
    if (rq->error && strcmp(rq->error, gr_error_name(GR_E_SHUTTING_DOWN)) == 0)
        atomic_fetch_add(&st->drain_cancelled, 1);
}

/* An answer the compute pool made that libmicrohttpd never asked for: the
 * client went while its query ran, and libmicrohttpd saw its end before
 * calling the handler again. It is logged and counted as the handler would
 * have sent it (a stream's 200, the job's reply), with no byte sent, so
 * that a request read whole leaves its access line however the two raced. */
static void take_unsent_reply(request *rq)
{
    rq_state state = atomic_load(&rq->state);
    if (rq->status || !rq->counted)
        return;
    if (state == RQ_STREAMING)
        rq->status = MHD_HTTP_OK;
    else if (state == RQ_DONE)
        response_record_unsent(rq, &rq->reply);
}

void http_request_done(void *cls, struct MHD_Connection *conn, void **con_cls,
                       enum MHD_RequestTerminationCode toe)
{
    server_state *st = cls;
    request *rq = *con_cls;
    (void)conn;
    if (!rq)
        return;
    uint64_t us = micros_since(&rq->start);
    take_unsent_reply(rq);
    if (rq->status) {
        unsigned label = rq->route == ROUTE_NONE ? ROUTE_NONE : (unsigned)rq->route;
        gr_metrics_observe(&st->metrics, label, rq->status, rq->error, us);
        if ((rq->route == ROUTE_ANALYZE || rq->route == ROUTE_MOVES) && rq->early == EARLY_NONE)
            gr_metrics_query(&st->metrics, label, rq->game, rq->error);
        if (st->cfg->access_log)
            access_log(rq, us, (gr_access_format)st->cfg->access_log);
    }
    if (atomic_load(&rq->watch.linked)) /* only when its job never ran */
        gr_watch_remove(st->watch, &rq->watch);
    if (rq->counted && atomic_load(&st->draining))
        count_drained(st, rq, toe);
    if (rq->counted)
        atomic_fetch_sub(&st->in_flight, 1);
    gr_admission_request_ended(rq->admitted);
    rq->head_marks = (gr_head_marks){ 0 };
    request_reset(rq);
    *con_cls = NULL;
}

void http_connection_event(void *cls, struct MHD_Connection *conn, void **socket_context,
                           enum MHD_ConnectionNotificationCode code)
{
    (void)cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        request *rq = calloc(1, sizeof *rq);
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        int fd = ci ? ci->connect_fd : -1;
        if (rq) {
            atomic_init(&rq->state, RQ_READING);
            rq->admitted = gr_admission_open(fd);
        } else {
            gr_admission_take_back(fd); /* uncounted: its first callback drops it (no request state) */
        }
        *socket_context = rq;
        return;
    }
    request *rq = *socket_context;
    if (!rq)
        return;
    request_reset(rq);
    gr_admission_close(rq->admitted);
    free(rq->body);
    free(rq->out);
    free(rq);
    *socket_context = NULL;
}

