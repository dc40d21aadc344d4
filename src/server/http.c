/* libmicrohttpd glue: routing, body collection under a size limit, replies,
 * and the drain on shutdown. The server never computes; it hands bytes to
 * the api layer and sends back what it returns. */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api/analyze.h"
#include "api/catalog.h"
#include "api/seq_cache.h"
#include "tables/locate.h"
#include "tables/tables.h"
#include "server/log.h"
#include "server/server.h"

typedef enum route_id { ROUTE_NONE, ROUTE_ANALYZE, ROUTE_HEALTHZ, ROUTE_TABLES } route_id;

typedef struct route {
    const char *path;
    const char *method; /* the one method the path answers */
    route_id id;
} route;

static const route routes[] = {
    { "/v1/analyze", MHD_HTTP_METHOD_POST, ROUTE_ANALYZE },
    { "/healthz", MHD_HTTP_METHOD_GET, ROUTE_HEALTHZ },
    { "/v1/tables", MHD_HTTP_METHOD_GET, ROUTE_TABLES },
};

typedef struct server_state {
    const gr_server_config *cfg;
    char *tables_json; /* GET /v1/tables, rendered once at startup */
    atomic_long in_flight;  /* requests being answered: from the full body to the reply sent */
    atomic_bool draining;   /* set on SIGTERM: replies carry Connection: close */
} server_state;

/* Per-request state, created on the first call of the access handler. */
typedef struct request {
    route_id route;
    char *body;
    size_t len, cap;
    bool too_large;
    bool answered; /* a reply was queued */
    bool counted;  /* counted in in_flight; a body abandoned half-way is never counted,
                    * since libmicrohttpd reports such connections only at their timeout */
} request;

static enum MHD_Result send_reply(struct MHD_Connection *conn, server_state *st, gr_reply *r,
                                  const char *allow)
{
    static const char fallback[] =
        "{\"error\":{\"code\":\"overloaded\",\"message\":\"out of memory; retry later\",\"field\":null}}";
    struct MHD_Response *resp;
    if (r->body) {
        resp = MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_MUST_FREE);
    } else {
        r->status = MHD_HTTP_SERVICE_UNAVAILABLE;
        resp = MHD_create_response_from_buffer(sizeof fallback - 1, (void *)fallback,
                                               MHD_RESPMEM_PERSISTENT);
    }
    if (!resp) {
        free(r->body);
        return MHD_NO;
    }
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    if (allow)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, allow);
    if (r->status == MHD_HTTP_SERVICE_UNAVAILABLE)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, "1");
    if (atomic_load(&st->draining))
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
    enum MHD_Result ok = MHD_queue_response(conn, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ok;
}

static enum MHD_Result send_error(struct MHD_Connection *conn, server_state *st, int status,
                                  const char *code, const char *allow, const char *message)
{
    gr_api_error e;
    gr_fail(&e, status, code, "", "%s", message);
    gr_reply r;
    gr_api_error_reply(&e, &r);
    return send_reply(conn, st, &r, allow);
}

static enum MHD_Result send_json(struct MHD_Connection *conn, server_state *st, const char *json)
{
    gr_reply r = { 200, strdup(json), strlen(json) };
    r.status = r.body ? 200 : 503;
    return send_reply(conn, st, &r, NULL);
}

/* Resolves the route; answers 404/405 itself and returns false then. */
static bool find_route(struct MHD_Connection *conn, server_state *st, const char *url,
                       const char *method, route_id *id, enum MHD_Result *res)
{
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        if (strcmp(routes[i].path, url) != 0)
            continue;
        bool head = strcmp(method, MHD_HTTP_METHOD_HEAD) == 0 &&
                    strcmp(routes[i].method, MHD_HTTP_METHOD_GET) == 0;
        if (strcmp(routes[i].method, method) == 0 || head) {
            *id = routes[i].id;
            return true;
        }
        char msg[64];
        snprintf(msg, sizeof msg, "this path answers %s only", routes[i].method);
        *res = send_error(conn, st, MHD_HTTP_METHOD_NOT_ALLOWED, "method_not_allowed", routes[i].method, msg);
        return false;
    }
    *res = send_error(conn, st, MHD_HTTP_NOT_FOUND, "not_found", NULL,
                      "no such path; use POST /v1/analyze, GET /v1/tables or GET /healthz");
    return false;
}

static bool declared_too_large(struct MHD_Connection *conn, uint64_t max)
{
    const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (!cl)
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(cl, &end, 10);
    return errno == ERANGE || (end != cl && v > max);
}

static enum MHD_Result too_large(struct MHD_Connection *conn, server_state *st)
{
    char msg[128];
    snprintf(msg, sizeof msg, "the body is larger than the limit of %llu bytes; send a smaller query",
             (unsigned long long)st->cfg->max_body);
    return send_error(conn, st, MHD_HTTP_CONTENT_TOO_LARGE, "body_too_large", NULL, msg);
}

