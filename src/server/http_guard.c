/* SPDX-License-Identifier: MIT */
/* The front door's guards (http_guard.h). Connections are listed while
 * libmicrohttpd has them, so that the longest idle can make room; the list
 * lock is taken by NOTIFY_CLOSED before libmicrohttpd closes a socket, so a
 * descriptor shut down here is always the connection's own. */
#include "server/http_guard.h"

#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>

#include "server/request_head.h"
#include "server/request_id.h"

/* idle_since_ms once the connection was closed to make room: its next
 * head is refused. */
#define IDLE_CUT INT64_C(-1)

typedef struct conn_guard {
    struct conn_guard *prev, *next;
    int fd;
    /* Monotonic milliseconds since which the connection idles between two
     * requests; 0 while a request is read or answered (and before the
     * first); IDLE_CUT once closed to make room. */
    _Atomic int64_t idle_since_ms;
    bool bad_url;         /* a decoded part of the URL held a control byte */
    struct ip_slot *ip;   /* its address's count, when --per-ip-limit is on */
    size_t target_len;    /* bytes of the raw request target */
} conn_guard;

static struct {
    pthread_mutex_t mu;
    conn_guard *head;     /* the connections libmicrohttpd has opened */
    const gr_server_config *cfg;
    atomic_uint open;     /* connections admitted and not closed: at the acceptor or libmicrohttpd's */
    struct handed {       /* by descriptor: a connection the acceptor admitted, on its way to NOTIFY_STARTED */
        bool set;
        struct ip_slot *ip;
    } *handed;
    size_t handed_n;
    atomic_uint handing;  /* entries set in handed */
} guard = { .mu = PTHREAD_MUTEX_INITIALIZER };

/* Connections open per client address (--per-ip-limit), under guard.mu:
 * a chained hash of the address bytes; a slot lives while it counts one. */
typedef struct ip_slot {
    struct ip_slot *next;
    unsigned char key[17]; /* the family, then 4 or 16 address bytes */
    unsigned n;
} ip_slot;

enum { IP_BUCKETS = 1024 };
static ip_slot *ip_table[IP_BUCKETS];

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

unsigned gr_guard_mhd_conn_limit(const gr_server_config *c)
{
    unsigned spare = c->conn_limit / 16 < 8 ? 8 : c->conn_limit / 16;
    return c->conn_limit + spare;
}

size_t gr_guard_mhd_memory(const gr_server_config *c)
{
    return (size_t)c->max_url + c->max_header + 32768;
}

/* ---- answers written on the socket itself --------------------------------- */

/* Writes a whole JSON error with Connection: close, for a connection that
 * libmicrohttpd has not answered and will not: a new socket's buffer holds
 * it, so one non-blocking send suffices (a short one is dropped). message
 * is JSON string content already (no quote or backslash unescaped). */
void gr_guard_send_error(int fd, gr_error_code code, const char *message)
{
    char body[640], head[512], id[GR_REQUEST_ID_MAX + 1];
    int blen = snprintf(body, sizeof body, "{\"error\":{\"code\":\"%s\",\"message\":\"%s\",\"field\":null}}",
                        gr_error_name(code), message);
    gr_request_id_take(id, NULL);
    char date[64];
    struct tm tm;
    time_t now = time(NULL);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", gmtime_r(&now, &tm));
    int status = gr_error_status(code);
    int hlen = snprintf(head, sizeof head,
                        "HTTP/1.1 %d %s\r\nDate: %s\r\nContent-Type: application/json\r\n"
                        "Content-Length: %d\r\n%sX-Request-Id: %s\r\nConnection: close\r\n\r\n",
                        status, gr_head_reason(status), date, blen, status == 503 ? "Retry-After: 1\r\n" : "", id);
    if (blen <= 0 || hlen <= 0 || (size_t)blen >= sizeof body || (size_t)hlen >= sizeof head)
        return;
    char out[sizeof head + sizeof body];
    memcpy(out, head, (size_t)hlen);
    memcpy(out + hlen, body, (size_t)blen);
    (void)!send(fd, out, (size_t)hlen + (size_t)blen, MSG_NOSIGNAL | MSG_DONTWAIT);
}

