/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The schedules of the collectives rsag fills on an intracommunicator
 * (coll_rsag_fill.h): simple and correct for every datatype, op, count
 * and MPI_IN_PLACE, not fast.
 *
 *   barrier     dissemination: round k sends to r + 2^k, receives from
 *               r - 2^k; ceil(log2 p) rounds of empty messages
 *   bcast       binomial tree from the root: log2 p rounds
 *   gather(v)   every rank sends to the root, which receives p - 1 blocks
 *   scatter(v)  the reverse
 *   allgather(v), alltoall(v,w)
 *               every pair exchanges its block at once (p - 1 messages
 *               each way in flight); in place, the blocks received wait in
 *               temporaries until everything is sent
 *   reductions  a chain down the ranks: rank p-1 sends x_{p-1}, rank r
 *               receives the fold of the ranks above it, computes x_r (op)
 *               it and sends it on, so rank 0 holds x_0 op ... op x_{p-1}
 *               in rank order (non-commutative ops too) with one temporary
 *               of the vector per rank; p - 1 steps.  Reduce then moves it
 *               to the root, allreduce broadcasts it (binomial),
 *               reduce_scatter(_block) scatters its blocks.
 *   scan        a chain up the ranks: rank r receives the prefix of the
 *               ranks below it and folds its own input after it;
 *   exscan      the same, rank r keeping the prefix it received.
 *
 * Cost (alpha-beta, n bytes): barrier and bcast log2 p (alpha + n beta);
 * the rooted and all-to-all ones (p - 1)(alpha + n beta) at the busiest
 * rank; the reductions (p - 1)(alpha + n beta + n gamma) on the chain.
 * Memory: the reductions, one vector per rank (the whole vector for
 * reduce_scatter); alltoall in place, the blocks of this rank.
 */
#include "ompi_config.h"

#include <stdbool.h>
#include <stdlib.h>

#include "mpi.h"
#include "ompi/constants.h"

#include "coll_rsag.h"
#include "coll_rsag_fill.h"

