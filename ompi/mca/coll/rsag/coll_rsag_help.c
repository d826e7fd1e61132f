/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Messages to users through opal_show_help (coll_rsag_help.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* dladdr */
#endif
#include "ompi_config.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/util/show_help.h"

#include "coll_rsag_help.h"

void mca_coll_rsag_help_init(void)
{
    static bool added = false;
    Dl_info info;
    char *dir, *slash;

    if (added) {
        return;
    }
    added = true;
    if (0 == dladdr((void *) mca_coll_rsag_help_init, &info) || NULL == info.dli_fname) {
        return;     /* then only Open MPI's pkgdatadir is searched */
    }
    dir = strdup(info.dli_fname);
    if (NULL == dir) {
        return;
    }
    slash = strrchr(dir, '/');
    if (NULL != slash) {
        *slash = '\0';
        (void) opal_show_help_add_dir(dir);     /* copies the string */
    }
    free(dir);
}

bool mca_coll_rsag_first_process(void)
{
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");

    return NULL == rank || 0 == strcmp(rank, "0");
}

void mca_coll_rsag_show_help(const char *topic, ...)
{
    va_list ap;

    if (!mca_coll_rsag_first_process()) {
        return;
    }
    va_start(ap, topic);
    (void) opal_show_vhelp(MCA_COLL_RSAG_HELP_FILE, topic, true, ap);
    va_end(ap);
}

/* The lines of the registration's message. */
static char mca_coll_rsag_warnings[4096];
static size_t mca_coll_rsag_warnings_used;

void mca_coll_rsag_warn_setting(const char *fmt, ...)
{
    char *buf = mca_coll_rsag_warnings;
    size_t len = sizeof(mca_coll_rsag_warnings), used = mca_coll_rsag_warnings_used;
    va_list ap;
    int n;

    if (used + 16 >= len) {
        return;     /* full: the first lines are the ones that matter */
    }
    used += (size_t) snprintf(buf + used, len - used, "  coll:rsag: ");
    va_start(ap, fmt);
    n = vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
    used = (n < 0) ? used : used + (size_t) n;
    if (used + 2 >= len) {
        used = len - 2;
    }
    buf[used++] = '\n';
    buf[used] = '\0';
    mca_coll_rsag_warnings_used = used;
}

void mca_coll_rsag_warn_settings_flush(void)
{
    if (mca_coll_rsag_warnings_used > 0) {
        mca_coll_rsag_show_help("unusable-settings", mca_coll_rsag_warnings);
    }
    mca_coll_rsag_warnings_used = 0;
    mca_coll_rsag_warnings[0] = '\0';
}
