/* SPDX-License-Identifier: MIT */
/* SCHED_BATCH and syscall(SYS_gettid) are Linux extensions. */
#define _GNU_SOURCE
#include "pool.h"

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
    struct timespec due;   /* when it expires (CLOCK_MONOTONIC), with `expired` */
    struct timespec queued;
} job;

/* Waits longer than a job's max_wait_ms are ended by the reaper, a thread
 * that sleeps until the oldest job's due time and answers it with its
 * `expired` handler, so that a 503 is sent when the wait runs out, not
 * when a compute thread frees up. It looks at the head of the queue only:
 * the queue is in order of arrival, and the daemon gives every job the
 * same longest wait. A worker that takes an expired job calls the handler
 * too. */
struct gr_pool {
    pthread_mutex_t mu;
    pthread_cond_t work, reap;
    job *ring;
    unsigned cap, head, count, reserved, running, nthreads;
    bool stopping, reaping;
    pthread_t *threads, reaper;
};

static struct timespec now_monotonic(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t;
}

static bool reached(const struct timespec *now, const struct timespec *t)
{
    return now->tv_sec > t->tv_sec || (now->tv_sec == t->tv_sec && now->tv_nsec >= t->tv_nsec);
}

static uint64_t ms_between(const struct timespec *a, const struct timespec *b)
{
    int64_t ms = (int64_t)(b->tv_sec - a->tv_sec) * 1000 + (b->tv_nsec - a->tv_nsec) / 1000000;
    return ms > 0 ? (uint64_t)ms : 0;
}

/* Runs j, or its expiry handler when its wait ran out. */
static void run_job(const job *j)
{
    struct timespec now = now_monotonic();
    if (j->expired && reached(&now, &j->due))
        j->expired(j->arg, ms_between(&j->queued, &now));
    else
        j->fn(j->arg);
}

/* Takes the job at the head of the queue, and has the reaper look at the
 * new head; p->mu held. */
static job take_head(gr_pool *p)
{
    job j = p->ring[p->head];
    p->head = (p->head + 1) % p->cap;
    p->count--;
    if (p->count)
        pthread_cond_signal(&p->reap);
    return j;
}

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
        job j = take_head(p);
        p->running++;
        pthread_mutex_unlock(&p->mu);
        run_job(&j);
        pthread_mutex_lock(&p->mu);
        p->running--;
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void *reaper(void *arg)
{
    gr_pool *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->stopping) {
        const job *head = p->count ? &p->ring[p->head] : NULL;
        if (!head || !head->expired) {
            pthread_cond_wait(&p->reap, &p->mu);
            continue;
        }
        struct timespec now = now_monotonic();
        if (!reached(&now, &head->due)) {
            pthread_cond_timedwait(&p->reap, &p->mu, &head->due);
            continue;
        }
        job j = take_head(p);
        pthread_mutex_unlock(&p->mu);
        j.expired(j.arg, ms_between(&j.queued, &now));
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void pool_free(gr_pool *p)
{
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->reap);
    free(p->ring);
    free(p->threads);
    free(p);
}

/* The reaper's condition times out on CLOCK_MONOTONIC, as the due times. */
static int init_sync(gr_pool *p)
{
    pthread_condattr_t a;
    if (pthread_mutex_init(&p->mu, NULL) != 0)
        return -1;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&p->reap, &a);
    pthread_condattr_destroy(&a);
    pthread_cond_init(&p->work, NULL);
    return 0;
}

gr_pool *gr_pool_start(unsigned threads, unsigned capacity)
{
    gr_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->cap = capacity ? capacity : 1;
    p->ring = calloc(p->cap, sizeof *p->ring);
    p->threads = calloc(threads ? threads : 1, sizeof *p->threads);
    if (!p->ring || !p->threads || init_sync(p) != 0) {
        free(p->ring);
        free(p->threads);
        free(p);
        return NULL;
    }
    p->reaping = pthread_create(&p->reaper, NULL, reaper, p) == 0;
    for (; p->nthreads < threads; p->nthreads++) {
        if (!p->reaping || pthread_create(&p->threads[p->nthreads], NULL, worker, p) != 0) {
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

void gr_pool_push_bounded(gr_pool *p, gr_job_fn fn, gr_expired_fn expired, void *arg, uint64_t max_wait_ms)
{
    job j = { .fn = fn, .expired = max_wait_ms ? expired : NULL, .arg = arg, .max_wait_ms = max_wait_ms };
    if (j.expired) {
        j.queued = now_monotonic();
        j.due = j.queued;
        j.due.tv_sec += (time_t)(max_wait_ms / 1000);
        j.due.tv_nsec += (long)(max_wait_ms % 1000) * 1000000;
        if (j.due.tv_nsec >= 1000000000) {
            j.due.tv_sec++;
            j.due.tv_nsec -= 1000000000;
        }
    }
    pthread_mutex_lock(&p->mu);
    p->reserved--;
    p->ring[(p->head + p->count) % p->cap] = j;
    p->count++;
    pthread_cond_signal(&p->work);
    if (j.expired && p->count == 1)
        pthread_cond_signal(&p->reap); /* a new head to watch; take_head signals later ones */
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
    pthread_cond_broadcast(&p->reap);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->nthreads; i++)
        pthread_join(p->threads[i], NULL);
    if (p->reaping)
        pthread_join(p->reaper, NULL);
    pool_free(p);
}
