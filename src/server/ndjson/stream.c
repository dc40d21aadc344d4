/* SPDX-License-Identifier: MIT */
#include "stream.h"
#include "spool_quota.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "batch.h"
#include "contract.h"
#include "scratch.h"
#include "stream_socket.h"

#define RING_BYTES (256u * 1024u)
#define READ_CHUNK (64u * 1024u)
/* The job gathers answers in a stage and moves them to the ring (or the
 * socket) when it holds STAGE_FLUSH bytes or STAGE_MS have passed since the
 * last move, so that fast answers cross the lock and wake the reader once
 * per many lines, while slow ones still reach the client promptly. Large
 * moves matter: a million slim Nim answers went through loopback about 20%
 * faster with 512 KiB moves than with 128 KiB ones (bench/ndjson.sh). */
#define STAGE_BYTES (1024u * 1024u)
#define STAGE_FLUSH (512u * 1024u)
#define STAGE_MS 2
/* A fast-path line takes a fraction of a microsecond, less than reading the
 * clock: so many of them may pass between looks at STAGE_MS. */
#define FAST_CLOCK_EVERY 64u

struct gr_stream {
    pthread_mutex_t mu;
    pthread_cond_t space;
    atomic_uint refs;
    struct MHD_Connection *conn;
    FILE *spool;
    uint64_t spooled, quota; /* bytes written to the spool, and taken of --max-spool */
    gr_snapshot *snap;
    char *ring;
    size_t head, len;
    bool done, cancelled, suspended;
    gr_int_form int_form; /* each answer line as rendered, or with integers as strings */
    void (*observe)(void *ctx, const gr_reply *reply); /* each line's reply, or NULL */
    void *observe_ctx;
    char *stage;       /* the job's alone, allocated when it starts: only running streams hold one */
    size_t staged;
    unsigned fast_lines; /* fast-path lines answered: they look at the clock once in FAST_CLOCK_EVERY */
    struct timespec flushed;
    z_stream *z;       /* the job's alone: gzip of the answers, or NULL */
    unsigned char *zout;
    bool duplex;       /* the socket is ours: answers go to sock, not to the ring */
    gr_sock_io sock;
    char *response_head; /* duplex: the 200's status line and headers, then the 503's */
    size_t response_head_len, busy_head_len;
};

/* A refused duplex stream reads what it can of the rest of the body for
 * this long after its 503, so that closing the socket with body bytes
 * unread (a reset) does not destroy the 503 before the client reads it. */
#define REFUSE_DISCARD_MS 200

/* The deflate output buffer, sent each time it fills. */
#define ZOUT_BYTES (256u * 1024u)

static atomic_bool abort_all;
static atomic_uint duplex_running;

unsigned gr_stream_duplex_running(void)
{
    return atomic_load(&duplex_running);
}

/* Duplex connections handed back to libmicrohttpd whose close it has not
 * yet reported (see gr_stream_expected_close). */
static atomic_uint handed_back;

bool gr_stream_expected_close(void)
{
    unsigned n = atomic_load(&handed_back);
    while (n > 0)
        if (atomic_compare_exchange_weak(&handed_back, &n, n - 1))
            return true;
    return false;
}

void gr_stream_abort_all(void)
{
    atomic_store(&abort_all, true);
}

gr_stream *gr_stream_new(struct MHD_Connection *conn, gr_int_form int_form,
                         void (*observe)(void *ctx, const gr_reply *reply), void *observe_ctx)
{
    gr_stream *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->spool = tmpfile();
    s->ring = malloc(RING_BYTES);
    if (!s->spool || !s->ring) {
        if (s->spool)
            fclose(s->spool);
        free(s->ring);
        free(s);
        return NULL;
    }
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->space, NULL);
    atomic_init(&s->refs, 1);
    s->conn = conn;
    s->int_form = int_form;
    s->observe = observe;
    s->observe_ctx = observe_ctx;
    return s;
}

