/* SPDX-License-Identifier: MIT */
/* The rules of the heap games with misere quotients (misere_quotient.h),
 * their moves, and the memoised direct search over sums of heaps. */
#include <stdlib.h>
#include <string.h>

#include "grundy/misere_quotient.h"
#include "grundy/alloc.h"

#define DIRECT_MAX_TOKENS 4096u /* sums larger than this are not searched directly */

gr_mq_rules gr_mq_octal(const gr_octal_code *code)
{
    gr_mq_rules r = { .kind = GR_MQ_OCTAL, .code = *code };
    return r;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

gr_status gr_mq_subtraction(const uint64_t *moves, size_t nmoves, gr_mq_rules *out)
{
    memset(out, 0, sizeof *out);
    out->kind = GR_MQ_SUBTRACTION;
    uint64_t tmp[GR_MQ_MAX_SUB];
    size_t k = 0;
    for (size_t i = 0; i < nmoves; i++) {
        if (moves[i] == 0)
            return GR_EINVAL;
        bool seen = false;
        for (size_t j = 0; j < k; j++)
            seen |= tmp[j] == moves[i];
        if (seen)
            continue;
        if (k == GR_MQ_MAX_SUB)
            return GR_EINVAL;
        tmp[k++] = moves[i];
    }
    if (k == 0)
        return GR_EINVAL;
    qsort(tmp, k, sizeof tmp[0], cmp_u64);
    memcpy(out->sub, tmp, k * sizeof tmp[0]);
    out->nsub = k;
    return GR_OK;
}

gr_mq_rules gr_mq_grundys(void)
{
    gr_mq_rules r = { .kind = GR_MQ_GRUNDYS };
    return r;
}

uint64_t gr_mq_reach(const gr_mq_rules *r)
{
    switch (r->kind) {
    case GR_MQ_OCTAL:
        return r->code.t;
    case GR_MQ_SUBTRACTION:
        return r->sub[r->nsub - 1];
    default:
        return UINT64_MAX;
    }
}

static void emit_move(gr_heap_emit emit, void *arg, uint64_t take, uint8_t nparts, uint64_t a,
                      uint64_t b)
{
    gr_heap_move mv = { .take = take, .nparts = nparts, .part = { a, b } };
    emit(arg, &mv);
}

/* Digit k: bit 1 removes the whole heap when n == k, bit 2 leaves n - k
 * as one heap, bit 4 splits n - k into a <= b, both >= 1. */
static void octal_moves(const gr_octal_code *code, uint64_t n, uint64_t max_small,
                        gr_heap_emit emit, void *arg)
{
    for (unsigned k = 1; k <= code->t && k <= n; k++) {
        unsigned d = code->digit[k];
        uint64_t rest = n - k;
        if ((d & 1) && rest == 0)
            emit_move(emit, arg, k, 0, 0, 0);
        if ((d & 2) && rest >= 1)
            emit_move(emit, arg, k, 1, rest, 0);
        uint64_t top = rest / 2 < max_small ? rest / 2 : max_small;
        for (uint64_t a = 1; (d & 4) && a <= top; a++)
            emit_move(emit, arg, k, 2, a, rest - a);
    }
}

void gr_mq_moves(const gr_mq_rules *r, uint64_t n, uint64_t max_small, gr_heap_emit emit,
                 void *arg)
{
    if (r->kind == GR_MQ_OCTAL) {
        octal_moves(&r->code, n, max_small, emit, arg);
    } else if (r->kind == GR_MQ_SUBTRACTION) {
        for (size_t i = 0; i < r->nsub && r->sub[i] <= n; i++)
            emit_move(emit, arg, r->sub[i], n > r->sub[i] ? 1 : 0, n - r->sub[i], 0);
    } else {
        uint64_t top = n == 0 ? 0 : (n - 1) / 2;
        top = top < max_small ? top : max_small;
        for (uint64_t a = 1; a <= top; a++)
            emit_move(emit, arg, 0, 2, a, n - a);
    }
}

/* ---- the direct search ---- */

typedef struct memo_entry {
    uint64_t hash;
    uint32_t off, len; /* the sorted heaps in the arena; len 0: free slot */
    uint64_t value;    /* the direct search: 1 for a win; the genus: packed */
} memo_entry;

typedef struct direct {
    const gr_mq_rules *r;
    gr_budget *b;
    memo_entry *slot;
    size_t nslots, used;
    uint64_t *arena;
    size_t arena_len, arena_cap;
    gr_status err;
} direct;

static void count_move(void *arg, const gr_heap_move *mv)
{
    (void)mv;
    (*(size_t *)arg)++;
}

static bool heap_dead(const gr_mq_rules *r, uint64_t h)
{
    size_t moves = 0;
    gr_mq_moves(r, h, 1, count_move, &moves);
    return moves == 0;
}

static uint64_t hash_heaps(const uint64_t *h, size_t n)
{
    uint64_t x = 0x9e3779b97f4a7c15u ^ n;
    for (size_t i = 0; i < n; i++) {
        x ^= h[i] + 0x9e3779b97f4a7c15u + (x << 6) + (x >> 2);
        x *= 0xbf58476d1ce4e5b9u;
    }
    return x | 1;
}

static memo_entry *memo_find(direct *d, const uint64_t *h, size_t n, uint64_t hash)
{
    size_t i = hash & (d->nslots - 1);
    for (;; i = (i + 1) & (d->nslots - 1)) {
        memo_entry *e = &d->slot[i];
        if (e->len == 0)
            return e;
        if (e->hash == hash && e->len == n + 1 &&
            (n == 0 || memcmp(d->arena + e->off, h, n * sizeof *h) == 0))
            return e;
    }
}

static gr_status memo_grow(direct *d)
{
    size_t nslots = d->nslots * 2;
    memo_entry *slot = gr_calloc(nslots, sizeof *slot);
    if (!slot)
        return GR_ENOMEM;
    for (size_t i = 0; i < d->nslots; i++) {
        memo_entry e = d->slot[i];
        if (e.len == 0)
            continue;
        size_t j = e.hash & (nslots - 1);
        while (slot[j].len)
            j = (j + 1) & (nslots - 1);
        slot[j] = e;
    }
    gr_free(d->slot);
    d->slot = slot;
    d->nslots = nslots;
    return GR_OK;
}

static gr_status memo_put(direct *d, const uint64_t *h, size_t n, uint64_t hash, uint64_t value)
{
    if (d->used >= GR_HEAPPLAY_MAX_STATES)
        return GR_ELIMIT;
    if (2 * (d->used + 1) > d->nslots && memo_grow(d) != GR_OK)
        return GR_ENOMEM;
    if (d->arena_len + n > d->arena_cap) {
        size_t cap = d->arena_cap ? d->arena_cap * 2 : 4096;
        while (cap < d->arena_len + n)
            cap *= 2;
        uint64_t *a = gr_realloc(d->arena, cap * sizeof *a);
        if (!a)
            return GR_ENOMEM;
        d->arena = a;
        d->arena_cap = cap;
    }
    memo_entry *e = memo_find(d, h, n, hash);
    if (n > 0)
        memcpy(d->arena + d->arena_len, h, n * sizeof *h);
    *e = (memo_entry){ .hash = hash, .off = (uint32_t)d->arena_len, .len = (uint32_t)n + 1, .value = value };
    d->arena_len += n;
    d->used++;
    return GR_OK;
}

/* The option of sorted live heaps h[0..n) that replaces h[i] by mv's parts,
 * dead parts dropped, sorted, into out; its length. */
static size_t make_option(const gr_mq_rules *r, const uint64_t *h, size_t n, size_t i,
                          const gr_heap_move *mv, uint64_t *out)
{
    size_t k = 0;
    for (size_t j = 0; j < n; j++)
        if (j != i)
            out[k++] = h[j];
    for (unsigned p = 0; p < mv->nparts; p++)
        if (!heap_dead(r, mv->part[p]))
            out[k++] = mv->part[p];
    qsort(out, k, sizeof *out, cmp_u64);
    return k;
}

static gr_status direct_win(direct *d, const uint64_t *h, size_t n, bool *win, size_t *pile,
                            gr_heap_move *mv);

typedef struct option_scan {
    direct *d;
    const uint64_t *h;
    size_t n, i;
    bool found;
    gr_heap_move move;
    gr_status st;
} option_scan;

static void scan_option(void *arg, const gr_heap_move *mv)
{
    option_scan *s = arg;
    if (s->found || s->st != GR_OK)
        return;
    if (!gr_budget_spend(s->d->b, 1)) {
        s->st = GR_ELIMIT;
        return;
    }
    uint64_t *opt = gr_malloc((s->n + 1) * sizeof *opt);
    if (!opt) {
        s->st = GR_ENOMEM;
        return;
    }
    size_t k = make_option(s->d->r, s->h, s->n, s->i, mv, opt);
    bool opt_win;
    s->st = direct_win(s->d, opt, k, &opt_win, NULL, NULL);
    gr_free(opt);
    if (s->st == GR_OK && !opt_win) {
        s->found = true;
        s->move = *mv;
    }
}

/* h: sorted live heaps. */
static gr_status direct_win(direct *d, const uint64_t *h, size_t n, bool *win, size_t *pile,
                            gr_heap_move *mv)
{
    uint64_t hash = hash_heaps(h, n);
    memo_entry *e = memo_find(d, h, n, hash);
    if (e->len && !pile) {
        *win = e->value != 0;
        return GR_OK;
    }
    option_scan s = { .d = d, .h = h, .n = n, .st = GR_OK };
    for (size_t i = 0; i < n && !s.found && s.st == GR_OK; i++) {
        if (i > 0 && h[i] == h[i - 1])
            continue;
        s.i = i;
        gr_mq_moves(d->r, h[i], UINT64_MAX, scan_option, &s);
    }
    if (s.st != GR_OK)
        return s.st;
    *win = n == 0 || s.found;
    if (pile && s.found) {
        *pile = s.i;
        *mv = s.move;
    }
    e = memo_find(d, h, n, hash);
    return e->len ? GR_OK : memo_put(d, h, n, hash, *win);
}

gr_status gr_mq_direct(const gr_mq_rules *r, const uint64_t *heaps, size_t n, gr_budget *b,
                       bool *win, size_t *pile, gr_heap_move *mv)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (heaps[i] > DIRECT_MAX_TOKENS || (total += heaps[i]) > DIRECT_MAX_TOKENS)
            return GR_ELIMIT;
    }
    uint64_t *live = gr_malloc((n + 1) * sizeof *live);
    size_t *index = gr_malloc((n + 1) * sizeof *index);
    direct d = { .r = r, .b = b, .nslots = 1024 };
    d.slot = gr_calloc(d.nslots, sizeof *d.slot);
    gr_status st = GR_ENOMEM;
    if (live && index && d.slot) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (!heap_dead(r, heaps[i]))
                live[k++] = heaps[i];
        qsort(live, k, sizeof *live, cmp_u64);
        size_t at = SIZE_MAX;
        st = direct_win(&d, live, k, win, &at, mv);
        if (st == GR_OK && *win && at != SIZE_MAX) {
            for (size_t i = 0; i < n; i++)
                if (heaps[i] == live[at]) {
                    *pile = i;
                    break;
                }
        } else if (st == GR_OK && pile) {
            *pile = SIZE_MAX;
        }
    }
    gr_free(live);
    gr_free(index);
    gr_free(d.slot);
    gr_free(d.arena);
    return st;
}

