/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the table loader: bytes -> a table file ->
 * gr_tables_open, then every reader over every section it accepted.
 *
 * Each input is tried twice: as it is, and "repaired" (file size, section,
 * directory and header checksums recomputed over the bytes), so that
 * mutations get past the checksums and reach the structural checks behind
 * them. For each try the target aborts when:
 *   - gr_tables_open's verdict differs from an independent validator written
 *     here from src/tables/format.h (a file the loader accepts that breaks
 *     the format, or a well-formed file it refuses);
 *   - a refusal leaves *out set or gives no reason;
 *   - an accepted file's readers disagree with the bytes: gr_tables_info
 *     against the directory; gr_tables_sequence, gr_tables_member,
 *     gr_tables_grid and gr_tables_bit against the section data, with every
 *     view inside its own section of the mapping; gr_seq_value within the
 *     stored values for every n, periodic or not; lookups past a section's
 *     end, of other kinds or of absent names that succeed;
 *   - a periodic sequence or member it accepted whose stored values
 *     contradict the period (the independent validator refuses those too).
 * An accepted file is then served: gr_service_init over it (the rare/common
 * index of grundys_game) and a few queries through gr_api_analyze naming
 * its sections, which must answer with a JSON object and a known status.
 *
 * The loader takes a path, so the bytes go to one memfd (a temporary file
 * where there is none), rewritten in place for each input. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analyze.h"
#include "query.h"
#include "grundy/seq.h"
#include "tables/format.h"
#include "tables/tables.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) ((c) ? (void)0 : fail(__LINE__, #c))

static const char *current = "?"; /* which try failed: "raw" or "repaired" */

static void fail(int line, const char *what)
{
    fprintf(stderr, "fuzz_tables: %s input: check failed at line %d: %s\n", current, line, what);
    abort();
}

/* ---- the file ----------------------------------------------------------- */

static int fd = -1;
static char path[64];

static void file_init(void)
{
#if defined(MFD_CLOEXEC)
    fd = memfd_create("fuzz_tables", MFD_CLOEXEC);
#endif
    if (fd >= 0) {
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        if (access(path, R_OK) == 0)
            return;
        close(fd);
    }
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/fuzz_tables.XXXXXX", dir && *dir && strlen(dir) < 32 ? dir : "/tmp");
    fd = mkstemp(path);
    if (fd < 0) {
        perror("fuzz_tables: mkstemp");
        abort();
    }
}

static void file_put(const uint8_t *b, size_t n)
{
    if (ftruncate(fd, 0) != 0)
        abort();
    for (size_t at = 0; at < n;) {
        ssize_t k = pwrite(fd, b + at, n - at, (off_t)at);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            perror("fuzz_tables: pwrite");
            abort();
        }
        at += (size_t)k;
    }
}

/* ---- an independent reading of the format ------------------------------- */

static uint16_t u16at(const uint8_t *b, uint64_t off)
{
    uint16_t v;
    memcpy(&v, b + off, 2);
    return v;
}

static uint64_t u64at(const uint8_t *b, uint64_t off)
{
    uint64_t v;
    memcpy(&v, b + off, 8);
    return v;
}

static gr_tf_entry entry_at(const uint8_t *b, size_t i)
{
    gr_tf_entry e;
    memcpy(&e, b + sizeof(gr_tf_header) + i * sizeof e, sizeof e);
    return e;
}

static gr_tf_member member_at(const uint8_t *b, const gr_tf_entry *e, uint64_t i)
{
    gr_tf_member m;
    memcpy(&m, b + e->offset + i * sizeof m, sizeof m);
    return m;
}

/* Members' values start after the member records. */
static uint64_t family_values(const gr_tf_entry *e)
{
    return e->offset + e->count * sizeof(gr_tf_member);
}

static bool period_ok(uint32_t flags, uint64_t count, uint64_t pre, uint64_t per)
{
    if (!(flags & GR_TF_PERIODIC))
        return pre == 0 && per == 0;
    return per >= 1 && pre <= count && per <= count - pre;
}

/* The stored values repeat with the period they claim: g(i) = g(i - per)
 * for pre + per <= i < count. */
static bool keeps_period(const uint8_t *b, uint64_t off, uint64_t count, uint32_t flags, uint64_t pre,
                         uint64_t per)
{
    if (!(flags & GR_TF_PERIODIC))
        return true;
    for (uint64_t i = pre + per; i < count; i++)
        if (u16at(b, off + 2 * i) != u16at(b, off + 2 * (i - per)))
            return false;
    return true;
}

