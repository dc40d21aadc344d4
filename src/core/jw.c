/* SPDX-License-Identifier: MIT */
#include "jw.h"

#include <assert.h>
#include <string.h>

#include "scratch.h"

gr_jw_node *gr_jw_begin(gr_jw *w, char open)
{
    if (!w)
        return NULL;
    w->out.len = 0;
    w->out.oom = false;
    w->depth = 1;
    w->closer[1] = open == '[' ? ']' : '}';
    w->filled[1] = false;
    w->node[1] = (gr_jw_node){ w, 1 };
    gr_buf_put(&w->out, &open, 1);
    return &w->node[1];
}

/* Closes the containers deeper than `depth`. */
static void close_to(gr_jw *w, unsigned depth)
{
    while (w->depth > depth) {
        gr_buf_put(&w->out, &w->closer[w->depth], 1);
        w->depth--;
    }
}

void gr_jw_end(gr_jw *w)
{
    close_to(w, 0);
}

void gr_jw_append(gr_buf *b, gr_jw *w, const char *absent)
{
    gr_jw_end(w);
    if (w->out.len)
        gr_buf_put(b, w->out.data, w->out.len);
    else
        gr_buf_str(b, absent);
    b->oom |= w->out.oom;
}

void gr_jw_free(gr_jw *w)
{
    gr_scratch_free(w->out.data);
    memset(w, 0, sizeof *w);
}

/* Moves the writer to node n and writes the separator and key of a new
 * member; false when n is NULL. */
static bool member(gr_jw_node *n, const char *key)
{
    if (!n)
        return false;
    gr_jw *w = n->w;
    assert(n->depth <= w->depth && "a container written past is closed");
    close_to(w, n->depth);
    gr_buf *b = &w->out;
    if (w->filled[n->depth])
        gr_buf_put(b, ",", 1);
    w->filled[n->depth] = true;
    assert((key != NULL) == (w->closer[n->depth] == '}') && "a key in an object, none in an array");
    if (key) {
        gr_buf_put(b, "\"", 1);
        gr_buf_str(b, key); /* keys are the service's own words: nothing to escape */
        gr_buf_put(b, "\":", 2);
    }
    return true;
}

void gr_jw_u64(gr_jw_node *n, const char *key, uint64_t v)
{
    if (member(n, key))
        gr_buf_u64(&n->w->out, v);
}

void gr_jw_i128(gr_jw_node *n, const char *key, gr_json_i128 v)
{
    if (!member(n, key))
        return;
    char buf[48];
    gr_json_format_i128(v, buf);
    gr_buf_str(&n->w->out, buf);
}

void gr_jw_u128(gr_jw_node *n, const char *key, gr_u128 v)
{
    if (member(n, key))
        gr_buf_u128(&n->w->out, v);
}

void gr_jw_str(gr_jw_node *n, const char *key, const char *s)
{
    if (member(n, key))
        gr_buf_json_string(&n->w->out, s);
}

void gr_jw_ascii(gr_jw_node *n, const char *key, const char *s, size_t len)
{
    if (!member(n, key))
        return;
    gr_buf *b = &n->w->out;
    if (b->len + len + 3 > b->cap && !gr_buf_grow(b, len + 2))
        return;
    b->data[b->len++] = '"';
    memcpy(b->data + b->len, s, len);
    b->len += len;
    b->data[b->len++] = '"';
    b->data[b->len] = '\0';
}

void gr_jw_bool(gr_jw_node *n, const char *key, bool v)
{
    if (member(n, key))
        gr_buf_put(&n->w->out, v ? "true" : "false", v ? 4 : 5);
}

void gr_jw_null(gr_jw_node *n, const char *key)
{
    if (member(n, key))
        gr_buf_put(&n->w->out, "null", 4);
}

void gr_jw_u64s(gr_jw_node *n, const char *key, const uint64_t *v, size_t count)
{
    if (!member(n, key))
        return;
    gr_buf *b = &n->w->out;
    gr_buf_put(b, "[", 1);
    for (size_t i = 0; i < count; i++) {
        if (i)
            gr_buf_put(b, ",", 1);
        gr_buf_u64(b, v[i]);
    }
    gr_buf_put(b, "]", 1);
}

void gr_jw_raw(gr_jw_node *n, const char *key, const char *json, size_t len)
{
    if (member(n, key))
        gr_buf_put(&n->w->out, json, len);
}

static gr_jw_node *open_child(gr_jw_node *n, const char *key, char open, char close)
{
    if (!member(n, key))
        return NULL;
    gr_jw *w = n->w;
    assert(w->depth < GR_JW_DEPTH && "nesting deeper than GR_JW_DEPTH");
    if (w->depth >= GR_JW_DEPTH) {
        w->out.oom = true; /* dropped whole rather than written malformed */
        return NULL;
    }
    gr_buf_put(&w->out, &open, 1);
    unsigned d = ++w->depth;
    w->closer[d] = close;
    w->filled[d] = false;
    w->node[d] = (gr_jw_node){ w, d };
    return &w->node[d];
}

gr_jw_node *gr_jw_array(gr_jw_node *n, const char *key)
{
    return open_child(n, key, '[', ']');
}

gr_jw_node *gr_jw_object(gr_jw_node *n, const char *key)
{
    return open_child(n, key, '{', '}');
}
