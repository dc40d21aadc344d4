/* Octal games: parsing, values by mex, certified periods, and moves.
 *
 * Period detection is incremental. For every candidate period p the solver
 * keeps first_ok[p] = 1 + the last index i with g(i) != g(i + p) among the
 * known values (0 when there is none): the least preperiod p can have. After
 * each value it looks for the least p whose (first_ok[p], p) passes the
 * certificate in octal.h, read conservatively: with count values known,
 * g(n + p) = g(n) for first_ok[p] <= n < count - p, and
 * count - p >= max(2 s + 2p + t - 1, p + t + 1). */
#include "grundy/octal.h"

#include <stdlib.h>
#include <string.h>

#define VALUE_LIMIT 65535u     /* values must stay below this */
#define SEEN_SIZE (65536u + 1) /* every XOR of two values, plus a sentinel */

/* ---- parsing and formatting ---- */

gr_status gr_octal_parse(const char *text, gr_octal_code *code)
{
    if (text == NULL || code == NULL)
        return GR_EINVAL;
    gr_octal_code c;
    memset(&c, 0, sizeof c);
    if (text[0] != '0' || text[1] != '.')
        return GR_EINVAL;
    unsigned k = 0;
    for (const char *p = text + 2; *p != '\0'; p++) {
        if (*p < '0' || *p > '7' || k == GR_OCTAL_MAX_DIGITS)
            return GR_EINVAL;
        c.digit[++k] = (uint8_t)(*p - '0');
        if (c.digit[k] != 0)
            c.t = k;
    }
    if (c.t == 0) /* no digits, or all zero */
        return GR_EINVAL;
    *code = c;
    return GR_OK;
}

void gr_octal_format(const gr_octal_code *code, char buf[16])
{
    size_t i = 0;
    buf[i++] = '0';
    buf[i++] = '.';
    for (unsigned k = 1; k <= code->t && k <= GR_OCTAL_MAX_DIGITS; k++)
        buf[i++] = (char)('0' + (code->digit[k] & 7));
    buf[i] = '\0';
}

static bool code_valid(const gr_octal_code *code)
{
    if (code == NULL || code->t < 1 || code->t > GR_OCTAL_MAX_DIGITS)
        return false;
    if (code->digit[0] != 0 || code->digit[code->t] == 0)
        return false;
    for (unsigned k = 1; k <= GR_OCTAL_MAX_DIGITS; k++)
        if (code->digit[k] > 7 || (k > code->t && code->digit[k] != 0))
            return false;
    return true;
}

/* ---- values ---- */

/* Steps needed to compute g(n): one per option. */
static uint64_t value_cost(const gr_octal_code *code, uint64_t n)
{
    uint64_t cost = code->t;
    for (unsigned k = 1; k <= code->t; k++)
        if ((code->digit[k] & 4) && n >= k + 2)
            cost += (n - k) / 2;
    return cost;
}

/* g(n) by mex over all options; g[0 .. n) known. `seen` (SEEN_SIZE entries)
 * is stamped with n + 1, so it never needs clearing. */
static gr_status octal_value(const gr_octal_code *code, const uint16_t *g, uint64_t n,
                             uint64_t *seen, uint16_t *value)
{
    uint64_t stamp = n + 1;
    for (unsigned k = 1; k <= code->t; k++) {
        unsigned d = code->digit[k];
        if ((d & 1) && n == k)
            seen[0] = stamp;
        if ((d & 2) && n > k)
            seen[g[n - k]] = stamp;
        if ((d & 4) && n >= k + 2) {
            uint64_t rest = n - k;
            for (uint64_t a = 1; a <= rest / 2; a++)
                seen[g[a] ^ g[rest - a]] = stamp;
        }
    }
    uint64_t mex = 0;
    while (seen[mex] == stamp)
        mex++;
    if (mex >= VALUE_LIMIT)
        return GR_ERANGE;
    *value = (uint16_t)mex;
    return GR_OK;
}

/* ---- the solver ---- */

typedef struct octal_solver {
    const gr_octal_code *code;
    uint16_t *g;        /* g[0 .. count) */
    uint64_t *first_ok; /* first_ok[p] for 1 <= p < count */
    uint64_t count, cap;
    uint64_t *seen;
} octal_solver;

static void solver_free(octal_solver *sv)
{
    free(sv->g);
    free(sv->first_ok);
    free(sv->seen);
}

static gr_status solver_reserve(octal_solver *sv)
{
    if (sv->count < sv->cap)
        return GR_OK;
    uint64_t cap = sv->cap ? 2 * sv->cap : 1024;
    if (cap > SIZE_MAX / sizeof(uint64_t))
        return GR_ENOMEM;
    uint16_t *g = realloc(sv->g, (size_t)cap * sizeof *g);
    if (g == NULL)
        return GR_ENOMEM;
    sv->g = g;
    uint64_t *f = realloc(sv->first_ok, (size_t)cap * sizeof *f);
    if (f == NULL)
        return GR_ENOMEM;
    sv->first_ok = f;
    sv->cap = cap;
    return GR_OK;
}

