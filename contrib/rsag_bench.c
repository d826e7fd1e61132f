/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_bench: time MPI_Allreduce / MPI_Reduce / MPI_Reduce_scatter_block /
 * MPI_Reduce_scatter (equal counts) per message size, for rsag's
 * algorithms (switched inside one job through MPI_T) or for whatever the job
 * is configured with (e.g. coll/tuned with a forced algorithm), next to the
 * time of one memcpy of the same size.
 *
 *   mpirun -np 2 contrib/rsag_bench --coll allreduce --rsag-algorithms all
 *   mpirun -np 2 --mca coll ^rsag contrib/rsag_bench --rsag-algorithms current \
 *          --label tuned_default
 *
 * Method, per message size:
 *   1. memcpy: rank 0 alone copies the message (the other ranks sleep), the
 *      median of `iters` copies is memcpy_us (one core's copy speed);
 *   2. every variant gets `warmup` untimed calls;
 *   3. `iters` rounds; in each round every variant is timed once (variants
 *      interleaved, rotating which goes first), each call preceded by
 *      MPI_Barrier; in "all" and "forced" mode the rsag algorithm is set
 *      through the MPI_T cvar coll_rsag_<coll>_algorithm before each call
 *      (outside the timing): a setting that changes before every call, so
 *      auto's small calls decide anew each time (rsag-bench.sh times auto
 *      in a job of its own);
 *   4. time_us = max over ranks of each rank's median call time;
 *      osu_us = mean over ranks of each rank's mean call time: what
 *      osu_allreduce & co. print as "Avg Latency" (a barrier between calls,
 *      every call counted, the ranks averaged);
 *   5. each variant is verified once: fresh inputs, the output buffer
 *      poisoned, one call, exact comparison on every rank that receives the
 *      result.  rsag's MPI_T counters (coll_rsag_<coll>_<alg>_calls) around
 *      that call tell which rsag algorithm really ran ("ran" column).
 *
 * Message size ("bytes") is the whole input vector of one rank, count *
 * type size: for allreduce and reduce the count argument, for
 * reduce_scatter_block recvcount * p, for reduce_scatter the sum of the
 * recvcounts (all equal here, bytes / p each).  It is the quantity rsag's
 * selector compares with coll_rsag_<coll>_<alg>_min_bytes.  For the
 * reduce-scatter collectives sizes are rounded down to a multiple of
 * p * type size (at least one element per rank).
 *
 * Output: CSV on stdout (rank 0), one line per (variant, size):
 *   label,coll,np,bytes,time_us,memcpy_us,busbw_GBps,iters,ran,verified,oversubscribed,osu_us
 * busbw_GBps: bytes/time times 2(p-1)/p for allreduce, 1 for reduce,
 * (p-1)/p for reduce_scatter_block and reduce_scatter.
 * memcpy_us is the time of one memcpy of `bytes`.
 * Exit status: 0 if every verification passed, 1 if one failed, 2 on usage
 * or setup errors.
 *
 * The module below rsag in the same job (--previous LABEL): one more
 * variant, labelled LABEL, whose calls go to a duplicate of MPI_COMM_WORLD
 * made with the info key coll_rsag_reductions = false, so rsag leaves its
 * reductions there to the module Open MPI selected before it (coll/tuned by
 * default, as configured: e.g. a forced tuned algorithm).  Interleaved call
 * by call with the other variants, it sees the same machine: on a host that
 * moves the cores of a virtual machine closer and farther every few seconds
 * (a cache line's round trip between the two cores here: 130 or 500 ns),
 * separate jobs of rsag and tuned compare different machines.  Its "ran"
 * column must say "none": no rsag counter moved.  With --forms, one such
 * variant per form (LABEL_<form>): the nonblocking and persistent calls
 * there are libnbc's unless the job's coll list says otherwise, each
 * persistent request made on its own communicator, each overlap form
 * computing for its own communicator's nonblocking time.
 *
 * Forms (--forms LIST, the nonblocking mode of rsag-bench.sh): instead of
 * rsag's algorithms, the ways to run the collective the job is configured
 * with, one variant each (label <label>_<form>):
 *   blocking      MPI_Allreduce (& co.);
 *   nonblocking   MPI_Iallreduce + MPI_Wait, nothing in between: the pure
 *                 communication time;
 *   persistent    MPI_Allreduce_init once per size (Open MPI 4.1:
 *                 MPIX_Allreduce_init of the pcollreq extension), then
 *                 MPI_Start + MPI_Wait per call (as a program that
 *                 says nothing of its starts' order: rsag's direct runs
 *                 each request on a segment of its own);
 *   overlap       MPI_Iallreduce, a compute loop as long as the pure time
 *                 (max over ranks of the nonblocking median, measured first
 *                 at this size), MPI_Wait: OSU's osu_i* method;
 *   overlap_test  the same with MPI_Test every --test-interval-us (default
 *                 10) inside the compute loop (without a progress thread
 *                 progress only happens inside MPI calls).
 * The compute loop, as OSU's: short compute chunks until their summed time
 * reaches the target, MPI_Test calls between chunks not counted in it.
 * For the overlap forms time_us is the whole Iallreduce..Wait time,
 * compute_us the compute time in it (both max over ranks of the per-rank
 * median) and overlap_pct = 100 * (1 - (total - compute) / pure), clamped
 * to [0, 100], from each rank's medians, the smallest over ranks (pure: the
 * nonblocking form's time_us).  The rows get four more columns:
 *   ...,osu_us,form,compute_us,overlap_pct,tests
 * (tests: MPI_Test calls per call, max over ranks of the median).  rsag's
 * MPI_T counters coll_rsag_nonblocking_requests and
 * coll_rsag_persistent_starts join the "ran" column (nonblocking_requests,
 * persistent_starts) when they move, and their totals are printed on stderr
 * at the end.
 *
 * Own code of the mca_coll_rsag project.  Build:
 *   mpicc -O2 -std=gnu11 -Wall -Wextra -o rsag_bench rsag_bench.c
 */
#define _GNU_SOURCE
#include <mpi.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if MPI_VERSION >= 4
#define BENCH_PCOLL(name) MPI_##name
#elif defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define BENCH_PCOLL(name) MPIX_##name
#endif
#endif

#define MAX_VARIANTS 32
#define MAX_SIZES    128
#define NAME_LEN     128

typedef enum { COLL_ALLREDUCE, COLL_REDUCE, COLL_RSB, COLL_RS, COLL_N } coll_t;
typedef enum { DT_DOUBLE, DT_FLOAT, DT_INT } dtype_t;
/* the ways to call the collective (--forms); overlap forms after the others */
typedef enum { F_BLOCKING, F_NB, F_PERSISTENT, F_OVERLAP, F_OVERLAP_TEST, F_N } form_t;
static const char *form_name[F_N] = {"blocking", "nonblocking", "persistent", "overlap",
                                     "overlap_test"};

static struct {
    coll_t coll;
    size_t min_bytes, max_bytes;
    int iters;  /* 0: adaptive */
    int warmup; /* -1: adaptive */
    dtype_t dtype;
    int root;
    int all_algs;
    char label[NAME_LEN];
    char sizes[1024]; /* --sizes list, "" = min/max grid */
    unsigned forms;   /* --forms: bit (1 << form_t); 0 = rsag's algorithms */
    double test_interval; /* seconds between MPI_Test calls of overlap_test */
    char previous[NAME_LEN]; /* --previous: its label, "" = no such variant */
} opt;

typedef struct {
    char label[NAME_LEN];
    int cvar_value; /* value written to the cvar; -1 = leave as configured */
    form_t form;    /* F_BLOCKING unless --forms */
    MPI_Comm comm;  /* where its calls go: MPI_COMM_WORLD, or --previous's */
    int side;       /* 0: MPI_COMM_WORLD, 1: --previous's communicator */
} variant_t;

/* An rsag call counter (MPI_T pvar). */
typedef struct {
    char alg[NAME_LEN];
    MPI_T_pvar_handle handle;
    unsigned long long before;
} counter_t;

static int rank, nprocs;
static const char *coll_name[COLL_N] = {"allreduce", "reduce", "reduce_scatter_block",
                                        "reduce_scatter"};
static int *rs_counts; /* MPI_Reduce_scatter's recvcounts (all equal) */

static int is_rs(void)
{
    return COLL_RSB == opt.coll || COLL_RS == opt.coll;
}

/* ---------------------------------------------------------------- helpers */

static double now(void)
{
    return MPI_Wtime();
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t) n, sizeof(double), cmp_double);
    return (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Max over ranks at rank 0, through MPI_Gather (not a reduction, so the
 * collective under test never measures itself). */
/* x of every rank gathered at rank 0: their maximum, or their mean. */
static double at_root(double x, int want_mean)
{
    double *all = NULL, m = x, sum = 0.0;
    if (0 == rank) {
        all = malloc(sizeof(double) * (size_t) nprocs);
    }
    MPI_Gather(&x, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        for (int i = 0; i < nprocs; ++i) {
            m = all[i] > m ? all[i] : m;
            sum += all[i];
        }
        free(all);
    }
    return want_mean ? sum / nprocs : m;
}

static double mean(const double *v, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; ++i) {
        s += v[i];
    }
    return n > 0 ? s / n : 0.0;
}

