#include "api/games.h"

#include <string.h>

#include "grundy/coins.h"
#include "grundy/mnk.h"
#include "grundy/score.h"

/* Heap and token games are sums of components and answer every compound;
 * the others are one position each. Grundy's game is a sum of heaps, but
 * its moves split a heap, and the other compounds would need the two parts
 * kept as one component, which "piles" cannot write. */
#define SUMS GR_COMPOUNDS_ALL
#define ONE GR_COMPOUND_BIT(GR_DISJUNCTIVE)

/* ---- field descriptions (the catalogue, api/catalog.h) ------------------ */

#define I63 ((int64_t)GR_INT_MAX)
#define ANY_U { 0, I63, GR_LIMIT_NONE }       /* any API integer */
#define ANY_S { -I63, I63, GR_LIMIT_NONE }    /* any signed API integer */
#define FROM(lo) { lo, I63, GR_LIMIT_NONE }
#define SPAN(lo, hi) { lo, hi, GR_LIMIT_NONE }
#define UPTO(limit) { 0, I63, limit }
#define FIELDS(arr) .fields = arr, .nfields = sizeof arr / sizeof arr[0]
#define CONSTRAINTS(arr) .constraints = arr, .nconstraints = sizeof arr / sizeof arr[0]

/* An array of heap sizes, at most max_items of them, may be empty. */
#define PILES(desc, values)                                                              \
    { .name = "piles", .type = GR_FIELD_INTEGER_ARRAY, .required = true, .description = desc, \
      .count = UPTO(GR_LIMIT_MAX_ITEMS), .value = values }

static const char *const subtraction_rules[] = { "squares", "powers_of_two", "primes", NULL };
static const char *const coins_rules[] = { "turning_turtles", "mock_turtles", "ruler", NULL };

static const gr_field nim_fields[] = {
    PILES("Tokens in each pile; may be empty.", ANY_U),
};

static const gr_field subtraction_fields[] = {
    { .name = "moves", .type = GR_FIELD_MOVES, .required = true, .choices = subtraction_rules,
      .description = "The subtraction set S: an array of positive integers (repeats are ignored), "
                     "or {\"rule\": R} for an infinite set. Rule sets are answered from the table "
                     "file's values, or computed on demand for heaps below 16384 (a single heap: "
                     "below 2^20); past them a 422 beyond_bound.",
      .count = { 1, I63, GR_LIMIT_MAX_MOVES }, .value = { 1, I63, GR_LIMIT_MAX_MOVE } },
    PILES("Tokens in each pile; may be empty.", ANY_U),
};

static const gr_field staircase_fields[] = {
    { .name = "stairs", .type = GR_FIELD_INTEGER_ARRAY, .required = true,
      .description = "Coins on each stair, stairs[0] being the floor; may be empty.",
      .count = UPTO(GR_LIMIT_MAX_ITEMS), .value = ANY_U },
};

static const gr_field wythoff_fields[] = {
    { .name = "piles", .type = GR_FIELD_INTEGER_ARRAY, .required = true,
      .description = "Exactly two piles.", .count = { 2, 2, GR_LIMIT_MAX_ITEMS }, .value = ANY_U },
};

static const gr_field fibonacci_fields[] = {
    { .name = "n", .type = GR_FIELD_INTEGER, .required = true, .description = "Tokens left.",
      .value = ANY_U },
    { .name = "limit", .type = GR_FIELD_INTEGER,
      .description = "The most the player to move may take; absent or null: n - 1 (the opening "
                     "move; 0 when n is 0).",
      .value = ANY_U },
};

static const gr_field divisor_fields[] = {
    { .name = "n", .type = GR_FIELD_INTEGER, .required = true,
      .description = "The number; a move subtracts a divisor x of n with 0 < x < n.",
      .value = FROM(1) },
};

static const gr_field octal_fields[] = {
    { .name = "code", .type = GR_FIELD_STRING, .required = true, .pattern = "^0\\.[0-7]*[1-7][0-7]*$",
      .description = "\"0.\" and 1 to 8 octal digits, not all zero: digit k's bit 1 allows removing "
                     "k tokens emptying the heap, bit 2 leaving one heap, bit 4 leaving two "
                     "non-empty heaps. \"0.77\" is Kayles, \"0.07\" Dawson's Kayles, \"0.137\" "
                     "Dawson's chess.",
      .count = SPAN(3, 2 + GR_OCTAL_MAX_DIGITS) },
    PILES("Tokens in each pile; may be empty. Without a certified period only heaps below the "
          "values computed (octal_max_values, or the table's) are answered.", ANY_U),
};

