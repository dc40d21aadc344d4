/* SPDX-License-Identifier: MIT */
#include "api/why.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

cJSON *gr_why_step(gr_query *q, const char *kind)
{
    if (q->slim)
        return NULL;
    if (!q->ans.why) {
        q->ans.why = cJSON_CreateObject();
        if (!q->ans.why || !cJSON_AddArrayToObject(q->ans.why, "steps")) {
            cJSON_Delete(q->ans.why);
            q->ans.why = NULL;
            return NULL;
        }
    }
    cJSON *step = cJSON_CreateObject();
    if (!step)
        return NULL;
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(q->ans.why, "steps"), step);
    gr_why_str(step, "step", kind);
    return step;
}

void gr_why_say(gr_query *q, cJSON *step, const char *fmt, ...)
{
    if (!step)
        return;
    gr_text sentence = { .len = 0 };
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(sentence.buf, sizeof sentence.buf, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    sentence.len = (size_t)n < sizeof sentence.buf ? (size_t)n : sizeof sentence.buf - 1;
    if ((size_t)n >= sizeof sentence.buf)
        memcpy(sentence.buf + sentence.len - 3, "...", 3);
    cJSON_DeleteItemFromObjectCaseSensitive(step, "text");
    gr_why_str(step, "text", sentence.buf);
    gr_text *t = &q->ans.explanation;
    gr_text_add(t, "%s%s", t->len ? " " : "", sentence.buf);
}

void gr_why_u64(cJSON *obj, const char *key, uint64_t v)
{
    if (obj)
        gr_json_add_u64(obj, key, v);
}

void gr_why_i128(cJSON *obj, const char *key, gr_json_i128 v)
{
    if (obj)
        gr_json_add_i128(obj, key, v);
}

void gr_why_str(cJSON *obj, const char *key, const char *v)
{
    if (obj)
        cJSON_AddStringToObject(obj, key, v);
}

void gr_why_bool(cJSON *obj, const char *key, bool v)
{
    if (obj)
        cJSON_AddBoolToObject(obj, key, v);
}

void gr_why_u64s(cJSON *obj, const char *key, const uint64_t *v, size_t n)
{
    cJSON *arr = obj ? gr_json_u64_array(v, n) : NULL;
    if (arr)
        cJSON_AddItemToObject(obj, key, arr);
}

cJSON *gr_why_array(cJSON *obj, const char *key)
{
    return obj ? cJSON_AddArrayToObject(obj, key) : NULL;
}

cJSON *gr_why_object(cJSON *obj, const char *key)
{
    return obj ? cJSON_AddObjectToObject(obj, key) : NULL;
}

cJSON *gr_why_push(cJSON *array)
{
    cJSON *o = array ? cJSON_CreateObject() : NULL;
    if (o)
        cJSON_AddItemToArray(array, o);
    return o;
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
