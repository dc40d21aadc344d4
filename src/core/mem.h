/* SPDX-License-Identifier: MIT */
/* Per-thread scratch memory for answering one query without the heap.
 *
 * Between gr_mem_begin and gr_mem_end on one thread, gr_mem_alloc (and
 * cJSON, once gr_mem_hook_cjson has run) takes memory from that thread's
 * arena, and freeing it is a no-op; gr_mem_end releases all of it at once.
 * Outside a scope, and once the arena is full, they are malloc and free, so
 * a query of any size still works. Nothing allocated inside a scope may be
 * used after its gr_mem_end: copy what must outlive it (a reply body) first.
 * Scopes do not nest: gr_mem_begin inside a scope opens none and returns
 * false, and only a caller that got true calls gr_mem_end. Each thread's arena is allocated on its first scope
 * and kept until the thread exits.
 *
 * Under AddressSanitizer every allocation is surrounded by poisoned bytes
 * and the arena is poisoned on gr_mem_end, so overflows and uses after the
 * scope are still reported. */
#ifndef GRUNDY_API_MEM_H
#define GRUNDY_API_MEM_H

#include <stdbool.h>
#include <stddef.h>

#define GR_MEM_ARENA_BYTES ((size_t)256 * 1024)

/* Installs gr_mem_alloc and gr_mem_free as cJSON's allocator. Idempotent;
 * call before any thread uses cJSON. */
void gr_mem_hook_cjson(void);

/* Opens a scope on this thread; false (and no new scope) when one is open
 * already or the arena cannot be allocated (everything then goes to the
 * heap). */
bool gr_mem_begin(void);
void gr_mem_end(void);

void *gr_mem_alloc(size_t n);
void *gr_mem_realloc(void *p, size_t n);
void gr_mem_free(void *p);

#endif