static const gr_field grundys_fields[] = {
    PILES("Tokens in each pile; may be empty. Heaps below the table file's bound when one is "
          "loaded, else below grundys_max_heap, are answered; a larger one is a 422 beyond_bound.",
          ANY_U),
};

static const gr_field strange_fields[] = {
    { .name = "piles", .type = GR_FIELD_INTEGER_PAIRS, .required = true,
      .description = "Piles [x, k]: x tokens, and a move takes 1 to floor(x / k) of them; k is at "
                     "least 1. May be empty.",
      .count = UPTO(GR_LIMIT_MAX_ITEMS), .value = ANY_U },
};

static const gr_field graph_fields[] = {
    { .name = "edges", .type = GR_FIELD_INTEGER_PAIRS, .required = true,
      .description = "Directed edges [u, v] (a move from node u to node v); cycles are allowed; "
                     "[] for a graph without edges.",
      .count = UPTO(GR_LIMIT_MAX_EDGES), .value = ANY_U },
    { .name = "tokens", .type = GR_FIELD_INTEGER_ARRAY, .required = true,
      .description = "The node of each token; several may share a node. May be empty.",
      .count = UPTO(GR_LIMIT_MAX_ITEMS), .value = ANY_U },
    { .name = "nodes", .type = GR_FIELD_INTEGER,
      .description = "The node count: ids then run from 0 to nodes - 1. Absent or null: node ids "
                     "may be any integers and are numbered by the service.",
      .value = UPTO(GR_LIMIT_MAX_NODES) },
};

static const gr_field grid_fields[] = {
    { .name = "rows", .type = GR_FIELD_INTEGER, .dflt = "15", .description = "Rows of the board.",
      .value = { 1, I63, GR_LIMIT_MAX_NODES } },
    { .name = "cols", .type = GR_FIELD_INTEGER, .dflt = "15", .description = "Columns of the board.",
      .value = { 1, I63, GR_LIMIT_MAX_NODES } },
    { .name = "steps", .type = GR_FIELD_SIGNED_PAIRS, .dflt = "[[-2,1],[-2,-1],[1,-2],[-1,-2]]",
      .description = "The moves of a token, [drow, dcol], not [0, 0]; repeats are ignored. A step "
                     "that would leave the board is not a move.",
      .count = SPAN(1, 64), .value = ANY_S },
    { .name = "tokens", .type = GR_FIELD_INTEGER_PAIRS, .required = true,
      .description = "The square [row, col] of each token, counting from 0: row below rows, col "
                     "below cols. Several may share a square. May be empty.",
      .count = UPTO(GR_LIMIT_MAX_ITEMS), .value = ANY_U },
};

static const gr_field coins_fields[] = {
    { .name = "rule", .type = GR_FIELD_STRING, .required = true, .choices = coins_rules,
      .description = "turning_turtles: turn one coin and optionally one to its left; mock_turtles: "
                     "up to three coins; ruler: a run of consecutive coins. The rightmost coin "
                     "turned goes from heads to tails." },
    { .name = "heads", .type = GR_FIELD_INTEGER_ARRAY, .required = true,
      .description = "The positions of the coins showing heads, numbered from 1 at the left, each "
                     "listed once; may be empty.",
      .count = UPTO(GR_LIMIT_MAX_ITEMS), .value = SPAN(1, (int64_t)GR_COINS_MAX_POS) },
};

#define BOARD_PATTERN "^[XO.]*$"

static const gr_field tictactoe_fields[] = {
    { .name = "board", .type = GR_FIELD_BOARD, .required = true, .pattern = BOARD_PATTERN,
      .description = "Nine cells row by row: 'X', 'O' or '.'. X moves first, so the side to move "
                     "follows from the counts; a board play cannot reach is a 422 illegal_position.",
      .count = SPAN(9, 9) },
};

