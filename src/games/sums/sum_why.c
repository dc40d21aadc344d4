/* SPDX-License-Identifier: MIT */
#include "sum_why.h"

#include <inttypes.h>

#include "why.h"

unsigned gr_high_bit(uint64_t x)
{
    return 63u - (unsigned)__builtin_clzll(x | 1);
}

/* Binary digits needed for the largest of values and x (at least one). */
static unsigned width_of(const uint64_t *values, size_t n, uint64_t x)
{
    uint64_t all = x;
    for (size_t i = 0; i < n; i++)
        all |= values[i];
    return all ? gr_high_bit(all) + 1 : 1;
}

/* The values in binary, one string each, all of one width, so that a
 * client draws the columns by stacking them. */
static void add_binary(gr_jw_node *step, const uint64_t *values, size_t listed, unsigned width)
{
    gr_jw_node *binary = gr_jw_array(step, "binary");
    for (size_t i = 0; binary && i < listed; i++) {
        char digits[65];
        gr_jw_ascii(binary, NULL, digits, gr_why_binary(values[i], width, digits));
    }
}

/* "011 ^ 100 ^ 101" for the first few values: the sentences of an answer
 * share one explanation of bounded length, so each stays short. */
enum { SHOWN = 4, SHOWN_WIDTH = 16 };

static void sentence_terms(gr_text *t, const uint64_t *values, size_t n, unsigned width, bool binary)
{
    for (size_t i = 0; i < n && i < SHOWN; i++) {
        char digits[65];
        gr_why_binary(values[i], width, digits);
        if (binary)
            gr_text_add(t, "%s%s", i ? " ^ " : "", digits);
        else
            gr_text_add(t, "%s%" PRIu64, i ? " ^ " : "", values[i]);
    }
    if (n > SHOWN)
        gr_text_add(t, " ^ ... (%zu values)", n);
}

void gr_why_nim_sum(gr_query *q, const uint64_t *values, size_t n, uint64_t x, const char *what)
{
    gr_jw_node *step = gr_why_step(q, "nim_sum");
    if (!step)
        return;
    size_t listed = n < GR_WHY_LISTED ? n : GR_WHY_LISTED;
    unsigned width = width_of(values, n, x);
    gr_jw_str(step, "name", what);
    if (listed < n)
        gr_jw_u64(step, "components", n);
    add_binary(step, values, listed, width);
    char xs[65];
    gr_jw_ascii(step, "nim_sum_binary", xs, gr_why_binary(x, width, xs));
    if (n == 0) {
        gr_why_say(q, step, "No %ss: the nim-sum is 0, and the player to move loses.", what);
        return;
    }
    if (n == 1) {
        gr_why_say(q, step, "One %s alone: the nim-sum is its value, %" PRIu64 "%s", what, x,
                   x ? ": non-zero, the player to move wins by making it 0."
                     : ": zero, every move makes it non-zero and the player to move loses.");
        return;
    }
    gr_text t = { .len = 0 };
    if (width <= SHOWN_WIDTH && n <= SHOWN) {
        gr_text_add(&t, "Nim-sum, column by column (a bit is 1 when an odd number of %ss have it): ", what);
        if (width > 1) {
            sentence_terms(&t, values, n, width, true);
            gr_text_add(&t, " = %s, so ", xs);
        }
        sentence_terms(&t, values, n, width, false);
        gr_text_add(&t, " = %" PRIu64, x);
    } else {
        gr_text_add(&t, "The nim-sum of the %zu %ss' values is %" PRIu64, n, what, x);
    }
    gr_why_say(q, step, "%s%s", t.buf,
               x ? ": non-zero, the player to move wins by making it 0."
                 : ": zero, every move makes it non-zero and the player to move loses.");
}

void gr_why_target(gr_query *q, size_t i, uint64_t value, uint64_t x, const char *what)
{
    gr_jw_node *step = gr_why_step(q, "target");
    if (!step)
        return;
    unsigned b = gr_high_bit(x);
    uint64_t to = value ^ x;
    gr_jw_u64(step, "component", i);
    gr_jw_u64(step, "high_bit", b);
    gr_jw_u64(step, "to", to);
    gr_why_say(q, step, "%c%s %zu holds its highest bit (bit %u), so its value XOR the nim-sum, %" PRIu64
               ", is smaller; a value is the mex of its options' values, so an option of that value exists, "
               "and moving there makes the nim-sum 0.",
               what[0] >= 'a' && what[0] <= 'z' ? what[0] - 'a' + 'A' : what[0], what + 1, i, b, to);
}
