#include "server/metrics.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int statuses[GR_METRIC_STATUSES - 1] = { 200, 204, 400, 404, 405, 413, 422, 500, 503 };

/* Upper bounds of the latency buckets in microseconds (+Inf after them). */
static const uint64_t bucket_us[GR_METRIC_BUCKETS] = { 250, 500, 1000, 2000, 5000, 10000, 25000,
                                                       50000, 100000, 250000, 500000, 1000000,
                                                       5000000 };

_Static_assert(GR_METRIC_GAMES > 18, "room for every game of the registry and 'none'");

void gr_metrics_init(gr_metrics *m, const char *const *route_names)
{
    memset(m, 0, sizeof *m);
    m->route_names = route_names;
}

static unsigned status_index(int status)
{
    for (unsigned i = 0; i < GR_METRIC_STATUSES - 1; i++)
        if (statuses[i] == status)
            return i;
    return GR_METRIC_STATUSES - 1;
}

static unsigned game_index(const gr_game *game)
{
    size_t i = game ? gr_game_index(game) + 1 : 0;
    return i < GR_METRIC_GAMES ? (unsigned)i : 0;
}

void gr_metrics_observe(gr_metrics *m, unsigned route, int status, const gr_game *game,
                        uint64_t micros)
{
    if (route >= GR_METRIC_ROUTES)
        route = GR_METRIC_ROUTES - 1;
    atomic_fetch_add(&m->requests[route][status_index(status)][game_index(game)], 1);
    unsigned b = 0;
    while (b < GR_METRIC_BUCKETS && micros > bucket_us[b])
        b++;
    atomic_fetch_add(&m->buckets[route][b], 1);
    atomic_fetch_add(&m->micros[route], micros);
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

static void status_label(char *out, size_t n, unsigned s)
{
    if (s < GR_METRIC_STATUSES - 1)
        snprintf(out, n, "%d", statuses[s]);
    else
        snprintf(out, n, "other");
}

static void put_requests(text *t, gr_metrics *m)
{
    put(t, "# HELP grundyd_requests_total Requests answered, by route, status and game.\n"
           "# TYPE grundyd_requests_total counter\n");
    for (unsigned r = 0; r < GR_METRIC_ROUTES; r++)
        for (unsigned s = 0; s < GR_METRIC_STATUSES; s++)
            for (unsigned g = 0; g < GR_METRIC_GAMES; g++) {
                unsigned long v = atomic_load(&m->requests[r][s][g]);
                if (!v)
                    continue;
                char st[8];
                status_label(st, sizeof st, s);
                put(t, "grundyd_requests_total{route=\"%s\",status=\"%s\",game=\"%s\"} %lu\n",
                    m->route_names[r], st, g ? gr_games[g - 1]->name : "", v);
            }
}

static void put_latency(text *t, gr_metrics *m)
{
    put(t, "# HELP grundyd_request_duration_seconds Time from the full request to the reply queued.\n"
           "# TYPE grundyd_request_duration_seconds histogram\n");
    for (unsigned r = 0; r < GR_METRIC_ROUTES; r++) {
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

char *gr_metrics_render(gr_metrics *m, const gr_metric_gauges *g)
{
    text t = { .buf = malloc(16384), .cap = 16384 };
    if (!t.buf)
        return NULL;
    t.buf[0] = '\0';
    put_requests(&t, m);
    put_latency(&t, m);
    put_one(&t, "grundyd_in_flight_requests", "gauge", "Requests being answered.",
            (unsigned long long)(g->in_flight > 0 ? g->in_flight : 0));
    put_one(&t, "grundyd_compute_queue_depth", "gauge", "Heavy queries waiting for or running on the compute pool.",
            g->queue_depth);
    put_one(&t, "grundyd_compute_jobs_total", "counter",
            "Requests answered on the compute pool: batches, large bodies, and queries past the inline budget.",
            atomic_load(&m->pool_jobs));
    put_one(&t, "grundyd_compute_rejected_total", "counter", "Heavy queries refused with 503 because the queue was full.",
            atomic_load(&m->pool_rejected));
    put_one(&t, "grundyd_table_bytes_mapped", "gauge", "Bytes of the table file mapped.", g->table_bytes);
    put_one(&t, "grundyd_table_reloads_total", "counter", "Table files re-mapped on SIGHUP.",
            atomic_load(&m->reloads_ok));
    put_one(&t, "grundyd_table_reload_failures_total", "counter", "SIGHUP reloads refused (the old tables stay).",
            atomic_load(&m->reloads_failed));
    put_one(&t, "grundyd_cache_hits_total", "counter", "Computed sequences found in the cache.", g->cache_hits);
    put_one(&t, "grundyd_cache_misses_total", "counter", "Computed sequences not in the cache.", g->cache_misses);
    put_one(&t, "grundyd_cache_bytes", "gauge", "Bytes held by the cache.", g->cache_bytes);
    put_one(&t, "grundyd_cache_entries", "gauge", "Sequences held by the cache.", g->cache_entries);
    put_one(&t, "grundyd_access_log_dropped_lines_total", "counter",
            "Log lines dropped because stderr did not take them fast enough.", g->access_log_dropped);
    put_one(&t, "grundyd_ready", "gauge", "1 when the tables are mapped and the workers are up.",
            (unsigned long long)g->ready);
    if (t.failed) {
        free(t.buf);
        return NULL;
    }
    return t.buf;
}
