/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The `coll` selection check: a list such as `--mca coll rsag,basic` leaves
 * Open MPI without a component it needs (the nonblocking collectives have
 * no provider without libnbc; size-1 communicators and intercommunicators
 * are left to basic without self and inter), and Open MPI then fails in
 * MPI_Init with a message that does not mention the list.  rsag says so
 * first, in one message (help-coll-rsag.txt), naming a list that works.
 */
#ifndef MCA_COLL_RSAG_COLLLIST_H
#define MCA_COLL_RSAG_COLLLIST_H

#include <stdbool.h>

/* Reads the `coll` MCA variable (--mca coll LIST, OMPI_MCA_coll, a
 * parameter file) and, when it leaves out libnbc, self or inter, prints one
 * message (opal_show_help) from the job's first process.  Returns true when
 * the list leaves something out (whether or not this process printed it). */
bool mca_coll_rsag_check_coll_list(void);

#endif /* MCA_COLL_RSAG_COLLLIST_H */