/* ---- Conway's genus, by the same memoised search ---- */

/* Packed: g in bits 0-15, gamma_i in bits 16 + 8i, nim-like in bit 48, a
 * value past 63 (not tracked) in bit 49. */
#define GENUS_NIMLIKE (UINT64_C(1) << 48)
#define GENUS_WIDE (UINT64_C(1) << 49)

static unsigned mex64(uint64_t seen)
{
    return ~seen ? (unsigned)__builtin_ctzll(~seen) : 64u;
}

/* The genus of nim heap *g: 0^{1202}, 1^{0313}, g^{g, g^2, g, g^2}. */
static void nim_genus(unsigned g, unsigned gamma[GR_GENUS_LEN])
{
    for (unsigned i = 0; i < GR_GENUS_LEN; i++)
        gamma[i] = g == 0 ? (i == 0 ? 1u : i % 2 ? 2u : 0u)
                 : g == 1 ? (i == 0 ? 0u : i % 2 ? 3u : 1u)
                          : (i % 2 ? g ^ 2u : g);
}

typedef struct genus_scan {
    direct *d;
    const uint64_t *h;
    size_t n, i;
    bool any, all_nimlike, wide;
    uint64_t seen_g, seen_gamma[GR_GENUS_LEN];
    gr_status st;
} genus_scan;

