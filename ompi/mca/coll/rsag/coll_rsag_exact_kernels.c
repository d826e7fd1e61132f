/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The kernels of coll_rsag_reproducible = exact; see
 * coll_rsag_exact_kernels.h and doc/reproducible.md ("exact") for why each
 * constant is what it is.  Per element, with e = E - 1023 (E the largest
 * exponent field of the element, so every |x| < 2^(e+1)):
 *
 *   k1 = e + L + 2 = e + 18, k2 = k1 - 52 + L = e - 18 (L = 16)
 *   sigma_j = 1.5 * 2^k_j
 *   q1 = (sigma1 + x) - sigma1       x rounded to the grid 2^(k1 - 52)
 *   r  = x - q1                      exact
 *   q2 = (sigma2 + r) - sigma2       r rounded to the grid 2^(k2 - 52)
 *
 * e > 1005 (sigma1 would overflow): x is scaled by 2^-64 first and the
 * result by 2^64 at the end.  E = 2047 (inf or NaN in the element): q1 is
 * x when x is not finite, else 0; q2 is 0.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "coll_rsag_exact_kernels.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "exact summation needs every double operation rounded to double (FLT_EVAL_METHOD 0)"
#endif
#if defined(__FAST_MATH__)
#error "exact summation must not be compiled with -ffast-math"
#endif
/* The loops of the kernels are written to vectorize (-O2 does not try
 * before GCC 12 without -ftree-vectorize: it is asked for here).
 * No contraction of a product and a sum into one fused multiply-add (which
 * rounds once where the code rounds twice): GCC contracts by default where
 * the target has FMA (aarch64, x86-64 with -mfma) and ignores the standard
 * pragma, so it gets its own (checked: no FMA in this file's code with
 * -O2 -mfma). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off", "tree-vectorize")
#else
#pragma STDC FP_CONTRACT OFF
#endif

/* The hot loops are built three times on x86-64, for AVX-512 (512-bit
 * vectors: 1.4-1.9x the AVX2 loops' speed on the fold, measured), AVX2 and
 * the baseline, and the loader picks one for the CPU (GCC's function
 * multiversioning): the same operations in the same order, no contraction,
 * so the same bits on every one. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__ELF__)
#define MCA_COLL_RSAG_EXACT_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define MCA_COLL_RSAG_EXACT_CLONES
#endif

#define MCA_COLL_RSAG_EXACT_L MCA_COLL_RSAG_EXACT_LOG2_MAX_TERMS
/* the largest e without scaling: sigma1 = 1.5 * 2^(e + L + 2) <= DBL_MAX */
#define MCA_COLL_RSAG_EXACT_E_MAX (1023 - MCA_COLL_RSAG_EXACT_L - 2)
#define MCA_COLL_RSAG_EXACT_SCALE_LOG2 64

/* What every contribution of one element is cut with. */
typedef struct mca_coll_rsag_exact_cut_t {
    double sigma1, sigma2;
    double down, up;        /* scale of x before, of the result after (1 or 2^-64, 2^64) */
    bool special;           /* inf or NaN in the element */
} mca_coll_rsag_exact_cut_t;

static inline double mca_coll_rsag_exact_from_bits(uint64_t b)
{
    double x;

    memcpy(&x, &b, sizeof(x));
    return x;
}

/* The bits of 1.5 * 2^k for a normal k, from its biased exponent field
 * k + 1023 (64-bit lanes, no branch: the vectorized loops build it too). */
static inline uint64_t mca_coll_rsag_exact_sigma_bits(uint64_t biased)
{
    return (biased << 52) | (1ULL << 51);
}

static inline double mca_coll_rsag_exact_sigma_normal(int biased)
{
    return mca_coll_rsag_exact_from_bits(mca_coll_rsag_exact_sigma_bits((uint64_t) biased));
}

/* The exponent key of a double's bits b (mca_coll_rsag_exact_field): its
 * 11-bit field, 1 for zeros and subnormals; no branch, 64-bit lanes. */
static inline uint64_t mca_coll_rsag_exact_key_bits(uint64_t b)
{
    uint64_t f = (b >> 52) & 0x7ff;

    return f + (0 == f);
}

