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
 * Memory: one temporary of count elements (none when p = 1).
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/coll/base/coll_tags.h"

#include "coll_rsag.h"

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
    mca_coll_rsag_tmp_t tmp = { NULL, NULL };
    char *acc = rbuf, *in;
    int err = OMPI_SUCCESS;

    if (MPI_IN_PLACE != sbuf) {
        err = mca_coll_rsag_copy(dtype, (size_t) count, rbuf, sbuf);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }
    if (1 == size || 0 == count) {
        goto cleanup;
    }
    err = mca_coll_rsag_tmp_alloc(&tmp, (size_t) count, dtype);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }
    in = tmp.buf;

    /* Fold: odd ranks below 2r hand their vector to rank - 1. */
    if (vrank < 0) {
        err = mca_coll_rsag_send(rbuf, (size_t) count, dtype, rank - 1, tag, comm);
        if (OMPI_SUCCESS == err) {
            err = mca_coll_rsag_recv(rbuf, (size_t) count, dtype, rank - 1, tag, comm);
        }
        goto cleanup;
    }
    if (rank < 2 * extra) {
        err = mca_coll_rsag_recv(in, (size_t) count, dtype, rank + 1, tag, comm);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
        if (mca_coll_rsag_reduce_ordered(op, dtype, (size_t) count, in, acc, false) != acc) {
            in = acc;
            acc = tmp.buf;
        }
    }

    /* Recursive doubling among the p' vranks. */
    for (int mask = 1; mask < pof2; mask <<= 1) {
        int peer_vrank = vrank ^ mask;
        int peer = mca_coll_rsag_fold_rank(peer_vrank, size);
        char *result;

        err = mca_coll_rsag_sendrecv(acc, (size_t) count, peer, in, (size_t) count, peer,
                                     dtype, tag, comm);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
        result = mca_coll_rsag_reduce_ordered(op, dtype, (size_t) count, in, acc,
                                              peer_vrank < vrank);
        if (result != acc) {
            in = acc;
            acc = result;
        }
    }
    if (acc != (char *) rbuf) {
        err = mca_coll_rsag_copy(dtype, (size_t) count, rbuf, acc);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }

    /* Unfold: hand the result back to the odd neighbour. */
    if (rank < 2 * extra) {
        err = mca_coll_rsag_send(rbuf, (size_t) count, dtype, rank + 1, tag, comm);
    }

cleanup:
    mca_coll_rsag_tmp_free(&tmp);
    return err;
}
