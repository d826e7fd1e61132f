/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * MPI_Reduce by a pipelined chain.
 *
 * Idea: number the ranks so that the root is vrank 0 and cut the vector
 * into m segments.  Vrank p - 1 sends its segments to vrank p - 2, which
 * adds its own part to each as it arrives and passes it on, and so on
 * down to the root: every link carries the vector once, and all links are
 * busy at once.  The root's link takes in n bytes, the least any reduce
 * can (a tree's root takes log2 p vectors, Rabenseifner's 2 (p-1)/p n).
 *
 *   p = 4, m = 3 segments (root 0; time goes down)
 *     3 -> 2: s0
 *     3 -> 2: s1    2 -> 1: s0 + x2
 *     3 -> 2: s2    2 -> 1: s1 + x2    1 -> 0: s0 + x2 + x1
 *                   2 -> 1: s2 + x2    1 -> 0: s1 + ...      0: s0 done
 *                                      1 -> 0: s2 + ...      0: s1 done
 *                                                            0: s2 done
 *
 * Segments: coll_rsag_exchange_chunk_size bytes (below TCP's eager limit,
 * so a segment never waits for a rendezvous; mca_coll_rsag_even_chunk
 * cuts the vector in segments of even sizes).  The receives of the next
 * MCA_COLL_RSAG_CHAIN_WINDOW segments are posted ahead, and at most as
 * many sends are in flight.
 * Cost (segments of s bytes, m = n / s): (p - 2 + m) (alpha + s beta +
 *       s gamma): n beta + n gamma once the pipe is full, plus (p - 2)
 *       segments to fill it.  Across nodes with ranks placed node by node
 *       the chain crosses each node boundary once.
 * Restrictions: commutative op (the root's rotation changes the order).
 *       Auto takes it only for a message of at least p - 1 segments
 *       (MCA_COLL_RSAG_FILLS_PIPE): below that its p - 1 hops cost more
 *       than the segments, and the trees' log2 p steps win.
 * Memory: vranks 1 .. p - 2 a temporary of count elements (the segments
 *       they receive, reduce and forward); the root one only in place
 *       (else it receives into rbuf); vrank p - 1 none.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag.h"

/* Segments whose receives are posted ahead, and sends in flight at most. */
#define MCA_COLL_RSAG_CHAIN_WINDOW 8

/* Post the receive of segment j (of m) from the child into its place in
 * acc; returns the step. */
static int mca_coll_rsag_chain_recv(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                    char *acc, size_t m, size_t j, int child)
{
    size_t len, at = mca_coll_rsag_even_chunk(a->count, m, j, &len);

    return mca_coll_rsag_sched_recv(s, a, mca_coll_rsag_elem(acc, at, a->extent), len, child);
}

int mca_coll_rsag_reduce_chain(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a)
{
    const size_t W = MCA_COLL_RSAG_CHAIN_WINDOW;
    int vrank = mca_coll_rsag_rotate(a->rank, a->root, a->size);
    int child = vrank + 1 < a->size ? mca_coll_rsag_unrotate(vrank + 1, a->root, a->size) : -1;
    int parent = vrank > 0 ? mca_coll_rsag_unrotate(vrank - 1, a->root, a->size) : -1;
    size_t m = mca_coll_rsag_pipe_segments(a);
    /* where the child's segments land: rbuf at a root not in place (its
     * own part is then added to them), else a temporary.  Every rank asks
     * for it (empty where not needed): a failed allocation is then met at
     * the same request on every rank, and leaves no peer waiting. */
    bool own_rbuf = (0 == vrank && !a->in_place);
    char *tmp = mca_coll_rsag_sched_tmp(s, (child >= 0 && !own_rbuf) ? a->count : 0);
    char *acc = own_rbuf ? a->rbuf : tmp;
    /* the step indices of the receives posted ahead and of the sends in
     * flight, segment j's at j % W */
    int recvs[MCA_COLL_RSAG_CHAIN_WINDOW], sends[MCA_COLL_RSAG_CHAIN_WINDOW];

    if (OMPI_SUCCESS != s->err) {
        return s->err;
    }
    for (size_t j = 0; child >= 0 && j < m && j < W; ++j) {
        recvs[j] = mca_coll_rsag_chain_recv(s, a, acc, m, j, child);
    }
    for (size_t j = 0; j < m; ++j) {
        size_t len, at = mca_coll_rsag_even_chunk(a->count, m, j, &len);
        char *mine = mca_coll_rsag_elem(a->input, at, a->extent);
        char *seg = mine;           /* the chain's far end sends its own part */

        if (child >= 0) {
            /* the child's segment j is in: add mine to it, or at an
             * in-place root (rbuf holds mine) add it to mine */
            char *in = mca_coll_rsag_elem(acc, at, a->extent);
            int reduce;

            if (0 == vrank && a->in_place) {
                reduce = mca_coll_rsag_sched_reduce(s, in, mine, len);
            } else {
                reduce = mca_coll_rsag_sched_reduce(s, mine, in, len);
                seg = in;
            }
            mca_coll_rsag_sched_after(s, reduce, recvs[j % W]);
            if (j + W < m) {
                recvs[j % W] = mca_coll_rsag_chain_recv(s, a, acc, m, j + W, child);
            }
        }
        if (parent >= 0) {
            int send = mca_coll_rsag_sched_send(s, a, seg, len, parent);

            if (j >= W) {
                mca_coll_rsag_sched_after(s, send, sends[j % W]);
            }
            sends[j % W] = send;
        }
    }
    return s->err;
}
