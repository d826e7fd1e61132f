/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter on one node through a
 * shared segment and single-copy pulls ("direct"; coll_rsag_direct.c).
 *
 * Idea: the first half of the direct allreduce over MPI's blocks: rank r
 * reduces its block, of any size (zero too), from all p inputs in rank
 * order 0..p-1, pulling the peers' pieces of it with CMA chunk by chunk,
 * or reading them from the segment's slots.  Nothing travels afterwards.
 *
 *   p = 3, blocks of sizes c_0 c_1 c_2
 *            rank 0                  rank 1                  rank 2
 *   arrive   publish &x_0            publish &x_1            publish &x_2
 *   reduce   rbuf = x_0.0+x_1.0+x_2.0  rbuf = ... block 1      rbuf = ... block 2
 *   done     wait for all (in place: the block is kept aside until every
 *            rank has stopped reading rbuf, then copied to its start)
 *
 * Cost (n bytes, c = copy per byte): CMA: 1 alpha_sync + (p-1)/p n c +
 *       (p-1)/p n gamma per rank (for even blocks), all ranks in parallel.
 * Restrictions: one node, contiguous datatype (any lower bound); any op.
 * Memory: the segment; per call one chunk, and in place my block.
 */
#include "ompi_config.h"

#include "coll_rsag_direct.h"

static int mca_coll_rsag_reduce_scatter_direct_blocking(const mca_coll_rsag_args_t *a)
{
    return mca_coll_rsag_direct(a, MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER);
}

/* The waits of the node path are on shared memory, not on requests: the
 * whole algorithm is one step, so it runs in blocking calls only
 * (MCA_COLL_RSAG_NEEDS_BLOCKING in its table row). */
int mca_coll_rsag_reduce_scatter_direct(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    (void) mca_coll_rsag_sched_run_step(s, mca_coll_rsag_reduce_scatter_direct_blocking, a);
    return s->err;
}
