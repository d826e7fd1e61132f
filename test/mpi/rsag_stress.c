/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_stress.c -- randomized stress test of rsag: a long sequence of
 * reduction calls, each with a random
 *   communicator  MPI_COMM_WORLD, a dup of it, split halves (both halves run
 *                 the call at once), a random subset in scrambled rank order
 *   collective    Allreduce, Reduce, Reduce_scatter_block, Reduce_scatter
 *   type and op   int32, int64, uint8, float, double with every predefined
 *                 op that is right on Open MPI 4.1.4 (no 8-bit SUM/PROD:
 *                 op/avx, #8045); a strided int64 pair with a commutative
 *                 user sum; an affine-map pair with a non-commutative user op
 *   count         mostly 0..40, some up to 2000, a few up to 70000
 *   root, MPI_IN_PLACE, recvcounts (even or random with zeros)
 *   algorithm     any value of coll_rsag_<coll>_algorithm, set through MPI_T
 * Every rank verifies every element it receives (values are regenerated from
 * (seed, call, rank, element): small integers, so floating point is exact)
 * and, on communicators rsag holds, that the counters show the right
 * algorithm ran (rt_check_ran).  All ranks draw the same choices from the
 * seed, so no coordination is needed.
 *
 * Usage: mpirun -np N rsag_stress [--seed S] [--calls N] [--timeout SEC]
 *                                 [--verbose]
 * The seed (default: from the clock) is printed first; --seed S replays a
 * run exactly.  --timeout (default 600) aborts a hung run, naming the call.
 * Last line on rank 0: "rsag_stress: np=P seed=S calls=N checked=C failed=F".
 */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rsag_mix.h"
#include "rsag_mpit.h"

#define MAXPRINT 10

static int wrank, wsize;
static unsigned long long seed;
static long failures, checked;
static volatile long current_call = -1;
static long tally[RT_NCOLL][RT_MAXALG];   /* calls per counter that moved */
static char current_desc[256];

/* The same on every rank: choice number `what` of call `call`. */
static uint64_t draw(long call, int what)
{
    return rsag_mix64(rsag_mix64(seed ^ rsag_mix64((uint64_t) call)) ^ (uint64_t) what);
}

/* ------------------------------------------------------------------------ */
/* types and ops                                                            */

enum { T_I32, T_I64, T_U8, T_FLT, T_DBL, T_VEC, T_AFF, NTYPES };
enum { O_SUM, O_PROD, O_MAX, O_MIN, O_BAND, O_BOR, O_BXOR, O_USER, NOPS };

static const char *type_names[NTYPES] = { "int32", "int64", "uint8", "float", "double",
                                          "int64-pair-strided", "affine" };
static const char *op_names[NOPS] = { "sum", "prod", "max", "min", "band", "bor", "bxor",
                                      "user" };
static MPI_Datatype mpi_types[NTYPES];
static MPI_Op mpi_ops[NOPS], op_user_sum, op_user_aff;

/* per item: elements, their offsets and the extent */
static const int type_nel[NTYPES] = { 1, 1, 1, 1, 1, 2, 1 };
static const MPI_Aint type_ext[NTYPES] = { 4, 8, 1, 4, 8, 24, 16 };
#define VEC_OFF1 16

typedef struct { uint64_t a, b; } aff_t;

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void) dt;
    for (int i = 0; i < *len; i++) {
        for (int e = 0; e < 2; e++) {
            size_t o = (size_t) i * 24 + (size_t) e * VEC_OFF1;
            int64_t x, y;
            memcpy(&x, (char *) in + o, 8);
            memcpy(&y, (char *) inout + o, 8);
            y = (int64_t) ((uint64_t) x + (uint64_t) y);
            memcpy((char *) inout + o, &y, 8);
        }
    }
}

/* y = x o y (y applied first): associative, not commutative */
static void aff_compose(const aff_t *x, aff_t *y)
{
    aff_t r = { x->a * y->a, x->a * y->b + x->b };
    *y = r;
}

static void user_aff(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void) dt;
    for (int i = 0; i < *len; i++) {
        aff_compose((aff_t *) in + i, (aff_t *) inout + i);
    }
}

