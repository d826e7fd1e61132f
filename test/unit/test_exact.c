/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Unit test of the exact summation kernels (coll_rsag_exact_kernels.c):
 * random contributions over the whole double range (1e-300..1e300, both
 * signs, subnormals, zeros, near-overflow values, inf, NaN), extracted
 * one per "rank", summed along random binary trees (any algorithm's order
 * and grouping) and finished: the same bits every time, the same bits as
 * the one-collective (gathered) form, extra zero terms change nothing,
 * and the error within the bound of doc/reproducible.md against an exact
 * reference (a fixed-point accumulator over the whole double range).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll_rsag_exact_kernels.h"
#include "unit.h"

/* ---- a tiny deterministic generator ---------------------------------- */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static size_t rng_below(size_t n) { return (size_t) (rng() % n); }

static uint64_t bits(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof(b));
    return b;
}
static double from_bits(uint64_t b)
{
    double x;
    memcpy(&x, &b, sizeof(x));
    return x;
}

/* A contribution: mostly 1e-300..1e300 of either sign, some zeros,
 * subnormals, near-overflow values; `special` adds inf and NaN. */
static double random_value(int mode, bool special)
{
    uint64_t sign = (rng() & 1) ? 0x8000000000000000ULL : 0;
    uint64_t mant = rng() & ((1ULL << 52) - 1);
    unsigned what = (unsigned) rng_below(100);

    if (special && what < 4) {
        return (what < 2) ? from_bits(sign | 0x7ff0000000000000ULL)          /* +-inf */
                          : from_bits(0x7ff0000000000000ULL | (mant | 1));     /* a NaN */
    }
    if (what < 8) {
        return (what & 1) ? -0.0 : 0.0;
    }
    if (what < 14) {
        return from_bits(sign | mant);                                       /* subnormal */
    }
    switch (mode) {
    case 0:     /* 1e-300..1e300 */
        return from_bits(sign | ((uint64_t) (1023 - 996 + rng_below(2 * 996 + 1)) << 52) | mant);
    case 1:     /* a narrow range: cancellation */
        return from_bits(sign | ((uint64_t) (1023 + rng_below(4)) << 52) | mant);
    default:    /* near overflow: the scaled path */
        return from_bits(sign | ((uint64_t) (2040 + rng_below(7)) << 52) | mant);
    }
}

/* ---- the exact reference: a fixed-point number over 2^-1074..2^2200 ---- */
#define ACC_LIMBS 72
typedef struct { int64_t l[ACC_LIMBS]; } acc_t;

static void acc_norm(acc_t *a)
{
    for (int i = 0; i < ACC_LIMBS - 1; ++i) {
        int64_t c = a->l[i] >> 32;       /* floor */
        a->l[i] -= c * ((int64_t) 1 << 32);
        a->l[i + 1] += c;
    }
}

static void acc_add(acc_t *a, double x, int sign)
{
    uint64_t b = bits(x);
    int f = (int) ((b >> 52) & 0x7ff);
    uint64_t m = b & ((1ULL << 52) - 1);
    int o;
    unsigned __int128 v;

    if (b >> 63) {
        sign = -sign;
    }
    if (0 != f) {
        m |= 1ULL << 52;
    }
    o = (0 == f) ? 0 : f - 1;            /* bit of the mantissa's lowest bit */
    v = (unsigned __int128) m << (o % 32);
    a->l[o / 32] += sign * (int64_t) (uint64_t) (v & 0xffffffffu);
    a->l[o / 32 + 1] += sign * (int64_t) (uint64_t) ((v >> 32) & 0xffffffffu);
    a->l[o / 32 + 2] += sign * (int64_t) (uint64_t) (v >> 64);
    acc_norm(a);
}

