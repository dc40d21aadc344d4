/* SPDX-License-Identifier: MIT */
/* Admission (src/server/front/admission.h): --conn-limit and --per-ip-limit
 * refuse with a message naming the option; a connection's counts travel
 * through the hand-over to libmicrohttpd's side and back; past the limit
 * the longest-idle keep-alive connection is shut down to make room, and a
 * busy one never is. */
#include <check.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "admission.h"

/* The module keeps a pointer to its configuration: one that outlives each test. */
static gr_server_config cfg;

static void start(unsigned conn_limit, unsigned per_ip_limit)
{
    gr_server_config_default(&cfg);
    cfg.conn_limit = conn_limit;
    cfg.per_ip_limit = per_ip_limit;
    REQUIRE_EQ(gr_admission_start(&cfg), 0);
    REQUIRE_EQ(gr_admission_open_count(), 0);
    REQUIRE_EQ(gr_admission_handing(), 0);
}

static struct sockaddr_in addr4(const char *ip, unsigned short port)
{
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons(port);
    REQUIRE_EQ(inet_pton(AF_INET, ip, &sa.sin_addr), 1);
    return sa;
}

static bool admit(const struct sockaddr_in *sa, struct ip_slot **ip, char *msg, size_t size)
{
    msg[0] = '\0';
    return gr_admission_admit((const struct sockaddr *)sa, ip, msg, size);
}

/* Admits a connection from sa and takes it through the hand-over to
 * libmicrohttpd's side on fd, as the acceptor and NOTIFY_STARTED do. */
static gr_admitted *open_conn(const struct sockaddr_in *sa, int fd)
{
    char msg[256];
    struct ip_slot *ip;
    REQUIRE(admit(sa, &ip, msg, sizeof msg));
    REQUIRE(gr_admission_hand_over(fd, ip));
    gr_admitted *g = gr_admission_open(fd);
    REQUIRE(g != NULL);
    return g;
}

/* What the peer of a socketpair end reads within ms: 0 at EOF, -1 when
 * nothing came, else the bytes read. A shutdown to make room happens
 * within gr_admission_admit, so its EOF is there at once. */
static long peer_reads(int fd, int ms)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    if (poll(&p, 1, ms) <= 0)
        return -1;
    char b[16];
    return (long)recv(fd, b, sizeof b, MSG_DONTWAIT);
}

START_TEST(test_conn_limit)
{
    start(2, 0);
    struct sockaddr_in sa = addr4("127.0.0.1", 40000);
    struct ip_slot *ip1, *ip2, *ip3;
    char msg[256];
    REQUIRE(admit(&sa, &ip1, msg, sizeof msg));
    REQUIRE_EQ(gr_admission_open_count(), 1);
    REQUIRE(admit(&sa, &ip2, msg, sizeof msg));
    REQUIRE_EQ(gr_admission_open_count(), 2);
    REQUIRE(!admit(&sa, &ip3, msg, sizeof msg));
    REQUIRE(ip3 == NULL);
    if (!strstr(msg, "--conn-limit") || !strstr(msg, "2 connections"))
        ck_abort_msg("refusal message: \"%s\"", msg);
    REQUIRE_EQ(gr_admission_open_count(), 2); /* a refusal counts nothing */
    gr_admission_forget(ip1);
    REQUIRE_EQ(gr_admission_open_count(), 1);
    REQUIRE(admit(&sa, &ip3, msg, sizeof msg));
    REQUIRE_EQ(gr_admission_open_count(), 2);
    REQUIRE(!admit(&sa, &ip1, msg, sizeof msg));
    gr_admission_forget(ip2);
    gr_admission_forget(ip3);
    REQUIRE_EQ(gr_admission_open_count(), 0);
    gr_admission_stop();
}
END_TEST