static int op_valid(int t, int o)
{
    if (T_VEC == t || T_AFF == t) {
        return O_USER == o;
    }
    if (O_USER == o) {
        return 0;
    }
    if (T_FLT == t || T_DBL == t) {
        return o <= O_MIN;
    }
    if (T_U8 == t) {
        return o >= O_MAX;    /* op/avx mis-sums 8-bit integers (#8045) */
    }
    return 1;
}

/* One element value: integers and floats as int64 (small, exact). */
typedef struct { int64_t v; aff_t f; } val_t;

static val_t gen(int t, int o, long call, int crank, long elem)
{
    uint64_t h = rsag_mix64(draw(call, 100) ^ rsag_mix64((uint64_t) crank * 0x10001u + (uint64_t) elem));
    val_t x = { 0, { 0, 0 } };

    if (T_AFF == t) {
        x.f.a = h | 1;
        x.f.b = rsag_mix64(h);
    } else if (O_PROD == o) {
        static const int64_t pv[4] = { 1, -1, 2, 1 };
        x.v = T_U8 == t ? 1 : pv[h % 4];
    } else if (O_BAND == o || O_BOR == o || O_BXOR == o) {
        x.v = (int64_t) (h >> 1);
    } else {
        x.v = (int64_t) (h % 2001) - 1000;
        if (T_U8 == t) {
            x.v = (int64_t) (h % 256);
        }
    }
    return x;
}

/* Width-normalized value as the type stores it. */
static int64_t norm(int t, int64_t v)
{
    switch (t) {
    case T_I32: return (int32_t) v;
    case T_U8: return (uint8_t) v;
    default: return v;
    }
}

static void combine(int t, int o, val_t *acc, const val_t *x)
{
    if (T_AFF == t) {
        aff_t r = x->f;
        aff_compose(&acc->f, &r);
        acc->f = r;
        return;
    }
    switch (o) {
    case O_SUM: case O_USER: acc->v = (int64_t) ((uint64_t) acc->v + (uint64_t) x->v); break;
    case O_PROD: acc->v = (int64_t) ((uint64_t) acc->v * (uint64_t) x->v); break;
    case O_MAX: acc->v = acc->v > x->v ? acc->v : x->v; break;
    case O_MIN: acc->v = acc->v < x->v ? acc->v : x->v; break;
    case O_BAND: acc->v &= x->v; break;
    case O_BOR: acc->v |= x->v; break;
    default: acc->v ^= x->v; break;
    }
    acc->v = norm(t, acc->v);
}

static char *elem_ptr(char *buf, int t, long i, int e)
{
    return buf + i * type_ext[t] + (e ? VEC_OFF1 : 0);
}

static void store(int t, char *p, const val_t *x)
{
    int32_t i32 = (int32_t) x->v;
    uint8_t u8 = (uint8_t) x->v;
    float f = (float) x->v;
    double d = (double) x->v;

    switch (t) {
    case T_I32: memcpy(p, &i32, 4); break;
    case T_U8: memcpy(p, &u8, 1); break;
    case T_FLT: memcpy(p, &f, 4); break;
    case T_DBL: memcpy(p, &d, 8); break;
    case T_AFF: memcpy(p, &x->f, 16); break;
    default: memcpy(p, &x->v, 8); break;
    }
}

static int same(int t, const char *p, const val_t *x)
{
    val_t want = *x;
    char tmp[16];

    want.v = norm(t, want.v);
    store(t, tmp, &want);
    return 0 == memcmp(p, tmp, T_AFF == t ? 16 : (size_t) (type_ext[t] < 8 ? type_ext[t] : 8));
}

/* ------------------------------------------------------------------------ */
/* communicators                                                            */

enum { C_WORLD, C_DUP, C_HALVES, C_SUBSET, NCOMMS };
static const char *comm_names[NCOMMS] = { "world", "dup", "half", "subset" };
static MPI_Comm comms[NCOMMS];
static rt_placement_t comm_where[NCOMMS];   /* where each one's ranks are */

