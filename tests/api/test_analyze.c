/* SPDX-License-Identifier: MIT */
/* The request path from bytes to answer: statuses, error bodies, and the
 * shape of answers for every game in the registry. */
#include <check.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "registry.h"
#include "contract.h"
#include "check_main.h"

static cJSON *ask(const char *query, int *status)
{
    gr_service svc = { .tables = NULL };
    gr_limits_default(&svc.limits);
    gr_reply r;
    gr_api_analyze(&svc, query, strlen(query), &r);
    *status = r.status;
    ck_assert_ptr_nonnull(r.body);
    cJSON *root = cJSON_Parse(r.body);
    ck_assert_ptr_nonnull(root);
    free(r.body);
    return root;
}

static const struct {
    const char *query;
    int status;
    const char *code, *field;
} errors[] = {
    { "not json", 400, "bad_json", NULL },
    { "{\"game\":\"nim\",\"piles\":[1,2]", 400, "bad_json", NULL },
    { "[1,2,3]", 422, "invalid_query", NULL },
    { "{}", 422, "missing_field", "game" },
    { "{\"game\":7}", 422, "invalid_field", "game" },
    { "{\"game\":\"chess\"}", 422, "unknown_game", "game" },
    { "{\"game\":\"nim\"}", 422, "missing_field", "piles" },
    { "{\"game\":\"nim\",\"piles\":3}", 422, "invalid_field", "piles" },
    { "{\"game\":\"nim\",\"piles\":[1,2,-3]}", 422, "invalid_integer", "piles[2]" },
    { "{\"game\":\"nim\",\"piles\":[1,2.5]}", 422, "invalid_integer", "piles[1]" },
    { "{\"game\":\"nim\",\"piles\":[\"x\"]}", 422, "invalid_integer", "piles[0]" },
    { "{\"game\":\"nim\",\"piles\":[9223372036854775808]}", 422, "invalid_integer", "piles[0]" },
    { "{\"game\":\"nim\",\"piles\":[1],\"convention\":\"weird\"}", 422, "invalid_field", "convention" },
    { "{\"game\":\"wythoff\",\"piles\":[1,2],\"convention\":\"misere\"}", 422, "unsupported_convention", "convention" },
    { "{\"game\":\"subtraction\",\"piles\":[5]}", 422, "missing_field", "moves" },
    { "{\"game\":\"subtraction\",\"moves\":[],\"piles\":[5]}", 422, "invalid_field", "moves" },
    { "{\"game\":\"subtraction\",\"moves\":[0,2],\"piles\":[5]}", 422, "out_of_range", "moves[0]" },
    { "{\"game\":\"subtraction\",\"moves\":[1,65537],\"piles\":[5]}", 422, "out_of_range", "moves[1]" },
    { "{\"game\":\"wythoff\",\"piles\":[1]}", 422, "invalid_field", "piles" },
    { "{\"game\":\"wythoff\",\"piles\":[1,2,3]}", 422, "too_many", "piles" },
    { "{\"game\":\"divisor\",\"n\":0}", 422, "out_of_range", "n" },
    { "{\"game\":\"fibonacci\"}", 422, "missing_field", "n" },
    { "{\"game\":\"octal\",\"piles\":[3]}", 422, "missing_field", "code" },
    { "{\"game\":\"octal\",\"code\":\"0.8\",\"piles\":[3]}", 422, "invalid_field", "code" },
    { "{\"game\":\"octal\",\"code\":\"0.123456701\",\"piles\":[3]}", 422, "invalid_field", "code" },
    { "{\"game\":\"octal\",\"code\":\"0.007\",\"piles\":[1000000000]}", 422, "beyond_bound", "piles" },
    { "{\"game\":\"grundys_game\",\"piles\":[1000000000]}", 422, "beyond_bound", "piles" },
    { "{\"game\":\"graph\",\"edges\":[[0,1],[1,2],[2,0]],\"tokens\":[0],\"compound\":\"selective\"}", 422, "cycle", "compound" },
    { "{\"game\":\"nim\",\"piles\":[1],\"compound\":\"sideways\"}", 422, "invalid_field", "compound" },
    { "{\"game\":\"wythoff\",\"piles\":[1,2],\"compound\":\"selective\"}", 422, "inapplicable_field", "compound" },
    { "{\"game\":\"grundys_game\",\"piles\":[5],\"compound\":\"conjunctive\"}", 422, "inapplicable_field", "compound" },
    { "{\"game\":\"nim\",\"piles\":[1],\"compound\":\"selective\",\"convention\":\"misere\"}", 422, "unsupported_compound", "compound" },
    { "{\"game\":\"subtraction\",\"moves\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17],\"piles\":[3,4],\"convention\":\"misere\"}", 422, "unsupported_convention", "moves" },
    { "{\"game\":\"graph\",\"edges\":[],\"tokens\":[0,0],\"convention\":\"misere\"}", 422, "unsupported_convention", "convention" },
    { "{\"game\":\"coins\",\"rule\":\"ruler\",\"heads\":[0]}", 422, "out_of_range", "heads[0]" },
    { "{\"game\":\"coins\",\"rule\":\"ruler\",\"heads\":[3,3]}", 422, "invalid_field", "heads" },
    { "{\"game\":\"coins\",\"heads\":[3]}", 422, "missing_field", "rule" },
    { "{\"game\":\"strange_nim\",\"piles\":[[5,0]]}", 422, "out_of_range", "piles[0][1]" },
    { "{\"game\":\"strange_nim\",\"piles\":[5]}", 422, "invalid_field", "piles[0]" },
    { "{\"game\":\"grid\",\"tokens\":[[15,0]]}", 422, "out_of_range", "tokens[0]" },
    { "{\"game\":\"grid\",\"tokens\":[[1,1]],\"steps\":[[0,0]]}", 422, "invalid_field", "steps[0]" },
    /* pair and integer entries: named to the entry and the element */
    { "{\"game\":\"graph\",\"edges\":[5],\"tokens\":[0]}", 422, "invalid_field", "edges[0]" },
    { "{\"game\":\"graph\",\"edges\":[[0,1],[1,2,3]],\"tokens\":[0]}", 422, "invalid_field", "edges[1]" },
    { "{\"game\":\"graph\",\"edges\":[[0,1],[1,-2]],\"tokens\":[0]}", 422, "invalid_integer", "edges[1][1]" },
    { "{\"game\":\"graph\",\"edges\":[[0,1]],\"tokens\":[0,\"x\"]}", 422, "invalid_integer", "tokens[1]" },
    { "{\"game\":\"grid\",\"tokens\":[[1,1]],\"steps\":[[1,0],[1,\"y\"]]}", 422, "invalid_integer", "steps[1][1]" },
    { "{\"game\":\"grid\",\"tokens\":[[1,1],7]}", 422, "invalid_field", "tokens[1]" },
    { "{\"game\":\"strange_nim\",\"piles\":[[5,1],[2.5,1]]}", 422, "invalid_integer", "piles[1][0]" },
    { "{\"game\":\"stone_row\",\"stones\":[1,2,-3]}", 422, "invalid_integer", "stones[2]" },
    { "{\"game\":\"stone_front3\",\"stones\":[1,-2,\"z\"]}", 422, "invalid_integer", "stones[2]" },
    { "{\"game\":\"grid\",\"rows\":2000,\"cols\":2000,\"tokens\":[]}", 422, "too_many", "rows" },
    { "{\"game\":\"graph\",\"edges\":[[0,1,2]],\"tokens\":[0]}", 422, "invalid_field", "edges[0]" },
    { "{\"game\":\"graph\",\"edges\":[[0,1]],\"tokens\":[5],\"nodes\":2}", 422, "out_of_range", "tokens[0]" },
    { "{\"game\":\"graph\",\"edges\":[[0,\"a\"]],\"tokens\":[0]}", 422, "invalid_integer", "edges[0][1]" },
    { "{\"game\":\"staircase\",\"stairs\":[9223372036854775807,1]}", 422, "out_of_range", "stairs" },
    /* every winning move overflows a stair (M coins onto stair 0) */
    { "{\"game\":\"staircase\",\"stairs\":[9223372036854775807,9223372036854775807,9223372036854775807]}",
      422, "out_of_range", "stairs" },
    /* cJSON cuts strings at U+0000: "7\u0000" once read as 7, "nim\u0000x" as nim */
    { "{\"game\":\"nim\",\"piles\":[\"7\\u0000\"]}", 422, "invalid_integer", "piles[0]" },
    { "{\"game\":\"nim\\u0000x\",\"piles\":[1]}", 422, "unknown_game", "game" },
    { "{\"game\":\"nim\",\"piles\\u0000x\":[1]}", 422, "unknown_field", "piles???x" },
    /* an unpaired surrogate is valid JSON grammar; cJSON refused it and the
     * answer was a 503 "overloaded" */
    { "{\"game\":\"nim\",\"piles\":[\"\\ud800\"]}", 422, "invalid_integer", "piles[0]" },
    { "{\"game\":\"nim\",\"piles\":[\"\\udc00\"]}", 422, "invalid_integer", "piles[0]" },
    /* a member named twice was silently read as its first value */
    { "{\"game\":\"nim\",\"game\":\"wythoff\",\"piles\":[1,2]}", 422, "invalid_field", "game" },
    { "{\"game\":\"nim\",\"piles\":[1],\"piles\":[2,3]}", 422, "invalid_field", "piles" },
    { "{\"game\":\"subtraction\",\"moves\":{\"rule\":\"primes\",\"rule\":\"squares\"},\"piles\":[2]}",
      422, "invalid_field", "moves.rule" },
};

