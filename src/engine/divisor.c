/* Divisor game (LeetCode 1025). Parity decides the winner: odd n has only
 * odd divisors, so every move from odd n reaches even n; from even n,
 * taking 1 reaches odd n; n = 1 has no move. */
#include "grundy/divisor.h"

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

/* spf[m] = smallest prime factor of m, for 2 <= m <= n (Eratosthenes). */
static void divisor_sieve(uint32_t *spf, uint64_t n)
{
    for (uint64_t i = 2; i <= n; i++) {
        if (spf[i] != 0)
            continue;
        spf[i] = (uint32_t)i;
        for (uint64_t j = i * i; j <= n; j += i) {
            if (spf[j] == 0)
                spf[j] = (uint32_t)i;
        }
    }
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
static void divisor_values(const uint32_t *spf, uint64_t n, uint16_t *g)
{
    uint32_t divs[DIVISOR_MAX];
    uint32_t seen[DIVISOR_MAX + 1] = { 0 };
    for (uint32_t m = 1; m <= n; m++) {
        size_t count = divisor_list(spf, m, divs);
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
}

gr_status gr_divisor_values(uint64_t n, gr_budget *b, uint16_t *values)
{
    if (n == 0)
        return GR_EINVAL;
    if (!gr_budget_spend(b, divisor_cost(n)))
        return GR_ELIMIT;
    if (n > UINT32_MAX || n > SIZE_MAX / sizeof(uint32_t) - 1)
        return GR_ENOMEM; /* the 32-bit tables cannot be had */
    uint32_t *spf = calloc((size_t)n + 1, sizeof *spf);
    if (!spf)
        return GR_ENOMEM;
    values[0] = 0;
    divisor_sieve(spf, n);
    divisor_values(spf, n, values);
    free(spf);
    return GR_OK;
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
    uint16_t *values = calloc((size_t)n + 1, sizeof *values);
    if (!values)
        return GR_ENOMEM;
    gr_status status = gr_divisor_values(n, b, values);
    if (status == GR_OK)
        *g = values[n];
    free(values);
    return status;
}
