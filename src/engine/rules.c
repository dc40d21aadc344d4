/* SPDX-License-Identifier: MIT */
/* Subtraction games with rule-defined sets: set enumeration, win/loss
 * sweep, Grundy values by mex, and move search.
 *
 * Win/loss: P-positions are sparse for squares, so the sweep visits only
 * them: the least unmarked heap is a P-position (no move reaches an earlier
 * P-position, or it would be marked), and every p + s is marked: element by
 * element for sparse sets (squares, powers of two), or by OR-ing the set's
 * own bitset shifted by p when that takes fewer words than there are
 * elements (primes: ~N / ln N elements against N / 64 words; their
 * P-positions are dense, about 1 in 6, so this is the cost that matters).
 * Grundy: mex with a stamp array (seen[v] == n + 1 means value v is an
 * option of n), so nothing is cleared between heaps. */
#include "grundy/rules.h"
#include "grundy/alloc.h"

#include <stdlib.h>
#include <string.h>

#include "grundy/u128.h"

static const char *const rule_names[GR_RULE_COUNT] = { "squares", "powers_of_two", "primes" };

static bool rule_valid(gr_rule rule)
{
    return (unsigned)rule < GR_RULE_COUNT;
}

const char *gr_rule_name(gr_rule rule)
{
    return rule_valid(rule) ? rule_names[rule] : NULL;
}

gr_status gr_rule_parse(const char *name, gr_rule *rule)
{
    for (unsigned r = 0; name != NULL && r < GR_RULE_COUNT; r++) {
        if (strcmp(name, rule_names[r]) == 0) {
            *rule = (gr_rule)r;
            return GR_OK;
        }
    }
    return GR_EINVAL;
}

/* ---- number theory ------------------------------------------------------ */

/* floor(sqrt(n)) by Newton's method from a power of two above the root. */
static uint64_t isqrt64(uint64_t n)
{
    if (n < 2)
        return n;
    unsigned bits = 64 - (unsigned)__builtin_clzll(n);
    uint64_t r = UINT64_C(1) << ((bits + 1) / 2); /* r > sqrt(n) */
    for (;;) {
        uint64_t y = (r + n / r) / 2;
        if (y >= r)
            return r;
        r = y;
    }
}

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m)
{
    return (uint64_t)((gr_u128)a * b % m);
}

static uint64_t powmod(uint64_t a, uint64_t e, uint64_t m)
{
    uint64_t r = 1 % m;
    a %= m;
    while (e > 0) {
        if (e & 1)
            r = mulmod(r, a, m);
        a = mulmod(a, a, m);
        e >>= 1;
    }
    return r;
}

/* One Miller-Rabin round: false when base a proves odd n > 2 composite. */
static bool mr_round(uint64_t n, uint64_t d, unsigned r, uint64_t a)
{
    uint64_t x = powmod(a, d, n);
    if (x == 1 || x == n - 1 || a % n == 0)
        return true;
    for (unsigned i = 1; i < r; i++) {
        x = mulmod(x, x, n);
        if (x == n - 1)
            return true;
    }
    return false;
}

/* Deterministic for all 64-bit n: bases {2, 7, 61} below 2^32 (Jaeschke),
 * the first twelve primes above (Sorenson and Webster: exact below 3.3e24). */
static bool is_prime64(uint64_t n)
{
    static const uint64_t small[] = { 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37 };
    static const uint64_t bases32[] = { 2, 7, 61 };
    if (n < 2)
        return false;
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
        if (n % small[i] == 0)
            return n == small[i];
    uint64_t d = n - 1;
    unsigned r = 0;
    for (; d % 2 == 0; r++)
        d /= 2;
    const uint64_t *bases = n < (UINT64_C(1) << 32) ? bases32 : small;
    size_t nb = n < (UINT64_C(1) << 32) ? 3 : sizeof small / sizeof small[0];
    for (size_t i = 0; i < nb; i++)
        if (!mr_round(n, d, r, bases[i]))
            return false;
    return true;
}

bool gr_rule_contains(gr_rule rule, uint64_t s)
{
    switch (rule) {
    case GR_RULE_SQUARES: {
        uint64_t r = isqrt64(s);
        return s >= 1 && r * r == s;
    }
    case GR_RULE_POWERS_OF_TWO:
        return s != 0 && (s & (s - 1)) == 0;
    case GR_RULE_PRIMES:
        return is_prime64(s);
    }
    return false;
}

