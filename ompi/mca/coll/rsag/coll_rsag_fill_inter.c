/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The schedules of the collectives rsag fills on an intercommunicator
 * (coll_rsag_fill.h): every message crosses between the two groups, peers
 * are ranks of the remote group (q of them), and a rooted collective's
 * root is MPI_ROOT (the root), MPI_PROC_NULL (the rest of its group) or
 * the root's rank in the remote group.
 *
 *   barrier             an empty message to and from every remote rank
 *   bcast, scatter(v)   the root sends to every remote rank
 *   gather(v)           every remote rank sends to the root
 *   allgather(v), alltoall(v,w)
 *                       every rank exchanges its block(s) with every
 *                       remote rank, all in flight at once
 *   reduce, allreduce   the remote group's inputs, received whole from
 *                       every remote rank, folded in remote rank order
 *                       x_0 op (x_1 op (... x_{q-1})) (non-commutative
 *                       ops too) into the receive buffer
 *   reduce_scatter(_block)
 *                       the same fold of the remote group's whole
 *                       vectors, of which this rank keeps its block
 *
 * Cost: one round, q (alpha + n beta) at the busiest rank, plus q n gamma
 * for the reductions.  Memory: the reductions hold the q - 1 remote
 * vectors (q for reduce_scatter) at once.  MPI defines no scan or exscan
 * on intercommunicators.
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "mpi.h"
#include "ompi/constants.h"

#include "coll_rsag.h"
#include "coll_rsag_fill.h"

int mca_coll_rsag_fill_barrier_inter(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f)
{
    for (int i = 0; i < f->remote_size; ++i) {
        mca_coll_rsag_fill_recv(s, f, &f->recv, 0, i);
        mca_coll_rsag_fill_send(s, f, &f->send, 0, i);
    }
    return s->err;
}

/* The rooted ones: the root sends (scatter, bcast) or receives (gather)
 * block i to or from remote rank i; a rank of the other group receives
 * or sends its one block. */
static int mca_coll_rsag_fill_rooted_inter(mca_coll_rsag_sched_t *s,
                                           const mca_coll_rsag_fill_args_t *f, bool to_root)
{
    if (MPI_PROC_NULL == f->root) {
        return s->err;
    }
    if (MPI_ROOT == f->root) {
        for (int i = 0; i < f->remote_size; ++i) {
            if (to_root) {
                mca_coll_rsag_fill_recv(s, f, &f->recv, i, i);
            } else {
                mca_coll_rsag_fill_send(s, f, &f->send, i, i);
            }
        }
    } else if (to_root) {
        mca_coll_rsag_fill_send(s, f, &f->send, 0, f->root);
    } else {
        mca_coll_rsag_fill_recv(s, f, &f->recv, 0, f->root);
    }
    return s->err;
}

int mca_coll_rsag_fill_bcast_inter(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f)
{
    return mca_coll_rsag_fill_rooted_inter(s, f, false);
}

int mca_coll_rsag_fill_scatter_inter(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f)
{
    return mca_coll_rsag_fill_rooted_inter(s, f, false);
}

int mca_coll_rsag_fill_gather_inter(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f)
{
    return mca_coll_rsag_fill_rooted_inter(s, f, true);
}

/* allgather: the one block to everyone (SAME); alltoall: block i to i. */
static int mca_coll_rsag_fill_exchange_inter(mca_coll_rsag_sched_t *s,
                                             const mca_coll_rsag_fill_args_t *f)
{
    for (int i = 0; i < f->remote_size; ++i) {
        mca_coll_rsag_fill_recv(s, f, &f->recv, i, i);
        mca_coll_rsag_fill_send(s, f, &f->send, i, i);
    }
    return s->err;
}

