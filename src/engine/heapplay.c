/* Misere play and remoteness of one heap: a direct search over the
 * positions below it, and, for subtraction games, certified periods.
 *
 * Positions. A position is a multiset of heaps, kept canonical: sorted
 * ascending, without the heaps that have no move (dead heaps). Dropping a
 * dead heap changes neither the moves of a position nor whether it has
 * any, so it changes neither the misere outcome nor the remoteness; it
 * makes positions that differ only in dead heaps share one state. Keys are
 * the heap sizes as LEB128 bytes (one byte per heap below 128, the common
 * case once splitting makes positions many).
 *
 * Order. Heaps {1}, {2}, ..., {n} are solved in that order, each by a
 * depth-first search with an explicit stack. Every part a move leaves is
 * smaller than the heap it came from, so when {h} is searched, whether each
 * smaller heap is dead is known, and every single-heap option is already
 * solved (single heaps have their own array, so such an option costs no
 * probe): for a game that never splits the stack is one frame deep however
 * large n is, and the move lists kept on it stay short.
 *
 * Bounds. The search keeps at most GR_HEAPPLAY_MAX_STATES positions (single
 * heaps with a move included), MAX_KEY_BYTES bytes of long keys and
 * MAX_PENDING_MOVES listed moves; past any of them it gives up with
 * GR_ELIMIT. Heaps above MAX_HEAP are refused up front: options() cannot be
 * interrupted, and in every ready-made game all heaps above 2 + max k have a
 * move, so solving every heap up to n would pass the cap anyway.
 *
 * Budget. A move options() lists costs a step; an option examined costs
 * 1 + its number of heaps (building its key), and LOOKUP_COST more when it
 * has two heaps or more (a probe of the table); each heap solved costs one.
 *
 * Progress. A move must remove a token or split a heap in two, so that the
 * positions form no cycle; a move that does neither, or breaks the
 * gr_heap_move contract, ends the search with GR_EINVAL. */
#include "grundy/heapplay.h"

#include <stdlib.h>
#include <string.h>

#include "grundy/subtraction.h"
#include "window_table.h"

/* ---- ready-made games ---- */

static void emit_move(gr_heap_emit emit, void *arg, uint64_t take, uint8_t nparts, uint64_t a,
                      uint64_t b)
{
    gr_heap_move mv = { .take = take, .nparts = nparts, .part = { a, b } };
    emit(arg, &mv);
}

/* Digit k: bit 1 removes the whole heap when n == k, bit 2 leaves n - k >= 1
 * as one heap, bit 4 splits n - k into a <= b, both >= 1. */
static void octal_options(const void *ctx, uint64_t n, gr_heap_emit emit, void *arg)
{
    const gr_octal_code *code = ctx;
    for (unsigned k = 1; k <= code->t && k <= GR_OCTAL_MAX_DIGITS && k <= n; k++) {
        unsigned d = code->digit[k];
        uint64_t rest = n - k;
        if ((d & 1) && rest == 0)
            emit_move(emit, arg, k, 0, 0, 0);
        if ((d & 2) && rest >= 1)
            emit_move(emit, arg, k, 1, rest, 0);
        for (uint64_t a = 1; (d & 4) && a <= rest / 2; a++)
            emit_move(emit, arg, k, 2, a, rest - a);
    }
}

/* Splits n into a < n - a, a >= 1. */
static void grundys_options(const void *ctx, uint64_t n, gr_heap_emit emit, void *arg)
{
    (void)ctx;
    for (uint64_t a = 1; 2 * a < n; a++)
        emit_move(emit, arg, 0, 2, a, n - a);
}

gr_heap_game gr_heap_game_octal(const gr_octal_code *code)
{
    gr_heap_game g = { code, octal_options };
    return g;
}

gr_heap_game gr_heap_game_grundys(void)
{
    gr_heap_game g = { NULL, grundys_options };
    return g;
}

/* ---- the direct search: storage ---- */

#define MAX_HEAP ((uint64_t)GR_HEAPPLAY_MAX_STATES * 4u)
#define MAX_KEY_BYTES ((size_t)1 << 25)
#define MAX_PENDING_MOVES ((size_t)1 << 22)
/* Steps charged per probe of the table, besides 1 + the number of heaps
 * for every option examined: a probe of a table of a million states is a
 * cache and TLB miss, measured at 100-200 ns, about what this many plain
 * steps of the other solvers cost. */
