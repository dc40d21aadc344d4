/* SPDX-License-Identifier: MIT */
#include "tables/tables.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tables/format.h"
#include "tables/guard.h"

/* After validation nothing is read from the mapping but the sections'
 * data: the header's facts and the directory are copied, so that bytes
 * changed in the file later cannot redirect a lookup. Sections that the
 * verifier or a fault found changed are `off`: lookups skip them. */
struct gr_tables {
    char *path;
    const unsigned char *base;
    size_t size;
    const gr_tf_header *header;
    const gr_tf_entry *entries; /* the private copy, once validated */
    size_t nentries;
    uint64_t file_checksum;     /* the header's checksum, which covers every section's */
    atomic_bool *off;
    atomic_ulong faults;        /* SIGBUS faults inside the mapping (tables/guard.h) */
    size_t page;
};

static int fault(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fault(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- validation --------------------------------------------------------- */

static int check_header(const unsigned char *base, size_t size, char *why, size_t n)
{
    if (size < 8 && memcmp(base, GR_TF_MAGIC, size) == 0)
        return fault(why, n, "truncated: %zu bytes is shorter than the 64-byte header", size);
    if (size < 8 || memcmp(base, GR_TF_MAGIC, 8) != 0)
        return fault(why, n, "not a grundy table file (no GRUNDYTB magic at the start)");
    if (size < sizeof(gr_tf_header))
        return fault(why, n, "truncated: %zu bytes is shorter than the 64-byte header", size);
    const gr_tf_header *h = (const gr_tf_header *)base;
    if (h->byte_order != GR_TF_BYTE_ORDER)
        return fault(why, n, "written with the other byte order; rebuild it on this machine");
    if (h->version != GR_TF_VERSION)
        return fault(why, n, "format version %u, but this build reads version %u; rebuild it with "
                     "'grundy tables build'", h->version, GR_TF_VERSION);
    if (gr_tf_checksum(h, offsetof(gr_tf_header, header_checksum)) != h->header_checksum)
        return fault(why, n, "corrupted: the header checksum does not match");
    if (h->file_size != size)
        return fault(why, n, "truncated or extended: the header says %llu bytes, the file has %zu",
                     (unsigned long long)h->file_size, size);
    if (h->header_size != sizeof(gr_tf_header) || h->directory_offset != sizeof(gr_tf_header) ||
        h->reserved != 0)
        return fault(why, n, "corrupted: unexpected header or directory placement");
    if (h->section_count == 0 || h->section_count > GR_TF_MAX_SECTIONS ||
        h->directory_offset + (uint64_t)h->section_count * sizeof(gr_tf_entry) > size)
        return fault(why, n, "corrupted: section count %u does not fit the file", h->section_count);
    const void *dir = base + h->directory_offset;
    if (gr_tf_checksum(dir, h->section_count * sizeof(gr_tf_entry)) != h->directory_checksum)
        return fault(why, n, "corrupted: the directory checksum does not match");
    return 0;
}

static bool periodic_facts_ok(uint32_t flags, uint64_t count, uint64_t pre, uint64_t per)
{
    if (!(flags & GR_TF_PERIODIC))
        return pre == 0 && per == 0;
    return per >= 1 && pre <= count && per <= count - pre;
}

/* The stored values agree with the period they claim: otherwise answers
 * would differ below and past the stored count. One pass, like max_of. */
static bool values_keep_period(const uint16_t *v, uint64_t count, uint32_t flags, uint64_t pre,
                               uint64_t per)
{
    if (!(flags & GR_TF_PERIODIC))
        return true;
    for (uint64_t i = pre + per; i < count; i++)
        if (v[i] != v[i - per])
            return false;
    return true;
}

static uint16_t max_of(const uint16_t *v, uint64_t n)
{
    uint16_t m = 0;
    for (uint64_t i = 0; i < n; i++)
        m = v[i] > m ? v[i] : m;
    return m;
}

static int check_sequence(const gr_tf_entry *e, const unsigned char *data, char *why, size_t n)
{
    if (e->count == 0 || e->count > e->length / 2 || e->length != e->count * 2 ||
        !periodic_facts_ok(e->flags, e->count, e->preperiod, e->period))
        return fault(why, n, "corrupted: section %s has inconsistent facts", e->name);
    if (max_of((const uint16_t *)data, e->count) != e->max_value)
        return fault(why, n, "corrupted: section %s has a wrong largest value", e->name);
    if (!values_keep_period((const uint16_t *)data, e->count, e->flags, e->preperiod, e->period))
        return fault(why, n, "corrupted: section %s has values that contradict its period", e->name);
    return 0;
}

static int check_member(const gr_tf_entry *e, const gr_tf_member *m, const uint16_t *values,
                        const gr_tf_member *prev, char *why, size_t n)
{
    if ((prev && m->key <= prev->key) || m->count == 0 || m->first > e->param ||
        m->flags > GR_TF_PERIODIC || m->reserved16 || m->reserved[0] || m->reserved[1] ||
        m->count > e->param - m->first || !periodic_facts_ok(m->flags, m->count, m->preperiod, m->period))
        return fault(why, n, "corrupted: section %s has an inconsistent member (key %llu)", e->name,
                     (unsigned long long)m->key);
    if (max_of(values + m->first, m->count) != m->max_value)
        return fault(why, n, "corrupted: section %s member %llu has a wrong largest value", e->name,
                     (unsigned long long)m->key);
    if (!values_keep_period(values + m->first, m->count, m->flags, m->preperiod, m->period))
        return fault(why, n, "corrupted: section %s member %llu has values that contradict its "
                     "period", e->name, (unsigned long long)m->key);
    return 0;
}

static int check_family(const gr_tf_entry *e, const unsigned char *data, char *why, size_t n)
{
    if (e->count == 0 || e->count > e->length / sizeof(gr_tf_member) || e->param > e->length / 2 ||
        e->length != e->count * sizeof(gr_tf_member) + e->param * 2 || e->flags != 0 ||
        e->preperiod != 0 || e->period != 0 || e->max_value != 0)
        return fault(why, n, "corrupted: section %s has inconsistent facts", e->name);
    const gr_tf_member *m = (const gr_tf_member *)data;
    const uint16_t *values = (const uint16_t *)(data + e->count * sizeof(gr_tf_member));
    for (uint64_t i = 0; i < e->count; i++)
        if (check_member(e, &m[i], values, i ? &m[i - 1] : NULL, why, n))
            return -1;
    return 0;
}

static int check_grid(const gr_tf_entry *e, const unsigned char *data, char *why, size_t n)
{
    if (e->param == 0 || e->count == 0 || e->count % e->param != 0 || e->count > e->length / 2 ||
        e->length != e->count * 2 || e->flags != 0 || e->preperiod != 0 || e->period != 0)
        return fault(why, n, "corrupted: section %s has inconsistent facts", e->name);
    if (max_of((const uint16_t *)data, e->count) != e->max_value)
        return fault(why, n, "corrupted: section %s has a wrong largest value", e->name);
    return 0;
}

static int check_bitset(const gr_tf_entry *e, const unsigned char *data, char *why, size_t n)
{
    uint64_t words = e->count / 64 + (e->count % 64 != 0);
    if (e->count == 0 || words > e->length / 8 || e->length != words * 8 || e->flags != 0 ||
        e->preperiod != 0 || e->period != 0 || e->max_value > 1)
        return fault(why, n, "corrupted: section %s has inconsistent facts", e->name);
    const uint64_t *w = (const uint64_t *)data;
    uint64_t ones = 0;
    for (uint64_t i = 0; i < words; i++)
        ones += (uint64_t)__builtin_popcountll(w[i]);
    uint64_t tail = e->count % 64 ? w[words - 1] >> (e->count % 64) : 0;
    if (ones != e->param || tail != 0)
        return fault(why, n, "corrupted: section %s has wrong bits", e->name);
    return 0;
}

/* The quotient's head agrees with the entry; the table is a commutative
 * monoid's with identity 0 and its elements, P and phi lie in range. */
static int check_misere(const gr_tf_entry *e, const unsigned char *data, char *why, size_t n)
{
    gr_tf_misere h;
    if (e->length < sizeof h)
        return fault(why, n, "corrupted: section %s has inconsistent facts", e->name);
    memcpy(&h, data, sizeof h);
    uint64_t order = e->count, in_p = (order + 7) / 8 * 8;
    if (order == 0 || order > GR_MQ_MAX_ORDER || e->param > (UINT64_C(1) << 32) ||
        e->length != sizeof h + order * order * 2 + in_p + (e->param + 1) * 2 ||
        h.order != order || h.bound != e->param || h.p_size != e->max_value ||
        h.periodic != ((e->flags & GR_TF_PERIODIC) != 0) || (e->flags & ~(uint32_t)GR_TF_PERIODIC) ||
        h.preperiod != e->preperiod || h.period != e->period || h.reserved[0] || h.reserved[1] ||
        (h.periodic && (h.period == 0 || h.preperiod + h.period > h.bound + 1)))
        return fault(why, n, "corrupted: section %s has inconsistent facts", e->name);
    const uint16_t *mul = (const uint16_t *)(data + sizeof h);
    const uint8_t *p = data + sizeof h + order * order * 2;
    const uint16_t *phi = (const uint16_t *)(p + in_p);
    uint64_t in = 0;
    for (uint64_t x = 0; x < order; x++) {
        in += p[x];
        if (p[x] > 1 || mul[x] != x)
            return fault(why, n, "corrupted: section %s is not a quotient", e->name);
        for (uint64_t y = 0; y < order; y++)
            if (mul[x * order + y] >= order || mul[x * order + y] != mul[y * order + x])
                return fault(why, n, "corrupted: section %s is not a quotient", e->name);
    }
    for (uint64_t k = 0; k <= e->param; k++)
        if (phi[k] >= order)
            return fault(why, n, "corrupted: section %s is not a quotient", e->name);
    if (p[0] || in != h.p_size || phi[0] != 0)
        return fault(why, n, "corrupted: section %s is not a quotient", e->name);
    return 0;
}

static int check_entry(const unsigned char *base, size_t size, const gr_tf_entry *e,
                       const gr_tf_entry *prev, char *why, size_t n)
{
    if (memchr(e->name, '\0', GR_TF_NAME_LEN) == NULL || e->name[0] == '\0' || e->reserved != 0)
        return fault(why, n, "corrupted: a section name is empty or not terminated");
    if (prev && strcmp(prev->name, e->name) >= 0)
        return fault(why, n, "corrupted: sections are not sorted by name at %s", e->name);
    uint64_t dir_end = sizeof(gr_tf_header) + ((const gr_tf_header *)base)->section_count * sizeof(gr_tf_entry);
    if (e->offset % GR_TF_ALIGN != 0 || e->offset < dir_end || e->offset > size ||
        e->length > size - e->offset)
        return fault(why, n, "corrupted: section %s lies outside the file", e->name);
    const unsigned char *data = base + e->offset;
    if (gr_tf_checksum(data, e->length) != e->checksum)
        return fault(why, n, "corrupted: the checksum of section %s does not match", e->name);
    switch (e->kind) {
    case GR_TF_SEQUENCE: return check_sequence(e, data, why, n);
    case GR_TF_FAMILY: return check_family(e, data, why, n);
    case GR_TF_GRID: return check_grid(e, data, why, n);
    case GR_TF_BITSET: return check_bitset(e, data, why, n);
    case GR_TF_MISERE: return check_misere(e, data, why, n);
    default: return fault(why, n, "corrupted: section %s has unknown kind %u", e->name, e->kind);
    }
}

static bool all_zero(const unsigned char *p, uint64_t len)
{
    for (uint64_t i = 0; i < len; i++)
        if (p[i])
            return false;
    return true;
}

/* Checksums cover the header, directory and sections; the padding between
 * them must be zero, so that every byte of the file is accounted for. Entries
 * are in name order, not file order; the writer lays them out in name order,
 * and so the padding check requires it. */
static int check_padding(const gr_tables *t, char *why, size_t n)
{
    uint64_t at = sizeof(gr_tf_header) + t->nentries * sizeof(gr_tf_entry);
    for (size_t i = 0; i <= t->nentries; i++) {
        uint64_t next = i < t->nentries ? t->entries[i].offset : t->size;
        if (next < at || !all_zero(t->base + at, next - at))
            return fault(why, n, "corrupted: the bytes before %s are not zero padding",
                         i < t->nentries ? t->entries[i].name : "the end of the file");
        if (i < t->nentries)
            at = next + t->entries[i].length;
    }
    return 0;
}

static int validate(gr_tables *t, char *why, size_t n)
{
    if (check_header(t->base, t->size, why, n))
        return -1;
    t->header = (const gr_tf_header *)t->base;
    t->entries = (const gr_tf_entry *)(t->base + t->header->directory_offset);
    t->nentries = t->header->section_count;
    for (size_t i = 0; i < t->nentries; i++)
        if (check_entry(t->base, t->size, &t->entries[i], i ? &t->entries[i - 1] : NULL, why, n))
            return -1;
    return check_padding(t, why, n);
}

/* ---- open and close ----------------------------------------------------- */

static int map_file(gr_tables *t, char *why, size_t n)
{
    int fd = open(t->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fault(why, n, "cannot open it: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return fault(why, n, "not a regular file");
    }
    if (st.st_size == 0) {
        close(fd);
        return fault(why, n, "truncated: the file is empty");
    }
    t->size = (size_t)st.st_size;
    void *p = mmap(NULL, t->size, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return fault(why, n, "cannot map it: %s", strerror(errno));
    t->base = p;
    madvise(p, t->size, MADV_WILLNEED);
    return 0;
}

/* The private copies of the header's checksum and the directory. */
static int keep_directory(gr_tables *t)
{
    gr_tf_entry *dir = malloc(t->nentries * sizeof *dir);
    t->off = calloc(t->nentries, sizeof *t->off);
    if (!dir || !t->off) {
        free(dir);
        return -1;
    }
    memcpy(dir, t->entries, t->nentries * sizeof *dir);
    for (size_t i = 0; i < t->nentries; i++)
        atomic_init(&t->off[i], false);
    t->entries = dir;
    t->file_checksum = t->header->header_checksum;
    t->header = NULL; /* the mapped header is not read again */
    atomic_init(&t->faults, 0);
    t->page = (size_t)sysconf(_SC_PAGESIZE);
    return 0;
}

int gr_tables_open(const char *path, gr_tables **out, char *why, size_t whylen)
{
    *out = NULL;
    gr_tables *t = calloc(1, sizeof *t);
    if (!t || !(t->path = strdup(path))) {
        free(t);
        return fault(why, whylen, "out of memory");
    }
    if (map_file(t, why, whylen) || validate(t, why, whylen) || keep_directory(t)) {
        gr_tables_close(t);
        return -1;
    }
    gr_tables_guard_add(t);
    *out = t;
    return 0;
}

void gr_tables_close(gr_tables *t)
{
    if (!t)
        return;
    gr_tables_guard_remove(t);
    if (t->off)
        free((void *)t->entries);
    free(t->off);
    if (t->base)
        munmap((void *)t->base, t->size);
    free(t->path);
    free(t);
}

/* ---- lookups ------------------------------------------------------------ */

const char *gr_tables_path(const gr_tables *t) { return t->path; }

const char *gr_tables_file_name(const gr_tables *t)
{
    const char *slash = strrchr(t->path, '/');
    return slash ? slash + 1 : t->path;
}

uint64_t gr_tables_checksum(const gr_tables *t) { return t->file_checksum; }
uint64_t gr_tables_bytes(const gr_tables *t) { return t->size; }
size_t gr_tables_count(const gr_tables *t) { return t->nentries; }

void gr_tables_info(const gr_tables *t, size_t i, gr_table_info *info)
{
    static const char *const kinds[] = { "unknown", "sequence", "family", "grid", "bitset",
                                         "misere_quotient" };
    const gr_tf_entry *e = &t->entries[i];
    *info = (gr_table_info){
        .name = e->name, .kind = kinds[e->kind <= GR_TF_MISERE ? e->kind : 0], .count = e->count,
        .periodic = (e->flags & GR_TF_PERIODIC) != 0, .preperiod = e->preperiod, .period = e->period,
        .max_value = e->max_value, .checksum = e->checksum, .bytes = e->length, .param = e->param,
    };
}

static const gr_tf_entry *find(const gr_tables *t, const char *name, uint32_t kind)
{
    size_t lo = 0, hi = t ? t->nentries : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(t->entries[mid].name, name);
        if (c == 0)
            return t->entries[mid].kind == kind && !atomic_load(&t->off[mid]) ? &t->entries[mid] : NULL;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static void fill_view(gr_seq *view, const uint16_t *values, uint64_t count, uint32_t flags,
                      uint64_t pre, uint64_t per, uint16_t max)
{
    *view = (gr_seq){ .values = values, .count = count, .periodic = (flags & GR_TF_PERIODIC) != 0,
                      .preperiod = pre, .period = per, .max_value = max, .owned = NULL };
}

bool gr_tables_sequence(const gr_tables *t, const char *name, gr_seq *view)
{
    const gr_tf_entry *e = find(t, name, GR_TF_SEQUENCE);
    if (!e)
        return false;
    fill_view(view, (const uint16_t *)(t->base + e->offset), e->count, e->flags, e->preperiod,
              e->period, (uint16_t)e->max_value);
    return true;
}

bool gr_tables_member(const gr_tables *t, const char *family, uint64_t key, gr_seq *view)
{
    const gr_tf_entry *e = find(t, family, GR_TF_FAMILY);
    if (!e)
        return false;
    const gr_tf_member *m = (const gr_tf_member *)(t->base + e->offset);
    const uint16_t *values = (const uint16_t *)(m + e->count);
    size_t lo = 0, hi = e->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m[mid].key == key) {
            fill_view(view, values + m[mid].first, m[mid].count, m[mid].flags, m[mid].preperiod,
                      m[mid].period, m[mid].max_value);
            return true;
        }
        if (m[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

bool gr_tables_grid(const gr_tables *t, const char *name, uint64_t r, uint64_t c, uint16_t *v)
{
    const gr_tf_entry *e = find(t, name, GR_TF_GRID);
    if (!e)
        return false;
    uint64_t rows = e->param, cols = e->count / e->param;
    if (r >= rows || c >= cols)
        return false;
    *v = ((const uint16_t *)(t->base + e->offset))[r * cols + c];
    return true;
}

bool gr_tables_bit(const gr_tables *t, const char *name, uint64_t n, bool *bit)
{
    const gr_tf_entry *e = find(t, name, GR_TF_BITSET);
    if (!e || n >= e->count)
        return false;
    const uint64_t *w = (const uint64_t *)(t->base + e->offset);
    *bit = (w[n / 64] >> (n % 64)) & 1;
    return true;
}

uint64_t gr_tables_bits(const gr_tables *t, const char *name)
{
    const gr_tf_entry *e = find(t, name, GR_TF_BITSET);
    return e ? e->count : 0;
}

/* ---- changes under the daemon ------------------------------------------- */

bool gr_tables_section_off(const gr_tables *t, size_t i) { return atomic_load(&t->off[i]); }
unsigned long gr_tables_faults(const gr_tables *t) { return atomic_load(&t->faults); }

bool gr_tables_contains(const gr_tables *t, const void *addr)
{
    uintptr_t a = (uintptr_t)addr, b = (uintptr_t)t->base;
    return t->base && a >= b && a - b < t->size;
}

/* In the SIGBUS handler: async-signal-safe (a system call, atomics, and
 * reads of the private directory). The faulting page becomes a page of
 * zeros, so that the access completes, and every section on it is off. */
void gr_tables_fault(gr_tables *t, const void *addr)
{
    uintptr_t b = (uintptr_t)t->base;
    uintptr_t page = ((uintptr_t)addr - b) / t->page * t->page;
    mmap((void *)(b + page), t->page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    for (size_t i = 0; i < t->nentries; i++) {
        const gr_tf_entry *e = &t->entries[i];
        if (e->offset < page + t->page && e->offset + e->length > page)
            atomic_store(&t->off[i], true);
    }
    atomic_fetch_add(&t->faults, 1);
}

size_t gr_tables_verify(gr_tables *t, void (*changed)(void *ctx, const char *name), void *ctx)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nentries; i++) {
        const gr_tf_entry *e = &t->entries[i];
        if (atomic_load(&t->off[i]) || gr_tf_checksum(t->base + e->offset, e->length) == e->checksum)
            continue;
        atomic_store(&t->off[i], true);
        n++;
        if (changed)
            changed(ctx, e->name);
    }
    return n;
}

size_t gr_tables_off_count(const gr_tables *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nentries; i++)
        n += atomic_load(&t->off[i]);
    return n;
}

bool gr_tables_misere(const gr_tables *t, const char *name, gr_mq *view)
{
    const gr_tf_entry *e = find(t, name, GR_TF_MISERE);
    if (!e)
        return false;
    const unsigned char *data = t->base + e->offset;
    gr_tf_misere h;
    memcpy(&h, data, sizeof h);
    uint64_t in_p = (e->count + 7) / 8 * 8;
    memset(view, 0, sizeof *view);
    view->order = h.order;
    view->p_size = h.p_size;
    view->mul = (uint16_t *)(uintptr_t)(data + sizeof h);
    view->in_p = (uint8_t *)(uintptr_t)(data + sizeof h + e->count * e->count * 2);
    view->phi = (uint16_t *)(uintptr_t)(data + sizeof h + e->count * e->count * 2 + in_p);
    view->bound = h.bound;
    view->periodic = h.periodic != 0;
    view->preperiod = h.preperiod;
    view->period = h.period;
    view->last_growth = h.last_growth;
    view->generators = h.generators;
    return true;
}