/* The value, rounded (not correctly, to some 2^-60): enough for bounds. */
static double acc_value(const acc_t *in)
{
    acc_t a = *in;
    double v = 0.0;
    int sign = 1;

    acc_norm(&a);
    if (a.l[ACC_LIMBS - 1] < 0) {
        sign = -1;
        for (int i = 0; i < ACC_LIMBS; ++i) {
            a.l[i] = -a.l[i];
        }
        acc_norm(&a);
    }
    for (int i = ACC_LIMBS - 1; i >= 0; --i) {
        v += ldexp((double) a.l[i], 32 * i - 1074);
    }
    return sign * v;
}

/* ---- simulated collectives ------------------------------------------ */

/* One element over `n` contributions, as the three passes do it with the
 * contributions on ranks in a random order and `zeros` extra ranks
 * contributing 0, and MPI_SUM along a random binary tree. */
static double two_pass(const double *x, size_t n, size_t zeros)
{
    size_t terms = n + zeros;
    double *q = malloc(2 * terms * sizeof(double));
    int16_t E = 1;
    double S[2], r;

    for (size_t t = 0; t < terms; ++t) {
        int16_t f = mca_coll_rsag_exact_field(t < n ? x[t] : 0.0);
        E = f > E ? f : E;                       /* pass 1: MPI_MAX, any order */
    }
    for (size_t t = 0; t < terms; ++t) {
        double v = t < n ? x[t] : 0.0;
        mca_coll_rsag_exact_extract(&v, &E, 1, &q[2 * t]);
    }
    /* shuffle, then join two random partial sums until one is left */
    for (size_t t = terms; t > 1; --t) {
        size_t j = rng_below(t);
        double a0 = q[2 * (t - 1)], a1 = q[2 * (t - 1) + 1];
        q[2 * (t - 1)] = q[2 * j];
        q[2 * (t - 1) + 1] = q[2 * j + 1];
        q[2 * j] = a0;
        q[2 * j + 1] = a1;
    }
    for (size_t live = terms; live > 1; --live) {
        size_t i = rng_below(live), j = rng_below(live - 1);
        if (j >= i) {
            ++j;
        }
        q[2 * i] = q[2 * i] + q[2 * j];
        q[2 * i + 1] = q[2 * i + 1] + q[2 * j + 1];
        q[2 * j] = q[2 * (live - 1)];
        q[2 * j + 1] = q[2 * (live - 1) + 1];
    }
    S[0] = q[0];
    S[1] = q[1];
    mca_coll_rsag_exact_finish(S, &E, 1, &r);
    free(q);
    return r;
}

/* The same element through the one-collective form, contributions in a
 * random order among `zeros` zeros. */
static double gathered(const double *x, size_t n, size_t zeros)
{
    size_t terms = n + zeros;
    double *g = calloc(terms, sizeof(double)), r;
    size_t *slot = malloc(terms * sizeof(size_t));
    const void **src = malloc(terms * sizeof(*src));

    for (size_t t = 0; t < terms; ++t) {
        slot[t] = t;
    }
    for (size_t t = terms; t > 1; --t) {
        size_t j = rng_below(t), k = slot[t - 1];
        slot[t - 1] = slot[j];
        slot[j] = k;
    }
    for (size_t t = 0; t < n; ++t) {
        g[slot[t]] = x[t] + 0.0 + 0.0;           /* what MPI_SUM with zeros delivers */
    }
    for (size_t t = 0; t < terms; ++t) {
        src[t] = &g[t];
    }
    mca_coll_rsag_exact_fold(src, terms, false, 1, &r);
    free(g);
    free(slot);
    free(src);
    return r;
}

/* |result - exact| <= u |exact| + n 2^(e - 71) (1 + u), e the largest
 * exponent; doc/reproducible.md, the bound. */
