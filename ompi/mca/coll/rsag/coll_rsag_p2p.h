/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Point-to-point calls of rsag, through the PML (the only way rsag talks
 * to peers): the schedules' messages (coll_rsag_sched.c) and the node
 * segment's set-up.  Counts are elements of `dtype`.
 */
#ifndef MCA_COLL_RSAG_P2P_H
#define MCA_COLL_RSAG_P2P_H

#include "ompi_config.h"

#include <stddef.h>

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/request/request.h"

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

#endif /* MCA_COLL_RSAG_P2P_H */
