/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag's own reduction kernels, generated per (element kind, op) from one
 * macro per class of element (integer, floating, complex, C bool, pair),
 * with the self-test data generator and comparison of each kind.  Pure C,
 * no MPI: see coll_rsag_op_kernels.h.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coll_rsag_op_kernels.h"

#define MCA_COLL_RSAG_PAIR(V, K) struct { V v; K k; }
typedef MCA_COLL_RSAG_PAIR(float, int) mca_coll_rsag_pair_float_int_t;
typedef MCA_COLL_RSAG_PAIR(double, int) mca_coll_rsag_pair_double_int_t;
typedef MCA_COLL_RSAG_PAIR(long, int) mca_coll_rsag_pair_long_int_t;
typedef MCA_COLL_RSAG_PAIR(int, int) mca_coll_rsag_pair_int_int_t;
typedef MCA_COLL_RSAG_PAIR(short, int) mca_coll_rsag_pair_short_int_t;
typedef MCA_COLL_RSAG_PAIR(long double, int) mca_coll_rsag_pair_ldouble_int_t;
typedef MCA_COLL_RSAG_PAIR(float, float) mca_coll_rsag_pair_float_float_t;
typedef MCA_COLL_RSAG_PAIR(double, double) mca_coll_rsag_pair_double_double_t;

/* kind, class, C type, helper type (the unsigned twin of an integer type,
 * the real type of a complex one). */
#define MCA_COLL_RSAG_OPK_TYPES(X)                                                          \
    X(INT8, INT, int8_t, uint8_t)                                                  \
    X(UINT8, INT, uint8_t, uint8_t)                                                \
    X(INT16, INT, int16_t, uint16_t)                                               \
    X(UINT16, INT, uint16_t, uint16_t)                                             \
    X(INT32, INT, int32_t, uint32_t)                                               \
    X(UINT32, INT, uint32_t, uint32_t)                                             \
    X(INT64, INT, int64_t, uint64_t)                                               \
    X(UINT64, INT, uint64_t, uint64_t)                                             \
    X(LONG, INT, long, unsigned long)                                              \
    X(ULONG, INT, unsigned long, unsigned long)                                    \
    X(FLOAT, FLOAT, float, float)                                                  \
    X(DOUBLE, FLOAT, double, double)                                               \
    X(LDOUBLE, FLOAT, long double, long double)                                    \
    X(BOOL, BOOL, _Bool, _Bool)                                                    \
    X(CFLOAT, COMPLEX, float _Complex, float)                                      \
    X(CDOUBLE, COMPLEX, double _Complex, double)                                   \
    X(CLDOUBLE, COMPLEX, long double _Complex, long double)                        \
    X(PAIR_FLOAT_INT, PAIR, mca_coll_rsag_pair_float_int_t, int)                            \
    X(PAIR_DOUBLE_INT, PAIR, mca_coll_rsag_pair_double_int_t, int)                          \
    X(PAIR_LONG_INT, PAIR, mca_coll_rsag_pair_long_int_t, int)                              \
    X(PAIR_INT_INT, PAIR, mca_coll_rsag_pair_int_int_t, int)                                \
    X(PAIR_SHORT_INT, PAIR, mca_coll_rsag_pair_short_int_t, int)                            \
    X(PAIR_LDOUBLE_INT, PAIR, mca_coll_rsag_pair_ldouble_int_t, int)                        \
    X(PAIR_FLOAT_FLOAT, PAIR, mca_coll_rsag_pair_float_float_t, int)                        \
    X(PAIR_DOUBLE_DOUBLE, PAIR, mca_coll_rsag_pair_double_double_t, int)

/* One kernel: r = x (op) y element by element.  Both operands are read
 * before the result is written, so out may be b. */
#define MCA_COLL_RSAG_OPK_KERNEL(kind, op, T, BODY)                                         \
    static void mca_coll_rsag_opk_##kind##_##op(const void *va, const void *vb, void *vout, \
                                       size_t n)                                   \
    {                                                                              \
        const T *a = (const T *) va;                                               \
        const T *b = (const T *) vb;                                               \
        T *out = (T *) vout;                                                       \
        for (size_t i = 0; i < n; ++i) {                                           \
            T x = a[i], y = b[i], r;                                               \
            BODY;                                                                  \
            out[i] = r;                                                            \
        }                                                                          \
    }
#define MCA_COLL_RSAG_OPK_ENTRY(kind, op) [MCA_COLL_RSAG_OPK_OP_##op] = mca_coll_rsag_opk_##kind##_##op,

/* xorshift64: the self-test data. */
static uint64_t mca_coll_rsag_opk_next(uint64_t *state)
{
    uint64_t s = *state ? *state : 0x9e3779b97f4a7c15ULL;
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    *state = s;
    return s;
}

