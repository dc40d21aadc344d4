/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the request path: bytes -> gr_api_analyze -> reply,
 * and the same bytes as a POST /v1/moves body (gr_api_moves: every legal
 * move listed, each position after one answered through the same path).
 * Every reply must be a complete JSON object with a known status; the
 * service computes without a table file and with a small budget so that
 * each input is answered quickly. Each input is answered twice, on the heap
 * and inside a scratch arena scope (as the daemon's HTTP threads answer),
 * and the two replies must be identical. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "scratch.h"
#include "moves.h"
#include "seq_cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static gr_service svc, plain;
    static int ready;
    if (!ready) {
        if (gr_service_init(&svc, NULL, 1u << 20) != 0)
            abort();
        svc.limits.budget = 2000000;
        /* The determinism check below answers twice: without the cache, so
         * that both answers spend the same steps (a cached sequence costs
         * none, and what a budget reaches, such as winning_moves, may then
         * differ). POST /v1/moves still runs with it. */
        plain = svc;
        plain.cache = NULL;
        ready = 1;
    }
    gr_reply r;
    gr_api_analyze(&plain, (const char *)data, size, &r);
    if (!r.body || r.len == 0 || r.body[0] != '{' || r.body[r.len - 1] != '}')
        abort();
    if (r.status != 200 && r.status != 400 && r.status != 413 && r.status != 422 &&
        r.status != 500 && r.status != 503)
        abort();
    if (r.status == 500)
        abort(); /* "internal": a winning move the analysis promised was not found */
    bool scoped = gr_scratch_begin();
    gr_reply a;
    gr_api_analyze(&plain, (const char *)data, size, &a);
    if (a.status != r.status || a.len != r.len || memcmp(a.body, r.body, r.len) != 0)
        abort();
    gr_scratch_free(a.body);
    if (scoped)
        gr_scratch_end();
    gr_scratch_free(r.body);
    gr_api_moves(&svc, (const char *)data, size, NULL, &r);
    if (!r.body || r.len == 0 || r.body[0] != '{' || r.body[r.len - 1] != '}')
        abort();
    if (r.status != 200 && r.status != 400 && r.status != 413 && r.status != 422 && r.status != 503)
        abort();
    gr_scratch_free(r.body);
    return 0;
}
