/* SPDX-License-Identifier: MIT */
#include "tables/writer.h"

#include "grundy/misere_quotient.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct pending {
    gr_tf_entry entry; /* offset and checksum filled at write time */
    void *data;
} pending;

struct gr_tf_writer {
    pending sections[GR_TF_MAX_SECTIONS];
    size_t n;
};

gr_tf_writer *gr_tf_writer_new(void)
{
    return calloc(1, sizeof(gr_tf_writer));
}

void gr_tf_writer_free(gr_tf_writer *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->n; i++)
        free(w->sections[i].data);
    free(w);
}

/* Reserves a section named `name` holding a copy of `len` bytes. */
static pending *add(gr_tf_writer *w, const char *name, uint32_t kind, const void *data, size_t len)
{
    if (w->n == GR_TF_MAX_SECTIONS || strlen(name) >= GR_TF_NAME_LEN)
        return NULL;
    for (size_t i = 0; i < w->n; i++)
        if (strcmp(w->sections[i].entry.name, name) == 0)
            return NULL;
    pending *p = &w->sections[w->n];
    memset(p, 0, sizeof *p);
    p->data = malloc(len ? len : 1);
    if (!p->data)
        return NULL;
    memcpy(p->data, data, len);
    strcpy(p->entry.name, name);
    p->entry.kind = kind;
    p->entry.length = len;
    w->n++;
    return p;
}

int gr_tf_add_sequence(gr_tf_writer *w, const char *name, const gr_seq *s)
{
    pending *p = add(w, name, GR_TF_SEQUENCE, s->values, s->count * sizeof(uint16_t));
    if (!p)
        return -1;
    p->entry.flags = s->periodic ? GR_TF_PERIODIC : 0;
    p->entry.count = s->count;
    p->entry.preperiod = s->periodic ? s->preperiod : 0;
    p->entry.period = s->periodic ? s->period : 0;
    p->entry.max_value = s->max_value;
    return 0;
}

int gr_tf_add_family(gr_tf_writer *w, const char *name, const gr_tf_member *members, size_t n,
                     const uint16_t *values, size_t nvalues)
{
    size_t head = n * sizeof *members, len = head + nvalues * sizeof *values;
    unsigned char *buf = malloc(len ? len : 1);
    if (!buf)
        return -1;
    memcpy(buf, members, head);
    memcpy(buf + head, values, nvalues * sizeof *values);
    pending *p = add(w, name, GR_TF_FAMILY, buf, len);
    free(buf);
    if (!p)
        return -1;
    p->entry.count = n;
    p->entry.param = nvalues;
    return 0;
}

int gr_tf_add_grid(gr_tf_writer *w, const char *name, uint64_t rows, uint64_t cols,
                   const uint16_t *values)
{
    pending *p = add(w, name, GR_TF_GRID, values, rows * cols * sizeof *values);
    if (!p)
        return -1;
    uint16_t m = 0;
    for (uint64_t i = 0; i < rows * cols; i++)
        m = values[i] > m ? values[i] : m;
    p->entry.count = rows * cols;
    p->entry.param = rows;
    p->entry.max_value = m;
    return 0;
}

int gr_tf_add_misere(gr_tf_writer *w, const char *name, const gr_mq *q)
{
    size_t mul = (size_t)q->order * q->order * sizeof(uint16_t), in_p = (q->order + 7u) / 8u * 8u;
    size_t len = sizeof(gr_tf_misere) + mul + in_p + (q->bound + 1) * sizeof(uint16_t);
    unsigned char *buf = calloc(1, len);
    if (!buf)
        return -1;
    gr_tf_misere head = { .order = q->order, .p_size = q->p_size, .bound = q->bound,
                          .preperiod = q->periodic ? q->preperiod : 0,
                          .period = q->periodic ? q->period : 0, .last_growth = q->last_growth,
                          .generators = q->generators, .periodic = q->periodic };
    memcpy(buf, &head, sizeof head);
    memcpy(buf + sizeof head, q->mul, mul);
    memcpy(buf + sizeof head + mul, q->in_p, q->order);
    memcpy(buf + sizeof head + mul + in_p, q->phi, (q->bound + 1) * sizeof(uint16_t));
    pending *p = add(w, name, GR_TF_MISERE, buf, len);
    free(buf);
    if (!p)
        return -1;
    p->entry.flags = q->periodic ? GR_TF_PERIODIC : 0;
    p->entry.count = q->order;
    p->entry.param = q->bound;
    p->entry.preperiod = head.preperiod;
    p->entry.period = head.period;
    p->entry.max_value = q->p_size;
    return 0;
}

