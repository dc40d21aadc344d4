/* SPDX-License-Identifier: MIT */
#include "duplex.h"

#include <stdatomic.h>
#include <string.h>

#include "scratch.h"
#include "compute.h"
#include "dispatch.h"
#include "response.h"

/* A duplex stream holds its compute thread while the body uploads, at the
 * client's pace: at most half the compute threads (at least one) do so at
 * once, so that slow uploads cannot take every thread; streams past that are
 * answered once their body is whole, as before. */
static bool duplex_room(const server_state *st)
{
    unsigned cap = st->cfg->compute_threads / 2;
    return gr_stream_duplex_running() < (cap ? cap : 1);
}

/* The job takes the stream (rq is the HTTP thread's again once the job
 * resumes the connection). */
static void duplex_job(void *arg)
{
    request *rq = arg;
    gr_stream *s = rq->stream;
    rq->stream = NULL;
    gr_stream_produce_duplex(s);
}

/* Nothing has been sent on the socket yet: the 503 goes there in place of
 * the 200, and the connection ends as a duplex stream's does. */
static void duplex_expired(void *arg, uint64_t waited_ms)
{
    request *rq = arg;
    gr_stream *s = rq->stream;
    rq->stream = NULL;
    gr_reply r;
    compute_expired_reply(rq, waited_ms, "stream", &r);
    rq->status = r.status;
    rq->error = r.error;
    gr_stream_refuse_duplex(s, r.body ? r.body : gr_oom_error_json, r.body ? r.len : gr_oom_error_json_len);
    gr_scratch_free(r.body);
}

void http_start_duplex(request *rq, const char *version)
{
    server_state *st = rq->st;
    uint64_t total;
    if (!duplex_room(st) || strcmp(version, MHD_HTTP_VERSION_1_1) != 0 || !http_declared_length(rq->conn, &total) ||
        total <= rq->len ||
        MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING))
        return;
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(rq->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (!ci || !gr_pool_reserve(st->pool))
        return;
    bool gzip = gr_codings_choose_gzip(&rq->codings, true);
    char ok[1024], busy[1024];
    gr_duplex_heads heads = { ok, busy, response_stream_head(rq, MHD_HTTP_OK, gzip, ok, sizeof ok),
                              response_stream_head(rq, MHD_HTTP_SERVICE_UNAVAILABLE, false, busy, sizeof busy) };
    gr_snapshot *snap = gr_snapshot_acquire(&st->snaps);
    if (!heads.ok_len || !heads.busy_len ||
        !gr_stream_duplex(rq->stream, snap, gzip, ci->connect_fd, total - rq->len, &heads,
                          st->cfg->conn_timeout * 1000u)) {
        gr_snapshot_release(snap);
        gr_pool_unreserve(st->pool);
        return; /* nothing was sent: the stream is answered as before */
    }
    rq->snap = snap;
    rq->status = MHD_HTTP_OK; /* until the job's wait runs out (duplex_expired) */
    rq->counted = true;
    atomic_fetch_add(&st->in_flight, 1);
    atomic_fetch_add(&st->metrics.pool_jobs, 1);
    rq->answered = true;
    MHD_suspend_connection(rq->conn);
    gr_pool_push_bounded(st->pool, duplex_job, duplex_expired, rq, st->cfg->queue_wait_ms);
}
