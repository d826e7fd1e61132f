/*
 * Helpers shared by rsag's algorithms: temporaries laid out like user
 * buffers, datatype-engine copies, order-respecting reduction, and
 * point-to-point exchanges through the PML.
 */
#include "ompi_config.h"

#include <limits.h>
#include <stdlib.h>

#include "mpi.h"
#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/base/coll_base_util.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/op/op.h"
#include "ompi/request/request.h"

#include "coll_rsag.h"

int mca_coll_rsag_tmp_alloc(mca_coll_rsag_tmp_t *tmp, size_t count,
                            struct ompi_datatype_t *dtype)
{
    ptrdiff_t lb, extent, true_lb, true_extent;
    size_t bytes;

    tmp->raw = tmp->buf = NULL;
    tmp->bytes = 0;
    if (0 == count) {
        return OMPI_SUCCESS;
    }
    ompi_datatype_get_extent(dtype, &lb, &extent);
    ompi_datatype_get_true_extent(dtype, &true_lb, &true_extent);
    /* The last element starts (count - 1) extents in and spans true_extent. */
    bytes = (size_t) true_extent + (count - 1) * (size_t) extent;
    tmp->raw = malloc(bytes > 0 ? bytes : 1);
    if (NULL == tmp->raw) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    tmp->buf = tmp->raw - true_lb;
    tmp->bytes = bytes;
    mca_coll_rsag_component.tmp_bytes_now += bytes;
    if (mca_coll_rsag_component.tmp_bytes_now > mca_coll_rsag_component.tmp_bytes_peak) {
        mca_coll_rsag_component.tmp_bytes_peak = mca_coll_rsag_component.tmp_bytes_now;
    }
    return OMPI_SUCCESS;
}

void mca_coll_rsag_tmp_free(mca_coll_rsag_tmp_t *tmp)
{
    if (NULL != tmp->raw) {
        mca_coll_rsag_component.tmp_bytes_now -= tmp->bytes;
    }
    free(tmp->raw);
    tmp->raw = tmp->buf = NULL;
    tmp->bytes = 0;
}

int mca_coll_rsag_copy(struct ompi_datatype_t *dtype, size_t count, void *dst,
                       const void *src)
{
    if (0 == count || dst == src) {
        return OMPI_SUCCESS;
    }
    return ompi_datatype_copy_content_same_ddt(dtype, count, (char *) dst, (char *) src);
}

void *mca_coll_rsag_reduce_ordered(struct ompi_op_t *op, struct ompi_datatype_t *dtype,
                                   size_t count, void *in, void *inout, bool in_is_lower)
{
    if (0 == count) {
        return inout;
    }
    if (in_is_lower || ompi_op_is_commute(op)) {
        mca_coll_rsag_op_reduce(op, in, inout, count, dtype);     /* inout = in (op) inout */
        return inout;
    }
    mca_coll_rsag_op_reduce(op, inout, in, count, dtype);         /* in = inout (op) in */
    return in;
}

void mca_coll_rsag_reduce3(struct ompi_op_t *op, struct ompi_datatype_t *dtype, size_t count,
                           const void *lower, const void *upper, void *target)
{
    if (0 == count) {
        return;
    }
    /* Open MPI's 3-buffer kernels exist for intrinsic ops on predefined
     * types; its user-op fallback swaps the operands and only knows C
     * callbacks, so user ops take a copy and an ordered 2-buffer reduce. */
    if (ompi_op_is_intrinsic(op) && ompi_datatype_is_predefined(dtype) && count <= INT_MAX) {
        mca_coll_rsag_op_reduce3(op, lower, upper, target, count, dtype);
        return;
    }
    ompi_datatype_copy_content_same_ddt(dtype, count, target, (char *) upper);
    mca_coll_rsag_op_reduce(op, lower, target, count, dtype);  /* target = lower (op) upper */
}

int mca_coll_rsag_sendrecv(const void *sbuf, size_t scount, int dst,
                           void *rbuf, size_t rcount, int src,
                           struct ompi_datatype_t *dtype, int tag,
                           struct ompi_communicator_t *comm)
{
    return ompi_coll_base_sendrecv((void *) sbuf, scount, dtype, dst, tag,
                                   rbuf, rcount, dtype, src, tag,
                                   comm, MPI_STATUS_IGNORE, ompi_comm_rank(comm));
}

int mca_coll_rsag_send(const void *buf, size_t count, struct ompi_datatype_t *dtype,
                       int dst, int tag, struct ompi_communicator_t *comm)
{
    return MCA_PML_CALL(send(buf, count, dtype, dst, tag, MCA_PML_BASE_SEND_STANDARD, comm));
}

int mca_coll_rsag_recv(void *buf, size_t count, struct ompi_datatype_t *dtype,
                       int src, int tag, struct ompi_communicator_t *comm)
{
    return MCA_PML_CALL(recv(buf, count, dtype, src, tag, comm, MPI_STATUS_IGNORE));
}

void mca_coll_rsag_requests_drop(struct ompi_request_t **reqs, size_t n, bool receives)
{
    for (size_t i = 0; i < n; ++i) {
        if (NULL == reqs[i] || MPI_REQUEST_NULL == reqs[i]) {
            continue;
        }
        if (receives) {
            (void) ompi_request_cancel(reqs[i]);
            (void) ompi_request_wait(&reqs[i], MPI_STATUS_IGNORE);
        } else {
            (void) ompi_request_free(&reqs[i]);
        }
        reqs[i] = MPI_REQUEST_NULL;
    }
}
