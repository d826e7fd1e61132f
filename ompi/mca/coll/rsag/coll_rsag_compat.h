/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Everything that differs between the Open MPI series rsag builds against
 * lives here: Open MPI 4.1.x (coll framework 2.0.0) and 5.0.x (2.4.0).
 * A component is built for one series and does not load into another.
 */
#ifndef MCA_COLL_RSAG_COMPAT_H
#define MCA_COLL_RSAG_COMPAT_H

#include "ompi_config.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/coll/coll.h"

/* MCA_COLL_RSAG_EXPORT: the component symbol Open MPI looks up after
 * dlopen; 5.0 dropped OMPI_MODULE_DECLSPEC in favour of OMPI_DECLSPEC. */
#if OMPI_MAJOR_VERSION >= 5
#define MCA_COLL_RSAG_BASE_VERSION MCA_COLL_BASE_VERSION_2_4_0
#define MCA_COLL_RSAG_COMM_CID(comm) ((int) ompi_comm_get_local_cid(comm))
#define MCA_COLL_RSAG_EXPORT OMPI_DECLSPEC
#else
#define MCA_COLL_RSAG_BASE_VERSION MCA_COLL_BASE_VERSION_2_0_0
#define MCA_COLL_RSAG_COMM_CID(comm) ((int) (comm)->c_contextid)
#define MCA_COLL_RSAG_EXPORT OMPI_MODULE_DECLSPEC
#endif

#endif /* MCA_COLL_RSAG_COMPAT_H */