static void check_bound(const double *x, size_t n, double r)
{
    acc_t a;
    double s, err, maxabs = 0.0, bound;
    int e = -1022;

    memset(&a, 0, sizeof(a));
    for (size_t t = 0; t < n; ++t) {
        int f = mca_coll_rsag_exact_field(x[t]);
        if (!isfinite(x[t])) {
            return;
        }
        acc_add(&a, x[t], 1);
        maxabs = fmax(maxabs, fabs(x[t]));
        e = (f - 1023 > e) ? f - 1023 : e;
    }
    s = acc_value(&a);
    if (!isfinite(r)) {
        CHECK(fabs(s) > 0x1.fffffffffffffp1023 * (1 - 0x1p-53), "overflow of a finite sum %a", s);
        return;
    }
    acc_add(&a, r, -1);
    err = fabs(acc_value(&a));
    bound = 0x1p-53 * fabs(s) + (double) n * ldexp(1.0, e - 71) * (1 + 0x1p-53);
    CHECK(err <= bound * (1 + 0x1p-40), "error %a > bound %a (n %zu, sum %a, result %a)", err,
          bound, n, s, r);
    CHECK(err <= 0x1p-53 * fabs(s) + 0x1p-55 * maxabs * (1 + 0x1p-40),
          "error %a > u|s| + 2^-55 max|x| (n %zu)", err, n);
}

static void check_element(const double *x, size_t n, bool bound)
{
    double ref = two_pass(x, n, 0);
    uint64_t b = bits(ref);

    for (int trial = 0; trial < 8; ++trial) {
        size_t zeros = (trial & 1) ? rng_below(16) : 0;
        double r = (trial & 2) ? gathered(x, n, zeros) : two_pass(x, n, zeros);

        CHECK(bits(r) == b, "order/grouping/form changed the bits: %a vs %a (n %zu)", r, ref, n);
    }
    if (bound) {
        check_bound(x, n, ref);
    }
}

static void test_random(void)
{
    double x[64];

    for (int mode = 0; mode < 3; ++mode) {
        for (int k = 0; k < 3000; ++k) {
            size_t n = 1 + rng_below(64);
            bool special = (k % 10 == 9);

            for (size_t t = 0; t < n; ++t) {
                x[t] = random_value(mode, special);
            }
            check_element(x, n, true);
        }
    }
}

/* 2^16 terms, all at the top of the largest binade and of one sign: the
 * partial sums' worst case (no overflow of the grids, still exact). */
static void test_max_terms(void)
{
    size_t n = MCA_COLL_RSAG_EXACT_MAX_TERMS;
    double *x = malloc(n * sizeof(double));
    const int exps[] = { -1022, -600, 0, 1, 500, 1005, 1006, 1023 };

    for (size_t k = 0; k < sizeof(exps) / sizeof(exps[0]); ++k) {
        for (size_t t = 0; t < n; ++t) {
            x[t] = ldexp(2.0 - ldexp(1.0, -52 + (int) (t % 3)), exps[k]) * ((k & 1) ? -1 : 1);
        }
        {
            double a = two_pass(x, n, 0), b = two_pass(x, n, 0), g = gathered(x, n, 0);
            CHECK(bits(a) == bits(b) && bits(a) == bits(g), "2^16 terms at 2^%d: %a %a %a",
                  exps[k], a, b, g);
            check_bound(x, n, a);
        }
    }
    free(x);
}

