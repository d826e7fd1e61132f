/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_victim.c -- a loop of one reduction on one rsag path, and a rank that
 * dies (or stops) in the middle of it: the liveness and chaos suites
 * (test/suites/liveness.sh, chaos.sh; doc/reliability.md).
 *
 *   rsag_victim [--coll allreduce|reduce|reduce_scatter_block|reduce_scatter]
 *               [--alg NAME|auto] [--form blocking|nonblocking|persistent]
 *               [--count N] [--calls N] [--victim R] [--at N]
 *               [--signal kill|stop|none] [--in-setup]
 *
 * Every rank makes --calls calls (default 1000) of the collective on a
 * duplicate of MPI_COMM_WORLD (so a `direct` path makes its shared segment
 * in the first call, or the persistent request's init; nonblocking: one
 * blocking call makes it first), --count MPI_INT elements per rank block (default 1000;
 * Reduce_scatter: counts r mod 3 + count / 2, zeros allowed), MPI_SUM, root
 * (Reduce) rotating with the call, the algorithm forced through MPI_T (not
 * with auto).  Persistent: one request made before the loop, started every
 * call.  Each call's inputs depend on the call number and every rank checks
 * every element of its result.
 *
 * Rank --victim (default none) acts just before its call number --at
 * (default 20): kill raises SIGKILL (its peers are then inside that call,
 * waiting for it; --at 0 with direct: they are in the segment set-up), stop
 * raises SIGSTOP (continues when someone sends SIGCONT).  With --in-setup
 * the victim first waits until rank 0's shared segment is in /dev/shm (with
 * --at 0 and direct: rank 0 is in the set-up, waiting for the victim).  Before it acts it
 * prints how many calls rsag ran with the forced algorithm so far, which
 * shows the path ran.
 *
 * Rank 0 prints first "rsag_victim: job <jobid> pid0 <pid> ..." (the
 * jobid from Open MPI's environment when there is one, and rank 0's pid:
 * the names of the job's files in /dev/shm contain them), after the first
 * call how many rsag-* names of its pid are in /dev/shm (a `direct` segment
 * is mapped now and its name must be gone already), and at the end
 * "rsag_victim: PASS ..." when every result was right and the forced
 * algorithm's MPI_T counter moved by --calls on every rank (auto: calls not
 * delegated; persistent: by one, when the request was made, and
 * coll_rsag_persistent_starts by --calls), "rsag_victim: FAIL ..." otherwise;
 * exit status 0 iff PASS.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rsag_forms.h"
#include "rsag_mpit.h"

static int rank, size;
static long failures;

#define FAIL(...)                                                                   \
    do {                                                                            \
        if (failures++ < 10) {                                                      \
            fprintf(stderr, "rsag_victim[%d]: ", rank);                             \
            fprintf(stderr, __VA_ARGS__);                                           \
            fputc('\n', stderr);                                                    \
        }                                                                           \
    } while (0)

/* Element i of rank q's input in call c: small integers, exact sums. */
static int input(int q, long i, int c)
{
    return (int) ((q * 7 + i * 3 + c * 11) % 201) - 100;
}

/* Wait (up to a minute) until a shared segment made by pid0 is in /dev/shm:
 * rank 0 is then inside the set-up of `direct` (it removes the name only
 * once every rank has mapped it).  Its name, or NULL. */
static const char *segment_of(int pid0)
{
    static char found[300];
    char tail[32];

    snprintf(tail, sizeof(tail), "-%d-", pid0);
    for (int tries = 0; tries < 6000; tries++) {
        DIR *d = opendir("/dev/shm");
        struct dirent *e;

        while (NULL != d && NULL != (e = readdir(d))) {
            if (0 == strncmp(e->d_name, "rsag-", 5) && NULL != strstr(e->d_name, tail)) {
                snprintf(found, sizeof(found), "/dev/shm/%s", e->d_name);
                closedir(d);
                return found;
            }
        }
        if (NULL != d) {
            closedir(d);
        }
        usleep(10000);
    }
    return NULL;
}

