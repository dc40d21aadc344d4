/* SPDX-License-Identifier: MIT */
#include "suggest.h"

#include <string.h>

enum { MAX_WORD = 64 };

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
    unsigned m = a < b ? a : b;
    return m < c ? m : c;
}

/* Optimal string alignment distance over three rolling rows: names and
 * members are short, and the bound on their length keeps this O(64^2). */
unsigned gr_edit_distance(const char *a, const char *b, unsigned cap)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > MAX_WORD || lb > MAX_WORD)
        return cap;
    unsigned rows[3][MAX_WORD + 1];
    unsigned *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned cost = lower(a[i - 1]) != lower(b[j - 1]);
            cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
                lower(a[i - 2]) == lower(b[j - 1]) && prev2[j - 2] + 1 < cur[j])
                cur[j] = prev2[j - 2] + 1;
        }
        unsigned *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb] < cap ? prev[lb] : cap;
}

const char *gr_suggest(const char *word, const char *const *names, size_t n)
{
    size_t len = strlen(word);
    if (len > MAX_WORD)
        return NULL;
    unsigned allowed = 1 + (unsigned)len / 4;
    const char *best = NULL;
    unsigned best_d = allowed + 1;
    for (size_t i = 0; i < n; i++) {
        unsigned d = gr_edit_distance(word, names[i], best_d);
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}
