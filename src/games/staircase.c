/* SPDX-License-Identifier: MIT */
/* staircase: Nim on the odd-numbered stairs. Stairs may hold any count up
 * to 2^63 - 1 each; only a winning move that would push a stair past it is
 * refused (next could not carry it). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "grundy/alloc.h"
#include "heap_sum.h"
#include "sum_why.h"
#include "why.h"
#include "grundy/staircase.h"

static int stair_components(gr_query *q, const uint64_t *stairs, size_t n)
{
    gr_ans_components(q);
    for (size_t i = 0; i < n; i++) {
        gr_jw_node *c = gr_ans_component(q);
        if (!c)
            return -1;
        gr_jw_u64(c, "stair", i);
        gr_jw_u64(c, "coins", stairs[i]);
        gr_jw_u64(c, "grundy", (i & 1) ? stairs[i] : 0);
    }
    return 0;
}

/* Whether moving m leaves every stair within the API's integer range, so
 * that next can be sent back. Only the stair below can grow. */
static bool move_fits(const uint64_t *stairs, const gr_stair_move *m)
{
    return stairs[m->from - 1] <= GR_INT_MAX - m->count;
}

/* A winning move whose next position is representable: the engine's move
 * when it fits, else any other lowering of an odd stair i to stairs[i] ^ x,
 * else coins from an even stair i >= 2 raising odd stair i - 1 to
 * stairs[i - 1] ^ x (which stays below 2^63). False when every winning move
 * would put more than 2^63 - 1 coins on a stair. */
static bool representable_move(const uint64_t *stairs, size_t n, uint64_t x, gr_stair_move *m)
{
    if (move_fits(stairs, m))
        return true;
    for (size_t i = 1; i < n; i += 2) {
        gr_stair_move down = { i, stairs[i] - (stairs[i] ^ x) };
        if ((stairs[i] ^ x) < stairs[i] && move_fits(stairs, &down)) {
            *m = down;
            return true;
        }
    }
    for (size_t i = 2; i < n; i += 2) {
        uint64_t odd = stairs[i - 1], raised = odd ^ x;
        if (raised > odd && raised - odd <= stairs[i]) {
            *m = (gr_stair_move){ i, raised - odd };
            return true;
        }
    }
    return false;
}

static int stair_move(gr_query *q, const uint64_t *stairs, size_t n, const gr_stair_move *m)
{
    gr_jw_node *move = gr_ans_move(q);
    if (!move)
        return -1;
    gr_jw_u64(move, "from", m->from);
    gr_jw_u64(move, "to", m->from - 1);
    gr_jw_u64(move, "count", m->count);
    gr_text t = { .len = 0 };
    gr_text_add(&t, "Move %" PRIu64 " coin%s from stair %zu down to stair %zu.", m->count,
                m->count == 1 ? "" : "s", m->from, m->from - 1);
    gr_jw_str(move, "text", t.buf);
    gr_jw_node *next = gr_ans_next(q);
    gr_jw_node *arr = next ? gr_jw_array(next, "stairs") : NULL;
    if (!arr)
        return gr_oom(q);
    for (size_t i = 0; i < n; i++) {
        uint64_t v = stairs[i];
        if (i == m->from)
            v -= m->count;
        else if (i + 1 == m->from)
            v += m->count; /* cannot overflow: see representable_move and list_stair */
        gr_jw_u64(arr, NULL, v);
    }
    return 0;
}

static int fail_unrepresentable(gr_query *q)
{
    return gr_fail(q->err, GR_E_OUT_OF_RANGE, "stairs",
                   "the player to move wins, but every winning move would leave more than "
                   "9223372036854775807 coins on one stair, which next could not carry; "
                   "send fewer coins");
}

/* "staircase": the odd stairs and their coins, the heaps of the Nim the
 * game is; then their "nim_sum". */
static void explain_odd_stairs(gr_query *q, const uint64_t *stairs, size_t n, uint64_t x)
{
    if (q->slim)
        return;
    size_t odd = n / 2;
    uint64_t *index = gr_malloc((odd ? odd : 1) * sizeof *index), *coins = gr_malloc((odd ? odd : 1) * sizeof *coins);
    if (index && coins) {
        for (size_t k = 0; k < odd; k++) {
            index[k] = 2 * k + 1;
            coins[k] = stairs[2 * k + 1];
        }
        gr_jw_node *step = gr_why_step(q, "staircase");
        size_t listed = odd < GR_WHY_LISTED ? odd : GR_WHY_LISTED;
        gr_jw_u64(step, "odd_stairs_total", odd);
        gr_jw_u64s(step, "odd_stairs", index, listed);
        gr_jw_u64s(step, "coins", coins, listed);
        gr_why_say(q, step, "Staircase nim is nim on the odd-numbered stairs (stair 0 is the floor): "
                   "coins moved from an even stair to an odd one can be moved straight on, so each odd "
                   "stair is a heap of its coins.");
        gr_why_nim_sum(q, coins, odd, x, "odd stair");
    }
    gr_free(index);
    gr_free(coins);
}

