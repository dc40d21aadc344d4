/* SPDX-License-Identifier: MIT */
/* The ready-made heap games of heap play (heapplay.h): octal games and
 * Grundy's game, as move lists. */
#include "grundy/heapplay.h"

static void emit_move(gr_heap_emit emit, void *arg, uint64_t take, uint8_t nparts, uint64_t a,
                      uint64_t b)
{
    gr_heap_move mv = { .take = take, .nparts = nparts, .part = { a, b } };
    emit(arg, &mv);
}

/* Digit k: bit 1 removes the whole heap when n == k, bit 2 leaves n - k >= 1
 * as one heap, bit 4 splits n - k into a <= b, both >= 1. d0 (k = 0) has
 * bit 4 alone (gr_octal_parse refuses the others): a split of n itself. */
static void octal_options(const void *ctx, uint64_t n, gr_heap_emit emit, void *arg)
{
    const gr_octal_code *code = ctx;
    for (unsigned k = 0; k <= code->t && k <= GR_OCTAL_MAX_DIGITS && k <= n; k++) {
        unsigned d = k == 0 ? code->digit[0] & 4 : code->digit[k]; /* never a pass */
        uint64_t rest = n - k;
        if ((d & 1) && rest == 0)
            emit_move(emit, arg, k, 0, 0, 0);
        if ((d & 2) && rest >= 1)
            emit_move(emit, arg, k, 1, rest, 0);
        for (uint64_t a = 1; (d & 4) && a <= rest / 2; a++)
            emit_move(emit, arg, k, 2, a, rest - a);
    }
}

/* Splits n into a < n - a, a >= 1. */
static void grundys_options(const void *ctx, uint64_t n, gr_heap_emit emit, void *arg)
{
    (void)ctx;
    for (uint64_t a = 1; 2 * a < n; a++)
        emit_move(emit, arg, 0, 2, a, n - a);
}

gr_heap_game gr_heap_game_octal(const gr_octal_code *code)
{
    gr_heap_game g = { code, octal_options };
    return g;
}

gr_heap_game gr_heap_game_grundys(void)
{
    gr_heap_game g = { NULL, grundys_options };
    return g;
}
