/* SPDX-License-Identifier: MIT */
/* Tests for m,n,k-games (include/grundy/mnk.h).
 *
 * The brute-force twin works on character boards, not bitboards: it finds
 * lines by walking the four directions from the cell just marked, and
 * scores a position by plain minimax over every move, with the same
 * distance-to-end score the engine uses (+(left + 1) for a win with `left`
 * cells still empty at the end, -(left + 1) for a loss, 0 for a draw). No
 * pruning, no symmetry, no threat rules. On 3 x 3 it recurses without any
 * memo; on larger boards it memoizes exact scores under each position's
 * full base-3 code (a dictionary of the definition, not a bounded table).
 *
 * Every reachable position of the small boards is checked and solved; the
 * value and the distance must match the twin, and the returned move is
 * replayed: it must be empty, and the twin's score of the result must be
 * exactly minus the position's score (so it is a best move, fastest win
 * included). gr_mnk_check is compared with reachability on every board. */
#include "grundy/mnk.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"

#define MAXC 64u                  /* cells */
#define MAXFREE 16u               /* twin memo: at most 3^16 codes */
#define UNKNOWN INT8_MIN
#define BUDGET 100000000u         /* ample for every small position */


/* ---- deterministic pseudo-random numbers (splitmix64) ---- */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* ---- the twin ---- */

typedef struct twin {
    unsigned rows, cols, k, cells;
    unsigned nfree;
    unsigned free[MAXFREE]; /* the cells the memo code is taken over */
    int8_t *memo;           /* 3^nfree scores (UNKNOWN), or NULL: no memo */
} twin;

static uint64_t pow3(unsigned n)
{
    uint64_t p = 1;
    while (n-- > 0)
        p *= 3;
    return p;
}

/* A twin whose memo covers the empty cells of board (all cells when board
 * is NULL); use_memo false gives the plain recursion. */
static void twin_init(twin *t, unsigned rows, unsigned cols, unsigned k, const char *board,
                      bool use_memo)
{
    memset(t, 0, sizeof *t);
    t->rows = rows;
    t->cols = cols;
    t->k = k;
    t->cells = rows * cols;
    for (unsigned i = 0; i < t->cells; i++)
        if (board == NULL || board[i] == '.') {
            REQUIRE(t->nfree < MAXFREE || !use_memo);
            if (t->nfree < MAXFREE)
                t->free[t->nfree] = i;
            t->nfree++;
        }
    if (use_memo) {
        size_t n = (size_t)pow3(t->nfree);
        t->memo = malloc(n);
        REQUIRE(t->memo != NULL);
        memset(t->memo, UNKNOWN, n);
    }
}

static void twin_free(twin *t)
{
    free(t->memo);
    t->memo = NULL;
}

static int run_length(const twin *t, const char *bd, int r, int c, int dr, int dc)
{
    int n = 0;
    char ch = bd[r * (int)t->cols + c];
    for (;;) {
        r += dr;
        c += dc;
        if (r < 0 || c < 0 || r >= (int)t->rows || c >= (int)t->cols)
            return n;
        if (bd[r * (int)t->cols + c] != ch)
            return n;
        n++;
    }
}

/* True when the mark on `cell` lies on k or more in a row of its kind. */
static bool twin_line_at(const twin *t, const char *bd, unsigned cell)
{
    static const int dirs[4][2] = { { 0, 1 }, { 1, 0 }, { 1, 1 }, { 1, -1 } };
    int r = (int)(cell / t->cols), c = (int)(cell % t->cols);
    for (unsigned d = 0; d < 4; d++) {
        int n = 1 + run_length(t, bd, r, c, dirs[d][0], dirs[d][1]) +
                run_length(t, bd, r, c, -dirs[d][0], -dirs[d][1]);
        if (n >= (int)t->k)
            return true;
    }
    return false;
}

static bool twin_has_line(const twin *t, const char *bd, char ch)
{
    for (unsigned i = 0; i < t->cells; i++)
        if (bd[i] == ch && twin_line_at(t, bd, i))
            return true;
    return false;
}

static unsigned count_char(const char *bd, unsigned n, char ch)
{
    unsigned c = 0;
    for (unsigned i = 0; i < n; i++)
        c += bd[i] == ch;
    return c;
}

