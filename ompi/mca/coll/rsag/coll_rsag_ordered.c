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
 *   receive   slot j from rank j, every j != r, all posted at once, each
 *             in messages of at most coll_rsag_exchange_chunk_size bytes
 *             (mca_coll_rsag_even_chunk: below TCP's eager limit none waits
 *             for a rendezvous handshake)
 *   send      my piece of block (r + k) mod p to its owner, k = 1 .. p - 1
 *             (pairwise order: at every k each rank sends to a different
 *             one), in messages cut the same way
 *   fold      message by message: slot j = slot j-1 (op) slot j, j = 1 .. p
 *             - 1, each as soon as slot j's message has arrived (and slot
 *             0's for the first), in rank order; the last one into `out`
 *             (in place: after a fence, once every piece of the input is
 *             sent)
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
 *       carries (p - 1) n beta) + (p - 1) n gamma, n = n_r; a piece longer
 *       than a chunk adds messages, not rounds.
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
    size_t n = mine.cnt, chunk = mca_coll_rsag_exchange_chunk(a);
    /* every piece of my block has n elements: m messages each */
    size_t m = mca_coll_rsag_even_chunks(n, chunk);
    char *tmp = mca_coll_rsag_sched_tmp(s, (size_t) p * n);
    int first = -1;
    char *result = out;

    if (OMPI_SUCCESS != s->err) {
        return NULL;
    }
#define MCA_COLL_RSAG_SLOT(j, at) mca_coll_rsag_elem(tmp, (size_t) (j) * n + (at), a->extent)
/* the receive of message c of slot j (-1: my own piece, copied) */
#define MCA_COLL_RSAG_RECV_STEP(j, c) \
    ((j) == r || first < 0 ? -1 : first + (int) (((size_t) (j) - ((j) > r ? 1 : 0)) * m + (c)))
    if (n > 0) {
        (void) mca_coll_rsag_sched_copy(s, mca_coll_rsag_elem(a->input, mine.off, a->extent),
                                        MCA_COLL_RSAG_SLOT(r, 0), n);
    }
    /* the receives first, one step each, by rank then message (step
     * first + j' m + c, j' = j less one past my own): every piece has its
     * place before any is sent */
    for (int j = 0; j < p && n > 0; ++j) {
        if (j != r) {
            int step = mca_coll_rsag_sched_cut(s, a, false, MCA_COLL_RSAG_SLOT(j, 0), n, m, j);

            first = (first < 0) ? step : first;
        }
    }
    for (int k = 1; k < p; ++k) {
        int t = (r + k) % p;
        mca_coll_rsag_range_t b = mca_coll_rsag_block(a->displ, t);

        (void) mca_coll_rsag_sched_cut(s, a, true, mca_coll_rsag_elem(a->input, b.off, a->extent),
                                       b.cnt, mca_coll_rsag_even_chunks(b.cnt, chunk), t);
    }
    if (n > 0 && MCA_COLL_RSAG_REPRODUCIBLE_EXACT == a->reproducible) {
        /* exact (the row folds whole): all p pieces at once, after every
         * receive and send (in place, out is the input being sent) */
        result = (NULL != out) ? out : MCA_COLL_RSAG_SLOT(p - 1, 0);
        (void) mca_coll_rsag_exact_fold_step(s, a, tmp, n, p, result);
    } else if (n > 0) {
        /* message by message, each in rank order: message c of slot j
         * folds once it arrived and message c of slot j - 1 was folded
         * (listed before it; a reduction runs when issued).  In place the
         * last folds write `out`, which may be input still being sent:
         * they go in a second phase after a fence, the others as their
         * messages arrive. */
        int split = (NULL != out && a->in_place) ? p - 1 : p;

        for (int phase = 0; phase < 2; ++phase) {
            int j0 = (0 == phase) ? 1 : split, j1 = (0 == phase) ? split : p;

            if (1 == phase && j0 < j1) {
                mca_coll_rsag_sched_fence(s);
            }
            for (size_t c = 0; c < m && j0 < j1; ++c) {
                size_t len, at = mca_coll_rsag_even_chunk(n, m, c, &len);

                for (int j = j0; j < j1; ++j) {
                    int step;

                    if (j == p - 1 && NULL != out) {
                        step = mca_coll_rsag_sched_reduce3(
                            s, MCA_COLL_RSAG_SLOT(j - 1, at), MCA_COLL_RSAG_SLOT(j, at),
                            mca_coll_rsag_elem(out, at, a->extent), len);
                    } else {
                        step = mca_coll_rsag_sched_reduce(s, MCA_COLL_RSAG_SLOT(j - 1, at),
                                                          MCA_COLL_RSAG_SLOT(j, at), len);
                    }
                    mca_coll_rsag_sched_after(s, step, MCA_COLL_RSAG_RECV_STEP(j, c));
                    if (1 == j) {
                        mca_coll_rsag_sched_after(s, step, MCA_COLL_RSAG_RECV_STEP(0, c));
                    }
                }
            }
        }
        if (NULL == out) {
            result = MCA_COLL_RSAG_SLOT(p - 1, 0);
        }
    } else {
        result = NULL;
    }
#undef MCA_COLL_RSAG_SLOT
#undef MCA_COLL_RSAG_RECV_STEP
    mca_coll_rsag_sched_fence(s);
    return OMPI_SUCCESS == s->err ? result : NULL;
}
