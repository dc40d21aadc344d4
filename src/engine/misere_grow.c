/* A new generator for heap n (misere_grow.h): Q x <a | a^(k+2) = a^k>,
 * P by retrograde analysis over each element's least representative,
 * indistinguishable elements merged, the submonoid the phi-values generate
 * kept, and the result verified over every sum of heaps <= n. */
#include <stdlib.h>
#include <string.h>

#include "misere_grow.h"

#define MQ_MAX_K 5u /* a^(k+2) = a^k is tried for k = 2 .. MQ_MAX_K */

/* Q x C_k: element (q, c) is c * m + q, c in 0 .. k + 1. */
typedef struct product {
    const mq_table *q;
    uint32_t m, k, size;
    uint8_t *in_p;
} product;

static uint32_t pmul(const product *P, uint32_t x, uint32_t y)
{
    uint32_t q = P->q->mul[(size_t)(x % P->m) * P->m + y % P->m];
    uint32_t c = x / P->m + y / P->m;
    if (c > P->k + 1)
        c = P->k + ((c - P->k) & 1);
    return c * P->m + q;
}

/* Least representatives of the old quotient: dist[q] tokens, reached from
 * par[q] by adding heap via[q] (Dijkstra over the heaps < n). */
typedef struct reps {
    uint64_t *dist, *via;
    uint16_t *par;
} reps;

static void reps_free(reps *r)
{
    free(r->dist);
    free(r->via);
    free(r->par);
}

static gr_status least_reps(const mq_builder *bd, uint64_t n, reps *r)
{
    uint32_t m = bd->q.order;
    r->dist = malloc(m * sizeof *r->dist);
    r->via = calloc(m, sizeof *r->via);
    r->par = calloc(m, sizeof *r->par);
    bool *done = calloc(m, sizeof *done);
    gr_status st = r->dist && r->via && r->par && done ? GR_OK : GR_ENOMEM;
    for (uint32_t x = 0; st == GR_OK && x < m; x++)
        r->dist[x] = x ? UINT64_MAX : 0;
    for (uint32_t round = 0; st == GR_OK && round < m; round++) {
        uint32_t best = m;
        for (uint32_t x = 0; x < m; x++)
            if (!done[x] && r->dist[x] != UINT64_MAX && (best == m || r->dist[x] < r->dist[best]))
                best = x;
        if (best == m)
            break;
        done[best] = true;
        if (!gr_budget_spend(bd->b, n))
            st = GR_ELIMIT;
        for (uint64_t h = 1; st == GR_OK && h < n; h++) {
            uint16_t y = bd->q.mul[(size_t)best * m + bd->phi[h]];
            if (r->dist[best] + h < r->dist[y]) {
                r->dist[y] = r->dist[best] + h;
                r->par[y] = (uint16_t)best;
                r->via[y] = h;
            }
        }
    }
    free(done);
    return st;
}

static _Thread_local const reps *sort_reps;
static _Thread_local uint64_t sort_n;
static _Thread_local uint32_t sort_m;

static int by_key(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    uint64_t kx = sort_reps->dist[x % sort_m] + (x / sort_m) * sort_n;
    uint64_t ky = sort_reps->dist[y % sort_m] + (y / sort_m) * sort_n;
    return (kx > ky) - (kx < ky);
}

/* P of (q, c): the position rep(q) + c heaps n has a move and none into P. */
static bool element_in_p(const mq_builder *bd, const product *P, const reps *r, uint64_t n,
                         uint32_t e, uint64_t *heaps, uint16_t *pre)
{
    uint32_t m = P->m, q = e % m, c = e / m;
    size_t len = 0;
    for (uint32_t x = q; x != 0; x = r->par[x])
        heaps[len++] = r->via[x];
    pre[0] = 0;
    for (size_t i = 0; i < len; i++)
        pre[i + 1] = bd->q.mul[(size_t)pre[i] * m + bd->phi[heaps[i]]];
    bool moves = false;
    uint16_t suffix = 0;
    for (size_t j = len; j-- > 0;) {
        uint16_t others = bd->q.mul[(size_t)pre[j] * m + suffix];
        for (uint32_t tau = 0; tau < m; tau++) {
            if (!mq_bit(&bd->trans[heaps[j]], tau))
                continue;
            moves = true;
            if (P->in_p[c * m + bd->q.mul[(size_t)others * m + tau]])
                return false;
        }
        suffix = bd->q.mul[(size_t)suffix * m + bd->phi[heaps[j]]];
    }
    for (uint32_t tau = 0; c > 0 && tau < m; tau++) {
        if (!mq_bit(&bd->trans[n], tau))
            continue;
        moves = true;
        if (P->in_p[(c - 1) * m + bd->q.mul[(size_t)q * m + tau]])
            return false;
    }
    return moves;
}