bool gr_rule_next(gr_rule rule, uint64_t after, uint64_t *next)
{
    switch (rule) {
    case GR_RULE_SQUARES: {
        uint64_t k = isqrt64(after) + 1; /* k^2 > after */
        if (k > UINT64_C(0xFFFFFFFF))
            return false;
        *next = k * k;
        return true;
    }
    case GR_RULE_POWERS_OF_TWO: {
        uint64_t p = 1;
        while (p <= after && p < (UINT64_C(1) << 63))
            p <<= 1;
        if (p <= after)
            return false;
        *next = p;
        return true;
    }
    case GR_RULE_PRIMES:
        for (uint64_t c = after < 2 ? 2 : after + 1; c > after; c++)
            if (is_prime64(c)) {
                *next = c;
                return true;
            }
        return false; /* wrapped past 2^64 - 1 */
    }
    return false;
}

/* ---- set enumeration ---------------------------------------------------- */

/* Odd-only sieve: bit i of comp stands for 2i + 1 and is set when composite
 * (or 1). Covers 2i + 1 <= limit; limit >= 3. */
static uint64_t *odd_sieve(uint64_t limit)
{
    uint64_t nbits = (limit - 1) / 2 + 1;
    uint64_t *comp = gr_calloc((size_t)(nbits / 64 + 1), sizeof *comp);
    if (comp == NULL)
        return NULL;
    comp[0] = 1; /* 1 */
    for (uint64_t m = 3; m * m <= limit; m += 2) {
        if (comp[m / 2 / 64] >> (m / 2 % 64) & 1)
            continue;
        for (uint64_t j = m * m; j <= limit; j += 2 * m)
            comp[j / 2 / 64] |= UINT64_C(1) << (j / 2 % 64);
    }
    return comp;
}

static gr_status primes_upto(uint64_t limit, gr_rule_set *out)
{
    if (limit < 3) {
        out->s = gr_malloc(sizeof *out->s);
        if (out->s == NULL)
            return GR_ENOMEM;
        out->s[0] = 2;
        out->count = limit == 2;
        return GR_OK;
    }
    uint64_t *comp = odd_sieve(limit);
    if (comp == NULL)
        return GR_ENOMEM;
    uint64_t nbits = (limit - 1) / 2 + 1, count = 1;
    for (uint64_t i = 0; i < nbits; i++)
        count += !(comp[i / 64] >> (i % 64) & 1);
    out->s = gr_malloc((size_t)count * sizeof *out->s);
    if (out->s != NULL) {
        out->s[0] = 2;
        out->count = 1;
        for (uint64_t i = 1; i < nbits; i++)
            if (!(comp[i / 64] >> (i % 64) & 1))
                out->s[out->count++] = 2 * i + 1;
    }
    gr_free(comp);
    return out->s == NULL ? GR_ENOMEM : GR_OK;
}

/* Squares or powers of two <= limit, by gr_rule_next. */
static gr_status listed_upto(gr_rule rule, uint64_t limit, gr_rule_set *out)
{
    size_t cap = rule == GR_RULE_SQUARES ? (size_t)isqrt64(limit) : 64;
    out->s = gr_malloc((cap > 0 ? cap : 1) * sizeof *out->s);
    if (out->s == NULL)
        return GR_ENOMEM;
    uint64_t s = 0;
    while (gr_rule_next(rule, s, &s) && s <= limit)
        out->s[out->count++] = s;
    return GR_OK;
}

gr_status gr_rule_set_make(gr_rule rule, uint64_t limit, gr_budget *b, gr_rule_set *out)
{
    memset(out, 0, sizeof *out);
    if (!rule_valid(rule) || limit > GR_RULE_MAX_N)
        return GR_EINVAL;
    uint64_t steps = rule == GR_RULE_PRIMES ? limit + 1
                     : rule == GR_RULE_SQUARES ? isqrt64(limit) + 1
                                                : 65;
    if (!gr_budget_spend(b, steps))
        return GR_ELIMIT;
    out->limit = limit;
    gr_status st = rule == GR_RULE_PRIMES ? primes_upto(limit, out) : listed_upto(rule, limit, out);
    if (st != GR_OK)
        gr_rule_set_free(out);
    return st;
}

void gr_rule_set_free(gr_rule_set *set)
{
    gr_free(set->s);
    memset(set, 0, sizeof *set);
}

/* ---- win/loss ------------------------------------------------------------ */

gr_status gr_outcome_bits_get(const gr_outcome_bits *o, uint64_t n, bool *win)
{
    if (n >= o->count)
        return GR_EBOUND;
    *win = o->words[n / 64] >> (n % 64) & 1;
    return GR_OK;
}

void gr_outcome_bits_free(gr_outcome_bits *o)
{
    gr_free(o->owned);
    memset(o, 0, sizeof *o);
}

/* The least clear bit at or after `from` < count among bits 0 .. count - 1,
 * or count when none (the clear bits past count in the last word map to
 * count). */