START_TEST(test_error_statuses)
{
    int status;
    cJSON *root = ask(errors[_i].query, &status);
    ck_assert_int_eq(status, errors[_i].status);
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(root, "error");
    ck_assert_ptr_nonnull(err);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(err, "code")->valuestring, errors[_i].code);
    ck_assert(strlen(cJSON_GetObjectItemCaseSensitive(err, "message")->valuestring) > 10);
    const cJSON *field = cJSON_GetObjectItemCaseSensitive(err, "field");
    if (errors[_i].field)
        ck_assert_str_eq(field->valuestring, errors[_i].field);
    else
        ck_assert(cJSON_IsNull(field));
    cJSON_Delete(root);
}
END_TEST

/* One small query per registry entry: the answer has every contract key in
 * order, and a first-player win carries a move and a next position. */
static const char *const samples[] = {
    "{\"game\":\"nim\",\"piles\":[3,4,5]}",
    "{\"game\":\"subtraction\",\"moves\":[1,3,4],\"piles\":[2,10]}",
    "{\"game\":\"staircase\",\"stairs\":[0,3,1,4]}",
    "{\"game\":\"wythoff\",\"piles\":[5,9]}",
    "{\"game\":\"fibonacci\",\"n\":12}",
    "{\"game\":\"divisor\",\"n\":12}",
    "{\"game\":\"octal\",\"code\":\"0.77\",\"piles\":[5]}",
    "{\"game\":\"grundys_game\",\"piles\":[7,13]}",
    "{\"game\":\"strange_nim\",\"piles\":[[10,3],[7,2]]}",
    "{\"game\":\"graph\",\"edges\":[[0,1],[1,2]],\"tokens\":[0,0,1]}",
    "{\"game\":\"grid\",\"tokens\":[[7,7],[3,12]]}",
    "{\"game\":\"coins\",\"rule\":\"mock_turtles\",\"heads\":[3,10]}",
    "{\"game\":\"tictactoe\",\"board\":\"XX.OO....\"}",
    "{\"game\":\"mnk\",\"rows\":3,\"cols\":4,\"k\":3,\"board\":\"............\"}",
    "{\"game\":\"stone_row\",\"stones\":[3,9,1,2]}",
    "{\"game\":\"stone_prefix\",\"stones\":[1,2,3,4,5,100]}",
    "{\"game\":\"stone_front3\",\"stones\":[1,2,3,-9]}",
    "{\"game\":\"can_i_win\",\"max_choosable\":10,\"desired_total\":40,\"used\":[1]}",
};

