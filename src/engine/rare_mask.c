/* SPDX-License-Identifier: MIT */
/* The Walsh-Hadamard mask choice of the rare/common method (rare_mask.h). */
#include "rare_mask.h"
#include "grundy/alloc.h"

#include <stdlib.h>

gr_status gr_rare_mask_best(const uint64_t *counts, unsigned size, unsigned *mask,
                            uint64_t *rare)
{
    *mask = 1;
    if (size < 2) {
        if (rare != NULL)
            *rare = size == 1 ? counts[0] : 0;
        return GR_OK;
    }
    int64_t *w = gr_malloc(size * sizeof *w);
    if (w == NULL)
        return GR_ENOMEM;
    for (unsigned v = 0; v < size; v++)
        w[v] = (int64_t)counts[v];
    for (unsigned h = 1; h < size; h *= 2)
        for (unsigned i = 0; i < size; i += 2 * h)
            for (unsigned j = i; j < i + h; j++) {
                int64_t x = w[j], y = w[j + h];
                w[j] = x + y;
                w[j + h] = x - y;
            }
    unsigned best = 1;
    for (unsigned m = 2; m < size; m++)
        if (w[m] < w[best])
            best = m;
    *mask = best;
    if (rare != NULL)
        *rare = (uint64_t)((w[0] + w[best]) / 2);
    gr_free(w);
    return GR_OK;
}
