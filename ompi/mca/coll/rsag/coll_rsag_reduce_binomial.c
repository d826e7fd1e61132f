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
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag.h"
#include "coll_rsag_op.h"
#include "coll_rsag_p2p.h"

/* The pair of buffers a vrank with `nchildren` children accumulates in:
 * bufs[0] (recvbuf on the root) and bufs[1], each combine going into the
 * one that does not hold the partial result `acc`.  The temporaries are
 * taken before the first message, and every rank asks for both (empty
 * when not needed): a failed allocation, met at the same request on every
 * rank, then leaves no peer waiting. */
static int mca_coll_rsag_binomial_buffers(char *bufs[2], mca_coll_rsag_tmp_t tmps[2],
                                          const char *acc, int nchildren, size_t count,
                                          struct ompi_datatype_t *dtype)
{
    bool need[2] = { false, false };
    int holder = (bufs[0] == acc) ? 0 : -1;
    int err = OMPI_SUCCESS;

    /* After two combines the pair alternates between buffers that exist. */
    for (int c = 0; c < nchildren && c < 2; ++c) {
        holder = (0 == holder) ? 1 : 0;
        need[holder] = need[holder] || NULL == bufs[holder];
    }
    for (int i = 0; i < 2 && OMPI_SUCCESS == err; ++i) {
        err = mca_coll_rsag_tmp_alloc(&tmps[i], need[i] ? count : 0, dtype);
        if (need[i]) {
            bufs[i] = tmps[i].buf;
        }
    }
    return err;
}

static int mca_coll_rsag_reduce_binomial_blocking(const mca_coll_rsag_args_t *a)
{
    int tree_root = ompi_op_is_commute(a->op) ? a->root : 0;
    int vrank = mca_coll_rsag_rotate(a->rank, tree_root, a->size);
    int limit = mca_coll_rsag_binomial_child_limit(vrank, a->size);
    mca_coll_rsag_tmp_t tmps[2] = { MCA_COLL_RSAG_TMP_INIT, MCA_COLL_RSAG_TMP_INIT };
    /* The root accumulates in recvbuf; others in temporaries. */
    char *bufs[2] = { a->rank == a->root ? a->rbuf : NULL, NULL };
    char *acc = (char *) a->input;
    int err;

    err = mca_coll_rsag_binomial_buffers(bufs, tmps, acc,
                                         mca_coll_rsag_binomial_children(vrank, a->size),
                                         a->count, a->dtype);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }

    /* Children first (vrank + 2^k below my lowest set bit), then the parent. */
    for (int mask = 1; mask < limit && vrank + mask < a->size; mask <<= 1) {
        int child = mca_coll_rsag_unrotate(vrank + mask, tree_root, a->size);
        char *in = bufs[(bufs[0] == acc) ? 1 : 0];

        err = mca_coll_rsag_recv(in, a->count, a->dtype, child, a->tag, a->comm);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
        /* The child's part comes from higher vranks: in = acc (op) in.
         * Always into the receive buffer: acc may be the read-only send
         * buffer. */
        mca_coll_rsag_op_reduce(a->op, acc, in, a->count, a->dtype);
        acc = in;
    }
    if (vrank > 0) {
        int parent = mca_coll_rsag_unrotate(mca_coll_rsag_binomial_parent(vrank), tree_root,
                                            a->size);
        err = mca_coll_rsag_send(acc, a->count, a->dtype, parent, a->tag, a->comm);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }

    /* Non-commutative op with root != 0: rank 0 forwards the result. */
    if (tree_root != a->root) {
        if (0 == vrank) {
            err = mca_coll_rsag_send(acc, a->count, a->dtype, a->root, a->tag, a->comm);
        } else if (a->rank == a->root) {
            err = mca_coll_rsag_recv(a->rbuf, a->count, a->dtype, 0, a->tag, a->comm);
        }
    } else if (a->rank == a->root) {
        err = mca_coll_rsag_copy(a->dtype, a->count, a->rbuf, acc);
    }

cleanup:
    mca_coll_rsag_tmp_free(&tmps[0]);
    mca_coll_rsag_tmp_free(&tmps[1]);
    return err;
}

/* TRANSITION: one blocking step until written as a schedule. */
int mca_coll_rsag_reduce_binomial(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    (void) mca_coll_rsag_sched_run_step(s, mca_coll_rsag_reduce_binomial_blocking, a);
    return s->err;
}
