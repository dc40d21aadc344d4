/* SPDX-License-Identifier: MIT */
/* A first request head, judged before libmicrohttpd reads it (first_head.h).
 * The grammar is RFC 9112's, as strict as libmicrohttpd 0.9.75 is or
 * stricter, so that a head passed on is never one libmicrohttpd answers
 * itself, and it frames the body exactly as libmicrohttpd will. */
#include "first_head.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Header lines and query parameters each take a record in libmicrohttpd's
 * per-connection memory: past these counts (Apache's LimitRequestFields)
 * a head within --max-header could still overflow it (a 431 in HTML). */
#define GR_HEAD_MAX_FIELDS 100
#define GR_HEAD_MAX_PARAMS 100
/* Method, spaces and version around the target on the request line. */
#define GR_HEAD_LINE_SLACK 64

typedef struct judge {
    const char *buf;
    size_t n, pos;       /* the bytes, and where the next line starts */
    const gr_head_limits *lim;
    gr_error_code *code;
    char *message;
    size_t size;
    gr_head_shape *shape;
} judge;

static gr_head_verdict refuse(judge *j, gr_error_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static gr_head_verdict refuse(judge *j, gr_error_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->message, j->size, fmt, ap);
    va_end(ap);
    *j->code = code;
    return GR_HEAD_REFUSED;
}

size_t gr_first_head_size(const gr_head_limits *l)
{
    return l->max_url + l->max_header + 2 * GR_HEAD_LINE_SLACK;
}

const char *gr_head_reason(int status)
{
    switch (status) {
    case 400: return "Bad Request";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 431: return "Request Header Fields Too Large";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Error";
    }
}

/* The next line (without its CR LF or LF) in *line, *len; false when its
 * LF has not arrived yet. */
static bool next_line(judge *j, const char **line, size_t *len)
{
    const char *s = j->buf + j->pos;
    const char *lf = memchr(s, '\n', j->n - j->pos);
    if (!lf)
        return false;
    size_t l = (size_t)(lf - s);
    if (l && s[l - 1] == '\r')
        l--;
    *line = s;
    *len = l;
    j->pos = (size_t)(lf - j->buf) + 1;
    return true;
}

/* Client text quoted in a message: printable ASCII without quotes or
 * backslashes (the raw answers are not escaped), at most 40 bytes. */
static void shown(const char *s, size_t len, char out[48])
{
    size_t k = 0;
    for (size_t i = 0; i < len && k < 40; i++)
        if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' && s[i] != '\\')
            out[k++] = s[i];
    if (len > 40)
        memcpy(out + k, "...", 3), k += 3;
    out[k] = '\0';
}

static size_t count_params(const char *target, size_t len)
{
    const char *q = memchr(target, '?', len);
    if (!q)
        return 0;
    size_t n = 1;
    for (const char *p = q + 1; p < target + len; p++)
        n += *p == '&';
    return n;
}

static gr_head_verdict judge_request_line(judge *j, const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && gr_http_tchar((unsigned char)s[i]))
        i++;
    size_t t0 = i + 1, t = t0;
    if (i > 0 && i < len && s[i] == ' ')
        while (t < len && (unsigned char)s[t] > 0x20 && s[t] != 0x7f)
            t++;
    if (i == 0 || i >= len || s[i] != ' ' || t == t0 || t >= len || s[t] != ' ')
        return refuse(j, GR_E_BAD_REQUEST, "the request line is not METHOD, TARGET and HTTP version with single "
                      "spaces; send it so, such as GET /healthz HTTP/1.1");
    if (t - t0 > j->lim->max_url)
        return refuse(j, GR_E_URL_TOO_LONG, GR_HEAD_MSG_URL_TOO_LONG, t - t0, j->lim->max_url);
    if (count_params(s + t0, t - t0) > GR_HEAD_MAX_PARAMS)
        return refuse(j, GR_E_URL_TOO_LONG, "the URL has more than %d query parameters; send fewer "
                      "(queries go in the body)", GR_HEAD_MAX_PARAMS);
    const char *v = s + t + 1;
    size_t vlen = len - t - 1;
    bool digits = vlen == 8 && v[5] >= '0' && v[5] <= '9' && v[6] == '.' && v[7] >= '0' && v[7] <= '9';
    if (!digits || memcmp(v, "HTTP/", 5) != 0) {
        char got[48];
        shown(v, vlen, got);
        return refuse(j, GR_E_BAD_REQUEST, "the request line ends in \\\"%s\\\", not an HTTP version; end it "
                      "with HTTP/1.1", got);
    }
    if (v[5] != '1' || (v[7] != '0' && v[7] != '1'))
        return refuse(j, GR_E_HTTP_VERSION_NOT_SUPPORTED, "HTTP/%c.%c is not supported; send HTTP/1.0 or HTTP/1.1",
                      v[5], v[7]);
    j->shape->head_method = i == 4 && memcmp(s, "HEAD", 4) == 0;
    return GR_HEAD_GOOD;
}