#define LOOKUP_COST 32u
#define NO_VALUE UINT64_MAX
#define NO_HEAP UINT32_MAX
#define NO_SLOT UINT32_MAX

typedef enum search_kind { KIND_MISERE, KIND_REMOTENESS } search_kind;

/* A position seen, stored in the open-addressing table itself (one cache
 * miss per probe). value: misere 1 (win) or 0 (loss), or the remoteness,
 * which is below 2^31: a play from a heap of n <= MAX_HEAP lasts at most 2n
 * moves (each removes a token or adds a heap). Keys of up to INLINE_KEY
 * bytes, nearly all in practice, are kept in the entry; longer ones in the
 * key arena. key_len 0 marks an empty slot (the empty position, which has
 * no move, is never stored). */
#define INLINE_KEY 20u
#define DONE_BIT 0x80000000u
typedef struct entry {
    uint32_t tag;   /* the key hash's high half */
    uint32_t value; /* DONE_BIT once solved */
    uint32_t key_len;
    union {
        uint32_t off;
        uint8_t bytes[INLINE_KEY];
    } key;
} entry;

/* A listed move: the heaps it leaves (0 for none); parts fit in 32 bits
 * because heaps are at most MAX_HEAP. */
typedef struct pending_move {
    uint32_t part[2];
} pending_move;

/* A position being searched: the moves of one of its distinct heap sizes
 * are listed at moves[moves_off ..], and next is the next to examine. */
typedef struct frame {
    uint32_t slot; /* its entry; NO_SLOT for the outermost frame, {s->current} */
    uint32_t heap; /* index of that heap in the decoded position, NO_HEAP before the first */
    uint32_t moves_off, moves_len, next;
    bool any_option;
    bool settled;       /* no later option can change the value */
    bool found_loss;    /* misere */
    uint64_t best_even; /* remoteness: least even option, NO_VALUE if none */
    uint64_t best_odd;  /* remoteness: greatest odd option, NO_VALUE if none */
} frame;

typedef struct search {
    const gr_heap_game *game;
    search_kind kind;
    gr_budget *b;
    gr_status failed; /* set by the emit callback, which cannot return one */
    uint64_t listing; /* the heap whose moves options() is listing */
    uint8_t *alive;   /* alive[h] for the heaps solved so far */
    uint32_t *single; /* single[h]: the value of {h}, for the heaps solved so far */
    uint64_t current; /* the heap being solved */
    entry *table;     /* a power of two of slots, at most half full */
    size_t nslots;
    size_t nentries;  /* positions kept: in the table, and single heaps */
    uint8_t *keys;
    size_t keys_len, keys_cap;
    pending_move *moves;
    size_t moves_len, moves_cap;
    frame *frames;
    size_t nframes, frames_cap;
    uint64_t *heaps, *child; /* scratch: a decoded position and the option built from it */
    uint8_t *key;            /* scratch: the option's key */
    size_t scratch_cap;      /* room in heaps and child; key has 10 bytes per heap */
    uint64_t outer_value;    /* the value of the outermost frame, once finished */
    pending_move outer_loss, outer_even, outer_odd; /* the moves that realise it */
} search;

/* Makes room for `need` elements of `size` bytes, doubling; GR_ELIMIT past
 * `most`, GR_ENOMEM when memory runs out. */
static gr_status reserve(void **p, size_t *cap, size_t need, size_t size, size_t most)
{
    if (need <= *cap)
        return GR_OK;
    if (need > most)
        return GR_ELIMIT;
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    if (c > most)
        c = most;
    void *q = realloc(*p, c * size);
    if (q == NULL)
        return GR_ENOMEM;
    *p = q;
    *cap = c;
    return GR_OK;
}

static void search_free(search *s)
{
    free(s->alive);
    free(s->single);
    free(s->table);
    free(s->keys);
    free(s->moves);
    free(s->frames);
    free(s->heaps);
    free(s->child);
    free(s->key);
}

/* ---- keys ---- */

static size_t encode_heaps(const uint64_t *h, size_t count, uint8_t *out)
{
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t x = h[i];
        while (x >= 0x80) {
            out[len++] = (uint8_t)(x | 0x80);
            x >>= 7;
        }
        out[len++] = (uint8_t)x;
    }
    return len;
}

static size_t decode_heaps(const uint8_t *key, size_t len, uint64_t *out)
{
    size_t count = 0;
    for (size_t i = 0; i < len; count++) {
        uint64_t x = 0;
        unsigned shift = 0;
        while (key[i] & 0x80) {
            x |= (uint64_t)(key[i++] & 0x7f) << shift;
            shift += 7;
        }
        out[count] = x | (uint64_t)key[i++] << shift;
    }
    return count;
}

