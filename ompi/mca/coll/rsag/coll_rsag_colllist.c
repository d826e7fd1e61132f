/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The `coll` selection check (coll_rsag_colllist.h).
 *
 * Open MPI refuses a communicator on which a collective has no component
 * (MPI_Init fails).  rsag fills the nonblocking, persistent and
 * neighborhood slots a list leaves empty, on intra- and intercommunicators
 * alike (coll_rsag_fill.c), so a list needs besides rsag only
 *   basic   the blocking collectives other than rsag's four reductions
 *           (MPI_Bcast, MPI_Barrier, ...), on every kind of communicator.
 * With coll_rsag_fill_empty_slots=false it needs what Open MPI does:
 *   libnbc  the only provider of the nonblocking (and persistent)
 *           collectives; without it every communicator has empty slots and
 *           Open MPI aborts MPI_Init ("none of them said that they could be
 *           used for iallgather");
 *   self    communicators of size 1;
 *   inter   intercommunicators (basic alone does not cover them: mpi4py's
 *           collective tests crash inside Open MPI with a list without it).
 * rsag never loads a component the user left out: it only says what is
 * missing and which list works.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "opal/mca/base/mca_base_var.h"

#include "coll_rsag_colllist.h"
#include "coll_rsag_fill.h"
#include "coll_rsag_help.h"

#define MCA_COLL_RSAG_GOOD_LIST "rsag,basic"
#define MCA_COLL_RSAG_GOOD_LIST_UNFILLED "rsag,basic,self,libnbc,inter"

/* Is NAME an element of the comma-separated LIST (blanks around names
 * ignored)? */
static bool mca_coll_rsag_list_has(const char *list, const char *name)
{
    size_t len = strlen(name);
    const char *p = list;

    while (NULL != p && '\0' != *p) {
        const char *end = strchr(p, ',');
        const char *e = (NULL != end) ? end : p + strlen(p);
        while (p < e && (' ' == *p || '\t' == *p)) {
            p++;
        }
        while (e > p && (' ' == e[-1] || '\t' == e[-1])) {
            e--;
        }
        if ((size_t) (e - p) == len && 0 == strncmp(p, name, len)) {
            return true;
        }
        p = (NULL != end) ? end + 1 : NULL;
    }
    return false;
}

bool mca_coll_rsag_check_coll_list(void)
{
    static const char *const unfilled[] = {"libnbc", "self", "inter"};
    static const char *const filled[] = {"basic"};
    const char *const *needed = mca_coll_rsag_fill_empty_slots ? filled : unfilled;
    size_t nneeded = mca_coll_rsag_fill_empty_slots ? 1 : 3;
    const char **value = NULL;
    const char *list;
    char missing[64] = "";
    bool exclude, no_nbc = false;
    int idx;

    idx = mca_base_var_find("ompi", "coll", NULL, NULL);
    if (idx < 0 || OPAL_SUCCESS != mca_base_var_get_value(idx, &value, NULL, NULL) ||
        NULL == value || NULL == *value || '\0' == **value) {
        return false; /* coll unset: Open MPI's own selection */
    }
    list = *value;
    exclude = ('^' == list[0]);
    for (size_t i = 0; i < nneeded; i++) {
        bool listed = mca_coll_rsag_list_has(exclude ? list + 1 : list, needed[i]);
        if (listed == exclude) {
            if ('\0' != missing[0]) {
                strcat(missing, ", ");
            }
            strcat(missing, needed[i]);
            no_nbc = no_nbc || (!mca_coll_rsag_fill_empty_slots && 0 == i);
        }
    }
    if ('\0' == missing[0]) {
        return false;
    }

    /* One message per job: from its first process (or a singleton). */
    if (mca_coll_rsag_fill_empty_slots) {
        mca_coll_rsag_show_help("coll-list-no-basic", list, MCA_COLL_RSAG_GOOD_LIST);
    } else if (no_nbc) {
        mca_coll_rsag_show_help("coll-list-no-libnbc", list, missing,
                                MCA_COLL_RSAG_GOOD_LIST_UNFILLED);
    } else {
        mca_coll_rsag_show_help("coll-list-missing", list, missing,
                                NULL != strstr(missing, "inter")
                                    ? "intercommunicator collectives then fall to basic "
                                      "alone and can crash inside Open MPI (mpi4py's tests do)"
                                    : "size-1 communicators then fall to the other components",
                                MCA_COLL_RSAG_GOOD_LIST_UNFILLED);
    }
    return true;
}