START_TEST(test_answer_shape)
{
    static const char *const keys[] = { "game", "convention", "winner", "grundy", "value",
                                        "components", "move", "next", "winning_moves", "why",
                                        "explanation" };
    int status;
    cJSON *root = ask(samples[_i], &status);
    ck_assert_int_eq(status, 200);
    const cJSON *item = root->child;
    bool scored = cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(root, "grundy"));
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        if (!scored && strcmp(keys[k], "value") == 0)
            continue; /* impartial games have no score */
        ck_assert_ptr_nonnull(item);
        ck_assert_str_eq(item->string, keys[k]);
        item = item->next;
    }
    ck_assert_ptr_null(item);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(root, "winner")->valuestring, "first");
    const cJSON *move = cJSON_GetObjectItemCaseSensitive(root, "move");
    ck_assert(cJSON_IsObject(move));
    ck_assert(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(move, "text")));
    ck_assert(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "next")));
    /* score games have no independent components; impartial ones list them */
    ck_assert(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "components")) >= (scored ? 0 : 1));
    if (scored)
        ck_assert(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(root, "value")));
    cJSON_Delete(root);
}
END_TEST

START_TEST(test_registry_complete)
{
    ck_assert_uint_eq(gr_ngames, sizeof samples / sizeof samples[0]);
    for (size_t i = 0; i < gr_ngames; i++) {
        ck_assert_ptr_eq(gr_game_find(gr_games[i]->name), gr_games[i]);
        ck_assert_msg(gr_games[i]->analyze && gr_games[i]->moves, "%s lacks a hook", gr_games[i]->name);
        char needle[64];
        snprintf(needle, sizeof needle, "\"game\":\"%s\"", gr_games[i]->name);
        int found = 0;
        for (size_t k = 0; k < sizeof samples / sizeof samples[0]; k++)
            found += strstr(samples[k], needle) != NULL;
        ck_assert_int_eq(found, 1);
    }
    ck_assert_ptr_null(gr_game_find("Nim"));
}
END_TEST

