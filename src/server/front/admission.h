/* SPDX-License-Identifier: MIT */
/* Admission: which connections the daemon takes, which libmicrohttpd does
 * not decide for it. Each new connection is counted against --conn-limit
 * and --per-ip-limit when the acceptor takes it (acceptor.h); past either
 * it is refused with a 503 and Retry-After instead of silence, unless a
 * keep-alive connection idles between requests: the one idle longest is
 * then closed to make room, as nginx's reusable connections are.
 *
 * A connection's counts travel with it: the acceptor hands them over with
 * its descriptor (gr_admission_hand_over) before MHD_add_connection, and
 * libmicrohttpd's NOTIFY_STARTED takes them (gr_admission_open); its
 * NOTIFY_CLOSED gives them back (gr_admission_close). This is the one
 * admission path: a connection that cannot be handed over is refused. */
#ifndef GRUNDY_SERVER_ADMISSION_H
#define GRUNDY_SERVER_ADMISSION_H

#include <stdbool.h>
#include <stddef.h>

#include "server_config.h"

/* A connection libmicrohttpd holds, as admission sees it. */
typedef struct gr_admitted gr_admitted;
struct sockaddr;
struct ip_slot;

/* Starts counting for c's limits; the hand-over table is sized by the
 * descriptor limit. 0, or -1 when out of memory. gr_admission_stop frees it. */
int gr_admission_start(const gr_server_config *c);
void gr_admission_stop(void);

/* libmicrohttpd's own connection limit for c: twice --conn-limit and
 * more, so that libmicrohttpd never refuses one we admitted. It splits
 * its limit among its threads and checks a thread's share without a lock
 * when a connection is added, and a connection it drops after that check
 * would never reach gr_admission_open: admission is the limit, not its
 * table. */
unsigned gr_admission_mhd_limit(const gr_server_config *c);

/* The acceptor's side, before libmicrohttpd has the connection.
 * gr_admission_admit counts a new connection from sa (closing the
 * longest-idle keep-alive connection to make room), or refuses it with msg
 * (answer 503, count nothing); gr_admission_forget uncounts one closed
 * before libmicrohttpd had it. gr_admission_hand_over passes the counts of
 * fd on to its gr_admission_open (false: fd is past the table; refuse it);
 * gr_admission_take_back undoes it when MHD_add_connection fails;
 * gr_admission_handing counts those handed over and not yet opened. */
bool gr_admission_admit(const struct sockaddr *sa, struct ip_slot **ip, char *msg, size_t size);
void gr_admission_forget(struct ip_slot *ip);
bool gr_admission_hand_over(int fd, struct ip_slot *ip);
void gr_admission_take_back(int fd);
unsigned gr_admission_handing(void);

/* libmicrohttpd's side. gr_admission_open: the connection on fd opened
 * (NOTIFY_STARTED); NULL when out of memory (then it is not counted).
 * gr_admission_close undoes it (NOTIFY_CLOSED, before the socket is
 * closed). Between them, a request whose request line has arrived is
 * busy (gr_admission_busy, from libmicrohttpd's URI callback), its first
 * callback calls gr_admission_head_arrived (false: the connection was shut
 * down to make room before it was busy; drop it) and its end
 * gr_admission_request_ended (it idles, and may make room, until its next
 * request line). Any of them takes NULL. */
gr_admitted *gr_admission_open(int fd);
void gr_admission_close(gr_admitted *g);
void gr_admission_busy(gr_admitted *g);
bool gr_admission_head_arrived(gr_admitted *g);
void gr_admission_request_ended(gr_admitted *g);

/* Connections counted now: at the acceptor, handed over, or open. */
unsigned gr_admission_open_count(void);

#endif
