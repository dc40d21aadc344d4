/* API errors: an HTTP status, a stable machine-readable code, the field at
 * fault (a JSON path such as "piles[2]", or empty), and a message that says
 * what to change. Rendered as {"error": {"code", "message", "field"}}. */
#ifndef GRUNDY_API_ERROR_H
#define GRUNDY_API_ERROR_H

#include <stddef.h>

#include "grundy/status.h"

typedef struct gr_api_error {
    int status;         /* HTTP status: 400, 404, 405, 413, 422, 500, 503 */
    const char *code;   /* stable code, e.g. "invalid_field" */
    char field[128];    /* offending field path, "" when no single field is at fault */
    char message[384];  /* what went wrong and what to change */
} gr_api_error;

/* Records an error; always returns -1 so callers can `return gr_fail(...)`. */
int gr_fail(gr_api_error *e, int status, const char *code, const char *field,
            const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Maps an engine status for `field` to an API error; returns -1. `what`
 * names the computation for the message ("the period of subtraction set"). */
int gr_fail_engine(gr_api_error *e, gr_status s, const char *field, const char *what);

/* The error body as a JSON string from gr_mem_alloc (its length in *len),
 * or NULL on allocation failure. */
char *gr_error_json(const gr_api_error *e, size_t *len);

/* Copies printable ASCII of `text` into `out` (size n), eliding the rest, so
 * client text can be quoted in messages safely. */
void gr_printable(const char *text, char *out, unsigned n);

#endif