/* ---- start and stop ---------------------------------------------------------- */

int gr_guard_start(server_state *st)
{
    guard.cfg = st->cfg;
    atomic_store(&guard.open, 0);
    atomic_store(&guard.handing, 0);
    struct rlimit rl;
    guard.handed_n = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (1u << 20) ? rl.rlim_cur : (1u << 20);
    guard.handed = calloc(guard.handed_n, sizeof *guard.handed);
    return guard.handed ? 0 : -1;
}

void gr_guard_stop(void)
{
    free(guard.handed);
    guard.handed = NULL;
    guard.handed_n = 0;
}

/* ---- a connection's life ---------------------------------------------------- */

/* Past --conn-limit, a keep-alive connection idle between requests makes
 * room, as nginx's reusable connections do: the one idle longest is shut
 * down, silently, and libmicrohttpd closes it on its own thread. Under
 * guard.mu (NOTIFY_CLOSED takes it before the socket is closed, so the
 * descriptor is the connection's own); false when none idles. */
static bool reuse_idle(void)
{
    conn_guard *oldest = NULL;
    int64_t since = INT64_MAX;
    for (conn_guard *g = guard.head; g; g = g->next) {
        int64_t s = atomic_load(&g->idle_since_ms);
        if (s > 0 && s < since) {
            oldest = g;
            since = s;
        }
    }
    if (!oldest || !atomic_compare_exchange_strong(&oldest->idle_since_ms, &since, IDLE_CUT))
        return false;
    shutdown(oldest->fd, SHUT_RDWR);
    return true;
}

/* The count of the client's address sa, one more; NULL when it cannot be
 * told or memory runs out (the connection is then not counted). Under
 * guard.mu. */
static ip_slot *count_address(const struct sockaddr *sa)
{
    unsigned char key[17] = { 0 };
    if (sa && sa->sa_family == AF_INET)
        memcpy(key + 1, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
    else if (sa && sa->sa_family == AF_INET6)
        memcpy(key + 1, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, 16);
    else
        return NULL;
    key[0] = (unsigned char)sa->sa_family;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < sizeof key; i++)
        h = (h ^ key[i]) * 16777619u;
    ip_slot **bucket = &ip_table[h % IP_BUCKETS], *slot = *bucket;
    while (slot && memcmp(slot->key, key, sizeof key) != 0)
        slot = slot->next;
    if (!slot) {
        slot = calloc(1, sizeof *slot);
        if (!slot)
            return NULL;
        memcpy(slot->key, key, sizeof key);
        slot->next = *bucket;
        *bucket = slot;
    }
    slot->n++;
    return slot;
}

static void uncount_address(ip_slot *slot)
{
    if (!slot || --slot->n)
        return;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < sizeof slot->key; i++)
        h = (h ^ slot->key[i]) * 16777619u;
    ip_slot **p = &ip_table[h % IP_BUCKETS];
    while (*p != slot)
        p = &(*p)->next;
    *p = slot->next;
    free(slot);
}

/* Whether a new connection from sa, the open-th, is served, or else why
 * not (in msg); *ip is its address's count. Under guard.mu. */
static bool admit(ip_slot **ip, const struct sockaddr *sa, unsigned open, char *msg, size_t size)
{
    const gr_server_config *c = guard.cfg;
    if (c->per_ip_limit) {
        *ip = count_address(sa);
        if (*ip && (*ip)->n > c->per_ip_limit) {
            snprintf(msg, size, "this client address holds its limit of %u connections (--per-ip-limit); "
                     "reuse them, or retry later", c->per_ip_limit);
            return false;
        }
    }
    if (open > c->conn_limit && !reuse_idle()) {
        snprintf(msg, size, "the server holds its limit of %u connections (--conn-limit); retry later",
                 c->conn_limit);
        return false;
    }
    return true;
}