static void make_comms(void)
{
    uint64_t h = rsag_mix64(seed ^ 0xc033);
    int member = (h >> (wrank % 64)) & 1;

    /* rank 0 and the last are always in, so the subset has >= 2 ranks at
     * np >= 2; the key scrambles the order */
    if (0 == wrank || wsize - 1 == wrank) {
        member = 1;
    }
    comms[C_WORLD] = MPI_COMM_WORLD;
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[C_DUP]);
    MPI_Comm_split(MPI_COMM_WORLD, wrank < wsize / 2, wrank, &comms[C_HALVES]);
    MPI_Comm_split(MPI_COMM_WORLD, member ? 1 : MPI_UNDEFINED,
                   (int) (rsag_mix64(h ^ (uint64_t) wrank) % 1000), &comms[C_SUBSET]);
    for (int ci = 0; ci < NCOMMS; ci++) {
        if (MPI_COMM_NULL != comms[ci]) {
            comm_where[ci] = rt_placement(comms[ci]);
        }
    }
}

/* ------------------------------------------------------------------------ */

static void on_alarm(int sig)
{
    char msg[512];
    int n = snprintf(msg, sizeof msg,
                     "rsag_stress: rank %d: TIMEOUT in call %ld (%s); replay with --seed %llu\n",
                     wrank, current_call, current_desc, seed);
    (void) sig;
    if (n > 0) {
        (void) write(2, msg, (size_t) n);
    }
    _exit(3);
}