/* A small multiple of 1/4 in [-250, 250]: sums and products stay exact. */
static double mca_coll_rsag_opk_quarter(uint64_t *state)
{
    return (double) ((int) (mca_coll_rsag_opk_next(state) % 2001) - 1000) / 4.0;
}

#define MCA_COLL_RSAG_OPK_SCALAR_MISMATCH(kind, T)                                          \
    static size_t mca_coll_rsag_opk_mismatch_##kind(const void *vx, const void *vy, size_t n) \
    {                                                                              \
        const T *x = (const T *) vx, *y = (const T *) vy;                          \
        for (size_t i = 0; i < n; ++i) {                                           \
            if (!(x[i] == y[i])) {                                                 \
                return i;                                                          \
            }                                                                      \
        }                                                                          \
        return n;                                                                  \
    }

/* Integers: arithmetic in the unsigned twin, so overflow wraps. */
#define MCA_COLL_RSAG_OPK_INT(kind, T, U)                                                   \
    MCA_COLL_RSAG_OPK_KERNEL(kind, MAX, T, r = x > y ? x : y)                               \
    MCA_COLL_RSAG_OPK_KERNEL(kind, MIN, T, r = x < y ? x : y)                               \
    MCA_COLL_RSAG_OPK_KERNEL(kind, SUM, T,                                                  \
                    r = (T) ((unsigned long long) (U) x + (unsigned long long) (U) y)) \
    MCA_COLL_RSAG_OPK_KERNEL(kind, PROD, T,                                                 \
                    r = (T) ((unsigned long long) (U) x * (unsigned long long) (U) y)) \
    MCA_COLL_RSAG_OPK_KERNEL(kind, LAND, T, r = (T) (x && y))                               \
    MCA_COLL_RSAG_OPK_KERNEL(kind, BAND, T, r = (T) (x & y))                                \
    MCA_COLL_RSAG_OPK_KERNEL(kind, LOR, T, r = (T) (x || y))                                \
    MCA_COLL_RSAG_OPK_KERNEL(kind, BOR, T, r = (T) (x | y))                                 \
    MCA_COLL_RSAG_OPK_KERNEL(kind, LXOR, T, r = (T) (!x != !y))                             \
    MCA_COLL_RSAG_OPK_KERNEL(kind, BXOR, T, r = (T) (x ^ y))                                \
    static const mca_coll_rsag_opk_fn_t mca_coll_rsag_opk_row_##kind[MCA_COLL_RSAG_OPK_NUM_OPS] = { \
        MCA_COLL_RSAG_OPK_ENTRY(kind, MAX) MCA_COLL_RSAG_OPK_ENTRY(kind, MIN) MCA_COLL_RSAG_OPK_ENTRY(kind, SUM)  \
        MCA_COLL_RSAG_OPK_ENTRY(kind, PROD) MCA_COLL_RSAG_OPK_ENTRY(kind, LAND)                      \
        MCA_COLL_RSAG_OPK_ENTRY(kind, BAND) MCA_COLL_RSAG_OPK_ENTRY(kind, LOR) MCA_COLL_RSAG_OPK_ENTRY(kind, BOR) \
        MCA_COLL_RSAG_OPK_ENTRY(kind, LXOR) MCA_COLL_RSAG_OPK_ENTRY(kind, BXOR)                      \
    };                                                                             \
    static void mca_coll_rsag_opk_fill_##kind(void *buf, size_t n, uint64_t *state)         \
    {                                                                              \
        const U top = (U) ((U) 1 << (8 * sizeof(U) - 1));                          \
        T *p = (T *) buf;                                                          \
        for (size_t i = 0; i < n; ++i) {                                           \
            uint64_t r = mca_coll_rsag_opk_next(state);                                     \
            switch (r % 8) {                                                       \
            case 0: p[i] = 0; break;                                               \
            case 1: p[i] = (T) (U) ~(U) 0; break;                                  \
            case 2: p[i] = (T) top; break;                                         \
            case 3: p[i] = (T) (U) (top - 1); break;                               \
            default: p[i] = (T) (U) mca_coll_rsag_opk_next(state); break;                   \
            }                                                                      \
        }                                                                          \
    }                                                                              \
    MCA_COLL_RSAG_OPK_SCALAR_MISMATCH(kind, T)

