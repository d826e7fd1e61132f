/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Reduce, node-aware ("hierarchical"; doc/hierarchical.md).
 *
 * Idea: (1) reduce-scatter inside each node, local rank l < S keeping
 * slice l of the node's sum (S: the smallest number of ranks on a node;
 * the node's other ranks contribute and keep nothing); (2) the ranks of
 * local index l < S, one per node, reduce slice l to the node of the root,
 * all S slices at once; (3) on the root's node, the root gathers the S
 * slices (it may itself hold none: local index >= S).  Other nodes are
 * done after (2).
 *
 *   N = 2 nodes x L = 2 ranks, root 3 (node 1, local index 1)
 *            node 0: ranks 0 1            node 1: ranks 2 3
 *   (1) rs   0: x0.s0+x1.s0  1: ..s1      2: x2.s0+x3.s0  3: ..s1
 *   (2) red  {0,2} -> 2: slice s0         {1,3} -> 3: slice s1 (in rbuf)
 *   (3) gat                               2 -> 3: s0 into rbuf
 *
 *   3+1 ranks, root 2: S = 1, one slice (the whole vector)
 *            node 0: ranks 0 1 2          node 1: rank 3
 *   (1) rs   0: x0+x1+x2  1, 2: -         3: x3
 *   (2) red  {0,3} -> 0: the whole sum
 *   (3) gat  0 -> 2
 *
 * Each step is rsag's own: (1) rsag's reduce-scatter selection on the node
 * communicator, `direct` first, else auto; (2) rsag's reduce selection on
 * the cross communicator (class "several nodes"), or the algorithm
 * coll_rsag_reduce_hierarchical_inter_algorithm forces, rooted at the
 * root's node; (3) each rank of the root's node that holds a slice sends
 * it to the root (a linear gather: up to S messages into their places in
 * rbuf).  All three go into the call's one schedule.  Pipelined as
 * hierarchical MPI_Allreduce (coll_rsag_hierarchical_chunk_size,
 * coll_rsag_hier.h): (1)(2)(3) of each chunk a lane, the steps (1) of
 * successive chunks one after the other, (2) and (3) of a chunk
 * overlapping the others.
 * Cost (n bytes, N nodes, S the smallest node, L ranks on mine;
 *       Rabenseifner's reduce across nodes):
 *       intra: (L-1)/L n beta_s + (L-1)/L n gamma (+ the gather on the
 *       root's node, up to n beta_s); inter: 2 log2 N alpha_n +
 *       2 (N-1)/N (n/S) beta_n + (N-1)/N (n/S) gamma per cross communicator.
 *       Pipelined in C chunks: C times the latency terms, the phases
 *       overlapping.
 * Restrictions: commutative op; ranks on several nodes, any number on
 *       each, one node with >= 2.
 * Memory: two temporaries of my slice (ceil(count / S) elements each; one
 *       element for l >= S; pipelined, two per chunk).
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/constants.h"

#include "coll_rsag_hier.h"

/* (1), (2), (3) on `a`: the whole call, or one chunk of the pipeline. */
static int mca_coll_rsag_reduce_hier_body(mca_coll_rsag_sched_t *s,
                                          const mca_coll_rsag_args_t *a,
                                          mca_coll_rsag_hier_pipe_t *pipe, void *ctx)
{
    mca_coll_rsag_hier_t *h = a->hier;
    mca_coll_rsag_hier_slices_t sl = { 0 };
    mca_coll_rsag_args_t sa;
    int L = ompi_comm_size(h->node_comm), l = ompi_comm_rank(h->node_comm);
    int root_node = h->node_of[a->root], root_local = h->local_of[a->root];
    bool me = (a->rank == a->root);
    char *sum, *out;
    int err;

    (void) ctx;
    /* all memory before the first message: a rank that lacks it fails
     * before any peer waits for it */
    sum = me ? NULL : mca_coll_rsag_sched_tmp(s, l < h->min_ranks
                                                  ? a->count / (size_t) h->min_ranks + 1 : 1);
    if (OMPI_SUCCESS != s->err) {
        return s->err;
    }
    /* (1) reduce-scatter inside the node: my slice of the node's sum */
    err = mca_coll_rsag_hier_node_reduce_scatter(s, a, &sl);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }
    mca_coll_rsag_hier_node_done(s, pipe);
    /* (2) reduce of my slice to the root's node: the root's own slice
     * straight into its place in rbuf, the others' into `sum` */
    out = me ? mca_coll_rsag_elem(a->rbuf, sl.displ[l], a->extent) : sum;
    if (sl.mine > 0) {
        mca_coll_rsag_hier_args(&sa, a, h->cross_comm, sl.slice, out, sl.mine, root_node);
        err = h->build(s, h->cross_m, MCA_COLL_RSAG_REDUCE,
                       mca_coll_rsag_component.hier_inter[MCA_COLL_RSAG_REDUCE],
                       &sa, NULL);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }
    /* (3) on the root's node, the root gathers the slices (empty ones, and
     * the blocks of local ranks >= S, are not sent) */
    if (h->node_of[a->rank] == root_node) {
        mca_coll_rsag_hier_args(&sa, a, h->node_comm, NULL, NULL, 0, root_local);
        mca_coll_rsag_sched_fence(s);
        for (int i = 0; me && i < L; ++i) {
            size_t n = sl.displ[i + 1] - sl.displ[i];
            if (i != l && n > 0) {
                (void) mca_coll_rsag_sched_recv(s, &sa,
                                                mca_coll_rsag_elem(a->rbuf, sl.displ[i],
                                                                   a->extent), n, i);
            }
        }
        if (!me && sl.mine > 0) {
            (void) mca_coll_rsag_sched_send(s, &sa, sum, sl.mine, root_local);
        }
        err = s->err;
    }

cleanup:
    mca_coll_rsag_hier_slices_free(&sl);
    return err;
}

int mca_coll_rsag_reduce_hierarchical(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    return mca_coll_rsag_hier_pipeline(s, a, mca_coll_rsag_reduce_hier_body, NULL);
}
