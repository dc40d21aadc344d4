/* SPDX-License-Identifier: MIT */
/* Two-player score games: interval, suffix and mask dynamic programming.
 *
 * Every game here is zero-sum over the stones still on the table, so "each
 * player maximises his own total" and "each maximises the difference" pick
 * the same moves; the recurrences use whichever form is shorter. */
#include "grundy/score.h"
#include "grundy/alloc.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Saturating a * b for step counts: a budget can never hold UINT64_MAX
 * steps' worth of work, so saturation just means "over any budget". */
static uint64_t steps_mul(uint64_t a, uint64_t b)
{
    if (a != 0 && b > UINT64_MAX / a)
        return UINT64_MAX;
    return a * b;
}

static bool all_non_negative(const int64_t *piles, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (piles[i] < 0)
            return false;
    return true;
}

/* ---- stone row ------------------------------------------------------- */

/* On entry d[i] holds the value of the interval [i, i + len - 1) for each
 * start i <= n - len + 1; on exit it holds the value of [i, i + len). The
 * update reads d[i] and d[i + 1] before d[i + 1] is rewritten, so one array
 * suffices. */
static void row_extend(const int64_t *piles, size_t n, size_t len, gr_i128 *d)
{
    for (size_t i = 0; i + len <= n; i++) {
        gr_i128 first = (gr_i128)piles[i] - d[i + 1];
        gr_i128 last = (gr_i128)piles[i + len - 1] - d[i];
        d[i] = first >= last ? first : last;
    }
}

gr_status gr_stone_row(const int64_t *piles, size_t n, gr_budget *b, gr_i128 *value,
                       gr_row_end *best)
{
    if ((piles == NULL && n > 0) || !all_non_negative(piles, n))
        return GR_EINVAL;
    if (n == 0) {
        *value = 0;
        *best = GR_ROW_NONE;
        return GR_OK;
    }
    uint64_t intervals = n % 2 == 0 ? steps_mul(n / 2, (uint64_t)n + 1)
                                    : steps_mul(n, ((uint64_t)n + 1) / 2); /* n(n+1)/2 */
    if (!gr_budget_spend(b, intervals))
        return GR_ELIMIT;
    if (n > SIZE_MAX / sizeof(gr_i128) - 1)
        return GR_ENOMEM;
    gr_i128 *d = gr_calloc(n + 1, sizeof *d); /* length 0: every interval is worth 0 */
    if (d == NULL)
        return GR_ENOMEM;
    for (size_t len = 1; len < n; len++) {
        if (!gr_budget_tick(b, n - len + 1)) { /* paid above; the deadline may stop it */
            gr_free(d);
            return GR_ELIMIT;
        }
        row_extend(piles, n, len, d);
    }
    /* The last length by hand, to see which end wins (d holds length n-1). */
    gr_i128 first = (gr_i128)piles[0] - d[1];
    gr_i128 last = (gr_i128)piles[n - 1] - d[0];
    *value = first >= last ? first : last;
    *best = first >= last ? GR_ROW_FIRST : GR_ROW_LAST;
    gr_free(d);
    return GR_OK;
}

/* ---- stone prefix ------------------------------------------------------ */

/* States (i, m) with 2m < n - i, i.e. 1 <= m <= (n - i - 1) / 2, live in
 * cell[row[i] + m - 1]; every other state takes all that remains. */
typedef struct prefix_table {
    size_t n;
    gr_i128 *suffix; /* suffix[i] = piles[i] + ... + piles[n - 1]; n + 1 entries */
    size_t *row;     /* n + 1 offsets into cell */
    gr_i128 *cell;
} prefix_table;

static size_t prefix_width(size_t n, size_t i)
{
    return (n - i - 1) / 2;
}

static gr_i128 prefix_get(const prefix_table *t, size_t i, uint64_t m)
{
    if (i >= t->n || 2 * m >= t->n - i)
        return t->suffix[i];
    return t->cell[t->row[i] + m - 1];
}

/* Best over x in [1, min(2m, n - i)] of suffix[i] - value(i + x, max(m, x));
 * writes the smallest best x to *take. Needs rows > i filled. */
