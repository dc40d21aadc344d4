/* SPDX-License-Identifier: MIT */
/* A counting allocator for bench/allocs.sh, preloaded into grundyd
 * (LD_PRELOAD). Every malloc, calloc, realloc, posix_memalign,
 * aligned_alloc and memalign call is counted under the shared object that
 * made it (dladdr of the return address: grundyd itself, libmicrohttpd,
 * libcjson, libc, ...) and then served by glibc. At exit the counts are
 * written to the file named by ALLOC_COUNT_OUT as "OBJECT COUNT" lines.
 *
 * Not part of the service. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

#define MAX_OBJECTS 32

static struct {
    const void *base; /* dli_fbase */
    char name[64];
    atomic_ulong count;
} objects[MAX_OBJECTS];
static atomic_int nobjects;
static atomic_ulong unknown;
static __thread int busy; /* dladdr may allocate: such calls are not counted */

static void count(const void *caller)
{
    if (busy)
        return;
    busy = 1;
    Dl_info info;
    if (!dladdr(caller, &info) || !info.dli_fname) {
        atomic_fetch_add(&unknown, 1);
        busy = 0;
        return;
    }
    int n = atomic_load(&nobjects);
    for (int i = 0; i < n; i++)
        if (objects[i].base == info.dli_fbase) {
            atomic_fetch_add(&objects[i].count, 1);
            busy = 0;
            return;
        }
    /* A new object: racing threads may add it twice; the report sums by name. */
    int i = atomic_fetch_add(&nobjects, 1);
    if (i < MAX_OBJECTS) {
        const char *slash = strrchr(info.dli_fname, '/');
        snprintf(objects[i].name, sizeof objects[i].name, "%s", slash ? slash + 1 : info.dli_fname);
        objects[i].base = info.dli_fbase;
        atomic_fetch_add(&objects[i].count, 1);
    } else {
        atomic_fetch_add(&unknown, 1);
    }
    busy = 0;
}

void *malloc(size_t n)
{
    count(__builtin_return_address(0));
    return __libc_malloc(n);
}

void *calloc(size_t c, size_t n)
{
    count(__builtin_return_address(0));
    return __libc_calloc(c, n);
}

void *realloc(void *p, size_t n)
{
    count(__builtin_return_address(0));
    return __libc_realloc(p, n);
}

void *memalign(size_t a, size_t n)
{
    count(__builtin_return_address(0));
    return __libc_memalign(a, n);
}

void *aligned_alloc(size_t a, size_t n)
{
    count(__builtin_return_address(0));
    return __libc_memalign(a, n);
}

int posix_memalign(void **out, size_t a, size_t n)
{
    count(__builtin_return_address(0));
    void *p = __libc_memalign(a, n);
    if (!p)
        return 12; /* ENOMEM */
    *out = p;
    return 0;
}

__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("ALLOC_COUNT_OUT");
    if (!path)
        return;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return;
    char line[128];
    int n = atomic_load(&nobjects);
    for (int i = 0; i < n && i < MAX_OBJECTS; i++) {
        int len = snprintf(line, sizeof line, "%s %lu\n", objects[i].name, atomic_load(&objects[i].count));
        if (write(fd, line, (size_t)len) < 0)
            break;
    }
    int len = snprintf(line, sizeof line, "unknown %lu\n", atomic_load(&unknown));
    if (write(fd, line, (size_t)len) < 0)
        len = 0;
    close(fd);
}
