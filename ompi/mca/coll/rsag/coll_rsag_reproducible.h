/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Reproducible reductions (doc/reproducible.md): coll_rsag_reproducible.
 *   off        the algorithm the thresholds pick (default)
 *   placement  for a given p, the same bits whatever algorithm, threshold,
 *              node placement, transport and form: every algorithm used
 *              folds the contributions in one canonical order
 *   exact      MPI_SUM of floating-point types: a result that depends only
 *              on the multiset of contributions (any p, any algorithm)
 */
#ifndef MCA_COLL_RSAG_REPRODUCIBLE_H
#define MCA_COLL_RSAG_REPRODUCIBLE_H

#include "ompi_config.h"

#include "ompi/mca/mca.h"

BEGIN_C_DECLS

typedef enum mca_coll_rsag_reproducible_t {
    MCA_COLL_RSAG_REPRODUCIBLE_OFF = 0,
    MCA_COLL_RSAG_REPRODUCIBLE_PLACEMENT = 1,
    MCA_COLL_RSAG_REPRODUCIBLE_EXACT = 2
} mca_coll_rsag_reproducible_t;

/* coll_rsag_reproducible (settable through MPI_T; all ranks must agree) */
extern int mca_coll_rsag_reproducible;

void mca_coll_rsag_reproducible_register(const mca_base_component_t *c);

END_C_DECLS

#endif /* MCA_COLL_RSAG_REPRODUCIBLE_H */
