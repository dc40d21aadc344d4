/* SPDX-License-Identifier: MIT */
#include "compound.h"

#include <inttypes.h>

#include "heap_sum.h"
#include "sum_why.h"
#include "why.h"

static uint64_t least(const uint64_t *v, size_t n)
{
    uint64_t m = n ? v[0] : 0;
    for (size_t i = 1; i < n; i++)
        if (v[i] < m)
            m = v[i];
    return m;
}

bool gr_selective_plan(gr_compound c, const uint64_t *values, size_t n, bool *moves,
                       uint64_t *target)
{
    uint64_t goal = c == GR_SELECTIVE ? 0 : least(values, n);
    bool win = false;
    for (size_t i = 0; i < n; i++) {
        moves[i] = values[i] != goal;
        target[i] = goal;
        win |= moves[i];
    }
    return win;
}

bool gr_conjunctive_win(const uint64_t *remoteness, size_t n)
{
    return n > 0 && least(remoteness, n) % 2 == 1;
}

static void list_facts(gr_text *t, const uint64_t *v, size_t n)
{
    enum { SHOWN = 12 };
    for (size_t i = 0; i < n && i < SHOWN; i++)
        gr_text_add(t, "%s%" PRIu64, i ? ", " : "", v[i]);
    if (n > SHOWN)
        gr_text_add(t, ", ... (%zu in all)", n);
}

/* The step's exact facts: the per-component facts (the first
 * GR_WHY_LISTED), their least, the outcome and the components a winning
 * move changes. */
static gr_jw_node *compound_step(gr_query *q, const uint64_t *facts, size_t n, bool win, const char *key)
{
    gr_jw_node *step = gr_why_step(q, gr_compound_name(q->compound));
    if (!step)
        return NULL;
    size_t listed = n < GR_WHY_LISTED ? n : GR_WHY_LISTED;
    uint64_t m = least(facts, n);
    gr_jw_u64(step, "components", n);
    gr_jw_u64s(step, key, facts, listed);
    gr_jw_u64(step, "least", m);
    gr_jw_bool(step, "win", win);
    gr_jw_node *moved = gr_jw_array(step, "moved");
    uint64_t goal = q->compound == GR_SELECTIVE ? 0 : m;
    size_t shown = 0;
    for (size_t i = 0; win && moved && i < n && shown < GR_WHY_LISTED; i++) {
        if (q->compound != GR_CONJUNCTIVE && facts[i] == goal)
            continue;
        gr_jw_u64(moved, NULL, i);
        shown++;
    }
    return step;
}

void gr_compound_explain(gr_query *q, const uint64_t *facts, size_t n, const char *what, bool win)
{
    gr_jw_node *step = compound_step(q, facts, n, win, q->compound == GR_CONJUNCTIVE ? "remoteness" : "values");
    if (!step)
        return;
    gr_text t = { .len = 0 };
    uint64_t m = least(facts, n);
    switch (q->compound) {
    case GR_SELECTIVE:
        gr_text_add(&t, "Selective compound: a move changes any non-empty set of %s, so the player "
                    "to move loses exactly when every Grundy value is 0. Values: ", what);
        list_facts(&t, facts, n);
        gr_text_add(&t, win ? ". Move every one of non-zero value to value 0." : ".");
        break;
    case GR_SELECTIVE_PROPER:
        gr_text_add(&t, "Selective compound without the full set: a move changes a non-empty set of "
                    "%s but not all, so the player to move loses exactly when all Grundy values "
                    "are equal. Values: ", what);
        list_facts(&t, facts, n);
        if (win)
            gr_text_add(&t, ". Move every one above the least value %" PRIu64 " down to %" PRIu64 ".",
                        m, m);
        else
            gr_text_add(&t, ".");
        break;
    default:
        gr_text_add(&t, "Conjunctive compound: a move changes every one of the %s and play ends when "
                    "any cannot move, so it is decided by Steinhaus remoteness (odd: a win). "
                    "Remoteness: ", what);
        list_facts(&t, facts, n);
        gr_text_add(&t, "; the least is %" PRIu64 ", %s.", m,
                    win ? "odd: move each by its remoteness rule (to an even remoteness where one "
                          "exists, as quickly as possible; else as slowly as possible)"
                        : "even: the player to move loses");
        break;
    }
    gr_why_say(q, step, "%s", t.buf);
}

/* ---- listing the moves of a compound ---------------------------------------- */

