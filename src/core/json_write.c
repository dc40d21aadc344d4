/* SPDX-License-Identifier: MIT */
/* JSON out: exact integers (two digits per division), the output buffer,
 * escaped strings, compact printing of cJSON trees, and the exact printer
 * of request nodes. Reading is json.c. */
#include "json.h"

#include "scratch.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- exact integers out ------------------------------------------------ */

static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                     "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                     "8081828384858687888990919293949596979899";

static const uint64_t powers_of_ten[20] = {
    UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000), UINT64_C(10000), UINT64_C(100000),
    UINT64_C(1000000), UINT64_C(10000000), UINT64_C(100000000), UINT64_C(1000000000),
    UINT64_C(10000000000), UINT64_C(100000000000), UINT64_C(1000000000000),
    UINT64_C(10000000000000), UINT64_C(100000000000000), UINT64_C(1000000000000000),
    UINT64_C(10000000000000000), UINT64_C(100000000000000000), UINT64_C(1000000000000000000),
    UINT64_C(10000000000000000000),
};

/* Counts the digits, then writes two per division from the end straight
 * into out: answers are mostly numbers, and this is their cost. */
size_t gr_u64_digits(uint64_t v, char out[20])
{
    /* bits * 1233 / 4096 is floor(log10(2^bits)): at most one short */
    unsigned bits = 64u - (unsigned)__builtin_clzll(v | 1);
    size_t t = (bits * 1233u) >> 12;
    size_t n = t + (t < 20 && v >= powers_of_ten[t]);
    n += n == 0;
    size_t p = n;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        p -= 2;
        memcpy(out + p, digit_pairs + 2 * r, 2);
    }
    if (v >= 10)
        memcpy(out, digit_pairs + 2 * v, 2);
    else
        out[0] = (char)('0' + v);
    return n;
}

void gr_json_format_i128(gr_json_i128 v, char buf[48])
{
    char tmp[48];
    size_t n = 0;
    __extension__ unsigned __int128 m = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
    do {
        tmp[n++] = (char)('0' + (int)(m % 10));
        m /= 10;
    } while (m);
    size_t j = 0;
    if (v < 0)
        buf[j++] = '-';
    while (n)
        buf[j++] = tmp[--n];
    buf[j] = '\0';
}

cJSON *gr_json_i128_item(gr_json_i128 v)
{
    char buf[48];
    gr_json_format_i128(v, buf);
    return cJSON_CreateRaw(buf);
}

cJSON *gr_json_add_i128(cJSON *obj, const char *key, gr_json_i128 v)
{
    char buf[48];
    gr_json_format_i128(v, buf);
    return cJSON_AddRawToObject(obj, key, buf);
}

cJSON *gr_json_u64_item(uint64_t v)
{
    char buf[24];
    buf[gr_u64_digits(v, buf)] = '\0';
    return cJSON_CreateRaw(buf);
}

cJSON *gr_json_add_u64(cJSON *obj, const char *key, uint64_t v)
{
    char buf[24];
    buf[gr_u64_digits(v, buf)] = '\0';
    return cJSON_AddRawToObject(obj, key, buf);
}

cJSON *gr_json_u64_array(const uint64_t *v, size_t n)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; arr && i < n; i++) {
        cJSON *item = gr_json_u64_item(v[i]);
        if (!item) {
            cJSON_Delete(arr);
            return NULL;
        }
        cJSON_AddItemToArray(arr, item);
    }
    return arr;
}

/* ---- output ------------------------------------------------------------ */

bool gr_buf_grow(gr_buf *b, size_t n)
{
    if (b->oom)
        return false;
    if (b->len + n + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1)
        cap *= 2;
    char *d = gr_scratch_realloc(b->data, cap);
    if (!d) {
        b->oom = true;
        return false;
    }
    b->data = d;
    b->cap = cap;
    return true;
}

static bool needs_escape(unsigned char c)
{
    return c < 0x20 || c == '"' || c == '\\';
}

/* The first byte in [p, end) that needs an escape, or end: eight bytes at
 * a time (a word has such a byte when one of its bytes is below 0x20 or
 * equal to '"' or '\\'). */
static const char *plain_run_end(const char *p, const char *end)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
    while (end - p >= 8) {
        uint64_t w, quote, slash;
        memcpy(&w, p, 8);
        quote = w ^ (ones * '"');
        slash = w ^ (ones * '\\');
        uint64_t below = (w - ones * 0x20) & ~w, zero_quote = (quote - ones) & ~quote,
                 zero_slash = (slash - ones) & ~slash;
        if ((below | zero_quote | zero_slash) & highs)
            break;
        p += 8;
    }
    while (p < end && !needs_escape((unsigned char)*p))
        p++;
    return p;
}