static gr_status retrograde(const mq_builder *bd, product *P, uint64_t n)
{
    reps r = { 0 };
    uint32_t *order = malloc(P->size * sizeof *order);
    uint64_t *heaps = malloc((P->m + 1) * sizeof *heaps);
    uint16_t *pre = malloc((P->m + 2) * sizeof *pre);
    gr_status st = order && heaps && pre ? least_reps(bd, n, &r) : GR_ENOMEM;
    if (st == GR_OK) {
        for (uint32_t e = 0; e < P->size; e++)
            order[e] = e;
        sort_reps = &r;
        sort_n = n;
        sort_m = P->m;
        qsort(order, P->size, sizeof *order, by_key);
        for (uint32_t i = 0; i < P->size && st == GR_OK; i++) {
            if (!gr_budget_spend(bd->b, (uint64_t)P->m * 4))
                st = GR_ELIMIT;
            else
                P->in_p[order[i]] = element_in_p(bd, P, &r, n, order[i], heaps, pre);
        }
    }
    reps_free(&r);
    free(order);
    free(heaps);
    free(pre);
    return st;
}

/* ---- merging indistinguishable elements of the generated submonoid ---- */

typedef struct classes {
    uint32_t *gen, ngen;   /* generators, in P's numbering */
    uint32_t *reach, nreach; /* reachable elements, identity first */
    uint32_t *cls;         /* class of each reachable element (P's numbering) */
    uint32_t count;
} classes;

static void classes_free(classes *c)
{
    free(c->gen);
    free(c->reach);
    free(c->cls);
}

static gr_status generate(const mq_builder *bd, const product *P, uint64_t n, classes *c)
{
    c->gen = malloc((n + 1) * sizeof *c->gen);
    c->reach = malloc(P->size * sizeof *c->reach);
    c->cls = malloc(P->size * sizeof *c->cls);
    if (!c->gen || !c->reach || !c->cls)
        return GR_ENOMEM;
    for (uint64_t h = 1; h <= n; h++) {
        uint32_t g = h < n ? bd->phi[h] : P->m;
        bool seen = g == 0;
        for (uint32_t i = 0; i < c->ngen && !seen; i++)
            seen = c->gen[i] == g;
        if (!seen)
            c->gen[c->ngen++] = g;
    }
    for (uint32_t e = 0; e < P->size; e++)
        c->cls[e] = UINT32_MAX;
    c->reach[c->nreach++] = 0;
    c->cls[0] = 0;
    for (uint32_t i = 0; i < c->nreach; i++)
        for (uint32_t j = 0; j < c->ngen; j++) {
            uint32_t y = pmul(P, c->reach[i], c->gen[j]);
            if (c->cls[y] == UINT32_MAX) {
                c->cls[y] = 0;
                c->reach[c->nreach++] = y;
            }
        }
    return GR_OK;
}

/* One refinement: elements with equal (class, classes after each
 * generator) share a new class, numbered in order of first reach. */
static gr_status refine(const product *P, classes *c, bool *changed)
{
    uint32_t width = c->ngen + 1, nslots = 1;
    while (nslots < 2 * c->nreach)
        nslots *= 2;
    uint32_t *sig = malloc((size_t)c->nreach * width * sizeof *sig);
    uint32_t *slot = malloc(nslots * sizeof *slot);
    uint32_t *fresh = malloc(P->size * sizeof *fresh);
    if (!sig || !slot || !fresh) {
        free(sig), free(slot), free(fresh);
        return GR_ENOMEM;
    }
    memset(slot, 0xff, nslots * sizeof *slot);
    uint32_t count = 0;
    for (uint32_t i = 0; i < c->nreach; i++) {
        uint32_t x = c->reach[i], *s = sig + (size_t)i * width;
        s[0] = c->cls[x];
        uint64_t h = s[0] * 0x9e3779b97f4a7c15u;
        for (uint32_t j = 0; j < c->ngen; j++) {
            s[j + 1] = c->cls[pmul(P, x, c->gen[j])];
            h = (h ^ s[j + 1]) * 0xbf58476d1ce4e5b9u;
        }
        uint32_t k = (uint32_t)(h >> 20) & (nslots - 1);
        while (slot[k] != UINT32_MAX &&
               memcmp(sig + (size_t)slot[k] * width, s, width * sizeof *s) != 0)
            k = (k + 1) & (nslots - 1);
        if (slot[k] == UINT32_MAX) {
            slot[k] = i;
            fresh[x] = count++;
        } else {
            fresh[x] = fresh[c->reach[slot[k]]];
        }
    }
    *changed = count != c->count;
    c->count = count;
    for (uint32_t i = 0; i < c->nreach; i++)
        c->cls[c->reach[i]] = fresh[c->reach[i]];
    free(sig), free(slot), free(fresh);
    return GR_OK;
}

