/* SPDX-License-Identifier: MIT */
/* A JSON writer that writes straight into a gr_buf, with exact integers:
 * the answer's members and its "why" are written as they are decided,
 * never built as a tree first.
 *
 * A node is a handle on an open object or array. Writing into a node
 * closes every container opened inside it since, so a writer may go back
 * up to a parent at any time, but never down again into a container it
 * has left: once written past, a child is closed for good (writing to it
 * is a bug, caught by an assertion while it is the deepest one closed).
 * Every function accepts a NULL node and then does nothing (a container
 * function returns NULL), so that a caller writes unconditionally and
 * pays nothing where the member is dropped. `key` names the member in an
 * object and must be NULL in an array. A failed growth sets out.oom and
 * the writer drops the rest; its owner checks oom once at the end. */
#ifndef GRUNDY_API_JW_H
#define GRUNDY_API_JW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json.h"

#define GR_JW_DEPTH 8

typedef struct gr_jw gr_jw;

typedef struct gr_jw_node {
    gr_jw *w;
    unsigned depth; /* 1 for the root */
} gr_jw_node;

struct gr_jw {
    gr_buf out;
    unsigned depth;                 /* containers open */
    char closer[GR_JW_DEPTH + 1];   /* ']' or '}' of the container at each depth */
    bool filled[GR_JW_DEPTH + 1];   /* it holds a member already */
    gr_jw_node node[GR_JW_DEPTH + 1];
};

/* Empties w (keeping its memory) and opens its root, an object ('{') or
 * an array ('['); the root's node, or NULL when w is NULL. */
gr_jw_node *gr_jw_begin(gr_jw *w, char open);

/* Closes whatever is open; w->out then holds the whole value (or is empty
 * when nothing was begun). */
void gr_jw_end(gr_jw *w);

/* w's value as text, ended, or `absent` when nothing was written. */
void gr_jw_append(gr_buf *b, gr_jw *w, const char *absent);

void gr_jw_free(gr_jw *w);

void gr_jw_u64(gr_jw_node *n, const char *key, uint64_t v);
void gr_jw_i128(gr_jw_node *n, const char *key, gr_json_i128 v);
void gr_jw_u128(gr_jw_node *n, const char *key, gr_u128 v);
void gr_jw_str(gr_jw_node *n, const char *key, const char *s);
/* A string of the service's own that needs no escape (binary digits, a
 * step's kind), written as it is. */
void gr_jw_ascii(gr_jw_node *n, const char *key, const char *s, size_t len);
void gr_jw_bool(gr_jw_node *n, const char *key, bool v);
void gr_jw_null(gr_jw_node *n, const char *key);
void gr_jw_u64s(gr_jw_node *n, const char *key, const uint64_t *v, size_t count);
/* A value already written as JSON text. */
void gr_jw_raw(gr_jw_node *n, const char *key, const char *json, size_t len);

gr_jw_node *gr_jw_array(gr_jw_node *n, const char *key);
gr_jw_node *gr_jw_object(gr_jw_node *n, const char *key);

#endif
