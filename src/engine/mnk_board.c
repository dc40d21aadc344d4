/* SPDX-License-Identifier: MIT */
/* m,n,k-games: the board's lines, the legality of positions, and moves
 * (mnk.h). A position is two bitboards; it is legal when play from the
 * empty board could reach it, stopping at the first line. */
#include "grundy/mnk.h"

#include "mnk_geom.h"

static gr_status fail(const char **why, const char *msg)
{
    if (why != NULL)
        *why = msg;
    return GR_EINVAL;
}

gr_status gr_mnk_game_check(const gr_mnk *g, const char **why)
{
    if (g->rows < 1 || g->cols < 1)
        return fail(why, "rows and cols must be at least 1");
    if ((uint64_t)g->rows * g->cols > GR_MNK_MAX_CELLS)
        return fail(why, "the board may have at most 64 cells");
    unsigned longer = g->rows > g->cols ? g->rows : g->cols;
    if (g->k < 1 || g->k > longer)
        return fail(why, "k must be between 1 and the longer side of the board");
    return GR_OK;
}

/* Appends every k-line in direction (dr, dc). */
static void add_lines(geom *m, int dr, int dc)
{
    int rows = (int)m->rows, cols = (int)m->cols, span = (int)m->k - 1;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            int er = r + dr * span, ec = c + dc * span;
            if (er < 0 || er >= rows || ec < 0 || ec >= cols)
                continue;
            uint64_t mask = 0;
            for (int i = 0; i <= span; i++)
                mask |= bit((unsigned)((r + dr * i) * cols + c + dc * i));
            m->line[m->nlines++] = mask;
        }
    }
}

/* g must be valid. With k = 1 every direction gives the same lines. */
void mnk_geom_init(geom *m, const gr_mnk *g)
{
    m->rows = g->rows;
    m->cols = g->cols;
    m->k = g->k;
    m->cells = g->rows * g->cols;
    m->full = m->cells == 64 ? ~(uint64_t)0 : bit(m->cells) - 1;
    m->nlines = 0;
    add_lines(m, 0, 1);
    if (g->k > 1) {
        add_lines(m, 1, 0);
        add_lines(m, 1, 1);
        add_lines(m, 1, -1);
    }
}

static bool has_line(const geom *m, uint64_t bb)
{
    for (unsigned i = 0; i < m->nlines; i++)
        if ((m->line[i] & bb) == m->line[i])
            return true;
    return false;
}

/* The cells common to every line inside bb (all cells when there is none). */
static uint64_t line_core(const geom *m, uint64_t bb)
{
    uint64_t core = ~(uint64_t)0;
    for (unsigned i = 0; i < m->nlines; i++)
        if ((m->line[i] & bb) == m->line[i])
            core &= m->line[i];
    return core;
}

/* ---- positions ---- */

static gr_status check_counts(unsigned nx, unsigned no, const char **why)
{
    if (no > nx)
        return fail(why, "O has more marks than X; X moves first and players alternate");
    if (nx > no + 1)
        return fail(why, "X has more than one mark more than O; X moves first and players alternate");
    return GR_OK;
}

/* Play after a win: the winner moved last, the loser has no line, and one
 * move (a cell on every line of the winner) made them all. */
static gr_status check_lines(const geom *m, uint64_t x, uint64_t o, bool x_moved_last,
                             gr_mnk_player *winner, const char **why)
{
    bool xl = has_line(m, x), ol = has_line(m, o);
    *winner = xl ? GR_MNK_X : ol ? GR_MNK_O : GR_MNK_NONE;
    if (xl && ol)
        return fail(why, "both players have a line");
    if (xl && !x_moved_last)
        return fail(why, "X has a line but O has moved since");
    if (ol && x_moved_last)
        return fail(why, "O has a line but X has moved since");
    if (xl && line_core(m, x) == 0)
        return fail(why, "X made a line before its last move");
    if (ol && line_core(m, o) == 0)
        return fail(why, "O made a line before its last move");
    return GR_OK;
}

/* Checks bitboards x, o against the rules and fills *pos on success. */
gr_status mnk_classify(const geom *m, uint64_t x, uint64_t o, gr_mnk_position *pos,
                       const char **why)
{
    if ((x & o) != 0 || ((x | o) & ~m->full) != 0)
        return fail(why, "X and O must mark distinct cells of the board");
    unsigned nx = popcount(x), no = popcount(o);
    gr_status st = check_counts(nx, no, why);
    if (st != GR_OK)
        return st;
    gr_mnk_player winner;
    st = check_lines(m, x, o, nx > no, &winner, why);
    if (st != GR_OK)
        return st;
    pos->x = x;
    pos->o = o;
    pos->empty = m->cells - nx - no;
    pos->to_move = nx == no ? GR_MNK_X : GR_MNK_O;
    pos->winner = winner;
    pos->over = winner != GR_MNK_NONE || pos->empty == 0;
    return GR_OK;
}

/* Reads the characters into bitboards. */
static gr_status read_board(const char *board, size_t len, uint64_t *x, uint64_t *o,
                            const char **why)
{
    *x = 0;
    *o = 0;
    for (size_t i = 0; i < len; i++) {
        if (board[i] == 'X')
            *x |= bit((unsigned)i);
        else if (board[i] == 'O')
            *o |= bit((unsigned)i);
        else if (board[i] != '.')
            return fail(why, "the board may hold only 'X', 'O' and '.'");
    }
    return GR_OK;
}

gr_status gr_mnk_check(const gr_mnk *g, const char *board, size_t len,
                       gr_mnk_position *pos, const char **why)
{
    gr_status st = gr_mnk_game_check(g, why);
    if (st != GR_OK)
        return st;
    if (len != (size_t)g->rows * g->cols)
        return fail(why, "the board must have rows * cols cells");
    uint64_t x, o;
    st = read_board(board, len, &x, &o, why);
    if (st != GR_OK)
        return st;
    geom m;
    mnk_geom_init(&m, g);
    return mnk_classify(&m, x, o, pos, why);
}

gr_status gr_mnk_render(const gr_mnk *g, const gr_mnk_position *pos, char *out,
                        size_t outlen)
{
    if (gr_mnk_game_check(g, NULL) != GR_OK)
        return GR_EINVAL;
    unsigned cells = g->rows * g->cols;
    if (outlen < (size_t)cells + 1)
        return GR_EINVAL;
    for (unsigned i = 0; i < cells; i++)
        out[i] = (pos->x & bit(i)) ? 'X' : (pos->o & bit(i)) ? 'O' : '.';
    out[cells] = '\0';
    return GR_OK;
}

gr_status gr_mnk_play(const gr_mnk *g, const gr_mnk_position *pos, unsigned cell,
                      gr_mnk_position *next)
{
    if (gr_mnk_game_check(g, NULL) != GR_OK)
        return GR_EINVAL;
    geom m;
    mnk_geom_init(&m, g);
    gr_mnk_position cur;
    if (mnk_classify(&m, pos->x, pos->o, &cur, NULL) != GR_OK || cur.over)
        return GR_EINVAL;
    if (cell >= m.cells || ((cur.x | cur.o) & bit(cell)) != 0)
        return GR_EINVAL;
    uint64_t x = cur.x, o = cur.o;
    if (cur.to_move == GR_MNK_X)
        x |= bit(cell);
    else
        o |= bit(cell);
    return mnk_classify(&m, x, o, next, NULL);
}
