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
#include "ompi/mca/coll/base/coll_tags.h"

#include "coll_rsag.h"

/* State of one rank's recursive doubling: where the partial result is,
 * and the temporary (allocated up front when a step needs it) that incoming vectors land
 * in when they cannot go to the receive buffer. */
typedef struct mca_coll_rsag_rd_t {
    const char *input;      /* the caller's data: send buffer, or rbuf in place */
    char *rbuf;
    char *acc;              /* partial result: input until the first combine */
    char *in;               /* free buffer for the next incoming vector */
    size_t n;
    struct ompi_datatype_t *dtype;
    struct ompi_op_t *op;
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
                                 bool exchange, int tag, struct ompi_communicator_t *comm)
{
    /* the first combine, while the partial result is still the input */
    bool first = s->acc == s->input && s->input != s->rbuf;
    bool direct = first && (!peer_is_lower || ompi_op_is_commute(s->op));
    char *target;
    int err;

    target = direct ? s->rbuf : s->in;     /* s->in: mca_coll_rsag_rd_needs_tmp */
    err = exchange ? mca_coll_rsag_sendrecv(s->acc, s->n, peer, target, s->n, peer, s->dtype,
                                            tag, comm)
                   : mca_coll_rsag_recv(target, s->n, s->dtype, peer, tag, comm);
    if (OMPI_SUCCESS != err) {
        return err;
    }
    if (direct) {
        mca_coll_rsag_op_reduce(s->op, s->input, s->rbuf, s->n, s->dtype);
        s->acc = s->rbuf;
    } else if (first) {
        /* Upper rank, non-commutative op: rbuf = in (op) input. */
        mca_coll_rsag_reduce3(s->op, s->dtype, s->n, s->in, s->input, s->rbuf);
        s->acc = s->rbuf;
    } else {
        char *result = mca_coll_rsag_reduce_ordered(s->op, s->dtype, s->n, s->in, s->acc,
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

int mca_coll_rsag_allreduce_recursive_doubling(const void *sbuf, void *rbuf, int count,
                                               struct ompi_datatype_t *dtype,
                                               struct ompi_op_t *op,
                                               struct ompi_communicator_t *comm,
                                               mca_coll_base_module_t *module)
{
    const int tag = MCA_COLL_BASE_TAG_ALLREDUCE;
    int rank = ompi_comm_rank(comm);
    int size = ompi_comm_size(comm);
    int pof2 = mca_coll_rsag_pof2_floor(size);
    int extra = size - pof2;
    int vrank = mca_coll_rsag_fold_vrank(rank, size);
    const char *input = (MPI_IN_PLACE == sbuf) ? (const char *) rbuf : (const char *) sbuf;
    mca_coll_rsag_rd_t s = { input, (char *) rbuf, (char *) input, NULL, (size_t) count,
                             dtype, op, MCA_COLL_RSAG_TMP_INIT };
    int err = OMPI_SUCCESS;

    if (1 == size) {
        err = mca_coll_rsag_copy(dtype, s.n, rbuf, input);
        goto cleanup;
    }
    if (0 == count) {
        goto cleanup;
    }

    /* Every rank asks for the temporary (empty where no step needs it)
     * before its first message: a failed allocation meets every rank at the
     * same request, and no peer is left waiting. */
    err = mca_coll_rsag_tmp_alloc(&s.tmp,
                                  mca_coll_rsag_rd_needs_tmp(vrank, pof2, rank < 2 * extra,
                                                             input == (char *) rbuf,
                                                             ompi_op_is_commute(op))
                                      ? s.n : 0,
                                  dtype);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }
    s.in = s.tmp.buf;

    /* Fold: odd ranks below 2r hand their vector to rank - 1 and get the
     * result back at the end. */
    if (vrank < 0) {
        err = mca_coll_rsag_send(input, s.n, dtype, rank - 1, tag, comm);
        if (OMPI_SUCCESS == err) {
            err = mca_coll_rsag_recv(rbuf, s.n, dtype, rank - 1, tag, comm);
        }
        goto cleanup;
    }
    if (rank < 2 * extra) {
        err = mca_coll_rsag_rd_step(&s, rank + 1, false, false, tag, comm);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }

    /* Recursive doubling among the p' vranks. */
    for (int mask = 1; mask < pof2; mask <<= 1) {
        int peer_vrank = vrank ^ mask;

        err = mca_coll_rsag_rd_step(&s, mca_coll_rsag_fold_rank(peer_vrank, size),
                                    peer_vrank < vrank, true, tag, comm);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }
    if (s.acc != (char *) rbuf) {
        err = mca_coll_rsag_copy(dtype, s.n, rbuf, s.acc);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }

    /* Unfold: hand the result back to the odd neighbour. */
    if (rank < 2 * extra) {
        err = mca_coll_rsag_send(rbuf, s.n, dtype, rank + 1, tag, comm);
    }

cleanup:
    mca_coll_rsag_tmp_free(&s.tmp);
    return err;
}
