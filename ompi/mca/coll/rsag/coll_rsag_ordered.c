/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The rank-order reduce-scatter; see coll_rsag_ordered.h.
 *
 * Steps of rank r (n = n_r, the size of its block; slot j of a temporary
 * of p slots holds x_j[r]):
 *
 *   copy      my own piece x_r[r] into slot r
 *   receive   slot j from rank j, every j != r, all posted at once
 *   send      my piece of block (r + k) mod p to its owner, k = 1 .. p - 1
 *             (pairwise order: at every k each rank sends to a different one)
 *   fold      slot j = slot j-1 (op) slot j, j = 1 .. p - 1, each as soon as
 *             slot j has arrived (and slot 0 for the first), in rank order;
 *             the last one into `out` (in place: after a fence, once every
 *             piece of the input is sent)
 *   fence
 *
 * The fold runs `dst = acc (op) piece` with the partial result on the left
 * (ompi_op_reduce's inout is the right operand): MPI's order for every op.
 * Which rank folds a block, in which order the pieces arrive and over
 * which transport do not change a bit of it.  Under coll_rsag_reproducible
 * = exact the p pieces are folded at once by exact's sum instead, after a
 * fence (mca_coll_rsag_exact_fold_step): the bits then depend only on the
 * multiset of the pieces.
 *
 * Cost: (p - 1) alpha (the messages are all in flight; the receiver's link
 *       carries (p - 1) n beta) + (p - 1) n gamma, n = n_r.
 * Memory: p n_r elements (the pieces, folded in place).
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_exact.h"
#include "coll_rsag_ordered.h"
#include "coll_rsag_reproducible.h"

char *mca_coll_rsag_ordered_rs(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                               char *out)
{
    int p = a->size, r = a->rank;
    mca_coll_rsag_range_t mine = mca_coll_rsag_block(a->displ, r);
    size_t n = mine.cnt;
    char *tmp = mca_coll_rsag_sched_tmp(s, (size_t) p * n);
    int first = -1;
    char *result = out;

    if (OMPI_SUCCESS != s->err) {
        return NULL;
    }
#define MCA_COLL_RSAG_SLOT(j) mca_coll_rsag_elem(tmp, (size_t) (j) * n, a->extent)
/* the receive of slot j (-1: my own piece, copied) */
#define MCA_COLL_RSAG_RECV_STEP(j) ((j) == r || first < 0 ? -1 : first + (j) - ((j) > r ? 1 : 0))
    if (n > 0) {
        (void) mca_coll_rsag_sched_copy(s, mca_coll_rsag_elem(a->input, mine.off, a->extent),
                                        MCA_COLL_RSAG_SLOT(r), n);
    }
    /* the receives first, one step each in rank order (step first + j,
     * less one past my own): every piece has its place before any is sent */
    if (n > 0) {
        for (int j = 0; j < p; ++j) {
            if (j != r) {
                int step = mca_coll_rsag_sched_recv(s, a, MCA_COLL_RSAG_SLOT(j), n, j);
                first = (first < 0) ? step : first;
            }
        }
    }
    for (int k = 1; k < p; ++k) {
        int t = (r + k) % p;
        mca_coll_rsag_range_t b = mca_coll_rsag_block(a->displ, t);

        if (b.cnt > 0) {
            (void) mca_coll_rsag_sched_send(s, a, mca_coll_rsag_elem(a->input, b.off, a->extent),
                                            b.cnt, t);
        }
    }
    if (n > 0 && MCA_COLL_RSAG_REPRODUCIBLE_EXACT == a->reproducible) {
        /* exact (the row folds whole): all p pieces at once, after every
         * receive and send (in place, out is the input being sent) */
        result = (NULL != out) ? out : MCA_COLL_RSAG_SLOT(p - 1);
        (void) mca_coll_rsag_exact_fold_step(s, a, tmp, n, p, result);
    } else if (n > 0) {
        for (int j = 1; j < p; ++j) {
            int step;

            if (j == p - 1 && NULL != out) {
                if (a->in_place) {
                    mca_coll_rsag_sched_fence(s);   /* out may be input still being sent */
                }
                step = mca_coll_rsag_sched_reduce3(s, MCA_COLL_RSAG_SLOT(j - 1),
                                                   MCA_COLL_RSAG_SLOT(j), out, n);
            } else {
                step = mca_coll_rsag_sched_reduce(s, MCA_COLL_RSAG_SLOT(j - 1),
                                                  MCA_COLL_RSAG_SLOT(j), n);
            }
            /* slot j-1 was received (j = 1) or folded by the step before;
             * slot j is received: the step waits for both receives */
            mca_coll_rsag_sched_after(s, step, MCA_COLL_RSAG_RECV_STEP(j));
            if (1 == j) {
                mca_coll_rsag_sched_after(s, step, MCA_COLL_RSAG_RECV_STEP(0));
            }
        }
        if (NULL == out) {
            result = MCA_COLL_RSAG_SLOT(p - 1);
        }
    } else {
        result = NULL;
    }
#undef MCA_COLL_RSAG_SLOT
#undef MCA_COLL_RSAG_RECV_STEP
    mca_coll_rsag_sched_fence(s);
    return OMPI_SUCCESS == s->err ? result : NULL;
}
