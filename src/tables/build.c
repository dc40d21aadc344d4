/* SPDX-License-Identifier: MIT */
#include "tables/build.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "grundy/divisor.h"
#include "grundy/octal.h"
#include "grundy/rules.h"
#include "grundy/subtraction.h"
#include "grundy/wythoff.h"
#include "tables/progress.h"
#include "tables/tables.h"
#include "tables/writer.h"

/* Table builds are not request-bounded: they run to completion. */
#define UNBOUNDED UINT64_MAX

/* Octal games with their own named sections (besides the 3-digit family). */
static const char *const named_octal[] = { "0.77", "0.07", "0.137", "0.7777", "0.007", "0.6" };

/* Octal games whose published periods (Flammenkamp's table, Czajka's
 * solver) start past the family's values: each is computed until its
 * certificate holds or LONG_OCTAL_FACTOR times octal_values are known, on
 * a thread of its own, and gets a named section. The default build
 * certifies all four; 0.376 is the longest, 4,536,510 values (period 4
 * from 2,268,248) of the 2^23 allowed. */
static const char *const long_octal[] = { "0.127", "0.16", "0.56", "0.376" };
#define NLONG (sizeof long_octal / sizeof long_octal[0])
#define LONG_OCTAL_FACTOR 128u

typedef struct family_buf {
    gr_tf_member *members;
    size_t n;
    uint16_t *values;
    size_t nvalues, cap;
} family_buf;

static int family_add(family_buf *f, uint64_t key, const gr_seq *s)
{
    if (f->nvalues + s->count > f->cap) {
        size_t cap = f->cap ? f->cap : 1u << 16;
        while (cap < f->nvalues + s->count)
            cap *= 2;
        uint16_t *v = realloc(f->values, cap * sizeof *v);
        if (!v)
            return -1;
        f->values = v;
        f->cap = cap;
    }
    memcpy(f->values + f->nvalues, s->values, s->count * sizeof *s->values);
    f->members[f->n++] = (gr_tf_member){
        .key = key, .first = f->nvalues, .count = s->count,
        .preperiod = s->periodic ? s->preperiod : 0, .period = s->periodic ? s->period : 0,
        .flags = s->periodic ? GR_TF_PERIODIC : 0, .max_value = s->max_value,
    };
    f->nvalues += s->count;
    return 0;
}

static void family_free(family_buf *f)
{
    free(f->members);
    free(f->values);
}

static gr_octal_code octal_from_key(unsigned key)
{
    gr_octal_code c;
    memset(&c, 0, sizeof c);
    c.digit[1] = (uint8_t)(key >> 6);
    c.digit[2] = (uint8_t)((key >> 3) & 7);
    c.digit[3] = (uint8_t)(key & 7);
    for (unsigned k = 1; k <= 3; k++)
        if (c.digit[k])
            c.t = k;
    return c;
}

/* Every game 0.d1d2d3 (key = the digits read as an octal number, 1 .. 0777;
 * 0.7 and 0.70 are one game, key 0700). */
static int build_octal_family(gr_tf_writer *w, const gr_build_options *o, gr_progress *p)
{
    family_buf f = { .members = calloc(512, sizeof(gr_tf_member)) };
    int rc = f.members ? 0 : -1;
    for (unsigned key = 1; rc == 0 && key < 512; key++) {
        gr_octal_code code = octal_from_key(key);
        gr_budget b = gr_budget_make(UNBOUNDED);
        gr_seq s;
        rc = gr_octal_solve(&code, 0, o->octal_values, &b, &s) == GR_OK ? family_add(&f, key, &s) : -1;
        if (rc == 0)
            gr_seq_free(&s);
        gr_progress_step(p, key);
    }
    if (rc == 0)
        rc = gr_tf_add_family(w, GR_TN_OCTAL_FAMILY, f.members, f.n, f.values, f.nvalues);
    family_free(&f);
    return rc;
}

static int build_named_octal(gr_tf_writer *w, const gr_build_options *o)
{
    for (size_t i = 0; i < sizeof named_octal / sizeof named_octal[0]; i++) {
        gr_octal_code code;
        gr_budget b = gr_budget_make(UNBOUNDED);
        gr_seq s;
        char name[GR_TF_NAME_LEN];
        snprintf(name, sizeof name, GR_TN_OCTAL_PREFIX "%s", named_octal[i]);
        if (gr_octal_parse(named_octal[i], &code) != GR_OK ||
            gr_octal_solve(&code, 0, o->octal_values, &b, &s) != GR_OK)
            return -1;
        int rc = gr_tf_add_sequence(w, name, &s);
        gr_seq_free(&s);
        if (rc)
            return -1;
    }
    return 0;
}

