/* SPDX-License-Identifier: MIT */
/* The request side of the daemon (dispatch.c): the callbacks daemon.c registers
 * with libmicrohttpd, each given the server_state as its closure, and the
 * routes' labels. */
#ifndef GRUNDY_SERVER_HTTP_H
#define GRUNDY_SERVER_HTTP_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "routes.h"

/* The routes' paths as metrics and access-log labels, indexed by route_id;
 * the last, ROUTE_NONE's, is "other". */
extern const char *const http_route_names[ROUTE_NONE + 1];

/* MHD_AccessHandlerCallback: reads each request (within the body limits)
 * and answers it, inline or through the compute pool. */
enum MHD_Result http_handle(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                            const char *version, const char *upload_data, size_t *upload_data_size,
                            void **con_cls);

/* The request's Content-Length when it has a valid one. Malformed or
 * out-of-range values are libmicrohttpd's to refuse (it answers them
 * itself). */
bool http_declared_length(struct MHD_Connection *conn, uint64_t *length);

/* MHD_OPTION_NOTIFY_COMPLETED: a request ended; counts it in the metrics,
 * logs it, and readies the connection's state for the next one. */
void http_request_done(void *cls, struct MHD_Connection *conn, void **con_cls,
                       enum MHD_RequestTerminationCode toe);

/* MHD_OPTION_NOTIFY_CONNECTION: a connection's request state lives from its
 * opening to its closing; libmicrohttpd reports the last request's end
 * (http_request_done) first. */
void http_connection_event(void *cls, struct MHD_Connection *conn, void **socket_context,
                           enum MHD_ConnectionNotificationCode code);

#endif