static uint16_t max_u16(const uint8_t *b, uint64_t off, uint64_t n)
{
    uint16_t m = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint16_t v = u16at(b, off + 2 * i);
        m = v > m ? v : m;
    }
    return m;
}

static bool zeros(const uint8_t *b, uint64_t from, uint64_t to)
{
    for (uint64_t i = from; i < to; i++)
        if (b[i])
            return false;
    return true;
}

static bool spec_member(const uint8_t *b, const gr_tf_entry *e, uint64_t i)
{
    gr_tf_member m = member_at(b, e, i);
    if (i > 0 && member_at(b, e, i - 1).key >= m.key)
        return false;
    if (m.count == 0 || m.first > e->param || m.count > e->param - m.first || m.flags > GR_TF_PERIODIC ||
        m.reserved16 || m.reserved[0] || m.reserved[1] ||
        !period_ok(m.flags, m.count, m.preperiod, m.period))
        return false;
    return max_u16(b, family_values(e) + 2 * m.first, m.count) == m.max_value &&
           keeps_period(b, family_values(e) + 2 * m.first, m.count, m.flags, m.preperiod, m.period);
}

static bool spec_section(const uint8_t *b, const gr_tf_entry *e)
{
    switch (e->kind) {
    case GR_TF_SEQUENCE:
        return e->count >= 1 && e->length % 2 == 0 && e->count == e->length / 2 &&
               period_ok(e->flags, e->count, e->preperiod, e->period) &&
               e->max_value == max_u16(b, e->offset, e->count) &&
               keeps_period(b, e->offset, e->count, e->flags, e->preperiod, e->period);
    case GR_TF_FAMILY: {
        if (e->count == 0 || e->count > e->length / sizeof(gr_tf_member) || e->flags || e->preperiod ||
            e->period || e->max_value)
            return false;
        uint64_t rest = e->length - e->count * sizeof(gr_tf_member);
        if (rest % 2 != 0 || e->param != rest / 2)
            return false;
        for (uint64_t i = 0; i < e->count; i++)
            if (!spec_member(b, e, i))
                return false;
        return true;
    }
    case GR_TF_GRID:
        return e->param >= 1 && e->count >= 1 && e->count % e->param == 0 && e->length % 2 == 0 &&
               e->count == e->length / 2 && !e->flags && !e->preperiod && !e->period &&
               e->max_value == max_u16(b, e->offset, e->count);
    case GR_TF_BITSET: {
        uint64_t words = (e->count + 63) / 64; /* count < 2^63: it is at most 8 * length */
        if (e->count == 0 || e->count / 8 > e->length || e->length % 8 != 0 || words != e->length / 8 ||
            e->flags || e->preperiod || e->period || e->max_value > 1)
            return false;
        uint64_t ones = 0;
        for (uint64_t i = 0; i < words; i++)
            ones += (uint64_t)__builtin_popcountll(u64at(b, e->offset + 8 * i));
        uint64_t last = u64at(b, e->offset + 8 * (words - 1));
        return ones == e->param && (e->count % 64 == 0 || (last >> (e->count % 64)) == 0);
    }
    default:
        return false;
    }
}

/* Whether b[0 .. n) is a table file by the letter of format.h. */
static bool spec_valid(const uint8_t *b, size_t n)
{
    gr_tf_header h;
    if (n < sizeof h)
        return false;
    memcpy(&h, b, sizeof h);
    if (memcmp(h.magic, GR_TF_MAGIC, 8) != 0 || h.byte_order != GR_TF_BYTE_ORDER ||
        h.version != GR_TF_VERSION ||
        gr_tf_checksum(b, offsetof(gr_tf_header, header_checksum)) != h.header_checksum ||
        h.file_size != n || h.header_size != sizeof h || h.directory_offset != sizeof h || h.reserved)
        return false;
    uint64_t dir_end = sizeof h + (uint64_t)h.section_count * sizeof(gr_tf_entry);
    if (h.section_count == 0 || h.section_count > GR_TF_MAX_SECTIONS || dir_end > n ||
        gr_tf_checksum(b + sizeof h, dir_end - sizeof h) != h.directory_checksum)
        return false;
    uint64_t at = dir_end; /* sections lie in name order, after the directory, apart */
    for (size_t i = 0; i < h.section_count; i++) {
        gr_tf_entry e = entry_at(b, i);
        if (!memchr(e.name, 0, sizeof e.name) || !e.name[0] || e.reserved)
            return false;
        if (i > 0 && strcmp(entry_at(b, i - 1).name, e.name) >= 0)
            return false;
        if (e.offset % GR_TF_ALIGN || e.offset < at || e.offset > n || e.length > n - e.offset)
            return false;
        if (!zeros(b, at, e.offset) || gr_tf_checksum(b + e.offset, e.length) != e.checksum)
            return false;
        if (!spec_section(b, &e))
            return false;
        at = e.offset + e.length;
    }
    return zeros(b, at, n);
}

