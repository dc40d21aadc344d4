/* SPDX-License-Identifier: MIT */
/* Strange Nim (remove 1 .. floor(x/k) from a pile of x): values by a block
 * walk of the recurrence in strange.h, moves by lifting the target's first
 * position back up to the options of x.
 *
 * Notation: x = q*k + r with q = floor(x/k), 0 <= r < k; "block q" is the
 * set of x with that q. One step of the recurrence is
 * x -> phi(x) = x - q - 1 (for r != 0).
 *
 * Cost: O(min(x/k, k log(x/k^2) + k)) iterations (gr_strange_step_bound),
 * each one division; about 2 ns each, so ~2 s for the worst x near 10^18
 * (k near 10^9, ~10^9 iterations), which the budget caps.
 *
 * Why no faster method: below q = k, with m = q + 1 and u = k - 1 - r, one
 * iteration stops when (u - k) mod m == m - 1 and otherwise moves to
 * u = (u - k) mod m in a circle of m - 1: exactly one person's place in the
 * Josephus problem with step k, round by round. The q >= k phase matches
 * the "one pass round the circle per iteration" batching of the classical
 * O(k log n) Josephus algorithm. We know of no exact method that skips
 * rounds of that recurrence (this game's link to the Josephus problem:
 * Takahashi, Manabe and Miyadera, "Maximum Nim and Josephus Problem",
 * 2024). */
#include "grundy/strange.h"

#include <stdbool.h>
#include <stddef.h>

#include "grundy/u128.h"

/* ---- division by a fixed divisor ---- */

/* The wide phases divide by the same k (or k - 1) every iteration; a
 * multiply-high by m = floor((2^64 - 1) / k) replaces the hardware divide.
 * With M = 2^64: m > (M - 1 - k) / k, so x m / M > x/k - (1 + k) x / (k M)
 * > x/k - 2, and x m / M < x/k; the estimate is floor(x/k) minus 0, 1 or 2,
 * which the remainder corrects. */
typedef struct fixed_divider {
    uint64_t k, m;
} fixed_divider;

static fixed_divider divider_make(uint64_t k)
{
    fixed_divider dv = { k, UINT64_MAX / k };
    return dv;
}

/* floor(x / k), with x mod k in *rem. */
static uint64_t divider_divmod(const fixed_divider *dv, uint64_t x, uint64_t *rem)
{
    uint64_t q = (uint64_t)(((gr_u128)x * dv->m) >> 64);
    uint64_t r = x - q * dv->k;
    while (r >= dv->k) {
        q++;
        r -= dv->k;
    }
    *rem = r;
    return q;
}

static uint64_t divider_quotient(const fixed_divider *dv, uint64_t x)
{
    uint64_t rem;
    return divider_divmod(dv, x, &rem);
}

/* ---- the value walk ---- */

/* Phase 1, q >= k (x >= k^2): r < k <= q + 1, so one step already leaves
 * the block, and x shrinks below x (k - 1) / k. Stops on a multiple of k
 * (*done, value q) or on entering q < k. */
static gr_status walk_wide_blocks(uint64_t *x, uint64_t k, gr_budget *b, uint64_t *steps,
                                  bool *done, uint64_t *value)
{
    fixed_divider kd = divider_make(k);
    uint64_t r, q = divider_divmod(&kd, *x, &r);
    while (q >= k) {
        if (!gr_budget_spend(b, 1))
            return GR_ELIMIT;
        ++*steps;
        if (r == 0) {
            *done = true;
            *value = q;
            return GR_OK;
        }
        *x -= q + 1; /* x = qk + r >= q + 1 as k >= 1 and r >= 1 */
        q = divider_divmod(&kd, *x, &r);
    }
    return GR_OK;
}