static size_t twin_code(const twin *t, const char *bd)
{
    size_t code = 0;
    for (unsigned i = t->nfree; i-- > 0;)
        code = code * 3 + (bd[t->free[i]] == '.' ? 0u : bd[t->free[i]] == 'X' ? 1u : 2u);
    return code;
}

/* Score for `mover` of a position that is not over, with `empty` empty cells. */
static int twin_score(twin *t, char *bd, char mover, unsigned empty)
{
    size_t code = t->memo != NULL ? twin_code(t, bd) : 0;
    if (t->memo != NULL && t->memo[code] != UNKNOWN)
        return t->memo[code];
    int best = -1000;
    for (unsigned i = 0; i < t->cells; i++) {
        if (bd[i] != '.')
            continue;
        bd[i] = mover;
        int s;
        if (twin_line_at(t, bd, i))
            s = (int)empty; /* ends with empty - 1 cells left */
        else if (empty == 1)
            s = 0;
        else
            s = -twin_score(t, bd, mover == 'X' ? 'O' : 'X', empty - 1);
        bd[i] = '.';
        if (s > best)
            best = s;
    }
    if (t->memo != NULL)
        t->memo[code] = (int8_t)best;
    return best;
}

static char mover_of(const char *bd, unsigned cells)
{
    return count_char(bd, cells, 'X') == count_char(bd, cells, 'O') ? 'X' : 'O';
}

/* Score for the player to move of any legal position, finished or not. */
static int twin_value(twin *t, const char *board)
{
    char bd[MAXC + 1];
    memcpy(bd, board, t->cells);
    unsigned empty = count_char(bd, t->cells, '.');
    if (twin_has_line(t, bd, 'X') || twin_has_line(t, bd, 'O'))
        return -(int)(empty + 1);
    if (empty == 0)
        return 0;
    return twin_score(t, bd, mover_of(bd, t->cells), empty);
}

static int sign(int v)
{
    return v > 0 ? 1 : v < 0 ? -1 : 0;
}

/* ---- enumeration of reachable positions ---- */

typedef struct reach {
    const twin *t;
    uint8_t *seen;        /* by full base-3 code */
    unsigned max_marks;
    char **boards;        /* the positions found */
    size_t count, cap;
} reach;

static size_t full_code(const twin *t, const char *bd)
{
    size_t code = 0;
    for (unsigned i = t->cells; i-- > 0;)
        code = code * 3 + (bd[i] == '.' ? 0u : bd[i] == 'X' ? 1u : 2u);
    return code;
}

static void reach_add(reach *r, const char *bd)
{
    if (r->count == r->cap) {
        r->cap = r->cap == 0 ? 1024 : r->cap * 2;
        r->boards = realloc(r->boards, r->cap * sizeof *r->boards);
        REQUIRE(r->boards != NULL);
    }
    char *copy = malloc(r->t->cells + 1);
    REQUIRE(copy != NULL);
    memcpy(copy, bd, r->t->cells);
    copy[r->t->cells] = '\0';
    r->boards[r->count++] = copy;
}

/* Depth-first from bd (not yet seen); stops at finished positions. */
static void reach_from(reach *r, char *bd, unsigned marks, bool over)
{
    r->seen[full_code(r->t, bd)] = 1;
    reach_add(r, bd);
    if (over || marks == r->max_marks || marks == r->t->cells)
        return;
    char mover = marks % 2 == 0 ? 'X' : 'O';
    for (unsigned i = 0; i < r->t->cells; i++) {
        if (bd[i] != '.')
            continue;
        bd[i] = mover;
        if (!r->seen[full_code(r->t, bd)])
            reach_from(r, bd, marks + 1, twin_line_at(r->t, bd, i));
        bd[i] = '.';
    }
}

static void reach_run(reach *r, const twin *t, unsigned max_marks)
{
    memset(r, 0, sizeof *r);
    r->t = t;
    r->max_marks = max_marks;
    r->seen = calloc((size_t)pow3(t->cells), 1);
    REQUIRE(r->seen != NULL);
    char bd[MAXC + 1];
    memset(bd, '.', t->cells);
    bd[t->cells] = '\0';
    reach_from(r, bd, 0, false);
}

static void reach_free(reach *r)
{
    for (size_t i = 0; i < r->count; i++)
        free(r->boards[i]);
    free(r->boards);
    free(r->seen);
}

/* ---- one position: check, solve, replay ---- */

