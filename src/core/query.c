/* SPDX-License-Identifier: MIT */
#include "query.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grundy/subtraction.h"

void gr_limits_default(gr_limits *l)
{
    l->budget = UINT64_C(500000000);
    l->max_items = 100000;
    l->max_moves = 4096;
    l->max_move = GR_SUBTRACTION_MAX_MOVE;
    l->max_nodes = 1000000;
    l->max_edges = 1000000;
    l->octal_max_values = 16384;
    l->grundys_max_heap = 65536;
    l->max_batch = 10000;
    l->batch_budget = 4 * l->budget;
    l->max_line = UINT64_C(1) << 20;
    l->query_cpu_ms = 1000;
    l->batch_cpu_ms = 4 * l->query_cpu_ms;
    l->query_memory = GR_QUERY_MEMORY_DEFAULT;
}

uint64_t gr_ms_to_ns(uint64_t ms)
{
    return ms == 0 || ms > UINT64_MAX / 1000000 ? UINT64_MAX : ms * 1000000;
}

/* Appends what fits; on overflow ends the text with "..." and returns false. */
static bool text_put(gr_text *t, const char *s, size_t n)
{
    size_t room = sizeof t->buf - 1 - t->len;
    if (n <= room) {
        memcpy(t->buf + t->len, s, n);
        t->len += n;
        t->buf[t->len] = '\0';
        return true;
    }
    memcpy(t->buf + t->len, s, room);
    t->len = sizeof t->buf - 1;
    memcpy(t->buf + t->len - 3, "...", 3);
    t->buf[t->len] = '\0';
    return false;
}

static bool text_put_i64(gr_text *t, int64_t v)
{
    char buf[21];
    size_t n = 0;
    if (v < 0)
        buf[n++] = '-';
    uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    n += gr_u64_digits(m, buf + n);
    return text_put(t, buf, n);
}

/* The conversion at fmt (just past '%') when it is one the fast formatter
 * handles: %s, %c, %%, and d/u with no flags, width or precision and an
 * optional l, ll or z. Returns its length past the '%', or 0. */
static size_t fast_spec(const char *fmt, char *conv, int *lng)
{
    size_t i = 0;
    *lng = 0;
    if (fmt[0] == 'l' && fmt[1] == 'l')
        i = 2, *lng = 2;
    else if (fmt[0] == 'l' || fmt[0] == 'z')
        i = 1, *lng = fmt[0] == 'z' ? 3 : 1;
    char c = fmt[i];
    if (c == 'd' || c == 'u' || ((c == 's' || c == 'c' || c == '%') && i == 0)) {
        *conv = c;
        return i + 1;
    }
    return 0;
}

static bool fast_format_ok(const char *fmt)
{
    char conv;
    int lng;
    for (const char *p = strchr(fmt, '%'); p; p = strchr(p, '%')) {
        size_t k = fast_spec(p + 1, &conv, &lng);
        if (!k)
            return false;
        p += 1 + k;
    }
    return true;
}

static bool fast_put_arg(gr_text *t, char conv, int lng, va_list *ap)
{
    char c;
    const char *s;
    switch (conv) {
    case '%':
        return text_put(t, "%", 1);
    case 'c':
        c = (char)va_arg(*ap, int);
        return text_put(t, &c, 1);
    case 's':
        s = va_arg(*ap, const char *);
        return text_put(t, s ? s : "(null)", s ? strlen(s) : 6);
    case 'd':
        return text_put_i64(t, lng == 2 ? va_arg(*ap, long long) : lng == 1 ? va_arg(*ap, long)
                               : lng == 3 ? (int64_t)va_arg(*ap, ptrdiff_t) : va_arg(*ap, int));
    default: {
        uint64_t v = lng == 2 ? va_arg(*ap, unsigned long long) : lng == 1 ? va_arg(*ap, unsigned long)
                     : lng == 3 ? va_arg(*ap, size_t) : va_arg(*ap, unsigned);
        char buf[20];
        return text_put(t, buf, gr_u64_digits(v, buf));
    }
    }
}

