/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter, priority-aware
 * (M. Gavahi, "Priority-aware MPI_Reduce-Scatter Operation").
 *
 * Idea: the steps of recursive halving over vblocks, but each step's outgoing
 * half leaves as separate nonblocking messages of U vblocks ("runs", U =
 * coll_rsag_priority_aware_run_blocks), in the
 * order the partner needs them, and a received run is reduced only when due:
 * just before it is forwarded in the next step or, if kept, while the next
 * step's messages are in flight.
 *
 * Pattern of vrank v (U = 1 below; step k pairs v with v ^ m, m = p'/2^(k+1),
 * inside the aligned window of 2m vblocks, as in recursive halving):
 *   step 0   post the receives of the kept half K0 in v's own need order;
 *            send the given half G0 from the input in the partner's order.
 *   step k   (0, k >= 2) post every receive of K_k, in v's order;
 *            (1) for each run of G_k in the partner's order: wait for the
 *            step k-1 receive holding it, reduce that receive into the work
 *            vector, send the run; (0', k = 1) post every receive of K_1;
 *            (2) for each run of K_k in v's order: wait and reduce the
 *            step k-1 receive holding it (if not yet done), while the step
 *            k messages arrive.  Receives alternate between two areas of
 *            the one receive buffer (coll_rsag_priority_pattern.c), so
 *            none waits for a reduction to free its slot.
 *   end      wait and reduce the last receive (vblock v); unfold_blocks.
 * As a schedule (coll_rsag_sched.h) this is the list of those steps in
 * that order with no fence inside: each reduction names the receive it
 * waits for, so every message posted before it stays in flight.
 * "The order u needs a window" (mca_coll_rsag_priority_order): first the
 * half u forwards next, in the order its next partner needs it, then the
 * half u keeps, in u's own order.  p = 8 (vblock numbers; >w sends to vrank
 * w, < receives from the same vrank, both in time order):
 *
 *        step 0 (distance 4)      step 1 (distance 2)   step 2 (distance 1)
 *   v0   >v4 7 6 5 4  < 3 2 1 0   >v2 3 2  < 1 0        >v1 1  < 0
 *   v1   >v5 6 7 4 5  < 2 3 0 1   >v3 2 3  < 0 1        >v0 0  < 1
 *   v2   >v6 5 4 7 6  < 1 0 3 2   >v0 1 0  < 3 2        >v3 3  < 2
 *   v3   >v7 4 5 6 7  < 0 1 2 3   >v1 0 1  < 2 3        >v2 2  < 3
 *   v4   >v0 3 2 1 0  < 7 6 5 4   >v6 7 6  < 5 4        >v5 5  < 4
 *   v5   >v1 2 3 0 1  < 6 7 4 5   >v7 6 7  < 4 5        >v4 4  < 5
 *   v6   >v2 1 0 3 2  < 5 4 7 6   >v4 5 4  < 7 6        >v7 7  < 6
 *   v7   >v3 0 1 2 3  < 4 5 6 7   >v5 4 5  < 6 7        >v6 6  < 7
 *
 *   v0 in time (rN: reduce the received vblock N, sN/pN: send/post N):
 *   step 0: p3 p2 p1 p0 (from v4), s7 s6 s5 s4 (to v4, from the input)
 *   step 1: r3 s3, r2 s2 (to v2) | p1 p0 (from v2) | r1, r0
 *   step 2: p0 (from v1) | r1 s1 (to v1) | r0
 *   end:    r0 -> v0's vblock reduced
 * The sends of one step go out in exactly the order the partner posts its
 * receives, so messages match in order on one tag.  With U > 1 the same
 * order is cut into aligned runs of U vblocks (min(U, m) per step, e.g. U = 2
 * at step 0: v0 sends 6-7 4-5); U >= p'/2 is recursive halving with
 * nonblocking messages.  Non-power-of-two p: the balanced pre-step of
 * recursive halving folds p onto p' first; zero-size runs are not sent.
 *
 * Cost (p = p', U = 1): (p-1) alpha + (p-1)/p n beta + (p-1)/p n gamma: the
 *       bytes and flops of recursive halving, but p-1 messages per rank
 *       instead of log2 p (sum over steps of max(1, m/U) for U > 1); the
 *       gain is overlap: while a step's messages are in flight, the rank
 *       reduces what it received before.  p != p' adds what recursive
 *       halving adds (pre-step and block hand-over).
 * Restrictions: commutative op (received runs are reduced as tmp (op) ours).
 * Memory: exactly recursive halving's: a work vector of n elements and one
 *       receive area mirroring the first kept half K0 (or the pre-step's
 *       ceil(n/2) when larger); even steps land at their own place in it,
 *       odd steps in the part mirroring G1 (when K1 has no more elements
 *       than G1; otherwise a receive is posted once its own slot is
 *       reduced).  Plus the schedule's steps (O(p') of them).  The send
 *       buffer is never copied.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_halving.h"
#include "coll_rsag_priority_pattern.h"

int mca_coll_rsag_reduce_scatter_priority_aware(mca_coll_rsag_sched_t *s,
                                                const mca_coll_rsag_args_t *a)
{
    char *work, *tmp;

    if (OMPI_SUCCESS != mca_coll_rsag_halving_buffers(s, a, a->count,
                                                      MCA_COLL_RSAG_DISTANCE_HALVING, &work,
                                                      &tmp)) {
        return s->err;
    }
    (void) mca_coll_rsag_priority_aware_rs(s, a, a->input, work, tmp);
    return mca_coll_rsag_unfold_blocks(s, a, work);
}
