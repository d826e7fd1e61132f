/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Unit tests of coll_rsag_op_kernels.c (no MPI): hand-computed results of
 * the kernels at the places Open MPI's op components went wrong (8/16-bit
 * wrap-around, unsigned compare with the top bit set) and at the MPI
 * semantics that are easy to get wrong (logical ops give 0/1, MAXLOC and
 * MINLOC keep the smaller index on a tie), plus the generator and the
 * comparison the start-up self-test relies on.
 */
#include <complex.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll_rsag_op_kernels.h"
#include "unit.h"

#define K(kind) MCA_COLL_RSAG_OPK_##kind
#define OP(op) MCA_COLL_RSAG_OPK_OP_##op

/* r = a (op) b on one element of C type T, through the 3-buffer form. */
#define APPLY(T, kind, op, x, y) apply_##kind(K(kind), OP(op), x, y)
#define DEFINE_APPLY(T, kind)                                                      \
    static T apply_##kind(mca_coll_rsag_opk_kind_t k, mca_coll_rsag_opk_op_t o, T x, T y) \
    {                                                                              \
        T r;                                                                       \
        mca_coll_rsag_opk_fn_t fn = mca_coll_rsag_opk_get(k, o);                   \
        memset(&r, 0x5a, sizeof(r));                                               \
        if (NULL != fn) {                                                          \
            fn(&x, &y, &r, 1);                                                     \
        }                                                                          \
        return r;                                                                  \
    }
DEFINE_APPLY(int8_t, INT8)
DEFINE_APPLY(uint8_t, UINT8)
DEFINE_APPLY(int16_t, INT16)
DEFINE_APPLY(uint16_t, UINT16)
DEFINE_APPLY(int32_t, INT32)
DEFINE_APPLY(int64_t, INT64)
DEFINE_APPLY(uint64_t, UINT64)
DEFINE_APPLY(long, LONG)
DEFINE_APPLY(unsigned long, ULONG)
DEFINE_APPLY(float, FLOAT)
DEFINE_APPLY(double, DOUBLE)
DEFINE_APPLY(_Bool, BOOL)
DEFINE_APPLY(double _Complex, CDOUBLE)

typedef struct { double v; int k; } pair_double_int;
typedef struct { int v; int k; } pair_int_int;
DEFINE_APPLY(pair_double_int, PAIR_DOUBLE_INT)
DEFINE_APPLY(pair_int_int, PAIR_INT_INT)

static void test_integers(void)
{
    CHECK(APPLY(int8_t, INT8, SUM, 100, 100) == -56, "int8 100+100 wraps");
    CHECK(APPLY(int8_t, INT8, SUM, -128, -1) == 127, "int8 -128-1 wraps");
    CHECK(APPLY(uint8_t, UINT8, SUM, 200, 100) == 44, "uint8 200+100 wraps");
    CHECK(APPLY(int16_t, INT16, SUM, 30000, 30000) == -5536, "int16 wraps");
    CHECK(APPLY(uint16_t, UINT16, PROD, 65535, 65535) == 1, "uint16 prod wraps");
    CHECK(APPLY(int8_t, INT8, PROD, -128, -1) == -128, "int8 -128*-1");
    CHECK(APPLY(int32_t, INT32, PROD, 65536, 65536) == 0, "int32 prod wraps");
    CHECK(APPLY(int64_t, INT64, SUM, INT64_MAX, 1) == INT64_MIN, "int64 wraps");
    CHECK(APPLY(uint64_t, UINT64, MAX, UINT64_C(1) << 63, 1) == UINT64_C(1) << 63,
          "uint64 max, top bit");
    CHECK(APPLY(unsigned long, ULONG, MAX, ULONG_MAX, 1) == ULONG_MAX, "ulong max");
    CHECK(APPLY(unsigned long, ULONG, MIN, ULONG_MAX, 1) == 1, "ulong min");
    CHECK(APPLY(long, LONG, MAX, -1, 1) == 1, "long max signed");
    CHECK(APPLY(long, LONG, MIN, LONG_MIN, 1) == LONG_MIN, "long min signed");
    CHECK(APPLY(int8_t, INT8, MIN, -128, 127) == -128, "int8 min");
    CHECK(APPLY(uint8_t, UINT8, MAX, 255, 1) == 255, "uint8 max");
    CHECK(APPLY(int32_t, INT32, LAND, 5, 3) == 1, "land gives 1");
    CHECK(APPLY(int32_t, INT32, LAND, 5, 0) == 0, "land gives 0");
    CHECK(APPLY(int32_t, INT32, LOR, 0, -7) == 1, "lor gives 1");
    CHECK(APPLY(int32_t, INT32, LOR, 0, 0) == 0, "lor gives 0");
    CHECK(APPLY(int32_t, INT32, LXOR, 5, 3) == 0, "lxor of two trues");
    CHECK(APPLY(int32_t, INT32, LXOR, 5, 0) == 1, "lxor of true, false");
    CHECK(APPLY(uint8_t, UINT8, BAND, 0xf0, 0x3c) == 0x30, "band");
    CHECK(APPLY(uint8_t, UINT8, BOR, 0xf0, 0x3c) == 0xfc, "bor");
    CHECK(APPLY(uint8_t, UINT8, BXOR, 0xf0, 0x3c) == 0xcc, "bxor");
    CHECK(APPLY(int16_t, INT16, BXOR, -1, 0x00ff) == (int16_t) 0xff00, "bxor int16");
}

