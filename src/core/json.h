/* SPDX-License-Identifier: MIT */
/* JSON with exact integers.
 *
 * cJSON holds numbers as doubles, which cannot carry 64-bit values. The body
 * is therefore validated here first (strict RFC 8259 grammar, bounded nesting),
 * every number literal is recorded and blanked to 0 before cJSON parses the
 * copy, and each number node's valueint is set to the index of its literal.
 * Readers get the exact text back through the document. Escapes cJSON
 * cannot carry (\u0000, unpaired surrogates) reach it as U+FFFD. */
#ifndef GRUNDY_API_JSON_H
#define GRUNDY_API_JSON_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "errors.h"

#define GR_JSON_MAX_DEPTH 64
#define GR_INT_MAX UINT64_C(9223372036854775807) /* 2^63 - 1, the API's integer range */

typedef struct gr_json_literal {
    uint32_t offset; /* byte offset of the literal in the body */
    uint32_t length;
} gr_json_literal;

typedef struct gr_json_doc {
    cJSON *root;
    const char *body;         /* the client's bytes, borrowed */
    gr_json_literal *numbers; /* number literals in document order */
    size_t nnumbers;
} gr_json_doc;

/* Parses body[0 .. len). On failure fills *e (400 for anything that is not
 * JSON, 503 when memory runs out) and returns -1. */
int gr_json_parse(const char *body, size_t len, gr_json_doc *doc, gr_api_error *e);

void gr_json_free(gr_json_doc *doc);

/* Whether object `obj` names a member twice (RFC 8259 leaves the meaning
 * open; cJSON would silently use the first). Returns 1 and sets *name to
 * the repeated name (borrowed from obj), 0 when every name is unique, -1
 * when memory runs out. */
int gr_json_duplicate_member(const cJSON *obj, const char **name);

/* Reads a non-negative integer up to 2^63 - 1 from a JSON number written as
 * plain digits or a string of plain decimal digits. 422 naming `field`
 * otherwise. */
int gr_json_u64(const gr_json_doc *doc, const cJSON *node, const char *field,
                uint64_t *out, gr_api_error *e);

/* Reads a signed integer in [-(2^63 - 1), 2^63 - 1]: a JSON number of
 * plain digits with an optional minus sign, or such a decimal string. */
int gr_json_i64(const gr_json_doc *doc, const cJSON *node, const char *field,
                int64_t *out, gr_api_error *e);

/* Writes v in decimal to out (no terminator); returns the digit count. */
size_t gr_u64_digits(uint64_t v, char out[20]);

/* Output: integers as raw JSON numbers with every digit. NULL on allocation
 * failure (cJSON's own convention). */
cJSON *gr_json_u64_item(uint64_t v);
cJSON *gr_json_add_u64(cJSON *obj, const char *key, uint64_t v);
cJSON *gr_json_u64_array(const uint64_t *v, size_t n);

/* A growing text buffer for output, from gr_scratch_alloc, always terminated.
 * A failed growth sets oom and drops the rest; check it once at the end. */
typedef struct gr_buf {
    char *data;
    size_t len, cap;
    bool oom;
} gr_buf;

/* Makes room for n more bytes and the terminator; false (oom set) when
 * memory runs out. */
bool gr_buf_grow(gr_buf *b, size_t n);

/* Inline: the writers run for every number and word of every answer. */
static inline void gr_buf_put(gr_buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap && !gr_buf_grow(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static inline void gr_buf_str(gr_buf *b, const char *s) /* s as it is */
{
    gr_buf_put(b, s, strlen(s));
}

static inline void gr_buf_u64(gr_buf *b, uint64_t v)
{
    if (b->len + 21 > b->cap && !gr_buf_grow(b, 20))
        return;
    b->len += gr_u64_digits(v, b->data + b->len);
    b->data[b->len] = '\0';
}

void gr_buf_json_string(gr_buf *b, const char *s);
__extension__ void gr_buf_u128(gr_buf *b, unsigned __int128 v); /* v in decimal */ /* s quoted and escaped as JSON */
/* An error's body as a JSON string from gr_scratch_alloc (its length in *len),
 * or NULL on allocation failure. */
char *gr_error_json(const gr_api_error *e, size_t *len);

/* Appends `item`, a node of the parsed document `doc`, as compact JSON with
 * every number written exactly as the body wrote it (cJSON's own number
 * holds 0 there: see above). */
void gr_json_print_exact(gr_buf *b, const gr_json_doc *doc, const cJSON *item);
/* Appends `item` as compact JSON, as cJSON_PrintUnformatted would print it. */
void gr_buf_json(gr_buf *b, const cJSON *item);

/* Signed 128-bit values (score sums) as raw JSON numbers; unsigned ones
 * for exact counts (moves of a position). */
__extension__ typedef __int128 gr_json_i128;
__extension__ typedef unsigned __int128 gr_u128;
cJSON *gr_json_i128_item(gr_json_i128 v);
void gr_json_format_i128(gr_json_i128 v, char buf[48]); /* terminated */
cJSON *gr_json_add_i128(cJSON *obj, const char *key, gr_json_i128 v);

#endif