/* "stair_move": {from, to, count, odd}: the move that makes the nim-sum 0. */
static void explain_stair_move(gr_query *q, const gr_stair_move *m)
{
    gr_jw_node *step = gr_why_step(q, "stair_move");
    gr_jw_u64(step, "from", m->from);
    gr_jw_u64(step, "to", m->from - 1);
    gr_jw_u64(step, "count", m->count);
    gr_jw_bool(step, "odd", m->from & 1);
    gr_why_say(q, step, "%s", (m->from & 1)
               ? "The player to move wins by moving coins off an odd stair."
               : "The player to move wins by moving coins from an even stair onto the odd stair below "
                 "(moving them off an odd stair would overflow a stair).");
}

/* Answers the stairs in memory. */
static int answer_stairs(gr_query *q, const uint64_t *stairs, size_t n)
{
    gr_stair_move m = { 0, 0 };
    bool win = gr_staircase_normal(stairs, n, &m);
    uint64_t x = gr_staircase_value(stairs, n);
    int rc = win && !representable_move(stairs, n, x, &m) ? fail_unrepresentable(q)
                                                          : stair_components(q, stairs, n);
    if (rc == 0) {
        q->ans.winner = win ? "first" : "second";
        q->ans.grundy_known = true;
        q->ans.grundy = x;
        explain_odd_stairs(q, stairs, n, x);
        if (win) {
            explain_stair_move(q, &m);
            rc = stair_move(q, stairs, n, &m);
        }
    }
    return rc;
}

static int analyze_staircase(gr_query *q)
{
    uint64_t *stairs;
    size_t n;
    if (gr_q_u64_list(q, "stairs", q->limits->max_items, true, &stairs, &n))
        return -1;
    int rc = answer_stairs(q, stairs, n);
    gr_scratch_free(stairs);
    return rc;
}

/* The coins on stairs 1 .. n - 1: every move moves 1 .. stairs[i] of them. */
static gr_u128 stair_move_count(const uint64_t *stairs, size_t n)
{
    gr_u128 total = 0;
    for (size_t i = 1; i < n; i++)
        total += stairs[i];
    return total;
}

/* Lists moves from stair i, `count` coins first, through sink. 1 when the
 * sink wants no more, 0 to go on, -1 on error. */
static int list_stair(gr_query *q, const uint64_t *stairs, size_t n, size_t i, uint64_t count,
                      gr_int_position *after, gr_move_sink *sink)
{
    for (; count <= stairs[i]; count++) {
        gr_stair_move m = { i, count };
        if (!move_fits(stairs, &m))
            return gr_fail(q->err, GR_E_OUT_OF_RANGE, "stairs", "moving %" PRIu64 " coin%s from stair "
                           "%zu would leave more than 9223372036854775807 coins on stair %zu, which "
                           "next could not carry; send fewer coins", count, count == 1 ? "" : "s",
                           i, i - 1);
        if (stair_move(q, stairs, n, &m))
            return -1;
        memcpy(after->v, stairs, n * sizeof *stairs);
        after->v[i] -= count;
        after->v[i - 1] += count;
        if (!sink->put(sink, q, gr_int_position_of(after)))
            return q->err->code ? -1 : 1;
    }
    return 0;
}

/* Canonical order: stair by stair from stair 1 up, and on each stair by the
 * number of coins moved down, 1 first. */
static int moves_staircase(gr_query *q, gr_move_sink *sink)
{
    uint64_t *stairs;
    size_t n;
    if (gr_q_u64_list(q, "stairs", q->limits->max_items, true, &stairs, &n))
        return -1;
    sink->total = stair_move_count(stairs, n);
    gr_u128 skip = sink->from;
    gr_int_position after = { .solve = answer_stairs, .v = gr_malloc((n + 1) * sizeof *stairs), .n = n };
    int rc = after.v ? 0 : gr_oom(q);
    for (size_t i = 1; i < n && rc == 0; i++) {
        if (skip >= stairs[i]) {
            skip -= stairs[i];
            continue;
        }
        rc = list_stair(q, stairs, n, i, (uint64_t)skip + 1, &after, sink);
        skip = 0;
    }
    gr_free(after.v);
    gr_scratch_free(stairs);
    return rc < 0 ? -1 : 0;
}

/* ---- contract ------------------------------------------------------------ */

static const gr_field staircase_fields[] = {
    { .name = "stairs", .type = GR_FIELD_INTEGER_ARRAY, .required = true,
      .description = "Coins on each stair, stairs[0] being the floor; may be empty.",
      .count = UPTO(GR_LIMIT_MAX_ITEMS), .value = ANY_U },
};

const gr_game gr_game_staircase = { .name = "staircase", .summary = "Move one or more coins from stair i >= 1 down to stair i - 1.",
    .compounds = ONE, .analyze = analyze_staircase, .moves = moves_staircase,
    .kind = GR_KIND_IMPARTIAL, FIELDS(staircase_fields),
    .example = "{\"game\":\"staircase\",\"stairs\":[0,3,1,4]}"
};
