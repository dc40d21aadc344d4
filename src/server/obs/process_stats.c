/* SPDX-License-Identifier: MIT */
#include "process_stats.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* Fields of /proc/self/stat counted from the state (field 3), the first
 * after the command name, whose parentheses may hold spaces (proc(5)). */
enum { STAT_STARTTIME = 22 - 3, STAT_VSIZE = 23 - 3, STAT_RSS = 24 - 3, STAT_FIELDS = STAT_RSS + 1 };

static bool read_file(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = '\0';
    return n > 0;
}

/* Fields 3 to 24 of /proc/self/stat as numbers (the state, a letter, as 0). */
static bool read_stat(uint64_t fields[STAT_FIELDS])
{
    char buf[4096];
    if (!read_file("/proc/self/stat", buf, sizeof buf))
        return false;
    const char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ' || !p[2])
        return false;
    p += 3; /* past ") " and the state letter */
    fields[0] = 0;
    for (int i = 1; i < STAT_FIELDS; i++) {
        char *end;
        fields[i] = strtoull(p, &end, 10);
        if (end == p)
            return false;
        p = end;
    }
    return true;
}

/* The boot time in seconds since the epoch ("btime" of /proc/stat, read
 * line by line: the "intr" line before it is long on machines with many
 * interrupts). */
static bool boot_time(uint64_t *out)
{
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return false;
    char *line = NULL;
    size_t cap = 0;
    bool found = false;
    while (!found && getline(&line, &cap, f) > 0)
        found = strncmp(line, "btime ", 6) == 0 && sscanf(line + 6, "%" SCNu64, out) == 1;
    free(line);
    fclose(f);
    return found;
}

static bool count_fds(uint64_t *out)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return false;
    uint64_t n = 0;
    const struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    *out = n > 0 ? n - 1 : 0; /* not the directory's own descriptor */
    return true;
}

void gr_process_sample(gr_process_stats *p)
{
    memset(p, 0, sizeof *p);
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        p->has_cpu = true;
        p->cpu_micros = (uint64_t)ru.ru_utime.tv_sec * 1000000 + (uint64_t)ru.ru_utime.tv_usec +
                        (uint64_t)ru.ru_stime.tv_sec * 1000000 + (uint64_t)ru.ru_stime.tv_usec;
    }
    uint64_t f[STAT_FIELDS], btime;
    long page = sysconf(_SC_PAGESIZE), hz = sysconf(_SC_CLK_TCK);
    if (read_stat(f) && page > 0) {
        p->has_memory = true;
        p->resident_bytes = f[STAT_RSS] * (uint64_t)page;
        p->virtual_bytes = f[STAT_VSIZE];
        if (hz > 0 && boot_time(&btime)) {
            p->has_start = true;
            p->start_micros = btime * 1000000 + f[STAT_STARTTIME] * 1000000 / (uint64_t)hz;
        }
    }
    p->has_fds = count_fds(&p->open_fds);
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        p->has_max_fds = true;
        p->max_fds = (uint64_t)rl.rlim_cur;
    }
}

void gr_micros_text(uint64_t micros, char out[32])
{
    snprintf(out, 32, "%" PRIu64 ".%06" PRIu64, micros / 1000000, micros % 1000000);
}
