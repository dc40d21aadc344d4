/* SPDX-License-Identifier: MIT */
/* Moves of octal games: a move from heap n to a position of a given value,
 * found from a solved sequence (octal.h). */
#include "grundy/octal.h"

#include "octal_solver.h"

/* Splits of `rest` tokens into a + (rest - a), 1 <= a <= rest / 2, searched
 * for a value target. When the sequence is periodic (s, p), the pair of
 * values for a >= s depends only on a mod p as long as both parts are >= s;
 * any a >= s + p can be lowered by multiples of p into [s, s + p) (raising
 * the other part, which stays >= a >= s), so scanning a < s + p suffices. */
static gr_status find_split(const gr_seq *s, uint64_t rest, uint16_t target, uint64_t *part)
{
    uint64_t last = rest / 2;
    if (s->periodic && s->preperiod + s->period - 1 < last)
        last = s->preperiod + s->period - 1;
    for (uint64_t a = 1; a <= last; a++) {
        uint16_t ga, gb;
        gr_status st = gr_seq_value(s, a, &ga);
        if (st == GR_OK)
            st = gr_seq_value(s, rest - a, &gb);
        if (st != GR_OK)
            return st;
        if ((ga ^ gb) == target) {
            *part = a;
            return GR_OK;
        }
    }
    return GR_EINVAL;
}

static void set_move(gr_heap_move *move, uint64_t take, uint8_t nparts, uint64_t p0, uint64_t p1)
{
    move->take = take;
    move->nparts = nparts;
    move->part[0] = p0;
    move->part[1] = p1;
}

/* Tries every move that removes k tokens; GR_EINVAL when none reaches target. */
static gr_status move_removing(const gr_octal_code *code, const gr_seq *s, uint64_t n,
                               unsigned k, uint16_t target, gr_heap_move *move)
{
    unsigned d = code->digit[k];
    if ((d & 1) && n == k && target == 0) {
        set_move(move, k, 0, 0, 0);
        return GR_OK;
    }
    if ((d & 2) && n > k) {
        uint16_t g;
        gr_status st = gr_seq_value(s, n - k, &g);
        if (st != GR_OK)
            return st;
        if (g == target) {
            set_move(move, k, 1, n - k, 0);
            return GR_OK;
        }
    }
    if ((d & 4) && n >= k + 2) {
        uint64_t a = 0;
        gr_status st = find_split(s, n - k, target, &a);
        if (st == GR_OK)
            set_move(move, k, 2, a, n - k - a);
        return st;
    }
    return GR_EINVAL;
}

gr_status gr_octal_move(const gr_octal_code *code, const gr_seq *s, uint64_t n,
                        uint16_t target, gr_heap_move *move)
{
    if (!octal_code_valid(code) || s == NULL || move == NULL)
        return GR_EINVAL;
    if (n >= s->count && !s->periodic)
        return GR_EBOUND;
    for (unsigned k = 0; k <= code->t; k++) {
        gr_status st = move_removing(code, s, n, k, target, move);
        if (st != GR_EINVAL)
            return st;
    }
    return GR_EINVAL;
}