/* ---- repairing checksums ------------------------------------------------ */

/* Recomputes the file size and every checksum that lies inside the bytes,
 * sections first, then the directory, then the header. */
static void repair(uint8_t *b, size_t n)
{
    if (n < sizeof(gr_tf_header))
        return;
    gr_tf_header h;
    memcpy(&h, b, sizeof h);
    h.file_size = n;
    uint64_t sc = h.section_count;
    if (sc <= GR_TF_MAX_SECTIONS && sizeof h + sc * sizeof(gr_tf_entry) <= n) {
        for (size_t i = 0; i < sc; i++) {
            gr_tf_entry e = entry_at(b, i);
            if (e.offset <= n && e.length <= n - e.offset) {
                e.checksum = gr_tf_checksum(b + e.offset, e.length);
                memcpy(b + sizeof h + i * sizeof e, &e, sizeof e);
            }
        }
        h.directory_checksum = gr_tf_checksum(b + sizeof h, sc * sizeof(gr_tf_entry));
    }
    memcpy(b, &h, sizeof h);
    h.header_checksum = gr_tf_checksum(b, offsetof(gr_tf_header, header_checksum));
    memcpy(b, &h, sizeof h);
}

/* ---- the readers against the bytes -------------------------------------- */

/* Every view must lie in the one mapping of the file: the address of
 * byte 0, found from the first view and the same for all after it. */
static const uint8_t *base;

static void check_in_file(const void *p, uint64_t off, uint64_t bytes, size_t n)
{
    CHECK(off <= n && bytes <= n - off);
    const uint8_t *q = p;
    if (!base)
        base = q - off;
    CHECK(q == base + off);
}

/* A sequence view against count values at b + off (its section's bytes):
 * same values, same facts, and gr_seq_value inside them for every n. */
static void check_view(const gr_seq *s, const uint8_t *b, size_t n, uint64_t off, uint64_t count,
                       uint32_t flags, uint64_t pre, uint64_t per, uint16_t maxv)
{
    check_in_file(s->values, off, 2 * count, n);
    CHECK(s->count == count && s->owned == NULL);
    CHECK(s->periodic == ((flags & GR_TF_PERIODIC) != 0));
    CHECK(s->max_value == maxv);
    uint16_t m = 0;
    for (uint64_t i = 0; i < count; i++) {
        CHECK(s->values[i] == u16at(b, off + 2 * i));
        m = s->values[i] > m ? s->values[i] : m;
    }
    CHECK(m == maxv);
    if (s->periodic) {
        CHECK(s->preperiod == pre && s->period == per);
        CHECK(per >= 1 && pre <= count && per <= count - pre);
        for (uint64_t i = pre; i + per < count; i++)
            CHECK(s->values[i] == s->values[i + per]);
    }
    const uint64_t probes[] = { 0, 1, count - 1, count, count + 1, 2 * count + 3, pre + per,
                                UINT64_MAX / 2, UINT64_MAX - 1, UINT64_MAX };
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        uint64_t k = probes[i];
        uint16_t g = 0xBEEF;
        gr_status st = gr_seq_value(s, k, &g);
        if (k < count) {
            CHECK(st == GR_OK && g == s->values[k]);
        } else if (!s->periodic) {
            CHECK(st == GR_EBOUND);
        } else {
            uint64_t idx = pre + (k - pre) % per;
            CHECK(idx < count);
            CHECK(st == GR_OK && g == s->values[idx] && g <= maxv);
        }
    }
}

static void check_absent(const gr_tables *t, const char *name)
{
    gr_seq s;
    uint16_t v;
    bool bit;
    CHECK(!gr_tables_sequence(t, name, &s));
    CHECK(!gr_tables_member(t, name, 0, &s));
    CHECK(!gr_tables_grid(t, name, 0, 0, &v));
    CHECK(!gr_tables_bit(t, name, 0, &bit));
    CHECK(gr_tables_bits(t, name) == 0);
}

