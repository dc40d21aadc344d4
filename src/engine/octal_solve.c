/* SPDX-License-Identifier: MIT */
/* Octal games: values until a certified period (octal.h).
 *
 * Values come one at a time from octal_values.c. Every time the count
 * doubles or the range of values grows, the solver chooses how the split
 * tables are filled: plain, or rare/common when a mask found by a
 * Walsh-Hadamard transform of the value counts makes at most 1/8 of the
 * positions rare (both give the same values).
 *
 * Periods. The certificate (octal_period.c) is checked at checkpoints,
 * every N / 16 values (each check costs about N comparisons), rather than
 * after every value; when it holds, the count is cut back to the least N
 * at which it held, so the result is the one a check after every value
 * gives.
 *
 * Budget. Each value is charged, before it is computed, what the plain
 * method charged: one step per option plus count + 1 for the period
 * bookkeeping (step_cost). The work done is less, never more in total, so
 * a budget buys exactly the values it used to, and the status, the values
 * and the budget left are those of the plain method (values computed past
 * the certificate, up to the checkpoint, are not charged). */
#include "grundy/octal.h"
#include "grundy/alloc.h"

#include <stdlib.h>
#include <string.h>

#include "octal_solver.h"
#include "rare_mask.h"

#define FIRST_MASK_CHECK 64u   /* first count at which the mode and mask are chosen */
#define SPARSE_MIN_COUNT 256u  /* rare/common only from this many values on */
#define SPARSE_MAX_RARE_PER_64 8u /* ... and only while rare positions are at most 8/64 */

static void solver_free(octal_solver *sv)
{
    gr_free(sv->g);
    gr_free(sv->tally);
    gr_free(sv->hmark);
    for (unsigned i = 0; i < RING; i++)
        gr_free(sv->table[i]);
    gr_free(sv->rare_pos);
    gr_free(sv->rare_val);
    gr_free(sv->common16);
    gr_free(sv->want);
}

/* Rebuilds range, top and the common-value bits below top; needed
 * whenever the mask or the range changes. */
static void classify_values(octal_solver *sv)
{
    unsigned r = power_of_two_above(sv->max_value > sv->mask ? sv->max_value : sv->mask);
    sv->range = r;
    sv->top = 2 * r < VALUE_SPACE ? 2 * r : VALUE_SPACE;
    for (unsigned v0 = 0; v0 < sv->top; v0 += 16) {
        unsigned bits = 0;
        for (unsigned j = 0; j < 16; j++)
            bits |= (unsigned)!is_rare(v0 + j, sv->mask) << j;
        sv->common16[v0 / 16] = (uint16_t)bits;
    }
}

static gr_status solver_init(octal_solver *sv, const gr_octal_code *code)
{
    memset(sv, 0, sizeof *sv);
    sv->code = code;
    sv->t = code->t;
    for (unsigned k = 0; k <= code->t; k++)
        if (code->digit[k] & 4)
            sv->split_k[sv->nsplit++] = k;
    sv->mode = MODE_PLAIN;
    sv->mask = 1;
    sv->next_check = FIRST_MASK_CHECK;
    sv->range_seen = 1;
    sv->tally = gr_calloc(VALUE_SPACE, sizeof *sv->tally);
    sv->hmark = gr_calloc(VALUE_SPACE, sizeof *sv->hmark);
    sv->common16 = gr_malloc(VALUE_SPACE / 16 * sizeof *sv->common16);
    sv->want = gr_malloc(VALUE_SPACE * sizeof *sv->want);
    bool ok = sv->tally && sv->hmark && sv->common16 && sv->want;
    for (unsigned i = 0; i < RING && ok && sv->nsplit > 0; i++) {
        sv->table[i] = gr_calloc(VALUE_SPACE, sizeof *sv->table[i]);
        ok = sv->table[i] != NULL;
    }
    if (!ok)
        return GR_ENOMEM;
    classify_values(sv);
    return GR_OK;
}

