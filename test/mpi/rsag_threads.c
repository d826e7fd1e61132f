/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_threads.c -- rsag's reductions from several threads at once under
 * MPI_THREAD_MULTIPLE.
 *
 * MPI_Init_thread asks for MPI_THREAD_MULTIPLE; anything less provided is
 * a failure (the test would prove nothing).  The main thread makes two
 * communicators per thread (a duplicate of MPI_COMM_WORLD and a split in
 * reversed rank order), then runs phases: auto, then every algorithm index
 * k >= 1 forced through MPI_T for each collective that has one (auto for
 * the others).  In each phase T threads (--threads, default 4) run at once,
 * each on its own communicators only (MPI forbids two collectives at once
 * on one communicator):
 *   for each iteration (--iters), collective (Allreduce, Reduce,
 *   Reduce_scatter_block, Reduce_scatter), form (blocking, nonblocking,
 *   persistent) and count (--counts): one call, alternating between the
 *   thread's two communicators; Allreduce in place on odd iterations,
 *   Reduce in place at the root, the root moving;
 *   then a batch: the four collectives posted nonblocking on one
 *   communicator and as persistent requests on the other, started, all
 *   completed by one MPI_Waitall, the persistent ones started a second time
 *   with fresh input and completed again.
 * Every element of every result is checked (inputs regenerated from
 * (rank, thread, iteration, element), MPI_SUM on int: exact).
 *
 * After the threads of a phase joined, rsag's MPI_T counters must show
 * that rsag ran every call: per collective the sum of its algorithm
 * counters grew by the number of calls (a nonblocking call or a persistent
 * init decides once), none was delegated, the forced algorithm ran at least
 * every call it applies to (rt_applies), coll_rsag_nonblocking_requests grew
 * by the nonblocking calls and coll_rsag_persistent_starts by the starts.
 *
 * Usage: mpirun -np N rsag_threads [--threads T] [--iters N]
 *                                  [--counts a,b,...] [--auto-only]
 * Output: rank 0 prints the thread level, one line per phase
 * "rsag_threads: phase <name>: ok|FAIL ...", each failing rank's reasons on
 * stderr and last "rsag_threads: np=N threads=T calls=C failed=F".  Exit
 * status 0 iff nothing failed.  Bookkeeping uses MPI_Allgather, not the
 * collectives under test.
 */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsag_forms.h"
#include "rsag_mpit.h"

#define MAX_THREADS 16
#define MAX_COUNTS 16
#define NCOMM 2

static int rank, size, nthreads = 4, iters = 3, ncounts = 4, auto_only;
static int counts[MAX_COUNTS] = { 1, 7, 300, 20000 };
static MPI_Comm comms[MAX_THREADS][NCOMM];
static rt_placement_t where[NCOMM];
static int pof2;

typedef struct {
    int t;
    int errors;
    char why[256];
    int *sbuf, *rbuf, *sbuf2, *rbuf2;
    size_t cap;
} worker_t;

static void note(worker_t *w, const char *fmt, ...)
{
    va_list ap;

    if (0 == w->errors++) {
        va_start(ap, fmt);
        vsnprintf(w->why, sizeof(w->why), fmt, ap);
        va_end(ap);
    }
}

/* Input element i of comm rank r in thread t, iteration it; the sum over p ranks. */
static int in_elem(int r, int t, int it, size_t i)
{
    return (r + 1) * (int) (i % 13 + 1) + t + it;
}
static int sum_elem(int p, int t, int it, size_t i)
{
    return p * (p + 1) / 2 * (int) (i % 13 + 1) + p * (t + it);
}

/* The call of coll with count n on comm: its element counts (the whole
 * vector in *total, this rank's result in *mine at offset *off), rcounts
 * filled for Reduce_scatter. */
static void shape(int coll, int n, int p, int r, int *rcounts, size_t *total, size_t *mine,
                  size_t *off)
{
    *off = 0;
    switch (coll) {
    case RT_ALLREDUCE:
    case RT_REDUCE:
        *total = *mine = (size_t) n;
        return;
    case RT_RSB:
        *mine = (size_t) (n / p + 1);   /* never 0: Open MPI returns early */
        *total = *mine * (size_t) p;
        *off = *mine * (size_t) r;
        return;
    default:
        *total = 0;
        for (int i = 0; i < p; ++i) {
            rcounts[i] = (1 == i && p > 2) ? 0 : n / p + i;
            if (i == r) {
                *off = *total;
                *mine = (size_t) rcounts[i];
            }
            *total += (size_t) rcounts[i];
        }
    }
}

