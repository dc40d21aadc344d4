/* SPDX-License-Identifier: MIT */
/* Private to the engine: the positions that heap play's direct search
 * (heapplay_search.c) has seen, by key (heapplay_keys.h).
 *
 * Each position is open (being searched) or solved, with a value below
 * 2^31. Entries live in an open-addressing table, at most half full, one
 * cache miss per probe; keys of up to MEMO_INLINE_KEY bytes, nearly all in
 * practice, are kept in the entry, longer ones in an arena of at most
 * MEMO_MAX_KEY_BYTES (past it, GR_ELIMIT). The empty position, which has
 * no move, is never stored. Growing the table moves entries: a slot held
 * outside the memo is found again by the `moved` callback, with
 * heap_memo_rehome, before the old table is freed. */
#ifndef GRUNDY_ENGINE_HEAPPLAY_MEMO_H
#define GRUNDY_ENGINE_HEAPPLAY_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "grundy/alloc.h"
#include "grundy/status.h"

#define MEMO_INLINE_KEY 20u
#define MEMO_MAX_KEY_BYTES ((size_t)1 << 25)
#define MEMO_SOLVED_BIT 0x80000000u

/* A position seen, stored in the table itself. key_len 0 marks an empty
 * slot. */
typedef struct heap_entry {
    uint32_t tag;   /* the key hash's high half */
    uint32_t value; /* MEMO_SOLVED_BIT once solved */
    uint32_t key_len;
    union {
        uint32_t off; /* in the arena, for keys longer than MEMO_INLINE_KEY */
        uint8_t bytes[MEMO_INLINE_KEY];
    } key;
} heap_entry;

typedef struct heap_memo heap_memo;

/* Called when the table has grown; `old` is the table before. */
typedef void (*heap_memo_moved_fn)(void *arg, const heap_memo *m, const heap_entry *old);

struct heap_memo {
    heap_entry *table; /* a power of two of slots */
    size_t nslots, used;
    uint8_t *keys; /* the arena of long keys */
    size_t keys_len, keys_cap;
    heap_memo_moved_fn moved;
    void *arg;
};

typedef enum memo_state { MEMO_ABSENT, MEMO_OPEN, MEMO_SOLVED } memo_state;

/* An empty memo; GR_ENOMEM. heap_memo_free is safe after either. */
gr_status heap_memo_init(heap_memo *m, heap_memo_moved_fn moved, void *arg);
void heap_memo_free(heap_memo *m);

/* What the memo knows of the position key[0 .. len), of hash `hash`, and
 * its value when solved. */
memo_state heap_memo_lookup(const heap_memo *m, const uint8_t *key, size_t len, uint64_t hash,
                            uint64_t *value);

/* Adds the position key[0 .. len), absent until now, as open: its slot in
 * *slot. GR_ELIMIT, GR_ENOMEM. */
gr_status heap_memo_add(heap_memo *m, const uint8_t *key, size_t len, uint64_t hash,
                        uint32_t *slot);

/* Where the entry at `slot` of the `old` table now is. */
uint32_t heap_memo_rehome(const heap_memo *m, const heap_entry *old, uint32_t slot);

/* The small accessors are inline: the search calls them for every
 * position it visits. */

static inline const uint8_t *heap_entry_key(const heap_memo *m, const heap_entry *e)
{
    return e->key_len <= MEMO_INLINE_KEY ? e->key.bytes : m->keys + e->key.off;
}

/* The key of the position at `slot`, *len bytes. */
static inline const uint8_t *heap_memo_key(const heap_memo *m, uint32_t slot, size_t *len)
{
    const heap_entry *e = &m->table[slot];
    *len = e->key_len;
    return heap_entry_key(m, e);
}

/* Marks the position at `slot` solved, of value `value` (below 2^31). */
static inline void heap_memo_solve(heap_memo *m, uint32_t slot, uint64_t value)
{
    m->table[slot].value = (uint32_t)value | MEMO_SOLVED_BIT;
}

/* Makes room for `need` elements of `size` bytes in a growable array,
 * doubling; GR_ELIMIT past `most`, GR_ENOMEM when memory runs out. (The
 * memo's key arena and the search's stacks, once per move listed.) */
static inline gr_status heap_array_reserve(void **p, size_t *cap, size_t need, size_t size,
                                           size_t most)
{
    if (need <= *cap)
        return GR_OK;
    if (need > most)
        return GR_ELIMIT;
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    if (c > most)
        c = most;
    void *q = gr_realloc(*p, c * size);
    if (q == NULL)
        return GR_ENOMEM;
    *p = q;
    *cap = c;
    return GR_OK;
}

#endif
