/* Heap games whose values come from a computed sequence: subtraction games,
 * octal games and Grundy's game. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/games.h"
#include "api/heap_sum.h"
#include "api/seq_cache.h"
#include "grundy/heapplay.h"
#include "grundy/octal.h"
#include "grundy/subtraction.h"
#include "tables/tables.h"

static gr_status seq_value(const gr_seq *s, uint64_t n, uint64_t *g)
{
    uint16_t v;
    gr_status st = gr_seq_value(s, n, &v);
    *g = v;
    return st;
}

/* ---- subtraction -------------------------------------------------------- */

typedef struct subtraction_ctx {
    const uint64_t *moves;
    size_t nmoves;
    gr_seq_ref ref;
} subtraction_ctx;

static gr_status subtraction_value(const void *ctx, size_t pile, uint64_t n, uint64_t *g)
{
    (void)pile;
    return seq_value(&((const subtraction_ctx *)ctx)->ref.seq, n, g);
}

static gr_status subtraction_move(const void *ctx, size_t pile, uint64_t n, uint64_t target, gr_heap_move *mv)
{
    (void)pile;
    const subtraction_ctx *c = ctx;
    uint64_t take = 0;
    gr_status s = gr_subtraction_move(c->moves, c->nmoves, &c->ref.seq, n, (uint16_t)target, &take);
    if (s != GR_OK)
        return s;
    *mv = gr_heap_take(n, take);
    return GR_OK;
}

static gr_status subtraction_remote(const void *ctx, size_t pile, uint64_t n, gr_budget *b,
                                    uint64_t *r, gr_heap_move *mv)
{
    (void)pile;
    const subtraction_ctx *c = ctx;
    uint64_t take = 0;
    gr_status s = gr_subtraction_remoteness(c->moves, c->nmoves, n, b, r, &take);
    *mv = gr_heap_take(n, take);
    return s;
}

static gr_status subtraction_misere(const void *ctx, uint64_t n, gr_budget *b, bool *win,
                                    gr_heap_move *mv)
{
    const subtraction_ctx *c = ctx;
    uint64_t take = 0;
    gr_status s = gr_subtraction_misere(c->moves, c->nmoves, n, b, win, &take);
    *mv = gr_heap_take(n, take);
    return s;
}

static int check_moves(gr_query *q, const uint64_t *moves, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (moves[i] >= 1 && moves[i] <= q->limits->max_move)
            continue;
        char field[40];
        snprintf(field, sizeof field, "moves[%zu]", i);
        return gr_fail(q->err, GR_E_OUT_OF_RANGE, field,
                       "each move must be between 1 and %" PRIu64 "; got %" PRIu64,
                       q->limits->max_move, moves[i]);
    }
    return 0;
}

/* Sorts and removes repeats, so that equal sets share one cache key. */
static size_t normalise_moves(uint64_t *moves, size_t n)
{
    size_t m = 0;
    qsort(moves, n, sizeof *moves, gr_cmp_u64);
    for (size_t i = 0; i < n; i++)
        if (m == 0 || moves[m - 1] != moves[i])
            moves[m++] = moves[i];
    return m;
}

/* Sets within {1 .. 12} are in the table file: bit s-1 for each s. */
static bool subtraction_from_table(const gr_query *q, const uint64_t *moves, size_t n, gr_seq *seq)
{
    uint64_t key = 0;
    for (size_t i = 0; i < n; i++) {
        if (moves[i] > GR_TN_SUBTRACTION_MAX)
            return false;
        key |= UINT64_C(1) << (moves[i] - 1);
    }
    return q->tables && gr_tables_member(q->tables, GR_TN_SUBTRACTION_FAMILY, key, seq);
}

/* The table, then the cache, then a computation (kept when certified). The
 * cache key is the sorted set itself; element 0 of `key` is a tag. */
static gr_status subtraction_values(gr_query *q, subtraction_ctx *c, uint64_t need)
{
    if (subtraction_from_table(q, c->moves, c->nmoves, &c->ref.seq))
        return GR_OK;
    size_t keylen = (c->nmoves + 1) * sizeof(uint64_t);
    uint64_t *key = malloc(keylen);
    if (!key)
        return GR_ENOMEM;
    key[0] = 'S';
    memcpy(key + 1, c->moves, c->nmoves * sizeof *key);
    gr_status s = GR_OK;
    if (!gr_seq_ref_lookup(q->cache, key, keylen, &c->ref)) {
        s = gr_subtraction_solve(c->moves, c->nmoves, need, &q->budget, &c->ref.seq);
        if (s == GR_OK && c->ref.seq.periodic)
            gr_seq_ref_offer(q->cache, key, keylen, &c->ref);
    }
    free(key);
    return s;
}

