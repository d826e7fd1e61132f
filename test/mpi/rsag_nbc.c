/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_nbc.c -- the hard cases of rsag's nonblocking and persistent
 * reductions (MPI_Iallreduce, MPI_Ireduce, MPI_Ireduce_scatter_block,
 * MPI_Ireduce_scatter and their *_init forms), in the manner of MPICH's
 * test/mpi/coll nonblocking tests.  rsag_check --form covers the datatypes,
 * ops and counts; this program covers how requests are used:
 *
 *   many         on every communicator of the job (world, a dup, a split in
 *                reversed rank order, a split without rank 0, split halves)
 *                all four collectives at once, each nonblocking and
 *                persistent, with several counts and every algorithm forced
 *                in turn (through MPI_T, before each post or init), so that
 *                up to ~80 requests of different algorithms are outstanding;
 *                each rank posts the communicators in its own order (the
 *                persistent requests are made in one order: their init is
 *                nonlocal); rounds
 *                are completed by MPI_Waitall, MPI_Wait in a per-rank
 *                shuffled order, an MPI_Test loop, MPI_Testany, MPI_Waitsome
 *                and MPI_Testsome
 *   progress     a large call posted, then only unrelated point-to-point
 *                traffic (MPI_Sendrecv ring exchanges, checked) and then
 *                MPI_Test until done: rsag's requests progress without
 *                MPI_Wait and without a progress thread
 *   mixed        blocking MPI_Allreduce / MPI_Reduce (auto and forced
 *                direct) while nonblocking and persistent calls are
 *                outstanding on the same communicator
 *   free         MPI_Request_free on inactive persistent requests (never
 *                started, started once, twice); on an active nonblocking
 *                request (erroneous in MPI 4.1 section 6.12: either it
 *                succeeds, and the call must still complete, leaving the
 *                right result and nothing held, or it fails, and the
 *                request must still be valid and complete by MPI_Wait)
 *   restart      one persistent request of each collective started N times
 *                (--restarts, default 1000) with fresh input each time, every
 *                result checked, coll_rsag_persistent_starts up by N
 *   inplace      MPI_IN_PLACE in both forms, every collective, three counts
 *   allocfail    coll_rsag_test_alloc_fail: every memory request of a
 *                nonblocking and a persistent call of each collective and
 *                applicable algorithm failed in turn on every rank: the
 *                error (MPI_ERR_NO_MEM) comes back from the post/init, the
 *                start or the completion, coll_rsag_allocations_live is
 *                unchanged (nothing leaked), the countdown is used up, no
 *                hang, and the same call right after is right
 *
 * Every case checks every element of every result (values regenerated from
 * (case, rank, element)), that sendbuf was not modified, and through rsag's
 * MPI_T counters that rsag ran every call itself: its algorithm counters
 * (coll_rsag_<coll>_<alg>_calls) up by one per nonblocking call and per
 * *_init, none delegated, coll_rsag_nonblocking_requests up by the number of
 * nonblocking calls and coll_rsag_persistent_starts by the number of
 * MPI_Start.
 *
 * Usage: mpirun -np N rsag_nbc [--case C[,C...]] [--restarts N] [--timeout SEC]
 *                              [--no-counters]
 * --no-counters checks results only (no counter, no injected failure): the
 * cases run through whichever coll module holds the slots, e.g. libnbc.
 * Output: on rank 0 one line per case "rsag_nbc: <case>: ok|FAIL ...", each
 * failing rank's reasons, and last "rsag_nbc: np=N cases=C failed=F".  Exit
 * status 0 iff no case failed.  Bookkeeping uses MPI_Gather/MPI_Bcast, not
 * the collectives under test.
 */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rsag_forms.h"
#include "rsag_mix.h"
#include "rsag_mpit.h"

#define MAXCOMM 6
#define WHYLEN 512

static int rank, size;
static int ncases, nfailed;
static int timeout_s = 300;
static int restarts = 1000;
static int no_counters;          /* --no-counters: results only (any coll module) */
static const char *current = "start-up";
static rt_placement_t world_where;

/* ------------------------------------------------------------------------ */
/* bookkeeping                                                              */

static void on_alarm(int sig)
{
    char msg[256];
    int n;

    (void) sig;
    n = snprintf(msg, sizeof msg, "rsag_nbc: rank %d: TIMEOUT after %d s in case %s\n", rank,
                 timeout_s, current);
    if (n > 0) {
        ssize_t w = write(2, msg, (size_t) n < sizeof msg ? (size_t) n : sizeof msg - 1);
        (void) w;
    }
    _exit(3);
}

/* The first reason a case fails on this rank. */
typedef struct {
    int failed;
    char why[WHYLEN];
} verdict_t;

