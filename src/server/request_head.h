/* SPDX-License-Identifier: MIT */
/* The first request head of a connection, judged on the bytes the acceptor
 * peeked (acceptor.h) before libmicrohttpd sees them: exactly the heads
 * libmicrohttpd 0.9.75 would refuse itself, in HTML and before any
 * callback of ours (http_guard.h lists them), so that they get the
 * service's JSON errors instead. Everything else is left to libmicrohttpd
 * and the first-callback checks of http_guard.c. */
#ifndef GRUNDY_SERVER_REQUEST_HEAD_H
#define GRUNDY_SERVER_REQUEST_HEAD_H

#include <stddef.h>

#include "api/error.h"

typedef enum gr_head_verdict {
    GR_HEAD_INCOMPLETE, /* the head has not ended yet within its limits: wait for more bytes */
    GR_HEAD_GOOD,       /* hand the connection to libmicrohttpd */
    GR_HEAD_REFUSED     /* answer *code with message, then close */
} gr_head_verdict;

typedef struct gr_head_limits {
    size_t max_url;    /* bytes of the request target (--max-url) */
    size_t max_header; /* bytes of the request line and headers (--max-header) */
} gr_head_limits;

/* Judges the n bytes buf[0..n) that arrived first on a connection: the
 * request line (method, target, HTTP/1.0 or HTTP/1.1), the header lines,
 * Content-Length (digits, below 2^64, once), and with Transfer-Encoding:
 * chunked the chunk size lines among the body bytes already in buf.
 * The size of buf the caller reads must exceed gr_head_peek_size(l) for a
 * head over its limits to be told from an incomplete one. */
gr_head_verdict gr_head_judge(const char *buf, size_t n, const gr_head_limits *l, gr_error_code *code,
                              char *message, size_t size);
size_t gr_head_peek_size(const gr_head_limits *l);

/* The status line's reason phrase for status. */
const char *gr_head_reason(int status);

#endif