bool gr_stream_reserve(gr_stream *s, uint64_t bytes)
{
    if (bytes <= s->quota)
        return true;
    if (!gr_spool_quota_take(bytes - s->quota))
        return false;
    s->quota = bytes;
    return true;
}

int gr_stream_spool(gr_stream *s, const char *data, size_t n)
{
    if (!gr_stream_reserve(s, s->spooled + n))
        return -2;
    s->spooled += n;
    return fwrite(data, 1, n, s->spool) == n ? 0 : -1;
}

void gr_stream_release(gr_stream *s)
{
    if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
        return;
    gr_snapshot_release(s->snap);
    fclose(s->spool);
    gr_spool_quota_give(s->quota);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->space);
    free(s->ring);
    free(s->stage);
    if (s->z)
        deflateEnd(s->z);
    free(s->z);
    free(s->zout);
    free(s->response_head);
    free(s);
}

/* Content reader: what the ring holds, the end once the job is done, or
 * nothing yet (the connection is suspended until the job writes). */
static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    gr_stream *s = cls;
    (void)pos;
    pthread_mutex_lock(&s->mu);
    if (s->len > 0) {
        size_t n = 0;
        while (n < max && s->len > 0) {
            size_t run = RING_BYTES - s->head;
            run = run < s->len ? run : s->len;
            run = run < max - n ? run : max - n;
            memcpy(buf + n, s->ring + s->head, run);
            s->head = (s->head + run) % RING_BYTES;
            s->len -= run;
            n += run;
        }
        pthread_cond_signal(&s->space);
        pthread_mutex_unlock(&s->mu);
        return (ssize_t)n;
    }
    bool done = s->done;
    s->suspended = !done;
    pthread_mutex_unlock(&s->mu);
    if (done)
        return MHD_CONTENT_READER_END_OF_STREAM;
    /* A resume that comes first cancels this suspend (libmicrohttpd keeps
     * the connection's resuming flag), so no wake-up is lost. */
    MHD_suspend_connection(s->conn);
    return 0;
}

static void stream_free(void *cls)
{
    gr_stream *s = cls;
    pthread_mutex_lock(&s->mu);
    s->cancelled = true;
    pthread_cond_broadcast(&s->space);
    pthread_mutex_unlock(&s->mu);
    gr_stream_release(s);
}

/* A gzip stream with no name and time 0 for the answers; false when out
 * of memory. */
static bool start_gzip(gr_stream *s)
{
    s->z = calloc(1, sizeof *s->z);
    s->zout = malloc(ZOUT_BYTES);
    if (!s->z || !s->zout ||
        deflateInit2(s->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(s->z);
        free(s->zout);
        s->z = NULL;
        s->zout = NULL;
        return false;
    }
    return true;
}

struct MHD_Response *gr_stream_response(gr_stream *s, gr_snapshot *snap, bool gzip)
{
    if (gzip && !start_gzip(s))
        return NULL;
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 65536, stream_read, s,
                                                               stream_free);
    if (!r)
        return NULL;
    atomic_fetch_add(&snap->refs, 1);
    s->snap = snap;
    atomic_fetch_add(&s->refs, 1);
    if (gzip)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
    return r;
}

/* Hands the reader a wake-up when it is waiting; called without the lock. */
static void wake(gr_stream *s, bool resume)
{
    if (resume)
        MHD_resume_connection(s->conn);
}

/* Copies n bytes into the ring, waiting for room (or sends them as a chunk
 * of a duplex stream); false once cancelled. */
static bool write_out(gr_stream *s, const char *data, size_t n)
{
    if (s->duplex)
        return gr_sock_send(&s->sock, data, n, false);
    while (n > 0) {
        pthread_mutex_lock(&s->mu);
        while (s->len == RING_BYTES && !s->cancelled)
            pthread_cond_wait(&s->space, &s->mu);
        if (s->cancelled) {
            pthread_mutex_unlock(&s->mu);
            return false;
        }
        size_t tail = (s->head + s->len) % RING_BYTES, room = RING_BYTES - s->len;
        size_t run = RING_BYTES - tail < room ? RING_BYTES - tail : room;
        run = run < n ? run : n;
        memcpy(s->ring + tail, data, run);
        s->len += run;
        data += run;
        n -= run;
        bool resume = s->suspended;
        s->suspended = false;
        pthread_mutex_unlock(&s->mu);
        wake(s, resume);
    }
    return true;
}