/* Phase 2, q < k: inside block q each step subtracts q + 1 from r, so the
 * walk lands on r mod (q + 1) at once: value q when that is 0, otherwise
 * the next step x = qk + r' - q - 1 with 1 <= r' <= q lands in block q - 1
 * exactly (q < k), at remainder r' + k - q - 1 in [k - q, k - 1]. The block
 * index drops by one per iteration and q == 0 always stops (r mod 1 == 0),
 * so at most q + 1 <= k iterations. */
static gr_status walk_narrow_blocks(uint64_t x, uint64_t k, gr_budget *b, uint64_t *steps,
                                    uint64_t *value)
{
    uint64_t q = x / k, r = x % k;
    for (;;) {
        if (!gr_budget_spend(b, 1))
            return GR_ELIMIT;
        ++*steps;
        if (r > q)
            r %= q + 1;
        if (r == 0) {
            *value = q;
            return GR_OK;
        }
        r += k - q - 1;
        q--;
    }
}

/* g(x) with the iteration count in *steps (on GR_ELIMIT: the iterations
 * completed, one per budget step). */
static gr_status strange_walk(uint64_t x, uint64_t k, gr_budget *b, uint64_t *value,
                              uint64_t *steps)
{
    *steps = 0;
    bool done = false;
    gr_status st = walk_wide_blocks(&x, k, b, steps, &done, value);
    if (st != GR_OK || done)
        return st;
    return walk_narrow_blocks(x, k, b, steps, value);
}

gr_status gr_strange_value(uint64_t x, uint64_t k, gr_budget *b, uint64_t *g, uint64_t *steps)
{
    if (k == 0 || b == NULL || g == NULL)
        return GR_EINVAL;
    uint64_t count, value;
    gr_status st = strange_walk(x, k, b, &value, &count);
    if (steps != NULL)
        *steps = count;
    if (st == GR_OK)
        *g = value;
    return st;
}

/* ---- the documented bound ---- */

/* floor(3y / 8) without overflow. */
static uint64_t three_eighths_floor(uint64_t y)
{
    return (y / 8) * 3 + (y % 8) * 3 / 8;
}

/* Iterations of phase 1 are at most k * h, h the number of times y -> 3y/8
 * (rounded down) takes x below k^2. Proof: each phase-1 iteration maps x
 * to x - floor(x/k) - 1 < x (k - 1) / k, and ((k - 1) / k)^k <= 1/e < 3/8,
 * so k iterations take x below 3/8 of itself; an integer below 3y/8 is at
 * most floor(3y/8), so after j*k phase-1 iterations x <= y_j, and phase 1
 * ends once x < k^2. */
static uint64_t wide_phase_bound(uint64_t x, uint64_t k)
{
    gr_u128 square = (gr_u128)k * k;
    uint64_t shrinks = 0;
    for (uint64_t y = x; (gr_u128)y >= square; y = three_eighths_floor(y))
        shrinks++;
    return shrinks * k; /* shrinks > 0 only when k < 2^32; shrinks <= 46 */
}

/* min(floor(x/k) + 1, k * h + k): the block index strictly drops every
 * iteration and block 0 always stops; and phase 1 takes at most k * h
 * iterations (wide_phase_bound), phase 2 at most k. */
uint64_t gr_strange_step_bound(uint64_t x, uint64_t k)
{
    if (k == 0)
        return 0;
    uint64_t by_blocks = x / k == UINT64_MAX ? UINT64_MAX : x / k + 1;
    uint64_t wide = wide_phase_bound(x, k);
    uint64_t by_phases = wide > UINT64_MAX - k ? UINT64_MAX : wide + k;
    return by_blocks < by_phases ? by_blocks : by_phases;
}

/* ---- moves: lifting the target's orbit ---- */

