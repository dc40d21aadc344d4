/* SPDX-License-Identifier: MIT */
#include "access_log.h"

#include <string.h>

#include "log.h"

/* A line being built; writes past the end are cut (every field is bounded,
 * so only a pathological peer address could get there). */
typedef struct line {
    char buf[GR_LOG_LINE_MAX];
    size_t len;
} line;

static void put_bytes(line *l, const char *s, size_t n)
{
    if (n > sizeof l->buf - 1 - l->len)
        n = sizeof l->buf - 1 - l->len;
    memcpy(l->buf + l->len, s, n);
    l->len += n;
}

static void put(line *l, const char *s)
{
    put_bytes(l, s, strlen(s));
}

static void put_u64(line *l, uint64_t v)
{
    char d[20];
    size_t n = 0;
    do
        d[sizeof d - ++n] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    put_bytes(l, d + sizeof d - n, n);
}

/* A JSON string with quotes, or null. */
static void put_json(line *l, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    if (!s) {
        put(l, "null");
        return;
    }
    put(l, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char e[2] = { '\\', (char)c };
            put_bytes(l, e, 2);
        } else if (c < 0x20) {
            char e[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
            put_bytes(l, e, 6);
        } else {
            put_bytes(l, (const char *)&c, 1);
        }
    }
    put(l, "\"");
}

static void put_stamp(line *l)
{
    char ts[GR_LOG_STAMP_LEN];
    gr_log_stamp(ts);
    put_bytes(l, ts, sizeof ts);
}

static void text_line(line *l, const gr_access *a)
{
    put(l, "ts=");
    put_stamp(l);
    put(l, " level=info event=access client=");
    put(l, a->client ? a->client : "-");
    put(l, " request_id=");
    put(l, a->request_id ? a->request_id : "-");
    put(l, " route=");
    put(l, a->route);
    put(l, " status=");
    put_u64(l, (uint64_t)a->status);
    put(l, " game=");
    put(l, a->game ? a->game : "-");
    put(l, " bytes=");
    put_u64(l, a->bytes);
    put(l, " duration_us=");
    put_u64(l, a->duration_us);
}

static void json_line(line *l, const gr_access *a)
{
    put(l, "{\"ts\":\"");
    put_stamp(l);
    put(l, "\",\"level\":\"info\",\"event\":\"access\",\"client\":");
    put_json(l, a->client);
    put(l, ",\"request_id\":");
    put_json(l, a->request_id);
    put(l, ",\"route\":");
    put_json(l, a->route);
    put(l, ",\"status\":");
    put_u64(l, (uint64_t)a->status);
    put(l, ",\"game\":");
    put_json(l, a->game);
    put(l, ",\"bytes\":");
    put_u64(l, a->bytes);
    put(l, ",\"duration_us\":");
    put_u64(l, a->duration_us);
    put(l, "}");
}

void gr_access_log(gr_access_format format, const gr_access *a)
{
    line l;
    l.len = 0;
    if (format == GR_ACCESS_JSON)
        json_line(&l, a);
    else
        text_line(&l, a);
    l.buf[l.len++] = '\n';
    gr_log_line(l.buf, l.len);
}