/* Explanations are built on every answer, so the common conversions are
 * formatted here rather than by vsnprintf, whose set-up costs more than the
 * text; any other conversion goes to vsnprintf. */
static void fast_format(gr_text *t, const char *fmt, va_list *ap)
{
    while (*fmt) {
        const char *pct = strchr(fmt, '%');
        size_t lit = pct ? (size_t)(pct - fmt) : strlen(fmt);
        if (!text_put(t, fmt, lit) || !pct)
            return;
        char conv = '%';
        int lng = 0;
        size_t k = fast_spec(pct + 1, &conv, &lng);
        if (!fast_put_arg(t, conv, lng, ap))
            return;
        fmt = pct + 1 + k;
    }
}

void gr_text_vadd(gr_text *t, const char *fmt, va_list ap)
{
    size_t room = sizeof t->buf - t->len;
    if (room <= 1 || t->muted)
        return;
    if (fast_format_ok(fmt)) {
        va_list copy;
        va_copy(copy, ap);
        fast_format(t, fmt, &copy);
        va_end(copy);
        return;
    }
    int n = vsnprintf(t->buf + t->len, room, fmt, ap);
    if (n < 0)
        return;
    if ((size_t)n >= room) {
        t->len = sizeof t->buf - 1;
        memcpy(t->buf + t->len - 3, "...", 3);
        return;
    }
    t->len += (size_t)n;
}

void gr_text_add(gr_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gr_text_vadd(t, fmt, ap);
    va_end(ap);
}

const cJSON *gr_q_get(const gr_query *q, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(q->obj, name);
}

int gr_q_u64_at(gr_query *q, const cJSON *node, const char *field, uint64_t *out)
{
    return gr_json_u64(q->doc, node, field, out, q->err);
}

/* One integer, signed or not: the two readers behind the entry helpers. */
typedef union int_out {
    uint64_t *u;
    int64_t *i;
} int_out;

static int read_int(const gr_query *q, const cJSON *node, const char *field, bool sign, int_out out,
                    gr_api_error *err)
{
    return sign ? gr_json_i64(q->doc, node, field, out.i, err) : gr_json_u64(q->doc, node, field, out.u, err);
}

static int read_entry(gr_query *q, const cJSON *item, const char *name, size_t i, bool sign, int_out out)
{
    gr_api_error quiet;
    if (read_int(q, item, name, sign, out, &quiet) == 0)
        return 0;
    char field[64];
    snprintf(field, sizeof field, "%s[%zu]", name, i);
    return read_int(q, item, field, sign, out, q->err);
}

static int read_pair(gr_query *q, const cJSON *item, const char *name, size_t i, const char *shape,
                     bool sign, int_out first, int_out second)
{
    const cJSON *a = cJSON_IsArray(item) ? item->child : NULL;
    const cJSON *b = a ? a->next : NULL;
    gr_api_error quiet;
    if (b && !b->next && read_int(q, a, name, sign, first, &quiet) == 0 &&
        read_int(q, b, name, sign, second, &quiet) == 0)
        return 0;
    char field[64];
    snprintf(field, sizeof field, "%s[%zu]", name, i);
    if (!b || b->next)
        return gr_fail(q->err, GR_E_INVALID_FIELD, field, "%s", shape);
    snprintf(field, sizeof field, "%s[%zu][0]", name, i);
    if (read_int(q, a, field, sign, first, q->err))
        return -1;
    snprintf(field, sizeof field, "%s[%zu][1]", name, i);
    return read_int(q, b, field, sign, second, q->err);
}

int gr_q_u64_entry(gr_query *q, const cJSON *item, const char *name, size_t i, uint64_t *out)
{
    return read_entry(q, item, name, i, false, (int_out){ .u = out });
}

int gr_q_i64_entry(gr_query *q, const cJSON *item, const char *name, size_t i, int64_t *out)
{
    return read_entry(q, item, name, i, true, (int_out){ .i = out });
}

