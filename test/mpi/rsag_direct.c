/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_direct.c -- what is special to the node path (`direct`).
 *
 *   rsag_direct bits [--iters N]
 *     MPI_Allreduce, MPI_Reduce (every root), MPI_Reduce_scatter_block and
 *     MPI_Reduce_scatter (irregular counts with zeros) forced to direct
 *     through MPI_T, on random non-integer doubles (no sum is exact), with
 *     MPI_SUM and with a non-commutative, non-associative user op
 *     (a o b = a/2 + b), in place and not, at sizes through the slot path,
 *     the windowed segment path and the CMA path.  Every rank regenerates
 *     every input and checks its result bit for bit against the left fold
 *     ((x_0 o x_1) o x_2) ... in rank order; the allreduce results must be
 *     the same bits on every rank (a checksum gathered); the send buffer
 *     must be untouched; the direct counter must move by one per call.
 *
 *   rsag_direct churn [--cycles N]
 *     N cycles of MPI_Comm_dup, an allreduce forced to direct (which makes
 *     the communicator's shared segment) and MPI_Comm_free.  After a
 *     warm-up, the resident memory, the number of mappings
 *     (/proc/self/maps lines) and of open descriptors (/proc/self/fd) may
 *     not grow: a segment or a descriptor kept per communicator fails.
 *
 *   rsag_direct comms [--comms N]
 *     MPI_COMM_WORLD and N - 1 duplicates of it, all kept, each with one
 *     MPI_Allreduce of 1000 doubles forced to direct (the first call on a
 *     communicator makes its segment), then once more on each; every
 *     result checked.  Rank 0 prints, per communicator, the algorithm that
 *     ran ("comm K: direct" or the point-to-point algorithm rsag fell back
 *     to): the suite runs it where the shared memory is short (a full
 *     /dev/shm, a small coll_rsag_segment_max_node_bytes) and checks which
 *     communicators got the node path.  Then the duplicates are freed and
 *     one more is made ("comms after free: ..."): the shared memory of
 *     the freed ones must be available again.
 *
 *   rsag_direct kill
 *     Makes a segment (a direct allreduce on a dup), checks that no
 *     /dev/shm/rsag-* name exists while it is mapped (unlinked at once),
 *     then rank 1 sends itself SIGKILL in the middle of a loop of direct
 *     allreduces; the job is aborted by mpirun (the suite bounds it with a
 *     timeout and checks /dev/shm afterwards).
 *
 * Rank 0 prints "rsag_direct: <mode> PASS ..." or "... FAIL ..."; exit
 * status 0 iff PASS.
 */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rsag_mpit.h"

static int rank, size;
static long failures;

#define FAIL(...)                                                                   \
    do {                                                                            \
        if (failures++ < 10) {                                                      \
            fprintf(stderr, "rsag_direct[%d]: ", rank);                             \
            fprintf(stderr, __VA_ARGS__);                                           \
            fputc('\n', stderr);                                                    \
        }                                                                           \
    } while (0)

/* Input element i of rank q in case c: a non-integer double in [-1, 1)
 * with all mantissa bits used. */
static double input(int c, int q, size_t i)
{
    uint64_t x = ((uint64_t) c << 48) ^ ((uint64_t) q << 40) ^ (uint64_t) i;
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return (double) (int64_t) x / 9223372036854775808.0;
}

/* a o b = a/2 + b: neither commutative nor associative */
static void halfplus(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    double *a = in, *b = inout;
    (void) dt;
    for (int i = 0; i < *len; ++i) {
        b[i] = a[i] / 2 + b[i];
    }
}

static double combine(int nc, double acc, double x)
{
    return nc ? acc / 2 + x : acc + x;
}

/* Left fold in rank order of element i. */
static double reference(int c, int nc, size_t i)
{
    double acc = input(c, 0, i);
    for (int q = 1; q < size; ++q) {
        acc = combine(nc, acc, input(c, q, i));
    }
    return acc;
}

static uint64_t bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof(u));
    return u;
}