static void describe_set(gr_text *t, const uint64_t *moves, size_t n)
{
    gr_text_add(t, "Subtraction game with S = {");
    for (size_t i = 0; i < n && i < 16; i++)
        gr_text_add(t, "%s%" PRIu64, i ? ", " : "", moves[i]);
    gr_text_add(t, n > 16 ? ", ...}" : "}");
}

int gr_analyze_subtraction(gr_query *q)
{
    uint64_t *moves = NULL, *piles = NULL;
    size_t nmoves, npiles;
    int rc = -1;
    const cJSON *rule = gr_q_get(q, "moves");
    if (cJSON_IsObject(rule))
        return gr_analyze_subtraction_rule(q, rule);
    if (gr_q_u64_list(q, "moves", q->limits->max_moves, false, &moves, &nmoves) ||
        check_moves(q, moves, nmoves) ||
        gr_q_u64_list(q, "piles", q->limits->max_items, true, &piles, &npiles))
        goto out;
    nmoves = normalise_moves(moves, nmoves);
    subtraction_ctx ctx = { .moves = moves, .nmoves = nmoves };
    if (q->misere) {
        rc = gr_heap_misere_single(q, piles, npiles, subtraction_misere, &ctx, "subtraction game");
        goto out;
    }
    gr_status s = subtraction_values(q, &ctx, gr_max_u64(piles, npiles));
    if (s == GR_OK) {
        gr_text name = { .len = 0 };
        describe_set(&name, moves, nmoves);
        gr_heap_rules rules = { .ctx = &ctx, .value = subtraction_value, .move = subtraction_move,
                                .seq = &ctx.ref.seq, .name = name.buf, .remote = subtraction_remote };
        rc = gr_heap_sum(q, piles, npiles, &rules);
    } else {
        gr_fail_engine(q->err, s, "moves", "the Grundy values of this subtraction set");
    }
    gr_seq_ref_release(&ctx.ref);
out:
    gr_mem_free(moves);
    gr_mem_free(piles);
    return rc;
}

/* ---- octal -------------------------------------------------------------- */

typedef struct octal_ctx {
    gr_octal_code code;
    gr_seq_ref ref;
} octal_ctx;