static inline int16_t mca_coll_rsag_exact_key(double x)
{
    uint64_t b;

    memcpy(&b, &x, sizeof(b));
    return (int16_t) mca_coll_rsag_exact_key_bits(b);
}

/* 1.5 * 2^k, k >= -1074 + 1: normal, or subnormal below 2^-1022 (exact:
 * 3 * 2^(k - 1) is a multiple of 2^-1074). */
static inline double mca_coll_rsag_exact_sigma(int k)
{
    if (k >= -1022) {
        return mca_coll_rsag_exact_sigma_normal(k + 1023);
    }
    return mca_coll_rsag_exact_from_bits(3ULL << (k + 1073));
}

static inline mca_coll_rsag_exact_cut_t mca_coll_rsag_exact_cut(int16_t field)
{
    mca_coll_rsag_exact_cut_t c = { 0.0, 0.0, 1.0, 1.0, false };
    int e = (int) field - 1023;
    int k1;

    if (field >= MCA_COLL_RSAG_EXACT_FIELD_SPECIAL) {
        c.special = true;
        return c;
    }
    if (e > MCA_COLL_RSAG_EXACT_E_MAX) {
        e -= MCA_COLL_RSAG_EXACT_SCALE_LOG2;
        c.down = 0x1p-64;
        c.up = 0x1p64;
    }
    k1 = e + MCA_COLL_RSAG_EXACT_L + 2;
    c.sigma1 = mca_coll_rsag_exact_sigma(k1);
    c.sigma2 = mca_coll_rsag_exact_sigma(k1 - 52 + MCA_COLL_RSAG_EXACT_L);
    return c;
}

/* The two pieces of one contribution. */
static inline void mca_coll_rsag_exact_split(const mca_coll_rsag_exact_cut_t *c, double x,
                                             double *q1, double *q2)
{
    double xs, t, r, hi;

    if (c->special) {
        *q1 = isfinite(x) ? 0.0 : x;
        *q2 = 0.0;
        return;
    }
    xs = x * c->down;
    t = c->sigma1 + xs;
    hi = t - c->sigma1;
    r = xs - hi;
    t = c->sigma2 + r;
    *q1 = hi;
    *q2 = t - c->sigma2;
}

static inline double mca_coll_rsag_exact_result(const mca_coll_rsag_exact_cut_t *c, double s1,
                                                double s2)
{
    double v = s1 + s2;

    if (isnan(v)) {
        return mca_coll_rsag_exact_from_bits(0x7ff8000000000000ULL);
    }
    return c->special ? v : v * c->up;
}

int16_t mca_coll_rsag_exact_field(double x)
{
    return mca_coll_rsag_exact_key(x);
}

#if defined(__GNUC__)
/* floats read and written in place, at any alignment (GCC vectorizes these
 * loops, not a memcpy per element) */
typedef float mca_coll_rsag_exact_float_t __attribute__((may_alias, aligned(1)));
#endif

MCA_COLL_RSAG_EXACT_CLONES
static void mca_coll_rsag_exact_load_floats(const void *in, size_t n, double *restrict x)
{
#if defined(__GNUC__)
    const mca_coll_rsag_exact_float_t *f = in;

    for (size_t i = 0; i < n; ++i) {
        x[i] = (double) f[i];
    }
#else
    for (size_t i = 0; i < n; ++i) {
        float f;

        memcpy(&f, (const char *) in + i * sizeof(float), sizeof(f));
        x[i] = (double) f;
    }
#endif
}

/* Rounded once to float; a NaN made the canonical quiet NaN of float. */
MCA_COLL_RSAG_EXACT_CLONES
static void mca_coll_rsag_exact_store_floats(const double *restrict r, size_t n, void *out)
{
    const uint32_t qnan = 0x7fc00000u;
    float canonical;

    memcpy(&canonical, &qnan, sizeof(canonical));
    for (size_t i = 0; i < n; ++i) {
        float f = (float) r[i];

        f = (f != f) ? canonical : f;
#if defined(__GNUC__)
        ((mca_coll_rsag_exact_float_t *) out)[i] = f;
#else
        memcpy((char *) out + i * sizeof(float), &f, sizeof(f));
#endif
    }
}