bool gr_guard_admit(const struct sockaddr *sa, struct ip_slot **ip, char *msg, size_t size)
{
    unsigned open = atomic_fetch_add(&guard.open, 1) + 1;
    *ip = NULL;
    pthread_mutex_lock(&guard.mu);
    bool ok = admit(ip, sa, open, msg, size);
    if (!ok) {
        uncount_address(*ip);
        *ip = NULL;
    }
    pthread_mutex_unlock(&guard.mu);
    if (!ok)
        atomic_fetch_sub(&guard.open, 1);
    return ok;
}

void gr_guard_forget(struct ip_slot *ip)
{
    pthread_mutex_lock(&guard.mu);
    uncount_address(ip);
    pthread_mutex_unlock(&guard.mu);
    atomic_fetch_sub(&guard.open, 1);
}

/* Clears the hand-over of fd, undoing its counts unless kept; whether one
 * was set (its slot in *ip). Under guard.mu. */
static bool take_handed(int fd, bool keep, ip_slot **ip)
{
    if (fd < 0 || (size_t)fd >= guard.handed_n || !guard.handed[fd].set)
        return false;
    *ip = guard.handed[fd].ip;
    guard.handed[fd].set = false;
    atomic_fetch_sub(&guard.handing, 1);
    if (!keep) {
        uncount_address(*ip);
        atomic_fetch_sub(&guard.open, 1);
    }
    return true;
}

bool gr_guard_hand_over(int fd, struct ip_slot *ip)
{
    pthread_mutex_lock(&guard.mu);
    bool ok = fd >= 0 && (size_t)fd < guard.handed_n;
    if (ok) {
        ip_slot *stale;
        take_handed(fd, false, &stale); /* one libmicrohttpd dropped before opening it */
        guard.handed[fd] = (struct handed){ .set = true, .ip = ip };
        atomic_fetch_add(&guard.handing, 1);
    }
    pthread_mutex_unlock(&guard.mu);
    return ok;
}

void gr_guard_take_back(int fd)
{
    ip_slot *ip;
    pthread_mutex_lock(&guard.mu);
    take_handed(fd, false, &ip);
    pthread_mutex_unlock(&guard.mu);
}

unsigned gr_guard_handing(void)
{
    return atomic_load(&guard.handing);
}

/* Every connection libmicrohttpd opens was admitted by the acceptor and
 * handed over (gr_guard_hand_over); its counts move to its guard here. */
void gr_guard_open(request *rq, struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    int fd = ci ? ci->connect_fd : -1;
    conn_guard *g = calloc(1, sizeof *g);
    ip_slot *ip = NULL;
    pthread_mutex_lock(&guard.mu);
    bool handed = take_handed(fd, g != NULL, &ip);
    if (g) {
        g->fd = fd;
        g->ip = ip;
        g->next = guard.head;
        if (guard.head)
            guard.head->prev = g;
        guard.head = g;
        if (!handed)
            atomic_fetch_add(&guard.open, 1); /* not the acceptor's: counted, so that its close balances */
    }
    pthread_mutex_unlock(&guard.mu);
    rq->guard = g;
}

void gr_guard_close(request *rq)
{
    conn_guard *g = rq->guard;
    rq->guard = NULL;
    if (!g)
        return;
    pthread_mutex_lock(&guard.mu);
    if (g->prev)
        g->prev->next = g->next;
    else
        guard.head = g->next;
    if (g->next)
        g->next->prev = g->prev;
    uncount_address(g->ip);
    pthread_mutex_unlock(&guard.mu);
    atomic_fetch_sub(&guard.open, 1);
    free(g);
}

bool gr_guard_head_arrived(request *rq)
{
    conn_guard *g = rq->guard;
    return !g || atomic_exchange(&g->idle_since_ms, 0) != IDLE_CUT;
}

void gr_guard_request_ended(request *rq)
{
    conn_guard *g = rq->guard;
    if (!g)
        return;
    g->bad_url = false;
    g->target_len = 0;
    int64_t busy = 0;
    atomic_compare_exchange_strong(&g->idle_since_ms, &busy, now_ms());
}

/* ---- the URL ---------------------------------------------------------------- */

