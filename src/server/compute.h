/* SPDX-License-Identifier: MIT */
/* Queries answered on the compute pool (see compute.c). Each answers or
 * hands rq to the pool, whose job resumes the connection when its reply is
 * ready; a full pool is a 503 with Retry-After. */
#ifndef GRUNDY_SERVER_COMPUTE_H
#define GRUNDY_SERVER_COMPUTE_H

#include <microhttpd.h>

#include "server/request.h"

/* POST /v1/analyze: answered inline within --inline-budget, else on the
 * pool with what the inline attempt left of --query-cpu-ms. */
enum MHD_Result compute_analyze(request *rq);

/* POST /v1/batch with a JSON body. */
enum MHD_Result compute_batch(request *rq);

/* POST /v1/batch with an NDJSON body spooled whole: the answers stream out
 * as the pool's job produces them. */
enum MHD_Result compute_stream(request *rq);

/* POST /v1/moves. */
enum MHD_Result compute_moves(request *rq);

/* Counts one query of a batch, JSON or NDJSON, under its game and code
 * (a gr_batch_run observer; metrics is the server's gr_metrics). */
void compute_count_batch_query(void *metrics, const gr_reply *r);

#endif
