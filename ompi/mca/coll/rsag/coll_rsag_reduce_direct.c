/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Reduce on one node through a shared segment and single-copy
 * transfers ("direct"; the building block is coll_rsag_direct.c).
 *
 * Idea: as the direct allreduce, rank r reduces block r of an even cut of
 * the vector from all p inputs in rank order 0..p-1; instead of every rank
 * gathering the blocks, each owner writes its block straight into the
 * root's receive buffer (CMA: process_vm_writev, chunk by chunk), or puts
 * it in its slot for the root to copy (segment).  The work is spread over
 * all ranks; the root only reduces its own block.
 *
 *   p = 3, root 0
 *            rank 0                  rank 1                  rank 2
 *   arrive   publish &x_0, &rbuf     publish &x_1            publish &x_2
 *   reduce   R_0 into rbuf           R_1 -> write to rbuf_0  R_2 -> write to rbuf_0
 *   done     wait for all (the root's rbuf is complete when every rank is done)
 *   Small vectors (<= half a slot): every rank copies x_q into its slot, the
 *   root reduces the whole vector from the slots.
 *
 * Cost (n bytes, c = copy per byte): CMA: 1 alpha_sync + (p-1)/p n c
 *       (pulls) + (p-1)/p n gamma + 1/p n c (write to the root) per rank,
 *       in parallel; the root's link carries (p-1)/p n once.
 * Restrictions: one node, contiguous datatype (any lower bound); any op.
 * Memory: the segment; per call one chunk, a second on the root in place
 *       (copy of its own chunk) or off the root (the chunk on its way).
 */
#include "ompi_config.h"

#include "coll_rsag_direct.h"

static int mca_coll_rsag_reduce_direct_blocking(const mca_coll_rsag_args_t *a)
{
    return mca_coll_rsag_direct(a, MCA_COLL_RSAG_DIRECT_REDUCE);
}

/* The waits of the node path are on shared memory, not on requests: the
 * whole algorithm is one step, so it runs in blocking calls only
 * (MCA_COLL_RSAG_NEEDS_BLOCKING in its table row). */
int mca_coll_rsag_reduce_direct(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    (void) mca_coll_rsag_sched_run_step(s, mca_coll_rsag_reduce_direct_blocking, a);
    return s->err;
}