void mca_coll_rsag_exact_load(const void *in, bool is_float, size_t n, double *x)
{
    if (0 == n) {
        return;                 /* an empty block: `in` may be anything */
    }
    if (!is_float) {
        memcpy(x, in, n * sizeof(double));
        return;
    }
    mca_coll_rsag_exact_load_floats(in, n, x);
}

void mca_coll_rsag_exact_store(const double *r, bool is_float, size_t n, void *out)
{
    if (0 == n) {
        return;                 /* an empty block: `out` may be NULL */
    }
    if (!is_float) {
        memcpy(out, r, n * sizeof(double));
        return;
    }
    mca_coll_rsag_exact_store_floats(r, n, out);
}

MCA_COLL_RSAG_EXACT_CLONES
static void mca_coll_rsag_exact_fields_loops(const double *x, size_t n, int16_t *e)
{
    for (size_t i = 0; i < n; ++i) {
        e[i] = mca_coll_rsag_exact_key(x[i]);
    }
}

/* (the loops are a static function: an exported one would make its
 * multiversioning resolver a symbol of the component) */
void mca_coll_rsag_exact_fields(const double *x, size_t n, int16_t *e)
{
    mca_coll_rsag_exact_fields_loops(x, n, e);
}

/* The fields whose cut is the plain one: sigma1 and sigma2 normal (k2 =
 * e - 18 >= -1022), no scaling (e <= MCA_COLL_RSAG_EXACT_E_MAX), no inf or
 * NaN.  There the cut is integer arithmetic on the field alone and the
 * loops below run without a branch (vectorized); the few elements outside
 * take the general path after them, with the same result. */
/* k2 = e + L + 2 - 52 + L >= -1022 with e = field - 1023 */
#define MCA_COLL_RSAG_EXACT_PLAIN_LO (51 - 2 * MCA_COLL_RSAG_EXACT_L)
#define MCA_COLL_RSAG_EXACT_PLAIN_HI (1023 + MCA_COLL_RSAG_EXACT_E_MAX)

static inline bool mca_coll_rsag_exact_plain(int f)
{
    return f >= MCA_COLL_RSAG_EXACT_PLAIN_LO && f <= MCA_COLL_RSAG_EXACT_PLAIN_HI;
}

MCA_COLL_RSAG_EXACT_CLONES
static void mca_coll_rsag_exact_extract_loops(const double *x, const int16_t *E, size_t n, double *q)
{
    const int d1 = MCA_COLL_RSAG_EXACT_L + 2, d2 = d1 - 52 + MCA_COLL_RSAG_EXACT_L;
    int odd = 0;

    for (size_t i = 0; i < n; ++i) {
        int f = E[i];
        double s1 = mca_coll_rsag_exact_sigma_normal(f + d1);
        double s2 = mca_coll_rsag_exact_sigma_normal(f + d2);
        double hi = (s1 + x[i]) - s1, r = x[i] - hi;

        q[2 * i] = hi;
        q[2 * i + 1] = (s2 + r) - s2;
        odd |= !mca_coll_rsag_exact_plain(f);
    }
    for (size_t i = 0; odd && i < n; ++i) {
        if (!mca_coll_rsag_exact_plain(E[i])) {
            mca_coll_rsag_exact_cut_t c = mca_coll_rsag_exact_cut(E[i]);

            mca_coll_rsag_exact_split(&c, x[i], &q[2 * i], &q[2 * i + 1]);
        }
    }
}

void mca_coll_rsag_exact_extract(const double *x, const int16_t *E, size_t n, double *q)
{
    mca_coll_rsag_exact_extract_loops(x, E, n, q);
}

MCA_COLL_RSAG_EXACT_CLONES
static void mca_coll_rsag_exact_finish_loops(const double *S, const int16_t *E, size_t n, double *r)
{
    int odd = 0;

    /* plain fields: no special value, no scaling, no overflow: RN(S1 + S2) */
    for (size_t i = 0; i < n; ++i) {
        r[i] = S[2 * i] + S[2 * i + 1];
        odd |= !mca_coll_rsag_exact_plain(E[i]);
    }
    for (size_t i = 0; odd && i < n; ++i) {
        if (!mca_coll_rsag_exact_plain(E[i])) {
            mca_coll_rsag_exact_cut_t c = mca_coll_rsag_exact_cut(E[i]);

            r[i] = mca_coll_rsag_exact_result(&c, S[2 * i], S[2 * i + 1]);
        }
    }
}

