/* SPDX-License-Identifier: MIT */
/* The memo of heap play's direct search: the table and its growth.
 * Contract in heapplay_memo.h. */
#include "heapplay_memo.h"
#include "grundy/alloc.h"

#include <stdlib.h>
#include <string.h>

#include "heapplay_keys.h"

#define FIRST_SLOTS 1024u

/* The slot of `key` in `table`: its entry, or the empty slot where it
 * would go. */
static size_t probe(const heap_memo *m, const heap_entry *table, size_t nslots,
                    const uint8_t *key, size_t len, uint64_t hash)
{
    size_t mask = nslots - 1, i = (size_t)hash & mask;
    uint32_t tag = (uint32_t)(hash >> 32);
    for (; table[i].key_len != 0; i = (i + 1) & mask) {
        const heap_entry *e = &table[i];
        if (e->tag == tag && e->key_len == len && memcmp(heap_entry_key(m, e), key, len) == 0)
            break;
    }
    return i;
}

gr_status heap_memo_init(heap_memo *m, heap_memo_moved_fn moved, void *arg)
{
    memset(m, 0, sizeof *m);
    m->moved = moved;
    m->arg = arg;
    m->table = gr_calloc(FIRST_SLOTS, sizeof *m->table);
    if (m->table == NULL)
        return GR_ENOMEM;
    m->nslots = FIRST_SLOTS;
    return GR_OK;
}

void heap_memo_free(heap_memo *m)
{
    gr_free(m->table);
    gr_free(m->keys);
    memset(m, 0, sizeof *m);
}

/* The slot in `table` for the entry e of another table. */
static size_t probe_entry(const heap_memo *m, const heap_entry *table, size_t nslots,
                          const heap_entry *e)
{
    const uint8_t *key = heap_entry_key(m, e);
    return probe(m, table, nslots, key, e->key_len, heap_key_hash(key, e->key_len));
}

uint32_t heap_memo_rehome(const heap_memo *m, const heap_entry *old, uint32_t slot)
{
    return (uint32_t)probe_entry(m, m->table, m->nslots, &old[slot]);
}

/* Doubles the table when half full. */
static gr_status memo_grow(heap_memo *m)
{
    if (2 * (m->used + 1) <= m->nslots)
        return GR_OK;
    size_t n = 2 * m->nslots;
    heap_entry *table = gr_calloc(n, sizeof *table);
    if (table == NULL)
        return GR_ENOMEM;
    for (size_t i = 0; i < m->nslots; i++) {
        const heap_entry *e = &m->table[i];
        if (e->key_len != 0)
            table[probe_entry(m, table, n, e)] = *e;
    }
    heap_entry *old = m->table;
    m->table = table;
    m->nslots = n;
    m->moved(m->arg, m, old);
    gr_free(old);
    return GR_OK;
}

memo_state heap_memo_lookup(const heap_memo *m, const uint8_t *key, size_t len, uint64_t hash,
                            uint64_t *value)
{
    const heap_entry *e = &m->table[probe(m, m->table, m->nslots, key, len, hash)];
    if (e->key_len == 0)
        return MEMO_ABSENT;
    if (!(e->value & MEMO_SOLVED_BIT))
        return MEMO_OPEN;
    *value = e->value & ~MEMO_SOLVED_BIT;
    return MEMO_SOLVED;
}

gr_status heap_memo_add(heap_memo *m, const uint8_t *key, size_t len, uint64_t hash,
                        uint32_t *slot)
{
    gr_status st = GR_OK;
    if (len > MEMO_INLINE_KEY)
        st = heap_array_reserve((void **)&m->keys, &m->keys_cap, m->keys_len + len, 1,
                                MEMO_MAX_KEY_BYTES);
    if (st == GR_OK)
        st = memo_grow(m);
    if (st != GR_OK)
        return st;
    size_t i = probe(m, m->table, m->nslots, key, len, hash);
    heap_entry *e = &m->table[i];
    e->tag = (uint32_t)(hash >> 32);
    e->value = 0;
    e->key_len = (uint32_t)len;
    if (len <= MEMO_INLINE_KEY) {
        memcpy(e->key.bytes, key, len);
    } else {
        e->key.off = (uint32_t)m->keys_len;
        memcpy(m->keys + m->keys_len, key, len);
        m->keys_len += len;
    }
    m->used++;
    *slot = (uint32_t)i;
    return GR_OK;
}