static conn_guard *guard_of(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    request *rq = ci ? ci->socket_context : NULL;
    return rq ? rq->guard : NULL;
}

void *gr_guard_uri_seen(void *cls, const char *uri, struct MHD_Connection *conn)
{
    (void)cls;
    conn_guard *g = guard_of(conn);
    if (g)
        g->target_len = strlen(uri);
    return NULL; /* no per-request context of libmicrohttpd's: http.c makes its own */
}

/* libmicrohttpd calls this for the path, and for each name and value of
 * the query: a %00 would end the C string there, so that /healthz%00x
 * matched /healthz. */
size_t gr_guard_unescape(void *cls, struct MHD_Connection *conn, char *s)
{
    (void)cls;
    size_t n = MHD_http_unescape(s);
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || ch == 0x7f) {
            conn_guard *g = guard_of(conn);
            if (g)
                g->bad_url = true;
            break;
        }
    }
    return n;
}

/* ---- the head --------------------------------------------------------------- */

static enum MHD_Result count_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    (void)value;
    unsigned *n = cls;
    if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0)
        n[0]++;
    else if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0)
        n[1]++;
    return MHD_YES;
}

/* Transfer-Encoding: chunked alone is read; any other coding cannot be
 * (libmicrohttpd would wait for the body's end until the timeout), and a
 * length beside a coding makes the body's end ambiguous (RFC 9112 6.3). */
static gr_error_code check_codings(request *rq, char *message, size_t size)
{
    unsigned n[2] = { 0, 0 };
    MHD_get_connection_values(rq->conn, MHD_HEADER_KIND, count_header, n);
    if (n[0] == 0)
        return GR_NERROR_CODES;
    const char *te = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
    if (n[0] > 1 || !te || strcasecmp(te, "chunked") != 0) {
        char shown[48];
        gr_printable(te ? te : "", shown, sizeof shown);
        snprintf(message, size, "Transfer-Encoding \"%s\" is not supported: send the body as it is, with a "
                 "Content-Length, or with Transfer-Encoding: chunked alone", n[0] > 1 ? "(several)" : shown);
        return GR_E_UNSUPPORTED_TRANSFER_CODING;
    }
    if (n[1]) {
        snprintf(message, size, "the request has both Transfer-Encoding and Content-Length; send one");
        return GR_E_BAD_REQUEST;
    }
    return GR_NERROR_CODES;
}

gr_error_code gr_guard_check_head(request *rq, char *message, size_t size)
{
    const gr_server_config *c = rq->st->cfg;
    conn_guard *g = rq->guard;
    if (g && g->bad_url) {
        snprintf(message, size, "the URL holds a control character (such as %%00) once decoded; send the "
                 "path and query without them");
        return GR_E_BAD_REQUEST;
    }
    if (g && g->target_len > c->max_url) {
        snprintf(message, size, "the URL is %zu bytes, longer than the limit of %u (--max-url); send a "
                 "shorter one (queries go in the body)", g->target_len, c->max_url);
        return GR_E_URL_TOO_LONG;
    }
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(rq->conn, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    if (ci && ci->header_size > c->max_header) {
        snprintf(message, size, "the request line and headers are %zu bytes, more than the limit of %u "
                 "(--max-header); send fewer or shorter headers", ci->header_size, c->max_header);
        return GR_E_HEADERS_TOO_LARGE;
    }
    return check_codings(rq, message, size);
}

/* ---- lingering ---------------------------------------------------------------- */

static uint64_t elapsed_ms(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    int64_t ms = (int64_t)(t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
    return ms > 0 ? (uint64_t)ms : 0;
}

bool gr_guard_linger(request *rq, size_t n)
{
    const gr_server_config *c = rq->st->cfg;
    rq->dropped += n;
    return rq->dropped <= c->linger_bytes && elapsed_ms(&rq->start) <= (uint64_t)c->linger_time * 1000;
}

bool gr_guard_linger_declared(const request *rq, uint64_t declared)
{
    return declared <= rq->st->cfg->linger_bytes;
}