/* How many rsag-* names made by pid0 are in /dev/shm. */
static int segments_of(int pid0)
{
    char tail[32];
    DIR *d = opendir("/dev/shm");
    struct dirent *e;
    int n = 0;

    snprintf(tail, sizeof(tail), "-%d-", pid0);
    while (NULL != d && NULL != (e = readdir(d))) {
        n += 0 == strncmp(e->d_name, "rsag-", 5) && NULL != strstr(e->d_name, tail);
    }
    if (NULL != d) {
        closedir(d);
    }
    return n;
}

static int coll_index(const char *name)
{
    for (int c = 0; c < RT_NCOLL; c++) {
        if (0 == strcmp(name, rt_coll_names[c])) {
            return c;
        }
    }
    return -1;
}

/* rsag's calls of this collective not delegated, or by algorithm k (> 0) */
static unsigned long long ran(int k, const rt_snap_t *s)
{
    unsigned long long n = 0;

    for (int j = 1; j < s->nalg; j++) {
        if (k <= 0 || j == k) {
            n += s->ctr[j];
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    const char *coll_name = "allreduce", *alg = "auto", *form_name = "blocking";
    const char *sig = "kill";
    long count = 1000, calls = 1000, at = 20;
    int victim = -1, coll, form, k = 0, *rcounts = NULL, *displs = NULL, in_setup = 0;
    int pid0 = (int) getpid();
    long total, mine_off, mine_n, all_failures = 0;
    int *sbuf = NULL, *rbuf = NULL;
    MPI_Comm comm;
    MPI_Request req = MPI_REQUEST_NULL;
    rt_snap_t s0, s1;
    rt_call_t call;
    unsigned long long moved, least;
    long long starts0;
    struct timespec now;

    rt_start(&argc, &argv, &rank, &size);
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (0 == strcmp(argv[i], "--in-setup")) {
            in_setup = 1;
            continue;
        } else if (NULL == v) {
            goto usage;
        } else if (0 == strcmp(argv[i], "--coll")) {
            coll_name = v;
        } else if (0 == strcmp(argv[i], "--alg")) {
            alg = v;
        } else if (0 == strcmp(argv[i], "--form")) {
            form_name = v;
        } else if (0 == strcmp(argv[i], "--count")) {
            count = atol(v);
        } else if (0 == strcmp(argv[i], "--calls")) {
            calls = atol(v);
        } else if (0 == strcmp(argv[i], "--victim")) {
            victim = atoi(v);
        } else if (0 == strcmp(argv[i], "--at")) {
            at = atol(v);
        } else if (0 == strcmp(argv[i], "--signal")) {
            sig = v;
        } else {
            goto usage;
        }
        i++;
    }
    coll = coll_index(coll_name);
    form = rt_form_index(form_name);
    if (coll < 0 || form < 0 || count < 1 || calls < 1 || at < 0
        || (0 != strcmp(sig, "kill") && 0 != strcmp(sig, "stop") && 0 != strcmp(sig, "none"))) {
        goto usage;
    }
    if (0 != strcmp(alg, "auto")) {
        k = rt_alg_index(coll, alg);
        if (k <= 0 || 0 != rt_force(coll, k)) {
            if (0 == rank) {
                fprintf(stderr, "rsag_victim: no algorithm %s for %s\n", alg, coll_name);
            }
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    rt_set_form(form);
    if (rt_counters_missing(coll)) {
        if (0 == rank) {
            fprintf(stderr, "rsag_victim: rsag's MPI_T counters are missing (rsag not loaded?)\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    /* the layout: rank q's block is [displs[q], displs[q] + rcounts[q]) */
    rcounts = malloc(sizeof(int) * (size_t) size);
    displs = malloc(sizeof(int) * (size_t) size);
    total = 0;
    for (int q = 0; q < size; q++) {
        rcounts[q] = (int) (RT_RS == coll ? q % 3 + count / 2 : count);
        displs[q] = (int) total;
        total += rcounts[q];
    }
    if (RT_ALLREDUCE == coll || RT_REDUCE == coll) {
        total = count;
    }
    mine_off = RT_ALLREDUCE == coll || RT_REDUCE == coll ? 0 : displs[rank];
    mine_n = RT_ALLREDUCE == coll || RT_REDUCE == coll ? count : rcounts[rank];
    sbuf = malloc(sizeof(int) * (size_t) total);
    rbuf = malloc(sizeof(int) * (size_t) (total + 1));
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Bcast(&pid0, 1, MPI_INT, 0, MPI_COMM_WORLD);

    if (0 == rank) {
        const char *job = getenv("OMPI_MCA_ess_base_jobid");
        printf("rsag_victim: job %s (%#lx) pid0 %d np=%d coll=%s alg=%s form=%s count=%ld "
               "calls=%ld victim=%d at=%ld signal=%s\n", job ? job : "?",
               job ? strtoul(job, NULL, 10) : 0UL, (int) getpid(), size, coll_name, alg,
               form_name, count, calls, victim, at, sig);
        fflush(stdout);
    }

    call.coll = coll;
    call.sbuf = sbuf;
    call.rbuf = rbuf;
    call.count = RT_RSB == coll ? rcounts[0] : (int) count;
    call.rcounts = rcounts;
    call.dt = MPI_INT;
    call.op = MPI_SUM;
    call.root = 0;
    call.comm = comm;
    if (RT_FORM_PERSISTENT == form && (RT_REDUCE == coll)) {
        call.root = size - 1;       /* one request: one root */
    }
    if (in_setup && k > 0) {
        /* rsag compares its settings of a collective once per communicator,
         * at its first blocking call, before any set-up: one call under auto
         * (which does not make the segment here: liveness.sh leaves auto's direct
         * off for this job) gets that done, so that the
         * victim dies while its peers are in the segment's set-up proper */
        if (0 != rt_force(coll, 0) || MPI_SUCCESS != rt_run(RT_FORM_BLOCKING, &call)
            || 0 != rt_force(coll, k)) {
            FAIL("the call before the set-up failed");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (RT_FORM_NONBLOCKING == form && 0 == strcmp(alg, "direct")) {
        /* a nonblocking call uses direct once a blocking one (or a
         * persistent *_init) has made the node's segment (making it waits
         * for every rank) */
        if (MPI_SUCCESS != rt_run(RT_FORM_BLOCKING, &call)) {
            FAIL("the blocking call that makes the segment failed");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    rt_snapshot(coll, &s0);
    starts0 = rt_counter("coll_rsag_persistent_starts");
    if (RT_FORM_PERSISTENT == form && MPI_SUCCESS != rt_post(form, &call, &req)) {
        FAIL("persistent request not made");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    for (long c = 0; c < calls; c++) {
        int rc;

        if (rank == victim && c == at && 0 != strcmp(sig, "none")) {
            if (in_setup) {
                const char *seg = segment_of(pid0);
                printf("rsag_victim: rank %d: rank 0 is in the set-up: %s exists\n", rank,
                       seg ? seg : "(no segment of rank 0 within a minute)");
            }
            rt_snapshot(coll, &s1);
            clock_gettime(CLOCK_REALTIME, &now);
            printf("rsag_victim: rank %d pid %d: %llu calls by %s%s so far; raises SIG%s "
                   "before call %ld at %ld.%03ld\n", rank, (int) getpid(),
                   RT_FORM_PERSISTENT == form
                       ? (unsigned long long) (rt_counter("coll_rsag_persistent_starts") - starts0)
                           * (ran(k, &s1) - ran(k, &s0))
                       : ran(k, &s1) - ran(k, &s0),
                   alg, RT_FORM_PERSISTENT == form ? " (persistent starts)" : "",
                   0 == strcmp(sig, "kill") ? "KILL" : "STOP", c, (long) now.tv_sec,
                   now.tv_nsec / 1000000);
            fflush(stdout);
            raise(0 == strcmp(sig, "kill") ? SIGKILL : SIGSTOP);
            clock_gettime(CLOCK_REALTIME, &now);
            printf("rsag_victim: rank %d continued at %ld.%03ld\n", rank, (long) now.tv_sec,
                   now.tv_nsec / 1000000);
            fflush(stdout);
        }
        for (long i = 0; i < total; i++) {
            sbuf[i] = input(rank, i, (int) c);
        }
        rbuf[RT_RS == coll || RT_RSB == coll ? mine_n : total] = 0x5a5a5a5a;
        if (RT_REDUCE == coll && RT_FORM_PERSISTENT != form) {
            call.root = (int) (c % size);
        }
        if (RT_FORM_PERSISTENT == form) {
            rc = MPI_Start(&req);
            if (MPI_SUCCESS == rc) {
                rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
            }
        } else {
            rc = rt_run(form, &call);
        }
        if (MPI_SUCCESS != rc) {
            FAIL("call %ld returned %d", c, rc);
            continue;
        }
        if (0 == c && 0 == rank) {
            /* a segment is unlinked as soon as every rank has mapped it */
            printf("rsag_victim: after the first call, rsag-* names of rank 0 in /dev/shm: %d\n",
                   segments_of(pid0));
            fflush(stdout);
        }
        if (RT_REDUCE == coll && rank != call.root) {
            continue;
        }
        for (long i = 0; i < mine_n; i++) {
            long want = 0;
            for (int q = 0; q < size; q++) {
                want += input(q, mine_off + i, (int) c);
            }
            if (rbuf[i] != want) {
                FAIL("call %ld element %ld: %d, expected %ld", c, i, rbuf[i], want);
                break;
            }
        }
        if (rbuf[RT_RS == coll || RT_RSB == coll ? mine_n : total] != 0x5a5a5a5a) {
            FAIL("call %ld wrote past its result", c);
        }
    }

    rt_snapshot(coll, &s1);
    moved = ran(k, &s1) - ran(k, &s0);
    if (RT_FORM_PERSISTENT == form) {
        /* the decision is made once, when the request is made; every start
         * runs it */
        long long starts = rt_counter("coll_rsag_persistent_starts") - starts0;
        if (1 != moved || starts != calls) {
            FAIL("persistent: request by rsag's %s: %llu (1 expected), rsag starts %lld of %ld",
                 alg, moved, starts, calls);
        }
        moved = 1 == moved ? (unsigned long long) starts : 0;
    } else if (moved != (unsigned long long) calls) {
        FAIL("%llu of %ld calls ran by rsag's %s", moved, calls, alg);
    }
    if (RT_FORM_PERSISTENT == form) {
        MPI_Request_free(&req);
    }
    MPI_Reduce(&moved, &least, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&failures, &all_failures, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("rsag_victim: %s np=%d coll=%s alg=%s form=%s count=%ld calls=%ld ran by rsag "
               "(least over ranks)=%llu failures=%ld\n", all_failures ? "FAIL" : "PASS", size,
               coll_name, alg, form_name, count, calls, least, all_failures);
    }
    MPI_Comm_free(&comm);
    free(sbuf);
    free(rbuf);
    free(rcounts);
    free(displs);
    rt_mpit_finalize();
    MPI_Finalize();
    return all_failures ? 1 : 0;

usage:
    if (0 == rank) {
        fprintf(stderr, "usage: rsag_victim [--coll allreduce|reduce|reduce_scatter_block|"
                        "reduce_scatter] [--alg NAME|auto] [--form blocking|nonblocking|"
                        "persistent] [--count N] [--calls N] [--victim R] [--at N] "
                        "[--signal kill|stop|none] [--in-setup]\n");
    }
    MPI_Finalize();
    return 2;
}
