/* SPDX-License-Identifier: MIT */
/* Private to the engine: the keys that name positions in heap play's
 * direct search (heapplay_search.c, heapplay_memo.c). A position is a
 * multiset of heaps, sorted ascending; its key is the heap sizes as LEB128
 * bytes (one byte per heap below 128, the common case once splitting makes
 * positions many), at most 10 bytes a heap. Inline: they run for every
 * option examined. */
#ifndef GRUNDY_ENGINE_HEAPPLAY_KEYS_H
#define GRUNDY_ENGINE_HEAPPLAY_KEYS_H

#include <stddef.h>
#include <stdint.h>

static inline size_t heap_key_encode(const uint64_t *heaps, size_t count, uint8_t *key)
{
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t x = heaps[i];
        while (x >= 0x80) {
            key[len++] = (uint8_t)(x | 0x80);
            x >>= 7;
        }
        key[len++] = (uint8_t)x;
    }
    return len;
}

static inline size_t heap_key_decode(const uint8_t *key, size_t len, uint64_t *heaps)
{
    size_t count = 0;
    for (size_t i = 0; i < len; count++) {
        uint64_t x = 0;
        unsigned shift = 0;
        while (key[i] & 0x80) {
            x |= (uint64_t)(key[i++] & 0x7f) << shift;
            shift += 7;
        }
        heaps[count] = x | (uint64_t)key[i++] << shift;
    }
    return count;
}

static inline uint64_t heap_key_hash(const uint8_t *key, size_t len)
{
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a, then a final mix for the low bits */
    for (size_t i = 0; i < len; i++)
        h = (h ^ key[i]) * 0x100000001b3u;
    h ^= h >> 32;
    h *= 0xbf58476d1ce4e5b9u;
    return h ^ (h >> 29);
}

#endif
