/* SPDX-License-Identifier: MIT */
/* The acceptor's judge of a first request head (src/server/front/first_head.h):
 * every prefix of a good head waits for more and the whole passes; each
 * head libmicrohttpd would answer itself is refused with its code, and
 * stays refused as more bytes come; the limits hold at their boundaries. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "first_head.h"

static const gr_head_limits LIMITS = { .max_url = 100, .max_header = 400 };

static gr_head_verdict judge_n(const char *buf, size_t n, gr_error_code *code)
{
    char message[384];
    *code = GR_NERROR_CODES;
    gr_head_verdict v = gr_first_head_judge(buf, n, &LIMITS, NULL, code, message, sizeof message);
    if (v == GR_HEAD_REFUSED) {
        REQUIRE(*code != GR_NERROR_CODES);
        REQUIRE(message[0] != '\0');
        REQUIRE(strchr(message, '\n') == NULL);
    }
    return v;
}

static gr_head_verdict judge_s(const char *s, gr_error_code *code)
{
    return judge_n(s, strlen(s), code);
}

static const char *const GOOD[] = {
    "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET /healthz HTTP/1.0\r\n\r\n",
    "\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET /healthz HTTP/1.1\nHost: x\n\n",
    "POST /v1/analyze HTTP/1.1\r\nContent-Length: 18446744073709551615\r\n\r\n",
    "POST /v1/analyze HTTP/1.1\r\nContent-Length:   26\r\n\r\n{\"game\":\"nim\",\"piles\":[1]}",
    "POST /v1/analyze HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
    "1a;x=y\r\n{\"game\":\"nim\",\"piles\":[1]}\r\n0\r\n\r\n",
    "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n",
};

START_TEST(test_good_heads_wait_then_pass)
{
    for (size_t i = 0; i < sizeof GOOD / sizeof GOOD[0]; i++) {
        const char *h = GOOD[i];
        size_t end = strstr(h, "\n\n") ? (size_t)(strstr(h, "\n\n") - h) + 2 : 0;
        const char *crlf = strstr(h + (h[0] == '\r' ? 4 : 0), "\r\n\r\n");
        if (crlf && (!end || (size_t)(crlf - h) + 4 < end))
            end = (size_t)(crlf - h) + 4;
        gr_error_code code;
        for (size_t n = 0; n < end; n++)
            if (judge_n(h, n, &code) != GR_HEAD_INCOMPLETE)
                ck_abort_msg("head %zu: its first %zu bytes are not judged incomplete", i, n);
        for (size_t n = end; n <= strlen(h); n++)
            if (judge_n(h, n, &code) != GR_HEAD_GOOD)
                ck_abort_msg("head %zu with %zu bytes: refused %s", i, n, gr_error_name(code));
    }
}
END_TEST

static const struct {
    const char *head;
    gr_error_code code;
} BAD[] = {
    { "GET /healthz HTTP/2.0\r\n\r\n", GR_E_HTTP_VERSION_NOT_SUPPORTED },
    { "GET /healthz HTTP/0.9\r\n\r\n", GR_E_HTTP_VERSION_NOT_SUPPORTED },
    { "GET /healthz HTTP/1.2\r\n\r\n", GR_E_HTTP_VERSION_NOT_SUPPORTED },
    { "GET /healthz HTTP/11\r\n\r\n", GR_E_BAD_REQUEST },
    { "GET /healthz\r\n\r\n", GR_E_BAD_REQUEST },
    { "GET  /healthz HTTP/1.1\r\n\r\n", GR_E_BAD_REQUEST },
    { "G(T /healthz HTTP/1.1\r\n\r\n", GR_E_BAD_REQUEST },
    { "HELLO\r\n\r\n", GR_E_BAD_REQUEST },
    { "GET /a\x01 HTTP/1.1\r\n\r\n", GR_E_BAD_REQUEST },
    { "GET / HTTP/1.1\r\nNoColon\r\n\r\n", GR_E_BAD_REQUEST },
    { "GET / HTTP/1.1\r\nX : 1\r\n\r\n", GR_E_BAD_REQUEST },
    { "GET / HTTP/1.1\r\nX: 1\r\n folded\r\n\r\n", GR_E_BAD_REQUEST },
    { "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", GR_E_BAD_REQUEST },
    { "POST / HTTP/1.1\r\nContent-Length: 1e3\r\n\r\n", GR_E_BAD_REQUEST },
    { "POST / HTTP/1.1\r\nContent-Length: 5, 5\r\n\r\n", GR_E_BAD_REQUEST },
    { "POST / HTTP/1.1\r\nContent-Length:\r\n\r\n", GR_E_BAD_REQUEST },
    { "POST / HTTP/1.1\r\nContent-Length: 26 \r\n\r\n", GR_E_BAD_REQUEST },
    { "POST / HTTP/1.1\r\nContent-Length: 1\r\ncontent-length: 1\r\n\r\n", GR_E_BAD_REQUEST },
    { "POST / HTTP/1.1\r\nContent-Length: 18446744073709551616\r\n\r\n", GR_E_BODY_TOO_LARGE },
    { "POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n", GR_E_BODY_TOO_LARGE },
    { "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", GR_E_UNSUPPORTED_TRANSFER_CODING },
    { "POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", GR_E_UNSUPPORTED_TRANSFER_CODING },
    { "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
      GR_E_UNSUPPORTED_TRANSFER_CODING },
    { "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", GR_E_BAD_REQUEST },
    /* A NUL or a lone CR ends a value early for libmicrohttpd: it would
     * read "chunked" or a second header where the judge reads one. */
    { "POST / HTTP/1.1\r\nX: a\rContent-Length: 5\r\n\r\n", GR_E_BAD_REQUEST },
    { "POST / HTTP/1.1\r\nX: \x01\r\n\r\n", GR_E_BAD_REQUEST },
    /* libmicrohttpd compares Transfer-Encoding to the line's end. */
    { "POST / HTTP/1.1\r\nTransfer-Encoding: chunked \r\n\r\n", GR_E_UNSUPPORTED_TRANSFER_CODING },
    /* A CR without its LF is no empty line before the request line. */
    { "\rGET / HTTP/1.1\r\n\r\n", GR_E_BAD_REQUEST },
    { "\r\r\nGET / HTTP/1.1\r\n\r\n", GR_E_BAD_REQUEST },
};

