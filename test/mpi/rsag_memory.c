/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_memory.c -- the priority-aware reduce-scatter must not use more
 * temporary memory than recursive halving (seed 002: "no extra memory").
 *
 * For MPI_Reduce_scatter_block and MPI_Reduce_scatter (even, irregular with
 * zeros, and single-owner recvcounts), several sizes, in place and not,
 * the program forces coll_rsag_<coll>_algorithm to recursive_halving and
 * then to priority_aware through MPI_T, and after each call reads
 *   coll_rsag_temporary_bytes        peak temporary bytes of rsag's last call
 *   coll_rsag_<coll>_<alg>_calls     proof that the forced algorithm ran
 * Every rank asserts priority_aware <= halving for its own process, both > 0
 * (work was done: n > 0 and p > 1), the counters moved, and the results are
 * exact (integer-valued doubles).  Rank 0 prints one line per case (bytes as
 * min..max over the ranks) and a summary; exit status 1 on any failure.
 *
 * Usage: mpirun -np N rsag_memory [--verbose]   (N >= 2)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsag_mpit.h"

enum { RSB, RS, NCOLL };
static const char *coll_names[NCOLL] = { "reduce_scatter_block", "reduce_scatter" };
enum { HALVING, PRIORITY_AWARE, NALG };
static const char *alg_names[NALG] = { "recursive_halving", "priority_aware" };

/* rsag_mpit's collective ids of RSB and RS, and its indexes of the two
 * algorithms (looked up by name: ids are the table's business). */
static const int rt_coll[NCOLL] = { RT_RSB, RT_RS };
static int alg_index[NCOLL][NALG];
static MPI_T_pvar_handle tmp_bytes;
static int rank, size, verbose;

/* recvcounts of a layout: 0 even, 1 irregular with zeros, 2 one rank owns all */
static const char *layout_names[] = { "even", "irregular", "single-owner" };
static void make_counts(int layout, int per_rank, int *counts)
{
    for (int i = 0; i < size; ++i) {
        switch (layout) {
        case 0: counts[i] = per_rank; break;
        case 1: counts[i] = (i % 3 == 1) ? 0 : per_rank / 2 + (i * 7919) % (per_rank + 1); break;
        default: counts[i] = (i == size / 2) ? per_rank * size : 0; break;
        }
    }
}

/* One call with `alg` forced; returns the temporary bytes and checks the
 * result and the counter.  Failures are described in *why. */
static unsigned long long run_one(int coll, int alg, const int *counts, size_t n, int inplace,
                                  double *sbuf, double *rbuf, char *why, size_t whylen)
{
    unsigned long long bytes;
    size_t off = 0;
    int rc, mine = counts[rank];
    rt_snap_t before, after;
    const char *ran;

    rt_force(rt_coll[coll], alg_index[coll][alg]);
    for (size_t i = 0; i < n; ++i) {
        (inplace ? rbuf : sbuf)[i] = (double) ((rank + 1) * (int) (i % 13 + 1));
    }
    rt_snapshot(rt_coll[coll], &before);
    if (RSB == coll) {
        rc = MPI_Reduce_scatter_block(inplace ? MPI_IN_PLACE : sbuf, rbuf, mine, MPI_DOUBLE,
                                      MPI_SUM, MPI_COMM_WORLD);
    } else {
        rc = MPI_Reduce_scatter(inplace ? MPI_IN_PLACE : sbuf, rbuf, counts, MPI_DOUBLE,
                                MPI_SUM, MPI_COMM_WORLD);
    }
    /* read before any other collective: the level is per call */
    bytes = rt_pvar_read(tmp_bytes);
    rt_snapshot(rt_coll[coll], &after);
    ran = rt_ran(rt_coll[coll], &before, &after);

    if (MPI_SUCCESS != rc) {
        snprintf(why, whylen, "%s returned %d", alg_names[alg], rc);
        return bytes;
    }
    if (0 != strcmp(ran, alg_names[alg])) {
        snprintf(why, whylen, "%s forced but the counters say %s ran", alg_names[alg], ran);
        return bytes;
    }
    for (int i = 0; i < rank; ++i) {
        off += (size_t) counts[i];
    }
    for (int i = 0; i < mine; ++i) {
        double want = (double) ((int) ((off + i) % 13 + 1) * size * (size + 1) / 2);
        if (rbuf[i] != want) {
            snprintf(why, whylen, "%s: element %d is %g, expected %g", alg_names[alg], i,
                     rbuf[i], want);
            return bytes;
        }
    }
    return bytes;
}