START_TEST(test_second_player_has_no_move)
{
    int status;
    cJSON *root = ask("{\"game\":\"nim\",\"piles\":[1,2,3]}", &status);
    ck_assert_int_eq(status, 200);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(root, "winner")->valuestring, "second");
    ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(root, "move")));
    ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(root, "next")));
    cJSON_Delete(root);
}
END_TEST

START_TEST(test_exact_nim_sum)
{
    gr_service svc = { .tables = NULL };
    gr_limits_default(&svc.limits);
    gr_reply r;
    const char *q = "{\"game\":\"nim\",\"piles\":[1000000000000000001,\"1000000000000000000\"]}";
    gr_api_analyze(&svc, q, strlen(q), &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_ptr_nonnull(strstr(r.body, "\"grundy\":1,"));
    ck_assert_ptr_nonnull(strstr(r.body, "\"next\":{\"piles\":[1000000000000000000,1000000000000000000]}"));
    free(r.body);
}
END_TEST

START_TEST(test_misere_nim_answers)
{
    int status;
    cJSON *root = ask("{\"game\":\"nim\",\"piles\":[1,1],\"convention\":\"misere\"}", &status);
    ck_assert_int_eq(status, 200);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(root, "winner")->valuestring, "first");
    ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(root, "grundy")));
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(root, "convention")->valuestring, "misere");
    cJSON_Delete(root);
}
END_TEST

START_TEST(test_budget_limit)
{
    gr_service svc = { .tables = NULL };
    gr_limits_default(&svc.limits);
    svc.limits.budget = 1000;
    gr_reply r;
    const char *q = "{\"game\":\"grundys_game\",\"piles\":[5000]}";
    gr_api_analyze(&svc, q, strlen(q), &r);
    ck_assert_int_eq(r.status, 422);
    ck_assert_ptr_nonnull(strstr(r.body, "\"code\":\"limit_exceeded\""));
    free(r.body);
}
END_TEST

