/* SPDX-License-Identifier: MIT */
/* The daemon's life (gr_server_run): the table file mapped, the compute pool
 * and libmicrohttpd started, SIGHUP reloads, and on SIGTERM or SIGINT the
 * drain of requests in flight before everything stops. */
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "catalog.h"
#include "grundy/alloc.h"
#include "tables/locate.h"

#include "acceptor.h"
#include "admission.h"
#include "dispatch.h"
#include "drain.h"
#include "every_head.h"
#include "log.h"
#include "request.h"
#include "server.h"
#include "spool_quota.h"
#include "verify.h"

extern const unsigned char gr_openapi_yaml[];
extern const unsigned long gr_openapi_yaml_len;

static void log_mhd(void *cls, const char *fmt, va_list ap)
{
    char msg[512];
    (void)cls;
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
        msg[--n] = '\0';
    if (strstr(msg, "incomplete request") && gr_stream_expected_close())
        return; /* a duplex NDJSON stream's end, not the client's fault */
    gr_log("warn", "event=httpd message=\"%s\"", msg);
}

static struct MHD_Daemon *start_daemon(const gr_server_config *c, server_state *st)
{
    /* The listener is the acceptor's (acceptor.h), which hands over each
     * connection whose first head it has judged. */
    unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG |
                     MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC;
    return MHD_start_daemon(flags, 0, NULL, NULL, http_handle, st,
                            MHD_OPTION_EXTERNAL_LOGGER, log_mhd, NULL,
                            MHD_OPTION_CONNECTION_LIMIT, gr_admission_mhd_limit(c),
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, gr_every_head_mhd_memory(c),
                            MHD_OPTION_URI_LOG_CALLBACK, gr_every_head_uri_seen, NULL,
                            MHD_OPTION_UNESCAPE_CALLBACK, gr_every_head_unescape, NULL,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)c->conn_timeout,
                            MHD_OPTION_NOTIFY_COMPLETED, http_request_done, st,
                            MHD_OPTION_NOTIFY_CONNECTION, http_connection_event, st,
                            /* One thread is the internal thread alone: libmicrohttpd warns
                             * about a pool of 1, so the list ends before it. */
                            c->threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END, (unsigned)c->threads,
                            MHD_OPTION_END);
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

/* The drain (server/drain.h), then the pool and libmicrohttpd stop. */
static void stop(server_state *st, struct MHD_Daemon *d, gr_acceptor *acc, int sig)
{
    atomic_store(&st->draining, true);
    gr_log("info", "event=draining signal=%s in_flight=%ld grace=%u timeout=%u", sig == SIGTERM ? "TERM" : "INT",
           atomic_load(&st->in_flight), st->cfg->drain_grace, st->cfg->drain_timeout);
    gr_drain_counts n;
    gr_drain(st, acc, &n);
    gr_acceptor_stop(acc);
    gr_verifier_stop(st->verifier);
    st->verifier = NULL;
    gr_pool_stop(st->pool);
    MHD_stop_daemon(d);
    gr_watch_stop(st->watch);
    st->watch = NULL;
    gr_admission_stop();
    /* The requests' lines first, so that event=stopped is the last line. */
    gr_log_flush();
    gr_log("info", "event=stopped answered=%lu cancelled=%lu abandoned=%ld", n.answered, n.cancelled,
           n.abandoned);
}

/* The ready line: the address, and each size with where it came from. */
static void log_ready(const gr_server_config *c, unsigned port, const char *tables)
{
    char memory[24] = "unlimited";
    if (c->box.memory_max)
        snprintf(memory, sizeof memory, "%llu", (unsigned long long)c->box.memory_max);
    gr_log("info", "event=ready addr=%s:%u cpus=%u cpus_from=\"%s\" threads=%u threads_from=\"%s\" "
           "compute_threads=%u compute_threads_from=\"%s\" memory_max=%s cache_bytes=%llu "
           "cache_bytes_from=\"%s\" query_memory=%llu query_memory_from=\"%s\" query_memory_total=%llu "
           "query_memory_total_from=\"%s\" queue=%u max_body=%llu conn_limit=%u tables=%s",
           c->host, port, c->box.cpus, c->box.cpus_from, c->threads, c->threads_from, c->compute_threads,
           c->compute_threads_from, memory, (unsigned long long)c->cache_bytes, c->cache_bytes_from,
           (unsigned long long)c->service.limits.query_memory, c->query_memory_from,
           (unsigned long long)c->query_memory_total, c->query_memory_total_from, c->queue,
           (unsigned long long)c->max_body, c->conn_limit, tables);
}