static void force_direct(void)
{
    for (int coll = 0; coll < RT_NCOLL; ++coll) {
        int k = rt_alg_index(coll, "direct");
        if (k < 0 || 0 != rt_force(coll, k)) {
            fprintf(stderr, "rsag_direct: no direct algorithm for %s\n", rt_coll_names[coll]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
}

/* One call of collective `coll`, checked. */
static void one_case(MPI_Comm comm, int coll, int c, int nc, MPI_Op op, size_t n, int inplace,
                     int root)
{
    int k = rt_alg_index(coll, "direct"), *counts = malloc(sizeof(int) * (size_t) size);
    size_t lo = 0, hi = n, total = n;
    double *sbuf = malloc(sizeof(double) * (n + 1)), *rbuf = malloc(sizeof(double) * (n + 1));
    rt_snap_t before, after;
    const char *ran;

    /* reduce-scatter blocks: irregular, with zeros (coll RS), or even */
    if (RT_RS == coll || RT_RSB == coll) {
        size_t used = 0;
        for (int q = 0; q < size; ++q) {
            counts[q] = (RT_RSB == coll) ? (int) (n / (size_t) size)
                                         : (q % 3 == 1 ? 0 : (int) (n / (size_t) size) + q);
            used += (size_t) counts[q];
        }
        total = used;
        for (int q = 0; q < rank; ++q) {
            lo += (size_t) counts[q];
        }
        hi = lo + (size_t) counts[rank];
        free(sbuf);
        free(rbuf);
        sbuf = malloc(sizeof(double) * (total + 1));
        rbuf = malloc(sizeof(double) * (total + 1));
    }
    for (size_t i = 0; i < total; ++i) {
        sbuf[i] = input(c, rank, i);
        rbuf[i] = inplace ? sbuf[i] : -7.0;
    }
    rt_snapshot(coll, &before);
    switch (coll) {
    case RT_ALLREDUCE:
        MPI_Allreduce(inplace ? MPI_IN_PLACE : sbuf, rbuf, (int) n, MPI_DOUBLE, op, comm);
        break;
    case RT_REDUCE:
        MPI_Reduce(inplace && rank == root ? MPI_IN_PLACE : sbuf, rbuf, (int) n, MPI_DOUBLE, op,
                   root, comm);
        break;
    case RT_RSB:
        MPI_Reduce_scatter_block(inplace ? MPI_IN_PLACE : sbuf, rbuf, counts[0], MPI_DOUBLE, op,
                                 comm);
        break;
    default:
        MPI_Reduce_scatter(inplace ? MPI_IN_PLACE : sbuf, rbuf, counts, MPI_DOUBLE, op, comm);
        break;
    }
    rt_snapshot(coll, &after);
    ran = rt_ran(coll, &before, &after);
    if (0 != strcmp(ran, rt_alg(coll, k)) && total > 0) {
        FAIL("%s n=%zu: %s ran, not direct", rt_coll_names[coll], total, ran);
    }
    if (RT_REDUCE != coll || rank == root) {
        size_t off = (RT_RS == coll || RT_RSB == coll) ? lo : 0;
        size_t end = (RT_RS == coll || RT_RSB == coll) ? hi : n;
        for (size_t i = off; i < end; ++i) {
            double want = reference(c, nc, i);
            if (bits(rbuf[i - off]) != bits(want)) {
                FAIL("%s %s n=%zu inplace=%d root=%d: element %zu is %a, rank order gives %a",
                     rt_coll_names[coll], nc ? "halfplus" : "sum", total, inplace, root, i,
                     rbuf[i - off], want);
                break;
            }
        }
    }
    if (!inplace) {
        for (size_t i = 0; i < total; ++i) {
            if (bits(sbuf[i]) != bits(input(c, rank, i))) {
                FAIL("%s n=%zu: sendbuf changed at %zu", rt_coll_names[coll], total, i);
                break;
            }
        }
    }
    if (RT_ALLREDUCE == coll) {     /* the same bits everywhere */
        uint64_t sum = 0, *all = malloc(sizeof(uint64_t) * (size_t) size);
        for (size_t i = 0; i < n; ++i) {
            sum = sum * 31 + bits(rbuf[i]);
        }
        MPI_Allgather(&sum, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, comm);
        for (int q = 1; q < size; ++q) {
            if (all[q] != all[0]) {
                FAIL("allreduce n=%zu: rank %d's result differs from rank 0's", n, q);
                break;
            }
        }
        free(all);
    }
    free(counts);
    free(sbuf);
    free(rbuf);
}

static int mode_bits(int iters)
{
    /* 1 (slots, whole), 1000 (8000 B: one window), 5000 (40 KB: windows
     * of 32 KB, or CMA), 300001 (2.4 MB: CMA chunks) elements */
    static const size_t sizes[] = { 1, 7, 1000, 5000, 300001 };
    MPI_Op halfop;
    int c = 0;

    MPI_Op_create(halfplus, 0, &halfop);
    force_direct();
    for (int it = 0; it < iters; ++it) {
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); ++s) {
            for (int nc = 0; nc < 2; ++nc) {
                for (int inplace = 0; inplace < 2; ++inplace) {
                    MPI_Op op = nc ? halfop : MPI_SUM;
                    one_case(MPI_COMM_WORLD, RT_ALLREDUCE, ++c, nc, op, sizes[s], inplace, -1);
                    for (int root = 0; root < size; root += (size > 4 ? size / 3 : 1)) {
                        one_case(MPI_COMM_WORLD, RT_REDUCE, ++c, nc, op, sizes[s], inplace,
                                 root);
                    }
                    one_case(MPI_COMM_WORLD, RT_RSB, ++c, nc, op, sizes[s], inplace, -1);
                    one_case(MPI_COMM_WORLD, RT_RS, ++c, nc, op, sizes[s], inplace, -1);
                }
            }
        }
    }
    MPI_Op_free(&halfop);
    {
        long all = 0;
        MPI_Reduce(&failures, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        if (0 == rank) {
            printf("rsag_direct: bits %s np=%d cases=%d failures=%ld\n", all ? "FAIL" : "PASS",
                   size, c, all);
        }
        return all ? 1 : 0;
    }
}

static long count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    long n = 0;
    int ch;
    if (NULL == f) {
        return -1;
    }
    while (EOF != (ch = fgetc(f))) {
        n += ('\n' == ch);
    }
    fclose(f);
    return n;
}

static long count_dir(const char *path, const char *prefix)
{
    DIR *d = opendir(path);
    struct dirent *e;
    long n = 0;
    if (NULL == d) {
        return -1;
    }
    while (NULL != (e = readdir(d))) {
        if ('.' != e->d_name[0] && (NULL == prefix || 0 == strncmp(e->d_name, prefix,
                                                                   strlen(prefix)))) {
            ++n;
        }
    }
    closedir(d);
    return n;
}

static int mode_churn(int cycles)
{
    int k = rt_alg_index(RT_ALLREDUCE, "direct"), warm = cycles < 1000 ? cycles / 5 : 200;
    long rss0 = 0, maps0 = 0, fds0 = 0, rss1, maps1, fds1, bad = 0, all = 0;
    double v[4096];
    rt_snap_t before, after;

    force_direct();
    rt_snapshot(RT_ALLREDUCE, &before);
    for (int i = 0; i < cycles; ++i) {
        MPI_Comm dup;
        if (i == warm) {
            rss0 = rt_rss_kb();
            maps0 = count_lines("/proc/self/maps");
            fds0 = count_dir("/proc/self/fd", NULL);
        }
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        for (int j = 0; j < 4096; ++j) {
            v[j] = rank + j;
        }
        /* 32 KB: the slot path, so every cycle makes and frees a segment */
        MPI_Allreduce(MPI_IN_PLACE, v, 4096, MPI_DOUBLE, MPI_SUM, dup);
        if (v[5] != (double) size * (size - 1) / 2 + 5.0 * size) {
            ++bad;
        }
        MPI_Comm_free(&dup);
    }
    rt_snapshot(RT_ALLREDUCE, &after);
    rss1 = rt_rss_kb();
    maps1 = count_lines("/proc/self/maps");
    fds1 = count_dir("/proc/self/fd", NULL);
    if (after.ctr[k] - before.ctr[k] != (unsigned long long) cycles) {
        FAIL("churn: direct ran %llu times, not %d", after.ctr[k] - before.ctr[k], cycles);
    }
    if (bad) {
        FAIL("churn: %ld wrong results", bad);
    }
    if (rss1 - rss0 > 512 || maps1 > maps0 || fds1 > fds0) {
        FAIL("churn: grew over %d cycles: rss %ld -> %ld KiB, maps %ld -> %ld, fds %ld -> %ld",
             cycles - warm, rss0, rss1, maps0, maps1, fds0, fds1);
    }
    MPI_Reduce(&failures, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("rsag_direct: churn %s np=%d cycles=%d rss %ld->%ld KiB maps %ld->%ld "
               "fds %ld->%ld\n", all ? "FAIL" : "PASS", size, cycles, rss0, rss1, maps0, maps1,
               fds0, fds1);
    }
    return all ? 1 : 0;
}

static int mode_comms(int ncomms)
{
    int k = rt_alg_index(RT_ALLREDUCE, "direct");
    MPI_Comm *comms = malloc(sizeof(MPI_Comm) * (size_t) ncomms);
    double v[1000];
    long all = 0;

    force_direct();
    for (int c = 0; c < ncomms; ++c) {
        if (0 == c) {
            comms[c] = MPI_COMM_WORLD;
        } else {
            MPI_Comm_dup(MPI_COMM_WORLD, &comms[c]);
        }
    }
    for (int round = 0; round < 2; ++round) {
        for (int c = 0; c < ncomms; ++c) {
            rt_snap_t before, after;
            const char *ran;

            for (int j = 0; j < 1000; ++j) {
                v[j] = rank + j + c;
            }
            rt_snapshot(RT_ALLREDUCE, &before);
            MPI_Allreduce(MPI_IN_PLACE, v, 1000, MPI_DOUBLE, MPI_SUM, comms[c]);
            rt_snapshot(RT_ALLREDUCE, &after);
            ran = rt_ran(RT_ALLREDUCE, &before, &after);
            for (int j = 0; j < 1000; ++j) {
                if (v[j] != (double) size * (size - 1) / 2 + (double) size * (j + c)) {
                    FAIL("comms: comm %d element %d is %g", c, j, v[j]);
                    break;
                }
            }
            /* rsag ran it (an algorithm of its own, not delegated) */
            if (rt_alg_index(RT_ALLREDUCE, ran) < 0) {
                FAIL("comms: comm %d: %s ran, not one of rsag's algorithms", c, ran);
            }
            if (0 == rank) {
                printf("rsag_direct: comms round %d comm %d: %s%s\n", round, c, ran,
                       0 == strcmp(ran, rt_alg(RT_ALLREDUCE, k)) ? "" : " (not direct)");
            }
        }
    }
    for (int c = 1; c < ncomms; ++c) {
        MPI_Comm_free(&comms[c]);
    }
    free(comms);
    {   /* the duplicates' shared memory is given back: a new one may have it */
        MPI_Comm again;
        rt_snap_t before, after;
        const char *ran;

        MPI_Comm_dup(MPI_COMM_WORLD, &again);
        for (int j = 0; j < 1000; ++j) {
            v[j] = rank;
        }
        rt_snapshot(RT_ALLREDUCE, &before);
        MPI_Allreduce(MPI_IN_PLACE, v, 1000, MPI_DOUBLE, MPI_SUM, again);
        rt_snapshot(RT_ALLREDUCE, &after);
        ran = rt_ran(RT_ALLREDUCE, &before, &after);
        if (v[999] != (double) size * (size - 1) / 2) {
            FAIL("comms: after free: result %g", v[999]);
        }
        if (0 == rank) {
            printf("rsag_direct: comms after free: %s%s\n", ran,
                   0 == strcmp(ran, rt_alg(RT_ALLREDUCE, k)) ? "" : " (not direct)");
        }
        MPI_Comm_free(&again);
    }
    MPI_Reduce(&failures, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("rsag_direct: comms %s np=%d comms=%d failures=%ld\n", all ? "FAIL" : "PASS",
               size, ncomms, all);
    }
    return all ? 1 : 0;
}

static int mode_kill(void)
{
    MPI_Comm dup;
    double *v = malloc(sizeof(double) * 100000);
    long names;

    force_direct();
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    for (int j = 0; j < 100000; ++j) {
        v[j] = j;
    }
    MPI_Allreduce(MPI_IN_PLACE, v, 100000, MPI_DOUBLE, MPI_SUM, dup);
    names = count_dir("/dev/shm", "rsag-");
    if (0 == rank) {
        printf("rsag_direct: kill segment mapped, /dev/shm/rsag-* names: %ld\n", names);
        fflush(stdout);
    }
    for (int i = 0; i < 1000000; ++i) {
        if (1 == rank && 20 == i) {
            raise(SIGKILL);
        }
        MPI_Allreduce(MPI_IN_PLACE, v, i % 2 ? 100000 : 100, MPI_DOUBLE, MPI_SUM, dup);
    }
    if (0 == rank) {
        printf("rsag_direct: kill FAIL: the job survived a killed rank\n");
    }
    MPI_Comm_free(&dup);
    free(v);
    return 1;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "bits";
    int n = 0, rc;

    for (int i = 2; i + 1 < argc; i += 2) {
        if (0 == strcmp(argv[i], "--iters") || 0 == strcmp(argv[i], "--cycles")
            || 0 == strcmp(argv[i], "--comms")) {
            n = atoi(argv[i + 1]);
        }
    }
    rt_start(&argc, &argv, &rank, &size);
    if (0 == strcmp(mode, "bits")) {
        rc = mode_bits(n > 0 ? n : 1);
    } else if (0 == strcmp(mode, "churn")) {
        rc = mode_churn(n > 0 ? n : 10000);
    } else if (0 == strcmp(mode, "comms")) {
        rc = mode_comms(n > 0 ? n : 2);
    } else if (0 == strcmp(mode, "kill")) {
        rc = mode_kill();
    } else {
        if (0 == rank) {
            fprintf(stderr, "usage: rsag_direct bits [--iters N] | churn [--cycles N] | "
                            "comms [--comms N] | kill\n");
        }
        rc = 2;
    }
    rt_mpit_finalize();
    MPI_Finalize();
    return rc;
}
