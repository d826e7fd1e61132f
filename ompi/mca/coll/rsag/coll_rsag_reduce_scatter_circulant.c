/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter by the circulant
 * reduce-scatter (J. L. Träff, "Optimal, Non-pipelined Reduce-scatter and
 * Allreduce Algorithms"; building block coll_rsag_circulant.c).
 *
 * Idea: halve the run of blocks a rank is responsible for, ceil(log2 p)
 * times, for any p: with skips s_q = p, s_k = ceil(s_(k+1) / 2), in round
 * k rank r sends its partial sums of blocks r + s_k .. r + s_(k+1) - 1 to
 * r + s_k and reduces into its blocks r .. r + s_(k+1) - s_k - 1 what
 * r - s_k sends, so it keeps s_k blocks; after round 0, block r alone.
 *
 *   p = 5, skips 1 2 3 5; "b:x,y" = block b summed over ranks x, y
 *   round 2 (s=3): r sends blocks r+3, r+4 to r+3; receives r, r+1 from r-3
 *      rank 0 holds 0:0,2  1:0,2  2:0          (rank 3: 3:3,0  4:3,0  0:3)
 *   round 1 (s=2): r sends block r+2 to r+2; receives r from r-2
 *      rank 0 holds 0:0,2,3  1:0,2             (rank 4: 4:4,1,2  0:4,1)
 *   round 0 (s=1): r sends block r+1 to r+1; receives r from r-1
 *      rank 0 holds 0:0,2,3,4,1 = all
 *   Rank 0 sends 2 + 1 + 1 = 4 = p - 1 blocks.  Block runs wrap around
 *   the end of the vector (rank 4 sends blocks 2, 3 in round 2, receives
 *   blocks 4, 0): two messages then.
 *
 * Blocks may be of any size, zero included (empty pieces are not sent),
 * so one code serves both collectives.
 *
 * Cost, n the whole vector (even blocks):
 *       ceil(log2 p) alpha + (p-1)/p n beta + (p-1)/p n gamma: the
 *       latency of recursive halving and its bandwidth for every p, with
 *       no folding step for p != 2^k (more alphas where a round's run
 *       wraps into two pieces, or is longer than
 *       coll_rsag_exchange_chunk_size: its messages are in flight
 *       together, and each is reduced as it arrives).
 * Restrictions: commutative op (each block's partial sums are combined in
 *       an order that depends on the block).
 * Memory: a work vector of n elements (the partial sums; only the blocks
 *       r .. r + ceil(p/2) - 1 are used), none at p = 2, and a receive
 *       buffer of the first round's floor(p/2) blocks.  The send buffer
 *       is never copied: the first round sends from it and reduces it
 *       with what it receives into the work vector.  The last round's
 *       reduction writes block r into rbuf, also in place (the input is
 *       read only in the first round), unless p = 2 in place with block r
 *       not at the start (then through the work vector).
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_circulant.h"

int mca_coll_rsag_reduce_scatter_circulant(mca_coll_rsag_sched_t *s,
                                           const mca_coll_rsag_args_t *a)
{
    /* p = 2 has one round, which reads the input: in place, block r goes
     * straight to rbuf only if it is at the start (what the send reads is
     * not overwritten). */
    bool one_round = 2 == a->size;
    bool direct = !(one_round && a->in_place && 0 != a->displ[a->rank]);
    char *work = (one_round && direct) ? NULL : mca_coll_rsag_sched_tmp(s, a->count);
    char *tmp = mca_coll_rsag_sched_tmp(s, mca_coll_rsag_circulant_recv_count(a));

    if (OMPI_SUCCESS != s->err) {
        return s->err;
    }
    (void) mca_coll_rsag_circulant_rs(s, a, a->input, work, tmp, direct ? a->rbuf : NULL);
    if (!direct) {
        (void) mca_coll_rsag_sched_copy(s,
                                        mca_coll_rsag_elem(work, a->displ[a->rank], a->extent),
                                        a->rbuf, a->displ[a->rank + 1] - a->displ[a->rank]);
    }
    return s->err;
}
