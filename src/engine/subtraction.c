/* SPDX-License-Identifier: MIT */
/* Subtraction games: values by mex, period by the first repeated window.
 *
 * For n >= m = max S, g(n) depends only on the window W_n-m = g[n-m .. n).
 * So the windows W_0, W_1, ... form a deterministic orbit (W_{j+1} is a
 * function of W_j for every j >= 0), and the first index k whose window
 * equals an earlier one, W_k = W_j, gives the least preperiod j and the
 * least period k - j of the value sequence: before the first repeat the
 * orbit has no cycle, and a mismatch g(j-1) != g(j-1+p) is what keeps
 * W_{j-1} out of it. Windows are found in the engine's window table
 * (window_table.h); a match is confirmed by comparing the windows. */
#include "grundy/subtraction.h"
#include "grundy/alloc.h"

#include <stdlib.h>
#include <string.h>

#include "window_table.h"

/* The move set, sorted and without repeats. */
typedef struct move_set {
    uint64_t *s;
    size_t count;
    uint64_t max;
} move_set;

/* Growing value buffer. */
typedef struct value_buf {
    uint16_t *v;
    uint64_t count;
    uint64_t cap;
} value_buf;

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

gr_status gr_subtraction_moves_copy(const uint64_t *moves, size_t nmoves, uint64_t **out,
                                    size_t *nout)
{
    *out = NULL;
    *nout = 0;
    if (moves == NULL || nmoves == 0)
        return GR_EINVAL;
    for (size_t i = 0; i < nmoves; i++)
        if (moves[i] < 1 || moves[i] > GR_SUBTRACTION_MAX_MOVE)
            return GR_EINVAL;
    uint64_t *s = gr_malloc(nmoves * sizeof *s);
    if (s == NULL)
        return GR_ENOMEM;
    memcpy(s, moves, nmoves * sizeof *s);
    qsort(s, nmoves, sizeof *s, compare_u64);
    size_t kept = 0;
    for (size_t i = 0; i < nmoves; i++)
        if (kept == 0 || s[kept - 1] != s[i])
            s[kept++] = s[i];
    *out = s;
    *nout = kept;
    return GR_OK;
}

/* The validated, sorted, deduplicated set and its largest move. */
static gr_status move_set_make(const uint64_t *moves, size_t nmoves, move_set *ms)
{
    memset(ms, 0, sizeof *ms);
    size_t kept;
    gr_status st = gr_subtraction_moves_copy(moves, nmoves, &ms->s, &kept);
    if (st != GR_OK)
        return st;
    ms->count = kept;
    ms->max = ms->s[kept - 1];
    return GR_OK;
}

static gr_status buf_push(value_buf *vb, uint16_t v)
{
    if (vb->count == vb->cap) {
        uint64_t cap = vb->cap ? 2 * vb->cap : 1024;
        if (cap > SIZE_MAX / sizeof *vb->v)
            return GR_ENOMEM;
        uint16_t *nv = gr_realloc(vb->v, (size_t)cap * sizeof *nv);
        if (nv == NULL)
            return GR_ENOMEM;
        vb->v = nv;
        vb->cap = cap;
    }
    vb->v[vb->count++] = v;
    return GR_OK;
}

/* g(n) = mex{ g(n - s) : s in S, s <= n }, for n == vb->count. `seen` has
 * ms->count + 1 entries and is stamped with n + 1, so it needs no clearing.
 * The mex of at most |S| options is at most |S|. */
static gr_status next_value(const move_set *ms, const value_buf *vb, uint64_t *seen,
                            uint16_t *value)
{
    uint64_t n = vb->count, stamp = n + 1;
    for (size_t i = 0; i < ms->count && ms->s[i] <= n; i++) {
        uint16_t o = vb->v[n - ms->s[i]];
        if (o <= ms->count)
            seen[o] = stamp;
    }
    uint64_t mex = 0;
    while (seen[mex] == stamp)
        mex++;
    if (mex >= 65535)
        return GR_ERANGE;
    *value = (uint16_t)mex;
    return GR_OK;
}

/* State of one solve, kept together so the steps stay small functions. */
typedef struct solver {
    move_set ms;
    value_buf vb;
    window_table table;
    window_hash hash; /* of the newest m values */
    uint64_t *seen;
} solver;

static void solver_free(solver *sv)
{
    gr_free(sv->ms.s);
    gr_free(sv->vb.v);
    gr_free(sv->seen);
    window_table_free(&sv->table);
}

