/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Allreduce, Rabenseifner's algorithm: reduce-scatter + allgather.
 *
 * Idea: (1) fold p onto p' = 2^floor(log2 p) ranks with no idle half: in
 * each pair (2i, 2i+1) below 2r the even rank reduces the lower half of the
 * vector while the odd rank reduces the upper half, then the odd rank
 * hands its half over; (2) reduce-scatter by recursive halving: at
 * distances 1, 2, 4, ... each vrank sends the half of its window it does
 * not keep and reduces the half it keeps, so after log2 p' steps it owns
 * 1/p' of the result; (3) allgather by recursive doubling, the same steps
 * walked backwards; (4) even ranks below 2r send the result to their odd
 * neighbour.
 *
 *   p = 4, count 8 (vrank v keeps windows as shown; | = window cut)
 *   step 1, distance 1:  v0 keeps [0,4)  v1 keeps [4,8)  v2 [0,4)  v3 [4,8)
 *   step 2, distance 2:  v0 keeps [0,2)  v1 [4,6)  v2 [2,4)  v3 [6,8)
 *   allgather: distance 2 then 1, each vrank sending what it keeps.
 *
 * Cost (p = p'): 2 log2 p alpha + 2 (p-1)/p n beta + (p-1)/p n gamma;
 *       p != p' adds 3 alpha + 2 n beta + n/2 gamma (steps 1 and 4).
 * Restrictions: commutative op (windows are reduced as received),
 *       count >= p' (every vrank owns at least one element).
 * Memory: one temporary of ceil(count/2) elements (the largest half a
 *       rank receives).  The send buffer is never copied: the first
 *       reduction reads it and writes recvbuf.
 * Layout: the vector cut in halves, the halves in halves.. (p' vblocks);
 *       vrank v ends step (2) with the vblock at v's bits reversed.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_halving.h"

int mca_coll_rsag_allreduce_rabenseifner(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    const mca_coll_rsag_order_t order = MCA_COLL_RSAG_DISTANCE_DOUBLING;
    mca_coll_rsag_halving_step_t steps[MCA_COLL_RSAG_MAX_STEPS];
    char *none, *tmp;
    int nsteps;

    if (OMPI_SUCCESS != mca_coll_rsag_halving_buffers(s, a, 0, order, &none, &tmp)) {
        return s->err;
    }
    /* (1) balanced folding onto p' vranks, (2) reduce-scatter into rbuf */
    (void) mca_coll_rsag_folded_rs(s, a, a->input, a->rbuf, tmp, order, steps, &nsteps, NULL);
    /* (3) allgather among the vranks (nsteps = 0 on folded-away ranks),
     * (4) the folded odd ranks get the whole result */
    return mca_coll_rsag_doubling_allgather(s, a, a->rbuf, steps, nsteps);
}
