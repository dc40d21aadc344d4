/* SPDX-License-Identifier: MIT */
/* Misere quotient benchmark (bench/misere.sh), CPU time of one core:
 *   - building the quotient of Kayles (0.77) to its certified period, and
 *     of every code 0.d1 and 0.d1d2 (to a period, a stop, or heap 200);
 *   - answering misere Kayles sums of 1,000 heaps, each up to 10^18, with a
 *     winning move: the mean compute time of one answer, every answer checked
 *     (the move's option leaves a product in P). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "grundy/misere_quotient.h"

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static gr_mq build(const char *text, uint64_t max_heap)
{
    gr_octal_code code;
    if (gr_octal_parse(text, &code) != GR_OK)
        exit(2);
    gr_mq_rules r = gr_mq_octal(&code);
    gr_budget b = gr_budget_make(UINT64_C(1) << 42);
    gr_mq q;
    if (gr_mq_build(&r, max_heap, &b, &q) != GR_OK)
        exit(2);
    return q;
}

static int check_move(const gr_mq *q, const uint64_t *h, size_t n, size_t pile, const gr_heap_move *mv)
{
    uint16_t x = 0;
    for (size_t i = 0; i < n; i++)
        if (i != pile)
            x = gr_mq_mul(q, x, gr_mq_phi(q, h[i]));
    for (unsigned p = 0; p < mv->nparts; p++)
        x = gr_mq_mul(q, x, gr_mq_phi(q, mv->part[p]));
    return q->in_p[x] ? 0 : 1;
}

int main(void)
{
    double t0 = cpu_s();
    gr_mq kayles = build("0.77", 10000);
    double t1 = cpu_s();
    printf("kayles quotient: order %u, |P| %u, period %llu from heap %llu, certified at heap %llu: %.3f s\n",
           kayles.order, kayles.p_size, (unsigned long long)kayles.period,
           (unsigned long long)kayles.preperiod, (unsigned long long)kayles.bound, t1 - t0);

    enum { HEAPS = 1000, ROUNDS = 2000 };
    static uint64_t h[HEAPS];
    uint64_t s = 1, wins = 0, bad = 0;
    double solve = 0;
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < HEAPS; i++) {
            s = s * 6364136223846793005u + 1442695040888963407u;
            h[i] = (s >> 4) % UINT64_C(1000000000000000000) + 1;
        }
        bool win;
        size_t pile;
        gr_heap_move mv;
        gr_budget b = gr_budget_make(UINT64_C(1) << 40);
        double a = cpu_s();
        if (gr_mq_solve(&kayles, h, HEAPS, &b, &win, &pile, &mv) != GR_OK)
            return 2;
        solve += cpu_s() - a;
        if (win && pile != SIZE_MAX) {
            wins++;
            bad += (uint64_t)check_move(&kayles, h, HEAPS, pile, &mv);
        }
    }
    printf("misere kayles sums of %d heaps up to 10^18: %.1f us per answer (%llu of %d with a winning "
           "move, %llu wrong)\n", HEAPS, solve / ROUNDS * 1e6, (unsigned long long)wins, ROUNDS,
           (unsigned long long)bad);
    gr_mq_free(&kayles);

    double all = 0;
    int periodic = 0, codes = 0;
    for (int d1 = 0; d1 < 8; d1++)
        for (int d2 = 0; d2 < 8; d2++) {
            if (d1 == 0 && d2 == 0)
                continue;
            char text[8] = { '0', '.', (char)('0' + d1), d2 ? (char)('0' + d2) : 0, 0 };
            double a = cpu_s();
            gr_mq q = build(text, 200);
            all += cpu_s() - a;
            periodic += q.periodic;
            codes++;
            gr_mq_free(&q);
        }
    printf("every 1-2 digit octal code (%d): %d with a certified period, %.2f s in all\n", codes,
           periodic, all);
    return bad ? 1 : 0;
}
