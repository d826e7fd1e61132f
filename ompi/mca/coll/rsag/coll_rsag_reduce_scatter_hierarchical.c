/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter, node-aware
 * ("hierarchical"; doc/hierarchical.md).
 *
 * Idea: the ranks of local index l (one per node) own, together, the MPI
 * blocks of those ranks: call that slice l.  (1) reduce-scatter inside
 * each node, local rank l keeping slice l of the node's sum; (2) the ranks
 * of local index l reduce-scatter slice l across the nodes, each keeping
 * its own MPI block, straight into rbuf.  When the ranks of one local
 * index are not contiguous in rank order (placement by slot: node 0 holds
 * ranks 0..L-1), the input is first copied with the blocks reordered by
 * (local index, node), so that every slice is contiguous; placement
 * round-robin by node needs no copy.
 *
 *   N = 2 nodes x L = 2 ranks by slot, blocks b0..b3 (b_r: rank r's block)
 *            node 0: ranks 0 1            node 1: ranks 2 3
 *   order    [b0 b2 | b1 b3]   slice 0 = b0 b2 (ranks 0, 2), slice 1 = b1 b3
 *   (1) rs   0: slice 0   1: slice 1      2: slice 0   3: slice 1   (node sums)
 *   (2) rs   cross {0,2}: 0 gets b0, 2 gets b2;  {1,3}: 1 gets b1, 3 gets b3
 *
 * Both steps, and the reordering copies, go into the call's one schedule.
 * Pipelined (coll_rsag_hierarchical_chunk_size, coll_rsag_hier.h; not in
 * place): chunk k is piece k of every MPI block, copied in (local index,
 * node) order (any placement: the copy is what makes a chunk contiguous),
 * and (1)(2) of each chunk are a lane of the schedule; the steps (1) of
 * successive chunks one after the other, (2) of a chunk overlapping the
 * others.
 * Each step is rsag's own reduce-scatter selection: (1) on the node
 * communicator, `direct` first, else auto; (2) on the cross communicator
 * (class "several nodes"), or the algorithm
 * coll_rsag_reduce_scatter_hierarchical_inter_algorithm forces (it
 * serves both reduce-scatters, as do MPI_Reduce_scatter's thresholds).
 * Cost (n bytes, N nodes of L ranks, even blocks; recursive halving
 *       across nodes): intra: (L-1)/L n beta_s + (L-1)/L n gamma (+ n c,
 *       one local copy, for placement by slot); inter: log2 N alpha_n +
 *       (N-1)/N (n/L) beta_n + (N-1)/N (n/L) gamma per cross communicator.
 *       Pipelined in C chunks: the copy n c whatever the placement, C times
 *       the latency terms, the phases overlapping.
 * Restrictions: commutative op; several nodes with the same number L >= 2
 *       of ranks on each; any block sizes (zero too), any placement.
 * Memory: slice l (its blocks' elements), plus a copy of the input when
 *       the slices are not contiguous (pipelined: always, chunk by chunk).
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/constants.h"

#include "coll_rsag_hier.h"

/* The layouts of the two steps, from MPI's blocks (a->displ) and the node
 * structure: qof[k], the rank whose block comes k-th in (local index,
 * node) order; nd[0..L], slice li = the blocks of qof[li*N .. li*N+N-1];
 * cd[0..N], my slice's blocks (its N ranks, in node order).  Returns
 * whether the blocks are already in that order (no copy needed). */
static bool mca_coll_rsag_rs_hier_layouts(const mca_coll_rsag_args_t *a,
                                          const mca_coll_rsag_hier_t *h, int L, int l,
                                          int *qof, size_t *nd, size_t *cd)
{
    int N = h->nodes, p = a->size;
    bool identity = true;
    size_t pos = 0;

    for (int q = 0; q < p; ++q) {
        qof[h->local_of[q] * N + h->node_of[q]] = q;
    }
    for (int k = 0; k < p; ++k) {
        identity &= (qof[k] == k);
    }
    for (int li = 0; li < L; ++li) {
        nd[li] = pos;
        for (int j = 0; j < N; ++j) {
            int q = qof[li * N + j];
            pos += a->displ[q + 1] - a->displ[q];
        }
    }
    nd[L] = pos;
    cd[0] = 0;
    for (int j = 0; j < N; ++j) {
        int q = qof[l * N + j];
        cd[j + 1] = cd[j] + (a->displ[q + 1] - a->displ[q]);
    }
    return identity;
}

/* The whole call, not pipelined. */
static int mca_coll_rsag_rs_hier_whole(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    mca_coll_rsag_hier_t *h = a->hier;
    /* both reduce-scatters share this function: the sub-steps take
     * MPI_Reduce_scatter's tuning (its thresholds, its inter parameter) */
    const mca_coll_rsag_coll_t coll = MCA_COLL_RSAG_REDUCE_SCATTER;
    mca_coll_rsag_args_t sa;
    int N = h->nodes, L = ompi_comm_size(h->node_comm), l = ompi_comm_rank(h->node_comm);
    int p = a->size;
    size_t *nd = NULL, *cd, pos;
    int *qof = NULL;
    bool identity;
    const char *input = a->input;
    char *slice, *packed;
    int err = OMPI_SUCCESS;

    nd = malloc(((size_t) L + 1 + (size_t) N + 1) * sizeof(size_t));
    qof = malloc((size_t) p * sizeof(int));
    if (NULL == nd || NULL == qof) {
        err = OMPI_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    cd = nd + L + 1;
    identity = mca_coll_rsag_rs_hier_layouts(a, h, L, l, qof, nd, cd);

    slice = mca_coll_rsag_sched_tmp(s, nd[l + 1] - nd[l]);
    packed = mca_coll_rsag_sched_tmp(s, identity ? 0 : a->count);
    if (OMPI_SUCCESS != s->err) {
        err = s->err;
        goto cleanup;
    }
    if (!identity) {
        /* reorder the blocks so that every slice is contiguous */
        pos = 0;
        for (int k = 0; k < p; ++k) {
            int q = qof[k];
            size_t c = a->displ[q + 1] - a->displ[q];
            (void) mca_coll_rsag_sched_copy(s, mca_coll_rsag_elem(a->input, a->displ[q],
                                                                  a->extent),
                                            mca_coll_rsag_elem(packed, pos, a->extent), c);
            pos += c;
        }
        input = packed;
    }

    /* (1) reduce-scatter inside the node: slice l of the node's sum */
    mca_coll_rsag_hier_args(&sa, a, h->node_comm, input, slice, a->count, -1);
    err = h->build(s, h->node_m, coll, MCA_COLL_RSAG_REDUCE_SCATTER_DIRECT, &sa, nd);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }
    /* (2) reduce-scatter of slice l across the nodes: my block into rbuf */
    if (cd[N] > 0) {
        mca_coll_rsag_hier_args(&sa, a, h->cross_comm, slice, a->rbuf, cd[N], -1);
        err = h->build(s, h->cross_m, coll, mca_coll_rsag_component.hier_inter[coll], &sa, cd);
    }

cleanup:
    free(qof);
    free(nd);
    return err;
}

/* Where piece k of n of a block of b elements starts (the first b % n
 * pieces one longer). */
static size_t mca_coll_rsag_rs_hier_cut(size_t b, size_t k, size_t n)
{
    return k * (b / n) + (k < b % n ? k : b % n);
}

/* Chunk pipe->chunk of the pipeline (coll_rsag_hier.h; `ctx`: the whole
 * call): that piece of every MPI block, copied in (local index, node)
 * order, then (1) and (2) on the pieces, my piece into its place in rbuf.
 * Not cut: the whole call as above. */
static int mca_coll_rsag_rs_hier_chunk(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *ca,
                                       mca_coll_rsag_hier_pipe_t *pipe, void *ctx)
{
    const mca_coll_rsag_args_t *a = ctx;
    mca_coll_rsag_hier_t *h = a->hier;
    const mca_coll_rsag_coll_t coll = MCA_COLL_RSAG_REDUCE_SCATTER;
    int N = h->nodes, L = ompi_comm_size(h->node_comm), l = ompi_comm_rank(h->node_comm);
    int p = a->size, *qof = NULL;
    size_t *pd, *off, *nd, *cd, pos = 0;
    mca_coll_rsag_args_t pa, sa;
    char *slice, *packed;
    int err = OMPI_SUCCESS;

    (void) ca;
    if (!pipe->lanes) {
        return mca_coll_rsag_rs_hier_whole(s, a);
    }
    /* pd: the pieces' layout (p + 1), off: each piece's first element in
     * its block (p), nd (L + 1) and cd (N + 1) as above, in pieces */
    pd = malloc((3 * (size_t) p + 1 + (size_t) L + 1 + (size_t) N + 1) * sizeof(size_t));
    qof = malloc((size_t) p * sizeof(int));
    if (NULL == pd || NULL == qof) {
        err = OMPI_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    off = pd + p + 1;
    nd = off + p;
    cd = nd + L + 1;
    pd[0] = 0;
    for (int q = 0; q < p; ++q) {
        size_t b = a->displ[q + 1] - a->displ[q];

        off[q] = mca_coll_rsag_rs_hier_cut(b, pipe->chunk, pipe->chunks);
        pd[q + 1] = pd[q] + mca_coll_rsag_rs_hier_cut(b, pipe->chunk + 1, pipe->chunks) - off[q];
    }
    pa = *a;
    pa.displ = pd;
    (void) mca_coll_rsag_rs_hier_layouts(&pa, h, L, l, qof, nd, cd);

    slice = mca_coll_rsag_sched_tmp(s, nd[l + 1] - nd[l]);
    packed = mca_coll_rsag_sched_tmp(s, pd[p]);
    if (OMPI_SUCCESS != s->err) {
        err = s->err;
        goto cleanup;
    }
    for (int k = 0; k < p; ++k) {
        int q = qof[k];
        size_t c = pd[q + 1] - pd[q];

        (void) mca_coll_rsag_sched_copy(s, mca_coll_rsag_elem(a->input, a->displ[q] + off[q],
                                                              a->extent),
                                        mca_coll_rsag_elem(packed, pos, a->extent), c);
        pos += c;
    }
    /* (1) reduce-scatter of the pieces inside the node */
    mca_coll_rsag_hier_args(&sa, a, h->node_comm, packed, slice, pd[p], -1);
    err = h->build(s, h->node_m, coll, MCA_COLL_RSAG_REDUCE_SCATTER_DIRECT, &sa, nd);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }
    mca_coll_rsag_hier_node_done(s, pipe);
    /* (2) across the nodes: my piece into its place in my block */
    if (cd[N] > 0) {
        mca_coll_rsag_hier_args(&sa, a, h->cross_comm, slice,
                                mca_coll_rsag_elem(a->rbuf, off[a->rank], a->extent), cd[N], -1);
        err = h->build(s, h->cross_m, coll, mca_coll_rsag_component.hier_inter[coll], &sa, cd);
    }

cleanup:
    free(qof);
    free(pd);
    return err;
}

int mca_coll_rsag_reduce_scatter_hierarchical(mca_coll_rsag_sched_t *s,
                                              const mca_coll_rsag_args_t *a)
{
    /* In place, my block's pieces go where later chunks' pieces of the
     * first blocks are still to be read: not pipelined. */
    if (a->in_place) {
        return mca_coll_rsag_rs_hier_whole(s, a);
    }
    return mca_coll_rsag_hier_pipeline(s, a, mca_coll_rsag_rs_hier_chunk, (void *) a);
}
