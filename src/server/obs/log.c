/* SPDX-License-Identifier: MIT */
/* memrchr is a GNU extension. */
#define _GNU_SOURCE
#include "log.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bg_thread.h"

/* SLOT_BYTES: each thread's buffer, room for the writer to be late by tens
 * of milliseconds at 100,000 lines/s (only the pages used are resident).
 * BATCH_BYTES: a thread's batch that wakes the writer at once. BATCH_MS:
 * how long a lone line may wait for company. Writes to a pipe, socket or
 * terminal are whole lines of at most PIPE_BUF bytes, started only once poll
 * says stderr takes them, so the writer never sleeps inside write() and
 * notices a stop; a regular file takes the whole batch at once. */
enum {
    SLOT_BYTES = 256 * 1024,
    BATCH_BYTES = 16 * 1024,
    BATCH_MS = 4,
    POLL_MS = 100,
    STOP_GRACE_MS = 1000,
    FLUSH_WAIT_MS = 2000
};

/* A thread's buffer. The lock is held only to copy a line in or to swap the
 * buffer out, never while writing, so a producer waits at most for a swap. */
typedef struct slot {
    pthread_mutex_t mu;
    char *buf;
    size_t len;
    struct slot *next;
} slot;

static struct {
    pthread_mutex_t mu; /* guards the list of slots and the fields below */
    pthread_cond_t wake, flushed;
    slot *slots;
    bool stopping;
    unsigned long flush_asked, flush_done;
    pthread_t thread;
    char *spare; /* the writer's buffer, swapped with a slot's */
    atomic_bool running, pending, urgent;
    atomic_ullong dropped;
} W = { .mu = PTHREAD_MUTEX_INITIALIZER };

/* The writer's own: set once a stop's write gave up, so that the other
 * slots' lines are counted as dropped at once rather than each waiting. */
static bool gave_up;
/* The writer's own: stderr is a regular file, whose writes never wait. */
static bool to_file;

static _Thread_local slot *my_slot;
static _Thread_local time_t stamp_sec = -1;
static _Thread_local char stamp_text[20];

void gr_log_stamp(char out[GR_LOG_STAMP_LEN])
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (ts.tv_sec != stamp_sec) {
        struct tm tm;
        gmtime_r(&ts.tv_sec, &tm);
        strftime(stamp_text, sizeof stamp_text, "%Y-%m-%dT%H:%M:%S", &tm);
        stamp_sec = ts.tv_sec;
    }
    long ms = ts.tv_nsec / 1000000L;
    memcpy(out, stamp_text, 19);
    out[19] = '.';
    out[20] = (char)('0' + ms / 100);
    out[21] = (char)('0' + ms / 10 % 10);
    out[22] = (char)('0' + ms % 10);
    out[23] = 'Z';
}

unsigned long long gr_log_dropped(void)
{
    return atomic_load(&W.dropped);
}

static unsigned long long count_lines(const char *p, size_t n)
{
    unsigned long long k = 0;
    for (size_t i = 0; i < n; i++)
        k += p[i] == '\n';
    return k;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Whole lines, at most PIPE_BUF bytes unless stderr is a file, from p[0..n). */
static size_t chunk_of(const char *p, size_t n)
{
    if (n <= PIPE_BUF || to_file)
        return n;
    const char *nl = memrchr(p, '\n', PIPE_BUF);
    return nl ? (size_t)(nl - p) + 1 : PIPE_BUF;
}

/* Writes p[0..n) to stderr. Gives up (counting the lines left as dropped)
 * when stderr fails, or, once stopping, when it has taken nothing for
 * STOP_GRACE_MS. */
static void write_out(const char *p, size_t n)
{
    long long idle_since = now_ms();
    while (n) {
        struct pollfd pfd = { .fd = STDERR_FILENO, .events = POLLOUT };
        int r = poll(&pfd, 1, POLL_MS);
        ssize_t w = -1;
        if (r > 0)
            w = write(STDERR_FILENO, p, chunk_of(p, n));
        if (w > 0) {
            p += w;
            n -= (size_t)w;
            idle_since = now_ms();
            continue;
        }
        bool failed = (r > 0 && w < 0 && errno != EINTR && errno != EAGAIN) || (r < 0 && errno != EINTR);
        pthread_mutex_lock(&W.mu);
        bool stopping = W.stopping;
        pthread_mutex_unlock(&W.mu);
        if (failed || (stopping && (gave_up || now_ms() - idle_since >= STOP_GRACE_MS))) {
            gave_up = gave_up || stopping;
            atomic_fetch_add(&W.dropped, count_lines(p, n));
            return;
        }
    }
}

/* Empties every slot registered when the round began. */
static void drain(slot *head)
{
    for (slot *s = head; s; s = s->next) {
        pthread_mutex_lock(&s->mu);
        char *full = s->buf;
        size_t n = s->len;
        if (n) {
            s->buf = W.spare;
            s->len = 0;
            W.spare = full;
        }
        pthread_mutex_unlock(&s->mu);
        if (n)
            write_out(full, n);
    }
}

/* Called with W.mu held: sleeps until there is something to write, then
 * lets a lone line wait BATCH_MS for others unless told to hurry. */
static void await_work(void)
{
    while (!atomic_load(&W.pending) && !atomic_load(&W.urgent) && !W.stopping && W.flush_asked == W.flush_done)
        pthread_cond_wait(&W.wake, &W.mu);
    struct timespec until = gr_bg_thread_due(BATCH_MS);
    while (!atomic_load(&W.urgent) && !W.stopping && W.flush_asked == W.flush_done)
        if (pthread_cond_timedwait(&W.wake, &W.mu, &until) == ETIMEDOUT)
            break;
    atomic_store(&W.pending, false);
    atomic_store(&W.urgent, false);
}

static void *writer(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&W.mu);
    for (;;) {
        await_work();
        unsigned long asked = W.flush_asked;
        bool last = W.stopping;
        slot *head = W.slots;
        pthread_mutex_unlock(&W.mu);
        drain(head);
        pthread_mutex_lock(&W.mu);
        W.flush_done = asked;
        pthread_cond_broadcast(&W.flushed);
        if (last)
            break;
    }
    pthread_mutex_unlock(&W.mu);
    return NULL;
}