static void check_sequence(const gr_tables *t, const gr_tf_entry *e, const uint8_t *b, size_t n)
{
    gr_seq s;
    CHECK(gr_tables_sequence(t, e->name, &s));
    check_view(&s, b, n, e->offset, e->count, e->flags, e->preperiod, e->period, (uint16_t)e->max_value);
    CHECK(e->max_value <= UINT16_MAX);
    CHECK(2 * e->count == e->length);
}

static void check_family(const gr_tables *t, const gr_tf_entry *e, const uint8_t *b, size_t n)
{
    CHECK(e->count <= e->length / sizeof(gr_tf_member));
    CHECK(e->offset <= n && e->count * sizeof(gr_tf_member) <= n - e->offset);
    uint64_t values = family_values(e);
    CHECK(e->param <= (n - values) / 2);
    for (uint64_t i = 0; i < e->count; i++) {
        gr_tf_member m = member_at(b, e, i);
        CHECK(i == 0 || member_at(b, e, i - 1).key < m.key);
        CHECK(m.first <= e->param && m.count <= e->param - m.first);
        gr_seq s;
        CHECK(gr_tables_member(t, e->name, m.key, &s));
        check_view(&s, b, n, values + 2 * m.first, m.count, m.flags, m.preperiod, m.period, m.max_value);
        /* keys between members are absent */
        if (m.key > 0 && (i == 0 || member_at(b, e, i - 1).key != m.key - 1))
            CHECK(!gr_tables_member(t, e->name, m.key - 1, &s));
        if (m.key < UINT64_MAX && (i + 1 == e->count || member_at(b, e, i + 1).key != m.key + 1))
            CHECK(!gr_tables_member(t, e->name, m.key + 1, &s));
    }
    gr_seq s;
    CHECK(!gr_tables_sequence(t, e->name, &s));
}

static void check_grid(const gr_tables *t, const gr_tf_entry *e, const uint8_t *b, size_t n)
{
    CHECK(e->param >= 1 && e->count % e->param == 0 && 2 * e->count == e->length);
    uint64_t rows = e->param, cols = e->count / e->param;
    CHECK(e->offset <= n && e->length <= n - e->offset);
    uint16_t m = 0, v;
    for (uint64_t r = 0; r < rows; r++)
        for (uint64_t c = 0; c < cols; c++) {
            v = 0xBEEF;
            CHECK(gr_tables_grid(t, e->name, r, c, &v));
            CHECK(v == u16at(b, e->offset + 2 * (r * cols + c)));
            m = v > m ? v : m;
        }
    CHECK(m == e->max_value);
    CHECK(!gr_tables_grid(t, e->name, rows, 0, &v));
    CHECK(!gr_tables_grid(t, e->name, 0, cols, &v));
    CHECK(!gr_tables_grid(t, e->name, rows - 1, cols, &v));
    CHECK(!gr_tables_grid(t, e->name, UINT64_MAX, 0, &v));
    CHECK(!gr_tables_grid(t, e->name, 0, UINT64_MAX, &v));
    CHECK(!gr_tables_grid(t, e->name, UINT64_MAX, UINT64_MAX, &v));
    /* the index r * cols + c must not wrap around to a cell inside */
    if (cols > 1)
        CHECK(!gr_tables_grid(t, e->name, UINT64_MAX / cols + 1, 0, &v));
}

static void check_bitset(const gr_tables *t, const gr_tf_entry *e, const uint8_t *b, size_t n)
{
    uint64_t words = (e->count + 63) / 64;
    CHECK(e->count >= 1 && 8 * words == e->length);
    CHECK(e->offset <= n && e->length <= n - e->offset);
    CHECK(gr_tables_bits(t, e->name) == e->count);
    uint64_t ones = 0;
    for (uint64_t i = 0; i < e->count; i++) {
        bool bit = false;
        CHECK(gr_tables_bit(t, e->name, i, &bit));
        CHECK(bit == ((u64at(b, e->offset + 8 * (i / 64)) >> (i % 64)) & 1));
        ones += bit;
    }
    CHECK(ones == e->param);
    bool bit;
    CHECK(!gr_tables_bit(t, e->name, e->count, &bit));
    CHECK(!gr_tables_bit(t, e->name, UINT64_MAX, &bit));
}

/* ---- serving it --------------------------------------------------------- */