static void check_fields(twin *t, const char *board, const gr_mnk_position *p)
{
    unsigned nx = count_char(board, t->cells, 'X'), no = count_char(board, t->cells, 'O');
    bool xl = twin_has_line(t, board, 'X'), ol = twin_has_line(t, board, 'O');
    REQUIRE_EQ(p->empty, t->cells - nx - no);
    REQUIRE_EQ(p->to_move, nx == no ? GR_MNK_X : GR_MNK_O);
    REQUIRE_EQ(p->winner, xl ? GR_MNK_X : ol ? GR_MNK_O : GR_MNK_NONE);
    REQUIRE_EQ(p->over, xl || ol || nx + no == t->cells);
    char out[MAXC + 1];
    gr_mnk g = { t->rows, t->cols, t->k };
    REQUIRE_EQ(gr_mnk_render(&g, p, out, sizeof out), GR_OK);
    REQUIRE(memcmp(out, board, t->cells) == 0 && out[t->cells] == '\0');
}

/* Replays r->best_cell from p: the twin's score after it must be exactly
 * -want, and the engine must agree on the value of the result. */
static void check_replay(twin *t, const gr_mnk *g, const char *board,
                         const gr_mnk_position *p, const gr_mnk_result *r, int want,
                         bool engine_too)
{
    REQUIRE(r->best_cell >= 0 && (unsigned)r->best_cell < t->cells);
    REQUIRE(board[r->best_cell] == '.');
    gr_mnk_position next;
    REQUIRE_EQ(gr_mnk_play(g, p, (unsigned)r->best_cell, &next), GR_OK);
    char after[MAXC + 1];
    REQUIRE_EQ(gr_mnk_render(g, &next, after, sizeof after), GR_OK);
    for (unsigned i = 0; i < t->cells; i++)
        REQUIRE(after[i] == ((int)i == r->best_cell ? mover_of(board, t->cells) : board[i]));
    REQUIRE_EQ(-twin_value(t, after), want);
    if (!engine_too)
        return;
    gr_budget b = gr_budget_make(BUDGET);
    gr_mnk_result r2;
    REQUIRE_EQ(gr_mnk_solve(g, &next, &b, &r2), GR_OK);
    REQUIRE_EQ(r2.value, -r->value);
}

static void check_position(twin *t, const char *board, bool engine_replay)
{
    gr_mnk g = { t->rows, t->cols, t->k };
    gr_mnk_position p;
    const char *why = NULL;
    gr_status st = gr_mnk_check(&g, board, t->cells, &p, &why);
    if (st != GR_OK)
        ck_abort_msg("%s rejected: %s", board, why);
    check_fields(t, board, &p);
    int want = twin_value(t, board);
    gr_budget b = gr_budget_make(BUDGET);
    gr_mnk_result r;
    REQUIRE_EQ(gr_mnk_solve(&g, &p, &b, &r), GR_OK);
    if (r.value != sign(want))
        ck_abort_msg("%u,%u,%u %s: value %d, twin score %d", t->rows, t->cols, t->k, board,
                     r.value, want);
    if (p.over) {
        REQUIRE_EQ(r.best_cell, -1);
        REQUIRE_EQ(r.plies, 0);
        REQUIRE_EQ(b.left, BUDGET);
        return;
    }
    REQUIRE_EQ(r.plies, want == 0 ? 0 : (int)p.empty + 1 - abs(want));
    check_replay(t, &g, board, &p, &r, want, engine_replay);
}

/* ---- exhaustive small boards ---- */

typedef struct small_case {
    unsigned rows, cols, k;
    unsigned max_marks; /* positions with at most this many marks */
    size_t expect;      /* reachable positions, or 0 when not asserted */
} small_case;

static const small_case small_cases[] = {
    { 3, 3, 3, 9, 5478 }, /* tic-tac-toe: every legal position */
    { 3, 3, 2, 9, 0 },
    { 3, 3, 1, 9, 10 },
    { 1, 1, 1, 1, 2 },
    { 2, 2, 2, 4, 0 },
    { 2, 4, 2, 8, 0 },
    { 2, 4, 3, 8, 0 },
    { 2, 5, 3, 10, 0 },
    { 1, 7, 3, 7, 0 },
    { 7, 1, 4, 7, 0 },
    { 3, 4, 3, 12, 0 },
    { 4, 3, 3, 12, 0 },
    { 3, 4, 4, 12, 0 },
    { 2, 6, 3, 12, 0 },
};

