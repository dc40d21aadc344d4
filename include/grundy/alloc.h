/* SPDX-License-Identifier: MIT */
/* Query memory: the one accounting point for what a query allocates.
 *
 * The engine and the API layer allocate through gr_malloc, gr_calloc,
 * gr_realloc and gr_free. While a thread has an account open (one per
 * query), each allocation is charged to it, by the allocator's usable size,
 * and each free credits it back. An allocation that would take the account
 * past its limit, or the sum over all open accounts past the process-wide
 * total, is refused: it returns NULL, the solver fails with GR_ENOMEM as on
 * any failed allocation, and the account records why (gr_mem_stopped), so
 * that the layer above can tell "this query needs more than it may have"
 * (a 422) from "the process is full right now" (a 503).
 *
 * Without an open account the four are malloc, calloc, realloc and free.
 * Memory may outlive its account (a cached sequence): it stays allocated,
 * and whichever account frees it later is credited, never below zero.
 * Accounts do not nest, and one is used by one thread only. */
#ifndef GRUNDY_ALLOC_H
#define GRUNDY_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* After a query whose account held at least this many bytes at its peak,
 * closing it hands free memory back to the system (malloc_trim), so that a
 * big query does not leave the process's resident size at its peak. */
#define GR_MEM_TRIM_BYTES ((uint64_t)16 << 20)

/* Why an account refused an allocation (the first reason it met). */
typedef enum gr_mem_stop {
    GR_MEM_OK,    /* it did not */
    GR_MEM_QUERY, /* the account's own limit */
    GR_MEM_TOTAL, /* the process-wide total over all open accounts */
} gr_mem_stop;

typedef struct gr_mem_account {
    uint64_t limit; /* bytes the query may hold at once; UINT64_MAX: no limit */
    uint64_t used;  /* bytes it holds now */
    uint64_t peak;  /* the most it held */
    gr_mem_stop stop;
    bool trimmed;   /* closing it returned memory to the system */
} gr_mem_account;

/* Opens a on this thread with `limit` bytes (0: no limit). False, and a is
 * not opened, when the thread has an account open already: then the open
 * one keeps being charged, and a must not be closed. The first call fixes
 * the allocator's thresholds for the process (mallopt), so that big blocks
 * are unmapped when freed, whichever thread freed them. */
bool gr_mem_open(gr_mem_account *a, uint64_t limit);

/* Closes this thread's account a: what it still holds no longer counts
 * toward the total, and memory goes back to the system after a big query
 * (GR_MEM_TRIM_BYTES). */
void gr_mem_close(gr_mem_account *a);

/* Why a refused an allocation; GR_MEM_OK when it has not. */
gr_mem_stop gr_mem_stopped(const gr_mem_account *a);

/* The process-wide total over all open accounts: bytes (0: no limit). Set
 * before queries run. */
void gr_mem_set_total(uint64_t bytes);
uint64_t gr_mem_total_limit(void);

/* Bytes all open accounts hold now, and the most they ever held together. */
uint64_t gr_mem_total_used(void);
uint64_t gr_mem_total_peak(void);

void *gr_malloc(size_t n);
void *gr_calloc(size_t count, size_t size);
void *gr_realloc(void *p, size_t n);
void gr_free(void *p);

#endif
