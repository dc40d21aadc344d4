/* SPDX-License-Identifier: MIT */
/* Admission (admission.h). Connections are listed while libmicrohttpd has
 * them, so that the longest idle can make room; the list lock is taken by
 * NOTIFY_CLOSED before libmicrohttpd closes a socket, so a descriptor shut
 * down here is always the connection's own. */
#include "admission.h"

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

#include "bg_thread.h"

/* idle_since_ms once the connection was closed to make room: its next
 * head is refused. */
#define IDLE_CUT INT64_C(-1)

struct gr_admitted {
    struct gr_admitted *prev, *next;
    int fd;
    /* Monotonic milliseconds since which the connection idles between two
     * requests; 0 while a request is read or answered (and before the
     * first); IDLE_CUT once closed to make room. */
    _Atomic int64_t idle_since_ms;
    struct ip_slot *ip;   /* its address's count, when --per-ip-limit is on */
};

static struct {
    pthread_mutex_t mu;
    gr_admitted *head;     /* the connections libmicrohttpd has opened */
    const gr_server_config *cfg;
    atomic_uint open;     /* connections admitted and not closed: at the acceptor or libmicrohttpd's */
    struct handed {       /* by descriptor: a connection the acceptor admitted, on its way to NOTIFY_STARTED */
        bool set;
        struct ip_slot *ip;
    } *handed;
    size_t handed_n;
    atomic_uint handing;  /* entries set in handed */
} adm = { .mu = PTHREAD_MUTEX_INITIALIZER };

/* Connections open per client address (--per-ip-limit), under adm.mu:
 * a chained hash of the address bytes; a slot lives while it counts one. */
typedef struct ip_slot {
    struct ip_slot *next;
    unsigned char key[17]; /* the family, then 4 or 16 address bytes */
    unsigned n;
} ip_slot;

enum { IP_BUCKETS = 1024 };
static ip_slot *ip_table[IP_BUCKETS];

unsigned gr_admission_mhd_limit(const gr_server_config *c)
{
    return 2 * c->conn_limit + 64;
}

/* ---- start and stop ---------------------------------------------------------- */

int gr_admission_start(const gr_server_config *c)
{
    adm.cfg = c;
    atomic_store(&adm.open, 0);
    atomic_store(&adm.handing, 0);
    struct rlimit rl;
    adm.handed_n = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (1u << 20) ? rl.rlim_cur : (1u << 20);
    adm.handed = calloc(adm.handed_n, sizeof *adm.handed);
    return adm.handed ? 0 : -1;
}

void gr_admission_stop(void)
{
    free(adm.handed);
    adm.handed = NULL;
    adm.handed_n = 0;
}

/* ---- a connection's life ---------------------------------------------------- */

/* Past --conn-limit, a keep-alive connection idle between requests makes
 * room, as nginx's reusable connections do: the one idle longest is shut
 * down, silently, and libmicrohttpd closes it on its own thread. Under
 * adm.mu (NOTIFY_CLOSED takes it before the socket is closed, so the
 * descriptor is the connection's own); false when none idles. */
