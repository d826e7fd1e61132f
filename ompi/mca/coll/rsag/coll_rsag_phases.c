/*
 * Building blocks of Rabenseifner's algorithms, shared by
 * coll_rsag_allreduce_rabenseifner.c and coll_rsag_reduce_rabenseifner.c.
 *
 *  mca_coll_rsag_fold_balanced      step 1: p -> p' without an idle half
 *  mca_coll_rsag_halving_rs         step 2: reduce-scatter, recursive halving
 *  mca_coll_rsag_doubling_allgather step 3 of allreduce: the halving walked back
 *  mca_coll_rsag_rabenseifner_rs    steps 1 and 2 together, as both algorithms
 *                                   begin
 *  mca_coll_rsag_rs_buffers         the work vector and receive buffer of the
 *                                   reduce-scatter algorithms that fold
 *  mca_coll_rsag_rs_deliver         end of the reduce-scatter algorithms that
 *                                   fold: each rank's block to its rbuf
 *
 * `input` is this rank's contribution (the send buffer, read only, or the
 * work vector itself when in place); `work` is the vector being reduced
 * (count elements, user layout); `tmp` receives at most ceil(count/2)
 * elements, always at its start.  The first reduction reads input and
 * writes work, so the send buffer is never copied.  The ops are applied as
 * tmp (op) ours, so these phases need a commutative op.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag.h"

void mca_coll_rsag_reduce_into(struct ompi_op_t *op, struct ompi_datatype_t *dtype,
                                      size_t cnt, const char *tmp, const char *src, char *dst)
{
    if (src == dst) {
        ompi_op_reduce(op, (void *) tmp, dst, cnt, dtype);
    } else {
        mca_coll_rsag_reduce3(op, dtype, cnt, tmp, src, dst);
    }
}

int mca_coll_rsag_rs_buffers(mca_coll_rsag_tmp_t *work, mca_coll_rsag_tmp_t *tmp,
                             const size_t *displ, struct ompi_datatype_t *dtype,
                             struct ompi_communicator_t *comm)
{
    int size = ompi_comm_size(comm);
    /* The receive buffer holds the largest part this rank receives: the
     * pre-step's, or the first halving step's (later ones are smaller). */
    size_t recv = mca_coll_rsag_rs_recv_count(displ, size, ompi_comm_rank(comm));
    int err = mca_coll_rsag_tmp_alloc(work, displ[size], dtype);

    if (OMPI_SUCCESS == err) {
        err = mca_coll_rsag_tmp_alloc(tmp, recv, dtype);
    }
    if (OMPI_SUCCESS != err) {
        mca_coll_rsag_tmp_free(tmp);
        mca_coll_rsag_tmp_free(work);
    }
    return err;
}

int mca_coll_rsag_fold_balanced(const char *input, char *work, char *tmp, size_t count,
                                struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                int tag, struct ompi_communicator_t *comm)
{
    int rank = ompi_comm_rank(comm);
    int size = ompi_comm_size(comm);
    int extra = size - mca_coll_rsag_pof2_floor(size);
    mca_coll_rsag_range_t whole = { 0, count }, lower, upper, keep, give;
    ptrdiff_t lb, extent;
    bool even = (0 == rank % 2);
    int peer = even ? rank + 1 : rank - 1;
    int err;

    if (rank >= 2 * extra) {
        return OMPI_SUCCESS;
    }
    ompi_datatype_get_extent(dtype, &lb, &extent);
    mca_coll_rsag_split_halves(whole, &lower, &upper);
    keep = even ? lower : upper;
    give = even ? upper : lower;

    /* Both halves are reduced at once: even ranks the lower, odd the upper. */
    err = mca_coll_rsag_sendrecv(mca_coll_rsag_elem(input, give.off, extent), give.cnt, peer,
                                 tmp, keep.cnt, peer, dtype, tag, comm);
    if (OMPI_SUCCESS != err) {
        return err;
    }
    mca_coll_rsag_reduce_into(op, dtype, keep.cnt, tmp, mca_coll_rsag_elem(input, keep.off, extent),
                              mca_coll_rsag_elem(work, keep.off, extent));

    /* The odd rank hands its reduced half over and leaves the group. */
    if (even) {
        return mca_coll_rsag_recv(mca_coll_rsag_elem(work, upper.off, extent), upper.cnt,
                                  dtype, peer, tag, comm);
    }
    return mca_coll_rsag_send(mca_coll_rsag_elem(work, upper.off, extent), upper.cnt, dtype,
                              peer, tag, comm);
}

