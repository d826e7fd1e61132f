/*
 * MPI_Allreduce, Rabenseifner's algorithm: reduce-scatter + allgather.
 *
 * Idea: (1) fold p onto p' = 2^floor(log2 p) ranks with no idle half: in
 * each pair (2i, 2i+1) below 2r the even rank reduces the lower half of the
 * vector while the odd rank reduces the upper half, then the odd rank
 * hands its half over; (2) reduce-scatter by recursive halving: at
 * distances 1, 2, 4, ... each vrank sends the half of its window it does
 * not keep and reduces the half it keeps, so after log2 p' steps it owns
 * 1/p' of the result; (3) allgather by recursive doubling, the same steps
 * walked backwards; (4) even ranks below 2r send the result to their odd
 * neighbour.
 *
 *   p = 4, count 8 (vrank v keeps windows as shown; | = window cut)
 *   step 1, distance 1:  v0 keeps [0,4)  v1 keeps [4,8)  v2 [0,4)  v3 [4,8)
 *   step 2, distance 2:  v0 keeps [0,2)  v1 [4,6)  v2 [2,4)  v3 [6,8)
 *   allgather: distance 2 then 1, each vrank sending what it keeps.
 *
 * Cost (p = p'): 2 log2 p alpha + 2 (p-1)/p n beta + (p-1)/p n gamma;
 *       p != p' adds 3 alpha + 2 n beta + n/2 gamma (steps 1 and 4).
 * Restrictions: commutative op (windows are reduced as received),
 *       count >= p' (every vrank owns at least one element).
 * Memory: one temporary of ceil(count/2) elements.  The send buffer is
 *       never copied: the first reduction reads it and writes recvbuf.
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/coll/base/coll_tags.h"

#include "coll_rsag.h"

int mca_coll_rsag_allreduce_rabenseifner(const void *sbuf, void *rbuf, int count,
                                         struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                         struct ompi_communicator_t *comm,
                                         mca_coll_base_module_t *module)
{
    const int tag = MCA_COLL_BASE_TAG_ALLREDUCE;
    int rank = ompi_comm_rank(comm);
    int size = ompi_comm_size(comm);
    int extra = size - mca_coll_rsag_pof2_floor(size);
    int vrank = mca_coll_rsag_fold_vrank(rank, size);
    mca_coll_rsag_halving_step_t steps[MCA_COLL_RSAG_MAX_STEPS];
    mca_coll_rsag_tmp_t tmp = MCA_COLL_RSAG_TMP_INIT;
    const char *input = (MPI_IN_PLACE == sbuf) ? (const char *) rbuf : (const char *) sbuf;
    size_t n = (size_t) count;
    int nsteps = 0, err = OMPI_SUCCESS;

    if (1 == size) {
        err = mca_coll_rsag_copy(dtype, n, rbuf, input);
        goto cleanup;
    }
    if (0 == count) {
        goto cleanup;
    }
    err = mca_coll_rsag_tmp_alloc(&tmp, n - n / 2, dtype);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }

    /* (1) balanced folding onto p' vranks, (2) reduce-scatter */
    err = mca_coll_rsag_rabenseifner_rs(input, rbuf, tmp.buf, n, dtype, op, tag, comm, steps,
                                        &nsteps);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }
    /* (3) allgather among the vranks (nsteps = 0 on folded-away ranks) */
    err = mca_coll_rsag_doubling_allgather(rbuf, steps, nsteps, dtype, tag, comm);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }

    /* (4) the folded odd ranks get the whole result */
    if (rank < 2 * extra) {
        err = (vrank >= 0)
                  ? mca_coll_rsag_send(rbuf, n, dtype, rank + 1, tag, comm)
                  : mca_coll_rsag_recv(rbuf, n, dtype, rank - 1, tag, comm);
    }

cleanup:
    mca_coll_rsag_tmp_free(&tmp);
    return err;
}
