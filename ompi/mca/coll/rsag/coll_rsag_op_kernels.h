/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag's own reduction kernels (pure C, no MPI): one per (element kind,
 * predefined op), generated from the class macros of
 * coll_rsag_op_kernels.c.  coll_rsag_op.c uses them in place of Open MPI's
 * op framework for the (type, op) pairs its self-test finds wrong, and as
 * the reference of that self-test; test/unit/test_op_kernels.c checks them
 * against hand-computed values.
 */
#ifndef MCA_COLL_RSAG_OP_KERNELS_H
#define MCA_COLL_RSAG_OP_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* Element kinds: C types by layout.  PAIR_<V>_<K> is struct { V v; K k; }
 * as MPI's MAXLOC/MINLOC pair types lay it out. */
#define MCA_COLL_RSAG_OPK_KINDS(X)                                                 \
    X(INT8) X(UINT8) X(INT16) X(UINT16) X(INT32) X(UINT32) X(INT64) X(UINT64)      \
    X(LONG) X(ULONG) X(FLOAT) X(DOUBLE) X(LDOUBLE) X(BOOL)                         \
    X(CFLOAT) X(CDOUBLE) X(CLDOUBLE)                                               \
    X(PAIR_FLOAT_INT) X(PAIR_DOUBLE_INT) X(PAIR_LONG_INT) X(PAIR_INT_INT)          \
    X(PAIR_SHORT_INT) X(PAIR_LDOUBLE_INT) X(PAIR_FLOAT_FLOAT) X(PAIR_DOUBLE_DOUBLE)

typedef enum {
#define MCA_COLL_RSAG_OPK_KIND_ENUM(k) MCA_COLL_RSAG_OPK_##k,
    MCA_COLL_RSAG_OPK_KINDS(MCA_COLL_RSAG_OPK_KIND_ENUM)
#undef MCA_COLL_RSAG_OPK_KIND_ENUM
    MCA_COLL_RSAG_OPK_NUM_KINDS
} mca_coll_rsag_opk_kind_t;

/* The predefined reduction ops rsag may be handed. */
#define MCA_COLL_RSAG_OPK_OPS(X)                                                   \
    X(MAX) X(MIN) X(SUM) X(PROD) X(LAND) X(BAND) X(LOR) X(BOR) X(LXOR) X(BXOR)     \
    X(MAXLOC) X(MINLOC)

typedef enum {
#define MCA_COLL_RSAG_OPK_OP_ENUM(o) MCA_COLL_RSAG_OPK_OP_##o,
    MCA_COLL_RSAG_OPK_OPS(MCA_COLL_RSAG_OPK_OP_ENUM)
#undef MCA_COLL_RSAG_OPK_OP_ENUM
    MCA_COLL_RSAG_OPK_NUM_OPS
} mca_coll_rsag_opk_op_t;

/* out[i] = a[i] (op) b[i] for i < n; `out` may be `b` (the 2-buffer form
 * inout = in (op) inout) or a third buffer.  Integer arithmetic wraps
 * modulo 2^bits; logical ops give 0 or 1; MAXLOC/MINLOC keep the smaller
 * index on equal values. */
typedef void (*mca_coll_rsag_opk_fn_t)(const void *a, const void *b, void *out, size_t n);

/* The kernel of (kind, op), or NULL when MPI does not define op on kind
 * (e.g. SUM on pairs, BAND on floats). */
mca_coll_rsag_opk_fn_t mca_coll_rsag_opk_get(mca_coll_rsag_opk_kind_t kind,
                                             mca_coll_rsag_opk_op_t op);

/* sizeof the C type of `kind`. */
size_t mca_coll_rsag_opk_size(mca_coll_rsag_opk_kind_t kind);

/* Self-test data: n elements of `kind` from a deterministic generator
 * (*state, any nonzero start).  Integers mix 0, all ones, only the top bit,
 * the largest positive value and random bits (so sums and products
 * overflow and MIN/MAX see the top bit); floating and complex values are
 * small multiples of 1/4, so sums and products are exact; pairs use few
 * distinct values so MAXLOC/MINLOC meet ties. */
void mca_coll_rsag_opk_fill(mca_coll_rsag_opk_kind_t kind, void *buf, size_t n,
                            uint64_t *state);

/* Index of the first element where x and y differ as values of `kind`
 * (padding bytes ignored), or n when they agree. */
size_t mca_coll_rsag_opk_mismatch(mca_coll_rsag_opk_kind_t kind, const void *x, const void *y,
                                  size_t n);

/* "MAX", "SUM", ... and "INT8", ... for messages. */
const char *mca_coll_rsag_opk_op_name(mca_coll_rsag_opk_op_t op);
const char *mca_coll_rsag_opk_kind_name(mca_coll_rsag_opk_kind_t kind);

#endif /* MCA_COLL_RSAG_OP_KERNELS_H */