static gr_status solver_reserve(octal_solver *sv)
{
    if (sv->count < sv->cap)
        return GR_OK;
    uint64_t cap = sv->cap ? 2 * sv->cap : 1024;
    if (cap > SIZE_MAX / sizeof *sv->g)
        return GR_ENOMEM;
    uint16_t *g = gr_realloc(sv->g, (size_t)cap * sizeof *g);
    if (g == NULL)
        return GR_ENOMEM;
    sv->g = g;
    sv->cap = cap;
    return GR_OK;
}

static gr_status rare_push(octal_solver *sv, uint64_t pos)
{
    if (sv->nrare == sv->rare_cap) {
        size_t cap = sv->rare_cap ? 2 * sv->rare_cap : 256;
        uint64_t *r = gr_realloc(sv->rare_pos, cap * sizeof *r);
        if (r != NULL)
            sv->rare_pos = r;
        uint16_t *rv = gr_realloc(sv->rare_val, cap * sizeof *rv);
        if (rv != NULL)
            sv->rare_val = rv;
        if (r == NULL || rv == NULL)
            return GR_ENOMEM;
        sv->rare_cap = cap;
    }
    sv->rare_pos[sv->nrare] = pos;
    sv->rare_val[sv->nrare++] = sv->g[pos];
    return GR_OK;
}

/* ---- the charge for a value ---- */

/* The budget charged for value n: one step per option (every split of
 * every splitting digit) plus n + 1 for the period bookkeeping, before the
 * value is computed. This is what the plain method did and charged; the
 * solver does less (tables shared between digits, rare/common, checkpoints)
 * but charges the same, so a budget buys exactly the values it used to. */
static uint64_t step_cost(const gr_octal_code *code, uint64_t n)
{
    uint64_t cost = code->t + n + 1;
    for (unsigned k = 0; k <= code->t; k++)
        if ((code->digit[k] & 4) && n >= k + 2)
            cost += (n - k) / 2;
    return cost;
}

/* ---- mode and mask ---- */

/* Smallest power of two above every value seen. */
static unsigned value_range(const octal_solver *sv)
{
    return power_of_two_above(sv->max_value);
}

/* Chooses between the plain mex and rare/common (with the best mask) when
 * the count doubles or the value range grows. Values are the same either
 * way; only the speed differs. */
static gr_status choose_mode(octal_solver *sv)
{
    if (!rare_mask_due(sv->count, FIRST_MASK_CHECK, value_range(sv), &sv->next_check,
                       &sv->range_seen) ||
        sv->nsplit == 0)
        return GR_OK;
    /* The mask m != 0 with the fewest rare positions so far, and how many
     * (Walsh-Hadamard transform of the tally: rare_mask.c). */
    unsigned mask;
    uint64_t rare;
    gr_status st = gr_rare_mask_best(sv->tally, value_range(sv), &mask, &rare);
    if (st != GR_OK)
        return st;
    /* Rare/common pays when rare positions are few and the scans short;
     * when a stretch in it cost more than 3/4 of what the plain way would
     * have, the next stretch (twice as long) goes the plain way, and the
     * one after tries again. */
    bool lost = sv->mode == MODE_SPARSE && 4 * sv->work_sparse > 3 * sv->work_plain;
    bool retry = !sv->sparse_lost;
    sv->sparse_lost = lost;
    sv->work_sparse = sv->work_plain = 0;
    value_mode mode = sv->count >= SPARSE_MIN_COUNT && !lost && retry &&
                              64 * rare <= SPARSE_MAX_RARE_PER_64 * sv->count
                          ? MODE_SPARSE : MODE_PLAIN;
    if (mode == sv->mode && (mode == MODE_PLAIN || mask == sv->mask))
        return GR_OK;
    sv->mode = mode;
    sv->mask = mask;
    classify_values(sv);
    for (unsigned i = 0; i < RING; i++)
        sv->slot_valid[i] = false;
    sv->nrare = 0;
    for (uint64_t pos = 1; mode == MODE_SPARSE && pos < sv->count && st == GR_OK; pos++)
        if (is_rare(sv->g[pos], mask))
            st = rare_push(sv, pos);
    return st;
}