static uint64_t hash_key(const uint8_t *key, size_t len)
{
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a, then a final mix for the low bits */
    for (size_t i = 0; i < len; i++)
        h = (h ^ key[i]) * 0x100000001b3u;
    h ^= h >> 32;
    h *= 0xbf58476d1ce4e5b9u;
    return h ^ (h >> 29);
}

/* Room for decoding a position of up to `heaps` heaps, and for its options
 * (one heap more, at most 10 key bytes per heap). */
static gr_status reserve_scratch(search *s, size_t heaps)
{
    size_t need = heaps + 2;
    if (need <= s->scratch_cap)
        return GR_OK;
    size_t cap = 2 * need;
    uint64_t *h = realloc(s->heaps, cap * sizeof *h);
    if (h != NULL)
        s->heaps = h;
    uint64_t *c = realloc(s->child, cap * sizeof *c);
    if (c != NULL)
        s->child = c;
    uint8_t *k = realloc(s->key, 10 * cap);
    if (k != NULL)
        s->key = k;
    if (h == NULL || c == NULL || k == NULL)
        return GR_ENOMEM;
    s->scratch_cap = cap;
    return GR_OK;
}

/* ---- the memo ---- */

static const uint8_t *entry_key(const search *s, const entry *e)
{
    return e->key_len <= INLINE_KEY ? e->key.bytes : s->keys + e->key.off;
}

/* The slot of `key` in `table`: its entry, or the empty slot where it
 * would go. */
static size_t probe(const search *s, const entry *table, size_t nslots, const uint8_t *key,
                    size_t len, uint64_t hash)
{
    size_t mask = nslots - 1, i = (size_t)hash & mask;
    uint32_t tag = (uint32_t)(hash >> 32);
    for (; table[i].key_len != 0; i = (i + 1) & mask) {
        const entry *e = &table[i];
        if (e->tag == tag && e->key_len == len && memcmp(entry_key(s, e), key, len) == 0)
            break;
    }
    return i;
}

/* Doubles the table when half full. Entries move, so the frames' slots are
 * looked up again. */
static gr_status memo_grow(search *s)
{
    if (2 * (s->nentries + 1) <= s->nslots)
        return GR_OK;
    size_t n = s->nslots ? 2 * s->nslots : 1024;
    entry *table = calloc(n, sizeof *table);
    if (table == NULL)
        return GR_ENOMEM;
    for (size_t i = 0; i < s->nslots; i++) {
        const entry *e = &s->table[i];
        if (e->key_len == 0)
            continue;
        const uint8_t *key = entry_key(s, e);
        table[probe(s, table, n, key, e->key_len, hash_key(key, e->key_len))] = *e;
    }
    for (size_t f = 1; f < s->nframes; f++) { /* frame 0 is {s->current} */
        const entry *e = &s->table[s->frames[f].slot];
        const uint8_t *key = entry_key(s, e);
        s->frames[f].slot = (uint32_t)probe(s, table, n, key, e->key_len, hash_key(key, e->key_len));
    }
    free(s->table);
    s->table = table;
    s->nslots = n;
    return GR_OK;
}

/* Adds the position in s->key[0 .. len), not yet present, as unsolved. */
static gr_status memo_add(search *s, size_t len, uint64_t hash, uint32_t *slot)
{
    if (s->nentries >= GR_HEAPPLAY_MAX_STATES)
        return GR_ELIMIT;
    gr_status st = GR_OK;
    if (len > INLINE_KEY)
        st = reserve((void **)&s->keys, &s->keys_cap, s->keys_len + len, 1, MAX_KEY_BYTES);
    if (st == GR_OK)
        st = memo_grow(s);
    if (st != GR_OK)
        return st;
    size_t i = probe(s, s->table, s->nslots, s->key, len, hash);
    entry *e = &s->table[i];
    e->tag = (uint32_t)(hash >> 32);
    e->value = 0;
    e->key_len = (uint32_t)len;
    if (len <= INLINE_KEY) {
        memcpy(e->key.bytes, s->key, len);
    } else {
        e->key.off = (uint32_t)s->keys_len;
        memcpy(s->keys + s->keys_len, s->key, len);
        s->keys_len += len;
    }
    s->nentries++;
    *slot = (uint32_t)i;
    return GR_OK;
}

