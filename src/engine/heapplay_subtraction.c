/* SPDX-License-Identifier: MIT */
/* Misere play and remoteness of subtraction games, for heaps up to
 * 2^63 - 1, by certified periods (heapplay.h).
 *
 * Values v(0), v(1), ... (misere: 1 win, 0 loss; or the remoteness) are
 * computed in order. From n >= m = max S every move is available, so v(n)
 * is a function F of the window v[n - m .. n).
 *
 * Misere. Windows W_j = v[j .. j + m) with W_{j+1} = F'(W_j) for every
 * j >= 0; the first window equal to an earlier one, W_k = W_j, gives
 * v(x + k - j) = v(x) for every x >= j.
 *
 * Remoteness. The rule (1 + least even option, else 1 + greatest odd one)
 * compares only parities and order, so adding the same even c to every
 * option adds c to the result. Suppose R(x + p) = R(x) + c, c even, for the
 * m heaps x in [j, j + m), j >= m. Then for x = j + m, j + m + 1, ... in
 * turn: x >= m and x + p >= m, so both heaps have every move; each option
 * x - s lies in [j, x), where the shift is already known to hold; so
 * R(x + p) = R(x) + c, and by induction for every x >= j. (j >= 0 would
 * do, as x >= j + m >= m; j >= m is what heapplay.h states.) Windows are
 * compared after taking away their first value rounded down to an even
 * number (an even shift moves that by exactly c). R(x) <= x, since every
 * move removes a token, so the extension fits 64 bits for x < 2^63.
 *
 * Windows are found in the engine's window table (window_table.h); a
 * match is confirmed value by value (m steps). Each value costs |S| + 4
 * steps. At most MAX_SEQ_VALUES values are kept (4 bytes each, and a table
 * of 8 bytes a slot, at most half full: about 40 MB). */
#include "grundy/heapplay.h"
#include "grundy/alloc.h"

#include <stdlib.h>
#include <string.h>

#include "grundy/subtraction.h"
#include "heapplay_kind.h"
#include "window_table.h"

#define MAX_SEQ_VALUES ((uint64_t)1 << 21)

typedef struct seq_solver {
    play_kind kind;
    uint64_t *s; /* the moves, sorted, without repeats */
    size_t ns;
    uint64_t m;           /* max S: the window length */
    uint64_t first_start; /* least window start compared */
    uint32_t *v;
    uint64_t count, cap;
    window_hash hash; /* of the newest m values */
    uint64_t ones;    /* the hash of a window of m ones */
    window_table windows;
    bool certified;
    uint64_t start, period, shift; /* v(x + period) = v(x) + shift for x >= start */
} seq_solver;

static void seq_free(seq_solver *q)
{
    gr_free(q->s);
    gr_free(q->v);
    window_table_free(&q->windows);
}

/* Misere: no move is a win; else a win when some option is a loss. */
static uint32_t misere_next(const seq_solver *q)
{
    uint64_t n = q->count;
    if (n < q->s[0])
        return 1;
    for (size_t i = 0; i < q->ns && q->s[i] <= n; i++)
        if (q->v[n - q->s[i]] == 0)
            return 1;
    return 0;
}

/* Steinhaus: 0 with no move; 1 + least even option; else 1 + greatest odd. */
static uint32_t remoteness_next(const seq_solver *q)
{
    uint64_t n = q->count;
    if (n < q->s[0])
        return 0;
    uint32_t even = UINT32_MAX, odd = 0;
    for (size_t i = 0; i < q->ns && q->s[i] <= n; i++) {
        uint32_t r = q->v[n - q->s[i]];
        if (r % 2 == 0 && r < even)
            even = r;
        if (r % 2 == 1 && r > odd)
            odd = r;
    }
    return 1 + (even != UINT32_MAX ? even : odd);
}

/* The even offset taken away from the window at j before comparing. */
static uint64_t window_base(const seq_solver *q, uint64_t j)
{
    return q->kind == KIND_MISERE ? 0 : q->v[j] & ~(uint32_t)1;
}

/* W_k = W_j + (base k - base j), that difference being >= 0. */
static bool windows_match(const void *ctx, uint64_t j, uint64_t k)
{
    const seq_solver *q = ctx;
    uint64_t bj = window_base(q, j), bk = window_base(q, k);
    if (bk < bj)
        return false;
    for (uint64_t i = 0; i < q->m; i++)
        if ((uint64_t)q->v[k + i] - q->v[j + i] != bk - bj)
            return false;
    return true;
}

/* Validates and copies the moves (GR_EINVAL as gr_subtraction_solve). */
static gr_status seq_init(seq_solver *q, const uint64_t *moves, size_t nmoves, play_kind kind)
{
    memset(q, 0, sizeof *q);
    q->kind = kind;
    gr_status st = gr_subtraction_moves_copy(moves, nmoves, &q->s, &q->ns);
    if (st != GR_OK)
        return st;
    q->m = q->s[q->ns - 1];
    q->first_start = kind == KIND_MISERE ? 0 : q->m;
    window_hash_init(&q->hash, q->m);
    q->ones = window_hash_ones(q->m);
    return window_table_init(&q->windows, q->m, windows_match, q);
}

