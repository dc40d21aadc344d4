/* SPDX-License-Identifier: MIT */
/* octal: octal games 0.d1d2...: values from the table file's certified
 * periods, the cache, or computed within the budget. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "heap_sum.h"
#include "misere_sum.h"
#include "seq_cache.h"
#include "grundy/heapplay.h"
#include "grundy/octal.h"
#include "grundy/subtraction.h"
#include "tables/tables.h"

/* ---- octal -------------------------------------------------------------- */

typedef struct octal_ctx {
    gr_octal_code code;
    gr_seq_ref ref;
} octal_ctx;

static gr_status octal_value(const void *ctx, size_t pile, uint64_t n, uint64_t *g)
{
    (void)pile;
    return gr_heap_seq_value(&((const octal_ctx *)ctx)->ref.seq, n, g);
}

static gr_status octal_move(const void *ctx, size_t pile, uint64_t n, uint64_t target, gr_heap_move *mv)
{
    (void)pile;
    const octal_ctx *c = ctx;
    return gr_octal_move(&c->code, &c->ref.seq, n, (uint16_t)target, mv);
}

static gr_status octal_remote(const void *ctx, size_t pile, uint64_t n, gr_budget *b, uint64_t *r,
                              gr_heap_move *mv)
{
    (void)pile;
    gr_heap_game game = gr_heap_game_octal(&((const octal_ctx *)ctx)->code);
    return gr_heap_remoteness(&game, n, b, r, mv);
}

static bool octal_splits(const gr_octal_code *code)
{
    for (unsigned k = 0; k <= code->t; k++)
        if (code->digit[k] & 4)
            return true;
    return false;
}

static int read_code(gr_query *q, gr_octal_code *code)
{
    const cJSON *c = gr_q_get(q, "code");
    if (!c)
        return gr_fail(q->err, GR_E_MISSING_FIELD, "code",
                       "the field \"code\" is required, such as \"0.77\" for Kayles");
    if (cJSON_IsString(c) && gr_octal_parse(c->valuestring, code) == GR_OK)
        return 0;
    const char *s = cJSON_IsString(c) ? c->valuestring : "";
    if (s[0] >= '1' && s[0] <= '7' && s[0] != '4' && s[1] == '.')
        return gr_fail(q->err, GR_E_INVALID_FIELD, "code",
                       "the digit before the point must be 0 or 4: 4 splits a heap in two without "
                       "removing a token (\"4.7\" is Daisies), while bit 1 would take away an "
                       "empty heap and bit 2 would leave the heap as it was, a pass after which "
                       "play need not end; no game has them");
    return gr_fail(q->err, GR_E_INVALID_FIELD, "code",
                   "\"code\" must be a string \"0.d1d2...\" or \"4.d1d2...\" with 1 to 8 octal "
                   "digits (0-7), not all zero, such as \"0.77\" (Kayles), \"0.137\" or \"4.7\" "
                   "(Daisies)");
}

/* Named games have their own sections; every 0.d1d2d3 is in the family,
 * keyed by its digits read as an octal number. */
static bool octal_from_table(const gr_query *q, const gr_octal_code *code, gr_seq *seq)
{
    char text[16], name[32];
    if (!q->tables)
        return false;
    gr_octal_format(code, text);
    snprintf(name, sizeof name, GR_TN_OCTAL_PREFIX "%s", text);
    if (gr_tables_sequence(q->tables, name, seq))
        return true;
    if (code->t > 3 || code->digit[0] != 0) /* the family is 0.d1d2d3 */
        return false;
    uint64_t key = (uint64_t)code->digit[1] << 6 | (uint64_t)code->digit[2] << 3 | code->digit[3];
    return gr_tables_member(q->tables, GR_TN_OCTAL_FAMILY, key, seq);
}

/* The table, then the cache, then a computation: kept when it is complete
 * (certified, or computed to the on-demand bound), so that it serves any
 * later heap the same way. */
