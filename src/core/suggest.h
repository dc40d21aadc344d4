/* SPDX-License-Identifier: MIT */
/* Nearest valid names for a misspelt one, so that every "unknown X" error
 * can say "did you mean ...". */
#ifndef GRUNDY_API_SUGGEST_H
#define GRUNDY_API_SUGGEST_H

#include <stddef.h>

/* The name among names[0 .. n) closest to `word` by edit distance (insert,
 * delete, substitute, swap of neighbours; letters compared without case),
 * when it is close enough to be a plausible misspelling: at most 1 + len/4
 * edits for a word of len characters, a word of over 64 bytes matching
 * nothing. NULL when none is. Ties go to the earlier name. */
const char *gr_suggest(const char *word, const char *const *names, size_t n);

/* The edit distance above, capped at `cap` (returns cap when it is at least
 * cap). Strings longer than 64 bytes are at distance cap from anything. */
unsigned gr_edit_distance(const char *a, const char *b, unsigned cap);

#endif