/* The positions of value t are t*k and its images under
 * lift(p) = p + floor(p / (k - 1)) + 1 (k >= 2), the inverse of phi: lift(p)
 * is the p-th non-multiple of k counted from 0. The move from x goes to the
 * first of them >= lo = x - floor(x/k): some option of x has value t
 * (t < g(x), mex), the orbit increases, so that first one is below x.
 * Every p visited is at most the answer, hence below x: nothing overflows.
 *
 * "Range d" is the set of p with floor(p / (k - 1)) == d; lift adds d + 1
 * inside it. One iteration per range visited.
 *
 * Bound (checked in the tests): the p visited lie in distinct ranges and
 * below x, so at most floor((x - 1) / (k - 1)) + 1 iterations; at most
 * k - 1 of them have d <= k - 2 (narrow strides), and from there on each
 * iteration multiplies p (>= (k - 1)^2) by more than k / (k - 1), so by
 * more than (k / (k - 1))^k >= e > 8/3 every k iterations: at most k * h'
 * more, h' >= 1 the number of times z -> ceil(3z / 8) takes x - 1 to at
 * most (k - 1)^2. */

/* Narrow strides, d <= k - 2: p = d (k - 1) + o with 0 <= o <= k - 2. The
 * range holds p + j (d + 1) up to its end p + room, room = k - 2 - o; as
 * d + 1 <= k - 1, the lift of its last point lands in range d + 1 at offset
 * d - room mod (d + 1). Stops on the answer (*done) or on reaching
 * d == k - 1. */
static gr_status lift_narrow_strides(uint64_t *p, uint64_t k, uint64_t lo, gr_budget *b,
                                     bool *done)
{
    uint64_t d = *p / (k - 1), o = *p % (k - 1);
    while (d <= k - 2) {
        if (!gr_budget_spend(b, 1))
            return GR_ELIMIT;
        uint64_t stride = d + 1, room = k - 2 - o;
        uint64_t rem = room < stride ? room : room % stride;
        uint64_t need = *p >= lo ? 0 : lo - *p;
        if (need <= room - rem) { /* the answer is in this range */
            *p += (need + d) / stride * stride;
            *done = true;
            return GR_OK;
        }
        *p += room - rem + stride;
        o = d - rem;
        d++;
    }
    return GR_OK;
}

/* Wide strides, d >= k - 1: the stride d + 1 exceeds a range's length, so
 * every lift is its own iteration. */
static gr_status lift_wide_strides(uint64_t p, const fixed_divider *km1, uint64_t lo, gr_budget *b,
                                   uint64_t *y)
{
    for (;;) {
        if (!gr_budget_spend(b, 1))
            return GR_ELIMIT;
        if (p >= lo) {
            *y = p;
            return GR_OK;
        }
        p += divider_quotient(km1, p) + 1;
    }
}

/* The first orbit point >= lo from p (k >= 2). */
static gr_status lift_to(uint64_t p, uint64_t k, uint64_t lo, gr_budget *b, uint64_t *y)
{
    bool done = false;
    gr_status st = lift_narrow_strides(&p, k, lo, b, &done);
    if (st != GR_OK)
        return st;
    if (done) {
        *y = p;
        return GR_OK;
    }
    fixed_divider km1 = divider_make(k - 1);
    return lift_wide_strides(p, &km1, lo, b, y);
}

gr_status gr_strange_move(uint64_t x, uint64_t k, uint64_t target, gr_budget *b, uint64_t *take)
{
    if (k == 0 || b == NULL || take == NULL)
        return GR_EINVAL;
    uint64_t value, steps;
    gr_status st = strange_walk(x, k, b, &value, &steps);
    if (st != GR_OK)
        return st;
    if (target >= value)
        return GR_EINVAL;
    if (k == 1) { /* Nim: g(y) = y */
        *take = x - target;
        return GR_OK;
    }
    /* target < g(x) <= floor(x/k) (a value is some later block index), so
     * target * k < x. */
    uint64_t y;
    st = lift_to(target * k, k, x - x / k, b, &y);
    if (st != GR_OK)
        return st;
    *take = x - y;
    return GR_OK;
}
