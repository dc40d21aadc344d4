/* SPDX-License-Identifier: MIT */
/* Tests for the table file (src/tables): the writer, the validating reader,
 * the lookups and the builder.
 *
 * A reference file with sequence, family and grid sections is written by the
 * writer and read back (facts and every value identical, lookups by name,
 * key and cell, misses false). Then the reader is fed every kind of bad
 * file: missing, empty, not a table, truncated at many points, a single
 * flipped byte at every position of the header and directory and at sampled
 * positions of every section, another format version, the other byte order,
 * and directory entries, family members and names that are wrong but whose
 * checksums were recomputed, so that the check under test is the one that
 * fires. Each refusal must name its fault. Files live in a temporary
 * directory (mkdtemp under /tmp) that is removed afterwards. */
#include <check.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "tables/build.h"
#include "tables/format.h"
#include "tables/tables.h"
#include "tables/writer.h"


/* ---- the temporary directory ------------------------------------------- */

static char tmpdir[64];

/* Unchecked fixtures run in the parent process, so the directory is removed
 * even when a test in a forked child fails. */
static void make_tmpdir(void)
{
    strcpy(tmpdir, "/tmp/grundy-test-tables-XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        exit(EXIT_FAILURE);
    }
}

/* Checked (in the child, before each test): every test starts from an
 * empty directory. */
static void empty_tmpdir(void)
{
    DIR *d = opendir(tmpdir);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                continue;
            char p[512];
            snprintf(p, sizeof p, "%s/%s", tmpdir, de->d_name);
            if (unlink(p) != 0)
                rmdir(p);
        }
        closedir(d);
    }
}

static void remove_tmpdir(void)
{
    empty_tmpdir();
    rmdir(tmpdir);
}

static const char *tmp_path(const char *name)
{
    static char p[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", tmpdir, name);
    return p[k];
}

/* Names of the entries of the temporary directory, sorted, in one string
 * separated by spaces. */
static void list_tmpdir(char *out, size_t n)
{
    struct dirent **list;
    int k = scandir(tmpdir, &list, NULL, alphasort);
    REQUIRE(k >= 0);
    out[0] = '\0';
    for (int i = 0; i < k; i++) {
        if (list[i]->d_name[0] != '.') {
            strncat(out, list[i]->d_name, n - strlen(out) - 1);
            strncat(out, " ", n - strlen(out) - 1);
        }
        free(list[i]);
    }
    free(list);
}

/* ---- file bytes ---------------------------------------------------------- */

static unsigned char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    REQUIRE(f != NULL);
    REQUIRE(fseek(f, 0, SEEK_END) == 0);
    long len = ftell(f);
    REQUIRE(len >= 0);
    rewind(f);
    unsigned char *buf = malloc((size_t)len + 1);
    REQUIRE(buf != NULL);
    REQUIRE(fread(buf, 1, (size_t)len, f) == (size_t)len);
    fclose(f);
    *size = (size_t)len;
    return buf;
}

static void write_bytes(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    REQUIRE(f != NULL);
    REQUIRE(size == 0 || fwrite(data, 1, size, f) == size);
    REQUIRE(fclose(f) == 0);
}

/* Opens a file that must be refused; returns the reason, or "(accepted)". */
static const char *refused(const char *path)
{
    static char why[512];
    gr_tables *t = (gr_tables *)1;
    memset(why, 0, sizeof why);
    int rc = gr_tables_open(path, &t, why, sizeof why);
    if (rc == 0) {
        gr_tables_close(t);
        return "(accepted)";
    }
    REQUIRE(rc == -1);
    REQUIRE(t == NULL);
    REQUIRE(why[0] != '\0');
    return why;
}

#define REQUIRE_REFUSED(path, needle)                                              \
    do {                                                                           \
        const char *why_ = refused(path);                                          \
        if (strstr(why_, (needle)) == NULL)                                        \
            ck_abort_msg("%s: refused with \"%s\", expected a reason containing \"%s\"", \
                         (path), why_, (needle));                                  \
    } while (0)

static gr_tables *open_ok(const char *path)
{
    char why[512] = "";
    gr_tables *t = NULL;
    if (gr_tables_open(path, &t, why, sizeof why) != 0)
        ck_abort_msg("%s refused: %s", path, why);
    REQUIRE(t != NULL);
    return t;
}

/* ---- the reference file -------------------------------------------------- */

/* Added in this order; written sorted by name: alpha, beta, fam, grid. */
#define BETA "beta:plain"
#define ALPHA "alpha:periodic"
#define GRID "grid"
#define FAM "fam"
#define NSECTIONS 4

#define ALPHA_COUNT 100u  /* periodic: preperiod 10, period 7 */
#define BETA_COUNT 1001u  /* odd: the section is followed by padding */
#define GRID_ROWS 7u
#define GRID_COLS 5u

static const uint64_t fam_keys[] = { 3, 64, 511 };
static const uint64_t fam_counts[] = { 50, 77, 1 };
#define FAM_VALUES (50u + 77u + 1u)

static uint16_t alpha_value(uint64_t n)
{
    return n < 10 ? (uint16_t)((n * 7) % 11) : (uint16_t)(((n - 10) % 7) * 3 + 1);
}

static uint16_t beta_value(uint64_t n)
{
    return n == 500 ? 60000 : (uint16_t)((n * n * 31 + 7) % 1000);
}

static uint16_t fam_value(size_t member, uint64_t n)
{
    if (member == 0) /* preperiod 2, period 4 */
        return n < 2 ? (uint16_t)(9 + n) : (uint16_t)((n - 2) % 4);
    if (member == 1)
        return (uint16_t)((n * 13 + 5) % 41);
    return 7;
}

static uint16_t grid_value(uint64_t r, uint64_t c)
{
    return (uint16_t)((r * 3) ^ (c * 5));
}

static uint16_t max_u16(const uint16_t *v, size_t n)
{
    uint16_t m = 0;
    for (size_t i = 0; i < n; i++)
        m = v[i] > m ? v[i] : m;
    return m;
}

static gr_seq alpha_seq(uint16_t *v)
{
    for (uint64_t n = 0; n < ALPHA_COUNT; n++)
        v[n] = alpha_value(n);
    return (gr_seq){ .values = v, .count = ALPHA_COUNT, .periodic = true, .preperiod = 10,
                     .period = 7, .max_value = max_u16(v, ALPHA_COUNT) };
}

static gr_seq beta_seq(uint16_t *v)
{
    for (uint64_t n = 0; n < BETA_COUNT; n++)
        v[n] = beta_value(n);
    /* preperiod and period are ignored when not periodic */
    return (gr_seq){ .values = v, .count = BETA_COUNT, .periodic = false, .preperiod = 5,
                     .period = 3, .max_value = max_u16(v, BETA_COUNT) };
}

static void fam_data(gr_tf_member *m, uint16_t *values)
{
    uint64_t at = 0;
    for (size_t i = 0; i < 3; i++) {
        for (uint64_t n = 0; n < fam_counts[i]; n++)
            values[at + n] = fam_value(i, n);
        m[i] = (gr_tf_member){ .key = fam_keys[i], .first = at, .count = fam_counts[i],
                               .max_value = max_u16(values + at, fam_counts[i]) };
        if (i == 0) {
            m[i].flags = GR_TF_PERIODIC;
            m[i].preperiod = 2;
            m[i].period = 4;
        }
        at += fam_counts[i];
    }
}