static void test_others(void)
{
    pair_double_int a = { 2.0, 7 }, b = { 2.0, 3 }, c = { 1.0, 9 }, r;
    pair_int_int p = { -1, 4 }, q = { -1, 2 }, s;
    double _Complex z;

    CHECK(APPLY(float, FLOAT, SUM, 0.25f, -1.5f) == -1.25f, "float sum");
    CHECK(APPLY(double, DOUBLE, PROD, -2.5, 4.0) == -10.0, "double prod");
    CHECK(APPLY(double, DOUBLE, MIN, -2.5, 4.0) == -2.5, "double min");
    CHECK(APPLY(double, DOUBLE, MAX, -2.5, 4.0) == 4.0, "double max");
    CHECK(APPLY(_Bool, BOOL, LAND, 1, 0) == 0, "bool land");
    CHECK(APPLY(_Bool, BOOL, LOR, 1, 0) == 1, "bool lor");
    CHECK(APPLY(_Bool, BOOL, LXOR, 1, 1) == 0, "bool lxor");
    z = APPLY(double _Complex, CDOUBLE, PROD, 1.0 + 2.0 * I, 3.0 + 4.0 * I);
    CHECK(creal(z) == -5.0 && cimag(z) == 10.0, "complex prod %g%+gi", creal(z), cimag(z));
    z = APPLY(double _Complex, CDOUBLE, SUM, 1.0 + 2.0 * I, 3.0 - 4.0 * I);
    CHECK(creal(z) == 4.0 && cimag(z) == -2.0, "complex sum");

    r = APPLY(pair_double_int, PAIR_DOUBLE_INT, MAXLOC, a, b);
    CHECK(r.v == 2.0 && r.k == 3, "maxloc tie keeps the smaller index (%g,%d)", r.v, r.k);
    r = APPLY(pair_double_int, PAIR_DOUBLE_INT, MAXLOC, c, a);
    CHECK(r.v == 2.0 && r.k == 7, "maxloc");
    r = APPLY(pair_double_int, PAIR_DOUBLE_INT, MINLOC, a, c);
    CHECK(r.v == 1.0 && r.k == 9, "minloc");
    s = APPLY(pair_int_int, PAIR_INT_INT, MINLOC, p, q);
    CHECK(s.v == -1 && s.k == 2, "minloc tie keeps the smaller index");
}

/* MPI defines each op on some classes only; the others have no kernel. */
static void test_applicability(void)
{
    CHECK(NULL == mca_coll_rsag_opk_get(K(PAIR_INT_INT), OP(SUM)), "no SUM on pairs");
    CHECK(NULL == mca_coll_rsag_opk_get(K(FLOAT), OP(BAND)), "no BAND on floats");
    CHECK(NULL == mca_coll_rsag_opk_get(K(CDOUBLE), OP(MAX)), "no MAX on complex");
    CHECK(NULL == mca_coll_rsag_opk_get(K(BOOL), OP(SUM)), "no SUM on bool");
    CHECK(NULL == mca_coll_rsag_opk_get(K(INT32), OP(MAXLOC)), "no MAXLOC on int");
    CHECK(NULL == mca_coll_rsag_opk_get(MCA_COLL_RSAG_OPK_NUM_KINDS, OP(SUM)), "bad kind");
    CHECK(NULL == mca_coll_rsag_opk_get(K(INT32), MCA_COLL_RSAG_OPK_NUM_OPS), "bad op");
    for (int k = 0; k < MCA_COLL_RSAG_OPK_NUM_KINDS; ++k) {
        int n = 0;
        for (int o = 0; o < MCA_COLL_RSAG_OPK_NUM_OPS; ++o) {
            n += NULL != mca_coll_rsag_opk_get(k, o);
        }
        CHECK(n >= 2, "kind %s has %d kernels", mca_coll_rsag_opk_kind_name(k), n);
        CHECK(mca_coll_rsag_opk_size(k) > 0, "kind %d size", k);
    }
    CHECK(mca_coll_rsag_opk_size(K(PAIR_DOUBLE_INT)) == sizeof(pair_double_int), "pair size");
    CHECK(!strcmp(mca_coll_rsag_opk_op_name(OP(LXOR)), "LXOR"), "op name");
}