int mca_coll_rsag_halving_rs(const char *input, char *work, char *tmp,
                             const mca_coll_rsag_halving_step_t *steps,
                             int nsteps, struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                             int tag, struct ompi_communicator_t *comm)
{
    int size = ompi_comm_size(comm);
    ptrdiff_t lb, extent;

    ompi_datatype_get_extent(dtype, &lb, &extent);
    const char *src = input;   /* work once the first step has reduced into it */

    for (int k = 0; k < nsteps; ++k, src = work) {
        const mca_coll_rsag_halving_step_t *s = &steps[k];
        int peer = mca_coll_rsag_fold_rank(s->peer, size);
        int err = mca_coll_rsag_sendrecv(mca_coll_rsag_elem(src, s->give.off, extent),
                                         s->give.cnt, peer, tmp, s->keep.cnt, peer, dtype,
                                         tag, comm);
        if (OMPI_SUCCESS != err) {
            return err;
        }
        mca_coll_rsag_reduce_into(op, dtype, s->keep.cnt, tmp,
                                  mca_coll_rsag_elem(src, s->keep.off, extent),
                                  mca_coll_rsag_elem(work, s->keep.off, extent));
    }
    return OMPI_SUCCESS;
}

int mca_coll_rsag_doubling_allgather(char *work, const mca_coll_rsag_halving_step_t *steps,
                                     int nsteps, struct ompi_datatype_t *dtype, int tag,
                                     struct ompi_communicator_t *comm)
{
    int size = ompi_comm_size(comm);
    ptrdiff_t lb, extent;

    ompi_datatype_get_extent(dtype, &lb, &extent);
    for (int k = nsteps - 1; k >= 0; --k) {
        const mca_coll_rsag_halving_step_t *s = &steps[k];
        int peer = mca_coll_rsag_fold_rank(s->peer, size);
        int err = mca_coll_rsag_sendrecv(mca_coll_rsag_elem(work, s->keep.off, extent),
                                         s->keep.cnt, peer,
                                         mca_coll_rsag_elem(work, s->give.off, extent),
                                         s->give.cnt, peer, dtype, tag, comm);
        if (OMPI_SUCCESS != err) {
            return err;
        }
    }
    return OMPI_SUCCESS;
}

int mca_coll_rsag_rabenseifner_rs(const char *input, char *work, char *tmp, size_t count,
                                  struct ompi_datatype_t *dtype, struct ompi_op_t *op, int tag,
                                  struct ompi_communicator_t *comm,
                                  mca_coll_rsag_halving_step_t *steps, int *nsteps)
{
    int rank = ompi_comm_rank(comm);
    int size = ompi_comm_size(comm);
    int pof2 = mca_coll_rsag_pof2_floor(size);
    int vrank = mca_coll_rsag_fold_vrank(rank, size);
    int err = mca_coll_rsag_fold_balanced(input, work, tmp, count, dtype, op, tag, comm);
    bool folded = rank < 2 * (size - pof2);

    *nsteps = 0;
    if (OMPI_SUCCESS != err || vrank < 0) {
        return err;
    }
    *nsteps = mca_coll_rsag_halving_schedule(vrank, pof2, count, steps);
    return mca_coll_rsag_halving_rs(folded ? work : input, work, tmp, steps, *nsteps, dtype, op,
                                    tag, comm);
}

int mca_coll_rsag_rs_deliver(const char *work, void *rbuf, const size_t *displ,
                             struct ompi_datatype_t *dtype, int tag,
                             struct ompi_communicator_t *comm)
{
    int rank = ompi_comm_rank(comm);
    int size = ompi_comm_size(comm);
    int extra = size - mca_coll_rsag_pof2_floor(size);
    mca_coll_rsag_range_t mine = mca_coll_rsag_block(displ, rank);
    ptrdiff_t lb, extent;

    ompi_datatype_get_extent(dtype, &lb, &extent);
    if (rank < 2 * extra && 1 == rank % 2) {
        return mca_coll_rsag_recv(rbuf, mine.cnt, dtype, rank - 1, tag, comm);
    }
    if (rank < 2 * extra) {
        mca_coll_rsag_range_t odd = mca_coll_rsag_block(displ, rank + 1);
        int err = mca_coll_rsag_send(mca_coll_rsag_elem(work, odd.off, extent), odd.cnt, dtype,
                                     rank + 1, tag, comm);
        if (OMPI_SUCCESS != err) {
            return err;
        }
    }
    return mca_coll_rsag_copy(dtype, mine.cnt, rbuf, mca_coll_rsag_elem(work, mine.off, extent));
}
