/* SPDX-License-Identifier: MIT */
#include "seq_cache.h"
#include "grundy/alloc.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define BUCKETS 1024u

struct gr_cache_entry {
    gr_cache_entry *next_in_bucket;
    gr_cache_entry *lru_prev, *lru_next; /* most recently used at the head */
    gr_seq seq;
    gr_mq mq; /* a misere quotient's entry; seq is empty then */
    uint64_t hash;
    size_t bytes;
    unsigned refs;
    bool evicted; /* out of the table; freed at its last release */
    size_t len;
    unsigned char key[]; /* len bytes */
};

struct gr_seq_cache {
    pthread_mutex_t lock;
    gr_cache_entry *buckets[BUCKETS];
    gr_cache_entry *lru_head, *lru_tail;
    size_t max_bytes;
    gr_cache_stats stats;
};

/* FNV-1a: keys are short (a few dozen bytes). */
static uint64_t hash_key(const void *key, size_t len)
{
    const unsigned char *p = key;
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h;
}

gr_seq_cache *gr_seq_cache_new(size_t max_bytes)
{
    gr_seq_cache *c = gr_calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (pthread_mutex_init(&c->lock, NULL) != 0) {
        gr_free(c);
        return NULL;
    }
    c->max_bytes = max_bytes;
    return c;
}

static void destroy(gr_cache_entry *e)
{
    gr_seq_free(&e->seq);
    gr_mq_free(&e->mq);
    gr_free(e);
}

void gr_seq_cache_free(gr_seq_cache *c)
{
    if (!c)
        return;
    for (gr_cache_entry *e = c->lru_head, *next; e; e = next) {
        next = e->lru_next;
        destroy(e);
    }
    pthread_mutex_destroy(&c->lock);
    gr_free(c);
}

static void lru_unlink(gr_seq_cache *c, gr_cache_entry *e)
{
    if (e->lru_prev)
        e->lru_prev->lru_next = e->lru_next;
    else
        c->lru_head = e->lru_next;
    if (e->lru_next)
        e->lru_next->lru_prev = e->lru_prev;
    else
        c->lru_tail = e->lru_prev;
    e->lru_prev = e->lru_next = NULL;
}

static void lru_push_front(gr_seq_cache *c, gr_cache_entry *e)
{
    e->lru_prev = NULL;
    e->lru_next = c->lru_head;
    if (c->lru_head)
        c->lru_head->lru_prev = e;
    c->lru_head = e;
    if (!c->lru_tail)
        c->lru_tail = e;
}

static gr_cache_entry *find(gr_seq_cache *c, uint64_t h, const void *key, size_t len)
{
    for (gr_cache_entry *e = c->buckets[h % BUCKETS]; e; e = e->next_in_bucket)
        if (e->hash == h && e->len == len && memcmp(e->key, key, len) == 0)
            return e;
    return NULL;
}

static void bucket_remove(gr_seq_cache *c, gr_cache_entry *e)
{
    gr_cache_entry **p = &c->buckets[e->hash % BUCKETS];
    while (*p != e)
        p = &(*p)->next_in_bucket;
    *p = e->next_in_bucket;
}

/* Evicts least recently used entries until `incoming` more bytes fit. An
 * entry still referenced leaves the table now and is freed at release. */
static void make_room(gr_seq_cache *c, size_t incoming)
{
    while (c->lru_tail && c->stats.bytes + incoming > c->max_bytes) {
        gr_cache_entry *victim = c->lru_tail;
        lru_unlink(c, victim);
        bucket_remove(c, victim);
        c->stats.bytes -= victim->bytes;
        c->stats.entries--;
        c->stats.evictions++;
        victim->evicted = true;
        if (victim->refs == 0)
            destroy(victim);
    }
}

gr_cache_entry *gr_seq_cache_get(gr_seq_cache *c, const void *key, size_t len)
{
    uint64_t h = hash_key(key, len);
    pthread_mutex_lock(&c->lock);
    gr_cache_entry *e = find(c, h, key, len);
    if (e) {
        e->refs++;
        lru_unlink(c, e);
        lru_push_front(c, e);
        c->stats.hits++;
    } else {
        c->stats.misses++;
    }
    pthread_mutex_unlock(&c->lock);
    return e;
}

