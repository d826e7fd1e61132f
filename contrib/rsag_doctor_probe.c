/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_doctor_probe: the MPI job of rsag-doctor (contrib/rsag-doctor.sh).
 *
 * Run by `mpirun -np 2` exactly as the user's next job would be, it reports
 * what the processes saw, from the public MPI_T interface only (so that it
 * runs on either Open MPI series, whatever rsag was built for):
 *
 *   - the values of the control variables that decide whether rsag loads
 *     and is chosen: mca_base_component_path (where components are
 *     searched), coll (the --mca coll list) and coll_rsag_priority;
 *   - whether rsag's MPI_T counters exist (rsag is loaded);
 *   - for each of MPI_Allreduce, MPI_Reduce, MPI_Reduce_scatter_block and
 *     MPI_Reduce_scatter, called once on MPI_COMM_WORLD, whether one of
 *     rsag's counters of that collective (coll_rsag_<coll>_*_calls,
 *     delegated calls included) went up: rsag holds the slot.
 *
 * Rank 0 prints lines "rsag_doctor_probe: KEY VALUE"; the exit status is 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PVARS 256
#define NCOLL 4

static const char *coll_name[NCOLL] = { "MPI_Allreduce", "MPI_Reduce",
                                        "MPI_Reduce_scatter_block", "MPI_Reduce_scatter" };
/* Counter name prefixes after "coll_rsag_", longest first where one is a
 * prefix of another (reduce_scatter_block_ before reduce_scatter_ before
 * reduce_). */
static const char *coll_prefix[NCOLL] = { "allreduce_", "reduce_", "reduce_scatter_block_",
                                          "reduce_scatter_" };

typedef struct {
    MPI_T_pvar_handle handle;
    int coll;                   /* index into coll_name */
    unsigned long long value;
} counter_t;

static int coll_of(const char *name)
{
    size_t len = strlen(name);
    const char *rest;

    if (0 != strncmp(name, "coll_rsag_", 10) || len < 6 || 0 != strcmp(name + len - 6, "_calls")) {
        return -1;
    }
    rest = name + 10;
    if (0 == strncmp(rest, coll_prefix[2], strlen(coll_prefix[2]))) return 2;
    if (0 == strncmp(rest, coll_prefix[3], strlen(coll_prefix[3]))) return 3;
    if (0 == strncmp(rest, coll_prefix[1], strlen(coll_prefix[1]))) return 1;
    if (0 == strncmp(rest, coll_prefix[0], strlen(coll_prefix[0]))) return 0;
    return -1;
}

static void print_cvar(const char *wanted)
{
    int num = 0;

    MPI_T_cvar_get_num(&num);
    for (int i = 0; i < num; ++i) {
        char name[256], desc[8];
        int name_len = sizeof(name), desc_len = sizeof(desc), verb, bind, scope, count;
        MPI_Datatype dt;
        MPI_T_enum et;
        MPI_T_cvar_handle h;

        if (MPI_SUCCESS != MPI_T_cvar_get_info(i, name, &name_len, &verb, &dt, &et, desc,
                                               &desc_len, &bind, &scope)
            || 0 != strcmp(name, wanted)) {
            continue;
        }
        if (MPI_SUCCESS != MPI_T_cvar_handle_alloc(i, NULL, &h, &count)) {
            break;
        }
        if (MPI_CHAR == dt) {
            char *buf = calloc((size_t) count + 1, 1);
            if (NULL != buf && MPI_SUCCESS == MPI_T_cvar_read(h, buf)) {
                printf("rsag_doctor_probe: cvar %s %s\n", wanted, buf);
            }
            free(buf);
        } else if (MPI_INT == dt) {
            int v;
            if (MPI_SUCCESS == MPI_T_cvar_read(h, &v)) {
                printf("rsag_doctor_probe: cvar %s %d\n", wanted, v);
            }
        }
        MPI_T_cvar_handle_free(&h);
        return;
    }
    printf("rsag_doctor_probe: cvar %s (none)\n", wanted);
}

static void read_counters(MPI_T_pvar_session s, counter_t *c, int n, unsigned long long *sum)
{
    for (int k = 0; k < NCOLL; ++k) {
        sum[k] = 0;
    }
    for (int i = 0; i < n; ++i) {
        MPI_T_pvar_read(s, c[i].handle, &c[i].value);
        sum[c[i].coll] += c[i].value;
    }
}

int main(int argc, char **argv)
{
    int provided, rank, size, num = 0, n = 0, *counts;
    MPI_T_pvar_session session;
    static counter_t counters[MAX_PVARS];
    unsigned long long before[NCOLL], after[NCOLL];
    double *in, *out;

    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_T_pvar_session_create(&session);

    MPI_T_pvar_get_num(&num);
    for (int i = 0; i < num && n < MAX_PVARS; ++i) {
        char name[256], desc[8];
        int name_len = sizeof(name), desc_len = sizeof(desc), verb, var_class, bind, ro, cont,
            atomic, count;
        MPI_Datatype dt;
        MPI_T_enum et;

        if (MPI_SUCCESS != MPI_T_pvar_get_info(i, name, &name_len, &verb, &var_class, &dt, &et,
                                               desc, &desc_len, &bind, &ro, &cont, &atomic)
            || MPI_T_PVAR_CLASS_COUNTER != var_class || coll_of(name) < 0) {
            continue;
        }
        if (MPI_SUCCESS != MPI_T_pvar_handle_alloc(session, i, NULL, &counters[n].handle, &count)) {
            continue;
        }
        if (!cont) {
            MPI_T_pvar_start(session, counters[n].handle);
        }
        counters[n].coll = coll_of(name);
        ++n;
    }

    if (0 == rank) {
        printf("rsag_doctor_probe: ranks %d\n", size);
        print_cvar("mca_base_component_path");
        print_cvar("coll");
        print_cvar("coll_rsag_priority");
        printf("rsag_doctor_probe: rsag_counters %d\n", n);
    }
    /* One double per rank: small calls, which rsag takes at every size. */
    in = calloc((size_t) size, sizeof(double));
    out = calloc((size_t) size, sizeof(double));
    counts = calloc((size_t) size, sizeof(int));
    for (int r = 0; r < size; ++r) {
        in[r] = r + 1;
        counts[r] = 1;
    }
    for (int k = 0; k < NCOLL; ++k) {
        read_counters(session, counters, n, before);
        switch (k) {
        case 0: MPI_Allreduce(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
        case 1: MPI_Reduce(in, out, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD); break;
        case 2: MPI_Reduce_scatter_block(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
        default: MPI_Reduce_scatter(in, out, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
        }
        read_counters(session, counters, n, after);
        if (0 == rank) {
            printf("rsag_doctor_probe: %s %s\n", coll_name[k],
                   after[k] > before[k] ? "rsag" : "other");
        }
    }
    free(in);
    free(out);
    free(counts);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_T_pvar_session_free(&session);
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
