/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_calibrate: the raw measurements behind a cost-model profile
 * (contrib/model/coll_rsag_model.h); contrib/rsag-calibrate.sh runs it
 * and fits the profile.
 *
 *   mpirun -np 2 contrib/rsag_calibrate [--max-bytes N] [--local]
 *
 * Ranks 0 and 1 measure, through the PML, per size
 * 8 B .. --max-bytes (x4 steps, plus the sizes either side of 4 KB and
 * 64 KB, the eager limits of vader and tcp):
 *   pingpong  half a round trip of MPI_Send / MPI_Recv (one-way time)
 *   exchange  both ranks MPI_Sendrecv the same size at once (the step of
 *             recursive doubling / halving)
 * With more ranks (an even number) the pairs (0,1), (2,3), ... do the same
 * at the same time, and rank 0 reports its pair: what one link carries when
 * every rank moves data at once (the aggregate limit of a network).
 * And once:
 *   exchange1 one MPI_Sendrecv of both ranks timed alone after a barrier,
 *             median of 15 calls, the slower rank: a collective's step as
 *             rsag_bench meets it (idle link at the start of each call)
 *   exchange4 the same with 4 exchanges back to back, per exchange
 *   stream    32 back-to-back MPI_Isend of 8 B and their MPI_Irecv, minus
 *             one message: the per-message overhead of a pipelined sender
 * Then with --local, rank 0 alone (rank 1 waits in MPI_Recv on the other
 * core):
 *   memcpy    s/B of one memcpy, per size 64 KB and 16 MB
 *   cma       s/B of process_vm_readv of this process's own memory
 *   kernel    s/B of rsag's own reduction kernels (coll_rsag_op_kernels.c,
 *             the out = a op b form) per (op, type), 64 KB and 16 MB vectors
 * Each figure is the median of 7 repetitions, each of enough calls to last
 * about 20 ms (at least one).  Output on rank 0, one line each:
 *   pingpong BYTES SECONDS | exchange BYTES SECONDS | exchange1 BYTES SECONDS
 *   exchange4 BYTES SECONDS | stream 32 SECONDS_PER_MSG
 *   memcpy BYTES SEC_PER_BYTE | cma BYTES SEC_PER_BYTE
 *   kernel OP TYPE BYTES SEC_PER_BYTE
 *
 * Own code of the mca_coll_rsag project.
 */
#define _GNU_SOURCE
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "coll_rsag_op_kernels.h"

#define REPS 7
#define TARGET 0.02

static int rank;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return v[n / 2];
}

