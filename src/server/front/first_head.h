/* SPDX-License-Identifier: MIT */
/* A connection's first request head, judged by the acceptor (acceptor.h)
 * on peeked bytes before libmicrohttpd reads it: every head libmicrohttpd
 * 0.9.75 would refuse itself, in HTML and before any callback of ours, is
 * refused here, so that it gets the service's JSON error instead; and a
 * good head says how its body is framed, exactly as libmicrohttpd will
 * frame it (a framing the two could read differently is refused), so that
 * the chunks that came with it can be judged too (body_framing.h). */
#ifndef GRUNDY_SERVER_FIRST_HEAD_H
#define GRUNDY_SERVER_FIRST_HEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errors.h"
#include "body_framing.h"

typedef enum gr_head_verdict {
    GR_HEAD_INCOMPLETE, /* the head has not ended yet within its limits: wait for more bytes */
    GR_HEAD_GOOD,       /* pass the head on to libmicrohttpd */
    GR_HEAD_REFUSED     /* answer *code with message, then close */
} gr_head_verdict;

typedef struct gr_head_limits {
    size_t max_url;    /* bytes of the request target (--max-url) */
    size_t max_header; /* bytes of the request line and headers (--max-header) */
} gr_head_limits;

/* What a good head says of its request. */
typedef struct gr_head_shape {
    size_t len;        /* bytes of the head: empty lines before it, its lines, the empty line ending it */
    gr_body_kind body; /* GR_BODY_NONE, GR_BODY_LENGTH or GR_BODY_CHUNKED */
    uint64_t length;   /* GR_BODY_LENGTH: the body's bytes */
    bool head_method;  /* HEAD: its answer has no body */
} gr_head_shape;

/* Judges the n bytes buf[0..n) that start a request: the request line
 * (method, target, HTTP/1.0 or HTTP/1.1), the header lines (Name: value,
 * no control byte but tab), Content-Length (digits, below 2^64, once),
 * Transfer-Encoding (chunked, once, without Content-Length). A good head
 * fills *shape (may be NULL). The bytes the caller judges at most must
 * exceed gr_first_head_size(l) for a head over its limits to be told from
 * an incomplete one. */
gr_head_verdict gr_first_head_judge(const char *buf, size_t n, const gr_head_limits *l, gr_head_shape *shape,
                              gr_error_code *code, char *message, size_t size);
size_t gr_first_head_size(const gr_head_limits *l);

/* The refusals that every head shares, the first (here) and each later one
 * (mhd/every_head.c), spelled once. The formats take size_t values: the
 * size, then the limit. */
#define GR_HEAD_MSG_URL_TOO_LONG                                                                     \
    "the URL is %zu bytes, longer than the limit of %zu (--max-url); send a shorter one (queries go in " \
    "the body)"
#define GR_HEAD_MSG_HEAD_TOO_LARGE                                                                   \
    "the request line and headers are %zu bytes, more than the limit of %zu (--max-header); send "   \
    "fewer or shorter headers"
#define GR_HEAD_MSG_BOTH_FRAMINGS "the request has both Transfer-Encoding and Content-Length; send one of them"
#define GR_HEAD_MSG_TWO_LENGTHS "the request has two Content-Length headers; send one"

/* The status line's reason phrase for status. */
const char *gr_head_reason(int status);

#endif