static int sum_at_root(int x)
{
    int *all = NULL, s = 0;
    if (0 == rank) {
        all = malloc(sizeof(int) * (size_t) nprocs);
    }
    MPI_Gather(&x, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        for (int i = 0; i < nprocs; ++i) {
            s += all[i];
        }
        free(all);
    }
    return s;
}

static size_t dtype_size(void)
{
    return DT_DOUBLE == opt.dtype ? sizeof(double) : DT_FLOAT == opt.dtype ? sizeof(float)
                                                                           : sizeof(int);
}

static MPI_Datatype dtype_mpi(void)
{
    return DT_DOUBLE == opt.dtype ? MPI_DOUBLE : DT_FLOAT == opt.dtype ? MPI_FLOAT : MPI_INT;
}

/* Input element i of rank r: a small integer in [-9, 9], so every sum over
 * up to 100 ranks is exact in float, double and int, whatever the order. */
static inline int input_value(int r, size_t i, int salt)
{
    return (int) ((i * 131u + (size_t) r * 17u + (size_t) salt * 7u) % 19u) - 9;
}

static void fill_input(void *buf, size_t count, int salt)
{
    for (size_t i = 0; i < count; ++i) {
        int v = input_value(rank, i, salt);
        switch (opt.dtype) {
        case DT_DOUBLE: ((double *) buf)[i] = v; break;
        case DT_FLOAT: ((float *) buf)[i] = (float) v; break;
        case DT_INT: ((int *) buf)[i] = v; break;
        }
    }
}

/* Number of wrong elements among buf[0 .. count), which should hold the
 * sum of the input elements first .. first + count; the first wrong one is
 * reported on stderr. */
static size_t check_result(const void *buf, size_t first, size_t count, int salt,
                           const char *label, size_t bytes)
{
    size_t bad = 0;
    for (size_t i = 0; i < count; ++i) {
        long expect = 0;
        double got;
        for (int r = 0; r < nprocs; ++r) {
            expect += input_value(r, first + i, salt);
        }
        switch (opt.dtype) {
        case DT_DOUBLE: got = ((const double *) buf)[i]; break;
        case DT_FLOAT: got = ((const float *) buf)[i]; break;
        default: got = ((const int *) buf)[i]; break;
        }
        if (got != (double) expect) {
            if (0 == bad) {
                fprintf(stderr,
                        "rsag_bench: VERIFY FAILED: %s %s np %d %zu bytes: rank %d element "
                        "%zu is %g, expected %ld\n",
                        label, coll_name[opt.coll], nprocs, bytes, rank, first + i, got, expect);
            }
            ++bad;
        }
    }
    return bad;
}

/* Rank 0 alone copies `bytes` `iters` times; the others sleep meanwhile so
 * that the copy has its core (and the memory bus) to itself. */
static double time_memcpy(void *dst, const void *src, size_t bytes, int iters, int warmup)
{
    double med = 0.0;
    int token = 0;

    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        double *t = malloc(sizeof(double) * (size_t) iters);
        for (int i = 0; i < warmup; ++i) {
            memcpy(dst, src, bytes);
        }
        for (int i = 0; i < iters; ++i) {
            double t0 = now();
            memcpy(dst, src, bytes);
            t[i] = now() - t0;
            __asm__ __volatile__("" : : "r"(dst) : "memory");
        }
        med = median(t, iters);
        free(t);
        for (int r = 1; r < nprocs; ++r) {
            MPI_Send(&token, 1, MPI_INT, r, 77, MPI_COMM_WORLD);
        }
    } else {
        MPI_Request req;
        int done = 0;
        struct timespec ts = {0, 200000};
        MPI_Irecv(&token, 1, MPI_INT, 0, 77, MPI_COMM_WORLD, &req);
        for (;;) {
            MPI_Test(&req, &done, MPI_STATUS_IGNORE);
            if (done) {
                break;
            }
            nanosleep(&ts, NULL);
        }
    }
    MPI_Bcast(&med, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return med;
}

