/* SPDX-License-Identifier: MIT */
/* API errors: an HTTP status, a stable machine-readable code, the field at
 * fault (a JSON path such as "piles[2]", or empty), and a message that says
 * what to change. Rendered as {"error": {"code", "message", "field"}}. */
#ifndef GRUNDY_API_ERROR_H
#define GRUNDY_API_ERROR_H

#include <stddef.h>

#include "grundy/status.h"

/* Every error code the service sends, once: its identifier, its wire name
 * (openapi.yaml's ErrorCode lists exactly these; test_error holds them to
 * it) and its HTTP status. line_too_long and shutting_down are only ever
 * lines of an NDJSON answer (shutting_down also answers a query whose
 * budget's cancel flag was raised); their status is what one line means. */
#define GR_ERROR_CODES(X)                       \
    X(BAD_JSON, "bad_json", 400)                 \
    X(BAD_REQUEST, "bad_request", 400)           \
    X(REQUEST_TIMEOUT, "request_timeout", 408)   \
    X(URL_TOO_LONG, "url_too_long", 414)         \
    X(HEADERS_TOO_LARGE, "headers_too_large", 431) \
    X(UNSUPPORTED_TRANSFER_CODING, "unsupported_transfer_coding", 501) \
    X(HTTP_VERSION_NOT_SUPPORTED, "http_version_not_supported", 505) \
    X(BODY_TOO_LARGE, "body_too_large", 413)     \
    X(INVALID_QUERY, "invalid_query", 422)       \
    X(MISSING_FIELD, "missing_field", 422)       \
    X(UNKNOWN_FIELD, "unknown_field", 422)       \
    X(INAPPLICABLE_FIELD, "inapplicable_field", 422) \
    X(INVALID_FIELD, "invalid_field", 422)       \
    X(INVALID_INTEGER, "invalid_integer", 422)   \
    X(OUT_OF_RANGE, "out_of_range", 422)         \
    X(TOO_MANY, "too_many", 422)                 \
    X(UNKNOWN_GAME, "unknown_game", 422)         \
    X(UNSUPPORTED_CONVENTION, "unsupported_convention", 422) \
    X(UNSUPPORTED_COMPOUND, "unsupported_compound", 422) \
    X(LIMIT_EXCEEDED, "limit_exceeded", 422)     \
    X(MEMORY_LIMIT, "memory_limit", 422)         \
    X(BEYOND_BOUND, "beyond_bound", 422)         \
    X(CYCLE, "cycle", 422)                       \
    X(ILLEGAL_POSITION, "illegal_position", 422) \
    X(INTERNAL, "internal", 500)                 \
    X(NOT_FOUND, "not_found", 404)               \
    X(METHOD_NOT_ALLOWED, "method_not_allowed", 405) \
    X(OVERLOADED, "overloaded", 503)             \
    X(NOT_READY, "not_ready", 503)               \
    X(LINE_TOO_LONG, "line_too_long", 413)       \
    X(SHUTTING_DOWN, "shutting_down", 503)

typedef enum gr_error_code {
#define GR_ERROR_ENUM(id, name, status) GR_E_##id,
    GR_ERROR_CODES(GR_ERROR_ENUM)
#undef GR_ERROR_ENUM
    GR_NERROR_CODES
} gr_error_code;

/* The wire name and the HTTP status of `code`. */
const char *gr_error_name(gr_error_code code);
int gr_error_status(gr_error_code code);

/* The body of the overloaded error for when memory runs out: fixed, so
 * that sending it needs none (test_error holds it to GR_E_OVERLOADED). */
extern const char gr_oom_error_json[];
extern const size_t gr_oom_error_json_len;

/* The code whose wire name is `name`; GR_NERROR_CODES for none (or NULL). */
gr_error_code gr_error_find(const char *name);

typedef struct gr_api_error {
    int status;         /* HTTP status, from the code */
    const char *code;   /* the code's wire name, e.g. "invalid_field" */
    char field[128];    /* offending field path, "" when no single field is at fault */
    char message[384];  /* what went wrong and what to change */
} gr_api_error;

/* Records an error; always returns -1 so callers can `return gr_fail(...)`. */
int gr_fail(gr_api_error *e, gr_error_code code, const char *field,
            const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Maps an engine status for `field` to an API error; returns -1. `what`
 * names the computation for the message ("the period of subtraction set"). */
int gr_fail_engine(gr_api_error *e, gr_status s, const char *field, const char *what);

/* Copies printable ASCII of `text` into `out` (size n), eliding the rest, so
 * client text can be quoted in messages safely. */
void gr_printable(const char *text, char *out, unsigned n);

#endif