static void write_reference(const char *path)
{
    uint16_t a[ALPHA_COUNT], b[BETA_COUNT], fv[FAM_VALUES], g[GRID_ROWS * GRID_COLS];
    gr_tf_member m[3];
    gr_seq sa = alpha_seq(a), sb = beta_seq(b);
    fam_data(m, fv);
    for (uint64_t r = 0; r < GRID_ROWS; r++)
        for (uint64_t c = 0; c < GRID_COLS; c++)
            g[r * GRID_COLS + c] = grid_value(r, c);
    gr_tf_writer *w = gr_tf_writer_new();
    REQUIRE(w != NULL);
    REQUIRE(gr_tf_add_sequence(w, BETA, &sb) == 0);
    REQUIRE(gr_tf_add_grid(w, GRID, GRID_ROWS, GRID_COLS, g) == 0);
    REQUIRE(gr_tf_add_family(w, FAM, m, 3, fv, FAM_VALUES) == 0);
    REQUIRE(gr_tf_add_sequence(w, ALPHA, &sa) == 0);
    char why[512] = "";
    if (gr_tf_write(w, path, why, sizeof why) != 0)
        ck_abort_msg("writing %s: %s", path, why);
    gr_tf_writer_free(w);
}

/* The reference file's bytes, with views of its header and directory. */
typedef struct image {
    unsigned char *bytes;
    size_t size;
} image;

static image reference_image(void)
{
    const char *path = tmp_path("reference.tables");
    write_reference(path);
    image im;
    im.bytes = read_all(path, &im.size);
    unlink(path);
    return im;
}

static gr_tf_header *hdr(const image *im)
{
    return (gr_tf_header *)im->bytes;
}

static gr_tf_entry *entry(const image *im, size_t i)
{
    return (gr_tf_entry *)(im->bytes + sizeof(gr_tf_header)) + i;
}

static size_t entry_index(const image *im, const char *name)
{
    for (size_t i = 0; i < hdr(im)->section_count; i++)
        if (strcmp(entry(im, i)->name, name) == 0)
            return i;
    ck_abort_msg("no section %s in the image", name);
    return 0;
}

static size_t dir_end(const image *im)
{
    return sizeof(gr_tf_header) + hdr(im)->section_count * sizeof(gr_tf_entry);
}

/* Recomputes checksums after a patch: a section's (when it lies inside the
 * file), then the directory's, then the header's. */
static void seal_header(image *im)
{
    hdr(im)->header_checksum = gr_tf_checksum(im->bytes, offsetof(gr_tf_header, header_checksum));
}

static void seal_directory(image *im)
{
    hdr(im)->directory_checksum =
        gr_tf_checksum(im->bytes + sizeof(gr_tf_header), dir_end(im) - sizeof(gr_tf_header));
    seal_header(im);
}

static void seal_section(image *im, size_t i)
{
    gr_tf_entry *e = entry(im, i);
    REQUIRE(e->offset <= im->size && e->length <= im->size - e->offset);
    e->checksum = gr_tf_checksum(im->bytes + e->offset, e->length);
    seal_directory(im);
}

static const char *write_image(const image *im, const char *name)
{
    const char *path = tmp_path(name);
    write_bytes(path, im->bytes, im->size);
    return path;
}

/* ---- round trip ---------------------------------------------------------- */

START_TEST(test_round_trip_facts)
{
    const char *path = tmp_path("facts.tables");
    write_reference(path);
    struct stat st;
    REQUIRE(stat(path, &st) == 0);
    gr_tables *t = open_ok(path);
    REQUIRE(strcmp(gr_tables_path(t), path) == 0);
    REQUIRE_EQ(gr_tables_bytes(t), st.st_size);
    REQUIRE_EQ(st.st_size % GR_TF_ALIGN, 0);
    REQUIRE_EQ(gr_tables_count(t), NSECTIONS);

    /* Written sorted by name whatever the order they were added in. */
    static const char *const names[NSECTIONS] = { ALPHA, BETA, FAM, GRID };
    static const char *const kinds[NSECTIONS] = { "sequence", "sequence", "family", "grid" };
    gr_table_info info[NSECTIONS];
    for (size_t i = 0; i < NSECTIONS; i++) {
        gr_tables_info(t, i, &info[i]);
        ck_assert_str_eq(info[i].name, names[i]);
        ck_assert_str_eq(info[i].kind, kinds[i]);
    }
    uint16_t a[ALPHA_COUNT], b[BETA_COUNT];
    gr_seq sa = alpha_seq(a), sb = beta_seq(b);
    REQUIRE_EQ(sb.count, BETA_COUNT);

    REQUIRE_EQ(info[0].count, ALPHA_COUNT);
    REQUIRE(info[0].periodic);
    REQUIRE_EQ(info[0].preperiod, 10);
    REQUIRE_EQ(info[0].period, 7);
    REQUIRE_EQ(info[0].max_value, sa.max_value);
    REQUIRE_EQ(info[0].bytes, ALPHA_COUNT * 2);
    REQUIRE_EQ(info[0].checksum, gr_tf_checksum(a, sizeof a));

    REQUIRE_EQ(info[1].count, BETA_COUNT);
    REQUIRE(!info[1].periodic);
    REQUIRE_EQ(info[1].preperiod, 0); /* not stored when not periodic */
    REQUIRE_EQ(info[1].period, 0);
    REQUIRE_EQ(info[1].max_value, 60000);
    REQUIRE_EQ(info[1].bytes, BETA_COUNT * 2);
    REQUIRE_EQ(info[1].checksum, gr_tf_checksum(b, sizeof b));

    REQUIRE_EQ(info[2].count, 3);
    REQUIRE_EQ(info[2].param, FAM_VALUES);
    REQUIRE_EQ(info[2].bytes, 3 * sizeof(gr_tf_member) + FAM_VALUES * 2);

    REQUIRE_EQ(info[3].count, GRID_ROWS * GRID_COLS);
    REQUIRE_EQ(info[3].param, GRID_ROWS);
    REQUIRE_EQ(info[3].bytes, GRID_ROWS * GRID_COLS * 2);
    uint16_t gmax = 0;
    for (uint64_t r = 0; r < GRID_ROWS; r++)
        for (uint64_t c = 0; c < GRID_COLS; c++)
            gmax = grid_value(r, c) > gmax ? grid_value(r, c) : gmax;
    REQUIRE_EQ(info[3].max_value, gmax);

    /* Every section 64-byte aligned, inside the file, after the directory. */
    size_t size;
    unsigned char *bytes = read_all(path, &size);
    image im = { bytes, size };
    REQUIRE(memcmp(bytes, GR_TF_MAGIC, 8) == 0);
    REQUIRE_EQ(hdr(&im)->version, GR_TF_VERSION);
    REQUIRE_EQ(hdr(&im)->file_size, size);
    for (size_t i = 0; i < NSECTIONS; i++) {
        const gr_tf_entry *e = entry(&im, i);
        REQUIRE_EQ(e->offset % GR_TF_ALIGN, 0);
        REQUIRE(e->offset >= dir_end(&im));
        REQUIRE(e->offset + e->length <= size);
        REQUIRE(i == 0 || e->offset >= entry(&im, i - 1)->offset + entry(&im, i - 1)->length);
        REQUIRE_EQ(e->checksum, gr_tf_checksum(bytes + e->offset, e->length));
    }
    free(bytes);
    gr_tables_close(t);
}
END_TEST

