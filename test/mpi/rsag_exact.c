/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_exact: coll_rsag_reproducible = exact across processes, algorithms
 * and forms (test/suites/exact.sh).
 *
 * Four "real" contributions per element (fixed-seed random values over a
 * wide exponent range and both signs, and a narrow range with
 * cancellation) sit on four ranks chosen by a p-dependent permutation; the
 * other ranks contribute zeros.  For every collective, every algorithm
 * forced through MPI_T (auto first), every form (blocking, nonblocking,
 * persistent), MPI_FLOAT, MPI_DOUBLE, MPI_C_FLOAT_COMPLEX,
 * MPI_C_DOUBLE_COMPLEX and MPI_DOUBLE_PRECISION, a small and a large count
 * (exact's one-collective and two-pass paths), with and without
 * MPI_IN_PLACE, the whole result (a reduce-scatter's blocks gathered to
 * rank 0) is hashed.  Printed per (collective, type, size):
 *   rsag_exact: hash COLL TYPE SIZE HEX
 * (its first case), and at the end
 *   rsag_exact: np=P cases=N mismatches=M
 * where a mismatch is a case whose hash differs from the first of its key
 * (the last cases: eight requests in flight at once, waited for in reverse
 * order, persistent ones started twice with new input in between).
 * Under exact the suite wants 0 mismatches and the same hashes for every
 * p; under off (the control) at least two different hashes.
 *
 * --fallback: instead, MPI_PROD of doubles and MPI_SUM of MPI_INT (which
 * exact leaves to placement) over every collective, algorithm and form,
 * checked against the exact expected values:
 *   rsag_exact: fallback np=P cases=N failed=F
 * --quick: auto (on one node `direct`, which folds whole) and the first
 * row of each table (exact's own collectives) only, for valgrind.
 * Either way rsag must have counted calls of every collective (MPI_T):
 *   rsag_exact: rsag ran COLL: N calls
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "rsag_forms.h"
#include "rsag_mix.h"
#include "rsag_mpit.h"

#define NREAL 4             /* contributions that are not zero */
#define SMALL 8             /* elements: exact's one-collective path */
#define LARGE 300           /* the two-pass path (p x reals x 8 > 8192 at p >= 4) */

static int rank, np;
static int quick;           /* --quick: auto and the first row only (valgrind) */

/* ---- data ----------------------------------------------------------------- */

/* Real part j of element i of contribution k: even elements over a wide
 * range (1e-300..1e300; float: 1e-30..1e30), odd ones within a factor 16
 * of 1 with both signs (so that the order of additions shows in `off`). */
static double value(int k, long i, int j, int is_float)
{
    uint64_t h = rsag_mix64(rsag_mix64(rsag_mix64((uint64_t) k * 1000003u + 17) + (uint64_t) i) + (uint64_t) j);
    double m = 1.0 + (double) (h >> 12) * 0x1p-52, s = (h & 1) ? -1.0 : 1.0;
    int span = is_float ? 99 : 996, e;

    if (i % 2) {
        e = (int) ((h >> 1) % 5) - 2;
    } else {
        e = (int) ((h >> 1) % (2 * (unsigned) span + 1)) - span;
    }
    return s * ldexp(m, e);
}

enum { T_FLOAT, T_DOUBLE, T_CFLOAT, T_CDOUBLE, T_DPREC, NTYPES };
static const char *type_names[NTYPES] = { "float", "double", "c_float_complex",
                                          "c_double_complex", "double_precision" };
static MPI_Datatype type_of(int t)
{
    switch (t) {
    case T_FLOAT: return MPI_FLOAT;
    case T_DOUBLE: return MPI_DOUBLE;
    case T_CFLOAT: return MPI_C_FLOAT_COMPLEX;
    case T_CDOUBLE: return MPI_C_DOUBLE_COMPLEX;
    default: return MPI_DOUBLE_PRECISION;
    }
}
static int reals_of(int t) { return (T_CFLOAT == t || T_CDOUBLE == t) ? 2 : 1; }
static int is_float(int t) { return T_FLOAT == t || T_CFLOAT == t; }
static size_t elem_bytes(int t) { return (size_t) reals_of(t) * (is_float(t) ? 4 : 8); }

/* Which contribution this rank holds (-1: zeros): the first NREAL ranks
 * of a permutation of 0..p-1 that depends on p. */
static int my_contribution(void)
{
    int *perm = malloc((size_t) np * sizeof(int)), k = -1;
    uint64_t h = (uint64_t) np * 7919u;

    for (int r = 0; r < np; ++r) {
        perm[r] = r;
    }
    for (int r = np - 1; r > 0; --r) {
        int j, t;
        h = rsag_mix64(h);
        j = (int) (h % (uint64_t) (r + 1));
        t = perm[r], perm[r] = perm[j], perm[j] = t;
    }
    for (int q = 0; q < NREAL && q < np; ++q) {
        if (perm[q] == rank) {
            k = q;
        }
    }
    free(perm);
    return k;
}

/* n elements of type t starting at global element `first`. */
static void fill(void *buf, int t, long first, long n, int k)
{
    for (long i = 0; i < n; ++i) {
        for (int j = 0; j < reals_of(t); ++j) {
            double v = (k < 0) ? 0.0 : value(k, first + i, j, is_float(t));
            size_t at = (size_t) (i * reals_of(t) + j);
            if (is_float(t)) {
                ((float *) buf)[at] = (float) v;
            } else {
                ((double *) buf)[at] = v;
            }
        }
    }
}

static uint64_t fnv(const void *p, size_t n)
{
    const unsigned char *c = p;
    uint64_t h = 1469598103934665603ULL;

    for (size_t i = 0; i < n; ++i) {
        h = (h ^ c[i]) * 1099511628211ULL;
    }
    return h;
}

/* ---- one case ---------------------------------------------------------------- */

/* The blocks of a reduce-scatter of `n` elements: uneven, some empty,
 * depending on p (rs), or rcount each (rsb, the total padded up). */
static void blocks(int coll, long n, int *counts, int *displs, long *total)
{
    long w = 0, acc = 0;

    for (int b = 0; b < np; ++b) {
        w += (b + np) % 3;
    }
    for (int b = 0; b < np; ++b) {
        if (RT_RSB == coll) {
            counts[b] = (int) ((n + np - 1) / np);
        } else {
            counts[b] = (int) (n * ((b + np) % 3) / w);
        }
        acc += counts[b];
    }
    if (RT_RS == coll) {
        for (int b = np - 1; b >= 0; --b) {
            if ((b + np) % 3) {
                counts[b] += (int) (n - acc);
                acc = n;
                break;
            }
        }
    }
    for (int b = 0, d = 0; b < np; ++b) {
        displs[b] = d;
        d += counts[b];
    }
    *total = acc;
}

/* One case: its call, buffers and blocks. */
typedef struct {
    int coll, t;
    long n, total;
    size_t eb;
    int *counts, *displs;
    char *sbuf, *rbuf;
    rt_call_t c;
} one_case_t;

static void case_prepare(one_case_t *oc, int coll, int t, long n, int inplace)
{
    int k = my_contribution(), root = np / 2;

    oc->coll = coll, oc->t = t, oc->n = n, oc->total = n, oc->eb = elem_bytes(t);
    oc->counts = malloc((size_t) np * sizeof(int));
    oc->displs = malloc((size_t) np * sizeof(int));
    if (RT_RS == coll || RT_RSB == coll) {
        blocks(coll, n, oc->counts, oc->displs, &oc->total);
    }
    oc->sbuf = malloc((size_t) oc->total * oc->eb);
    oc->rbuf = calloc((size_t) oc->total, oc->eb);
    fill(oc->sbuf, t, 0, oc->total, k);
    oc->c = (rt_call_t) { coll, oc->sbuf, oc->rbuf, (int) n, oc->counts, type_of(t), MPI_SUM,
                          root, MPI_COMM_WORLD };
    if (RT_RSB == coll) {
        oc->c.count = oc->counts[0];
    }
    if (inplace && (RT_REDUCE != coll || rank == root)) {
        memcpy(oc->rbuf, oc->sbuf, (size_t) oc->total * oc->eb);
        oc->c.sbuf = MPI_IN_PLACE;
    }
}

/* After the call: on rank 0 the hash of the first n elements of the
 * result (a reduce-scatter's blocks gathered; an allreduce's checked to be
 * the same on every rank); frees the case. */
static uint64_t case_finish(one_case_t *oc, int *err)
{
    int root = oc->c.root;
    size_t n = (size_t) oc->n, eb = oc->eb;
    char *all = calloc((size_t) oc->total, eb);
    uint64_t h = 0;

    if (RT_RS == oc->coll || RT_RSB == oc->coll) {
        int *bc = malloc((size_t) np * sizeof(int)), *bd = malloc((size_t) np * sizeof(int));
        for (int b = 0; b < np; ++b) {
            bc[b] = oc->counts[b] * (int) eb;
            bd[b] = oc->displs[b] * (int) eb;
        }
        MPI_Gatherv(oc->rbuf, bc[rank], MPI_BYTE, all, bc, bd, MPI_BYTE, 0, MPI_COMM_WORLD);
        free(bc);
        free(bd);
    } else if (RT_REDUCE == oc->coll) {
        if (root != 0) {
            if (rank == root) {
                MPI_Send(oc->rbuf, (int) (n * eb), MPI_BYTE, 0, 7, MPI_COMM_WORLD);
            } else if (0 == rank) {
                MPI_Recv(all, (int) (n * eb), MPI_BYTE, root, 7, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            }
        } else {
            memcpy(all, oc->rbuf, n * eb);
        }
    } else {
        /* every rank's result must be the one rank 0 has */
        uint64_t mine = fnv(oc->rbuf, n * eb), *hs = malloc((size_t) np * sizeof(*hs));
        MPI_Gather(&mine, 1, MPI_UINT64_T, hs, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        for (int r = 1; 0 == rank && r < np; ++r) {
            if (hs[r] != hs[0]) {
                *err = *err ? *err : MPI_ERR_OTHER;
                fprintf(stderr, "rsag_exact: rank %d's result differs from rank 0's\n", r);
            }
        }
        free(hs);
        memcpy(all, oc->rbuf, n * eb);
    }
    if (0 == rank) {
        h = fnv(all, n * eb);
    }
    free(oc->sbuf);
    free(oc->rbuf);
    free(all);
    free(oc->counts);
    free(oc->displs);
    return h;
}

/* Run one case; on rank 0 the hash of the first n elements of the result. */
static uint64_t run_case(int coll, int form, int t, long n, int inplace, int *err)
{
    one_case_t oc;

    case_prepare(&oc, coll, t, n, inplace);
    *err = rt_run(form, &oc.c);
    return case_finish(&oc, err);
}

/* ---- the loops -------------------------------------------------------------------- */

#define NKEYS (RT_NCOLL * NTYPES * 2)
static uint64_t first_hash[NKEYS];
static int have_hash[NKEYS];

static int sum_cases(long *cases)
{
    const long sizes[2] = { SMALL, LARGE };
    int mismatches = 0, errors = 0;

    for (int coll = 0; coll < RT_NCOLL; ++coll) {
        for (int a = 0; a < (quick ? 2 : rt_nalg(coll)); ++a) {
            if (0 != rt_force(coll, a)) {
                ++errors;
                continue;
            }
            for (int form = 0; form < RT_NFORM; ++form) {
                if (RT_FORM_PERSISTENT == form && !RT_HAVE_PERSISTENT) {
                    continue;
                }
                for (int t = 0; t < NTYPES; ++t) {
                    for (int s = 0; s < 2; ++s) {
                        for (int ip = 0; ip < 2; ++ip) {
                            int key = (coll * NTYPES + t) * 2 + s, err;
                            uint64_t h = run_case(coll, form, t, sizes[s], ip, &err);

                            ++*cases;
                            if (MPI_SUCCESS != err) {
                                ++errors;
                                if (0 == rank) {
                                    fprintf(stderr, "rsag_exact: error %d: %s %s %s %s\n", err,
                                            rt_coll_names[coll], rt_alg(coll, a),
                                            rt_form_names[form], type_names[t]);
                                }
                            }
                            if (0 != rank) {
                                continue;
                            }
                            if (!have_hash[key]) {
                                have_hash[key] = 1;
                                first_hash[key] = h;
                                printf("rsag_exact: hash %s %s %ld %016" PRIx64 "\n",
                                       rt_coll_names[coll], type_names[t], sizes[s], h);
                                fflush(stdout);     /* in order with a verbose trace */
                            } else if (h != first_hash[key]) {
                                if (++mismatches <= 10) {
                                    printf("rsag_exact: mismatch %s %s %ld: %s %s%s\n",
                                           rt_coll_names[coll], type_names[t], sizes[s],
                                           rt_alg(coll, a), rt_form_names[form],
                                           ip ? " in place" : "");
                                }
                            }
                        }
                    }
                }
            }
        }
        (void) rt_force(coll, 0);
    }
    MPI_Bcast(&mismatches, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return errors ? -1 : mismatches;
}

/* Several requests in flight at once (the four collectives, two types
 * and sizes), waited for in reverse order; a persistent request started
 * first on zeros, then again after the input changed (each start reads
 * the buffers as they are then): every result the hash of its key. */
static int outstanding_cases(long *cases)
{
    enum { NC = 2 * RT_NCOLL };
    int mismatches = 0, errors = 0;

    for (int form = RT_FORM_NONBLOCKING; form < RT_NFORM; ++form) {
        one_case_t oc[NC];
        MPI_Request req[NC];
        int persistent = (RT_FORM_PERSISTENT == form), bad = 0;

        if (persistent && !RT_HAVE_PERSISTENT) {
            continue;
        }
        for (int i = 0; i < NC; ++i) {
            case_prepare(&oc[i], i % RT_NCOLL, i < RT_NCOLL ? T_DOUBLE : T_CFLOAT,
                         i < RT_NCOLL ? LARGE : SMALL, 0);
            if (persistent) {
                memset(oc[i].sbuf, 0, (size_t) oc[i].total * oc[i].eb);
            }
            errors += (MPI_SUCCESS != rt_post(form, &oc[i].c, &req[i]));
        }
        if (persistent && 0 == errors) {
            MPI_Startall(NC, req);
            for (int i = NC - 1; i >= 0; --i) {
                MPI_Wait(&req[i], MPI_STATUS_IGNORE);
            }
            for (int i = 0; i < NC; ++i) {
                fill(oc[i].sbuf, oc[i].t, 0, oc[i].total, my_contribution());
            }
            MPI_Startall(NC, req);
        }
        for (int i = NC - 1; i >= 0 && 0 == errors; --i) {
            MPI_Wait(&req[i], MPI_STATUS_IGNORE);
        }
        for (int i = 0; i < NC; ++i) {
            int err = 0, key = (oc[i].coll * NTYPES + oc[i].t) * 2 + (LARGE == oc[i].n);
            uint64_t h;

            if (persistent && MPI_REQUEST_NULL != req[i]) {
                MPI_Request_free(&req[i]);
            }
            h = case_finish(&oc[i], &err);
            ++*cases;
            errors += (0 != err);
            if (0 == rank && (!have_hash[key] || h != first_hash[key])) {
                ++bad;
                printf("rsag_exact: mismatch in flight together: %s %s %s\n",
                       rt_form_names[form], rt_coll_names[oc[i].coll], type_names[oc[i].t]);
            }
        }
        mismatches += bad;
    }
    MPI_Bcast(&mismatches, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return errors ? -1 : mismatches;
}

/* MPI_PROD of doubles (powers of two and small integers: exact in any
 * order) and MPI_SUM of ints: correct results under the fallback. */
static int fallback_cases(long *cases)
{
    int failed = 0, k = my_contribution(), counts[64], displs[64];
    enum { N = 24 };
    long total;

    for (int coll = 0; coll < RT_NCOLL; ++coll) {
        for (int a = 0; a < rt_nalg(coll); ++a) {
            (void) rt_force(coll, a);
            for (int form = 0; form < RT_NFORM; ++form) {
                if (RT_FORM_PERSISTENT == form && !RT_HAVE_PERSISTENT) {
                    continue;
                }
                for (int which = 0; which < 2; ++which) {
                    double sd[N * 2], rd[N * 2];
                    int si[N * 2], ri[N * 2], bad = 0, err, mine0 = 0, myn = N;
                    rt_call_t c;

                    total = N;
                    if (RT_RS == coll || RT_RSB == coll) {
                        blocks(coll, N, counts, displs, &total);
                        mine0 = displs[rank];
                        myn = counts[rank];
                    }
                    for (long i = 0; i < total; ++i) {
                        sd[i] = (k < 0) ? 1.0 : ldexp(1.0 + (double) ((i + k) % 3), (int) (i % 7) - k);
                        si[i] = (k < 0) ? 0 : (int) (i * 3 + k);
                    }
                    c = (rt_call_t) { coll, which ? (void *) si : (void *) sd,
                                      which ? (void *) ri : (void *) rd, N, counts,
                                      which ? MPI_INT : MPI_DOUBLE, which ? MPI_SUM : MPI_PROD,
                                      0, MPI_COMM_WORLD };
                    if (RT_RSB == coll) {
                        c.count = counts[0];
                    }
                    err = rt_run(form, &c);
                    for (int i = 0; i < myn && (RT_REDUCE != coll || 0 == rank); ++i) {
                        long g = mine0 + i;
                        double pd = 1.0;
                        int ps = 0;
                        for (int q = 0; q < NREAL && q < np; ++q) {
                            pd *= ldexp(1.0 + (double) ((g + q) % 3), (int) (g % 7) - q);
                            ps += (int) (g * 3 + q);
                        }
                        bad |= which ? (ri[i] != ps) : (rd[i] != pd);
                    }
                    ++*cases;
                    if (err || bad) {
                        ++failed;
                        fprintf(stderr, "rsag_exact: fallback %s %s %s %s: %s\n",
                                rt_coll_names[coll], rt_alg(coll, a), rt_form_names[form],
                                which ? "MPI_INT MPI_SUM" : "MPI_DOUBLE MPI_PROD",
                                err ? "error" : "wrong result");
                    }
                }
            }
        }
        (void) rt_force(coll, 0);
    }
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return failed;
}

int main(int argc, char **argv)
{
    long cases = 0, before[RT_NCOLL];
    int fallback = (argc > 1 && 0 == strcmp(argv[1], "--fallback")), result;
    /* --control: the same loops under `off`, where mismatches are expected */
    int control = (argc > 1 && 0 == strcmp(argv[1], "--control"));

    quick = (argc > 1 && 0 == strcmp(argv[1], "--quick"));

    rt_start(&argc, &argv, &rank, &np);
    if (np < NREAL || np > 64) {
        if (0 == rank) {
            fprintf(stderr, "rsag_exact: needs 4 to 64 processes\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int coll = 0; coll < RT_NCOLL; ++coll) {
        before[coll] = rt_calls(coll);
    }
    if (fallback) {
        result = fallback_cases(&cases);
    } else {
        int r2;
        result = sum_cases(&cases);
        r2 = outstanding_cases(&cases);
        result = (result < 0 || r2 < 0) ? -1 : result + r2;
    }
    for (int coll = 0; coll < RT_NCOLL; ++coll) {
        long long ran = rt_calls(coll) - before[coll];
        if (0 == rank) {
            printf("rsag_exact: rsag ran %s: %lld calls\n", rt_coll_names[coll], ran);
        }
    }
    if (0 == rank) {
        if (fallback) {
            printf("rsag_exact: fallback np=%d cases=%ld failed=%d\n", np, cases, result);
        } else if (result < 0) {
            printf("rsag_exact: np=%d cases=%ld errors\n", np, cases);
        } else {
            printf("rsag_exact: np=%d cases=%ld mismatches=%d\n", np, cases, result);
        }
    }
    rt_mpit_finalize();
    MPI_Finalize();
    return (result < 0 || (result > 0 && !control)) ? 1 : 0;
}
