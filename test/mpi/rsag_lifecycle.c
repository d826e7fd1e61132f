/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_lifecycle: module life cycle checks.
 *
 *  churn   N (default 1000, --cycles N) MPI_Comm_dup / MPI_Comm_split +
 *          reductions + free cycles: every communicator gets an rsag module
 *          that retains the previous modules and must release them; resident
 *          memory may not grow by more than a small bound (--rss-bound KiB,
 *          default 512) once warm (after 200 cycles).
 *  inter   an intercommunicator: rsag's reductions leave it alone (rsag only
 *          fills empty slots there), reductions
 *          still work (done by another component) and rsag counts nothing.
 *
 * Usage: mpirun -np N rsag_lifecycle [--cycles N] [--rss-bound KiB]
 * Prints "rsag_lifecycle: <check> PASS|FAIL ..." per check on rank 0;
 * exit status 0 iff all pass.
 */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rsag_mpit.h"

/* Calls rsag counted on this rank (every algorithm, delegated included;
 * every collective, or MPI_Allreduce only): rsag's MPI_T counters, through
 * rsag_mpit.c; -1 if rsag is not loaded. */
static long long rsag_calls(bool allreduce_only)
{
    return rt_calls(allreduce_only ? RT_ALLREDUCE : -1);
}

static void cycle(int i)
{
    MPI_Comm c;
    int rank, in = 1, out = 0;

    if (i % 2) {
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
    } else {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &c);
    }
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, c);
    MPI_Reduce(&in, &out, 1, MPI_INT, MPI_SUM, 0, c);
    MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
    int rank, size, failed = 0;
    long cycles = 1000, bound_kb = 512;

    MPI_Init(&argc, &argv);
    for (int a = 1; a < argc; ++a) {
        long *dst = !strcmp(argv[a], "--cycles") ? &cycles
                    : !strcmp(argv[a], "--rss-bound") ? &bound_kb : NULL;
        char *end = NULL;
        if (NULL == dst || a + 1 >= argc || (*dst = strtol(argv[a + 1], &end, 10)) < 1
            || '\0' != *end) {
            fprintf(stderr, "usage: rsag_lifecycle [--cycles N>=1] [--rss-bound KiB>=1]\n");
            MPI_Finalize();
            return 2;
        }
        ++a;
    }
    /* without rsag the counters are missing: the checks below fail */
    rt_mpit_open(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* churn */
    {
        long before, after, growth, max_growth;
        long long calls0 = rsag_calls(false), calls1;
        double t0 = MPI_Wtime();

        for (int i = 0; i < 200; ++i) {
            cycle(i);
        }
        before = rt_rss_kb();
        for (long i = 0; i < cycles; ++i) {
            cycle((int) (i % 2));
        }
        after = rt_rss_kb();
        calls1 = rsag_calls(false);
        growth = after - before;
        MPI_Allreduce(&growth, &max_growth, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
        if (0 == rank) {
            /* every dup cycle makes two calls on an rsag module (a split of a
             * 2-rank job gives size-1 communicators, which coll/self owns) */
            bool ok = max_growth <= bound_kb && calls0 >= 0 && calls1 - calls0 >= cycles;
            printf("rsag_lifecycle: churn %s: %ld dup/split+reduce+free cycles, RSS growth "
                   "%ld KiB (bound %ld KiB), rsag calls %lld, %.1f s\n",
                   ok ? "PASS" : "FAIL", cycles, max_growth, bound_kb, calls1 - calls0,
                   MPI_Wtime() - t0);
            failed |= !ok;
        }
    }

    /* inter: rsag's reductions never take an intercommunicator (rsag fills
     * only empty slots there, coll_rsag_fill.c); the reduction must be right */
    if (size >= 2) {
        MPI_Comm half, inter;
        int color = rank % 2, in = rank, out = -1, expect = 0, ok, allok;
        long long c0, c1;

        MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 7, &inter);
        /* coll/inter reduces inside each group's local intracommunicator
         * (where rsag may work), but the intercommunicator's own
         * MPI_Allreduce slot must not be rsag's. */
        c0 = rsag_calls(true);
        MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, inter);
        c1 = rsag_calls(true);
        /* An intercommunicator allreduce gives each group the other group's sum. */
        for (int r = 0; r < size; ++r) {
            expect += (r % 2 != color) ? r : 0;
        }
        ok = (out == expect) && (c1 == c0);
        MPI_Allreduce(&ok, &allok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        if (0 == rank) {
            printf("rsag_lifecycle: inter %s: intercommunicator allreduce %s, rsag counted %lld "
                   "MPI_Allreduce calls on it (must be 0)\n",
                   allok ? "PASS" : "FAIL", out == expect ? "right" : "WRONG", c1 - c0);
            failed |= !allok;
        }
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }

    rt_mpit_finalize();
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return failed ? 1 : 0;
}