int mca_coll_rsag_fill_allgather_inter(mca_coll_rsag_sched_t *s,
                                       const mca_coll_rsag_fill_args_t *f)
{
    mca_coll_rsag_fill_args_t g;

    if (!f->in_place) {
        return mca_coll_rsag_fill_exchange_inter(s, f);
    }
    /* MPI_IN_PLACE, which MPI does not define here but Open MPI itself
     * passes (MPI_Comm_split_type of an intercommunicator; coll/inter takes
     * it as "my block is in the receive buffer"): this rank's block, copied
     * out before the remote blocks land on it, goes to every remote rank */
    g = *f;
    g.send.layout = MCA_COLL_RSAG_FILL_SAME;
    {
        char *buf;
        mca_coll_rsag_fill_block(&f->recv, f->rank, &buf, &g.send.count, &g.send.type);
        g.send.buf = mca_coll_rsag_sched_tmp_typed(s, g.send.count, g.send.type);
        (void) mca_coll_rsag_sched_sndrcv(s, buf, g.send.count, g.send.type, g.send.buf,
                                          g.send.count, g.send.type);
    }
    return mca_coll_rsag_fill_exchange_inter(s, &g);
}

int mca_coll_rsag_fill_alltoall_inter(mca_coll_rsag_sched_t *s,
                                      const mca_coll_rsag_fill_args_t *f)
{
    return mca_coll_rsag_fill_exchange_inter(s, f);
}

/* Receive the remote group's vectors (n elements each) and fold them in
 * remote rank order into `dst`; every step after it waits for the fold. */
static void mca_coll_rsag_fill_fold_remote(mca_coll_rsag_sched_t *s,
                                           const mca_coll_rsag_fill_args_t *f, char *dst,
                                           size_t n)
{
    int q = f->remote_size;
    char **held = calloc((size_t) q, sizeof(*held));

    if (NULL == held) {
        s->err = (OMPI_SUCCESS == s->err) ? OMPI_ERR_OUT_OF_RESOURCE : s->err;
        return;
    }
    (void) mca_coll_rsag_sched_recv(s, &f->a, dst, n, q - 1);
    for (int i = 0; i < q - 1; ++i) {
        held[i] = mca_coll_rsag_sched_tmp(s, n);
        (void) mca_coll_rsag_sched_recv(s, &f->a, held[i], n, i);
    }
    mca_coll_rsag_sched_fence(s);
    for (int i = q - 2; i >= 0; --i) {
        (void) mca_coll_rsag_sched_reduce(s, held[i], dst, n);     /* dst = x_i op dst */
    }
    mca_coll_rsag_sched_fence(s);
    free(held);
}

int mca_coll_rsag_fill_reduce_inter(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f)
{
    if (MPI_ROOT == f->root) {
        mca_coll_rsag_fill_fold_remote(s, f, f->recv.buf, f->count);
    } else if (MPI_PROC_NULL != f->root) {
        (void) mca_coll_rsag_sched_send(s, &f->a, f->send.buf, f->count, f->root);
    }
    return s->err;
}

int mca_coll_rsag_fill_allreduce_inter(mca_coll_rsag_sched_t *s,
                                       const mca_coll_rsag_fill_args_t *f)
{
    const char *input = f->send.buf;

    if (f->in_place) {
        /* as for allgather: Open MPI passes it (MPI_Comm_split_type) */
        char *copy = mca_coll_rsag_sched_tmp(s, f->count);
        (void) mca_coll_rsag_sched_copy(s, f->recv.buf, copy, f->count);
        input = copy;
    }
    for (int i = 0; i < f->remote_size; ++i) {
        (void) mca_coll_rsag_sched_send(s, &f->a, input, f->count, i);
    }
    mca_coll_rsag_fill_fold_remote(s, f, f->recv.buf, f->count);
    return s->err;
}

int mca_coll_rsag_fill_reduce_scatter_inter(mca_coll_rsag_sched_t *s,
                                            const mca_coll_rsag_fill_args_t *f)
{
    /* both groups' vectors have f->count elements (MPI's rule); this
     * rank's block is by its own group's counts */
    char *sum = mca_coll_rsag_sched_tmp(s, f->count);
    ptrdiff_t lb, extent;
    size_t displ, n;

    (void) ompi_datatype_get_extent(f->dtype, &lb, &extent);
    for (int i = 0; i < f->remote_size; ++i) {
        (void) mca_coll_rsag_sched_send(s, &f->a, f->send.buf, f->count, i);
    }
    mca_coll_rsag_fill_fold_remote(s, f, sum, f->count);
    n = mca_coll_rsag_fill_rs_block(f, f->rank, &displ);
    (void) mca_coll_rsag_sched_copy(s, mca_coll_rsag_elem(sum, displ, extent), f->recv.buf, n);
    return s->err;
}
