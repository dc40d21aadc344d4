/* SPDX-License-Identifier: MIT */
#include "metrics.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grundy/alloc.h"
#include "process_stats.h"
#include "registry.h"

/* Upper bounds of the latency buckets in microseconds (+Inf after them). */
static const uint64_t bucket_us[GR_METRIC_BUCKETS] = { 250, 500, 1000, 2000, 5000, 10000, 25000,
                                                       50000, 100000, 250000, 500000, 1000000,
                                                       5000000 };

_Static_assert(GR_METRIC_GAMES > 18, "room for every game of the registry and 'none'");

void gr_metrics_init(gr_metrics *m, const char *const *route_names, unsigned routes)
{
    memset(m, 0, sizeof *m);
    m->route_names = route_names;
    m->routes = routes >= 1 && routes <= GR_METRIC_ROUTES ? routes : 1;
}

static unsigned status_index(int status)
{
    if (status < GR_METRIC_STATUS_MIN || status > GR_METRIC_STATUS_MAX)
        return GR_METRIC_STATUSES - 1;
    return (unsigned)(status - GR_METRIC_STATUS_MIN);
}

void gr_metrics_status_label(int status, char out[8])
{
    if (status_index(status) == GR_METRIC_STATUSES - 1)
        snprintf(out, 8, "other");
    else
        snprintf(out, 8, "%d", status);
}

static unsigned game_index(const gr_game *game)
{
    size_t i = game ? gr_game_index(game) + 1 : 0;
    return i < GR_METRIC_GAMES ? (unsigned)i : 0;
}

static unsigned route_index(const gr_metrics *m, unsigned route)
{
    return route < m->routes ? route : m->routes - 1;
}

void gr_metrics_observe(gr_metrics *m, unsigned route, int status, const char *error,
                        uint64_t micros)
{
    route = route_index(m, route);
    gr_error_code code = gr_error_find(error);
    if (code < GR_NERROR_CODES)
        atomic_fetch_add(&m->errors[route][code], 1);
    else
        atomic_fetch_add(&m->answers[route][status_index(status)], 1);
    unsigned b = 0;
    while (b < GR_METRIC_BUCKETS && micros > bucket_us[b])
        b++;
    atomic_fetch_add(&m->buckets[route][b], 1);
    atomic_fetch_add(&m->micros[route], micros);
}

void gr_metrics_query(gr_metrics *m, unsigned route, const gr_game *game, const char *error)
{
    atomic_fetch_add(&m->queries[route_index(m, route)][game_index(game)][gr_error_find(error)], 1);
}

typedef struct text {
    char *buf;
    size_t len, cap;
    int failed;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(text *t, const char *fmt, ...)
{
    for (int attempt = 0; attempt < 2 && !t->failed; attempt++) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = 1;
            return;
        }
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap * 2 + (size_t)n;
        char *b = realloc(t->buf, cap);
        if (!b) {
            t->failed = 1;
            return;
        }
        t->buf = b;
        t->cap = cap;
    }
}

static const char *code_label(unsigned c)
{
    return c < GR_NERROR_CODES ? gr_error_name((gr_error_code)c) : "";
}

static void put_requests(text *t, gr_metrics *m)
{
    put(t, "# HELP grundyd_requests_total Requests answered, by route, HTTP status and error code "
           "(empty when the reply is not an error).\n"
           "# TYPE grundyd_requests_total counter\n");
    for (unsigned r = 0; r < m->routes; r++) {
        char st[8];
        for (unsigned s = 0; s < GR_METRIC_STATUSES; s++) {
            unsigned long v = atomic_load(&m->answers[r][s]);
            if (!v)
                continue;
            gr_metrics_status_label((int)s + GR_METRIC_STATUS_MIN, st);
            put(t, "grundyd_requests_total{route=\"%s\",status=\"%s\",code=\"\"} %lu\n",
                m->route_names[r], st, v);
        }
        for (unsigned c = 0; c < GR_NERROR_CODES; c++) {
            unsigned long v = atomic_load(&m->errors[r][c]);
            if (!v)
                continue;
            gr_metrics_status_label(gr_error_status((gr_error_code)c), st);
            put(t, "grundyd_requests_total{route=\"%s\",status=\"%s\",code=\"%s\"} %lu\n",
                m->route_names[r], st, code_label(c), v);
        }
    }
}