static void append_body(request *rq, const char *data, size_t n, uint64_t max)
{
    if (rq->too_large || rq->len + n > max) {
        rq->too_large = true;
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

static enum MHD_Result begin_request(struct MHD_Connection *conn, server_state *st, const char *url,
                                     const char *method, void **con_cls)
{
    request *rq = calloc(1, sizeof *rq);
    if (!rq)
        return MHD_NO;
    *con_cls = rq;
    enum MHD_Result res = MHD_YES;
    if (!find_route(conn, st, url, method, &rq->route, &res)) {
        rq->answered = true;
        return res;
    }
    if (rq->route == ROUTE_ANALYZE && declared_too_large(conn, st->cfg->max_body)) {
        rq->answered = true;
        return too_large(conn, st);
    }
    return MHD_YES;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **con_cls)
{
    server_state *st = cls;
    (void)version;
    if (*con_cls == NULL)
        return begin_request(conn, st, url, method, con_cls);
    request *rq = *con_cls;
    if (*upload_data_size) {
        if (!rq->answered)
            append_body(rq, upload_data, *upload_data_size, st->cfg->max_body);
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (rq->answered)
        return MHD_YES;
    rq->answered = true;
    rq->counted = true;
    atomic_fetch_add(&st->in_flight, 1);
    if (rq->route == ROUTE_HEALTHZ)
        return send_json(conn, st, "{\"status\":\"ok\"}");
    if (rq->route == ROUTE_TABLES)
        return send_json(conn, st, st->tables_json);
    if (rq->too_large)
        return too_large(conn, st);
    gr_reply r;
    gr_api_analyze(&st->cfg->service, rq->body ? rq->body : "", rq->len, &r);
    return send_reply(conn, st, &r, NULL);
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
    if (rq->counted)
        atomic_fetch_sub(&st->in_flight, 1);
    free(rq->body);
    free(rq);
    *con_cls = NULL;
}

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
    unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG;
    if (ipv6)
        flags |= MHD_USE_IPv6;
    return MHD_start_daemon(flags, c->port, NULL, NULL, handle, st,
                            MHD_OPTION_EXTERNAL_LOGGER, log_mhd, NULL,
                            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
                            MHD_OPTION_THREAD_POOL_SIZE, (unsigned)c->threads,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned)c->conn_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)c->conn_timeout,
                            MHD_OPTION_NOTIFY_COMPLETED, request_done, st,
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

static int wait_for_stop_signal(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    int sig = 0;
    while (sigwait(&set, &sig) != 0)
        ;
    return sig;
}

/* Serves with `tables` mapped until a stop signal, then drains. */
static int serve(const gr_server_config *c, const gr_tables *tables)
{
    server_state st = { .cfg = c, .tables_json = gr_api_tables_json(tables) };
    if (!st.tables_json) {
        gr_log("error", "event=start error=\"out of memory\"");
        return 1;
    }
    atomic_init(&st.in_flight, 0);
    atomic_init(&st.draining, false);
    struct MHD_Daemon *d = start_daemon(c, &st);
    if (!d) {
        gr_log("error", "event=start error=\"cannot listen on %s:%u: %s\"", c->host, (unsigned)c->port,
               strerror(errno));
        free(st.tables_json);
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    unsigned port = info ? info->port : c->port;
    gr_log("info", "event=ready addr=%s:%u threads=%u max_body=%llu conn_limit=%u tables=%s", c->host,
           port, c->threads, (unsigned long long)c->max_body, c->conn_limit, gr_tables_path(tables));
    int sig = wait_for_stop_signal();
    atomic_store(&st.draining, true);
    MHD_socket listener = MHD_quiesce_daemon(d);
    gr_log("info", "event=draining signal=%s in_flight=%ld", sig == SIGTERM ? "TERM" : "INT",
           atomic_load(&st.in_flight));
    long left = drain(&st, c->drain_timeout);
    MHD_stop_daemon(d);
    if (listener != MHD_INVALID_SOCKET)
        close(listener);
    gr_log("info", "event=stopped abandoned=%ld", left);
    free(st.tables_json);
    return 0;
}

/* Opens the configured or default table file; logs the fault and returns
 * -1 when there is none or it is bad: the daemon does not start then. */
static int load_tables(const gr_server_config *c, gr_tables **t)
{
    char paths[4][4096], searched[1024], why[512];
    const char *path = c->tables_path;
    if (!path && !(path = gr_tables_locate(paths, 4, searched, sizeof searched))) {
        gr_log("error", "event=start error=\"no table file found (looked for %s); build one with "
               "'grundy tables build FILE' and pass --tables FILE\"", searched);
        return -1;
    }
    if (gr_tables_open(path, t, why, sizeof why) != 0) {
        gr_log("error", "event=start tables=%s error=\"table file %s: %s\"", path, path, why);
        return -1;
    }
    return 0;
}

int gr_server_run(gr_server_config *c)
{
    gr_tables *tables = NULL;
    if (load_tables(c, &tables))
        return 1;
    gr_limits limits = c->service.limits;
    if (gr_service_init(&c->service, tables, (size_t)c->cache_bytes) != 0) {
        gr_log("error", "event=start error=\"out of memory\"");
        gr_tables_close(tables);
        return 1;
    }
    c->service.limits = limits;
    int rc = serve(c, tables);
    gr_service_fini(&c->service);
    gr_tables_close(tables);
    return rc;
}