static gr_status octal_values(gr_query *q, octal_ctx *c, uint64_t need, bool *from_table)
{
    *from_table = octal_from_table(q, &c->code, &c->ref.seq);
    if (*from_table)
        return c->ref.seq.periodic || need < c->ref.seq.count ? GR_OK : GR_EBOUND;
    char key[20] = "O";
    gr_octal_format(&c->code, key + 1);
    if (gr_seq_ref_lookup(q->cache, key, strlen(key), &c->ref))
        return c->ref.seq.periodic || need < c->ref.seq.count ? GR_OK : GR_EBOUND;
    gr_status s = gr_octal_solve(&c->code, need, q->limits->octal_max_values, &q->budget, &c->ref.seq);
    if (s == GR_OK && (c->ref.seq.periodic || c->ref.seq.count >= q->limits->octal_max_values))
        gr_seq_ref_offer(q->cache, key, strlen(key), &c->ref);
    return s;
}

static int octal_failure(gr_query *q, gr_status s, const octal_ctx *c, uint64_t need, bool from_table)
{
    char code[16];
    gr_octal_format(&c->code, code);
    uint64_t bound = from_table ? c->ref.seq.count : q->limits->octal_max_values;
    if (s == GR_EBOUND)
        return gr_fail(q->err, GR_E_BEYOND_BOUND, "piles",
                       "octal game %s has no period certified within the first %" PRIu64
                       " values%s, and heap %" PRIu64 " is past them; use heaps below %" PRIu64
                       "%s", code, bound, from_table ? " in the table file" : "", need, bound,
                       from_table ? ", or build a larger table with 'grundy tables build FILE "
                                    "--octal-values N'" : "");
    return gr_fail_engine(q->err, s, "piles", "the Grundy values of this octal game");
}

/* ---- listing moves ------------------------------------------------------------
 * Heap n's options, k ascending from 0 (k tokens removed, digit d_k): when
 * d_k has bit 1 and n = k, take the heap; when it has bit 2 and n > k, leave
 * n - k; when it has bit 4, split n - k into (a, n - k - a),
 * 1 <= a <= (n - k) / 2, a ascending. d0 has bit 4 alone. */

typedef struct octal_options_of {
    uint64_t empty, one, splits; /* how many of each, 0 or 1, 0 or 1, any */
} octal_options_of;

static octal_options_of octal_options_k(const gr_octal_code *code, unsigned k, uint64_t n)
{
    unsigned d = code->digit[k];
    octal_options_of o = { .empty = (d & 1) && n == k, .one = (d & 2) && n > k };
    o.splits = (d & 4) && n > k + 1 ? (n - k) / 2 : 0;
    return o;
}

static gr_u128 octal_count(void *ctx, size_t pile, uint64_t n)
{
    (void)pile;
    const gr_octal_code *code = ctx;
    gr_u128 total = 0;
    for (unsigned k = 0; k <= code->t; k++) {
        octal_options_of o = octal_options_k(code, k, n);
        total += (gr_u128)o.empty + o.one + o.splits;
    }
    return total;
}

static void octal_at(void *ctx, size_t pile, uint64_t n, gr_u128 index, gr_heap_move *mv)
{
    (void)pile;
    const gr_octal_code *code = ctx;
    for (unsigned k = 0; k <= code->t; k++) {
        octal_options_of o = octal_options_k(code, k, n);
        gr_u128 here = (gr_u128)o.empty + o.one + o.splits;
        if (index >= here) {
            index -= here;
            continue;
        }
        if (index < o.empty + o.one) {
            *mv = gr_heap_take(n, k);
            return;
        }
        uint64_t a = (uint64_t)(index - o.empty - o.one) + 1;
        *mv = (gr_heap_move){ .take = k, .nparts = 2, .part = { a, n - k - a } };
        return;
    }
}

/* The answer (sink NULL) or the winning moves into sink, for piles in memory. */
static int solve_piles(gr_query *q, const gr_octal_code *rules_code, const uint64_t *piles, size_t npiles,
                       gr_move_sink *sink)
{
    octal_ctx ctx = { .code = *rules_code, .ref = { .seq = { 0 } } };
    if (q->misere && sink)
        return 1;
    if (q->misere) {
        char code[16], name[48];
        gr_octal_format(&ctx.code, code);
        snprintf(name, sizeof name, "octal game %s", code);
        gr_heap_game game = gr_heap_game_octal(&ctx.code);
        gr_mq_rules rules = gr_mq_octal(&ctx.code);
        return npiles > 1 ? gr_heap_misere_sum(q, piles, npiles, &rules, name)
                          : gr_heap_misere_single(q, piles, npiles, gr_heap_game_misere, &game, name);
    }
    uint64_t need = gr_max_u64(piles, npiles);
    bool from_table = false;
    gr_status s = octal_values(q, &ctx, need, &from_table);
    int rc;
    if (s != GR_OK) {
        rc = octal_failure(q, s, &ctx, need, from_table);
    } else {
        char code[16], name[64];
        gr_octal_format(&ctx.code, code);
        snprintf(name, sizeof name, "Octal game %s", code);
        gr_heap_options o = { .ctx = &ctx.code, .count = octal_count, .at = octal_at };
        gr_heap_rules rules = { .ctx = &ctx, .value = octal_value, .move = octal_move,
                                .seq = &ctx.ref.seq, .name = name, .remote = octal_remote,
                                .splits = octal_splits(&ctx.code), .options = &o };
        rc = sink ? gr_heap_winning(q, piles, npiles, &rules, sink) : gr_heap_sum(q, piles, npiles, &rules);
    }
    gr_seq_ref_release(&ctx.ref);
    return rc;
}

