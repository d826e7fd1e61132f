/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Allreduce on one node through a shared segment and single-copy pulls
 * ("direct"; the building block is coll_rsag_direct.c).
 *
 * Idea: rank r owns block r of an even cut of the vector and reduces it
 * from all p inputs in rank order 0..p-1, reading the peers' buffers
 * directly (CMA, one copy, chunk by chunk while hot) or through the
 * segment's slots; then every rank copies the other p-1 blocks from their
 * owners.  One rank computes each block, so every rank gets the same bits.
 *
 *   p = 3, blocks 0 1 2; x_q = rank q's input, R_b = reduced block b
 *            rank 0                  rank 1                  rank 2
 *   arrive   publish &x_0            publish &x_1            publish &x_2
 *   reduce   R_0 = x_0.0+x_1.0+x_2.0 R_1 = ...               R_2 = ...
 *            (pull x_1.0, x_2.0)     (pull x_0.1, x_2.1)     (pull x_0.2, x_1.2)
 *   ready    R_0 readable            R_1 readable            R_2 readable
 *   gather   pull R_1, R_2           pull R_2, R_0           pull R_0, R_1
 *   done     wait for all: nobody returns while a peer may read its buffers
 *   Small vectors (<= half a slot): each rank copies x_q into its slot and
 *   every rank reduces the whole vector from the slots (one wait).
 *
 * Cost (n bytes, c = memory copy per byte, k = ceil(n / p / chunk)):
 *       CMA: 2 alpha_sync + (p-1)/p n c (pulls to reduce) + (p-1)/p n gamma
 *       + (p-1)/p n c (pulls of results) + p k alpha_syscall: two copies of
 *       the vector per rank against four through the PML (eager send and
 *       receive, twice); segment: copy in, reduce out, copy results out.
 * Restrictions: one node (all ranks local, segment made), contiguous
 *       datatype (any lower bound); any op, non-commutative included.
 * Memory: the segment (p control lines + p slots, per communicator); per
 *       call one chunk (coll_rsag_direct_chunk_size) and, in place, a second
 *       one for a copy of my own chunk.
 */
#include "ompi_config.h"

#include "coll_rsag_direct.h"

static int mca_coll_rsag_allreduce_direct_blocking(const mca_coll_rsag_args_t *a)
{
    return mca_coll_rsag_direct(a, MCA_COLL_RSAG_DIRECT_ALLREDUCE);
}

/* The waits of the node path are on shared memory, not on requests: the
 * whole algorithm is one step, so it runs in blocking calls only
 * (MCA_COLL_RSAG_NEEDS_BLOCKING in its table row). */
int mca_coll_rsag_allreduce_direct(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    (void) mca_coll_rsag_sched_run_step(s, mca_coll_rsag_allreduce_direct_blocking, a);
    return s->err;
}
