/* SPDX-License-Identifier: MIT */
/* Divisor game (LeetCode 1025). Parity decides the winner: odd n has only
 * odd divisors, so every move from odd n reaches even n; from even n,
 * taking 1 reaches odd n; n = 1 has no move. */
#include "grundy/divisor.h"
#include "grundy/alloc.h"

#include <stdlib.h>

#include "grundy/u128.h"

/* Most divisors of any m < 2^32 (m = 3491888400 has 1920; found by a
 * search over exponent vectors of the primes up to 37). */
#define DIVISOR_MAX 1920

bool gr_divisor_move(uint64_t n, uint64_t *take)
{
    if (n == 0 || n % 2 != 0)
        return false;
    *take = 1;
    return true;
}

/* n * (1 + floor(log2 n)) + 1, saturated: bounds the divisor enumeration
 * sum_{d <= n} n/d <= n * (1 + ln n) plus the sieve. */
static uint64_t divisor_cost(uint64_t n)
{
    uint64_t log2n = 0;
    for (uint64_t v = n; v > 1; v >>= 1)
        log2n++;
    gr_u128 steps = (gr_u128)n * (1 + log2n) + 1;
    return steps > UINT64_MAX ? UINT64_MAX : (uint64_t)steps;
}

/* spf[m] = smallest prime factor of m, for 2 <= m <= n (Eratosthenes).
 * Paid for by the caller; ticks b, whose deadline may stop it (false). */
static bool divisor_sieve(uint32_t *spf, uint64_t n, gr_budget *b)
{
    for (uint64_t i = 2; i <= n; i++) {
        if (!gr_budget_tick(b, 1))
            return false;
        if (spf[i] != 0)
            continue;
        spf[i] = (uint32_t)i;
        for (uint64_t j = i * i; j <= n; j += i) {
            if (spf[j] == 0)
                spf[j] = (uint32_t)i;
        }
        if (!gr_budget_tick(b, i * i <= n ? (n - i * i) / i + 1 : 0))
            return false;
    }
    return true;
}

/* All divisors of m >= 1 (unordered) from its factorisation; returns how many. */
static size_t divisor_list(const uint32_t *spf, uint32_t m, uint32_t divs[DIVISOR_MAX])
{
    size_t count = 1;
    divs[0] = 1;
    while (m > 1) {
        uint32_t p = spf[m];
        size_t base = count;
        uint32_t power = 1;
        while (m % p == 0) {
            m /= p;
            power *= p;
            for (size_t i = 0; i < base; i++)
                divs[count++] = divs[i] * power;
        }
    }
    return count;
}

/* g(m) = mex{ g(m - d) : d | m, d < m }; a value is below the number of
 * options (< DIVISOR_MAX), so uint16_t holds it and seen[] covers it.
 * seen[v] == m marks v as an option value of m. */
static gr_status divisor_values(const uint32_t *spf, uint64_t n, gr_budget *b, uint16_t *g)
{
    uint32_t divs[DIVISOR_MAX];
    uint32_t seen[DIVISOR_MAX + 1] = { 0 };
    for (uint32_t m = 1; m <= n; m++) {
        size_t count = divisor_list(spf, m, divs);
        if (!gr_budget_tick(b, 2 * count + 1)) /* paid by the caller; the deadline may stop it */
            return GR_ELIMIT;
        for (size_t i = 0; i < count; i++) {
            if (divs[i] < m)
                seen[g[m - divs[i]]] = m;
        }
        uint16_t mex = 0;
        while (seen[mex] == m)
            mex++;
        g[m] = mex;
        if (m == UINT32_MAX)
            break;
    }
    return GR_OK;
}

gr_status gr_divisor_values(uint64_t n, gr_budget *b, uint16_t *values)
{
    if (n == 0)
        return GR_EINVAL;
    if (!gr_budget_spend(b, divisor_cost(n)))
        return GR_ELIMIT;
    if (n > UINT32_MAX || n > SIZE_MAX / sizeof(uint32_t) - 1)
        return GR_ENOMEM; /* the 32-bit tables cannot be had */
    uint32_t *spf = gr_calloc((size_t)n + 1, sizeof *spf);
    if (!spf)
        return GR_ENOMEM;
    values[0] = 0;
    gr_status st = divisor_sieve(spf, n, b) ? divisor_values(spf, n, b, values) : GR_ELIMIT;
    gr_free(spf);
    return st;
}

gr_status gr_divisor_grundy(uint64_t n, gr_budget *b, uint64_t *g)
{
    if (n == 0)
        return GR_EINVAL;
    /* the budget decides before memory proportional to n is asked for */
    if (b->left < divisor_cost(n)) {
        b->left = 0; /* as gr_budget_spend does on failure */
        return GR_ELIMIT;
    }
    if (n > UINT32_MAX || n > SIZE_MAX / sizeof(uint16_t) - 1)
        return GR_ENOMEM;
    uint16_t *values = gr_calloc((size_t)n + 1, sizeof *values);
    if (!values)
        return GR_ENOMEM;
    gr_status status = gr_divisor_values(n, b, values);
    if (status == GR_OK)
        *g = values[n];
    gr_free(values);
    return status;
}

/* ---- listing the divisors of any n < 2^64 -------------------------------- */

/* Steps charged to the budget: one per modular multiplication, roughly. */
#define MR_STEPS (12 * 2 * 64)  /* one Miller-Rabin test: 12 bases, 64 squarings and products each */
#define RHO_BATCH 64            /* rho iterations between gcds, as Brent suggests */

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m)
{
    return (uint64_t)((gr_u128)a * b % m);
}

