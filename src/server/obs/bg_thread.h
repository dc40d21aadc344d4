/* SPDX-License-Identifier: MIT */
/* A background thread that waits on a monotonic condition variable between
 * rounds of work and stops on request: the table verifier and the
 * disconnect watcher. Its loop holds `mu` while it reads `stopping` and
 * waits on `wake` (pthread_cond_timedwait takes CLOCK_MONOTONIC times). */
#ifndef GRUNDY_SERVER_BG_THREAD_H
#define GRUNDY_SERVER_BG_THREAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

typedef struct gr_bg_thread {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t wake;
    bool stopping;
} gr_bg_thread;

/* Starts run(arg) on a new thread. 0, or -1 with nothing left to undo. */
int gr_bg_thread_start(gr_bg_thread *t, void *(*run)(void *), void *arg);

/* CLOCK_MONOTONIC in milliseconds: the server's deadlines and idle times. */
int64_t gr_monotonic_ms(void);

/* The CLOCK_MONOTONIC time `ms` milliseconds from now, for timedwait. */
struct timespec gr_bg_thread_due(long ms);

/* Sets stopping, wakes the thread, joins it and frees what start made. */
void gr_bg_thread_stop(gr_bg_thread *t);

#endif
