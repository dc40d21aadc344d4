/* SPDX-License-Identifier: MIT */
/* The naive twin of Grundy's game for bench/tables.sh: g(0 .. N-1) by the
 * definition, g(n) = mex { g(a) ^ g(n - a) : 1 <= a < n - a }, O(N^2).
 *
 * Usage: naive_grundys [N]   (default 20000)
 * Prints one line: "naive_grundys: N values in T s (V values/s); g(N-1) = G". */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_VALUE 1024 /* Grundy's game values stay far below this for any N here */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
    if (n < 1 || n > 10000000) {
        fprintf(stderr, "usage: naive_grundys [N]  (1 <= N <= 10000000)\n");
        return 2;
    }
    uint16_t *g = malloc((size_t)n * sizeof *g);
    if (!g)
        return 1;
    double t0 = now();
    for (long k = 0; k < n; k++) {
        bool seen[MAX_VALUE + 1];
        memset(seen, 0, sizeof seen);
        for (long a = 1; 2 * a < k; a++)
            seen[g[a] ^ g[k - a]] = true;
        uint16_t m = 0;
        while (seen[m])
            m++;
        if (m >= MAX_VALUE) {
            fprintf(stderr, "naive_grundys: value %u at heap %ld is too large\n", m, k);
            return 1;
        }
        g[k] = m;
    }
    double dt = now() - t0;
    printf("naive_grundys: %ld values in %.4f s (%.0f values/s); g(%ld) = %u\n", n, dt,
           (double)n / dt, n - 1, g[n - 1]);
    free(g);
    return 0;
}
