/* SPDX-License-Identifier: MIT */
/* Fibonacci Nim: Zeckendorf's theorem decides it (Whinihan 1963); Grundy
 * values come from a dynamic program over (m, r). */
#include "grundy/fibonacci.h"
#include "grundy/alloc.h"

#include <stdlib.h>

#include "grundy/u128.h"

/* 1, 2, 3, 5, ..., 12200160415121876738: every Fibonacci number below 2^64
 * (F(2) .. F(93); F(94) exceeds 2^64 - 1). */
#define FIB_COUNT 92

static void fib_fill(uint64_t fib[FIB_COUNT])
{
    fib[0] = 1;
    fib[1] = 2;
    for (size_t i = 2; i < FIB_COUNT; i++)
        fib[i] = fib[i - 1] + fib[i - 2];
}

/* Greedy: take the largest Fibonacci number that fits, repeatedly. After
 * taking F(i) the remainder is below F(i - 1), so terms are non-consecutive;
 * 92 numbers allow at most 46 such terms. */
size_t gr_zeckendorf(uint64_t n, uint64_t terms[GR_ZECKENDORF_MAX_TERMS])
{
    uint64_t fib[FIB_COUNT];
    fib_fill(fib);
    size_t count = 0;
    for (size_t i = FIB_COUNT; i-- > 0 && n > 0;) {
        if (fib[i] <= n) {
            terms[count++] = fib[i];
            n -= fib[i];
        }
    }
    return count;
}

/* The mover wins iff the smallest Zeckendorf term s of n is allowed
 * (s <= q; s <= n always): taking s leaves n - s, whose smallest term is
 * more than twice s, out of the opponent's reach. */
bool gr_fibonacci_move(uint64_t n, uint64_t q, uint64_t *take)
{
    if (n == 0 || q == 0)
        return false;
    uint64_t terms[GR_ZECKENDORF_MAX_TERMS];
    size_t count = gr_zeckendorf(n, terms);
    uint64_t smallest = terms[count - 1];
    if (smallest > q)
        return false;
    *take = smallest;
    return true;
}

/* Row m of g(m, r) for r = 0..m is non-decreasing in r (raising r only adds
 * options) and has few distinct values (below 40 for m <= 20000), so each
 * row is stored as its steps: the r where a new value starts, and that
 * value. Row m occupies steps [row_begin[m], row_begin[m + 1]). */
typedef struct fib_rows {
    uint64_t *step_r;
    uint64_t *step_v;
    size_t count, cap;
    size_t *row_begin;
} fib_rows;

static bool fib_rows_push(fib_rows *rows, uint64_t r, uint64_t v)
{
    if (rows->count == rows->cap) {
        size_t cap = rows->cap ? rows->cap * 2 : 1024;
        uint64_t *nr = gr_realloc(rows->step_r, cap * sizeof *nr);
        if (nr == NULL)
            return false;
        rows->step_r = nr;
        uint64_t *nv = gr_realloc(rows->step_v, cap * sizeof *nv);
        if (nv == NULL)
            return false;
        rows->step_v = nv;
        rows->cap = cap;
    }
    rows->step_r[rows->count] = r;
    rows->step_v[rows->count] = v;
    rows->count++;
    return true;
}

/* g(m, r) for a finished row m and r <= m: the last step starting at or
 * before r (every row's first step starts at r = 0). */
static uint64_t fib_rows_value(const fib_rows *rows, uint64_t m, uint64_t r)
{
    size_t lo = rows->row_begin[m], hi = rows->row_begin[m + 1];
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (rows->step_r[mid] <= r)
            lo = mid;
        else
            hi = mid;
    }
    return rows->step_v[lo];
}

/* Row m for r = 0..r_end: g(m, r) = mex of g(m - t, min(2t, m - t)) over
 * t = 1..r, growing the option set one t at a time. seen[v] == m + 1 marks
 * v as an option value in this row (values are at most m). */
static bool fib_row(fib_rows *rows, uint64_t m, uint64_t r_end, uint64_t *seen)
{
    uint64_t mex = 0;
    rows->row_begin[m] = rows->count;
    if (!fib_rows_push(rows, 0, 0))
        return false;
    for (uint64_t t = 1; t <= r_end; t++) {
        uint64_t rest = m - t;
        uint64_t v = fib_rows_value(rows, rest, 2 * t < rest ? 2 * t : rest);
        seen[v] = m + 1;
        if (v != mex)
            continue;
        while (seen[mex] == m + 1)
            mex++;
        if (!fib_rows_push(rows, t, mex))
            return false;
    }
    rows->row_begin[m + 1] = rows->count;
    return true;
}

/* Paid for in full by the caller; each row ticks the budget so that its
 * deadline stops the work (GR_ELIMIT). */
static gr_status fib_grundy_dp(uint64_t n, uint64_t q, gr_budget *b, uint64_t *g)
{
    if (n > SIZE_MAX / sizeof(uint64_t) - 2)
        return GR_ENOMEM;
    fib_rows rows = { NULL, NULL, 0, 0, NULL };
    rows.row_begin = gr_malloc((size_t)(n + 2) * sizeof(size_t));
    uint64_t *seen = gr_calloc((size_t)n + 2, sizeof(uint64_t));
    gr_status status = (rows.row_begin && seen) ? GR_OK : GR_ENOMEM;
    for (uint64_t m = 0; status == GR_OK && m <= n; m++) {
        if (!gr_budget_tick(b, m + 1))
            status = GR_ELIMIT;
        else if (!fib_row(&rows, m, m < n ? m : q, seen))
            status = GR_ENOMEM;
    }
    if (status == GR_OK)
        *g = fib_rows_value(&rows, n, q);
    gr_free(seen);
    gr_free(rows.row_begin);
    gr_free(rows.step_r);
    gr_free(rows.step_v);
    return status;
}

gr_status gr_fibonacci_grundy(uint64_t n, uint64_t q, gr_budget *b, uint64_t *g)
{
    if (q > n)
        q = n; /* at most n can be taken */
    /* no move: value 0 without a table */
    uint64_t cost = 1;
    if (q > 0) {
        gr_u128 steps = (gr_u128)n * n + 1; /* < 2^128 for any 64-bit n */
        cost = steps > UINT64_MAX ? UINT64_MAX : (uint64_t)steps;
    }
    if (!gr_budget_spend(b, cost))
        return GR_ELIMIT;
    if (q == 0) {
        *g = 0;
        return GR_OK;
    }
    return fib_grundy_dp(n, q, b, g);
}