static void put_queries(text *t, gr_metrics *m)
{
    put(t, "# HELP grundyd_queries_total Queries answered (one per analyze or moves request, one "
           "per query of a batch), by route, game and error code (empty when answered).\n"
           "# TYPE grundyd_queries_total counter\n");
    for (unsigned r = 0; r < m->routes; r++)
        for (unsigned g = 0; g < GR_METRIC_GAMES; g++)
            for (unsigned c = 0; c < GR_METRIC_CODES; c++) {
                unsigned long v = atomic_load(&m->queries[r][g][c]);
                if (v)
                    put(t, "grundyd_queries_total{route=\"%s\",game=\"%s\",code=\"%s\"} %lu\n",
                        m->route_names[r], g ? gr_games[g - 1]->name : "", code_label(c), v);
            }
}

static void put_latency(text *t, gr_metrics *m)
{
    put(t, "# HELP grundyd_request_duration_seconds Time from the full request to the reply queued.\n"
           "# TYPE grundyd_request_duration_seconds histogram\n");
    for (unsigned r = 0; r < m->routes; r++) {
        unsigned long cum = 0;
        for (unsigned b = 0; b <= GR_METRIC_BUCKETS; b++) {
            cum += atomic_load(&m->buckets[r][b]);
            if (b < GR_METRIC_BUCKETS)
                put(t, "grundyd_request_duration_seconds_bucket{route=\"%s\",le=\"%llu.%06llu\"} %lu\n",
                    m->route_names[r], (unsigned long long)(bucket_us[b] / 1000000),
                    (unsigned long long)(bucket_us[b] % 1000000), cum);
            else
                put(t, "grundyd_request_duration_seconds_bucket{route=\"%s\",le=\"+Inf\"} %lu\n",
                    m->route_names[r], cum);
        }
        unsigned long us = atomic_load(&m->micros[r]);
        put(t, "grundyd_request_duration_seconds_sum{route=\"%s\"} %lu.%06lu\n", m->route_names[r],
            us / 1000000, us % 1000000);
        put(t, "grundyd_request_duration_seconds_count{route=\"%s\"} %lu\n", m->route_names[r], cum);
    }
}

static void put_one(text *t, const char *name, const char *type, const char *help, unsigned long long v)
{
    put(t, "# HELP %s %s\n# TYPE %s %s\n%s %llu\n", name, help, name, type, name, v);
}

/* A label value as the text format writes it: backslash, quote and
 * newline escaped; at most 64 bytes of it. */
static void label_value(const char *v, char out[160])
{
    size_t j = 0;
    for (size_t i = 0; v && v[i] && i < 64; i++) {
        char c = v[i];
        if (c == '\\' || c == '"' || c == '\n')
            out[j++] = '\\';
        out[j++] = c == '\n' ? 'n' : c;
    }
    out[j] = '\0';
}

static void put_build_info(text *t, const char *version)
{
    char v[160];
    label_value(version, v);
    put(t, "# HELP grundyd_build_info The version of grundyd serving, as its label; always 1.\n"
           "# TYPE grundyd_build_info gauge\ngrundyd_build_info{version=\"%s\"} 1\n", v);
}

/* A metric whose value is micros / 10^6 seconds, written exactly. */
static void put_seconds(text *t, const char *name, const char *type, const char *help, uint64_t micros)
{
    char v[32];
    gr_micros_text(micros, v);
    put(t, "# HELP %s %s\n# TYPE %s %s\n%s %s\n", name, help, name, type, name, v);
}

/* The process_* family, under the names every Prometheus client library
 * uses; a figure the kernel did not give is left out. */