START_TEST(test_small_exhaustive)
{
    const small_case *sc = &small_cases[_i];
    unsigned cells = sc->rows * sc->cols;
    twin t;
    twin_init(&t, sc->rows, sc->cols, sc->k, NULL, cells > 9);
    reach r;
    reach_run(&r, &t, sc->max_marks);
    if (sc->expect != 0)
        REQUIRE_EQ(r.count, sc->expect);
    for (size_t i = 0; i < r.count; i++)
        check_position(&t, r.boards[i], cells <= 12);
    reach_free(&r);
    twin_free(&t);
}
END_TEST

/* The twin's plain recursion and its memo agree (3 x 3, from every position). */
START_TEST(test_twin_memo_agrees)
{
    twin plain, memo;
    twin_init(&plain, 3, 3, 3, NULL, false);
    twin_init(&memo, 3, 3, 3, NULL, true);
    reach r;
    reach_run(&r, &plain, 9);
    for (size_t i = 0; i < r.count; i++)
        REQUIRE_EQ(twin_value(&plain, r.boards[i]), twin_value(&memo, r.boards[i]));
    REQUIRE_EQ(twin_value(&plain, "........."), 0);
    reach_free(&r);
    twin_free(&plain);
    twin_free(&memo);
}
END_TEST

/* gr_mnk_check accepts exactly the reachable boards, among all 3^cells. */
static const small_case legal_cases[] = {
    { 3, 3, 3, 9, 0 }, { 3, 3, 2, 9, 0 }, { 3, 3, 1, 9, 0 }, { 2, 4, 2, 8, 0 },
    { 3, 4, 3, 12, 0 }, { 4, 3, 3, 12, 0 }, { 1, 9, 3, 9, 0 }, { 2, 5, 2, 10, 0 },
};

START_TEST(test_check_is_reachability)
{
    const small_case *sc = &legal_cases[_i];
    twin t;
    twin_init(&t, sc->rows, sc->cols, sc->k, NULL, false);
    reach r;
    reach_run(&r, &t, sc->max_marks);
    gr_mnk g = { sc->rows, sc->cols, sc->k };
    size_t n = (size_t)pow3(t.cells), accepted = 0;
    char bd[MAXC + 1];
    for (size_t code = 0; code < n; code++) {
        size_t c = code;
        for (unsigned i = 0; i < t.cells; i++, c /= 3)
            bd[i] = ".XO"[c % 3];
        gr_mnk_position p;
        const char *why = NULL;
        gr_status st = gr_mnk_check(&g, bd, t.cells, &p, &why);
        REQUIRE_EQ(st == GR_OK, r.seen[code] != 0);
        REQUIRE(st == GR_OK || (why != NULL && why[0] != '\0'));
        accepted += st == GR_OK;
    }
    REQUIRE_EQ(accepted, r.count);
    reach_free(&r);
    twin_free(&t);
}
END_TEST

/* ---- random positions of larger boards ---- */

typedef struct big_case {
    unsigned rows, cols, k;
    unsigned empty; /* play randomly until this many cells are empty */
} big_case;

static const big_case big_cases[] = {
    { 4, 4, 3, 12 }, { 4, 4, 4, 12 }, { 5, 5, 4, 11 }, { 6, 6, 4, 11 }, { 5, 6, 4, 11 }, { 4, 7, 4, 11 },
    { 8, 8, 5, 10 }, { 8, 8, 4, 10 }, { 1, 64, 5, 10 }, { 64, 1, 3, 10 },
    { 7, 9, 5, 10 }, { 5, 5, 5, 11 }, { 6, 6, 3, 11 },
};

/* Random play from the empty board down to `empty` empty cells (or the end). */
static void random_position(uint64_t *seed, unsigned cells, unsigned k, unsigned rows,
                            unsigned cols, unsigned empty, char *bd)
{
    twin t;
    twin_init(&t, rows, cols, k, NULL, false);
    memset(bd, '.', cells);
    bd[cells] = '\0';
    for (unsigned left = cells, mark = 0; left > empty; left--, mark++) {
        unsigned pick = (unsigned)(rng_next(seed) % left), i = 0;
        for (;; i++)
            if (bd[i] == '.' && pick-- == 0)
                break;
        bd[i] = mark % 2 == 0 ? 'X' : 'O';
        if (twin_line_at(&t, bd, i))
            return;
    }
}

