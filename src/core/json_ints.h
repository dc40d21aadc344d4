/* SPDX-License-Identifier: MIT */
/* Integers as strings, for clients whose JSON parser reads numbers into
 * doubles (JavaScript's JSON.parse keeps 53 bits). A request asks for them
 * with ?integers=string or Accept: application/json; integers=string; the
 * answer is rendered as always and then rewritten here, so no writer knows
 * of the option, and an answer that does not ask costs nothing more.
 *
 * Answers hold integers only (no fraction, no exponent): the rewrite quotes
 * every number token of the form -?[0-9]+ outside strings, and leaves any
 * other number as it is, so a document parsed after the rewrite equals the
 * one parsed before with each integer replaced by its decimal string. */
#ifndef GRUNDY_API_JSON_INTS_H
#define GRUNDY_API_JSON_INTS_H

#include <stdbool.h>
#include <stddef.h>

/* How a request wants its integers written. */
typedef enum gr_int_form { GR_INTS_NUMBER, GR_INTS_STRING } gr_int_form;

/* The value of an `integers` parameter (query or Accept): "number" (the
 * default) or "string", exactly; any other text is refused with false. */
bool gr_int_form_parse(const char *value, size_t len, gr_int_form *form);

/* The `integers` parameter of an Accept header value, in any of its media
 * ranges (`application/json; integers=string`, the value may be quoted).
 * 0 with *form set (GR_INTS_NUMBER when no range names it); -1 when a range
 * gives another value, with that value (printable, truncated) in bad[size]. */
int gr_accept_int_form(const char *accept, gr_int_form *form, char *bad, size_t size);

/* The length of json[0 .. len) with every integer token outside strings
 * written as a JSON string ("3" for 3, "-5" for -5). */
size_t gr_json_ints_quoted_len(const char *json, size_t len);

/* Writes that rewrite into out, which holds gr_json_ints_quoted_len(json,
 * len) bytes (no terminator is written); returns the bytes written. json
 * must be valid JSON text, as every rendered answer is. */
size_t gr_json_ints_quote(const char *json, size_t len, char *out);

#endif
