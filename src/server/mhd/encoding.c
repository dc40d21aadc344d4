/* SPDX-License-Identifier: MIT */
#include "encoding.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

static bool is_space(char ch)
{
    return ch == ' ' || ch == '\t';
}

/* [p, end) without surrounding blanks. */
static void trim(const char **p, const char **end)
{
    while (*p < *end && is_space(**p))
        (*p)++;
    while (*end > *p && is_space((*end)[-1]))
        (*end)--;
}

static bool token_is(const char *p, const char *end, const char *name)
{
    size_t n = strlen(name);
    return (size_t)(end - p) == n && strncasecmp(p, name, n) == 0;
}

/* A qvalue ("0", "0.5", "1", "1.000": RFC 9110 section 12.4.2) as
 * thousandths; -1 when malformed. */
static int parse_qvalue(const char *p, const char *end)
{
    if (p == end || (*p != '0' && *p != '1'))
        return -1;
    int q = (*p - '0') * 1000, scale = 100;
    p++;
    if (p < end && *p == '.') {
        for (p++; p < end && scale > 0; p++, scale /= 10) {
            if (*p < '0' || *p > '9')
                return -1;
            q += (*p - '0') * scale;
        }
    }
    return p == end && q <= 1000 ? q : -1;
}

/* The q of one entry's parameters ("; q=0.5"), 1000 when there is none,
 * -1 when it is malformed. */
static int entry_quality(const char *params, const char *end)
{
    const char *p = params;
    while (p < end) {
        const char *semi = memchr(p + 1, ';', (size_t)(end - p - 1));
        const char *stop = semi ? semi : end;
        const char *a = p + 1, *b = stop;
        trim(&a, &b);
        if (b - a >= 2 && (a[0] == 'q' || a[0] == 'Q') && a[1] == '=') {
            const char *v = a + 2;
            trim(&v, &b);
            return parse_qvalue(v, b);
        }
        p = stop;
    }
    return 1000;
}

void gr_codings_parse(gr_codings *c, const char *accept_encoding)
{
    int gzip = -1, identity = -1, star = -1;
    const char *p = accept_encoding ? accept_encoding : "";
    while (*p) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        const char *semi = memchr(p, ';', (size_t)(end - p));
        const char *name = p, *name_end = semi ? semi : end;
        trim(&name, &name_end);
        int q = entry_quality(semi ? semi : end, end);
        if (q >= 0) {
            if (token_is(name, name_end, "gzip") || token_is(name, name_end, "x-gzip"))
                gzip = q;
            else if (token_is(name, name_end, "identity"))
                identity = q;
            else if (token_is(name, name_end, "*"))
                star = q;
        }
        p = comma ? comma + 1 : end;
    }
    c->gzip = (uint16_t)(gzip >= 0 ? gzip : star >= 0 ? star : 0);
    /* identity not named: acceptable, but no preference over a coding named */
    c->identity = (uint16_t)(identity >= 0 ? identity : star >= 0 ? star : 1);
}

bool gr_codings_choose_gzip(const gr_codings *c, bool have_gzip)
{
    return have_gzip && c->gzip > 0 && (c->identity == 0 || c->gzip >= c->identity);
}

int gr_gzip(const void *data, size_t len, unsigned char **out, size_t *out_len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    /* windowBits 15 + 16: a gzip wrapper with no name and time 0 */
    if (len >= UINT32_MAX || deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                                          Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    size_t cap = deflateBound(&z, (uLong)len);
    unsigned char *buf = cap < UINT32_MAX ? malloc(cap) : NULL;
    int rc = Z_STREAM_ERROR;
    if (buf) {
        z.next_in = (Bytef *)(uintptr_t)data;
        z.avail_in = (uInt)len;
        z.next_out = buf;
        z.avail_out = (uInt)cap;
        rc = deflate(&z, Z_FINISH);
    }
    size_t n = z.total_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END || n >= len) {
        free(buf);
        return rc == Z_STREAM_END ? 1 : -1;
    }
    *out = buf;
    *out_len = n;
    return 0;
}
