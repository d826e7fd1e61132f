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
 * Memory: one temporary of count elements (none on folded-away ranks).
 *       The send buffer is never copied: the first combine reads it and
 *       writes the receive buffer.
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/coll/base/coll_tags.h"

#include "coll_rsag.h"

/* Fold `in` into the partial result `acc` in rank order and return where
 * the result is.  While acc is still the caller's send buffer it is read
 * only: the first combine writes the receive buffer instead (no copy of
 * the send buffer is ever made).  *in becomes the free buffer. */
static char *mca_coll_rsag_rd_combine(struct ompi_op_t *op, struct ompi_datatype_t *dtype,
                                      size_t n, char *acc, char **in, bool in_is_lower,
                                      const char *input, char *rbuf)
{
    char *result;

    if (acc == input && input != rbuf) {
        mca_coll_rsag_reduce3(op, dtype, n, in_is_lower ? *in : acc, in_is_lower ? acc : *in,
                              rbuf);
        return rbuf;
    }
    result = mca_coll_rsag_reduce_ordered(op, dtype, n, *in, acc, in_is_lower);
    if (result != acc) {
        *in = acc;
    }
    return result;
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
    size_t n = (size_t) count;
    mca_coll_rsag_tmp_t tmp = MCA_COLL_RSAG_TMP_INIT;
    char *acc = (char *) input, *in;
    int err = OMPI_SUCCESS;

    if (1 == size) {
        err = mca_coll_rsag_copy(dtype, n, rbuf, input);
        goto cleanup;
    }
    if (0 == count) {
        goto cleanup;
    }

    /* Every rank asks for the temporary (empty on the folded ranks) before
     * its first message: a failed allocation meets every rank at the same
     * request, and no peer is left waiting. */
    err = mca_coll_rsag_tmp_alloc(&tmp, (vrank < 0) ? 0 : n, dtype);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }

    /* Fold: odd ranks below 2r hand their vector to rank - 1 and get the
     * result back at the end. */
    if (vrank < 0) {
        err = mca_coll_rsag_send(input, n, dtype, rank - 1, tag, comm);
        if (OMPI_SUCCESS == err) {
            err = mca_coll_rsag_recv(rbuf, n, dtype, rank - 1, tag, comm);
        }
        goto cleanup;
    }
    in = tmp.buf;
    if (rank < 2 * extra) {
        err = mca_coll_rsag_recv(in, n, dtype, rank + 1, tag, comm);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
        acc = mca_coll_rsag_rd_combine(op, dtype, n, acc, &in, false, input, rbuf);
    }

    /* Recursive doubling among the p' vranks. */
    for (int mask = 1; mask < pof2; mask <<= 1) {
        int peer_vrank = vrank ^ mask;
        int peer = mca_coll_rsag_fold_rank(peer_vrank, size);

        err = mca_coll_rsag_sendrecv(acc, n, peer, in, n, peer, dtype, tag, comm);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
        acc = mca_coll_rsag_rd_combine(op, dtype, n, acc, &in, peer_vrank < vrank, input, rbuf);
    }
    if (acc != (char *) rbuf) {
        err = mca_coll_rsag_copy(dtype, n, rbuf, acc);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }

    /* Unfold: hand the result back to the odd neighbour. */
    if (rank < 2 * extra) {
        err = mca_coll_rsag_send(rbuf, n, dtype, rank + 1, tag, comm);
    }

cleanup:
    mca_coll_rsag_tmp_free(&tmp);
    return err;
}