/* One pingpong / exchange of `bytes`, k times; rank 0's clock. */
static double p2p_run(int exchange, char *sbuf, char *rbuf, size_t bytes, int k)
{
    int peer = rank ^ 1;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < k; i++) {
        if (exchange) {
            MPI_Sendrecv(sbuf, (int) bytes, MPI_BYTE, peer, 1, rbuf, (int) bytes, MPI_BYTE, peer, 1,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (!(rank & 1)) {
            MPI_Send(sbuf, (int) bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
            MPI_Recv(rbuf, (int) bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(rbuf, (int) bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(sbuf, (int) bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
        }
    }
    double t = (MPI_Wtime() - t0) / k;
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return exchange ? t : t / 2.0;
}

static double p2p(int exchange, char *sbuf, char *rbuf, size_t bytes)
{
    double t1 = p2p_run(exchange, sbuf, rbuf, bytes, 1); /* warm-up, sizing */
    int k = t1 > 0 ? (int) (TARGET / t1) : 1000;
    if (k < 1) k = 1;
    if (k > 10000) k = 10000;
    double v[REPS];
    for (int r = 0; r < REPS; r++)
        v[r] = p2p_run(exchange, sbuf, rbuf, bytes, k);
    return median(v, REPS);
}

/* One exchange (k = 1) or k exchanges back to back, each call started from
 * an idle link (a barrier, then REPS_ISO timed calls): what one call of a
 * collective meets under rsag_bench's method, where a barrier precedes every
 * call.  Median of the per-call times, the slower rank of the pair (max over
 * all ranks).  Per exchange: the time divided by k. */
#define REPS_ISO 15
static double exchange_iso(char *sbuf, char *rbuf, size_t bytes, int k)
{
    int peer = rank ^ 1;
    double v[REPS_ISO], t, tmax;
    for (int r = -2; r < REPS_ISO; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < k; i++)
            MPI_Sendrecv(sbuf, (int) bytes, MPI_BYTE, peer, 4, rbuf, (int) bytes, MPI_BYTE, peer,
                         4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (r >= 0) v[r] = (MPI_Wtime() - t0) / k;
    }
    t = median(v, REPS_ISO);
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return tmax;
}

/* 32 small messages back to back, per message, minus nothing: the caller
 * subtracts the latency. */
static double stream(void)
{
    enum { K = 32 };
    char s[K][8], r[K][8];
    MPI_Request req[K];
    double v[REPS];
    memset(s, 0, sizeof s);
    for (int rep = -1; rep < REPS; rep++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int it = 0; it < 100; it++) {
            if (!(rank & 1)) {
                for (int i = 0; i < K; i++)
                    MPI_Isend(s[i], 8, MPI_BYTE, rank + 1, 2, MPI_COMM_WORLD, &req[i]);
                MPI_Waitall(K, req, MPI_STATUSES_IGNORE);
                MPI_Recv(r[0], 1, MPI_BYTE, rank + 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                for (int i = 0; i < K; i++)
                    MPI_Irecv(r[i], 8, MPI_BYTE, rank - 1, 2, MPI_COMM_WORLD, &req[i]);
                MPI_Waitall(K, req, MPI_STATUSES_IGNORE);
                MPI_Send(s[0], 1, MPI_BYTE, rank - 1, 3, MPI_COMM_WORLD);
            }
        }
        if (rep >= 0) v[rep] = (MPI_Wtime() - t0) / 100;
    }
    double t = median(v, REPS);
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return t;
}

typedef void (*work_fn)(void *ctx, size_t bytes);

/* Seconds per byte of fn(bytes), median of REPS runs of ~TARGET. */
static double rate(work_fn fn, void *ctx, size_t bytes)
{
    double t0 = MPI_Wtime();
    fn(ctx, bytes);
    double t1 = MPI_Wtime() - t0;
    int k = t1 > 0 ? (int) (TARGET / t1) : 1000;
    if (k < 1) k = 1;
    double v[REPS];
    for (int r = 0; r < REPS; r++) {
        t0 = MPI_Wtime();
        for (int i = 0; i < k; i++)
            fn(ctx, bytes);
        v[r] = (MPI_Wtime() - t0) / k / (double) bytes;
    }
    return median(v, REPS);
}

struct bufs { char *a, *b, *c; mca_coll_rsag_opk_fn_t fn; size_t esize; };

static void do_memcpy(void *ctx, size_t bytes)
{
    struct bufs *B = ctx;
    memcpy(B->c, B->a, bytes);
}

static void do_cma(void *ctx, size_t bytes)
{
    struct bufs *B = ctx;
    struct iovec l = { B->c, bytes }, r = { B->a, bytes };
    if (process_vm_readv(getpid(), &l, 1, &r, 1, 0) != (ssize_t) bytes)
        memset(B->c, 0, 1); /* refused: reported as the memcpy below */
}

static void do_kernel(void *ctx, size_t bytes)
{
    struct bufs *B = ctx;
    B->fn(B->a, B->b, B->c, bytes / B->esize);
}

int main(int argc, char **argv)
{
    size_t max_bytes = 64u << 20;
    int local = 0, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--max-bytes") && i + 1 < argc)
            max_bytes = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--local"))
            local = 1;
        else {
            if (rank == 0) fprintf(stderr, "usage: rsag_calibrate [--max-bytes N] [--local]\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (nprocs < 2 || nprocs % 2) {
        if (rank == 0) fprintf(stderr, "rsag_calibrate: run it on an even number of ranks\n");
        MPI_Finalize();
        return 2;
    }
    size_t big = max_bytes > (16u << 20) ? max_bytes : (16u << 20);
    char *sbuf = malloc(big), *rbuf = malloc(big), *cbuf = malloc(big);
    if (!sbuf || !rbuf || !cbuf) MPI_Abort(MPI_COMM_WORLD, 2);
    memset(sbuf, 1, big); memset(rbuf, 2, big); memset(cbuf, 3, big);

    size_t sizes[64];
    int ns = 0;
    for (size_t b = 8; b <= max_bytes; b *= 4) {
        sizes[ns++] = b;
        if (b == 2048) { sizes[ns++] = 4096; sizes[ns++] = 4104; }
        if (b == 32768) { sizes[ns++] = 65536; sizes[ns++] = 65544; }
    }
    for (int mode = 0; mode < 2; mode++)
        for (int i = 0; i < ns; i++) {
            double t = p2p(mode, sbuf, rbuf, sizes[i]);
            if (rank == 0) printf("%s %zu %.9g\n", mode ? "exchange" : "pingpong", sizes[i], t);
            fflush(stdout);
        }
    /* Isolated exchanges, finer sizes around the eager limits and the
     * tcp fragment size (128 KB); "exchange1" one call, "exchange4" four
     * calls back to back (per call). */
    static const size_t isizes[] = { 8, 1024, 4096, 16384, 32768, 49152, 65536, 98304, 131072,
                                     196608, 262144, 524288, 1048576, 2097152, 4194304, 8388608,
                                     16777216 };
    for (int kk = 1; kk <= 4; kk += 3)
        for (size_t i = 0; i < sizeof isizes / sizeof isizes[0] && isizes[i] <= max_bytes; i++) {
            double t = exchange_iso(sbuf, rbuf, isizes[i], kk);
            if (rank == 0) printf("exchange%d %zu %.9g\n", kk, isizes[i], t);
            fflush(stdout);
        }
    double st = stream();
    if (rank == 0) printf("stream 32 %.9g\n", st / 32);

    if (local) {
        if (rank == 0) {
            struct bufs B = { sbuf, rbuf, cbuf, NULL, 1 };
            static const size_t lsizes[2] = { 65536, 16u << 20 };
            for (int i = 0; i < 2; i++) {
                printf("memcpy %zu %.6g\n", lsizes[i], rate(do_memcpy, &B, lsizes[i]));
                printf("cma %zu %.6g\n", lsizes[i], rate(do_cma, &B, lsizes[i]));
            }
            static const struct { mca_coll_rsag_opk_op_t op; mca_coll_rsag_opk_kind_t kind; } k[] = {
                { MCA_COLL_RSAG_OPK_OP_SUM, MCA_COLL_RSAG_OPK_DOUBLE },
                { MCA_COLL_RSAG_OPK_OP_SUM, MCA_COLL_RSAG_OPK_FLOAT },
                { MCA_COLL_RSAG_OPK_OP_SUM, MCA_COLL_RSAG_OPK_INT32 },
                { MCA_COLL_RSAG_OPK_OP_SUM, MCA_COLL_RSAG_OPK_INT64 },
                { MCA_COLL_RSAG_OPK_OP_PROD, MCA_COLL_RSAG_OPK_DOUBLE },
                { MCA_COLL_RSAG_OPK_OP_MAX, MCA_COLL_RSAG_OPK_DOUBLE },
                { MCA_COLL_RSAG_OPK_OP_MIN, MCA_COLL_RSAG_OPK_INT32 },
                { MCA_COLL_RSAG_OPK_OP_BAND, MCA_COLL_RSAG_OPK_INT64 },
                { MCA_COLL_RSAG_OPK_OP_LAND, MCA_COLL_RSAG_OPK_INT32 },
                { MCA_COLL_RSAG_OPK_OP_SUM, MCA_COLL_RSAG_OPK_CDOUBLE },
                { MCA_COLL_RSAG_OPK_OP_MAXLOC, MCA_COLL_RSAG_OPK_PAIR_DOUBLE_INT },
            };
            for (size_t j = 0; j < sizeof k / sizeof k[0]; j++) {
                B.fn = mca_coll_rsag_opk_get(k[j].kind, k[j].op);
                B.esize = mca_coll_rsag_opk_size(k[j].kind);
                if (!B.fn) continue;
                uint64_t state = 12345;
                size_t n = big / B.esize;
                mca_coll_rsag_opk_fill(k[j].kind, sbuf, n, &state);
                mca_coll_rsag_opk_fill(k[j].kind, rbuf, n, &state);
                for (int i = 0; i < 2; i++) {
                    size_t bytes = lsizes[i] / B.esize * B.esize;
                    printf("kernel %s %s %zu %.6g\n", mca_coll_rsag_opk_op_name(k[j].op),
                           mca_coll_rsag_opk_kind_name(k[j].kind), bytes,
                           rate(do_kernel, &B, bytes));
                }
            }
            fflush(stdout);
            MPI_Send(NULL, 0, MPI_BYTE, 1, 9, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    free(sbuf); free(rbuf); free(cbuf);
    MPI_Finalize();
    return 0;
}
