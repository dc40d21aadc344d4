/* SPDX-License-Identifier: MIT */
/* The socket side of a duplex NDJSON stream (ndjson/stream.h).
 *
 * libmicrohttpd sends a response only once the request's body is whole. For
 * an NDJSON batch whose answers should flow while it uploads, the server
 * takes the connection's socket over after the first chunk of the body (a
 * Content-Length body over HTTP/1.1 only) and speaks HTTP itself: it keeps
 * receiving the body into the stream's spool file while it sends the answers
 * as a chunked response, then shuts the socket down (the response says
 * Connection: close) and hands the connection back to libmicrohttpd to be
 * closed.
 *
 * Flow: the body is read from the socket as it is answered, so a client
 * that sends faster than the answers are computed is held back by TCP
 * itself. Only while a send waits for the client to read does the server
 * receive ahead, into the spool (so a client that reads no answer before it
 * has sent everything never deadlocks against the server); those bytes are
 * answered from the spool first, and the spool is emptied once answering
 * has caught up. So the file holds that backlog only, and memory is a few
 * fixed buffers whatever the stream's length. */
#ifndef GRUNDY_SERVER_STREAM_SOCKET_H
#define GRUNDY_SERVER_STREAM_SOCKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct gr_sock_io {
    int fd;           /* a duplicate of the connection's socket, ours to close */
    int spool;        /* the spool file's descriptor (borrowed) */
    uint64_t left;    /* body bytes not yet received */
    off_t received;   /* spool bytes written: the body received so far, since the last reset */
    off_t answered;   /* spool bytes handed to the answering side */
    unsigned idle_ms; /* no byte moved for this long: the client is gone */
    bool failed;      /* the client went away, broke the body or stalled, or a send could not finish
                       * before the service's stop (a stop alone ends gr_sock_wait_body without it,
                       * so that the stream can still write its shutting_down lines) */
    const _Atomic bool *stop; /* set: every wait ends (the daemon's shutdown) */
    char *in;         /* receive buffer */
} gr_sock_io;

/* Starts with `spooled` bytes already in the spool and `left` to come on
 * fd (duplicated here); waits end once *stop is set. false when out of
 * memory or descriptors. */
bool gr_sock_open(gr_sock_io *io, int fd, int spool, off_t spooled, uint64_t left, unsigned idle_ms,
                  const _Atomic bool *stop);

/* After a whole response: ends the sending side (the client sees the
 * response's end) and reads and drops the rest of the body for at most
 * ms, or until it has all arrived or the client closes, so that the close
 * that follows finds no unread bytes, which would reset the connection
 * under a response the client has yet to read. */
void gr_sock_discard(gr_sock_io *io, unsigned ms);

/* Shuts the socket down both ways (the client sees the end of the
 * response; libmicrohttpd sees the end of the connection) and closes ours. */
void gr_sock_close(gr_sock_io *io);

/* Up to max bytes of the body not yet answered, into buf, without waiting:
 * from the spool when some wait there, else straight from the socket; 0
 * when there are none now (or on failure: io->failed). */
size_t gr_sock_take(gr_sock_io *io, char *buf, size_t max);

/* Waits until more of the body (or its failure) can be taken, in slices of
 * at most 100 ms so that a stop is seen; false when it timed out or stops. */
bool gr_sock_wait_body(gr_sock_io *io);

/* Sends n bytes as one chunk of a chunked response (n 0: nothing), or all
 * of p as they are with `raw`; receives the body meanwhile. false on
 * failure or a stop (then io->failed). */
bool gr_sock_send(gr_sock_io *io, const char *p, size_t n, bool raw);

#endif
