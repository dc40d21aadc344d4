/* SPDX-License-Identifier: MIT */
/* The fast path for the commonest query: a plain normal-play Nim position.
 *
 * It answers a body that is exactly a JSON object with "game": "nim",
 * "piles": an array of at most GR_NIM_FAST_MAX_PILES integers written as
 * plain digits (up to 2^63 - 1), and optionally "convention": "normal" and
 * "explain": true or false, in any order, with JSON whitespace, no other
 * member, no string escapes. Its "winning_moves", "why" and "explanation"
 * are the general path's own (written as nim.c's account writes them). It writes the very bytes the general path (gr_api_analyze) writes for that
 * body, without parsing it into a tree; tests/games/test_nim_fast.c holds the two
 * to byte equality. Anything else is left to the general path. Nim spends no
 * compute budget on either path. It is nim's fast hook (contract.h). */
#ifndef GRUNDY_GAMES_NIM_FAST_H
#define GRUNDY_GAMES_NIM_FAST_H

#include <stdbool.h>
#include <stddef.h>

#include "json.h"
#include "query.h"

#define GR_NIM_FAST_MAX_PILES 12

/* Appends the answer to out and returns true, or returns false with out
 * unchanged when the body is not in the fast path's form (or when memory
 * runs out). */
bool gr_nim_fast(const gr_limits *limits, const char *body, size_t len, gr_buf *out);

#endif