/* Every non-empty S within {1 .. 12}; key bit s-1 is set for s in S. */
static int build_subtraction_family(gr_tf_writer *w, gr_progress *p)
{
    const unsigned sets = 1u << GR_TN_SUBTRACTION_MAX;
    family_buf f = { .members = calloc(sets, sizeof(gr_tf_member)) };
    int rc = f.members ? 0 : -1;
    for (unsigned mask = 1; rc == 0 && mask < sets; mask++) {
        uint64_t moves[GR_TN_SUBTRACTION_MAX];
        size_t n = 0;
        for (unsigned s = 1; s <= GR_TN_SUBTRACTION_MAX; s++)
            if (mask & (1u << (s - 1)))
                moves[n++] = s;
        gr_budget b = gr_budget_make(UNBOUNDED);
        gr_seq s;
        rc = gr_subtraction_solve(moves, n, 0, &b, &s) == GR_OK && s.periodic ? family_add(&f, mask, &s) : -1;
        if (rc == 0)
            gr_seq_free(&s);
        gr_progress_step(p, mask);
    }
    if (rc == 0)
        rc = gr_tf_add_family(w, GR_TN_SUBTRACTION_FAMILY, f.members, f.n, f.values, f.nvalues);
    family_free(&f);
    return rc;
}

static int build_wythoff(gr_tf_writer *w, uint64_t n)
{
    uint16_t *grid = malloc(n * n * sizeof *grid);
    gr_budget b = gr_budget_make(UNBOUNDED);
    int rc = grid && gr_wythoff_table(n, &b, grid) == GR_OK ? gr_tf_add_grid(w, GR_TN_WYTHOFF, n, n, grid) : -1;
    free(grid);
    return rc;
}

static int build_divisor(gr_tf_writer *w, uint64_t n)
{
    uint16_t *values = calloc(n + 1, sizeof *values);
    gr_budget b = gr_budget_make(UNBOUNDED);
    int rc = -1;
    if (values && gr_divisor_values(n, &b, values) == GR_OK) {
        gr_seq s = { .values = values, .count = n + 1 };
        for (uint64_t i = 0; i <= n; i++)
            s.max_value = values[i] > s.max_value ? values[i] : s.max_value;
        rc = gr_tf_add_sequence(w, GR_TN_DIVISOR, &s);
    }
    free(values);
    return rc;
}

/* Subtraction games whose set is a rule (squares, powers of two, primes):
 * Grundy values to rule_grundy[r], and win/loss to rule_outcome[r]. */
static int build_rule(gr_tf_writer *w, const gr_build_options *o, gr_rule r)
{
    char name[GR_TF_NAME_LEN];
    gr_budget b = gr_budget_make(UNBOUNDED);
    gr_seq g;
    if (gr_rule_grundy(r, o->rule_grundy[r], &b, &g) != GR_OK)
        return -1;
    snprintf(name, sizeof name, GR_TN_RULE_PREFIX "%s:grundy", gr_rule_name(r));
    int rc = gr_tf_add_sequence(w, name, &g);
    gr_seq_free(&g);
    gr_outcome_bits bits;
    if (rc || gr_rule_outcomes(r, o->rule_outcome[r], &b, &bits) != GR_OK)
        return -1;
    snprintf(name, sizeof name, GR_TN_RULE_PREFIX "%s:outcome", gr_rule_name(r));
    rc = gr_tf_add_bitset(w, name, bits.words, bits.count);
    gr_outcome_bits_free(&bits);
    return rc;
}

/* Grundy's game runs on its own thread: it is the longest part. */
typedef struct grundys_job {
    uint64_t values;
    gr_progress *progress;
    gr_seq seq;
    gr_status status;
} grundys_job;

static void *grundys_thread(void *arg)
{
    grundys_job *job = arg;
    gr_budget b = gr_budget_make(UNBOUNDED);
    job->status = gr_grundys_solve_counted(job->values - 1, &b, &job->seq, gr_progress_grundys, job->progress);
    if (job->status == GR_OK)
        gr_progress_grundys(job->progress, job->values);
    return NULL;
}

/* The long octal periods, one after another on their own thread. */
typedef struct long_octal_job {
    uint64_t values; /* the bound of each */
    gr_seq seq[NLONG];
    gr_status status;
} long_octal_job;

static void *long_octal_thread(void *arg)
{
    long_octal_job *job = arg;
    job->status = GR_OK;
    for (size_t i = 0; i < NLONG && job->status == GR_OK; i++) {
        gr_octal_code code;
        gr_budget b = gr_budget_make(UNBOUNDED);
        job->status = gr_octal_parse(long_octal[i], &code);
        if (job->status == GR_OK)
            job->status = gr_octal_solve(&code, 0, job->values, &b, &job->seq[i]);
    }
    return NULL;
}

