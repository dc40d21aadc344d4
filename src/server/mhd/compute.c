/* SPDX-License-Identifier: MIT */
/* Queries answered on the compute pool: the inline attempt and its move to
 * the pool, JSON batches, moves listings and NDJSON streams. A job writes
 * rq->reply and resumes the connection; the HTTP thread sends it. */
#include "compute.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "batch.h"
#include "scratch.h"
#include "moves.h"
#include "response.h"

/* Bodies larger than this skip the inline attempt: parsing them is itself
 * heavy work. */
#define INLINE_BODY_MAX 65536

/* Counts one query of a batch, JSON or NDJSON, under its game and code. */
void compute_count_batch_query(void *metrics, const gr_reply *r)
{
    gr_metrics_query(metrics, ROUTE_BATCH, r->game, r->error);
}

/* Hands the job's reply to the HTTP thread. */
static void job_done(request *rq)
{
    struct MHD_Connection *conn = rq->conn;
    gr_watch_remove(rq->st->watch, &rq->watch);
    atomic_store(&rq->state, RQ_DONE);
    MHD_resume_connection(conn);
}

void compute_expired_reply(request *rq, uint64_t waited_ms, const char *what, gr_reply *out)
{
    atomic_fetch_add(&rq->st->metrics.pool_rejected, 1);
    gr_api_error e;
    gr_fail(&e, GR_E_OVERLOADED, "",
            "the %s waited %llu ms for a compute thread, past the limit of %llu ms "
            "(--queue-wait-ms), and was not run; retry after a second",
            what, (unsigned long long)waited_ms, (unsigned long long)rq->st->cfg->queue_wait_ms);
    gr_api_error_reply(&e, out);
}

/* The pool's answer for a job that waited past --queue-wait-ms: a 503
 * (with Retry-After) instead of running it, which would only lengthen the
 * queue for a client that has waited long enough. */
static void job_expired(void *arg, uint64_t waited_ms)
{
    request *rq = arg;
    compute_expired_reply(rq, waited_ms, "query", &rq->reply);
    job_done(rq);
}

/* A spooled stream's 503 is sent in place of its 200, which was never
 * queued: the response is destroyed and the stream released unanswered
 * when the request ends (request_reset). */
static void stream_expired(void *arg, uint64_t waited_ms)
{
    request *rq = arg;
    compute_expired_reply(rq, waited_ms, "stream", &rq->reply);
    job_done(rq);
}

/* A query during which the mapped table file faulted may have read zeros
 * in place of values (tables/guard.h): its answer is replaced by a 503.
 * True when so. */
static bool faulted(request *rq, gr_reply *r)
{
    if (gr_tables_faults(rq->snap->tables) == rq->faults_at_start)
        return false;
    gr_api_error e;
    gr_fail(&e, GR_E_OVERLOADED, "",
            "the table file changed under the service while this query read it (it is replaced by "
            "rename, never edited in place); the changed part is no longer used: retry");
    gr_scratch_free(r->body);
    gr_api_error_reply(&e, r);
    return true;
}

/* A job cancelled before it started (its client went, or the drain ran
 * out while it waited) is answered without running: true when so. */
static bool cancelled_before_start(request *rq)
{
    if (!atomic_load(&rq->watch.cancel))
        return false;
    gr_api_error e;
    gr_fail(&e, GR_E_SHUTTING_DOWN, "",
            "the query was cancelled before it started (the service is stopping, or the client went "
            "away); send it again");
    gr_api_error_reply(&e, &rq->reply);
    job_done(rq);
    return true;
}

static void analyze_job(void *arg)
{
    request *rq = arg;
    if (cancelled_before_start(rq))
        return;
    gr_attempt a = { .steps = UINT64_MAX, .cpu_used_ns = rq->inline_cpu_ns, .cancel = &rq->watch.cancel };
    gr_api_attempt(&rq->snap->svc, rq->body ? rq->body : "", rq->len, &a, &rq->reply);
    rq->game = rq->reply.game;
    faulted(rq, &rq->reply);
    job_done(rq);
}

/* Replaces the reply's body by its gzip form when the client takes gzip
 * and it is smaller; kept as it is otherwise (out of memory included). */
static void gzip_reply(request *rq)
{
    unsigned char *gz;
    size_t n;
    if (!rq->reply.body || !gr_codings_choose_gzip(&rq->codings, true) || !response_put_ints(rq, &rq->reply) ||
        gr_gzip(rq->reply.body, rq->reply.len, &gz, &n) != 0)
        return;
    free(rq->reply.body);
    rq->reply.body = (char *)gz;
    rq->reply.len = n;
    rq->gzipped = true;
}

