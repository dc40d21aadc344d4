/* Moves in Grundy's game from a rare/common index (see octal.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "grundy/octal.h"

static bool is_rare(uint16_t v, uint16_t mask)
{
    return (__builtin_popcount((unsigned)(v & mask)) & 1) == 0;
}

/* counts[v] for v < 65536 -> the mask m minimising the heaps with
 * popcount(v & m) even. By the Walsh-Hadamard transform W of the counts,
 * that number is (N + W[m]) / 2, so the least W[m] over m != 0 wins. */
static uint16_t choose_mask(const uint64_t *counts, unsigned size)
{
    int64_t *w = malloc(size * sizeof *w);
    if (!w)
        return 1;
    for (unsigned v = 0; v < size; v++)
        w[v] = (int64_t)counts[v];
    for (unsigned len = 1; len < size; len <<= 1)
        for (unsigned i = 0; i < size; i += len << 1)
            for (unsigned j = i; j < i + len; j++) {
                int64_t a = w[j], b = w[j + len];
                w[j] = a + b;
                w[j + len] = a - b;
            }
    unsigned best = 1;
    for (unsigned m = 2; m < size; m++)
        if (w[m] < w[best])
            best = m;
    free(w);
    return (uint16_t)best;
}

gr_status gr_rare_index_build(const gr_seq *s, gr_rare_index *ix)
{
    memset(ix, 0, sizeof *ix);
    unsigned size = 2;
    while (size <= s->max_value)
        size <<= 1;
    uint64_t *counts = calloc(size, sizeof *counts);
    if (!counts)
        return GR_ENOMEM;
    for (uint64_t n = 1; n < s->count; n++)
        counts[s->values[n]]++;
    ix->mask = choose_mask(counts, size);
    free(counts);
    uint64_t rare = 0;
    for (uint64_t n = 1; n < s->count; n++)
        rare += is_rare(s->values[n], ix->mask);
    ix->rare = malloc((rare ? rare : 1) * sizeof *ix->rare);
    if (!ix->rare)
        return GR_ENOMEM;
    for (uint64_t n = 1; n < s->count; n++)
        if (is_rare(s->values[n], ix->mask))
            ix->rare[ix->count++] = (uint32_t)n;
    return GR_OK;
}

void gr_rare_index_free(gr_rare_index *ix)
{
    free(ix->rare);
    memset(ix, 0, sizeof *ix);
}

static void split(uint64_t n, uint64_t a, gr_heap_move *move)
{
    uint64_t b = n - a;
    move->take = 0;
    move->nparts = 2;
    move->part[0] = a < b ? a : b;
    move->part[1] = a < b ? b : a;
}

/* Some rare heap r (either part of the split) with g(r) ^ g(n - r) == target. */
static bool rare_part(const gr_seq *s, const gr_rare_index *ix, uint64_t n, uint16_t target,
                      gr_heap_move *move)
{
    for (uint64_t i = 0; i < ix->count && ix->rare[i] < n; i++) {
        uint64_t r = ix->rare[i];
        if (2 * r != n && (s->values[r] ^ s->values[n - r]) == target) {
            split(n, r, move);
            return true;
        }
    }
    return false;
}

gr_status gr_grundys_move_indexed(const gr_seq *s, const gr_rare_index *ix, uint64_t n,
                                  uint16_t target, gr_heap_move *move)
{
    if (n >= s->count)
        return GR_EBOUND;
    if (rare_part(s, ix, n, target, move))
        return GR_OK;
    if (!is_rare(target, ix->mask))
        return GR_EINVAL; /* a common target needs a rare part: there is none */
    for (uint64_t a = 1; 2 * a < n; a++) {
        if ((s->values[a] ^ s->values[n - a]) == target) {
            split(n, a, move);
            return GR_OK;
        }
    }
    return GR_EINVAL;
}
