/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Op dispatch: every reduction rsag computes goes through the two calls
 * below, which use rsag's own kernel for the predefined (op, type) pairs
 * the start-up self-test found wrong in Open MPI's op framework
 * (coll_rsag_op.c), and Open MPI's op otherwise: one table look-up, then
 * the kernel.
 */
#ifndef MCA_COLL_RSAG_OP_H
#define MCA_COLL_RSAG_OP_H

#include "ompi_config.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "opal/mca/base/base.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

#include "coll_rsag_op_kernels.h"

BEGIN_C_DECLS

enum { MCA_COLL_RSAG_OP_2BUFF, MCA_COLL_RSAG_OP_3BUFF, MCA_COLL_RSAG_OP_PATHS };
extern mca_coll_rsag_opk_fn_t mca_coll_rsag_op_fixes[MCA_COLL_RSAG_OP_PATHS]
                                                    [OMPI_OP_BASE_FORTRAN_OP_MAX]
                                                    [OMPI_DATATYPE_MAX_PREDEFINED];

/* Registers coll_rsag_op_selftest. */
void mca_coll_rsag_op_register(const mca_base_component_t *c);
/* The self-test, once per process (later calls return at once); needs the
 * predefined ops set up, as they are by init_query. */
int mca_coll_rsag_op_init(void);

/* rsag's kernel for (op, dtype) on `path`, or NULL: Open MPI's is right. */
static inline mca_coll_rsag_opk_fn_t mca_coll_rsag_op_fix(int path, struct ompi_op_t *op,
                                                          struct ompi_datatype_t *dtype)
{
    if (ompi_op_is_intrinsic(op) && ompi_datatype_is_predefined(dtype)
        && (unsigned) op->o_f_to_c_index < OMPI_OP_BASE_FORTRAN_OP_MAX
        && (unsigned) dtype->id < OMPI_DATATYPE_MAX_PREDEFINED) {
        return mca_coll_rsag_op_fixes[path][op->o_f_to_c_index][dtype->id];
    }
    return NULL;
}

/* target = source (op) target, as ompi_op_reduce. */
static inline void mca_coll_rsag_op_reduce(struct ompi_op_t *op, const void *source,
                                           void *target, size_t count,
                                           struct ompi_datatype_t *dtype)
{
    mca_coll_rsag_opk_fn_t fix = mca_coll_rsag_op_fix(MCA_COLL_RSAG_OP_2BUFF, op, dtype);

    if (0 == count) {
        return;
    }
    if (OPAL_UNLIKELY(NULL != fix)) {
        fix(source, target, target, count);
    } else {
        ompi_op_reduce(op, (void *) source, target, count, dtype);
    }
}

/* target = lower (op) upper for any op and type; `target` may be `upper`
 * (then it is ompi_op_reduce), not `lower`.  The first reduction of an
 * algorithm reads the (read-only) send buffer and writes the receive
 * buffer this way, which saves copying the send buffer first. */
static inline void mca_coll_rsag_op_reduce3(struct ompi_op_t *op, const void *lower,
                                            const void *upper, void *target, size_t count,
                                            struct ompi_datatype_t *dtype)
{
    mca_coll_rsag_opk_fn_t fix;

    if (upper == target) {
        mca_coll_rsag_op_reduce(op, lower, target, count, dtype);
        return;
    }
    if (0 == count) {
        return;
    }
    /* Open MPI's 3-buffer kernels exist for intrinsic ops on predefined
     * types; its user-op fallback swaps the operands and only knows C
     * callbacks, so user ops take a copy and an ordered 2-buffer reduce. */
    if (!ompi_op_is_intrinsic(op) || !ompi_datatype_is_predefined(dtype) || count > INT_MAX) {
        ompi_datatype_copy_content_same_ddt(dtype, count, target, (char *) upper);
        mca_coll_rsag_op_reduce(op, lower, target, count, dtype);
        return;
    }
    fix = mca_coll_rsag_op_fix(MCA_COLL_RSAG_OP_3BUFF, op, dtype);
    if (OPAL_UNLIKELY(NULL != fix)) {
        fix(lower, upper, target, count);
    } else {
        ompi_3buff_op_reduce(op, (void *) lower, (void *) upper, target, (int) count, dtype);
    }
}

END_C_DECLS

#endif /* MCA_COLL_RSAG_OP_H */