START_TEST(test_per_ip_limit)
{
    start(100, 1);
    struct sockaddr_in a = addr4("10.0.0.1", 40000), a2 = addr4("10.0.0.1", 40001), b = addr4("10.0.0.2", 40000);
    struct ip_slot *ipa, *ipa2, *ipb;
    char msg[256];
    REQUIRE(admit(&a, &ipa, msg, sizeof msg));
    REQUIRE(ipa != NULL);
    /* The same address from another port is the same client. */
    REQUIRE(!admit(&a2, &ipa2, msg, sizeof msg));
    REQUIRE(ipa2 == NULL);
    if (!strstr(msg, "--per-ip-limit"))
        ck_abort_msg("refusal message: \"%s\"", msg);
    REQUIRE(admit(&b, &ipb, msg, sizeof msg));
    REQUIRE(ipb != NULL && ipb != ipa);
    REQUIRE_EQ(gr_admission_open_count(), 2);
    /* Its slot given back, the address is admitted again. */
    gr_admission_forget(ipa);
    REQUIRE(admit(&a2, &ipa2, msg, sizeof msg));
    REQUIRE(!admit(&a, &ipa, msg, sizeof msg));
    /* An IPv6 client is counted by its own address. */
    struct sockaddr_in6 six;
    memset(&six, 0, sizeof six);
    six.sin6_family = AF_INET6;
    REQUIRE_EQ(inet_pton(AF_INET6, "::1", &six.sin6_addr), 1);
    struct ip_slot *ip6, *ip6b;
    REQUIRE(gr_admission_admit((const struct sockaddr *)&six, &ip6, msg, sizeof msg));
    REQUIRE(!gr_admission_admit((const struct sockaddr *)&six, &ip6b, msg, sizeof msg));
    gr_admission_forget(ip6);
    gr_admission_forget(ipa2);
    gr_admission_forget(ipb);
    REQUIRE_EQ(gr_admission_open_count(), 0);
    gr_admission_stop();
}
END_TEST

START_TEST(test_hand_over_open_close)
{
    start(10, 1);
    int sv[2];
    REQUIRE_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    struct sockaddr_in sa = addr4("192.0.2.7", 5000);
    struct ip_slot *ip, *again;
    char msg[256];

    REQUIRE(admit(&sa, &ip, msg, sizeof msg));
    REQUIRE(gr_admission_hand_over(sv[1], ip));
    REQUIRE_EQ(gr_admission_handing(), 1);
    REQUIRE_EQ(gr_admission_open_count(), 1);
    gr_admitted *g = gr_admission_open(sv[1]);
    REQUIRE(g != NULL);
    REQUIRE_EQ(gr_admission_handing(), 0);
    REQUIRE_EQ(gr_admission_open_count(), 1); /* the counts moved, not doubled */
    /* The address's count moved with it. */
    REQUIRE(!admit(&sa, &again, msg, sizeof msg));
    REQUIRE(gr_admission_head_arrived(g));
    gr_admission_request_ended(g);
    gr_admission_close(g);
    REQUIRE_EQ(gr_admission_open_count(), 0);
    REQUIRE(admit(&sa, &ip, msg, sizeof msg)); /* and was given back */

    /* take_back undoes a hand-over that libmicrohttpd refused. */
    REQUIRE(gr_admission_hand_over(sv[1], ip));
    REQUIRE_EQ(gr_admission_handing(), 1);
    gr_admission_take_back(sv[1]);
    REQUIRE_EQ(gr_admission_handing(), 0);
    REQUIRE_EQ(gr_admission_open_count(), 0);
    REQUIRE(admit(&sa, &ip, msg, sizeof msg));
    gr_admission_take_back(sv[1]); /* nothing handed over: nothing undone */
    REQUIRE_EQ(gr_admission_open_count(), 1);
    gr_admission_forget(ip);

    /* A descriptor past the table cannot be handed over. */
    REQUIRE(!gr_admission_hand_over(-1, NULL));
    REQUIRE_EQ(gr_admission_handing(), 0);
    /* A connection opened without a hand-over is still counted, so that
     * its close balances. */
    g = gr_admission_open(sv[0]);
    REQUIRE(g != NULL);
    REQUIRE_EQ(gr_admission_open_count(), 1);
    gr_admission_close(g);
    REQUIRE_EQ(gr_admission_open_count(), 0);
    close(sv[0]);
    close(sv[1]);
    gr_admission_stop();
}
END_TEST

