/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter, node-aware for small
 * messages ("leaders"; doc/hierarchical.md).
 *
 * Idea: (1) reduce the whole vector inside each node to the node's leader
 * (local rank 0); (2) the leaders, one per node, reduce-scatter the node
 * sums across the nodes, each keeping its node's part: the MPI blocks of
 * its node's ranks, in local order; (3) each leader scatters those blocks
 * inside its node.  When the ranks of a node are not contiguous in rank
 * order (placement round-robin by node), the leader first copies the node
 * sum with its blocks in (node, local index) order
 * (mca_coll_rsag_hier_rs_order with S = 1); placement by slot needs no copy.
 *
 *   2+1+2 ranks by slot (b_r: rank r's block)
 *            node 0: 0 1          node 1: 2          node 2: 3 4
 *   (1) red  0: node sum          2: its input       3: node sum
 *   (2) rs   leaders {0,2,3}: 0 gets b0 b1, 2 gets b2, 3 gets b3 b4
 *   (3)      0 -> 1: b1                              3 -> 4: b4
 *
 * Each step is rsag's own: (1) rsag's reduce selection on the node
 * communicator, `direct` first (blocking calls), else auto; (2) rsag's
 * reduce-scatter selection on the leaders' communicator (the cross
 * communicator of local index 0; class "several nodes"; MPI_Reduce_scatter's
 * tuning for both collectives), or the algorithm
 * coll_rsag_reduce_scatter_hierarchical_inter_algorithm forces; (3)
 * point-to-point messages in the node.  All go into the call's one
 * schedule (blocking, nonblocking, persistent).
 * Cost (n bytes, N nodes, L ranks on mine; recursive halving across
 *       nodes): intra: (1) log2 L (alpha_s + n beta_s + n gamma) (`direct`:
 *       one step) + (3) (L-1) (alpha_s + (n/p) beta_s) for even blocks (+ n c
 *       when reordered); inter: log2 N alpha_n + (N-1)/N n (beta_n + gamma).
 * Restrictions: commutative op; ranks on several nodes, any number on
 *       each, one node with >= 2; any block sizes (zero too).
 * Memory: on a leader, the node sum (count elements), its reordered copy
 *       when needed, and its node's part when the node has other ranks.
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/constants.h"

#include "coll_rsag_hier.h"
#include "coll_rsag_index.h"

int mca_coll_rsag_reduce_scatter_leaders(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    mca_coll_rsag_hier_t *h = a->hier;
    const mca_coll_rsag_coll_t coll = MCA_COLL_RSAG_REDUCE_SCATTER;
    mca_coll_rsag_args_t sa;
    int N = h->nodes, p = a->size, me_node = h->node_of[a->rank];
    int L = ompi_comm_size(h->node_comm), l = ompi_comm_rank(h->node_comm);
    bool leader = (0 == l), identity;
    size_t slice[2], *part = NULL, pos, mine = a->displ[a->rank + 1] - a->displ[a->rank];
    int *qof = NULL, *work, *rank_at;
    char *sum = NULL, *packed = NULL, *out = NULL;
    int err = OMPI_SUCCESS;

    part = malloc(((size_t) N + 1) * sizeof(size_t));
    qof = malloc(((size_t) 3 * p + N + 1) * sizeof(int));
    if (NULL == part || NULL == qof) {
        err = OMPI_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    work = qof + p;
    rank_at = work + p + N + 1;         /* [L]: the ranks of my node by local index */
    for (int q = 0; q < p; ++q) {
        if (h->node_of[q] == me_node) {
            rank_at[h->local_of[q]] = q;
        }
    }
    identity = mca_coll_rsag_hier_rs_order(p, N, 1, h->node_of, h->local_of, qof, work);
    mca_coll_rsag_hier_rs_sums(p, N, 1, h->node_of, h->local_of, qof, a->displ, 0, slice, part);

    /* all memory before the first message (leaders only) */
    if (leader) {
        sum = mca_coll_rsag_sched_tmp(s, a->count);
        packed = identity ? sum : mca_coll_rsag_sched_tmp(s, a->count);
        out = (L > 1) ? mca_coll_rsag_sched_tmp(s, part[me_node + 1] - part[me_node] + 1)
                      : a->rbuf;
        if (OMPI_SUCCESS != s->err) {
            err = s->err;
            goto cleanup;
        }
    }

    /* (1) reduce inside the node to the leader */
    mca_coll_rsag_hier_args(&sa, a, h->node_comm, a->input, sum, a->count, 0);
    err = h->build(s, h->node_m, MCA_COLL_RSAG_REDUCE, MCA_COLL_RSAG_REDUCE_DIRECT, &sa, NULL);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }

    /* (2) reduce-scatter of the node sums among the leaders: my node's
     * blocks, in local order */
    if (leader) {
        if (!identity) {
            mca_coll_rsag_sched_fence(s);
            pos = 0;
            for (int k = 0; k < p; ++k) {
                int q = qof[k];
                size_t n = a->displ[q + 1] - a->displ[q];
                (void) mca_coll_rsag_sched_copy(s, mca_coll_rsag_elem(sum, a->displ[q], a->extent),
                                                mca_coll_rsag_elem(packed, pos, a->extent), n);
                pos += n;
            }
        }
        mca_coll_rsag_hier_args(&sa, a, h->cross_comm, packed, out, a->count, -1);
        err = h->build(s, h->cross_m, coll, mca_coll_rsag_component.hier_inter[coll], &sa, part);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }

    /* (3) scatter inside the node: the leader's part holds the blocks of
     * local ranks 0, 1, ..., L-1 in that order */
    if (L > 1) {
        mca_coll_rsag_hier_args(&sa, a, h->node_comm, NULL, NULL, 0, 0);
        mca_coll_rsag_sched_fence(s);
        if (leader) {
            (void) mca_coll_rsag_sched_copy(s, out, a->rbuf, mine);
            pos = mine;
            for (int k = 1; k < L; ++k) {
                int q = rank_at[k];
                size_t n = a->displ[q + 1] - a->displ[q];
                if (n > 0) {
                    (void) mca_coll_rsag_sched_send(s, &sa, mca_coll_rsag_elem(out, pos, a->extent),
                                                    n, k);
                }
                pos += n;
            }
        } else if (mine > 0) {
            (void) mca_coll_rsag_sched_recv(s, &sa, a->rbuf, mine, 0);
        }
        err = s->err;
    }

cleanup:
    free(qof);
    free(part);
    return err;
}
