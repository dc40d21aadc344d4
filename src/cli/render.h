/* SPDX-License-Identifier: MIT */
/* `grundy query` for people: an /v1/analyze answer in words.
 *
 * The answer's body (from the service in-process or over HTTP) is read with
 * the exact-integer JSON reader, so every number is printed with all its
 * digits. Layout, one fact per line, labels in a column:
 *
 *   The player to move wins (nim, normal play).
 *   Grundy value:  2
 *   Winning move:  Take 2 from pile 0 (3 -> 1).
 *   Then:          piles [1,4,5]
 *   Period:        8 from heap 47 (pile 0, pile 1)
 *   Why:           Nim: a pile's Grundy value is its size. ... (wrapped)
 *
 * An error body {"error": {...}} is written as one line
 * "grundy: CODE: MESSAGE (field: F)". */
#ifndef GRUNDY_CLI_RENDER_H
#define GRUNDY_CLI_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One reply as `grundy query` prints it: in words (human), else the body
 * and a newline on out. In words, `separate` puts a blank line before an
 * answer (not before an error, which goes to err), for a run of answers.
 * Returns 0 for an answer with status 200, else 1. */
int gr_render_reply(int status, const char *body, size_t len, bool human, bool separate, FILE *out,
                    FILE *err);

#endif
