/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_erroneous.c -- erroneous programs: reductions called with arguments
 * that MPI requires to be equal on every rank but are not, MPI_IN_PLACE
 * where it is not allowed, datatypes of zero or negative extent, and an
 * allocation failure on one rank only.  MPI calls these programs erroneous
 * (or leaves them undefined); what rsag owes them is no crash inside rsag
 * and no hang: an MPI error, a clean abort, or a documented delegation
 * (doc/erroneous.md).
 *
 * Usage: mpirun -np N rsag_erroneous CASE [--count N] [--fatal] [--sync]
 * One case per job (the suite runs each under a timeout: a hang is a
 * failure):
 *   count        MPI_Allreduce, rank 0 passes count + 3
 *   count-reduce MPI_Reduce, rank 0 passes count + 3
 *   count-rsb    MPI_Reduce_scatter_block, rank 0 passes count + 1
 *   rcounts      MPI_Reduce_scatter, rank 0's rcounts differ
 *   type         MPI_Allreduce, MPI_INT on rank 0, MPI_DOUBLE elsewhere
 *   op           MPI_Allreduce, MPI_SUM on rank 0, MPI_MAX elsewhere
 *   root         MPI_Reduce, rank 0 names root 0, the others root size-1
 *   inplace-reduce-nonroot   MPI_Reduce, MPI_IN_PLACE on a non-root
 *   inplace-allreduce-one    MPI_Allreduce, MPI_IN_PLACE on rank 0 only
 *   extent-zero      MPI_Allreduce on MPI_INT resized to extent 0
 *   extent-negative  MPI_Allreduce on MPI_INT resized to extent -4 (both
 *                    with a commutative user op: Open MPI's argument
 *                    check refuses its predefined ops on these types)
 *   alloc-one-rank   MPI_Allreduce with coll_rsag_test_alloc_fail = 1 on
 *                    rank 0 only
 *   param        MPI_Allreduce; run with coll_rsag_allreduce_algorithm set
 *                differently on some ranks (an mpirun app context)
 *   reproducible-one-rank  MPI_Allreduce after rank 0 alone set
 *                coll_rsag_reproducible to placement through MPI_T (the
 *                settings check compares the mode)
 *   same         a correct MPI_Allreduce (the control: every check passes)
 *
 * The calls go to a duplicate of MPI_COMM_WORLD with MPI_ERRORS_RETURN
 * (--fatal: MPI_ERRORS_ARE_FATAL, the default of a real program).  Each
 * rank prints "rsag_erroneous: rank R: CASE: <error class name>" or
 * "... : success (...)" with what the result was, then whether rsag
 * counted the call ("rsag ran <alg>" / "rsag delegated" / "rsag did not
 * see it").  A rank that got an error calls MPI_Abort after printing (what
 * a careful application does: the others may be inside the collective),
 * so the job ends either way; the suite checks what the log says.  --sync
 * (for cases where every rank must return, e.g. with coll_rsag_check_args)
 * puts an MPI_Barrier on MPI_COMM_WORLD before and after the lines, so that
 * every rank's line is out before the abort (a rank that never returns
 * makes it a hang, which the suite reports).
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsag_mpit.h"

static int rank, size;

/* A sum of ints that steps by the datatype's extent (0 or negative for
 * the extent cases; Open MPI refuses its predefined ops on those types). */
static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    MPI_Aint lb, extent;

    MPI_Type_get_extent(*dt, &lb, &extent);
    for (int i = 0; i < *len; ++i) {
        *(int *) ((char *) inout + (MPI_Aint) i * extent)
            += *(int *) ((char *) in + (MPI_Aint) i * extent);
    }
}

static const char *err_name(int rc)
{
    int cls = MPI_SUCCESS;

    MPI_Error_class(rc, &cls);
    switch (cls) {
    case MPI_SUCCESS: return "MPI_SUCCESS";
    case MPI_ERR_ARG: return "MPI_ERR_ARG";
    case MPI_ERR_BUFFER: return "MPI_ERR_BUFFER";
    case MPI_ERR_COUNT: return "MPI_ERR_COUNT";
    case MPI_ERR_TYPE: return "MPI_ERR_TYPE";
    case MPI_ERR_OP: return "MPI_ERR_OP";
    case MPI_ERR_ROOT: return "MPI_ERR_ROOT";
    case MPI_ERR_TRUNCATE: return "MPI_ERR_TRUNCATE";
    case MPI_ERR_NO_MEM: return "MPI_ERR_NO_MEM";
    case MPI_ERR_INTERN: return "MPI_ERR_INTERN";
    case MPI_ERR_OTHER: return "MPI_ERR_OTHER";
    default: return "another MPI error class";
    }
}

