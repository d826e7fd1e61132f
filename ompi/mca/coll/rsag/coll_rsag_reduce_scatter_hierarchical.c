/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter, node-aware
 * ("hierarchical"; doc/hierarchical.md).
 *
 * Idea: S = the smallest number of ranks on any node (any placement, any
 * node sizes >= 1).  Slice c < S = the MPI blocks of the ranks whose local
 * index is c mod S; within it, the part of node j = those of node j's such
 * ranks.  (1) reduce-scatter inside each node, local rank c < S keeping
 * slice c of the node's sum (ranks >= S keep an empty block); (2) the
 * ranks of local index c < S (one per node) reduce-scatter slice c across
 * the nodes, each keeping its node's part: its own MPI block, straight
 * into rbuf, followed by those of its node's ranks c + S, c + 2S, ...;
 * (3) inside each node, local rank c hands those blocks to their owners.
 * When the blocks are not already in that order in rank order (placement
 * round-robin by node, or S > 1 placed by slot), the input is first copied
 * with its blocks reordered (mca_coll_rsag_hier_rs_order); S = 1 placed
 * by slot, and equal nodes placed round-robin, need no copy.
 *
 *   N = 2 nodes x L = 2 ranks by slot, blocks b0..b3 (b_r: rank r's block)
 *            node 0: ranks 0 1            node 1: ranks 2 3
 *   order    [b0 b2 | b1 b3]   slice 0 = b0 b2 (ranks 0, 2), slice 1 = b1 b3
 *   (1) rs   0: slice 0   1: slice 1      2: slice 0   3: slice 1   (node sums)
 *   (2) rs   cross {0,2}: 0 gets b0, 2 gets b2;  {1,3}: 1 gets b1, 3 gets b3
 *
 *   2+1+2 ranks by slot: S = 1, slice 0 = the whole vector, rank order
 *            node 0: 0 1     node 1: 2     node 2: 3 4
 *   (1) rs   0: node sum  1: -             3: node sum  4: -
 *   (2) rs   cross {0,2,3}: 0 gets b0 b1, 2 gets b2, 3 gets b3 b4
 *   (3)      0 -> 1: b1                    3 -> 4: b4
 *
 * The steps, and the reordering copies, go into the call's one schedule.
 * Steps (1) and (2) are rsag's own reduce-scatter selection: (1) on the
 * node communicator, `direct` first, else auto; (2) on the cross
 * communicator (class "several nodes"), or the algorithm
 * coll_rsag_reduce_scatter_hierarchical_inter_algorithm forces (it
 * serves both reduce-scatters, as do MPI_Reduce_scatter's thresholds);
 * (3) point-to-point messages in the node.
 * Pipelined (coll_rsag_hierarchical_chunk_size, coll_rsag_hier.h; not in
 * place): chunk k is piece k of every MPI block, copied in the order
 * above (the copy is what makes a chunk's slices contiguous), and
 * (1)(2)(3) of each chunk are a lane of the schedule; the steps (1) of
 * successive chunks one after the other, (2) and (3) of a chunk
 * overlapping the others.
 * Cost (n bytes, N nodes, S the smallest node, L ranks on mine, even
 *       blocks; recursive halving across nodes): intra: (L-1)/L n beta_s +
 *       (L-1)/L n gamma (+ n c, one local copy, when reordered; + the
 *       blocks of ranks >= S, (L-S)/p n beta_s); inter: log2 N alpha_n +
 *       (N-1)/N (n/S) beta_n + (N-1)/N (n/S) gamma per cross communicator.
 *       Pipelined in C chunks: the copy n c whatever the placement, C times
 *       the latency terms, the phases overlapping.
 * Restrictions: commutative op; ranks on several nodes, any number on
 *       each, one node with >= 2; any block sizes (zero too), any placement.
 * Memory: slice c (its blocks' elements; one element for ranks >= S), a
 *       copy of the input when reordered (pipelined: always, chunk by
 *       chunk), and my node's part of slice c when that holds more than my
 *       own block.
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/constants.h"

#include "coll_rsag_hier.h"
#include "coll_rsag_index.h"

/* Where piece k of n of a block of b elements starts (the first b % n
 * pieces one longer). */
static size_t mca_coll_rsag_rs_hier_cut(size_t b, size_t k, size_t n)
{
    return k * (b / n) + (k < b % n ? k : b % n);
}

/* (0)-(3) on one piece of every MPI block: rank q's piece is pd[q] ..
 * pd[q + 1] of the pieces' layout and starts at element off[q] of its
 * block (the whole call: pd = a->displ, off = NULL, and the input is
 * copied only when its blocks are out of order; a chunk of the pipeline:
 * always copied).  `pipe` marks the end of the node phase. */
static int mca_coll_rsag_rs_hier_pass(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                      const size_t *pd, const size_t *off,
                                      mca_coll_rsag_hier_pipe_t *pipe)
{
    mca_coll_rsag_hier_t *h = a->hier;
    /* both reduce-scatters share this function: the sub-steps take
     * MPI_Reduce_scatter's tuning (its thresholds, its inter parameter) */
    const mca_coll_rsag_coll_t coll = MCA_COLL_RSAG_REDUCE_SCATTER;
    mca_coll_rsag_args_t sa;
    int N = h->nodes, S = h->min_ranks, p = a->size;
    int L = ompi_comm_size(h->node_comm), l = ompi_comm_rank(h->node_comm), me_node;
    int c = l % S;              /* my slice; I carry it when l < S */
    size_t *nd = NULL, *slice, *part, pos, mine, total = pd[p];
    int *qof = NULL, *work, *rank_at;
    bool identity, extras;
    const char *input = a->input;
    char *sl, *packed, *out, *mybuf;
    int err = OMPI_SUCCESS;

    nd = malloc(((size_t) L + 1 + (size_t) S + 1 + (size_t) N + 1) * sizeof(size_t));
    qof = malloc(((size_t) 3 * p + N + 1) * sizeof(int));
    if (NULL == nd || NULL == qof) {
        err = OMPI_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    slice = nd + L + 1;
    part = slice + S + 1;
    work = qof + p;
    rank_at = work + p + N + 1;         /* [L]: the ranks of my node by local index */
    me_node = h->node_of[a->rank];
    for (int q = 0; q < p; ++q) {
        if (h->node_of[q] == me_node) {
            rank_at[h->local_of[q]] = q;
        }
    }
    identity = mca_coll_rsag_hier_rs_order(p, N, S, h->node_of, h->local_of, qof, work)
        && NULL == off;
    mca_coll_rsag_hier_rs_sums(p, N, S, h->node_of, h->local_of, qof, pd, c, slice, part);
    for (int i = 0; i <= L; ++i) {
        nd[i] = slice[i < S ? i : S];   /* local rank i >= S: an empty block */
    }
    mine = pd[a->rank + 1] - pd[a->rank];
    mybuf = mca_coll_rsag_elem(a->rbuf, NULL == off ? 0 : off[a->rank], a->extent);
    /* do other ranks of my node (c + S, c + 2S, ...) get their blocks from me? */
    extras = (l < S && l + S < L);

    sl = mca_coll_rsag_sched_tmp(s, l < S ? slice[l + 1] - slice[l] : 1);
    packed = mca_coll_rsag_sched_tmp(s, identity ? 0 : total);
    out = extras ? mca_coll_rsag_sched_tmp(s, part[me_node + 1] - part[me_node]) : mybuf;
    if (OMPI_SUCCESS != s->err) {
        err = s->err;
        goto cleanup;
    }

    /* (0) reorder the pieces so that every slice, and every node's part
     * of it, is contiguous */
    if (!identity) {
        pos = 0;
        for (int k = 0; k < p; ++k) {
            int q = qof[k];
            size_t n = pd[q + 1] - pd[q];
            size_t from = a->displ[q] + (NULL == off ? 0 : off[q]);
            (void) mca_coll_rsag_sched_copy(s, mca_coll_rsag_elem(a->input, from, a->extent),
                                            mca_coll_rsag_elem(packed, pos, a->extent), n);
            pos += n;
        }
        input = packed;
    }

    /* (1) reduce-scatter inside the node: slice l of the node's sum (l < S) */
    mca_coll_rsag_hier_args(&sa, a, h->node_comm, input, sl, total, -1);
    err = h->build(s, h->node_m, coll, MCA_COLL_RSAG_REDUCE_SCATTER_DIRECT, &sa, nd);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }
    mca_coll_rsag_hier_node_done(s, pipe);

    /* (2) reduce-scatter of slice l across the nodes: my node's part */
    if (l < S && part[N] > 0) {
        mca_coll_rsag_hier_args(&sa, a, h->cross_comm, sl, out, part[N], -1);
        err = h->build(s, h->cross_m, coll, mca_coll_rsag_component.hier_inter[coll], &sa, part);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }

    /* (3) inside the node: local rank c hands ranks c + S, c + 2S, ...
     * their blocks (its part holds its own block, then theirs in order) */
    if (extras || l >= S) {
        mca_coll_rsag_hier_args(&sa, a, h->node_comm, NULL, NULL, 0, -1);
        mca_coll_rsag_sched_fence(s);
        if (l >= S) {
            if (mine > 0) {
                (void) mca_coll_rsag_sched_recv(s, &sa, mybuf, mine, c);
            }
        } else {
            (void) mca_coll_rsag_sched_copy(s, out, mybuf, mine);
            pos = mine;
            for (int k = l + S; k < L; k += S) {
                int q = rank_at[k];
                size_t n = pd[q + 1] - pd[q];
                if (n > 0) {
                    (void) mca_coll_rsag_sched_send(s, &sa, mca_coll_rsag_elem(out, pos, a->extent),
                                                    n, k);
                }
                pos += n;
            }
        }
        err = s->err;
    }

cleanup:
    free(qof);
    free(nd);
    return err;
}

/* One chunk of the pipeline (coll_rsag_hier.h; `ctx`: the whole call):
 * piece pipe->chunk of pipe->chunks of every MPI block.  Not cut: the
 * whole call. */
static int mca_coll_rsag_rs_hier_chunk(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *ca,
                                       mca_coll_rsag_hier_pipe_t *pipe, void *ctx)
{
    const mca_coll_rsag_args_t *a = ctx;
    int p = a->size;
    size_t *pd, *off;
    int err;

    (void) ca;
    if (!pipe->lanes) {
        return mca_coll_rsag_rs_hier_pass(s, a, a->displ, NULL, pipe);
    }
    pd = malloc((2 * (size_t) p + 1) * sizeof(size_t));
    if (NULL == pd) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    off = pd + p + 1;
    pd[0] = 0;
    for (int q = 0; q < p; ++q) {
        size_t b = a->displ[q + 1] - a->displ[q];

        off[q] = mca_coll_rsag_rs_hier_cut(b, pipe->chunk, pipe->chunks);
        pd[q + 1] = pd[q] + mca_coll_rsag_rs_hier_cut(b, pipe->chunk + 1, pipe->chunks) - off[q];
    }
    err = mca_coll_rsag_rs_hier_pass(s, a, pd, off, pipe);
    free(pd);
    return err;
}

int mca_coll_rsag_reduce_scatter_hierarchical(mca_coll_rsag_sched_t *s,
                                              const mca_coll_rsag_args_t *a)
{
    mca_coll_rsag_hier_pipe_t whole = { .lanes = false, .node_done = -1, .chunks = 1 };

    /* In place, my block's pieces go where later chunks' pieces of the
     * first blocks are still to be read: not pipelined. */
    if (a->in_place) {
        return mca_coll_rsag_rs_hier_pass(s, a, a->displ, NULL, &whole);
    }
    return mca_coll_rsag_hier_pipeline(s, a, mca_coll_rsag_rs_hier_chunk, (void *) a);
}
