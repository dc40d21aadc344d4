/* SPDX-License-Identifier: MIT */
#include "verify.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bg_thread.h"
#include "log.h"

struct gr_verifier {
    server_state *st;
    gr_bg_thread bg;
};

/* One check at a time: the thread's and SIGHUP's. */
static pthread_mutex_t check_mu = PTHREAD_MUTEX_INITIALIZER;
static void log_changed(void *ctx, const char *name)
{
    (void)ctx;
    gr_log("error", "event=tables_changed section=\"%s\" error=\"its bytes no longer match its checksum: "
           "the table file was changed in place (or shrank); the section is no longer used\"", name);
}

/* A valid file at the path replaces the tables; otherwise they stay,
 * without their changed sections. */
static void try_reload(server_state *st)
{
    char why[512];
    gr_snapshot *s = gr_snapshot_load(st->tables_path, &st->cfg->service.limits, (size_t)st->cfg->cache_bytes,
                                      why, sizeof why);
    if (!s) {
        gr_log("error", "event=reload ok=false reason=tables_changed tables=%s error=\"%s; the old tables "
               "stay, without the sections that changed\"", st->tables_path, why);
        return;
    }
    gr_snapshot_install(&st->snaps, s);
    atomic_fetch_add(&st->metrics.reloads_ok, 1);
    gr_log("info", "event=reload ok=true reason=tables_changed tables=%s", st->tables_path);
}

/* Checksums (when `full`, or when a read faulted: the other sections past
 * a shrunk file's end are found before a query reads them) and faults of
 * the current tables; a change is logged and followed by a reload.
 * Returns the sections turned off by checksums. */
static size_t check(server_state *st, bool full, unsigned long *faults_seen)
{
    pthread_mutex_lock(&check_mu);
    gr_snapshot *s = gr_snapshot_acquire(&st->snaps);
    size_t off_before = gr_tables_off_count(s->tables);
    bool faulted = faults_seen && gr_tables_faults(s->tables) != *faults_seen;
    size_t changed = full || faulted ? gr_tables_verify(s->tables, log_changed, NULL) : 0;
    size_t off = gr_tables_off_count(s->tables);
    if (faulted) {
        *faults_seen = gr_tables_faults(s->tables);
        gr_log("error", "event=tables_fault faults=%lu sections_off=%zu error=\"a read of the mapped table "
               "file faulted (it shrank under the daemon); the queries that read it were answered 503 and "
               "its sections are no longer used\"", *faults_seen, off);
    }
    gr_snapshot_release(s);
    if (faulted || off > off_before)
        try_reload(st);
    pthread_mutex_unlock(&check_mu);
    return changed;
}

size_t gr_verify_now(server_state *st)
{
    return check(st, true, NULL);
}

static void *verifier(void *arg)
{
    gr_verifier *v = arg;
    server_state *st = v->st;
    unsigned long faults_seen = 0;
    gr_snapshot *s = gr_snapshot_acquire(&st->snaps);
    const gr_snapshot *last = s;
    gr_snapshot_release(s);
    long interval_ms = (long)st->cfg->verify_interval * 1000, since_full = 0;
    pthread_mutex_lock(&v->bg.mu);
    while (!v->bg.stopping) {
        struct timespec due = gr_bg_thread_due(GR_VERIFY_FAULT_MS);
        pthread_cond_timedwait(&v->bg.wake, &v->bg.mu, &due);
        if (v->bg.stopping)
            break;
        pthread_mutex_unlock(&v->bg.mu);
        s = gr_snapshot_acquire(&st->snaps);
        if (s != last) /* a reload: its faults count from 0 */
            faults_seen = 0;
        last = s;
        gr_snapshot_release(s);
        since_full += GR_VERIFY_FAULT_MS;
        bool full = interval_ms > 0 && since_full >= interval_ms;
        if (full)
            since_full = 0;
        check(st, full, &faults_seen);
        pthread_mutex_lock(&v->bg.mu);
    }
    pthread_mutex_unlock(&v->bg.mu);
    return NULL;
}

gr_verifier *gr_verifier_start(server_state *st)
{
    gr_verifier *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    v->st = st;
    if (gr_bg_thread_start(&v->bg, verifier, v) != 0) {
        free(v);
        return NULL;
    }
    return v;
}

void gr_verifier_stop(gr_verifier *v)
{
    if (!v)
        return;
    gr_bg_thread_stop(&v->bg);
    free(v);
}
