/* SPDX-License-Identifier: MIT */
#include "api/games/nim_fast.h"

#include "api/games/game.h"

#include <stdint.h>
#include <string.h>

typedef struct nim_body {
    const char *s;
    size_t len, pos;
    uint64_t piles[GR_NIM_FAST_MAX_PILES];
    const char *digits[GR_NIM_FAST_MAX_PILES]; /* each pile as the body wrote it */
    unsigned char ndigits[GR_NIM_FAST_MAX_PILES];
    size_t n;
    bool game, piles_seen, convention, explain_seen;
    bool slim; /* "explain": false */
} nim_body;

static void skip_ws(nim_body *b)
{
    while (b->pos < b->len && (b->s[b->pos] == ' ' || b->s[b->pos] == '\t' || b->s[b->pos] == '\n' ||
                               b->s[b->pos] == '\r'))
        b->pos++;
}

static bool eat(nim_body *b, char c)
{
    skip_ws(b);
    if (b->pos < b->len && b->s[b->pos] == c) {
        b->pos++;
        return true;
    }
    return false;
}

/* A string without escapes; its bytes in [*start, *start + *n). */
static bool read_string(nim_body *b, const char **start, size_t *n)
{
    if (!eat(b, '"'))
        return false;
    size_t from = b->pos;
    while (b->pos < b->len && b->s[b->pos] != '"') {
        unsigned char c = (unsigned char)b->s[b->pos];
        if (c == '\\' || c < 0x20 || c >= 0x80)
            return false;
        b->pos++;
    }
    if (b->pos >= b->len)
        return false;
    *start = b->s + from;
    *n = b->pos - from;
    b->pos++;
    return true;
}

static bool string_is(nim_body *b, const char *want)
{
    const char *s;
    size_t n;
    return read_string(b, &s, &n) && n == strlen(want) && memcmp(s, want, n) == 0;
}

/* Plain digits, no leading zero, at most 2^63 - 1, and not the start of a
 * fraction or exponent. The digits are kept: the answer repeats them. */
static bool read_pile(nim_body *b)
{
    skip_ws(b);
    size_t from = b->pos;
    uint64_t v = 0;
    while (b->pos < b->len && b->s[b->pos] >= '0' && b->s[b->pos] <= '9' && b->pos - from < 20) {
        v = v * 10 + (unsigned)(b->s[b->pos] - '0'); /* 19 digits stay below 2^64 */
        b->pos++;
    }
    size_t digits = b->pos - from;
    if (digits == 0 || digits > 19 || v > GR_INT_MAX || (digits > 1 && b->s[from] == '0'))
        return false;
    if (b->pos < b->len && (b->s[b->pos] == '.' || b->s[b->pos] == 'e' || b->s[b->pos] == 'E'))
        return false;
    b->piles[b->n] = v;
    b->digits[b->n] = b->s + from;
    b->ndigits[b->n] = (unsigned char)digits;
    b->n++;
    return true;
}

/* true or false; false sets slim. */
static bool read_explain(nim_body *b)
{
    skip_ws(b);
    const char *at = b->s + b->pos;
    size_t left = b->len - b->pos;
    if (left >= 4 && memcmp(at, "true", 4) == 0) {
        b->pos += 4;
        return true;
    }
    if (left >= 5 && memcmp(at, "false", 5) == 0) {
        b->pos += 5;
        b->slim = true;
        return true;
    }
    return false;
}

static bool read_piles(nim_body *b)
{
    if (!eat(b, '['))
        return false;
    if (eat(b, ']'))
        return true;
    do {
        if (b->n == GR_NIM_FAST_MAX_PILES || !read_pile(b))
            return false;
    } while (eat(b, ','));
    return eat(b, ']');
}

static bool read_member(nim_body *b)
{
    const char *key;
    size_t n;
    if (!read_string(b, &key, &n) || !eat(b, ':'))
        return false;
    bool *seen = n == 4 && memcmp(key, "game", 4) == 0          ? &b->game
                 : n == 5 && memcmp(key, "piles", 5) == 0       ? &b->piles_seen
                 : n == 10 && memcmp(key, "convention", 10) == 0 ? &b->convention
                 : n == 7 && memcmp(key, "explain", 7) == 0     ? &b->explain_seen
                                                                 : NULL;
    if (!seen || *seen)
        return false;
    *seen = true;
    if (seen == &b->game)
        return string_is(b, "nim");
    if (seen == &b->convention)
        return string_is(b, "normal");
    if (seen == &b->explain_seen)
        return read_explain(b);
    return read_piles(b);
}

