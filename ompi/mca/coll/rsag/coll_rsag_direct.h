/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The node path's building block (coll_rsag_direct.c): "reduce my block
 * from all p inputs in rank order 0..p-1", and the three ways the direct
 * algorithms deliver the blocks.  Each block of the vector is reduced by
 * exactly one rank, as ((x_0 op x_1) op x_2) ... op x_{p-1}, so the result
 * is the same bits on every rank and non-commutative ops are right.
 *
 * Two data paths, chosen per call identically on every rank:
 *   CMA      every rank publishes its buffers' addresses in its control
 *            line; the owner of a block pulls the peers' pieces of it with
 *            process_vm_readv in chunks of coll_rsag_direct_chunk_size,
 *            each reduced while it is in the cache; then blocks go where
 *            they are needed (allreduce: every rank pulls the others'
 *            blocks; reduce: each owner writes its block into the root's
 *            receive buffer with process_vm_writev);
 *   segment  window by window (half a data slot each, two halves in turn
 *            so the next window is written while the last is read), every
 *            rank copies into its slot the parts of its input the others
 *            reduce; the owners reduce their blocks from their own input
 *            and the peers' slots and put the results in their own slots,
 *            from which the ranks that need them copy.  A small vector
 *            (64 KB / p) is reduced whole by every rank that needs it (one
 *            synchronization instead of two); up to a box (4152 bytes at
 *            p = 2, 1080 from p = 3) it goes through the boxes (up to 56
 *            bytes with the stamp in one cache line) instead, at p >= 3
 *            flat or up a tree of fan-in k to rank 0 (the boxed tree,
 *            coll_rsag_direct_fanin).
 * The caller guarantees: the communicator's segment exists
 * (a->segment), a contiguous datatype (size == extent == true
 * extent: element i's bytes are at buf + true_lb + i * extent), p >= 2,
 * count >= 1, a->displ the RANKS layout.
 */
#ifndef MCA_COLL_RSAG_DIRECT_H
#define MCA_COLL_RSAG_DIRECT_H

#include "coll_rsag.h"

BEGIN_C_DECLS

typedef enum mca_coll_rsag_direct_kind_t {
    MCA_COLL_RSAG_DIRECT_ALLREDUCE,     /* every rank gets every block */
    MCA_COLL_RSAG_DIRECT_REDUCE,        /* the root gets every block */
    MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER /* rank r gets block r */
} mca_coll_rsag_direct_kind_t;

/* coll_rsag_direct_fanin (k >= 2: the boxed tree of fan-in k; valid: 0 to
 * this) and the coll_rsag_direct_tree_calls and _cma_calls counters
 * (component register). */
#define MCA_COLL_RSAG_DIRECT_MAX_FANIN 256
void mca_coll_rsag_direct_register(const mca_base_component_t *c);
extern unsigned long long mca_coll_rsag_direct_tree_calls;
extern unsigned long long mca_coll_rsag_direct_cma_calls;

/* What the direct row of collective `coll` delivers
 * (coll_rsag_direct_algorithm.c). */
mca_coll_rsag_direct_kind_t mca_coll_rsag_direct_kind(mca_coll_rsag_coll_t coll);

/* One call's machine (coll_rsag_direct.c). */
typedef struct mca_coll_rsag_direct_t mca_coll_rsag_direct_t;

/* Append the call as one POLL step of s: its temporaries and state are
 * taken now, from the schedule (a persistent request keeps them for its
 * life: a start only moves data); it takes its ticks when the step is
 * issued, so it must be issued in call order (the first step of the
 * schedule, or a blocking schedule).  Returns s->err. */
int mca_coll_rsag_direct_step(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                              mca_coll_rsag_direct_kind_t kind);

/* A persistent request of `a` on a segment of its own
 * (mca_coll_rsag_segment_create_own): the data slot bytes per rank it
 * needs there (*slot_bytes; 0 when it copies by CMA), planned as a
 * nonblocking call on the node's segment a->segment.  The same answer on
 * every rank, except OMPI_ERR_OUT_OF_RESOURCE; OMPI_ERR_NOT_AVAILABLE
 * when its size's copy mode is still to be learned (coll_rsag_single_copy
 * auto: no blocking call of its size class has voted yet), which the
 * request, keeping the mode of its init, would guess; `guess`: take the
 * mode agreed so far then (direct forced). */
int mca_coll_rsag_direct_own_plan(const mca_coll_rsag_args_t *a,
                                  mca_coll_rsag_direct_kind_t kind, bool guess,
                                  size_t *slot_bytes);

/* The latency path (coll_rsag_latency.c): a blocking call of one box
 * (the whole vector fits MCA_COLL_RSAG_BOX_BYTES, segment path) described
 * once, with its own temporaries and no schedule, then run for each call
 * of the same shape.  `layout`: the RANKS layout (p + 1 offsets).
 * prepare: NULL when the call is not of one box, or when its memory
 * fails (*err: OMPI_ERR_OUT_OF_RESOURCE; `counted`: a memory request of
 * rsag's, coll_rsag_mem.h, which coll_rsag_test_alloc_fail can fail);
 * serves: a->count, datatype, op, root, in place and (when a->displ is
 * set) the layout are the prepared ones; run: the call on a's buffers,
 * waiting inside (its ticks taken now, in call order). */
mca_coll_rsag_direct_t *mca_coll_rsag_direct_prepare(const mca_coll_rsag_args_t *a,
                                                     const size_t *layout,
                                                     mca_coll_rsag_direct_kind_t kind,
                                                     bool counted, int *err);
bool mca_coll_rsag_direct_serves(const mca_coll_rsag_direct_t *d, const mca_coll_rsag_args_t *a);
int mca_coll_rsag_direct_run(mca_coll_rsag_direct_t *d, const mca_coll_rsag_args_t *a);
void mca_coll_rsag_direct_free(mca_coll_rsag_direct_t *d);
/* The latency path of MPI_I*: the call of a schedule that is one step of
 * `direct`'s one-box form (NULL when it is anything else), and that call
 * pointed at a's buffers (a call of the same shape, `serves`). */
mca_coll_rsag_direct_t *mca_coll_rsag_direct_one_box(const mca_coll_rsag_sched_t *s);
void mca_coll_rsag_direct_rebind(mca_coll_rsag_direct_t *d, const mca_coll_rsag_args_t *a);

END_C_DECLS

#endif /* MCA_COLL_RSAG_DIRECT_H */
