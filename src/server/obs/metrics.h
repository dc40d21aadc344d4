/* SPDX-License-Identifier: MIT */
/* Prometheus metrics: requests by route, HTTP status and error code;
 * queries (each /v1/analyze and /v1/moves request, each query of a batch)
 * by route, game and error code; a latency histogram by route; the build's
 * version; the process_* family; and the gauges the server samples when
 * scraped. All counters are atomics, updated without locks on the request
 * path. */
#ifndef GRUNDY_SERVER_METRICS_H
#define GRUNDY_SERVER_METRICS_H

#include <stdatomic.h>
#include <stdint.h>

#include "errors.h"
#include "contract.h"

/* Statuses 100 to 599 are counted each under its own value; anything else
 * (never sent) under "other". */
enum { GR_METRIC_STATUS_MIN = 100, GR_METRIC_STATUS_MAX = 599 };

enum {
    GR_METRIC_ROUTES = 16, /* room for the routes (mhd/routes.h) and "other" */
    GR_METRIC_STATUSES = GR_METRIC_STATUS_MAX - GR_METRIC_STATUS_MIN + 2,
    GR_METRIC_GAMES = 24,
    GR_METRIC_CODES = GR_NERROR_CODES + 1, /* the error codes, then none (an answer) */
    GR_METRIC_BUCKETS = 13
};

typedef struct gr_metrics {
    const char *const *route_names; /* `routes` labels; the last is "other" */
    unsigned routes;
    /* requests without an error code by status; those with one by code (its status is the code's) */
    atomic_ulong answers[GR_METRIC_ROUTES][GR_METRIC_STATUSES];
    atomic_ulong errors[GR_METRIC_ROUTES][GR_NERROR_CODES];
    atomic_ulong queries[GR_METRIC_ROUTES][GR_METRIC_GAMES][GR_METRIC_CODES];
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
    uint64_t spool_bytes; /* of --max-spool, taken by NDJSON streams being received */
    int ready;
    const char *version; /* grundyd_build_info's label */
} gr_metric_gauges;

void gr_metrics_init(gr_metrics *m, const char *const *route_names, unsigned routes);

/* One finished request: route index, HTTP status, the error code of an
 * error reply (a wire name of GR_ERROR_CODES; NULL for any other reply), and
 * its time. */
void gr_metrics_observe(gr_metrics *m, unsigned route, int status, const char *error,
                        uint64_t micros);

/* One query answered on `route`: its game (NULL: it named none) and its
 * error code (NULL: answered). */
void gr_metrics_query(gr_metrics *m, unsigned route, const gr_game *game, const char *error);

/* The status label of `status`: its decimal value from 100 to 599, else
 * "other". */
void gr_metrics_status_label(int status, char out[8]);

/* The text exposition format, malloc'd; NULL when out of memory. */
char *gr_metrics_render(gr_metrics *m, const gr_metric_gauges *g);

/* lines (malloc'd) with the n bytes of more appended, reallocated; NULL
 * when out of memory (lines freed) or n < 0 (a failed snprintf). The other
 * modules' lines of /metrics are added so. */
char *gr_metrics_append(char *lines, const char *more, int n);

#endif