/* Prepare one call (input of values `val` written, rbuf poisoned); the
 * iteration `it` chooses the root and whether the call is in place; the
 * rt_call_t to make. */
static void prepare(worker_t *w, int coll, int n, int it, int val, MPI_Comm comm, int *sbuf,
                    int *rbuf, int *rcounts, rt_call_t *c)
{
    int p, r;
    size_t total, mine, off;

    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    shape(coll, n, p, r, rcounts, &total, &mine, &off);
    int root = (it + w->t) % p;
    int inplace = (RT_ALLREDUCE == coll && 1 == it % 2) || (RT_REDUCE == coll && r == root);
    for (size_t i = 0; i < total; ++i) {
        sbuf[i] = in_elem(r, w->t, val, i);
        rbuf[i] = inplace ? sbuf[i] : -12345;
    }
    c->coll = coll;
    c->sbuf = inplace ? MPI_IN_PLACE : sbuf;
    c->rbuf = rbuf;
    c->count = (RT_RSB == coll) ? n / p + 1 : n;
    c->rcounts = rcounts;
    c->dt = MPI_INT;
    c->op = MPI_SUM;
    c->root = root;
    c->comm = comm;
}

/* Check the result of a prepared call. */
static void verify(worker_t *w, const char *what, const rt_call_t *c, int it)
{
    int p, r;
    size_t total, mine, off;
    int rc[MAX_THREADS * 64];

    MPI_Comm_size(c->comm, &p);
    MPI_Comm_rank(c->comm, &r);
    shape(c->coll, RT_RSB == c->coll ? (c->count - 1) * p : c->count, p, r, rc, &total, &mine,
          &off);
    if (RT_REDUCE == c->coll && r != c->root) {
        return;
    }
    for (size_t i = 0; i < mine; ++i) {
        int want = sum_elem(p, w->t, it, off + i), got = ((const int *) c->rbuf)[i];
        if (got != want) {
            note(w, "thread %d %s %s count %d iter %d: element %zu is %d, expected %d", w->t,
                 what, rt_coll_names[c->coll], c->count, it, i, got, want);
            return;
        }
    }
}

static void one_call(worker_t *w, int coll, int form, int n, int it, MPI_Comm comm)
{
    int rcounts[64];
    rt_call_t c;
    int rc;

    prepare(w, coll, n, it, it, comm, w->sbuf, w->rbuf, rcounts, &c);
    rc = rt_run(form, &c);
    if (MPI_SUCCESS != rc) {
        note(w, "thread %d %s %s count %d: error %d", w->t, rt_form_names[form],
             rt_coll_names[coll], n, rc);
        return;
    }
    verify(w, rt_form_names[form], &c, it);
}

/* The four collectives nonblocking on comm a and persistent on comm b, all
 * outstanding at once; the persistent ones started twice. */
