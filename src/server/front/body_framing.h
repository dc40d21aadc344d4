/* SPDX-License-Identifier: MIT */
/* Where a request's body ends after its head (judged by first_head.h),
 * and whether its chunks are well formed: the acceptor scans the body
 * bytes that came with a connection's first head (acceptor.h).
 *
 * A chunked body is held to RFC 9112 7.1, as strict as libmicrohttpd
 * 0.9.75 is or stricter (1 to 16 hex digits, an extension after ';'
 * without control bytes, CR LF or LF line ends, a trailer section of
 * Name: value lines), so that a malformed chunk among those bytes gets the
 * service's JSON 400, never libmicrohttpd's HTML. */
#ifndef GRUNDY_SERVER_HTTP_BODY_H
#define GRUNDY_SERVER_HTTP_BODY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum gr_body_kind {
    GR_BODY_NONE,     /* no body */
    GR_BODY_LENGTH,   /* Content-Length bytes */
    GR_BODY_CHUNKED   /* chunks, the last of size 0, then trailer lines and an empty line */
} gr_body_kind;

typedef enum gr_body_step {
    GR_BODY_MORE,  /* every byte scanned belongs to the body, which goes on */
    GR_BODY_ENDED, /* the body ended after *used bytes */
    GR_BODY_BAD    /* the framing broke after *used good bytes; why says how (JSON string content) */
} gr_body_step;

typedef struct gr_body {
    gr_body_kind kind;
    uint8_t at;          /* the place in the chunked grammar */
    uint8_t digits;      /* hex digits of the chunk size line so far */
    uint64_t left;       /* bytes of the body (LENGTH) or of the chunk's data (CHUNKED) still to come */
    size_t line;         /* bytes of the current size line extension or trailer line */
    size_t trailer;      /* bytes of the trailer section so far */
    size_t max_trailer;  /* its limit (--max-header) */
} gr_body;

void gr_body_start(gr_body *b, gr_body_kind kind, uint64_t length, size_t max_trailer);

/* RFC 9110 5.6.2: a character of a method or a field name (a token). */
bool gr_http_tchar(unsigned char c);

/* A control byte that may not stand in a field value: all but tab. */
bool gr_http_control(unsigned char c);

/* Scans the next n bytes p[0..n) of the body. */
gr_body_step gr_body_scan(gr_body *b, const char *p, size_t n, size_t *used, const char **why);

#endif