/* One call; count = elements of the whole input vector (a multiple of
 * nprocs for the reduce-scatter collectives). */
static int run_coll(MPI_Comm comm, const void *sbuf, void *rbuf, int count)
{
    switch (opt.coll) {
    case COLL_ALLREDUCE:
        return MPI_Allreduce(sbuf, rbuf, count, dtype_mpi(), MPI_SUM, comm);
    case COLL_REDUCE:
        return MPI_Reduce(sbuf, rbuf, count, dtype_mpi(), MPI_SUM, opt.root, comm);
    case COLL_RSB:
        return MPI_Reduce_scatter_block(sbuf, rbuf, count / nprocs, dtype_mpi(), MPI_SUM,
                                        comm);
    default:
        for (int r = 0; r < nprocs; ++r) {
            rs_counts[r] = count / nprocs;
        }
        return MPI_Reduce_scatter(sbuf, rbuf, rs_counts, dtype_mpi(), MPI_SUM, comm);
    }
}

/* The nonblocking call of the collective: starts it in *req. */
static int start_nb(MPI_Comm comm, const void *sbuf, void *rbuf, int count, MPI_Request *req)
{
    switch (opt.coll) {
    case COLL_ALLREDUCE:
        return MPI_Iallreduce(sbuf, rbuf, count, dtype_mpi(), MPI_SUM, comm, req);
    case COLL_REDUCE:
        return MPI_Ireduce(sbuf, rbuf, count, dtype_mpi(), MPI_SUM, opt.root, comm,
                           req);
    case COLL_RSB:
        return MPI_Ireduce_scatter_block(sbuf, rbuf, count / nprocs, dtype_mpi(), MPI_SUM,
                                         comm, req);
    default:
        for (int r = 0; r < nprocs; ++r) {
            rs_counts[r] = count / nprocs;
        }
        return MPI_Ireduce_scatter(sbuf, rbuf, rs_counts, dtype_mpi(), MPI_SUM, comm,
                                   req);
    }
}

/* The persistent request of the collective (inactive until MPI_Start);
 * rs_counts stays allocated as long as it lives. */
static int init_persistent(MPI_Comm comm, const void *sbuf, void *rbuf, int count,
                           MPI_Request *req)
{
#ifdef BENCH_PCOLL
    switch (opt.coll) {
    case COLL_ALLREDUCE:
        return BENCH_PCOLL(Allreduce_init)(sbuf, rbuf, count, dtype_mpi(), MPI_SUM,
                                           comm, MPI_INFO_NULL, req);
    case COLL_REDUCE:
        return BENCH_PCOLL(Reduce_init)(sbuf, rbuf, count, dtype_mpi(), MPI_SUM, opt.root,
                                        comm, MPI_INFO_NULL, req);
    case COLL_RSB:
        return BENCH_PCOLL(Reduce_scatter_block_init)(sbuf, rbuf, count / nprocs, dtype_mpi(),
                                                      MPI_SUM, comm, MPI_INFO_NULL,
                                                      req);
    default:
        for (int r = 0; r < nprocs; ++r) {
            rs_counts[r] = count / nprocs;
        }
        return BENCH_PCOLL(Reduce_scatter_init)(sbuf, rbuf, rs_counts, dtype_mpi(), MPI_SUM,
                                                comm, MPI_INFO_NULL, req);
    }
#else
    (void) sbuf; (void) rbuf; (void) count; (void) req;
    return MPI_ERR_UNSUPPORTED_OPERATION;
#endif
}

/* One compute chunk (a fraction of a microsecond, in registers and L1):
 * the unit of the overlap forms' compute loop. */
static double compute_state[32];
static void compute_chunk(void)
{
    for (int k = 0; k < 8; ++k) {
        for (int i = 0; i < 32; ++i) {
            compute_state[i] = compute_state[i] * 0.999999 + 1e-7 * (double) i;
        }
    }
    __asm__ __volatile__("" : : "r"(compute_state) : "memory");
}

/* Compute chunks until their summed time reaches `target` seconds; with
 * req, MPI_Test(req) whenever `interval` has passed since the last test
 * (until it completes).  Returns the compute time (without the tests) and
 * counts the tests in *ntests. */
static double compute_for(double target, MPI_Request *req, double interval, int *ntests)
{
    double done = 0.0, last = now();
    int flag = 0;

    *ntests = 0;
    while (done < target) {
        double t1 = now();
        compute_chunk();
        double t2 = now();
        done += t2 - t1;
        if (NULL != req && !flag && t2 - last >= interval) {
            MPI_Test(req, &flag, MPI_STATUS_IGNORE);
            ++*ntests;
            last = now();
        }
    }
    return done;
}

/* One call of variant v's form on its communicator, timed from its start
 * to the end of its completion in *t; the overlap forms also give their
 * compute time and test count.  preq: the size's persistent request
 * (F_PERSISTENT). */
