/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter by the rank-order fold
 * (`ordered`).
 *
 * Idea: rank r gathers its block (MPI's blocks, a->displ) of every input
 * by a pairwise exchange and folds the p pieces left in rank order
 * (coll_rsag_ordered.c).  Each element is ((x_0 op x_1) op ...) op
 * x_{p-1} whatever the placement, transport or form: the algorithm
 * coll_rsag_reproducible = placement runs where `direct` cannot.
 *
 *   p = 3                rank 0        rank 1        rank 2
 *   exchange (pairwise)  x1[0],x2[0]   x0[1],x2[1]   x0[2],x1[2]
 *     step k: send to r + k, receive from r - k (all in flight at once)
 *   fold in rank order   (x0 op x1) op x2 of its own block, into rbuf
 *
 * Cost (block of m bytes): (p - 1) alpha + (p - 1) m beta + (p - 1) m gamma.
 * Restrictions: none (any op, any datatype, any placement, blocks of any
 *       size, zeros included).
 * Memory: p m (the pieces of my block).  In place, the result is written
 *       once every piece of the input has been sent.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_ordered.h"

int mca_coll_rsag_reduce_scatter_ordered(mca_coll_rsag_sched_t *s,
                                         const mca_coll_rsag_args_t *a)
{
    (void) mca_coll_rsag_ordered_rs(s, a, a->rbuf);
    return s->err;
}
