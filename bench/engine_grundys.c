/* SPDX-License-Identifier: MIT */
/* Benchmarks of the heap-game solvers (gr_grundys_solve, gr_octal_solve),
 * built by hand (not part of meson); see bench/README-engine.md:
 *
 *   gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc/engine bench/engine_grundys.c \
 *       src/engine/grundys.c src/engine/octal_*.c src/engine/rare_mask.c src/engine/seq.c \
 *       src/engine/status.c -o /tmp/bench_engine
 *   /tmp/bench_engine [log2 ...]          Grundy's game (default: 20 22)
 *   /tmp/bench_engine octal [max_values]  every code 0.d1, 0.d1d2, 0.d1d2d3
 *                                         (default 65536 values)
 *
 * Grundy's game: the engine and the naive O(n^2) twin at 20,000 heaps (and
 * their ratio), then values/s for 2^k values for each k given, checked
 * against tests/data/grundys-game-samples.txt when run from the source
 * tree. Octal: each of the 584 texts (the three all-zero ones are invalid)
 * solved until a period is certified or max_values values are known; prints
 * the total, the slowest codes, and the games left without a certificate.
 * Times are CPU time of this process (one core), so other load on the
 * machine disturbs them less than wall time would. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grundy/octal.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- Grundy's game ---- */

static uint16_t *naive_values(uint64_t count)
{
    uint16_t *g = malloc(count * sizeof *g);
    if (g == NULL)
        exit(1);
    for (uint64_t n = 0; n < count; n++) {
        unsigned char seen[1024] = { 0 };
        for (uint64_t a = 1; 2 * a < n; a++)
            seen[g[a] ^ g[n - a]] = 1;
        uint16_t m = 0;
        while (seen[m])
            m++;
        g[n] = m;
    }
    return g;
}

static double solve_timed(uint64_t count, gr_seq *s)
{
    gr_budget b = gr_budget_make(UINT64_MAX);
    double t0 = cpu_now();
    gr_status st = gr_grundys_solve(count - 1, &b, s);
    double t1 = cpu_now();
    if (st != GR_OK) {
        fprintf(stderr, "gr_grundys_solve(%llu): status %d\n", (unsigned long long)count,
                (int)st);
        exit(1);
    }
    return t1 - t0;
}

static void check_samples(const gr_seq *s)
{
    FILE *f = fopen("tests/data/grundys-game-samples.txt", "r");
    if (f == NULL)
        return;
    char line[256];
    unsigned ok = 0, bad = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        unsigned long long n;
        unsigned v;
        if (line[0] == '#' || sscanf(line, "%llu %u", &n, &v) != 2 || n >= s->count)
            continue;
        if (s->values[n] == v)
            ok++;
        else
            bad++;
    }
    fclose(f);
    printf("  samples: %u agree, %u differ\n", ok, bad);
}

static int bench_grundys(int nk, char **ks)
{
    enum { NAIVE_TOP = 20000 };
    gr_seq s;
    double t_fast = solve_timed(NAIVE_TOP + 1, &s);
    double t0 = cpu_now();
    uint16_t *g = naive_values(NAIVE_TOP + 1);
    double t_naive = cpu_now() - t0;
    if (memcmp(g, s.values, (NAIVE_TOP + 1) * sizeof *g) != 0) {
        fprintf(stderr, "engine and naive twin disagree below %d\n", NAIVE_TOP);
        return 1;
    }
    printf("n = %d: engine %.4f s, naive twin %.4f s, naive / engine = %.1f\n", NAIVE_TOP, t_fast,
           t_naive, t_naive / t_fast);
    free(g);
    gr_seq_free(&s);
    for (int i = 0; i < (nk > 0 ? nk : 2); i++) {
        int k = nk > 0 ? atoi(ks[i]) : (i == 0 ? 20 : 22);
        if (k < 4 || k > 40)
            return 2;
        uint64_t count = (uint64_t)1 << k;
        double t = solve_timed(count, &s);
        printf("2^%d values: %.3f s, %.3g values/s, max value %u\n", k, t, (double)count / t,
               s.max_value);
        check_samples(&s);
        gr_seq_free(&s);
    }
    return 0;
}