START_TEST(test_idle_connection_makes_room)
{
    start(1, 0);
    int sv[2];
    REQUIRE_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    struct sockaddr_in sa = addr4("127.0.0.1", 40000);
    struct ip_slot *ip;
    char msg[256];

    gr_admitted *g = open_conn(&sa, sv[1]);
    /* Before its first head it is busy: no room. */
    REQUIRE(!admit(&sa, &ip, msg, sizeof msg));
    REQUIRE(strstr(msg, "--conn-limit") != NULL);
    REQUIRE(gr_admission_head_arrived(g));
    gr_admission_request_ended(g);
    /* Idle between two requests: the new connection takes its room, and
     * its socket is shut down. */
    REQUIRE_EQ(peer_reads(sv[0], 0), -1);
    REQUIRE(admit(&sa, &ip, msg, sizeof msg));
    REQUIRE_EQ(peer_reads(sv[0], 1000), 0);
    REQUIRE(!gr_admission_head_arrived(g)); /* its next head is refused */
    gr_admission_close(g);
    gr_admission_forget(ip);
    REQUIRE_EQ(gr_admission_open_count(), 0);
    close(sv[0]);
    close(sv[1]);

    /* A busy connection (head arrived, request not ended) is never reused. */
    REQUIRE_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    g = open_conn(&sa, sv[1]);
    REQUIRE(gr_admission_head_arrived(g));
    gr_admission_request_ended(g);
    REQUIRE(gr_admission_head_arrived(g)); /* its next request came */
    REQUIRE(!admit(&sa, &ip, msg, sizeof msg));
    REQUIRE(strstr(msg, "--conn-limit") != NULL);
    REQUIRE_EQ(peer_reads(sv[0], 0), -1); /* not shut down */
    gr_admission_request_ended(g);
    /* Its next request line has arrived (libmicrohttpd's URI callback):
     * busy again while the rest of the head comes, not reused. */
    gr_admission_busy(g);
    REQUIRE(!admit(&sa, &ip, msg, sizeof msg));
    REQUIRE_EQ(peer_reads(sv[0], 0), -1);
    REQUIRE(gr_admission_head_arrived(g));
    gr_admission_request_ended(g);
    REQUIRE(admit(&sa, &ip, msg, sizeof msg));
    REQUIRE_EQ(peer_reads(sv[0], 1000), 0);
    gr_admission_busy(g); /* a line that came after the cut: it stays cut */
    REQUIRE(!gr_admission_head_arrived(g));
    gr_admission_close(g);
    gr_admission_forget(ip);
    close(sv[0]);
    close(sv[1]);
    gr_admission_stop();
}
END_TEST

/* Of three idle connections, the one idle longest makes room first,
 * wherever it is listed; then the next longest. */
START_TEST(test_longest_idle_goes_first)
{
    start(3, 0);
    int sv[3][2];
    gr_admitted *g[3];
    struct sockaddr_in sa = addr4("127.0.0.1", 40000);
    for (int i = 0; i < 3; i++) {
        REQUIRE_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv[i]), 0);
        g[i] = open_conn(&sa, sv[i][1]);
        REQUIRE(gr_admission_head_arrived(g[i]));
    }
    /* Idle since: the middle one first, then the last, then the first
     * opened; idle times are in milliseconds, so a few apart. */
    static const int order[3] = { 1, 2, 0 };
    for (int k = 0; k < 3; k++) {
        gr_admission_request_ended(g[order[k]]);
        struct timespec wait = { 0, 3 * 1000 * 1000 };
        nanosleep(&wait, NULL);
    }
    struct ip_slot *ip[2];
    char msg[256];
    for (int k = 0; k < 2; k++) {
        REQUIRE(admit(&sa, &ip[k], msg, sizeof msg));
        for (int i = 0; i < 3; i++) {
            bool cut = false;
            for (int m = 0; m <= k; m++)
                cut |= order[m] == i;
            if (peer_reads(sv[i][0], cut ? 1000 : 0) != (cut ? 0 : -1))
                ck_abort_msg("admit %d: connection %d %s", k, i, cut ? "not shut down" : "shut down");
        }
    }
    REQUIRE(!gr_admission_head_arrived(g[1]));
    REQUIRE(!gr_admission_head_arrived(g[2]));
    REQUIRE(gr_admission_head_arrived(g[0]));
    for (int i = 0; i < 3; i++) {
        gr_admission_close(g[i]);
        close(sv[i][0]);
        close(sv[i][1]);
    }
    gr_admission_forget(ip[0]);
    gr_admission_forget(ip[1]);
    REQUIRE_EQ(gr_admission_open_count(), 0);
    gr_admission_stop();
}
END_TEST

static Suite *admission_suite(void)
{
    Suite *s = suite_create("admission");
    TCase *tc = tcase_create("limits");
    tcase_add_test(tc, test_conn_limit);
    tcase_add_test(tc, test_per_ip_limit);
    tcase_add_test(tc, test_hand_over_open_close);
    tcase_add_test(tc, test_idle_connection_makes_room);
    tcase_add_test(tc, test_longest_idle_goes_first);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return gr_check_run(admission_suite());
}