/* The CPU time spans a query's attempts: an inline attempt that runs out of
 * its steps reports the CPU time it used, and a second attempt given that
 * the whole limit is already used stops at its first reading with the CPU
 * message, where a fresh one runs on to the limit. */
START_TEST(test_cpu_time_spans_attempts)
{
    gr_service svc = { .tables = NULL };
    gr_limits_default(&svc.limits);
    svc.limits.query_cpu_ms = 40;
    const char *q = "{\"game\":\"strange_nim\",\"piles\":[[1000000000000000000,1000000000]]}";
    gr_reply r;
    gr_attempt inline_try = { .steps = 1000000 };
    ck_assert(!gr_api_attempt(&svc, q, strlen(q), &inline_try, &r));
    ck_assert_ptr_null(r.body);
    ck_assert_uint_gt(inline_try.cpu_used_ns, 0);
    ck_assert_uint_lt(inline_try.cpu_used_ns, 40 * UINT64_C(1000000));
    gr_attempt spent = { .steps = UINT64_MAX, .cpu_used_ns = 40 * UINT64_C(1000000) };
    uint64_t t0 = gr_thread_cpu_ns();
    ck_assert(gr_api_attempt(&svc, q, strlen(q), &spent, &r));
    uint64_t used = gr_thread_cpu_ns() - t0;
    ck_assert_int_eq(r.status, 422);
    ck_assert_ptr_nonnull(strstr(r.body, "the query used its 40 ms of CPU time"));
    ck_assert_ptr_nonnull(strstr(r.body, "--query-cpu-ms"));
    free(r.body);
    ck_assert_uint_lt(used, 10 * UINT64_C(1000000));
    gr_attempt fresh = { .steps = UINT64_MAX };
    t0 = gr_thread_cpu_ns();
    ck_assert(gr_api_attempt(&svc, q, strlen(q), &fresh, &r));
    used = gr_thread_cpu_ns() - t0;
    ck_assert_int_eq(r.status, 422);
    free(r.body);
    ck_assert_uint_ge(used, 40 * UINT64_C(1000000));
    ck_assert_uint_lt(used, 120 * UINT64_C(1000000));
}
END_TEST

/* A raised cancel flag stops a query at its next reading: 503 shutting_down. */
START_TEST(test_cancel_flag)
{
    gr_service svc = { .tables = NULL };
    gr_limits_default(&svc.limits);
    atomic_bool cancel;
    atomic_init(&cancel, true);
    const char *q = "{\"game\":\"strange_nim\",\"piles\":[[1000000000000000000,1000000000]]}";
    gr_reply r;
    gr_attempt a = { .steps = UINT64_MAX, .cancel = &cancel };
    uint64_t t0 = gr_thread_cpu_ns();
    ck_assert(gr_api_attempt(&svc, q, strlen(q), &a, &r));
    ck_assert_uint_lt(gr_thread_cpu_ns() - t0, 50 * UINT64_C(1000000));
    ck_assert_int_eq(r.status, 503);
    ck_assert_ptr_nonnull(strstr(r.body, "\"code\":\"shutting_down\""));
    ck_assert_ptr_nonnull(strstr(r.body, "\"field\":\"piles[0]\""));
    free(r.body);
}
END_TEST

/* Status and body of one query; the body is malloc'd. */
static char *ask_raw(const char *query, int *status)
{
    gr_service svc = { .tables = NULL };
    gr_limits_default(&svc.limits);
    gr_reply r;
    gr_api_analyze(&svc, query, strlen(query), &r);
    *status = r.status;
    ck_assert_ptr_nonnull(r.body);
    return r.body;
}

/* Valid JSON that cJSON reads differently, and members the service ignores. */
/* Members the game does not document are refused, whatever they hold: a
 * misspelt or foreign member would otherwise be answered as if absent. */
