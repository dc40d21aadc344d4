/* SPDX-License-Identifier: MIT */
#include "request_id.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static uint64_t prefix;
static atomic_uint_fast64_t counter;
static pthread_once_t prefix_once = PTHREAD_ONCE_INIT;

/* Random when the kernel gives it; else the clock and pid, still distinct
 * between processes started at different times. */
static void draw_prefix(void)
{
    if (getrandom(&prefix, sizeof prefix, GRND_NONBLOCK) == (ssize_t)sizeof prefix)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    prefix = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^ ((uint64_t)getpid() << 40);
}

bool gr_request_id_sane(const char *id)
{
    size_t n = 0;
    for (; id[n]; n++) {
        char c = id[n];
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
                  c == '_' || c == ':' || c == '-';
        if (!ok || n >= GR_REQUEST_ID_MAX)
            return false;
    }
    return n > 0;
}

void gr_request_id_take(char out[GR_REQUEST_ID_MAX + 1], const char *client_id)
{
    if (client_id && gr_request_id_sane(client_id)) {
        memcpy(out, client_id, strlen(client_id) + 1);
        return;
    }
    pthread_once(&prefix_once, draw_prefix);
    uint64_t n = atomic_fetch_add(&counter, 1) + 1;
    snprintf(out, GR_REQUEST_ID_MAX + 1, "%016" PRIx64 "-%" PRIx64, prefix, n);
}