/* cJSON's escapes: the two-character forms where JSON has one, \u00XX for
 * other control characters, every other byte (UTF-8 included) as it is. */
void gr_buf_json_string(gr_buf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    const char *end = s + strlen(s);
    gr_buf_put(b, "\"", 1);
    while (s < end) {
        const char *stop = plain_run_end(s, end);
        gr_buf_put(b, s, (size_t)(stop - s));
        if (stop == end)
            break;
        unsigned char c = (unsigned char)*stop;
        char esc[6] = { '\\', 0 };
        size_t n = 2;
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            memcpy(esc + 1, "u00", 3);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            n = 6;
        }
        gr_buf_put(b, esc, n);
        s = stop + 1;
    }
    gr_buf_put(b, "\"", 1);
}

static void buf_members(gr_buf *b, const cJSON *item, bool named)
{
    for (const cJSON *c = item->child; c; c = c->next) {
        if (c != item->child)
            gr_buf_put(b, ",", 1);
        if (named) {
            gr_buf_json_string(b, c->string ? c->string : "");
            gr_buf_put(b, ":", 1);
        }
        gr_buf_json(b, c);
    }
}

void gr_buf_json(gr_buf *b, const cJSON *item)
{
    switch (item->type & 0xFF) {
    case cJSON_NULL:
        gr_buf_put(b, "null", 4);
        return;
    case cJSON_True:
        gr_buf_put(b, "true", 4);
        return;
    case cJSON_False:
        gr_buf_put(b, "false", 5);
        return;
    case cJSON_Raw:
        gr_buf_str(b, item->valuestring ? item->valuestring : "");
        return;
    case cJSON_String:
        gr_buf_json_string(b, item->valuestring ? item->valuestring : "");
        return;
    case cJSON_Array:
        gr_buf_put(b, "[", 1);
        buf_members(b, item, false);
        gr_buf_put(b, "]", 1);
        return;
    case cJSON_Object:
        gr_buf_put(b, "{", 1);
        buf_members(b, item, true);
        gr_buf_put(b, "}", 1);
        return;
    default: { /* numbers: no answer holds one; cJSON's own printer keeps them identical */
        char *text = cJSON_PrintUnformatted(item);
        if (!text) {
            b->oom = true;
            return;
        }
        gr_buf_str(b, text);
        cJSON_free(text);
    }
    }
}

/* ---- errors ---------------------------------------------------------------- */

char *gr_error_json(const gr_api_error *e, size_t *len)
{
    gr_buf b = { 0 };
    gr_buf_str(&b, "{\"error\":{\"code\":");
    gr_buf_json_string(&b, e->code ? e->code : "internal");
    gr_buf_str(&b, ",\"message\":");
    gr_buf_json_string(&b, e->message);
    gr_buf_str(&b, ",\"field\":");
    if (e->field[0])
        gr_buf_json_string(&b, e->field);
    else
        gr_buf_put(&b, "null", 4);
    gr_buf_put(&b, "}}", 2);
    if (b.oom) {
        gr_scratch_free(b.data);
        *len = 0;
        return NULL;
    }
    *len = b.len;
    return b.data;
}

/* ---- request nodes, exactly ----------------------------------------------- */

static void exact_members(gr_buf *b, const gr_json_doc *doc, const cJSON *item, bool named)
{
    bool first = true;
    for (const cJSON *c = item->child; c; c = c->next) {
        if (!first)
            gr_buf_put(b, ",", 1);
        first = false;
        if (named) {
            gr_buf_json_string(b, c->string);
            gr_buf_put(b, ":", 1);
        }
        gr_json_print_exact(b, doc, c);
    }
}

void gr_json_print_exact(gr_buf *b, const gr_json_doc *doc, const cJSON *item)
{
    if (cJSON_IsNumber(item) && item->valueint >= 0 && (size_t)item->valueint < doc->nnumbers) {
        const gr_json_literal *lit = &doc->numbers[item->valueint];
        gr_buf_put(b, doc->body + lit->offset, lit->length);
    } else if (cJSON_IsString(item)) {
        gr_buf_json_string(b, item->valuestring);
    } else if (cJSON_IsArray(item)) {
        gr_buf_put(b, "[", 1);
        exact_members(b, doc, item, false);
        gr_buf_put(b, "]", 1);
    } else if (cJSON_IsObject(item)) {
        gr_buf_put(b, "{", 1);
        exact_members(b, doc, item, true);
        gr_buf_put(b, "}", 1);
    } else {
        gr_buf_json(b, item);
    }
}

__extension__ void gr_buf_u128(gr_buf *b, unsigned __int128 v)
{
    if (v <= UINT64_MAX) {
        gr_buf_u64(b, (uint64_t)v);
        return;
    }
    char digits[40];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    while (n)
        gr_buf_put(b, &digits[--n], 1);
}
