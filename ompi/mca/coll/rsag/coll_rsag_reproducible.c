/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * coll_rsag_reproducible: the parameter (doc/reproducible.md).
 */
#include "ompi_config.h"

#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/base/mca_base_var_enum.h"

#include "coll_rsag_reproducible.h"

int mca_coll_rsag_reproducible = MCA_COLL_RSAG_REPRODUCIBLE_OFF;

void mca_coll_rsag_reproducible_register(const mca_base_component_t *c)
{
    static const mca_base_var_enum_value_t modes[] = {
        { MCA_COLL_RSAG_REPRODUCIBLE_OFF, "off" },
        { MCA_COLL_RSAG_REPRODUCIBLE_PLACEMENT, "placement" },
        { MCA_COLL_RSAG_REPRODUCIBLE_EXACT, "exact" },
        { 0, NULL }
    };
    mca_base_var_enum_t *e = NULL;

    if (OPAL_SUCCESS != mca_base_var_enum_create("coll_rsag_reproducible_modes", modes, &e)) {
        return;
    }
    (void) mca_base_component_var_register(
        c, "reproducible",
        "Reproducible reductions (doc/reproducible.md). off: the algorithm the thresholds "
        "pick; placement: for a given number of processes, the same bits whatever "
        "algorithm, size threshold, node placement, transport and form (blocking, "
        "nonblocking, persistent), every algorithm folding the contributions in rank "
        "order; exact: MPI_SUM of MPI_FLOAT, MPI_DOUBLE and their complex types gives a "
        "result that depends only on the contributions, whatever their number and "
        "placement (other ops and types: placement). All ranks must agree",
        MCA_BASE_VAR_TYPE_INT, e, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_4,
        MCA_BASE_VAR_SCOPE_ALL_EQ, &mca_coll_rsag_reproducible);
    OBJ_RELEASE(e);
}