START_TEST(test_round_trip_sequences)
{
    const char *path = tmp_path("seq.tables");
    write_reference(path);
    gr_tables *t = open_ok(path);
    gr_seq v;
    memset(&v, 0xAB, sizeof v);
    REQUIRE(gr_tables_sequence(t, ALPHA, &v));
    REQUIRE_EQ(v.count, ALPHA_COUNT);
    REQUIRE(v.periodic);
    REQUIRE_EQ(v.preperiod, 10);
    REQUIRE_EQ(v.period, 7);
    REQUIRE(v.owned == NULL);
    for (uint64_t n = 0; n < ALPHA_COUNT; n++)
        REQUIRE_EQ(v.values[n], alpha_value(n));
    /* Past the stored values, through the period. */
    uint16_t g;
    REQUIRE_EQ(gr_seq_value(&v, 1000000007, &g), GR_OK);
    REQUIRE_EQ(g, alpha_value(10 + (1000000007 - 10) % 7));

    REQUIRE(gr_tables_sequence(t, BETA, &v));
    REQUIRE_EQ(v.count, BETA_COUNT);
    REQUIRE(!v.periodic);
    REQUIRE_EQ(v.max_value, 60000);
    for (uint64_t n = 0; n < BETA_COUNT; n++)
        REQUIRE_EQ(v.values[n], beta_value(n));
    REQUIRE_EQ(gr_seq_value(&v, BETA_COUNT - 1, &g), GR_OK);
    REQUIRE_EQ(gr_seq_value(&v, BETA_COUNT, &g), GR_EBOUND);
    gr_tables_close(t);
}
END_TEST

START_TEST(test_round_trip_family)
{
    const char *path = tmp_path("fam.tables");
    write_reference(path);
    gr_tables *t = open_ok(path);
    gr_seq v;
    for (size_t i = 0; i < 3; i++) {
        memset(&v, 0xAB, sizeof v);
        REQUIRE(gr_tables_member(t, FAM, fam_keys[i], &v));
        REQUIRE_EQ(v.count, fam_counts[i]);
        REQUIRE_EQ(v.periodic, i == 0);
        REQUIRE_EQ(v.preperiod, i == 0 ? 2 : 0);
        REQUIRE_EQ(v.period, i == 0 ? 4 : 0);
        REQUIRE(v.owned == NULL);
        uint16_t m = 0;
        for (uint64_t n = 0; n < fam_counts[i]; n++) {
            REQUIRE_EQ(v.values[n], fam_value(i, n));
            m = fam_value(i, n) > m ? fam_value(i, n) : m;
        }
        REQUIRE_EQ(v.max_value, m);
    }
    /* Keys between, before and after the stored ones miss. */
    static const uint64_t misses[] = { 0, 1, 2, 4, 63, 65, 510, 512, UINT64_MAX };
    for (size_t i = 0; i < sizeof misses / sizeof misses[0]; i++)
        REQUIRE(!gr_tables_member(t, FAM, misses[i], &v));
    gr_tables_close(t);
}
END_TEST

START_TEST(test_round_trip_grid)
{
    const char *path = tmp_path("grid.tables");
    write_reference(path);
    gr_tables *t = open_ok(path);
    uint16_t v;
    for (uint64_t r = 0; r < GRID_ROWS; r++)
        for (uint64_t c = 0; c < GRID_COLS; c++) {
            v = 0xFFFF;
            REQUIRE(gr_tables_grid(t, GRID, r, c, &v));
            REQUIRE_EQ(v, grid_value(r, c));
        }
    /* Out-of-range cells: false, and *v untouched. */
    static const uint64_t out[][2] = {
        { GRID_ROWS, 0 }, { 0, GRID_COLS }, { GRID_ROWS, GRID_COLS }, { GRID_ROWS - 1, GRID_COLS },
        { GRID_ROWS, GRID_COLS - 1 }, { 1, GRID_COLS + 3 }, /* would alias a cell of row 2 */
        { UINT64_MAX, 0 }, { 0, UINT64_MAX }, { UINT64_MAX, UINT64_MAX },
    };
    for (size_t i = 0; i < sizeof out / sizeof out[0]; i++) {
        v = 0x5A5A;
        REQUIRE(!gr_tables_grid(t, GRID, out[i][0], out[i][1], &v));
        REQUIRE_EQ(v, 0x5A5A);
    }
    gr_tables_close(t);
}
END_TEST

START_TEST(test_lookup_misses)
{
    const char *path = tmp_path("miss.tables");
    write_reference(path);
    gr_tables *t = open_ok(path);
    gr_seq s;
    uint16_t v;
    /* Unknown names, before, between and after the stored ones. */
    static const char *const unknown[] = { "", "a", "alpha", "alpha:periodicx", "b", "fa", "famx",
                                           "gria", "grid ", "zzz", "GRID" };
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        REQUIRE(!gr_tables_sequence(t, unknown[i], &s));
        REQUIRE(!gr_tables_member(t, unknown[i], 3, &s));
        REQUIRE(!gr_tables_grid(t, unknown[i], 0, 0, &v));
    }
    /* A name of another kind. */
    REQUIRE(!gr_tables_sequence(t, FAM, &s));
    REQUIRE(!gr_tables_sequence(t, GRID, &s));
    REQUIRE(!gr_tables_member(t, ALPHA, 0, &s));
    REQUIRE(!gr_tables_member(t, GRID, 0, &s));
    REQUIRE(!gr_tables_grid(t, ALPHA, 0, 0, &v));
    REQUIRE(!gr_tables_grid(t, FAM, 0, 0, &v));
    /* The real section names are not in this file. */
    REQUIRE(!gr_tables_sequence(t, GR_TN_GRUNDYS, &s));
    REQUIRE(!gr_tables_member(t, GR_TN_OCTAL_FAMILY, 0777, &s));
    REQUIRE(!gr_tables_grid(t, GR_TN_WYTHOFF, 0, 0, &v));
    gr_tables_close(t);
    /* No tables at all: every lookup misses. */
    REQUIRE(!gr_tables_sequence(NULL, ALPHA, &s));
    REQUIRE(!gr_tables_member(NULL, FAM, 3, &s));
    REQUIRE(!gr_tables_grid(NULL, GRID, 0, 0, &v));
    gr_tables_close(NULL);
}
END_TEST

/* The writer renames a complete temporary file over the target: nothing else
 * is left in the directory, a second write replaces the first, and a reader
 * that has the old file mapped keeps reading the old values. */