/* Two windows are the same when their values are. */
static bool same_values(const void *ctx, uint64_t earlier, uint64_t later)
{
    const solver *sv = ctx;
    const uint16_t *g = sv->vb.v;
    return memcmp(g + earlier, g + later, sv->ms.max * sizeof *g) == 0;
}

/* Computes one more value and, once a window is complete, looks it up.
 * Sets *found and the earlier start when the newest window repeats. */
static gr_status solver_step(solver *sv, gr_budget *b, bool *found, uint64_t *earlier)
{
    *found = false;
    uint64_t m = sv->ms.max;
    if (!gr_budget_spend(b, sv->ms.count + 4))
        return GR_ELIMIT;
    uint16_t v;
    gr_status st = next_value(&sv->ms, &sv->vb, sv->seen, &v);
    if (st == GR_OK)
        st = buf_push(&sv->vb, v);
    if (st != GR_OK)
        return st;
    uint64_t n = sv->vb.count - 1;
    if (n >= m)
        window_hash_drop(&sv->hash, sv->vb.v[n - m]);
    window_hash_push(&sv->hash, v);
    if (n + 1 < m)
        return GR_OK;
    return window_table_find_or_add(&sv->table, sv->hash.value, n + 1 - m, b, found, earlier);
}

static uint16_t max_of(const uint16_t *v, uint64_t count)
{
    uint16_t mx = 0;
    for (uint64_t i = 0; i < count; i++)
        if (v[i] > mx)
            mx = v[i];
    return mx;
}

/* Hands the values to *out (shrinking the buffer to fit). */
static void solver_emit(solver *sv, gr_seq *out)
{
    uint16_t *v = sv->vb.v;
    uint16_t *shrunk = gr_realloc(v, (size_t)sv->vb.count * sizeof *v);
    if (shrunk != NULL)
        v = shrunk;
    sv->vb.v = NULL;
    out->values = v;
    out->owned = v;
    out->count = sv->vb.count;
    out->max_value = max_of(v, sv->vb.count);
}

gr_status gr_subtraction_solve(const uint64_t *moves, size_t nmoves, uint64_t need,
                               gr_budget *b, gr_seq *out)
{
    memset(out, 0, sizeof *out);
    solver sv;
    memset(&sv, 0, sizeof sv);
    gr_status st = move_set_make(moves, nmoves, &sv.ms);
    if (st == GR_OK) {
        sv.seen = gr_calloc(sv.ms.count + 1, sizeof *sv.seen);
        st = sv.seen ? window_table_init(&sv.table, sv.ms.max, same_values, &sv) : GR_ENOMEM;
        window_hash_init(&sv.hash, sv.ms.max);
    }
    bool found = false;
    uint64_t earlier = 0;
    while (st == GR_OK && !found)
        st = solver_step(&sv, b, &found, &earlier);
    if (found) {
        /* The newest window starts at count - m and repeats the one at
         * `earlier`: count = start + m >= preperiod + period. */
        out->periodic = true;
        out->preperiod = earlier;
        out->period = sv.vb.count - sv.ms.max - earlier;
        solver_emit(&sv, out);
    } else if (st == GR_ELIMIT && need < sv.vb.count) {
        st = GR_OK;
        solver_emit(&sv, out);
    }
    solver_free(&sv);
    return st;
}

gr_status gr_subtraction_move(const uint64_t *moves, size_t nmoves, const gr_seq *s,
                              uint64_t n, uint16_t target, uint64_t *take)
{
    if (moves == NULL || nmoves == 0)
        return GR_EINVAL;
    /* Moves may be unsorted: keep the least winning s and the least s whose
     * value is unknown; an unknown below the winner leaves "smallest" open. */
    uint64_t best = UINT64_MAX, least_unknown = UINT64_MAX;
    for (size_t i = 0; i < nmoves; i++) {
        uint64_t m = moves[i];
        if (m < 1 || m > GR_SUBTRACTION_MAX_MOVE)
            return GR_EINVAL;
        if (m > n || m >= best)
            continue;
        uint16_t g;
        gr_status st = gr_seq_value(s, n - m, &g);
        if (st != GR_OK) {
            if (m < least_unknown)
                least_unknown = m;
        } else if (g == target) {
            best = m;
        }
    }
    if (least_unknown < best)
        return GR_EBOUND;
    if (best == UINT64_MAX)
        return GR_EINVAL;
    *take = best;
    return GR_OK;
}