static bool read_body(nim_body *b)
{
    if (!eat(b, '{'))
        return false;
    do {
        if (!read_member(b))
            return false;
    } while (eat(b, ','));
    if (!eat(b, '}'))
        return false;
    skip_ws(b);
    return b->pos == b->len && b->game && b->piles_seen;
}

/* ---- the answer, as the general path words it (sums/heap_sum.c, games/nim.c) -- */

static inline void put_u64(gr_buf *o, const char *before, uint64_t v)
{
    gr_buf_str(o, before);
    gr_buf_u64(o, v);
}

/* Pile i as the body wrote it (the same digits gr_buf_u64 would write). */
static inline void put_pile(gr_buf *o, const char *before, const nim_body *b, size_t i)
{
    gr_buf_str(o, before);
    gr_buf_put(o, b->digits[i], b->ndigits[i]);
}

static void write_components(gr_buf *o, const nim_body *b)
{
    gr_buf_str(o, ",\"components\":[");
    for (size_t i = 0; i < b->n; i++) {
        put_u64(o, i ? ",{\"pile\":" : "{\"pile\":", i);
        put_pile(o, ",\"size\":", b, i);
        put_pile(o, ",\"grundy\":", b, i);
        gr_buf_put(o, "}", 1);
    }
    gr_buf_put(o, "]", 1);
}

static void write_move(gr_buf *o, const nim_body *b, size_t i, uint64_t to)
{
    uint64_t from = b->piles[i];
    put_u64(o, ",\"move\":{\"pile\":", i);
    put_u64(o, ",\"take\":", from - to);
    put_pile(o, ",\"from\":", b, i);
    put_u64(o, ",\"to\":", to);
    put_u64(o, ",\"text\":\"Take ", from - to);
    put_u64(o, " from pile ", i);
    put_pile(o, " (", b, i);
    put_u64(o, " -> ", to);
    gr_buf_str(o, ").\"},\"next\":{\"piles\":[");
    for (size_t k = 0; k < b->n; k++) {
        if (k == i)
            put_u64(o, k ? "," : "", to);
        else
            put_pile(o, k ? "," : "", b, k);
    }
    gr_buf_str(o, "]}");
}

static void write_explanation(gr_buf *o, const nim_body *b, uint64_t x, size_t i)
{
    gr_buf_str(o, ",\"explanation\":\"Nim: a pile's Grundy value is its size. Nim-sum of the Grundy values: ");
    if (b->n == 0)
        gr_buf_str(o, "(no piles)");
    for (size_t k = 0; k < b->n; k++)
        put_pile(o, k ? " ^ " : "", b, k);
    put_u64(o, " = ", x);
    if (!x) {
        gr_buf_str(o, ", zero, so every move loses: the player to move loses.\"}");
        return;
    }
    put_u64(o, ", non-zero, so the player to move wins by making it 0. Move pile ", i);
    put_pile(o, " from Grundy value ", b, i);
    put_u64(o, " to ", b->piles[i] ^ x);
    gr_buf_str(o, ".\"}");
}

bool gr_nim_fast(const gr_limits *limits, const char *body, size_t len, gr_buf *out)
{
    nim_body b = { .s = body, .len = len };
    if (!read_body(&b) || b.n > limits->max_items)
        return false;
    size_t start = out->len;
    uint64_t x = 0;
    for (size_t k = 0; k < b.n; k++)
        x ^= b.piles[k];
    size_t i = 0;
    while (x && (b.piles[i] ^ x) >= b.piles[i]) /* the first pile that can drop to value ^ x */
        i++;
    gr_buf_str(out, x ? "{\"game\":\"nim\",\"convention\":\"normal\",\"winner\":\"first\""
                      : "{\"game\":\"nim\",\"convention\":\"normal\",\"winner\":\"second\"");
    put_u64(out, ",\"grundy\":", x);
    write_components(out, &b);
    if (x)
        write_move(out, &b, i, b.piles[i] ^ x);
    else
        gr_buf_str(out, ",\"move\":null,\"next\":null");
    if (b.slim)
        gr_buf_put(out, "}", 1);
    else
        write_explanation(out, &b, x, i);
    if (out->oom) {
        out->oom = false;
        out->len = start;
        if (out->data)
            out->data[start] = '\0';
        return false;
    }
    return true;
}

extern const gr_game gr_game_nim;

const gr_game *gr_nim_fast_game(void)
{
    return &gr_game_nim;
}
