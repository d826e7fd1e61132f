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
 *   llc, memcpy_llc  the last-level cache's bytes (sysfs), and s/B of a
 *             memcpy between two buffers as large (beyond it: memory)
 *   ntcopy    s/B of the node path's streaming copy (non-temporal stores,
 *             coll_rsag_stream.c: what `direct` writes for other cores),
 *             64 KB and 16 MB
 *   cma       s/B of process_vm_readv of this process's own memory
 *   kernel    s/B of rsag's own reduction kernels (coll_rsag_op_kernels.c,
 *             the out = a op b form) per (op, type), 64 KB and 16 MB vectors
 * and with --local or --node, the node's shared parts:
 *   handoff   ranks 0 and 1 through a page of shared memory: one flag (1)
 *             or 64 flags on their own cache lines (64) written by one rank
 *             until the other sees them all, then back: half the round trip
 *             (the wait of `direct` for one peer, and for 64 peers)
 *   sync1     the same one flag each way, each time right after a barrier:
 *             median per rank, the slower rank (a collective's first wait
 *             as rsag_bench meets it: the skew the barrier leaves included)
 *   xcopy, xcopy_nt, xreduce, xreduce_nt  s/B of rank 1 reading 2 KB,
 *             32 KB and 256 KB
 *             rank 0 has just written into shared memory (memcpy; _nt: the
 *             streaming copy), by memcpy out or by the SUM DOUBLE kernel
 *             (out = a + x): what `direct` pays for the peers' data
 *   call1     MPI_Allreduce of 8 B on a communicator of one rank (every
 *             rank its own) after a barrier, median, the slower rank: the
 *             cost of entering and leaving a collective through the
 *             component that takes it (rsag-calibrate.sh runs with
 *             --mca coll_self_priority 1, so that rsag, when installed, does: its
 *             dispatch, schedule and one copy of 8 bytes)
 *   copyk K   K ranks (K = 1, 2, 4, ... and every rank) memcpy 16 MB at
 *             once, each its own buffers: s/B of one rank's copy (the slowest
 *             of the K); the node's memory bandwidth shared by K copiers
 *   ntcopyk K the same with the streaming copy
 *   reducek K the same with the SUM DOUBLE kernel (out = a + b)
 * --node measures only these (any number of ranks; run it with as many
 * ranks as the node has cores).
 * Each figure is the median of 7 repetitions, each of enough calls to last
 * about 20 ms (at least one; --quick: 4 ms, a smoke run).  Output on rank 0, one line each:
 *   pingpong BYTES SECONDS | exchange BYTES SECONDS | exchange1 BYTES SECONDS
 *   exchange4 BYTES SECONDS | stream 32 SECONDS_PER_MSG
 *   memcpy BYTES SEC_PER_BYTE | cma BYTES SEC_PER_BYTE
 *   kernel OP TYPE BYTES SEC_PER_BYTE | ntcopy BYTES SEC_PER_BYTE
 *   handoff LINES SECONDS | sync1 1 SECONDS | call1 8 SECONDS
 *   copyk K SEC_PER_BYTE | ntcopyk K SEC_PER_BYTE | reducek K SEC_PER_BYTE
 *   xcopy BYTES SEC_PER_BYTE (xcopy_nt, xreduce, xreduce_nt)
 *
 * Own code of the mca_coll_rsag project.
 */
#define _GNU_SOURCE
#include <mpi.h>

#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "coll_rsag_op_kernels.h"
#include "coll_rsag_stream.h"

#define REPS 7
/* seconds each repetition of a figure lasts (--quick: 4 ms) */
static double TARGET = 0.02;

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

static void do_ntcopy(void *ctx, size_t bytes)
{
    struct bufs *B = ctx;
    mca_coll_rsag_stream_copy(B->c, B->a, bytes);
}

/* ---- the node's shared parts ------------------------------------------ */

#define LINES 64
#define HANDOFF_ITERS 20000
/* shared data after the lines: what one rank writes for the other */
#define XBYTES ((size_t) 256 * 1024)
typedef struct { _Atomic uint64_t v; char pad[64 - sizeof(uint64_t)]; } line_t;

/* A page of shared memory between ranks 0 and 1: a file in the temporary
 * directory, mapped by both and removed at once (nothing stays behind). */
static line_t *shared_lines(void)
{
    char name[256] = "";
    size_t bytes = 2 * LINES * sizeof(line_t) + XBYTES;
    if (rank == 0) {
        const char *d = getenv("TMPDIR");
        snprintf(name, sizeof name, "%s/rsag_calibrate.XXXXXX", d && *d ? d : "/tmp");
        int fd = mkstemp(name);
        if (fd < 0 || ftruncate(fd, (off_t) bytes) != 0) name[0] = '\0';
        if (fd >= 0) close(fd);
    }
    MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
    void *m = MAP_FAILED;
    if (name[0] && rank < 2) {
        int fd = open(name, O_RDWR);
        if (fd >= 0) {
            m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            close(fd);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && name[0]) unlink(name);
    int ok = rank >= 2 || m != MAP_FAILED, all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all) {
        if (m != MAP_FAILED) munmap(m, bytes);
        return NULL;
    }
    return m;
}

