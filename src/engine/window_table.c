/* SPDX-License-Identifier: MIT */
/* The first repeated window: an open-addressing table of window starts
 * keyed by a digest of the window hash. Contract in window_table.h, where
 * the lookup is, inline. */
#include "window_table.h"
#include "grundy/alloc.h"

#include <stdlib.h>
#include <string.h>

#define FIRST_CAP 1024u

/* base^e mod 2^64. */
static uint64_t power_u64(uint64_t base, uint64_t e)
{
    uint64_t r = 1;
    for (; e; e >>= 1, base *= base)
        if (e & 1)
            r *= base;
    return r;
}

void window_hash_init(window_hash *h, uint64_t len)
{
    h->value = 0;
    h->top_power = power_u64(WINDOW_HASH_BASE, len - 1);
}

uint64_t window_hash_ones(uint64_t len)
{
    uint64_t ones = 0;
    for (uint64_t i = 0, p = 1; i < len; i++, p *= WINDOW_HASH_BASE)
        ones += p;
    return ones;
}

static gr_status slots_alloc(window_table *t, size_t cap)
{
    t->cap = cap;
    t->used = 0;
    t->digest = gr_malloc(cap * sizeof *t->digest);
    t->start = gr_malloc(cap * sizeof *t->start);
    if (t->digest == NULL || t->start == NULL) {
        gr_free(t->digest);
        gr_free(t->start);
        t->digest = NULL;
        t->start = NULL;
        return GR_ENOMEM;
    }
    for (size_t i = 0; i < cap; i++)
        t->start[i] = WINDOW_EMPTY;
    return GR_OK;
}

gr_status window_table_init(window_table *t, uint64_t len, window_same_fn same, const void *ctx)
{
    memset(t, 0, sizeof *t);
    t->len = len;
    t->same = same;
    t->ctx = ctx;
    return slots_alloc(t, FIRST_CAP);
}

void window_table_free(window_table *t)
{
    gr_free(t->digest);
    gr_free(t->start);
    memset(t, 0, sizeof *t);
}

gr_status window_table_grow(window_table *t)
{
    window_table bigger = *t;
    if (slots_alloc(&bigger, 2 * t->cap) != GR_OK)
        return GR_ENOMEM;
    for (size_t i = 0; i < t->cap; i++)
        if (t->start[i] != WINDOW_EMPTY)
            window_table_put(&bigger, t->digest[i], t->start[i]);
    gr_free(t->digest);
    gr_free(t->start);
    *t = bigger;
    return GR_OK;
}