/* ---- octal games ---- */

typedef struct code_run {
    char text[8];
    double seconds;
    bool periodic;
    uint64_t count, pre, period;
    uint16_t max_value;
} code_run;

static int slower(const void *a, const void *b)
{
    const code_run *x = a, *y = b;
    return (x->seconds < y->seconds) - (x->seconds > y->seconds);
}

static int bench_octal(uint64_t max_values)
{
    static code_run runs[584];
    unsigned nruns = 0, invalid = 0, certified = 0;
    double total = 0, total_distinct = 0;
    uint64_t values = 0;
    for (unsigned digits = 1; digits <= 3; digits++) {
        unsigned codes = 1u << (3 * digits);
        for (unsigned key = 0; key < codes; key++) {
            code_run *r = &runs[nruns];
            memset(r, 0, sizeof *r);
            r->text[0] = '0';
            r->text[1] = '.';
            for (unsigned k = 0; k < digits; k++)
                r->text[2 + k] = (char)('0' + ((key >> (3 * (digits - 1 - k))) & 7));
            gr_octal_code code;
            if (gr_octal_parse(r->text, &code) != GR_OK) {
                invalid++;
                continue;
            }
            gr_budget b = gr_budget_make(UINT64_MAX);
            gr_seq s;
            double t0 = cpu_now();
            gr_status st = gr_octal_solve(&code, 0, max_values, &b, &s);
            r->seconds = cpu_now() - t0;
            if (st != GR_OK) {
                fprintf(stderr, "%s: status %d\n", r->text, (int)st);
                return 1;
            }
            r->periodic = s.periodic;
            r->count = s.count;
            r->pre = s.preperiod;
            r->period = s.period;
            r->max_value = s.max_value;
            certified += s.periodic;
            total += r->seconds;
            values += s.count;
            if (digits == 3) /* 0.d1d2d3 covers each game once (0.7 = 0.700) */
                total_distinct += r->seconds;
            gr_seq_free(&s);
            nruns++;
        }
    }
    printf("octal: %u codes solved (%u all-zero texts invalid), %u certified, %u reached %llu "
           "values\n",
           nruns, invalid, certified, nruns - certified, (unsigned long long)max_values);
    printf("total %.2f s CPU, %llu values, %.3g values/s; the 511 distinct games (as 0.d1d2d3) %.2f s\n",
           total, (unsigned long long)values, (double)values / total, total_distinct);
    printf("largest certified (preperiod, period):");
    uint64_t big = 0;
    for (unsigned i = 0; i < nruns; i++)
        if (runs[i].periodic && runs[i].pre + runs[i].period > big)
            big = runs[i].pre + runs[i].period;
    for (unsigned i = 0; i < nruns; i++)
        if (runs[i].periodic && 4 * (runs[i].pre + runs[i].period) >= big)
            printf(" %s (%llu, %llu)", runs[i].text, (unsigned long long)runs[i].pre,
                   (unsigned long long)runs[i].period);
    printf("\nno certificate within %llu values (each game once, as 0.d1d2d3, max value):\n",
           (unsigned long long)max_values);
    unsigned col = 0;
    for (unsigned i = 0; i < nruns; i++)
        if (!runs[i].periodic && strlen(runs[i].text) == 5) {
            printf("%s%s:%u", col % 8 == 0 ? (col ? "\n  " : "  ") : "  ", runs[i].text,
                   runs[i].max_value);
            col++;
        }
    printf("\n");
    qsort(runs, nruns, sizeof runs[0], slower);
    printf("slowest:");
    for (unsigned i = 0; i < 12 && i < nruns; i++)
        printf(" %s %.3f s%s", runs[i].text, runs[i].seconds, runs[i].periodic ? "" : "*");
    printf("\n(* = no certificate)\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "octal") == 0)
        return bench_octal(argc > 2 ? strtoull(argv[2], NULL, 10) : 65536);
    return bench_grundys(argc - 1, argv + 1);
}
