/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Comparing a blocking reduction's arguments and rsag's settings across the
 * ranks (coll_rsag_check.c, doc/erroneous.md).  Always: rsag's settings of
 * a collective, once per communicator, at its first blocking call (settings
 * that differ between ranks would make the ranks run different algorithms:
 * a hang or worse).  With coll_rsag_check_args: every argument, before each
 * blocking call (one small allreduce a call, so off by default).
 */
#ifndef MCA_COLL_RSAG_CHECK_H
#define MCA_COLL_RSAG_CHECK_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>

#include "coll_rsag.h"

/* The parameter (registered by mca_coll_rsag_check_register). */
extern bool mca_coll_rsag_check_args;

void mca_coll_rsag_check_register(const mca_base_component_t *c);

/* When coll_rsag_check_args is on: compare this blocking call's arguments
 * with every other rank's (one allreduce through the previous module):
 * the collective, the element count (MPI_Reduce_scatter: every rank's
 * rcounts), the datatype's size and extent, the op, the root, MPI_IN_PLACE
 * (not for MPI_Reduce, where only the root may use it) and rsag's settings
 * for the collective (forced algorithm, thresholds).  Returns OMPI_SUCCESS,
 * or on every rank the same MPI error class naming the first argument that
 * differs (MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_OP, MPI_ERR_ROOT,
 * MPI_ERR_BUFFER, MPI_ERR_ARG); rank 0 of the communicator prints which. */
int mca_coll_rsag_check_call_slow(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                                  const void *sbuf, size_t count, const int *rcounts,
                                  struct ompi_datatype_t *dtype, struct ompi_op_t *op, int root,
                                  struct ompi_communicator_t *comm, bool settings_only);

static inline int mca_coll_rsag_check_call(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                                           const void *sbuf, size_t count, const int *rcounts,
                                           struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                           int root, struct ompi_communicator_t *comm)
{
    if (OPAL_LIKELY(!mca_coll_rsag_check_args)) {
        if (OPAL_LIKELY(m->settings_checked & (1u << coll))) {
            return OMPI_SUCCESS;
        }
        m->settings_checked |= 1u << coll;
        return mca_coll_rsag_check_call_slow(m, coll, sbuf, count, rcounts, dtype, op, root, comm,
                                             true);
    }
    return mca_coll_rsag_check_call_slow(m, coll, sbuf, count, rcounts, dtype, op, root, comm,
                                         false);
}

#endif