static int add_long_octal(gr_tf_writer *w, const long_octal_job *job)
{
    for (size_t i = 0; i < NLONG; i++) {
        char name[GR_TF_NAME_LEN];
        snprintf(name, sizeof name, GR_TN_OCTAL_PREFIX "%s", long_octal[i]);
        if (gr_tf_add_sequence(w, name, &job->seq[i]))
            return -1;
    }
    return 0;
}

/* The parts besides Grundy's game, in order. `weight`: the part's share of
 * their time in a default build (for the progress estimate). */
enum { PART_OCTAL, PART_NAMED, PART_SUBTRACTION, PART_WYTHOFF, PART_DIVISOR, PART_RULE };

static const struct part {
    const char *name;   /* in "computing NAME failed" */
    const char *status; /* in the status line: short */
    const char *done;   /* the line once it is finished */
    double weight;
} parts[] = {
    [PART_OCTAL] = { "octal games 0.d1d2d3", "octal games", "octal games 0.d1d2d3 (511 games)", 0.930 },
    [PART_NAMED] = { "named octal games", "named octal", "named octal games", 0.005 },
    [PART_SUBTRACTION] = { "subtraction sets", "subtraction sets",
                           "subtraction sets within {1..12} (4095 sets)", 0.001 },
    [PART_WYTHOFF] = { "Wythoff values", "Wythoff", "Wythoff values", 0.001 },
    [PART_DIVISOR] = { "divisor-game values", "divisor game", "divisor-game values", 0.002 },
    [PART_RULE] = { "rule-defined subtraction sets", "rule sets", NULL, 0.061 },
};

static int run_part(gr_tf_writer *w, const gr_build_options *o, gr_progress *p, int part, int rule)
{
    switch (part) {
    case PART_OCTAL:
        return build_octal_family(w, o, p);
    case PART_NAMED:
        return build_named_octal(w, o);
    case PART_SUBTRACTION:
        return build_subtraction_family(w, p);
    case PART_WYTHOFF:
        return build_wythoff(w, o->wythoff_size);
    case PART_DIVISOR:
        return build_divisor(w, o->divisor_max);
    default:
        return build_rule(w, o, (gr_rule)rule);
    }
}

/* Misere quotients of Kayles and every code 0.d1 and 0.d1d2 whose pretending
 * function is certified periodic within MISERE_STEPS steps and MISERE_HEAPS
 * heaps each (a few seconds in all); sections "misere:octal:CODE". A build
 * of fewer octal values than the default (the tests' small files) gives
 * each code but Kayles proportionally fewer steps, down to MISERE_MIN_STEPS
 * (enough for the quotients that settle early); Kayles, the one people ask
 * about, always gets MISERE_STEPS. */
#define MISERE_STEPS (UINT64_C(1) << 27)
#define MISERE_MIN_STEPS (UINT64_C(1) << 24)
#define MISERE_HEAPS 400u
static uint64_t misere_steps(const gr_build_options *o)
{
    uint64_t full = UINT64_C(1) << 16; /* the default octal_values */
    if (o->octal_values >= full)
        return MISERE_STEPS;
    uint64_t steps = MISERE_STEPS / full * o->octal_values;
    return steps > MISERE_MIN_STEPS ? steps : MISERE_MIN_STEPS;
}

static int build_misere(gr_tf_writer *w, const gr_build_options *o)
{
    for (unsigned key = 1; key < 64; key++) {
        unsigned d1 = key / 8, d2 = key % 8; /* 0.d1d2, and 0.d1 when d2 is 0 */
        gr_octal_code code = { .digit = { 0 }, .t = d2 ? 2 : 1 };
        code.digit[1] = (uint8_t)d1;
        code.digit[2] = (uint8_t)d2;
        if (d2 == 0 && d1 == 0)
            continue;
        gr_mq_rules r = gr_mq_octal(&code);
        gr_budget b = gr_budget_make(key == 077 ? MISERE_STEPS : misere_steps(o));
        gr_mq q;
        if (gr_mq_build(&r, MISERE_HEAPS, &b, &q) != GR_OK) {
            gr_mq_free(&q);
            return -1;
        }
        char text[16], name[GR_TF_NAME_LEN];
        gr_octal_format(&code, text);
        snprintf(name, sizeof name, "%s%s", GR_TN_MISERE_PREFIX, text);
        int rc = q.periodic ? gr_tf_add_misere(w, name, &q) : 0;
        gr_mq_free(&q);
        if (rc)
            return -1;
    }
    return 0;
}