int main(int argc, char **argv)
{
    const char *cs = argc > 1 ? argv[1] : "";
    int count = 1000, fatal = 0, sync = 0, rc = MPI_SUCCESS, coll = RT_ALLREDUCE;
    MPI_Comm comm;
    MPI_Datatype made = MPI_DATATYPE_NULL;
    rt_snap_t before, after;
    char what[160] = "";

    for (int i = 2; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--count") && i + 1 < argc) {
            count = atoi(argv[++i]);
        } else if (0 == strcmp(argv[i], "--fatal")) {
            fatal = 1;
        } else if (0 == strcmp(argv[i], "--sync")) {
            sync = 1;
        }
    }
    /* tolerant: the same cases run without rsag (--mca coll ^rsag) for
     * comparison; its counters then read 0 ("rsag did not see it") */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    (void) rt_mpit_open(NULL, NULL);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, fatal ? MPI_ERRORS_ARE_FATAL : MPI_ERRORS_RETURN);

    /* room for every case: count + 3 elements of up to 8 bytes, times size
     * for the reduce-scatters */
    size_t n = ((size_t) count + 8) * (size_t) size;
    double *sbuf = calloc(n, sizeof(double)), *rbuf = calloc(n, sizeof(double));
    int *rcounts = calloc((size_t) size, sizeof(int));
    if (NULL == sbuf || NULL == rbuf || NULL == rcounts) {
        fprintf(stderr, "rsag_erroneous: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (size_t i = 0; i < n; ++i) {
        ((int *) sbuf)[i] = rank + 1;
    }
    if (0 == strcmp(cs, "count") || 0 == strcmp(cs, "count-reduce")
        || 0 == strcmp(cs, "count-rsb")) {
        coll = 0 == strcmp(cs, "count") ? RT_ALLREDUCE
               : 0 == strcmp(cs, "count-reduce") ? RT_REDUCE : RT_RSB;
        int c = (0 == rank) ? count + (RT_RSB == coll ? 1 : 3) : count;
        rt_snapshot(coll, &before);
        rc = RT_ALLREDUCE == coll ? MPI_Allreduce(sbuf, rbuf, c, MPI_INT, MPI_SUM, comm)
             : RT_REDUCE == coll  ? MPI_Reduce(sbuf, rbuf, c, MPI_INT, MPI_SUM, 0, comm)
                                  : MPI_Reduce_scatter_block(sbuf, rbuf, c, MPI_INT, MPI_SUM,
                                                             comm);
    } else if (0 == strcmp(cs, "rcounts")) {
        coll = RT_RS;
        for (int i = 0; i < size; ++i) {
            rcounts[i] = count / size + ((0 == rank && i == size - 1) ? 5 : 0);
        }
        rt_snapshot(coll, &before);
        rc = MPI_Reduce_scatter(sbuf, rbuf, rcounts, MPI_INT, MPI_SUM, comm);
    } else if (0 == strcmp(cs, "type")) {
        rt_snapshot(coll, &before);
        rc = MPI_Allreduce(sbuf, rbuf, count, 0 == rank ? MPI_INT : MPI_DOUBLE, MPI_SUM, comm);
    } else if (0 == strcmp(cs, "op")) {
        rt_snapshot(coll, &before);
        rc = MPI_Allreduce(sbuf, rbuf, count, MPI_INT, 0 == rank ? MPI_SUM : MPI_MAX, comm);
        if (MPI_SUCCESS == rc) {
            snprintf(what, sizeof(what), "element 0 is %d (sum %d, max %d)", ((int *) rbuf)[0],
                     size * (size + 1) / 2, size);
        }
    } else if (0 == strcmp(cs, "root")) {
        coll = RT_REDUCE;
        rt_snapshot(coll, &before);
        rc = MPI_Reduce(sbuf, rbuf, count, MPI_INT, MPI_SUM, 0 == rank ? 0 : size - 1, comm);
    } else if (0 == strcmp(cs, "inplace-reduce-nonroot")) {
        coll = RT_REDUCE;
        rt_snapshot(coll, &before);
        /* root 0; rank 1 (a non-root) passes MPI_IN_PLACE */
        rc = MPI_Reduce(1 == rank ? MPI_IN_PLACE : (void *) sbuf, rbuf, count, MPI_INT,
                        MPI_SUM, 0, comm);
    } else if (0 == strcmp(cs, "inplace-allreduce-one")) {
        memcpy(rbuf, sbuf, (size_t) count * sizeof(int));
        rt_snapshot(coll, &before);
        rc = MPI_Allreduce(0 == rank ? MPI_IN_PLACE : (void *) sbuf, rbuf, count, MPI_INT,
                           MPI_SUM, comm);
        if (MPI_SUCCESS == rc) {
            int bad = 0;
            for (int i = 0; i < count; ++i) {
                bad += ((int *) rbuf)[i] != size * (size + 1) / 2;
            }
            snprintf(what, sizeof(what), "%s", bad ? "wrong result" : "right result");
        }
    } else if (0 == strcmp(cs, "extent-zero") || 0 == strcmp(cs, "extent-negative")) {
        MPI_Type_create_resized(MPI_INT, 0, 0 == strcmp(cs, "extent-zero") ? 0 : -4, &made);
        MPI_Type_commit(&made);
        /* extent -4: element i at byte -4 i; the buffers' last int is element 0 */
        char *s = (char *) sbuf, *r = (char *) rbuf;
        int neg = 0 == strcmp(cs, "extent-negative");
        if (neg) {
            s += (count - 1) * sizeof(int);
            r += (count - 1) * sizeof(int);
        }
        MPI_Op sum;
        MPI_Op_create(user_sum, 1, &sum);
        rt_snapshot(coll, &before);
        rc = MPI_Allreduce(s, r, count, made, sum, comm);
        MPI_Op_free(&sum);
        if (MPI_SUCCESS == rc) {
            int bad = 0;
            for (int i = 0; i < (neg ? count : 1); ++i) {
                bad += ((int *) rbuf)[i] != size * (size + 1) / 2;
            }
            snprintf(what, sizeof(what), "%s", bad ? "wrong result" : "right result");
        }
    } else if (0 == strcmp(cs, "alloc-one-rank")) {
        if (0 == rank) {
            int one = 1;
            rt_cvar_write(rt_cvar("coll_rsag_test_alloc_fail", NULL, NULL), &one);
        }
        rt_snapshot(coll, &before);
        rc = MPI_Allreduce(sbuf, rbuf, count, MPI_INT, MPI_SUM, comm);
    } else if (0 == strcmp(cs, "reproducible-one-rank")) {
        if (0 == rank) {
            int placement = 1;      /* MCA_COLL_RSAG_REPRODUCIBLE_PLACEMENT */
            rt_cvar_write(rt_cvar("coll_rsag_reproducible", NULL, NULL), &placement);
        }
        rt_snapshot(coll, &before);
        rc = MPI_Allreduce(sbuf, rbuf, count, MPI_INT, MPI_SUM, comm);
    } else if (0 == strcmp(cs, "param") || 0 == strcmp(cs, "same")) {
        rt_snapshot(coll, &before);
        rc = MPI_Allreduce(sbuf, rbuf, count, MPI_INT, MPI_SUM, comm);
        if (MPI_SUCCESS == rc) {
            int bad = 0;
            for (int i = 0; i < count; ++i) {
                bad += ((int *) rbuf)[i] != size * (size + 1) / 2;
            }
            snprintf(what, sizeof(what), "%s", bad ? "wrong result" : "right result");
        }
    } else {
        if (0 == rank) {
            fprintf(stderr, "usage: rsag_erroneous CASE [--count N] [--fatal] (see the source)\n");
        }
        MPI_Finalize();
        return 2;
    }
    rt_snapshot(coll, &after);
    if (sync) {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    {
        const char *ran = rt_ran(coll, &before, &after);
        printf("rsag_erroneous: rank %d: %s: %s%s%s; %s%s\n", rank, cs,
               MPI_SUCCESS == rc ? "success" : err_name(rc), what[0] ? ", " : "", what,
               0 == strcmp(ran, "none") ? "rsag did not see it"
               : 0 == strcmp(ran, "delegated") ? "rsag delegated"
                                                : "rsag ran ",
               0 == strcmp(ran, "none") || 0 == strcmp(ran, "delegated") ? "" : ran);
        fflush(stdout);
    }
    if (sync) {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (MPI_SUCCESS != rc) {
        printf("rsag_erroneous: rank %d: %s: aborting after %s\n", rank, cs, err_name(rc));
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    if (MPI_DATATYPE_NULL != made) {
        MPI_Type_free(&made);
    }
    MPI_Comm_free(&comm);
    free(sbuf);
    free(rbuf);
    free(rcounts);
    rt_mpit_finalize();
    MPI_Finalize();
    if (0 == rank) {
        printf("rsag_erroneous: %s: every rank returned\n", cs);
    }
    return 0;
}
