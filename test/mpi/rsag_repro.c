/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_repro.c -- coll_rsag_reproducible = placement (doc/reproducible.md):
 * for a given p, the same bits whatever the algorithm, size, form and
 * placement.
 *
 * Inputs: doubles of both signs over a wide exponent range (2^-30 .. 2^30,
 * 52 random mantissa bits), from a fixed seed and (rank, element) only, so
 * every job of the same p sums the same numbers and any change of the
 * order of the additions shows in the bits.
 *
 * One job loops over: the four collectives (MPI_Allreduce, MPI_Reduce to
 * root 1, MPI_Reduce_scatter_block, MPI_Reduce_scatter with uneven blocks),
 * sizes from 8 B to 256 KB (crossing the thresholds), every algorithm of the
 * table forced in turn through MPI_T and auto, the three forms (blocking,
 * MPI_I*, persistent: with its starts asserted ordered and not), with and
 * without MPI_IN_PLACE.  Each call's result (every rank's part) is hashed
 * (FNV-1a over the bits, the ranks' hashes combined in rank order).
 *
 *   --mode placement  (default) coll_rsag_reproducible is set to placement
 *                     through MPI_T after a warm-up in off mode (so the
 *                     decision cache and the latency path must forget what
 *                     they chose); every call must give the bits of the left
 *                     fold in rank order computed here from everyone's
 *                     inputs, so every variant the same hash; rsag must have
 *                     run every call with an algorithm that folds in rank
 *                     order (direct or ordered: its MPI_T counters)
 *   --mode off        the control: prints how many different hashes each
 *                     (collective, size) got; --expect-differ fails unless
 *                     one got at least two (otherwise the placement test
 *                     proves nothing at this p)
 *   --noncomm         a non-commutative user op instead (2x2 matrix
 *                     products, an associative, non-commutative op):
 *                     placement must give MPI's order, x_0 x_1 ... x_{p-1}
 *   --max-bytes N     largest vector (default 262144)
 *
 * Output (rank 0): "hash COLL BYTES HEX" per (collective, size), the hash
 * every variant gave (placement) or the first one (off); "ran direct N
 * ordered M"; "PASS" or "FAIL ..." lines; exit status 0 iff it passed.
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

#define RP_ROOT 1
#define RP_MAX_VARIANTS 512

static int rank, size, failures;
static int noncomm;
static long long ran_direct, ran_ordered, ran_other;
static MPI_Op matmul_op;
static MPI_Datatype mat_type;

/* Element i of rank r's input (the same in every job of every p). */
static double rp_value(int r, size_t i)
{
    uint64_t h = rsag_mix64(((uint64_t) r << 40) ^ (uint64_t) i ^ 0x5eedULL);
    double m = 1.0 + (double) (h >> 12) / 4503599627370496.0;      /* [1, 2), 52 bits */
    int e = (int) ((h >> 4) % 61) - 30;

    return ldexp((h & 1) ? -m : m, e);
}

/* For the non-commutative op: entries in [0.5, 1.5) of 2x2 matrices. */
static double rp_mat_value(int r, size_t i)
{
    uint64_t h = rsag_mix64(((uint64_t) r << 40) ^ (uint64_t) i ^ 0xa77ULL);
    return 0.5 + (double) (h >> 11) / 9007199254740992.0;
}

static void rp_matmul(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    double *a = in, *b = inout;

    (void) dt;
    for (int k = 0; k < *len; ++k, a += 4, b += 4) {
        /* inout = in x inout: MPI's order, in on the left */
        double c0 = a[0] * b[0] + a[1] * b[2], c1 = a[0] * b[1] + a[1] * b[3];
        double c2 = a[2] * b[0] + a[3] * b[2], c3 = a[2] * b[1] + a[3] * b[3];
        b[0] = c0, b[1] = c1, b[2] = c2, b[3] = c3;
    }
}

/* Elements are doubles; a "unit" is one element of the call's datatype
 * (1 double, or a 2x2 matrix of 4). */
static int upd(void) { return noncomm ? 4 : 1; }

static void rp_fill(double *x, int r, size_t units)
{
    for (size_t i = 0; i < units * (size_t) upd(); ++i) {
        x[i] = noncomm ? rp_mat_value(r, i) : rp_value(r, i);
    }
}

/* The left fold in rank order of every rank's input, units [lo, lo + n). */
static void rp_reference(double *out, size_t lo, size_t n)
{
    int u = upd();
    double *x = malloc(n * u * sizeof(double)), *acc = malloc(n * u * sizeof(double));

    for (size_t i = 0; i < n * u; ++i) {
        acc[i] = noncomm ? rp_mat_value(0, lo * u + i) : rp_value(0, lo * u + i);
    }
    for (int r = 1; r < size; ++r) {
        for (size_t i = 0; i < n * u; ++i) {
            x[i] = noncomm ? rp_mat_value(r, lo * u + i) : rp_value(r, lo * u + i);
        }
        if (noncomm) {
            int len = (int) n;
            rp_matmul(acc, x, &len, NULL);      /* x = acc x x */
            memcpy(acc, x, n * u * sizeof(double));
        } else {
            for (size_t i = 0; i < n; ++i) {
                acc[i] = acc[i] + x[i];
            }
        }
    }
    memcpy(out, acc, n * u * sizeof(double));
    free(x);
    free(acc);
}

static uint64_t rp_hash(const double *x, size_t n, uint64_t h)
{
    const unsigned char *b = (const unsigned char *) x;

    for (size_t i = 0; i < n * sizeof(double); ++i) {
        h = (h ^ b[i]) * 1099511628211ULL;
    }
    return h;
}

/* One hash of every rank's part, in rank order (a gather: no reduction). */
static uint64_t rp_combine(uint64_t mine)
{
    uint64_t *all = malloc((size_t) size * sizeof(uint64_t)), h = 1469598103934665603ULL;

    MPI_Allgather(&mine, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, MPI_COMM_WORLD);
    for (int r = 0; r < size; ++r) {
        h = rp_hash((const double *) &all[r], 1, h);
    }
    free(all);
    return h;
}

/* Whether any rank says yes (a gather: the reductions are what is tested). */
static int rp_any(int yes)
{
    int *all = malloc((size_t) size * sizeof(int)), any = 0;

    MPI_Allgather(&yes, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < size; ++r) {
        any |= all[r];
    }
    free(all);
    return any;
}

typedef struct {
    int coll;
    size_t units;           /* of the whole vector */
    int *rcounts;           /* the reduce-scatters' blocks (units) */
    size_t lo, n;           /* my part of the result (units) */
    double *in, *out, *ref;
    uint64_t hashes[RP_MAX_VARIANTS];
    int nvar;
} rp_case_t;

static void rp_case_init(rp_case_t *c, int coll, size_t units)
{
    size_t base = units / size, extra = units % size, off = 0;

    memset(c, 0, sizeof(*c));
    c->coll = coll;
    c->units = units;
    c->rcounts = malloc((size_t) size * sizeof(int));
    for (int r = 0; r < size; ++r) {
        if (RT_RSB == coll) {
            c->rcounts[r] = (int) (base > 0 ? base : 1);    /* count 0 is no call */
        } else {
            /* uneven: rank r gets base + its share of the rest, in reverse */
            c->rcounts[r] = (int) (base + ((size_t) (size - 1 - r) < extra ? 1 : 0));
        }
        if (r < rank) {
            off += (size_t) c->rcounts[r];
        }
    }
    if (RT_RSB == coll) {
        c->units = (size_t) c->rcounts[0] * (size_t) size;
    }
    switch (coll) {
    case RT_ALLREDUCE:
        c->lo = 0, c->n = c->units;
        break;
    case RT_REDUCE:
        c->lo = 0, c->n = (RP_ROOT % size == rank) ? c->units : 0;
        break;
    default:
        c->lo = off, c->n = (size_t) c->rcounts[rank];
        break;
    }
    c->in = malloc((c->units + 1) * upd() * sizeof(double));
    c->out = malloc((c->units + 1) * upd() * sizeof(double));
    c->ref = malloc((c->n + 1) * upd() * sizeof(double));
    rp_fill(c->in, rank, c->units);
    rp_reference(c->ref, c->lo, c->n);
}

static void rp_case_free(rp_case_t *c)
{
    free(c->rcounts);
    free(c->in);
    free(c->out);
    free(c->ref);
}

/* One call of case c: algorithm k forced (0: auto), in `form`, in place or
 * not; its hash recorded; in placement mode, checked against the fold. */
static void rp_call(rp_case_t *c, int k, int form, int in_place, int placement)
{
    int u = upd(), bad = 0, any_bad = 0;
    rt_call_t call = { c->coll, c->in, c->out, (int) c->units, c->rcounts,
                       noncomm ? mat_type : MPI_DOUBLE, noncomm ? matmul_op : MPI_SUM,
                       RP_ROOT % size, MPI_COMM_WORLD };
    rt_snap_t before, after;
    const char *ran;
    int rc;

    if (RT_RSB == c->coll) {
        call.count = c->rcounts[0];
    }
    for (size_t i = 0; i < (c->units + 1) * u; ++i) {
        c->out[i] = -0.0 - 7.0;                 /* not a result */
    }
    if (in_place && (RT_REDUCE != c->coll || RP_ROOT % size == rank)) {
        memcpy(c->out, c->in, c->units * u * sizeof(double));
        call.sbuf = MPI_IN_PLACE;
    }
    rt_force(c->coll, k);
    rt_snapshot(c->coll, &before);
    rc = rt_run(form, &call);
    rt_snapshot(c->coll, &after);
    ran = rt_ran(c->coll, &before, &after);
    if (MPI_SUCCESS != rc) {
        bad = 1;
    }
    if (placement) {
        if (0 == strcmp(ran, "direct")) {
            ++ran_direct;
        } else if (0 == strcmp(ran, "ordered")) {
            ++ran_ordered;
        } else {
            ++ran_other;
            bad = 1;
        }
        if (0 != memcmp(c->out, c->ref, c->n * u * sizeof(double))) {
            bad = 1;
        }
    }
    c->hashes[c->nvar++ % RP_MAX_VARIANTS] =
        rp_combine(rp_hash(c->out, c->n * u, 1469598103934665603ULL));
    any_bad = rp_any(bad);
    if (any_bad) {
        ++failures;
        if (bad) {
            fprintf(stderr, "FAIL rank %d: %s %zu B, %s forced, %s%s: rc %d, ran %s, result %s\n",
                    rank, rt_coll_names[c->coll], c->units * u * sizeof(double), rt_alg(c->coll, k),
                    rt_form_names[form], in_place ? ", in place" : "", rc, ran,
                    0 != memcmp(c->out, c->ref, c->n * u * sizeof(double))
                        ? "not the rank-order fold" : "the rank-order fold");
        }
    }
}

static void rp_set_mode(const char *mode)
{
    MPI_T_enum et;
    MPI_T_cvar_handle h = rt_cvar("coll_rsag_reproducible", NULL, &et);
    int n = 0, value = -1;

    MPI_T_enum_get_info(et, &n, NULL, NULL);
    for (int i = 0; i < n; ++i) {
        char name[64];
        int v, len = sizeof name;

        MPI_T_enum_get_item(et, i, &v, name, &len);
        if (0 == strcmp(name, mode)) {
            value = v;
        }
    }
    if (value < 0) {
        fprintf(stderr, "rsag_repro: coll_rsag_reproducible has no value %s\n", mode);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    rt_cvar_write(h, &value);
    MPI_T_cvar_handle_free(&h);
}

int main(int argc, char **argv)
{
    const char *mode = "placement";
    int expect_differ = 0, differ = 0, placement;
    size_t max_bytes = 262144;
    static const size_t sizes[] = { 8, 64, 1024, 8192, 65536, 262144 };

    for (int i = 1; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--mode") && i + 1 < argc) {
            mode = argv[++i];
        } else if (0 == strcmp(argv[i], "--expect-differ")) {
            expect_differ = 1;
        } else if (0 == strcmp(argv[i], "--noncomm")) {
            noncomm = 1;
        } else if (0 == strcmp(argv[i], "--max-bytes") && i + 1 < argc) {
            max_bytes = (size_t) strtoull(argv[++i], NULL, 10);
        } else {
            fprintf(stderr, "usage: rsag_repro [--mode placement|off] [--expect-differ] "
                            "[--noncomm] [--max-bytes N]\n");
            return 2;
        }
    }
    placement = 0 == strcmp(mode, "placement");
    rt_start(&argc, &argv, &rank, &size);
    MPI_Type_contiguous(4, MPI_DOUBLE, &mat_type);
    MPI_Type_commit(&mat_type);
    MPI_Op_create(rp_matmul, 0, &matmul_op);

    for (int coll = 0; coll < RT_NCOLL; ++coll) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0] && sizes[s] <= max_bytes; ++s) {
            rp_case_t c;
            size_t units = sizes[s] / sizeof(double) / (size_t) upd();

            rp_case_init(&c, coll, units > 0 ? units : 1);
            /* the warm-up, in off mode: auto's choice cached, small calls
             * remembered by the latency path; then the mode under test */
            rp_set_mode("off");
            rp_call(&c, 0, RT_FORM_BLOCKING, 0, 0);
            rp_call(&c, 0, RT_FORM_BLOCKING, 0, 0);
            c.nvar = 0;
            rp_set_mode(mode);
            for (int k = 0; k < rt_nalg(coll); ++k) {
                for (int form = 0; form < RT_NFORM; ++form) {
                    if (RT_FORM_PERSISTENT == form && !RT_HAVE_PERSISTENT) {
                        continue;
                    }
                    for (int in_place = 0; in_place < 2; ++in_place) {
                        if (RT_FORM_PERSISTENT == form) {
                            rt_persistent_ordered(in_place);    /* both ways */
                        }
                        rp_call(&c, k, form, in_place, placement);
                    }
                }
            }
            rt_persistent_ordered(1);
            rt_force(coll, 0);
            {
                int distinct = 0;

                for (int i = 0; i < c.nvar && i < RP_MAX_VARIANTS; ++i) {
                    int seen = 0;
                    for (int j = 0; j < i; ++j) {
                        seen |= c.hashes[j] == c.hashes[i];
                    }
                    distinct += !seen;
                }
                differ |= distinct > 1;
                if (0 == rank) {
                    printf("hash %s %zu %016" PRIx64 " (%d variants, %d different)\n",
                           rt_coll_names[coll], c.units * upd() * sizeof(double), c.hashes[0],
                           c.nvar, distinct);
                }
                if (placement && distinct > 1) {
                    ++failures;
                }
            }
            rp_case_free(&c);
        }
    }
    rp_set_mode("off");
    if (0 == rank) {
        printf("ran direct %lld ordered %lld other %lld (rank 0)\n", ran_direct, ran_ordered,
               ran_other);
    }
    if (expect_differ && !differ) {
        if (0 == rank) {
            printf("FAIL: mode %s: every variant gave the same bits at p = %d: the control "
                   "proves nothing\n", mode, size);
        }
        ++failures;
    }
    if (0 == rank) {
        printf("%s: mode %s, p = %d%s\n", failures ? "FAIL" : "PASS", mode, size,
               noncomm ? ", non-commutative op" : "");
    }
    MPI_Op_free(&matmul_op);
    MPI_Type_free(&mat_type);
    rt_mpit_finalize();
    MPI_Finalize();
    return failures ? 1 : 0;
}