void mca_coll_rsag_exact_finish(const double *S, const int16_t *E, size_t n, double *r)
{
    mca_coll_rsag_exact_finish_loops(S, E, n, r);
}

/* The fold works in sub-blocks of this many reals: their largest
 * magnitudes, sums and float conversions stay in the first-level cache
 * while every source is read twice (its magnitudes, then its pieces). */
#define MCA_COLL_RSAG_EXACT_BLOCK 256

#if defined(__GNUC__)
/* the doubles' bits read in place (GCC does not vectorize a memcpy of an
 * array element into an integer) */
typedef uint64_t mca_coll_rsag_exact_bits_t __attribute__((may_alias));
#define MCA_COLL_RSAG_EXACT_BITS(x, i) (((const mca_coll_rsag_exact_bits_t *) (x))[i])
#else
static inline uint64_t mca_coll_rsag_exact_bits_of(const double *x, size_t i)
{
    uint64_t b;

    memcpy(&b, &x[i], sizeof(b));
    return b;
}
#define MCA_COLL_RSAG_EXACT_BITS(x, i) mca_coll_rsag_exact_bits_of((x), (i))
#endif

/* m[i] = max(m[i], |x[i]| as bits), or |x[i]| as bits for the first term:
 * the largest exponent field of the terms is the field of their largest
 * magnitude (an inf or a NaN, whose field is 2047, has a larger pattern
 * than any finite value). */
MCA_COLL_RSAG_EXACT_CLONES
static void mca_coll_rsag_exact_max_loops(const double *restrict x, size_t n, bool first,
                                          int64_t *restrict m)
{
    if (first) {
        for (size_t i = 0; i < n; ++i) {
            m[i] = (int64_t) (MCA_COLL_RSAG_EXACT_BITS(x, i) & 0x7fffffffffffffffULL);
        }
        return;
    }
    for (size_t i = 0; i < n; ++i) {
        int64_t a = (int64_t) (MCA_COLL_RSAG_EXACT_BITS(x, i) & 0x7fffffffffffffffULL);

        m[i] = (a > m[i]) ? a : m[i];
    }
}

/* Whether some element's field (from its largest magnitude bits m[i]) is
 * beyond the fold's vectorized cut (scaled, or inf or NaN, above
 * MCA_COLL_RSAG_EXACT_PLAIN_HI): those elements are summed again by
 * mca_coll_rsag_exact_fold_odd.  The small fields below
 * MCA_COLL_RSAG_EXACT_PLAIN_LO (zeros, subnormals and the smallest
 * normals: sigma2 subnormal) are in the vectorized cut here
 * (mca_coll_rsag_exact_pair): a vector of zeros is common. */
MCA_COLL_RSAG_EXACT_CLONES
static bool mca_coll_rsag_exact_odd_loops(const int64_t *restrict m, size_t n)
{
    int64_t odd = 0;

    for (size_t i = 0; i < n; ++i) {
        odd |= m[i] >> 52 > MCA_COLL_RSAG_EXACT_PLAIN_HI;     /* m >= 0 */
    }
    return 0 != odd;
}

/* a where mask is all ones, b where it is 0 */
static inline double mca_coll_rsag_exact_pick(double a, double b, uint64_t mask)
{
    uint64_t ua, ub;

    memcpy(&ua, &a, sizeof(ua));
    memcpy(&ub, &b, sizeof(ub));
    ua = (ua & mask) | (ub & ~mask);
    memcpy(&a, &ua, sizeof(a));
    return a;
}

/* The plain pieces of the terms x[i] and y[i] under the cut of the largest
 * magnitude bits m[i] (sigma1, sigma2 as mca_coll_rsag_exact_cut gives
 * them for the key of the largest term, built from the field in 64-bit
 * lanes; every field up to MCA_COLL_RSAG_EXACT_PLAIN_HI, where the cut
 * needs no scaling), summed: sums of pieces on one grid are exact, so any
 * order gives these bits. */