static uint64_t powmod(uint64_t a, uint64_t e, uint64_t m)
{
    uint64_t r = 1 % m;
    for (a %= m; e; e >>= 1, a = mulmod(a, a, m))
        if (e & 1)
            r = mulmod(r, a, m);
    return r;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Miller-Rabin with the first twelve primes as bases: exact for every n
 * below 3.3 * 10^24, so for every n < 2^64. n odd, n > 37. */
static bool is_prime_odd(uint64_t n)
{
    static const uint64_t bases[] = { 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37 };
    uint64_t d = n - 1;
    unsigned s = 0;
    while (!(d & 1)) {
        d >>= 1;
        s++;
    }
    for (size_t i = 0; i < sizeof bases / sizeof *bases; i++) {
        uint64_t x = powmod(bases[i], d, n);
        if (x == 1 || x == n - 1)
            continue;
        unsigned r = 1;
        for (; r < s; r++) {
            x = mulmod(x, x, n);
            if (x == n - 1)
                break;
        }
        if (r == s)
            return false;
    }
    return true;
}

/* A factor of the odd composite n (1 < d <= n; n when this c fails) by
 * Brent's variant of Pollard's rho with f(y) = y^2 + c; GR_ELIMIT when the
 * budget runs out first. */
static gr_status rho_factor(uint64_t n, uint64_t c, gr_budget *b, uint64_t *out)
{
    uint64_t y = 2, x = 2, ys = 2, q = 1, g = 1;
    for (uint64_t r = 1; g == 1; r *= 2) {
        x = y;
        if (!gr_budget_spend(b, r))
            return GR_ELIMIT;
        for (uint64_t i = 0; i < r; i++)
            y = (mulmod(y, y, n) + c) % n;
        for (uint64_t k = 0; k < r && g == 1; k += RHO_BATCH) {
            uint64_t m = r - k < RHO_BATCH ? r - k : RHO_BATCH;
            if (!gr_budget_spend(b, 2 * m + 64))
                return GR_ELIMIT;
            ys = y;
            for (uint64_t i = 0; i < m; i++) {
                y = (mulmod(y, y, n) + c) % n;
                q = mulmod(q, x > y ? x - y : y - x, n);
            }
            g = gcd_u64(q, n);
        }
    }
    if (g == n) {
        /* the batch's product reached 0 mod n: redo it one step at a time;
         * some step of it has a gcd above 1 (n itself when this c fails) */
        do {
            if (!gr_budget_spend(b, 66))
                return GR_ELIMIT;
            ys = (mulmod(ys, ys, n) + c) % n;
            g = gcd_u64(x > ys ? x - ys : ys - x, n);
        } while (g == 1);
    }
    *out = g;
    return GR_OK;
}

typedef struct prime_factors {
    uint64_t p[64]; /* with repetition; n < 2^64 has at most 63 prime factors */
    size_t n;
} prime_factors;

/* The prime factors of m > 1, which has no factor below 64, into f. */
static gr_status factor_large(uint64_t m, gr_budget *b, prime_factors *f)
{
    if (!gr_budget_spend(b, MR_STEPS))
        return GR_ELIMIT;
    if (m < 64 * 64 || is_prime_odd(m)) {
        f->p[f->n++] = m;
        return GR_OK;
    }
    uint64_t d = m;
    for (uint64_t c = 1; d == m; c++) {
        gr_status s = rho_factor(m, c, b, &d);
        if (s != GR_OK)
            return s;
    }
    gr_status s = factor_large(d, b, f);
    return s == GR_OK ? factor_large(m / d, b, f) : s;
}

static gr_status prime_factorise(uint64_t n, gr_budget *b, prime_factors *f)
{
    static const uint64_t small[] = { 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61 };
    f->n = 0;
    if (!gr_budget_spend(b, 64 + sizeof small / sizeof *small))
        return GR_ELIMIT;
    for (size_t i = 0; i < sizeof small / sizeof *small; i++)
        while (n % small[i] == 0) {
            f->p[f->n++] = small[i];
            n /= small[i];
        }
    return n > 1 ? factor_large(n, b, f) : GR_OK;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

gr_status gr_divisor_list(uint64_t n, gr_budget *b, uint64_t **divs, size_t *count)
{
    if (n == 0)
        return GR_EINVAL;
    prime_factors f;
    gr_status s = prime_factorise(n, b, &f);
    if (s != GR_OK)
        return s;
    qsort(f.p, f.n, sizeof *f.p, cmp_u64);
    size_t total = 1;
    for (size_t i = 0, e; i < f.n; i += e) {
        for (e = 1; i + e < f.n && f.p[i + e] == f.p[i]; e++)
            ;
        total *= e + 1;
    }
    /* building and sorting them: about 20 steps a divisor */
    if (!gr_budget_spend(b, 20 * (uint64_t)total))
        return GR_ELIMIT;
    uint64_t *d = gr_malloc(total * sizeof *d);
    if (!d)
        return GR_ENOMEM;
    size_t have = 1;
    d[0] = 1;
    for (size_t i = 0, e; i < f.n; i += e) {
        for (e = 1; i + e < f.n && f.p[i + e] == f.p[i]; e++)
            ;
        size_t base = have;
        uint64_t power = 1;
        for (size_t k = 0; k < e; k++) {
            power *= f.p[i];
            for (size_t j = 0; j < base; j++)
                d[have++] = d[j] * power;
        }
    }
    qsort(d, have, sizeof *d, cmp_u64);
    *divs = d;
    *count = have;
    return GR_OK;
}
