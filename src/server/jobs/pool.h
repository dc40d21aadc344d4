/* SPDX-License-Identifier: MIT */
/* The compute pool: a fixed set of threads that run heavy queries off the
 * HTTP threads, fed by a bounded queue. A full queue is the caller's cue to
 * answer 503 rather than wait: heavy work never queues without bound, and
 * a job may also be given a longest wait, past which it is not run. */
#ifndef GRUNDY_SERVER_POOL_H
#define GRUNDY_SERVER_POOL_H

#include <stdbool.h>
#include <stdint.h>

typedef void (*gr_job_fn)(void *arg);

/* Called instead of a job that waited in the queue longer than it may,
 * with how long it waited; it must answer for the job (arg). */
typedef void (*gr_expired_fn)(void *arg, uint64_t waited_ms);

typedef struct gr_pool gr_pool;

/* Starts `threads` workers over a queue of `capacity` jobs; NULL on failure. */
gr_pool *gr_pool_start(unsigned threads, unsigned capacity);

/* Takes room for one job in the queue; false when it is full. A reservation
 * is then either pushed or given back. */
bool gr_pool_reserve(gr_pool *p);
/* Queues fn(arg) in a reservation's room. A job still waiting after
 * max_wait_ms (0: no limit) runs expired(arg, waited) instead of fn(arg):
 * a job is never started after its client has waited too long. Exactly one
 * of the two runs. */
void gr_pool_push_bounded(gr_pool *p, gr_job_fn fn, gr_expired_fn expired, void *arg, uint64_t max_wait_ms);
void gr_pool_unreserve(gr_pool *p);

/* Jobs waiting plus jobs running. */
unsigned gr_pool_depth(gr_pool *p);

/* Runs every job already queued, then joins the workers and frees p. */
void gr_pool_stop(gr_pool *p);

#endif