/* ---- listing moves ---- */

/* The gr_heap_move contract, plus progress: a move from heap h removes a
 * token or splits. */
static bool move_valid(const gr_heap_move *mv, uint64_t h)
{
    if (mv->nparts > 2 || mv->take > h)
        return false;
    uint64_t left = h - mv->take;
    if (mv->nparts == 0)
        return left == 0;
    if (mv->part[0] < 1 || mv->part[0] > left)
        return false;
    if (mv->nparts == 1)
        return mv->part[0] == left && mv->take >= 1;
    return mv->part[1] >= mv->part[0] && mv->part[1] == left - mv->part[0];
}

static void collect_move(void *arg, const gr_heap_move *mv)
{
    search *s = arg;
    if (s->failed != GR_OK)
        return;
    if (!move_valid(mv, s->listing)) {
        s->failed = GR_EINVAL;
        return;
    }
    if (!gr_budget_spend(s->b, 1)) {
        s->failed = GR_ELIMIT;
        return;
    }
    gr_status st = reserve((void **)&s->moves, &s->moves_cap, s->moves_len + 1, sizeof *s->moves,
                           MAX_PENDING_MOVES);
    if (st != GR_OK) {
        s->failed = st;
        return;
    }
    pending_move *p = &s->moves[s->moves_len++];
    p->part[0] = mv->nparts >= 1 ? (uint32_t)mv->part[0] : 0;
    p->part[1] = mv->nparts == 2 ? (uint32_t)mv->part[1] : 0;
}

/* Appends the moves of heap h at s->moves[s->moves_len ..]; *count of them. */
static gr_status list_moves(search *s, uint64_t h, uint32_t *count)
{
    size_t before = s->moves_len;
    s->failed = GR_OK;
    s->listing = h;
    s->game->options(s->game->ctx, h, collect_move, s);
    *count = (uint32_t)(s->moves_len - before);
    return s->failed;
}

/* ---- frames ---- */

static uint64_t terminal_value(const search *s)
{
    return s->kind == KIND_MISERE ? 1 : 0; /* misere: no move left is a win */
}

static gr_status push_frame(search *s, uint32_t slot, uint32_t heap, size_t moves_off,
                            uint32_t moves_len)
{
    gr_status st = reserve((void **)&s->frames, &s->frames_cap, s->nframes + 1, sizeof *s->frames,
                           GR_HEAPPLAY_MAX_STATES);
    if (st != GR_OK)
        return st;
    frame *f = &s->frames[s->nframes++];
    memset(f, 0, sizeof *f);
    f->slot = slot;
    f->heap = heap;
    f->moves_off = (uint32_t)moves_off;
    f->moves_len = moves_len;
    f->best_even = NO_VALUE;
    f->best_odd = NO_VALUE;
    return GR_OK;
}

/* Index of the first heap after `at` of a different size (count if none). */
static uint32_t next_distinct(const uint64_t *heaps, size_t count, uint32_t at)
{
    if (at == NO_HEAP)
        return 0;
    uint32_t j = at + 1;
    while (j < count && heaps[j] == heaps[at])
        j++;
    return j;
}

/* Builds in s->key the position after the move on heap j of s->heaps:
 * the heap replaced by the parts that have a move, kept sorted. */
static size_t build_option(search *s, size_t count, uint32_t j, pending_move mv, size_t *nheaps)
{
    uint64_t parts[2];
    size_t np = 0;
    for (unsigned i = 0; i < 2; i++)
        if (mv.part[i] != 0 && s->alive[mv.part[i]])
            parts[np++] = mv.part[i];
    if (np == 2 && parts[0] > parts[1]) {
        uint64_t t = parts[0];
        parts[0] = parts[1];
        parts[1] = t;
    }
    size_t c = 0, p = 0;
    for (size_t i = 0; i < count; i++) {
        if (i == j)
            continue;
        while (p < np && parts[p] <= s->heaps[i])
            s->child[c++] = parts[p++];
        s->child[c++] = s->heaps[i];
    }
    while (p < np)
        s->child[c++] = parts[p++];
    *nheaps = c;
    return encode_heaps(s->child, c, s->key);
}

/* The next option of the top frame, in s->key (*len bytes, *nheaps heaps);
 * *has false when the frame has no option left to examine. */