/* Deflates n bytes (flush: Z_SYNC_FLUSH, so the client can decode every
 * answer sent so far; Z_FINISH at the end) into the ring. */
static bool deflate_out(gr_stream *s, const char *data, size_t n, int flush)
{
    s->z->next_in = (Bytef *)(uintptr_t)data;
    s->z->avail_in = (uInt)n;
    do {
        s->z->next_out = s->zout;
        s->z->avail_out = ZOUT_BYTES;
        int rc = deflate(s->z, flush);
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
            return false;
        if (!write_out(s, (const char *)s->zout, ZOUT_BYTES - s->z->avail_out))
            return false;
    } while (s->z->avail_out == 0);
    return true;
}

/* The answers' bytes to the ring, compressed when the client takes gzip. */
static bool emit(gr_stream *s, const char *data, size_t n)
{
    return s->z ? deflate_out(s, data, n, Z_SYNC_FLUSH) : write_out(s, data, n);
}

static bool flush_stage(gr_stream *s)
{
    bool ok = emit(s, s->stage, s->staged);
    s->staged = 0;
    clock_gettime(CLOCK_MONOTONIC, &s->flushed);
    return ok;
}

/* Adds n bytes to the stage (straight to the ring when they do not fit). */
static bool stage_out(gr_stream *s, const char *data, size_t n)
{
    if (s->staged + n > STAGE_BYTES && !flush_stage(s))
        return false;
    if (n > STAGE_BYTES)
        return emit(s, data, n);
    memcpy(s->stage + s->staged, data, n);
    s->staged += n;
    return true;
}

static bool stage_due(gr_stream *s)
{
    if (s->staged >= STAGE_FLUSH)
        return true;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    long ms = (long)(t.tv_sec - s->flushed.tv_sec) * 1000 + (t.tv_nsec - s->flushed.tv_nsec) / 1000000;
    return ms >= STAGE_MS;
}

/* Stages one answer, rewritten when the request asked for string integers. */
static bool stage_answer(gr_stream *s, const char *json, size_t len)
{
    if (s->int_form != GR_INTS_STRING)
        return stage_out(s, json, len);
    size_t n = gr_json_ints_quoted_len(json, len);
    char *quoted = gr_scratch_alloc(n ? n : 1);
    if (!quoted)
        return stage_out(s, gr_oom_error_json, gr_oom_error_json_len);
    gr_json_ints_quote(json, len, quoted);
    bool ok = stage_out(s, quoted, n);
    gr_scratch_free(quoted);
    return ok;
}

/* The job's stage and read buffer (*chunk); false, with the client told in
 * one line, when memory runs out. */
static bool job_buffers(gr_stream *s, char **chunk)
{
    *chunk = malloc(READ_CHUNK);
    s->stage = malloc(STAGE_BYTES);
    if (*chunk && s->stage)
        return true;
    if (emit(s, gr_oom_error_json, gr_oom_error_json_len))
        emit(s, "\n", 1);
    return false;
}

/* A line of the fast path's form, answered straight into the stage: no
 * allocation, no copy. false, with *ok untouched, when the line is not of
 * that form (or integers are asked for as strings). */
static bool answer_fast(gr_stream *s, gr_batch_run *run, const char *line, size_t len, bool *ok)
{
    if (s->int_form == GR_INTS_STRING)
        return false;
    if (STAGE_BYTES - s->staged < GR_FAST_MAX_ANSWER + 2 && !flush_stage(s)) {
        *ok = false;
        return true;
    }
    gr_buf b = { .data = s->stage, .len = s->staged, .cap = STAGE_BYTES };
    if (!gr_batch_run_fast(&s->snap->svc, run, line, len, &b))
        return false;
    b.data[b.len++] = '\n';
    s->staged = b.len;
    bool look = s->staged >= STAGE_FLUSH || ++s->fast_lines % FAST_CLOCK_EVERY == 0;
    *ok = !look || !stage_due(s) || flush_stage(s);
    return true;
}

