/* SPDX-License-Identifier: MIT */
#include "why.h"

#include <stdarg.h>

gr_jw_node *gr_why_step(gr_query *q, const char *kind)
{
    if (q->slim)
        return NULL;
    gr_jw *w = &q->ans.why;
    if (!w->depth)
        gr_jw_array(gr_jw_begin(w, '{'), "steps");
    gr_jw_node *step = gr_jw_object(&w->node[2], NULL);
    gr_jw_str(step, "step", kind);
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

void gr_why_binary(uint64_t v, unsigned width, char out[65])
{
    unsigned bits = 1;
    while (bits < 64 && (v >> bits))
        bits++;
    if (width > 64)
        width = 64;
    if (bits < width)
        bits = width;
    for (unsigned i = 0; i < bits; i++)
        out[i] = (char)('0' + (int)((v >> (bits - 1 - i)) & 1));
    out[bits] = '\0';
}