static gr_status next_option(search *s, bool *has, size_t *len, size_t *nheaps)
{
    frame *f = &s->frames[s->nframes - 1];
    *has = false;
    if (f->settled)
        return GR_OK;
    size_t count = 1;
    s->heaps[0] = s->current;
    if (f->slot != NO_SLOT) {
        const entry *e = &s->table[f->slot];
        gr_status st = reserve_scratch(s, e->key_len);
        if (st != GR_OK)
            return st;
        count = decode_heaps(entry_key(s, e), e->key_len, s->heaps);
    }
    while (f->next == f->moves_len) {
        uint32_t j = next_distinct(s->heaps, count, f->heap);
        if (j == count)
            return GR_OK;
        s->moves_len = f->moves_off;
        gr_status st = list_moves(s, s->heaps[j], &f->moves_len);
        if (st != GR_OK)
            return st;
        f->heap = j;
        f->next = 0;
    }
    pending_move mv = s->moves[f->moves_off + f->next++];
    f->any_option = true;
    if (!gr_budget_spend(s->b, 1 + count))
        return GR_ELIMIT;
    *len = build_option(s, count, f->heap, mv, nheaps);
    *has = true;
    return GR_OK;
}

/* Takes the value of the option just examined into frame f. */
static void frame_take(search *s, frame *f, uint64_t v, bool outermost)
{
    pending_move mv = s->moves[f->moves_off + f->next - 1];
    if (s->kind == KIND_MISERE) {
        if (v == 0) {
            f->found_loss = f->settled = true;
            if (outermost)
                s->outer_loss = mv;
        }
        return;
    }
    if (v % 2 == 0) {
        if (f->best_even == NO_VALUE || v < f->best_even) {
            f->best_even = v;
            if (outermost)
                s->outer_even = mv;
        }
        if (v == 0) /* no option can beat an even 0 */
            f->settled = true;
    } else if (f->best_odd == NO_VALUE || v > f->best_odd) {
        f->best_odd = v;
        if (outermost)
            s->outer_odd = mv;
    }
}

static uint64_t frame_value(const search *s, const frame *f)
{
    if (!f->any_option)
        return terminal_value(s);
    if (s->kind == KIND_MISERE)
        return f->found_loss ? 1 : 0;
    return 1 + (f->best_even != NO_VALUE ? f->best_even : f->best_odd);
}

/* Records the top frame's value and hands it to the frame below. */
static void finish_frame(search *s)
{
    frame *f = &s->frames[--s->nframes];
    uint64_t v = frame_value(s, f);
    s->moves_len = f->moves_off;
    if (s->nframes > 0) {
        s->table[f->slot].value = (uint32_t)v | DONE_BIT;
        frame_take(s, &s->frames[s->nframes - 1], v, s->nframes == 1);
    } else {
        s->single[s->current] = (uint32_t)v;
        s->outer_value = v;
    }
}

/* Runs the stack until it is empty. */
static gr_status run_frames(search *s)
{
    while (s->nframes > 0) {
        bool has;
        size_t len = 0, nheaps = 0;
        gr_status st = next_option(s, &has, &len, &nheaps);
        if (st != GR_OK)
            return st;
        if (!has) {
            finish_frame(s);
            continue;
        }
        frame *top = &s->frames[s->nframes - 1];
        if (nheaps <= 1) { /* no heap left, or one smaller heap, solved already */
            uint64_t v = nheaps == 0 ? terminal_value(s) : s->single[s->child[0]];
            frame_take(s, top, v, s->nframes == 1);
            continue;
        }
        if (!gr_budget_spend(s->b, LOOKUP_COST))
            return GR_ELIMIT;
        uint64_t hash = hash_key(s->key, len);
        const entry *e = &s->table[probe(s, s->table, s->nslots, s->key, len, hash)];
        if (e->key_len != 0) {
            if (!(e->value & DONE_BIT)) /* unreachable for valid moves, which make progress */
                return GR_EINVAL;
            frame_take(s, top, e->value & ~DONE_BIT, s->nframes == 1);
            continue;
        }
        uint32_t slot;
        st = memo_add(s, len, hash, &slot);
        if (st == GR_OK)
            st = push_frame(s, slot, NO_HEAP, s->moves_len, 0);
        if (st != GR_OK)
            return st;
    }
    return GR_OK;
}

/* Solves {h}, all smaller heaps being solved, and marks whether h is
 * alive. Single heaps are kept in s->single, not in the table: an option
 * that is one heap then costs no probe. */
