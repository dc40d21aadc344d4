/* SPDX-License-Identifier: MIT */
/* What the process may use, as a container or service manager limits it:
 * the CPUs of its affinity mask, the cgroup v2 cpu.max quota and
 * memory.max. The thread and cache defaults follow from these. */
#ifndef GRUNDY_SERVER_CONTAINER_H
#define GRUNDY_SERVER_CONTAINER_H

#include <stdint.h>

typedef struct gr_container {
    unsigned cpus;        /* at least 1 */
    char cpus_from[64];   /* "affinity 1 of 2" or "cgroup cpu.max 50000/100000" */
    uint64_t memory_max;  /* bytes; 0 when no limit was found */
} gr_container;

/* Reads the affinity mask and the cgroup files. The cgroup tree is
 * /sys/fs/cgroup, or $GRUNDYD_CGROUP_ROOT when set (a directory laid out
 * alike, for tests); the process's own group is read from
 * /proc/self/cgroup ("0::/path"), and each limit is the tightest of that
 * group and its ancestors up to the root. A missing or unreadable file
 * leaves that limit off. */
void gr_container_probe(gr_container *c);

#endif