START_TEST(test_writer_atomic_replace)
{
    const char *path = tmp_path("atomic.tables");
    write_reference(path);
    char listing[1024];
    list_tmpdir(listing, sizeof listing);
    ck_assert_str_eq(listing, "atomic.tables ");
    gr_tables *old = open_ok(path);
    struct stat st1, st2;
    REQUIRE(stat(path, &st1) == 0);

    uint16_t vals[3] = { 4, 5, 6 };
    gr_seq s = { .values = vals, .count = 3, .max_value = 6 };
    gr_tf_writer *w = gr_tf_writer_new();
    REQUIRE(gr_tf_add_sequence(w, ALPHA, &s) == 0);
    char why[512];
    REQUIRE(gr_tf_write(w, path, why, sizeof why) == 0);
    gr_tf_writer_free(w);
    list_tmpdir(listing, sizeof listing);
    ck_assert_str_eq(listing, "atomic.tables ");
    REQUIRE(stat(path, &st2) == 0);
    REQUIRE(st1.st_ino != st2.st_ino); /* a new file, renamed over the old one */

    gr_tables *now = open_ok(path);
    REQUIRE_EQ(gr_tables_count(now), 1);
    gr_seq v;
    REQUIRE(gr_tables_sequence(now, ALPHA, &v));
    REQUIRE_EQ(v.count, 3);
    REQUIRE_EQ(v.values[2], 6);
    REQUIRE(!gr_tables_sequence(now, BETA, &v));
    gr_tables_close(now);

    REQUIRE_EQ(gr_tables_count(old), NSECTIONS);
    REQUIRE(gr_tables_sequence(old, BETA, &v));
    for (uint64_t n = 0; n < BETA_COUNT; n++)
        REQUIRE_EQ(v.values[n], beta_value(n));
    gr_tables_close(old);

    /* A write that cannot happen leaves nothing behind and says why. */
    w = gr_tf_writer_new();
    REQUIRE(gr_tf_add_sequence(w, ALPHA, &s) == 0);
    why[0] = '\0';
    REQUIRE(gr_tf_write(w, tmp_path("no-such-dir/x.tables"), why, sizeof why) == -1);
    REQUIRE(strstr(why, "no-such-dir") != NULL);
    gr_tf_writer_free(w);
    list_tmpdir(listing, sizeof listing);
    ck_assert_str_eq(listing, "atomic.tables ");
}
END_TEST

START_TEST(test_writer_rejects)
{
    uint16_t vals[2] = { 0, 1 };
    gr_seq s = { .values = vals, .count = 2, .max_value = 1 };
    char longname[GR_TF_NAME_LEN + 1];
    memset(longname, 'x', GR_TF_NAME_LEN);
    longname[GR_TF_NAME_LEN] = '\0';
    gr_tf_writer *w = gr_tf_writer_new();
    REQUIRE(gr_tf_add_sequence(w, "a", &s) == 0);
    REQUIRE(gr_tf_add_sequence(w, "a", &s) == -1);              /* repeated */
    REQUIRE(gr_tf_add_grid(w, "a", 1, 2, vals) == -1);           /* repeated, other kind */
    REQUIRE(gr_tf_add_sequence(w, longname, &s) == -1);         /* no room for the NUL */
    longname[GR_TF_NAME_LEN - 1] = '\0';
    REQUIRE(gr_tf_add_sequence(w, longname, &s) == 0);          /* 47 characters fit */
    const char *path = tmp_path("rejects.tables");
    char why[512];
    REQUIRE(gr_tf_write(w, path, why, sizeof why) == 0);
    gr_tf_writer_free(w);
    gr_tables *t = open_ok(path);
    REQUIRE_EQ(gr_tables_count(t), 2);
    gr_seq v;
    REQUIRE(gr_tables_sequence(t, longname, &v));
    REQUIRE_EQ(v.values[1], 1);
    gr_tables_close(t);

    /* A file without sections is refused by the reader. */
    w = gr_tf_writer_new();
    REQUIRE(gr_tf_write(w, path, why, sizeof why) == 0);
    gr_tf_writer_free(w);
    REQUIRE_REFUSED(path, "section count 0");
}
END_TEST

/* Any single flipped byte, and the length, change the checksum. */
START_TEST(test_checksum)
{
    unsigned char buf[100];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(i * 37 + 11);
    uint64_t base = gr_tf_checksum(buf, sizeof buf);
    REQUIRE_EQ(gr_tf_checksum(buf, sizeof buf), base);
    for (size_t i = 0; i < sizeof buf; i++)
        for (unsigned bit = 0; bit < 8; bit++) {
            buf[i] ^= (unsigned char)(1u << bit);
            REQUIRE(gr_tf_checksum(buf, sizeof buf) != base);
            buf[i] ^= (unsigned char)(1u << bit);
        }
    unsigned char zeros[16] = { 0 };
    for (size_t n = 1; n < sizeof zeros; n++)
        REQUIRE(gr_tf_checksum(zeros, n) != gr_tf_checksum(zeros, n - 1));
}
END_TEST

/* ---- refusals: files that are not whole table files ----------------------- */

START_TEST(test_refuse_missing)
{
    REQUIRE_REFUSED(tmp_path("does-not-exist.tables"), "cannot open it");
    REQUIRE_REFUSED(tmp_path("does-not-exist.tables"), "No such file");
}
END_TEST

START_TEST(test_refuse_directory)
{
    const char *path = tmp_path("a-directory");
    REQUIRE(mkdir(path, 0700) == 0);
    REQUIRE_REFUSED(path, "not a regular file");
}
END_TEST

START_TEST(test_refuse_empty)
{
    const char *path = tmp_path("empty.tables");
    write_bytes(path, "", 0);
    REQUIRE_REFUSED(path, "truncated: the file is empty");
}
END_TEST

START_TEST(test_refuse_not_a_table)
{
    static const char *const texts[] = {
        "hello, world\n", "{\"sections\":[]}", "GRUNDYX", "grundytb and more bytes",
        "\x7f" "ELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        const char *path = tmp_path("garbage.tables");
        write_bytes(path, texts[i], strlen(texts[i]));
        REQUIRE_REFUSED(path, "not a grundy table file");
    }
    /* A whole file of the right size with the magic one byte off. */
    image im = reference_image();
    memmove(im.bytes + 1, im.bytes, 8);
    im.bytes[0] = 'X';
    REQUIRE_REFUSED(write_image(&im, "shifted.tables"), "not a grundy table file");
    free(im.bytes);
}
END_TEST

START_TEST(test_reference_image_opens)
{
    /* Controls for the refusals below: the image as read, and as resealed
     * without a change, are accepted. */
    image im = reference_image();
    gr_tables_close(open_ok(write_image(&im, "control.tables")));
    seal_section(&im, entry_index(&im, FAM));
    seal_directory(&im);
    gr_tables_close(open_ok(write_image(&im, "control.tables")));
    free(im.bytes);
}
END_TEST

