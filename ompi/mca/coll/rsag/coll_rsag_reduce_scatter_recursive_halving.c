/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter by recursive halving.
 *
 * Idea: fold p onto p' = 2^floor(log2 p) ranks with the balanced pre-step
 * (each even rank below 2r ends with its pair's sum of the whole vector);
 * vrank v then stands for the blocks of its ranks, "vblock v".  At step k
 * the vranks pair at distance m = p'/2^(k+1) inside an aligned window of
 * 2m vblocks: each sends the half of the window it does not hold and
 * reduces the half it holds, so after log2 p' steps vrank v holds vblock v
 * reduced.  Even ranks below 2r pass their odd neighbour its block.
 *
 *   p = 4 (vblocks = blocks)      window        keeps      sends
 *   step 0, distance 2:  v0, v2   [0,4)         0-1 / 2-3  2-3 / 0-1
 *                        v1, v3   [0,4)         0-1 / 2-3  2-3 / 0-1
 *   step 1, distance 1:  v0, v1   [0,2)         0 / 1      1 / 0
 *                        v2, v3   [2,4)         2 / 3      3 / 2
 *
 * Blocks may be of any size, zero included, so one code serves both
 * collectives (coll_rsag_dispatch.c builds the layout).
 *
 * Cost (p = p'): log2 p alpha + (p-1)/p n beta + (p-1)/p n gamma, n the
 *       whole vector; p != p' adds 2 alpha + n beta + n/2 gamma + the
 *       block hand-over.
 * Restrictions: commutative op.
 * Memory: a work vector of n elements and a receive buffer for the
 *       largest half this rank receives (the first halving step's kept
 *       half, or the pre-step's ceil(n/2)); later halves are smaller.  The
 *       send buffer is never copied.  A rank outside the pre-step reduces
 *       its last step (whose kept half is its own block) straight into
 *       rbuf, so it copies nothing at the end, and when that is its only
 *       step (p' = 2) it needs no work vector: at np 2 a call is one
 *       exchange of half the vector and one reduction into rbuf.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_halving.h"

int mca_coll_rsag_reduce_scatter_recursive_halving(mca_coll_rsag_sched_t *s,
                                                   const mca_coll_rsag_args_t *a)
{
    const mca_coll_rsag_order_t order = MCA_COLL_RSAG_DISTANCE_HALVING;
    int pof2 = mca_coll_rsag_pof2_floor(a->size);
    int nsteps = mca_coll_rsag_log2_floor(pof2);
    mca_coll_rsag_halving_step_t steps[MCA_COLL_RSAG_MAX_STEPS];
    char *work, *tmp;
    /* Last step straight into rbuf: ranks outside the pre-step, unless it
     * is also the first step of an in-place call whose block is not at the
     * start of rbuf (the input would be overwritten while it is read). */
    bool direct = a->rank >= 2 * (a->size - pof2)
                  && !(1 == nsteps && a->in_place && 0 != a->displ[a->rank]);

    /* No work vector when the only step goes straight into rbuf. */
    if (OMPI_SUCCESS != mca_coll_rsag_halving_buffers(s, a, (!direct || nsteps > 1) ? a->count : 0,
                                                      order, &work, &tmp)) {
        return s->err;
    }
    /* Fold p onto p', then recursive halving over vblocks. */
    (void) mca_coll_rsag_folded_rs(s, a, a->input, work, tmp, order, steps, &nsteps,
                                   direct ? a->rbuf : NULL);
    /* Each rank's block to its rbuf (already there when direct). */
    if (!direct) {
        (void) mca_coll_rsag_unfold_blocks(s, a, work);
    }
    return s->err;
}