#define MCA_COLL_RSAG_OPK_FLOAT(kind, T, R)                                                 \
    MCA_COLL_RSAG_OPK_KERNEL(kind, MAX, T, r = x > y ? x : y)                               \
    MCA_COLL_RSAG_OPK_KERNEL(kind, MIN, T, r = x < y ? x : y)                               \
    MCA_COLL_RSAG_OPK_KERNEL(kind, SUM, T, r = x + y)                                       \
    MCA_COLL_RSAG_OPK_KERNEL(kind, PROD, T, r = x * y)                                      \
    static const mca_coll_rsag_opk_fn_t mca_coll_rsag_opk_row_##kind[MCA_COLL_RSAG_OPK_NUM_OPS] = { \
        MCA_COLL_RSAG_OPK_ENTRY(kind, MAX) MCA_COLL_RSAG_OPK_ENTRY(kind, MIN) MCA_COLL_RSAG_OPK_ENTRY(kind, SUM)  \
        MCA_COLL_RSAG_OPK_ENTRY(kind, PROD)                                                 \
    };                                                                             \
    static void mca_coll_rsag_opk_fill_##kind(void *buf, size_t n, uint64_t *state)         \
    {                                                                              \
        T *p = (T *) buf;                                                          \
        for (size_t i = 0; i < n; ++i) {                                           \
            p[i] = (T) mca_coll_rsag_opk_quarter(state);                                    \
        }                                                                          \
    }                                                                              \
    MCA_COLL_RSAG_OPK_SCALAR_MISMATCH(kind, T)

/* Complex: C99 arithmetic; a complex value is laid out as R[2]. */
#define MCA_COLL_RSAG_OPK_COMPLEX(kind, T, R)                                               \
    MCA_COLL_RSAG_OPK_KERNEL(kind, SUM, T, r = x + y)                                       \
    MCA_COLL_RSAG_OPK_KERNEL(kind, PROD, T, r = x * y)                                      \
    static const mca_coll_rsag_opk_fn_t mca_coll_rsag_opk_row_##kind[MCA_COLL_RSAG_OPK_NUM_OPS] = { \
        MCA_COLL_RSAG_OPK_ENTRY(kind, SUM) MCA_COLL_RSAG_OPK_ENTRY(kind, PROD)                       \
    };                                                                             \
    static void mca_coll_rsag_opk_fill_##kind(void *buf, size_t n, uint64_t *state)         \
    {                                                                              \
        R *p = (R *) buf;                                                          \
        for (size_t i = 0; i < 2 * n; ++i) {                                       \
            p[i] = (R) mca_coll_rsag_opk_quarter(state);                                    \
        }                                                                          \
    }                                                                              \
    MCA_COLL_RSAG_OPK_SCALAR_MISMATCH(kind, T)

#define MCA_COLL_RSAG_OPK_BOOL(kind, T, U)                                                  \
    MCA_COLL_RSAG_OPK_KERNEL(kind, LAND, T, r = x && y)                                     \
    MCA_COLL_RSAG_OPK_KERNEL(kind, LOR, T, r = x || y)                                      \
    MCA_COLL_RSAG_OPK_KERNEL(kind, LXOR, T, r = x != y)                                     \
    static const mca_coll_rsag_opk_fn_t mca_coll_rsag_opk_row_##kind[MCA_COLL_RSAG_OPK_NUM_OPS] = { \
        MCA_COLL_RSAG_OPK_ENTRY(kind, LAND) MCA_COLL_RSAG_OPK_ENTRY(kind, LOR) MCA_COLL_RSAG_OPK_ENTRY(kind, LXOR) \
    };                                                                             \
    static void mca_coll_rsag_opk_fill_##kind(void *buf, size_t n, uint64_t *state)         \
    {                                                                              \
        T *p = (T *) buf;                                                          \
        for (size_t i = 0; i < n; ++i) {                                           \
            p[i] = (T) (mca_coll_rsag_opk_next(state) & 1);                                 \
        }                                                                          \
    }                                                                              \
    MCA_COLL_RSAG_OPK_SCALAR_MISMATCH(kind, T)

/* MAXLOC / MINLOC: the better value, the smaller index on a tie. */
#define MCA_COLL_RSAG_OPK_PAIR(kind, T, U)                                                  \
    MCA_COLL_RSAG_OPK_KERNEL(kind, MAXLOC, T,                                               \
                    if (x.v > y.v) { r = x; } else if (y.v > x.v) { r = y; }       \
                    else { r = x; r.k = x.k < y.k ? x.k : y.k; })                  \
    MCA_COLL_RSAG_OPK_KERNEL(kind, MINLOC, T,                                               \
                    if (x.v < y.v) { r = x; } else if (y.v < x.v) { r = y; }       \
                    else { r = x; r.k = x.k < y.k ? x.k : y.k; })                  \
    static const mca_coll_rsag_opk_fn_t mca_coll_rsag_opk_row_##kind[MCA_COLL_RSAG_OPK_NUM_OPS] = { \
        MCA_COLL_RSAG_OPK_ENTRY(kind, MAXLOC) MCA_COLL_RSAG_OPK_ENTRY(kind, MINLOC)                  \
    };                                                                             \
    static void mca_coll_rsag_opk_fill_##kind(void *buf, size_t n, uint64_t *state)         \
    {                                                                              \
        T *p = (T *) buf;                                                          \
        for (size_t i = 0; i < n; ++i) {                                           \
            uint64_t r = mca_coll_rsag_opk_next(state);                                     \
            p[i].v = (int) (r % 5) - 2;                                            \
            p[i].k = (int) ((r >> 8) % 1000);                                      \
        }                                                                          \
    }                                                                              \
    static size_t mca_coll_rsag_opk_mismatch_##kind(const void *vx, const void *vy, size_t n) \
    {                                                                              \
        const T *x = (const T *) vx, *y = (const T *) vy;                          \
        for (size_t i = 0; i < n; ++i) {                                           \
            if (!(x[i].v == y[i].v && x[i].k == y[i].k)) {                         \
                return i;                                                          \
            }                                                                      \
        }                                                                          \
        return n;                                                                  \
    }