/* Looks the window at j up among the earlier ones: certifies on a match,
 * adds it otherwise. Windows are keyed by their hash less their base. */
static gr_status window_find_or_add(seq_solver *q, uint64_t j, gr_budget *b)
{
    uint64_t key = q->hash.value - window_base(q, j) * q->ones;
    bool found;
    uint64_t earlier;
    gr_status st = window_table_find_or_add(&q->windows, key, j, b, &found, &earlier);
    if (st == GR_OK && found) {
        q->certified = true;
        q->start = earlier;
        q->period = j - earlier;
        q->shift = window_base(q, j) - window_base(q, earlier);
    }
    return st;
}

/* Computes one more value and looks up the window it completes. */
static gr_status seq_step(seq_solver *q, gr_budget *b)
{
    if (!gr_budget_spend(b, q->ns + 4) || q->count == MAX_SEQ_VALUES)
        return GR_ELIMIT;
    if (q->count == q->cap) {
        uint64_t cap = q->cap ? 2 * q->cap : 1024;
        uint32_t *v = gr_realloc(q->v, (size_t)cap * sizeof *v);
        if (v == NULL)
            return GR_ENOMEM;
        q->v = v;
        q->cap = cap;
    }
    uint64_t n = q->count;
    uint32_t x = q->kind == KIND_MISERE ? misere_next(q) : remoteness_next(q);
    q->v[q->count++] = x;
    if (n >= q->m)
        window_hash_drop(&q->hash, q->v[n - q->m]);
    window_hash_push(&q->hash, x);
    if (n + 1 < q->first_start + q->m)
        return GR_OK;
    return window_find_or_add(q, n + 1 - q->m, b);
}

/* Values until v(n) is known directly or a certificate extends them. */
static gr_status seq_solve(seq_solver *q, uint64_t n, gr_budget *b)
{
    gr_status st = GR_OK;
    while (st == GR_OK && q->count <= n && !q->certified)
        st = seq_step(q, b);
    return st;
}

/* v(x): computed, or through the certificate (x >= count > start). */
static gr_status seq_value(const seq_solver *q, uint64_t x, uint64_t *out)
{
    if (x < q->count) {
        *out = q->v[x];
        return GR_OK;
    }
    if (!q->certified)
        return GR_EBOUND;
    uint64_t laps = (x - q->start) / q->period;
    uint64_t base = q->v[q->start + (x - q->start) % q->period];
    if (q->shift != 0 && laps > (UINT64_MAX - base) / q->shift)
        return GR_ERANGE; /* unreachable for x < 2^63, since R(x) <= x */
    *out = base + laps * q->shift;
    return GR_OK;
}

/* The least s <= n with v(n - s) == target. */
static gr_status least_take(const seq_solver *q, uint64_t n, uint64_t target, uint64_t *take)
{
    for (size_t i = 0; i < q->ns && q->s[i] <= n; i++) {
        uint64_t v;
        gr_status st = seq_value(q, n - q->s[i], &v);
        if (st != GR_OK)
            return st;
        if (v == target) {
            *take = q->s[i];
            return GR_OK;
        }
    }
    return GR_EINVAL; /* unreachable: the rule that gave v(n) names such an s */
}

/* v(n) for the game, and the least take to an option of value target(v(n))
 * (no take when want_take is false). */
static gr_status seq_answer(const uint64_t *moves, size_t nmoves, uint64_t n, gr_budget *b,
                            play_kind kind, uint64_t *value, uint64_t *take)
{
    if (b == NULL || n > (uint64_t)INT64_MAX)
        return GR_EINVAL;
    seq_solver q;
    gr_status st = seq_init(&q, moves, nmoves, kind);
    if (st == GR_OK)
        st = seq_solve(&q, n, b);
    if (st == GR_OK)
        st = seq_value(&q, n, value);
    uint64_t t = 0;
    if (st == GR_OK && kind == KIND_MISERE && *value == 1 && n >= q.s[0])
        st = least_take(&q, n, 0, &t);
    if (st == GR_OK && kind == KIND_REMOTENESS && *value > 0)
        st = least_take(&q, n, *value - 1, &t);
    if (st == GR_OK)
        *take = t;
    if (st == GR_ELIMIT) /* the value cap too: the work this call may do is spent */
        b->left = 0;
    seq_free(&q);
    return st;
}

gr_status gr_subtraction_misere(const uint64_t *moves, size_t nmoves, uint64_t n, gr_budget *b,
                                bool *win, uint64_t *take)
{
    if (win == NULL || take == NULL)
        return GR_EINVAL;
    uint64_t v = 0;
    gr_status st = seq_answer(moves, nmoves, n, b, KIND_MISERE, &v, take);
    if (st == GR_OK)
        *win = v == 1;
    return st;
}

gr_status gr_subtraction_remoteness(const uint64_t *moves, size_t nmoves, uint64_t n,
                                    gr_budget *b, uint64_t *r, uint64_t *take)
{
    if (r == NULL || take == NULL)
        return GR_EINVAL;
    return seq_answer(moves, nmoves, n, b, KIND_REMOTENESS, r, take);
}