static int call_form(form_t f, MPI_Comm comm, const void *sbuf, void *rbuf, int count,
                     MPI_Request *preq,
                     double target, double *t, double *tcomp, int *ntests)
{
    MPI_Request req = MPI_REQUEST_NULL;
    double t0 = now();
    int rc;

    *tcomp = 0.0;
    *ntests = 0;
    switch (f) {
    case F_BLOCKING:
        rc = run_coll(comm, sbuf, rbuf, count);
        break;
    case F_NB:
        rc = start_nb(comm, sbuf, rbuf, count, &req);
        if (MPI_SUCCESS == rc) {
            rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        break;
    case F_PERSISTENT:
        rc = MPI_Start(preq);
        if (MPI_SUCCESS == rc) {
            rc = MPI_Wait(preq, MPI_STATUS_IGNORE);
        }
        break;
    default: /* F_OVERLAP, F_OVERLAP_TEST */
        rc = start_nb(comm, sbuf, rbuf, count, &req);
        if (MPI_SUCCESS == rc) {
            *tcomp = compute_for(target, F_OVERLAP_TEST == f ? &req : NULL, opt.test_interval,
                                 ntests);
            rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        break;
    }
    *t = now() - t0;
    return rc;
}

/* bytes/time times the bus factor of the collective (see the header). */
static double bus_factor(void)
{
    switch (opt.coll) {
    case COLL_ALLREDUCE: return 2.0 * (nprocs - 1) / nprocs;
    case COLL_REDUCE: return 1.0;
    default: return (double) (nprocs - 1) / nprocs;
    }
}

/* ---------------------------------------------------------------- options */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: rsag_bench [options]\n"
            "  --coll allreduce|reduce|reduce_scatter_block|reduce_scatter\n"
            "                              collective (default allreduce); message size =\n"
            "                              the whole input vector (reduce-scatter: rounded\n"
            "                              to a multiple of np elements, equal counts)\n"
            "  --min-bytes N               smallest message (default 8; K/M/G suffixes)\n"
            "  --max-bytes N               largest message (default 64M)\n"
            "                              sizes: min, every power of 4 in between, max\n"
            "  --sizes N,N,...             explicit message sizes instead (e.g. 1K,2K,3K)\n"
            "  --iters N                   timed calls per size and variant (default\n"
            "                              adaptive: 2^29/bytes clamped to [5, 1000])\n"
            "  --warmup N                  untimed calls per size and variant (default\n"
            "                              iters/10 clamped to [1, 20])\n"
            "  --dtype double|float|int    element type (default double); op is MPI_SUM\n"
            "  --root R                    root of MPI_Reduce (default 0)\n"
            "  --rsag-algorithms all|forced|current\n"
            "                              all: every value of the MPI_T cvar\n"
            "                              coll_rsag_<coll>_algorithm (auto and each\n"
            "                              algorithm), interleaved in this job (default);\n"
            "                              forced: the same without auto (whose small\n"
            "                              calls keep their decision only while the\n"
            "                              settings stay: time it in a job of its own);\n"
            "                              current: what the job is configured with\n"
            "  --label NAME                label (all: NAME_<algorithm>; default \"rsag\" for\n"
            "                              all, \"current\" for current)\n"
            "  --forms all|F,F,...         the nonblocking mode: instead of algorithms, the\n"
            "                              forms F of the call the job is configured with\n"
            "                              (implies --rsag-algorithms current; labels\n"
            "                              NAME_<form>): blocking, nonblocking (I*+Wait),\n"
            "                              persistent (*_init once, Start+Wait), overlap\n"
            "                              (I*, compute, Wait), overlap_test (the same with\n"
            "                              MPI_Test in the compute loop); overlap needs\n"
            "                              nonblocking (added)\n"
            "  --test-interval-us N        MPI_Test period of overlap_test (default 10)\n"
            "  --previous LABEL            one more variant, LABEL: the blocking call on a\n"
            "                              duplicate of MPI_COMM_WORLD whose info says\n"
            "                              coll_rsag_reductions false, i.e. the module below\n"
            "                              rsag (coll/tuned by default), interleaved call by\n"
            "                              call with the others; with --forms one variant\n"
            "                              per form there (LABEL_<form>: libnbc's\n"
            "                              nonblocking and persistent calls by default)\n");
}

static int parse_bytes(const char *s, size_t *out)
{
    char *end;
    unsigned long long v;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || end == s) {
        return -1;
    }
    switch (*end) {
    case 'k': case 'K': v <<= 10; ++end; break;
    case 'm': case 'M': v <<= 20; ++end; break;
    case 'g': case 'G': v <<= 30; ++end; break;
    default: break;
    }
    if ('B' == *end || 'b' == *end) {
        ++end;
    }
    if (*end) {
        return -1;
    }
    *out = (size_t) v;
    return 0;
}

static int parse_int(const char *s, int *out)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < INT_MIN || v > INT_MAX) {
        return -1;
    }
    *out = (int) v;
    return 0;
}

/* "all" or a comma list of form names into a bit set; 0 ok. */
static int parse_forms(const char *s, unsigned *out)
{
    char list[256], *save = NULL;

    *out = 0;
    if (!strcmp(s, "all")) {
        *out = (1u << F_N) - 1;
        return 0;
    }
    snprintf(list, sizeof(list), "%s", s);
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int f;
        for (f = 0; f < F_N && strcmp(tok, form_name[f]); ++f) {
        }
        if (F_N == f) {
            return -1;
        }
        *out |= 1u << f;
    }
    return 0 == *out ? -1 : 0;
}