START_TEST(test_big_random)
{
    const big_case *bc = &big_cases[_i];
    unsigned cells = bc->rows * bc->cols;
    uint64_t seed = 0x6d6e6b00u + (uint64_t)_i;
    char bd[MAXC + 1];
    for (unsigned rep = 0; rep < 12; rep++) {
        random_position(&seed, cells, bc->k, bc->rows, bc->cols, bc->empty, bd);
        twin t;
        twin_init(&t, bc->rows, bc->cols, bc->k, NULL, false);
        bool over = twin_has_line(&t, bd, 'X') || twin_has_line(&t, bd, 'O');
        twin_init(&t, bc->rows, bc->cols, bc->k, bd, !over);
        check_position(&t, bd, true);
        /* and every position one move on */
        for (unsigned i = 0; i < cells && !over; i++) {
            if (bd[i] != '.')
                continue;
            bd[i] = mover_of(bd, cells);
            check_position(&t, bd, false);
            bd[i] = '.';
        }
        twin_free(&t);
    }
}
END_TEST

/* ---- known results from the empty board ---- */

typedef struct known {
    unsigned rows, cols, k;
    int value;
    unsigned plies; /* for wins: moves of both players until X's line */
} known;

static const known knowns[] = {
    { 3, 3, 3, 0, 0 },  /* tic-tac-toe: a draw */
    { 3, 3, 2, 1, 3 },  /* X, O, X */
    { 3, 3, 1, 1, 1 },
    { 1, 1, 1, 1, 1 },
    { 2, 2, 2, 1, 3 },
    { 1, 2, 2, 0, 0 },
    { 1, 5, 2, 1, 3 },  /* X in the middle makes two threats */
    { 3, 4, 3, 1, 7 },
    { 4, 4, 3, 1, 5 },
    { 3, 4, 4, 0, 0 },
    { 4, 4, 4, 0, 0 },  /* solved completely in well under a second */
    { 5, 5, 4, 0, 0 },  /* a draw (known result); 0.7 million nodes */
};

START_TEST(test_known)
{
    const known *kn = &knowns[_i];
    gr_mnk g = { kn->rows, kn->cols, kn->k };
    char bd[MAXC + 1];
    unsigned cells = kn->rows * kn->cols;
    memset(bd, '.', cells);
    gr_mnk_position p;
    REQUIRE_EQ(gr_mnk_check(&g, bd, cells, &p, NULL), GR_OK);
    REQUIRE_EQ(p.to_move, GR_MNK_X);
    REQUIRE(!p.over);
    gr_budget b = gr_budget_make(BUDGET);
    gr_mnk_result r;
    REQUIRE_EQ(gr_mnk_solve(&g, &p, &b, &r), GR_OK);
    REQUIRE_EQ(r.value, kn->value);
    REQUIRE_EQ(r.plies, kn->plies);
    REQUIRE(r.best_cell >= 0 && (unsigned)r.best_cell < cells);
}
END_TEST

/* ---- rejected games and boards ---- */

typedef struct bad {
    unsigned rows, cols, k;
    const char *board;
    const char *why;
} bad_case;

static const bad_case bads[] = {
    { 0, 3, 1, ".", "rows and cols must be at least 1" },
    { 3, 0, 1, ".", "rows and cols must be at least 1" },
    { 9, 8, 3, ".", "the board may have at most 64 cells" },
    { 65, 1, 3, ".", "the board may have at most 64 cells" },
    { 0x10000u, 0x10000u, 3, ".", "the board may have at most 64 cells" },
    { 3, 3, 0, ".........", "k must be between 1 and the longer side of the board" },
    { 3, 3, 4, ".........", "k must be between 1 and the longer side of the board" },
    { 3, 3, 3, "........", "the board must have rows * cols cells" },
    { 3, 3, 3, "..........", "the board must have rows * cols cells" },
    { 3, 3, 3, "X.O.x....", "the board may hold only 'X', 'O' and '.'" },
    { 3, 3, 3, "X.O. ....", "the board may hold only 'X', 'O' and '.'" },
    { 3, 3, 3, "O........", "O has more marks than X; X moves first and players alternate" },
    { 3, 3, 3, "XX.......",
      "X has more than one mark more than O; X moves first and players alternate" },
    { 3, 3, 3, "XXXOOO...", "both players have a line" },
    { 3, 3, 3, "XXXOO.O..", "X has a line but O has moved since" },
    { 3, 3, 3, "OOOXX.X.X", "O has a line but X has moved since" },
    { 4, 4, 3, "XXX.OO.OXXX.OOXO", "X made a line before its last move" },
    { 4, 4, 3, "OOOXXX.XOOO.XX..", "O made a line before its last move" },
    { 1, 8, 2, "XXOXXO.O", "X made a line before its last move" },
};