int gr_q_u64_pair(gr_query *q, const cJSON *item, const char *name, size_t i, const char *shape,
                  uint64_t out[2])
{
    return read_pair(q, item, name, i, shape, false, (int_out){ .u = &out[0] }, (int_out){ .u = &out[1] });
}

int gr_q_i64_pair(gr_query *q, const cJSON *item, const char *name, size_t i, const char *shape,
                  int64_t out[2])
{
    return read_pair(q, item, name, i, shape, true, (int_out){ .i = &out[0] }, (int_out){ .i = &out[1] });
}

int gr_q_u64(gr_query *q, const char *name, const uint64_t *dflt, uint64_t *out)
{
    const cJSON *node = gr_q_get(q, name);
    if (!node || cJSON_IsNull(node)) {
        if (dflt) {
            *out = *dflt;
            return 0;
        }
        return gr_fail(q->err, GR_E_MISSING_FIELD, name, "the field \"%s\" is required", name);
    }
    return gr_q_u64_at(q, node, name, out);
}

int gr_q_u64_list(gr_query *q, const char *name, uint64_t max, bool allow_empty,
                  uint64_t **out, size_t *n)
{
    const cJSON *arr = gr_q_get(q, name);
    *out = NULL;
    *n = 0;
    if (!arr)
        return gr_fail(q->err, GR_E_MISSING_FIELD, name,
                       "the field \"%s\" is required: an array of non-negative integers", name);
    if (!cJSON_IsArray(arr))
        return gr_fail(q->err, GR_E_INVALID_FIELD, name,
                       "\"%s\" must be an array of non-negative integers", name);
    size_t count = (size_t)cJSON_GetArraySize(arr);
    if (count == 0 && !allow_empty)
        return gr_fail(q->err, GR_E_INVALID_FIELD, name, "\"%s\" must not be empty", name);
    if (count > max)
        return gr_fail(q->err, GR_E_TOO_MANY, name,
                       "\"%s\" has %zu entries; the limit is %llu", name, count,
                       (unsigned long long)max);
    uint64_t *v = gr_scratch_alloc((count ? count : 1) * sizeof *v);
    if (!v)
        return gr_oom(q);
    size_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, arr) {
        if (gr_q_u64_entry(q, item, name, i, &v[i])) {
            gr_scratch_free(v);
            return -1;
        }
        i++;
    }
    *out = v;
    *n = count;
    return 0;
}

const char *gr_compound_name(gr_compound c)
{
    static const char *const names[] = { "disjunctive", "selective", "selective_proper", "conjunctive" };
    return names[c];
}

int gr_oom(gr_query *q)
{
    return gr_fail(q->err, GR_E_OVERLOADED, "", "out of memory building the answer; retry later");
}

gr_jw_node *gr_ans_components(gr_query *q)
{
    return gr_jw_begin(&q->ans.components, '[');
}

gr_jw_node *gr_ans_component(gr_query *q)
{
    gr_jw *w = &q->ans.components;
    return gr_jw_object(w->depth ? &w->node[1] : gr_ans_components(q), NULL);
}

gr_jw_node *gr_ans_move(gr_query *q)
{
    return gr_jw_begin(&q->ans.move, '{');
}

gr_jw_node *gr_ans_next(gr_query *q)
{
    return gr_jw_begin(&q->ans.next, '{');
}

void gr_ans_clear_move(gr_answer *a)
{
    a->move.out.len = a->next.out.len = 0;
    a->move.depth = a->next.depth = 0;
}

gr_jw_node *gr_ans_single(gr_query *q, gr_status s, uint64_t g, const char *field, const char *what)
{
    if (s != GR_OK && s != GR_ELIMIT) {
        gr_fail_engine(q->err, s, field, what);
        return NULL;
    }
    q->ans.grundy_known = s == GR_OK;
    q->ans.grundy = g;
    gr_ans_components(q);
    return gr_ans_component(q);
}

void gr_add_grundy(const gr_query *q, gr_jw_node *component)
{
    if (q->ans.grundy_known)
        gr_jw_u64(component, "grundy", q->ans.grundy);
    else
        gr_jw_null(component, "grundy");
}
