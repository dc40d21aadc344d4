/* SPDX-License-Identifier: MIT */
/* NDJSON batches answered while they upload (ndjson/stream.h): the
 * hand-over from libmicrohttpd's request reading to the duplex stream. */
#ifndef GRUNDY_SERVER_HTTP_DUPLEX_H
#define GRUNDY_SERVER_HTTP_DUPLEX_H

#include "request.h"

/* Called with the first chunk of an NDJSON batch's body appended to its
 * spool. Takes the connection over, so that the answers flow while the
 * rest uploads, when it is a Content-Length body over HTTP/1.1 with more
 * still to come and the compute pool has room: the request is then answered
 * (rq->answered, rq->stream handed to the pool job). Otherwise nothing
 * changes and the stream is answered once the body is whole. */
void http_start_duplex(request *rq, const char *version);

#endif