START_TEST(test_bad_heads_refused_with_their_code)
{
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        gr_error_code code;
        gr_head_verdict v = judge_s(BAD[i].head, &code);
        if (v != GR_HEAD_REFUSED || code != BAD[i].code)
            ck_abort_msg("bad head %zu: verdict %d code %s, want %s", i, (int)v,
                         v == GR_HEAD_REFUSED ? gr_error_name(code) : "-", gr_error_name(BAD[i].code));
        /* More bytes never turn a refusal around. */
        char more[512];
        snprintf(more, sizeof more, "%sGET / HTTP/1.1\r\n\r\n", BAD[i].head);
        REQUIRE_EQ(judge_s(more, &code), GR_HEAD_REFUSED);
    }
}
END_TEST

/* Builds "GET /" + url_pad + " HTTP/1.1\r\n" + header_pad + "\r\n". */
static gr_head_verdict padded(size_t url_pad, size_t header_pad, bool finished, gr_error_code *code)
{
    static char buf[4096];
    size_t n = (size_t)snprintf(buf, sizeof buf, "GET /");
    memset(buf + n, 'a', url_pad);
    n += url_pad;
    n += (size_t)snprintf(buf + n, sizeof buf - n, " HTTP/1.1\r\n");
    if (header_pad) {
        n += (size_t)snprintf(buf + n, sizeof buf - n, "X: ");
        memset(buf + n, 'b', header_pad);
        n += header_pad;
        n += (size_t)snprintf(buf + n, sizeof buf - n, "\r\n");
    }
    if (finished)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "\r\n");
    return judge_n(buf, n, code);
}