static void failf(long call, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void failf(long call, const char *fmt, ...)
{
    va_list ap;

    if (failures++ < MAXPRINT) {
        printf("rsag_stress: rank %d: FAIL call %ld (%s): ", wrank, call, current_desc);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf(" [replay: --seed %llu]\n", seed);
        fflush(stdout);
    }
}

static long draw_count(long call)
{
    uint64_t h = draw(call, 3), r = h % 100;

    if (r < 70) {
        return (long) ((h >> 8) % 41);
    }
    if (r < 97) {
        return (long) ((h >> 8) % 2001);
    }
    return (long) ((h >> 8) % 70001);
}

static void one_call(long call)
{
    int ci = (int) (draw(call, 0) % NCOMMS);
    int coll = (int) (draw(call, 1) % RT_NCOLL);
    int t, o, k, p, me, root, inplace, pof2, commutative;
    long n, nitems_in, nitems_out, mine = 0, count = draw_count(call);
    int *rcounts = NULL;
    char *sbuf, *rbuf;
    MPI_Comm comm = comms[ci];
    rt_snap_t a, b;
    int rc = MPI_SUCCESS;

    uint64_t h = draw(call, 2);

    /* a valid (type, op) pair, drawn the same way on every rank */
    for (t = (int) (h % NTYPES), o = (int) ((h >> 8) % NOPS); !op_valid(t, o);
         t = (int) (h % NTYPES), o = (int) ((h >> 8) % NOPS)) {
        h = rsag_mix64(h);
    }
    mpi_ops[O_USER] = T_AFF == t ? op_user_aff : op_user_sum;
    k = (int) (draw(call, 4) % (uint64_t) rt_nalg(coll));
    inplace = (int) (draw(call, 5) & 1);
    if (0 != rt_force(coll, k)) {
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (MPI_COMM_NULL == comm) {
        return;
    }
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &me);
    for (pof2 = 1; 2 * pof2 <= p; pof2 *= 2) {
    }
    root = (int) (draw(call, 6) % (uint64_t) p);
    commutative = T_AFF != t;

    /* items the caller sends (n: the whole vector) and receives */
    if (RT_RSB == coll || RT_RS == coll) {
        rcounts = malloc((size_t) p * sizeof(int));
        n = 0;
        for (int q = 0; q < p; q++) {
            rcounts[q] = RT_RSB == coll || (draw(call, 7) & 1)
                             ? (int) (count / p + (RT_RSB == coll ? 1 : 0))
                             : (int) (draw(call, 8 + q) % (uint64_t) (2 * (count / p) + 2));
            if (q < me) {
                mine += rcounts[q];
            }
            n += rcounts[q];
        }
        nitems_out = rcounts[me];
    } else {
        n = count;
        nitems_out = (RT_REDUCE != coll || me == root) ? n : 0;
    }
    nitems_in = n;
    snprintf(current_desc, sizeof current_desc, "%s on %s (size %d), %s %s, %ld items, %s%s, "
             "root %d", rt_coll_names[coll], comm_names[ci], p, type_names[t], op_names[o], n,
             rt_alg(coll, k), inplace ? ", in place" : "", root);
    current_call = call;

    sbuf = malloc((size_t) (nitems_in > 0 ? nitems_in : 1) * (size_t) type_ext[t]);
    rbuf = malloc((size_t) (nitems_in > 0 ? nitems_in : 1) * (size_t) type_ext[t]);
    memset(sbuf, 0x5a, (size_t) (nitems_in > 0 ? nitems_in : 1) * (size_t) type_ext[t]);
    memset(rbuf, 0x5a, (size_t) (nitems_in > 0 ? nitems_in : 1) * (size_t) type_ext[t]);
    if (RT_REDUCE == coll && me != root) {
        inplace = 0;   /* MPI_IN_PLACE is for the root only */
    }
    for (long i = 0; i < nitems_in; i++) {
        for (int e = 0; e < type_nel[t]; e++) {
            val_t x = gen(t, o, call, me, i * type_nel[t] + e);
            store(t, elem_ptr(inplace ? rbuf : sbuf, t, i, e), &x);
        }
    }

    rt_snapshot(coll, &a);
    switch (coll) {
    case RT_ALLREDUCE:
        rc = MPI_Allreduce(inplace ? MPI_IN_PLACE : sbuf, rbuf, (int) n, mpi_types[t],
                           mpi_ops[o], comm);
        break;
    case RT_REDUCE:
        rc = MPI_Reduce(inplace ? MPI_IN_PLACE : sbuf, rbuf, (int) n, mpi_types[t], mpi_ops[o],
                        root, comm);
        break;
    case RT_RSB:
        rc = MPI_Reduce_scatter_block(inplace ? MPI_IN_PLACE : sbuf, rbuf, rcounts[0],
                                      mpi_types[t], mpi_ops[o], comm);
        break;
    default:
        rc = MPI_Reduce_scatter(inplace ? MPI_IN_PLACE : sbuf, rbuf, rcounts, mpi_types[t],
                                mpi_ops[o], comm);
        break;
    }
    rt_snapshot(coll, &b);
    if (MPI_SUCCESS != rc) {
        failf(call, "returned %d", rc);
    }
    if (p > 1 && n > 0) {   /* coll/self holds size-1 comms; count 0 skips modules */
        char why[256];
        if (0 != rt_check_ran(coll, k, n, pof2, commutative, rt_contiguous(mpi_types[t]),
                              comm_where[ci], &a, &b, why, sizeof why)) {
            failf(call, "%s", why);
        }
        for (int j = 0; j < a.nalg; j++) {
            tally[coll][j] += (long) (b.ctr[j] - a.ctr[j]);
        }
    }
    for (long i = 0; i < nitems_out; i++) {
        int bad = 0;
        for (int e = 0; e < type_nel[t] && !bad; e++) {
            long g = (mine + i) * type_nel[t] + e;
            val_t acc = gen(t, o, call, 0, g);
            for (int q = 1; q < p; q++) {
                val_t x = gen(t, o, call, q, g);
                combine(t, o, &acc, &x);
            }
            checked++;
            if (!same(t, elem_ptr(rbuf, t, i, e), &acc)) {
                failf(call, "item %ld element %d wrong", i, e);
                bad = 1;
            }
        }
        if (bad) {
            break;
        }
    }
    free(sbuf);
    free(rbuf);
    free(rcounts);
}

int main(int argc, char **argv)
{
    long calls = 1500, all[2] = { 0, 0 }, mine[2];
    int timeout = 600, seeded = 0;
    MPI_Datatype tmp;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    for (int i = 1; i < argc; i++) {
        if (0 == strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 0);
            seeded = 1;
        } else if (0 == strcmp(argv[i], "--calls") && i + 1 < argc) {
            calls = atol(argv[++i]);
        } else if (0 == strcmp(argv[i], "--timeout") && i + 1 < argc) {
            timeout = atoi(argv[++i]);
        } else {
            if (0 == wrank) {
                fprintf(stderr, "usage: mpirun -np N rsag_stress [--seed S] [--calls N] "
                                "[--timeout SEC]\n");
            }
            MPI_Finalize();
            return 2;
        }
    }
    if (!seeded) {
        seed = (unsigned long long) time(NULL) * 1000003ULL ^ (unsigned long long) getpid();
        seed %= 1000000000ULL;
    }
    MPI_Bcast(&seed, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    if (0 == wrank) {
        printf("rsag_stress: np=%d seed=%llu calls=%ld (replay: --seed %llu)\n", wsize, seed,
               calls, seed);
        fflush(stdout);
    }
    signal(SIGALRM, on_alarm);
    alarm((unsigned) timeout);
    if (0 != rt_mpit_init()) {
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    mpi_types[T_I32] = MPI_INT32_T;
    mpi_types[T_I64] = MPI_INT64_T;
    mpi_types[T_U8] = MPI_UINT8_T;
    mpi_types[T_FLT] = MPI_FLOAT;
    mpi_types[T_DBL] = MPI_DOUBLE;
    {
        int bl[2] = { 1, 1 };
        MPI_Aint off[2] = { 0, VEC_OFF1 };
        MPI_Datatype ts[2] = { MPI_INT64_T, MPI_INT64_T };
        MPI_Type_create_struct(2, bl, off, ts, &tmp);
        MPI_Type_create_resized(tmp, 0, type_ext[T_VEC], &mpi_types[T_VEC]);
        MPI_Type_free(&tmp);
        MPI_Type_commit(&mpi_types[T_VEC]);
    }
    MPI_Type_contiguous(2, MPI_UINT64_T, &mpi_types[T_AFF]);
    MPI_Type_commit(&mpi_types[T_AFF]);
    MPI_Op_create(user_sum, 1, &op_user_sum);
    MPI_Op_create(user_aff, 0, &op_user_aff);
    mpi_ops[O_SUM] = MPI_SUM;
    mpi_ops[O_PROD] = MPI_PROD;
    mpi_ops[O_MAX] = MPI_MAX;
    mpi_ops[O_MIN] = MPI_MIN;
    mpi_ops[O_BAND] = MPI_BAND;
    mpi_ops[O_BOR] = MPI_BOR;
    mpi_ops[O_BXOR] = MPI_BXOR;
    make_comms();

    for (long call = 0; call < calls; call++) {
        one_call(call);
    }
    alarm(0);

    mine[0] = checked;
    mine[1] = failures;
    {
        long *g = 0 == wrank ? malloc(2 * (size_t) wsize * sizeof(long)) : NULL;
        MPI_Gather(mine, 2, MPI_LONG, g, 2, MPI_LONG, 0, MPI_COMM_WORLD);
        if (0 == wrank) {
            for (int q = 0; q < wsize; q++) {
                all[0] += g[2 * q];
                all[1] += g[2 * q + 1];
            }
            for (int c = 0; c < RT_NCOLL; c++) {
                printf("rsag_stress: rank 0 ran %s:", rt_coll_names[c]);
                for (int j = 0; j < rt_nalg(c); j++) {
                    printf(" %s=%ld", j ? rt_alg(c, j) : "delegated", tally[c][j]);
                }
                printf("\n");
            }
            printf("rsag_stress: np=%d seed=%llu calls=%ld checked=%ld failed=%ld\n", wsize,
                   seed, calls, all[0], all[1]);
            free(g);
        }
        MPI_Bcast(all, 2, MPI_LONG, 0, MPI_COMM_WORLD);
    }
    MPI_Comm_free(&comms[C_DUP]);
    MPI_Comm_free(&comms[C_HALVES]);
    if (MPI_COMM_NULL != comms[C_SUBSET]) {
        MPI_Comm_free(&comms[C_SUBSET]);
    }
    MPI_Type_free(&mpi_types[T_VEC]);
    MPI_Type_free(&mpi_types[T_AFF]);
    MPI_Op_free(&op_user_sum);
    MPI_Op_free(&op_user_aff);
    rt_mpit_finalize();
    MPI_Finalize();
    return 0 == all[1] ? 0 : 1;
}
