/* SPDX-License-Identifier: MIT */
#include "bg_thread.h"

#include <time.h>

int gr_bg_thread_start(gr_bg_thread *t, void *(*run)(void *), void *arg)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->wake, &a);
    pthread_condattr_destroy(&a);
    t->stopping = false;
    if (pthread_create(&t->thread, NULL, run, arg) != 0) {
        pthread_cond_destroy(&t->wake);
        pthread_mutex_destroy(&t->mu);
        return -1;
    }
    return 0;
}

void gr_bg_thread_stop(gr_bg_thread *t)
{
    pthread_mutex_lock(&t->mu);
    t->stopping = true;
    pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&t->mu);
    pthread_join(t->thread, NULL);
    pthread_cond_destroy(&t->wake);
    pthread_mutex_destroy(&t->mu);
}

int64_t gr_monotonic_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

struct timespec gr_bg_thread_due(long ms)
{
    struct timespec due;
    clock_gettime(CLOCK_MONOTONIC, &due);
    due.tv_sec += ms / 1000;
    due.tv_nsec += (ms % 1000) * 1000000L;
    if (due.tv_nsec >= 1000000000L) {
        due.tv_sec++;
        due.tv_nsec -= 1000000000L;
    }
    return due;
}