/* Inserts `value` (a gr_seq or a gr_mq, moved in by `take`) under key, or
 * returns the entry another thread inserted first (`drop` then frees it). */
static gr_cache_entry *insert(gr_seq_cache *c, const void *key, size_t len, size_t value_bytes,
                              void (*take)(gr_cache_entry *e, void *value), void (*drop)(void *value),
                              void *value)
{
    size_t bytes = sizeof(gr_cache_entry) + len + value_bytes;
    if (bytes > c->max_bytes)
        return NULL;
    gr_cache_entry *fresh = gr_malloc(sizeof *fresh + len);
    if (!fresh)
        return NULL;
    uint64_t h = hash_key(key, len);
    pthread_mutex_lock(&c->lock);
    gr_cache_entry *e = find(c, h, key, len);
    if (e) {
        e->refs++;
        pthread_mutex_unlock(&c->lock);
        gr_free(fresh);
        drop(value);
        return e;
    }
    *fresh = (gr_cache_entry){ .hash = h, .bytes = bytes, .refs = 1, .len = len };
    take(fresh, value);
    memcpy(fresh->key, key, len);
    make_room(c, bytes);
    fresh->next_in_bucket = c->buckets[h % BUCKETS];
    c->buckets[h % BUCKETS] = fresh;
    lru_push_front(c, fresh);
    c->stats.bytes += bytes;
    c->stats.entries++;
    pthread_mutex_unlock(&c->lock);
    return fresh;
}

static void take_seq(gr_cache_entry *e, void *value)
{
    e->seq = *(gr_seq *)value;
    memset(value, 0, sizeof(gr_seq));
}

static void drop_seq(void *value)
{
    gr_seq_free(value);
}

gr_cache_entry *gr_seq_cache_put(gr_seq_cache *c, const void *key, size_t len, gr_seq *seq)
{
    return insert(c, key, len, seq->count * sizeof(uint16_t), take_seq, drop_seq, seq);
}

static void take_mq(gr_cache_entry *e, void *value)
{
    e->mq = *(gr_mq *)value;
    memset(value, 0, sizeof(gr_mq));
}

static void drop_mq(void *value)
{
    gr_mq_free(value);
}

gr_cache_entry *gr_seq_cache_put_mq(gr_seq_cache *c, const void *key, size_t len, gr_mq *q)
{
    size_t order = q->order, bytes = order * order * sizeof *q->mul + order + (q->bound + 1) * sizeof *q->phi;
    return insert(c, key, len, bytes, take_mq, drop_mq, q);
}

const gr_mq *gr_cache_entry_mq(const gr_cache_entry *e)
{
    return &e->mq;
}

const gr_seq *gr_cache_entry_seq(const gr_cache_entry *e)
{
    return &e->seq;
}

void gr_seq_cache_release(gr_seq_cache *c, gr_cache_entry *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&c->lock);
    bool gone = --e->refs == 0 && e->evicted;
    pthread_mutex_unlock(&c->lock);
    if (gone)
        destroy(e);
}

void gr_seq_cache_stats(gr_seq_cache *c, gr_cache_stats *out)
{
    pthread_mutex_lock(&c->lock);
    *out = c->stats;
    pthread_mutex_unlock(&c->lock);
}

static void view_of(gr_seq_ref *r, gr_seq_cache *c, gr_cache_entry *e)
{
    r->seq = e->seq;
    r->seq.owned = NULL;
    r->cache = c;
    r->entry = e;
}

bool gr_seq_ref_lookup(gr_seq_cache *c, const void *key, size_t len, gr_seq_ref *r)
{
    gr_cache_entry *e = c ? gr_seq_cache_get(c, key, len) : NULL;
    if (e)
        view_of(r, c, e);
    return e != NULL;
}

void gr_seq_ref_offer(gr_seq_cache *c, const void *key, size_t len, gr_seq_ref *r)
{
    gr_cache_entry *e = c ? gr_seq_cache_put(c, key, len, &r->seq) : NULL;
    if (e)
        view_of(r, c, e);
}

void gr_seq_ref_release(gr_seq_ref *r)
{
    if (r->entry)
        gr_seq_cache_release(r->cache, r->entry);
    else
        gr_seq_free(&r->seq);
    memset(r, 0, sizeof *r);
}
