/* Prometheus metrics: request counts by route, status and game, a latency
 * histogram by route, and the gauges the server samples when scraped. All
 * counters are atomics, updated without locks on the request path. */
#ifndef GRUNDY_SERVER_METRICS_H
#define GRUNDY_SERVER_METRICS_H

#include <stdatomic.h>
#include <stdint.h>

#include "api/games.h"
#include "server/routes.h"

enum { GR_METRIC_ROUTES = ROUTE_NONE + 1, GR_METRIC_STATUSES = 10, GR_METRIC_GAMES = 24, GR_METRIC_BUCKETS = 13 };

typedef struct gr_metrics {
    const char *const *route_names; /* GR_METRIC_ROUTES paths; the last is "other" */
    atomic_ulong requests[GR_METRIC_ROUTES][GR_METRIC_STATUSES][GR_METRIC_GAMES];
    atomic_ulong buckets[GR_METRIC_ROUTES][GR_METRIC_BUCKETS + 1];
    atomic_ulong micros[GR_METRIC_ROUTES];
    atomic_ulong pool_jobs, pool_rejected, reloads_ok, reloads_failed;
} gr_metrics;

/* Values sampled at scrape time. */
typedef struct gr_metric_gauges {
    long in_flight;
    unsigned queue_depth;
    uint64_t table_bytes;
    uint64_t cache_hits, cache_misses, cache_bytes, cache_entries;
    uint64_t access_log_dropped;
    int ready;
} gr_metric_gauges;

void gr_metrics_init(gr_metrics *m, const char *const *route_names);

/* One finished request: route index, HTTP status, game (NULL: none). */
void gr_metrics_observe(gr_metrics *m, unsigned route, int status, const gr_game *game,
                        uint64_t micros);

/* The text exposition format, malloc'd; NULL when out of memory. */
char *gr_metrics_render(gr_metrics *m, const gr_metric_gauges *g);

#endif
