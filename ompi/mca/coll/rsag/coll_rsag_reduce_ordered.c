/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Reduce by the rank-order fold (`ordered`).
 *
 * Idea: cut the vector into p even blocks (a->displ); rank r gathers block
 * r of every input by a pairwise exchange and folds the p pieces left in
 * rank order (coll_rsag_ordered.c), then sends its block to the root.
 * Each element is ((x_0 op x_1) op ...) op x_{p-1} whatever the placement,
 * transport or form: the algorithm coll_rsag_reproducible = placement runs
 * where `direct` cannot.
 *
 *   p = 3, root 0, blocks B0 B1 B2   rank 0        rank 1        rank 2
 *   exchange (pairwise)              x1[0],x2[0]   x0[1],x2[1]   x0[2],x1[2]
 *   fold in rank order               (x0 op x1) op x2 of its own block
 *   gather                           B0 <- B1, B2  B1 -> 0       B2 -> 0
 *
 * Cost (n bytes, blocks of n/p): (p - 1) alpha + (p - 1) n/p beta (the
 *       exchange) + (p - 1) n/p gamma + alpha + (p - 1) n/p beta (the
 *       root receives p - 1 blocks at once).
 * Restrictions: none (any op, any datatype, any placement, any root).
 * Memory: p n/p elements (the pieces of my block), about one vector.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_ordered.h"

int mca_coll_rsag_reduce_ordered(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    bool root = a->rank == a->root;
    mca_coll_rsag_range_t mine = mca_coll_rsag_block(a->displ, a->rank);
    char *block;

    /* the root's block straight into its place in rbuf; the others' stays
     * in the building block's temporary until sent */
    block = mca_coll_rsag_ordered_rs(s, a, root ? mca_coll_rsag_elem(a->rbuf, mine.off,
                                                                     a->extent)
                                                : NULL);
    if (OMPI_SUCCESS != s->err) {
        return s->err;
    }
    if (!root) {
        if (mine.cnt > 0) {
            (void) mca_coll_rsag_sched_send(s, a, block, mine.cnt, a->root);
        }
        return s->err;
    }
    /* after the building block's fence: in place, rbuf's blocks were input
     * still being sent */
    for (int j = 0; j < a->size; ++j) {
        mca_coll_rsag_range_t b = mca_coll_rsag_block(a->displ, j);

        if (j != a->root && b.cnt > 0) {
            (void) mca_coll_rsag_sched_recv(s, a, mca_coll_rsag_elem(a->rbuf, b.off, a->extent),
                                            b.cnt, j);
        }
    }
    return s->err;
}
