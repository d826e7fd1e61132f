/*
 * MPI_Allreduce by the priority-aware reduce-scatter + allgather.
 *
 * Idea: cut the vector into p even blocks; run the priority-aware
 * reduce-scatter (coll_rsag_reduce_scatter_priority.c) with recvbuf as its
 * work vector, then regather the vblocks by recursive doubling.
 *
 *   p = 4 (vblocks = blocks; U = 1: one message per block and step)
 *   reduce-scatter, distance 2:  v0 <-> v2, v1 <-> v3: send 2 blocks each,
 *                                as two messages in the partner's need order
 *                  distance 1:   v0 <-> v1, v2 <-> v3: send 1 block each
 *   allgather,     distance 1:   exchange the own vblock
 *                  distance 2:   exchange the two vblocks held
 *   p = 5: ranks 0 and 1 fold first (balanced pre-step); at the end rank 0
 *   sends the whole result to rank 1.
 *
 * Cost (p = p', U = 1): (p-1 + log2 p) alpha + 2 (p-1)/p n beta
 *       + (p-1)/p n gamma; p != p' adds 3 alpha + 2 n beta + n/2 gamma.
 * Restrictions: commutative op.  Any count (vblocks may be empty).
 * Memory: one receive area of mca_coll_rsag_rs_recv_count elements (the
 *       first halving step's kept half, or ceil(count/2) on ranks below 2r);
 *       recvbuf is the work vector and the send buffer is never copied.
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/coll/base/coll_tags.h"

#include "coll_rsag.h"

int mca_coll_rsag_allreduce_priority(const void *sbuf, void *rbuf, int count,
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
    size_t *displ;
    int err = OMPI_SUCCESS;

    if (1 == size) {
        err = mca_coll_rsag_copy(dtype, n, rbuf, input);
        goto cleanup;
    }
    if (0 == count) {
        goto cleanup;
    }
    displ = mca_coll_rsag_module_displ((mca_coll_rsag_module_t *) module, size);
    if (NULL == displ) {
        err = OMPI_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    mca_coll_rsag_displs_even(n, size, displ);
    err = mca_coll_rsag_tmp_alloc(&tmp, mca_coll_rsag_rs_recv_count(displ, size, rank), dtype);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }

    /* reduce-scatter into recvbuf: this vrank's vblock is reduced */
    err = mca_coll_rsag_priority_rs(input, rbuf, tmp.buf, displ, dtype, op, tag, comm);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }
    /* allgather of the vblocks: the halving steps walked backwards */
    if (vrank >= 0) {
        int nsteps = mca_coll_rsag_vhalving_schedule(displ, size, vrank, steps);
        err = mca_coll_rsag_doubling_allgather(rbuf, steps, nsteps, dtype, tag, comm);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }
    /* the folded odd ranks get the whole result */
    if (rank < 2 * extra) {
        err = (vrank >= 0) ? mca_coll_rsag_send(rbuf, n, dtype, rank + 1, tag, comm)
                           : mca_coll_rsag_recv(rbuf, n, dtype, rank - 1, tag, comm);
    }

cleanup:
    mca_coll_rsag_tmp_free(&tmp);
    return err;
}
