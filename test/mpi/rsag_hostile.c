/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_hostile.c -- hostile settings written through MPI_T must not crash,
 * hang or corrupt a collective.
 *
 * The MCA parameters are checked once at registration; MPI_T may write any
 * value later.  This program writes the settings given on the command line
 * (name=value, parsed by the control variable's datatype), then, for every
 * algorithm of every collective (forced through coll_rsag_<coll>_algorithm,
 * then auto), runs MPI_Allreduce, MPI_Reduce (root p - 1),
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter (irregular counts with a
 * zero) on MPI_INT sums of several sizes, and checks every result exactly.
 * rsag's counters (coll_rsag_<coll>_<alg>_calls, _delegated_calls), read
 * right before and after each call, must show that exactly one counter
 * moved, by one, and that it is the forced algorithm's wherever that
 * algorithm applies (rt_applies; elsewhere, and under auto, any algorithm or
 * the delegated counter: thresholds set out of range may leave sizes to the
 * previous module); the program's own bookkeeping calls fall outside these
 * readings.
 *
 * Usage: mpirun -np N rsag_hostile [name=value ...]
 *   e.g. coll_rsag_allreduce_ring_chunk_size=1 coll_rsag_priority_aware_run_blocks=-7
 * Prints "rsag_hostile: N cases, F failed" on rank 0; exit status 1 on any
 * failure, 2 when a setting cannot be written.
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsag_mpit.h"

/* The collectives in rsag_mpit's order (RT_ALLREDUCE ...). */
enum { ALLREDUCE = RT_ALLREDUCE, REDUCE = RT_REDUCE, RSB = RT_RSB, RS = RT_RS, NCOLL = RT_NCOLL };
static int rank, size, pof2, cases, failures;
static rt_placement_t where;

/* Write "name=value" through MPI_T, by the variable's datatype. */
static void write_setting(const char *setting)
{
    char name[256];
    const char *eq = strchr(setting, '=');
    MPI_Datatype dt;
    MPI_T_cvar_handle h;
    union { int i; unsigned u; long l; unsigned long ul; long long ll; unsigned long long ull; } v;

    if (NULL == eq || (size_t) (eq - setting) >= sizeof name) {
        fprintf(stderr, "rsag_hostile: expected name=value, got %s\n", setting);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memcpy(name, setting, (size_t) (eq - setting));
    name[eq - setting] = '\0';
    h = rt_cvar(name, &dt, NULL);
    if (dt == MPI_INT) {
        v.i = (int) strtol(eq + 1, NULL, 0);
    } else if (dt == MPI_UNSIGNED) {
        v.u = (unsigned) strtoul(eq + 1, NULL, 0);
    } else if (dt == MPI_LONG) {
        v.l = strtol(eq + 1, NULL, 0);
    } else if (dt == MPI_UNSIGNED_LONG) {
        v.ul = strtoul(eq + 1, NULL, 0);
    } else if (dt == MPI_LONG_LONG) {
        v.ll = strtoll(eq + 1, NULL, 0);
    } else if (dt == MPI_UNSIGNED_LONG_LONG) {
        v.ull = strtoull(eq + 1, NULL, 0);
    } else {
        fprintf(stderr, "rsag_hostile: %s has a datatype this program cannot write\n", name);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    rt_cvar_write(h, &v);
    MPI_T_cvar_handle_free(&h);
    if (0 == rank) {
        printf("rsag_hostile: wrote %s through MPI_T\n", setting);
    }
}

static void check(int ok, const char *coll, const char *alg, int n)
{
    int all;

    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    ++cases;
    if (!all) {
        ++failures;
        if (0 == rank) {
            printf("rsag_hostile: FAIL %s alg=%s n=%d\n", coll, alg, n);
        }
    }
}

/* One call of `coll` with n elements per rank (Allreduce, Reduce) or per
 * block (reduce-scatter), algorithm k forced; element i of rank r is r + i. */
static void run_case(int coll, int k, int n)
{
    const char *alg = rt_alg(coll, k);
    rt_snap_t before, after;
    const char *ran;
    size_t total = (coll == RSB || coll == RS) ? (size_t) n * size : (size_t) n;
    int *in = malloc(total * sizeof(int)), *out = malloc(total * sizeof(int));
    int *counts = malloc(size * sizeof(int)), ok = 1, rc = MPI_SUCCESS, mine = n, first = 0;
    long long base = (long long) size * (size - 1) / 2;

    for (size_t i = 0; i < total; ++i) {
        in[i] = rank + (int) (i % 1000);
        out[i] = -1;
    }
    if (0 != rt_snapshot(coll, &before)) {
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    switch (coll) {
    case ALLREDUCE:
        rc = MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case REDUCE:
        rc = MPI_Reduce(in, out, n, MPI_INT, MPI_SUM, size - 1, MPI_COMM_WORLD);
        if (rank != size - 1) {
            mine = 0;
        }
        break;
    case RSB:
        rc = MPI_Reduce_scatter_block(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        first = rank * n;
        break;
    default:
        /* irregular: rank 0 gets none, the others share total */
        for (int r = 0; r < size; ++r) {
            counts[r] = (0 == r) ? 0 : (int) (total / (size - 1)) + (r <= (int) (total % (size - 1)));
        }
        for (int r = 0; r < rank; ++r) {
            first += counts[r];
        }
        mine = counts[rank];
        rc = MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        break;
    }
    if (0 != rt_snapshot(coll, &after)) {
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    ok = (MPI_SUCCESS == rc);
    for (int i = 0; ok && i < mine; ++i) {
        long long want = base + (long long) size * ((first + i) % 1000);
        ok = (out[i] == want);
    }
    if (!ok) {
        printf("rsag_hostile: rank %d: %s alg=%s n=%d: wrong result (rc %d)\n", rank,
               rt_coll_names[coll], alg, n, rc);
    }
    ran = rt_ran(coll, &before, &after);
    if (0 == strcmp(ran, "none") || 0 == strcmp(ran, "several")) {
        printf("rsag_hostile: rank %d: %s alg=%s n=%d: counters: %s moved (one counter, by "
               "one, expected)\n", rank, rt_coll_names[coll], alg, n, ran);
        ok = 0;
    } else if (k > 0 && rt_applies(alg, (long) total, pof2, 1, 1, where)
               && 0 != strcmp(ran, alg)) {
        printf("rsag_hostile: rank %d: %s alg=%s n=%d: counters: %s forced and applicable, "
               "but %s ran\n", rank, rt_coll_names[coll], alg, n, alg, ran);
        ok = 0;
    }
    check(ok, rt_coll_names[coll], alg, n);
    free(in);
    free(out);
    free(counts);
}

int main(int argc, char **argv)
{
    static const int sizes[] = { 1, 3, 17, 1000, 40000 };

    rt_start(&argc, &argv, &rank, &size);
    for (int i = 1; i < argc; ++i) {
        write_setting(argv[i]);
    }

    pof2 = 1;
    while (pof2 * 2 <= size) {
        pof2 *= 2;
    }
    where = rt_placement(MPI_COMM_WORLD);
    for (int coll = 0; coll < NCOLL; ++coll) {
        for (int a = rt_nalg(coll) - 1; a >= 0; --a) {     /* auto (0) last */
            if (0 != rt_force(coll, a)) {
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
                run_case(coll, a, sizes[s]);
            }
        }
    }

    if (0 == rank) {
        printf("rsag_hostile: np=%d %d cases, %d failed\n", size, cases, failures);
    }
    rt_mpit_finalize();
    MPI_Finalize();
    return failures ? 1 : 0;
}
