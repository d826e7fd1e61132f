/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The two ring phases (coll_rsag_ring.c), shared by the ring allreduce and
 * the ring reduce-scatter: p - 1 steps, each sending to rank + 1 and
 * receiving from rank - 1, over the blocks of a->displ (any sizes, zeros
 * included), pipelined in segments of coll_rsag_allreduce_ring_segment_size
 * bytes.  Every rank of the communicator passes the same layout.
 */
#ifndef MCA_COLL_RSAG_RING_H
#define MCA_COLL_RSAG_RING_H

#include "coll_rsag.h"

/* Reduce-scatter, commutative ops: `input` is this rank's contribution
 * (read only; may be `work` itself), `work` is a vector in user layout
 * that receives the forwarded partial sums (every block but this rank's
 * own and the one before it), and block r reduced over every rank lands at
 * `out` (element 0 of the block; `out` may be work + block r, and must not
 * overlap the input otherwise).  Temporary memory: four segments. */
int mca_coll_rsag_ring_rs(const mca_coll_rsag_args_t *a, const char *input, char *work,
                          char *out);

/* Allgather in place: block r of `buf` (this rank's) goes to every rank,
 * the other blocks of `buf` are received.  No temporary memory. */
int mca_coll_rsag_ring_allgather(const mca_coll_rsag_args_t *a, char *buf);
int mca_coll_rsag_ring_allgather_sched(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                       char *buf);

#endif /* MCA_COLL_RSAG_RING_H */