int main(int argc, char **argv)
{
    static const int per_rank_sizes[] = { 1, 3, 1000, 65539 };
    const int nsizes = (int) (sizeof per_rank_sizes / sizeof per_rank_sizes[0]);
    int cases = 0, failures = 0, equal = 0;
    int *counts;
    double *sbuf, *rbuf;
    size_t cap;

    rt_start(&argc, &argv, &rank, &size);
    verbose = argc > 1 && 0 == strcmp(argv[1], "--verbose");
    if (size < 2) {
        if (0 == rank) {
            fprintf(stderr, "rsag_memory: needs at least 2 processes\n");
        }
        rt_mpit_finalize();
        MPI_Finalize();
        return 2;
    }
    tmp_bytes = rt_pvar("coll_rsag_temporary_bytes", MPI_T_PVAR_CLASS_LEVEL);
    for (int coll = 0; coll < NCOLL; ++coll) {
        for (int a = 0; a < NALG; ++a) {
            alg_index[coll][a] = rt_alg_index(rt_coll[coll], alg_names[a]);
            if (alg_index[coll][a] < 0) {
                fprintf(stderr, "rsag_memory: coll_rsag_%s_algorithm has no value %s\n",
                        coll_names[coll], alg_names[a]);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
        }
    }

    cap = (size_t) per_rank_sizes[nsizes - 1] * (size_t) size * 2;
    counts = malloc((size_t) size * sizeof(int));
    sbuf = malloc(cap * sizeof(double));
    rbuf = malloc(cap * sizeof(double));
    if (NULL == counts || NULL == sbuf || NULL == rbuf) {
        fprintf(stderr, "rsag_memory: rank %d: out of memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    for (int coll = 0; coll < NCOLL; ++coll) {
        for (int layout = 0; layout < (RSB == coll ? 1 : 3); ++layout) {
            for (int si = 0; si < nsizes; ++si) {
                for (int inplace = 0; inplace < 2; ++inplace) {
                    unsigned long long b[NALG] = { 0, 0 }, mine[2 * NALG], lo[2 * NALG], hi[2 * NALG];
                    char why[256] = "";
                    size_t n = 0;
                    int bad, anybad;

                    make_counts(layout, per_rank_sizes[si], counts);
                    for (int i = 0; i < size; ++i) {
                        n += (size_t) counts[i];
                    }
                    for (int a = 0; a < NALG && !why[0]; ++a) {
                        b[a] = run_one(coll, a, counts, n, inplace, sbuf, rbuf, why, sizeof why);
                    }
                    if (!why[0] && b[PRIORITY_AWARE] > b[HALVING]) {
                        snprintf(why, sizeof why, "priority_aware used %llu bytes, halving %llu",
                                 b[PRIORITY_AWARE], b[HALVING]);
                    }
                    if (!why[0] && (0 == b[PRIORITY_AWARE] || 0 == b[HALVING])) {
                        snprintf(why, sizeof why, "no temporary bytes counted (halving %llu, "
                                 "priority_aware %llu): rsag did not run?", b[HALVING],
                                 b[PRIORITY_AWARE]);
                    }
                    bad = why[0] != 0;
                    if (bad) {
                        printf("rsag_memory: FAIL rank %d: %s %s n=%zu inplace=%d: %s\n", rank,
                               coll_names[coll], layout_names[layout], n, inplace, why);
                        fflush(stdout);
                    }
                    for (int a = 0; a < NALG; ++a) {
                        mine[a] = b[a];
                        mine[NALG + a] = ~b[a];
                    }
                    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
                    MPI_Allreduce(mine, hi, 2 * NALG, MPI_UNSIGNED_LONG_LONG, MPI_MAX,
                                  MPI_COMM_WORLD);
                    for (int a = 0; a < NALG; ++a) {
                        lo[a] = ~hi[NALG + a];
                    }
                    ++cases;
                    failures += anybad;
                    equal += !anybad && lo[HALVING] == lo[PRIORITY_AWARE]
                             && hi[HALVING] == hi[PRIORITY_AWARE];
                    if (0 == rank) {
                        printf("rsag_memory: %-4s %-20s %-12s n=%-8zu inplace=%d  "
                               "halving %llu..%llu B  priority_aware %llu..%llu B\n",
                               anybad ? "FAIL" : "ok", coll_names[coll], layout_names[layout],
                               n, inplace, lo[HALVING], hi[HALVING], lo[PRIORITY_AWARE],
                               hi[PRIORITY_AWARE]);
                    }
                    if (verbose) {
                        printf("rsag_memory: rank %d: halving %llu priority_aware %llu\n", rank,
                               b[HALVING], b[PRIORITY_AWARE]);
                    }
                }
            }
        }
    }
    if (0 == rank) {
        printf("rsag_memory: np=%d cases=%d passed=%d failed=%d (priority_aware == halving on "
               "every rank in %d)\n", size, cases, cases - failures, failures, equal);
    }

    free(counts);
    free(sbuf);
    free(rbuf);
    rt_pvar_free(&tmp_bytes);
    rt_mpit_finalize();
    MPI_Finalize();
    return failures ? 1 : 0;
}
