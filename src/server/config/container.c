/* SPDX-License-Identifier: MIT */
/* sched_getaffinity and the CPU_*_S macros are GNU extensions. */
#define _GNU_SOURCE
#include "container.h"

#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* CPUs in the affinity mask; 0 when it cannot be read. */
static unsigned affinity_cpus(void)
{
    for (int n = 1024; n <= 1 << 16; n *= 4) {
        cpu_set_t *set = CPU_ALLOC((size_t)n);
        if (!set)
            return 0;
        size_t size = CPU_ALLOC_SIZE((size_t)n);
        int count = sched_getaffinity(0, size, set) == 0 ? CPU_COUNT_S(size, set) : -1;
        CPU_FREE(set);
        if (count >= 0)
            return (unsigned)count;
    }
    return 0;
}

/* The first line of a small file, without its newline; -1 when unreadable. */
static int read_line(const char *dir, const char *name, char *out, size_t n)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *got = fgets(out, (int)n, f);
    fclose(f);
    if (!got)
        return -1;
    out[strcspn(out, "\n")] = '\0';
    return 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long long x = strtoull(s, &end, 10);
    *v = x;
    return *end == '\0' || *end == ' ' ? 0 : -1;
}

/* "QUOTA PERIOD" or "max PERIOD": CPUs as ceil(quota/period), at least 1;
 * 0 when unlimited or unparsable. */
static unsigned cpu_max_cpus(const char *text, uint64_t *quota, uint64_t *period)
{
    const char *sp = strchr(text, ' ');
    if (!sp || parse_u64(text, quota) || parse_u64(sp + 1, period) || *period == 0)
        return 0;
    uint64_t cpus = (*quota + *period - 1) / *period;
    return cpus == 0 ? 1 : cpus > 65536 ? 65536 : (unsigned)cpus;
}

/* The process's cgroup v2 directory under root; "" path when unknown. */
static void own_group(const char *root, char *dir, size_t n)
{
    char line[4096] = "";
    FILE *f = fopen("/proc/self/cgroup", "r");
    const char *path = "";
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "0::", 3) == 0) {
            line[strcspn(line, "\n")] = '\0';
            path = line + 3;
            break;
        }
    }
    if (f)
        fclose(f);
    snprintf(dir, n, "%s%s", root, strcmp(path, "/") == 0 ? "" : path);
}

/* Reads cpu.max and memory.max in dir and its ancestors down to root,
 * keeping the tightest of each. */
static void read_limits(const char *root, gr_container *c)
{
    char dir[4096], text[128];
    own_group(root, dir, sizeof dir);
    size_t root_len = strlen(root);
    for (;;) {
        uint64_t quota, period, mem;
        unsigned cpus;
        if (read_line(dir, "cpu.max", text, sizeof text) == 0 &&
            (cpus = cpu_max_cpus(text, &quota, &period)) != 0 && cpus <= c->cpus) {
            c->cpus = cpus;
            snprintf(c->cpus_from, sizeof c->cpus_from, "cgroup cpu.max %" PRIu64 "/%" PRIu64, quota, period);
        }
        if (read_line(dir, "memory.max", text, sizeof text) == 0 && parse_u64(text, &mem) == 0 &&
            (c->memory_max == 0 || mem < c->memory_max))
            c->memory_max = mem;
        char *slash = strrchr(dir, '/');
        if (strlen(dir) <= root_len || !slash || (size_t)(slash - dir) < root_len)
            break;
        *slash = '\0';
    }
}

void gr_container_probe(gr_container *c)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned on = online > 0 ? (unsigned)online : 1;
    unsigned mask = affinity_cpus();
    memset(c, 0, sizeof *c);
    c->cpus = mask ? mask : on;
    snprintf(c->cpus_from, sizeof c->cpus_from, mask ? "affinity %u of %u" : "online CPUs %u", c->cpus, on);
    const char *env = getenv("GRUNDYD_CGROUP_ROOT");
    char root[4096];
    snprintf(root, sizeof root, "%s", env && *env ? env : "/sys/fs/cgroup");
    for (size_t n = strlen(root); n > 1 && root[n - 1] == '/'; n--)
        root[n - 1] = '\0';
    read_limits(root, c);
}