static gr_status octal_value(const void *ctx, size_t pile, uint64_t n, uint64_t *g)
{
    (void)pile;
    return seq_value(&((const octal_ctx *)ctx)->ref.seq, n, g);
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

static gr_status heap_game_misere(const void *ctx, uint64_t n, gr_budget *b, bool *win,
                                  gr_heap_move *mv)
{
    return gr_heap_misere(ctx, n, b, win, mv);
}

static bool octal_splits(const gr_octal_code *code)
{
    for (unsigned k = 1; k <= code->t; k++)
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
    if (!cJSON_IsString(c) || gr_octal_parse(c->valuestring, code) != GR_OK)
        return gr_fail(q->err, GR_E_INVALID_FIELD, "code",
                       "\"code\" must be a string \"0.d1d2...\" with 1 to 8 octal digits (0-7), "
                       "not all zero, such as \"0.77\" (Kayles) or \"0.137\"");
    return 0;
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
    if (code->t > 3)
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

int gr_analyze_octal(gr_query *q)
{
    uint64_t *piles = NULL;
    size_t npiles;
    octal_ctx ctx = { .ref = { .seq = { 0 } } };
    if (read_code(q, &ctx.code) ||
        gr_q_u64_list(q, "piles", q->limits->max_items, true, &piles, &npiles))
        return -1;
    if (q->misere) {
        char code[16], name[48];
        gr_octal_format(&ctx.code, code);
        snprintf(name, sizeof name, "octal game %s", code);
        gr_heap_game game = gr_heap_game_octal(&ctx.code);
        int rc = gr_heap_misere_single(q, piles, npiles, heap_game_misere, &game, name);
        gr_mem_free(piles);
        return rc;
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
        gr_heap_rules rules = { .ctx = &ctx, .value = octal_value, .move = octal_move,
                                .seq = &ctx.ref.seq, .name = name, .remote = octal_remote,
                                .splits = octal_splits(&ctx.code) };
        rc = gr_heap_sum(q, piles, npiles, &rules);
    }
    gr_seq_ref_release(&ctx.ref);
    gr_mem_free(piles);
    return rc;
}

/* ---- Grundy's game ------------------------------------------------------ */

typedef struct grundys_ctx {
    gr_seq seq;
    const gr_rare_index *rare; /* of seq, or NULL when computed on demand */
} grundys_ctx;

static gr_status grundys_value(const void *ctx, size_t pile, uint64_t n, uint64_t *g)
{
    (void)pile;
    return seq_value(&((const grundys_ctx *)ctx)->seq, n, g);
}

static gr_status grundys_move(const void *ctx, size_t pile, uint64_t n, uint64_t target, gr_heap_move *mv)
{
    (void)pile;
    const grundys_ctx *c = ctx;
    if (c->rare)
        return gr_grundys_move_indexed(&c->seq, c->rare, n, (uint16_t)target, mv);
    return gr_grundys_move(&c->seq, n, (uint16_t)target, mv);
}

static gr_status grundys_remote(const void *ctx, size_t pile, uint64_t n, gr_budget *b, uint64_t *r,
                                gr_heap_move *mv)
{
    (void)ctx;
    (void)pile;
    gr_heap_game game = gr_heap_game_grundys();
    return gr_heap_remoteness(&game, n, b, r, mv);
}

/* From the table file up to its bound; without one, computed on demand up
 * to the grundys_max_heap limit. */
static gr_status grundys_values(gr_query *q, uint64_t need, grundys_ctx *c)
{
    gr_seq *seq = &c->seq;
    if (q->tables && gr_tables_sequence(q->tables, GR_TN_GRUNDYS, seq)) {
        c->rare = q->grundys_rare && q->grundys_rare->count ? q->grundys_rare : NULL;
        if (need < seq->count)
            return GR_OK;
        gr_fail(q->err, GR_E_BEYOND_BOUND, "piles",
                "Grundy's game is answered for heaps below %" PRIu64 ", the bound of the table "
                "file; heap %" PRIu64 " is past it. Build a larger table with 'grundy tables "
                "build FILE --grundys-values N' and start grundyd with --tables FILE",
                seq->count, need);
        return GR_EBOUND;
    }
    if (need > q->limits->grundys_max_heap) {
        gr_fail(q->err, GR_E_BEYOND_BOUND, "piles",
                "Grundy's game is answered for heaps up to %" PRIu64 " without its table; heap %"
                PRIu64 " is larger. Build one with 'grundy tables build FILE' and start grundyd "
                "with --tables FILE", q->limits->grundys_max_heap, need);
        return GR_EBOUND;
    }
    return gr_grundys_solve(need, &q->budget, seq);
}

int gr_analyze_grundys_game(gr_query *q)
{
    uint64_t *piles = NULL;
    size_t npiles;
    if (gr_q_u64_list(q, "piles", q->limits->max_items, true, &piles, &npiles))
        return -1;
    if (q->misere) {
        gr_heap_game game = gr_heap_game_grundys();
        int rc = gr_heap_misere_single(q, piles, npiles, heap_game_misere, &game, "Grundy's game");
        gr_mem_free(piles);
        return rc;
    }
    uint64_t need = gr_max_u64(piles, npiles);
    int rc;
    grundys_ctx ctx = { .rare = NULL };
    gr_status s = grundys_values(q, need, &ctx);
    if (s == GR_EBOUND) {
        gr_mem_free(piles);
        return -1;
    }
    if (s != GR_OK) {
        rc = gr_fail_engine(q->err, s, "piles", "the Grundy values of Grundy's game");
    } else {
        gr_heap_rules rules = { .ctx = &ctx, .value = grundys_value, .move = grundys_move,
                                .name = "Grundy's game (split a heap into two unequal heaps)",
                                .remote = grundys_remote, .splits = true };
        rc = gr_heap_sum(q, piles, npiles, &rules);
    }
    gr_seq_free(&ctx.seq);
    gr_mem_free(piles);
    return rc;
}
