/* SPDX-License-Identifier: MIT */
#include "grundy/seq.h"
#include "grundy/alloc.h"

#include <stdlib.h>
#include <string.h>

gr_status gr_seq_value(const gr_seq *s, uint64_t n, uint16_t *g)
{
    if (n < s->count) {
        *g = s->values[n];
        return GR_OK;
    }
    if (!s->periodic)
        return GR_EBOUND;
    /* n >= count >= preperiod + period, so the reduced index lies in
     * [preperiod, preperiod + period). */
    uint64_t idx = s->preperiod + (n - s->preperiod) % s->period;
    *g = s->values[idx];
    return GR_OK;
}

void gr_seq_free(gr_seq *s)
{
    gr_free(s->owned);
    memset(s, 0, sizeof *s);
}
