/* SPDX-License-Identifier: MIT */
/* A request body's framing (body_framing.h). */
#include "body_framing.h"

#include <string.h>

/* A chunk size line's extension past this is refused: libmicrohttpd needs
 * the whole line in its read buffer. */
enum { MAX_EXTENSION = 4096 };

enum chunk_place {
    SIZE,           /* hex digits of a chunk size */
    EXTENSION,      /* after ';', to the line's end */
    SIZE_CR,        /* a CR ended the size line: LF must follow */
    DATA,           /* the chunk's data */
    DATA_END,       /* CR LF (or LF) after the data */
    DATA_CR,
    TRAILER_START,  /* a trailer line, or the empty line ending the body */
    TRAILER_NAME,
    TRAILER_VALUE,
    TRAILER_CR,
    END_CR          /* a CR started the final empty line: LF must follow */
};

bool gr_http_tchar(unsigned char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

static int hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c |= 0x20;
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

bool gr_http_control(unsigned char c)
{
    return (c < 0x20 && c != '\t') || c == 0x7f;
}

void gr_body_start(gr_body *b, gr_body_kind kind, uint64_t length, size_t max_trailer)
{
    *b = (gr_body){ .kind = kind, .at = SIZE, .left = kind == GR_BODY_LENGTH ? length : 0,
                    .max_trailer = max_trailer };
}

/* The size line ended: the chunk's data, or the trailer after the last. */
static void size_line_ended(gr_body *b)
{
    b->at = b->left ? DATA : TRAILER_START;
    b->digits = 0;
    b->line = 0;
}

/* One byte of the chunked grammar outside the data: false when it breaks
 * it (*why says how); *ended when it was the body's last. */
static bool chunk_byte(gr_body *b, unsigned char c, bool *ended, const char **why)
{
    int h;
    switch ((enum chunk_place)b->at) {
    case SIZE:
        if ((h = hex_value(c)) >= 0 && b->digits < 16) {
            b->left = b->left * 16 + (uint64_t)h;
            b->digits++;
            return true;
        }
        *why = "a chunk size line is not a hexadecimal size of 1 to 16 digits; send each chunk as its size in "
               "hex, CR LF, the data, CR LF";
        if (!b->digits)
            return false;
        if (c == ';')
            b->at = EXTENSION;
        else if (c == '\r')
            b->at = SIZE_CR;
        else if (c == '\n')
            size_line_ended(b);
        else
            return false;
        return true;
    case EXTENSION:
        *why = "a chunk extension holds a control byte or is over 4096 bytes; send a shorter one, or none";
        if (c == '\r')
            b->at = SIZE_CR;
        else if (c == '\n')
            size_line_ended(b);
        else if (gr_http_control(c) || ++b->line > MAX_EXTENSION)
            return false;
        return true;
    case SIZE_CR:
        *why = "a chunk size line has a CR without its LF; end each line with CR LF";
        if (c != '\n')
            return false;
        size_line_ended(b);
        return true;
    case DATA_END:
    case DATA_CR:
        *why = "a chunk's data is not followed by CR LF (its size is wrong); send each chunk's data, then CR LF";
        if (c == '\r' && b->at == DATA_END) {
            b->at = DATA_CR;
            return true;
        }
        if (c != '\n')
            return false;
        b->at = SIZE;
        b->left = 0;
        return true;
    default:
        break;
    }
    *why = "the trailer after the last chunk is not Name: value lines and an empty line, within --max-header; "
           "end the body with 0, CR LF, CR LF";
    if (++b->trailer > b->max_trailer)
        return false;
    switch ((enum chunk_place)b->at) {
    case TRAILER_START:
        if (c == '\r')
            b->at = END_CR;
        else if (c == '\n')
            *ended = true;
        else if (gr_http_tchar(c))
            b->at = TRAILER_NAME;
        else
            return false;
        return true;
    case TRAILER_NAME:
        if (c == ':')
            b->at = TRAILER_VALUE;
        return c == ':' || gr_http_tchar(c);
    case TRAILER_VALUE:
        if (c == '\r')
            b->at = TRAILER_CR;
        else if (c == '\n')
            b->at = TRAILER_START;
        return !gr_http_control(c) || c == '\r' || c == '\n';
    case TRAILER_CR:
    case END_CR:
        if (c != '\n')
            return false;
        *ended = b->at == END_CR;
        b->at = TRAILER_START;
        return true;
    default:
        return false;
    }
}

static gr_body_step scan_chunked(gr_body *b, const char *p, size_t n, size_t *used, const char **why)
{
    size_t i = 0;
    while (i < n) {
        if (b->at == DATA) {
            size_t take = b->left < n - i ? (size_t)b->left : n - i;
            i += take;
            b->left -= take;
            if (!b->left)
                b->at = DATA_END;
            continue;
        }
        bool ended = false;
        if (!chunk_byte(b, (unsigned char)p[i], &ended, why)) {
            *used = i;
            return GR_BODY_BAD;
        }
        i++;
        if (ended) {
            *used = i;
            return GR_BODY_ENDED;
        }
    }
    *used = n;
    return GR_BODY_MORE;
}

gr_body_step gr_body_scan(gr_body *b, const char *p, size_t n, size_t *used, const char **why)
{
    *why = NULL;
    switch (b->kind) {
    case GR_BODY_NONE:
        *used = 0;
        return GR_BODY_ENDED;
    case GR_BODY_LENGTH:
        *used = b->left < n ? (size_t)b->left : n;
        b->left -= *used;
        return b->left ? GR_BODY_MORE : GR_BODY_ENDED;
    case GR_BODY_CHUNKED:
        break;
    }
    return scan_chunked(b, p, n, used, why);
}