#define MCA_COLL_RSAG_OPK_DEFINE(kind, CLASS, T, U) MCA_COLL_RSAG_OPK_##CLASS(kind, T, U)
MCA_COLL_RSAG_OPK_TYPES(MCA_COLL_RSAG_OPK_DEFINE)
#undef MCA_COLL_RSAG_OPK_DEFINE

typedef struct {
    const mca_coll_rsag_opk_fn_t *row;
    void (*fill)(void *buf, size_t n, uint64_t *state);
    size_t (*mismatch)(const void *x, const void *y, size_t n);
    size_t size;
    const char *name;
} mca_coll_rsag_opk_kind_desc_t;

static const mca_coll_rsag_opk_kind_desc_t mca_coll_rsag_opk_kinds[MCA_COLL_RSAG_OPK_NUM_KINDS] = {
#define MCA_COLL_RSAG_OPK_DESC(kind, CLASS, T, U)                                           \
    [MCA_COLL_RSAG_OPK_##kind] = { mca_coll_rsag_opk_row_##kind, mca_coll_rsag_opk_fill_##kind,      \
                                   mca_coll_rsag_opk_mismatch_##kind, sizeof(T), #kind },
    MCA_COLL_RSAG_OPK_TYPES(MCA_COLL_RSAG_OPK_DESC)
#undef MCA_COLL_RSAG_OPK_DESC
};

static const char *const mca_coll_rsag_opk_op_names[MCA_COLL_RSAG_OPK_NUM_OPS] = {
#define MCA_COLL_RSAG_OPK_OP_NAME(o) [MCA_COLL_RSAG_OPK_OP_##o] = #o,
    MCA_COLL_RSAG_OPK_OPS(MCA_COLL_RSAG_OPK_OP_NAME)
#undef MCA_COLL_RSAG_OPK_OP_NAME
};

static bool mca_coll_rsag_opk_valid(mca_coll_rsag_opk_kind_t kind)
{
    return (unsigned) kind < MCA_COLL_RSAG_OPK_NUM_KINDS;
}

mca_coll_rsag_opk_fn_t mca_coll_rsag_opk_get(mca_coll_rsag_opk_kind_t kind,
                                             mca_coll_rsag_opk_op_t op)
{
    if (!mca_coll_rsag_opk_valid(kind) || (unsigned) op >= MCA_COLL_RSAG_OPK_NUM_OPS) {
        return NULL;
    }
    return mca_coll_rsag_opk_kinds[kind].row[op];
}

size_t mca_coll_rsag_opk_size(mca_coll_rsag_opk_kind_t kind)
{
    return mca_coll_rsag_opk_valid(kind) ? mca_coll_rsag_opk_kinds[kind].size : 0;
}

void mca_coll_rsag_opk_fill(mca_coll_rsag_opk_kind_t kind, void *buf, size_t n,
                            uint64_t *state)
{
    if (mca_coll_rsag_opk_valid(kind)) {
        mca_coll_rsag_opk_kinds[kind].fill(buf, n, state);
    }
}

size_t mca_coll_rsag_opk_mismatch(mca_coll_rsag_opk_kind_t kind, const void *x, const void *y,
                                  size_t n)
{
    return mca_coll_rsag_opk_valid(kind) ? mca_coll_rsag_opk_kinds[kind].mismatch(x, y, n) : 0;
}

const char *mca_coll_rsag_opk_op_name(mca_coll_rsag_opk_op_t op)
{
    return (unsigned) op < MCA_COLL_RSAG_OPK_NUM_OPS ? mca_coll_rsag_opk_op_names[op] : "?";
}

const char *mca_coll_rsag_opk_kind_name(mca_coll_rsag_opk_kind_t kind)
{
    return mca_coll_rsag_opk_valid(kind) ? mca_coll_rsag_opk_kinds[kind].name : "?";
}