int gr_tf_add_bitset(gr_tf_writer *w, const char *name, const uint64_t *bits, uint64_t nbits)
{
    uint64_t words = nbits / 64 + (nbits % 64 != 0), ones = 0;
    pending *p = add(w, name, GR_TF_BITSET, bits, words * sizeof *bits);
    if (!p)
        return -1;
    for (uint64_t i = 0; i < words; i++)
        ones += (uint64_t)__builtin_popcountll(bits[i]);
    p->entry.count = nbits;
    p->entry.param = ones;
    p->entry.max_value = ones ? 1 : 0;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const pending *)a)->entry.name, ((const pending *)b)->entry.name);
}

static uint64_t align_up(uint64_t v)
{
    return (v + GR_TF_ALIGN - 1) / GR_TF_ALIGN * GR_TF_ALIGN;
}

/* Assigns offsets and checksums; returns the file size. */
static uint64_t lay_out(gr_tf_writer *w, gr_tf_header *h)
{
    qsort(w->sections, w->n, sizeof w->sections[0], by_name);
    uint64_t at = align_up(sizeof *h + w->n * sizeof(gr_tf_entry));
    for (size_t i = 0; i < w->n; i++) {
        gr_tf_entry *e = &w->sections[i].entry;
        e->offset = at;
        e->checksum = gr_tf_checksum(w->sections[i].data, e->length);
        at = align_up(at + e->length);
    }
    memset(h, 0, sizeof *h);
    memcpy(h->magic, GR_TF_MAGIC, 8);
    h->version = GR_TF_VERSION;
    h->byte_order = GR_TF_BYTE_ORDER;
    h->section_count = (uint32_t)w->n;
    h->header_size = sizeof *h;
    h->file_size = at;
    h->directory_offset = sizeof *h;
    return at;
}

static int write_all(int fd, const void *data, size_t len)
{
    const unsigned char *p = data;
    while (len) {
        ssize_t k = write(fd, p, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        len -= (size_t)k;
    }
    return 0;
}

static int pad_to(int fd, uint64_t *at, uint64_t target)
{
    static const unsigned char zeros[GR_TF_ALIGN];
    if (target == *at)
        return 0;
    int rc = write_all(fd, zeros, (size_t)(target - *at));
    *at = target;
    return rc;
}

static int write_body(gr_tf_writer *w, int fd, gr_tf_header *h)
{
    gr_tf_entry *dir = malloc((w->n ? w->n : 1) * sizeof *dir);
    if (!dir)
        return -1;
    for (size_t i = 0; i < w->n; i++)
        dir[i] = w->sections[i].entry;
    h->directory_checksum = gr_tf_checksum(dir, w->n * sizeof *dir);
    h->header_checksum = gr_tf_checksum(h, offsetof(gr_tf_header, header_checksum));
    uint64_t at = sizeof *h + w->n * sizeof *dir;
    int rc = write_all(fd, h, sizeof *h) || write_all(fd, dir, w->n * sizeof *dir) ? -1 : 0;
    free(dir);
    for (size_t i = 0; rc == 0 && i < w->n; i++) {
        const gr_tf_entry *e = &w->sections[i].entry;
        rc = pad_to(fd, &at, e->offset) || write_all(fd, w->sections[i].data, e->length) ? -1 : 0;
        at += e->length;
    }
    return rc == 0 ? pad_to(fd, &at, h->file_size) : -1;
}

int gr_tf_write(gr_tf_writer *w, const char *path, char *why, size_t n)
{
    gr_tf_header h;
    lay_out(w, &h);
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp) {
        snprintf(why, n, "path too long");
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(why, n, "cannot create %s: %s", tmp, strerror(errno));
        return -1;
    }
    int rc = write_body(w, fd, &h);
    if (rc == 0)
        rc = fsync(fd);
    if (close(fd) != 0)
        rc = -1;
    if (rc == 0 && rename(tmp, path) == 0)
        return 0;
    snprintf(why, n, "cannot write %s: %s", path, strerror(errno));
    unlink(tmp);
    return -1;
}