static void wake(atomic_bool *flag)
{
    if (atomic_exchange(flag, true))
        return;
    pthread_mutex_lock(&W.mu);
    pthread_cond_signal(&W.wake);
    pthread_mutex_unlock(&W.mu);
}

static slot *claim_slot(void)
{
    slot *s = calloc(1, sizeof *s);
    if (!s || !(s->buf = malloc(SLOT_BYTES))) {
        free(s);
        return NULL;
    }
    pthread_mutex_init(&s->mu, NULL);
    pthread_mutex_lock(&W.mu);
    s->next = W.slots;
    W.slots = s;
    pthread_mutex_unlock(&W.mu);
    return my_slot = s;
}

void gr_log_line(const char *line, size_t n)
{
    if (!atomic_load(&W.running)) {
        fwrite(line, 1, n, stderr);
        return;
    }
    slot *s = my_slot ? my_slot : claim_slot();
    if (!s) {
        atomic_fetch_add(&W.dropped, 1);
        return;
    }
    pthread_mutex_lock(&s->mu);
    size_t before = s->len;
    bool fits = before + n <= SLOT_BYTES;
    if (fits) {
        memcpy(s->buf + before, line, n);
        s->len = before + n;
    }
    pthread_mutex_unlock(&s->mu);
    if (!fits) {
        atomic_fetch_add(&W.dropped, 1);
        wake(&W.urgent);
    } else if (before < BATCH_BYTES && before + n >= BATCH_BYTES) {
        wake(&W.urgent);
    } else if (before == 0) {
        wake(&W.pending);
    }
}

void gr_log(const char *level, const char *fmt, ...)
{
    char line[GR_LOG_LINE_MAX];
    gr_log_stamp(line + 3);
    memcpy(line, "ts=", 3);
    int n = snprintf(line + 3 + GR_LOG_STAMP_LEN, sizeof line - 3 - GR_LOG_STAMP_LEN, " level=%s ", level);
    size_t len = 3 + GR_LOG_STAMP_LEN + (n > 0 ? (size_t)n : 0);
    va_list ap;
    va_start(ap, fmt);
    if (len < sizeof line) {
        int m = vsnprintf(line + len, sizeof line - len, fmt, ap);
        len += m > 0 ? (size_t)m : 0;
    }
    va_end(ap);
    if (len > sizeof line - 1)
        len = sizeof line - 1;
    line[len++] = '\n';
    gr_log_line(line, len);
}

int gr_log_start(void)
{
    static bool registered;
    if (atomic_load(&W.running))
        return 0;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&W.wake, &ca);
    pthread_cond_init(&W.flushed, &ca);
    pthread_condattr_destroy(&ca);
    W.stopping = false;
    if (!W.spare && !(W.spare = malloc(SLOT_BYTES)))
        return -1;
    fflush(stderr);
    struct stat sb;
    to_file = fstat(STDERR_FILENO, &sb) == 0 && S_ISREG(sb.st_mode);
    if (pthread_create(&W.thread, NULL, writer, NULL) != 0)
        return -1;
    atomic_store(&W.running, true);
    if (!registered)
        registered = atexit(gr_log_stop) == 0;
    return 0;
}

void gr_log_flush(void)
{
    if (!atomic_load(&W.running)) {
        fflush(stderr);
        return;
    }
    struct timespec until = gr_bg_thread_due(FLUSH_WAIT_MS);
    pthread_mutex_lock(&W.mu);
    unsigned long mine = ++W.flush_asked;
    pthread_cond_signal(&W.wake);
    while (W.flush_done < mine)
        if (pthread_cond_timedwait(&W.flushed, &W.mu, &until) == ETIMEDOUT)
            break;
    pthread_mutex_unlock(&W.mu);
}

void gr_log_stop(void)
{
    if (!atomic_load(&W.running))
        return;
    pthread_mutex_lock(&W.mu);
    W.stopping = true;
    pthread_cond_signal(&W.wake);
    pthread_mutex_unlock(&W.mu);
    pthread_join(W.thread, NULL);
    atomic_store(&W.running, false);
}