START_TEST(test_refuse_truncated)
{
    image im = reference_image();
    size_t cuts[64], n = 0;
    /* Inside the header. */
    cuts[n++] = 8;
    cuts[n++] = 20;
    cuts[n++] = sizeof(gr_tf_header) - 1;
    /* At and inside the directory. */
    cuts[n++] = sizeof(gr_tf_header);
    cuts[n++] = sizeof(gr_tf_header) + 1;
    cuts[n++] = sizeof(gr_tf_header) + sizeof(gr_tf_entry) + 17;
    cuts[n++] = dir_end(&im) - 1;
    /* At, inside and just after every section. */
    for (size_t i = 0; i < NSECTIONS; i++) {
        const gr_tf_entry *e = entry(&im, i);
        cuts[n++] = e->offset;
        cuts[n++] = e->offset + 1;
        cuts[n++] = e->offset + e->length / 2;
        cuts[n++] = e->offset + e->length - 1;
        if (e->offset + e->length < im.size)
            cuts[n++] = e->offset + e->length;
    }
    cuts[n++] = im.size - 1;
    for (size_t k = 0; k < n; k++) {
        REQUIRE(cuts[k] < im.size);
        const char *path = tmp_path("cut.tables");
        write_bytes(path, im.bytes, cuts[k]);
        const char *why = refused(path);
        if (strstr(why, "truncated") == NULL)
            ck_abort_msg("cut at %zu of %zu: refused with \"%s\", not as truncated", cuts[k],
                         im.size, why);
    }
    /* Shorter than the magic but a prefix of it: a truncated table file. */
    write_bytes(tmp_path("cut.tables"), im.bytes, 4);
    REQUIRE_REFUSED(tmp_path("cut.tables"), "truncated");
    /* Extended by a byte and by a block. */
    unsigned char *longer = calloc(im.size + 64, 1);
    memcpy(longer, im.bytes, im.size);
    write_bytes(tmp_path("long.tables"), longer, im.size + 1);
    REQUIRE_REFUSED(tmp_path("long.tables"), "truncated or extended");
    write_bytes(tmp_path("long.tables"), longer, im.size + 64);
    REQUIRE_REFUSED(tmp_path("long.tables"), "truncated or extended");
    free(longer);
    free(im.bytes);
}
END_TEST

/* ---- refusals: a single flipped byte --------------------------------------- */

/* The reason a header byte flip must be refused with: the checks before
 * the checksum name their own fault. */
static const char *header_flip_reason(size_t pos)
{
    if (pos < offsetof(gr_tf_header, version))
        return "not a grundy table file";
    if (pos < offsetof(gr_tf_header, byte_order))
        return "format version";
    if (pos < offsetof(gr_tf_header, section_count))
        return "other byte order";
    return "header checksum does not match";
}

static void flip_and_expect(image *im, size_t pos, unsigned char mask, const char *needle)
{
    im->bytes[pos] ^= mask;
    const char *why = refused(write_image(im, "flip.tables"));
    im->bytes[pos] ^= mask;
    if (strstr(why, needle) == NULL)
        ck_abort_msg("byte %zu ^ 0x%02x: refused with \"%s\", expected \"%s\"", pos, mask, why, needle);
}

START_TEST(test_refuse_flipped_header)
{
    image im = reference_image();
    for (size_t pos = 0; pos < sizeof(gr_tf_header); pos++) {
        flip_and_expect(&im, pos, 0xFF, header_flip_reason(pos));
        flip_and_expect(&im, pos, 0x01, header_flip_reason(pos));
        flip_and_expect(&im, pos, 0x80, header_flip_reason(pos));
    }
    free(im.bytes);
}
END_TEST

START_TEST(test_refuse_flipped_directory)
{
    image im = reference_image();
    for (size_t pos = sizeof(gr_tf_header); pos < dir_end(&im); pos++) {
        flip_and_expect(&im, pos, 0xFF, "directory checksum does not match");
        flip_and_expect(&im, pos, 0x01, "directory checksum does not match");
    }
    free(im.bytes);
}
END_TEST

START_TEST(test_refuse_flipped_data)
{
    image im = reference_image();
    size_t tried = 0;
    for (size_t i = 0; i < NSECTIONS; i++) {
        const gr_tf_entry e = *entry(&im, i);
        char needle[128];
        snprintf(needle, sizeof needle, "checksum of section %s does not match", e.name);
        /* 32 spread positions, the first and last bytes, and every byte of
         * the first 64 (a family's first member record). The zero padding
         * after a section up to the next multiple of 64 is in no section and
         * under no checksum, so it is not flipped here. */
        for (size_t k = 0; k < 32; k++, tried++)
            flip_and_expect(&im, e.offset + k * e.length / 32, 0xFF, needle);
        for (size_t k = 0; k < 64 && k < e.length; k++, tried++)
            flip_and_expect(&im, e.offset + k, 0x01, needle);
        flip_and_expect(&im, e.offset + e.length - 1, 0x01, needle);
        flip_and_expect(&im, e.offset + e.length - 1, 0xFF, needle);
        tried += 2;
    }
    REQUIRE(tried > 300);
    free(im.bytes);
}
END_TEST

/* ---- refusals: wrong contents under recomputed checksums ------------------ */

static void patch_version_2(image *im) { hdr(im)->version = 2; seal_header(im); }
static void patch_version_0(image *im) { hdr(im)->version = 0; seal_header(im); }
static void patch_version_swapped(image *im) { hdr(im)->version = 0x01000000u; seal_header(im); }
static void patch_version_unsealed(image *im) { hdr(im)->version = GR_TF_VERSION + 1; }
static void patch_byte_order(image *im) { hdr(im)->byte_order = 0x04030201u; seal_header(im); }

/* The whole header as a big-endian writer would have laid it out. */
static void patch_big_endian(image *im)
{
    gr_tf_header *h = hdr(im);
    h->version = __builtin_bswap32(h->version);
    h->byte_order = __builtin_bswap32(h->byte_order);
    h->section_count = __builtin_bswap32(h->section_count);
    h->header_size = __builtin_bswap32(h->header_size);
    h->file_size = __builtin_bswap64(h->file_size);
    h->directory_offset = __builtin_bswap64(h->directory_offset);
}

static void patch_file_size(image *im) { hdr(im)->file_size -= 64; seal_header(im); }
static void patch_header_size(image *im) { hdr(im)->header_size = 128; seal_header(im); }
static void patch_directory_offset(image *im) { hdr(im)->directory_offset = 128; seal_header(im); }
static void patch_no_sections(image *im) { hdr(im)->section_count = 0; seal_header(im); }
static void patch_too_many_sections(image *im) { hdr(im)->section_count = 1000000; seal_header(im); }

static void patch_sections_past_file(image *im)
{
    hdr(im)->section_count = (uint32_t)(im->size / sizeof(gr_tf_entry)); /* directory runs past the end */
    seal_header(im);
}

static void patch_fewer_sections(image *im)
{
    /* Three sections: the directory checksum now covers fewer bytes. */
    hdr(im)->section_count = NSECTIONS - 1;
    seal_header(im);
}

static void set_offset(image *im, const char *name, uint64_t offset)
{
    entry(im, entry_index(im, name))->offset = offset;
    seal_directory(im);
}

static void set_length(image *im, const char *name, uint64_t length)
{
    entry(im, entry_index(im, name))->length = length;
    seal_directory(im);
}

static void patch_offset_at_end(image *im) { set_offset(im, GRID, im->size); }
static void patch_offset_past_end(image *im) { set_offset(im, GRID, im->size + GR_TF_ALIGN); }
static void patch_offset_huge(image *im) { set_offset(im, BETA, UINT64_MAX - GR_TF_ALIGN + 1); }
static void patch_offset_in_header(image *im) { set_offset(im, ALPHA, 0); }
static void patch_offset_in_directory(image *im) { set_offset(im, FAM, sizeof(gr_tf_header)); }

static void patch_offset_misaligned(image *im)
{
    set_offset(im, FAM, entry(im, entry_index(im, FAM))->offset + 2);
}

static void patch_offset_misaligned_last(image *im)
{
    set_offset(im, GRID, entry(im, entry_index(im, GRID))->offset + 32);
}

static void patch_length_past_end(image *im)
{
    const gr_tf_entry *e = entry(im, entry_index(im, GRID));
    set_length(im, GRID, im->size - e->offset + 1);
}

