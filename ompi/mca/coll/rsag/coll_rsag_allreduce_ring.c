/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Allreduce by a pipelined ring: ring reduce-scatter + ring allgather.
 *
 * Idea: cut the vector into p blocks as even as possible (the first
 * count % p blocks one element longer); (1) a ring reduce-scatter leaves
 * block r, reduced over every rank, on rank r; (2) a ring allgather passes
 * each reduced block once around the ring.  Both phases send chunks that
 * are forwarded as soon as they are ready (coll_rsag_ring.c),
 * so every link is busy at every step and the work is spread evenly.
 *
 *   p = 3, blocks 0 1 2; rank r sends to r+1 ("b:x..y": block b reduced
 *   over ranks x..y mod 3)
 *                  rank 0       rank 1       rank 2
 *   (1) step 0     1:2..0       2:0..1       0:1..2
 *       step 1     0:all        1:all        2:all
 *   (2) step 0     gets 2       gets 0       gets 1
 *       step 1     gets 1       gets 2       gets 0
 *
 * Cost: 2(p-1) alpha + 2 (p-1)/p n beta + (p-1)/p n gamma with whole blocks
 *       (k chunks per block: 2(p-1)k alpha, and the chunks pipeline);
 *       the same bandwidth term as Rabenseifner, p-1 latencies per phase
 *       instead of log2 p, and no extra step for p != 2^k.
 * Restrictions: commutative op.  None on the count: blocks may be empty.
 * Memory: the receive slots of the reduce-scatter (four chunks) and a
 *       schedule of a few steps per chunk.  recvbuf is the work vector;
 *       the send buffer is never copied: the first reduction of each block
 *       reads it and writes recvbuf.
 * Order: the allgather's steps follow the reduce-scatter's in the
 *       schedule but do not wait for it to finish: its first sends wait
 *       for the reductions of block r, its receives for the sends that
 *       read the place they land in (coll_rsag_ring.c).
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_ring.h"

int mca_coll_rsag_allreduce_ring(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    mca_coll_rsag_ring_t rs;

    /* (1) block r, reduced, lands in place in recvbuf */
    mca_coll_rsag_ring_rs(s, a, a->input, a->rbuf,
                          mca_coll_rsag_elem(a->rbuf, a->displ[a->rank], a->extent),
                          mca_coll_rsag_component.allreduce_ring_chunk_size, &rs);
    /* (2) every block to every rank, each chunk as soon as it is reduced */
    mca_coll_rsag_ring_allgather(s, a, a->rbuf, &rs);
    mca_coll_rsag_ring_release(&rs);
    return s->err;
}
