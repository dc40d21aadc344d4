/* SPDX-License-Identifier: MIT */
/* POLLRDHUP is a Linux extension. */
#define _GNU_SOURCE
#include "watch.h"

#include "bg_thread.h"
#include "metrics.h"

#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct gr_watch {
    gr_bg_thread bg;
    gr_watched *head;
    unsigned count;
    bool cancel_all;
    atomic_ulong disconnects, drained; /* flags raised: client gone; the drain's cancel */
    struct pollfd *fds;     /* the poll set, grown as the list grows */
    gr_watched **owners;    /* owners[i] polled fds[i] */
    unsigned cap;
};

static bool grow(gr_watch *w, unsigned need)
{
    if (need <= w->cap)
        return true;
    unsigned cap = w->cap ? w->cap * 2 : 64;
    while (cap < need)
        cap *= 2;
    struct pollfd *fds = realloc(w->fds, cap * sizeof *fds);
    if (fds)
        w->fds = fds;
    gr_watched **owners = fds ? realloc(w->owners, cap * sizeof *owners) : NULL;
    if (owners)
        w->owners = owners;
    if (!fds || !owners)
        return false;
    w->cap = cap;
    return true;
}

/* One look at every socket on the list, w->bg.mu held: no socket on it can
 * be closed meanwhile (gr_watch_remove takes the lock first). */
static void poll_once(gr_watch *w)
{
    if (!w->count || !grow(w, w->count))
        return;
    unsigned n = 0;
    for (gr_watched *x = w->head; x; x = x->next) {
        if (x->fd < 0 || atomic_load(&x->cancel))
            continue;
        w->fds[n] = (struct pollfd){ .fd = x->fd, .events = POLLRDHUP };
        w->owners[n++] = x;
    }
    if (n == 0 || poll(w->fds, n, 0) <= 0)
        return;
    for (unsigned i = 0; i < n; i++) {
        if (w->fds[i].revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) {
            atomic_store(&w->owners[i]->cancel, true);
            atomic_fetch_add(&w->disconnects, 1);
        }
    }
}

static void *watcher(void *arg)
{
    gr_watch *w = arg;
    pthread_mutex_lock(&w->bg.mu);
    while (!w->bg.stopping) {
        poll_once(w);
        if (!w->count) {
            pthread_cond_wait(&w->bg.wake, &w->bg.mu);
            continue;
        }
        struct timespec due = gr_bg_thread_due(GR_WATCH_MS);
        pthread_cond_timedwait(&w->bg.wake, &w->bg.mu, &due);
    }
    pthread_mutex_unlock(&w->bg.mu);
    return NULL;
}

gr_watch *gr_watch_start(void)
{
    gr_watch *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    atomic_init(&w->disconnects, 0);
    atomic_init(&w->drained, 0);
    if (gr_bg_thread_start(&w->bg, watcher, w) != 0) {
        free(w);
        return NULL;
    }
    return w;
}

void gr_watch_stop(gr_watch *w)
{
    if (!w)
        return;
    gr_bg_thread_stop(&w->bg);
    free(w->fds);
    free(w->owners);
    free(w);
}

void gr_watch_add(gr_watch *ww, gr_watched *w, int fd)
{
    pthread_mutex_lock(&ww->bg.mu);
    atomic_store(&w->cancel, ww->cancel_all);
    w->fd = fd;
    w->prev = NULL;
    w->next = ww->head;
    if (ww->head)
        ww->head->prev = w;
    ww->head = w;
    atomic_store(&w->linked, true);
    if (ww->count++ == 0)
        pthread_cond_signal(&ww->bg.wake);
    pthread_mutex_unlock(&ww->bg.mu);
}

void gr_watch_remove(gr_watch *ww, gr_watched *w)
{
    pthread_mutex_lock(&ww->bg.mu);
    if (atomic_load(&w->linked)) {
        if (w->prev)
            w->prev->next = w->next;
        else
            ww->head = w->next;
        if (w->next)
            w->next->prev = w->prev;
        atomic_store(&w->linked, false);
        ww->count--;
    }
    pthread_mutex_unlock(&ww->bg.mu);
}

unsigned gr_watch_cancel_all(gr_watch *ww)
{
    pthread_mutex_lock(&ww->bg.mu);
    ww->cancel_all = true;
    for (gr_watched *x = ww->head; x; x = x->next)
        if (!atomic_exchange(&x->cancel, true))
            atomic_fetch_add(&ww->drained, 1);
    unsigned n = ww->count;
    pthread_mutex_unlock(&ww->bg.mu);
    return n;
}

char *gr_watch_metrics(gr_watch *ww, char *text)
{
    char add[384];
    int n = snprintf(add, sizeof add,
                     "# HELP grundyd_queries_cancelled_total Queries on the compute pool cancelled (answered "
                     "503 shutting_down), by why: their client went, or the drain ran out of time.\n"
                     "# TYPE grundyd_queries_cancelled_total counter\n"
                     "grundyd_queries_cancelled_total{reason=\"disconnect\"} %lu\n"
                     "grundyd_queries_cancelled_total{reason=\"drain\"} %lu\n",
                     atomic_load(&ww->disconnects), atomic_load(&ww->drained));
    return gr_metrics_append(text, add, n);
}
