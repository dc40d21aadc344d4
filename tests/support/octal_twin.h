/* SPDX-License-Identifier: MIT */
/* The brute-force twin of the octal solver, shared by test_octal.c and
 * test_octal_d0.c: a code's digits read straight from its text, and its
 * Grundy values by the definition (every move, every split). */
#ifndef GRUNDY_TESTS_OCTAL_TWIN_H
#define GRUNDY_TESTS_OCTAL_TWIN_H

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Digits of "d0.d1d2..." (d0 is 0 or 4): digit[0] = d0; returns t, the
 * last non-zero digit after the point. */
static inline unsigned octal_twin_digits(const char *text, unsigned digit[9])
{
    unsigned t = 0;
    memset(digit, 0, 9 * sizeof digit[0]);
    digit[0] = (unsigned)(text[0] - '0');
    for (unsigned k = 1; text[k + 1] != '\0'; k++) {
        digit[k] = (unsigned)(text[k + 1] - '0');
        if (digit[k])
            t = k;
    }
    return t;
}

/* g(0 .. count - 1): removing k tokens (k = 0 for d0) may empty the heap
 * (bit 1), leave one heap (bit 2) or leave two non-empty heaps (bit 4).
 * Free the result. */
static inline uint16_t *octal_twin_values(const char *text, uint64_t count)
{
    unsigned digit[9], t = octal_twin_digits(text, digit);
    uint16_t *g = malloc(count * sizeof *g);
    bool *seen = malloc(1024 * sizeof *seen);
    ck_assert(g != NULL && seen != NULL);
    for (uint64_t n = 0; n < count; n++) {
        memset(seen, 0, 1024 * sizeof *seen);
        for (unsigned k = 0; k <= t; k++) {
            if ((digit[k] & 1) && n == k)
                seen[0] = true;
            if ((digit[k] & 2) && n > k)
                seen[g[n - k]] = true;
            for (uint64_t a = 1; (digit[k] & 4) && n > k && a < n - k; a++)
                seen[g[a] ^ g[n - k - a]] = true;
        }
        uint16_t m = 0;
        while (seen[m])
            m++;
        ck_assert(m < 1000);
        g[n] = m;
    }
    free(seen);
    return g;
}

#endif
