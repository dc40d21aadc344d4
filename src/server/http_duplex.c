#include "server/http_duplex.h"

#include <stdatomic.h>
#include <string.h>

#include "server/http.h"
#include "server/reply.h"

/* A duplex stream holds its compute thread while the body uploads, at the
 * client's pace: at most half the compute threads (at least one) do so at
 * once, so that slow uploads cannot take every thread; streams past that are
 * answered once their body is whole, as before. */
static bool duplex_room(const server_state *st)
{
    unsigned cap = st->cfg->compute_threads / 2;
    return gr_stream_duplex_running() < (cap ? cap : 1);
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
    char head[1024];
    size_t head_len = reply_stream_head(rq, gzip, head, sizeof head);
    gr_snapshot *snap = gr_snapshot_acquire(&st->snaps);
    if (!head_len || !gr_stream_duplex(rq->stream, snap, gzip, ci->connect_fd, total - rq->len, head, head_len,
                                       st->cfg->conn_timeout * 1000u)) {
        gr_snapshot_release(snap);
        gr_pool_unreserve(st->pool);
        rq->status = 0; /* nothing was sent: the stream is answered as before */
        return;
    }
    rq->snap = snap;
    rq->counted = true;
    atomic_fetch_add(&st->in_flight, 1);
    atomic_fetch_add(&st->metrics.pool_jobs, 1);
    rq->answered = true;
    gr_stream *s = rq->stream;
    rq->stream = NULL; /* the job owns it now */
    MHD_suspend_connection(rq->conn);
    gr_pool_push(st->pool, gr_stream_produce_duplex, s);
}
