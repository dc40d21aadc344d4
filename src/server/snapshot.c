/* SPDX-License-Identifier: MIT */
#include "server/snapshot.h"

#include <stdio.h>
#include <stdlib.h>

#include "api/catalog.h"

gr_snapshot *gr_snapshot_load(const char *path, const gr_limits *limits, size_t cache_bytes,
                              char *why, size_t why_len)
{
    gr_snapshot *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(why, why_len, "out of memory");
        return NULL;
    }
    if (gr_tables_open(path, &s->tables, why, why_len) != 0) {
        free(s);
        return NULL;
    }
    if (gr_service_init(&s->svc, s->tables, cache_bytes) != 0 ||
        !(s->tables_json = gr_api_tables_json(s->tables))) {
        snprintf(why, why_len, "out of memory");
        gr_service_fini(&s->svc);
        gr_tables_close(s->tables);
        free(s);
        return NULL;
    }
    s->svc.limits = *limits;
    atomic_init(&s->refs, 1);
    return s;
}

gr_snapshot *gr_snapshot_acquire(gr_snapshot_holder *h)
{
    pthread_mutex_lock(&h->mu);
    gr_snapshot *s = h->current;
    atomic_fetch_add(&s->refs, 1);
    pthread_mutex_unlock(&h->mu);
    return s;
}

void gr_snapshot_release(gr_snapshot *s)
{
    if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
        return;
    gr_service_fini(&s->svc);
    gr_tables_close(s->tables);
    free(s->tables_json);
    free(s);
}

void gr_snapshot_install(gr_snapshot_holder *h, gr_snapshot *s)
{
    pthread_mutex_lock(&h->mu);
    gr_snapshot *old = h->current;
    h->current = s;
    pthread_mutex_unlock(&h->mu);
    gr_snapshot_release(old);
}