static gr_i128 prefix_best(const prefix_table *t, size_t i, uint64_t m, uint64_t *take)
{
    uint64_t top = 2 * m < t->n - i ? 2 * m : t->n - i;
    gr_i128 best = 0;
    for (uint64_t x = 1; x <= top; x++) {
        gr_i128 v = t->suffix[i] - prefix_get(t, i + x, x > m ? x : m);
        if (x == 1 || v > best) {
            best = v;
            *take = x;
        }
    }
    return best;
}

static void prefix_free(prefix_table *t)
{
    gr_free(t->suffix);
    gr_free(t->row);
    gr_free(t->cell);
}

static gr_status prefix_alloc(const int64_t *piles, size_t n, prefix_table *t)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    t->suffix = gr_malloc((n + 1) * sizeof *t->suffix);
    t->row = gr_malloc((n + 1) * sizeof *t->row);
    if (t->suffix == NULL || t->row == NULL)
        return GR_ENOMEM;
    t->suffix[n] = 0;
    for (size_t i = n; i-- > 0;)
        t->suffix[i] = t->suffix[i + 1] + piles[i];
    size_t cells = 0;
    for (size_t i = 0; i < n; i++) {
        t->row[i] = cells;
        cells += prefix_width(n, i);
    }
    t->row[n] = cells;
    t->cell = gr_malloc((cells > 0 ? cells : 1) * sizeof *t->cell);
    return t->cell == NULL ? GR_ENOMEM : GR_OK;
}

/* Steps of prefix_fill plus the top-level choice at m: one per row and one
 * per move tried (state (i, m) tries 2m moves). */
static uint64_t prefix_steps(size_t n, uint64_t m)
{
    uint64_t steps = 2 * m;
    for (size_t i = 1; i < n; i++) {
        uint64_t w = prefix_width(n, i);
        steps += 1 + w * (w + 1);
    }
    return steps;
}

/* Fills rows n-1 down to 1 (row 0 is only ever asked at the caller's m).
 * Paid for by the caller; each row ticks b, whose deadline may stop the
 * work (GR_ELIMIT). */
static gr_status prefix_fill(prefix_table *t, gr_budget *b)
{
    for (size_t i = t->n; i-- > 1;) {
        uint64_t w = prefix_width(t->n, i);
        if (!gr_budget_tick(b, 1 + w * (w + 1)))
            return GR_ELIMIT;
        for (uint64_t m = 1; m <= w; m++) {
            uint64_t x;
            t->cell[t->row[i] + m - 1] = prefix_best(t, i, m, &x);
        }
    }
    return GR_OK;
}

gr_status gr_stone_prefix(const int64_t *piles, size_t n, uint64_t m, gr_budget *b,
                          gr_i128 *value, uint64_t *take)
{
    if ((piles == NULL && n > 0) || m == 0 || n > GR_STONE_PREFIX_MAX_N ||
        !all_non_negative(piles, n))
        return GR_EINVAL;
    if (n == 0) {
        *value = 0;
        *take = 0;
        return GR_OK;
    }
    if (m > n)
        m = n; /* 2m >= n - i already: more changes nothing */
    if (!gr_budget_spend(b, prefix_steps(n, m)))
        return GR_ELIMIT;
    prefix_table t;
    gr_status st = prefix_alloc(piles, n, &t);
    if (st == GR_OK)
        st = prefix_fill(&t, b);
    if (st == GR_OK)
        *value = prefix_best(&t, 0, m, take);
    prefix_free(&t);
    return st;
}

/* ---- stone front-3 ----------------------------------------------------- */

gr_status gr_stone_front3(const int64_t *piles, size_t n, gr_budget *b, gr_i128 *value,
                          unsigned *take)
{
    if (piles == NULL && n > 0)
        return GR_EINVAL;
    for (size_t i = 0; i < n; i++)
        if (piles[i] == INT64_MIN)
            return GR_EINVAL;
    if (!gr_budget_spend(b, steps_mul(3, n)))
        return GR_ELIMIT;
    gr_i128 next[3] = { 0, 0, 0 }; /* values of the suffixes at i+1, i+2, i+3 */
    gr_i128 best = 0;
    unsigned best_k = 0;
    for (size_t i = n; i-- > 0;) {
        gr_i128 taken = 0;
        best_k = 0;
        for (unsigned k = 1; k <= 3 && i + k <= n; k++) {
            taken += piles[i + k - 1];
            gr_i128 v = taken - next[k - 1];
            if (best_k == 0 || v > best) {
                best = v;
                best_k = k;
            }
        }
        next[2] = next[1];
        next[1] = next[0];
        next[0] = best;
    }
    *value = best;
    *take = best_k;
    return GR_OK;
}