START_TEST(test_bad)
{
    const bad_case *bd = &bads[_i];
    gr_mnk g = { bd->rows, bd->cols, bd->k };
    gr_mnk_position p;
    memset(&p, 0x5a, sizeof p);
    gr_mnk_position before = p;
    const char *why = NULL;
    REQUIRE_EQ(gr_mnk_check(&g, bd->board, strlen(bd->board), &p, &why), GR_EINVAL);
    if (why == NULL || strcmp(why, bd->why) != 0)
        ck_abort_msg("%s: got \"%s\", want \"%s\"", bd->board, why ? why : "(null)", bd->why);
    REQUIRE(memcmp(&p, &before, sizeof p) == 0);
    REQUIRE_EQ(gr_mnk_check(&g, bd->board, strlen(bd->board), &p, NULL), GR_EINVAL);
}
END_TEST

/* Boards that look odd but are legal. */
START_TEST(test_good_edge)
{
    static const bad_case goods[] = {
        { 3, 3, 3, "XXXOO....", NULL },      /* X just won */
        { 3, 3, 3, "XXXOO.XO.", NULL },      /* ... with marks elsewhere */
        { 3, 3, 3, "XOO.X...X", NULL },      /* diagonal */
        { 3, 3, 3, "XXXXOOXOO", NULL },      /* two lines through one cell */
        { 3, 3, 3, "OOOXX.X..", NULL },      /* O won */
        { 3, 3, 3, "XOXXOOOXX", NULL },      /* full board, no line: a draw */
        { 1, 1, 1, "X", NULL },
        { 8, 8, 5, NULL, NULL },              /* empty 64-cell board */
        { 1, 5, 5, "XOXO.", NULL },
    };
    for (unsigned i = 0; i < sizeof goods / sizeof goods[0]; i++) {
        gr_mnk g = { goods[i].rows, goods[i].cols, goods[i].k };
        char bd[MAXC + 1];
        unsigned cells = g.rows * g.cols;
        if (goods[i].board != NULL)
            memcpy(bd, goods[i].board, cells);
        else
            memset(bd, '.', cells);
        gr_mnk_position p;
        const char *why = NULL;
        if (gr_mnk_check(&g, bd, cells, &p, &why) != GR_OK)
            ck_abort_msg("%u: rejected: %s", i, why);
    }
}
END_TEST

/* ---- finished games, budgets, play, render ---- */

static gr_mnk_position must_check(const gr_mnk *g, const char *board)
{
    gr_mnk_position p;
    const char *why = NULL;
    if (gr_mnk_check(g, board, strlen(board), &p, &why) != GR_OK)
        ck_abort_msg("%s rejected: %s", board, why);
    return p;
}

START_TEST(test_finished)
{
    gr_mnk g = { 3, 3, 3 };
    gr_mnk_result r;
    gr_budget b = gr_budget_make(0);
    gr_mnk_position p = must_check(&g, "XXXOO....");
    REQUIRE(p.over);
    REQUIRE_EQ(p.winner, GR_MNK_X);
    REQUIRE_EQ(p.to_move, GR_MNK_O);
    REQUIRE_EQ(gr_mnk_solve(&g, &p, &b, &r), GR_OK);
    REQUIRE_EQ(r.value, -1);
    REQUIRE_EQ(r.best_cell, -1);
    REQUIRE_EQ(r.plies, 0);
    p = must_check(&g, "XOXXOOOXX");
    REQUIRE(p.over);
    REQUIRE_EQ(p.winner, GR_MNK_NONE);
    REQUIRE_EQ(gr_mnk_solve(&g, &p, &b, &r), GR_OK);
    REQUIRE_EQ(r.value, 0);
    REQUIRE_EQ(r.best_cell, -1);
    REQUIRE_EQ(gr_mnk_play(&g, &p, 0, &p), GR_EINVAL);
}
END_TEST

