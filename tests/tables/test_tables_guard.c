/* SPDX-License-Identifier: MIT */
/* Tests for a table file that changes under its mapping (tables/guard.h,
 * gr_tables_verify): a small file is built, mapped, then changed in place
 * or truncated, as an operator might by mistake.
 *
 * - bytes written in place into one section: gr_tables_verify turns that
 *   section off (lookups miss it) and no other; a second verify finds
 *   nothing new;
 * - the file truncated: reading a value past the new end raises SIGBUS,
 *   which the guard turns into a zero read, a fault count and the
 *   section off, instead of killing the process; verify then turns off
 *   every section past the end, and the sections before it still answer;
 * - the directory is private: bytes written over the mapped directory do
 *   not move a lookup;
 * - the catalogue names the file by base name and checksum. */
#include <check.h>
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "check_main.h"
#include "tables/build.h"
#include "tables/format.h"
#include "tables/tables.h"

#define GRUNDYS_VALUES 100000u /* 200 KB: many pages */

static char dir[64];
static char path[128];

/* Builds the file once per test (Check forks each test). */
static void build_file(void)
{
    snprintf(dir, sizeof dir, "/tmp/grundy-guard-XXXXXX");
    REQUIRE(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/guard.tables", dir);
    gr_build_options o;
    gr_build_options_default(&o);
    o.grundys_values = GRUNDYS_VALUES;
    o.octal_values = 256;
    o.wythoff_size = 16;
    o.divisor_max = 1000;
    for (int r = 0; r < 3; r++) {
        o.rule_grundy[r] = 500;
        o.rule_outcome[r] = 5000;
    }
    o.progress = NULL;
    char why[512] = "";
    if (gr_tables_build(path, &o, why, sizeof why) != 0)
        ck_abort_msg("build failed: %s", why);
}

static void remove_file(void)
{
    unlink(path);
    rmdir(dir);
}

static gr_tables *open_ok(void)
{
    char why[512] = "";
    gr_tables *t = NULL;
    if (gr_tables_open(path, &t, why, sizeof why) != 0)
        ck_abort_msg("%s refused: %s", path, why);
    return t;
}

/* The section's directory entry, read from the file. */
static gr_tf_entry entry_of(const char *name)
{
    int fd = open(path, O_RDONLY);
    REQUIRE(fd >= 0);
    gr_tf_header h;
    REQUIRE(pread(fd, &h, sizeof h, 0) == (ssize_t)sizeof h);
    for (uint32_t i = 0; i < h.section_count; i++) {
        gr_tf_entry e;
        REQUIRE(pread(fd, &e, sizeof e, (off_t)(sizeof h + i * sizeof e)) == (ssize_t)sizeof e);
        if (strcmp(e.name, name) == 0) {
            close(fd);
            return e;
        }
    }
    ck_abort_msg("no section %s", name);
    return (gr_tf_entry){ 0 };
}

static void write_at(off_t at, const void *p, size_t n)
{
    int fd = open(path, O_WRONLY);
    REQUIRE(fd >= 0);
    REQUIRE(pwrite(fd, p, n, at) == (ssize_t)n);
    REQUIRE(close(fd) == 0);
}

static char changed_names[256];

static void note_changed(void *ctx, const char *name)
{
    (void)ctx;
    strncat(changed_names, name, sizeof changed_names - strlen(changed_names) - 2);
    strcat(changed_names, " ");
}

START_TEST(test_edit_in_place_turns_section_off)
{
    build_file();
    gr_tables *t = open_ok();
    gr_seq seq;
    REQUIRE(gr_tables_sequence(t, GR_TN_GRUNDYS, &seq));
    uint16_t before = seq.values[70000];
    gr_tf_entry e = entry_of(GR_TN_GRUNDYS);
    uint16_t other = (uint16_t)(before + 1);
    write_at((off_t)(e.offset + 2 * 70000), &other, 2);
    REQUIRE_EQ(gr_tables_sequence(t, GR_TN_GRUNDYS, &seq), true); /* not yet checked */
    changed_names[0] = '\0';
    REQUIRE_EQ(gr_tables_verify(t, note_changed, NULL), (size_t)1);
    ck_assert_str_eq(changed_names, "grundys_game ");
    REQUIRE_EQ(gr_tables_sequence(t, GR_TN_GRUNDYS, &seq), false);
    REQUIRE_EQ(gr_tables_off_count(t), (size_t)1);
    REQUIRE(gr_tables_sequence(t, GR_TN_DIVISOR, &seq)); /* the others stay */
    REQUIRE_EQ(gr_tables_verify(t, note_changed, NULL), (size_t)0);
    REQUIRE_EQ(gr_tables_faults(t), 0ul);
    gr_tables_close(t);
    remove_file();
}
END_TEST

START_TEST(test_truncation_faults_cleanly)
{
    build_file();
    gr_tables *t = open_ok();
    gr_tf_entry e = entry_of(GR_TN_GRUNDYS);
    gr_seq seq;
    REQUIRE(gr_tables_sequence(t, GR_TN_GRUNDYS, &seq));
    const volatile uint16_t *values = seq.values;
    /* Cut the file inside the section, well before value 90000's page. */
    REQUIRE(truncate(path, (off_t)(e.offset + 2 * 1000)) == 0);
    uint16_t v = values[90000]; /* SIGBUS, turned into a zero read */
    REQUIRE_EQ(v, 0);
    REQUIRE(gr_tables_faults(t) >= 1ul);
    REQUIRE_EQ(gr_tables_sequence(t, GR_TN_GRUNDYS, &seq), false);
    /* Every section past the end faults or mismatches when verified. */
    gr_tables_verify(t, NULL, NULL);
    for (size_t i = 0; i < gr_tables_count(t); i++) {
        gr_table_info info;
        gr_tables_info(t, i, &info);
        gr_tf_entry ei = entry_of(info.name);
        if (ei.offset + ei.length > e.offset)
            ck_assert_msg(gr_tables_section_off(t, i), "%s lies past the end but is still on", info.name);
        else
            ck_assert_msg(!gr_tables_section_off(t, i), "%s lies before the end but is off", info.name);
    }
    gr_tables_close(t);
    remove_file();
}
END_TEST

START_TEST(test_directory_is_private)
{
    build_file();
    gr_tables *t = open_ok();
    gr_tf_entry e = entry_of(GR_TN_GRUNDYS);
    gr_seq seq;
    REQUIRE(gr_tables_sequence(t, GR_TN_GRUNDYS, &seq));
    uint64_t count = seq.count;
    const uint16_t *values = seq.values;
    /* Point the mapped directory entry elsewhere, with a larger count. */
    int fd = open(path, O_RDONLY);
    REQUIRE(fd >= 0);
    gr_tf_header h;
    REQUIRE(pread(fd, &h, sizeof h, 0) == (ssize_t)sizeof h);
    off_t at = 0;
    for (uint32_t i = 0; i < h.section_count; i++) {
        gr_tf_entry x;
        REQUIRE(pread(fd, &x, sizeof x, (off_t)(sizeof h + i * sizeof x)) == (ssize_t)sizeof x);
        if (strcmp(x.name, GR_TN_GRUNDYS) == 0)
            at = (off_t)(sizeof h + i * sizeof x);
    }
    close(fd);
    e.offset = 64;
    e.count *= 1000;
    write_at(at, &e, sizeof e);
    REQUIRE(gr_tables_sequence(t, GR_TN_GRUNDYS, &seq));
    REQUIRE_EQ(seq.count, count);
    REQUIRE(seq.values == values);
    gr_tables_close(t);
    remove_file();
}
END_TEST

START_TEST(test_catalogue_names_file_by_base_name)
{
    build_file();
    gr_tables *t = open_ok();
    char *json = gr_api_tables_json(t);
    REQUIRE(json != NULL);
    REQUIRE(strstr(json, "\"file\":\"guard.tables\"") != NULL);
    REQUIRE(strstr(json, dir) == NULL);
    char sum[40];
    snprintf(sum, sizeof sum, "\"checksum\":\"%016llx\"", (unsigned long long)gr_tables_checksum(t));
    REQUIRE(strstr(json, sum) != NULL);
    cJSON_free(json);
    gr_tables_close(t);
    remove_file();
}
END_TEST

static Suite *guard_suite(void)
{
    Suite *s = suite_create("tables_guard");
    TCase *tc = tcase_create("changed under the mapping");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_edit_in_place_turns_section_off);
    tcase_add_test(tc, test_truncation_faults_cleanly);
    tcase_add_test(tc, test_directory_is_private);
    tcase_add_test(tc, test_catalogue_names_file_by_base_name);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(guard_suite());
}