static const gr_field mnk_fields[] = {
    { .name = "rows", .type = GR_FIELD_INTEGER, .required = true, .description = "Rows of the board.",
      .value = SPAN(1, GR_MNK_MAX_CELLS) },
    { .name = "cols", .type = GR_FIELD_INTEGER, .required = true,
      .description = "Columns of the board.", .value = SPAN(1, GR_MNK_MAX_CELLS) },
    { .name = "k", .type = GR_FIELD_INTEGER, .required = true,
      .description = "Marks in a row (row, column or diagonal) to win; at most the longer side.",
      .value = SPAN(1, GR_MNK_MAX_CELLS) },
    { .name = "board", .type = GR_FIELD_BOARD, .required = true, .pattern = BOARD_PATTERN,
      .description = "rows * cols cells row by row: 'X', 'O' or '.'. X moves first; a board play "
                     "cannot reach is a 422 illegal_position.",
      .count = SPAN(1, GR_MNK_MAX_CELLS) },
};

static const gr_field stone_row_fields[] = {
    { .name = "stones", .type = GR_FIELD_INTEGER_ARRAY, .required = true,
      .description = "Stones in each pile, in row order; may be empty.",
      .count = UPTO(GR_LIMIT_MAX_ITEMS), .value = ANY_U },
};

static const gr_field stone_prefix_fields[] = {
    { .name = "stones", .type = GR_FIELD_INTEGER_ARRAY, .required = true,
      .description = "Stones in each pile, in row order; may be empty.",
      .count = { 0, GR_STONE_PREFIX_MAX_N, GR_LIMIT_MAX_ITEMS }, .value = ANY_U },
    { .name = "m", .type = GR_FIELD_INTEGER, .dflt = "1",
      .description = "M: the player to move takes the first x piles, 1 <= x <= 2M.",
      .value = FROM(1) },
};

static const gr_field stone_front3_fields[] = {
    { .name = "stones", .type = GR_FIELD_SIGNED_ARRAY, .required = true,
      .description = "Stones in each pile, in row order, which may be negative; may be empty.",
      .count = UPTO(GR_LIMIT_MAX_ITEMS), .value = ANY_S },
};

static const gr_field can_i_win_fields[] = {
    { .name = "max_choosable", .type = GR_FIELD_INTEGER, .required = true,
      .description = "The pool is the numbers 1 .. max_choosable.", .value = SPAN(1, GR_CAN_I_WIN_MAX) },
    { .name = "desired_total", .type = GR_FIELD_INTEGER, .required = true,
      .description = "Whoever brings the running total to at least this wins.", .value = ANY_U },
    { .name = "used", .type = GR_FIELD_INTEGER_ARRAY, .dflt = "[]",
      .description = "Numbers already picked, each at most max_choosable and listed once; the "
                     "running total starts at their sum.",
      .count = SPAN(0, GR_CAN_I_WIN_MAX), .value = SPAN(1, GR_CAN_I_WIN_MAX) },
};

/* ---- limits spanning fields ---------------------------------------------- */

static const gr_constraint graph_constraints[] = {
    { "distinct node ids (or nodes)", UPTO(GR_LIMIT_MAX_NODES) },
};

static const gr_constraint grid_constraints[] = {
    { "rows * cols (squares)", UPTO(GR_LIMIT_MAX_NODES) },
    { "rows * cols * distinct steps (moves)", UPTO(GR_LIMIT_MAX_EDGES) },
};

static const gr_constraint octal_constraints[] = {
    { "values computed on demand for a code without a certified period: heaps below this are "
      "answered (a table file's codes: the table's count)", UPTO(GR_LIMIT_OCTAL_MAX_VALUES) },
};

static const gr_constraint grundys_constraints[] = {
    { "largest heap computed on demand (a table file's bound replaces it when larger)",
      UPTO(GR_LIMIT_GRUNDYS_MAX_HEAP) },
};

static const gr_constraint mnk_constraints[] = {
    { "rows * cols (cells)", SPAN(1, GR_MNK_MAX_CELLS) },
};

static const gr_constraint can_i_win_constraints[] = {
    { "entries of used (at most max_choosable)", SPAN(0, GR_CAN_I_WIN_MAX) },
};

