/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Reduce by a binomial tree.
 *
 * Idea: number the ranks so that the tree root is vrank 0.  At distance
 * 2^k (k = 0, 1, ...) a vrank whose bit k is set sends its partial result
 * to vrank - 2^k and is done; the others receive from vrank + 2^k (if it
 * exists) and combine.  After ceil(log2 p) steps vrank 0 holds the result.
 *
 *   p = 6 (vranks)   distance 1: 1->0  3->2  5->4
 *                    distance 2: 2->0  (6 does not exist for 4)
 *                    distance 4: 4->0
 *
 * Order: vrank v holds the combination of vranks [v, v + 2^k) and
 * receives [v + 2^k, ...), so each combine is (lower) op (higher).  For a
 * commutative op the tree is rotated to put the root at vrank 0; for a
 * non-commutative op vrank = rank, so the order is the rank order, and
 * rank 0 forwards the result to the root when the root is not 0.
 *
 * Cost: ceil(log2 p) (alpha + n beta + n gamma)
 *       (+ alpha + n beta for the forward: non-commutative op, root != 0).
 *       Best for small n: the root receives log2 p whole vectors.
 * Restrictions: none.
 * Memory: leaves none; the root at most one temporary of count elements
 *       (it works in recvbuf); other inner vranks two.
 * Steps: receive from a child, combine (named after the receive), the
 *       next child's receive after it in the list (it lands in the buffer
 *       the combine read), ..., send to the parent; so one child at a
 *       time, as the two buffers allow.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag.h"

/* The pair of buffers a vrank with `nchildren` children accumulates in:
 * bufs[0] (recvbuf on the root) and bufs[1], each combine going into the
 * one that does not hold the partial result `acc`.  The temporaries are
 * taken from the schedule before any message, and every rank asks for
 * both (empty when not needed): a failed allocation, met at the same
 * request on every rank, then leaves no peer waiting. */
static void mca_coll_rsag_binomial_buffers(mca_coll_rsag_sched_t *s, char *bufs[2],
                                           const char *acc, int nchildren, size_t count)
{
    bool need[2] = { false, false };
    int holder = (bufs[0] == acc) ? 0 : -1;

    /* After two combines the pair alternates between buffers that exist. */
    for (int c = 0; c < nchildren && c < 2; ++c) {
        holder = (0 == holder) ? 1 : 0;
        need[holder] = need[holder] || NULL == bufs[holder];
    }
    for (int i = 0; i < 2; ++i) {
        char *tmp = mca_coll_rsag_sched_tmp(s, need[i] ? count : 0);
        if (need[i]) {
            bufs[i] = tmp;
        }
    }
}

int mca_coll_rsag_reduce_binomial(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    int tree_root = ompi_op_is_commute(a->op) ? a->root : 0;
    int vrank = mca_coll_rsag_rotate(a->rank, tree_root, a->size);
    int limit = mca_coll_rsag_binomial_child_limit(vrank, a->size);
    /* The root accumulates in recvbuf; others in temporaries. */
    char *bufs[2] = { a->rank == a->root ? a->rbuf : NULL, NULL };
    char *acc = (char *) a->input;
    int send = -1;

    mca_coll_rsag_binomial_buffers(s, bufs, acc, mca_coll_rsag_binomial_children(vrank, a->size),
                                   a->count);
    if (OMPI_SUCCESS != s->err) {
        return s->err;
    }

    /* Children first (vrank + 2^k below my lowest set bit), then the
     * parent.  Each receive follows the combine before it in the list (it
     * lands in the buffer that combine read), each combine names its
     * receive. */
    for (int mask = 1; mask < limit && vrank + mask < a->size; mask <<= 1) {
        int child = mca_coll_rsag_unrotate(vrank + mask, tree_root, a->size);
        char *in = bufs[(bufs[0] == acc) ? 1 : 0];
        int recv = mca_coll_rsag_sched_recv(s, a, in, a->count, child);

        /* The child's part comes from higher vranks: in = acc (op) in.
         * Always into the receive buffer: acc may be the read-only send
         * buffer. */
        mca_coll_rsag_sched_after(s, mca_coll_rsag_sched_reduce(s, acc, in, a->count), recv);
        acc = in;
    }
    if (vrank > 0) {
        int parent = mca_coll_rsag_unrotate(mca_coll_rsag_binomial_parent(vrank), tree_root,
                                            a->size);
        send = mca_coll_rsag_sched_send(s, a, acc, a->count, parent);
    }

    /* Non-commutative op with root != 0: rank 0 forwards the result. */
    if (tree_root != a->root) {
        if (0 == vrank) {
            (void) mca_coll_rsag_sched_send(s, a, acc, a->count, a->root);
        } else if (a->rank == a->root) {
            /* into recvbuf, which the send to the parent may be reading */
            mca_coll_rsag_sched_after(s, mca_coll_rsag_sched_recv(s, a, a->rbuf, a->count, 0),
                                      send);
        }
    } else if (a->rank == a->root) {
        (void) mca_coll_rsag_sched_copy(s, acc, a->rbuf, a->count);
    }
    return s->err;
}
