/* SPDX-License-Identifier: MIT */
#include "why.h"

#include <stdarg.h>
#include <string.h>

gr_jw_node *gr_why_step(gr_query *q, const char *kind)
{
    if (q->slim)
        return NULL;
    gr_jw *w = &q->ans.why;
    if (!w->depth)
        gr_jw_array(gr_jw_begin(w, '{'), "steps");
    gr_jw_node *step = gr_jw_object(&w->node[2], NULL);
    gr_jw_ascii(step, "step", kind, strlen(kind));
    return step;
}

void gr_why_say(gr_query *q, gr_jw_node *step, const char *fmt, ...)
{
    if (!step)
        return;
    gr_text *t = &q->ans.explanation;
    if (t->len)
        gr_text_add(t, " ");
    va_list ap;
    va_start(ap, fmt);
    gr_text_vadd(t, fmt, ap);
    va_end(ap);
}

size_t gr_why_binary(uint64_t v, unsigned width, char out[65])
{
    static const char nibbles[16][4] = { { '0', '0', '0', '0' }, { '0', '0', '0', '1' }, { '0', '0', '1', '0' },
        { '0', '0', '1', '1' }, { '0', '1', '0', '0' }, { '0', '1', '0', '1' }, { '0', '1', '1', '0' },
        { '0', '1', '1', '1' }, { '1', '0', '0', '0' }, { '1', '0', '0', '1' }, { '1', '0', '1', '0' },
        { '1', '0', '1', '1' }, { '1', '1', '0', '0' }, { '1', '1', '0', '1' }, { '1', '1', '1', '0' },
        { '1', '1', '1', '1' } };
    unsigned bits = 64u - (unsigned)__builtin_clzll(v | 1);
    if (width > 64)
        width = 64;
    if (bits < width)
        bits = width;
    char *p = out;
    unsigned b = bits;
    for (; b % 4; p++) /* the digits above the last whole nibble */
        *p = (char)('0' + (int)((v >> --b) & 1));
    for (; b; p += 4) {
        b -= 4;
        memcpy(p, nibbles[(v >> b) & 15], 4);
    }
    *p = '\0';
    return bits;
}
