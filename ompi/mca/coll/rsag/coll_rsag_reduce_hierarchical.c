/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Reduce, node-aware ("hierarchical"; doc/hierarchical.md).
 *
 * Idea: (1) reduce-scatter inside each node, local rank l keeping slice l
 * of the node's sum; (2) the ranks of local index l, one per node, reduce
 * slice l to the node of the root, all L slices at once; (3) on the root's
 * node, the root gathers the L slices.  Other nodes are done after (2).
 *
 *   N = 2 nodes x L = 2 ranks, root 3 (node 1, local index 1)
 *            node 0: ranks 0 1            node 1: ranks 2 3
 *   (1) rs   0: x0.s0+x1.s0  1: ..s1      2: x2.s0+x3.s0  3: ..s1
 *   (2) red  {0,2} -> 2: slice s0         {1,3} -> 3: slice s1 (in rbuf)
 *   (3) gat                               2 -> 3: s0 into rbuf
 *
 * Each step is rsag's own: (1) rsag's reduce-scatter selection on the node
 * communicator, `direct` first, else auto; (2) rsag's reduce selection on
 * the cross communicator (class "several nodes"), or the algorithm
 * coll_rsag_reduce_hierarchical_inter_algorithm forces, rooted at the
 * root's node; (3) each rank of the root's node sends its slice to the
 * root (a linear gather: L - 1 messages into their places in rbuf).  All
 * three go into the call's one schedule.  Pipelined as hierarchical
 * MPI_Allreduce (coll_rsag_hierarchical_chunk_size, coll_rsag_hier.h):
 * (1)(2)(3) of each chunk a lane, the steps (1) of successive chunks one
 * after the other, (2) and (3) of a chunk overlapping the others.
 * Cost (n bytes, N nodes of L ranks; Rabenseifner's reduce across nodes):
 *       intra: (L-1)/L n beta_s + (L-1)/L n gamma (+ the gather on the
 *       root's node, (L-1)/L n beta_s); inter: 2 log2 N alpha_n +
 *       2 (N-1)/N (n/L) beta_n + (N-1)/N (n/L) gamma per cross communicator.
 *       Pipelined in C chunks: C times the latency terms, the phases
 *       overlapping.
 * Restrictions: commutative op; several nodes with the same number L >= 2
 *       of ranks on each.
 * Memory: two temporaries of my slice (ceil(count / L) elements each;
 *       pipelined, two per chunk).
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
    sum = me ? NULL : mca_coll_rsag_sched_tmp(s, a->count / (size_t) L + 1);
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
    /* (3) on the root's node, the root gathers the slices (empty ones are
     * not sent) */
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
