/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The building block of the node-aware algorithms (`hierarchical`,
 * coll_rsag_<coll>_hierarchical.c; doc/hierarchical.md): a communicator's
 * node structure and its two kinds of sub-communicators.
 *
 *   node structure   which node each rank is on (nodes numbered by their
 *                    lowest rank) and its index on that node (ranks of a
 *                    node in rank order): computed once per communicator,
 *                    collectively (one allgather of an int), by the first
 *                    call on a communicator whose ranks are not all on this
 *                    node; every rank gets the same answer, so the selector
 *                    takes the same decision everywhere
 *   S                the smallest number of ranks on any node (>= 1): the
 *                    node-aware algorithms cut their vector into S slices
 *                    (doc/hierarchical.md, "Any placement")
 *   node comm        the ranks of my node, in rank order (local index)
 *   cross comm       the ranks of my local index l, one per node, in node
 *                    order: made only for l < S (every node has a rank of
 *                    that index); none for l >= S.  Cross comm 0 is the
 *                    node leaders' communicator (`leaders`).
 *
 * The two sub-communicators are made by the first call that selects
 * `hierarchical` and freed with the communicator (module destructor).
 * Making them runs collectives on the parent communicator, which would come
 * back into rsag's slots: the dispatcher has the module delegate every call
 * to the previous module while it sets up (mca_coll_rsag_module_t.in_setup).
 * rsag's calls on the sub-communicators go through a private module each
 * (its own decision cache, layouts and node segment), never through the
 * slots, so they count no MPI_T call: the parent's call counts once, as
 * hierarchical.
 *
 * This file is below the dispatcher: it never calls it by name.  What it
 * needs of it (a private module; rsag's selection on a sub-communicator)
 * the dispatcher hands over as functions: `new_module` to
 * mca_coll_rsag_hier_setup, and mca_coll_rsag_hier_t.build, which the
 * algorithms and the node step call.
 */
#ifndef MCA_COLL_RSAG_HIER_H
#define MCA_COLL_RSAG_HIER_H

#include "coll_rsag.h"

BEGIN_C_DECLS

typedef enum mca_coll_rsag_hier_state_t {
    MCA_COLL_RSAG_HIER_UNKNOWN = 0,     /* sub-communicators not made yet */
    MCA_COLL_RSAG_HIER_READY,
    MCA_COLL_RSAG_HIER_UNAVAILABLE      /* making them failed: flat algorithms */
} mca_coll_rsag_hier_state_t;

/* Append collective `coll` on a sub-communicator to s, with rsag's own
 * selection (the dispatcher's): `forced` (an algorithm id, or auto) if it
 * applies, else auto from the thresholds of the sub-communicator's class,
 * for a call of s's kind (s->nonblocking: no `direct`); `sub` is the
 * sub-communicator's private module; `displ` (size + 1 offsets) is the
 * block layout of a reduce-scatter or an allgather, NULL for the others.
 * A fence comes first: the sub-step sees the steps before it complete.
 * Counts nothing in the MPI_T counters; with coll_rsag_verbose the
 * decision is printed by the sub-communicator's rank 0. */
typedef int (*mca_coll_rsag_sub_build_fn_t)(mca_coll_rsag_sched_t *s,
                                            mca_coll_rsag_module_t *sub,
                                            mca_coll_rsag_coll_t coll, int forced,
                                            mca_coll_rsag_args_t *sa, const size_t *displ);

/* A private rsag module for a sub-communicator of `nodes` nodes and
 * `ranks_per_node` ranks on each: never installed, it only holds the state
 * of rsag's calls there; NULL when out of memory. */
typedef mca_coll_rsag_module_t *(*mca_coll_rsag_new_module_fn_t)(int nodes, int ranks_per_node);

typedef struct mca_coll_rsag_hier_t {
    int nodes;                  /* nodes the communicator spans */
    int ranks_per_node;         /* the same on every node, else 0 */
    int min_ranks;              /* S: the smallest number of ranks on a node */
    int *node_of;               /* [p]: node index of each rank */
    int *local_of;              /* [p]: its index on its node */
    mca_coll_rsag_hier_state_t state;
    struct ompi_communicator_t *node_comm;
    struct ompi_communicator_t *cross_comm;     /* NULL for local index >= S */
    mca_coll_rsag_module_t *node_m, *cross_m;   /* private, not installed (cross_m:
                                                   NULL where cross_comm is) */
    mca_coll_rsag_sub_build_fn_t build;         /* set by the dispatcher */
    /* size classes the pipeline's trace has named, [nonblocking][coll] */
    uint64_t pipe_traced[2][MCA_COLL_RSAG_NUM_COLLS];
} mca_coll_rsag_hier_t;

/* The node structure of comm, computed collectively; NULL on an error
 * (the caller counts the communicator as one node for the selector: no
 * hierarchical, the size-class thresholds). */
mca_coll_rsag_hier_t *mca_coll_rsag_hier_structure(struct ompi_communicator_t *comm);

/* Make the node and cross communicators of h (on comm), collectively, and
 * their private modules (new_module); h->state says how it went, `why`
 * says it in words.  The caller keeps its slots out of the collectives
 * this runs on comm. */
void mca_coll_rsag_hier_setup(mca_coll_rsag_hier_t *h, struct ompi_communicator_t *comm,
                              mca_coll_rsag_new_module_fn_t new_module, char *why,
                              size_t why_len);

void mca_coll_rsag_hier_free(mca_coll_rsag_hier_t *h);

/* Arguments of a call on sub-communicator `comm` (rank, size, the
 * datatype and op of the parent call `a`). */
void mca_coll_rsag_hier_args(mca_coll_rsag_args_t *s, const mca_coll_rsag_args_t *a,
                             struct ompi_communicator_t *comm, const void *input, void *rbuf,
                             size_t count, int root);

/* Step (1) of hierarchical MPI_Allreduce and MPI_Reduce (a->hier ready),
 * appended to s:
 * the vector cut into S even slices, slice l for local rank l < S, empty
 * blocks for the node's other ranks (displ: L + 1 element offsets, L the
 * node's size, only while building; mca_coll_rsag_hier_slices), and the
 * reduce-scatter of the input inside the node, `direct` first (blocking
 * calls), leaving my slice of the node's sum (`mine` elements, 0 for l >=
 * S) in `slice` (a temporary of s).
 * Free with mca_coll_rsag_hier_slices_free, whatever the return. */
typedef struct mca_coll_rsag_hier_slices_t {
    size_t *displ;
    size_t mine;
    char *slice;
} mca_coll_rsag_hier_slices_t;

int mca_coll_rsag_hier_node_reduce_scatter(mca_coll_rsag_sched_t *s,
                                           const mca_coll_rsag_args_t *a,
                                           mca_coll_rsag_hier_slices_t *sl);
void mca_coll_rsag_hier_slices_free(mca_coll_rsag_hier_slices_t *sl);

/* A binomial broadcast of `count` elements of buf from rank `root` of the
 * communicator of `a` (a sub-communicator's arguments, mca_coll_rsag_hier_args),
 * appended to s after a fence: the release inside the node of `leaders`. */
int mca_coll_rsag_hier_bcast(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a, char *buf,
                             size_t count, int root);

/* ---- the pipeline (coll_rsag_hierarchical_chunk_size) ---------------------
 * The vector of a hierarchical collective cut into
 * chunks, each chunk's phases a lane of the schedule (coll_rsag_sched.h):
 * while chunk k crosses the network, chunk k + 1 is reduced in the node.
 * The algorithm hands its body, the phases of one chunk, to
 * mca_coll_rsag_hier_pipeline, which calls it once per chunk with the
 * chunk's arguments (input, rbuf and count of the chunk; the rest the
 * call's), each time in a lane of its own; or once, on the whole call and
 * without lanes, when the call is not cut (chunk size 0, or one chunk).
 * A body whose chunk is not a contiguous piece of the vector (the
 * reduce-scatters: a piece of every MPI block) cuts the call itself from
 * pipe->chunk and pipe->chunks.
 *
 * The node phases of successive chunks are serialized, in chunk order on
 * every rank: the body ends its node reduce-scatter (the `direct` step:
 * one at a time on the node communicator, its ticks taken in the same
 * order everywhere) with mca_coll_rsag_hier_node_done, and the next
 * chunk's body starts after that point.  Every other step of a lane
 * (the cross-node phase, the node allgather or gather: messages on the
 * lane's tag) overlaps the other lanes.  A body must not add another
 * `direct` step on the node communicator after node_done (nothing would
 * keep its ticks in order). */
typedef struct mca_coll_rsag_hier_pipe_t {
    bool lanes;             /* the call is cut: the body runs in a lane */
    int node_done;          /* the gate that ends this chunk's node phase (-1: not yet) */
    size_t offset;          /* the chunk's first element in the call's vector */
    size_t chunk, chunks;   /* this chunk's number, of how many (not cut: 0 of 1) */
} mca_coll_rsag_hier_pipe_t;

/* The phases of one chunk (`ca`: its arguments; `ctx`: the algorithm's). */
typedef int (*mca_coll_rsag_hier_body_fn_t)(mca_coll_rsag_sched_t *s,
                                            const mca_coll_rsag_args_t *ca,
                                            mca_coll_rsag_hier_pipe_t *pipe, void *ctx);

/* Run `body` on the call `a` (a->hier ready), cut as above; returns the
 * first error.  With coll_rsag_verbose, rank 0 says once per size class
 * that a call was cut, and into how many chunks. */
int mca_coll_rsag_hier_pipeline(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                mca_coll_rsag_hier_body_fn_t body, void *ctx);
/* The body's node phase ends here (nothing when the call is not cut). */
void mca_coll_rsag_hier_node_done(mca_coll_rsag_sched_t *s, mca_coll_rsag_hier_pipe_t *pipe);

END_C_DECLS

#endif /* MCA_COLL_RSAG_HIER_H */
