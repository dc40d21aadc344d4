/* SPDX-License-Identifier: MIT */
/* NDJSON batches: POST /v1/batch with Content-Type: application/x-ndjson.
 *
 * The body is spooled to an unlinked temporary file as it arrives, so a
 * stream of any number of lines holds no more than a chunk in memory.
 *
 * Duplex (a Content-Length body over HTTP/1.1 that is still arriving, the
 * common case): after its first chunk the server takes the socket over and
 * a compute-pool job answers each line as soon as it has arrived, sending
 * the answers as a chunked response while the rest of the body uploads
 * (server/stream_socket.h). Otherwise (chunked uploads, HTTP/1.0, a body
 * read whole at once), once the body is complete a compute-pool job reads
 * the spool line by line and answers each line into a bounded ring; the
 * response's content reader sends the ring as it fills, and suspends the
 * connection while it is empty (the job resumes it).
 *
 * Either way the lines are answered in order under one batch budget,
 * answers go out as they are computed, and a slow client stalls the job
 * rather than growing memory. */
#ifndef GRUNDY_SERVER_HTTP_STREAM_H
#define GRUNDY_SERVER_HTTP_STREAM_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>

#include "json_ints.h"
#include "analyze.h"
#include "snapshot.h"

typedef struct gr_stream gr_stream;

/* A stream for one connection with an empty spool, writing integers in
 * int_form; NULL when no temporary file can be made. The caller holds the
 * one reference. observe (may be NULL) is called with observe_ctx and each
 * line's reply, on the job's thread (see gr_batch_run). */
gr_stream *gr_stream_new(struct MHD_Connection *conn, gr_int_form int_form,
                         void (*observe)(void *ctx, const gr_reply *reply), void *observe_ctx);

/* Appends request bytes to the spool; -1 when the file cannot take them,
 * -2 when --max-spool cannot (server/spool_quota.h). */
int gr_stream_spool(gr_stream *s, const char *data, size_t n);

/* Takes `bytes` of --max-spool for the spool in advance (a declared
 * Content-Length); false when they do not fit. Released with the stream. */
bool gr_stream_reserve(gr_stream *s, uint64_t bytes);

/* The response that sends the answers, as gzip (Content-Encoding: gzip,
 * flushed with every batch of answers sent) when gzip is set. It takes a
 * reference of its own and one on snap; the caller's reference goes to
 * gr_stream_produce, which must then be run (on the compute pool). NULL
 * when out of memory. */
struct MHD_Response *gr_stream_response(gr_stream *s, gr_snapshot *snap, bool gzip);

/* Pool job: answers every spooled line, then ends the stream and drops the
 * caller's reference. */
void gr_stream_produce(void *stream);

/* The status lines and headers of a duplex stream's two possible
 * responses: its 200, and the 503 sent instead when its job waited too
 * long for a compute thread (gr_stream_refuse_duplex). */
typedef struct gr_duplex_heads {
    const char *ok, *busy;
    size_t ok_len, busy_len;
} gr_duplex_heads;

/* Duplex streams (server/stream_socket.h): the answers go out while the
 * body uploads, on the connection's socket fd, which the caller has
 * suspended in libmicrohttpd. The spool holds the body's first bytes, and
 * `left` more are to come; heads->ok is the response's head, chunked, with
 * Content-Encoding: gzip when gzip is set. Nothing is sent yet. Takes a
 * reference on snap; the caller's reference to s goes to
 * gr_stream_produce_duplex or gr_stream_refuse_duplex, one of which must
 * then be run. false when out of memory or descriptors: s is unchanged but
 * for its spool, and may be answered as before. */
bool gr_stream_duplex(gr_stream *s, gr_snapshot *snap, bool gzip, int fd, uint64_t left,
                      const gr_duplex_heads *heads, unsigned idle_ms);

/* Duplex streams between gr_stream_duplex and the end of their job. */
unsigned gr_stream_duplex_running(void);

/* Pool job: answers the body as it arrives, ends the response, shuts the
 * socket down, resumes the connection (libmicrohttpd then closes it) and
 * drops the caller's reference. A client silent for idle_ms, or gone, ends
 * the stream early. */
void gr_stream_produce_duplex(void *stream);

/* In place of gr_stream_produce_duplex, for a stream that waited too long
 * for a compute thread: sends heads->busy and body (len bytes, a JSON
 * error) as the whole response, then ends the connection as
 * gr_stream_produce_duplex does and drops the caller's reference. */
void gr_stream_refuse_duplex(gr_stream *s, const char *body, size_t len);

/* libmicrohttpd reports each duplex connection it closes as "closed ...
 * with incomplete request" (it never saw the body's end): true, once per
 * connection handed back, when such a report is one of those and no
 * client's fault. */
bool gr_stream_expected_close(void);

/* Drops a reference; NULL is fine. */
void gr_stream_release(gr_stream *s);

/* From now on running streams stop after their current line and end with an
 * error line (shutdown after the drain time). */
void gr_stream_abort_all(void);

#endif
