/* SPDX-License-Identifier: MIT */
/* What requests read: the mapped table file, the service over it and the
 * catalogue rendered from it, as one reference-counted snapshot. SIGHUP maps
 * a rebuilt file into a new snapshot and swaps it in; requests in flight
 * keep the old one, which is released when the last of them finishes. */
#ifndef GRUNDY_SERVER_SNAPSHOT_H
#define GRUNDY_SERVER_SNAPSHOT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "query.h"
#include "tables/tables.h"

typedef struct gr_snapshot {
    gr_service svc;
    gr_tables *tables;
    char *tables_json; /* GET /v1/tables */
    atomic_uint refs;
} gr_snapshot;

typedef struct gr_snapshot_holder {
    pthread_mutex_t mu;
    gr_snapshot *current; /* the holder owns one reference */
} gr_snapshot_holder;

/* Maps and validates `path` and builds a snapshot with `limits`; NULL with
 * the reason in why[] when the file is missing or bad or memory runs out. */
gr_snapshot *gr_snapshot_load(const char *path, const gr_limits *limits, size_t cache_bytes,
                              char *why, size_t why_len);

/* A reference to the current snapshot; give it back with release. */
gr_snapshot *gr_snapshot_acquire(gr_snapshot_holder *h);
void gr_snapshot_release(gr_snapshot *s);

/* Makes s current (the holder takes the caller's reference) and releases
 * the previous one. */
void gr_snapshot_install(gr_snapshot_holder *h, gr_snapshot *s);

/* Appends /metrics' lines about the table file's health (main/verify.h
 * keeps it) to text (a
 * malloc'd string, reallocated); NULL when out of memory (text freed). */
char *gr_snapshot_health_metrics(const gr_snapshot *snap, char *text);

/* /readyz's body: {"status":"ready"} plus "tables_off", the sections no
 * longer used, when there are any; malloc'd, or NULL when out of memory. */
char *gr_snapshot_ready_json(const gr_snapshot *snap);

#endif