static const struct {
    const char *body, *code, *field;
} refused_members[] = {
    { "{\"game\":\"nim\",\"piles\":[1],\"note\":\"\\ud83d\\ude00 \\udc00 \\u0000\"}", "unknown_field", "note" },
    { "{\"game\":\"nim\",\"piles\":[1],\"extra\":{\"a\":1,\"a\":[1e999]}}", "unknown_field", "extra" },
    { "{\"game\":\"nim\",\"piles\":[1,2],\"convetion\":\"misere\"}", "unknown_field", "convetion" },
    { "{\"game\":\"nim\",\"piles\":[1,2],\"limit\":3}", "inapplicable_field", "limit" },
    { "{\"game\":\"tictactoe\",\"board\":\".........\",\"compound\":\"disjunctive\"}",
      "inapplicable_field", "compound" },
};

START_TEST(test_unknown_members_refused)
{
    int status;
    char *body = ask_raw(refused_members[_i].body, &status);
    ck_assert_int_eq(status, 422);
    cJSON *root = cJSON_Parse(body);
    cJSON *err = cJSON_GetObjectItemCaseSensitive(root, "error");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(err, "code")->valuestring, refused_members[_i].code);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(err, "field")->valuestring, refused_members[_i].field);
    cJSON_Delete(root);
    free(body);
}
END_TEST

/* The message names the nearest valid member. */
START_TEST(test_unknown_member_suggested)
{
    int status;
    char *body = ask_raw("{\"game\":\"nim\",\"piles\":[1,2],\"convetion\":\"misere\"}", &status);
    ck_assert_ptr_nonnull(strstr(body, "did you mean \\\"convention\\\"?"));
    free(body);
}
END_TEST

/* Stairs holding 2^63 - 1 each are answered; only a next that would
 * overflow a stair is refused (the coins' total used to be capped). */
START_TEST(test_staircase_near_range)
{
    int status;
    char *body = ask_raw("{\"game\":\"staircase\",\"stairs\":[1000000000000000000,1000000000000000000,"
                         "1000000000000000000,1000000000000000000,1000000000000000000,"
                         "1000000000000000000,1000000000000000000,1000000000000000000,"
                         "1000000000000000000,1]}", &status);
    ck_assert_int_eq(status, 200);
    ck_assert_ptr_nonnull(strstr(body, "\"winner\":\"first\""));
    ck_assert_ptr_nonnull(strstr(body, "\"next\":{\"stairs\":[1000000000000000000,1000000000000000000,"
                                       "1000000000000000000,1000000000000000000,1000000000000000000,"
                                       "1000000000000000000,1000000000000000000,1000000000000000000,"
                                       "1000000000000000001,0]}"));
    free(body);
    /* off stair 3 would put 2^63 coins on stair 2: one coin from stair 2 up instead */
    body = ask_raw("{\"game\":\"staircase\",\"stairs\":[0,4,9223372036854775807,5]}", &status);
    ck_assert_int_eq(status, 200);
    ck_assert_ptr_nonnull(strstr(body, "\"move\":{\"from\":2,\"to\":1,\"count\":1,"));
    ck_assert_ptr_nonnull(strstr(body, "\"next\":{\"stairs\":[0,5,9223372036854775806,5]}"));
    free(body);
}
END_TEST

static Suite *api_suite(void)
{
    Suite *s = suite_create("analyze");
    TCase *tc = tcase_create("analyze");
    tcase_add_loop_test(tc, test_error_statuses, 0, sizeof errors / sizeof errors[0]);
    tcase_add_loop_test(tc, test_answer_shape, 0, sizeof samples / sizeof samples[0]);
    tcase_add_test(tc, test_registry_complete);
    tcase_add_test(tc, test_second_player_has_no_move);
    tcase_add_test(tc, test_exact_nim_sum);
    tcase_add_test(tc, test_misere_nim_answers);
    tcase_add_test(tc, test_budget_limit);
    tcase_add_test(tc, test_cpu_time_spans_attempts);
    tcase_add_test(tc, test_cancel_flag);
    tcase_add_loop_test(tc, test_unknown_members_refused, 0,
                        sizeof refused_members / sizeof refused_members[0]);
    tcase_add_test(tc, test_unknown_member_suggested);
    tcase_add_test(tc, test_staircase_near_range);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(api_suite());
}