/* 0 ok, 1 --help, -1 error (message printed by rank 0). */
static int parse_options(int argc, char **argv)
{
    int label_set = 0;

    opt.coll = COLL_ALLREDUCE;
    opt.min_bytes = 8;
    opt.max_bytes = (size_t) 64 << 20;
    opt.iters = 0;
    opt.warmup = -1;
    opt.dtype = DT_DOUBLE;
    opt.root = 0;
    opt.all_algs = 1;
    opt.forms = 0;
    opt.test_interval = 10e-6;

    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;

        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            return 1;
        }
        if (NULL == v) {
            bad = 1;
        } else if (!strcmp(a, "--coll")) {
            bad = 1;
            for (int c = 0; c < COLL_N; ++c) {
                if (!strcmp(v, coll_name[c])) {
                    opt.coll = (coll_t) c;
                    bad = 0;
                }
            }
        } else if (!strcmp(a, "--min-bytes")) {
            bad = parse_bytes(v, &opt.min_bytes);
        } else if (!strcmp(a, "--max-bytes")) {
            bad = parse_bytes(v, &opt.max_bytes);
        } else if (!strcmp(a, "--sizes")) {
            snprintf(opt.sizes, sizeof(opt.sizes), "%s", v);
            bad = !*v || strlen(v) >= sizeof(opt.sizes);
        } else if (!strcmp(a, "--iters")) {
            bad = parse_int(v, &opt.iters) || opt.iters < 1;
        } else if (!strcmp(a, "--warmup")) {
            bad = parse_int(v, &opt.warmup) || opt.warmup < 0;
        } else if (!strcmp(a, "--dtype")) {
            if (!strcmp(v, "double")) opt.dtype = DT_DOUBLE;
            else if (!strcmp(v, "float")) opt.dtype = DT_FLOAT;
            else if (!strcmp(v, "int")) opt.dtype = DT_INT;
            else bad = 1;
        } else if (!strcmp(a, "--root")) {
            bad = parse_int(v, &opt.root) || opt.root < 0 || opt.root >= nprocs;
        } else if (!strcmp(a, "--rsag-algorithms")) {
            if (!strcmp(v, "all")) opt.all_algs = 1;
            else if (!strcmp(v, "forced")) opt.all_algs = 2;
            else if (!strcmp(v, "current")) opt.all_algs = 0;
            else bad = 1;
        } else if (!strcmp(a, "--forms")) {
            bad = parse_forms(v, &opt.forms);
        } else if (!strcmp(a, "--test-interval-us")) {
            int us;
            bad = parse_int(v, &us) || us < 0;
            opt.test_interval = us * 1e-6;
        } else if (!strcmp(a, "--previous")) {
            snprintf(opt.previous, sizeof(opt.previous), "%s", v);
            bad = !*v || strchr(v, ',') != NULL || strlen(v) >= sizeof(opt.previous);
        } else if (!strcmp(a, "--label")) {
            snprintf(opt.label, sizeof(opt.label), "%s", v);
            label_set = 1;
            bad = !*v || strchr(v, ',') != NULL;
        } else {
            if (0 == rank) fprintf(stderr, "rsag_bench: unknown option %s\n", a);
            return -1;
        }
        if (bad) {
            if (0 == rank) {
                fprintf(stderr, "rsag_bench: bad or missing value for %s%s%s\n", a,
                        v ? ": " : "", v ? v : "");
            }
            return -1;
        }
        ++i;
    }
    if (opt.min_bytes < dtype_size()) {
        opt.min_bytes = dtype_size();
    }
    if (opt.max_bytes < opt.min_bytes || opt.max_bytes / dtype_size() > INT_MAX) {
        if (0 == rank) fprintf(stderr, "rsag_bench: bad --min-bytes/--max-bytes\n");
        return -1;
    }
    if (opt.forms) {
        opt.all_algs = 0; /* forms of the configured call, not rsag's algorithms */
        if (opt.forms & ((1u << F_OVERLAP) | (1u << F_OVERLAP_TEST))) {
            opt.forms |= 1u << F_NB; /* the pure time sets the compute time */
        }
#ifndef BENCH_PCOLL
        if (opt.forms & (1u << F_PERSISTENT)) {
            if (0 == rank) {
                fprintf(stderr, "rsag_bench: --forms persistent: this MPI has neither "
                        "MPI_Allreduce_init (MPI 4) nor Open MPI's pcollreq extension\n");
            }
            return -1;
        }
#endif
    }
    if (!label_set) {
        snprintf(opt.label, sizeof(opt.label), "%s", opt.all_algs ? "rsag" : "current");
    }
    return 0;
}

/* A message size rounded down to whole elements (reduce-scatter: to a
 * multiple of np elements), at least one such unit. */
static size_t round_size(size_t b)
{
    size_t unit = dtype_size() * (size_t) (is_rs() ? nprocs : 1);
    return b < unit ? unit : b / unit * unit;
}

/* min, every power of 4 strictly between, max, or the --sizes list, each
 * rounded (round_size), sizes that round to the previous one dropped.
 * 0 on a bad list. */
static int make_sizes(size_t *sizes)
{
    int n = 0;
    size_t ts = dtype_size();
    if (opt.sizes[0]) {
        char list[sizeof(opt.sizes)], *save = NULL;
        snprintf(list, sizeof(list), "%s", opt.sizes);
        for (char *tok = strtok_r(list, ",", &save); tok && n < MAX_SIZES;
             tok = strtok_r(NULL, ",", &save)) {
            size_t b;
            if (parse_bytes(tok, &b) || b / ts > INT_MAX) {
                return 0;
            }
            if (0 == n || round_size(b) != sizes[n - 1]) {
                sizes[n++] = round_size(b);
            }
        }
        return n;
    }
    sizes[n++] = round_size(opt.min_bytes);
    for (size_t p = 1; p > 0 && p < opt.max_bytes && n < MAX_SIZES - 1; p <<= 2) {
        if (p > opt.min_bytes && round_size(p) > sizes[n - 1]) {
            sizes[n++] = round_size(p);
        }
    }
    if (round_size(opt.max_bytes) > sizes[n - 1]) {
        sizes[n++] = round_size(opt.max_bytes);
    }
    return n;
}

static int adaptive_iters(size_t bytes)
{
    size_t it = ((size_t) 1 << 29) / (bytes ? bytes : 1);
    return it < 5 ? 5 : it > 1000 ? 1000 : (int) it;
}

/* ---------------------------------------------------------------- MPI_T */

static int cvar_ok;
static MPI_T_cvar_handle cvar_handle;
static int cvar_orig;
static int n_alg_items; /* cvar enum items */
static struct {
    int value;
    char name[NAME_LEN];
} alg_items[MAX_VARIANTS];

static MPI_T_pvar_session pvar_session;
static int pvar_session_ok;
static counter_t counters[MAX_VARIANTS + 1];
static int n_counters;

/* Find coll_rsag_<coll>_algorithm and its enum (the algorithm table as rsag
 * exports it).  Returns 0 when present. */
static int find_rsag_cvar(void)
{
    char name[NAME_LEN], item[NAME_LEN], desc[1024], ename[NAME_LEN];
    int idx, nlen, dlen, verb, bind, scope, count, nitems, elen;
    MPI_Datatype dt;
    MPI_T_enum et;

    snprintf(name, sizeof(name), "coll_rsag_%s_algorithm", coll_name[opt.coll]);
    if (MPI_SUCCESS != MPI_T_cvar_get_index(name, &idx)) {
        return -1;
    }
    nlen = sizeof(item);
    dlen = sizeof(desc);
    if (MPI_SUCCESS
            != MPI_T_cvar_get_info(idx, item, &nlen, &verb, &dt, &et, desc, &dlen, &bind, &scope)
        || MPI_INT != dt || MPI_T_ENUM_NULL == et || MPI_T_BIND_NO_OBJECT != bind) {
        return -1;
    }
    elen = sizeof(ename);
    if (MPI_SUCCESS != MPI_T_enum_get_info(et, &nitems, ename, &elen)) {
        return -1;
    }
    for (int i = 0; i < nitems && n_alg_items < MAX_VARIANTS; ++i) {
        int value;
        nlen = sizeof(item);
        if (MPI_SUCCESS == MPI_T_enum_get_item(et, i, &value, item, &nlen)) {
            int seen = 0;
            /* rsag lists an algorithm's former (deprecated) name after the
             * current ones, with the same value: the same algorithm, not
             * measured twice (the tuner would write thresholds for both
             * names, and the deprecated one would override the other) */
            for (int k = 0; k < n_alg_items; ++k) {
                seen |= (alg_items[k].value == value);
            }
            if (seen) {
                continue;
            }
            alg_items[n_alg_items].value = value;
            snprintf(alg_items[n_alg_items].name, NAME_LEN, "%s", item);
            ++n_alg_items;
        }
    }
    if (MPI_SUCCESS != MPI_T_cvar_handle_alloc(idx, NULL, &cvar_handle, &count)
        || MPI_SUCCESS != MPI_T_cvar_read(cvar_handle, &cvar_orig)) {
        return -1;
    }
    cvar_ok = 1;
    return 0;
}