static bool answer_line(gr_stream *s, gr_batch_run *run, gr_line_kind kind, const char *line, size_t len)
{
    bool fast_ok;
    if (kind == GR_LINE_OK && answer_fast(s, run, line, len, &fast_ok))
        return fast_ok;
    const gr_service *svc = &s->snap->svc;
    gr_reply r;
    bool scoped = gr_scratch_begin(); /* the line's scratch memory, released once written */
    if (kind == GR_LINE_TOO_LONG)
        gr_batch_run_too_long(svc, run, &r);
    else
        gr_batch_run_line(svc, run, line, len, &r);
    bool ok = r.body ? stage_answer(s, r.body, r.len) : stage_out(s, gr_oom_error_json, gr_oom_error_json_len);
    gr_scratch_free(r.body);
    if (scoped)
        gr_scratch_end();
    ok = ok && stage_out(s, "\n", 1);
    return ok && (!stage_due(s) || flush_stage(s));
}

static bool stopped(gr_stream *s)
{
    static const char line[] = "{\"error\":{\"code\":\"shutting_down\",\"message\":\"the service stopped "
                               "before this line was answered; send the remaining lines again\","
                               "\"field\":null}}\n";
    if (!atomic_load(&abort_all))
        return false;
    if (stage_out(s, line, sizeof line - 1))
        flush_stage(s);
    return true;
}

/* Feeds n bytes of the body and answers every line they complete; false
 * once the stream stops. */
static bool answer_chunk(gr_stream *s, gr_line_reader *lr, gr_batch_run *run, const char *chunk, size_t n)
{
    const char *line;
    size_t len;
    gr_line_kind k;
    gr_line_reader_feed(lr, chunk, n);
    while ((k = gr_line_reader_next(lr, &line, &len)) != GR_LINE_NONE)
        if (stopped(s) || !answer_line(s, run, k, line, len))
            return false;
    return true;
}

/* The last line, when the body does not end with "\n". */
static void answer_last(gr_stream *s, gr_line_reader *lr, gr_batch_run *run)
{
    const char *line;
    size_t len;
    gr_line_kind k = gr_line_reader_finish(lr, &line, &len);
    if (k != GR_LINE_NONE && !stopped(s))
        answer_line(s, run, k, line, len);
}

/* Every line of the spool, answered in order. */
static void answer_spool(gr_stream *s, gr_line_reader *lr, gr_batch_run *run, char *chunk)
{
    size_t n;
    rewind(s->spool);
    while ((n = fread(chunk, 1, READ_CHUNK, s->spool)) > 0)
        if (!answer_chunk(s, lr, run, chunk, n))
            return;
    answer_last(s, lr, run);
}

void gr_stream_produce(void *stream)
{
    gr_stream *s = stream;
    gr_line_reader lr;
    gr_batch_run run;
    char *chunk;
    gr_batch_run_init(&run, &s->snap->svc);
    run.observe = s->observe;
    run.observe_ctx = s->observe_ctx;
    clock_gettime(CLOCK_MONOTONIC, &s->flushed);
    if (job_buffers(s, &chunk) && gr_line_reader_init(&lr, (size_t)s->snap->svc.limits.max_line) == 0) {
        answer_spool(s, &lr, &run, chunk);
        gr_line_reader_fini(&lr);
    }
    if (s->staged)
        flush_stage(s);
    if (s->z)
        deflate_out(s, "", 0, Z_FINISH);
    free(chunk);
    pthread_mutex_lock(&s->mu);
    s->done = true;
    bool resume = s->suspended && !s->cancelled;
    s->suspended = false;
    pthread_mutex_unlock(&s->mu);
    wake(s, resume);
    gr_stream_release(s);
}

