/* SPDX-License-Identifier: MIT */
/* Misere play and remoteness of one heap, by a direct search over the
 * positions below it (heapplay.h); the memo of positions is
 * heapplay_memo.c, their keys heapplay_keys.h.
 *
 * Positions. A position is a multiset of heaps, kept canonical: sorted
 * ascending, without the heaps that have no move (dead heaps). Dropping a
 * dead heap changes neither the moves of a position nor whether it has
 * any, so it changes neither the misere outcome nor the remoteness; it
 * makes positions that differ only in dead heaps share one state.
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
 * heaps with a move included), MEMO_MAX_KEY_BYTES bytes of long keys and
 * MAX_PENDING_MOVES listed moves; past any of them it gives up with
 * GR_ELIMIT. Heaps above MAX_HEAP are refused up front: options() cannot be
 * interrupted, and in every ready-made game all heaps above 2 + max k have a
 * move, so solving every heap up to n would pass the cap anyway. A play
 * from a heap of n <= MAX_HEAP lasts at most 2n moves (each removes a token
 * or adds a heap), so remoteness stays below 2^31, as the memo needs.
 *
 * Budget. A move options() lists costs a step; an option examined costs
 * 1 + its number of heaps (building its key), and LOOKUP_COST more when it
 * has two heaps or more (a probe of the memo); each heap solved costs one.
 *
 * Progress. A move must remove a token or split a heap in two, so that the
 * positions form no cycle; a move that does neither, or breaks the
 * gr_heap_move contract, ends the search with GR_EINVAL. */
#include "grundy/heapplay.h"
#include "grundy/alloc.h"

#include <stdlib.h>
#include <string.h>

#include "heapplay_keys.h"
#include "heapplay_kind.h"
#include "heapplay_memo.h"

#define MAX_HEAP ((uint64_t)GR_HEAPPLAY_MAX_STATES * 4u)
#define MAX_PENDING_MOVES ((size_t)1 << 22)
/* Steps charged per probe of the memo, besides 1 + the number of heaps
 * for every option examined: a probe of a table of a million states is a
 * cache and TLB miss, measured at 100-200 ns, about what this many plain
 * steps of the other solvers cost. */
#define LOOKUP_COST 32u
#define NO_VALUE UINT64_MAX
#define NO_HEAP UINT32_MAX
#define NO_SLOT UINT32_MAX

/* A listed move: the heaps it leaves (0 for none); parts fit in 32 bits
 * because heaps are at most MAX_HEAP. */
typedef struct pending_move {
    uint32_t part[2];
} pending_move;

/* A position being searched: the moves of one of its distinct heap sizes
 * are listed at moves[moves_off ..], and next is the next to examine. */
typedef struct frame {
    uint32_t slot; /* its memo slot; NO_SLOT for the outermost frame, {s->current} */
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
    play_kind kind;
    gr_budget *b;
    gr_status failed; /* set by the emit callback, which cannot return one */
    uint64_t listing; /* the heap whose moves options() is listing */
    uint8_t *alive;   /* alive[h] for the heaps solved so far */
    uint32_t *single; /* single[h]: the value of {h}, for the heaps solved so far */
    uint64_t current; /* the heap being solved */
    heap_memo memo;
    size_t nstates;   /* positions kept: in the memo, and single heaps */
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

static void search_free(search *s)
{
    gr_free(s->alive);
    gr_free(s->single);
    heap_memo_free(&s->memo);
    gr_free(s->moves);
    gr_free(s->frames);
    gr_free(s->heaps);
    gr_free(s->child);
    gr_free(s->key);
}

/* Room for decoding a position of up to `heaps` heaps, and for its options
 * (one heap more, at most 10 key bytes per heap). */
static gr_status reserve_scratch(search *s, size_t heaps)
{
    size_t need = heaps + 2;
    if (need <= s->scratch_cap)
        return GR_OK;
    size_t cap = 2 * need;
    uint64_t *h = gr_realloc(s->heaps, cap * sizeof *h);
    if (h != NULL)
        s->heaps = h;
    uint64_t *c = gr_realloc(s->child, cap * sizeof *c);
    if (c != NULL)
        s->child = c;
    uint8_t *k = gr_realloc(s->key, 10 * cap);
    if (k != NULL)
        s->key = k;
    if (h == NULL || c == NULL || k == NULL)
        return GR_ENOMEM;
    s->scratch_cap = cap;
    return GR_OK;
}

/* Counts one more position kept, against GR_HEAPPLAY_MAX_STATES. */
static gr_status count_state(search *s)
{
    if (s->nstates >= GR_HEAPPLAY_MAX_STATES)
        return GR_ELIMIT;
    s->nstates++;
    return GR_OK;
}

/* The memo has grown: the frames' slots are found again (frame 0 is
 * {s->current}, which is not in the memo). */
static void frames_rehome(void *arg, const heap_memo *m, const heap_entry *old)
{
    search *s = arg;
    for (size_t f = 1; f < s->nframes; f++)
        s->frames[f].slot = heap_memo_rehome(m, old, s->frames[f].slot);
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
    gr_status st = heap_array_reserve((void **)&s->moves, &s->moves_cap, s->moves_len + 1, sizeof *s->moves,
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
    gr_status st = heap_array_reserve((void **)&s->frames, &s->frames_cap, s->nframes + 1, sizeof *s->frames,
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
    return heap_key_encode(s->child, c, s->key);
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
        size_t key_len;
        const uint8_t *key = heap_memo_key(&s->memo, f->slot, &key_len);
        gr_status st = reserve_scratch(s, key_len); /* a byte a heap at least */
        if (st != GR_OK)
            return st;
        count = heap_key_decode(key, key_len, s->heaps);
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
        heap_memo_solve(&s->memo, f->slot, v);
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
        uint64_t hash = heap_key_hash(s->key, len), v = 0;
        memo_state seen = heap_memo_lookup(&s->memo, s->key, len, hash, &v);
        if (seen == MEMO_OPEN) /* unreachable for valid moves, which make progress */
            return GR_EINVAL;
        if (seen == MEMO_SOLVED) {
            frame_take(s, top, v, s->nframes == 1);
            continue;
        }
        uint32_t slot;
        st = count_state(s);
        if (st == GR_OK)
            st = heap_memo_add(&s->memo, s->key, len, hash, &slot);
        if (st == GR_OK)
            st = push_frame(s, slot, NO_HEAP, s->moves_len, 0);
        if (st != GR_OK)
            return st;
    }
    return GR_OK;
}

/* Solves {h}, all smaller heaps being solved, and marks whether h is
 * alive. Single heaps are kept in s->single, not in the memo: an option
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
    st = count_state(s);
    if (st != GR_OK)
        return st;
    s->current = h;
    st = push_frame(s, NO_SLOT, 0, 0, count);
    if (st == GR_OK)
        st = run_frames(s);
    return st;
}

/* Solves {1} .. {n}; then s->outer_value is the value of {n}. */
static gr_status search_run(search *s, uint64_t n)
{
    s->alive = gr_calloc(n + 1, 1);
    s->single = gr_calloc(n + 1, sizeof *s->single);
    gr_status st = s->alive && s->single ? reserve_scratch(s, 1) : GR_ENOMEM;
    if (st == GR_OK)
        st = heap_memo_init(&s->memo, frames_rehome, s);
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

static gr_status heap_search(const gr_heap_game *g, uint64_t n, gr_budget *b, play_kind kind,
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