static inline void mca_coll_rsag_exact_pair(const double *restrict x, const double *restrict y,
                                            const int64_t *restrict m, size_t i, double *q1,
                                            double *q2)
{
    const int64_t d1 = MCA_COLL_RSAG_EXACT_L + 2, d2 = d1 - 52 + MCA_COLL_RSAG_EXACT_L;
    uint64_t f = mca_coll_rsag_exact_key_bits((uint64_t) m[i]), tiny;
    double sg1 = mca_coll_rsag_exact_from_bits(mca_coll_rsag_exact_sigma_bits(f + d1));
    double sg2 = mca_coll_rsag_exact_from_bits(mca_coll_rsag_exact_sigma_bits(f + d2));
    double hx, hy, rx, ry;

    hx = (sg1 + x[i]) - sg1;
    rx = x[i] - hx;
    hy = (sg1 + y[i]) - sg1;
    ry = y[i] - hy;
    /* Below PLAIN_LO sigma2 is subnormal and its rounding the identity:
     * q2 = r exactly (a -0 there instead of +0 changes no sum of pieces nor
     * the result), so r is taken as it is and the normal sigma2 built above
     * (meaningless there) is not used.  An integer mask, all ones when f <
     * PLAIN_LO: no comparison's truth value, no variable shift, which GCC
     * would not vectorize. */
    tiny = 0 - ((f - MCA_COLL_RSAG_EXACT_PLAIN_LO) >> 63);
    rx = mca_coll_rsag_exact_pick(rx, (sg2 + rx) - sg2, tiny);
    ry = mca_coll_rsag_exact_pick(ry, (sg2 + ry) - sg2, tiny);
    *q1 = hx + hy;
    *q2 = rx + ry;
}

/* One pair of terms x and y into the sums S1, S2 (the plain cut; the other
 * elements: mca_coll_rsag_exact_fold_odd): the first pair sets them, a
 * later one adds to them, and the last one leaves r = RN(S1 + S2) instead.
 * Four loops, so that each is a straight vectorized one.  No argument
 * overlaps another (the sources are the user's or the node's, the rest the
 * fold's own arrays). */
enum { MCA_COLL_RSAG_EXACT_FIRST = 1, MCA_COLL_RSAG_EXACT_LAST = 2 };

MCA_COLL_RSAG_EXACT_CLONES
static void mca_coll_rsag_exact_add_loops(const double *restrict x, const double *restrict y,
                                          const int64_t *restrict m, size_t n, int which,
                                          double *restrict S1, double *restrict S2,
                                          double *restrict r)
{
    double q1, q2;

    switch (which) {
    case MCA_COLL_RSAG_EXACT_FIRST | MCA_COLL_RSAG_EXACT_LAST:
        for (size_t i = 0; i < n; ++i) {
            mca_coll_rsag_exact_pair(x, y, m, i, &q1, &q2);
            r[i] = q1 + q2;
        }
        break;
    case MCA_COLL_RSAG_EXACT_FIRST:
        for (size_t i = 0; i < n; ++i) {
            mca_coll_rsag_exact_pair(x, y, m, i, &q1, &q2);
            S1[i] = q1;
            S2[i] = q2;
        }
        break;
    case MCA_COLL_RSAG_EXACT_LAST:
        for (size_t i = 0; i < n; ++i) {
            mca_coll_rsag_exact_pair(x, y, m, i, &q1, &q2);
            r[i] = (S1[i] + q1) + (S2[i] + q2);
        }
        break;
    default:
        for (size_t i = 0; i < n; ++i) {
            mca_coll_rsag_exact_pair(x, y, m, i, &q1, &q2);
            S1[i] += q1;
            S2[i] += q2;
        }
        break;
    }
}

/* Real i of source t, as a double. */
static inline double mca_coll_rsag_exact_real(const void *src, bool is_float, size_t i)
{
    float f;
    double x;

    if (is_float) {
        memcpy(&f, (const char *) src + i * sizeof(float), sizeof(f));
        return (double) f;
    }
    memcpy(&x, (const char *) src + i * sizeof(double), sizeof(x));
    return x;
}