static uint64_t next_clear(const uint64_t *words, uint64_t from, uint64_t count)
{
    uint64_t w = from / 64;
    uint64_t free_bits = ~words[w] & (~UINT64_C(0) << (from % 64));
    uint64_t nwords = (count + 63) / 64;
    while (free_bits == 0 && ++w < nwords)
        free_bits = ~words[w];
    if (free_bits == 0)
        return count;
    uint64_t n = w * 64 + (uint64_t)__builtin_ctzll(free_bits);
    return n < count ? n : count;
}

/* The set as bits (bit s set for s in set), for dense sets; NULL words
 * when the set is sparse enough that marking element by element is always
 * cheaper (|S| <= words), which also spares the memory. */
typedef struct sweep_set {
    const gr_rule_set *set;
    uint64_t *bits;
} sweep_set;

size_t gr_sorted_count_upto(const uint64_t *s, size_t n, uint64_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* How many elements of the (ascending) set are <= room. */
static size_t count_upto(const gr_rule_set *set, uint64_t room)
{
    return gr_sorted_count_upto(set->s, set->count, room);
}

/* words |= set bits <= room, shifted up by p (word by word; words has a
 * spare word at the end for the carry out of the last one). */
static void mark_shifted(uint64_t *words, uint64_t p, uint64_t room, const uint64_t *bits)
{
    uint64_t q = p / 64, last = room / 64;
    unsigned r = (unsigned)(p % 64);
    for (uint64_t i = 0; i <= last; i++) {
        uint64_t w = bits[i];
        if (i == last && room % 64 != 63)
            w &= (UINT64_C(2) << (room % 64)) - 1;
        words[q + i] |= w << r;
        if (r != 0)
            words[q + i + 1] |= w >> (64 - r);
    }
}

/* Marks p + s for every s in the set with p + s < count, element by element
 * or word by word, whichever is cheaper. Spends first. */
static bool mark_from(uint64_t *words, uint64_t p, uint64_t count, const sweep_set *ss,
                      gr_budget *b)
{
    uint64_t room = count - 1 - p; /* largest s with p + s < count */
    size_t elems = count_upto(ss->set, room);
    uint64_t nwords = room / 64 + 1;
    bool by_words = ss->bits != NULL && nwords < elems;
    if (!gr_budget_spend(b, 1 + (by_words ? nwords : elems)))
        return false;
    if (by_words) {
        mark_shifted(words, p, room, ss->bits);
        return true;
    }
    for (size_t k = 0; k < elems; k++) {
        uint64_t n = p + ss->set->s[k];
        words[n / 64] |= UINT64_C(1) << (n % 64);
    }
    return true;
}

static gr_status sweep(uint64_t *words, uint64_t count, const sweep_set *ss, gr_budget *b,
                       uint64_t *p_count)
{
    uint64_t found = 0;
    for (uint64_t p = next_clear(words, 0, count); p < count; p = next_clear(words, p + 1, count)) {
        found++;
        if (!mark_from(words, p, count, ss, b))
            return GR_ELIMIT;
        if (p == count - 1)
            break;
    }
    *p_count = found;
    return GR_OK;
}

/* Fills ss->bits when the set has more elements than the heaps have words;
 * the words are spent from the budget. */
static gr_status sweep_set_make(const gr_rule_set *set, uint64_t nwords, gr_budget *b,
                                sweep_set *ss)
{
    ss->set = set;
    ss->bits = NULL;
    if (set->count <= nwords)
        return GR_OK;
    if (!gr_budget_spend(b, nwords))
        return GR_ELIMIT;
    ss->bits = gr_calloc((size_t)nwords, sizeof *ss->bits);
    if (ss->bits == NULL)
        return GR_ENOMEM;
    for (size_t k = 0; k < set->count; k++)
        ss->bits[set->s[k] / 64] |= UINT64_C(1) << (set->s[k] % 64);
    return GR_OK;
}

/* The end of a query: frees the set, and buf too unless st is GR_OK (the
 * result then owns it); returns st. */
static gr_status query_end(gr_status st, gr_rule_set *set, void *buf)
{
    gr_rule_set_free(set);
    if (st != GR_OK)
        gr_free(buf);
    return st;
}

gr_status gr_rule_outcomes(gr_rule rule, uint64_t n_max, gr_budget *b, gr_outcome_bits *out)
{
    memset(out, 0, sizeof *out);
    if (!rule_valid(rule) || n_max > GR_RULE_MAX_N)
        return GR_EINVAL;
    uint64_t count = n_max + 1, nwords = (count + 63) / 64;
    if (!gr_budget_spend(b, nwords))
        return GR_ELIMIT;
    gr_rule_set set;
    gr_status st = gr_rule_set_make(rule, n_max, b, &set);
    if (st != GR_OK)
        return st;
    sweep_set ss;
    st = sweep_set_make(&set, nwords, b, &ss);
    uint64_t *words = st == GR_OK ? gr_calloc((size_t)nwords + 1, sizeof *words) : NULL;
    uint64_t p_count = 0;
    if (st == GR_OK)
        st = words == NULL ? GR_ENOMEM : sweep(words, count, &ss, b, &p_count);
    gr_free(ss.bits);
    if (query_end(st, &set, words) == GR_OK)
        *out = (gr_outcome_bits){ .words = words, .count = count, .p_count = p_count,
                                  .owned = words };
    return st;
}

/* ---- Grundy values ----------------------------------------------------- */

/* g(n) by mex over s in set with s <= n (the set ascending). seen has
 * nseen entries; values >= nseen cannot matter (the mex is at most the
 * number of options, and nseen > that). */
static uint16_t mex_at(const uint16_t *g, uint64_t n, const gr_rule_set *set, size_t opts,
                       uint64_t *seen, size_t nseen)
{
    for (size_t k = 0; k < opts; k++) {
        uint16_t v = g[n - set->s[k]];
        if (v < nseen)
            seen[v] = n + 1;
    }
    size_t m = 0;
    while (m < nseen && seen[m] == n + 1)
        m++;
    return (uint16_t)(m < UINT16_MAX ? m : UINT16_MAX);
}

static gr_status grundy_fill(uint16_t *g, uint64_t count, const gr_rule_set *set, gr_budget *b,
                             uint16_t *max_value)
{
    size_t nseen = set->count + 1; /* mex <= options <= set->count */
    if (nseen > UINT16_MAX)
        nseen = UINT16_MAX; /* a mex of 65535 or more is GR_ERANGE anyway */
    uint64_t *seen = gr_calloc(nseen, sizeof *seen);
    if (seen == NULL)
        return GR_ENOMEM;
    size_t opts = 0;
    uint16_t top = 0;
    gr_status st = GR_OK;
    for (uint64_t n = 0; n < count && st == GR_OK; n++) {
        while (opts < set->count && set->s[opts] <= n)
            opts++;
        if (!gr_budget_spend(b, 1 + opts)) {
            st = GR_ELIMIT;
            break;
        }
        g[n] = mex_at(g, n, set, opts, seen, nseen);
        if (g[n] == UINT16_MAX)
            st = GR_ERANGE;
        top = g[n] > top ? g[n] : top;
    }
    gr_free(seen);
    *max_value = top;
    return st;
}

gr_status gr_rule_grundy(gr_rule rule, uint64_t n_max, gr_budget *b, gr_seq *out)
{
    memset(out, 0, sizeof *out);
    if (!rule_valid(rule) || n_max > GR_RULE_MAX_N)
        return GR_EINVAL;
    uint64_t count = n_max + 1;
    gr_rule_set set;
    gr_status st = gr_rule_set_make(rule, n_max, b, &set);
    if (st != GR_OK)
        return st;
    uint16_t *g = gr_malloc((size_t)count * sizeof *g);
    uint16_t top = 0;
    st = g == NULL ? GR_ENOMEM : grundy_fill(g, count, &set, b, &top);
    if (query_end(st, &set, g) == GR_OK)
        *out = (gr_seq){ .values = g, .count = count, .max_value = top, .owned = g };
    return st;
}

/* ---- moves --------------------------------------------------------------- */

gr_status gr_rule_move_grundy(gr_rule rule, const gr_seq *g, uint64_t n, uint16_t target,
                              gr_budget *b, uint64_t *take)
{
    uint16_t v;
    if (!rule_valid(rule))
        return GR_EINVAL;
    if (gr_seq_value(g, n, &v) != GR_OK)
        return GR_EBOUND;
    uint64_t s = 0;
    while (gr_rule_next(rule, s, &s) && s <= n) {
        if (!gr_budget_spend(b, 1))
            return GR_ELIMIT;
        if (gr_seq_value(g, n - s, &v) == GR_OK && v == target) {
            *take = s;
            return GR_OK;
        }
    }
    return GR_EINVAL;
}

gr_status gr_rule_move_win(gr_rule rule, const gr_outcome_bits *o, uint64_t n, gr_budget *b,
                           uint64_t *take)
{
    bool win;
    if (!rule_valid(rule))
        return GR_EINVAL;
    if (gr_outcome_bits_get(o, n, &win) != GR_OK)
        return GR_EBOUND;
    if (!win)
        return GR_EINVAL;
    uint64_t s = 0;
    while (gr_rule_next(rule, s, &s) && s <= n) {
        if (!gr_budget_spend(b, 1))
            return GR_ELIMIT;
        if (gr_outcome_bits_get(o, n - s, &win) == GR_OK && !win) {
            *take = s;
            return GR_OK;
        }
    }
    return GR_EINVAL;
}