static gr_status solve_heap(search *s, uint64_t h)
{
    uint32_t count;
    gr_status st = list_moves(s, h, &count);
    if (st != GR_OK)
        return st;
    s->alive[h] = count > 0;
    s->single[h] = (uint32_t)terminal_value(s);
    s->outer_value = terminal_value(s);
    if (count == 0)
        return GR_OK;
    if (s->nentries >= GR_HEAPPLAY_MAX_STATES)
        return GR_ELIMIT;
    s->nentries++;
    s->current = h;
    st = push_frame(s, NO_SLOT, 0, 0, count);
    if (st == GR_OK)
        st = run_frames(s);
    return st;
}

/* Solves {1} .. {n}; then s->outer_value is the value of {n}. */
static gr_status search_run(search *s, uint64_t n)
{
    s->alive = calloc(n + 1, 1);
    s->single = calloc(n + 1, sizeof *s->single);
    gr_status st = s->alive && s->single ? reserve_scratch(s, 1) : GR_ENOMEM;
    if (st == GR_OK)
        st = memo_grow(s); /* the first slots */
    s->outer_value = terminal_value(s);
    for (uint64_t h = 1; h <= n && st == GR_OK; h++)
        st = gr_budget_spend(s->b, 1) ? solve_heap(s, h) : GR_ELIMIT;
    return st;
}

static gr_heap_move move_of(uint64_t n, pending_move p)
{
    gr_heap_move mv;
    memset(&mv, 0, sizeof mv);
    mv.nparts = (uint8_t)((p.part[0] != 0) + (p.part[1] != 0));
    mv.part[0] = p.part[0];
    mv.part[1] = p.part[1];
    mv.take = n - p.part[0] - p.part[1];
    return mv;
}

static gr_status heap_search(const gr_heap_game *g, uint64_t n, gr_budget *b, search_kind kind,
                             uint64_t *value, gr_heap_move *mv)
{
    if (g == NULL || g->options == NULL || b == NULL || mv == NULL)
        return GR_EINVAL;
    memset(mv, 0, sizeof *mv);
    if (n > MAX_HEAP) {
        b->left = 0;
        return GR_ELIMIT;
    }
    search s;
    memset(&s, 0, sizeof s);
    s.game = g;
    s.kind = kind;
    s.b = b;
    gr_status st = search_run(&s, n);
    if (st == GR_OK) {
        uint64_t v = s.outer_value;
        bool moved = n > 0 && s.alive[n];
        *value = v;
        if (moved && kind == KIND_MISERE && v == 1)
            *mv = move_of(n, s.outer_loss);
        else if (moved && kind == KIND_REMOTENESS && v > 0)
            *mv = move_of(n, v % 2 == 1 ? s.outer_even : s.outer_odd);
    }
    if (st == GR_ELIMIT)
        b->left = 0;
    search_free(&s);
    return st;
}

gr_status gr_heap_misere(const gr_heap_game *g, uint64_t n, gr_budget *b, bool *win,
                         gr_heap_move *mv)
{
    if (win == NULL)
        return GR_EINVAL;
    uint64_t v = 0;
    gr_status st = heap_search(g, n, b, KIND_MISERE, &v, mv);
    if (st == GR_OK)
        *win = v == 1;
    return st;
}

gr_status gr_heap_remoteness(const gr_heap_game *g, uint64_t n, gr_budget *b, uint64_t *r,
                             gr_heap_move *mv)
{
    if (r == NULL)
        return GR_EINVAL;
    return heap_search(g, n, b, KIND_REMOTENESS, r, mv);
}

/* ---- subtraction games ----
 *
 * Values v(0), v(1), ... (misere: 1 win, 0 loss; or the remoteness) are
 * computed in order. From n >= m = max S every move is available, so v(n)
 * is a function F of the window v[n - m .. n).
 *
 * Misere. Windows W_j = v[j .. j + m) with W_{j+1} = F'(W_j) for every
 * j >= 0; the first window equal to an earlier one, W_k = W_j, gives
 * v(x + k - j) = v(x) for every x >= j.
 *
 * Remoteness. The rule (1 + least even option, else 1 + greatest odd one)
 * compares only parities and order, so adding the same even c to every
 * option adds c to the result. Suppose R(x + p) = R(x) + c, c even, for the
 * m heaps x in [j, j + m), j >= m. Then for x = j + m, j + m + 1, ... in
 * turn: x >= m and x + p >= m, so both heaps have every move; each option
 * x - s lies in [j, x), where the shift is already known to hold; so
 * R(x + p) = R(x) + c, and by induction for every x >= j. (j >= 0 would
 * do, as x >= j + m >= m; j >= m is what heapplay.h states.) Windows are
 * compared after taking away their first value rounded down to an even
 * number (an even shift moves that by exactly c). R(x) <= x, since every
 * move removes a token, so the extension fits 64 bits for x < 2^63.
 *
 * Windows are found in the engine's window table (window_table.h); a
 * match is confirmed value by value (m steps). Each value costs |S| + 4
 * steps. At most MAX_SEQ_VALUES values are kept (4 bytes each, and a table
 * of 8 bytes a slot, at most half full: about 40 MB). */

