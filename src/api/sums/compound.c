#include "api/sums/compound.h"

#include <inttypes.h>

#include "api/sums/heap_sum.h"

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

void gr_compound_explain(gr_query *q, const uint64_t *facts, size_t n, const char *what, bool win)
{
    gr_text *t = &q->ans.explanation;
    uint64_t m = least(facts, n);
    switch (q->compound) {
    case GR_SELECTIVE:
        gr_text_add(t, "Selective compound: a move changes any non-empty set of %s, so the player "
                    "to move loses exactly when every Grundy value is 0. Values: ", what);
        list_facts(t, facts, n);
        gr_text_add(t, win ? ". Move every one of non-zero value to value 0." : ".");
        break;
    case GR_SELECTIVE_PROPER:
        gr_text_add(t, "Selective compound without the full set: a move changes a non-empty set of "
                    "%s but not all, so the player to move loses exactly when all Grundy values "
                    "are equal. Values: ", what);
        list_facts(t, facts, n);
        if (win)
            gr_text_add(t, ". Move every one above the least value %" PRIu64 " down to %" PRIu64 ".",
                        m, m);
        else
            gr_text_add(t, ".");
        break;
    default:
        gr_text_add(t, "Conjunctive compound: a move changes every one of the %s and play ends when "
                    "any cannot move, so it is decided by Steinhaus remoteness (odd: a win). "
                    "Remoteness: ", what);
        list_facts(t, facts, n);
        gr_text_add(t, "; the least is %" PRIu64 ", %s.", m,
                    win ? "odd: move each by its remoteness rule (to an even remoteness where one "
                          "exists, as quickly as possible; else as slowly as possible)"
                        : "even: the player to move loses");
        break;
    }
}