/* Reals [i0, i0 + n) of source t as doubles: where they are (double,
 * aligned), else converted into buf. */
static const double *mca_coll_rsag_exact_reals(const void *src, bool is_float, size_t i0,
                                               size_t n, double *buf)
{
    const char *at = (const char *) src + i0 * (is_float ? sizeof(float) : sizeof(double));

    if (!is_float && 0 == ((uintptr_t) at % _Alignof(double))) {
        return (const double *) at;
    }
    mca_coll_rsag_exact_load(at, is_float, n, buf);
    return buf;
}

/* The elements whose field is above the vectorized cut's (inf or NaN,
 * scaled), one by one through the general cut: their results into r. */
static void mca_coll_rsag_exact_fold_odd(const void *const *src, size_t terms, bool is_float,
                                         size_t i0, size_t n, const int64_t *m, double *r)
{
    for (size_t i = 0; i < n; ++i) {
        int16_t E = (int16_t) mca_coll_rsag_exact_key_bits((uint64_t) m[i]);
        mca_coll_rsag_exact_cut_t c;
        double s1 = 0.0, s2 = 0.0;

        if (E <= MCA_COLL_RSAG_EXACT_PLAIN_HI) {
            continue;           /* the vectorized cut took it */
        }
        c = mca_coll_rsag_exact_cut(E);
        for (size_t t = 0; t < terms; ++t) {
            double q1, q2;

            mca_coll_rsag_exact_split(&c, mca_coll_rsag_exact_real(src[t], is_float, i0 + i),
                                      &q1, &q2);
            s1 += q1;
            s2 += q2;
        }
        r[i] = mca_coll_rsag_exact_result(&c, s1, s2);
    }
}

void mca_coll_rsag_exact_fold(const void *const *src, size_t terms, bool is_float, size_t n,
                              void *dest)
{
    /* B reals a sub-block; the first KEPT terms' converted reals (floats,
     * unaligned doubles) are kept from the first pass for the second */
    enum { B = MCA_COLL_RSAG_EXACT_BLOCK, KEPT = 4 };
    /* an odd last term is paired with zeros: their pieces are +0, and
     * adding +0 to a sum of pieces (never -0) changes no bit */
    static const double zeros[B];
    int64_t m[B];
    double S1[B], S2[B], r[B], bx[B], by[B], kept[KEPT][B];
    const double *x[KEPT];
    size_t realsize = is_float ? sizeof(float) : sizeof(double);

    for (size_t i0 = 0; i0 < n && terms > 0; i0 += B) {
        size_t len = (n - i0 < B) ? n - i0 : B;

        for (size_t t = 0; t < terms; ++t) {
            const double *xt = mca_coll_rsag_exact_reals(src[t], is_float, i0, len,
                                                         t < KEPT ? kept[t] : bx);

            if (t < KEPT) {
                x[t] = xt;
            }
            mca_coll_rsag_exact_max_loops(xt, len, 0 == t, m);
        }
        for (size_t t = 0; t < terms; t += 2) {
            const double *xa = (t < KEPT) ? x[t]
                                          : mca_coll_rsag_exact_reals(src[t], is_float, i0, len,
                                                                      bx);
            const double *ya = (t + 1 >= terms) ? zeros
                               : (t + 1 < KEPT) ? x[t + 1]
                                                : mca_coll_rsag_exact_reals(src[t + 1], is_float,
                                                                            i0, len, by);
            int which = (0 == t ? MCA_COLL_RSAG_EXACT_FIRST : 0)
                        | (t + 2 >= terms ? MCA_COLL_RSAG_EXACT_LAST : 0);

            mca_coll_rsag_exact_add_loops(xa, ya, m, len, which, S1, S2, r);
        }
        /* every source of this sub-block read: dest may be one of them */
        if (mca_coll_rsag_exact_odd_loops(m, len)) {
            mca_coll_rsag_exact_fold_odd(src, terms, is_float, i0, len, m, r);
        }
        mca_coll_rsag_exact_store(r, is_float, len, (char *) dest + i0 * realsize);
    }
}