static void batch(worker_t *w, int n, int it, MPI_Comm a, MPI_Comm b)
{
    int rcounts[2][RT_NCOLL][64];
    rt_call_t c[2][RT_NCOLL];
    MPI_Request req[2 * RT_NCOLL];
    size_t part = w->cap / RT_NCOLL;
    int rc = MPI_SUCCESS;

    for (int k = 0; k < 2 * RT_NCOLL; ++k) {
        req[k] = MPI_REQUEST_NULL;
    }
    for (int s = 0; s < 2; ++s) {
        for (int coll = 0; coll < RT_NCOLL; ++coll) {
            int *sb = (0 == s ? w->sbuf : w->sbuf2) + part * (size_t) coll;
            int *rb = (0 == s ? w->rbuf : w->rbuf2) + part * (size_t) coll;
            prepare(w, coll, n, it, it, 0 == s ? a : b, sb, rb, rcounts[s][coll], &c[s][coll]);
            if (MPI_SUCCESS == rc) {
                rc = rt_post(0 == s ? RT_FORM_NONBLOCKING : RT_FORM_PERSISTENT, &c[s][coll],
                             &req[s * RT_NCOLL + coll]);
            }
        }
    }
    for (int start = 0; start < 2 && MPI_SUCCESS == rc; ++start) {
        if (1 == start) {       /* fresh input for the restart */
            for (int coll = 0; coll < RT_NCOLL; ++coll) {
                rt_call_t again;
                int *sb = w->sbuf2 + part * (size_t) coll, *rb = w->rbuf2 + part * (size_t) coll;
                prepare(w, coll, n, it, it + 1, b, sb, rb, rcounts[1][coll], &again);
            }
        }
        rc = MPI_Startall(RT_NCOLL, &req[RT_NCOLL]);
        if (MPI_SUCCESS == rc) {
            rc = MPI_Waitall(0 == start ? 2 * RT_NCOLL : RT_NCOLL,
                             0 == start ? req : &req[RT_NCOLL], MPI_STATUSES_IGNORE);
        }
        for (int s = start; s < 2 && MPI_SUCCESS == rc; ++s) {
            for (int coll = 0; coll < RT_NCOLL; ++coll) {
                verify(w, 0 == s ? "batch nonblocking" : "batch persistent", &c[s][coll],
                       it + (1 == s ? start : 0));
            }
        }
    }
    if (MPI_SUCCESS != rc) {
        note(w, "thread %d batch count %d: error %d", w->t, n, rc);
    }
    for (int k = RT_NCOLL; k < 2 * RT_NCOLL; ++k) {
        if (MPI_REQUEST_NULL != req[k]) {
            MPI_Request_free(&req[k]);
        }
    }
}

static void *worker(void *arg)
{
    worker_t *w = arg;

    for (int it = 0; it < iters; ++it) {
        for (int coll = 0; coll < RT_NCOLL; ++coll) {
            for (int form = 0; form < RT_NFORM; ++form) {
                for (int k = 0; k < ncounts; ++k) {
                    one_call(w, coll, form, counts[k], it, comms[w->t][(it + k) % NCOMM]);
                }
            }
        }
        /* the batch splits the buffers in four (each a quarter of cap) */
        for (int k = 0; k < ncounts; ++k) {
            batch(w, counts[k], it, comms[w->t][0], comms[w->t][1]);
        }
    }
    return NULL;
}

/* What the threads of one phase must have made rsag count. */
typedef struct {
    long long calls[RT_NCOLL], applies[RT_NCOLL], nb, starts;
} expect_t;

static void expected(const int forced[RT_NCOLL], expect_t *e)
{
    int batches = ncounts;

    memset(e, 0, sizeof(*e));
    for (int coll = 0; coll < RT_NCOLL; ++coll) {
        for (int form = 0; form < RT_NFORM; ++form) {
            rt_set_form(form);
            for (int k = 0; k < ncounts; ++k) {
                long long n = (long long) nthreads * iters;
                e->calls[coll] += n;
                long total = RT_RSB == coll ? (long) (counts[k] / size + 1) * size : counts[k];
                if (RT_RS == coll) {
                    total = 0;
                    for (int i = 0; i < size; ++i) {
                        total += (1 == i && size > 2) ? 0 : counts[k] / size + i;
                    }
                }
                /* both communicators of a thread have every rank on this node
                 * or not alike: where[0] stands for both */
                if (forced[coll] > 0
                    && rt_applies(rt_alg(coll, forced[coll]), total, pof2, 1, 1, where[0])) {
                    e->applies[coll] += n;
                }
                if (RT_FORM_NONBLOCKING == form) {
                    e->nb += n;
                } else if (RT_FORM_PERSISTENT == form) {
                    e->starts += n;
                }
            }
        }
        /* the batch: one nonblocking call and one persistent init (two starts) */
        e->calls[coll] += 2LL * nthreads * iters * batches;
    }
    e->nb += (long long) RT_NCOLL * nthreads * iters * batches;
    e->starts += 2LL * RT_NCOLL * nthreads * iters * batches;
    rt_set_form(RT_FORM_BLOCKING);
}

/* One phase: forced[coll] algorithm index (0: auto).  Returns this rank's
 * failures. */