static inline void cpu_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* My `n` lines of round `t` out, then wait for the peer's n lines. */
static void hand(line_t *mine, line_t *theirs, int n, uint64_t t, int first)
{
    if (first) {
        for (int i = 0; i < n; i++) atomic_store_explicit(&mine[i].v, t, memory_order_release);
        for (int i = 0; i < n; i++)
            while (atomic_load_explicit(&theirs[i].v, memory_order_acquire) < t) cpu_pause();
    } else {
        for (int i = 0; i < n; i++)
            while (atomic_load_explicit(&theirs[i].v, memory_order_acquire) < t) cpu_pause();
        for (int i = 0; i < n; i++) atomic_store_explicit(&mine[i].v, t, memory_order_release);
    }
}

static void node_shared(line_t *L, char *sbuf, char *rbuf)
{
    static uint64_t tick;
    line_t *mine = L + (rank == 0 ? 0 : LINES), *theirs = L + (rank == 0 ? LINES : 0);
    static const int lines[2] = { 1, LINES };
    for (int j = 0; j < 2; j++) {
        double v[REPS];
        for (int r = -1; r < REPS; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (rank < 2)
                for (int i = 0; i < HANDOFF_ITERS / lines[j]; i++) hand(mine, theirs, lines[j], ++tick, rank == 0);
            if (r >= 0) v[r] = (MPI_Wtime() - t0) / (HANDOFF_ITERS / lines[j]) / 2.0;
        }
        double t = median(v, REPS);
        MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (rank == 0) printf("handoff %d %.6g\n", lines[j], t);
    }
    /* one flag each way right after a barrier; then an 8-byte allreduce
     * of one rank */
    MPI_Comm one;
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &one);
    for (int kind = 0; kind < 2; kind++) {
        enum { N = 201 };
        double v[N], t, tmax;
        for (int r = -10; r < N; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (kind == 0) {
                if (rank < 2) hand(mine, theirs, 1, ++tick, 1);
            } else {
                MPI_Allreduce(sbuf, rbuf, 1, MPI_DOUBLE, MPI_SUM, one);
            }
            if (r >= 0) v[r] = MPI_Wtime() - t0;
        }
        t = median(v, N);
        MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (rank == 0) printf("%s %.6g\n", kind == 0 ? "sync1 1" : "call1 8", tmax);
    }
    MPI_Comm_free(&one);

    /* a piece another core wrote (memcpy, or the streaming copy), read by
     * this one: copied out, or reduced (out = a + x); s/B of the read */
    char *x = (char *) (L + 2 * LINES);
    mca_coll_rsag_opk_fn_t sum = mca_coll_rsag_opk_get(MCA_COLL_RSAG_OPK_DOUBLE,
                                                       MCA_COLL_RSAG_OPK_OP_SUM);
    static const size_t xsizes[] = { 2048, 32768, XBYTES };
    for (size_t xi = 0; xi < sizeof xsizes / sizeof xsizes[0]; xi++)
    for (int how = 0; how < 4; how++) {
        const size_t XB = xsizes[xi];
        enum { N = 101 };
        double v[N], t = 0;
        int nt = how & 1, red = how >> 1;
        if (red && !sum) continue;
        for (int r = -5; r < N; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == 0) {
                if (nt) mca_coll_rsag_stream_copy(x, sbuf, XB);
                else memcpy(x, sbuf, XB);
                hand(mine, theirs, 1, ++tick, 1);
            } else if (rank == 1) {
                hand(mine, theirs, 1, ++tick, 0);
                double t0 = MPI_Wtime();
                if (red) sum(rbuf, x, rbuf + XB, XB / 8);
                else memcpy(rbuf, x, XB);
                if (r >= 0) v[r] = (MPI_Wtime() - t0) / (double) XB;
            }
        }
        if (rank == 1) t = median(v, N);
        MPI_Bcast(&t, 1, MPI_DOUBLE, 1, MPI_COMM_WORLD);
        if (rank == 0)
            printf("%s %zu %.6g\n", red ? (nt ? "xreduce_nt" : "xreduce") : (nt ? "xcopy_nt" : "xcopy"),
                   XB, t);
    }
}

/* The last-level cache's bytes (the highest level sysfs lists for cpu 0),
 * 0 when unknown. */
static size_t llc_bytes(void)
{
    size_t best = 0;
    int best_level = 0;
    for (int i = 0; i < 16; i++) {
        char path[96], buf[32];
        int level = 0;
        unsigned long v = 0;
        char unit = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        if (fscanf(f, "%d", &level) != 1) level = 0;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!(f = fopen(path, "r"))) continue;
        if (fgets(buf, sizeof buf, f) && sscanf(buf, "%lu%c", &v, &unit) >= 1 && level > best_level) {
            best_level = level;
            best = (size_t) v * (unit == 'K' ? 1024 : unit == 'M' ? 1048576 : unit == 'G' ? 1073741824 : 1);
        }
        fclose(f);
    }
    return best;
}