/* ---- Can I Win --------------------------------------------------------- */

/* Memo cells: 0 unknown, else outcome + 2 (1 loss, 2 draw, 3 win). */
typedef struct ciw_ctx {
    unsigned max;
    int64_t target;
    uint8_t *memo;
    gr_budget *b;
} ciw_ctx;

static int64_t ciw_sum(unsigned max, uint32_t mask)
{
    int64_t s = 0;
    for (unsigned k = 1; k <= max; k++)
        if (mask & (UINT32_C(1) << (k - 1)))
            s += k;
    return s;
}

static gr_status ciw_solve(ciw_ctx *c, uint32_t used, int64_t total, int *outcome,
                           unsigned *pick);

/* Outcome for the mover of picking k (unused) at (used, total). */
static gr_status ciw_move(ciw_ctx *c, uint32_t used, int64_t total, unsigned k, int *outcome)
{
    if (total + (int64_t)k >= c->target) {
        *outcome = 1;
        return GR_OK;
    }
    int child;
    gr_status st = ciw_solve(c, used | (UINT32_C(1) << (k - 1)), total + (int64_t)k, &child, NULL);
    *outcome = -child;
    return st;
}

/* Outcome for the mover at (used, total), total < target, and the smallest
 * best pick into *pick when pick is non-NULL (the memo keeps outcomes only,
 * so the caller asks for a pick on a fresh memo). Picks are tried in
 * ascending order and a win ends the search, so the first best is the
 * smallest. With the target within reach every line ends with a winner
 * (all numbers are taken eventually), so draws arise only from the
 * caller's reachability check; a position without moves would be one. */
static gr_status ciw_solve(ciw_ctx *c, uint32_t used, int64_t total, int *outcome,
                           unsigned *pick)
{
    if (c->memo[used] != 0) {
        *outcome = (int)c->memo[used] - 2;
        return GR_OK;
    }
    if (!gr_budget_spend(c->b, c->max))
        return GR_ELIMIT;
    int best = -2;
    unsigned best_k = 0;
    for (unsigned k = 1; k <= c->max && best < 1; k++) {
        if (used & (UINT32_C(1) << (k - 1)))
            continue;
        int v;
        gr_status st = ciw_move(c, used, total, k, &v);
        if (st != GR_OK)
            return st;
        if (v > best) {
            best = v;
            best_k = k;
        }
    }
    if (best_k == 0)
        best = 0; /* no number left: a draw */
    c->memo[used] = (uint8_t)(best + 2);
    *outcome = best;
    if (pick != NULL)
        *pick = best_k;
    return GR_OK;
}

static unsigned smallest_unused(unsigned max, uint32_t used)
{
    for (unsigned k = 1; k <= max; k++)
        if (!(used & (UINT32_C(1) << (k - 1))))
            return k;
    return 0;
}

gr_status gr_can_i_win(unsigned max, uint32_t used, int64_t target, gr_budget *b,
                       int *outcome, unsigned *pick)
{
    if (max > GR_CAN_I_WIN_MAX || (used >> max) != 0)
        return GR_EINVAL;
    uint32_t all = (UINT32_C(1) << max) - 1;
    int64_t total = ciw_sum(max, used);
    if (total >= target) { /* over: the previous mover reached target */
        *outcome = -1;
        *pick = 0;
        return GR_OK;
    }
    if (ciw_sum(max, all) < target) { /* out of reach on every line */
        *outcome = 0;
        *pick = smallest_unused(max, used);
        return GR_OK;
    }
    ciw_ctx c = { max, target, gr_calloc((size_t)all + 1, 1), b };
    if (c.memo == NULL)
        return GR_ENOMEM;
    int o;
    unsigned k;
    gr_status st = ciw_solve(&c, used, total, &o, &k);
    gr_free(c.memo);
    if (st == GR_OK) {
        *outcome = o;
        *pick = k;
    }
    return st;
}
