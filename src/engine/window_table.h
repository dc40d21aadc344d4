/* SPDX-License-Identifier: MIT */
/* Private to the engine: the first repeated window of a sequence, the
 * period search shared by the subtraction-game solvers (subtraction.c for
 * Grundy values, heapplay_subtraction.c for misere outcomes and
 * remoteness).
 *
 * Contract. The caller computes v(0), v(1), ... in order, keeps a rolling
 * hash of the newest `len` values (window_hash: push each value, drop each
 * value that leaves the window), and asks window_table_find_or_add about
 * each window W_j = v[j .. j + len) once, j ascending. Windows that the caller's `same` judges equal must have
 * equal hashes. The answer is the earlier start whose window is the same,
 * if there is one (the table is then left as it was); otherwise j is
 * added. Every candidate is confirmed by `same`, so a hash collision costs
 * steps, never a wrong answer.
 *
 * Memory. Eight bytes a slot, at most half full: a 32-bit digest of the
 * hash and a 32-bit start. The table is most of a long search's memory
 * (475 to 885 MB measured for subtraction searches that spend a 500M
 * budget, by the steps each value costs); a start past 2^32 - 2 ends the
 * search with GR_ELIMIT, as the budget would.
 *
 * Budget. Each confirmation costs `len` steps, charged before `same` is
 * asked; the table charges nothing else. */
#ifndef GRUNDY_ENGINE_WINDOW_TABLE_H
#define GRUNDY_ENGINE_WINDOW_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grundy/budget.h"
#include "grundy/status.h"

#define WINDOW_HASH_BASE 0x9E3779B97F4A7C15u /* odd, so multiplication is a bijection */
#define WINDOW_EMPTY UINT32_MAX                /* the start of a slot not in use */

/* Polynomial hash (mod 2^64) of the newest len values. */
typedef struct window_hash {
    uint64_t value;
    uint64_t top_power; /* WINDOW_HASH_BASE^(len - 1): the weight of a window's first value */
} window_hash;

/* An empty hash for windows of len >= 1 values. */
void window_hash_init(window_hash *h, uint64_t len);

/* The hash of a window of len ones: the hash of a window less c in every
 * value is its hash less c times this. */
uint64_t window_hash_ones(uint64_t len);

/* Takes `leaving`, the oldest value of a full window, out of the hash. */
static inline void window_hash_drop(window_hash *h, uint64_t leaving)
{
    h->value -= leaving * h->top_power;
}

/* Appends x to the hash. */
static inline void window_hash_push(window_hash *h, uint64_t x)
{
    h->value = h->value * WINDOW_HASH_BASE + x;
}

/* Whether the windows at `earlier` and `later` are the same, in the
 * caller's sense. */
typedef bool (*window_same_fn)(const void *ctx, uint64_t earlier, uint64_t later);

typedef struct window_table {
    uint32_t *digest;
    uint32_t *start; /* WINDOW_EMPTY when the slot is unused */
    size_t cap;      /* a power of two */
    size_t used;
    uint64_t len;
    window_same_fn same;
    const void *ctx;
} window_table;

/* An empty table for windows of len values, compared by same(ctx, ...).
 * GR_ENOMEM, with nothing left to free, when memory runs out. */
gr_status window_table_init(window_table *t, uint64_t len, window_same_fn same, const void *ctx);

/* Safe on a zeroed table. */
void window_table_free(window_table *t);

/* Doubles the table; for window_table_find_or_add only. */
gr_status window_table_grow(window_table *t);

/* The find and the add run once per value, so they are inline: as a call
 * they cost the subtraction solver 5 to 8% of its speed (bench/engine.sh). */

/* The digest kept in the table: the polynomial hash is weak in its low
 * bits, so it is mixed first. */
static inline uint32_t window_digest(uint64_t hash)
{
    uint64_t h = hash ^ (hash >> 29);
    h *= 0xBF58476D1CE4E5B9u;
    return (uint32_t)(h ^ (h >> 32));
}

/* Inserts without looking for an equal window (the caller has), into a
 * table with room. */
static inline void window_table_put(window_table *t, uint32_t digest, uint32_t start)
{
    size_t i = (size_t)digest & (t->cap - 1);
    while (t->start[i] != WINDOW_EMPTY)
        i = (i + 1) & (t->cap - 1);
    t->digest[i] = digest;
    t->start[i] = start;
    t->used++;
}

/* The window at `start`, of hash `hash`: *found and the earlier start of
 * the same window in *earlier, or, when it is new, added. GR_ELIMIT when
 * the budget runs out or start does not fit; GR_ENOMEM. */
static inline gr_status window_table_find_or_add(window_table *t, uint64_t hash, uint64_t start,
                                                 gr_budget *b, bool *found, uint64_t *earlier)
{
    *found = false;
    if (start >= WINDOW_EMPTY)
        return GR_ELIMIT;
    uint32_t digest = window_digest(hash);
    for (size_t i = (size_t)digest & (t->cap - 1); t->start[i] != WINDOW_EMPTY;
         i = (i + 1) & (t->cap - 1)) {
        if (t->digest[i] != digest)
            continue;
        if (!gr_budget_spend(b, t->len))
            return GR_ELIMIT;
        if (t->same(t->ctx, t->start[i], start)) {
            *found = true;
            *earlier = t->start[i];
            return GR_OK;
        }
    }
    /* Half full at most, keeping probes short. */
    if (2 * (t->used + 1) > t->cap && window_table_grow(t) != GR_OK)
        return GR_ENOMEM;
    window_table_put(t, digest, (uint32_t)start);
    return GR_OK;
}

#endif
