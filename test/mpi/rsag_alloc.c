/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_alloc.c -- rsag's memory: the per-communicator scratch area and
 * allocation failures.
 *
 *   rsag_alloc --fail [--count N] [--float]
 *     For every collective and every rsag algorithm that can run on the
 *     job's nodes (forced through MPI_T),
 *     in place and not, on a duplicate of MPI_COMM_WORLD with
 *     MPI_ERRORS_RETURN: one clean call counts this rank's memory requests
 *     (MPI_T coll_rsag_allocations); every rank must make the same number.
 *     Then for k = 1..that number, coll_rsag_test_alloc_fail = k makes the
 *     k-th request fail on every rank: the call must return an error of
 *     class MPI_ERR_NO_MEM on every rank, consume the countdown, leave
 *     coll_rsag_allocations_live where it was (nothing leaked; the clean
 *     call must not leak either), and the
 *     same call right after must succeed with the right result.  A hang is
 *     a failure too (run it under a timeout).  --float: MPI_FLOAT (the same
 *     small integers, exact as floats) instead of MPI_INT, the type
 *     coll_rsag_reproducible exact takes.
 *
 *   rsag_alloc --scratch [--coll NAME] [--bytes B] [--iters N] [--quiet]
 *     The collective (allreduce, reduce, reduce_scatter_block; auto
 *     algorithm) on B bytes of doubles, N timed calls on a fresh duplicate
 *     communicator, first with the scratch area (coll_rsag_scratch_max_bytes
 *     as configured), then with it off (0).  Per call it reports minor page
 *     faults (getrusage), coll_rsag_temporary_bytes and time.  Asserts that
 *     the cap covers the call's need, and when the call needs temporaries:
 *     with the area, the timed calls took temporaries from it
 *     (coll_rsag_scratch_hits), the area did not
 *     grow during them, it was freed with the communicator
 *     (coll_rsag_scratch_bytes back to its value before), and the page
 *     faults per call are below a quarter of the temporaries' pages; the
 *     temporary need reported is the same with and without the area, and
 *     with the cap at 0 no area is kept.
 *
 * Rank 0 prints the result lines and "rsag_alloc: ... failed=0"; exit 1 on
 * any failure.
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "rsag_mpit.h"

enum { ALLREDUCE, REDUCE, RSB, RS, NCOLL };
static const char *coll_names[NCOLL] = { "allreduce", "reduce", "reduce_scatter_block",
                                         "reduce_scatter" };

static int rank, size;
static long failures, cases;