#define SPLIT_NOTE "selective, selective_proper and conjunctive are answered only for codes " \
                   "without a digit that has bit 4 (a move that splits a heap); else a 422 " \
                   "unsupported_compound"
#define CYCLE_NOTE "selective and selective_proper are answered on acyclic boards only; else a " \
                   "422 cycle"

/* ---- the registry -------------------------------------------------------- */

const gr_game gr_games[] = {
    { .name = "nim", .summary = "Take any positive number of tokens from one pile.",
      .misere = true, .misere_any = true, .compounds = SUMS, .analyze = gr_analyze_nim,
      .kind = GR_KIND_IMPARTIAL, FIELDS(nim_fields),
      .example = "{\"game\":\"nim\",\"piles\":[3,4,5]}" },
    { .name = "subtraction", .summary = "Take s tokens from one pile, s from a finite set of moves.",
      .misere = true, .compounds = SUMS, .analyze = gr_analyze_subtraction,
      .kind = GR_KIND_IMPARTIAL, FIELDS(subtraction_fields),
      .example = "{\"game\":\"subtraction\",\"moves\":[1,3,4],\"piles\":[2,10]}" },
    { .name = "staircase", .summary = "Move one or more coins from stair i >= 1 down to stair i - 1.",
      .compounds = ONE, .analyze = gr_analyze_staircase,
      .kind = GR_KIND_IMPARTIAL, FIELDS(staircase_fields),
      .example = "{\"game\":\"staircase\",\"stairs\":[0,3,1,4]}" },
    { .name = "wythoff", .summary = "Two piles: take from one pile, or the same number from both.",
      .compounds = ONE, .analyze = gr_analyze_wythoff,
      .kind = GR_KIND_IMPARTIAL, FIELDS(wythoff_fields),
      .example = "{\"game\":\"wythoff\",\"piles\":[5,9]}" },
    { .name = "fibonacci",
      .summary = "Take 1..limit tokens; the opponent's limit becomes twice the take.",
      .compounds = ONE, .analyze = gr_analyze_fibonacci,
      .kind = GR_KIND_IMPARTIAL, FIELDS(fibonacci_fields),
      .example = "{\"game\":\"fibonacci\",\"n\":12,\"limit\":11}" },
    { .name = "divisor", .summary = "Replace n by n - x for a proper divisor x of n.",
      .compounds = ONE, .analyze = gr_analyze_divisor,
      .kind = GR_KIND_IMPARTIAL, FIELDS(divisor_fields),
      .example = "{\"game\":\"divisor\",\"n\":12}" },
    { .name = "octal",
      .summary = "Octal game 0.d1d2...: remove k tokens, leaving 0, 1 or 2 heaps as digit k allows.",
      .misere = true, .compounds = SUMS, .compound_note = SPLIT_NOTE, .analyze = gr_analyze_octal,
      .kind = GR_KIND_IMPARTIAL, FIELDS(octal_fields),
      CONSTRAINTS(octal_constraints),
      .example = "{\"game\":\"octal\",\"code\":\"0.77\",\"piles\":[5]}" },
    { .name = "grundys_game", .summary = "Split one heap into two non-empty heaps of different sizes.",
      .misere = true, .compounds = ONE, .analyze = gr_analyze_grundys_game,
      .compound_note = "every move splits a heap, and the two heaps would remain one component, "
                       "which \"piles\" cannot express",
      .kind = GR_KIND_IMPARTIAL, FIELDS(grundys_fields), CONSTRAINTS(grundys_constraints),
      .example = "{\"game\":\"grundys_game\",\"piles\":[7,13]}" },
    { .name = "strange_nim",
      .summary = "Piles [x, k]: take between 1 and floor(x / k) tokens from one pile.",
      .compounds = SUMS, .analyze = gr_analyze_strange_nim,
      .kind = GR_KIND_IMPARTIAL, FIELDS(strange_fields),
      .example = "{\"game\":\"strange_nim\",\"piles\":[[10,3],[7,2]]}" },
    { .name = "graph", .summary = "Move one token along an edge of a directed graph (cycles allowed).",
      .misere = true, .compounds = SUMS, .compound_note = CYCLE_NOTE, .analyze = gr_analyze_graph,
      .kind = GR_KIND_IMPARTIAL, FIELDS(graph_fields),
      CONSTRAINTS(graph_constraints),
      .example = "{\"game\":\"graph\",\"edges\":[[0,1],[1,2]],\"tokens\":[0,0,1],\"nodes\":3}" },
    { .name = "grid", .summary = "Move one token by one of the steps on a rows x cols board.",
      .misere = true, .compounds = SUMS, .compound_note = CYCLE_NOTE, .analyze = gr_analyze_grid,
      .kind = GR_KIND_IMPARTIAL, FIELDS(grid_fields),
      CONSTRAINTS(grid_constraints),
      .example = "{\"game\":\"grid\",\"rows\":4,\"cols\":5,\"steps\":[[0,1],[0,-1],[1,0]],"
                 "\"tokens\":[[0,0],[2,3]]}" },
    { .name = "coins", .summary = "Coin turning: turning_turtles, mock_turtles or ruler; the rightmost "
      "turned coin goes from heads to tails.",
      .compounds = ONE, .analyze = gr_analyze_coins,
      .kind = GR_KIND_IMPARTIAL, FIELDS(coins_fields),
      .example = "{\"game\":\"coins\",\"rule\":\"mock_turtles\",\"heads\":[3,10]}" },
    { .name = "tictactoe",
      .summary = "Noughts and crosses on a 3x3 board; the side to move follows from the counts.",
      .compounds = ONE, .analyze = gr_analyze_tictactoe,
      .kind = GR_KIND_SCORE, FIELDS(tictactoe_fields),
      .example = "{\"game\":\"tictactoe\",\"board\":\"XX.OO....\"}" },
    { .name = "mnk", .summary = "An m,n,k-game: k in a row on a rows x cols board wins.",
      .compounds = ONE, .analyze = gr_analyze_mnk,
      .kind = GR_KIND_SCORE, FIELDS(mnk_fields),
      CONSTRAINTS(mnk_constraints),
      .example = "{\"game\":\"mnk\",\"rows\":3,\"cols\":4,\"k\":3,\"board\":\"............\"}" },
    { .name = "stone_row", .summary = "Take the first or the last pile of a row; most stones wins.",
      .compounds = ONE, .analyze = gr_analyze_stone_row,
      .kind = GR_KIND_SCORE, FIELDS(stone_row_fields),
      .example = "{\"game\":\"stone_row\",\"stones\":[3,9,1,2]}" },
    { .name = "stone_prefix",
      .summary = "Take the first x piles, 1 <= x <= 2M, then M = max(M, x); most stones wins.",
      .compounds = ONE, .analyze = gr_analyze_stone_prefix,
      .kind = GR_KIND_SCORE, FIELDS(stone_prefix_fields),
      .example = "{\"game\":\"stone_prefix\",\"stones\":[1,2,3,4,5,100],\"m\":1}" },
    { .name = "stone_front3",
      .summary = "Take 1 to 3 piles from the front (values may be negative); most wins.",
      .compounds = ONE, .analyze = gr_analyze_stone_front3,
      .kind = GR_KIND_SCORE, FIELDS(stone_front3_fields),
      .example = "{\"game\":\"stone_front3\",\"stones\":[1,2,3,-9]}" },
    { .name = "can_i_win",
      .summary = "Pick unused numbers 1..max_choosable; reaching desired_total first wins.",
      .compounds = ONE, .analyze = gr_analyze_can_i_win,
      .kind = GR_KIND_SCORE, FIELDS(can_i_win_fields),
      CONSTRAINTS(can_i_win_constraints),
      .example = "{\"game\":\"can_i_win\",\"max_choosable\":10,\"desired_total\":40,\"used\":[1]}" },
};

const size_t gr_ngames = sizeof gr_games / sizeof gr_games[0];

const gr_game *gr_game_find(const char *name)
{
    for (size_t i = 0; i < gr_ngames; i++)
        if (strcmp(gr_games[i].name, name) == 0)
            return &gr_games[i];
    return NULL;
}

void gr_game_names(gr_text *t)
{
    for (size_t i = 0; i < gr_ngames; i++)
        gr_text_add(t, "%s%s", i ? ", " : "", gr_games[i].name);
}
