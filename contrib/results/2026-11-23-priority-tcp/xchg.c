/* Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree. */
/* exchange pattern test: pair (rank ^ d) vs shift (rank+d / rank-d), MB/s per rank per direction */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r, p; MPI_Comm_rank(MPI_COMM_WORLD, &r); MPI_Comm_size(MPI_COMM_WORLD, &p);
    long n = atol(argv[1]); int d = atoi(argv[3]); int it = 5;
    int pair = !strcmp(argv[2], "pair");
    char *s = malloc(n), *b = malloc(n); memset(s, 1, n);
    int to = pair ? (r ^ d) : (r + d) % p, from = pair ? (r ^ d) : (r - d + p) % p;
    double best = 1e9;
    for (int i = 0; i < it + 1; ++i) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime();
        MPI_Sendrecv(s, n, MPI_CHAR, to, 0, b, n, MPI_CHAR, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        t = MPI_Wtime() - t;
        double m; MPI_Allreduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (i > 0 && m < best) best = m;
    }
    if (0 == r) printf("%s d=%d %ld bytes: %.1f ms, %.1f MB/s per rank each way\n", argv[2], d, n, best * 1e3, n / best / 1e6);
    MPI_Finalize();
    return 0;
}