static gr_status genus_of(direct *d, const uint64_t *h, size_t n, uint64_t *out);

static void scan_genus_option(void *arg, const gr_heap_move *mv)
{
    genus_scan *s = arg;
    if (s->st != GR_OK)
        return;
    if (!gr_budget_spend(s->d->b, 1)) {
        s->st = GR_ELIMIT;
        return;
    }
    uint64_t *opt = gr_malloc((s->n + 1) * sizeof *opt), v = 0;
    if (!opt) {
        s->st = GR_ENOMEM;
        return;
    }
    size_t k = make_option(s->d->r, s->h, s->n, s->i, mv, opt);
    s->st = genus_of(s->d, opt, k, &v);
    gr_free(opt);
    if (s->st != GR_OK)
        return;
    s->any = true;
    s->all_nimlike &= (v & GENUS_NIMLIKE) != 0;
    s->wide |= (v & GENUS_WIDE) != 0 || (v & 0xffff) > 62;
    s->seen_g |= UINT64_C(1) << ((v & 0xffff) & 63);
    for (unsigned i = 0; i < GR_GENUS_LEN; i++)
        s->seen_gamma[i] |= UINT64_C(1) << ((v >> (16 + 8 * i)) & 63);
}

static uint64_t pack_genus(const genus_scan *s)
{
    unsigned g = mex64(s->seen_g), gamma[GR_GENUS_LEN], nim[GR_GENUS_LEN];
    for (unsigned i = 0; i < GR_GENUS_LEN; i++) {
        uint64_t seen = s->seen_gamma[i];
        if (i > 0)
            seen |= (UINT64_C(1) << gamma[i - 1]) | (UINT64_C(1) << (gamma[i - 1] ^ 1u));
        gamma[i] = i == 0 && !s->any ? 1u : mex64(seen);
    }
    nim_genus(g, nim);
    bool wide = s->wide || g > 62, nimlike = s->all_nimlike && !wide;
    uint64_t v = g;
    for (unsigned i = 0; i < GR_GENUS_LEN; i++) {
        wide |= gamma[i] > 62;
        nimlike &= gamma[i] == nim[i];
        v |= (uint64_t)(gamma[i] & 63) << (16 + 8 * i);
    }
    return v | (nimlike && !wide ? GENUS_NIMLIKE : 0) | (wide ? GENUS_WIDE : 0);
}

