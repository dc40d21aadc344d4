/* SPDX-License-Identifier: MIT */
/* SCHED_BATCH and syscall(SYS_gettid) are Linux extensions. */
#define _GNU_SOURCE
#include "server/pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef struct job {
    gr_job_fn fn;
    gr_expired_fn expired; /* NULL: no longest wait */
    void *arg;
    uint64_t max_wait_ms;
    struct timespec queued;
} job;

/* Milliseconds since t (CLOCK_MONOTONIC). */
static uint64_t ms_since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t ms = (int64_t)(now.tv_sec - t->tv_sec) * 1000 + (now.tv_nsec - t->tv_nsec) / 1000000;
    return ms > 0 ? (uint64_t)ms : 0;
}

static void run_job(const job *j)
{
    uint64_t waited = j->expired ? ms_since(&j->queued) : 0;
    if (j->expired && waited > j->max_wait_ms)
        j->expired(j->arg, waited);
    else
        j->fn(j->arg);
}

struct gr_pool {
    pthread_mutex_t mu;
    pthread_cond_t work;
    job *ring;
    unsigned cap, head, count, reserved, running, nthreads;
    bool stopping;
    pthread_t *threads;
};

/* Compute threads yield the CPU to the HTTP threads: SCHED_BATCH and a
 * higher nice value (per thread on Linux), so that light queries keep their
 * latency while heavy ones saturate every core. Best effort: a refusal
 * leaves the default policy. */
static void lower_priority(void)
{
    struct sched_param sp = { .sched_priority = 0 };
    pthread_setschedparam(pthread_self(), SCHED_BATCH, &sp);
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
}

static void *worker(void *arg)
{
    gr_pool *p = arg;
    lower_priority();
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->count == 0 && !p->stopping)
            pthread_cond_wait(&p->work, &p->mu);
        if (p->count == 0)
            break;
        job j = p->ring[p->head];
        p->head = (p->head + 1) % p->cap;
        p->count--;
        p->running++;
        pthread_mutex_unlock(&p->mu);
        run_job(&j);
        pthread_mutex_lock(&p->mu);
        p->running--;
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void pool_free(gr_pool *p)
{
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->work);
    free(p->ring);
    free(p->threads);
    free(p);
}

gr_pool *gr_pool_start(unsigned threads, unsigned capacity)
{
    gr_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->cap = capacity ? capacity : 1;
    p->ring = calloc(p->cap, sizeof *p->ring);
    p->threads = calloc(threads ? threads : 1, sizeof *p->threads);
    if (!p->ring || !p->threads || pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p->ring);
        free(p->threads);
        free(p);
        return NULL;
    }
    pthread_cond_init(&p->work, NULL);
    for (; p->nthreads < threads; p->nthreads++) {
        if (pthread_create(&p->threads[p->nthreads], NULL, worker, p) != 0) {
            gr_pool_stop(p);
            return NULL;
        }
    }
    return p;
}

bool gr_pool_reserve(gr_pool *p)
{
    pthread_mutex_lock(&p->mu);
    bool ok = !p->stopping && p->count + p->reserved < p->cap;
    p->reserved += ok;
    pthread_mutex_unlock(&p->mu);
    return ok;
}

void gr_pool_unreserve(gr_pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->reserved--;
    pthread_mutex_unlock(&p->mu);
}

void gr_pool_push(gr_pool *p, gr_job_fn fn, void *arg)
{
    gr_pool_push_bounded(p, fn, NULL, arg, 0);
}

void gr_pool_push_bounded(gr_pool *p, gr_job_fn fn, gr_expired_fn expired, void *arg, uint64_t max_wait_ms)
{
    job j = { fn, max_wait_ms ? expired : NULL, arg, max_wait_ms, { 0, 0 } };
    if (j.expired)
        clock_gettime(CLOCK_MONOTONIC, &j.queued);
    pthread_mutex_lock(&p->mu);
    p->reserved--;
    p->ring[(p->head + p->count) % p->cap] = j;
    p->count++;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
}

unsigned gr_pool_depth(gr_pool *p)
{
    pthread_mutex_lock(&p->mu);
    unsigned d = p->count + p->running;
    pthread_mutex_unlock(&p->mu);
    return d;
}

void gr_pool_stop(gr_pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->stopping = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->nthreads; i++)
        pthread_join(p->threads[i], NULL);
    pool_free(p);
}
