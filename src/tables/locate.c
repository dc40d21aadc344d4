/* SPDX-License-Identifier: MIT */
#include "tables/locate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef GRUNDY_TABLES_INSTALLED
#define GRUNDY_TABLES_INSTALLED "/usr/local/share/grundyd/" GR_TABLES_FILE
#endif

static size_t beside_executable(char *path)
{
    ssize_t n = readlink("/proc/self/exe", path, 4096 - sizeof GR_TABLES_FILE - 1);
    if (n <= 0)
        return 0;
    path[n] = '\0';
    char *slash = strrchr(path, '/');
    if (!slash)
        return 0;
    strcpy(slash + 1, GR_TABLES_FILE);
    return 1;
}

size_t gr_tables_candidates(char paths[][4096], size_t max)
{
    const char *env = getenv(GR_TABLES_ENV);
    size_t n = 0;
    if (max == 0)
        return 0;
    if (env && *env) {
        snprintf(paths[0], 4096, "%s", env);
        return 1;
    }
    n += beside_executable(paths[n]);
    if (n < max)
        snprintf(paths[n++], 4096, "%s", GRUNDY_TABLES_INSTALLED);
    return n;
}

const char *gr_tables_locate(char paths[][4096], size_t max, char *searched, size_t len)
{
    size_t n = gr_tables_candidates(paths, max), used = 0;
    searched[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        int k = snprintf(searched + used, len - used, "%s%s", i ? ", " : "", paths[i]);
        used = k > 0 && (size_t)k < len - used ? used + (size_t)k : len - 1;
    }
    for (size_t i = 0; i < n; i++)
        if (access(paths[i], F_OK) == 0)
            return paths[i];
    return NULL;
}
