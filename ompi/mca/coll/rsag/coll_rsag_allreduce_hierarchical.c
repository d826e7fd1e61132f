/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Allreduce, node-aware ("hierarchical"; doc/hierarchical.md).
 *
 * Idea: only 1/S of the vector crosses the network from each carrying
 * rank, S the smallest number of ranks on any node (any placement, any
 * node sizes >= 1): (1) reduce-scatter inside each node, local rank l < S
 * keeping slice l of the node's sum (ranks l >= S contribute and keep an
 * empty block); (2) the ranks of local index l < S, one per node, allreduce
 * slice l across the nodes, all S slices at once; (3) allgather of the
 * slices inside each node (the same layout, empty blocks included).
 *
 *   N = 2 nodes x L = 2 ranks, vector [s0 | s1] (x_r: rank r's input)
 *            node 0: ranks 0 1            node 1: ranks 2 3
 *   (1) rs   0: x0.s0+x1.s0  1: ..s1      2: x2.s0+x3.s0  3: ..s1
 *   (2) ar   cross comm {0,2}: slice s0, {1,3}: slice s1, concurrently
 *   (3) ag   0, 1: [s0 | s1]              2, 3: [s0 | s1]
 *
 *   2+1+2 ranks: S = 1, one slice (the whole vector)
 *            node 0: 0 1     node 1: 2     node 2: 3 4
 *   (1) rs   0: x0+x1  1: -  2: x2         3: x3+x4  4: -
 *   (2) ar   cross comm {0,2,3} (the node leaders): the whole vector
 *   (3) ag   0 -> 1                        3 -> 4
 *
 * Each step is rsag's own: (1) rsag's reduce-scatter selection on the node
 * communicator, `direct` first (the node path: CMA or the shared segment),
 * else auto; (2) rsag's allreduce selection on the cross communicator
 * (the "several nodes" class of the threshold table), or the algorithm
 * coll_rsag_allreduce_hierarchical_inter_algorithm forces (auto's several
 * nodes column: recursive doubling, then `circulant` from 64 KB, which
 * folds nothing whatever the node count, where Rabenseifner folded a whole
 * slice in and out on 3 nodes, and the ring from 1 MB); (3) the
 * ring allgather (coll_rsag_ring.c) on the node communicator, in place.  All
 * three go into the call's one schedule (blocking, nonblocking or
 * persistent alike; a nonblocking call's node step is never `direct`).
 * Pipelined (coll_rsag_hierarchical_chunk_size, coll_rsag_hier.h): the
 * vector cut into chunks of that size, (1)(2)(3) of each chunk a lane of
 * the schedule; the node steps (1) of successive chunks one after the
 * other, the cross-node step (2) of one chunk overlapping (1) and (3) of
 * the others:
 *
 *   chunk 0   (1)  (2)......(3)
 *   chunk 1        (1)  (2)......(3)
 *   chunk 2             (1)  (2)......(3)
 *
 * Cost (n bytes, N nodes, S the smallest node, L ranks on mine,
 *       intra-node link alpha_s beta_s, network alpha_n beta_n;
 *       Rabenseifner across nodes):
 *       intra: 2 (L-1)/L n beta_s + (L-1)/L n gamma + O(log L) alpha_s
 *       (the slices are n/S, so the S ranks that carry them move more
 *       when L > S);
 *       inter: 2 log2 N alpha_n + 2 (N-1)/N (n/S) beta_n + (N-1)/N (n/S) gamma,
 *       the S cross communicators sharing each node's link: 2 (N-1)/N n
 *       bytes per node link and direction whatever S, as flat Rabenseifner
 *       at best, but whatever the rank placement, and the intra-node part
 *       at memory speed.  S = 1: the node leaders carry the whole vector,
 *       which is still the least a node link can carry.
 *       Pipelined in C chunks: the same bytes, C times the latency terms,
 *       and about max(intra, inter) + (intra + inter) / C instead of
 *       intra + inter.
 * Restrictions: commutative op (slices are reduced node first); ranks on
 *       several nodes, any number on each, one node with >= 2 (the
 *       selector's MCA_COLL_RSAG_NEEDS_MULTI_NODE).
 * Memory: one temporary of my slice (ceil(count / S) elements; one element
 *       for l >= S; pipelined, one per chunk: C more elements), plus what
 *       the sub-steps take.
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/constants.h"

#include "coll_rsag_hier.h"
#include "coll_rsag_ring.h"

/* (1), (2), (3) on `a`: the whole call, or one chunk of the pipeline. */
static int mca_coll_rsag_allreduce_hier_body(mca_coll_rsag_sched_t *s,
                                             const mca_coll_rsag_args_t *a,
                                             mca_coll_rsag_hier_pipe_t *pipe, void *ctx)
{
    mca_coll_rsag_hier_t *h = a->hier;
    mca_coll_rsag_hier_slices_t sl;
    mca_coll_rsag_args_t sa;
    int l = ompi_comm_rank(h->node_comm);
    int err;

    (void) ctx;
    /* (1) reduce-scatter inside the node: my slice of the node's sum */
    err = mca_coll_rsag_hier_node_reduce_scatter(s, a, &sl);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }
    mca_coll_rsag_hier_node_done(s, pipe);
    /* (2) allreduce of my slice across the nodes, into its place in rbuf */
    if (sl.mine > 0) {
        mca_coll_rsag_hier_args(&sa, a, h->cross_comm, sl.slice,
                                mca_coll_rsag_elem(a->rbuf, sl.displ[l], a->extent), sl.mine, -1);
        err = h->build(s, h->cross_m, MCA_COLL_RSAG_ALLREDUCE,
                       mca_coll_rsag_component.hier_inter[MCA_COLL_RSAG_ALLREDUCE], &sa, NULL);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }
    /* (3) allgather of the slices inside the node: the ring, in place */
    mca_coll_rsag_hier_args(&sa, a, h->node_comm, a->rbuf, a->rbuf, a->count, -1);
    sa.displ = sl.displ;
    mca_coll_rsag_sched_fence(s);
    mca_coll_rsag_ring_allgather(s, &sa, a->rbuf, NULL);
    err = s->err;

cleanup:
    mca_coll_rsag_hier_slices_free(&sl);
    return err;
}

int mca_coll_rsag_allreduce_hierarchical(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    return mca_coll_rsag_hier_pipeline(s, a, mca_coll_rsag_allreduce_hier_body, NULL);
}