/* The 2-buffer form (out == b) gives what the 3-buffer form gives, for
 * every kernel at lengths around the SIMD widths. */
static void test_in_place(void)
{
    static const size_t lens[] = { 1, 15, 16, 17, 33, 1031 };
    size_t bytes = 1031 * 32;
    char *a = malloc(bytes), *b = malloc(bytes), *out = malloc(bytes);
    uint64_t state = 42;

    for (int k = 0; k < MCA_COLL_RSAG_OPK_NUM_KINDS; ++k) {
        for (int o = 0; o < MCA_COLL_RSAG_OPK_NUM_OPS; ++o) {
            mca_coll_rsag_opk_fn_t fn = mca_coll_rsag_opk_get(k, o);
            if (NULL == fn) {
                continue;
            }
            for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); ++l) {
                size_t n = lens[l];
                mca_coll_rsag_opk_fill(k, a, n, &state);
                mca_coll_rsag_opk_fill(k, b, n, &state);
                fn(a, b, out, n);
                fn(a, b, b, n);
                CHECK(mca_coll_rsag_opk_mismatch(k, out, b, n) == n, "%s %s n=%zu in place",
                      mca_coll_rsag_opk_kind_name(k), mca_coll_rsag_opk_op_name(o), n);
            }
        }
    }
    free(a);
    free(b);
    free(out);
}

/* The generator gives the values the self-test needs, and the comparison
 * sees values, not padding. */
static void test_fill_and_mismatch(void)
{
    enum { N = 4096 };
    static int8_t i8[N];
    static unsigned long ul[N];
    static double d[N];
    static pair_double_int pa[4], pb[4];
    uint64_t state = 7;
    int zero = 0, ones = 0, top = 0, max = 0, other = 0, bad = 0;

    mca_coll_rsag_opk_fill(K(INT8), i8, N, &state);
    for (int i = 0; i < N; ++i) {
        zero += 0 == i8[i];
        ones += -1 == i8[i];
        top += INT8_MIN == i8[i];
        max += INT8_MAX == i8[i];
    }
    CHECK(zero > 0 && ones > 0 && top > 0 && max > 0, "int8 edge values %d %d %d %d", zero,
          ones, top, max);
    mca_coll_rsag_opk_fill(K(ULONG), ul, N, &state);
    top = 0;
    for (int i = 0; i < N; ++i) {
        top += 0 != (ul[i] >> (sizeof(long) * CHAR_BIT - 1));
        other += ul[i] > 0 && ul[i] < ULONG_MAX / 2;
    }
    CHECK(top > N / 4 && other > 0, "ulong with and without the top bit");
    mca_coll_rsag_opk_fill(K(DOUBLE), d, N, &state);
    for (int i = 0; i < N; ++i) {
        bad += d[i] * 4 != (double) (long) (d[i] * 4) || d[i] < -250 || d[i] > 250;
    }
    CHECK(0 == bad, "doubles are small multiples of 1/4");

    memset(pa, 0x11, sizeof(pa));
    memset(pb, 0x22, sizeof(pb));
    for (int i = 0; i < 4; ++i) {
        pa[i].v = pb[i].v = i;
        pa[i].k = pb[i].k = 10 * i;
    }
    CHECK(mca_coll_rsag_opk_mismatch(K(PAIR_DOUBLE_INT), pa, pb, 4) == 4, "padding ignored");
    pb[2].k = 3;
    CHECK(mca_coll_rsag_opk_mismatch(K(PAIR_DOUBLE_INT), pa, pb, 4) == 2, "index differs");
    i8[5] = (int8_t) (i8[5] + 1);
    {
        static int8_t copy[N];
        memcpy(copy, i8, sizeof(copy));
        copy[5] = (int8_t) (copy[5] - 1);
        CHECK(mca_coll_rsag_opk_mismatch(K(INT8), i8, copy, N) == 5, "int8 mismatch found");
    }
}

int main(void)
{
    test_integers();
    test_others();
    test_applicability();
    test_in_place();
    test_fill_and_mismatch();
    return unit_report("test_op_kernels");
}