static void ask(const gr_service *svc, const char *q)
{
    gr_reply r;
    gr_api_analyze(svc, q, strlen(q), &r);
    CHECK(r.body && r.len > 0 && r.body[0] == '{' && r.body[r.len - 1] == '}');
    /* 500 is allowed: a forged table can promise a winning move the values
     * do not hold. */
    CHECK(r.status == 200 || r.status == 400 || r.status == 413 || r.status == 422 ||
          r.status == 500 || r.status == 503);
    free(r.body);
}

static void serve(const gr_tables *t, const uint8_t *b, size_t nsec)
{
    gr_service svc;
    if (gr_service_init(&svc, t, 1u << 20) != 0)
        return; /* out of memory */
    svc.limits.budget = 200000;
    char q[512];
    unsigned asked = 0;
    for (size_t i = 0; i < nsec && asked < 12; i++) {
        gr_tf_entry e = entry_at(b, i);
        const char *name = e.name;
        uint64_t c = e.count;
        if (e.kind == GR_TF_SEQUENCE && strcmp(name, GR_TN_GRUNDYS) == 0) {
            snprintf(q, sizeof q, "{\"game\":\"grundys_game\",\"piles\":[%" PRIu64 ",%" PRIu64 ",3]}", c - 1, c / 2);
        } else if (e.kind == GR_TF_SEQUENCE && strcmp(name, GR_TN_DIVISOR) == 0) {
            snprintf(q, sizeof q, "{\"game\":\"divisor\",\"n\":%" PRIu64 "}", c - 1);
        } else if (e.kind == GR_TF_GRID && strcmp(name, GR_TN_WYTHOFF) == 0) {
            snprintf(q, sizeof q, "{\"game\":\"wythoff\",\"piles\":[%" PRIu64 ",%" PRIu64 "]}", e.param - 1,
                     c / e.param - 1);
        } else if (e.kind == GR_TF_SEQUENCE && strncmp(name, GR_TN_OCTAL_PREFIX, 6) == 0) {
            snprintf(q, sizeof q, "{\"game\":\"octal\",\"code\":\"%s\",\"piles\":[%" PRIu64 ",%" PRIu64 ",2]}",
                     name + 6, c - 1, c + 5);
        } else if (e.kind == GR_TF_FAMILY && strcmp(name, GR_TN_OCTAL_FAMILY) == 0) {
            uint64_t k = member_at(b, &e, (e.count - 1) / 2).key & 0777;
            if (!k)
                continue;
            char code[8];
            snprintf(code, sizeof code, "0.%o%o%o", (unsigned)(k >> 6), (unsigned)(k >> 3 & 7), (unsigned)(k & 7));
            for (size_t l = strlen(code); code[l - 1] == '0';)
                code[--l] = 0;
            snprintf(q, sizeof q, "{\"game\":\"octal\",\"code\":\"%s\",\"piles\":[40,9,1000000]}", code);
        } else if (e.kind == GR_TF_FAMILY && strcmp(name, GR_TN_SUBTRACTION_FAMILY) == 0) {
            uint64_t k = member_at(b, &e, (e.count - 1) / 2).key & 0xFFF;
            if (!k)
                continue;
            int len = snprintf(q, sizeof q, "{\"game\":\"subtraction\",\"moves\":[");
            for (unsigned s = 1; s <= GR_TN_SUBTRACTION_MAX; s++)
                if (k >> (s - 1) & 1)
                    len += snprintf(q + len, sizeof q - (size_t)len, "%u,", s);
            snprintf(q + len - 1, sizeof q - (size_t)len + 1, "],\"piles\":[100,7,1000000000000]}");
        } else if (strncmp(name, GR_TN_RULE_PREFIX, 12) == 0 && (e.kind == GR_TF_SEQUENCE || e.kind == GR_TF_BITSET)) {
            const char *rule = name + 12, *colon = strchr(rule, ':');
            if (!colon || colon - rule > 32)
                continue;
            snprintf(q, sizeof q, "{\"game\":\"subtraction\",\"moves\":{\"rule\":\"%.*s\"},\"piles\":[%" PRIu64 "%s]}",
                     (int)(colon - rule), rule, c - 1, e.kind == GR_TF_SEQUENCE ? ",1" : "");
        } else {
            continue;
        }
        ask(&svc, q);
        asked++;
    }
    gr_service_fini(&svc);
}

/* ---- one try ------------------------------------------------------------ */

