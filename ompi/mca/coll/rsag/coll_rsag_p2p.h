/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Point-to-point steps of rsag's algorithms, through the PML (the only way
 * rsag talks to peers).  Counts are elements of `dtype`.
 */
#ifndef MCA_COLL_RSAG_P2P_H
#define MCA_COLL_RSAG_P2P_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/base/coll_base_util.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/request/request.h"

/* Blocking exchange with one peer. */
static inline int mca_coll_rsag_sendrecv(const void *sbuf, size_t scount, int dst, void *rbuf,
                                         size_t rcount, int src, struct ompi_datatype_t *dtype,
                                         int tag, struct ompi_communicator_t *comm)
{
    return ompi_coll_base_sendrecv((void *) sbuf, scount, dtype, dst, tag, rbuf, rcount, dtype,
                                   src, tag, comm, MPI_STATUS_IGNORE, ompi_comm_rank(comm));
}

static inline int mca_coll_rsag_send(const void *buf, size_t count,
                                     struct ompi_datatype_t *dtype, int dst, int tag,
                                     struct ompi_communicator_t *comm)
{
    return MCA_PML_CALL(send(buf, count, dtype, dst, tag, MCA_PML_BASE_SEND_STANDARD, comm));
}

static inline int mca_coll_rsag_recv(void *buf, size_t count, struct ompi_datatype_t *dtype,
                                     int src, int tag, struct ompi_communicator_t *comm)
{
    return MCA_PML_CALL(recv(buf, count, dtype, src, tag, comm, MPI_STATUS_IGNORE));
}

static inline int mca_coll_rsag_isend(const void *buf, size_t count,
                                      struct ompi_datatype_t *dtype, int dst, int tag,
                                      struct ompi_communicator_t *comm,
                                      struct ompi_request_t **req)
{
    return MCA_PML_CALL(isend(buf, count, dtype, dst, tag, MCA_PML_BASE_SEND_STANDARD, comm,
                              req));
}

static inline int mca_coll_rsag_irecv(void *buf, size_t count, struct ompi_datatype_t *dtype,
                                      int src, int tag, struct ompi_communicator_t *comm,
                                      struct ompi_request_t **req)
{
    return MCA_PML_CALL(irecv(buf, count, dtype, src, tag, comm, req));
}

/* After an error, give up the requests of reqs[0..n) (NULL and
 * MPI_REQUEST_NULL entries are skipped; all become MPI_REQUEST_NULL).
 * Receives are cancelled and completed, so that no buffer is freed under
 * a pending receive; sends are released to complete in the background, as
 * Open MPI's own collectives do, since waiting for a peer that gave up
 * would hang. */
static inline void mca_coll_rsag_requests_drop(struct ompi_request_t **reqs, size_t n,
                                               bool receives)
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

#endif /* MCA_COLL_RSAG_P2P_H */
