/*
 * MPI_Reduce, Rabenseifner's algorithm: reduce-scatter + binomial gather
 * (the seed 000 specification).
 *
 * Idea: (1) fold p onto p' = 2^floor(log2 p) ranks with no idle half: in
 * each pair (2i, 2i+1) below 2r the even rank reduces the lower half while
 * the odd rank reduces the upper half, then the odd rank hands its half to
 * the even one and leaves; (2) reduce-scatter by recursive halving with
 * distance doubling, so each vrank owns 1/p' of the result; (3) binomial
 * gather to the root with vector doubling and distance halving: the
 * halving steps walked backwards, where at each distance the vrank whose
 * partner lies on the root's side sends its window and leaves.
 *
 * The root's place in the folded group:
 *   root >= 2r          vroot = root - r
 *   root < 2r, even     vroot = root / 2
 *   root < 2r, odd      the root was folded away: it takes vrank 0's role.
 *                       Rank 0 sends it vrank 0's block after step 2 and
 *                       leaves; the gather sends to the root wherever it
 *                       would have sent to rank 0.
 *
 *   p = 4, root = vrank 0, count 8: after step 2 v0 has [0,2) v1 [4,6)
 *   v2 [2,4) v3 [6,8)
 *   gather distance 2: v2 -> v0 ([2,4)), v3 -> v1 ([6,8))
 *   gather distance 1: v1 -> v0 ([4,8))             v0 has [0,8)
 *
 * Cost (p = p'): 2 log2 p alpha + 2 (p-1)/p n beta + (p-1)/p n gamma;
 *       p != p' adds 2 alpha + n beta + n/2 gamma (step 1), an odd folded
 *       root adds alpha + n/p' beta.
 * Restrictions: commutative op, count >= p'.
 * Memory: the root works in recvbuf and needs ceil(count/2) elements;
 *       other ranks a work vector of count and ceil(count/2) more
 *       (seed bound: root count, others 2 count).  The send buffer is
 *       never copied: the first reduction reads it and writes the work
 *       vector.
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/coll/base/coll_tags.h"

#include "coll_rsag.h"

int mca_coll_rsag_reduce_rabenseifner(const void *sbuf, void *rbuf, int count,
                                      struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                      int root, struct ompi_communicator_t *comm,
                                      mca_coll_base_module_t *module)
{
    const int tag = MCA_COLL_BASE_TAG_REDUCE;
    int rank = ompi_comm_rank(comm);
    int size = ompi_comm_size(comm);
    int pof2 = mca_coll_rsag_pof2_floor(size);
    int extra = size - pof2;
    int vrank = mca_coll_rsag_fold_vrank(rank, size);
    bool root_folded = root < 2 * extra && 1 == root % 2;
    int vroot = root_folded ? 0 : mca_coll_rsag_fold_vrank(root, size);
    mca_coll_rsag_halving_step_t steps[MCA_COLL_RSAG_MAX_STEPS];
    mca_coll_rsag_tmp_t work_tmp = MCA_COLL_RSAG_TMP_INIT, tmp = MCA_COLL_RSAG_TMP_INIT;
    const char *input = (rank == root && MPI_IN_PLACE == sbuf) ? (const char *) rbuf
                                                               : (const char *) sbuf;
    size_t n = (size_t) count;
    ptrdiff_t lb, extent;
    char *work;
    int nsteps = 0, err = OMPI_SUCCESS;

    ompi_datatype_get_extent(dtype, &lb, &extent);
    if (1 == size || 0 == count) {
        if (rank == root) {
            err = mca_coll_rsag_copy(dtype, n, rbuf, input);
        }
        goto cleanup;
    }

    /* The root works in its receive buffer, the others in a temporary;
     * every rank asks for both temporaries (the root's work one empty), so
     * that a failed allocation meets every rank at the same request,
     * before any message. */
    err = mca_coll_rsag_tmp_alloc(&work_tmp, (rank == root) ? 0 : n, dtype);
    if (OMPI_SUCCESS == err) {
        err = mca_coll_rsag_tmp_alloc(&tmp, n - n / 2, dtype);
    }
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }
    work = (rank == root) ? (char *) rbuf : work_tmp.buf;

    /* (1) balanced folding onto p' vranks, (2) reduce-scatter */
    err = mca_coll_rsag_rabenseifner_rs(input, work, tmp.buf, n, dtype, op, tag, comm, steps,
                                        &nsteps);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }

    /* A folded-away odd root takes over vrank 0's block and role. */
    if (root_folded) {
        mca_coll_rsag_range_t block = mca_coll_rsag_halving_block(0, pof2, n);

        if (rank == root) {
            err = mca_coll_rsag_recv(mca_coll_rsag_elem(work, block.off, extent), block.cnt,
                                     dtype, 0, tag, comm);
            vrank = 0;
            nsteps = mca_coll_rsag_halving_schedule(0, pof2, n, steps);
        } else if (0 == vrank) {
            err = mca_coll_rsag_send(mca_coll_rsag_elem(work, block.off, extent), block.cnt,
                                     dtype, root, tag, comm);
            vrank = -1;
        }
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }

    /* (3) binomial gather to vroot: halving steps walked backwards */
    for (int k = (vrank >= 0) ? nsteps - 1 : -1; k >= 0; --k) {
        const mca_coll_rsag_halving_step_t *s = &steps[k];
        int peer = (root_folded && 0 == s->peer) ? root : mca_coll_rsag_fold_rank(s->peer, size);

        if (mca_coll_rsag_gather_sends(vrank, vroot, k)) {
            err = mca_coll_rsag_send(mca_coll_rsag_elem(work, s->keep.off, extent), s->keep.cnt,
                                     dtype, peer, tag, comm);
            break;
        }
        err = mca_coll_rsag_recv(mca_coll_rsag_elem(work, s->give.off, extent), s->give.cnt,
                                 dtype, peer, tag, comm);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }

cleanup:
    mca_coll_rsag_tmp_free(&tmp);
    mca_coll_rsag_tmp_free(&work_tmp);
    return err;
}
