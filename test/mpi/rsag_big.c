/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_big.c -- MPI_Allreduce and MPI_Reduce of a vector just past 2^31
 * bytes with a count below 2^31: MPI_INT, count 2^29 + 16 (2 GiB + 64
 * bytes), MPI_SUM.  Byte arithmetic in int overflows there; the result must
 * still be right in every element.
 *
 * Usage: mpirun -np N rsag_big [--coll allreduce|reduce|both] [--count N]
 *                              [--alg NAME]
 * --alg forces the algorithm (through MPI_T) for both collectives where it
 * exists.  Rank 0 prints one line per call "rsag_big: <coll> count=N
 * bytes=B alg=<what ran> seconds=S: ok|FAIL" and last
 * "rsag_big: np=N failed=F"; exit 0 iff nothing failed.  Every element is
 * checked; rsag's MPI_T counters must show that rsag ran the call (not
 * delegated).  Memory: two buffers of 2 GiB per rank, plus the
 * algorithm's temporaries.
 */
#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsag_mpit.h"

/* Input element i of rank r (cheap: checking 2^29 elements is the cost). */
static int value(int r, size_t i)
{
    return (int) ((i ^ (i >> 11)) & 0x3ff) - 0x200 + r;
}

int main(int argc, char **argv)
{
    int rank, size, failed = 0, which = 3;
    size_t count = ((size_t) 1 << 29) + 16;
    const char *alg = NULL;

    for (int i = 1; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--coll") && i + 1 < argc) {
            ++i;
            which = 0 == strcmp(argv[i], "allreduce") ? 1 : 0 == strcmp(argv[i], "reduce") ? 2 : 3;
        } else if (0 == strcmp(argv[i], "--count") && i + 1 < argc) {
            count = (size_t) strtoull(argv[++i], NULL, 10);
        } else if (0 == strcmp(argv[i], "--alg") && i + 1 < argc) {
            alg = argv[++i];
        }
    }
    rt_start(&argc, &argv, &rank, &size);
    if (count > (size_t) INT32_MAX) {
        if (0 == rank) {
            printf("rsag_big: count %zu does not fit an int\n", count);
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int *sbuf = malloc(count * sizeof(int)), *rbuf = malloc(count * sizeof(int));
    if (NULL == sbuf || NULL == rbuf) {
        fprintf(stderr, "rsag_big: rank %d: cannot allocate 2 x %zu bytes\n", rank,
                count * sizeof(int));
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (size_t i = 0; i < count; ++i) {
        sbuf[i] = value(rank, i);
    }
    for (int c = 0; c < 2; ++c) {
        int coll = 0 == c ? RT_ALLREDUCE : RT_REDUCE, bad = 0, all = 0, root = size - 1;
        rt_snap_t a, b;
        size_t first_bad = 0;
        double t;

        if (!(which & (1 << c))) {
            continue;
        }
        if (NULL != alg && rt_alg_index(coll, alg) > 0) {
            rt_force(coll, rt_alg_index(coll, alg));
        }
        memset(rbuf, 0xff, count * sizeof(int));
        rt_snapshot(coll, &a);
        MPI_Barrier(MPI_COMM_WORLD);
        t = MPI_Wtime();
        int rc = RT_ALLREDUCE == coll
                     ? MPI_Allreduce(sbuf, rbuf, (int) count, MPI_INT, MPI_SUM, MPI_COMM_WORLD)
                     : MPI_Reduce(sbuf, rbuf, (int) count, MPI_INT, MPI_SUM, root,
                                  MPI_COMM_WORLD);
        t = MPI_Wtime() - t;
        rt_snapshot(coll, &b);
        const char *ran = rt_ran(coll, &a, &b);
        if (MPI_SUCCESS != rc) {
            bad = 1;
        } else if (RT_ALLREDUCE == coll || rank == root) {
            for (size_t i = 0; i < count; ++i) {
                int want = size * value(0, i) + size * (size - 1) / 2;
                if (rbuf[i] != want) {
                    if (0 == bad++) {
                        first_bad = i;
                    }
                }
            }
        }
        int not_rsag = 0 == strcmp(ran, "none") || 0 == strcmp(ran, "several")
                       || 0 == strcmp(ran, "delegated");
        if (bad || not_rsag) {
            fprintf(stderr, "rsag_big: rank %d: %s: rc %d, %d wrong elements (first at %zu), "
                            "rsag's counters say %s ran it\n",
                    rank, rt_coll_names[coll], rc, bad, first_bad, ran);
        }
        bad += not_rsag;
        {
            int *each = malloc(sizeof(int) * (size_t) size);
            MPI_Allgather(&bad, 1, MPI_INT, each, 1, MPI_INT, MPI_COMM_WORLD);
            all = 0;
            for (int r = 0; r < size; ++r) {
                all += each[r] != 0;
            }
            free(each);
        }
        failed += all != 0;
        if (0 == rank) {
            printf("rsag_big: %s count=%zu bytes=%zu alg=%s seconds=%.1f: %s\n",
                   rt_coll_names[coll], count, count * sizeof(int), ran, t, all ? "FAIL" : "ok");
            fflush(stdout);
        }
    }
    free(sbuf);
    free(rbuf);
    if (0 == rank) {
        printf("rsag_big: np=%d failed=%d\n", size, failed);
    }
    rt_mpit_finalize();
    MPI_Finalize();
    return failed ? 1 : 0;
}
