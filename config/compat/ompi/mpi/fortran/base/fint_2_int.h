/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Minimal stand-in for Open MPI's ompi/mpi/fortran/base/fint_2_int.h.
 *
 * Some binary distributions (Debian's libopenmpi-dev among them) install
 * ompi/op/op.h, which includes this header, but not the header itself.
 * op.h only needs the scalar conversions between a Fortran INTEGER and a C
 * int; configure adds config/compat to the include path when the real
 * header is missing.  A cast is right whether or not the two have the same
 * width.
 */
#ifndef RSAG_COMPAT_FINT_2_INT_H
#define RSAG_COMPAT_FINT_2_INT_H

#include "ompi_config.h"
#include "mpi.h"

#ifndef OMPI_INT_2_FINT
#define OMPI_INT_2_FINT(a) ((MPI_Fint) (a))
#endif
#ifndef OMPI_FINT_2_INT
#define OMPI_FINT_2_INT(a) ((int) (a))
#endif

#endif /* RSAG_COMPAT_FINT_2_INT_H */
