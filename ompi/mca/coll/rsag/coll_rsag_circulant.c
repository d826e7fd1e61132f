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
 *            in messages of at most coll_rsag_exchange_chunk_size bytes;
 *   send     the far run (blocks r + s_k .. r + s_(k+1) - 1) to up, from
 *            `input` in the first round, from work afterwards;
 *   reduce   each received message with ours of the same blocks into work
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
 * its messages cut and ordered the same way on both sides, and rounds are separated by
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

/* A run of blocks (its pieces, mca_coll_rsag_block_run) as messages: each
 * piece cut by mca_coll_rsag_even_chunk.  The walk gives them in order,
 * each with its offset in the vector (`vec`), in the run packed
 * (`packed`), and its length. */
typedef struct mca_coll_rsag_circulant_walk_t {
    mca_coll_rsag_range_t piece[2];
    int npieces;
    size_t chunk;
    int i;                      /* the walk: piece, its message, pieces before it */
    size_t j, before;
    size_t vec, packed, len;    /* the message */
} mca_coll_rsag_circulant_walk_t;

static mca_coll_rsag_circulant_walk_t mca_coll_rsag_circulant_walk(const mca_coll_rsag_args_t *a,
                                                                   mca_coll_rsag_vrange_t blocks,
                                                                   size_t chunk)
{
    mca_coll_rsag_circulant_walk_t w = { .chunk = chunk };

    w.npieces = mca_coll_rsag_block_run(a->displ, a->size, blocks, w.piece);
    return w;
}

/* The walk's next message; false after the last (and it starts again). */
static bool mca_coll_rsag_circulant_next(mca_coll_rsag_circulant_walk_t *w)
{
    while (w->i < w->npieces) {
        size_t cnt = w->piece[w->i].cnt;
        size_t m = mca_coll_rsag_even_chunks(cnt, w->chunk);

        if (w->j < m) {
            size_t at = mca_coll_rsag_even_chunk(cnt, m, w->j++, &w->len);

            w->vec = w->piece[w->i].off + at;
            w->packed = w->before + at;
            return true;
        }
        w->before += cnt;
        w->i++;
        w->j = 0;
    }
    w->i = 0;
    w->before = 0;
    return false;
}

/* Receives (`send` false) or sends of a run with `peer`, at their places
 * in `buf` (a vector) or packed at its start (`packed`); returns the
 * first step's index (the others follow it), -1 when none. */
static int mca_coll_rsag_circulant_post(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                        mca_coll_rsag_circulant_walk_t *w, bool send,
                                        const char *buf, bool packed, int peer)
{
    int first = -1;

    while (mca_coll_rsag_circulant_next(w)) {
        char *at = mca_coll_rsag_elem((char *) buf, packed ? w->packed : w->vec, a->extent);
        int step = send ? mca_coll_rsag_sched_send(s, a, at, w->len, peer)
                        : mca_coll_rsag_sched_recv(s, a, at, w->len, peer);

        first = (first < 0) ? step : first;
    }
    return first;
}

/* Reduce-scatter round k; `first`: the first round (reads input). */
static void mca_coll_rsag_circulant_rs_round(mca_coll_rsag_sched_t *s,
                                             const mca_coll_rsag_args_t *a, const int *skip,
                                             int k, bool first, size_t chunk, const char *input,
                                             char *work, char *tmp, char *out)
{
    mca_coll_rsag_circulant_round_t c = mca_coll_rsag_circulant_round(a->rank, a->size, skip, k);
    const char *src = first ? input : work;
    mca_coll_rsag_circulant_walk_t near = mca_coll_rsag_circulant_walk(a, c.near, chunk);
    mca_coll_rsag_circulant_walk_t far = mca_coll_rsag_circulant_walk(a, c.far, chunk);
    /* the receives first: message j's step is recv + j */
    int recv = mca_coll_rsag_circulant_post(s, a, &near, false, tmp, true, c.down);

    (void) mca_coll_rsag_circulant_post(s, a, &far, true, src, false, c.up);
    while (mca_coll_rsag_circulant_next(&near)) {
        /* the last round's near run is block r alone */
        char *dst = (0 == k && NULL != out)
                        ? mca_coll_rsag_elem(out, near.vec - a->displ[a->rank], a->extent)
                        : mca_coll_rsag_elem(work, near.vec, a->extent);
        int step = mca_coll_rsag_sched_reduce3(s, mca_coll_rsag_elem(tmp, near.packed, a->extent),
                                               mca_coll_rsag_elem(src, near.vec, a->extent), dst,
                                               near.len);

        mca_coll_rsag_sched_after(s, step, recv++);
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
    size_t chunk = mca_coll_rsag_exchange_chunk(a);

    for (int k = q - 1; k >= 0 && OMPI_SUCCESS == s->err; --k) {
        mca_coll_rsag_circulant_rs_round(s, a, skip, k, k == q - 1, chunk, input, work, tmp,
                                         out);
    }
    return s->err;
}

int mca_coll_rsag_circulant_allgather(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                      char *work)
{
    int skip[MCA_COLL_RSAG_MAX_STEPS + 1];
    int q = mca_coll_rsag_circulant_skips(a->size, skip);
    size_t chunk = mca_coll_rsag_exchange_chunk(a);

    for (int k = 0; k < q && OMPI_SUCCESS == s->err; ++k) {
        mca_coll_rsag_circulant_round_t c = mca_coll_rsag_circulant_round(a->rank, a->size,
                                                                          skip, k);
        mca_coll_rsag_circulant_walk_t near = mca_coll_rsag_circulant_walk(a, c.near, chunk);
        mca_coll_rsag_circulant_walk_t far = mca_coll_rsag_circulant_walk(a, c.far, chunk);

        (void) mca_coll_rsag_circulant_post(s, a, &far, false, work, false, c.up);
        (void) mca_coll_rsag_circulant_post(s, a, &near, true, work, false, c.down);
        mca_coll_rsag_sched_fence(s);
    }
    return s->err;
}
