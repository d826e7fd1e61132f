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

int mca_coll_rsag_halving_buffers(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                  size_t work_count, mca_coll_rsag_order_t order, char **work,
                                  char **tmp)
{
    size_t recv = mca_coll_rsag_halving_recv_count(a->vdispl, a->size, a->rank, order);

    *work = mca_coll_rsag_sched_tmp(s, work_count);
    *tmp = mca_coll_rsag_sched_tmp(s, recv);
    return s->err;
}

int mca_coll_rsag_fold(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                       const char *input, char *work, char *tmp)
{
    int extra = a->size - mca_coll_rsag_pof2_floor(a->size);
    mca_coll_rsag_range_t whole = { 0, a->count }, lower, upper, keep, give;
    bool even = (0 == a->rank % 2);
    int peer = even ? a->rank + 1 : a->rank - 1;
    char *upper_work;

    if (a->rank >= 2 * extra) {
        return s->err;
    }
    mca_coll_rsag_split_halves(whole, &lower, &upper);
    keep = even ? lower : upper;
    give = even ? upper : lower;
    upper_work = mca_coll_rsag_elem(work, upper.off, a->extent);

    /* Both halves are reduced at once: even ranks the lower, odd the upper. */
    mca_coll_rsag_sched_sendrecv(s, a, mca_coll_rsag_elem(input, give.off, a->extent), give.cnt,
                                 peer, tmp, keep.cnt, peer);
    (void) mca_coll_rsag_sched_reduce3(s, tmp, mca_coll_rsag_elem(input, keep.off, a->extent),
                                       mca_coll_rsag_elem(work, keep.off, a->extent), keep.cnt);

    /* The odd rank hands its reduced half over and leaves the group. */
    if (even) {
        (void) mca_coll_rsag_sched_recv(s, a, upper_work, upper.cnt, peer);
    } else {
        (void) mca_coll_rsag_sched_send(s, a, upper_work, upper.cnt, peer);
    }
    mca_coll_rsag_sched_fence(s);
    return s->err;
}

int mca_coll_rsag_halving_rs(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                             const char *src, char *work, char *tmp,
                             const mca_coll_rsag_halving_step_t *steps, int nsteps, char *last)
{
    for (int k = 0; k < nsteps; ++k, src = work) {
        const mca_coll_rsag_halving_step_t *st = &steps[k];
        int peer = mca_coll_rsag_fold_rank(st->peer, a->size);
        char *dst = (NULL != last && k == nsteps - 1)
                        ? last : mca_coll_rsag_elem(work, st->keep.off, a->extent);

        /* tmp is free again: the reduction of the step before ran before
         * this receive is issued (steps are issued in order) */
        mca_coll_rsag_sched_sendrecv(s, a, mca_coll_rsag_elem(src, st->give.off, a->extent),
                                     st->give.cnt, peer, tmp, st->keep.cnt, peer);
        (void) mca_coll_rsag_sched_reduce3(s, tmp,
                                           mca_coll_rsag_elem(src, st->keep.off, a->extent),
                                           dst, st->keep.cnt);
    }
    return s->err;
}

int mca_coll_rsag_folded_rs(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                            const char *input, char *work, char *tmp,
                            mca_coll_rsag_order_t order, mca_coll_rsag_halving_step_t *steps,
                            int *nsteps, char *last)
{
    int pof2 = mca_coll_rsag_pof2_floor(a->size);
    int vrank = mca_coll_rsag_fold_vrank(a->rank, a->size);
    bool folded = a->rank < 2 * (a->size - pof2);

    *nsteps = 0;
    (void) mca_coll_rsag_fold(s, a, input, work, tmp);
    if (vrank < 0) {
        return s->err;
    }
    *nsteps = mca_coll_rsag_halving_pattern(a->vdispl, pof2, vrank, order, steps);
    return mca_coll_rsag_halving_rs(s, a, folded ? work : input, work, tmp, steps, *nsteps,
                                    last);
}

int mca_coll_rsag_doubling_allgather(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                     char *work, const mca_coll_rsag_halving_step_t *steps,
                                     int nsteps)
{
    for (int k = nsteps - 1; k >= 0; --k) {
        const mca_coll_rsag_halving_step_t *st = &steps[k];

        mca_coll_rsag_sched_sendrecv(s, a, mca_coll_rsag_elem(work, st->keep.off, a->extent),
                                     st->keep.cnt, mca_coll_rsag_fold_rank(st->peer, a->size),
                                     mca_coll_rsag_elem(work, st->give.off, a->extent),
                                     st->give.cnt, mca_coll_rsag_fold_rank(st->peer, a->size));
    }
    /* unfold: the odd ranks below 2r get the whole vector */
    if (a->rank < 2 * (a->size - mca_coll_rsag_pof2_floor(a->size))) {
        if (0 == a->rank % 2) {
            (void) mca_coll_rsag_sched_send(s, a, work, a->count, a->rank + 1);
        } else {
            (void) mca_coll_rsag_sched_recv(s, a, work, a->count, a->rank - 1);
        }
        mca_coll_rsag_sched_fence(s);
    }
    return s->err;
}

int mca_coll_rsag_unfold_blocks(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                const char *work)
{
    int extra = a->size - mca_coll_rsag_pof2_floor(a->size);
    mca_coll_rsag_range_t mine = mca_coll_rsag_block(a->displ, a->rank);

    if (a->rank < 2 * extra && 1 == a->rank % 2) {
        (void) mca_coll_rsag_sched_recv(s, a, a->rbuf, mine.cnt, a->rank - 1);
    } else {
        if (a->rank < 2 * extra) {
            mca_coll_rsag_range_t odd = mca_coll_rsag_block(a->displ, a->rank + 1);

            (void) mca_coll_rsag_sched_send(s, a, mca_coll_rsag_elem(work, odd.off, a->extent),
                                            odd.cnt, a->rank + 1);
        }
        /* while the neighbour's block is on its way */
        (void) mca_coll_rsag_sched_copy(s, mca_coll_rsag_elem(work, mine.off, a->extent),
                                        a->rbuf, mine.cnt);
    }
    mca_coll_rsag_sched_fence(s);
    return s->err;
}
