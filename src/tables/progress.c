/* SPDX-License-Identifier: MIT */
#include "tables/progress.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#define LIVE_MS 200  /* between redraws on a terminal */
#define LINES_MS 1000 /* between status lines elsewhere */

struct gr_progress {
    FILE *to;
    bool live;
    pthread_t reporter;
    pthread_mutex_t mu;
    pthread_cond_t wake;
    bool stopping;
    struct timespec t0;
    /* the other track, under mu */
    char part[64];
    uint64_t part_total;
    double part_weight, weight_done; /* shares of the track: this part's, the finished parts' */
    double part_started;             /* seconds since t0 when the part began */
    atomic_uint_fast64_t part_done;
    /* Grundy's game */
    uint64_t grundys_total;
    atomic_uint_fast64_t grundys_done;
    atomic_uint_fast64_t grundys_ms; /* ms from t0 to its end; 0 while it runs */
    int shown_percent; /* never shown going backwards */
};

static double since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* "1.2M", "120k", "37": a count in at most 5 characters and a suffix. */
static void short_count(char *out, size_t n, double v)
{
    if (v >= 1e6)
        snprintf(out, n, "%.1fM", v / 1e6);
    else if (v >= 1e4)
        snprintf(out, n, "%.0fk", v / 1e3);
    else if (v >= 10)
        snprintf(out, n, "%.0f", v);
    else
        snprintf(out, n, "%.1f", v);
}

static void duration(char *out, size_t n, double s)
{
    if (s < 0)
        snprintf(out, n, "--");
    else if (s < 120)
        snprintf(out, n, "%.0f s", s);
    else
        snprintf(out, n, "%ld min %02ld s", (long)(s + 0.5) / 60, (long)(s + 0.5) % 60);
}

/* Seconds left of a track that is `fraction` done after `elapsed` seconds;
 * -1 when nothing is done yet to judge by. */
static double left_of(double fraction, double elapsed)
{
    if (fraction >= 1)
        return 0;
    return fraction > 0 ? elapsed * (1 - fraction) / fraction : -1;
}

/* The status line (without a line end), under mu. */
static void status_line(gr_progress *p, char *out, size_t n, bool final)
{
    double now = since(&p->t0);
    uint64_t done = atomic_load(&p->part_done), gdone = atomic_load(&p->grundys_done);
    double in_part = p->part_total ? (double)(done > p->part_total ? p->part_total : done) / (double)p->part_total : 0;
    double main_frac = p->weight_done + p->part_weight * in_part;
    double g_frac = p->grundys_total ? (double)gdone / (double)p->grundys_total : 1;
    double a = left_of(main_frac, now), b = left_of(g_frac, now);
    double eta = final ? 0 : a < 0 || b < 0 ? -1 : a > b ? a : b;
    int percent = final ? 100 : eta < 0 ? 0 : (int)(100 * now / (now + eta + 1e-9));
    percent = percent > 99 && !final ? 99 : percent;
    if (percent < p->shown_percent)
        percent = p->shown_percent;
    p->shown_percent = percent;
    char part_rate[16], g_rate[16], spent[32], left[32];
    double part_secs = now - p->part_started;
    short_count(part_rate, sizeof part_rate, part_secs > 0.01 ? (double)done / part_secs : 0);
    uint64_t g_ms = atomic_load(&p->grundys_ms);
    double g_secs = g_ms ? (double)g_ms / 1000 : now;
    short_count(g_rate, sizeof g_rate, g_secs > 0.01 ? (double)gdone / g_secs : 0);
    duration(spent, sizeof spent, now);
    duration(left, sizeof left, eta);
    if (final)
        snprintf(out, n, "tables 100%% | done in %s", spent);
    else
        snprintf(out, n, "tables %3d%% | %s %llu/%llu %s/s | Grundy %d%% %s/s | %s, ETA %s", percent,
                 p->part, (unsigned long long)done, (unsigned long long)p->part_total, part_rate,
                 (int)(100 * g_frac), g_rate, spent, left);
}

/* Columns of the terminal `to`, less one (a full row would wrap, and the
 * carriage return would then redraw only its last part); 79 when unknown. */
static size_t usable_columns(FILE *to)
{
    struct winsize ws;
    if (ioctl(fileno(to), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
        return (size_t)ws.ws_col - 1;
    return 79;
}

/* Under mu. Live: redraws the status line in place, cut to the terminal's
 * width; else one line. */
static void draw(gr_progress *p, bool final)
{
    char line[256];
    status_line(p, line, sizeof line, final);
    size_t cols = p->live ? usable_columns(p->to) : sizeof line;
    if (cols < strlen(line))
        line[cols] = '\0';
    if (p->live)
        fprintf(p->to, "\r\033[K%s%s", line, final ? "\n" : "");
    else
        fprintf(p->to, "%s\n", line);
    fflush(p->to);
}

static void *report(void *arg)
{
    gr_progress *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        long ms = p->live ? LIVE_MS : LINES_MS;
        until.tv_nsec += ms * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        if (pthread_cond_timedwait(&p->wake, &p->mu, &until) == ETIMEDOUT && !p->stopping)
            draw(p, false);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

gr_progress *gr_progress_start(FILE *to, bool live, uint64_t grundys_total)
{
    if (!to)
        return NULL;
    gr_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->to = to;
    p->live = live;
    p->grundys_total = grundys_total;
    clock_gettime(CLOCK_MONOTONIC, &p->t0);
    atomic_init(&p->part_done, 0);
    atomic_init(&p->grundys_done, 0);
    atomic_init(&p->grundys_ms, 0);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    if (pthread_create(&p->reporter, NULL, report, p) != 0) {
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->wake);
        free(p);
        return NULL;
    }
    return p;
}

void gr_progress_part(gr_progress *p, const char *name, uint64_t total, double weight)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->weight_done += p->part_weight;
    snprintf(p->part, sizeof p->part, "%s", name);
    p->part_total = total;
    p->part_weight = weight;
    p->part_started = since(&p->t0);
    atomic_store(&p->part_done, 0);
    if (p->live)
        draw(p, false);
    pthread_mutex_unlock(&p->mu);
}

void gr_progress_step(gr_progress *p, uint64_t done)
{
    if (p)
        atomic_store(&p->part_done, done);
}

void gr_progress_grundys(void *ctx, uint64_t done)
{
    gr_progress *p = ctx;
    if (!p)
        return;
    atomic_store(&p->grundys_done, done);
    if (done >= p->grundys_total)
        atomic_store(&p->grundys_ms, (uint64_t)(since(&p->t0) * 1000) + 1);
}

void gr_progress_line(gr_progress *p, const char *what)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    fprintf(p->to, "%stables: %-44s %7.2f s\n", p->live ? "\r\033[K" : "", what, since(&p->t0));
    if (p->live)
        draw(p, false);
    fflush(p->to);
    pthread_mutex_unlock(&p->mu);
}

void gr_progress_stop(gr_progress *p, bool built)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stopping = true;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->reporter, NULL);
    if (built)
        draw(p, true);
    else if (p->live)
        fputs("\n", p->to);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->wake);
    free(p);
}
