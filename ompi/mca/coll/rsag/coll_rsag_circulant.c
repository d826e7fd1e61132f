/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The circulant reduce-scatter and allgather as schedules (see
 * coll_rsag_circulant.h; the pattern is in coll_rsag_index.h).
 *
 * A reduce-scatter round k, on rank r, with up = r + s_k, down = r - s_k:
 *
 *   receive  the near run (blocks r .. r + n_k - 1) from down into tmp,
 *            one message per piece;
 *   send     the far run (blocks r + s_k .. r + s_(k+1) - 1) to up, from
 *            `input` in the first round, from work afterwards;
 *   reduce   each received piece with ours of the same blocks into work
 *            (the first round: input (op) tmp -> work, so the input is
 *            never copied whole), into `out` in the last round; each names
 *            its receive;
 *   copy     the first round only, when p is odd: the one held block
 *            nobody sends us this round (r + n, held, not near) from input
 *            into work;
 *   fence    the next round reads what this one reduced.
 *
 * The near and far runs are disjoint (n_k <= s_k and s_(k+1) <= p), so in
 * a round nothing written is read by a send in flight.  An allgather
 * round k sends the near run to down from work and receives the far run
 * from up straight into work; a fence between rounds.
 *
 * Messages: a pair of ranks meets at most once per round per direction,
 * its pieces in the same order on both sides, and rounds are separated by
 * fences, so MPI's ordering between a pair matches every message with its
 * receive under the schedule's one tag.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_circulant.h"

size_t mca_coll_rsag_circulant_recv_count(const mca_coll_rsag_args_t *a)
{
    int skip[MCA_COLL_RSAG_MAX_STEPS + 1];
    int q = mca_coll_rsag_circulant_skips(a->size, skip);
    size_t max = 0;

    for (int k = 0; k < q; ++k) {
        mca_coll_rsag_circulant_round_t c = mca_coll_rsag_circulant_round(a->rank, a->size,
                                                                          skip, k);
        mca_coll_rsag_range_t piece[2];
        int np = mca_coll_rsag_block_run(a->displ, a->size, c.near, piece);
        size_t n = 0;

        for (int i = 0; i < np; ++i) {
            n += piece[i].cnt;
        }
        max = n > max ? n : max;
    }
    return max;
}

/* Reduce-scatter round k; `first`: the first round (reads input). */
static void mca_coll_rsag_circulant_rs_round(mca_coll_rsag_sched_t *s,
                                             const mca_coll_rsag_args_t *a, const int *skip,
                                             int k, bool first, const char *input, char *work,
                                             char *tmp, char *out)
{
    mca_coll_rsag_circulant_round_t c = mca_coll_rsag_circulant_round(a->rank, a->size, skip, k);
    const char *src = first ? input : work;
    mca_coll_rsag_range_t near[2], far[2];
    int nnear = mca_coll_rsag_block_run(a->displ, a->size, c.near, near);
    int nfar = mca_coll_rsag_block_run(a->displ, a->size, c.far, far);
    int recv[2];
    size_t off = 0;

    for (int i = 0; i < nnear; off += near[i].cnt, ++i) {
        recv[i] = mca_coll_rsag_sched_recv(s, a, mca_coll_rsag_elem(tmp, off, a->extent),
                                           near[i].cnt, c.down);
    }
    for (int i = 0; i < nfar; ++i) {
        (void) mca_coll_rsag_sched_send(s, a, mca_coll_rsag_elem(src, far[i].off, a->extent),
                                        far[i].cnt, c.up);
    }
    off = 0;
    for (int i = 0; i < nnear; off += near[i].cnt, ++i) {
        /* the last round's near run is block r alone */
        char *dst = (0 == k && NULL != out)
                        ? mca_coll_rsag_elem(out, near[i].off - a->displ[a->rank], a->extent)
                        : mca_coll_rsag_elem(work, near[i].off, a->extent);
        int step = mca_coll_rsag_sched_reduce3(s, mca_coll_rsag_elem(tmp, off, a->extent),
                                               mca_coll_rsag_elem(src, near[i].off, a->extent),
                                               dst, near[i].cnt);

        mca_coll_rsag_sched_after(s, step, recv[i]);
    }
    if (first && k > 0) {
        /* held after this round but not reduced in it: s_k - n_k blocks
         * (one when p is odd) */
        mca_coll_rsag_vrange_t kept = { (int) (((long long) a->rank + c.near.n) % a->size),
                                        skip[k] - c.near.n };
        mca_coll_rsag_range_t piece[2];
        int np = mca_coll_rsag_block_run(a->displ, a->size, kept, piece);

        for (int i = 0; i < np; ++i) {
            (void) mca_coll_rsag_sched_copy(s, mca_coll_rsag_elem(input, piece[i].off, a->extent),
                                            mca_coll_rsag_elem(work, piece[i].off, a->extent),
                                            piece[i].cnt);
        }
    }
    mca_coll_rsag_sched_fence(s);
}

int mca_coll_rsag_circulant_rs(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                               const char *input, char *work, char *tmp, char *out)
{
    int skip[MCA_COLL_RSAG_MAX_STEPS + 1];
    int q = mca_coll_rsag_circulant_skips(a->size, skip);

    for (int k = q - 1; k >= 0 && OMPI_SUCCESS == s->err; --k) {
        mca_coll_rsag_circulant_rs_round(s, a, skip, k, k == q - 1, input, work, tmp, out);
    }
    return s->err;
}

int mca_coll_rsag_circulant_allgather(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                      char *work)
{
    int skip[MCA_COLL_RSAG_MAX_STEPS + 1];
    int q = mca_coll_rsag_circulant_skips(a->size, skip);

    for (int k = 0; k < q && OMPI_SUCCESS == s->err; ++k) {
        mca_coll_rsag_circulant_round_t c = mca_coll_rsag_circulant_round(a->rank, a->size,
                                                                          skip, k);
        mca_coll_rsag_range_t near[2], far[2];
        int nnear = mca_coll_rsag_block_run(a->displ, a->size, c.near, near);
        int nfar = mca_coll_rsag_block_run(a->displ, a->size, c.far, far);

        for (int i = 0; i < nfar; ++i) {
            (void) mca_coll_rsag_sched_recv(s, a, mca_coll_rsag_elem(work, far[i].off, a->extent),
                                            far[i].cnt, c.up);
        }
        for (int i = 0; i < nnear; ++i) {
            (void) mca_coll_rsag_sched_send(s, a,
                                            mca_coll_rsag_elem(work, near[i].off, a->extent),
                                            near[i].cnt, c.down);
        }
        mca_coll_rsag_sched_fence(s);
    }
    return s->err;
}