START_TEST(test_limits_at_their_boundaries)
{
    gr_error_code code;
    /* The target "/" + pad is 1 + pad bytes: 100 pass, 101 are a 414. */
    REQUIRE_EQ(padded(99, 0, true, &code), GR_HEAD_GOOD);
    REQUIRE_EQ(padded(100, 0, true, &code), GR_HEAD_REFUSED);
    REQUIRE_EQ(code, GR_E_URL_TOO_LONG);
    /* A request line with no end past the URL limit and its slack: 414. */
    REQUIRE_EQ(padded(300, 0, false, &code), GR_HEAD_REFUSED);
    REQUIRE_EQ(code, GR_E_URL_TOO_LONG);
    /* The whole head is 17 + 5 + pad + 2 bytes with a 1-byte URL pad:
     * 400 pass, 401 are a 431, finished or not. */
    REQUIRE_EQ(padded(1, 400 - 24, true, &code), GR_HEAD_GOOD);
    REQUIRE_EQ(padded(1, 401 - 24, true, &code), GR_HEAD_REFUSED);
    REQUIRE_EQ(code, GR_E_HEADERS_TOO_LARGE);
    REQUIRE_EQ(padded(1, 500, false, &code), GR_HEAD_REFUSED);
    REQUIRE_EQ(code, GR_E_HEADERS_TOO_LARGE);
    REQUIRE(gr_first_head_size(&LIMITS) > LIMITS.max_url + LIMITS.max_header);
}
END_TEST

START_TEST(test_field_and_parameter_counts)
{
    static const gr_head_limits roomy = { .max_url = 8192, .max_header = 16384 };
    static char buf[16384];
    char message[384];
    gr_error_code code;
    for (int fields = 99; fields <= 101; fields++) {
        size_t n = (size_t)snprintf(buf, sizeof buf, "GET / HTTP/1.1\r\n");
        for (int i = 0; i < fields; i++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "a:\r\n");
        n += (size_t)snprintf(buf + n, sizeof buf - n, "\r\n");
        gr_head_verdict v = gr_first_head_judge(buf, n, &roomy, NULL, &code, message, sizeof message);
        REQUIRE_EQ(v, fields <= 100 ? GR_HEAD_GOOD : GR_HEAD_REFUSED);
    }
    for (int params = 99; params <= 101; params++) {
        size_t n = (size_t)snprintf(buf, sizeof buf, "GET /?a");
        for (int i = 1; i < params; i++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "&a");
        n += (size_t)snprintf(buf + n, sizeof buf - n, " HTTP/1.1\r\n\r\n");
        gr_head_verdict v = gr_first_head_judge(buf, n, &roomy, NULL, &code, message, sizeof message);
        REQUIRE_EQ(v, params <= 100 ? GR_HEAD_GOOD : GR_HEAD_REFUSED);
    }
}
END_TEST

/* A good head's shape: its length and its body's framing, as
 * libmicrohttpd frames it. */
START_TEST(test_shapes)
{
    static const struct {
        const char *head;
        size_t len;
        gr_body_kind body;
        uint64_t length;
        bool head_method;
    } CASES[] = {
        { "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET", 34, GR_BODY_NONE, 0, false },
        { "\r\nHEAD / HTTP/1.0\n\nxyz", 19, GR_BODY_NONE, 0, true },
        { "POST / HTTP/1.1\r\ncontent-length: 0026\r\n\r\n{", 41, GR_BODY_LENGTH, 26, false },
        { "POST / HTTP/1.1\r\nTransfer-Encoding:  Chunked\r\n\r\n1", 48, GR_BODY_CHUNKED, 0, false },
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        gr_head_shape shape;
        gr_error_code code;
        char message[384];
        const char *h = CASES[i].head;
        REQUIRE_EQ(gr_first_head_judge(h, strlen(h), &LIMITS, &shape, &code, message, sizeof message), GR_HEAD_GOOD);
        if (shape.len != CASES[i].len || shape.body != CASES[i].body || shape.length != CASES[i].length ||
            shape.head_method != CASES[i].head_method)
            ck_abort_msg("head %zu: len %zu body %d length %llu head %d", i, shape.len, (int)shape.body,
                         (unsigned long long)shape.length, (int)shape.head_method);
    }
}
END_TEST

static Suite *head_suite(void)
{
    Suite *s = suite_create("first_head");
    TCase *tc = tcase_create("judge");
    tcase_add_test(tc, test_good_heads_wait_then_pass);
    tcase_add_test(tc, test_bad_heads_refused_with_their_code);
    tcase_add_test(tc, test_limits_at_their_boundaries);
    tcase_add_test(tc, test_field_and_parameter_counts);
    tcase_add_test(tc, test_shapes);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(head_suite());
}
