/* SPDX-License-Identifier: MIT */
/* Misere quotients of heap games (octal codes, subtraction sets, Grundy's
 * game), after Plambeck and Siegel, "Misere quotients for impartial games"
 * (JCTA 2008, arXiv math/0609825).
 *
 * A quotient is a finite commutative monoid Q (element 0 is the identity),
 * a P-portion P of Q and a pretending function phi from heap sizes to Q with
 * phi(0) = 0: a sum of heaps h1 + ... + hk is a misere P-position (the
 * player to move loses; the player who cannot move wins) exactly when
 * phi(h1) * ... * phi(hk) lies in P.
 *
 * gr_mq_build computes the quotient of the game restricted to heaps <= n,
 * heap by heap. Heap n first tries a conservative extension (an existing
 * element becomes phi(n)); otherwise a new cyclic generator a with
 * a^(k+2) = a^k (k = 2, 3, ...) joins Q, P is recomputed by retrograde
 * analysis over least representatives, indistinguishable elements are
 * merged and Q is cut to the submonoid the phi-values generate. Every
 * extension is then verified exactly, over all sums of heaps <= n: the
 * positions are summarised by (their element, the elements z for which
 * adding z leaves a move into P), with each heap type's multiplicity capped
 * where its powers repeat, which loses no position. An extension that fails
 * to verify, or that needs more than GR_MQ_MAX_ORDER elements or
 * GR_MQ_MAX_STATES summaries, ends the construction: the quotient then covers
 * the heaps up to `bound`, exactly, and `stop` says why it ended.
 *
 * Periodicity: phi(n + p) = phi(n) for n0 <= n <= bound - p, with Q
 * unchanged since heap n0 + p - 1, is accepted once bound >= 2 n0 + 2 p + t + 1
 * (t = the largest number of tokens a move removes), the criterion of
 * Plambeck and Siegel's periodicity theorem for games whose moves leave at
 * most two heaps. Grundy's game takes no such certificate. */
#ifndef GRUNDY_MISERE_QUOTIENT_H
#define GRUNDY_MISERE_QUOTIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grundy/budget.h"
#include "grundy/heap.h"
#include "grundy/heapplay.h"
#include "grundy/octal.h"
#include "grundy/status.h"

#define GR_MQ_MAX_ORDER 256u      /* elements of a quotient, at most */
#define GR_MQ_MAX_STATES (1u << 19) /* position summaries of one verification */
#define GR_MQ_MAX_SUB 16u          /* moves of a subtraction set */

typedef enum gr_mq_kind { GR_MQ_OCTAL, GR_MQ_SUBTRACTION, GR_MQ_GRUNDYS } gr_mq_kind;

/* The game's rules, held by value. */
typedef struct gr_mq_rules {
    gr_mq_kind kind;
    gr_octal_code code;           /* GR_MQ_OCTAL */
    uint64_t sub[GR_MQ_MAX_SUB];  /* GR_MQ_SUBTRACTION: distinct, ascending, >= 1 */
    size_t nsub;
} gr_mq_rules;

typedef struct gr_mq {
    gr_mq_rules rules;
    uint32_t order;       /* |Q| */
    uint32_t p_size;      /* |P| */
    uint16_t *mul;        /* mul[x * order + y] */
    uint8_t *in_p;        /* in_p[x]: x lies in P */
    uint16_t *phi;        /* phi[0 .. bound] */
    uint64_t bound;       /* every sum of heaps <= bound is decided */
    bool periodic;        /* and then every heap size: phi has period `period` from `preperiod` */
    uint64_t preperiod, period;
    uint64_t last_growth; /* the last heap that added a generator (0: none) */
    uint32_t generators;  /* generators added */
    const char *stop;     /* why construction ended before max_heap without a period, or NULL */
} gr_mq;

/* The rules for an octal code, a subtraction set (GR_EINVAL past
 * GR_MQ_MAX_SUB moves or a zero move) and Grundy's game. */
gr_mq_rules gr_mq_octal(const gr_octal_code *code);
gr_status gr_mq_subtraction(const uint64_t *moves, size_t nmoves, gr_mq_rules *out);
gr_mq_rules gr_mq_grundys(void);

/* The most tokens one move removes (the t of the periodicity criterion). */
uint64_t gr_mq_reach(const gr_mq_rules *r);

/* The moves of heap n; a split leaves a <= b with a <= max_small (pass
 * UINT64_MAX for all of them). */
void gr_mq_moves(const gr_mq_rules *r, uint64_t n, uint64_t max_small, gr_heap_emit emit,
                 void *arg);

/* Builds the quotient up to heap max_heap, or until a period is certified,
 * or until budget, size caps or a failed verification end it (q->stop;
 * q->bound is then what is covered). GR_ENOMEM only when memory runs out;
 * free with gr_mq_free either way. */
gr_status gr_mq_build(const gr_mq_rules *r, uint64_t max_heap, gr_budget *b, gr_mq *q);
void gr_mq_free(gr_mq *q);

/* Whether heap n is covered, and its element (only when covered). */
bool gr_mq_covers(const gr_mq *q, uint64_t n);
uint16_t gr_mq_phi(const gr_mq *q, uint64_t n);

static inline uint16_t gr_mq_mul(const gr_mq *q, uint16_t x, uint16_t y)
{
    return q->mul[(size_t)x * q->order + y];
}

/* The element of heaps[0..n) (all covered). */
uint16_t gr_mq_product(const gr_mq *q, const uint64_t *heaps, size_t n);

/* Misere outcome of the sum heaps[0..n) (all covered): *win for the player to
 * move; when *win and a move exists, *pile and *mv give a move to a
 * P-position, found by prefix and suffix products. GR_ENOMEM, or GR_ELIMIT
 * when the budget runs out. */
gr_status gr_mq_solve(const gr_mq *q, const uint64_t *heaps, size_t n, gr_budget *b, bool *win,
                      size_t *pile, gr_heap_move *mv);

/* The same question by memoised direct search over sums (the twin of the
 * quotient, and the answer where no quotient covers): GR_ELIMIT past the
 * budget or GR_HEAPPLAY_MAX_STATES positions. */
gr_status gr_mq_direct(const gr_mq_rules *r, const uint64_t *heaps, size_t n, gr_budget *b,
                       bool *win, size_t *pile, gr_heap_move *mv);

/* Conway's genus g^{gamma_0 gamma_1 ...} of heap n (On Numbers and Games,
 * ch. 12): g its normal Grundy value, gamma_0 its misere Grundy value (1 at a
 * terminal position), gamma_i the mex of gamma_(i-1), gamma_(i-1) ^ 1 and the
 * options' gamma_i; the first GR_GENUS_LEN of them (the sequence has period
 * 2 from there on). `tame`: the heap and every position below it have the
 * genus of a nim heap (0^{1202}, 1^{0313}, g^{g, g^2, ...}), so sums of such
 * heaps play as misere nim of their g. `wide`: a value past 62 was met (not
 * tracked; then not tame). By memoised search over the positions below
 * heap n: GR_ELIMIT past the budget. */
#define GR_GENUS_LEN 4u
typedef struct gr_genus {
    uint16_t g;
    uint8_t gamma[GR_GENUS_LEN];
    bool tame, wide;
} gr_genus;
gr_status gr_mq_genus(const gr_mq_rules *r, uint64_t heap, gr_budget *b, gr_genus *out);

#endif