/* Binomial broadcast of `count` elements of `type` at `buf` from `root`. */
static void mca_coll_rsag_fill_binomial(mca_coll_rsag_sched_t *s,
                                        const mca_coll_rsag_fill_args_t *f, char *buf,
                                        size_t count, struct ompi_datatype_t *type, int root)
{
    int p = f->size, vr = (f->rank - root + p) % p, mask = 1;

    while (mask < p) {
        if (vr & mask) {
            (void) mca_coll_rsag_sched_recv_typed(s, &f->a, buf, count, type,
                                                  (vr - mask + root) % p);
            mca_coll_rsag_sched_fence(s);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (vr + mask < p) {
            (void) mca_coll_rsag_sched_send_typed(s, &f->a, buf, count, type,
                                                  (vr + mask + root) % p);
        }
    }
    mca_coll_rsag_sched_fence(s);
}

/* The reductions' input: the send buffer, or the receive buffer in place. */
static const char *mca_coll_rsag_fill_input(const mca_coll_rsag_fill_args_t *f)
{
    return f->in_place ? f->recv.buf : f->send.buf;
}

/* The chain down the ranks (the header): returns, on rank 0, the buffer
 * holding x_0 op ... op x_{p-1} (`input` itself when p = 1), NULL on the
 * other ranks; every step after it waits for the chain's. */
static char *mca_coll_rsag_fill_chain(mca_coll_rsag_sched_t *s,
                                      const mca_coll_rsag_fill_args_t *f, const char *input,
                                      size_t count)
{
    int r = f->rank, p = f->size;
    char *acc;

    if (1 == p) {
        return (char *) input;
    }
    if (r == p - 1) {
        (void) mca_coll_rsag_sched_send(s, &f->a, input, count, r - 1);
        mca_coll_rsag_sched_fence(s);
        return NULL;
    }
    acc = mca_coll_rsag_sched_tmp(s, count);
    (void) mca_coll_rsag_sched_recv(s, &f->a, acc, count, r + 1);
    mca_coll_rsag_sched_fence(s);
    (void) mca_coll_rsag_sched_reduce(s, input, acc, count);   /* acc = x_r op acc */
    mca_coll_rsag_sched_fence(s);
    if (r > 0) {
        (void) mca_coll_rsag_sched_send(s, &f->a, acc, count, r - 1);
        mca_coll_rsag_sched_fence(s);
        return NULL;
    }
    return acc;
}

/* ---- the builders ------------------------------------------------------- */

int mca_coll_rsag_fill_barrier_intra(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f)
{
    int r = f->rank, p = f->size;

    for (int k = 1; k < p; k <<= 1) {
        mca_coll_rsag_fill_recv(s, f, &f->recv, 0, (r - k + p) % p);
        mca_coll_rsag_fill_send(s, f, &f->send, 0, (r + k) % p);
        mca_coll_rsag_sched_fence(s);
    }
    return s->err;
}

int mca_coll_rsag_fill_bcast_intra(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f)
{
    if (f->size > 1) {
        mca_coll_rsag_fill_binomial(s, f, f->send.buf, f->send.count, f->send.type, f->root);
    }
    return s->err;
}

/* The rooted ones: the root receives (gather) or sends (scatter) block i
 * from or to rank i and copies its own block unless in place; another
 * rank sends or receives its one block. */
static int mca_coll_rsag_fill_rooted_intra(mca_coll_rsag_sched_t *s,
                                           const mca_coll_rsag_fill_args_t *f, bool to_root)
{
    if (f->rank != f->root) {
        if (to_root) {
            mca_coll_rsag_fill_send(s, f, &f->send, 0, f->root);
        } else {
            mca_coll_rsag_fill_recv(s, f, &f->recv, 0, f->root);
        }
        return s->err;
    }
    for (int i = 0; i < f->size; ++i) {
        if (i == f->rank) {
            continue;
        }
        if (to_root) {
            mca_coll_rsag_fill_recv(s, f, &f->recv, i, i);
        } else {
            mca_coll_rsag_fill_send(s, f, &f->send, i, i);
        }
    }
    if (!f->in_place) {
        mca_coll_rsag_fill_local(s, f, to_root ? 0 : f->rank, to_root ? f->rank : 0);
    }
    return s->err;
}

int mca_coll_rsag_fill_gather_intra(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f)
{
    return mca_coll_rsag_fill_rooted_intra(s, f, true);
}

int mca_coll_rsag_fill_scatter_intra(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f)
{
    return mca_coll_rsag_fill_rooted_intra(s, f, false);
}

int mca_coll_rsag_fill_allgather_intra(mca_coll_rsag_sched_t *s,
                                       const mca_coll_rsag_fill_args_t *f)
{
    /* in place, this rank's block of the receive buffer is what it sends */
    mca_coll_rsag_fill_side_t mine = f->send;
    int r = f->rank;

    if (f->in_place) {
        mine.layout = MCA_COLL_RSAG_FILL_SAME;
        mca_coll_rsag_fill_block(&f->recv, r, &mine.buf, &mine.count, &mine.type);
    }
    for (int i = 0; i < f->size; ++i) {
        if (i != r) {
            mca_coll_rsag_fill_recv(s, f, &f->recv, i, i);
            mca_coll_rsag_fill_send(s, f, &mine, 0, i);
        }
    }
    if (!f->in_place) {
        mca_coll_rsag_fill_local(s, f, 0, r);
    }
    return s->err;
}

int mca_coll_rsag_fill_alltoall_intra(mca_coll_rsag_sched_t *s,
                                      const mca_coll_rsag_fill_args_t *f)
{
    int r = f->rank, p = f->size;
    char **held;

    if (!f->in_place) {
        for (int i = 0; i < p; ++i) {
            if (i != r) {
                mca_coll_rsag_fill_recv(s, f, &f->recv, i, i);
                mca_coll_rsag_fill_send(s, f, &f->send, i, i);
            }
        }
        mca_coll_rsag_fill_local(s, f, r, r);
        return s->err;
    }
    /* in place: block i is sent from the receive buffer while block i from
     * rank i waits in a temporary, copied in once everything is through */
    held = calloc((size_t) p, sizeof(*held));
    if (NULL == held) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (int phase = 0; phase < 2; ++phase) {      /* the exchange, then the copies */
        for (int i = 0; i < p; ++i) {
            struct ompi_datatype_t *type;
            size_t count;
            char *buf;

            if (i == r) {
                continue;
            }
            mca_coll_rsag_fill_block(&f->recv, i, &buf, &count, &type);
            if (0 == phase) {
                held[i] = mca_coll_rsag_sched_tmp_typed(s, count, type);
                (void) mca_coll_rsag_sched_recv_typed(s, &f->a, held[i], count, type, i);
                mca_coll_rsag_fill_send(s, f, &f->recv, i, i);
            } else if (0 < count) {
                (void) mca_coll_rsag_sched_sndrcv(s, held[i], count, type, buf, count, type);
            }
        }
        mca_coll_rsag_sched_fence(s);
    }
    free(held);
    return s->err;
}

int mca_coll_rsag_fill_reduce_intra(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f)
{
    const char *input = (f->in_place && f->rank == f->root) ? f->recv.buf : f->send.buf;
    char *res = mca_coll_rsag_fill_chain(s, f, input, f->count);

    if (0 == f->root) {
        if (0 == f->rank) {
            (void) mca_coll_rsag_sched_copy(s, res, f->recv.buf, f->count);
        }
    } else if (0 == f->rank) {
        (void) mca_coll_rsag_sched_send(s, &f->a, res, f->count, f->root);
    } else if (f->root == f->rank) {
        (void) mca_coll_rsag_sched_recv(s, &f->a, f->recv.buf, f->count, 0);
    }
    return s->err;
}

int mca_coll_rsag_fill_allreduce_intra(mca_coll_rsag_sched_t *s,
                                       const mca_coll_rsag_fill_args_t *f)
{
    char *res = mca_coll_rsag_fill_chain(s, f, mca_coll_rsag_fill_input(f), f->count);

    if (0 == f->rank) {
        (void) mca_coll_rsag_sched_copy(s, res, f->recv.buf, f->count);
        mca_coll_rsag_sched_fence(s);
    }
    if (f->size > 1) {
        mca_coll_rsag_fill_binomial(s, f, f->recv.buf, f->count, f->dtype, 0);
    }
    return s->err;
}

int mca_coll_rsag_fill_reduce_scatter_intra(mca_coll_rsag_sched_t *s,
                                            const mca_coll_rsag_fill_args_t *f)
{
    char *res = mca_coll_rsag_fill_chain(s, f, mca_coll_rsag_fill_input(f), f->count);
    ptrdiff_t lb, extent;
    size_t displ, n;

    (void) ompi_datatype_get_extent(f->dtype, &lb, &extent);
    if (0 != f->rank) {
        n = mca_coll_rsag_fill_rs_block(f, f->rank, &displ);
        (void) mca_coll_rsag_sched_recv(s, &f->a, f->recv.buf, n, 0);
        return s->err;
    }
    for (int i = 1; i < f->size; ++i) {
        n = mca_coll_rsag_fill_rs_block(f, i, &displ);
        (void) mca_coll_rsag_sched_send(s, &f->a, mca_coll_rsag_elem(res, displ, extent), n, i);
    }
    n = mca_coll_rsag_fill_rs_block(f, 0, &displ);
    (void) mca_coll_rsag_sched_copy(s, res, f->recv.buf, n);
    return s->err;
}

int mca_coll_rsag_fill_scan_intra(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f)
{
    int r = f->rank;
    char *acc = NULL;

    (void) mca_coll_rsag_sched_copy(s, mca_coll_rsag_fill_input(f), f->recv.buf, f->count);
    if (r > 0) {
        acc = mca_coll_rsag_sched_tmp(s, f->count);
        (void) mca_coll_rsag_sched_recv(s, &f->a, acc, f->count, r - 1);
        mca_coll_rsag_sched_fence(s);
        (void) mca_coll_rsag_sched_reduce(s, acc, f->recv.buf, f->count); /* prefix op x_r */
        mca_coll_rsag_sched_fence(s);
    }
    if (r < f->size - 1) {
        (void) mca_coll_rsag_sched_send(s, &f->a, f->recv.buf, f->count, r + 1);
    }
    return s->err;
}

int mca_coll_rsag_fill_exscan_intra(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f)
{
    int r = f->rank, p = f->size;
    char *next;

    if (0 == r) {
        if (p > 1) {
            (void) mca_coll_rsag_sched_send(s, &f->a, mca_coll_rsag_fill_input(f), f->count, 1);
        }
        return s->err;
    }
    if (r == p - 1) {
        (void) mca_coll_rsag_sched_recv(s, &f->a, f->recv.buf, f->count, r - 1);
        return s->err;
    }
    /* x_r is read (copied, at issue) before the prefix lands on it in place */
    next = mca_coll_rsag_sched_tmp(s, f->count);
    (void) mca_coll_rsag_sched_copy(s, mca_coll_rsag_fill_input(f), next, f->count);
    (void) mca_coll_rsag_sched_recv(s, &f->a, f->recv.buf, f->count, r - 1);
    mca_coll_rsag_sched_fence(s);
    (void) mca_coll_rsag_sched_reduce(s, f->recv.buf, next, f->count);    /* prefix op x_r */
    mca_coll_rsag_sched_fence(s);
    (void) mca_coll_rsag_sched_send(s, &f->a, next, f->count, r + 1);
    return s->err;
}
