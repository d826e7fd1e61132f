/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The two ring phases (coll_rsag_ring.c), shared by the ring allreduce and
 * the ring reduce-scatter: p - 1 steps, each sending to rank + 1 and
 * receiving from rank - 1, over the blocks of a->displ (any sizes, zeros
 * included), pipelined in chunks of a given size in bytes (each ring's
 * parameter: coll_rsag_allreduce_ring_chunk_size,
 * coll_rsag_reduce_scatter_ring_chunk_size).  Every rank of the
 * communicator passes the same layout and chunk size.  Each phase is
 * appended to a schedule (coll_rsag_sched.h) as one step per
 * chunk sent, received or reduced, with the dependencies that keep
 * several chunks in flight.
 */
#ifndef MCA_COLL_RSAG_RING_H
#define MCA_COLL_RSAG_RING_H

#include "coll_rsag.h"

/* A phase described: the steps a later phase names. */
typedef struct mca_coll_rsag_ring_t {
    size_t nrecv, nsend, nfirst;    /* chunks received; sent; sent of the first block */
    bool first_in_work;             /* the first block was sent from the work vector */
    size_t chunk_bytes;             /* bytes per chunk (0: whole blocks) */
    int *recv, *send;               /* schedule step of each receive, each send */
    int *ready;                     /* step after which received chunk i may be used
                                     * (its reduction; the allgather: its receive) */
} mca_coll_rsag_ring_t;

/* Reduce-scatter, commutative ops: `input` is this rank's contribution
 * (read only; may be `work` itself), `work` is a vector in user layout
 * that receives the forwarded partial sums (every block but this rank's
 * own and the one before it), and block r reduced over every rank lands at
 * `out` (element 0 of the block; `out` may be work + block r, and must not
 * overlap the input otherwise).  Blocks travel in chunks of `chunk_bytes`
 * (0: whole blocks; below one element: one element).  Temporary memory:
 * four chunks (two blocks with whole blocks), taken from the schedule.  `r` describes the
 * phase for the allgather that may follow; release it with
 * mca_coll_rsag_ring_release. */
void mca_coll_rsag_ring_rs(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                           const char *input, char *work, char *out, size_t chunk_bytes,
                           mca_coll_rsag_ring_t *r);

/* Allgather in place: block r of `buf` (this rank's) goes to every rank,
 * the other blocks of `buf` are received.  `rs`: the reduce-scatter that
 * left block r in `buf` with work = buf (its steps are named instead of
 * waiting for it to finish; its chunks are used), or NULL (chunks of
 * coll_rsag_allreduce_ring_chunk_size).  No temporary memory. */
void mca_coll_rsag_ring_allgather(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                  char *buf, const mca_coll_rsag_ring_t *rs);

void mca_coll_rsag_ring_release(mca_coll_rsag_ring_t *r);

#endif /* MCA_COLL_RSAG_RING_H */