static gr_status merge(const mq_builder *bd, const product *P, uint64_t n, classes *c)
{
    gr_status st = generate(bd, P, n, c);
    if (st != GR_OK)
        return st;
    for (uint32_t i = 0; i < c->nreach; i++)
        c->cls[c->reach[i]] = P->in_p[c->reach[i]] ? 1 : 0;
    c->count = 0;
    for (bool changed = true; changed && st == GR_OK;) {
        if (!gr_budget_spend(bd->b, (uint64_t)c->nreach * (c->ngen + 1)))
            return GR_ELIMIT;
        st = refine(P, c, &changed);
    }
    return st;
}

/* The merged quotient as a table, one representative per class. */
static gr_status quotient_table(const product *P, const classes *c, mq_table *t)
{
    t->order = c->count;
    t->mul = malloc((size_t)c->count * c->count * sizeof *t->mul);
    t->in_p = malloc(c->count);
    uint32_t *rep = malloc(c->count * sizeof *rep);
    if (!t->mul || !t->in_p || !rep) {
        free(rep);
        return GR_ENOMEM;
    }
    for (uint32_t i = c->nreach; i-- > 0;)
        rep[c->cls[c->reach[i]]] = c->reach[i];
    for (uint32_t a = 0; a < c->count; a++) {
        t->in_p[a] = P->in_p[rep[a]];
        for (uint32_t b = 0; b < c->count; b++)
            t->mul[(size_t)a * c->count + b] = (uint16_t)c->cls[pmul(P, rep[a], rep[b])];
    }
    free(rep);
    return GR_OK;
}

/* Verifies table t with phi over every sum of heaps <= n. */
static int verify_all(mq_builder *bd, mq_table *t, const uint16_t *phi, mq_bits *trans,
                      uint64_t n, mq_verify *v)
{
    int rc = mq_verify_init(v, t);
    for (uint64_t h = 1; rc == GR_OK && h <= n; h++) {
        mq_transitions(bd->r, t, phi, h, &trans[h]);
        rc = mq_verify_add(v, phi[h], &trans[h], true, bd->b);
    }
    return rc;
}

/* Tries Q x <a | a^(k+2) = a^k>; on success the builder takes it over. */
static int try_generator(mq_builder *bd, uint64_t n, uint32_t k)
{
    product P = { .q = &bd->q, .m = bd->q.order, .k = k };
    P.size = P.m * (k + 2);
    P.in_p = calloc(P.size, 1);
    classes c = { 0 };
    mq_table t = { 0 };
    mq_verify v = { 0 };
    uint16_t *phi = malloc((n + 1) * sizeof *phi);
    mq_bits *trans = malloc((n + 1) * sizeof *trans);
    int rc = P.in_p && phi && trans ? retrograde(bd, &P, n) : GR_ENOMEM;
    if (rc == GR_OK)
        rc = merge(bd, &P, n, &c);
    if (rc == GR_OK && c.count > GR_MQ_MAX_ORDER)
        rc = GR_MQ_TOO_LARGE;
    if (rc == GR_OK)
        rc = quotient_table(&P, &c, &t);
    if (rc == GR_OK) {
        for (uint64_t h = 0; h < n; h++)
            phi[h] = (uint16_t)c.cls[bd->phi[h]];
        phi[n] = (uint16_t)c.cls[P.m];
        memset(&trans[0], 0, sizeof trans[0]);
        rc = verify_all(bd, &t, phi, trans, n, &v);
    }
    if (rc == GR_OK) {
        free(bd->q.mul), free(bd->q.in_p);
        bd->q = t;
        memcpy(bd->phi, phi, (n + 1) * sizeof *phi);
        memcpy(bd->trans, trans, (n + 1) * sizeof *trans);
        mq_verify_free(&bd->v);
        bd->v = v;
        bd->v.t = &bd->q;
        bd->last_growth = n;
        bd->generators++;
    } else {
        mq_verify_free(&v);
        free(t.mul), free(t.in_p);
    }
    classes_free(&c);
    free(P.in_p), free(phi), free(trans);
    return rc;
}

int mq_grow(mq_builder *bd, uint64_t n)
{
    int rc = 1;
    for (uint32_t k = 2; k <= MQ_MAX_K && rc == 1; k++)
        rc = try_generator(bd, n, k);
    return rc;
}
