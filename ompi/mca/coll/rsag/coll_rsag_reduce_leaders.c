/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Reduce, node-aware for small messages ("leaders"; doc/hierarchical.md).
 *
 * Idea: (1) reduce the vector inside each node to the node's leader (local
 * rank 0); (2) the leaders reduce the node sums to the leader of the
 * root's node; (3) that leader sends the result to the root when it is not
 * the root.  One message per node crosses the network per step of (2).
 *
 *   3+1 ranks, root 2 (x_r: rank r's input)
 *            node 0: ranks 0 1 2          node 1: rank 3
 *   (1) red  0: x0+x1+x2                  3: x3
 *   (2) red  leaders {0,3} -> 0: x0+..+x3
 *   (3)      0 -> 2 (into rbuf)
 *
 * Each step is rsag's own: (1) rsag's reduce selection on the node
 * communicator, `direct` first (blocking calls), else auto; (2) rsag's
 * reduce selection on the leaders' communicator (the cross communicator
 * of local index 0; class "several nodes"), or the algorithm
 * coll_rsag_reduce_hierarchical_inter_algorithm forces, rooted at the
 * root's node; (3) one message in the root's node.  All go into the
 * call's one schedule (blocking, nonblocking, persistent).
 * Cost (n bytes, N nodes, L ranks on mine; binomial across nodes): intra:
 *       log2 L (alpha_s + n beta_s + n gamma) (`direct`: one step), + alpha_s
 *       + n beta_s when the root is not its node's leader; inter:
 *       ceil(log2 N) (alpha_n + n beta_n + n gamma).
 * Restrictions: commutative op; ranks on several nodes, any number on
 *       each, one node with >= 2.
 * Memory: a temporary of count elements on a leader that is not the root.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_hier.h"

int mca_coll_rsag_reduce_leaders(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    mca_coll_rsag_hier_t *h = a->hier;
    mca_coll_rsag_args_t sa;
    bool leader = (0 == ompi_comm_rank(h->node_comm)), me = (a->rank == a->root);
    int root_node = h->node_of[a->root], root_local = h->local_of[a->root];
    bool on_root_node = (h->node_of[a->rank] == root_node);
    char *sum;
    int err;

    /* all memory before the first message */
    sum = (leader && !me) ? mca_coll_rsag_sched_tmp(s, a->count) : a->rbuf;
    if (OMPI_SUCCESS != s->err) {
        return s->err;
    }

    /* (1) reduce inside the node to the leader */
    mca_coll_rsag_hier_args(&sa, a, h->node_comm, a->input, leader ? sum : NULL, a->count, 0);
    err = h->build(s, h->node_m, MCA_COLL_RSAG_REDUCE, MCA_COLL_RSAG_REDUCE_DIRECT, &sa, NULL);
    if (OMPI_SUCCESS != err) {
        return err;
    }

    /* (2) reduce of the node sums among the leaders to the root's node, in
     * place there */
    if (leader) {
        mca_coll_rsag_hier_args(&sa, a, h->cross_comm, sum,
                                on_root_node ? sum : NULL, a->count, root_node);
        err = h->build(s, h->cross_m, MCA_COLL_RSAG_REDUCE,
                       mca_coll_rsag_component.hier_inter[MCA_COLL_RSAG_REDUCE], &sa, NULL);
        if (OMPI_SUCCESS != err) {
            return err;
        }
    }

    /* (3) on the root's node, its leader hands the result to the root */
    if (on_root_node && 0 != root_local && (leader || me)) {
        mca_coll_rsag_hier_args(&sa, a, h->node_comm, NULL, NULL, 0, root_local);
        mca_coll_rsag_sched_fence(s);
        if (leader) {
            (void) mca_coll_rsag_sched_send(s, &sa, sum, a->count, root_local);
        } else {
            (void) mca_coll_rsag_sched_recv(s, &sa, a->rbuf, a->count, 0);
        }
        err = s->err;
    }
    return err;
}