static bool reuse_idle(void)
{
    gr_admitted *oldest = NULL;
    int64_t since = INT64_MAX;
    for (gr_admitted *g = adm.head; g; g = g->next) {
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
 * adm.mu. */
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
 * not (in msg); *ip is its address's count. Under adm.mu. */
static bool admit(ip_slot **ip, const struct sockaddr *sa, unsigned open, char *msg, size_t size)
{
    const gr_server_config *c = adm.cfg;
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

bool gr_admission_admit(const struct sockaddr *sa, struct ip_slot **ip, char *msg, size_t size)
{
    unsigned open = atomic_fetch_add(&adm.open, 1) + 1;
    *ip = NULL;
    pthread_mutex_lock(&adm.mu);
    bool ok = admit(ip, sa, open, msg, size);
    if (!ok) {
        uncount_address(*ip);
        *ip = NULL;
    }
    pthread_mutex_unlock(&adm.mu);
    if (!ok)
        atomic_fetch_sub(&adm.open, 1);
    return ok;
}

void gr_admission_forget(struct ip_slot *ip)
{
    pthread_mutex_lock(&adm.mu);
    uncount_address(ip);
    pthread_mutex_unlock(&adm.mu);
    atomic_fetch_sub(&adm.open, 1);
}

/* Clears the hand-over of fd, undoing its counts unless kept; whether one
 * was set (its slot in *ip). Under adm.mu. */
static bool take_handed(int fd, bool keep, ip_slot **ip)
{
    if (fd < 0 || (size_t)fd >= adm.handed_n || !adm.handed[fd].set)
        return false;
    *ip = adm.handed[fd].ip;
    adm.handed[fd].set = false;
    atomic_fetch_sub(&adm.handing, 1);
    if (!keep) {
        uncount_address(*ip);
        atomic_fetch_sub(&adm.open, 1);
    }
    return true;
}

bool gr_admission_hand_over(int fd, struct ip_slot *ip)
{
    pthread_mutex_lock(&adm.mu);
    bool ok = fd >= 0 && (size_t)fd < adm.handed_n;
    if (ok) {
        ip_slot *stale;
        take_handed(fd, false, &stale); /* one libmicrohttpd dropped before opening it */
        adm.handed[fd] = (struct handed){ .set = true, .ip = ip };
        atomic_fetch_add(&adm.handing, 1);
    }
    pthread_mutex_unlock(&adm.mu);
    return ok;
}

void gr_admission_take_back(int fd)
{
    ip_slot *ip;
    pthread_mutex_lock(&adm.mu);
    take_handed(fd, false, &ip);
    pthread_mutex_unlock(&adm.mu);
}

unsigned gr_admission_handing(void)
{
    return atomic_load(&adm.handing);
}

/* Every connection libmicrohttpd opens was admitted by the acceptor and
 * handed over (gr_admission_hand_over); its counts move to its entry here. */
gr_admitted *gr_admission_open(int fd)
{
    gr_admitted *g = calloc(1, sizeof *g);
    ip_slot *ip = NULL;
    pthread_mutex_lock(&adm.mu);
    bool handed = take_handed(fd, g != NULL, &ip);
    if (g) {
        g->fd = fd;
        g->ip = ip;
        g->next = adm.head;
        if (adm.head)
            adm.head->prev = g;
        adm.head = g;
        if (!handed)
            atomic_fetch_add(&adm.open, 1); /* not the acceptor's: counted, so that its close balances */
    }
    pthread_mutex_unlock(&adm.mu);
    return g;
}

void gr_admission_close(gr_admitted *g)
{
    if (!g)
        return;
    pthread_mutex_lock(&adm.mu);
    if (g->prev)
        g->prev->next = g->next;
    else
        adm.head = g->next;
    if (g->next)
        g->next->prev = g->prev;
    uncount_address(g->ip);
    pthread_mutex_unlock(&adm.mu);
    atomic_fetch_sub(&adm.open, 1);
    free(g);
}

void gr_admission_busy(gr_admitted *g)
{
    int64_t since = g ? atomic_load(&g->idle_since_ms) : 0;
    while (since > 0 && !atomic_compare_exchange_weak(&g->idle_since_ms, &since, 0))
        ;
}

bool gr_admission_head_arrived(gr_admitted *g)
{
    return !g || atomic_exchange(&g->idle_since_ms, 0) != IDLE_CUT;
}

void gr_admission_request_ended(gr_admitted *g)
{
    int64_t busy = 0;
    if (g)
        atomic_compare_exchange_strong(&g->idle_since_ms, &busy, gr_monotonic_ms());
}

unsigned gr_admission_open_count(void)
{
    return atomic_load(&adm.open);
}