static gr_status genus_of(direct *d, const uint64_t *h, size_t n, uint64_t *out)
{
    uint64_t hash = hash_heaps(h, n);
    memo_entry *e = memo_find(d, h, n, hash);
    if (e->len) {
        *out = e->value;
        return GR_OK;
    }
    genus_scan s = { .d = d, .h = h, .n = n, .all_nimlike = true, .st = GR_OK };
    for (size_t i = 0; i < n && s.st == GR_OK; i++) {
        if (i > 0 && h[i] == h[i - 1])
            continue;
        s.i = i;
        gr_mq_moves(d->r, h[i], UINT64_MAX, scan_genus_option, &s);
    }
    if (s.st != GR_OK)
        return s.st;
    *out = pack_genus(&s);
    return memo_put(d, h, n, hash, *out);
}

gr_status gr_mq_genus(const gr_mq_rules *r, uint64_t heap, gr_budget *b, gr_genus *out)
{
    if (heap > DIRECT_MAX_TOKENS)
        return GR_ELIMIT;
    direct d = { .r = r, .b = b, .nslots = 1024 };
    d.slot = gr_calloc(d.nslots, sizeof *d.slot);
    uint64_t v = 0;
    gr_status st = !d.slot ? GR_ENOMEM : heap_dead(r, heap) ? genus_of(&d, NULL, 0, &v)
                                                            : genus_of(&d, &heap, 1, &v);
    gr_free(d.slot);
    gr_free(d.arena);
    if (st != GR_OK)
        return st;
    out->g = (uint16_t)(v & 0xffff);
    for (unsigned i = 0; i < GR_GENUS_LEN; i++)
        out->gamma[i] = (uint8_t)((v >> (16 + 8 * i)) & 63);
    out->tame = (v & GENUS_NIMLIKE) != 0;
    out->wide = (v & GENUS_WIDE) != 0;
    return GR_OK;
}