static void try_file(const uint8_t *b, size_t n)
{
    file_put(b, n);
    gr_tables *t = (gr_tables *)&t; /* must be reset to NULL on failure */
    char why[256];
    memset(why, 0x55, sizeof why);
    int rc = gr_tables_open(path, &t, why, sizeof why);
    bool ok = spec_valid(b, n);
    if (rc != 0) {
        CHECK(rc == -1 && t == NULL);
        CHECK(memchr(why, 0, sizeof why) != NULL && why[0] != 0);
        if (ok)
            fprintf(stderr, "fuzz_tables: refused a well-formed file: %s\n", why);
        CHECK(!ok);
        return;
    }
    CHECK(t != NULL);
    CHECK(ok); /* accepted: it must be well-formed */
    CHECK(gr_tables_bytes(t) == n);
    CHECK(strcmp(gr_tables_path(t), path) == 0);
    gr_tf_header h;
    memcpy(&h, b, sizeof h);
    size_t nsec = gr_tables_count(t);
    CHECK(nsec == h.section_count && nsec >= 1 && nsec <= GR_TF_MAX_SECTIONS);
    base = NULL;
    static const char *const kinds[] = { NULL, "sequence", "family", "grid", "bitset" };
    for (size_t i = 0; i < nsec; i++) {
        gr_tf_entry e = entry_at(b, i);
        gr_table_info info;
        memset(&info, 0x55, sizeof info);
        gr_tables_info(t, i, &info);
        CHECK(info.name && strcmp(info.name, e.name) == 0 && strlen(info.name) < GR_TF_NAME_LEN);
        CHECK(e.kind >= GR_TF_SEQUENCE && e.kind <= GR_TF_BITSET && info.kind &&
              strcmp(info.kind, kinds[e.kind]) == 0);
        CHECK(info.count == e.count && info.bytes == e.length && info.checksum == e.checksum &&
              info.param == e.param && info.max_value == e.max_value &&
              info.periodic == ((e.flags & GR_TF_PERIODIC) != 0) && info.preperiod == e.preperiod &&
              info.period == e.period);
        CHECK(e.offset % GR_TF_ALIGN == 0 && e.offset <= n && e.length <= n - e.offset);
        CHECK(gr_tf_checksum(b + e.offset, e.length) == e.checksum);
        /* the name finds this section and only as its own kind */
        gr_seq s;
        uint16_t v;
        bool bit;
        if (e.kind != GR_TF_SEQUENCE)
            CHECK(!gr_tables_sequence(t, e.name, &s));
        if (e.kind != GR_TF_FAMILY)
            CHECK(!gr_tables_member(t, e.name, 0, &s));
        if (e.kind != GR_TF_GRID)
            CHECK(!gr_tables_grid(t, e.name, 0, 0, &v));
        if (e.kind != GR_TF_BITSET)
            CHECK(!gr_tables_bit(t, e.name, 0, &bit) && gr_tables_bits(t, e.name) == 0);
        switch (e.kind) {
        case GR_TF_SEQUENCE: check_sequence(t, &e, b, n); break;
        case GR_TF_FAMILY: check_family(t, &e, b, n); break;
        case GR_TF_GRID: check_grid(t, &e, b, n); break;
        case GR_TF_BITSET: check_bitset(t, &e, b, n); break;
        }
        /* names next to this one are absent unless they are the neighbours */
        char near[GR_TF_NAME_LEN + 1];
        snprintf(near, sizeof near, "%sx", e.name);
        if (i + 1 == nsec || strcmp(entry_at(b, i + 1).name, near) != 0)
            check_absent(t, near);
        size_t len = strlen(e.name);
        if (len > 1) {
            memcpy(near, e.name, len - 1);
            near[len - 1] = 0;
            bool listed = false;
            for (size_t j = 0; j < nsec && !listed; j++)
                listed = strcmp(entry_at(b, j).name, near) == 0;
            if (!listed)
                check_absent(t, near);
        }
    }
    check_absent(t, "");
    serve(t, b, nsec);
    gr_tables_close(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fd < 0)
        file_init();
    current = "raw";
    try_file(data, size);
    uint8_t *fixed = malloc(size ? size : 1);
    if (!fixed)
        abort();
    memcpy(fixed, data, size);
    repair(fixed, size);
    if (size && memcmp(fixed, data, size) != 0) {
        current = "repaired";
        try_file(fixed, size);
    }
    free(fixed);
    return 0;
}