static int set_alg(int value)
{
    if (value < 0 || !cvar_ok) {
        return MPI_SUCCESS;
    }
    return MPI_T_cvar_write(cvar_handle, &value);
}

/* The counter coll_rsag_<coll>_<alg>_calls, or with whole = 1 the counter
 * coll_rsag_<alg> (labelled <alg> in the "ran" column). */
static void add_counter(const char *alg, int whole)
{
    char name[NAME_LEN + 64];
    int idx, count;

    if (whole) {
        snprintf(name, sizeof(name), "coll_rsag_%s", alg);
    } else {
        snprintf(name, sizeof(name), "coll_rsag_%s_%s_calls", coll_name[opt.coll], alg);
    }
    if (MPI_SUCCESS != MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &idx)) {
        return;
    }
    counter_t *c = &counters[n_counters];
    if (MPI_SUCCESS != MPI_T_pvar_handle_alloc(pvar_session, idx, NULL, &c->handle, &count)) {
        return;
    }
    MPI_T_pvar_start(pvar_session, c->handle); /* fails harmlessly if continuous */
    snprintf(c->alg, sizeof(c->alg), "%s", alg);
    ++n_counters;
}

static void setup_counters(void)
{
    if (MPI_SUCCESS != MPI_T_pvar_session_create(&pvar_session)) {
        return;
    }
    pvar_session_ok = 1;
    for (int i = 0; i < n_alg_items; ++i) {
        if (0 != alg_items[i].value) {
            add_counter(alg_items[i].name, 0);
        }
    }
    add_counter("delegated", 0);
    /* the engine's counters of nonblocking requests and persistent starts */
    add_counter("nonblocking_requests", 1);
    add_counter("persistent_starts", 1);
}

static unsigned long long read_counter(counter_t *c)
{
    unsigned long long v = 0;
    MPI_T_pvar_read(pvar_session, c->handle, &v);
    return v;
}

static void counters_before(void)
{
    for (int i = 0; i < n_counters; ++i) {
        counters[i].before = read_counter(&counters[i]);
    }
}

/* Which rsag counters moved since counters_before(): "-" if rsag's counters
 * do not exist in this job, "none" if rsag did not do the call. */
