/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Building blocks of the recursive-halving family; see coll_rsag_halving.h.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_halving.h"
#include "coll_rsag_op.h"
#include "coll_rsag_p2p.h"

int mca_coll_rsag_halving_buffers(const mca_coll_rsag_args_t *a, mca_coll_rsag_tmp_t *work,
                                  mca_coll_rsag_tmp_t *tmp, size_t work_count,
                                  mca_coll_rsag_order_t order)
{
    size_t recv = mca_coll_rsag_halving_recv_count(a->vdispl, a->size, a->rank, order);
    int err = mca_coll_rsag_tmp_alloc(work, work_count, a->dtype);

    if (OMPI_SUCCESS == err) {
        err = mca_coll_rsag_tmp_alloc(tmp, recv, a->dtype);
    }
    if (OMPI_SUCCESS != err) {
        mca_coll_rsag_tmp_free(tmp);
        mca_coll_rsag_tmp_free(work);
    }
    return err;
}

int mca_coll_rsag_fold(const mca_coll_rsag_args_t *a, const char *input, char *work, char *tmp)
{
    int extra = a->size - mca_coll_rsag_pof2_floor(a->size);
    mca_coll_rsag_range_t whole = { 0, a->count }, lower, upper, keep, give;
    bool even = (0 == a->rank % 2);
    int peer = even ? a->rank + 1 : a->rank - 1;
    int err;

    if (a->rank >= 2 * extra) {
        return OMPI_SUCCESS;
    }
    mca_coll_rsag_split_halves(whole, &lower, &upper);
    keep = even ? lower : upper;
    give = even ? upper : lower;

    /* Both halves are reduced at once: even ranks the lower, odd the upper. */
    err = mca_coll_rsag_sendrecv(mca_coll_rsag_elem(input, give.off, a->extent), give.cnt, peer,
                                 tmp, keep.cnt, peer, a->dtype, a->tag, a->comm);
    if (OMPI_SUCCESS != err) {
        return err;
    }
    mca_coll_rsag_op_reduce3(a->op, tmp, mca_coll_rsag_elem(input, keep.off, a->extent),
                             mca_coll_rsag_elem(work, keep.off, a->extent), keep.cnt, a->dtype);

    /* The odd rank hands its reduced half over and leaves the group. */
    if (even) {
        return mca_coll_rsag_recv(mca_coll_rsag_elem(work, upper.off, a->extent), upper.cnt,
                                  a->dtype, peer, a->tag, a->comm);
    }
    return mca_coll_rsag_send(mca_coll_rsag_elem(work, upper.off, a->extent), upper.cnt,
                              a->dtype, peer, a->tag, a->comm);
}

int mca_coll_rsag_halving_rs(const mca_coll_rsag_args_t *a, const char *src, char *work,
                             char *tmp, const mca_coll_rsag_halving_step_t *steps, int nsteps,
                             char *last)
{
    for (int k = 0; k < nsteps; ++k, src = work) {
        const mca_coll_rsag_halving_step_t *s = &steps[k];
        int peer = mca_coll_rsag_fold_rank(s->peer, a->size);
        char *dst = (NULL != last && k == nsteps - 1)
                        ? last : mca_coll_rsag_elem(work, s->keep.off, a->extent);
        int err = mca_coll_rsag_sendrecv(mca_coll_rsag_elem(src, s->give.off, a->extent),
                                         s->give.cnt, peer, tmp, s->keep.cnt, peer, a->dtype,
                                         a->tag, a->comm);
        if (OMPI_SUCCESS != err) {
            return err;
        }
        mca_coll_rsag_op_reduce3(a->op, tmp, mca_coll_rsag_elem(src, s->keep.off, a->extent),
                                 dst, s->keep.cnt, a->dtype);
    }
    return OMPI_SUCCESS;
}

int mca_coll_rsag_folded_rs(const mca_coll_rsag_args_t *a, const char *input, char *work,
                            char *tmp, mca_coll_rsag_order_t order,
                            mca_coll_rsag_halving_step_t *steps, int *nsteps, char *last)
{
    int pof2 = mca_coll_rsag_pof2_floor(a->size);
    int vrank = mca_coll_rsag_fold_vrank(a->rank, a->size);
    bool folded = a->rank < 2 * (a->size - pof2);
    int err = mca_coll_rsag_fold(a, input, work, tmp);

    *nsteps = 0;
    if (OMPI_SUCCESS != err || vrank < 0) {
        return err;
    }
    *nsteps = mca_coll_rsag_halving_schedule(a->vdispl, pof2, vrank, order, steps);
    return mca_coll_rsag_halving_rs(a, folded ? work : input, work, tmp, steps, *nsteps, last);
}

int mca_coll_rsag_doubling_allgather(const mca_coll_rsag_args_t *a, char *work,
                                     const mca_coll_rsag_halving_step_t *steps, int nsteps)
{
    for (int k = nsteps - 1; k >= 0; --k) {
        const mca_coll_rsag_halving_step_t *s = &steps[k];
        int peer = mca_coll_rsag_fold_rank(s->peer, a->size);
        int err = mca_coll_rsag_sendrecv(mca_coll_rsag_elem(work, s->keep.off, a->extent),
                                         s->keep.cnt, peer,
                                         mca_coll_rsag_elem(work, s->give.off, a->extent),
                                         s->give.cnt, peer, a->dtype, a->tag, a->comm);
        if (OMPI_SUCCESS != err) {
            return err;
        }
    }
    /* unfold: the odd ranks below 2r get the whole vector */
    if (a->rank >= 2 * (a->size - mca_coll_rsag_pof2_floor(a->size))) {
        return OMPI_SUCCESS;
    }
    if (0 == a->rank % 2) {
        return mca_coll_rsag_send(work, a->count, a->dtype, a->rank + 1, a->tag, a->comm);
    }
    return mca_coll_rsag_recv(work, a->count, a->dtype, a->rank - 1, a->tag, a->comm);
}

int mca_coll_rsag_unfold_blocks(const mca_coll_rsag_args_t *a, const char *work)
{
    int extra = a->size - mca_coll_rsag_pof2_floor(a->size);
    mca_coll_rsag_range_t mine = mca_coll_rsag_block(a->displ, a->rank);

    if (a->rank < 2 * extra && 1 == a->rank % 2) {
        return mca_coll_rsag_recv(a->rbuf, mine.cnt, a->dtype, a->rank - 1, a->tag, a->comm);
    }
    if (a->rank < 2 * extra) {
        mca_coll_rsag_range_t odd = mca_coll_rsag_block(a->displ, a->rank + 1);
        int err = mca_coll_rsag_send(mca_coll_rsag_elem(work, odd.off, a->extent), odd.cnt,
                                     a->dtype, a->rank + 1, a->tag, a->comm);
        if (OMPI_SUCCESS != err) {
            return err;
        }
    }
    return mca_coll_rsag_copy(a->dtype, mine.cnt, a->rbuf,
                              mca_coll_rsag_elem(work, mine.off, a->extent));
}
