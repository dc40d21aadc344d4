/* SPDX-License-Identifier: MIT */
/* `grundy ... --url http://HOST:PORT`: the same commands answered by a
 * running grundyd over HTTP (src/cli/http_client.c).
 *
 * Each function returns the command's exit status: 0 answered, 1 a query
 * (or the batch) got an error, which is printed as the local commands print
 * it, 3 the service could not be reached or answered outside the HTTP
 * contract (a non-2xx status without a JSON error body included); a line on
 * stderr then names the URL and the reason. */
#ifndef GRUNDY_CLI_REMOTE_H
#define GRUNDY_CLI_REMOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/http_client.h"

#define GR_EXIT_UNREACHABLE 3

typedef struct gr_remote {
    gr_http_url url;
    const char *text; /* the URL as given, for messages */
    int timeout_ms;
} gr_remote;

/* 0, or 2 after a line on stderr when the URL or the timeout is malformed. */
int gr_remote_init(gr_remote *r, const char *url, const char *timeout_text);

/* POST /v1/analyze with one query; the answer in words when human (after
 * a blank line when separate). */
int gr_remote_query(const gr_remote *r, const char *query, size_t len, bool human, bool separate);

/* POST /v1/analyze for each non-blank line of `in`, answered in order as
 * each line is complete; stops at the first line the service cannot be
 * asked about. */
int gr_remote_query_lines(const gr_remote *r, FILE *in, bool human);

/* GET /v1/games: the catalogue as it is (json), else each game's name and
 * summary, one game per line. */
int gr_remote_games(const gr_remote *r, bool json);

/* POST /v1/moves. */
int gr_remote_moves(const gr_remote *r, const char *query);

/* POST /v1/batch with the NDJSON of `in`, streamed (chunked), and the answer
 * lines streamed to stdout as they arrive. */
int gr_remote_batch_ndjson(const gr_remote *r, FILE *in);

/* POST /v1/batch with one JSON batch body. */
int gr_remote_batch_json(const gr_remote *r, const char *body, size_t len);

#endif