/* ---- duplex streams: answers while the body uploads ------------------------ */

bool gr_stream_duplex(gr_stream *s, gr_snapshot *snap, bool gzip, int fd, uint64_t left,
                      const gr_duplex_heads *heads, unsigned idle_ms)
{
    if (fflush(s->spool) != 0)
        return false;
    s->response_head = malloc(heads->ok_len + heads->busy_len);
    if (!s->response_head || !gr_sock_open(&s->sock, fd, fileno(s->spool), ftello(s->spool), left, idle_ms, &abort_all)) {
        free(s->response_head);
        s->response_head = NULL;
        return false;
    }
    if (gzip && !start_gzip(s)) {
        gr_sock_close(&s->sock);
        free(s->response_head);
        s->response_head = NULL;
        return false;
    }
    memcpy(s->response_head, heads->ok, heads->ok_len);
    memcpy(s->response_head + heads->ok_len, heads->busy, heads->busy_len);
    s->response_head_len = heads->ok_len;
    s->busy_head_len = heads->busy_len;
    s->duplex = true;
    atomic_fetch_add(&duplex_running, 1);
    atomic_fetch_add(&snap->refs, 1);
    s->snap = snap;
    return true;
}

/* Closes the socket and hands the connection back to libmicrohttpd, which
 * finds it shut and closes it; drops the caller's reference. */
static void end_duplex(gr_stream *s)
{
    gr_sock_close(&s->sock);
    atomic_fetch_add(&handed_back, 1);
    MHD_resume_connection(s->conn);
    gr_stream_release(s);
}

void gr_stream_refuse_duplex(gr_stream *s, const char *body, size_t len)
{
    atomic_fetch_sub(&duplex_running, 1);
    if (gr_sock_send(&s->sock, s->response_head + s->response_head_len, s->busy_head_len, true) &&
        gr_sock_send(&s->sock, body, len, false) && gr_sock_send(&s->sock, "0\r\n\r\n", 5, true))
        gr_sock_discard(&s->sock, REFUSE_DISCARD_MS);
    end_duplex(s);
}

/* Answers the body as it arrives, in order; true when every line of it was
 * answered, false when the client went away or the service stops. Before
 * each wait for more of the body, the answers so far go out. */
static bool answer_socket(gr_stream *s, gr_line_reader *lr, gr_batch_run *run, char *chunk)
{
    for (;;) {
        size_t n = gr_sock_take(&s->sock, chunk, READ_CHUNK);
        if (n > 0 && !answer_chunk(s, lr, run, chunk, n))
            return false;
        if (n > 0)
            continue;
        if (s->sock.failed)
            return false;
        if (s->sock.left == 0)
            return true;
        if (s->staged && !flush_stage(s))
            return false;
        if (!gr_sock_wait_body(&s->sock)) {
            stopped(s); /* the service stops: the client is told so */
            return false;
        }
    }
}

void gr_stream_produce_duplex(void *stream)
{
    gr_stream *s = stream;
    gr_line_reader lr;
    gr_batch_run run;
    char *chunk = NULL;
    gr_batch_run_init(&run, &s->snap->svc);
    run.observe = s->observe;
    run.observe_ctx = s->observe_ctx;
    clock_gettime(CLOCK_MONOTONIC, &s->flushed);
    gr_line_reader_init(&lr, (size_t)s->snap->svc.limits.max_line);
    bool started = gr_sock_send(&s->sock, s->response_head, s->response_head_len, true);
    if (started && job_buffers(s, &chunk) && answer_socket(s, &lr, &run, chunk))
        answer_last(s, &lr, &run);
    gr_line_reader_fini(&lr);
    free(chunk);
    atomic_fetch_sub(&duplex_running, 1); /* before the client can see the end and send another */
    if (started && !s->sock.failed && (!s->staged || flush_stage(s)) && (!s->z || deflate_out(s, "", 0, Z_FINISH)))
        gr_sock_send(&s->sock, "0\r\n\r\n", 5, true);
    end_duplex(s);
}