#define MAX_SEQ_VALUES ((uint64_t)1 << 21)

typedef struct seq_solver {
    search_kind kind;
    uint64_t *s; /* the moves, sorted, without repeats */
    size_t ns;
    uint64_t m;           /* max S: the window length */
    uint64_t first_start; /* least window start compared */
    uint32_t *v;
    uint64_t count, cap;
    window_hash hash; /* of the newest m values */
    uint64_t ones;    /* the hash of a window of m ones */
    window_table windows;
    bool certified;
    uint64_t start, period, shift; /* v(x + period) = v(x) + shift for x >= start */
} seq_solver;

static void seq_free(seq_solver *q)
{
    free(q->s);
    free(q->v);
    window_table_free(&q->windows);
}

/* Misere: no move is a win; else a win when some option is a loss. */
static uint32_t misere_next(const seq_solver *q)
{
    uint64_t n = q->count;
    if (n < q->s[0])
        return 1;
    for (size_t i = 0; i < q->ns && q->s[i] <= n; i++)
        if (q->v[n - q->s[i]] == 0)
            return 1;
    return 0;
}

/* Steinhaus: 0 with no move; 1 + least even option; else 1 + greatest odd. */
static uint32_t remoteness_next(const seq_solver *q)
{
    uint64_t n = q->count;
    if (n < q->s[0])
        return 0;
    uint32_t even = UINT32_MAX, odd = 0;
    for (size_t i = 0; i < q->ns && q->s[i] <= n; i++) {
        uint32_t r = q->v[n - q->s[i]];
        if (r % 2 == 0 && r < even)
            even = r;
        if (r % 2 == 1 && r > odd)
            odd = r;
    }
    return 1 + (even != UINT32_MAX ? even : odd);
}

/* The even offset taken away from the window at j before comparing. */
static uint64_t window_base(const seq_solver *q, uint64_t j)
{
    return q->kind == KIND_MISERE ? 0 : q->v[j] & ~(uint32_t)1;
}

/* W_k = W_j + (base k - base j), that difference being >= 0. */
static bool windows_match(const void *ctx, uint64_t j, uint64_t k)
{
    const seq_solver *q = ctx;
    uint64_t bj = window_base(q, j), bk = window_base(q, k);
    if (bk < bj)
        return false;
    for (uint64_t i = 0; i < q->m; i++)
        if ((uint64_t)q->v[k + i] - q->v[j + i] != bk - bj)
            return false;
    return true;
}

/* Validates and copies the moves (GR_EINVAL as gr_subtraction_solve). */
static gr_status seq_init(seq_solver *q, const uint64_t *moves, size_t nmoves, search_kind kind)
{
    memset(q, 0, sizeof *q);
    q->kind = kind;
    gr_status st = gr_subtraction_moves_copy(moves, nmoves, &q->s, &q->ns);
    if (st != GR_OK)
        return st;
    q->m = q->s[q->ns - 1];
    q->first_start = kind == KIND_MISERE ? 0 : q->m;
    window_hash_init(&q->hash, q->m);
    q->ones = window_hash_ones(q->m);
    return window_table_init(&q->windows, q->m, windows_match, q);
}

/* Looks the window at j up among the earlier ones: certifies on a match,
 * adds it otherwise. Windows are keyed by their hash less their base. */
static gr_status window_find_or_add(seq_solver *q, uint64_t j, gr_budget *b)
{
    uint64_t key = q->hash.value - window_base(q, j) * q->ones;
    bool found;
    uint64_t earlier;
    gr_status st = window_table_find_or_add(&q->windows, key, j, b, &found, &earlier);
    if (st == GR_OK && found) {
        q->certified = true;
        q->start = earlier;
        q->period = j - earlier;
        q->shift = window_base(q, j) - window_base(q, earlier);
    }
    return st;
}