/* What the header lines say about the body. */
typedef struct head_fields {
    unsigned lines, lengths, codings;
    bool chunked; /* the one Transfer-Encoding is chunked */
} head_fields;

static gr_head_verdict judge_length(judge *j, const char *v, size_t len)
{
    j->shape->length = 0;
    char got[48];
    shown(v, len, got);
    uint64_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (v[i] < '0' || v[i] > '9')
            return refuse(j, GR_E_BAD_REQUEST, "Content-Length \\\"%s\\\" is not a number of bytes; send the "
                          "body's length in decimal digits", got);
        unsigned d = (unsigned)(v[i] - '0');
        if (n > (UINT64_MAX - d) / 10)
            return refuse(j, GR_E_BODY_TOO_LARGE, "Content-Length %s is 2^64 bytes or more, over the body limit "
                          "(--max-body); send a smaller body", got);
        n = n * 10 + d;
    }
    j->shape->length = n;
    if (!len)
        return refuse(j, GR_E_BAD_REQUEST, "Content-Length is empty; send the body's length in decimal digits");
    return GR_HEAD_GOOD;
}

static gr_head_verdict judge_field(judge *j, const char *s, size_t len, head_fields *f)
{
    char got[48];
    shown(s, len, got);
    if (len && (s[0] == ' ' || s[0] == '\t'))
        return refuse(j, GR_E_BAD_REQUEST, "a header line starts with white space (an obsolete folded line): "
                      "\\\"%s\\\"; send each header on one line", got);
    size_t i = 0;
    while (i < len && gr_http_tchar((unsigned char)s[i]))
        i++;
    if (i == 0 || i >= len || s[i] != ':')
        return refuse(j, GR_E_BAD_REQUEST, "the header line \\\"%s\\\" is not Name: value; send it so", got);
    for (size_t k = i + 1; k < len; k++)
        if (gr_http_control((unsigned char)s[k]))
            return refuse(j, GR_E_BAD_REQUEST, "the header line \\\"%s\\\" holds control byte 0x%02x; send "
                          "visible text only", got, (unsigned)(unsigned char)s[k]);
    if (++f->lines > GR_HEAD_MAX_FIELDS)
        return refuse(j, GR_E_HEADERS_TOO_LARGE, "the request has more than %d header lines; send fewer",
                      GR_HEAD_MAX_FIELDS);
    const char *v = s + i + 1, *e = s + len;
    while (v < e && (*v == ' ' || *v == '\t'))
        v++;
    if (i == 14 && strncasecmp(s, "Content-Length", 14) == 0) {
        if (++f->lengths > 1)
            return refuse(j, GR_E_BAD_REQUEST, GR_HEAD_MSG_TWO_LENGTHS);
        /* White space after the digits too is refused: libmicrohttpd reads
         * the value to the line's end. */
        return judge_length(j, v, (size_t)(e - v));
    }
    /* No trailing white space is trimmed: libmicrohttpd compares the value
     * to the line's end, and "chunked " is not chunked there. */
    if (i == 17 && strncasecmp(s, "Transfer-Encoding", 17) == 0) {
        f->codings++;
        f->chunked = e - v == 7 && strncasecmp(v, "chunked", 7) == 0;
    }
    return GR_HEAD_GOOD;
}

