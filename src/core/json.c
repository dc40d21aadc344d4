/* SPDX-License-Identifier: MIT */
#include "json.h"

#include "scratch.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- validation: a strict scanner that records number literals ---------- */

typedef struct scanner {
    const char *s;
    size_t len, pos;
    char *copy; /* body copy in which number literals are blanked to "0   " */
    gr_json_literal *nums;
    size_t nnums, cap;
    gr_api_error *e;
} scanner;

static int scan_fail(scanner *sc, const char *what)
{
    return gr_fail(sc->e, GR_E_BAD_JSON, "",
                   "the body is not valid JSON: %s at byte %zu; send one JSON object", what, sc->pos);
}

static void skip_ws(scanner *sc)
{
    while (sc->pos < sc->len) {
        char c = sc->s[sc->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
        sc->pos++;
    }
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool is_hex(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The code unit of the \uXXXX escape at body[p], or -1 when there is none. */
static long escape_unit(const scanner *sc, size_t p)
{
    if (p + 6 > sc->len || sc->s[p] != '\\' || sc->s[p + 1] != 'u')
        return -1;
    long v = 0;
    for (size_t i = p + 2; i < p + 6; i++) {
        char c = sc->s[i];
        if (!is_hex(c))
            return -1;
        v = v * 16 + (is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
}

/* A \u escape at sc->pos (already checked to be 4 hex digits). cJSON cuts a
 * string at U+0000 (so "7\u0000x" would read as "7") and refuses unpaired
 * surrogates (valid RFC 8259 grammar), so the copy it parses gets U+FFFD in
 * their place, same length: such a string then matches no name or number. */
static void scan_unicode_escape(scanner *sc)
{
    long unit = escape_unit(sc, sc->pos);
    if (unit >= 0xD800 && unit <= 0xDBFF) {
        long low = escape_unit(sc, sc->pos + 6);
        if (low >= 0xDC00 && low <= 0xDFFF) {
            sc->pos += 12; /* a surrogate pair, one character */
            return;
        }
    }
    if (unit == 0 || (unit >= 0xD800 && unit <= 0xDFFF))
        memcpy(sc->copy + sc->pos, "\\ufffd", 6);
    sc->pos += 6;
}

static int scan_string(scanner *sc)
{
    sc->pos++; /* opening quote */
    while (sc->pos < sc->len) {
        unsigned char c = (unsigned char)sc->s[sc->pos];
        if (c == '"') {
            sc->pos++;
            return 0;
        }
        if (c < 0x20)
            return scan_fail(sc, "control character in a string");
        if (c == '\\') {
            if (sc->pos + 1 >= sc->len)
                break;
            char x = sc->s[sc->pos + 1];
            if (x == 'u') {
                for (int i = 2; i < 6; i++)
                    if (sc->pos + (size_t)i >= sc->len || !is_hex(sc->s[sc->pos + (size_t)i]))
                        return scan_fail(sc, "bad \\u escape");
                scan_unicode_escape(sc);
                continue;
            }
            if (!strchr("\"\\/bfnrt", x) || x == '\0')
                return scan_fail(sc, "bad escape");
            sc->pos += 2;
            continue;
        }
        sc->pos++;
    }
    return scan_fail(sc, "unterminated string");
}

static size_t scan_digits(const scanner *sc, size_t p)
{
    while (p < sc->len && is_digit(sc->s[p]))
        p++;
    return p;
}

static int record_number(scanner *sc, size_t start, size_t end)
{
    if (sc->nnums == sc->cap) {
        size_t cap = sc->cap ? sc->cap * 2 : 16;
        gr_json_literal *n = gr_scratch_realloc(sc->nums, cap * sizeof *n);
        if (!n)
            return gr_fail(sc->e, GR_E_OVERLOADED, "", "out of memory reading the body; retry later");
        sc->nums = n;
        sc->cap = cap;
    }
    sc->nums[sc->nnums].offset = (uint32_t)start;
    sc->nums[sc->nnums].length = (uint32_t)(end - start);
    sc->nnums++;
    sc->copy[start] = '0';
    memset(sc->copy + start + 1, ' ', end - start - 1);
    return 0;
}

/* number = [ "-" ] int [ frac ] [ exp ], RFC 8259 section 6. */
static int scan_number(scanner *sc)
{
    size_t start = sc->pos, p = sc->pos;
    if (sc->s[p] == '-')
        p++;
    if (p >= sc->len || !is_digit(sc->s[p]))
        return scan_fail(sc, "malformed number");
    p = sc->s[p] == '0' ? p + 1 : scan_digits(sc, p);
    if (p < sc->len && sc->s[p] == '.') {
        size_t q = scan_digits(sc, p + 1);
        if (q == p + 1)
            return scan_fail(sc, "malformed number");
        p = q;
    }
    if (p < sc->len && (sc->s[p] == 'e' || sc->s[p] == 'E')) {
        p++;
        if (p < sc->len && (sc->s[p] == '+' || sc->s[p] == '-'))
            p++;
        size_t q = scan_digits(sc, p);
        if (q == p)
            return scan_fail(sc, "malformed number");
        p = q;
    }
    sc->pos = p;
    return record_number(sc, start, p);
}

static int scan_literal(scanner *sc, const char *word)
{
    size_t n = strlen(word);
    if (sc->len - sc->pos < n || memcmp(sc->s + sc->pos, word, n) != 0)
        return scan_fail(sc, "unexpected character");
    sc->pos += n;
    return 0;
}

static int scan_scalar(scanner *sc)
{
    char c = sc->s[sc->pos];
    if (c == '"')
        return scan_string(sc);
    if (c == '-' || is_digit(c))
        return scan_number(sc);
    if (c == 't')
        return scan_literal(sc, "true");
    if (c == 'f')
        return scan_literal(sc, "false");
    if (c == 'n')
        return scan_literal(sc, "null");
    return scan_fail(sc, "unexpected character");
}

/* Iterative over containers: `stack` holds '{' or '[' per open level, so a
 * hostile body cannot exhaust the C stack. */
static int scan_document(scanner *sc)
{
    char stack[GR_JSON_MAX_DEPTH];
    int depth = 0;
    bool want_value = true;
    for (;;) {
        skip_ws(sc);
        if (sc->pos >= sc->len)
            return depth == 0 && !want_value ? 0 : scan_fail(sc, "unexpected end");
        char c = sc->s[sc->pos];
        if (want_value) {
            if (c == '{' || c == '[') {
                if (depth == GR_JSON_MAX_DEPTH)
                    return scan_fail(sc, "nesting deeper than 64 levels");
                stack[depth++] = c;
                sc->pos++;
                skip_ws(sc);
                if (sc->pos < sc->len && sc->s[sc->pos] == (c == '{' ? '}' : ']')) {
                    sc->pos++;
                    depth--;
                    want_value = false;
                    continue;
                }
                if (c == '{') {
                    if (sc->pos >= sc->len || sc->s[sc->pos] != '"')
                        return scan_fail(sc, "expected a member name");
                    if (scan_string(sc))
                        return -1;
                    skip_ws(sc);
                    if (sc->pos >= sc->len || sc->s[sc->pos] != ':')
                        return scan_fail(sc, "expected ':'");
                    sc->pos++;
                }
                continue;
            }
            if (scan_scalar(sc))
                return -1;
            want_value = false;
            continue;
        }
        if (depth == 0)
            return scan_fail(sc, "trailing characters after the value");
        char open = stack[depth - 1];
        if (c == (open == '{' ? '}' : ']')) {
            sc->pos++;
            depth--;
            continue;
        }
        if (c != ',')
            return scan_fail(sc, open == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
        sc->pos++;
        want_value = true;
        if (open == '{') {
            skip_ws(sc);
            if (sc->pos >= sc->len || sc->s[sc->pos] != '"')
                return scan_fail(sc, "expected a member name");
            if (scan_string(sc))
                return -1;
            skip_ws(sc);
            if (sc->pos >= sc->len || sc->s[sc->pos] != ':')
                return scan_fail(sc, "expected ':'");
            sc->pos++;
        }
    }
}

/* Numbers are met in document order by a pre-order walk of the tree. */
static void attach_numbers(cJSON *node, size_t *next)
{
    for (; node; node = node->next) {
        if (cJSON_IsNumber(node)) {
            node->valueint = (int)*next;
            (*next)++;
        }
        if (node->child)
            attach_numbers(node->child, next);
    }
}

int gr_json_parse(const char *body, size_t len, gr_json_doc *doc, gr_api_error *e)
{
    memset(doc, 0, sizeof *doc);
    if (len > UINT32_MAX)
        return gr_fail(e, GR_E_BODY_TOO_LARGE, "", "the body is larger than 4 GiB");
    scanner sc = { .s = body, .len = len, .e = e };
    sc.copy = gr_scratch_alloc(len + 1);
    if (!sc.copy)
        return gr_fail(e, GR_E_OVERLOADED, "", "out of memory reading the body; retry later");
    memcpy(sc.copy, body, len);
    sc.copy[len] = '\0';
    if (len > 0 && memchr(body, '\0', len))
        sc.pos = (size_t)((const char *)memchr(body, '\0', len) - body);
    int rc = (len > 0 && memchr(body, '\0', len)) ? scan_fail(&sc, "NUL byte")
                                                  : scan_document(&sc);
    if (rc == 0) {
        doc->root = cJSON_ParseWithLength(sc.copy, len);
        if (!doc->root)
            rc = gr_fail(e, GR_E_OVERLOADED, "", "out of memory parsing the body; retry later");
    }
    gr_scratch_free(sc.copy);
    if (rc != 0) {
        gr_scratch_free(sc.nums);
        return -1;
    }
    size_t next = 0;
    attach_numbers(doc->root, &next);
    doc->body = body;
    doc->numbers = sc.nums;
    doc->nnumbers = sc.nnums;
    return 0;
}

void gr_json_free(gr_json_doc *doc)
{
    cJSON_Delete(doc->root);
    gr_scratch_free(doc->numbers);
    memset(doc, 0, sizeof *doc);
}

/* ---- member names ------------------------------------------------------ */

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int gr_json_duplicate_member(const cJSON *obj, const char **name)
{
    size_t n = 0, k = 0;
    const cJSON *m;
    *name = NULL;
    cJSON_ArrayForEach(m, obj)
        n++;
    if (n < 2)
        return 0;
    if (n <= 16) { /* a query's few members: pairwise, without sorting */
        for (const cJSON *a = obj->child; a && !*name; a = a->next)
            for (const cJSON *b = a->next; b && !*name; b = b->next)
                if (strcmp(a->string, b->string) == 0)
                    *name = b->string;
        return *name ? 1 : 0;
    }
    const char **names = gr_scratch_alloc(n * sizeof *names);
    if (!names)
        return -1;
    cJSON_ArrayForEach(m, obj)
        names[k++] = m->string;
    qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 1; i < n && !*name; i++)
        if (strcmp(names[i - 1], names[i]) == 0)
            *name = names[i];
    gr_scratch_free(names);
    return *name ? 1 : 0;
}

/* ---- exact integers in ------------------------------------------------- */

static int parse_decimal(const char *p, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (!is_digit(p[i]))
            return -1;
        unsigned d = (unsigned)(p[i] - '0');
        if (v > (GR_INT_MAX - d) / 10)
            return -2;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static int fail_int(gr_api_error *e, const char *field, const char *why)
{
    return gr_fail(e, GR_E_INVALID_INTEGER, field,
                   "%s must be a non-negative integer up to 9223372036854775807, written as "
                   "plain digits or a string of decimal digits: %s", field, why);
}

static int number_literal(const gr_json_doc *doc, const cJSON *node, const char *field,
                          uint64_t *out, gr_api_error *e)
{
    size_t i = (size_t)node->valueint;
    if (node->valueint < 0 || i >= doc->nnumbers)
        return fail_int(e, field, "unreadable number");
    const char *p = doc->body + doc->numbers[i].offset;
    size_t n = doc->numbers[i].length;
    if (p[0] == '-')
        return fail_int(e, field, "it is negative");
    if (memchr(p, '.', n) || memchr(p, 'e', n) || memchr(p, 'E', n))
        return fail_int(e, field, "it has a fraction or an exponent");
    int rc = parse_decimal(p, n, out);
    return rc == 0 ? 0 : fail_int(e, field, "it is too large");
}

int gr_json_u64(const gr_json_doc *doc, const cJSON *node, const char *field,
                uint64_t *out, gr_api_error *e)
{
    if (cJSON_IsNumber(node))
        return number_literal(doc, node, field, out, e);
    if (cJSON_IsString(node)) {
        const char *s = node->valuestring;
        int rc = parse_decimal(s, strlen(s), out);
        if (rc == 0)
            return 0;
        return fail_int(e, field, rc == -2 ? "it is too large" : "the string is not plain decimal digits");
    }
    return fail_int(e, field, node ? "it is not a number" : "it is missing");
}

static int fail_signed(gr_api_error *e, const char *field, const char *why)
{
    return gr_fail(e, GR_E_INVALID_INTEGER, field,
                   "%s must be an integer from -9223372036854775807 to 9223372036854775807, "
                   "written as plain digits (optionally after '-') or such a string: %s", field, why);
}

/* text[0 .. n): "-"? digits, no fraction or exponent. */
static int parse_signed(const char *text, size_t n, int64_t *out, gr_api_error *e, const char *field)
{
    bool negative = n > 0 && text[0] == '-';
    uint64_t magnitude;
    if (memchr(text, '.', n) || memchr(text, 'e', n) || memchr(text, 'E', n))
        return fail_signed(e, field, "it has a fraction or an exponent");
    int rc = parse_decimal(text + negative, n - negative, &magnitude);
    if (rc != 0)
        return fail_signed(e, field, rc == -2 ? "it is out of range" : "it is not plain decimal digits");
    if (magnitude > (uint64_t)INT64_MAX) /* checked before the cast and the negation */
        return fail_signed(e, field, "it is out of range");
    *out = negative ? -(int64_t)magnitude : (int64_t)magnitude;
    return 0;
}

int gr_json_i64(const gr_json_doc *doc, const cJSON *node, const char *field,
                int64_t *out, gr_api_error *e)
{
    if (cJSON_IsNumber(node)) {
        size_t i = (size_t)node->valueint;
        if (node->valueint < 0 || i >= doc->nnumbers)
            return fail_signed(e, field, "unreadable number");
        return parse_signed(doc->body + doc->numbers[i].offset, doc->numbers[i].length, out, e, field);
    }
    if (cJSON_IsString(node))
        return parse_signed(node->valuestring, strlen(node->valuestring), out, e, field);
    return fail_signed(e, field, node ? "it is not a number" : "it is missing");
}
