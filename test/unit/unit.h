/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/* Minimal check macros for the unit tests (no MPI, no framework). */
#ifndef RSAG_UNIT_H
#define RSAG_UNIT_H

#include <stdio.h>

static int unit_passed, unit_failed;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (cond) {                                                        \
            ++unit_passed;                                                 \
        } else {                                                           \
            if (++unit_failed <= 20) {                                     \
                fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__,     \
                        __LINE__, #cond);                                  \
                fprintf(stderr, __VA_ARGS__);                              \
                fputc('\n', stderr);                                       \
            }                                                              \
        }                                                                  \
    } while (0)

/* Prints the summary line and gives the exit status. */
static inline int unit_report(const char *name)
{
    printf("%s: %d checks passed, %d failed\n", name, unit_passed, unit_failed);
    return unit_failed ? 1 : 0;
}

#endif