static void batch_job(void *arg)
{
    request *rq = arg;
    if (cancelled_before_start(rq))
        return;
    gr_batch_run run;
    gr_batch_run_init(&run, &rq->snap->svc);
    run.cancel = &rq->watch.cancel;
    run.observe = compute_count_batch_query;
    run.observe_ctx = &rq->st->metrics;
    gr_api_batch_run(&rq->snap->svc, &run, rq->body ? rq->body : "", rq->len, &rq->reply);
    faulted(rq, &rq->reply);
    gzip_reply(rq);
    job_done(rq);
}

/* Every move of a position evaluates a position: always the compute pool's
 * work. The URL's ?limit= and ?cursor= are read on the HTTP thread, while
 * the connection is ours. */
static void moves_job(void *arg)
{
    request *rq = arg;
    if (cancelled_before_start(rq))
        return;
    gr_page_args page = { rq->page_limit[0] ? rq->page_limit : NULL, rq->page_cursor[0] ? rq->page_cursor : NULL,
                          &rq->watch.cancel };
    gr_api_moves(&rq->snap->svc, rq->body ? rq->body : "", rq->len, &page, &rq->reply);
    rq->game = rq->reply.game;
    faulted(rq, &rq->reply);
    job_done(rq);
}

/* Suspends the connection and queues fn(rq) on the compute pool, or 503. */
static enum MHD_Result offload(request *rq, gr_job_fn fn)
{
    if (!gr_pool_reserve(rq->st->pool))
        return response_busy(rq);
    atomic_fetch_add(&rq->st->metrics.pool_jobs, 1);
    rq->answered = true;
    atomic_store(&rq->state, RQ_WAITING);
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(rq->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    gr_watch_add(rq->st->watch, &rq->watch, ci ? (int)ci->connect_fd : -1);
    MHD_suspend_connection(rq->conn);
    gr_pool_push_bounded(rq->st->pool, fn, job_expired, rq, rq->st->cfg->queue_wait_ms);
    return MHD_YES;
}

/* The inline attempt: answered here unless it runs out of the inline
 * budget, in which case the whole query moves to the pool, where it gets
 * the CPU time the inline attempt left of --query-cpu-ms. */
enum MHD_Result compute_analyze(request *rq)
{
    const gr_service *svc = &rq->snap->svc;
    if (rq->len > INLINE_BODY_MAX)
        return offload(rq, analyze_job);
    bool scoped = gr_scratch_begin();
    gr_reply r;
    gr_attempt a = { .steps = rq->st->cfg->inline_budget };
    bool done = gr_api_attempt(svc, rq->body ? rq->body : "", rq->len, &a, &r);
    if (done)
        faulted(rq, &r);
    rq->inline_cpu_ns = a.cpu_used_ns;
    rq->game = r.game;
    rq->error = r.error;
    bool kept = done && response_keep(rq, &r);
    gr_scratch_free(r.body);
    if (scoped)
        gr_scratch_end();
    if (!done)
        return offload(rq, analyze_job);
    return kept ? response_send_kept(rq, r.status, r.len) : response_send(rq, &(gr_reply){ r.status, NULL, 0, NULL, NULL }, NULL);
}

/* A spooled stream's job: it has a compute thread, so the HTTP thread may
 * now queue the 200 (compute_stream_start); the answers it writes before
 * then wait in the stream's ring. */
static void stream_job(void *arg)
{
    request *rq = arg;
    gr_stream *s = rq->stream;
    struct MHD_Connection *conn = rq->conn;
    rq->stream = NULL; /* the job's reference; rq is the HTTP thread's again once resumed */
    atomic_store(&rq->state, RQ_STREAMING);
    MHD_resume_connection(conn);
    gr_stream_produce(s);
}

/* The response is made here, while the connection is ours, but queued only
 * when the job starts: a stream whose wait runs out gets its 503 instead,
 * and never a 200. */
enum MHD_Result compute_stream(request *rq)
{
    if (!gr_pool_reserve(rq->st->pool))
        return response_busy(rq);
    rq->stream_response = gr_stream_response(rq->stream, rq->snap, gr_codings_choose_gzip(&rq->codings, true));
    if (!rq->stream_response) {
        gr_pool_unreserve(rq->st->pool);
        return response_error(rq, GR_E_OVERLOADED, NULL, "out of memory; retry later");
    }
    atomic_fetch_add(&rq->st->metrics.pool_jobs, 1);
    rq->answered = true;
    atomic_store(&rq->state, RQ_WAITING);
    MHD_suspend_connection(rq->conn);
    gr_pool_push_bounded(rq->st->pool, stream_job, stream_expired, rq, rq->st->cfg->queue_wait_ms);
    return MHD_YES;
}

enum MHD_Result compute_stream_start(request *rq)
{
    struct MHD_Response *resp = rq->stream_response;
    rq->stream_response = NULL;
    return response_queue(rq, 200, resp, "application/x-ndjson", NULL);
}

enum MHD_Result compute_batch(request *rq)
{
    return offload(rq, batch_job);
}

enum MHD_Result compute_moves(request *rq)
{
    return offload(rq, moves_job);
}
