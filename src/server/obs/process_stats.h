/* SPDX-License-Identifier: MIT */
/* The process's own figures for the Prometheus process_* metrics, sampled
 * at scrape time from the kernel (Linux): CPU time from getrusage, memory
 * and the start time from /proc/self/stat (with the boot time from
 * /proc/stat), descriptors from /proc/self/fd and getrlimit. A figure the
 * kernel does not give is left out, never guessed. */
#ifndef GRUNDY_SERVER_PROCESS_STATS_H
#define GRUNDY_SERVER_PROCESS_STATS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct gr_process_stats {
    bool has_cpu, has_memory, has_fds, has_max_fds, has_start;
    uint64_t cpu_micros;          /* user + system CPU time */
    uint64_t resident_bytes;      /* resident set size */
    uint64_t virtual_bytes;       /* virtual memory size */
    uint64_t open_fds;            /* open file descriptors */
    uint64_t max_fds;             /* the soft limit on them (RLIMIT_NOFILE) */
    uint64_t start_micros;        /* start time, microseconds since the Unix epoch */
} gr_process_stats;

/* Fills *p with what can be read now. */
void gr_process_sample(gr_process_stats *p);

/* The decimal text of micros / 10^6 with six decimals ("12.000250"). */
void gr_micros_text(uint64_t micros, char out[32]);

#endif
