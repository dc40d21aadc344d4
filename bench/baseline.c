/* SPDX-License-Identifier: MIT */
/* The baseline for bench/http.sh: the thinnest libmicrohttpd + cJSON server
 * that answers a Nim query. It runs libmicrohttpd in the same thread mode as
 * grundyd (epoll, internal thread pool, suspend/resume allowed) with the same
 * pool size, reads the body, parses it with cJSON, and answers the winner,
 * the nim-sum and a winning move with cJSON's printer. It does nothing
 * else: no exact integers (piles are cJSON doubles, so it is right only
 * below 2^53), no limits, no metrics, no logging.
 *
 *     baseline PORT THREADS
 *
 * Not part of the service; bench/http.sh builds it with the same flags as
 * the optimised grundyd. */
#include <cjson/cJSON.h>
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct body {
    char *data;
    size_t len, cap;
} body;

static int append(body *b, const char *data, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d)
            return -1;
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
    return 0;
}

/* The answer to {"piles":[...]}, or NULL when the body is not one. */
static char *answer_nim(const body *b)
{
    cJSON *req = cJSON_ParseWithLength(b->data ? b->data : "", b->len);
    const cJSON *piles = cJSON_GetObjectItemCaseSensitive(req, "piles");
    if (!cJSON_IsArray(piles)) {
        cJSON_Delete(req);
        return NULL;
    }
    uint64_t sum = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, piles)
        sum ^= (uint64_t)p->valuedouble;
    cJSON *out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "game", "nim");
    cJSON_AddStringToObject(out, "winner", sum ? "first" : "second");
    cJSON_AddNumberToObject(out, "grundy", (double)sum);
    int i = 0;
    cJSON_ArrayForEach(p, piles) {
        uint64_t n = (uint64_t)p->valuedouble;
        if (sum && (n ^ sum) < n) {
            cJSON *mv = cJSON_AddObjectToObject(out, "move");
            cJSON_AddNumberToObject(mv, "pile", i);
            cJSON_AddNumberToObject(mv, "take", (double)(n - (n ^ sum)));
            cJSON_AddNumberToObject(mv, "from", (double)n);
            cJSON_AddNumberToObject(mv, "to", (double)(n ^ sum));
            break;
        }
        i++;
    }
    char *text = cJSON_PrintUnformatted(out);
    cJSON_Delete(out);
    cJSON_Delete(req);
    return text;
}

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned status, char *text)
{
    static char bad[] = "{\"error\":\"bad request\"}";
    struct MHD_Response *r = text ? MHD_create_response_from_buffer(strlen(text), text, MHD_RESPMEM_MUST_FREE)
                                  : MHD_create_response_from_buffer(sizeof bad - 1, bad, MHD_RESPMEM_PERSISTENT);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    enum MHD_Result ok = MHD_queue_response(conn, status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
    (void)cls;
    (void)url;
    (void)method;
    (void)version;
    if (!*con_cls) {
        *con_cls = calloc(1, sizeof(body));
        return *con_cls ? MHD_YES : MHD_NO;
    }
    body *b = *con_cls;
    if (*upload_size) {
        if (append(b, upload, *upload_size))
            return MHD_NO;
        *upload_size = 0;
        return MHD_YES;
    }
    char *text = answer_nim(b);
    return reply(conn, text ? MHD_HTTP_OK : MHD_HTTP_BAD_REQUEST, text);
}

static void done(void *cls, struct MHD_Connection *conn, void **con_cls, enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)conn;
    (void)toe;
    body *b = *con_cls;
    if (b)
        free(b->data);
    free(b);
    *con_cls = NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: baseline PORT THREADS\n");
        return 2;
    }
    unsigned port = (unsigned)atoi(argv[1]), threads = (unsigned)atoi(argv[2]);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, NULL); /* inherited by libmicrohttpd's threads */
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME, (uint16_t)port, NULL, NULL, handle, NULL,
        MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_NOTIFY_COMPLETED, done, NULL,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u, MHD_OPTION_END);
    if (!d) {
        fprintf(stderr, "baseline: cannot listen on port %u\n", port);
        return 1;
    }
    int sig;
    sigwait(&set, &sig);
    MHD_stop_daemon(d);
    return 0;
}
