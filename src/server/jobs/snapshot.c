/* SPDX-License-Identifier: MIT */
#include "snapshot.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"

#include "metrics.h"

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

char *gr_snapshot_health_metrics(const gr_snapshot *snap, char *text)
{
    char add[512];
    int n = snprintf(add, sizeof add,
                     "# HELP grundyd_table_sections_off Sections of the table file in use that are no longer "
                     "used because their bytes changed or faulted under the daemon.\n"
                     "# TYPE grundyd_table_sections_off gauge\n"
                     "grundyd_table_sections_off %zu\n"
                     "# HELP grundyd_table_faults_total Reads of the mapped table file in use that faulted "
                     "(SIGBUS: the file shrank under the daemon).\n"
                     "# TYPE grundyd_table_faults_total counter\n"
                     "grundyd_table_faults_total %lu\n",
                     gr_tables_off_count(snap->tables), gr_tables_faults(snap->tables));
    return gr_metrics_append(text, add, n);
}

char *gr_snapshot_ready_json(const gr_snapshot *snap)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "status", "ready");
    if (gr_tables_off_count(snap->tables)) {
        cJSON *off = cJSON_AddArrayToObject(root, "tables_off");
        for (size_t i = 0; off && i < gr_tables_count(snap->tables); i++) {
            gr_table_info info;
            gr_tables_info(snap->tables, i, &info);
            if (gr_tables_section_off(snap->tables, i))
                cJSON_AddItemToArray(off, cJSON_CreateString(info.name));
        }
    }
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}