/* Did every rank pass?  (on MPI_COMM_WORLD, nothing armed) */
static int all_ok(int ok)
{
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* Input element i of `rank`, and the sum over the ranks. */
static int in_elem(int r, size_t i) { return (r + 1) * (int) (i % 7 + 1); }
static int sum_elem(size_t i) { return size * (size + 1) / 2 * (int) (i % 7 + 1); }

/* --float: the elements are floats of the same (small integer) values,
 * stored in the int buffers (both 4 bytes). */
static int use_float;
static MPI_Datatype elem_type(void) { return use_float ? MPI_FLOAT : MPI_INT; }
static void put_elem(int *buf, size_t i, int v)
{
    float f = (float) v;
    if (use_float) {
        memcpy(&buf[i], &f, sizeof(f));
    } else {
        buf[i] = v;
    }
}
static int get_elem(const int *buf, size_t i)
{
    float f;
    if (!use_float) {
        return buf[i];
    }
    memcpy(&f, &buf[i], sizeof(f));
    return (int) f;
}

/* One call of `coll` on n ints per rank (allreduce, reduce: n; the
 * reduce-scatters: rank i gets i + n/size elements, which the _block one
 * evens out to n/size).  Fills the input, returns the MPI error code and
 * in *ok whether the result is right (only meaningful on success). */
static int call(int coll, size_t n, int inplace, MPI_Comm comm, int *sbuf, int *rbuf, int *ok)
{
    int counts[1024] = { 0 }, root = size - 1, rc, mine;
    size_t total = 0, off = 0;

    for (int i = 0; i < size; ++i) {
        counts[i] = (int) (n / (size_t) size) + (RS == coll ? i : 0);
        if (i < rank) {
            off += (size_t) counts[i];
        }
        total += (size_t) counts[i];
    }
    if (coll < RSB) {
        total = n;
    }
    mine = counts[rank];
    for (size_t i = 0; i < total; ++i) {
        put_elem(sbuf, i, in_elem(rank, i));
        put_elem(rbuf, i, in_elem(rank, i));
    }
    inplace = inplace && !(REDUCE == coll && rank != root);
    switch (coll) {
    case ALLREDUCE:
        rc = MPI_Allreduce(inplace ? MPI_IN_PLACE : sbuf, rbuf, (int) n, elem_type(), MPI_SUM, comm);
        break;
    case REDUCE:
        rc = MPI_Reduce(inplace ? MPI_IN_PLACE : sbuf, rbuf, (int) n, elem_type(), MPI_SUM, root,
                        comm);
        break;
    case RSB:
        rc = MPI_Reduce_scatter_block(inplace ? MPI_IN_PLACE : sbuf, rbuf, mine, elem_type(),
                                      MPI_SUM, comm);
        break;
    default:
        rc = MPI_Reduce_scatter(inplace ? MPI_IN_PLACE : sbuf, rbuf, counts, elem_type(), MPI_SUM,
                                comm);
        break;
    }
    *ok = 1;
    if (ALLREDUCE == coll || (REDUCE == coll && rank == root)) {
        for (size_t i = 0; i < n; ++i) {
            *ok = *ok && get_elem(rbuf, i) == sum_elem(i);
        }
    } else if (coll >= RSB) {
        for (size_t i = 0; i < (size_t) mine; ++i) {
            *ok = *ok && get_elem(rbuf, i) == sum_elem(off + i);
        }
    }
    return rc;
}

static int run_fail(size_t n)
{
    MPI_T_pvar_handle allocs = rt_pvar("coll_rsag_allocations", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle live = rt_pvar("coll_rsag_allocations_live", MPI_T_PVAR_CLASS_LEVEL);
    MPI_T_cvar_handle fail = rt_cvar("coll_rsag_test_alloc_fail", NULL, NULL);
    size_t room = n + (size_t) size * (size_t) size;
    int zero = 0, *sbuf = malloc(room * sizeof(int)), *rbuf = malloc(room * sizeof(int));
    MPI_Comm comm;

    rt_placement_t where;

    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    where = rt_placement(comm);
    for (int coll = 0; coll < NCOLL; ++coll) {
        char name[128], alg[64];
        int nitems, elen = sizeof name;
        MPI_T_enum et;
        MPI_T_cvar_handle algorithm;

        snprintf(name, sizeof name, "coll_rsag_%s_algorithm", coll_names[coll]);
        algorithm = rt_cvar(name, NULL, &et);
        MPI_T_enum_get_info(et, &nitems, name, &elen);
        for (int item = 0; item < nitems; ++item) {
            int value, alen = sizeof alg, seen = 0;
            MPI_T_enum_get_item(et, item, &value, alg, &alen);
            /* a former (deprecated) name follows the current ones with the
             * same value: each algorithm once, by its current name */
            for (int earlier = 0; earlier < item; ++earlier) {
                int v, l = sizeof name;
                MPI_T_enum_get_item(et, earlier, &v, name, &l);
                seen |= (v == value);
            }
            if (seen || 0 == strcmp(alg, "auto")) {
                continue;
            }
            /* the rows that cannot run on this job's nodes (direct on several,
             * hierarchical on one) fall back to a row tested under its own
             * name; only the placement decides here (a commutative op on
             * contiguous ints, and no count rule: a count too small for a
             * row is a failure below, not a skip) */
            if (!rt_applies(alg, LONG_MAX, 1, 1, 1, where)) {
                if (0 == rank) {
                    printf("skip %-20s %-18s (does not apply to this job's nodes)\n",
                           coll_names[coll], alg);
                }
                continue;
            }
            rt_cvar_write(algorithm, &value);
            snprintf(name, sizeof name, "coll_rsag_%s_%s_calls", coll_names[coll], alg);
            MPI_T_pvar_handle calls = rt_pvar(name, MPI_T_PVAR_CLASS_COUNTER);
            for (int inplace = 0; inplace < 2; ++inplace) {
                unsigned long long a0, a1, c0, nreq, lo, hi, l0, l1;
                int ok, rc, left, cls, injected = 0, passed;

                /* clean call: how many requests, on every rank the same?
                 * (after one more: a communicator's first call may fill
                 * its layout cache) */
                call(coll, n, inplace, comm, sbuf, rbuf, &ok);
                c0 = rt_pvar_read(calls);
                a0 = rt_pvar_read(allocs);
                l0 = rt_pvar_read(live);
                rc = call(coll, n, inplace, comm, sbuf, rbuf, &ok);
                a1 = rt_pvar_read(allocs);
                l1 = rt_pvar_read(live);
                nreq = a1 - a0;
                if (l1 != l0) {
                    fprintf(stderr, "rsag_alloc: rank %d: %s %s%s: live blocks %llu -> %llu "
                            "over a successful call\n", rank, coll_names[coll], alg,
                            inplace ? " in place" : "", l0, l1);
                }
                /* (under coll_rsag_reproducible exact an allreduce runs as two
                 * of rsag's allreduces: --float takes any count >= 1) */
                passed = all_ok(MPI_SUCCESS == rc && ok
                                && (use_float ? rt_pvar_read(calls) > c0
                                              : rt_pvar_read(calls) == c0 + 1)
                                && l1 == l0);
                MPI_Allreduce(&nreq, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
                MPI_Allreduce(&nreq, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
                if (lo != hi || 0 == lo) {
                    passed = 0;      /* injecting would leave some rank waiting */
                }
                for (unsigned long long k = 1; k <= hi && passed; ++k) {
                    int kk = (int) k, mine = 1;

                    l0 = rt_pvar_read(live);
                    rt_cvar_write(fail, &kk);
                    rc = call(coll, n, inplace, comm, sbuf, rbuf, &ok);
                    MPI_T_cvar_read(fail, &left);
                    rt_cvar_write(fail, &zero);
                    l1 = rt_pvar_read(live);
                    cls = MPI_SUCCESS;
                    if (MPI_SUCCESS != rc) {
                        MPI_Error_class(rc, &cls);
                    }
                    if (MPI_ERR_NO_MEM != cls || 0 != left || l1 != l0) {
                        fprintf(stderr, "rsag_alloc: rank %d: %s %s%s request %llu/%llu: "
                                "error class %d (want MPI_ERR_NO_MEM %d), countdown left %d, "
                                "live blocks %llu -> %llu\n", rank, coll_names[coll], alg,
                                inplace ? " in place" : "", k, hi, cls, MPI_ERR_NO_MEM, left,
                                l0, l1);
                        mine = 0;
                    }
                    /* the communicator is still usable */
                    rc = call(coll, n, inplace, comm, sbuf, rbuf, &ok);
                    if (MPI_SUCCESS != rc || !ok) {
                        fprintf(stderr, "rsag_alloc: rank %d: %s %s%s: the call after the "
                                "failure at request %llu gave rc %d, result %s\n", rank,
                                coll_names[coll], alg, inplace ? " in place" : "", k, rc,
                                ok ? "right" : "wrong");
                        mine = 0;
                    }
                    passed = all_ok(mine);
                    ++injected;
                }
                ++cases;
                failures += !passed;
                if (0 == rank) {
                    printf("%s %-20s %-18s %-9s requests %llu..%llu, %d failures injected\n",
                           passed ? "ok  " : "FAIL", coll_names[coll], alg,
                           inplace ? "in-place" : "", lo, hi, injected);
                }
            }
            rt_pvar_free(&calls);
        }
        MPI_T_cvar_handle_free(&algorithm);
    }
    MPI_Comm_free(&comm);
    free(sbuf);
    free(rbuf);
    return 0;
}

static double now(void) { return MPI_Wtime(); }

static long minflt(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_minflt;
}

/* N timed calls of `coll` on `bytes` of doubles (auto algorithm) on a
 * fresh duplicate; per-call faults, temporary bytes, hits, time. */
typedef struct {
    double faults, hits, seconds;
    unsigned long long temp, grown, held, after;
} stats_t;

static stats_t scratch_phase(int coll, size_t bytes, int iters, MPI_T_pvar_handle temp,
                             MPI_T_pvar_handle hits, MPI_T_pvar_handle held)
{
    size_t n = bytes / sizeof(double);
    double *sbuf = malloc(n * sizeof(double)), *rbuf = malloc(n * sizeof(double));
    stats_t s;
    unsigned long long h0 = 0, held0 = 0, before;
    long f0 = 0;
    int counts[1024] = { 0 };
    double t0, best = 1e30;
    MPI_Comm comm;

    for (int i = 0; i < size; ++i) {
        counts[i] = (int) (n / (size_t) size);
    }
    for (size_t i = 0; i < n; ++i) {
        sbuf[i] = rbuf[i] = (double) (i % 17);   /* touch every page once */
    }
    before = rt_pvar_read(held);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    for (int it = -2; it < iters; ++it) {
        if (0 == it) {
            f0 = minflt();
            h0 = rt_pvar_read(hits);
            held0 = rt_pvar_read(held);
        }
        MPI_Barrier(comm);
        t0 = now();
        switch (coll) {
        case ALLREDUCE:
            MPI_Allreduce(sbuf, rbuf, (int) n, MPI_DOUBLE, MPI_SUM, comm);
            break;
        case REDUCE:
            MPI_Reduce(sbuf, rbuf, (int) n, MPI_DOUBLE, MPI_SUM, size - 1, comm);
            break;
        default:
            MPI_Reduce_scatter_block(sbuf, rbuf, counts[0], MPI_DOUBLE, MPI_SUM, comm);
            break;
        }
        t0 = now() - t0;
        if (it >= 0 && t0 < best) {
            best = t0;
        }
        s.temp = rt_pvar_read(temp);
    }
    s.faults = (double) (minflt() - f0) / iters;
    s.hits = (double) (rt_pvar_read(hits) - h0) / iters;
    s.grown = rt_pvar_read(held) - held0;
    s.held = rt_pvar_read(held) - before;      /* this communicator's area */
    s.seconds = best;
    MPI_Comm_free(&comm);
    s.after = rt_pvar_read(held) - before;
    free(sbuf);
    free(rbuf);
    return s;
}

static void run_scratch(int coll, size_t bytes, int iters, int quiet)
{
    MPI_T_pvar_handle temp = rt_pvar("coll_rsag_temporary_bytes", MPI_T_PVAR_CLASS_LEVEL);
    MPI_T_pvar_handle hits = rt_pvar("coll_rsag_scratch_hits", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle held = rt_pvar("coll_rsag_scratch_bytes", MPI_T_PVAR_CLASS_LEVEL);
    MPI_T_cvar_handle cap = rt_cvar("coll_rsag_scratch_max_bytes", NULL, NULL);
    size_t cap0 = 0, off = 0;
    stats_t on, off_s;
    char why[256] = "";
    int ok = 1;

    MPI_T_cvar_read(cap, &cap0);
    on = scratch_phase(coll, bytes, iters, temp, hits, held);
    rt_cvar_write(cap, &off);
    off_s = scratch_phase(coll, bytes, iters, temp, hits, held);
    rt_cvar_write(cap, &cap0);

    if (on.temp != off_s.temp) {
        snprintf(why, sizeof why, "temporary bytes %llu with the area, %llu without",
                 on.temp, off_s.temp);
        ok = 0;
    } else if (on.temp > cap0) {
        snprintf(why, sizeof why, "coll_rsag_scratch_max_bytes %zu is below the call's "
                 "temporary need %llu: nothing to show", cap0, on.temp);
        ok = 0;
    } else if (on.temp > 0) {
        if (on.hits < 1.0) {
            snprintf(why, sizeof why, "%.2f temporaries per call from the area", on.hits);
            ok = 0;
        } else if (0 != on.grown || 0 == on.held || 0 != on.after) {
            snprintf(why, sizeof why, "area held %llu, grew %llu in the timed calls, %llu "
                     "left after MPI_Comm_free", on.held, on.grown, on.after);
            ok = 0;
        } else if (on.faults * 4096.0 * 4.0 > (double) on.temp) {
            snprintf(why, sizeof why, "%.0f page faults per call for %llu temporary bytes",
                     on.faults, on.temp);
            ok = 0;
        }
    }
    if (0 != off_s.hits || 0 != off_s.held) {
        snprintf(why, sizeof why, "scratch off: %.2f hits per call, %llu bytes held",
                 off_s.hits, off_s.held);
        ok = 0;
    }
    if (!ok) {
        fprintf(stderr, "rsag_alloc: rank %d: %s %zu bytes: %s\n", rank, coll_names[coll],
                bytes, why);
    }
    ok = all_ok(ok);
    ++cases;
    failures += !ok;
    /* rank 0 reports its own numbers; the root of reduce is the last rank */
    if (0 == rank || !quiet) {
        printf("%s %-20s np=%d bytes=%zu rank=%d temp/call=%llu | scratch cap %zu: "
               "faults/call %.0f, hits/call %.1f, area %llu, best %.2f ms | off: faults/call "
               "%.0f, best %.2f ms\n", ok ? "ok  " : "FAIL", coll_names[coll], size, bytes,
               rank, on.temp, cap0, on.faults, on.hits, on.held, on.seconds * 1e3,
               off_s.faults, off_s.seconds * 1e3);
    }
}

int main(int argc, char **argv)
{
    int mode = 0, coll = -1, iters = 10, quiet = 0;
    size_t bytes = (size_t) 16 << 20, count = 1000;

    rt_start(&argc, &argv, &rank, &size);
    for (int i = 1; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--fail")) {
            mode = 1;
        } else if (0 == strcmp(argv[i], "--scratch")) {
            mode = 2;
        } else if (0 == strcmp(argv[i], "--float")) {
            use_float = 1;
        } else if (0 == strcmp(argv[i], "--quiet")) {
            quiet = 1;
        } else if (i + 1 < argc && 0 == strcmp(argv[i], "--count")) {
            count = strtoull(argv[++i], NULL, 0);
        } else if (i + 1 < argc && 0 == strcmp(argv[i], "--bytes")) {
            bytes = strtoull(argv[++i], NULL, 0);
        } else if (i + 1 < argc && 0 == strcmp(argv[i], "--iters")) {
            iters = atoi(argv[++i]);
        } else if (i + 1 < argc && 0 == strcmp(argv[i], "--coll")) {
            ++i;
            for (int c = 0; c < RS; ++c) {
                coll = (0 == strcmp(argv[i], coll_names[c])) ? c : coll;
            }
            if (coll < 0) {
                mode = 0;
                break;
            }
        } else {
            mode = 0;
            break;
        }
    }
    if (0 == mode || size > 1024 || iters < 1) {
        if (0 == rank) {
            fprintf(stderr, "usage: rsag_alloc --fail [--count N] [--float] | --scratch [--coll "
                            "allreduce|reduce|reduce_scatter_block] [--bytes B] [--iters N] "
                            "[--quiet]\n");
        }
        MPI_Finalize();
        return 2;
    }
    if (1 == mode) {
        run_fail(count);
    } else {
        for (int c = 0; c < RS; ++c) {
            if (coll < 0 || coll == c) {
                run_scratch(c, bytes, iters, quiet);
            }
        }
    }
    if (0 == rank) {
        printf("rsag_alloc: np=%d cases=%ld failed=%ld\n", size, cases, failures);
    }
    rt_mpit_finalize();
    MPI_Finalize();
    return failures ? 1 : 0;
}