static void patch_length_huge(image *im) { set_length(im, ALPHA, UINT64_MAX); }

static void patch_length_wraps(image *im)
{
    const gr_tf_entry *e = entry(im, entry_index(im, BETA));
    set_length(im, BETA, UINT64_MAX - e->offset + 2); /* offset + length wraps to 1 */
}

/* Member `m` of the family section, then the section, directory and header
 * resealed. */
static gr_tf_member *member(image *im, size_t m)
{
    const gr_tf_entry *e = entry(im, entry_index(im, FAM));
    return (gr_tf_member *)(im->bytes + e->offset) + m;
}

static void seal_family(image *im) { seal_section(im, entry_index(im, FAM)); }

static void patch_member_first_past_values(image *im)
{
    member(im, 0)->first = FAM_VALUES + 1;
    seal_family(im);
}

static void patch_member_runs_past_values(image *im)
{
    member(im, 2)->first = FAM_VALUES; /* count 1 from the end of the values */
    seal_family(im);
}

static void patch_member_count_past_values(image *im)
{
    member(im, 1)->count = FAM_VALUES; /* starts at 50 */
    seal_family(im);
}

static void patch_member_first_huge(image *im)
{
    member(im, 1)->first = UINT64_MAX;
    seal_family(im);
}

static void patch_member_count_huge(image *im)
{
    member(im, 0)->count = UINT64_MAX;
    seal_family(im);
}

static void patch_member_wraps(image *im)
{
    member(im, 2)->first = UINT64_MAX - 1;
    member(im, 2)->count = 3; /* first + count wraps to 1 */
    seal_family(im);
}

static void patch_member_empty(image *im)
{
    member(im, 2)->count = 0;
    seal_family(im);
}

static void patch_member_keys_unsorted(image *im)
{
    member(im, 1)->key = 3; /* equal to member 0's */
    seal_family(im);
}

static void patch_member_period_zero(image *im)
{
    member(im, 0)->period = 0;
    seal_family(im);
}

static void patch_member_period_too_long(image *im)
{
    member(im, 0)->period = 49; /* preperiod 2 + 49 > 50 values */
    seal_family(im);
}

static void patch_member_max(image *im)
{
    member(im, 1)->max_value += 1;
    seal_family(im);
}

static void patch_family_param(image *im)
{
    entry(im, entry_index(im, FAM))->param = FAM_VALUES + 32;
    seal_directory(im);
}

static void patch_family_count(image *im)
{
    entry(im, entry_index(im, FAM))->count = 4;
    seal_directory(im);
}

static void patch_names_unsorted(image *im)
{
    gr_tf_entry tmp = *entry(im, 0);
    *entry(im, 0) = *entry(im, 1);
    *entry(im, 1) = tmp;
    seal_directory(im);
}

static void patch_names_unsorted_last(image *im)
{
    gr_tf_entry tmp = *entry(im, NSECTIONS - 1);
    *entry(im, NSECTIONS - 1) = *entry(im, NSECTIONS - 2);
    *entry(im, NSECTIONS - 2) = tmp;
    seal_directory(im);
}

static void patch_names_repeated(image *im)
{
    strcpy(entry(im, 1)->name, entry(im, 0)->name);
    seal_directory(im);
}

static void patch_name_unterminated(image *im)
{
    memset(entry(im, 2)->name, 'f', GR_TF_NAME_LEN);
    seal_directory(im);
}

static void patch_name_empty(image *im)
{
    memset(entry(im, 0)->name, 0, GR_TF_NAME_LEN);
    seal_directory(im);
}

static void patch_kind_unknown(image *im)
{
    entry(im, entry_index(im, BETA))->kind = 9;
    seal_directory(im);
}

static void patch_sequence_as_family(image *im)
{
    entry(im, entry_index(im, ALPHA))->kind = GR_TF_FAMILY;
    seal_directory(im);
}

static void patch_sequence_as_grid(image *im)
{
    entry(im, entry_index(im, BETA))->kind = GR_TF_GRID; /* no rows */
    seal_directory(im);
}

static void patch_sequence_count(image *im)
{
    entry(im, entry_index(im, BETA))->count = BETA_COUNT + 1;
    seal_directory(im);
}

static void patch_sequence_max(image *im)
{
    entry(im, entry_index(im, ALPHA))->max_value -= 1;
    seal_directory(im);
}

static void patch_sequence_periodic_facts(image *im)
{
    entry(im, entry_index(im, ALPHA))->period = ALPHA_COUNT; /* preperiod + period > count */
    seal_directory(im);
}

static void patch_sequence_facts_without_flag(image *im)
{
    entry(im, entry_index(im, ALPHA))->flags = 0; /* preperiod and period left set */
    seal_directory(im);
}

static void patch_grid_rows_zero(image *im)
{
    entry(im, entry_index(im, GRID))->param = 0;
    seal_directory(im);
}

static void patch_grid_rows_not_dividing(image *im)
{
    entry(im, entry_index(im, GRID))->param = 6;
    seal_directory(im);
}

static void patch_grid_count(image *im)
{
    entry(im, entry_index(im, GRID))->count = GRID_ROWS * (GRID_COLS + 1);
    seal_directory(im);
}

