/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Building blocks of the circulant algorithms (coll_rsag_circulant.c;
 * J. L. Träff, "Optimal, Non-pipelined Reduce-scatter and Allreduce
 * Algorithms"): a reduce-scatter in ceil(log2 p) rounds for any p in which
 * each rank sends, receives and reduces p - 1 blocks, and its mirror, an
 * allgather in as many rounds.  The pattern (skips, peers, block runs) is
 * pure index arithmetic: mca_coll_rsag_circulant_* in coll_rsag_index.h.
 *
 * Blocks are those of a->displ (any sizes, zeros included: MPI's blocks for
 * the reduce-scatters, the even cut for the allreduce).  A round's run of
 * blocks may wrap around the end of the vector: it is then two pieces
 * (mca_coll_rsag_block_run), an empty piece none.  Each piece travels in
 * messages of at most coll_rsag_exchange_chunk_size bytes (even sizes;
 * 0: whole), each reduced as it arrives: below the transport's eager
 * limit none of them waits for a rendezvous handshake.  Both blocks
 * describe their steps into a schedule (coll_rsag_sched.h) and end with a
 * fence; they return the schedule's first error.
 */
#ifndef MCA_COLL_RSAG_CIRCULANT_H
#define MCA_COLL_RSAG_CIRCULANT_H

#include "coll_rsag.h"

/* Elements of the receive buffer the reduce-scatter needs on this rank:
 * its largest run of received blocks (the first round's, floor(p/2)
 * blocks). */
size_t mca_coll_rsag_circulant_recv_count(const mca_coll_rsag_args_t *a);

/* Reduce-scatter, commutative ops.  `input`: this rank's contribution
 * (read only in the first round; may be `work` itself); `work`: a vector
 * of a->count elements in the displ layout holding the partial sums (NULL
 * allowed when p = 2 and `out` is given: the one round reads `input`);
 * `tmp`: mca_coll_rsag_circulant_recv_count elements; `out`: where block r
 * reduced over every rank goes (NULL: its place in work).  `out` must not
 * overlap what the first round reads of `input` while it runs: with p = 2
 * in place, only when block r is at the start of the vector. */
int mca_coll_rsag_circulant_rs(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                               const char *input, char *work, char *tmp, char *out);

/* Allgather in place: block r of `work` (this rank's, final) goes to every
 * rank; the other blocks are received straight into their places. */
int mca_coll_rsag_circulant_allgather(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                      char *work);

#endif /* MCA_COLL_RSAG_CIRCULANT_H */
