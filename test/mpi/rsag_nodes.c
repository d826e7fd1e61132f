/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_nodes: what nodes a job sees, for the multi-node tests on the
 * emulated cluster (contrib/rsag-cluster.sh, doc/cluster.md).
 *
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) groups the ranks by node; world
 * rank 0 gathers each rank's node (its lowest world rank), node size and
 * MPI_Get_processor_name and prints
 *   rsag_nodes: np=<p> nodes=<n> sizes=<s1>,<s2>,... hosts=<h1>,<h2>,...
 * in order of each node's lowest rank.  The ranks of a node must share one
 * host name and different nodes must have different ones (else exit 1).
 * Every rank first exchanges a message with every other rank, so that each
 * pair has a connection (and btl_base_verbose names its btl).
 *
 * Usage: mpirun ... rsag_nodes [--expect-nodes N] [--expect-sizes S1,S2,...]
 *                              [--pingpong BYTES] [--iters K]
 *   --expect-*   exit 1 unless the job has these nodes (sizes in node order)
 *   --pingpong   also time MPI_Send/MPI_Recv round trips of BYTES between
 *                rank 0 and the first rank of another node (and a rank of
 *                its own node, if any), K times after 2 warm-up trips:
 *     rsag_nodes: pingpong 0<->R other-node BYTES bytes: X MB/s, Y us/round trip
 *   MB/s counts the bytes moved in both directions (2·BYTES per trip) / time.
 *   --samebits N1,N2,...  also MPI_Allreduce (MPI_SUM) of N non-integer
 *                doubles for each N (each rank's input from its rank: no sum
 *                is exact, so the order of the additions shows in the bits):
 *                every rank must get the same bits as rank 0 (MPI_Bcast of
 *                rank 0's result), within 1e-12 (relative) of the sum in rank
 *                order, and rank 0 prints
 *     rsag_nodes: samebits N doubles: same bits on all P ranks
 *                (the algorithm is whatever rsag chooses or is forced to)
 * Only point-to-point, MPI_Bcast and MPI_Gather are used (and the
 * MPI_Allreduce --samebits tests): no other reduction.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int leader;     /* lowest world rank on the node */
    int size;       /* ranks on the node */
    char host[MPI_MAX_PROCESSOR_NAME];
} rank_info_t;

static double pingpong(int me, int peer, char *buf, long bytes, int iters)
{
    double t0 = 0.0;
    for (int i = -2; i < iters; i++) {
        if (i == 0) t0 = MPI_Wtime();
        if (me == 0) {
            MPI_Send(buf, (int) bytes, MPI_BYTE, peer, 7, MPI_COMM_WORLD);
            MPI_Recv(buf, (int) bytes, MPI_BYTE, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, (int) bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int) bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
        }
    }
    return MPI_Wtime() - t0;
}

