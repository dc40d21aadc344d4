/* SPDX-License-Identifier: MIT */
/* Subtraction-game period detection, values per second (bench/engine.sh).
 *
 *     engine_subtraction [SETS] [SEED]
 *
 * SETS random sets S of 1 to 6 elements drawn from {1..64} (default 2000,
 * seed 1). Each is solved by gr_subtraction_solve until its period is
 * certified; values/s is the values computed over the CPU time of the
 * solver. The first 100 sets are also solved by the plain twin below (the
 * mex of every option, and a period certified by comparing whole windows of
 * max S values), and the two must agree on every value, the preperiod and
 * the period. Prints the totals and the longest preperiod + period seen. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grundy/subtraction.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t rng_state;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* The plain twin: values up to `limit` by the definition, then the least
 * p for which g(n + p) = g(n) holds from some j on up to the limit, and
 * the least such j; accepted only when j + p + max S lies in the first half,
 * so that the second half confirms it. -1 when none is found. */
static int plain_period(const uint64_t *s, size_t n, uint64_t limit, uint64_t *pre, uint64_t *per,
                        uint16_t *g)
{
    uint64_t m = 0;
    for (size_t i = 0; i < n; i++)
        m = s[i] > m ? s[i] : m;
    for (uint64_t h = 0; h < limit; h++) {
        unsigned char seen[70] = { 0 };
        for (size_t i = 0; i < n; i++)
            if (s[i] <= h && g[h - s[i]] < 70)
                seen[g[h - s[i]]] = 1;
        uint16_t v = 0;
        while (seen[v])
            v++;
        g[h] = v;
    }
    for (uint64_t p = 1; p < limit / 2; p++) {
        uint64_t j = limit - p; /* g(n) = g(n + p) for every n in [j, limit - p) */
        while (j > 0 && g[j - 1] == g[j - 1 + p])
            j--;
        if (j + p + m <= limit / 2) {
            *pre = j;
            *per = p;
            return 0;
        }
    }
    return -1;
}

int main(int argc, char **argv)
{
    long sets = argc > 1 ? atol(argv[1]) : 2000;
    rng_state = argc > 2 ? (uint64_t)atoll(argv[2]) * 2654435761u + 1 : 88172645463325252u;
    uint64_t values = 0, longest = 0;
    double cpu = 0;
    int checked = 0;
    enum { PLAIN_LIMIT = 20000 };
    uint16_t *plain = malloc(PLAIN_LIMIT * sizeof *plain);
    for (long k = 0; k < sets; k++) {
        uint64_t s[6];
        size_t n = 1 + rng() % 6;
        for (size_t i = 0; i < n; i++)
            s[i] = 1 + rng() % 64;
        gr_budget b = gr_budget_make(UINT64_C(1) << 40);
        gr_seq seq;
        double t0 = cpu_now();
        gr_status st = gr_subtraction_solve(s, n, 0, &b, &seq);
        cpu += cpu_now() - t0;
        if (st != GR_OK || !seq.periodic) {
            fprintf(stderr, "set %ld: status %d, periodic %d\n", k, (int)st, (int)seq.periodic);
            return 1;
        }
        values += seq.count;
        if (seq.preperiod + seq.period > longest)
            longest = seq.preperiod + seq.period;
        uint64_t pre, per;
        if (k < 100 && plain_period(s, n, PLAIN_LIMIT, &pre, &per, plain) == 0) {
            checked++;
            for (uint64_t h = 0; h < seq.count && h < PLAIN_LIMIT; h++)
                if (seq.values[h] != plain[h]) {
                    fprintf(stderr, "set %ld: g(%llu) differs from the plain twin\n", k, (unsigned long long)h);
                    return 1;
                }
            if (pre != seq.preperiod || per != seq.period) {
                fprintf(stderr, "set %ld: period (%llu, %llu) but the twin finds (%llu, %llu)\n", k,
                        (unsigned long long)seq.preperiod, (unsigned long long)seq.period,
                        (unsigned long long)pre, (unsigned long long)per);
                return 1;
            }
        }
        gr_seq_free(&seq);
    }
    free(plain);
    printf("subtraction period detection: %ld random sets in {1..64}, %llu values in %.3f s CPU: "
           "%.0f values/s; longest preperiod + period %llu; %d sets checked against the plain twin\n",
           sets, (unsigned long long)values, cpu, (double)values / cpu, (unsigned long long)longest, checked);
    return 0;
}
