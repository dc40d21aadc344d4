/* SPDX-License-Identifier: MIT */
/* Moves in Grundy's game from a rare/common index (see octal.h). */
#include <stdbool.h>
#include "grundy/alloc.h"
#include <stdlib.h>
#include <string.h>

#include "grundy/octal.h"
#include "rare_mask.h"

gr_status gr_rare_index_build(const gr_seq *s, gr_rare_index *ix)
{
    memset(ix, 0, sizeof *ix);
    unsigned size = 2;
    while (size <= s->max_value)
        size <<= 1;
    uint64_t *counts = gr_calloc(size, sizeof *counts);
    if (!counts)
        return GR_ENOMEM;
    for (uint64_t n = 1; n < s->count; n++)
        counts[s->values[n]]++;
    /* The mask with the fewest rare heaps (Walsh-Hadamard transform of the
     * counts, rare_mask.c); mask 1 when its scratch array cannot be had. */
    unsigned mask;
    (void)gr_rare_mask_best(counts, size, &mask, NULL);
    ix->mask = (uint16_t)mask;
    gr_free(counts);
    uint64_t rare = 0;
    for (uint64_t n = 1; n < s->count; n++)
        rare += is_rare(s->values[n], ix->mask);
    ix->rare = gr_malloc((rare ? rare : 1) * sizeof *ix->rare);
    if (!ix->rare)
        return GR_ENOMEM;
    for (uint64_t n = 1; n < s->count; n++)
        if (is_rare(s->values[n], ix->mask))
            ix->rare[ix->count++] = (uint32_t)n;
    return GR_OK;
}

void gr_rare_index_free(gr_rare_index *ix)
{
    gr_free(ix->rare);
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
