/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Allreduce, node-aware for small messages ("leaders";
 * doc/hierarchical.md).
 *
 * Idea: a small vector is not worth cutting: (1) reduce it inside each
 * node to the node's leader (local rank 0); (2) the leaders, one per node,
 * allreduce the node sums across the nodes; (3) each leader broadcasts the
 * result inside its node.  One message per node crosses the network per
 * step of (2), whatever the placement and the node sizes.
 *
 *   2+1+2 ranks (x_r: rank r's input)
 *            node 0: 0 1          node 1: 2          node 2: 3 4
 *   (1) red  0: x0+x1             2: x2              3: x3+x4
 *   (2) ar   leaders {0,2,3}: x0+..+x4
 *   (3) bc   0 -> 1                                  3 -> 4
 *
 * Each step is rsag's own: (1) rsag's reduce selection on the node
 * communicator, `direct` first (blocking calls: the node path), else auto;
 * (2) rsag's allreduce selection on the
 * leaders' communicator (the cross communicator of local index 0; class
 * "several nodes"), or the algorithm
 * coll_rsag_allreduce_hierarchical_inter_algorithm forces; (3) a binomial
 * broadcast on the node communicator (mca_coll_rsag_hier_bcast).  All three
 * go into the call's one schedule (blocking, nonblocking, persistent; a
 * nonblocking call's node step is never `direct`).
 * Cost (n bytes, N nodes, L ranks on mine; recursive doubling across
 *       nodes): intra: (1) + (3), about 2 log2 L (alpha_s + n beta_s)
 *       (`direct`: one step); inter: log2 N (alpha_n + n beta_n + n gamma).
 *       Against a flat algorithm over N L ranks: log2 N network latencies
 *       instead of up to log2 (N L), and one stream per node link.
 * Restrictions: commutative op; ranks on several nodes, any number on
 *       each, one node with >= 2 (MCA_COLL_RSAG_NEEDS_MULTI_NODE).
 * Memory: none of its own (the leader reduces into rbuf); what the
 *       sub-steps take.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_hier.h"

int mca_coll_rsag_allreduce_leaders(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    mca_coll_rsag_hier_t *h = a->hier;
    mca_coll_rsag_args_t sa;
    bool leader = (0 == ompi_comm_rank(h->node_comm));
    int err;

    /* (1) reduce inside the node to the leader, into its rbuf */
    mca_coll_rsag_hier_args(&sa, a, h->node_comm, a->input, leader ? a->rbuf : NULL, a->count,
                            0);
    err = h->build(s, h->node_m, MCA_COLL_RSAG_REDUCE, MCA_COLL_RSAG_REDUCE_DIRECT, &sa, NULL);
    if (OMPI_SUCCESS != err) {
        return err;
    }

    /* (2) allreduce of the node sums among the leaders, in place */
    if (leader) {
        mca_coll_rsag_hier_args(&sa, a, h->cross_comm, a->rbuf, a->rbuf, a->count, -1);
        err = h->build(s, h->cross_m, MCA_COLL_RSAG_ALLREDUCE,
                       mca_coll_rsag_component.hier_inter[MCA_COLL_RSAG_ALLREDUCE], &sa, NULL);
        if (OMPI_SUCCESS != err) {
            return err;
        }
    }

    /* (3) broadcast of the result inside the node */
    mca_coll_rsag_hier_args(&sa, a, h->node_comm, NULL, NULL, a->count, 0);
    return mca_coll_rsag_hier_bcast(s, &sa, a->rbuf, a->count, 0);
}