static void put_process(text *t)
{
    gr_process_stats p;
    gr_process_sample(&p);
    if (p.has_cpu)
        put_seconds(t, "process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.",
                    p.cpu_micros);
    if (p.has_memory) {
        put_one(t, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", p.resident_bytes);
        put_one(t, "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", p.virtual_bytes);
    }
    if (p.has_fds)
        put_one(t, "process_open_fds", "gauge", "Number of open file descriptors.", p.open_fds);
    if (p.has_max_fds)
        put_one(t, "process_max_fds", "gauge", "Maximum number of open file descriptors.", p.max_fds);
    if (p.has_start)
        put_seconds(t, "process_start_time_seconds", "gauge",
                    "Start time of the process since unix epoch in seconds.", p.start_micros);
}

static void put_gauges(text *t, gr_metrics *m, const gr_metric_gauges *g)
{
    put_one(t, "grundyd_in_flight_requests", "gauge", "Requests being answered.",
            (unsigned long long)(g->in_flight > 0 ? g->in_flight : 0));
    put_one(t, "grundyd_compute_queue_depth", "gauge", "Heavy queries waiting for or running on the compute pool.",
            g->queue_depth);
    put_one(t, "grundyd_compute_jobs_total", "counter",
            "Requests answered on the compute pool: batches, large bodies, and queries past the inline budget.",
            atomic_load(&m->pool_jobs));
    put_one(t, "grundyd_compute_rejected_total", "counter", "Heavy queries refused with 503: the queue was full, or they waited past --queue-wait-ms.",
            atomic_load(&m->pool_rejected));
    put_one(t, "grundyd_spool_bytes", "gauge", "Bytes of --max-spool taken by NDJSON streams being received.",
            g->spool_bytes);
    put_one(t, "grundyd_table_mapped_bytes", "gauge", "Bytes of the table file mapped.", g->table_bytes);
    put_one(t, "grundyd_table_reloads_total", "counter", "Table files re-mapped on SIGHUP.",
            atomic_load(&m->reloads_ok));
    put_one(t, "grundyd_table_reload_failures_total", "counter", "SIGHUP reloads refused (the old tables stay).",
            atomic_load(&m->reloads_failed));
    put_one(t, "grundyd_cache_hits_total", "counter", "Computed sequences found in the cache.", g->cache_hits);
    put_one(t, "grundyd_cache_misses_total", "counter", "Computed sequences not in the cache.", g->cache_misses);
    put_one(t, "grundyd_cache_bytes", "gauge", "Bytes held by the cache.", g->cache_bytes);
    put_one(t, "grundyd_cache_entries", "gauge", "Sequences held by the cache.", g->cache_entries);
    put_one(t, "grundyd_query_memory_bytes", "gauge", "Bytes held by the queries in flight, together.",
            gr_mem_total_used());
    put_one(t, "grundyd_query_memory_peak_bytes", "gauge", "The most bytes the queries in flight held together.",
            gr_mem_total_peak());
    put_one(t, "grundyd_access_log_dropped_lines_total", "counter",
            "Log lines dropped because stderr did not take them fast enough.", g->access_log_dropped);
    put_one(t, "grundyd_ready", "gauge", "1 when the tables are mapped and the workers are up.",
            (unsigned long long)g->ready);
}

char *gr_metrics_render(gr_metrics *m, const gr_metric_gauges *g)
{
    text t = { .buf = malloc(16384), .cap = 16384 };
    if (!t.buf)
        return NULL;
    t.buf[0] = '\0';
    put_requests(&t, m);
    put_queries(&t, m);
    put_latency(&t, m);
    put_gauges(&t, m, g);
    put_build_info(&t, g->version);
    put_process(&t);
    if (t.failed) {
        free(t.buf);
        return NULL;
    }
    return t.buf;
}

char *gr_metrics_append(char *lines, const char *more, int n)
{
    size_t len = strlen(lines);
    char *out = n >= 0 ? realloc(lines, len + (size_t)n + 1) : NULL;
    if (!out) {
        free(lines);
        return NULL;
    }
    memcpy(out + len, more, (size_t)n + 1);
    return out;
}