static int answer_piles(gr_query *q, const void *code, const uint64_t *piles, size_t n)
{
    return solve_piles(q, code, piles, n, NULL);
}

static int solve_octal(gr_query *q, gr_move_sink *sink)
{
    uint64_t *piles = NULL;
    size_t npiles;
    gr_octal_code code;
    if (read_code(q, &code) || gr_q_u64_list(q, "piles", q->limits->max_items, true, &piles, &npiles))
        return -1;
    int rc = solve_piles(q, &code, piles, npiles, sink);
    gr_scratch_free(piles);
    return rc;
}

static int analyze_octal(gr_query *q)
{
    return solve_octal(q, NULL);
}

static int winning_octal(gr_query *q, gr_move_sink *sink)
{
    return solve_octal(q, sink);
}

static int moves_octal(gr_query *q, gr_move_sink *sink)
{
    uint64_t *piles = NULL;
    size_t npiles;
    gr_octal_code code;
    if (read_code(q, &code) || gr_q_u64_list(q, "piles", q->limits->max_items, true, &piles, &npiles))
        return -1;
    gr_heap_options o = { .ctx = &code, .count = octal_count, .at = octal_at };
    gr_heap_rules rules = { .splits = octal_splits(&code) };
    gr_heap_solver solver = { answer_piles, &code };
    int rc = gr_heap_moves(q, piles, npiles, &rules, &o, &solver, sink);
    gr_scratch_free(piles);
    return rc;
}

/* ---- contract ------------------------------------------------------------ */

static const gr_field octal_fields[] = {
    { .name = "code", .type = GR_FIELD_STRING, .required = true, .pattern = "^[0-7]\\.[0-7]+$",
      .description = "d0, \".\" and 1 to 8 octal digits d1..., not all zero: digit k's bit 1 "
                     "allows removing k tokens emptying the heap, bit 2 leaving one heap, bit 4 "
                     "leaving two non-empty heaps. d0 is 0 or 4 (split a heap in two without "
                     "removing a token; 1, 2, 3, 5, 6 and 7 are refused: they would take an empty "
                     "heap or pass). \"0.77\" is Kayles, \"0.07\" Dawson's Kayles, \"0.137\" "
                     "Dawson's chess, \"4.7\" Daisies.",
      .count = SPAN(3, 2 + GR_OCTAL_MAX_DIGITS) },
    PILES("Tokens in each pile; may be empty. Without a certified period only heaps below the "
          "values computed (octal_max_values, or the table's) are answered.", ANY_U),
};

static const gr_constraint octal_constraints[] = {
    { "values computed on demand for a code without a certified period: heaps below this are "
      "answered (a table file's codes: the table's count)", UPTO(GR_LIMIT_OCTAL_MAX_VALUES) },
};

const gr_game gr_game_octal = { .name = "octal",
    .summary = "Octal game 0.d1d2...: remove k tokens, leaving 0, 1 or 2 heaps as digit k allows.",
    .misere = true, .misere_any = true, .misere_note = GR_MISERE_SUM_NOTE, .compounds = SUMS, .compound_note = SPLIT_NOTE, .analyze = analyze_octal, .moves = moves_octal,
    .winning = winning_octal,
    .kind = GR_KIND_IMPARTIAL, FIELDS(octal_fields),
    CONSTRAINTS(octal_constraints),
    .example = "{\"game\":\"octal\",\"code\":\"0.77\",\"piles\":[5]}"
};
