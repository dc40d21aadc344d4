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
 * integers (written as gr_json_add_u64 writes them), strings, booleans and
 * arrays of those.
 *
 * The answer's "explanation" is the steps' texts joined by spaces: each
 * gr_why_say appends its sentence to both, and nothing else writes the
 * explanation, so the structure and the prose never disagree.
 *
 * On a slim query ("explain": false, or an evaluation that needs only the
 * outcome) nothing is built: gr_why_step returns NULL, and every function
 * here accepts a NULL step and then does nothing, so a game writes its
 * account unconditionally and pays nothing when it is dropped. When memory
 * runs out the account is cut short, never the answer. */
#ifndef GRUNDY_API_WHY_H
#define GRUNDY_API_WHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/query.h"

/* Appends a new step {"step": kind} to q->ans.why and returns it; NULL on a
 * slim query or when memory runs out. */
cJSON *gr_why_step(gr_query *q, const char *kind);

/* Sets the step's "text" to the formatted sentence and appends it to the
 * answer's explanation (a space between sentences). */
void gr_why_say(gr_query *q, cJSON *step, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Facts of a step (or of an object inside one): each adds `key` to `obj`
 * and does nothing when obj is NULL. */
void gr_why_u64(cJSON *obj, const char *key, uint64_t v);
void gr_why_i128(cJSON *obj, const char *key, gr_json_i128 v);
void gr_why_str(cJSON *obj, const char *key, const char *v);
void gr_why_bool(cJSON *obj, const char *key, bool v);
void gr_why_u64s(cJSON *obj, const char *key, const uint64_t *v, size_t n);

/* A new array or object member of obj (NULL when obj is NULL or memory runs
 * out), and a new object appended to an array. */
cJSON *gr_why_array(cJSON *obj, const char *key);
cJSON *gr_why_object(cJSON *obj, const char *key);
cJSON *gr_why_push(cJSON *array);

/* v in binary, most significant bit first, padded to `width` digits
 * (at least the digits v needs); out holds 65 bytes. */
void gr_why_binary(uint64_t v, unsigned width, char out[65]);

#endif