/* The fastest win is chosen over a slower one. */
START_TEST(test_fastest_win)
{
    /* X to move: cell 2 wins now; cell 6 would also win, later. */
    gr_mnk g = { 3, 3, 3 };
    gr_mnk_position p = must_check(&g, "XX.OO....");
    gr_budget b = gr_budget_make(BUDGET);
    gr_mnk_result r;
    REQUIRE_EQ(gr_mnk_solve(&g, &p, &b, &r), GR_OK);
    REQUIRE_EQ(r.value, 1);
    REQUIRE_EQ(r.best_cell, 2);
    REQUIRE_EQ(r.plies, 1);
    /* O to move must block at 2. */
    p = must_check(&g, "XX..O....");
    b = gr_budget_make(BUDGET);
    REQUIRE_EQ(gr_mnk_solve(&g, &p, &b, &r), GR_OK);
    REQUIRE_EQ(r.best_cell, 2);
}
END_TEST

START_TEST(test_budget)
{
    gr_mnk g = { 4, 4, 4 };
    gr_mnk_position p = must_check(&g, "................");
    gr_mnk_result r, r2;
    gr_budget b = gr_budget_make(UINT64_MAX);
    REQUIRE_EQ(gr_mnk_solve(&g, &p, &b, &r), GR_OK);
    uint64_t used = UINT64_MAX - b.left;
    REQUIRE(used > 1000);
    /* Deterministic: the same count again, and exactly that count suffices. */
    b = gr_budget_make(used);
    REQUIRE_EQ(gr_mnk_solve(&g, &p, &b, &r2), GR_OK);
    REQUIRE_EQ(b.left, 0);
    REQUIRE_EQ(r2.value, r.value);
    REQUIRE_EQ(r2.best_cell, r.best_cell);
    b = gr_budget_make(used - 1);
    memset(&r2, 0x5a, sizeof r2);
    gr_mnk_result untouched = r2;
    REQUIRE_EQ(gr_mnk_solve(&g, &p, &b, &r2), GR_ELIMIT);
    REQUIRE_EQ(b.left, 0);
    REQUIRE(memcmp(&r2, &untouched, sizeof r2) == 0);
    b = gr_budget_make(0);
    REQUIRE_EQ(gr_mnk_solve(&g, &p, &b, &r2), GR_ELIMIT);
    /* Large boards stop on the budget rather than run on. */
    gr_mnk big = { 8, 8, 5 };
    char bd[65];
    memset(bd, '.', 64);
    bd[64] = '\0';
    p = must_check(&big, bd);
    b = gr_budget_make(200000);
    REQUIRE_EQ(gr_mnk_solve(&big, &p, &b, &r2), GR_ELIMIT);
    REQUIRE_EQ(b.left, 0);
    gr_mnk g7 = { 7, 7, 4 };
    p = must_check(&g7, ".................................................");
    b = gr_budget_make(200000);
    REQUIRE_EQ(gr_mnk_solve(&g7, &p, &b, &r2), GR_ELIMIT);
}
END_TEST