/* Computes one more value and looks up the window it completes. */
static gr_status seq_step(seq_solver *q, gr_budget *b)
{
    if (!gr_budget_spend(b, q->ns + 4) || q->count == MAX_SEQ_VALUES)
        return GR_ELIMIT;
    if (q->count == q->cap) {
        uint64_t cap = q->cap ? 2 * q->cap : 1024;
        uint32_t *v = realloc(q->v, (size_t)cap * sizeof *v);
        if (v == NULL)
            return GR_ENOMEM;
        q->v = v;
        q->cap = cap;
    }
    uint64_t n = q->count;
    uint32_t x = q->kind == KIND_MISERE ? misere_next(q) : remoteness_next(q);
    q->v[q->count++] = x;
    if (n >= q->m)
        window_hash_drop(&q->hash, q->v[n - q->m]);
    window_hash_push(&q->hash, x);
    if (n + 1 < q->first_start + q->m)
        return GR_OK;
    return window_find_or_add(q, n + 1 - q->m, b);
}

/* Values until v(n) is known directly or a certificate extends them. */
static gr_status seq_solve(seq_solver *q, uint64_t n, gr_budget *b)
{
    gr_status st = GR_OK;
    while (st == GR_OK && q->count <= n && !q->certified)
        st = seq_step(q, b);
    return st;
}

/* v(x): computed, or through the certificate (x >= count > start). */
static gr_status seq_value(const seq_solver *q, uint64_t x, uint64_t *out)
{
    if (x < q->count) {
        *out = q->v[x];
        return GR_OK;
    }
    if (!q->certified)
        return GR_EBOUND;
    uint64_t laps = (x - q->start) / q->period;
    uint64_t base = q->v[q->start + (x - q->start) % q->period];
    if (q->shift != 0 && laps > (UINT64_MAX - base) / q->shift)
        return GR_ERANGE; /* unreachable for x < 2^63, since R(x) <= x */
    *out = base + laps * q->shift;
    return GR_OK;
}

/* The least s <= n with v(n - s) == target. */
static gr_status least_take(const seq_solver *q, uint64_t n, uint64_t target, uint64_t *take)
{
    for (size_t i = 0; i < q->ns && q->s[i] <= n; i++) {
        uint64_t v;
        gr_status st = seq_value(q, n - q->s[i], &v);
        if (st != GR_OK)
            return st;
        if (v == target) {
            *take = q->s[i];
            return GR_OK;
        }
    }
    return GR_EINVAL; /* unreachable: the rule that gave v(n) names such an s */
}

/* v(n) for the game, and the least take to an option of value target(v(n))
 * (no take when want_take is false). */
static gr_status seq_answer(const uint64_t *moves, size_t nmoves, uint64_t n, gr_budget *b,
                            search_kind kind, uint64_t *value, uint64_t *take)
{
    if (b == NULL || n > (uint64_t)INT64_MAX)
        return GR_EINVAL;
    seq_solver q;
    gr_status st = seq_init(&q, moves, nmoves, kind);
    if (st == GR_OK)
        st = seq_solve(&q, n, b);
    if (st == GR_OK)
        st = seq_value(&q, n, value);
    uint64_t t = 0;
    if (st == GR_OK && kind == KIND_MISERE && *value == 1 && n >= q.s[0])
        st = least_take(&q, n, 0, &t);
    if (st == GR_OK && kind == KIND_REMOTENESS && *value > 0)
        st = least_take(&q, n, *value - 1, &t);
    if (st == GR_OK)
        *take = t;
    if (st == GR_ELIMIT) /* the value cap too: the work this call may do is spent */
        b->left = 0;
    seq_free(&q);
    return st;
}

gr_status gr_subtraction_misere(const uint64_t *moves, size_t nmoves, uint64_t n, gr_budget *b,
                                bool *win, uint64_t *take)
{
    if (win == NULL || take == NULL)
        return GR_EINVAL;
    uint64_t v = 0;
    gr_status st = seq_answer(moves, nmoves, n, b, KIND_MISERE, &v, take);
    if (st == GR_OK)
        *win = v == 1;
    return st;
}

gr_status gr_subtraction_remoteness(const uint64_t *moves, size_t nmoves, uint64_t n,
                                    gr_budget *b, uint64_t *r, uint64_t *take)
{
    if (r == NULL || take == NULL)
        return GR_EINVAL;
    return seq_answer(moves, nmoves, n, b, KIND_REMOTENESS, r, take);
}
