/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Allreduce by the priority-aware reduce-scatter + allgather.
 *
 * Idea: cut the vector into p even blocks; run the priority-aware
 * reduce-scatter (coll_rsag_reduce_scatter_priority_aware.c) with recvbuf as its
 * work vector, then regather the vblocks by recursive doubling.
 *
 *   p = 4 (vblocks = blocks; U = 1: one message per block and step)
 *   reduce-scatter, distance 2:  v0 <-> v2, v1 <-> v3: send 2 blocks each,
 *                                as two messages in the partner's need order
 *                  distance 1:   v0 <-> v1, v2 <-> v3: send 1 block each
 *   allgather,     distance 1:   exchange the own vblock
 *                  distance 2:   exchange the two vblocks held
 *   p = 5: ranks 0 and 1 fold first (balanced pre-step); at the end rank 0
 *   sends the whole result to rank 1.
 *
 * Cost (p = p', U = 1): (p-1 + log2 p) alpha + 2 (p-1)/p n beta
 *       + (p-1)/p n gamma; p != p' adds 3 alpha + 2 n beta + n/2 gamma.
 * Restrictions: commutative op.  Any count (vblocks may be empty).
 * Memory: one receive area of mca_coll_rsag_halving_recv_count elements (the
 *       first halving step's kept half, or ceil(count/2) on ranks below 2r);
 *       recvbuf is the work vector and the send buffer is never copied.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_halving.h"
#include "coll_rsag_priority_pattern.h"

int mca_coll_rsag_allreduce_priority_aware(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    const mca_coll_rsag_order_t order = MCA_COLL_RSAG_DISTANCE_HALVING;
    int pof2 = mca_coll_rsag_pof2_floor(a->size);
    int vrank = mca_coll_rsag_fold_vrank(a->rank, a->size);
    mca_coll_rsag_halving_step_t steps[MCA_COLL_RSAG_MAX_STEPS];
    char *none, *tmp;
    int nsteps;

    if (OMPI_SUCCESS != mca_coll_rsag_halving_buffers(s, a, 0, order, &none, &tmp)) {
        return s->err;
    }
    /* reduce-scatter into recvbuf: this vrank's vblock is reduced */
    (void) mca_coll_rsag_priority_aware_rs(s, a, a->input, a->rbuf, tmp);
    /* allgather of the vblocks: the halving steps walked backwards; then
     * the folded odd ranks get the whole result */
    nsteps = (vrank >= 0) ? mca_coll_rsag_halving_pattern(a->vdispl, pof2, vrank, order, steps)
                          : 0;
    return mca_coll_rsag_doubling_allgather(s, a, a->rbuf, steps, nsteps);
}