static int phase(const char *name, const int forced[RT_NCOLL], worker_t *ws, long long *ncalls)
{
    rt_snap_t before[RT_NCOLL], after[RT_NCOLL];
    pthread_t tid[MAX_THREADS];
    long long nb0, st0, nb1, st1;
    expect_t e;
    int errors = 0, all;
    char why[512] = "";

    for (int coll = 0; coll < RT_NCOLL; ++coll) {
        if (0 != rt_force(coll, forced[coll])) {
            snprintf(why, sizeof(why), "cannot force %s %s", rt_coll_names[coll],
                     rt_alg(coll, forced[coll]));
            ++errors;
        }
        rt_snapshot(coll, &before[coll]);
    }
    nb0 = rt_counter("coll_rsag_nonblocking_requests");
    st0 = rt_counter("coll_rsag_persistent_starts");
    for (int t = 0; t < nthreads; ++t) {
        ws[t].errors = 0;
        ws[t].why[0] = '\0';
        if (0 != pthread_create(&tid[t], NULL, worker, &ws[t])) {
            fprintf(stderr, "rsag_threads: rank %d: pthread_create failed\n", rank);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    for (int t = 0; t < nthreads; ++t) {
        pthread_join(tid[t], NULL);
        if (ws[t].errors) {
            errors += ws[t].errors;
            if ('\0' == why[0]) {
                snprintf(why, sizeof(why), "%s", ws[t].why);
            }
        }
    }
    nb1 = rt_counter("coll_rsag_nonblocking_requests");
    st1 = rt_counter("coll_rsag_persistent_starts");
    expected(forced, &e);
    for (int coll = 0; coll < RT_NCOLL; ++coll) {
        long long total = 0;
        rt_snapshot(coll, &after[coll]);
        for (int k = 0; k < after[coll].nalg; ++k) {
            total += (long long) (after[coll].ctr[k] - before[coll].ctr[k]);
        }
        long long deleg = (long long) (after[coll].ctr[0] - before[coll].ctr[0]);
        long long mine = forced[coll] > 0 ? (long long) (after[coll].ctr[forced[coll]]
                                                         - before[coll].ctr[forced[coll]])
                                          : 0;
        *ncalls += e.calls[coll];
        if (total != e.calls[coll] || 0 != deleg || mine < e.applies[coll]) {
            ++errors;
            if ('\0' == why[0]) {
                snprintf(why, sizeof(why),
                         "%s: rsag counted %lld calls (expected %lld), %lld delegated, "
                         "%s ran %lld (at least %lld expected)",
                         rt_coll_names[coll], total, e.calls[coll], deleg,
                         rt_alg(coll, forced[coll]), mine, e.applies[coll]);
            }
        }
    }
    if (nb1 - nb0 != e.nb || st1 - st0 != e.starts) {
        ++errors;
        if ('\0' == why[0]) {
            snprintf(why, sizeof(why),
                     "nonblocking requests %lld (expected %lld), persistent starts %lld "
                     "(expected %lld)", nb1 - nb0, e.nb, st1 - st0, e.starts);
        }
    }
    if (errors) {
        fprintf(stderr, "rsag_threads: rank %d: phase %s: %d failures, first: %s\n", rank, name,
                errors, why);
    }
    {
        int *each = malloc(sizeof(int) * (size_t) size);
        MPI_Allgather(&errors, 1, MPI_INT, each, 1, MPI_INT, MPI_COMM_WORLD);
        all = 0;
        for (int r = 0; r < size; ++r) {
            all += each[r] ? 1 : 0;
        }
        free(each);
    }
    if (0 == rank) {
        printf("rsag_threads: phase %s: %s", name, all ? "FAIL" : "ok");
        for (int coll = 0; coll < RT_NCOLL; ++coll) {
            printf(" %s=%s", rt_coll_names[coll], rt_alg(coll, forced[coll]));
        }
        printf(" (%d ranks failed)\n", all);
        fflush(stdout);
    }
    return errors;
}

static void parse_counts(const char *s)
{
    ncounts = 0;
    while (*s && ncounts < MAX_COUNTS) {
        char *end;
        counts[ncounts++] = (int) strtol(s, &end, 10);
        s = (',' == *end) ? end + 1 : end;
        if (end == s && ',' != *end) {
            break;
        }
    }
}

int main(int argc, char **argv)
{
    int provided = MPI_THREAD_SINGLE, failed = 0, maxalg = 0;
    long long ncalls = 0;
    worker_t ws[MAX_THREADS];

    for (int i = 1; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--threads") && i + 1 < argc) {
            nthreads = atoi(argv[++i]);
        } else if (0 == strcmp(argv[i], "--iters") && i + 1 < argc) {
            iters = atoi(argv[++i]);
        } else if (0 == strcmp(argv[i], "--counts") && i + 1 < argc) {
            parse_counts(argv[++i]);
        } else if (0 == strcmp(argv[i], "--auto-only")) {
            auto_only = 1;
        } else {
            fprintf(stderr, "usage: rsag_threads [--threads T] [--iters N] [--counts a,b,...] "
                            "[--auto-only]\n");
            return 2;
        }
    }
    if (nthreads < 1 || nthreads > MAX_THREADS || iters < 1 || ncounts < 1) {
        fprintf(stderr, "rsag_threads: bad arguments\n");
        return 2;
    }
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (0 == rank) {
        printf("rsag_threads: MPI_Init_thread provided %s\n",
               MPI_THREAD_MULTIPLE == provided ? "MPI_THREAD_MULTIPLE"
               : MPI_THREAD_SERIALIZED == provided ? "MPI_THREAD_SERIALIZED"
               : MPI_THREAD_FUNNELED == provided ? "MPI_THREAD_FUNNELED"
                                                 : "MPI_THREAD_SINGLE");
        fflush(stdout);
    }
    if (MPI_THREAD_MULTIPLE != provided) {
        if (0 == rank) {
            printf("rsag_threads: FAIL: MPI_THREAD_MULTIPLE is not provided\n");
        }
        MPI_Finalize();
        return 1;
    }
    if (0 != rt_mpit_init()) {
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int c = 0; c < RT_NCOLL; ++c) {
        maxalg = rt_nalg(c) > maxalg ? rt_nalg(c) : maxalg;
    }
    while (1 << (pof2 + 1) <= size) {
        ++pof2;
    }
    pof2 = 1 << pof2;
    for (int t = 0; t < nthreads; ++t) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t][0]);
        MPI_Comm_split(MPI_COMM_WORLD, 0, size - 1 - rank, &comms[t][1]);
        MPI_Comm_set_errhandler(comms[t][0], MPI_ERRORS_RETURN);
        MPI_Comm_set_errhandler(comms[t][1], MPI_ERRORS_RETURN);
        int big = 0;
        for (int k = 0; k < ncounts; ++k) {
            big = counts[k] > big ? counts[k] : big;
        }
        ws[t].t = t;
        ws[t].cap = (size_t) big * 4 + (size_t) size * 256;
        ws[t].sbuf = malloc(ws[t].cap * sizeof(int));
        ws[t].rbuf = malloc(ws[t].cap * sizeof(int));
        ws[t].sbuf2 = malloc(ws[t].cap * sizeof(int));
        ws[t].rbuf2 = malloc(ws[t].cap * sizeof(int));
        if (!ws[t].sbuf || !ws[t].rbuf || !ws[t].sbuf2 || !ws[t].rbuf2) {
            fprintf(stderr, "rsag_threads: out of memory\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    where[0] = rt_placement(comms[0][0]);
    where[1] = rt_placement(comms[0][1]);

    {
        int forced[RT_NCOLL] = { 0 };
        failed += 0 != phase("auto", forced, ws, &ncalls);
    }
    for (int k = 1; !auto_only && k < maxalg; ++k) {
        int forced[RT_NCOLL];
        char name[64];
        for (int c = 0; c < RT_NCOLL; ++c) {
            forced[c] = k < rt_nalg(c) ? k : 0;
        }
        snprintf(name, sizeof(name), "forced-%d", k);
        failed += 0 != phase(name, forced, ws, &ncalls);
    }

    for (int t = 0; t < nthreads; ++t) {
        MPI_Comm_free(&comms[t][0]);
        MPI_Comm_free(&comms[t][1]);
        free(ws[t].sbuf);
        free(ws[t].rbuf);
        free(ws[t].sbuf2);
        free(ws[t].rbuf2);
    }
    {
        int *each = malloc(sizeof(int) * (size_t) size), any = 0;
        MPI_Allgather(&failed, 1, MPI_INT, each, 1, MPI_INT, MPI_COMM_WORLD);
        for (int r = 0; r < size; ++r) {
            any += each[r];
        }
        free(each);
        failed = any;
    }
    if (0 == rank) {
        printf("rsag_threads: np=%d threads=%d calls=%lld failed=%d\n", size, nthreads, ncalls,
               failed);
    }
    rt_mpit_finalize();
    MPI_Finalize();
    return failed ? 1 : 0;
}
