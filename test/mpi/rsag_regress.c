/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_regress.c -- regression tests for bugs other MPI libraries shipped in
 * their reduction collectives, run against rsag.  One subcommand per bug:
 *
 *   lb-inplace       in-place MPI_Allreduce with datatypes whose lower bound
 *                    is not zero (+16, -8, +8 with holes), every allreduce
 *                    algorithm (Open MPI #1764)
 *   reduce-root      in-place MPI_Reduce at every root on the Rabenseifner
 *                    path, predefined and derived types (MPICH #6540)
 *   small-count      count < p' stays on a logarithmic rsag algorithm, never
 *                    a linear fallback nor a delegation: Allreduce, Reduce
 *                    and Reduce_scatter, auto and every forced algorithm
 *                    (Open MPI #12550); only a forced "ring" may run the ring
 *   noncomm-strided  strided datatypes (holes, negative lb, MPI_Type_vector)
 *                    with a non-commutative user op on every reduce-scatter
 *                    path, and Allreduce/Reduce too (Open MPI #8010, #5151):
 *                    results in rank order
 *   fp-identical     MPI_DOUBLE sums of random values of mixed magnitude and
 *                    sign: every rank's result bytes are the same, every
 *                    allreduce algorithm (Open MPI #11721)
 *   big              MPI_Reduce_scatter (in place) whose counts sum past
 *                    INT_MAX bytes (Open MPI #9616); the 2.15 GB buffer
 *                    plus the algorithm's temporaries: 4.2 GB peak RSS
 *                    per rank measured at np 2 with auto
 *
 * Every case forces the algorithm through MPI_T (coll_rsag_<coll>_algorithm)
 * and reads rsag's call counters around the call: when the forced algorithm
 * applies it must be the one that ran; a commutative op must never be
 * delegated.  Values are regenerated on every rank from (seed, rank,
 * element), so each rank knows its exact expected result; bytes of the
 * receive buffer outside the datatype's map (holes, 64 guard bytes) must not
 * change.
 *
 * Usage: mpirun -np N rsag_regress SUBCOMMAND [--seed S] [--alg NAME]
 *                                  [--perturb RANK] [--verbose]
 *   --alg NAME      big: the reduce_scatter algorithm (default auto)
 *   --perturb RANK  fp-identical: RANK flips the last bit of its first
 *                   result element before the comparison (the test must fail)
 * Last line on rank 0: "rsag_regress SUB: np=P cases=N failed=F"; exit
 * status 0 iff F == 0.  Bookkeeping uses MPI_Gather/MPI_Bcast only.
 */
#include <mpi.h>

#include <limits.h>
#include <stdarg.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsag_mix.h"
#include "rsag_mpit.h"

#define GUARD 64
#define SENT 0xA5
#define MAXPRINT 10

static int rank, size, pof2, verbose, perturb = -1;
static rt_placement_t world_where;   /* MPI_COMM_WORLD's ranks on the nodes */
static unsigned long long seed = 12345;
static const char *big_alg = "auto";
static long cases, failures;

/* ------------------------------------------------------------------------ */
/* values                                                                   */

static uint64_t hash3(uint64_t a, uint64_t b, uint64_t c)
{
    return rsag_mix64(rsag_mix64(rsag_mix64(seed ^ a) ^ b) ^ c);
}

/* ------------------------------------------------------------------------ */
/* layouts: nel elements of one kind per item, at off[], lb and extent      */

enum { K_I64, K_DBL, K_AFF };   /* int64 sum, double sum, affine map pair */

typedef struct { uint64_t a, b; } aff_t;   /* x -> a*x + b mod 2^64 */

typedef struct {
    const char *name;
    int kind;
    int nel;
    MPI_Aint off[2];
    MPI_Aint lb, ext;
    int vector;            /* built with MPI_Type_vector (stride = off[1]) */
    MPI_Datatype dt;
    int predefined;
} layout_t;

static MPI_Datatype aff_type;
static MPI_Op op_usum, op_aff;

static size_t kind_size(int kind)
{
    return K_AFF == kind ? sizeof(aff_t) : 8;
}

static MPI_Datatype kind_type(int kind)
{
    return K_AFF == kind ? aff_type : K_DBL == kind ? MPI_DOUBLE : MPI_INT64_T;
}

static void layout_build(layout_t *l)
{
    MPI_Datatype base = kind_type(l->kind), tmp;

    if (l->predefined) {
        l->dt = base;
        return;
    }
    if (l->vector) {
        MPI_Type_vector(l->nel, 1, (int) (l->off[1] / (MPI_Aint) kind_size(l->kind)), base, &tmp);
    } else {
        int bl[2] = { 1, 1 };
        MPI_Datatype ts[2] = { base, base };
        MPI_Type_create_struct(l->nel, bl, l->off, ts, &tmp);
    }
    MPI_Type_create_resized(tmp, l->lb, l->ext, &l->dt);
    MPI_Type_free(&tmp);
    MPI_Type_commit(&l->dt);
}

static layout_t *cur;   /* the layout the user ops reduce */

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void) dt;
    for (int i = 0; i < *len; i++) {
        for (int e = 0; e < cur->nel; e++) {
            MPI_Aint o = i * cur->ext + cur->off[e];
            int64_t *x = (int64_t *) ((char *) in + o), *y = (int64_t *) ((char *) inout + o);
            *y = (int64_t) ((uint64_t) *x + (uint64_t) *y);
        }
    }
}

/* inout = in o inout (apply inout first): associative, not commutative */
static void aff_compose(const aff_t *x, aff_t *y)
{
    aff_t r = { x->a * y->a, x->a * y->b + x->b };
    *y = r;
}

static void user_aff(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void) dt;
    for (int i = 0; i < *len; i++) {
        for (int e = 0; e < cur->nel; e++) {
            MPI_Aint o = i * cur->ext + cur->off[e];
            aff_compose((const aff_t *) ((char *) in + o), (aff_t *) ((char *) inout + o));
        }
    }
}

/* Value of element g of rank r's contribution (as bytes into p). */
static void gen(int kind, int r, size_t g, void *p)
{
    uint64_t h = hash3(0x5eed, (uint64_t) r, g);

    if (K_I64 == kind) {
        int64_t v = (int64_t) (h % 2001) - 1000;
        memcpy(p, &v, 8);
    } else if (K_DBL == kind) {
        double v = (double) (int) (h % 2001) - 1000.0;
        memcpy(p, &v, 8);
    } else {
        aff_t v = { h | 1, rsag_mix64(h) };
        memcpy(p, &v, sizeof v);
    }
}

/* Expected element g: the rank-order reduction over all ranks. */
static void expect(int kind, size_t g, void *p)
{
    char v[sizeof(aff_t)];

    gen(kind, 0, g, p);
    for (int r = 1; r < size; r++) {
        gen(kind, r, g, v);
        if (K_I64 == kind) {
            int64_t a, b;
            memcpy(&a, p, 8);
            memcpy(&b, v, 8);
            a = (int64_t) ((uint64_t) a + (uint64_t) b);
            memcpy(p, &a, 8);
        } else if (K_DBL == kind) {
            double a, b;
            memcpy(&a, p, 8);
            memcpy(&b, v, 8);
            a += b;
            memcpy(p, &a, 8);
        } else {
            aff_t acc, x;
            memcpy(&acc, p, sizeof acc);
            memcpy(&x, v, sizeof x);
            aff_compose(&acc, &x);   /* acc o x: ranks below act last */
            memcpy(p, &x, sizeof x);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* buffers with guards; data of item i element e at base + i*ext + off[e]   */

typedef struct {
    char *mem, *base;
    size_t bytes;
    long nitems;
} buf_t;

static void buf_alloc(buf_t *b, const layout_t *l, long nitems)
{
    b->nitems = nitems;
    b->bytes = (size_t) (nitems > 0 ? nitems : 1) * (size_t) l->ext + 2 * GUARD;
    b->mem = malloc(b->bytes);
    if (NULL == b->mem) {
        fprintf(stderr, "rsag_regress: out of memory (%zu bytes)\n", b->bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memset(b->mem, SENT, b->bytes);
    b->base = b->mem + GUARD - l->lb;
}

static char *elem_at(const buf_t *b, const layout_t *l, long i, int e)
{
    return b->base + i * l->ext + l->off[e];
}

/* Items [0, n) of b hold rank r's contribution for global items from g0. */
static void buf_fill(buf_t *b, const layout_t *l, long n, int r, long g0)
{
    for (long i = 0; i < n; i++) {
        for (int e = 0; e < l->nel; e++) {
            gen(l->kind, r, (size_t) (g0 + i) * (size_t) l->nel + (size_t) e,
                elem_at(b, l, i, e));
        }
    }
}

static void failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void failf(const char *fmt, ...)
{
    va_list ap;

    if (failures++ < MAXPRINT) {
        printf("rsag_regress: rank %d: FAIL: ", rank);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
        fflush(stdout);
    }
}

/* Items [0, n) of b must hold the reduction of global items from g0, and
 * every byte outside their type map must still be the sentinel.  nkeep
 * items (in-place reduce-scatter: the whole input) may hold anything. */
static int buf_check(const buf_t *b, const layout_t *l, long n, long g0, long nkeep,
                     const char *what)
{
    size_t esz = kind_size(l->kind);
    char want[sizeof(aff_t)];
    unsigned char *data = calloc(b->bytes, 1);
    int bad = 0;

    for (long i = 0; i < (n > nkeep ? n : nkeep); i++) {
        for (int e = 0; e < l->nel; e++) {
            char *p = elem_at(b, l, i, e);
            memset(data + (p - b->mem), 1, esz);
            if (i >= n || bad) {
                continue;
            }
            expect(l->kind, (size_t) (g0 + i) * (size_t) l->nel + (size_t) e, want);
            if (0 != memcmp(p, want, esz)) {
                failf("%s: item %ld element %d wrong", what, i, e);
                bad = 1;
            }
        }
    }
    for (size_t k = 0; k < b->bytes && !bad; k++) {
        if (!data[k] && (unsigned char) b->mem[k] != SENT) {
            failf("%s: byte %ld outside the type map changed", what,
                  (long) k - GUARD + (long) l->lb);
            bad = 1;
        }
    }
    free(data);
    return bad;
}

static void buf_free(buf_t *b)
{
    free(b->mem);
    b->mem = NULL;
}

/* ------------------------------------------------------------------------ */
/* which algorithm must run                                                 */

typedef struct {
    int coll, k;
    long count;            /* elements of the whole vector */
    int commutative;
    int contiguous;        /* the datatype suits direct (rt_contiguous) */
    char what[256];
} case_t;

static void start_case(case_t *c, int coll, int k, long count, int commutative,
                       const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void start_case(case_t *c, int coll, int k, long count, int commutative,
                       const char *fmt, ...)
{
    va_list ap;
    int n;

    c->coll = coll;
    c->k = k;
    c->count = count;
    c->commutative = commutative;
    c->contiguous = 1;
    n = snprintf(c->what, sizeof c->what, "%s[%s] ", rt_coll_names[coll], rt_alg(coll, k));
    va_start(ap, fmt);
    vsnprintf(c->what + n, sizeof c->what - (size_t) n, fmt, ap);
    va_end(ap);
    cases++;
    if (0 != rt_force(coll, k)) {
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

/* The counters must show the right algorithm ran (rt_check_ran). */
static int check_ran(const case_t *c, long count, const rt_snap_t *a, const rt_snap_t *b)
{
    int coll = c->coll, k = c->k;
    const char *what = c->what;
    char why[256];

    if (0 != rt_check_ran(coll, k, count, pof2, c->commutative, c->contiguous, world_where, a,
                          b, why, sizeof why)) {
        failf("%s: %s", what, why);
        return 1;
    }
    if (verbose && 0 == rank) {
        printf("  %s: %s\n", what, why);
    }
    return 0;
}

/* Force algorithm k of coll, run call() between two counter snapshots. */

static void report_rc(int rc, const case_t *c)
{
    if (MPI_SUCCESS != rc) {
        failf("%s: returned error %d", c->what, rc);
    }
}

/* ------------------------------------------------------------------------ */
/* the layouts                                                              */

static layout_t lay_plain_i64 = { "int64", K_I64, 1, { 0 }, 0, 8, 0, 0, 1 };
static layout_t lay_plain_dbl = { "double", K_DBL, 1, { 0 }, 0, 8, 0, 0, 1 };
/* lb +16: one int64 at 16, extent 8 */
static layout_t lay_lb_pos16 = { "lb+16", K_I64, 1, { 16 }, 16, 8, 0, 0, 0 };
/* lb -8: int64 at 0 and 16, extent 40 */
static layout_t lay_lb_neg8 = { "lb-8,holes", K_I64, 2, { 0, 16 }, -8, 40, 0, 0, 0 };
/* lb +8: int64 at 8 and 24, extent 32 (hole 16..24) */
static layout_t lay_lb_pos8 = { "lb+8,holes", K_I64, 2, { 8, 24 }, 8, 32, 0, 0, 0 };
/* strided affine maps */
static layout_t lay_aff_plain = { "aff", K_AFF, 1, { 0 }, 0, 16, 0, 0, 0 };
static layout_t lay_aff_hole = { "aff,extent24", K_AFF, 1, { 0 }, 0, 24, 0, 0, 0 };
static layout_t lay_aff_vec = { "aff,vector(2,1,3)", K_AFF, 2, { 0, 48 }, 0, 96, 1, 0, 0 };
static layout_t lay_aff_neg = { "aff,lb-16,holes", K_AFF, 2, { 0, 24 }, -16, 56, 0, 0, 0 };

static layout_t *all_layouts[] = {
    &lay_plain_i64, &lay_plain_dbl, &lay_lb_pos16, &lay_lb_neg8, &lay_lb_pos8,
    &lay_aff_plain, &lay_aff_hole, &lay_aff_vec, &lay_aff_neg
};

static MPI_Op op_for(const layout_t *l)
{
    if (K_AFF == l->kind) {
        return op_aff;
    }
    return l->predefined ? MPI_SUM : op_usum;
}

/* ------------------------------------------------------------------------ */
/* the collectives, checked                                                 */

/* Allreduce of count items, in place or not. */
static void do_allreduce(layout_t *l, int k, long count, int inplace)
{
    case_t c;
    buf_t s, r;
    rt_snap_t a, b;

    cur = l;
    start_case(&c, RT_ALLREDUCE, k, count, K_AFF != l->kind, "%s count %ld%s", l->name,
               count, inplace ? " in place" : "");
    c.contiguous = rt_contiguous(l->dt);
    buf_alloc(&r, l, count);
    buf_alloc(&s, l, count);
    buf_fill(inplace ? &r : &s, l, count, rank, 0);
    rt_snapshot(c.coll, &a);
    report_rc(MPI_Allreduce(inplace ? MPI_IN_PLACE : s.base, r.base, (int) count, l->dt,
                            op_for(l), MPI_COMM_WORLD), &c);
    rt_snapshot(c.coll, &b);
    check_ran(&c, count, &a, &b);
    buf_check(&r, l, count, 0, 0, c.what);
    buf_free(&s);
    buf_free(&r);
}

static void do_reduce(layout_t *l, int k, long count, int root, int inplace)
{
    case_t c;
    buf_t s, r;
    rt_snap_t a, b;

    cur = l;
    start_case(&c, RT_REDUCE, k, count, K_AFF != l->kind, "%s count %ld root %d%s", l->name,
               count, root, inplace ? " in place" : "");
    c.contiguous = rt_contiguous(l->dt);
    buf_alloc(&r, l, count);
    buf_alloc(&s, l, count);
    buf_fill(inplace && rank == root ? &r : &s, l, count, rank, 0);
    rt_snapshot(c.coll, &a);
    report_rc(MPI_Reduce(inplace && rank == root ? MPI_IN_PLACE : s.base,
                         rank == root ? r.base : NULL, (int) count, l->dt, op_for(l), root,
                         MPI_COMM_WORLD), &c);
    rt_snapshot(c.coll, &b);
    check_ran(&c, count, &a, &b);
    if (rank == root) {
        buf_check(&r, l, count, 0, 0, c.what);
    }
    buf_free(&s);
    buf_free(&r);
}

/* Reduce_scatter (rcounts) or, with block = 1, Reduce_scatter_block of
 * rcounts[0] items per rank. */
static void do_reduce_scatter(layout_t *l, int k, const int *rcounts, int block, int inplace,
                              const char *pattern)
{
    case_t c;
    buf_t s, r;
    rt_snap_t a, b;
    long total = 0, mine = 0;

    for (int i = 0; i < size; i++) {
        if (i == rank) {
            mine = total;
        }
        total += block ? rcounts[0] : rcounts[i];
    }
    cur = l;
    start_case(&c, block ? RT_RSB : RT_RS, k, total, K_AFF != l->kind, "%s %s counts (%ld)%s",
               l->name, pattern, total, inplace ? " in place" : "");
    c.contiguous = rt_contiguous(l->dt);
    buf_alloc(&r, l, inplace ? total : rcounts[block ? 0 : rank]);
    buf_alloc(&s, l, total);
    buf_fill(inplace ? &r : &s, l, total, rank, 0);
    rt_snapshot(c.coll, &a);
    if (block) {
        report_rc(MPI_Reduce_scatter_block(inplace ? MPI_IN_PLACE : s.base, r.base, rcounts[0],
                                           l->dt, op_for(l), MPI_COMM_WORLD), &c);
    } else {
        report_rc(MPI_Reduce_scatter(inplace ? MPI_IN_PLACE : s.base, r.base, rcounts, l->dt,
                                     op_for(l), MPI_COMM_WORLD), &c);
    }
    rt_snapshot(c.coll, &b);
    check_ran(&c, total, &a, &b);
    buf_check(&r, l, block ? rcounts[0] : rcounts[rank], mine, inplace ? total : 0, c.what);
    buf_free(&s);
    buf_free(&r);
}

/* ------------------------------------------------------------------------ */
/* the subcommands                                                          */

static void sub_lb_inplace(void)
{
    layout_t *lays[] = { &lay_lb_pos16, &lay_lb_neg8, &lay_lb_pos8 };
    long counts[] = { 1, 3, size, 2L * pof2 + 1, 1000, 4099 };

    for (int k = 0; k < rt_nalg(RT_ALLREDUCE); k++) {
        for (size_t li = 0; li < sizeof lays / sizeof *lays; li++) {
            for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++) {
                do_allreduce(lays[li], k, counts[ci], 1);
            }
        }
    }
}

static void sub_reduce_root(void)
{
    layout_t *lays[] = { &lay_plain_i64, &lay_plain_dbl, &lay_lb_neg8 };
    long counts[] = { pof2, pof2 + 1, 13, 1000, 4099 };
    int k = rt_alg_index(RT_REDUCE, "rabenseifner");

    if (k < 0) {
        failf("reduce has no rabenseifner algorithm");
        return;
    }
    for (size_t li = 0; li < sizeof lays / sizeof *lays; li++) {
        for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++) {
            if (counts[ci] < pof2) {
                continue;
            }
            for (int root = 0; root < size; root++) {
                do_reduce(lays[li], k, counts[ci], root, 1);
            }
        }
    }
}

/* count < p': the algorithm that ran must be logarithmic -- anything but
 * the ring (which runs only when forced) -- and must be rsag's. */
static void sub_small_count(void)
{
    int colls[] = { RT_ALLREDUCE, RT_REDUCE, RT_RS };
    int *rcounts = calloc((size_t) size, sizeof(int));

    for (size_t ci = 0; ci < sizeof colls / sizeof *colls; ci++) {
        int coll = colls[ci];
        for (int k = 0; k < rt_nalg(coll); k++) {
            for (long count = 1; count < pof2; count++) {
                rt_snap_t a, b;
                const char *ran;

                rt_snapshot(coll, &a);
                if (RT_ALLREDUCE == coll) {
                    do_allreduce(&lay_plain_i64, k, count, 0);
                } else if (RT_REDUCE == coll) {
                    do_reduce(&lay_plain_i64, k, count, (int) (count % size), 0);
                } else {
                    for (int i = 0; i < size; i++) {
                        rcounts[i] = i < count ? 1 : 0;
                    }
                    do_reduce_scatter(&lay_plain_i64, k, rcounts, 0, 0, "one-each");
                }
                rt_snapshot(coll, &b);
                ran = rt_ran(coll, &a, &b);
                if (0 == strcmp(ran, "ring") && 0 != strcmp(rt_alg(coll, k), "ring")) {
                    failf("%s[%s] count %ld < p' = %d ran the linear ring", rt_coll_names[coll],
                          rt_alg(coll, k), count, pof2);
                }
                if (0 == strcmp(ran, "delegated")) {
                    failf("%s[%s] count %ld < p' = %d was delegated", rt_coll_names[coll],
                          rt_alg(coll, k), count, pof2);
                }
            }
        }
    }
    free(rcounts);
}

/* Non-commutative op on strided types, every reduce-scatter path. */
static void sub_noncomm_strided(void)
{
    layout_t *lays[] = { &lay_aff_plain, &lay_aff_hole, &lay_aff_vec, &lay_aff_neg };
    int blocks[] = { 1, 2, 7, 300, 5000 };
    int *rcounts = calloc((size_t) size, sizeof(int));

    for (size_t li = 0; li < sizeof lays / sizeof *lays; li++) {
        layout_t *l = lays[li];
        for (int k = 0; k < rt_nalg(RT_RSB); k++) {
            for (size_t bi = 0; bi < sizeof blocks / sizeof *blocks; bi++) {
                for (int inplace = 0; inplace < 2; inplace++) {
                    do_reduce_scatter(l, k, &blocks[bi], 1, inplace, "block");
                }
            }
        }
        for (int k = 0; k < rt_nalg(RT_RS); k++) {
            for (int pat = 0; pat < 3; pat++) {
                const char *names[] = { "even", "irregular", "one-rank" };
                for (int i = 0; i < size; i++) {
                    rcounts[i] = 0 == pat ? 5 : 1 == pat ? (int) (hash3(7, (uint64_t) i, 0) % 9)
                                                         : (i == size - 1 ? 40 : 0);
                }
                for (int inplace = 0; inplace < 2; inplace++) {
                    do_reduce_scatter(l, k, rcounts, 0, inplace, names[pat]);
                }
            }
        }
        for (int k = 0; k < rt_nalg(RT_ALLREDUCE); k++) {
            do_allreduce(l, k, 2L * size + 1, 0);
        }
        for (int k = 0; k < rt_nalg(RT_REDUCE); k++) {
            do_reduce(l, k, 2L * size + 1, size - 1, 0);
        }
    }
    free(rcounts);
}

/* Every rank's result bytes must be rank 0's. */
static void sub_fp_identical(void)
{
    long counts[] = { 1, 7, pof2, 1000, 4099, 65537 };

    for (int k = 0; k < rt_nalg(RT_ALLREDUCE); k++) {
        for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++) {
            for (int inplace = 0; inplace < 2; inplace++) {
                long n = counts[ci];
                double *s = malloc((size_t) n * sizeof(double));
                double *r = malloc((size_t) n * sizeof(double));
                double *all = 0 == rank ? malloc((size_t) n * size * sizeof(double)) : NULL;
                rt_snap_t a, b;
                case_t c;
                int bad = 0;

                start_case(&c, RT_ALLREDUCE, k, n, 1, "double sum count %ld%s", n,
                           inplace ? " in place" : "");
                for (long i = 0; i < n; i++) {
                    uint64_t h = hash3(0xf1, (uint64_t) rank, (uint64_t) i);
                    /* mantissa in [1,2), exponent -40..40, random sign */
                    double m = 1.0 + (double) (h >> 12) / 4503599627370496.0;
                    s[i] = ldexp(m, (int) ((h >> 4) % 81) - 40) * ((h & 1) ? -1.0 : 1.0);
                }
                if (inplace) {
                    memcpy(r, s, (size_t) n * sizeof(double));
                }
                rt_snapshot(c.coll, &a);
                report_rc(MPI_Allreduce(inplace ? MPI_IN_PLACE : s, r, (int) n, MPI_DOUBLE,
                                        MPI_SUM, MPI_COMM_WORLD), &c);
                rt_snapshot(c.coll, &b);
                check_ran(&c, n, &a, &b);
                if (rank == perturb) {
                    uint64_t u;
                    memcpy(&u, &r[0], 8);
                    u ^= 1;
                    memcpy(&r[0], &u, 8);
                }
                MPI_Gather(r, (int) (n * 8), MPI_BYTE, all, (int) (n * 8), MPI_BYTE, 0,
                           MPI_COMM_WORLD);
                if (0 == rank) {
                    for (int q = 1; q < size && !bad; q++) {
                        for (long i = 0; i < n; i++) {
                            if (0 != memcmp(&all[(size_t) q * n + i], &all[i], 8)) {
                                failf("%s: rank %d's element %ld differs from rank 0's "
                                      "(%.17g vs %.17g)", c.what, q, i, all[(size_t) q * n + i],
                                      all[i]);
                                bad = 1;
                                break;
                            }
                        }
                    }
                }
                for (long i = 0; i < n && !bad; i++) {
                    if (!isfinite(r[i])) {
                        failf("%s: element %ld is not finite", c.what, i);
                        bad = 1;
                    }
                }
                free(s);
                free(r);
                free(all);
            }
        }
    }
}

/* MPI_Reduce_scatter in place over more than INT_MAX bytes in all. */
static void sub_big(void)
{
    long total = (long) (INT_MAX / (int) sizeof(int)) + (1L << 20);
    int *rcounts = malloc((size_t) size * sizeof(int));
    int k = rt_alg_index(RT_RS, big_alg);
    long mine = 0, i;
    int *buf;
    rt_snap_t a, b;
    case_t c;
    double t0;

    if (k < 0) {
        failf("reduce_scatter has no algorithm %s", big_alg);
        return;
    }
    for (int q = 0; q < size; q++) {
        rcounts[q] = (int) (total / size + (q < total % size ? 1 : 0));
        if (q < rank) {
            mine += rcounts[q];
        }
    }
    start_case(&c, RT_RS, k, total, 1, "int sum, %ld elements = %ld bytes in place", total,
               total * (long) sizeof(int));
    buf = malloc((size_t) total * sizeof(int));
    if (NULL == buf) {
        failf("cannot allocate %ld bytes", total * (long) sizeof(int));
        free(rcounts);
        return;
    }
    for (i = 0; i < total; i++) {
        buf[i] = (rank + 1) * (int) (i % 5 + 1);
    }
    rt_snapshot(c.coll, &a);
    t0 = MPI_Wtime();
    report_rc(MPI_Reduce_scatter(MPI_IN_PLACE, buf, rcounts, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
              &c);
    rt_snapshot(c.coll, &b);
    check_ran(&c, total, &a, &b);
    for (i = 0; i < rcounts[rank]; i++) {
        int want = size * (size + 1) / 2 * (int) ((mine + i) % 5 + 1);
        if (buf[i] != want) {
            failf("%s: element %ld (global %ld) is %d, want %d", c.what, i, mine + i, buf[i],
                  want);
            break;
        }
    }
    if (0 == rank) {
        printf("rsag_regress big: %s took %.1f s\n", c.what, MPI_Wtime() - t0);
    }
    free(buf);
    free(rcounts);
}

static const struct {
    const char *name;
    void (*fn)(void);
    int min_np;
} subs[] = {
    { "lb-inplace", sub_lb_inplace, 1 },
    { "reduce-root", sub_reduce_root, 1 },
    { "small-count", sub_small_count, 2 },
    { "noncomm-strided", sub_noncomm_strided, 1 },
    { "fp-identical", sub_fp_identical, 1 },
    { "big", sub_big, 2 },
};

int main(int argc, char **argv)
{
    const char *sub = argc > 1 ? argv[1] : "";
    int si = -1;
    long all_fail = 0, *fails;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (pof2 = 1; 2 * pof2 <= size; pof2 *= 2) {
    }
    world_where = rt_placement(MPI_COMM_WORLD);
    for (int i = 2; i < argc; i++) {
        if (0 == strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 0);
        } else if (0 == strcmp(argv[i], "--alg") && i + 1 < argc) {
            big_alg = argv[++i];
        } else if (0 == strcmp(argv[i], "--perturb") && i + 1 < argc) {
            perturb = atoi(argv[++i]);
        } else if (0 == strcmp(argv[i], "--verbose")) {
            verbose = 1;
        } else {
            sub = "";
        }
    }
    for (size_t i = 0; i < sizeof subs / sizeof *subs; i++) {
        if (0 == strcmp(sub, subs[i].name)) {
            si = (int) i;
        }
    }
    if (si < 0 || size < subs[si].min_np) {
        if (0 == rank) {
            fprintf(stderr, "usage: mpirun -np N rsag_regress SUBCOMMAND [--seed S] [--alg NAME] "
                            "[--perturb RANK] [--verbose]\nsubcommands:");
            for (size_t i = 0; i < sizeof subs / sizeof *subs; i++) {
                fprintf(stderr, " %s (np >= %d)", subs[i].name, subs[i].min_np);
            }
            fprintf(stderr, "\n");
        }
        MPI_Finalize();
        return 2;
    }
    if (0 != rt_mpit_init()) {
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Type_contiguous(2, MPI_UINT64_T, &aff_type);
    MPI_Type_commit(&aff_type);
    MPI_Op_create(user_sum, 1, &op_usum);
    MPI_Op_create(user_aff, 0, &op_aff);
    for (size_t i = 0; i < sizeof all_layouts / sizeof *all_layouts; i++) {
        layout_build(all_layouts[i]);
    }

    subs[si].fn();

    fails = 0 == rank ? malloc((size_t) size * sizeof(long)) : NULL;
    MPI_Gather(&failures, 1, MPI_LONG, fails, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        for (int q = 0; q < size; q++) {
            all_fail += fails[q];
        }
        printf("rsag_regress %s: np=%d cases=%ld failed=%ld\n", sub, size, cases, all_fail);
        free(fails);
    }
    MPI_Bcast(&all_fail, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    for (size_t i = 0; i < sizeof all_layouts / sizeof *all_layouts; i++) {
        if (!all_layouts[i]->predefined) {
            MPI_Type_free(&all_layouts[i]->dt);
        }
    }
    MPI_Op_free(&op_usum);
    MPI_Op_free(&op_aff);
    MPI_Type_free(&aff_type);
    rt_mpit_finalize();
    MPI_Finalize();
    return 0 == all_fail ? 0 : 1;
}