/* How the body is framed, from the header lines: exactly as
 * libmicrohttpd will frame it (a Transfer-Encoding, whatever its value,
 * wins over Content-Length there), or refused where the two could differ
 * or libmicrohttpd cannot read it. */
static gr_head_verdict judge_framing(judge *j, const head_fields *f)
{
    if (f->codings && f->lengths)
        return refuse(j, GR_E_BAD_REQUEST, GR_HEAD_MSG_BOTH_FRAMINGS);
    if (f->codings > 1 || (f->codings && !f->chunked))
        return refuse(j, GR_E_UNSUPPORTED_TRANSFER_CODING, "the only transfer coding accepted is chunked, "
                      "once; send the body with Content-Length or Transfer-Encoding: chunked");
    j->shape->body = f->codings ? GR_BODY_CHUNKED : f->lengths ? GR_BODY_LENGTH : GR_BODY_NONE;
    return GR_HEAD_GOOD;
}

/* Whether the bytes so far, with no end of the head among them, are past
 * a limit already. */
static gr_head_verdict judge_unfinished(judge *j, size_t head_start, bool line_done)
{
    size_t so_far = j->n - head_start;
    if (!line_done && so_far > j->lim->max_url + GR_HEAD_LINE_SLACK)
        return refuse(j, GR_E_URL_TOO_LONG, "the request line is at least %zu bytes, and the URL's limit is %zu "
                      "(--max-url); send a shorter one (queries go in the body)", so_far, j->lim->max_url);
    if (so_far > j->lim->max_header)
        return refuse(j, GR_E_HEADERS_TOO_LARGE, "the request line and headers are at least %zu bytes, more than "
                      "the limit of %zu (--max-header); send fewer or shorter headers", so_far, j->lim->max_header);
    return GR_HEAD_INCOMPLETE;
}

gr_head_verdict gr_first_head_judge(const char *buf, size_t n, const gr_head_limits *l, gr_head_shape *shape,
                              gr_error_code *code, char *message, size_t size)
{
    gr_head_shape ignored;
    judge j = { .buf = buf, .n = n, .lim = l, .code = code, .message = message, .size = size,
                .shape = shape ? shape : &ignored };
    *j.shape = (gr_head_shape){ 0 };
    /* Empty lines before a request line are ignored (RFC 9112 2.2): CR LF
     * or LF, as libmicrohttpd reads them; a CR without its LF is no line
     * end, and the request line that starts with it is refused. */
    while (j.pos < n && (buf[j.pos] == '\n' || (buf[j.pos] == '\r' && j.pos + 1 < n && buf[j.pos + 1] == '\n')))
        j.pos += buf[j.pos] == '\n' ? 1 : 2;
    size_t head_start = j.pos;
    if (head_start > l->max_header)
        return refuse(&j, GR_E_BAD_REQUEST, "more than %zu bytes of empty lines come before the request line; "
                      "send the request line first", l->max_header);
    const char *s;
    size_t len;
    if (!next_line(&j, &s, &len))
        return judge_unfinished(&j, head_start, false);
    gr_head_verdict v = judge_request_line(&j, s, len);
    head_fields f = { 0 };
    while (v == GR_HEAD_GOOD) {
        if (!next_line(&j, &s, &len))
            return judge_unfinished(&j, head_start, true);
        if (len == 0)
            break;
        v = judge_field(&j, s, len, &f);
    }
    if (v != GR_HEAD_GOOD)
        return v;
    if (j.pos - head_start > l->max_header)
        return refuse(&j, GR_E_HEADERS_TOO_LARGE, GR_HEAD_MSG_HEAD_TOO_LARGE, j.pos - head_start, l->max_header);
    j.shape->len = j.pos;
    return judge_framing(&j, &f);
}
