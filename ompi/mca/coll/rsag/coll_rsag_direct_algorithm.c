/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * `direct`, the node path, as an algorithm of the tables: one function for
 * the rows of MPI_Allreduce, MPI_Reduce, MPI_Reduce_scatter_block and
 * MPI_Reduce_scatter (the data paths are the building block
 * coll_rsag_direct.c; doc/direct.md).  Its waits are on shared memory,
 * not on requests: the whole algorithm is one POLL step of the schedule
 * (mca_coll_rsag_direct_step), which a blocking call runs waiting inside
 * and a nonblocking or persistent request polls from the progress engine.
 * The dispatcher has made the communicator's segment (a->segment) before
 * it selects `direct` (a nonblocking or persistent call only selects it
 * once a blocking call made it).
 *
 * -- MPI_Allreduce --
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
 *
 * -- MPI_Reduce --
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
 *
 * -- MPI_Reduce_scatter_block and MPI_Reduce_scatter --
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

mca_coll_rsag_direct_kind_t mca_coll_rsag_direct_kind(mca_coll_rsag_coll_t coll)
{
    switch (coll) {
    case MCA_COLL_RSAG_ALLREDUCE:
        return MCA_COLL_RSAG_DIRECT_ALLREDUCE;
    case MCA_COLL_RSAG_REDUCE:
        return MCA_COLL_RSAG_DIRECT_REDUCE;
    default:
        return MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER;
    }
}

int mca_coll_rsag_direct_algorithm(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    return mca_coll_rsag_direct_step(s, a, mca_coll_rsag_direct_kind(a->coll));
}
