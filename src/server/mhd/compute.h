/* SPDX-License-Identifier: MIT */
/* Queries answered on the compute pool (see compute.c). Each answers or
 * hands rq to the pool, whose job resumes the connection when its reply is
 * ready; a full pool is a 503 with Retry-After. */
#ifndef GRUNDY_SERVER_COMPUTE_H
#define GRUNDY_SERVER_COMPUTE_H

#include <microhttpd.h>

#include "request.h"

/* POST /v1/analyze: answered inline within --inline-budget, else on the
 * pool with what the inline attempt left of --query-cpu-ms. */
enum MHD_Result compute_analyze(request *rq);

/* POST /v1/batch with a JSON body. */
enum MHD_Result compute_batch(request *rq);

/* POST /v1/batch with an NDJSON body spooled whole: the answers stream out
 * as the pool's job produces them. The 200 goes out only once the job has
 * a compute thread (compute_stream_start, when rq->state is RQ_STREAMING);
 * a stream that waits past --queue-wait-ms is answered 503 instead. */
enum MHD_Result compute_stream(request *rq);

/* Queues the 200 of a spooled stream whose job has started. */
enum MHD_Result compute_stream_start(request *rq);

/* POST /v1/moves. */
enum MHD_Result compute_moves(request *rq);

/* The 503 overloaded (into out) for a job, "query" or "stream" (what),
 * that waited waited_ms past --queue-wait-ms, counted as a rejection in the
 * metrics. */
void compute_expired_reply(request *rq, uint64_t waited_ms, const char *what, gr_reply *out);

/* Counts one query of a batch, JSON or NDJSON, under its game and code
 * (a gr_batch_run observer; metrics is the server's gr_metrics). */
void compute_count_batch_query(void *metrics, const gr_reply *r);

#endif