/* Each connection holds one descriptor: the soft limit is raised to the
 * hard one, and a limit still below what --conn-limit needs is logged. */
static void raise_fd_limit(const gr_server_config *c)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    uint64_t need = (uint64_t)c->conn_limit + 64;
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need)
        gr_log("warn", "event=start message=\"the descriptor limit %llu is below the %llu that --conn-limit %u "
               "needs; raise it (ulimit -n, LimitNOFILE) or lower --conn-limit\"",
               (unsigned long long)rl.rlim_cur, (unsigned long long)need, c->conn_limit);
}

/* Serves until a stop signal, reloading on SIGHUP, then drains. */
static int serve(server_state *st)
{
    const gr_server_config *c = st->cfg;
    raise_fd_limit(c);
    unsigned port = c->port;
    int listener = gr_listen_socket(c, &port);
    int err = errno;
    struct MHD_Daemon *d = listener >= 0 && gr_admission_start(c) == 0 ? start_daemon(c, st) : NULL;
    err = listener >= 0 ? errno : err;
    gr_acceptor *acc = d ? gr_acceptor_start(c, d, listener) : NULL;
    if (!acc) {
        if (d)
            MHD_stop_daemon(d);
        else if (listener >= 0)
            close(listener);
        gr_admission_stop();
        gr_log("error", "event=start error=\"cannot listen on %s:%u: %s\"", c->host, (unsigned)c->port,
               strerror(err));
        return 1;
    }
    atomic_store(&st->ready, true);
    log_ready(c, port, st->tables_path);
    int sig;
    while ((sig = wait_for_signal()) == SIGHUP) {
        gr_verify_now(st); /* pages changed in place are not "the old tables" */
        reload(st);
        gr_log_flush();
    }
    stop(st, d, acc, sig);
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

/* The catalogue with every integer a decimal string (integers=string),
 * kept in st->games_strings_json as long as its entity. */
static int make_games_strings(server_state *st)
{
    size_t len = strlen(st->games_json);
    size_t n = gr_json_ints_quoted_len(st->games_json, len);
    st->games_strings_json = malloc(n ? n : 1);
    if (!st->games_strings_json)
        return -1;
    gr_json_ints_quote(st->games_json, len, st->games_strings_json);
    return gr_entity_make(&st->games_strings, st->games_strings_json, n);
}

/* The fixed bodies and their gzip forms, compressed once here rather than
 * per request. The catalogue's two integer forms are two entities, so each
 * has its own ETag. */
static int make_entities(server_state *st)
{
    if (gr_entity_make(&st->games, st->games_json, strlen(st->games_json)) || make_games_strings(st) ||
        gr_entity_make(&st->openapi, gr_openapi_yaml, gr_openapi_yaml_len))
        return -1;
    return gr_static_entities(st->assets);
}

static void free_entities(server_state *st)
{
    gr_entity_free(&st->games);
    gr_entity_free(&st->games_strings);
    gr_entity_free(&st->openapi);
    for (size_t i = 0; i < GR_ASSET_COUNT; i++)
        gr_entity_free(&st->assets[i]);
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
    gr_mem_set_total(c->query_memory_total);
    st->games_json = gr_api_games_json(&c->service.limits);
    st->pool = st->games_json && make_entities(st) == 0 ? gr_pool_start(c->compute_threads, c->queue) : NULL;
    st->watch = st->pool ? gr_watch_start() : NULL;
    st->verifier = st->watch ? gr_verifier_start(st) : NULL;
    if (!st->verifier) {
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
    atomic_init(&st.drain_body_ms, 0);
    atomic_init(&st.draining, false);
    atomic_init(&st.ready, false);
    atomic_init(&st.drain_answered, 0);
    atomic_init(&st.drain_cancelled, 0);
    gr_metrics_init(&st.metrics, http_route_names, ROUTE_NONE + 1);
    gr_log_start();
    gr_spool_quota_set(c->max_spool);
    int rc = st.tables_path && start(&st) == 0 ? serve(&st) : 1;
    if (rc != 0 && st.pool)
        gr_pool_stop(st.pool);
    if (rc != 0) {
        gr_verifier_stop(st.verifier);
        gr_watch_stop(st.watch);
    }
    gr_snapshot_release(st.snaps.current);
    pthread_mutex_destroy(&st.snaps.mu);
    free_entities(&st);
    free(st.games_json);
    free(st.games_strings_json);
    gr_log_stop();
    return rc;
}