static void counters_after(char *out, size_t len)
{
    size_t used = 0;
    if (0 == n_counters) {
        snprintf(out, len, "-");
        return;
    }
    out[0] = '\0';
    for (int i = 0; i < n_counters; ++i) {
        if (read_counter(&counters[i]) != counters[i].before && used + 2 < len) {
            used += (size_t) snprintf(out + used, len - used, "%s%s", used ? "+" : "",
                                      counters[i].alg);
        }
    }
    if (0 == used) {
        snprintf(out, len, "none");
    }
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    variant_t var[MAX_VARIANTS];
    size_t sizes[MAX_SIZES];
    size_t maxb = 0;
    int nvar = 0, nsizes, provided, rc, failures = 0, status = 0, oversub;
    double t_start;
    long ncores;
    char *lsize;
    void *sbuf = NULL, *rbuf = NULL;
    double *times = NULL, *tcomps = NULL, *ntests = NULL;
    MPI_Comm previous_comm = MPI_COMM_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    rc = parse_options(argc, argv);
    if (0 != rc) {
        if (0 == rank) usage(rc > 0 ? stdout : stderr);
        MPI_Finalize();
        return rc > 0 ? 0 : 2;
    }

    /* MPI_T after MPI_Init, MPI_T_finalize before MPI_Finalize (Open MPI
     * 4.1.4 crashes in MPI_T_finalize after MPI_Finalize). */
    if (MPI_SUCCESS != MPI_T_init_thread(MPI_THREAD_SINGLE, &provided)) {
        if (0 == rank) fprintf(stderr, "rsag_bench: MPI_T_init_thread failed\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    find_rsag_cvar();
    setup_counters();
    if (opt.all_algs) {
        if (!cvar_ok || 0 == n_alg_items) {
            if (0 == rank) {
                fprintf(stderr,
                        "rsag_bench: --rsag-algorithms all/forced needs the MPI_T cvar "
                        "coll_rsag_%s_algorithm: is the rsag component loaded (see "
                        "OMPI_MCA_mca_base_component_path, --mca coll)?\n",
                        coll_name[opt.coll]);
            }
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        for (int i = 0; i < n_alg_items; ++i) {
            if (2 == opt.all_algs && !strcmp(alg_items[i].name, "auto")) {
                continue;
            }
            snprintf(var[nvar].label, NAME_LEN, "%.60s_%.60s", opt.label, alg_items[i].name);
            var[nvar].cvar_value = alg_items[i].value;
            var[nvar].form = F_BLOCKING;
            if (MPI_SUCCESS != set_alg(alg_items[i].value)) {
                if (0 == rank) {
                    fprintf(stderr, "rsag_bench: cannot write coll_rsag_%s_algorithm = %s "
                            "through MPI_T\n", coll_name[opt.coll], alg_items[i].name);
                }
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
            ++nvar;
        }
        set_alg(cvar_orig);
    } else if (opt.forms) {
        for (int f = 0; f < F_N; ++f) {
            if (opt.forms & (1u << f)) {
                snprintf(var[nvar].label, NAME_LEN, "%.60s_%s", opt.label, form_name[f]);
                var[nvar].cvar_value = -1;
                var[nvar].form = (form_t) f;
                ++nvar;
            }
        }
    } else {
        snprintf(var[0].label, NAME_LEN, "%s", opt.label);
        var[0].cvar_value = -1;
        var[0].form = F_BLOCKING;
        nvar = 1;
    }
    for (int v = 0; v < nvar; ++v) {
        var[v].comm = MPI_COMM_WORLD;
        var[v].side = 0;
    }
    if (*opt.previous) {
        int nprev = opt.forms ? nvar : 1;
        MPI_Info info;

        if (nvar + nprev > MAX_VARIANTS) {
            if (0 == rank) fprintf(stderr, "rsag_bench: too many variants for --previous\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        MPI_Info_create(&info);
        MPI_Info_set(info, "coll_rsag_reductions", "false");
        if (MPI_SUCCESS != MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &previous_comm)) {
            if (0 == rank) {
                fprintf(stderr, "rsag_bench: --previous: MPI_Comm_dup_with_info failed\n");
            }
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        MPI_Info_free(&info);
        MPI_Comm_set_errhandler(previous_comm, MPI_ERRORS_RETURN);
        /* the same forms as rsag's variants there, or the blocking call */
        for (int v = 0; v < nprev; ++v) {
            form_t f = opt.forms ? var[v].form : F_BLOCKING;
            if (opt.forms) {
                snprintf(var[nvar].label, NAME_LEN, "%.60s_%s", opt.previous, form_name[f]);
            } else {
                snprintf(var[nvar].label, NAME_LEN, "%s", opt.previous);
            }
            var[nvar].cvar_value = -1;
            var[nvar].form = f;
            var[nvar].comm = previous_comm;
            var[nvar].side = 1;
            ++nvar;
        }
    }

    /* Oversubscribed: more ranks on this node than online cores. */
    ncores = sysconf(_SC_NPROCESSORS_ONLN);
    lsize = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    oversub = (lsize ? atoi(lsize) : nprocs) > ncores;

    nsizes = make_sizes(sizes);
    if (0 == nsizes) {
        if (0 == rank) fprintf(stderr, "rsag_bench: bad --sizes list %s\n", opt.sizes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int s = 0; s < nsizes; ++s) {
        maxb = sizes[s] > maxb ? sizes[s] : maxb;
    }
    sbuf = malloc(maxb);
    rbuf = malloc(maxb);
    times = malloc(sizeof(double) * (size_t) nvar * (size_t) (opt.iters > 0 ? opt.iters : 1000));
    tcomps = malloc(sizeof(double) * (size_t) nvar * (size_t) (opt.iters > 0 ? opt.iters : 1000));
    ntests = malloc(sizeof(double) * (size_t) nvar * (size_t) (opt.iters > 0 ? opt.iters : 1000));
    rs_counts = malloc(sizeof(int) * (size_t) nprocs);
    if (NULL == sbuf || NULL == rbuf || NULL == times || NULL == tcomps || NULL == ntests
        || NULL == rs_counts) {
        fprintf(stderr, "rsag_bench: rank %d: out of memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memset(sbuf, 0, maxb);
    memset(rbuf, 0, maxb);

    if (0 == rank) {
        fprintf(stderr, "rsag_bench: %s, np %d on %ld cores%s, %s, %d variant(s), %d sizes\n",
                coll_name[opt.coll], nprocs, ncores,
                oversub ? " (OVERSUBSCRIBED: timings are slow and noisy)" : "",
                DT_DOUBLE == opt.dtype ? "double" : DT_FLOAT == opt.dtype ? "float" : "int",
                nvar, nsizes);
        printf("label,coll,np,bytes,time_us,memcpy_us,busbw_GBps,iters,ran,verified,"
               "oversubscribed,osu_us%s\n", opt.forms ? ",form,compute_us,overlap_pct,tests" : "");
        fflush(stdout);
    }

    t_start = now();
    for (int s = 0; s < nsizes; ++s) {
        size_t bytes = sizes[s];
        int count = (int) (bytes / dtype_size());
        int iters = opt.iters > 0 ? opt.iters : adaptive_iters(bytes);
        int warmup = opt.warmup >= 0 ? opt.warmup
                     : iters / 10 < 1 ? 1 : iters / 10 > 20 ? 20 : iters / 10;
        double memcpy_t, pure[2] = { 0.0, 0.0 };
        /* a persistent request per communicator: MPI_COMM_WORLD, --previous's */
        MPI_Request preq[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };

        fill_input(sbuf, (size_t) count, s);
        memcpy_t = time_memcpy(rbuf, sbuf, bytes, iters, warmup);
        for (int v = 0; v < nvar; ++v) {
            if (F_PERSISTENT != var[v].form) {
                continue;
            }
            rc = init_persistent(var[v].comm, sbuf, rbuf, count, &preq[var[v].side]);
            if (MPI_SUCCESS != rc) {
                fprintf(stderr, "rsag_bench: rank %d: persistent %s %zu bytes (%s): init "
                        "returned error %d\n", rank, coll_name[opt.coll], bytes, var[v].label,
                        rc);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
        }

        /* Two phases: the variants that are not overlap forms (all of them
         * without --forms), then the overlap forms, whose compute time is the
         * nonblocking form's time measured in the first phase. */
        for (int phase = 0; phase < 2; ++phase) {
            int in_phase[MAX_VARIANTS], np_ = 0;
            for (int v = 0; v < nvar; ++v) {
                if ((var[v].form >= F_OVERLAP) == (phase == 1)) {
                    in_phase[np_++] = v;
                }
            }
            if (0 == np_) {
                continue;
            }
            if (1 == phase) {
                /* each communicator's overlap computes for its own pure time */
                for (int v = 0; v < nvar; ++v) {
                    if (F_NB == var[v].form) {
                        /* median() sorts: a copy, the times are reported below */
                        double *tmp = malloc(sizeof(double) * (size_t) iters);
                        if (NULL == tmp) {
                            MPI_Abort(MPI_COMM_WORLD, 2);
                        }
                        memcpy(tmp, times + (size_t) v * (size_t) iters,
                               sizeof(double) * (size_t) iters);
                        pure[var[v].side] = at_root(median(tmp, iters), 0);
                        free(tmp);
                        MPI_Bcast(&pure[var[v].side], 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
                    }
                }
            }
            for (int k = 0; k < np_; ++k) {
                int v = in_phase[k];
                set_alg(var[v].cvar_value);
                for (int w = 0; w < warmup; ++w) {
                    double t, tc;
                    int nt;
                    MPI_Barrier(MPI_COMM_WORLD);
                    call_form(var[v].form, var[v].comm, sbuf, rbuf, count, &preq[var[v].side],
                              pure[var[v].side], &t, &tc, &nt);
                }
            }
            /* Interleaved rounds: every variant once per round, rotating order. */
            for (int it = 0; it < iters; ++it) {
                for (int k = 0; k < np_; ++k) {
                    int v = in_phase[(it + k) % np_];
                    size_t at = (size_t) v * (size_t) iters + (size_t) it;
                    double t, tc;
                    int nt;
                    set_alg(var[v].cvar_value);
                    MPI_Barrier(MPI_COMM_WORLD);
                    rc = call_form(var[v].form, var[v].comm, sbuf, rbuf, count,
                                   &preq[var[v].side], pure[var[v].side], &t, &tc, &nt);
                    times[at] = t;
                    tcomps[at] = tc;
                    ntests[at] = nt;
                    if (MPI_SUCCESS != rc) {
                        fprintf(stderr, "rsag_bench: rank %d: %s %s %zu bytes returned error "
                                "%d\n", rank, var[v].label, coll_name[opt.coll], bytes, rc);
                        MPI_Abort(MPI_COMM_WORLD, 2);
                    }
                }
            }
        }

        for (int v = 0; v < nvar; ++v) {
            double *tv = times + (size_t) v * (size_t) iters;
            double *cv = tcomps + (size_t) v * (size_t) iters;
            double *nv = ntests + (size_t) v * (size_t) iters;
            double osu = at_root(mean(tv, iters), 1);   /* before median() sorts tv */
            double my_t = median(tv, iters), my_c = median(cv, iters);
            double t = at_root(my_t, 0), comp = at_root(my_c, 0);
            double tests = at_root(median(nv, iters), 0);
            /* overlap of this rank from its medians; the smallest over ranks */
            double ov = pure[var[v].side] > 0.0
                            ? 100.0 * (1.0 - (my_t - my_c) / pure[var[v].side]) : 0.0;
            ov = ov < 0.0 ? 0.0 : ov > 100.0 ? 100.0 : ov;
            ov = -at_root(-ov, 0);
            char ran[NAME_LEN * 2];
            size_t bad = 0;
            int salt = 1000 + s * MAX_VARIANTS + v, nbad, nt;
            double t1, tc;

            /* Verification: fresh inputs, poisoned output, one call. */
            set_alg(var[v].cvar_value);
            fill_input(sbuf, (size_t) count, salt);
            memset(rbuf, 0x7f, bytes);
            MPI_Barrier(MPI_COMM_WORLD);
            counters_before();
            rc = call_form(var[v].form, var[v].comm, sbuf, rbuf, count, &preq[var[v].side],
                           pure[var[v].side], &t1, &tc, &nt);
            counters_after(ran, sizeof(ran));
            if (MPI_SUCCESS != rc) {
                fprintf(stderr, "rsag_bench: VERIFY FAILED: %s %s %zu bytes: rank %d: error "
                        "%d\n", var[v].label, coll_name[opt.coll], bytes, rank, rc);
                bad = 1;
            } else if (is_rs()) {
                size_t block = (size_t) count / (size_t) nprocs;
                bad = check_result(rbuf, (size_t) rank * block, block, salt, var[v].label, bytes);
            } else if (COLL_ALLREDUCE == opt.coll || rank == opt.root) {
                bad = check_result(rbuf, 0, (size_t) count, salt, var[v].label, bytes);
            }
            nbad = sum_at_root(bad ? 1 : 0);
            fill_input(sbuf, (size_t) count, s);

            if (0 == rank) {
                double busbw = (double) bytes / t / 1e9 * bus_factor();
                if (nbad) {
                    ++failures;
                }
                printf("%s,%s,%d,%zu,%.3f,%.3f,%.4f,%d,%s,%s,%s,%.3f", var[v].label,
                       coll_name[opt.coll], nprocs, bytes, t * 1e6, memcpy_t * 1e6, busbw,
                       iters, ran, nbad ? "FAIL" : "ok", oversub ? "yes" : "no", osu * 1e6);
                if (opt.forms && var[v].form >= F_OVERLAP) {
                    printf(",%s,%.3f,%.1f,%.0f\n", form_name[var[v].form], comp * 1e6, ov, tests);
                } else if (opt.forms) {
                    printf(",%s,,,\n", form_name[var[v].form]);
                } else {
                    printf("\n");
                }
                fflush(stdout);
            }
        }
        for (int side = 0; side < 2; ++side) {
            if (MPI_REQUEST_NULL != preq[side]) {
                MPI_Request_free(&preq[side]);
            }
        }
        if (0 == rank) { /* progress, for long sweeps */
            fprintf(stderr, "rsag_bench: size %d/%d done (%zu bytes), %.1f s elapsed\n", s + 1,
                    nsizes, bytes, now() - t_start);
        }
    }
    set_alg(cvar_orig);

    MPI_Bcast(&failures, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (failures) {
        status = 1;
        if (0 == rank) {
            fprintf(stderr, "rsag_bench: %d verification(s) FAILED\n", failures);
        }
    }

    /* the engine's counters, as proof of who ran the nonblocking calls */
    for (int i = 0; i < n_counters && 0 == rank; ++i) {
        if (!strcmp(counters[i].alg, "nonblocking_requests")
            || !strcmp(counters[i].alg, "persistent_starts")) {
            fprintf(stderr, "rsag_bench: rank 0: coll_rsag_%s = %llu\n", counters[i].alg,
                    read_counter(&counters[i]));
        }
    }
    for (int i = 0; i < n_counters; ++i) {
        MPI_T_pvar_handle_free(pvar_session, &counters[i].handle);
    }
    if (pvar_session_ok) {
        MPI_T_pvar_session_free(&pvar_session);
    }
    if (cvar_ok) {
        MPI_T_cvar_handle_free(&cvar_handle);
    }
    MPI_T_finalize();
    if (MPI_COMM_NULL != previous_comm) {
        MPI_Comm_free(&previous_comm);
    }
    free(times);
    free(tcomps);
    free(ntests);
    free(rs_counts);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return status;
}
