/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "query.h"
#include "scratch.h"
#include "seq_cache.h"
#include "tables/tables.h"

int gr_service_init(gr_service *svc, const gr_tables *tables, size_t cache_bytes)
{
    gr_scratch_hook_cjson(); /* before any thread answers */
    memset(svc, 0, sizeof *svc);
    gr_limits_default(&svc->limits);
    svc->tables = tables;
    gr_seq grundys;
    if (tables && gr_tables_sequence(tables, GR_TN_GRUNDYS, &grundys) &&
        gr_rare_index_build(&grundys, &svc->grundys_rare) != GR_OK)
        return -1;
    svc->cache = gr_seq_cache_new(cache_bytes);
    if (!svc->cache) {
        gr_rare_index_free(&svc->grundys_rare);
        return -1;
    }
    return 0;
}

void gr_service_fini(gr_service *svc)
{
    gr_seq_cache_free(svc->cache);
    gr_rare_index_free(&svc->grundys_rare);
    memset(svc, 0, sizeof *svc);
}