/* K ranks at once, each `fn` over its own 16 MB: s/B of one rank, the
 * slowest of the K (median over REPS rounds of ~TARGET each). */
static double concurrent(work_fn fn, void *ctx, size_t bytes, int k)
{
    double t0 = MPI_Wtime(), t1;
    if (rank < k) fn(ctx, bytes);
    t1 = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &t1, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    int iters = t1 > 0 ? (int) (TARGET / t1) : 10;
    if (iters < 1) iters = 1;
    double v[REPS];
    for (int r = 0; r < REPS; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        if (rank < k)
            for (int i = 0; i < iters; i++) fn(ctx, bytes);
        double t = (MPI_Wtime() - t0) / iters / (double) bytes, tmax;
        MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        v[r] = tmax;
    }
    return median(v, REPS);
}

static void node_copiers(char *sbuf, char *rbuf, char *cbuf, int nprocs)
{
    struct bufs B = { sbuf, rbuf, cbuf, NULL, 8 };
    size_t bytes = 16u << 20;
    uint64_t state = 777;
    B.fn = mca_coll_rsag_opk_get(MCA_COLL_RSAG_OPK_DOUBLE, MCA_COLL_RSAG_OPK_OP_SUM);
    mca_coll_rsag_opk_fill(MCA_COLL_RSAG_OPK_DOUBLE, sbuf, bytes / 8, &state);
    mca_coll_rsag_opk_fill(MCA_COLL_RSAG_OPK_DOUBLE, rbuf, bytes / 8, &state);
    for (int k = 1; k <= nprocs; k = (k * 2 > nprocs && k < nprocs) ? nprocs : k * 2) {
        double c = concurrent(do_memcpy, &B, bytes, k);
        double s = concurrent(do_ntcopy, &B, bytes, k);
        double g = B.fn ? concurrent(do_kernel, &B, bytes, k) : 0;
        if (rank == 0) {
            printf("copyk %d %.6g\nntcopyk %d %.6g\n", k, c, k, s);
            if (B.fn) printf("reducek %d %.6g\n", k, g);
            fflush(stdout);
        }
    }
}

int main(int argc, char **argv)
{
    size_t max_bytes = 64u << 20;
    int local = 0, node = 0, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--max-bytes") && i + 1 < argc)
            max_bytes = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--local"))
            local = 1;
        else if (!strcmp(argv[i], "--node"))
            node = 1;
        else if (!strcmp(argv[i], "--quick"))
            TARGET = 0.004;
        else {
            if (rank == 0)
                fprintf(stderr, "usage: rsag_calibrate [--max-bytes N] [--local | --node] [--quick]\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (nprocs < 2 || (nprocs % 2 && !node)) {
        if (rank == 0)
            fprintf(stderr, "rsag_calibrate: run it on an even number of ranks (--node: 2 or more)\n");
        MPI_Finalize();
        return 2;
    }
    size_t big = max_bytes > (16u << 20) ? max_bytes : (16u << 20);
    char *sbuf = malloc(big), *rbuf = malloc(big), *cbuf = malloc(big);
    if (!sbuf || !rbuf || !cbuf) MPI_Abort(MPI_COMM_WORLD, 2);
    memset(sbuf, 1, big); memset(rbuf, 2, big); memset(cbuf, 3, big);
    if (node || local) {
        line_t *L = shared_lines();
        if (L) {
            node_shared(L, sbuf, rbuf);
            munmap(L, 2 * LINES * sizeof(line_t) + XBYTES);
        } else if (rank == 0) {
            fprintf(stderr, "rsag_calibrate: no shared page in the temporary directory: no handoff\n");
        }
        node_copiers(sbuf, rbuf, cbuf, nprocs);
    }
    if (node) {
        free(sbuf); free(rbuf); free(cbuf);
        MPI_Finalize();
        return 0;
    }

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
            /* memcpy with its buffers beyond the last-level cache (each
             * as large as it, at most 2 GB): the memory tier's rate */
            size_t llc = llc_bytes(), lb = llc > ((size_t) 2 << 30) ? (size_t) 2 << 30 : llc;
            char *la = lb > (16u << 20) ? malloc(lb) : NULL, *lc = la ? malloc(lb) : NULL;
            if (la && lc) {
                struct bufs L = { la, NULL, lc, NULL, 1 };
                memset(la, 1, lb);
                memset(lc, 2, lb);
                printf("llc %zu\nmemcpy_llc %zu %.6g\n", llc, lb, rate(do_memcpy, &L, lb));
            }
            free(la);
            free(lc);
            static const size_t lsizes[2] = { 65536, 16u << 20 };
            for (int i = 0; i < 2; i++) {
                printf("memcpy %zu %.6g\n", lsizes[i], rate(do_memcpy, &B, lsizes[i]));
                printf("ntcopy %zu %.6g\n", lsizes[i], rate(do_ntcopy, &B, lsizes[i]));
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
