/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Allreduce by recursive doubling.
 *
 * Idea: fold p ranks onto p' = 2^floor(log2 p): each odd rank below 2r
 * (r = p - p') hands its whole vector to its even left neighbour.  The p'
 * remaining ranks then exchange whole vectors at distances 1, 2, 4, ...
 * and combine; after log2(p') steps every one holds the result, which the
 * even ranks finally hand back to their odd neighbours.
 *
 *   p = 6, r = 2         ranks 0  1  2  3  4  5
 *   fold                       0<-1  2<-3  .  .     vranks 0 . 1 . 2 3
 *   distance 1 (vranks)        v0<->v1     v2<->v3
 *   distance 2 (vranks)        v0<->v2     v1<->v3
 *   unfold                     0->1  2->3
 *
 * Order: a vrank stands for a contiguous run of ranks, and every combine
 * is (lower ranks) op (higher ranks), so non-commutative ops are right and
 * every rank computes bit-identical results.
 *
 * Cost: (log2 p' + 2e) alpha + (log2 p' + 2e) n beta + (log2 p' + e) n gamma,
 *       e = 1 if p is not a power of two, else 0.  Best for small n.
 * Restrictions: none.
 * Memory: one temporary of count elements, allocated before the first
 *       message, and only when a step needs it: none on folded-away ranks, and none at all for p = 2
 *       (or p = 3 on rank 2) unless the op is non-commutative on the upper
 *       rank or the call is in place.  The send buffer is never copied:
 *       the first vector received goes straight into the receive buffer
 *       and is combined there with the send buffer.  This keeps malloc,
 *       free and a copy off the path of the small messages this algorithm
 *       is chosen for.  Which buffer each vector lands in is decided while
 *       the schedule is described.
 * Steps: each round is a receive and a send, a fence (the combine may
 *       overwrite the vector sent), then the combine; the folded-away rank
 *       sends, and receives after a fence (in place, into what it sent).
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag.h"

/* One rank's recursive doubling being described: where the partial result
 * is, and the free buffer the next incoming vector lands in when it cannot
 * go to the receive buffer.  Both are decided here, once, so the schedule
 * only moves data. */
typedef struct mca_coll_rsag_rd_t {
    mca_coll_rsag_sched_t *s;
    const mca_coll_rsag_args_t *a;
    char *acc;              /* partial result: a->input until the first combine */
    char *in;               /* free buffer for the next incoming vector */
} mca_coll_rsag_rd_t;

/* Receive the vector of `peer` (sending ours to it at the same time when
 * `exchange`), then fold it into the partial result in rank order.
 *
 * While the partial result is still the caller's input (read only) and
 * the receive buffer is a different buffer, the vector is received into
 * the receive buffer and combined there: rbuf = input (op) rbuf, which is
 * rank order when the peer is the upper rank, and allowed either way for
 * a commutative op.  Otherwise it is received into the temporary and
 * combined in rank order: into the partial result, or (non-commutative op,
 * vector from the upper rank) into the temporary, the two then swapping
 * roles. */
static void mca_coll_rsag_rd_step(mca_coll_rsag_rd_t *rd, int peer, bool peer_is_lower,
                                  bool exchange)
{
    mca_coll_rsag_sched_t *s = rd->s;
    const mca_coll_rsag_args_t *a = rd->a;
    bool commutative = ompi_op_is_commute(a->op);
    /* the first combine, while the partial result is still the input */
    bool first = rd->acc == a->input && !a->in_place;
    bool direct = first && (!peer_is_lower || commutative);
    char *target = direct ? a->rbuf : rd->in;     /* rd->in: mca_coll_rsag_rd_needs_tmp */

    /* the fence: the vector is here and ours is sent (the combine may
     * overwrite it) */
    if (exchange) {
        mca_coll_rsag_sched_sendrecv(s, a, rd->acc, a->count, peer, target, a->count, peer);
    } else {
        (void) mca_coll_rsag_sched_recv(s, a, target, a->count, peer);
        mca_coll_rsag_sched_fence(s);
    }
    if (direct) {
        (void) mca_coll_rsag_sched_reduce(s, a->input, a->rbuf, a->count);
        rd->acc = a->rbuf;
    } else if (first) {
        /* Upper rank, non-commutative op: rbuf = in (op) input. */
        (void) mca_coll_rsag_sched_reduce3(s, rd->in, a->input, a->rbuf, a->count);
        rd->acc = a->rbuf;
    } else if (peer_is_lower || commutative) {
        (void) mca_coll_rsag_sched_reduce(s, rd->in, rd->acc, a->count);  /* acc = in (op) acc */
    } else {
        char *result = rd->in;

        (void) mca_coll_rsag_sched_reduce(s, rd->acc, result, a->count);  /* in = acc (op) in */
        rd->in = rd->acc;
        rd->acc = result;
    }
}

/* Whether some step of a rank (vrank among pof2; `folds`: it receives
 * its odd neighbour's vector first) cannot receive into rbuf (see
 * mca_coll_rsag_rd_step): in place, more than one step (the fold's receive
 * counts), or a non-commutative op whose first peer is the lower rank. */
static bool mca_coll_rsag_rd_needs_tmp(int vrank, int pof2, bool folds, bool in_place,
                                       bool commutative)
{
    int steps = mca_coll_rsag_log2_floor(pof2) + (folds ? 1 : 0);
    bool first_peer_lower = !folds && 1 == (vrank & 1);

    if (vrank < 0) {
        return false;
    }
    return in_place || steps > 1 || (first_peer_lower && !commutative);
}

int mca_coll_rsag_allreduce_recursive_doubling(mca_coll_rsag_sched_t *s,
                                               const mca_coll_rsag_args_t *a)
{
    int pof2 = mca_coll_rsag_pof2_floor(a->size);
    int extra = a->size - pof2;
    int vrank = mca_coll_rsag_fold_vrank(a->rank, a->size);
    mca_coll_rsag_rd_t rd = { s, a, (char *) a->input, NULL };
    bool needs_tmp = mca_coll_rsag_rd_needs_tmp(vrank, pof2, a->rank < 2 * extra, a->in_place,
                                                ompi_op_is_commute(a->op));

    /* Every rank asks for the temporary (empty where no step needs it)
     * before its first message: a failed allocation meets every rank at the
     * same request, and no peer is left waiting. */
    rd.in = mca_coll_rsag_sched_tmp(s, needs_tmp ? a->count : 0);
    if (OMPI_SUCCESS != s->err) {
        return s->err;
    }

    /* Fold: odd ranks below 2r hand their vector to rank - 1 and get the
     * result back at the end (into rbuf, which may be what they sent). */
    if (vrank < 0) {
        (void) mca_coll_rsag_sched_send(s, a, a->input, a->count, a->rank - 1);
        mca_coll_rsag_sched_fence(s);
        (void) mca_coll_rsag_sched_recv(s, a, a->rbuf, a->count, a->rank - 1);
        return s->err;
    }
    if (a->rank < 2 * extra) {
        mca_coll_rsag_rd_step(&rd, a->rank + 1, false, false);
    }

    /* Recursive doubling among the p' vranks: one exchange and combine per
     * round, each after the fence of the one before. */
    for (int mask = 1; mask < pof2; mask <<= 1) {
        int peer_vrank = vrank ^ mask;

        mca_coll_rsag_rd_step(&rd, mca_coll_rsag_fold_rank(peer_vrank, a->size),
                              peer_vrank < vrank, true);
    }
    (void) mca_coll_rsag_sched_copy(s, rd.acc, a->rbuf, a->count);

    /* Unfold: hand the result back to the odd neighbour. */
    if (a->rank < 2 * extra) {
        (void) mca_coll_rsag_sched_send(s, a, a->rbuf, a->count, a->rank + 1);
    }
    return s->err;
}