static int build_others(gr_tf_writer *w, const gr_build_options *o, gr_progress *p, const char **failed)
{
    static const uint64_t items[] = { 511, 6, (1u << GR_TN_SUBTRACTION_MAX) - 1, 1, 1, GR_RULE_COUNT };
    for (int part = PART_OCTAL; part <= PART_RULE; part++) {
        int rules = part == PART_RULE ? GR_RULE_COUNT : 1;
        gr_progress_part(p, parts[part].status, items[part], parts[part].weight);
        for (int r = 0; r < rules; r++) {
            *failed = parts[part].name;
            if (run_part(w, o, p, part, r))
                return -1;
            gr_progress_step(p, part == PART_RULE ? (uint64_t)r + 1 : items[part]);
            gr_progress_line(p, parts[part].done ? parts[part].done : gr_rule_name((gr_rule)r));
        }
    }
    *failed = "misere quotients";
    return build_misere(w, o);
}

/* build_others on this thread while the long octal periods are computed on
 * another; then their sections. */
static int build_others_and_long(gr_tf_writer *w, const gr_build_options *o, gr_progress *p,
                                 const char **failed)
{
    long_octal_job longs = { .values = o->octal_values > UINT64_MAX / LONG_OCTAL_FACTOR
                                           ? UINT64_MAX : o->octal_values * LONG_OCTAL_FACTOR };
    pthread_t tid;
    if (pthread_create(&tid, NULL, long_octal_thread, &longs) != 0) {
        *failed = "long octal periods (no thread)";
        return -1;
    }
    int rc = build_others(w, o, p, failed);
    pthread_join(tid, NULL);
    if (rc == 0) {
        *failed = "long octal periods";
        rc = longs.status == GR_OK ? add_long_octal(w, &longs) : -1;
        if (rc == 0)
            gr_progress_line(p, "long octal periods (0.127 0.16 0.56 0.376)");
    }
    for (size_t i = 0; i < NLONG; i++)
        gr_seq_free(&longs.seq[i]);
    return rc;
}

void gr_build_options_default(gr_build_options *o)
{
    o->grundys_values = UINT64_C(1) << 22;
    o->octal_values = UINT64_C(1) << 16;
    o->wythoff_size = 1024;
    o->divisor_max = 1000000;
    /* Grundy values cost n * |S <= n| steps; win/loss P-positions * |S|. */
    o->rule_grundy[GR_RULE_SQUARES] = UINT64_C(1) << 20;
    o->rule_grundy[GR_RULE_POWERS_OF_TWO] = UINT64_C(1) << 20;
    o->rule_grundy[GR_RULE_PRIMES] = UINT64_C(1) << 17;
    o->rule_outcome[GR_RULE_SQUARES] = UINT64_C(1) << 24;
    o->rule_outcome[GR_RULE_POWERS_OF_TWO] = UINT64_C(1) << 24;
    o->rule_outcome[GR_RULE_PRIMES] = UINT64_C(1) << 20; /* P-positions are dense: quadratic */
    o->progress = NULL;
    o->progress_live = false;
}

void gr_build_options_cap_rules(gr_build_options *o, uint64_t n)
{
    for (size_t r = 0; r < 3; r++) {
        o->rule_grundy[r] = o->rule_grundy[r] < n ? o->rule_grundy[r] : n;
        o->rule_outcome[r] = o->rule_outcome[r] < n ? o->rule_outcome[r] : n;
    }
}

/* Fails before minutes of computing when the file could not be written. */
static int check_writable(const char *path, char *why, size_t n)
{
    char probe[4096];
    snprintf(probe, sizeof probe, "%s.probe.%ld", path, (long)getpid());
    int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(why, n, "cannot create files beside %s: %s", path, strerror(errno));
        return -1;
    }
    close(fd);
    unlink(probe);
    return 0;
}

int gr_tables_build(const char *path, const gr_build_options *o, char *why, size_t n)
{
    if (check_writable(path, why, n))
        return -1;
    gr_progress *p = gr_progress_start(o->progress, o->progress_live, o->grundys_values);
    gr_tf_writer *w = gr_tf_writer_new();
    grundys_job job = { .values = o->grundys_values, .progress = p };
    pthread_t tid;
    if (!w || pthread_create(&tid, NULL, grundys_thread, &job) != 0) {
        gr_tf_writer_free(w);
        gr_progress_stop(p, false);
        snprintf(why, n, "out of memory or threads");
        return -1;
    }
    const char *failed = NULL;
    int rc = build_others_and_long(w, o, p, &failed);
    pthread_join(tid, NULL);
    if (job.status != GR_OK && rc == 0) {
        failed = "Grundy's game";
        rc = -1;
    }
    if (rc == 0) {
        gr_progress_line(p, "Grundy's game");
        failed = "Grundy's game section";
        rc = gr_tf_add_sequence(w, GR_TN_GRUNDYS, &job.seq);
    }
    gr_seq_free(&job.seq);
    if (rc != 0)
        snprintf(why, n, "computing %s failed (out of memory?)", failed ? failed : "the tables");
    else if ((rc = gr_tf_write(w, path, why, n)) == 0)
        gr_progress_line(p, "written");
    gr_tf_writer_free(w);
    gr_progress_stop(p, rc == 0);
    return rc;
}