static gr_status append_value(octal_solver *sv, uint16_t v)
{
    uint64_t n = sv->count;
    sv->g[n] = v;
    sv->count = n + 1;
    sv->tally[v]++;
    if (v > sv->max_value) {
        sv->max_value = v;
        if (v >= sv->range)
            classify_values(sv);
    }
    if (sv->mode == MODE_SPARSE && n >= 1 && is_rare(v, sv->mask))
        return rare_push(sv, n);
    return GR_OK;
}

/* ---- periods ---- */

/* Checks the certificate at the current count; on success trims the count
 * to where the certificate first held. */
static bool certify(octal_solver *sv, uint64_t *pre, uint64_t *period)
{
    if (!octal_find_period(sv->g, sv->count, sv->t, pre, period))
        return false;
    uint64_t first = octal_first_certified_count(*pre, *period, sv->t);
    if (first < sv->count)
        sv->count = first;
    return true;
}

static uint16_t max_of(const uint16_t *v, uint64_t count)
{
    uint16_t mx = 0;
    for (uint64_t i = 0; i < count; i++)
        if (v[i] > mx)
            mx = v[i];
    return mx;
}

static void solver_emit(octal_solver *sv, gr_seq *out)
{
    uint16_t *v = sv->g;
    if (sv->count > 0) {
        uint16_t *shrunk = gr_realloc(v, (size_t)sv->count * sizeof *v);
        if (shrunk != NULL)
            v = shrunk;
    }
    sv->g = NULL;
    out->values = v;
    out->owned = v;
    out->count = sv->count;
    out->max_value = max_of(v, sv->count);
}

/* Computes one more value, paying first what the plain method would have
 * cost (step_cost). */
static gr_status solver_step(octal_solver *sv, gr_budget *b)
{
    if (!gr_budget_spend(b, step_cost(sv->code, sv->count)))
        return GR_ELIMIT;
    gr_status st = solver_reserve(sv);
    uint16_t v = 0;
    if (st == GR_OK)
        st = octal_next_value(sv, &v);
    if (st == GR_OK)
        st = append_value(sv, v);
    if (st == GR_OK)
        st = choose_mode(sv);
    return st;
}

gr_status gr_octal_solve(const gr_octal_code *code, uint64_t need, uint64_t max_values,
                         gr_budget *b, gr_seq *out)
{
    memset(out, 0, sizeof *out);
    if (!octal_code_valid(code))
        return GR_EINVAL;
    octal_solver sv;
    gr_status st = solver_init(&sv, code);
    uint64_t budget_at_start = b->left;
    bool periodic = false;
    uint64_t pre = 0, period = 0;
    uint64_t next_certify = 1, certified_at = 0;
    while (st == GR_OK && !periodic && sv.count < max_values) {
        st = solver_step(&sv, b);
        if (st == GR_OK && (sv.count >= next_certify || sv.count == max_values)) {
            /* Checkpoints every count / 16 values: the certificate first
             * holds at N0 (octal_first_certified_count), found here at most N0 / 16 values
             * later, and the count is trimmed back to N0. */
            next_certify = sv.count + (sv.count / 16 > 0 ? sv.count / 16 : 1);
            certified_at = sv.count;
            periodic = certify(&sv, &pre, &period);
        }
    }
    /* Stopped between checkpoints (budget, or memory for values past the
     * certificate): the certificate may already hold. */
    if ((st == GR_ELIMIT || st == GR_ENOMEM) && sv.count > certified_at)
        periodic = certify(&sv, &pre, &period);
    if (periodic) {
        /* Charged as if values had stopped where the certificate first
         * held: the values computed past it, up to the checkpoint, are not
         * charged, and a budget that ran out there has not. */
        uint64_t spent = 0;
        for (uint64_t n = 0; n < sv.count; n++)
            spent += step_cost(code, n);
        b->left = budget_at_start - spent;
        st = GR_OK;
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
