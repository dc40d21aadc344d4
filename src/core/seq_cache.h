/* SPDX-License-Identifier: MIT */
/* A bounded, thread-safe cache of what is computed on demand and worth
 * keeping: Grundy sequences (subtraction sets and octal games that the
 * table file does not hold) and misere quotients, shared by all workers
 * and held together to --cache-bytes. Entries are reference-counted: a sequence handed
 * out stays valid until released, even if it is evicted meanwhile. */
#ifndef GRUNDY_API_SEQ_CACHE_H
#define GRUNDY_API_SEQ_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grundy/misere_quotient.h"
#include "grundy/seq.h"

typedef struct gr_seq_cache gr_seq_cache;
typedef struct gr_cache_entry gr_cache_entry;

typedef struct gr_cache_stats {
    uint64_t hits, misses, entries, bytes, evictions;
} gr_cache_stats;

/* A cache holding at most max_bytes of sequence values (plus keys). NULL
 * when out of memory. */
gr_seq_cache *gr_seq_cache_new(size_t max_bytes);
void gr_seq_cache_free(gr_seq_cache *c);

/* The entry for key[0 .. len), with a reference taken, or NULL. */
gr_cache_entry *gr_seq_cache_get(gr_seq_cache *c, const void *key, size_t len);

/* Inserts *seq (ownership moves to the cache; *seq is zeroed) under key and
 * returns the entry with a reference taken. When another thread inserted
 * the same key first, *seq is freed and that entry is returned. NULL when
 * out of memory (then *seq still belongs to the caller) or when the
 * sequence alone is larger than the cache. */
gr_cache_entry *gr_seq_cache_put(gr_seq_cache *c, const void *key, size_t len, gr_seq *seq);

/* The sequence of an entry the caller holds a reference to. */
const gr_seq *gr_cache_entry_seq(const gr_cache_entry *e);

/* gr_seq_cache_put for a misere quotient (*q moves in, or is freed when
 * another thread inserted the key first), and the quotient of an entry
 * the caller holds a reference to. Keys of the two kinds must differ. */
gr_cache_entry *gr_seq_cache_put_mq(gr_seq_cache *c, const void *key, size_t len, gr_mq *q);
const gr_mq *gr_cache_entry_mq(const gr_cache_entry *e);

/* Drops a reference. NULL is ignored. */
void gr_seq_cache_release(gr_seq_cache *c, gr_cache_entry *e);

void gr_seq_cache_stats(gr_seq_cache *c, gr_cache_stats *out);

/* A sequence in use by one query: owned by it, borrowed from a table, or
 * referenced in the cache. gr_seq_ref_release undoes whichever it is. */
typedef struct gr_seq_ref {
    gr_seq seq;            /* a view when entry != NULL */
    gr_seq_cache *cache;
    gr_cache_entry *entry;
} gr_seq_ref;

/* On a hit, r->seq becomes a view of the cached sequence. c may be NULL. */
bool gr_seq_ref_lookup(gr_seq_cache *c, const void *key, size_t len, gr_seq_ref *r);

/* Moves the computed r->seq into the cache and keeps a view of it. When the
 * cache cannot take it (full, NULL, out of memory), r->seq stays owned. */
void gr_seq_ref_offer(gr_seq_cache *c, const void *key, size_t len, gr_seq_ref *r);

void gr_seq_ref_release(gr_seq_ref *r);

#endif
