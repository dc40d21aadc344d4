/* SPDX-License-Identifier: MIT */
/* Per-thread scratch memory for answering one query without the heap.
 *
 * Between gr_scratch_begin and gr_scratch_end on one thread, gr_scratch_alloc (and
 * cJSON, once gr_scratch_hook_cjson has run) takes memory from that thread's
 * arena, and freeing it is a no-op; gr_scratch_end releases all of it at once.
 * Outside a scope, and once the arena is full, they are malloc and free, so
 * a query of any size still works. Nothing allocated inside a scope may be
 * used after its gr_scratch_end: copy what must outlive it (a reply body) first.
 * Scopes do not nest: gr_scratch_begin inside a scope opens none and returns
 * false, and only a caller that got true calls gr_scratch_end. Each thread's arena is allocated on its first scope
 * and kept until the thread exits.
 *
 * Under AddressSanitizer every allocation is surrounded by poisoned bytes
 * and the arena is poisoned on gr_scratch_end, so overflows and uses after the
 * scope are still reported. */
#ifndef GRUNDY_CORE_SCRATCH_H
#define GRUNDY_CORE_SCRATCH_H

#include <stdbool.h>
#include <stddef.h>

#define GR_SCRATCH_ARENA_BYTES ((size_t)256 * 1024)

/* Installs gr_scratch_alloc and gr_scratch_free as cJSON's allocator. Idempotent;
 * call before any thread uses cJSON. */
void gr_scratch_hook_cjson(void);

/* Opens a scope on this thread; false (and no new scope) when one is open
 * already or the arena cannot be allocated (everything then goes to the
 * heap). */
bool gr_scratch_begin(void);
void gr_scratch_end(void);

void *gr_scratch_alloc(size_t n);
void *gr_scratch_realloc(void *p, size_t n);
void gr_scratch_free(void *p);

#endif