static const struct patch_case {
    const char *what;
    void (*patch)(image *);
    const char *needle;
} patches[] = {
    { "version 2", patch_version_2, "format version 2, but this build reads version 1" },
    { "version 0", patch_version_0, "format version 0, but this build reads version 1" },
    { "version byte-swapped", patch_version_swapped, "format version 16777216" },
    { "version without resealing", patch_version_unsealed, "format version 2" },
    { "other byte order", patch_byte_order, "written with the other byte order" },
    { "big-endian header", patch_big_endian, "written with the other byte order" },
    { "file size", patch_file_size, "truncated or extended" },
    { "header size", patch_header_size, "unexpected header or directory placement" },
    { "directory offset", patch_directory_offset, "unexpected header or directory placement" },
    { "no sections", patch_no_sections, "section count 0 does not fit" },
    { "too many sections", patch_too_many_sections, "section count 1000000 does not fit" },
    { "directory past the end", patch_sections_past_file, "does not fit the file" },
    { "section count changed", patch_fewer_sections, "directory checksum does not match" },
    { "offset at the end", patch_offset_at_end, "section grid lies outside the file" },
    { "offset past the end", patch_offset_past_end, "section grid lies outside the file" },
    { "offset huge", patch_offset_huge, "section beta:plain lies outside the file" },
    { "offset in the header", patch_offset_in_header, "section alpha:periodic lies outside the file" },
    { "offset in the directory", patch_offset_in_directory, "section fam lies outside the file" },
    { "offset misaligned", patch_offset_misaligned, "section fam lies outside the file" },
    { "offset misaligned, last", patch_offset_misaligned_last, "section grid lies outside the file" },
    { "length past the end", patch_length_past_end, "section grid lies outside the file" },
    { "length huge", patch_length_huge, "section alpha:periodic lies outside the file" },
    { "offset + length wraps", patch_length_wraps, "section beta:plain lies outside the file" },
    { "member first past the values", patch_member_first_past_values, "inconsistent member (key 3)" },
    { "member runs past the values", patch_member_runs_past_values, "inconsistent member (key 511)" },
    { "member count past the values", patch_member_count_past_values, "inconsistent member (key 64)" },
    { "member first huge", patch_member_first_huge, "inconsistent member (key 64)" },
    { "member count huge", patch_member_count_huge, "inconsistent member (key 3)" },
    { "member first + count wraps", patch_member_wraps, "inconsistent member (key 511)" },
    { "member empty", patch_member_empty, "inconsistent member (key 511)" },
    { "member keys not increasing", patch_member_keys_unsorted, "inconsistent member (key 3)" },
    { "member period 0", patch_member_period_zero, "inconsistent member (key 3)" },
    { "member period too long", patch_member_period_too_long, "inconsistent member (key 3)" },
    { "member largest value", patch_member_max, "member 64 has a wrong largest value" },
    { "family values count", patch_family_param, "section fam has inconsistent facts" },
    { "family members count", patch_family_count, "section fam has inconsistent facts" },
    { "names unsorted", patch_names_unsorted, "not sorted by name at alpha:periodic" },
    { "names unsorted at the end", patch_names_unsorted_last, "not sorted by name at fam" },
    { "names repeated", patch_names_repeated, "not sorted by name at alpha:periodic" },
    { "name unterminated", patch_name_unterminated, "a section name is empty or not terminated" },
    { "name empty", patch_name_empty, "a section name is empty or not terminated" },
    { "unknown kind", patch_kind_unknown, "section beta:plain has unknown kind 9" },
    { "sequence read as a family", patch_sequence_as_family, "section alpha:periodic has inconsistent facts" },
    { "sequence read as a grid", patch_sequence_as_grid, "section beta:plain has inconsistent facts" },
    { "sequence count", patch_sequence_count, "section beta:plain has inconsistent facts" },
    { "sequence largest value", patch_sequence_max, "section alpha:periodic has a wrong largest value" },
    { "sequence period too long", patch_sequence_periodic_facts, "section alpha:periodic has inconsistent facts" },
    { "sequence period facts without the flag", patch_sequence_facts_without_flag,
      "section alpha:periodic has inconsistent facts" },
    { "grid rows 0", patch_grid_rows_zero, "section grid has inconsistent facts" },
    { "grid rows not dividing", patch_grid_rows_not_dividing, "section grid has inconsistent facts" },
    { "grid count", patch_grid_count, "section grid has inconsistent facts" },
};

START_TEST(test_refuse_patched)
{
    const struct patch_case *pc = &patches[_i];
    image im = reference_image();
    pc->patch(&im);
    const char *why = refused(write_image(&im, "patched.tables"));
    if (strstr(why, pc->needle) == NULL)
        ck_abort_msg("%s: refused with \"%s\", expected \"%s\"", pc->what, why, pc->needle);
    free(im.bytes);
}
END_TEST

/* ---- the builder ----------------------------------------------------------- */

static uint16_t *naive_grundys(uint64_t count)
{
    uint16_t *g = malloc(count * sizeof *g);
    REQUIRE(g != NULL);
    for (uint64_t n = 0; n < count; n++) {
        bool seen[256] = { false };
        for (uint64_t a = 1; 2 * a < n; a++)
            seen[g[a] ^ g[n - a]] = true;
        uint16_t m = 0;
        while (seen[m])
            m++;
        g[n] = m;
    }
    return g;
}

/* A small build has every section the daemon reads, with values that agree
 * with brute force, and leaves only the target file behind. */
START_TEST(test_build_small)
{
    gr_build_options o;
    gr_build_options_default(&o);
    REQUIRE_EQ(o.grundys_values, UINT64_C(1) << 22);
    o.grundys_values = 600;
    o.octal_values = 256;
    o.wythoff_size = 16;
    o.divisor_max = 1000;
    for (int r = 0; r < 3; r++) {
        o.rule_grundy[r] = 500;
        o.rule_outcome[r] = 5000;
    }
    char progress[4096] = "";
    o.progress = fmemopen(progress, sizeof progress - 1, "w");
    REQUIRE(o.progress != NULL);
    const char *path = tmp_path("built.tables");
    char why[512] = "";
    if (gr_tables_build(path, &o, why, sizeof why) != 0)
        ck_abort_msg("build failed: %s", why);
    fclose(o.progress);
    REQUIRE(strstr(progress, "tables: Grundy's game") != NULL);
    REQUIRE(strstr(progress, "tables: written") != NULL);
    char listing[1024];
    list_tmpdir(listing, sizeof listing);
    ck_assert_str_eq(listing, "built.tables ");

    gr_tables *t = open_ok(path);
    static const char *const names[] = {
        GR_TN_DIVISOR, GR_TN_GRUNDYS, "octal:0.007", "octal:0.07", "octal:0.127", "octal:0.137",
        "octal:0.16", "octal:0.376", "octal:0.56", "octal:0.6", "octal:0.77", "octal:0.7777",
        GR_TN_OCTAL_FAMILY, GR_TN_SUBTRACTION_FAMILY,
        "subtraction:powers_of_two:grundy", "subtraction:powers_of_two:outcome",
        "subtraction:primes:grundy", "subtraction:primes:outcome", "subtraction:squares:grundy",
        "subtraction:squares:outcome", GR_TN_WYTHOFF,
    };
    /* the misere quotients ("misere:octal:CODE", between grundys_game and
     * the octal sections) are the periodic ones among the 1-2 digit codes */
    size_t misere = 0, at = 0;
    for (size_t i = 0; i < gr_tables_count(t); i++) {
        gr_table_info info;
        gr_tables_info(t, i, &info);
        if (strncmp(info.name, GR_TN_MISERE_PREFIX, strlen(GR_TN_MISERE_PREFIX)) == 0) {
            ck_assert_str_eq(info.kind, "misere_quotient");
            REQUIRE(info.periodic);
            misere++;
            continue;
        }
        REQUIRE(at < sizeof names / sizeof names[0]);
        ck_assert_str_eq(info.name, names[at++]);
    }
    REQUIRE_EQ(at, sizeof names / sizeof names[0]);
    REQUIRE(misere >= 1);
    gr_mq kayles;
    REQUIRE(gr_tables_misere(t, GR_TN_MISERE_PREFIX "0.77", &kayles));
    REQUIRE_EQ(kayles.order, 40);
    REQUIRE_EQ(kayles.p_size, 9);
    REQUIRE(kayles.periodic);
    REQUIRE_EQ(kayles.preperiod, 71);
    REQUIRE_EQ(kayles.period, 12);
    REQUIRE_EQ(gr_mq_phi(&kayles, 0), 0);
    REQUIRE(!gr_tables_misere(t, GR_TN_MISERE_PREFIX "0.07", &kayles)); /* no known period */

    gr_seq s;
    REQUIRE(gr_tables_sequence(t, GR_TN_GRUNDYS, &s));
    REQUIRE_EQ(s.count, 600);
    REQUIRE(!s.periodic);
    uint16_t *g = naive_grundys(600);
    for (uint64_t n = 0; n < 600; n++)
        REQUIRE_EQ(s.values[n], g[n]);
    free(g);

    REQUIRE(gr_tables_sequence(t, "octal:0.77", &s)); /* Kayles */
    REQUIRE(s.periodic);
    REQUIRE_EQ(s.preperiod, 71);
    REQUIRE_EQ(s.period, 12);
    REQUIRE(gr_tables_sequence(t, "octal:0.07", &s)); /* Dawson's Kayles */
    REQUIRE(s.periodic);
    REQUIRE_EQ(s.preperiod, 53);
    REQUIRE_EQ(s.period, 34);
    REQUIRE(gr_tables_sequence(t, "octal:0.137", &s)); /* Dawson's chess */
    REQUIRE(s.periodic);
    REQUIRE_EQ(s.preperiod, 52);
    REQUIRE_EQ(s.period, 34);
    REQUIRE(gr_tables_sequence(t, "octal:0.6", &s)); /* Officers: no period known */
    REQUIRE(!s.periodic);
    REQUIRE_EQ(s.count, 256);
    /* The long periods get 128 times octal_values: too few here to certify
     * 0.376 (period 4 from 2,268,248), enough for its first values. */
    REQUIRE(gr_tables_sequence(t, "octal:0.376", &s));
    REQUIRE(!s.periodic);
    REQUIRE_EQ(s.count, 128 * 256);

    /* The family holds every 0.d1d2d3; Kayles is key 0770 there too. */
    gr_table_info fam;
    gr_tables_info(t, 12 + misere, &fam); /* the misere quotients sort before it */
    REQUIRE_EQ(fam.count, 511);
    gr_seq k;
    REQUIRE(gr_tables_member(t, GR_TN_OCTAL_FAMILY, 0770, &k));
    REQUIRE(k.periodic);
    REQUIRE_EQ(k.preperiod, 71);
    REQUIRE_EQ(k.period, 12);
    REQUIRE(gr_tables_sequence(t, "octal:0.77", &s));
    for (uint64_t n = 0; n < s.count && n < k.count; n++)
        REQUIRE_EQ(k.values[n], s.values[n]);
    REQUIRE(gr_tables_member(t, GR_TN_OCTAL_FAMILY, 1, &k));
    REQUIRE(gr_tables_member(t, GR_TN_OCTAL_FAMILY, 0777, &k));
    REQUIRE(!gr_tables_member(t, GR_TN_OCTAL_FAMILY, 0, &k));
    REQUIRE(!gr_tables_member(t, GR_TN_OCTAL_FAMILY, 01000, &k));

    /* Subtraction {1, 2, 3}: g(n) = n mod 4. */
    REQUIRE(gr_tables_member(t, GR_TN_SUBTRACTION_FAMILY, 7, &k));
    REQUIRE(k.periodic);
    for (uint64_t n = 0; n < k.count; n++)
        REQUIRE_EQ(k.values[n], n % 4);
    REQUIRE(!gr_tables_member(t, GR_TN_SUBTRACTION_FAMILY, 1u << GR_TN_SUBTRACTION_MAX, &k));

    /* Wythoff: the mex over rows, columns and diagonals. */
    uint16_t w[16][16];
    for (unsigned r = 0; r < 16; r++)
        for (unsigned c = 0; c < 16; c++) {
            bool seen[64] = { false };
            for (unsigned d = 1; d <= r; d++)
                seen[w[r - d][c]] = true;
            for (unsigned d = 1; d <= c; d++)
                seen[w[r][c - d]] = true;
            for (unsigned d = 1; d <= r && d <= c; d++)
                seen[w[r - d][c - d]] = true;
            uint16_t m = 0;
            while (seen[m])
                m++;
            w[r][c] = m;
            uint16_t v;
            REQUIRE(gr_tables_grid(t, GR_TN_WYTHOFF, r, c, &v));
            REQUIRE_EQ(v, m);
        }
    uint16_t v;
    REQUIRE(!gr_tables_grid(t, GR_TN_WYTHOFF, 16, 0, &v));

    REQUIRE(gr_tables_sequence(t, GR_TN_DIVISOR, &s));
    REQUIRE_EQ(s.count, 1001);
    gr_tables_close(t);
}
END_TEST

