/* SPDX-License-Identifier: MIT */
/* Cancelling queries nobody waits for. A query handed to the compute pool
 * suspends its connection, and libmicrohttpd does not look at a suspended
 * connection, so it cannot tell that the client has gone. The watcher does:
 * every request between its hand-off and its reply is on its list, and a
 * thread polls their sockets every GR_WATCH_MS for a hang-up (POLLRDHUP,
 * POLLHUP, POLLERR), raising the request's cancel flag, which the query's
 * budget reads (a 503 shutting_down that nobody receives). A client that
 * half-closes its socket after the request counts as gone: an HTTP/1.1
 * client that still waits for an answer keeps its sending side open.
 *
 * The drain raises every flag at once at --drain-timeout (gr_watch_cancel_all);
 * from then on, requests handed off are cancelled as they arrive. */
#ifndef GRUNDY_SERVER_WATCH_H
#define GRUNDY_SERVER_WATCH_H

#include <stdatomic.h>
#include <stdbool.h>

#define GR_WATCH_MS 50

typedef struct gr_watch gr_watch;

/* One watched request: embedded in the request, linked while watched. */
typedef struct gr_watched {
    atomic_bool cancel;   /* raised once the client has gone or the drain ran out */
    int fd;               /* the connection's socket, which stays open while it is suspended */
    atomic_bool linked;   /* read without the lock by the request's end (dispatch.c) */
    struct gr_watched *prev, *next;
} gr_watched;

gr_watch *gr_watch_start(void);
void gr_watch_stop(gr_watch *w);

/* Puts w on the list, its flag cleared (or raised already when every
 * request is being cancelled); fd < 0 is not polled. Call while the
 * connection is suspended or about to be, before the job can run. */
void gr_watch_add(gr_watch *ww, gr_watched *w, int fd);

/* Takes w off the list; call before the connection is resumed, so that
 * the socket is never polled after it may have been closed. */
void gr_watch_remove(gr_watch *ww, gr_watched *w);

/* Raises every flag, and every later gr_watch_add's. Returns how many
 * requests were on the list. */
unsigned gr_watch_cancel_all(gr_watch *ww);

/* Appends /metrics' lines about cancelled queries to text (a malloc'd
 * string, reallocated); NULL when out of memory (text freed). */
char *gr_watch_metrics(gr_watch *ww, char *text);

#endif
