/* SPDX-License-Identifier: MIT */
/* malloc_usable_size and malloc_trim are glibc's (malloc.h). */
#define _GNU_SOURCE
#include "grundy/alloc.h"

#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local gr_mem_account *current;

/* Blocks from this size up are mapped on their own and unmapped when
 * freed; and a heap whose free top passes the trim size is shrunk on free.
 * Fixed, because glibc's own thresholds rise after a big block is freed (up
 * to 32 MiB), after which a big query's memory stays in the heaps of the
 * thread that ran it, where malloc_trim does not reach (it trims only the
 * main heap's top). */
#define MMAP_BYTES (512 * 1024)
#define TRIM_BYTES (1024 * 1024)

static void fix_thresholds(void)
{
    mallopt(M_MMAP_THRESHOLD, MMAP_BYTES);
    mallopt(M_TRIM_THRESHOLD, TRIM_BYTES);
}

/* Bytes held by all open accounts; the limit on it (UINT64_MAX: none). */
static _Atomic uint64_t total_used;
static _Atomic uint64_t total_peak;
static _Atomic uint64_t total_limit = UINT64_MAX;

bool gr_mem_open(gr_mem_account *a, uint64_t limit)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fix_thresholds);
    if (current)
        return false;
    memset(a, 0, sizeof *a);
    a->limit = limit ? limit : UINT64_MAX;
    current = a;
    return true;
}

void gr_mem_close(gr_mem_account *a)
{
    if (current != a)
        return;
    atomic_fetch_sub(&total_used, a->used);
    current = NULL;
    if (a->peak >= GR_MEM_TRIM_BYTES) {
        malloc_trim(0);
        a->trimmed = true;
    }
}

gr_mem_stop gr_mem_stopped(const gr_mem_account *a)
{
    return a->stop;
}

void gr_mem_set_total(uint64_t bytes)
{
    atomic_store(&total_limit, bytes ? bytes : UINT64_MAX);
}

uint64_t gr_mem_total_limit(void)
{
    uint64_t l = atomic_load(&total_limit);
    return l == UINT64_MAX ? 0 : l;
}

uint64_t gr_mem_total_used(void)
{
    return atomic_load(&total_used);
}

uint64_t gr_mem_total_peak(void)
{
    return atomic_load(&total_peak);
}

static void note_peak(uint64_t used)
{
    uint64_t seen = atomic_load(&total_peak);
    while (used > seen && !atomic_compare_exchange_weak(&total_peak, &seen, used))
        ;
}

/* Takes n bytes for the open account, if any; false (and the reason
 * recorded) when its limit or the total would be passed. */
static bool charge(size_t n)
{
    gr_mem_account *a = current;
    if (!a)
        return true;
    if (n > a->limit - a->used) {
        a->stop = a->stop ? a->stop : GR_MEM_QUERY;
        return false;
    }
    uint64_t before = atomic_fetch_add(&total_used, n);
    uint64_t limit = atomic_load(&total_limit);
    if (before + n < before || before + n > limit) {
        atomic_fetch_sub(&total_used, n);
        a->stop = a->stop ? a->stop : GR_MEM_TOTAL;
        return false;
    }
    note_peak(before + n);
    a->used += n;
    if (a->used > a->peak)
        a->peak = a->used;
    return true;
}

/* Gives back n bytes to the open account, never below what it holds (memory
 * charged to an earlier account may be freed under this one). */
static void credit(size_t n)
{
    gr_mem_account *a = current;
    if (!a)
        return;
    uint64_t back = n < a->used ? n : a->used;
    a->used -= back;
    atomic_fetch_sub(&total_used, back);
}

/* Charges the difference between what was charged and what the allocator
 * really gave (its usable size), without a limit check: a few bytes. */
static void settle(size_t charged, size_t got)
{
    if (got > charged) {
        gr_mem_account *a = current;
        if (!a)
            return;
        a->used += got - charged;
        atomic_fetch_add(&total_used, got - charged);
        if (a->used > a->peak)
            a->peak = a->used;
    } else {
        credit(charged - got);
    }
}

void *gr_malloc(size_t n)
{
    if (!charge(n))
        return NULL;
    void *p = malloc(n);
    settle(n, p ? malloc_usable_size(p) : 0);
    return p;
}

void *gr_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    size_t n = count * size;
    if (!charge(n))
        return NULL;
    void *p = calloc(count, size);
    settle(n, p ? malloc_usable_size(p) : 0);
    return p;
}

void *gr_realloc(void *p, size_t n)
{
    if (!p)
        return gr_malloc(n);
    n = n ? n : 1; /* realloc to 0 would free p, which the caller does not expect */
    size_t old = malloc_usable_size(p);
    size_t more = n > old ? n - old : 0;
    if (!charge(more))
        return NULL;
    void *q = realloc(p, n);
    if (!q) {
        credit(more);
        return NULL;
    }
    settle(old + more, malloc_usable_size(q));
    return q;
}

void gr_free(void *p)
{
    if (!p)
        return;
    credit(malloc_usable_size(p));
    free(p);
}
