/* SPDX-License-Identifier: MIT */
#include "scratch.h"
#include "grundy/alloc.h"

#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define GR_MEM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GR_MEM_ASAN 1
#endif
#endif

#ifdef GR_MEM_ASAN
#include <sanitizer/asan_interface.h>
#define REDZONE 16
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define REDZONE 0
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* Each block is a 16-byte header holding its size, then the bytes. */
#define HEADER 16

typedef struct arena {
    char *base;
    size_t used;
    bool active;
} arena;

static _Thread_local arena local;
static pthread_key_t arena_key;
static pthread_once_t arena_once = PTHREAD_ONCE_INIT;

static void arena_release(void *base)
{
    free(base);
}

static void make_key(void)
{
    (void)pthread_key_create(&arena_key, arena_release);
}

static bool in_arena(const void *p)
{
    const char *c = p;
    return local.base && c >= local.base && c < local.base + GR_SCRATCH_ARENA_BYTES;
}

bool gr_scratch_begin(void)
{
    if (local.active)
        return false;
    if (!local.base) {
        pthread_once(&arena_once, make_key);
        local.base = malloc(GR_SCRATCH_ARENA_BYTES);
        if (!local.base)
            return false;
        (void)pthread_setspecific(arena_key, local.base);
    }
    POISON(local.base, GR_SCRATCH_ARENA_BYTES);
    local.used = 0;
    local.active = true;
    return true;
}

void gr_scratch_end(void)
{
    if (local.base)
        POISON(local.base, GR_SCRATCH_ARENA_BYTES);
    local.used = 0;
    local.active = false;
}

static size_t block_size(const void *p)
{
    size_t n;
    memcpy(&n, (const char *)p - HEADER, sizeof n);
    return n;
}

void *gr_scratch_alloc(size_t n)
{
    size_t need = HEADER + ((n + 15) & ~(size_t)15) + REDZONE;
    if (!local.active || n > GR_SCRATCH_ARENA_BYTES || need > GR_SCRATCH_ARENA_BYTES - local.used)
        return gr_malloc(n ? n : 1);
    char *block = local.base + local.used;
    local.used += need;
    UNPOISON(block, HEADER + n);
    memcpy(block, &n, sizeof n);
    POISON(block, HEADER);
    return block + HEADER;
}

void gr_scratch_free(void *p)
{
    if (!in_arena(p))
        gr_free(p);
}

void *gr_scratch_realloc(void *p, size_t n)
{
    if (!p)
        return gr_scratch_alloc(n);
    if (!in_arena(p))
        return gr_realloc(p, n);
    UNPOISON((char *)p - HEADER, HEADER);
    size_t old = block_size(p);
    POISON((char *)p - HEADER, HEADER);
    if (n <= old)
        return p;
    void *q = gr_scratch_alloc(n);
    if (q)
        memcpy(q, p, old);
    return q;
}

static void *cjson_alloc(size_t n)
{
    return gr_scratch_alloc(n);
}

static void install_hooks(void)
{
    cJSON_Hooks hooks = { cjson_alloc, gr_scratch_free };
    cJSON_InitHooks(&hooks);
}

void gr_scratch_hook_cjson(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install_hooks);
}
