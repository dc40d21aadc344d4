/* SPDX-License-Identifier: MIT */
/* The structured account of an answer, its "why" member:
 *
 *   {"steps": [{"step": KIND, ...facts..., "text": SENTENCE}, ...]}
 *
 * Each step is one link of the argument, in the order a person reads it:
 * the rule a game is decided by ("rule"), the components' values in binary
 * and their nim-sum column by column ("nim_sum"), a component's options and
 * their mex ("mex"), the period used ("period"), the move that wins and why
 * it exists ("target"), a game's own argument ("wythoff_pair",
 * "zeckendorf", ...). KIND names which facts a step holds; api.md's
 * "Explanations" and openapi.yaml's WhyStep list them. Facts are exact
 * integers, strings, booleans and arrays of those, written straight into
 * the answer's buffer. A step does not restate what the answer's other
 * members say (a component's value, the move).
 *
 * The answer's "explanation" is one sentence per step, joined by spaces:
 * only gr_why_say writes it, and only for a step it is given, so the
 * structure and the prose never disagree.
 *
 * On a slim query ("explain": false, or an evaluation that needs only the
 * outcome) nothing is built: gr_why_step returns NULL, and every writer
 * accepts a NULL step and then does nothing, so a game writes its account
 * unconditionally and pays nothing when it is dropped. When memory runs out
 * the account is dropped whole, never the answer. */
#ifndef GRUNDY_API_WHY_H
#define GRUNDY_API_WHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "query.h"

/* The steps the searches behind an explanation (its winning moves, a
 * score game's move values) may spend, out of what the query has left: as
 * many as the answer itself spent, or this many when that is more. So an
 * explained answer costs at most about twice a slim one. */
#define GR_WINNING_MIN_STEPS 100000

/* Appends a new step {"step": kind} to q->ans.why and returns it; NULL on a
 * slim query. Its facts are written with the gr_jw_* writers (jw.h). */
gr_jw_node *gr_why_step(gr_query *q, const char *kind);

/* Appends the formatted sentence, the step's account for a person, to the
 * answer's explanation (a space between sentences); nothing when step is
 * NULL. The step itself holds only facts: each sentence is said once. */
void gr_why_say(gr_query *q, gr_jw_node *step, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* v in binary, most significant bit first, padded to `width` digits
 * (at least the digits v needs); out holds 65 bytes. The digit count. */
size_t gr_why_binary(uint64_t v, unsigned width, char out[65]);

#endif
