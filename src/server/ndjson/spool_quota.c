/* SPDX-License-Identifier: MIT */
#include "spool_quota.h"

#include <stdatomic.h>

static uint64_t quota_max;
static atomic_uint_fast64_t quota_used;

void gr_spool_quota_set(uint64_t max)
{
    quota_max = max;
    atomic_store(&quota_used, 0);
}

uint64_t gr_spool_quota_max(void) { return quota_max; }
uint64_t gr_spool_quota_used(void) { return atomic_load(&quota_used); }

bool gr_spool_quota_take(uint64_t n)
{
    uint_fast64_t used = atomic_load(&quota_used);
    do {
        if (quota_max && (n > quota_max || used > quota_max - n))
            return false;
    } while (!atomic_compare_exchange_weak(&quota_used, &used, used + n));
    return true;
}

void gr_spool_quota_give(uint64_t n)
{
    atomic_fetch_sub(&quota_used, n);
}
