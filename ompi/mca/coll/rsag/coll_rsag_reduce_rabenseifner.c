/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Reduce, Rabenseifner's algorithm: reduce-scatter + binomial gather
 * (as Kurnosov describes it in "Load imbalance in MPIR_Reduce_redscat_gather",
 * mpich-devel, 2017).
 *
 * Idea: (1) fold p onto p' = 2^floor(log2 p) ranks with no idle half: in
 * each pair (2i, 2i+1) below 2r the even rank reduces the lower half while
 * the odd rank reduces the upper half, then the odd rank hands its half to
 * the even one and leaves; (2) reduce-scatter by recursive halving with
 * distance doubling, so each vrank owns 1/p' of the result; (3) binomial
 * gather to the root with vector doubling and distance halving: the
 * halving steps walked backwards, where at each distance the vrank whose
 * partner lies on the root's side sends its window and leaves.
 *
 * The root's place in the folded group:
 *   root >= 2r          vroot = root - r
 *   root < 2r, even     vroot = root / 2
 *   root < 2r, odd      the root was folded away: it takes vrank 0's role.
 *                       Rank 0 sends it vrank 0's block after step 2 and
 *                       leaves; the gather sends to the root wherever it
 *                       would have sent to rank 0.
 *
 *   p = 4, root = vrank 0, count 8: after step 2 v0 has [0,2) v1 [4,6)
 *   v2 [2,4) v3 [6,8)
 *   gather distance 2: v2 -> v0 ([2,4)), v3 -> v1 ([6,8))
 *   gather distance 1: v1 -> v0 ([4,8))             v0 has [0,8)
 *
 * Cost (p = p'): 2 log2 p alpha + 2 (p-1)/p n beta + (p-1)/p n gamma;
 *       p != p' adds 2 alpha + n beta + n/2 gamma (step 1), an odd folded
 *       root adds alpha + n/p' beta.
 * Restrictions: commutative op, count >= p'.
 * Memory: the root works in recvbuf and needs ceil(count/2) elements;
 *       other ranks a work vector of count and ceil(count/2) more
 *       (that description's bound: root count, others 2 count).  The send buffer is
 *       never copied: the first reduction reads it and writes the work
 *       vector.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_halving.h"

/* A folded-away odd root takes over vrank 0's block and role: rank 0 sends
 * it the block after step 2 and leaves the gather.  Updates *vrank, and on
 * the root its halving steps. */
static void mca_coll_rsag_reduce_take_root(mca_coll_rsag_sched_t *s,
                                           const mca_coll_rsag_args_t *a, char *work,
                                           int *vrank, mca_coll_rsag_halving_step_t *steps,
                                           int *nsteps)
{
    const mca_coll_rsag_order_t order = MCA_COLL_RSAG_DISTANCE_DOUBLING;
    int pof2 = mca_coll_rsag_pof2_floor(a->size);
    mca_coll_rsag_range_t block = mca_coll_rsag_vblocks(
        a->vdispl, mca_coll_rsag_halving_position(0, pof2, order), 1);

    if (a->rank == a->root) {
        (void) mca_coll_rsag_sched_recv(s, a, mca_coll_rsag_elem(work, block.off, a->extent),
                                        block.cnt, 0);
        *vrank = 0;
        *nsteps = mca_coll_rsag_halving_pattern(a->vdispl, pof2, 0, order, steps);
    } else if (0 == *vrank) {
        (void) mca_coll_rsag_sched_send(s, a, mca_coll_rsag_elem(work, block.off, a->extent),
                                        block.cnt, a->root);
        *vrank = -1;
    }
}

int mca_coll_rsag_reduce_rabenseifner(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    const mca_coll_rsag_order_t order = MCA_COLL_RSAG_DISTANCE_DOUBLING;
    int extra = a->size - mca_coll_rsag_pof2_floor(a->size);
    int vrank = mca_coll_rsag_fold_vrank(a->rank, a->size);
    bool root_folded = a->root < 2 * extra && 1 == a->root % 2;
    int vroot = root_folded ? 0 : mca_coll_rsag_fold_vrank(a->root, a->size);
    bool is_root = (a->rank == a->root);
    mca_coll_rsag_halving_step_t steps[MCA_COLL_RSAG_MAX_STEPS];
    char *work, *tmp;
    int nsteps;

    /* The root works in its receive buffer, the others in a temporary. */
    if (OMPI_SUCCESS != mca_coll_rsag_halving_buffers(s, a, is_root ? 0 : a->count, order,
                                                      &work, &tmp)) {
        return s->err;
    }
    work = is_root ? a->rbuf : work;

    /* (1) balanced folding onto p' vranks, (2) reduce-scatter */
    (void) mca_coll_rsag_folded_rs(s, a, a->input, work, tmp, order, steps, &nsteps, NULL);
    if (root_folded) {
        mca_coll_rsag_reduce_take_root(s, a, work, &vrank, steps, &nsteps);
    }

    /* (3) binomial gather to vroot: the halving steps walked backwards.
     * The windows received at the levels before this rank sends are
     * disjoint and come from different peers: all are posted at once, and
     * the send of the window they complete waits for them. */
    for (int k = (vrank >= 0) ? nsteps - 1 : -1; k >= 0; --k) {
        const mca_coll_rsag_halving_step_t *st = &steps[k];
        int peer = (root_folded && 0 == st->peer) ? a->root
                                                  : mca_coll_rsag_fold_rank(st->peer, a->size);

        if (mca_coll_rsag_gather_sends(vrank, vroot, k)) {
            mca_coll_rsag_sched_fence(s);
            (void) mca_coll_rsag_sched_send(s, a, mca_coll_rsag_elem(work, st->keep.off, a->extent),
                                            st->keep.cnt, peer);
            break;
        }
        (void) mca_coll_rsag_sched_recv(s, a, mca_coll_rsag_elem(work, st->give.off, a->extent),
                                        st->give.cnt, peer);
    }
    mca_coll_rsag_sched_fence(s);
    return s->err;
}
