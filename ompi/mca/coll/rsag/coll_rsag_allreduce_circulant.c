/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Allreduce by the circulant reduce-scatter and its mirror allgather
 * (J. L. Träff, "Optimal, Non-pipelined Reduce-scatter and Allreduce
 * Algorithms"; building block coll_rsag_circulant.c).
 *
 * Idea: cut the vector into p blocks as even as possible; (1) the
 * circulant reduce-scatter (coll_rsag_reduce_scatter_circulant.c) leaves
 * block r, reduced, on rank r in ceil(log2 p) rounds; (2) the allgather
 * walks the rounds back: in round k = 0 .. q-1 rank r, holding blocks
 * r .. r + s_k - 1, sends the first s_(k+1) - s_k of them to r - s_k and
 * receives blocks r + s_k .. r + s_(k+1) - 1 from r + s_k.
 *
 *   p = 5, skips 1 2 3 5; what rank 0 holds (final blocks)
 *   (1) reduce-scatter, rounds 2, 1, 0               block 0
 *   (2) round 0 (s=1): sends 0 to 4, gets 1 from 1    blocks 0 1
 *       round 1 (s=2): sends 0 to 3, gets 2 from 2    blocks 0 1 2
 *       round 2 (s=3): sends 0 1 to 2, gets 3 4 from 3  all
 *
 * Cost: 2 ceil(log2 p) alpha + 2 (p-1)/p n beta + (p-1)/p n gamma for
 *       every p: Rabenseifner's terms without its fold for p != 2^k
 *       (which costs it 2 alpha + n beta + n/2 gamma more), the ring's
 *       bandwidth with log2 p latencies instead of p - 1.  A round whose
 *       run of blocks wraps around the vector sends two pieces, each in
 *       messages of at most coll_rsag_exchange_chunk_size.
 * Restrictions: commutative op.  None on the count: blocks may be empty.
 * Memory: a receive buffer of floor(p/2) blocks.  recvbuf is the work
 *       vector: the first round reduces the send buffer with what it
 *       receives straight into recvbuf (the send buffer is never copied
 *       whole: only the block no peer sends in the first round when p is
 *       odd), and the allgather receives into place.  In place the same,
 *       in recvbuf.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_circulant.h"

int mca_coll_rsag_allreduce_circulant(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    char *tmp = mca_coll_rsag_sched_tmp(s, mca_coll_rsag_circulant_recv_count(a));

    if (OMPI_SUCCESS != s->err) {
        return s->err;
    }
    /* (1) block r, reduced, lands in place in recvbuf */
    (void) mca_coll_rsag_circulant_rs(s, a, a->input, a->rbuf, tmp, NULL);
    /* (2) every block to every rank */
    (void) mca_coll_rsag_circulant_allgather(s, a, a->rbuf);
    return s->err;
}