/* The product of (add + counts[i]) over every component; false on overflow. */
static bool product(const gr_compound_walk *w, unsigned add, gr_u128 *out)
{
    gr_u128 p = 1;
    for (size_t i = 0; i < w->n; i++) {
        gr_u128 f = w->counts[i] + add;
        if (f && p > ~(gr_u128)0 / f)
            return false;
        p *= f;
    }
    *out = p;
    return true;
}

bool gr_compound_count(const gr_compound_walk *w, gr_u128 *total)
{
    gr_u128 all, every;
    switch (w->compound) {
    case GR_DISJUNCTIVE:
        *total = 0;
        for (size_t i = 0; i < w->n; i++)
            *total += w->counts[i];
        return true;
    case GR_CONJUNCTIVE:
        return product(w, 0, total);
    case GR_SELECTIVE:
    case GR_SELECTIVE_PROPER:
        break;
    }
    if (!product(w, 1, &all) || !product(w, 0, &every))
        return false;
    *total = all - 1 - (w->compound == GR_SELECTIVE_PROPER && w->n ? every : 0);
    return true;
}

/* Whether the choices are a move of the compound. */
static bool valid(const gr_compound_walk *w)
{
    size_t moved = 0;
    for (size_t i = 0; i < w->n; i++)
        moved += w->choice[i] != 0;
    if (w->compound == GR_CONJUNCTIVE)
        return moved == w->n && w->n;
    return moved && (w->compound == GR_SELECTIVE || moved < w->n);
}

/* The choice tuple of index s in the mixed radix (1 + counts[i]) (or
 * counts[i] for the conjunctive compound, whose choices start at 1). */
static void decode(gr_compound_walk *w, gr_u128 s)
{
    bool conj = w->compound == GR_CONJUNCTIVE;
    for (size_t i = w->n; i-- > 0;) {
        gr_u128 radix = w->counts[i] + (conj ? 0 : 1);
        w->choice[i] = radix ? s % radix + (conj ? 1 : 0) : 0;
        s = radix ? s / radix : 0;
    }
}

/* Selective_proper: the tuples below index s (in the radix 1 + counts)
 * that move every component, which the compound leaves out. */
static gr_u128 every_below(gr_compound_walk *w, gr_u128 s, gr_u128 all, gr_u128 every)
{
    if (s >= all)
        return every;
    decode(w, s);
    gr_u128 below = 0, rest = 1;
    for (size_t i = w->n; i-- > 0;) {
        if (w->choice[i] > 1)
            below = below + (w->choice[i] - 1) * rest;
        else if (w->choice[i] == 0)
            below = 0; /* no tuple moving every component shares a prefix with a 0 */
        rest *= w->counts[i];
    }
    return below;
}

void gr_compound_seek(gr_compound_walk *w, gr_u128 k)
{
    if (w->compound != GR_SELECTIVE_PROPER) {
        decode(w, w->compound == GR_SELECTIVE ? k + 1 : k);
        return;
    }
    /* The least s with (s + 1) - 1 - every_below(s + 1) > k: s is move k. */
    gr_u128 all = 1, every = 1;
    product(w, 1, &all);
    product(w, 0, &every);
    gr_u128 lo = 1, hi = all - 1;
    while (lo < hi) {
        gr_u128 mid = lo + (hi - lo) / 2;
        if (mid - every_below(w, mid + 1, all, every) > k)
            hi = mid;
        else
            lo = mid + 1;
    }
    decode(w, lo);
}

/* Whether every component moves. */
static bool all_move(const gr_compound_walk *w)
{
    for (size_t i = 0; i < w->n; i++)
        if (!w->choice[i])
            return false;
    return true;
}

bool gr_compound_next(gr_compound_walk *w)
{
    gr_u128 first = w->compound == GR_CONJUNCTIVE ? 1 : 0;
    do {
        size_t i = w->n;
        while (i-- > 0 && w->choice[i] == w->counts[i])
            w->choice[i] = first; /* carry into the more significant one */
        if (i == (size_t)-1)
            return false;
        w->choice[i]++;
        /* The proper selective compound leaves out every tuple that moves
         * all components: a whole run of them is skipped at once, so each
         * step costs O(n) however many moves the last component has. */
        if (w->compound == GR_SELECTIVE_PROPER && w->n && all_move(w))
            w->choice[w->n - 1] = w->counts[w->n - 1];
    } while (!valid(w));
    return true;
}