/* ---- suite ---------------------------------------------------------------- */

static TCase *tcase(Suite *suite, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_add_unchecked_fixture(tc, make_tmpdir, remove_tmpdir);
    tcase_add_checked_fixture(tc, empty_tmpdir, NULL);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(suite, tc);
    return tc;
}

/* Bitset sections: lookups within the bit count, nothing past it, and a
 * file whose bits past the count are set (checksums resealed) refused. */
START_TEST(test_bitset_sections)
{
    enum { BITS = 200 };
    uint64_t words[4] = { 0 };
    for (unsigned n = 0; n < BITS; n++)
        if (n % 3 == 0 || n == 199)
            words[n / 64] |= UINT64_C(1) << (n % 64);
    const char *path = tmp_path("bits.tables");
    gr_tf_writer *w = gr_tf_writer_new();
    REQUIRE(gr_tf_add_bitset(w, "bits", words, BITS) == 0);
    char why[512] = "";
    REQUIRE(gr_tf_write(w, path, why, sizeof why) == 0);
    gr_tf_writer_free(w);
    gr_tables *t = open_ok(path);
    for (unsigned n = 0; n < BITS; n++) {
        bool bit = false;
        REQUIRE(gr_tables_bit(t, "bits", n, &bit));
        REQUIRE_EQ(bit, n % 3 == 0 || n == 199);
    }
    bool bit;
    REQUIRE(!gr_tables_bit(t, "bits", BITS, &bit));
    REQUIRE(!gr_tables_bit(t, "nope", 0, &bit));
    REQUIRE_EQ(gr_tables_bits(t, "bits"), BITS);
    gr_tables_close(t);
    image im;
    im.bytes = read_all(path, &im.size);
    size_t i = entry_index(&im, "bits");
    im.bytes[entry(&im, i)->offset + 3 * 8 + 7] |= 0x80; /* bit 255, past the count */
    seal_section(&im, i);
    REQUIRE_REFUSED(write_image(&im, "bits-tail.tables"), "wrong bits");
    free(im.bytes);
}
END_TEST

static Suite *tables_suite(void)
{
    Suite *suite = suite_create("tables");
    TCase *rt = tcase(suite, "round trip");
    tcase_add_test(rt, test_round_trip_facts);
    tcase_add_test(rt, test_round_trip_sequences);
    tcase_add_test(rt, test_round_trip_family);
    tcase_add_test(rt, test_round_trip_grid);
    tcase_add_test(rt, test_bitset_sections);
    tcase_add_test(rt, test_lookup_misses);
    tcase_add_test(rt, test_writer_atomic_replace);
    tcase_add_test(rt, test_writer_rejects);
    tcase_add_test(rt, test_checksum);

    TCase *bad = tcase(suite, "refusals");
    tcase_add_test(bad, test_refuse_missing);
    tcase_add_test(bad, test_refuse_directory);
    tcase_add_test(bad, test_refuse_empty);
    tcase_add_test(bad, test_refuse_not_a_table);
    tcase_add_test(bad, test_reference_image_opens);
    tcase_add_test(bad, test_refuse_truncated);
    tcase_add_test(bad, test_refuse_flipped_header);
    tcase_add_test(bad, test_refuse_flipped_directory);
    tcase_add_test(bad, test_refuse_flipped_data);
    tcase_add_loop_test(bad, test_refuse_patched, 0, (int)(sizeof patches / sizeof patches[0]));

    TCase *build = tcase(suite, "build");
    tcase_add_test(build, test_build_small);
    return suite;
}

int main(void)
{
    return gr_check_run(tables_suite());
}
