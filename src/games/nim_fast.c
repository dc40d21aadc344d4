/* SPDX-License-Identifier: MIT */
#include "nim_fast.h"

#include "game.h"
#include "heap_why.h"
#include "why.h"

#include <stdint.h>
#include <string.h>

#define PILE_SLOT 24 /* more than the 19 digits of 2^63 - 1 */

typedef struct nim_body {
    const char *s;
    size_t len, pos;
    uint64_t piles[GR_NIM_FAST_MAX_PILES];
    /* Each pile's digits as the body wrote them, in a slot wider than any,
     * so that the writer copies a whole slot at once. */
    char digits[GR_NIM_FAST_MAX_PILES][PILE_SLOT];
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
    const char *from = b->s + b->pos, *end = b->s + b->len, *p = from;
    uint64_t v = 0;
    while (p < end && (unsigned char)(*p - '0') < 10 && p - from < 20) {
        v = v * 10 + (unsigned)(*p - '0'); /* 19 digits stay below 2^64 */
        p++;
    }
    size_t digits = (size_t)(p - from);
    if (digits == 0 || digits > 19 || v > GR_INT_MAX || (digits > 1 && *from == '0'))
        return false;
    if (p < end && (*p == '.' || *p == 'e' || *p == 'E'))
        return false;
    memcpy(b->digits[b->n], from, digits);
    b->pos += digits;
    b->piles[b->n] = v;
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

/* ---- the answer, as the general path words it (sums/heap_sum.c, games/nim.c) --
 *
 * Written through a bare pointer into room reserved once (ANSWER_ROOM): this
 * runs for every line of a large NDJSON stream, and per-write bounds checks
 * and growth cost more than the words. */

/* Room for any slim answer of n piles, plus a slot's slack
 * for the last whole-slot copy. */
#define ANSWER_ROOM(n) (1024u + 128u * (n) + PILE_SLOT)

_Static_assert(ANSWER_ROOM(GR_NIM_FAST_MAX_PILES) <= GR_FAST_MAX_ANSWER,
               "GR_FAST_MAX_ANSWER must cover every answer");

static inline char *lit(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}

/* Copies the string literal s to p (p evaluated once); the end. */
#define LIT(p, s) lit((p), (s), sizeof(s) - 1)

static inline char *num(char *p, uint64_t v)
{
    if (v < 10) {
        *p = (char)('0' + v);
        return p + 1;
    }
    return p + gr_u64_digits(v, p);
}

/* Pile i as the body wrote it (the same digits gr_u64_digits would write). */
static inline char *pile(char *p, const nim_body *b, size_t i)
{
    memcpy(p, b->digits[i], PILE_SLOT);
    return p + b->ndigits[i];
}

static char *write_components(char *p, const nim_body *b)
{
    p = LIT(p, ",\"components\":[");
    for (size_t i = 0; i < b->n; i++) {
        p = i ? LIT(p, ",{\"pile\":") : LIT(p, "{\"pile\":");
        p = num(p, i);
        p = LIT(p, ",\"size\":");
        p = pile(p, b, i);
        p = LIT(p, ",\"grundy\":");
        p = pile(p, b, i);
        *p++ = '}';
    }
    *p++ = ']';
    return p;
}

/* A number written once and copied where it recurs, like a pile's digits. */
typedef struct digits {
    char text[PILE_SLOT];
    size_t n;
} digits;

static inline char *put(char *p, const digits *d)
{
    memcpy(p, d->text, PILE_SLOT);
    return p + d->n;
}

/* {"pile", "take", "from", "to", "text"}: the move from pile i to to_value. */
static char *write_move_object(char *p, const nim_body *b, size_t i, uint64_t to_value)
{
    digits take, to;
    take.n = gr_u64_digits(b->piles[i] - to_value, take.text);
    to.n = gr_u64_digits(to_value, to.text);
    p = num(LIT(p, "{\"pile\":"), i);
    p = put(LIT(p, ",\"take\":"), &take);
    p = pile(LIT(p, ",\"from\":"), b, i);
    p = put(LIT(p, ",\"to\":"), &to);
    p = put(LIT(p, ",\"text\":\"Take "), &take);
    p = num(LIT(p, " from pile "), i);
    p = pile(LIT(p, " ("), b, i);
    p = put(LIT(p, " -> "), &to);
    return LIT(p, ").\"}");
}

static char *write_move(char *p, const nim_body *b, size_t i, uint64_t to_value)
{
    p = write_move_object(LIT(p, ",\"move\":"), b, i, to_value);
    p = LIT(p, ",\"next\":{\"piles\":[");
    for (size_t k = 0; k < b->n; k++) {
        if (k)
            *p++ = ',';
        if (k != i) {
            p = pile(p, b, k);
        } else {
            digits to;
            to.n = gr_u64_digits(to_value, to.text);
            p = put(p, &to);
        }
    }
    return LIT(p, "]}");
}

/* Room for one move object of "winning_moves". */
#define WINNING_ROOM (160u + PILE_SLOT)

/* The answer without "why" and "explanation" takes at most half of
 * GR_FAST_MAX_ANSWER; those two (a 64-bit column for each of at most
 * 12 piles, an explanation of at most 1023 characters) take well under
 * the other half, which tests/games/test_nim_fast.c checks on the widest
 * positions. */
_Static_assert(ANSWER_ROOM(GR_NIM_FAST_MAX_PILES) + 64 + GR_NIM_FAST_MAX_PILES * WINNING_ROOM
                   <= GR_FAST_MAX_ANSWER / 2,
               "GR_FAST_MAX_ANSWER must cover every answer");

/* ,"winning_moves":{...}: one move per pile that holds the nim-sum's
 * highest bit, as the winning hook counts them (winning.h), those
 * besides the answer's own (pile `answered`) listed. */
static bool write_winning(gr_buf *out, const nim_body *b, uint64_t x, size_t answered)
{
    size_t total = 0;
    for (size_t k = 0; x && k < b->n; k++)
        total += (b->piles[k] ^ x) < b->piles[k];
    if (!gr_buf_grow(out, 64 + total * WINNING_ROOM))
        return false;
    char *p = out->data + out->len;
    p = num(LIT(p, ",\"winning_moves\":{\"total\":"), total);
    p = LIT(p, ",\"others\":[");
    for (size_t k = 0, listed = 0; total && k < b->n; k++) {
        if (k == answered || (b->piles[k] ^ x) >= b->piles[k])
            continue;
        if (listed++)
            *p++ = ',';
        p = write_move_object(p, b, k, b->piles[k] ^ x);
    }
    p = LIT(p, "]}");
    out->len = (size_t)(p - out->data);
    return true;
}

/* ---- "why" and "explanation", word for word as nim.c's account writes them
 * (sums/heap_why.c, sums/sum_why.c): test_nim_fast holds the two to byte
 * equality on every shape (no pile, one, up to GR_NIM_FAST_MAX_PILES; small
 * and 63-bit values; heaps of at most 16 options and more). */

/* Room for "why" and "explanation" of n piles: 66 bytes a binary string,
 * 16 options of a small heap, sentences of at most 1023 characters. */
#define WHY_ROOM(n) (512u + 68u * (n) + 16u * 64u + 1024u)

_Static_assert(ANSWER_ROOM(GR_NIM_FAST_MAX_PILES) + 64 + GR_NIM_FAST_MAX_PILES * WINNING_ROOM +
                   WHY_ROOM(GR_NIM_FAST_MAX_PILES) <= GR_FAST_MAX_ANSWER,
               "GR_FAST_MAX_ANSWER must cover every answer");

static unsigned bit_width(uint64_t v)
{
    return 64u - (unsigned)__builtin_clzll(v | 1);
}

/* v in binary, straight into the answer (whose room covers the
 * terminator gr_why_binary adds). */
static char *binary(char *p, uint64_t v, unsigned width)
{
    return p + gr_why_binary(v, width, p);
}

/* The heap's options, take 1 to n (nim_at's order), each with its value. */
static char *write_options(char *p, uint64_t n)
{
    p = LIT(p, ",\"listed\":\"all\",\"options\":[");
    for (uint64_t take = 1; take <= n; take++) {
        p = num(take > 1 ? LIT(p, ",{\"take\":") : LIT(p, "{\"take\":"), take);
        p = take < n ? LIT(num(LIT(p, ",\"heaps\":["), n - take), "]") : LIT(p, ",\"heaps\":[]");
        p = num(LIT(p, ",\"grundy\":"), n - take);
        *p++ = '}';
    }
    return LIT(num(LIT(p, "],\"mex\":"), n), "}");
}

/* The steps: rule, nim_sum, and for a win target and mex. */
static char *write_steps(char *p, const nim_body *b, uint64_t x, size_t i, unsigned width)
{
    p = LIT(p, ",\"why\":{\"steps\":[{\"step\":\"rule\"},{\"step\":\"nim_sum\",\"name\":\"pile\",\"binary\":[");
    for (size_t k = 0; k < b->n; k++) {
        if (k)
            *p++ = ',';
        *p++ = '"';
        p = binary(p, b->piles[k], width);
        *p++ = '"';
    }
    p = binary(LIT(p, "],\"nim_sum_binary\":\""), x, width);
    p = LIT(p, "\"}");
    if (!x)
        return LIT(p, "]}");
    uint64_t n = b->piles[i];
    p = num(LIT(p, ",{\"step\":\"target\",\"component\":"), i);
    p = num(LIT(p, ",\"high_bit\":"), bit_width(x) - 1);
    p = num(LIT(p, ",\"to\":"), n ^ x);
    p = num(LIT(p, "},{\"step\":\"mex\",\"component\":"), i);
    p = num(LIT(p, ",\"options_total\":"), n);
    p = n > GR_WHY_OPTIONS ? LIT(p, ",\"listed\":\"move\"}") : write_options(p, n);
    return LIT(p, "]}");
}

#define WIN ": non-zero, the player to move wins by making it 0."
#define LOSS ": zero, every move makes it non-zero and the player to move loses."

/* "011 ^ 100 ^ 101" in binary, or "3 ^ 4 ^ 5". */
static char *terms(char *p, const nim_body *b, unsigned width, bool in_binary)
{
    for (size_t k = 0; k < b->n; k++) {
        if (k)
            p = LIT(p, " ^ ");
        p = in_binary ? binary(p, b->piles[k], width) : pile(p, b, k);
    }
    return p;
}

static char *say_nim_sum(char *p, const nim_body *b, uint64_t x, unsigned width)
{
    if (b->n == 0)
        return LIT(p, " No piles: the nim-sum is 0, and the player to move loses.");
    if (b->n == 1) {
        p = num(LIT(p, " One pile alone: the nim-sum is its value, "), x);
        return x ? LIT(p, WIN) : LIT(p, LOSS);
    }
    if (width <= 16 && b->n <= 4) {
        p = LIT(p, " Nim-sum, column by column (a bit is 1 when an odd number of piles have it): ");
        if (width > 1)
            p = LIT(binary(LIT(terms(p, b, width, true), " = "), x, width), ", so ");
        p = num(LIT(terms(p, b, width, false), " = "), x);
    } else {
        p = num(LIT(num(LIT(p, " The nim-sum of the "), b->n), " piles' values is "), x);
    }
    return x ? LIT(p, WIN) : LIT(p, LOSS);
}

/* "Pile 0 (3) has 3 options: 2 (take 1) of value 2, ...": the first three
 * of take 1 to n, as sums/heap_why.c says them. */
static char *say_options(char *p, size_t i, uint64_t n)
{
    p = num(LIT(num(LIT(p, " Pile "), i), " ("), n);
    p = num(LIT(p, ") has "), n);
    p = n == 1 ? LIT(p, " option: ") : LIT(p, " options: ");
    for (uint64_t take = 1; take <= n && take <= 3; take++) {
        if (take > 1)
            p = LIT(p, ", ");
        p = num(p, n - take);
        p = num(LIT(p, " (take "), take);
        p = num(LIT(p, ") of value "), n - take);
    }
    if (n > 3)
        p = LIT(num(LIT(p, ", ... ("), n), " listed)");
    return LIT(num(LIT(p, "; the least value missing among them is "), n), ", its Grundy value.");
}

static char *say_target(char *p, size_t i, uint64_t x, uint64_t n)
{
    p = num(LIT(p, " Pile "), i);
    p = num(LIT(p, " holds its highest bit (bit "), bit_width(x) - 1);
    p = num(LIT(p, "), so its value XOR the nim-sum, "), n ^ x);
    p = LIT(p, ", is smaller; a value is the mex of its options' values, so an option of that value "
               "exists, and moving there makes the nim-sum 0.");
    return n <= GR_WHY_OPTIONS ? say_options(p, i, n) : p;
}

/* "why" and "explanation", the answer's last members. */
static bool write_why(gr_buf *out, const nim_body *b, uint64_t x, size_t i)
{
    if (!gr_buf_grow(out, WHY_ROOM(b->n)))
        return false;
    uint64_t all = x;
    for (size_t k = 0; k < b->n; k++)
        all |= b->piles[k];
    unsigned width = bit_width(all);
    char *p = write_steps(out->data + out->len, b, x, i, width);
    p = LIT(p, ",\"explanation\":\"Nim: a pile's Grundy value is its size.");
    p = say_nim_sum(p, b, x, width);
    if (x)
        p = say_target(p, i, x, b->piles[i]);
    p = LIT(p, "\"}");
    out->len = (size_t)(p - out->data);
    return true;
}

bool gr_nim_fast(const gr_limits *limits, const char *body, size_t len, gr_buf *out)
{
    nim_body b; /* its digit slots are written before they are read: not cleared, for speed */
    b.s = body;
    b.len = len;
    b.pos = b.n = 0;
    b.game = b.piles_seen = b.convention = b.explain_seen = b.slim = false;
    if (!read_body(&b) || b.n > limits->max_items)
        return false;
    size_t start = out->len;
    if (!gr_buf_grow(out, ANSWER_ROOM(b.n))) {
        out->oom = false; /* the general path may still answer, or say it is out of memory */
        return false;
    }
    uint64_t x = 0;
    for (size_t k = 0; k < b.n; k++)
        x ^= b.piles[k];
    size_t i = 0;
    while (x && (b.piles[i] ^ x) >= b.piles[i]) /* the first pile that can drop to value ^ x */
        i++;
    char *p = out->data + out->len;
    p = x ? LIT(p, "{\"game\":\"nim\",\"convention\":\"normal\",\"winner\":\"first\"")
          : LIT(p, "{\"game\":\"nim\",\"convention\":\"normal\",\"winner\":\"second\"");
    p = num(LIT(p, ",\"grundy\":"), x);
    p = write_components(p, &b);
    p = x ? write_move(p, &b, i, b.piles[i] ^ x) : LIT(p, ",\"move\":null,\"next\":null");
    if (b.slim)
        *p++ = '}';
    out->len = (size_t)(p - out->data);
    if (!b.slim && !(write_winning(out, &b, x, x ? i : b.n) && write_why(out, &b, x, i))) {
        out->len = start;
        out->oom = false;
        return false;
    }
    out->data[out->len] = '\0';
    return true;
}
