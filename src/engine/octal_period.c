/* SPDX-License-Identifier: MIT */
/* The periodicity certificate of octal games (octal.h), read
 * conservatively: with N values known, p is certified when
 * g(n + p) = g(n) for s <= n < N - p and
 * N - p >= max(2s + 2p + t - 1, p + t + 1), 3p <= N. */
#include "octal_solver.h"

#define RUNS 8u    /* long partial periods remembered by a certificate scan */
#define RUN_MIN 32u /* a partial period that long is remembered */

/* The certificate, checked for count = N values: the least p with 3p <= N
 * whose least preperiod s within the known values (1 + the last i with
 * g(i) != g(i + p), i + p < N; 0 when none) satisfies
 * N - p >= max(2s + 2p + t - 1, p + t + 1). That p is the least period of
 * the whole sequence (any certified p is a true period, every period is a
 * multiple of the least one, and the least one is certified whenever a
 * multiple is), and s its least preperiod.
 *
 * For each p the pairs are compared from the top down, so most p fail after
 * a comparison or two, and the scan stops at the least s that would pass.
 * A p whose pairs agree over a long stretch [L, N - p) is remembered: the
 * multiples of p then agree over [L, N - multiple) without comparing. */
bool octal_find_period(const uint16_t *g, uint64_t N, unsigned t, uint64_t *pre,
                       uint64_t *period)
{
    uint64_t run_p[RUNS], run_lo[RUNS];
    unsigned nruns = 0;
    for (uint64_t p = 1; 3 * p <= N && 2 * p + t + 1 <= N && 3 * p + t <= N + 1; p++) {
        uint64_t smax = (N + 1 - 3 * p - t) / 2; /* largest s that passes */
        uint64_t lo = N - p;                     /* pairs i >= lo agree */
        for (unsigned r = 0; r < nruns; r++)
            if (p % run_p[r] == 0 && run_lo[r] < lo)
                lo = run_lo[r];
        while (lo > smax && g[lo - 1] == g[lo - 1 + p])
            lo--;
        if (lo <= smax) {
            while (lo > 0 && g[lo - 1] == g[lo - 1 + p])
                lo--;
            *pre = lo;
            *period = p;
            return true;
        }
        if (N - p - lo >= RUN_MIN) {
            unsigned r = nruns;
            if (nruns < RUNS) {
                nruns++;
            } else { /* full: replace the one reaching least far down, if worse */
                r = 0;
                for (unsigned q = 1; q < RUNS; q++)
                    if (run_lo[q] > run_lo[r])
                        r = q;
                if (run_lo[r] <= lo)
                    continue;
            }
            run_p[r] = p;
            run_lo[r] = lo;
        }
    }
    return false;
}

/* With least period p and least preperiod s, the least count at which
 * the certificate holds: N0 = max(2s + 3p + t - 1, 2p + t + 1) (both p
 * and s are properties of the whole sequence, so it holds at N0 and at no
 * smaller count). */
uint64_t octal_first_certified_count(uint64_t pre, uint64_t period, unsigned t)
{
    uint64_t a = 2 * pre + 3 * period + t - 1, b = 2 * period + t + 1;
    return a > b ? a : b;
}