/* Appends g(n), n = count, and records new mismatches g(n - p) != g(n). */
static void solver_append(octal_solver *sv, uint16_t v)
{
    uint64_t n = sv->count;
    sv->g[n] = v;
    sv->first_ok[n] = 0; /* candidate p = n: no pair compared yet */
    for (uint64_t p = 1; p < n; p++)
        if (sv->g[n - p] != v)
            sv->first_ok[p] = n - p + 1;
    if (n >= 1 && sv->g[0] != v)
        sv->first_ok[n] = 1;
    sv->count = n + 1;
}

/* The certificate for (s, p) with `count` values known (see the top). */
static bool certified(uint64_t count, uint64_t s, uint64_t p, unsigned t)
{
    uint64_t span = count - p; /* pairs (n, n + p) compared: n < span */
    uint64_t a = 2 * s + 2 * p + t - 1, b = p + t + 1;
    return span >= a && span >= b;
}

/* Looks for the least certified p; then reduces it to the least period,
 * the least d dividing p with first_ok[d] <= first_ok[p] (every eventual
 * period is a multiple of the least one, and both share the preperiod). */
static bool find_period(const octal_solver *sv, uint64_t *pre, uint64_t *period)
{
    unsigned t = sv->code->t;
    for (uint64_t p = 1; 3 * p <= sv->count; p++) {
        uint64_t s = sv->first_ok[p];
        if (!certified(sv->count, s, p, t))
            continue;
        uint64_t d = 1;
        while (p % d != 0 || sv->first_ok[d] > s)
            d++;
        *pre = s;
        *period = d;
        return true;
    }
    return false;
}

static uint16_t max_of(const uint16_t *v, uint64_t count)
{
    uint16_t mx = 0;
    for (uint64_t i = 0; i < count; i++)
        if (v[i] > mx)
            mx = v[i];
    return mx;
}

/* Computes one more value, spending its options and the period bookkeeping. */
static gr_status solver_step(octal_solver *sv, gr_budget *b)
{
    uint64_t n = sv->count;
    if (!gr_budget_spend(b, value_cost(sv->code, n) + n + 1))
        return GR_ELIMIT;
    gr_status st = solver_reserve(sv);
    uint16_t v = 0;
    if (st == GR_OK)
        st = octal_value(sv->code, sv->g, n, sv->seen, &v);
    if (st == GR_OK)
        solver_append(sv, v);
    return st;
}

static void solver_emit(octal_solver *sv, gr_seq *out)
{
    uint16_t *v = sv->g;
    uint16_t *shrunk = realloc(v, (size_t)sv->count * sizeof *v);
    if (shrunk != NULL)
        v = shrunk;
    sv->g = NULL;
    out->values = v;
    out->owned = v;
    out->count = sv->count;
    out->max_value = max_of(v, sv->count);
}

gr_status gr_octal_solve(const gr_octal_code *code, uint64_t need, uint64_t max_values,
                         gr_budget *b, gr_seq *out)
{
    memset(out, 0, sizeof *out);
    if (!code_valid(code))
        return GR_EINVAL;
    octal_solver sv;
    memset(&sv, 0, sizeof sv);
    sv.code = code;
    sv.seen = calloc(SEEN_SIZE, sizeof *sv.seen);
    gr_status st = sv.seen ? GR_OK : GR_ENOMEM;
    bool periodic = false;
    uint64_t pre = 0, period = 0;
    while (st == GR_OK && !periodic && sv.count < max_values) {
        st = solver_step(&sv, b);
        if (st == GR_OK)
            periodic = find_period(&sv, &pre, &period);
    }
    if (periodic) {
        out->periodic = true;
        out->preperiod = pre;
        out->period = period;
    } else if (st == GR_OK || st == GR_ELIMIT) {
        if (need < sv.count)
            st = GR_OK;
        else if (st == GR_OK)
            st = GR_EBOUND; /* max_values reached */
    }
    if (st == GR_OK)
        solver_emit(&sv, out);
    solver_free(&sv);
    return st;
}

/* ---- moves ---- */

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
    if (!code_valid(code) || s == NULL || move == NULL)
        return GR_EINVAL;
    if (n >= s->count && !s->periodic)
        return GR_EBOUND;
    for (unsigned k = 1; k <= code->t; k++) {
        gr_status st = move_removing(code, s, n, k, target, move);
        if (st != GR_EINVAL)
            return st;
    }
    return GR_EINVAL;
}