static void test_specials(void)
{
    const double inf = INFINITY, qnan = from_bits(0x7ff8000000000000ULL);
    double x[4], r;

    x[0] = -0.0; x[1] = -0.0;
    r = two_pass(x, 2, 0);
    CHECK(bits(r) == 0, "sum of -0s is +0 (got %a)", r);
    x[0] = 1.0; x[1] = inf; x[2] = 3.0;
    CHECK(two_pass(x, 3, 2) == inf, "1 + inf + 3 = inf");
    x[0] = -inf; x[1] = -5.0;
    CHECK(two_pass(x, 2, 0) == -inf, "-inf - 5 = -inf");
    x[0] = inf; x[1] = -inf;
    r = two_pass(x, 2, 0);
    CHECK(bits(r) == bits(qnan), "inf - inf is the canonical NaN (got %016llx)",
          (unsigned long long) bits(r));
    x[0] = from_bits(0xfff0000000000123ULL); x[1] = 1.0; x[2] = from_bits(0x7ff8000000000456ULL);
    r = two_pass(x, 3, 1);
    CHECK(bits(r) == bits(qnan), "NaN payloads made canonical (got %016llx)",
          (unsigned long long) bits(r));
    CHECK(bits(gathered(x, 3, 1)) == bits(qnan), "gathered: canonical NaN");
    x[0] = 0x1.fffffffffffffp1023; x[1] = 0x1.fffffffffffffp1023;
    CHECK(two_pass(x, 2, 0) == inf, "overflow of the sum gives inf");
    x[2] = -0x1.fffffffffffffp1023;
    CHECK(two_pass(x, 3, 0) == 0x1.fffffffffffffp1023, "no overflow of a partial sum");
    x[0] = 0x1p-1074; x[1] = 0x1p-1074; x[2] = -0x1p-1073; x[3] = 0x1p-1060;
    CHECK(two_pass(x, 4, 3) == 0x1p-1060, "subnormals are exact");
    x[0] = 1.0; x[1] = 0x1p-60; x[2] = -1.0;
    CHECK(two_pass(x, 3, 0) == 0x1p-60, "cancellation keeps 2^-60 (within 2^-70 of 1)");
    x[0] = 1e16; x[1] = 1.0; x[2] = -1e16;
    CHECK(two_pass(x, 3, 0) == 1.0, "1e16 + 1 - 1e16 = 1 exactly");
}

/* floats: loaded exactly, summed as doubles, rounded to float once */
static void test_float(void)
{
    float f[32], out, out2;

    for (int k = 0; k < 2000; ++k) {
        size_t n = 1 + rng_below(32);
        double x[32], r, g;

        for (size_t t = 0; t < n; ++t) {
            f[t] = (float) ldexp((double) (int32_t) (rng() >> 40), (int) rng_below(120) - 60);
        }
        mca_coll_rsag_exact_load(f, true, n, x);
        r = two_pass(x, n, rng_below(4));
        g = gathered(x, n, rng_below(4));
        mca_coll_rsag_exact_store(&r, true, 1, &out);
        mca_coll_rsag_exact_store(&g, true, 1, &out2);
        CHECK(0 == memcmp(&out, &out2, sizeof(float)), "float: forms agree");
        {
            acc_t a;
            double s, err;
            memset(&a, 0, sizeof(a));
            for (size_t t = 0; t < n; ++t) {
                acc_add(&a, x[t], 1);
            }
            s = acc_value(&a);
            acc_add(&a, (double) out, -1);
            err = fabs(acc_value(&a));
            CHECK(err <= (0x1p-24 + 0x1p-52) * fabs(s) * (1 + 0x1p-40) + 0x1p-140,
                  "float error %a for sum %a", err, s);
        }
    }
    {
        double nan = from_bits(0xfff8000000000000ULL);
        uint32_t b;
        mca_coll_rsag_exact_store(&nan, true, 1, &out);
        memcpy(&b, &out, sizeof(b));
        CHECK(0x7fc00000u == b, "float NaN canonical (got %08x)", b);
    }
}

/* The kernels over vectors: interleaving and several elements at once. */
static void test_vectors(void)
{
    enum { N = 40, P = 7 };
    double x[P][N], q[P][2 * N], S[2 * N], r1[N], r2[N], g[P * N];
    const void *src[P];
    int16_t E[N], e[N];

    for (int i = 0; i < N; ++i) {
        E[i] = 1;
    }
    for (int t = 0; t < P; ++t) {
        for (int i = 0; i < N; ++i) {
            x[t][i] = random_value(i % 3, i % 5 == 4);
            g[t * N + i] = x[t][i];
        }
        mca_coll_rsag_exact_fields(x[t], N, e);
        for (int i = 0; i < N; ++i) {
            E[i] = e[i] > E[i] ? e[i] : E[i];
        }
    }
    memset(S, 0, sizeof(S));
    for (int t = P - 1; t >= 0; --t) {
        mca_coll_rsag_exact_extract(x[t], E, N, q[t]);
        for (int i = 0; i < 2 * N; ++i) {
            S[i] += q[t][i];
        }
    }
    mca_coll_rsag_exact_finish(S, E, N, r1);
    for (int t = 0; t < P; ++t) {
        src[t] = &g[t * N];
    }
    mca_coll_rsag_exact_fold(src, P, false, N, r2);
    CHECK(0 == memcmp(r1, r2, sizeof(r1)), "vector kernels: two-pass == fold");
}