/* --samebits: one MPI_Allreduce of n doubles; 0 when right on this rank. */
static int samebits(int rank, int np, long n)
{
    double *in = malloc((size_t) n * sizeof(double)), *out = malloc((size_t) n * sizeof(double));
    double *root = malloc((size_t) n * sizeof(double));
    int bad = 0, any = 0;

    if (NULL == in || NULL == out || NULL == root) {
        printf("rsag_nodes: samebits: out of memory\n");
        return 1;
    }
    for (long i = 0; i < n; i++) {
        in[i] = sin(1.0 + (double) i * 0.37 + (double) rank * 1.91) * (1.0 + rank % 3) / 3.0;
    }
    MPI_Allreduce(in, out, (int) n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    memcpy(root, out, (size_t) n * sizeof(double));
    MPI_Bcast(root, (int) n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (long i = 0; i < n && !bad; i++) {
        double want = 0.0;
        for (int r = 0; r < np; r++) {
            want += sin(1.0 + (double) i * 0.37 + (double) r * 1.91) * (1.0 + r % 3) / 3.0;
        }
        if (0 != memcmp(&out[i], &root[i], sizeof(double))) {
            printf("rsag_nodes: samebits %ld: rank %d element %ld is %.17g, rank 0 has %.17g\n",
                   n, rank, i, out[i], root[i]);
            bad = 1;
        } else if (fabs(out[i] - want) > 1e-12 * (1.0 + fabs(want))) {
            printf("rsag_nodes: samebits %ld: rank %d element %ld is %.17g, expected %.17g\n",
                   n, rank, i, out[i], want);
            bad = 1;
        }
    }
    if (0 == rank) {
        int *all = malloc((size_t) np * sizeof(int));
        MPI_Gather(&bad, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
        for (int r = 0; r < np; r++) any |= all[r];
        free(all);
        printf("rsag_nodes: samebits %ld doubles: %s\n", n,
               any ? "FAILED" : "same bits on all ranks");
    } else {
        MPI_Gather(&bad, 1, MPI_INT, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
    }
    free(in);
    free(out);
    free(root);
    return bad | any;
}

int main(int argc, char **argv)
{
    int rank, np, expect_nodes = -1, iters = 20, bad = 0;
    long pp_bytes = 0;
    const char *expect_sizes = NULL, *same = NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (v && !strcmp(a, "--expect-nodes")) { expect_nodes = atoi(v); i++; }
        else if (v && !strcmp(a, "--expect-sizes")) { expect_sizes = v; i++; }
        else if (v && !strcmp(a, "--pingpong")) { pp_bytes = atol(v); i++; }
        else if (v && !strcmp(a, "--iters")) { iters = atoi(v); i++; }
        else if (v && !strcmp(a, "--samebits")) { same = v; i++; }
        else {
            if (rank == 0)
                fprintf(stderr, "usage: rsag_nodes [--expect-nodes N] [--expect-sizes S1,S2,...]"
                                " [--pingpong BYTES] [--iters K] [--samebits N,...]\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (pp_bytes < 0 || pp_bytes > (1L << 30) || iters < 1) pp_bytes = 0;

    /* every pair talks once: rank +d sends to rank -d receives */
    for (int d = 1; d < np; d++) {
        int token = rank, got = -1, from = (rank - d + np) % np;
        MPI_Sendrecv(&token, 1, MPI_INT, (rank + d) % np, 3, &got, 1, MPI_INT, from, 3,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (got != from) {
            printf("rsag_nodes: rank %d got %d from rank %d\n", rank, got, from);
            bad = 1;
        }
    }

    MPI_Comm node;
    rank_info_t me;
    int len = 0;
    memset(&me, 0, sizeof(me));
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &me.size);
    me.leader = rank;
    MPI_Bcast(&me.leader, 1, MPI_INT, 0, node);   /* key = world rank: local 0 is lowest */
    MPI_Get_processor_name(me.host, &len);

    rank_info_t *all = rank == 0 ? calloc((size_t) np, sizeof(*all)) : NULL;
    MPI_Gather(&me, (int) sizeof(me), MPI_BYTE, all, (int) sizeof(me), MPI_BYTE, 0, MPI_COMM_WORLD);

    /* rank 0: nodes in order of their leader; peers for the ping-pong */
    int peers[2] = { -1, -1 };   /* other node, same node */
    if (rank == 0) {
        int nodes = 0;
        char sizes[1024] = "", hosts[4096] = "";
        for (int r = 0; r < np; r++) {
            if (all[r].leader != r) {
                if (strcmp(all[r].host, all[all[r].leader].host)) {
                    printf("rsag_nodes: rank %d on node of rank %d has host %s, not %s\n",
                           r, all[r].leader, all[r].host, all[all[r].leader].host);
                    bad = 1;
                }
                if (all[r].leader == 0 && peers[1] < 0) peers[1] = r;
                continue;
            }
            for (int q = 0; q < r; q++)
                if (all[q].leader == q && !strcmp(all[q].host, all[r].host)) {
                    printf("rsag_nodes: nodes of ranks %d and %d share host %s\n", q, r, all[r].host);
                    bad = 1;
                }
            if (r != 0 && peers[0] < 0) peers[0] = r;
            snprintf(sizes + strlen(sizes), sizeof(sizes) - strlen(sizes), "%s%d",
                     nodes ? "," : "", all[r].size);
            snprintf(hosts + strlen(hosts), sizeof(hosts) - strlen(hosts), "%s%s",
                     nodes ? "," : "", all[r].host);
            nodes++;
        }
        printf("rsag_nodes: np=%d nodes=%d sizes=%s hosts=%s\n", np, nodes, sizes, hosts);
        if (expect_nodes >= 0 && nodes != expect_nodes) {
            printf("rsag_nodes: expected %d nodes\n", expect_nodes);
            bad = 1;
        }
        if (expect_sizes && strcmp(expect_sizes, sizes)) {
            printf("rsag_nodes: expected node sizes %s\n", expect_sizes);
            bad = 1;
        }
        fflush(stdout);
        free(all);
    }

    if (pp_bytes > 0) {
        MPI_Bcast(peers, 2, MPI_INT, 0, MPI_COMM_WORLD);
        char *buf = calloc((size_t) pp_bytes, 1);
        static const char *what[2] = { "other-node", "same-node" };
        for (int k = 0; k < 2; k++) {
            if (peers[k] < 0) continue;
            if (rank == 0 || rank == peers[k]) {
                double t = pingpong(rank, peers[k], buf, pp_bytes, iters);
                if (rank == 0)
                    printf("rsag_nodes: pingpong 0<->%d %s %ld bytes: %.1f MB/s, %.1f us/round trip\n",
                           peers[k], what[k], pp_bytes, 2.0 * pp_bytes * iters / t / 1e6,
                           t / iters * 1e6);
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
        free(buf);
    }

    for (const char *n = same; NULL != n && *n; n = strchr(n, ',') ? strchr(n, ',') + 1 : "") {
        long count = atol(n);
        if (count > 0 && count <= (1L << 24)) {
            bad |= samebits(rank, np, count);
        }
    }

    int bad_root = bad;
    MPI_Bcast(&bad_root, 1, MPI_INT, 0, MPI_COMM_WORLD);
    bad |= bad_root;
    MPI_Comm_free(&node);
    MPI_Finalize();
    return bad;
}
