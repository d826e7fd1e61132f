/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Messages to users: the text is in help-coll-rsag.txt, printed through
 * Open MPI's opal_show_help (its banner, its search path), once per job.
 *
 * opal_show_help looks for help files in Open MPI's pkgdatadir and in the
 * directories added with opal_show_help_add_dir; an rsag installed
 * elsewhere (--with-ompi-component-dir) cannot write to the former, so
 * `make install` puts help-coll-rsag.txt next to mca_coll_rsag.so and
 * mca_coll_rsag_help_init adds the directory the component was loaded
 * from.
 */
#ifndef MCA_COLL_RSAG_HELP_H
#define MCA_COLL_RSAG_HELP_H

#include <stdbool.h>

#define MCA_COLL_RSAG_HELP_FILE "help-coll-rsag.txt"

/* Add the directory mca_coll_rsag.so was loaded from to opal_show_help's
 * search path (once; at registration, before any message). */
void mca_coll_rsag_help_init(void);

/* Whether this process prints the job's messages: rank 0 of
 * MPI_COMM_WORLD as the launcher numbers it (OMPI_COMM_WORLD_RANK), or a
 * process not started by a launcher (a singleton, ompi_info). */
bool mca_coll_rsag_first_process(void);

/* opal_show_help(help-coll-rsag.txt, topic, ...) from the first process
 * only: one message per job, not one per rank. */
void mca_coll_rsag_show_help(const char *topic, ...);

/* A setting that cannot be used, replaced: one line (printf format, no
 * newline) of the registration's message, printed with the others by
 * mca_coll_rsag_warn_settings_flush at the end of registration, once per
 * job (help topic "unusable-settings"). */
void mca_coll_rsag_warn_setting(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
void mca_coll_rsag_warn_settings_flush(void);

#endif /* MCA_COLL_RSAG_HELP_H */