static void fail(verdict_t *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(verdict_t *v, const char *fmt, ...)
{
    va_list ap;

    if (v->failed) {
        return;
    }
    v->failed = 1;
    va_start(ap, fmt);
    vsnprintf(v->why, sizeof v->why, fmt, ap);
    va_end(ap);
}

/* Whether every rank passed (MPI_Gather + MPI_Bcast: not a collective under
 * test); prints the failing ranks' reasons and rank 0's verdict line. */
static void finish_case(const char *name, const verdict_t *v, const char *detail)
{
    int *all = NULL, bad = 0;

    if (v->failed) {
        printf("rsag_nbc: rank %d: %s: %s\n", rank, name, v->why);
        fflush(stdout);
    }
    if (0 == rank) {
        all = malloc(sizeof(int) * (size_t) size);
    }
    MPI_Gather(&v->failed, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        for (int r = 0; r < size; r++) {
            bad += all[r];
        }
        free(all);
    }
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    ncases++;
    nfailed += bad > 0;
    if (0 == rank) {
        printf("rsag_nbc: %s: %s%s%s\n", name, bad ? "FAIL" : "ok", detail[0] ? " " : "",
               detail);
        if (bad) {
            printf("rsag_nbc: %s: failed on %d of %d ranks\n", name, bad, size);
        }
        fflush(stdout);
    }
}

/* ------------------------------------------------------------------------ */
/* values                                                                   */

/* Input element gi of rank r in the call numbered salt: -1000..1000. */
static int in_val(int r, long gi, uint64_t salt)
{
    return (int) (rsag_mix64(rsag_mix64(salt) ^ ((uint64_t) r << 40) ^ (uint64_t) gi) % 2001) - 1000;
}

/* ------------------------------------------------------------------------ */
/* one call: buffers, input, check                                          */

enum { K_SUM, K_MAX };

typedef struct {
    int coll, form, kind, inplace, count;
    MPI_Comm comm;
    int p, me, root, is_root;
    int *rcounts;
    long nin, nout, outoff;
    int *sbuf, *rbuf;
    rt_call_t call;
    MPI_Request req;
    int alg;                 /* forced algorithm (index, 0: auto) */
    int id;                  /* the same on every rank of the communicator */
    uint64_t salt;
    int done;
} nbop_t;

/* Buffers and arguments of one call of coll on comm: count elements
 * (allreduce, reduce), count per block (reduce_scatter_block), or counts
 * count/p + i for rank i (reduce_scatter). */
static void op_setup(nbop_t *o, int coll, int form, int kind, int inplace, int count,
                     MPI_Comm comm, int root)
{
    memset(o, 0, sizeof *o);
    o->coll = coll;
    o->form = form;
    o->kind = kind;
    o->inplace = inplace;
    o->count = count;
    o->comm = comm;
    o->req = MPI_REQUEST_NULL;
    MPI_Comm_size(comm, &o->p);
    MPI_Comm_rank(comm, &o->me);
    o->root = root % o->p;
    o->is_root = RT_REDUCE != coll || o->me == o->root;
    o->rcounts = malloc(sizeof(int) * (size_t) o->p);
    switch (coll) {
    case RT_RSB:
        o->nin = (long) count * o->p;
        o->nout = count;
        o->outoff = (long) o->me * count;
        break;
    case RT_RS:
        o->nin = 0;
        for (int i = 0; i < o->p; i++) {
            o->rcounts[i] = count / o->p + i;
            if (i < o->me) {
                o->outoff += o->rcounts[i];
            }
            o->nin += o->rcounts[i];
        }
        o->nout = o->rcounts[o->me];
        break;
    default:
        o->nin = o->nout = count;
        break;
    }
    o->sbuf = malloc(sizeof(int) * (size_t) (o->nin > 0 ? o->nin : 1));
    o->rbuf = malloc(sizeof(int) * (size_t) (o->nin > 0 ? o->nin : 1));
    if (NULL == o->sbuf || NULL == o->rbuf || NULL == o->rcounts) {
        fprintf(stderr, "rsag_nbc: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    o->call.coll = coll;
    o->call.sbuf = inplace && o->is_root ? MPI_IN_PLACE : (void *) o->sbuf;
    o->call.rbuf = o->rbuf;
    o->call.count = count;
    o->call.rcounts = o->rcounts;
    o->call.dt = MPI_INT;
    o->call.op = K_SUM == kind ? MPI_SUM : MPI_MAX;
    o->call.root = o->root;
    o->call.comm = comm;
}

static void op_release(nbop_t *o)
{
    free(o->sbuf);
    free(o->rbuf);
    free(o->rcounts);
    o->sbuf = o->rbuf = NULL;
    o->rcounts = NULL;
}

/* Fresh input for the call numbered salt; the output is poisoned, so a
 * call that does not write it is seen. */
static void op_fill(nbop_t *o, uint64_t salt)
{
    int *in = o->inplace && o->is_root ? o->rbuf : o->sbuf;

    o->salt = salt;
    o->done = 0;
    if (!(o->inplace && o->is_root)) {
        for (long i = 0; i < o->nin; i++) {
            o->rbuf[i] = 0x5a5a5a5a;
        }
    }
    for (long i = 0; i < o->nin; i++) {
        in[i] = in_val(o->me, i, salt);
    }
}

/* The result (at the root of reduce) and the untouched input; 0 when right. */
static int op_check(const nbop_t *o, const char *what, verdict_t *v)
{
    long nbad = 0, first = -1;
    int got = 0, want = 0;

    if (o->is_root) {
        for (long j = 0; j < o->nout; j++) {
            long gi = o->outoff + j;
            int x = in_val(0, gi, o->salt);

            for (int r = 1; r < o->p; r++) {
                int y = in_val(r, gi, o->salt);
                x = K_SUM == o->kind ? x + y : (y > x ? y : x);
            }
            if (o->rbuf[j] != x && 0 == nbad++) {
                first = j;
                got = o->rbuf[j];
                want = x;
            }
        }
    }
    if (nbad) {
        fail(v, "%s: %s %s count %d%s on a communicator of %d (rank %d): %ld of %ld elements "
             "wrong, first %ld: got %d expected %d", what, rt_form_names[o->form],
             rt_coll_names[o->coll], o->count, o->inplace ? " in place" : "", o->p, o->me,
             nbad, o->nout, first, got, want);
        return 1;
    }
    if (!(o->inplace && o->is_root)) {
        for (long i = 0; i < o->nin; i++) {
            if (o->sbuf[i] != in_val(o->me, i, o->salt)) {
                fail(v, "%s: %s %s count %d: sendbuf element %ld modified", what,
                     rt_form_names[o->form], rt_coll_names[o->coll], o->count, i);
                return 1;
            }
        }
    }
    return 0;
}

static void force(int coll, int k)
{
    if (0 != rt_force(coll, k)) {
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

static void force_auto(void)
{
    for (int c = 0; c < RT_NCOLL; c++) {
        force(c, 0);
    }
}

/* Post (nonblocking) or init (persistent) with algorithm o->alg forced. */
static int op_post(nbop_t *o)
{
    force(o->coll, o->alg);
    return rt_post(o->form, &o->call, &o->req);
}

static const char *err_name(int rc)
{
    static char s[MPI_MAX_ERROR_STRING];
    int len = 0;

    MPI_Error_string(rc, s, &len);
    return s;
}

/* ------------------------------------------------------------------------ */
/* counters                                                                 */

typedef struct {
    rt_snap_t s[RT_NCOLL];
    long long nb, starts;
} ctrs_t;

static MPI_T_pvar_handle live_pvar, allocs_pvar;

static void snap(ctrs_t *c)
{
    for (int k = 0; k < RT_NCOLL; k++) {
        rt_snapshot(k, &c->s[k]);
    }
    c->nb = rt_counter("coll_rsag_nonblocking_requests");
    c->starts = rt_counter("coll_rsag_persistent_starts");
}

/* What rsag must have counted between a and b: decisions[c] calls of
 * collective c decided by rsag itself (nonblocking calls, *_init, blocking
 * calls), none delegated; nb nonblocking requests; starts MPI_Starts
 * (`direct` among them: it runs nonblocking and persistent calls once the
 * communicator's segment exists). */
static void expect_counts(const ctrs_t *a, const ctrs_t *b, const long decisions[RT_NCOLL],
                          long nb, long starts, verdict_t *v)
{
    if (no_counters) {
        return;
    }
    for (int c = 0; c < RT_NCOLL; c++) {
        unsigned long long ours = 0, deleg = b->s[c].ctr[0] - a->s[c].ctr[0];

        for (int k = 1; k < a->s[c].nalg; k++) {
            unsigned long long d = b->s[c].ctr[k] - a->s[c].ctr[k];

            ours += d;
        }
        if (deleg) {
            fail(v, "counters: %llu %s calls delegated", deleg, rt_coll_names[c]);
        }
        if ((long) ours != decisions[c]) {
            fail(v, "counters: rsag's %s algorithm counters moved by %llu, expected %ld",
                 rt_coll_names[c], ours, decisions[c]);
        }
    }
    if (a->nb < 0 || b->nb < 0) {
        fail(v, "counters: no MPI_T counter coll_rsag_nonblocking_requests");
    } else if (b->nb - a->nb != nb) {
        fail(v, "counters: coll_rsag_nonblocking_requests moved by %lld, expected %ld",
             b->nb - a->nb, nb);
    }
    if (a->starts < 0 || b->starts < 0) {
        fail(v, "counters: no MPI_T counter coll_rsag_persistent_starts");
    } else if (b->starts - a->starts != starts) {
        fail(v, "counters: coll_rsag_persistent_starts moved by %lld, expected %ld",
             b->starts - a->starts, starts);
    }
}

/* ------------------------------------------------------------------------ */
/* communicators                                                            */

typedef struct {
    MPI_Comm comm;
    char name[40];
    int owned;
    int gid;             /* which of the communicators (the same on its ranks) */
} commx_t;

static commx_t comms[MAXCOMM];
static int ncomms;

/* world, a dup, world in reversed rank order, without rank 0 (np >= 3),
 * halves by rank parity (np >= 4): only communicators of size >= 2 (coll/self
 * owns size 1); the lists of different ranks differ. */
static void make_comms(void)
{
    MPI_Comm c;

    comms[ncomms++] = (commx_t) { MPI_COMM_WORLD, "world", 0, 0 };
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    comms[ncomms++] = (commx_t) { c, "dup(world)", 1, 1 };
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &c);
    comms[ncomms++] = (commx_t) { c, "split(reversed)", 1, 2 };
    if (size >= 3) {
        MPI_Comm_split(MPI_COMM_WORLD, 0 == rank ? MPI_UNDEFINED : 0, rank, &c);
        if (MPI_COMM_NULL != c) {
            comms[ncomms++] = (commx_t) { c, "split(without 0)", 1, 3 };
        }
    }
    if (size >= 4) {
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c);
        comms[ncomms++] = (commx_t) { c, "split(rank%2)", 1, 4 };
    }
    for (int i = 0; i < ncomms; i++) {
        MPI_Comm_set_errhandler(comms[i].comm, MPI_ERRORS_RETURN);
    }
}

static void free_comms(void)
{
    for (int i = 0; i < ncomms; i++) {
        if (comms[i].owned) {
            MPI_Comm_free(&comms[i].comm);
        }
    }
    ncomms = 0;
}

/* ------------------------------------------------------------------------ */
/* case many: many requests, several communicators, every completion call   */

enum { M_WAITALL, M_WAIT_SHUFFLED, M_TEST_LOOP, M_TESTANY, M_WAITSOME, M_TESTSOME, NMETHOD };
static const char *method_names[NMETHOD] = { "MPI_Waitall", "MPI_Wait (shuffled)",
                                             "MPI_Test loop", "MPI_Testany", "MPI_Waitsome",
                                             "MPI_Testsome" };

/* Complete n requests by `method`; marks o[i].done; returns the first error. */
static int complete_all(nbop_t **o, int n, int method, uint64_t seed)
{
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t) n);
    int *idx = malloc(sizeof(int) * (size_t) n), rc = MPI_SUCCESS, left = n, out, flag;

    for (int i = 0; i < n; i++) {
        reqs[i] = o[i]->req;
        idx[i] = i;
    }
    switch (method) {
    case M_WAITALL:
        rc = MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
        for (int i = 0; i < n; i++) {
            o[i]->done = 1;
        }
        break;
    case M_WAIT_SHUFFLED:
        for (int i = n - 1; i > 0; i--) {
            int j = (int) (rsag_mix64(seed + (uint64_t) i) % (uint64_t) (i + 1)), t = idx[i];

            idx[i] = idx[j];
            idx[j] = t;
        }
        for (int i = 0; i < n && MPI_SUCCESS == rc; i++) {
            rc = MPI_Wait(&reqs[idx[i]], MPI_STATUS_IGNORE);
            o[idx[i]]->done = 1;
        }
        break;
    case M_TEST_LOOP:
        while (left > 0 && MPI_SUCCESS == rc) {
            for (int i = 0; i < n && MPI_SUCCESS == rc; i++) {
                if (!o[i]->done) {
                    rc = MPI_Test(&reqs[i], &flag, MPI_STATUS_IGNORE);
                    if (flag) {
                        o[i]->done = 1;
                        left--;
                    }
                }
            }
        }
        break;
    case M_TESTANY:
        /* persistent requests turn inactive, nonblocking ones null: both are
         * skipped; flag with MPI_UNDEFINED when none is left */
        for (;;) {
            rc = MPI_Testany(n, reqs, &out, &flag, MPI_STATUS_IGNORE);
            if (MPI_SUCCESS != rc || (flag && MPI_UNDEFINED == out)) {
                break;
            }
            if (flag) {
                o[out]->done = 1;
                left--;
            }
        }
        break;
    default:
        for (;;) {
            rc = M_WAITSOME == method
                     ? MPI_Waitsome(n, reqs, &out, idx, MPI_STATUSES_IGNORE)
                     : MPI_Testsome(n, reqs, &out, idx, MPI_STATUSES_IGNORE);
            if (MPI_SUCCESS != rc || MPI_UNDEFINED == out) {
                break;
            }
            for (int i = 0; i < out; i++) {
                o[idx[i]]->done = 1;
                left--;
            }
        }
        break;
    }
    for (int i = 0; i < n; i++) {
        o[i]->req = reqs[i];
    }
    free(reqs);
    free(idx);
    return rc;
}

static void case_many(void)
{
    static const int counts[] = { 1, 7, 1000, 40000 };
    enum { NCOUNT = sizeof counts / sizeof counts[0] };
    int nops = ncomms * RT_NCOLL * 2, n = 0;
    nbop_t *ops = calloc((size_t) nops, sizeof *ops);
    nbop_t **order = calloc((size_t) nops, sizeof *order);
    long decisions[RT_NCOLL] = { 0 }, nb = 0, starts = 0, rounds = 0;
    verdict_t v = { 0, "" };
    ctrs_t a, b;
    char detail[160];
    int rc;

    current = "many";
    snap(&a);
    /* per communicator (in this rank's order: each communicator's calls are
     * in the same order on its ranks, the communicators interleave
     * differently on each rank), per collective one nonblocking and one
     * persistent call; the persistent ones are made here, once */
    for (int x = 0; x < ncomms; x++) {
        int ci = (x + rank) % ncomms;

        for (int c = 0; c < RT_NCOLL; c++) {
            for (int form = RT_FORM_NONBLOCKING; form <= RT_FORM_PERSISTENT; form++) {
                /* the same choice on every rank of the communicator */
                int id = (comms[ci].gid * RT_NCOLL + c) * 2 + form - 1;
                nbop_t *o = &ops[n];

                op_setup(o, c, form, (id % 3) ? K_SUM : K_MAX, 0, counts[id % NCOUNT],
                         comms[ci].comm, id);
                o->alg = id % rt_nalg(c);
                o->id = id;
                order[n++] = o;
            }
        }
    }
    /* the persistent requests are made communicator by communicator in the
     * same order on every rank: an *_init is nonlocal (MPI 4.1 section
     * 7.13) and rsag's may wait for its peers (it makes the node's segment
     * for direct), as a blocking collective would */
    for (int ci = 0; ci < ncomms; ci++) {
        for (int i = 0; i < n; i++) {
            nbop_t *o = order[i];

            if (RT_FORM_PERSISTENT != o->form || comms[ci].comm != o->comm) {
                continue;
            }
            rc = op_post(o);
            decisions[o->coll]++;
            if (MPI_SUCCESS != rc) {
                fail(&v, "%s_init on %s: %s", rt_coll_names[o->coll], comms[ci].name,
                     err_name(rc));
                goto out;
            }
        }
    }
    for (int round = 0; round < 2 * NMETHOD && !v.failed; round++) {
        int method = round % NMETHOD;

        for (int i = 0; i < n; i++) {
            nbop_t *o = order[i];

            op_fill(o, ((uint64_t) round << 32) + (uint64_t) o->id * 7919 + 1);
            if (RT_FORM_PERSISTENT == o->form) {
                rc = MPI_Start(&o->req);
                starts++;
            } else {
                /* a different algorithm in the second pass of the methods */
                o->alg = (o->alg + round) % rt_nalg(o->coll);
                rc = op_post(o);
                decisions[o->coll]++;
                nb++;
            }
            if (MPI_SUCCESS != rc) {
                fail(&v, "round %d: posting %s %s: %s", round, rt_form_names[o->form],
                     rt_coll_names[o->coll], err_name(rc));
                goto out;
            }
        }
        rc = complete_all(order, n, method, rsag_mix64((uint64_t) (rank * 1000 + round)));
        if (MPI_SUCCESS != rc) {
            fail(&v, "round %d: %s returned %s", round, method_names[method], err_name(rc));
            goto out;
        }
        for (int i = 0; i < n; i++) {
            char what[64];

            snprintf(what, sizeof what, "round %d (%s)", round, method_names[method]);
            if (!order[i]->done) {
                fail(&v, "%s: request %d not reported complete", what, i);
            }
            if (RT_FORM_NONBLOCKING == order[i]->form && MPI_REQUEST_NULL != order[i]->req) {
                fail(&v, "%s: a completed nonblocking request is not MPI_REQUEST_NULL", what);
            }
            if (RT_FORM_PERSISTENT == order[i]->form && MPI_REQUEST_NULL == order[i]->req) {
                fail(&v, "%s: a completed persistent request became MPI_REQUEST_NULL", what);
            }
            op_check(order[i], what, &v);
        }
        rounds++;
    }
out:
    for (int i = 0; i < n; i++) {
        if (RT_FORM_PERSISTENT == order[i]->form && MPI_REQUEST_NULL != order[i]->req) {
            MPI_Request_free(&order[i]->req);
        }
        op_release(order[i]);
    }
    force_auto();
    snap(&b);
    expect_counts(&a, &b, decisions, nb, starts, &v);
    snprintf(detail, sizeof detail, "(%d requests outstanding per round on %d communicators, "
             "%ld rounds, every completion call)", n, ncomms, rounds);
    finish_case("many", &v, detail);
    free(ops);
    free(order);
}

/* ------------------------------------------------------------------------ */
/* case progress: point-to-point traffic and MPI_Test only                  */

static void case_progress(void)
{
    enum { RING = 1000, ROUNDS = 20, BIG = 1 << 18 };
    int *out = malloc(sizeof(int) * RING), *in = malloc(sizeof(int) * RING);
    int right = (rank + 1) % size, left = (rank + size - 1) % size, early = 0, total = 0;
    long decisions[RT_NCOLL] = { 0 }, nb = 0, starts = 0;
    verdict_t v = { 0, "" };
    ctrs_t a, b;
    char detail[160];
    MPI_Comm comm = comms[1].comm;      /* dup(world) */

    current = "progress";
    snap(&a);
    for (int form = RT_FORM_NONBLOCKING; form <= RT_FORM_PERSISTENT && !v.failed; form++) {
        for (int c = 0; c < RT_NCOLL && !v.failed; c++) {
            nbop_t o;
            int rc, flag = 0;
            double t0;

            op_setup(&o, c, form, K_SUM, 0, RT_RSB == c ? BIG / size : BIG, comm, size - 1);
            op_fill(&o, 1000 + (uint64_t) (form * RT_NCOLL + c));
            rc = op_post(&o);
            decisions[c]++;
            if (RT_FORM_PERSISTENT == form && MPI_SUCCESS == rc) {
                rc = MPI_Start(&o.req);
                starts++;
            } else if (RT_FORM_NONBLOCKING == form) {
                nb++;
            }
            if (MPI_SUCCESS != rc) {
                fail(&v, "%s %s: %s", rt_form_names[form], rt_coll_names[c], err_name(rc));
                op_release(&o);
                break;
            }
            /* unrelated traffic on MPI_COMM_WORLD, checked */
            for (int r = 0; r < ROUNDS; r++) {
                for (int i = 0; i < RING; i++) {
                    out[i] = rank * 100000 + r * 1000 + i;
                }
                MPI_Sendrecv(out, RING, MPI_INT, right, 77, in, RING, MPI_INT, left, 77,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                for (int i = 0; i < RING; i++) {
                    if (in[i] != left * 100000 + r * 1000 + i) {
                        fail(&v, "the ring exchange got %d at %d", in[i], i);
                        break;
                    }
                }
            }
            /* then MPI_Test only */
            t0 = MPI_Wtime();
            rc = MPI_Test(&o.req, &flag, MPI_STATUS_IGNORE);
            early += flag;
            total++;
            while (MPI_SUCCESS == rc && !flag && MPI_Wtime() - t0 < 120) {
                rc = MPI_Test(&o.req, &flag, MPI_STATUS_IGNORE);
            }
            if (MPI_SUCCESS != rc || !flag) {
                fail(&v, "%s %s: MPI_Test %s", rt_form_names[form], rt_coll_names[c],
                     MPI_SUCCESS != rc ? err_name(rc) : "did not complete it in 120 s");
            } else {
                op_check(&o, "after the ring exchange", &v);
            }
            if (RT_FORM_PERSISTENT == form) {
                MPI_Request_free(&o.req);
            }
            op_release(&o);
        }
    }
    force_auto();
    snap(&b);
    expect_counts(&a, &b, decisions, nb, starts, &v);
    snprintf(detail, sizeof detail, "(rank 0: %d of %d calls done by the ring exchanges "
             "before the first MPI_Test)", early, total);
    finish_case("progress", &v, detail);
    free(out);
    free(in);
}

/* ------------------------------------------------------------------------ */
/* case mixed: blocking calls while nonblocking ones are outstanding         */

static void case_mixed(void)
{
    nbop_t nbig, nsmall, pers, blk1, blk2, blk3;
    long decisions[RT_NCOLL] = { 0 }, nb = 0, starts = 0;
    verdict_t v = { 0, "" };
    ctrs_t a, b;
    int rc, direct = rt_alg_index(RT_ALLREDUCE, "direct");
    MPI_Comm comm = comms[0].comm;

    current = "mixed";
    op_setup(&nbig, RT_ALLREDUCE, RT_FORM_NONBLOCKING, K_SUM, 0, 200000, comm, 0);
    op_setup(&nsmall, RT_REDUCE, RT_FORM_NONBLOCKING, K_MAX, 0, 100, comm, 1);
    op_setup(&pers, RT_ALLREDUCE, RT_FORM_PERSISTENT, K_SUM, 0, 5000, comm, 0);
    op_setup(&blk1, RT_ALLREDUCE, RT_FORM_BLOCKING, K_SUM, 0, 1000, comm, 0);
    op_setup(&blk2, RT_ALLREDUCE, RT_FORM_BLOCKING, K_SUM, 0, 20000, comm, 0);
    op_setup(&blk3, RT_REDUCE, RT_FORM_BLOCKING, K_SUM, 0, 3000, comm, size - 1);
    snap(&a);
    rc = op_post(&pers);                    /* init */
    decisions[RT_ALLREDUCE]++;
    for (int it = 0; it < 3 && MPI_SUCCESS == rc && !v.failed; it++) {
        op_fill(&nbig, 10 + (uint64_t) it);
        op_fill(&nsmall, 20 + (uint64_t) it);
        op_fill(&pers, 30 + (uint64_t) it);
        op_fill(&blk1, 40 + (uint64_t) it);
        op_fill(&blk2, 50 + (uint64_t) it);
        op_fill(&blk3, 60 + (uint64_t) it);
        /* Iallreduce, blocking Allreduce, Start, Ireduce, blocking
         * Allreduce (forced direct: it makes the segment here), blocking
         * Reduce, then the waits in reverse order */
        rc = op_post(&nbig);
        if (MPI_SUCCESS == rc) {
            rc = op_post(&blk1);
        }
        if (MPI_SUCCESS == rc) {
            rc = MPI_Start(&pers.req);
        }
        if (MPI_SUCCESS == rc) {
            rc = op_post(&nsmall);
        }
        if (MPI_SUCCESS == rc) {
            blk2.alg = direct > 0 ? direct : 0;
            rc = op_post(&blk2);
        }
        if (MPI_SUCCESS == rc) {
            rc = op_post(&blk3);
        }
        if (MPI_SUCCESS != rc) {
            fail(&v, "iteration %d: %s", it, err_name(rc));
            break;
        }
        decisions[RT_ALLREDUCE] += 3;
        decisions[RT_REDUCE] += 2;
        nb += 2;
        starts++;
        op_check(&blk1, "blocking allreduce while an Iallreduce is outstanding", &v);
        op_check(&blk2, "blocking allreduce (forced direct) while requests are outstanding",
                 &v);
        op_check(&blk3, "blocking reduce while requests are outstanding", &v);
        rc = MPI_Wait(&nsmall.req, MPI_STATUS_IGNORE);
        if (MPI_SUCCESS == rc) {
            rc = MPI_Wait(&pers.req, MPI_STATUS_IGNORE);
        }
        if (MPI_SUCCESS == rc) {
            rc = MPI_Wait(&nbig.req, MPI_STATUS_IGNORE);
        }
        if (MPI_SUCCESS != rc) {
            fail(&v, "iteration %d: MPI_Wait: %s", it, err_name(rc));
            break;
        }
        op_check(&nsmall, "Ireduce", &v);
        op_check(&pers, "persistent allreduce", &v);
        op_check(&nbig, "Iallreduce", &v);
    }
    if (MPI_REQUEST_NULL != pers.req) {
        MPI_Request_free(&pers.req);
    }
    force_auto();
    snap(&b);
    expect_counts(&a, &b, decisions, nb, starts, &v);
    finish_case("mixed", &v, "(blocking Allreduce, forced direct and Reduce between the post "
                "and the wait of an Iallreduce, an Ireduce and a persistent Allreduce)");
    op_release(&nbig);
    op_release(&nsmall);
    op_release(&pers);
    op_release(&blk1);
    op_release(&blk2);
    op_release(&blk3);
}

/* ------------------------------------------------------------------------ */
/* case free: MPI_Request_free on persistent and active nonblocking requests */

/* coll_rsag_allocations_live, after progress has had the chance to release
 * what a completed (freed) request held: polled up to 10 s until it is
 * back at `want`. */
static unsigned long long live_settled(unsigned long long want)
{
    unsigned long long l = rt_pvar_read(live_pvar);
    double t0 = MPI_Wtime();
    int flag;

    while (l != want && MPI_Wtime() - t0 < 10) {
        MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        l = rt_pvar_read(live_pvar);
    }
    return l;
}

static void case_free(void)
{
    long decisions[RT_NCOLL] = { 0 }, nb = 0, starts = 0;
    verdict_t v = { 0, "" };
    ctrs_t a, b;
    MPI_Comm comm = comms[1].comm;
    unsigned long long live0, live1;
    int freed_active = 0, refused_active = 0;
    char detail[200];

    current = "free";
    /* warm up: the communicator's first calls may fill per-communicator
     * caches, which stay */
    for (int c = 0; c < RT_NCOLL; c++) {
        nbop_t o;

        op_setup(&o, c, RT_FORM_PERSISTENT, K_SUM, 0, 5000, comm, 0);
        op_fill(&o, 1);
        rt_run(RT_FORM_PERSISTENT, &o.call);
        rt_run(RT_FORM_NONBLOCKING, &o.call);
        op_release(&o);
    }
    snap(&a);
    live0 = rt_pvar_read(live_pvar);
    for (int c = 0; c < RT_NCOLL; c++) {
        /* inactive persistent requests: never started, started once, twice */
        for (int nstart = 0; nstart <= 2; nstart++) {
            nbop_t o;
            int rc;

            op_setup(&o, c, RT_FORM_PERSISTENT, K_SUM, 0, 5000, comm, 1);
            rc = op_post(&o);
            decisions[c]++;
            for (int s = 0; s < nstart && MPI_SUCCESS == rc; s++) {
                op_fill(&o, 100 + (uint64_t) (c * 10 + s));
                rc = MPI_Start(&o.req);
                starts += MPI_SUCCESS == rc;
                if (MPI_SUCCESS == rc) {
                    rc = MPI_Wait(&o.req, MPI_STATUS_IGNORE);
                }
                op_check(&o, "persistent before MPI_Request_free", &v);
            }
            if (MPI_SUCCESS == rc) {
                rc = MPI_Request_free(&o.req);
            }
            if (MPI_SUCCESS != rc || MPI_REQUEST_NULL != o.req) {
                fail(&v, "%s persistent, %d starts: %s (request %s)", rt_coll_names[c], nstart,
                     err_name(rc), MPI_REQUEST_NULL == o.req ? "null" : "not null");
            }
            op_release(&o);
        }
        live1 = live_settled(live0);
        if (live1 != live0) {
            fail(&v, "%s: coll_rsag_allocations_live %llu -> %llu over freed persistent "
                 "requests", rt_coll_names[c], live0, live1);
        }
    }
    /* an active nonblocking request */
    for (int c = 0; c < RT_NCOLL; c++) {
        nbop_t o;
        int rc, ok = 0, flag;
        double t0;

        op_setup(&o, c, RT_FORM_NONBLOCKING, K_SUM, 0, 100000, comm, 0);
        op_fill(&o, 200 + (uint64_t) c);
        rc = op_post(&o);
        decisions[c]++;
        nb++;
        if (MPI_SUCCESS != rc) {
            fail(&v, "I%s: %s", rt_coll_names[c], err_name(rc));
            op_release(&o);
            continue;
        }
        rc = MPI_Request_free(&o.req);
        if (MPI_SUCCESS == rc) {
            /* the call goes on: wait for the result, progressing by probes */
            freed_active++;
            if (MPI_REQUEST_NULL != o.req) {
                fail(&v, "I%s: MPI_Request_free succeeded but left the handle", rt_coll_names[c]);
            }
            MPI_Barrier(comm);
            t0 = MPI_Wtime();
            do {
                verdict_t probe = { 0, "" };

                MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
                __atomic_thread_fence(__ATOMIC_SEQ_CST);
                ok = 0 == op_check(&o, "", &probe);
            } while (!ok && MPI_Wtime() - t0 < 30);
            if (!ok) {
                op_check(&o, "freed active request, 30 s after the barrier", &v);
            }
            MPI_Barrier(comm);
        } else {
            /* refused: the request must still be there, and complete */
            refused_active++;
            rc = MPI_Wait(&o.req, MPI_STATUS_IGNORE);
            if (MPI_SUCCESS != rc) {
                fail(&v, "I%s: MPI_Wait after a refused MPI_Request_free: %s", rt_coll_names[c],
                     err_name(rc));
            } else {
                op_check(&o, "refused MPI_Request_free, then MPI_Wait", &v);
            }
        }
        live1 = live_settled(live0);
        if (live1 != live0) {
            fail(&v, "I%s: coll_rsag_allocations_live %llu -> %llu after a freed active request",
                 rt_coll_names[c], live0, live1);
        }
        op_release(&o);
    }
    force_auto();
    snap(&b);
    expect_counts(&a, &b, decisions, nb, starts, &v);
    snprintf(detail, sizeof detail, "(persistent requests freed inactive after 0, 1, 2 starts; "
             "active nonblocking requests: %d freed, %d refused by MPI_Request_free)",
             freed_active, refused_active);
    finish_case("free", &v, detail);
}

/* ------------------------------------------------------------------------ */
/* case restart: one persistent request started N times                    */

static void case_restart(void)
{
    long decisions[RT_NCOLL] = { 0 }, nb = 0, starts = 0;
    verdict_t v = { 0, "" };
    ctrs_t a, b;
    MPI_Comm comm = comms[ncomms > 2 ? 2 : 0].comm;   /* reversed rank order */
    char detail[160];
    long long s0, s1;

    current = "restart";
    snap(&a);
    for (int c = 0; c < RT_NCOLL && !v.failed; c++) {
        nbop_t o;
        int rc, flag;

        op_setup(&o, c, RT_FORM_PERSISTENT, c % 2 ? K_MAX : K_SUM, c == RT_RSB, 1000 + c,
                 comm, size / 2);
        rc = op_post(&o);
        decisions[c]++;
        s0 = rt_counter("coll_rsag_persistent_starts");
        for (int i = 0; i < restarts && MPI_SUCCESS == rc && !v.failed; i++) {
            char what[64];

            op_fill(&o, ((uint64_t) c << 32) + (uint64_t) i);
            rc = MPI_Start(&o.req);
            if (MPI_SUCCESS != rc) {
                break;
            }
            starts++;
            if (i % 2) {
                rc = MPI_Wait(&o.req, MPI_STATUS_IGNORE);
            } else {
                do {
                    rc = MPI_Test(&o.req, &flag, MPI_STATUS_IGNORE);
                } while (MPI_SUCCESS == rc && !flag);
            }
            snprintf(what, sizeof what, "start %d", i + 1);
            op_check(&o, what, &v);
        }
        s1 = rt_counter("coll_rsag_persistent_starts");
        if (MPI_SUCCESS != rc) {
            fail(&v, "%s: %s", rt_coll_names[c], err_name(rc));
        } else if (!no_counters && (s0 < 0 || s1 - s0 != restarts)) {
            fail(&v, "%s: coll_rsag_persistent_starts moved by %lld over %d starts",
                 rt_coll_names[c], s0 < 0 ? -1 : s1 - s0, restarts);
        }
        if (MPI_REQUEST_NULL != o.req) {
            MPI_Request_free(&o.req);
        }
        op_release(&o);
    }
    force_auto();
    snap(&b);
    expect_counts(&a, &b, decisions, nb, starts, &v);
    snprintf(detail, sizeof detail, "(%d starts of each collective, every result checked)",
             restarts);
    finish_case("restart", &v, detail);
}

/* ------------------------------------------------------------------------ */
/* case inplace                                                             */

static void case_inplace(void)
{
    static const int counts[] = { 1, 1000, 50000 };
    long decisions[RT_NCOLL] = { 0 }, nb = 0, starts = 0;
    verdict_t v = { 0, "" };
    ctrs_t a, b;

    current = "inplace";
    snap(&a);
    for (int x = 0; x < ncomms && x < 3; x++) {
        for (int form = RT_FORM_NONBLOCKING; form <= RT_FORM_PERSISTENT; form++) {
            for (int c = 0; c < RT_NCOLL; c++) {
                for (int k = 0; k < 3; k++) {
                    nbop_t o;
                    int rc, nrun = RT_FORM_PERSISTENT == form ? 2 : 1;

                    op_setup(&o, c, form, K_SUM, 1, counts[k], comms[x].comm, k + x);
                    op_fill(&o, 300 + (uint64_t) ((x * 2 + form) * 100 + c * 10 + k));
                    rc = op_post(&o);
                    decisions[c]++;
                    nb += RT_FORM_NONBLOCKING == form;
                    for (int s = 0; s < nrun && MPI_SUCCESS == rc; s++) {
                        char what[64];

                        if (RT_FORM_PERSISTENT == form) {
                            if (s > 0) {
                                op_fill(&o, 900 + (uint64_t) ((x * 2 + form) * 100 + c * 10 + k));
                            }
                            rc = MPI_Start(&o.req);
                            starts += MPI_SUCCESS == rc;
                        }
                        if (MPI_SUCCESS == rc) {
                            rc = MPI_Wait(&o.req, MPI_STATUS_IGNORE);
                        }
                        snprintf(what, sizeof what, "in place on %s, run %d", comms[x].name,
                                 s + 1);
                        if (MPI_SUCCESS == rc) {
                            op_check(&o, what, &v);
                        }
                    }
                    if (MPI_SUCCESS != rc) {
                        fail(&v, "%s %s in place: %s", rt_form_names[form], rt_coll_names[c],
                             err_name(rc));
                    }
                    if (RT_FORM_PERSISTENT == form && MPI_REQUEST_NULL != o.req) {
                        MPI_Request_free(&o.req);
                    }
                    op_release(&o);
                }
            }
        }
    }
    force_auto();
    snap(&b);
    expect_counts(&a, &b, decisions, nb, starts, &v);
    finish_case("inplace", &v, "(both forms, every collective, counts 1, 1000, 50000)");
}

/* ------------------------------------------------------------------------ */
/* case allocfail: failed memory requests in nonblocking and persistent calls */

/* The whole call once; the first error and where it came from. */
static int run_stage(nbop_t *o, const char **stage)
{
    int rc;

    *stage = RT_FORM_PERSISTENT == o->form ? "the init" : "the post";
    rc = op_post(o);
    if (MPI_SUCCESS == rc && RT_FORM_PERSISTENT == o->form) {
        *stage = "MPI_Start";
        rc = MPI_Start(&o->req);
    }
    if (MPI_SUCCESS == rc) {
        *stage = "MPI_Wait";
        rc = MPI_Wait(&o->req, MPI_STATUS_IGNORE);
    }
    if (RT_FORM_PERSISTENT == o->form && MPI_REQUEST_NULL != o->req) {
        MPI_Request_free(&o->req);
    }
    return rc;
}

static void case_allocfail(void)
{
    MPI_T_cvar_handle arm = rt_cvar("coll_rsag_test_alloc_fail", NULL, NULL);
    MPI_Comm comm = comms[1].comm;
    verdict_t v = { 0, "" };
    int zero = 0, ncalls = 0, injected = 0;
    char detail[200];
    long bystage[3] = { 0, 0, 0 };

    current = "allocfail";
    for (int form = RT_FORM_NONBLOCKING; form <= RT_FORM_PERSISTENT; form++) {
        for (int c = 0; c < RT_NCOLL; c++) {
            for (int k = 1; k < rt_nalg(c); k++) {
                nbop_t o;
                const char *stage;
                unsigned long long a0, a1, l0, l1, lo = 0, hi = 0, nreq;
                int rc, mine = 1;

                if (!rt_applies(rt_alg(c, k), 2000, 1, 1, 1, world_where)) {
                    continue;       /* runs as another row: tested under its name */
                }
                op_setup(&o, c, form, K_SUM, RT_ALLREDUCE == c, 2000, comm, size - 1);
                o.alg = k;
                /* a clean call (after one more: a communicator's first call
                 * may fill its caches): how many requests? */
                op_fill(&o, 1);
                run_stage(&o, &stage);
                op_fill(&o, 2);
                a0 = rt_pvar_read(allocs_pvar);
                l0 = rt_pvar_read(live_pvar);
                rc = run_stage(&o, &stage);
                a1 = rt_pvar_read(allocs_pvar);
                l1 = live_settled(l0);
                nreq = a1 - a0;
                if (MPI_SUCCESS != rc || l1 != l0 || op_check(&o, "clean call", &v)) {
                    fail(&v, "%s %s %s clean call: %s, live %llu -> %llu", rt_form_names[form],
                         rt_coll_names[c], rt_alg(c, k), err_name(rc), l0, l1);
                    mine = 0;
                }
                MPI_Allreduce(&nreq, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
                MPI_Allreduce(&nreq, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
                if (no_counters) {
                    mine = 0;       /* nothing to inject into */
                } else if (lo != hi || 0 == lo) {
                    fail(&v, "%s %s %s: memory requests per call %llu..%llu over the ranks "
                         "(must be the same, > 0)", rt_form_names[form], rt_coll_names[c],
                         rt_alg(c, k), lo, hi);
                    mine = 0;
                }
                ncalls++;
                for (unsigned long long j = 1; j <= hi && mine && lo == hi; j++) {
                    int jj = (int) j, left = -1, cls = MPI_SUCCESS;

                    op_fill(&o, 10 + j);
                    l0 = rt_pvar_read(live_pvar);
                    rt_cvar_write(arm, &jj);
                    rc = run_stage(&o, &stage);
                    MPI_T_cvar_read(arm, &left);
                    rt_cvar_write(arm, &zero);
                    l1 = live_settled(l0);
                    if (MPI_SUCCESS != rc) {
                        MPI_Error_class(rc, &cls);
                    }
                    if (MPI_ERR_NO_MEM != cls || 0 != left || l1 != l0) {
                        fail(&v, "%s %s %s request %llu/%llu: error class %d at %s (want "
                             "MPI_ERR_NO_MEM %d), countdown left %d, live %llu -> %llu",
                             rt_form_names[form], rt_coll_names[c], rt_alg(c, k), j, hi, cls,
                             stage, MPI_ERR_NO_MEM, left, l0, l1);
                        mine = 0;
                    } else {
                        bystage[0 == strcmp(stage, "MPI_Wait") ? 2
                                : 0 == strcmp(stage, "MPI_Start") ? 1 : 0]++;
                    }
                    injected++;
                    /* the communicator is still usable */
                    op_fill(&o, 20 + j);
                    rc = run_stage(&o, &stage);
                    if (MPI_SUCCESS != rc) {
                        fail(&v, "%s %s %s: the call after the failure of request %llu: %s",
                             rt_form_names[form], rt_coll_names[c], rt_alg(c, k), j,
                             err_name(rc));
                        mine = 0;
                    } else if (op_check(&o, "the call after a failure", &v)) {
                        mine = 0;
                    }
                    /* stop together (MPI_Allreduce outside the armed calls) */
                    MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
                }
                op_release(&o);
            }
        }
    }
    force_auto();
    MPI_T_cvar_handle_free(&arm);
    snprintf(detail, sizeof detail, "(%d calls, %d failures injected: error from the "
             "post/init %ld, MPI_Start %ld, the completion %ld)", ncalls, injected, bystage[0],
             bystage[1], bystage[2]);
    finish_case("allocfail", &v, detail);
}

/* ------------------------------------------------------------------------ */

static const struct {
    const char *name;
    void (*fn)(void);
} cases[] = {
    { "many", case_many },       { "progress", case_progress }, { "mixed", case_mixed },
    { "free", case_free },       { "restart", case_restart },   { "inplace", case_inplace },
    { "allocfail", case_allocfail },
};
enum { NCASES = sizeof cases / sizeof cases[0] };

int main(int argc, char **argv)
{
    int want[NCASES];
    double t0;

    for (int i = 0; i < NCASES; i++) {
        want[i] = 1;
    }
    rt_start(&argc, &argv, &rank, &size);
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && 0 == strcmp(argv[i], "--case")) {
            char buf[256], *tok;

            snprintf(buf, sizeof buf, "%s", argv[++i]);
            for (int k = 0; k < NCASES; k++) {
                want[k] = 0;
            }
            for (tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
                int found = 0;

                for (int k = 0; k < NCASES; k++) {
                    if (0 == strcmp(tok, cases[k].name)) {
                        want[k] = found = 1;
                    }
                }
                if (!found) {
                    if (0 == rank) {
                        fprintf(stderr, "rsag_nbc: unknown case '%s'\n", tok);
                    }
                    MPI_Finalize();
                    return 2;
                }
            }
        } else if (0 == strcmp(argv[i], "--no-counters")) {
            no_counters = 1;
        } else if (i + 1 < argc && 0 == strcmp(argv[i], "--restarts")) {
            restarts = atoi(argv[++i]);
        } else if (i + 1 < argc && 0 == strcmp(argv[i], "--timeout")) {
            timeout_s = atoi(argv[++i]);
        } else {
            if (0 == rank) {
                fprintf(stderr, "usage: rsag_nbc [--case many,progress,mixed,free,restart,"
                                "inplace,allocfail] [--restarts N] [--timeout SEC]\n");
            }
            MPI_Finalize();
            return 2;
        }
    }
    if (!RT_HAVE_PERSISTENT) {
        if (0 == rank) {
            fprintf(stderr, "rsag_nbc: this MPI has no persistent collectives\n");
        }
        MPI_Finalize();
        return 2;
    }
    if (size < 2) {
        if (0 == rank) {
            fprintf(stderr, "rsag_nbc: needs at least 2 processes\n");
        }
        MPI_Finalize();
        return 2;
    }
    if (timeout_s > 0) {
        signal(SIGALRM, on_alarm);
        alarm((unsigned) timeout_s);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rt_set_form(RT_FORM_NONBLOCKING);
    live_pvar = rt_pvar("coll_rsag_allocations_live", MPI_T_PVAR_CLASS_LEVEL);
    allocs_pvar = rt_pvar("coll_rsag_allocations", MPI_T_PVAR_CLASS_COUNTER);
    world_where = rt_placement(MPI_COMM_WORLD);
    make_comms();
    t0 = MPI_Wtime();
    for (int k = 0; k < NCASES; k++) {
        if (want[k]) {
            double tc = MPI_Wtime();

            cases[k].fn();
            if (0 == rank) {
                printf("rsag_nbc: %s took %.1f s\n", cases[k].name, MPI_Wtime() - tc);
            }
        }
    }
    current = "the end";
    free_comms();
    rt_pvar_free(&live_pvar);
    rt_pvar_free(&allocs_pvar);
    if (0 == rank) {
        printf("rsag_nbc: np=%d cases=%d failed=%d time=%.1f s\n", size, ncases, nfailed,
               MPI_Wtime() - t0);
    }
    rt_mpit_finalize();
    MPI_Finalize();
    return nfailed ? 1 : 0;
}
