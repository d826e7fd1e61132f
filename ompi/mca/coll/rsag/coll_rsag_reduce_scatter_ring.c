/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter by a pipelined ring (the
 * reduce-scatter phase of coll_rsag_ring.c, with a work vector).
 *
 * Idea: the ranks form a ring r -> r + 1.  At step s = 0 .. p-2 rank r
 * sends block (r-s-1) mod p to r + 1 and receives block (r-s-2) mod p from
 * r - 1, which it reduces with its own contribution: what it reduced at
 * step s is what it sends at step s + 1, so block r, received last, holds
 * every rank's contribution.  Blocks travel in chunks: a chunk is
 * received into one of four slots, reduced, and forwarded at once, so the
 * next chunk arrives while this one is reduced and rank r + 1 works on a
 * block before rank r has finished it.
 *
 *   p = 4; "b:x..y" = block b reduced over ranks x, x+1, .., y (mod 4)
 *            rank 0     rank 1     rank 2     rank 3
 *   sends    3 (own)    0 (own)    1 (own)    2 (own)      then forwards
 *   step 0   2:3..0     3:0..1     0:1..2     1:2..3       what it reduced
 *   step 1   1:2..0     2:3..1     3:0..2     0:1..3
 *   step 2   0:all      1:all      2:all      3:all
 *
 * The allgather phase (ring allreduce) walks the same ring one block
 * later: at step s rank r sends block (r-s) mod p and receives block
 * (r-s-1) mod p straight into place, forwarding each chunk on arrival.
 *
 * Blocks may be of any size, zero included, so one code serves both
 * collectives (coll_rsag_dispatch.c builds the layout).  Segments are
 * coll_rsag_reduce_scatter_ring_chunk_size bytes of data (at least one
 * element; 0: whole blocks); both ends of a link cut them with the same
 * cursor (coll_rsag_index.c), so each chunk is one message.
 *
 * Cost, n the whole vector, k chunks per block:
 *       (p-1) k alpha + (p-1)/p n beta + (p-1)/p n gamma; the chunks
 *       pipeline, so for k >> p the time nears (p-1)/p n max(beta, gamma)
 *       instead of their sum.  Bandwidth-optimal like recursive halving,
 *       but p-1 latencies instead of log2 p: a large-message algorithm.
 * Restrictions: commutative op (partial sums are combined in ring order,
 *       not rank order).
 * Memory: four receive slots of one chunk (two blocks when whole blocks
 *       are sent), a schedule of a few steps per chunk, and for
 *       reduce-scatter a work vector of n elements for the forwarded
 *       partial sums.  The send buffer is read, never copied.
 * Order: the steps of each chunk name what they wait for (its receive,
 *       the slot's previous reduction, the send W before), so many
 *       chunks are in flight; how they are listed so that the ring
 *       cannot deadlock is at the top of coll_rsag_ring.c.  In place, a
 *       fence puts the final copy after the whole pass.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_ring.h"

int mca_coll_rsag_reduce_scatter_ring(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    mca_coll_rsag_range_t mine = mca_coll_rsag_block(a->displ, a->rank);
    char *work = mca_coll_rsag_sched_tmp(s, a->count);
    char *out = a->rbuf;
    mca_coll_rsag_ring_t rs;

    if (NULL == work) {
        return s->err;
    }
    /* In place, the start of rbuf holds input blocks that are still being
     * read and sent: block r is reduced in the work vector, copied once
     * the pass is over. */
    if (a->in_place) {
        out = mca_coll_rsag_elem(work, mine.off, a->extent);
    }
    mca_coll_rsag_ring_rs(s, a, a->input, work, out,
                          mca_coll_rsag_component.rs_ring_chunk_size, &rs);
    mca_coll_rsag_ring_release(&rs);
    if (a->in_place) {
        mca_coll_rsag_sched_fence(s);
        (void) mca_coll_rsag_sched_copy(s, out, a->rbuf, mine.cnt);
    }
    return s->err;
}
