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
 *       is chosen for.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag.h"
#include "coll_rsag_op.h"
#include "coll_rsag_p2p.h"

/* State of one rank's recursive doubling: where the partial result is,
 * and the temporary (allocated up front when a step needs it) that
 * incoming vectors land in when they cannot go to the receive buffer. */
typedef struct mca_coll_rsag_rd_t {
    const mca_coll_rsag_args_t *a;
    char *acc;              /* partial result: a->input until the first combine */
    char *in;               /* free buffer for the next incoming vector */
    mca_coll_rsag_tmp_t tmp;
} mca_coll_rsag_rd_t;

/* Receive the vector of `peer` (sending ours to it first when `exchange`)
 * and fold it into the partial result in rank order.
 *
 * While the partial result is still the caller's input (read only) and
 * the receive buffer is a different buffer, the vector is received into
 * the receive buffer and combined there: rbuf = input (op) rbuf, which is
 * rank order when the peer is the upper rank, and allowed either way for
 * a commutative op.  Otherwise it is received into the temporary and
 * combined in rank order. */
static int mca_coll_rsag_rd_step(mca_coll_rsag_rd_t *s, int peer, bool peer_is_lower,
                                 bool exchange)
{
    const mca_coll_rsag_args_t *a = s->a;
    /* the first combine, while the partial result is still the input */
    bool first = s->acc == a->input && !a->in_place;
    bool direct = first && (!peer_is_lower || ompi_op_is_commute(a->op));
    char *target = direct ? a->rbuf : s->in;     /* s->in: mca_coll_rsag_rd_needs_tmp */
    int err;

    err = exchange ? mca_coll_rsag_sendrecv(s->acc, a->count, peer, target, a->count, peer,
                                            a->dtype, a->tag, a->comm)
                   : mca_coll_rsag_recv(target, a->count, a->dtype, peer, a->tag, a->comm);
    if (OMPI_SUCCESS != err) {
        return err;
    }
    if (direct) {
        mca_coll_rsag_op_reduce(a->op, a->input, a->rbuf, a->count, a->dtype);
        s->acc = a->rbuf;
    } else if (first) {
        /* Upper rank, non-commutative op: rbuf = in (op) input. */
        mca_coll_rsag_op_reduce3(a->op, s->in, a->input, a->rbuf, a->count, a->dtype);
        s->acc = a->rbuf;
    } else {
        char *result = mca_coll_rsag_op_reduce_ordered(a->op, a->dtype, a->count, s->in, s->acc,
                                                       peer_is_lower);
        if (result != s->acc) {
            s->in = s->acc;
            s->acc = result;
        }
    }
    return OMPI_SUCCESS;
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

static int mca_coll_rsag_allreduce_recursive_doubling_blocking(const mca_coll_rsag_args_t *a)
{
    int pof2 = mca_coll_rsag_pof2_floor(a->size);
    int extra = a->size - pof2;
    int vrank = mca_coll_rsag_fold_vrank(a->rank, a->size);
    mca_coll_rsag_rd_t s = { a, (char *) a->input, NULL, MCA_COLL_RSAG_TMP_INIT };
    bool needs_tmp = mca_coll_rsag_rd_needs_tmp(vrank, pof2, a->rank < 2 * extra, a->in_place,
                                                ompi_op_is_commute(a->op));
    int err;

    /* Every rank asks for the temporary (empty where no step needs it)
     * before its first message: a failed allocation meets every rank at the
     * same request, and no peer is left waiting. */
    err = mca_coll_rsag_tmp_alloc(&s.tmp, needs_tmp ? a->count : 0, a->dtype);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }
    s.in = s.tmp.buf;

    /* Fold: odd ranks below 2r hand their vector to rank - 1 and get the
     * result back at the end. */
    if (vrank < 0) {
        err = mca_coll_rsag_send(a->input, a->count, a->dtype, a->rank - 1, a->tag, a->comm);
        if (OMPI_SUCCESS == err) {
            err = mca_coll_rsag_recv(a->rbuf, a->count, a->dtype, a->rank - 1, a->tag, a->comm);
        }
        goto cleanup;
    }
    if (a->rank < 2 * extra) {
        err = mca_coll_rsag_rd_step(&s, a->rank + 1, false, false);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }

    /* Recursive doubling among the p' vranks. */
    for (int mask = 1; mask < pof2; mask <<= 1) {
        int peer_vrank = vrank ^ mask;

        err = mca_coll_rsag_rd_step(&s, mca_coll_rsag_fold_rank(peer_vrank, a->size),
                                    peer_vrank < vrank, true);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }
    err = mca_coll_rsag_copy(a->dtype, a->count, a->rbuf, s.acc);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }

    /* Unfold: hand the result back to the odd neighbour. */
    if (a->rank < 2 * extra) {
        err = mca_coll_rsag_send(a->rbuf, a->count, a->dtype, a->rank + 1, a->tag, a->comm);
    }

cleanup:
    mca_coll_rsag_tmp_free(&s.tmp);
    return err;
}

/* TRANSITION: one blocking step until written as a schedule. */
int mca_coll_rsag_allreduce_recursive_doubling(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    (void) mca_coll_rsag_sched_run_step(s, mca_coll_rsag_allreduce_recursive_doubling_blocking, a);
    return s->err;
}