/* The fold over long vectors (several of its sub-blocks, a partial last
 * one), float and double sources, unaligned ones, the result written over
 * a source: the two passes' bits, element by element. */
static void test_fold(void)
{
    enum { N = 700, P = 5 };
    static double x[P][N], r[N], ref[N];
    static char raw[P][N * sizeof(double) + 1];
    static float f[P][N], fr[N], fref[N];
    const void *src[P];

    for (int t = 0; t < P; ++t) {
        for (int i = 0; i < N; ++i) {
            x[t][i] = random_value(i % 3, i % 97 == 5);
            f[t][i] = (float) ldexp((double) (int32_t) (rng() >> 40), (int) (i % 90) - 45);
        }
        memcpy(raw[t] + 1, x[t], sizeof(x[t]));
    }
    for (int i = 0; i < N; ++i) {
        double col[P], fcol[P];

        for (int t = 0; t < P; ++t) {
            col[t] = x[t][i];
            fcol[t] = (double) f[t][i];
        }
        ref[i] = two_pass(col, P, 0);
        {
            double v = two_pass(fcol, P, 0);
            mca_coll_rsag_exact_store(&v, true, 1, &fref[i]);
        }
    }
    for (int t = 0; t < P; ++t) {
        src[t] = raw[t] + 1;                    /* doubles at an odd address */
    }
    mca_coll_rsag_exact_fold(src, P, false, N, r);
    CHECK(0 == memcmp(r, ref, sizeof(r)), "fold: unaligned doubles == two passes");
    for (int t = 0; t < P; ++t) {
        src[t] = f[t];
    }
    mca_coll_rsag_exact_fold(src, P, true, N, fr);
    CHECK(0 == memcmp(fr, fref, sizeof(fr)), "fold: floats == two passes, rounded once");
    for (int t = 0; t < P; ++t) {
        src[t] = x[t];
    }
    mca_coll_rsag_exact_fold(src, P, false, N, x[2]);   /* over its own third source */
    CHECK(0 == memcmp(x[2], ref, sizeof(ref)), "fold: result over a source");
    /* the smallest fields (zeros, -0, subnormals, the smallest normals:
     * sigma2 subnormal), which the fold cuts in its vector loops too */
    for (int t = 0; t < P; ++t) {
        for (int i = 0; i < N; ++i) {
            int kind = (i + t) % 5;
            double v = ldexp((double) (int32_t) (rng() >> 33), (int) (i % 70) - 1074);

            x[t][i] = 0 == kind ? 0.0 : 1 == kind ? -0.0 : (i % 7 == 0) ? -v : v;
        }
        src[t] = x[t];
    }
    for (int i = 0; i < N; ++i) {
        double col[P];

        for (int t = 0; t < P; ++t) {
            col[t] = x[t][i];
        }
        ref[i] = two_pass(col, P, 0);
    }
    mca_coll_rsag_exact_fold(src, P, false, N, r);
    CHECK(0 == memcmp(r, ref, sizeof(r)), "fold: tiny fields == two passes");
    for (int t = 0; t < P; ++t) {
        memset(x[t], 0, sizeof(x[t]));
        x[t][7] = -0.0;
    }
    mca_coll_rsag_exact_fold(src, P, false, N, r);
    CHECK(0 == bits(r[0]) && 0 == bits(r[7]), "fold: zeros and -0s sum to +0");
}

int main(void)
{
    test_specials();
    test_random();
    test_max_terms();
    test_float();
    test_vectors();
    test_fold();
    return unit_report("test_exact");
}
