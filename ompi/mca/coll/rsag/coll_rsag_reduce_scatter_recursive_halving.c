/*
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter by recursive halving.
 *
 * Idea: fold p onto p' = 2^floor(log2 p) ranks with the balanced pre-step
 * (each even rank below 2r ends with its pair's sum of the whole vector);
 * vrank v then stands for the blocks of its ranks, "vblock v".  At step k
 * the vranks pair at distance m = p'/2^(k+1) inside an aligned window of
 * 2m vblocks: each sends the half of the window it does not hold and
 * reduces the half it holds, so after log2 p' steps vrank v holds vblock v
 * reduced.  Even ranks below 2r pass their odd neighbour its block.
 *
 *   p = 4 (vblocks = blocks)      window        keeps      sends
 *   step 0, distance 2:  v0, v2   [0,4)         0-1 / 2-3  2-3 / 0-1
 *                        v1, v3   [0,4)         0-1 / 2-3  2-3 / 0-1
 *   step 1, distance 1:  v0, v1   [0,2)         0 / 1      1 / 0
 *                        v2, v3   [2,4)         2 / 3      3 / 2
 *
 * Blocks may be of any size, zero included, so one code serves both
 * collectives (coll_rsag_module.c builds the layout).
 *
 * Cost (p = p'): log2 p alpha + (p-1)/p n beta + (p-1)/p n gamma, n the
 *       whole vector; p != p' adds 2 alpha + n beta + n/2 gamma + the
 *       block hand-over.
 * Restrictions: commutative op.
 * Memory: a work vector of n elements and a receive buffer for the
 *       largest half this rank receives (the first halving step's kept
 *       half, or the pre-step's ceil(n/2)); later halves are smaller.  The
 *       send buffer is never copied.
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/coll/base/coll_tags.h"

#include "coll_rsag.h"

int mca_coll_rsag_reduce_scatter_recursive_halving(const void *sbuf, void *rbuf,
                                                   const size_t *displ,
                                                   struct ompi_datatype_t *dtype,
                                                   struct ompi_op_t *op,
                                                   struct ompi_communicator_t *comm,
                                                   mca_coll_rsag_module_t *module)
{
    const int tag = MCA_COLL_BASE_TAG_REDUCE_SCATTER;
    int rank = ompi_comm_rank(comm);
    int size = ompi_comm_size(comm);
    int pof2 = mca_coll_rsag_pof2_floor(size);
    int extra = size - pof2;
    int vrank = mca_coll_rsag_fold_vrank(rank, size);
    int nsteps = mca_coll_rsag_log2_floor(pof2);
    size_t n = displ[size];
    const char *input = (MPI_IN_PLACE == sbuf) ? (const char *) rbuf : (const char *) sbuf;
    const char *src = input;
    mca_coll_rsag_tmp_t work = MCA_COLL_RSAG_TMP_INIT, tmp = MCA_COLL_RSAG_TMP_INIT;
    ptrdiff_t lb, extent;
    int err = OMPI_SUCCESS;

    ompi_datatype_get_extent(dtype, &lb, &extent);
    if (1 == size) {
        err = mca_coll_rsag_copy(dtype, n, rbuf, input);
        goto cleanup;
    }
    if (0 == n) {
        goto cleanup;
    }

    err = mca_coll_rsag_rs_buffers(&work, &tmp, displ, dtype, comm);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }

    /* Fold p onto p': even ranks below 2r end with the pair's sum. */
    err = mca_coll_rsag_fold_balanced(input, work.buf, tmp.buf, n, dtype, op, tag, comm);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }
    if (rank < 2 * extra) {
        src = work.buf;
    }

    /* Recursive halving over vblocks. */
    for (int k = 0; vrank >= 0 && k < nsteps; ++k, src = work.buf) {
        mca_coll_rsag_vstep_t s = mca_coll_rsag_vhalving_step(vrank, pof2, k);
        mca_coll_rsag_range_t keep = mca_coll_rsag_vblocks(displ, size, s.keep_lo,
                                                           s.keep_lo + s.half);
        mca_coll_rsag_range_t give = mca_coll_rsag_vblocks(displ, size, s.give_lo,
                                                           s.give_lo + s.half);
        int peer = mca_coll_rsag_fold_rank(s.peer, size);

        err = mca_coll_rsag_sendrecv(mca_coll_rsag_elem(src, give.off, extent), give.cnt, peer,
                                     tmp.buf, keep.cnt, peer, dtype, tag, comm);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
        mca_coll_rsag_reduce_into(op, dtype, keep.cnt, tmp.buf,
                                  mca_coll_rsag_elem(src, keep.off, extent),
                                  mca_coll_rsag_elem(work.buf, keep.off, extent));
    }

    /* Each rank's block to its rbuf. */
    err = mca_coll_rsag_rs_deliver(work.buf, rbuf, displ, dtype, tag, comm);

cleanup:
    mca_coll_rsag_tmp_free(&tmp);
    mca_coll_rsag_tmp_free(&work);
    return err;
}
