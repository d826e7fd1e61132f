/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Allreduce by the rank-order fold (`ordered`).
 *
 * Idea: cut the vector into p even blocks (a->displ); rank r gathers block
 * r of every input by a pairwise exchange and folds the p pieces left in
 * rank order (coll_rsag_ordered.c), then a ring allgather hands every
 * block to every rank.  Each element is ((x_0 op x_1) op ...) op x_{p-1}
 * whatever the placement, transport or form: the algorithm
 * coll_rsag_reproducible = placement runs where `direct` cannot.
 *
 *   p = 3, blocks B0 B1 B2     rank 0        rank 1        rank 2
 *   exchange (pairwise)        x1[0],x2[0]   x0[1],x2[1]   x0[2],x1[2]
 *   fold in rank order         (x0 op x1) op x2 of its own block
 *   ring allgather             B0 B1 B2      B0 B1 B2      B0 B1 B2
 *
 * Cost (n bytes, blocks of n/p): (p - 1) alpha + (p - 1) n/p beta (the
 *       exchange, every message in flight at once) + (p - 1) n/p gamma
 *       + (p - 1) (alpha + n/p beta) (the ring allgather).
 * Restrictions: none (any op, commutative or not; any datatype; any
 *       placement, blocks of 0 elements when count < p).
 * Memory: p n/p elements (the pieces of my block), about one vector.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_ordered.h"
#include "coll_rsag_ring.h"

int mca_coll_rsag_allreduce_ordered(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    mca_coll_rsag_range_t mine = mca_coll_rsag_block(a->displ, a->rank);

    /* block r straight into its place in rbuf (in place: my own block of
     * the input, copied first, so nothing of another block is touched) */
    (void) mca_coll_rsag_ordered_rs(s, a, mca_coll_rsag_elem(a->rbuf, mine.off, a->extent));
    if (OMPI_SUCCESS != s->err) {
        return s->err;
    }
    mca_coll_rsag_ring_allgather(s, a, a->rbuf, NULL);
    return s->err;
}