START_TEST(test_play_and_render)
{
    gr_mnk g = { 3, 4, 3 };
    gr_mnk_position p = must_check(&g, "X...O.......");
    gr_mnk_position n;
    REQUIRE_EQ(gr_mnk_play(&g, &p, 0, &n), GR_EINVAL);   /* occupied */
    REQUIRE_EQ(gr_mnk_play(&g, &p, 12, &n), GR_EINVAL);  /* off the board */
    REQUIRE_EQ(gr_mnk_play(&g, &p, 5, &n), GR_OK);
    REQUIRE_EQ(n.to_move, GR_MNK_O);
    REQUIRE_EQ(n.empty, 9);
    char out[13];
    REQUIRE_EQ(gr_mnk_render(&g, &n, out, sizeof out), GR_OK);
    REQUIRE(strcmp(out, "X...OX......") == 0);
    REQUIRE_EQ(gr_mnk_render(&g, &n, out, 12), GR_EINVAL);
    REQUIRE_EQ(gr_mnk_play(&g, &n, 1, &n), GR_OK); /* aliasing */
    REQUIRE_EQ(gr_mnk_render(&g, &n, out, sizeof out), GR_OK);
    REQUIRE(strcmp(out, "XO..OX......") == 0);
    /* a winning move ends the game */
    gr_mnk_position w = must_check(&g, "XX..OO......");
    REQUIRE_EQ(gr_mnk_play(&g, &w, 2, &n), GR_OK);
    REQUIRE(n.over);
    REQUIRE_EQ(n.winner, GR_MNK_X);
    /* inconsistent hand-made positions are refused everywhere */
    gr_mnk_position bad = p;
    bad.o |= 1; /* overlaps X */
    gr_budget b = gr_budget_make(1000);
    gr_mnk_result r;
    REQUIRE_EQ(gr_mnk_solve(&g, &bad, &b, &r), GR_EINVAL);
    REQUIRE_EQ(gr_mnk_play(&g, &bad, 5, &n), GR_EINVAL);
    bad = p;
    bad.x |= (uint64_t)1 << 12; /* off the board */
    REQUIRE_EQ(gr_mnk_solve(&g, &bad, &b, &r), GR_EINVAL);
    bad = p;
    bad.x |= 2 | 4; /* three X, one O */
    REQUIRE_EQ(gr_mnk_solve(&g, &bad, &b, &r), GR_EINVAL);
    gr_mnk badg = { 3, 4, 5 };
    REQUIRE_EQ(gr_mnk_solve(&badg, &p, &b, &r), GR_EINVAL);
    REQUIRE_EQ(gr_mnk_play(&badg, &p, 5, &n), GR_EINVAL);
    REQUIRE_EQ(gr_mnk_render(&badg, &p, out, sizeof out), GR_EINVAL);
    REQUIRE_EQ(gr_mnk_game_check(&g, NULL), GR_OK);
    const char *why = NULL;
    REQUIRE_EQ(gr_mnk_game_check(&badg, &why), GR_EINVAL);
    REQUIRE(why != NULL);
}
END_TEST

/* The full 64-cell board: all bits in use. */
START_TEST(test_full_width)
{
    gr_mnk g = { 8, 8, 3 };
    char bd[65];
    memset(bd, '.', 64);
    bd[64] = '\0';
    bd[63] = 'X';
    bd[0] = 'O';
    gr_mnk_position p = must_check(&g, bd);
    REQUIRE_EQ(p.x, (uint64_t)1 << 63);
    gr_budget b = gr_budget_make(BUDGET);
    gr_mnk_result r;
    REQUIRE_EQ(gr_mnk_solve(&g, &p, &b, &r), GR_OK);
    REQUIRE_EQ(r.value, 1); /* 3 in a row on an open 8 x 8: X wins */
    REQUIRE(r.best_cell >= 0 && bd[r.best_cell] == '.');
}
END_TEST

static Suite *mnk_suite(void)
{
    Suite *s = suite_create("mnk");
    TCase *twin_tc = tcase_create("twin");
    tcase_set_timeout(twin_tc, 120);
    tcase_add_test(twin_tc, test_twin_memo_agrees);
    tcase_add_loop_test(twin_tc, test_small_exhaustive, 0,
                        (int)(sizeof small_cases / sizeof small_cases[0]));
    tcase_add_loop_test(twin_tc, test_check_is_reachability, 0,
                        (int)(sizeof legal_cases / sizeof legal_cases[0]));
    tcase_add_loop_test(twin_tc, test_big_random, 0,
                        (int)(sizeof big_cases / sizeof big_cases[0]));
    suite_add_tcase(s, twin_tc);

    TCase *known_tc = tcase_create("known");
    tcase_set_timeout(known_tc, 120);
    tcase_add_loop_test(known_tc, test_known, 0, (int)(sizeof knowns / sizeof knowns[0]));
    suite_add_tcase(s, known_tc);

    TCase *api_tc = tcase_create("api");
    tcase_set_timeout(api_tc, 60);
    tcase_add_loop_test(api_tc, test_bad, 0, (int)(sizeof bads / sizeof bads[0]));
    tcase_add_test(api_tc, test_good_edge);
    tcase_add_test(api_tc, test_finished);
    tcase_add_test(api_tc, test_fastest_win);
    tcase_add_test(api_tc, test_budget);
    tcase_add_test(api_tc, test_play_and_render);
    tcase_add_test(api_tc, test_full_width);
    suite_add_tcase(s, api_tc);
    return s;
}

int main(void)
{
    return gr_check_run(mnk_suite());
}
