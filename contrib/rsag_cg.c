/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_cg: an application loop whose reductions are the small ones real
 * solvers make -- conjugate gradients on the 2-D Laplacian.
 *
 * The grid has n x n interior points (zero on the boundary), the right-hand
 * side is 1 everywhere, and the ranks own blocks of rows.  Each iteration
 * makes one halo exchange (MPI_Sendrecv of a row with each neighbour), the
 * 5-point matrix-vector product, and three 8-byte MPI_Allreduce calls: the
 * two dot products of CG (p.q and r.r) and the largest |r_i| (MPI_MAX, the
 * norm a convergence monitor prints).  It stops when ||r|| <= tol ||b||.
 *
 *   mpirun -np 2 rsag_cg [--n N] [--tol T] [--max-iters K] [--repeat R]
 *
 * Rank 0 prints one line per solve and a summary:
 *   rsag_cg: np=2 n=256 iterations=389 residual=9.87e-09 max_abs_r=... \
 *            us_per_iteration=... allreduce_us_per_iteration=...
 * With --repeat R the solve runs R times (the same iterations each time)
 * and the summary gives the median time per iteration.  The iteration
 * count and the residual do not depend on the timing: a test compares them
 * between runs with and without rsag.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int n;                  /* interior points per side */
    int rank, size;
    int row0, rows;         /* my rows of the grid */
    int up, down;           /* neighbour ranks (MPI_PROC_NULL at the edges) */
} grid_t;

typedef struct {
    int iterations;
    double residual;        /* ||r|| / ||b|| at the end */
    double max_abs_r;
    double seconds;         /* the iterations */
    double allreduce_seconds;
} solve_t;

/* Vectors hold my rows plus one ghost row above and one below. */
#define AT(v, g, i, j) ((v)[(size_t) ((i) + 1) * (size_t) (g)->n + (size_t) (j)])

static double allreduce_time;

static double reduce_scalar(double x, MPI_Op op)
{
    double y, t0 = MPI_Wtime();

    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
    allreduce_time += MPI_Wtime() - t0;
    return y;
}

static double dot(const grid_t *g, const double *a, const double *b)
{
    double s = 0.0;

    for (int i = 0; i < g->rows; ++i) {
        for (int j = 0; j < g->n; ++j) {
            s += AT(a, g, i, j) * AT(b, g, i, j);
        }
    }
    return reduce_scalar(s, MPI_SUM);
}

static void halo(const grid_t *g, double *v)
{
    int n = g->n;

    /* my first row up, the row below me in from down; then the other way */
    MPI_Sendrecv(&AT(v, g, 0, 0), n, MPI_DOUBLE, g->up, 1, &AT(v, g, g->rows, 0), n,
                 MPI_DOUBLE, g->down, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&AT(v, g, g->rows - 1, 0), n, MPI_DOUBLE, g->down, 2, &AT(v, g, -1, 0), n,
                 MPI_DOUBLE, g->up, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* q = A p, A the 5-point Laplacian with zero boundary values */
static void matvec(const grid_t *g, double *p, double *q)
{
    halo(g, p);
    for (int i = 0; i < g->rows; ++i) {
        for (int j = 0; j < g->n; ++j) {
            double s = 4.0 * AT(p, g, i, j) - AT(p, g, i - 1, j) - AT(p, g, i + 1, j);

            s -= (j > 0) ? AT(p, g, i, j - 1) : 0.0;
            s -= (j + 1 < g->n) ? AT(p, g, i, j + 1) : 0.0;
            AT(q, g, i, j) = s;
        }
    }
}

static solve_t solve(const grid_t *g, double tol, int max_iters, double *x, double *r,
                     double *p, double *q)
{
    size_t len = (size_t) (g->rows + 2) * (size_t) g->n;
    solve_t out = { 0, 0.0, 0.0, 0.0, 0.0 };
    double rr, rr0, t0;

    memset(x, 0, len * sizeof(double));
    memset(p, 0, len * sizeof(double));     /* ghost rows at the edges stay 0 */
    memset(q, 0, len * sizeof(double));
    memset(r, 0, len * sizeof(double));
    for (int i = 0; i < g->rows; ++i) {
        for (int j = 0; j < g->n; ++j) {
            AT(r, g, i, j) = 1.0;           /* r = b - A 0 = b */
            AT(p, g, i, j) = 1.0;
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    allreduce_time = 0.0;
    t0 = MPI_Wtime();
    rr0 = rr = dot(g, r, r);
    while (out.iterations < max_iters) {
        double pq, alpha, rr_new, mine = 0.0;

        matvec(g, p, q);
        pq = dot(g, p, q);
        alpha = rr / pq;
        for (int i = 0; i < g->rows; ++i) {
            for (int j = 0; j < g->n; ++j) {
                AT(x, g, i, j) += alpha * AT(p, g, i, j);
                AT(r, g, i, j) -= alpha * AT(q, g, i, j);
                mine = fmax(mine, fabs(AT(r, g, i, j)));
            }
        }
        rr_new = dot(g, r, r);
        out.max_abs_r = reduce_scalar(mine, MPI_MAX);
        ++out.iterations;
        if (sqrt(rr_new) <= tol * sqrt(rr0)) {
            rr = rr_new;
            break;
        }
        for (int i = 0; i < g->rows; ++i) {
            for (int j = 0; j < g->n; ++j) {
                AT(p, g, i, j) = AT(r, g, i, j) + (rr_new / rr) * AT(p, g, i, j);
            }
        }
        rr = rr_new;
    }
    out.seconds = MPI_Wtime() - t0;
    out.allreduce_seconds = allreduce_time;
    out.residual = sqrt(rr / rr0);
    /* the slowest rank's times */
    out.seconds = reduce_scalar(out.seconds, MPI_MAX);
    out.allreduce_seconds = reduce_scalar(out.allreduce_seconds, MPI_MAX);
    return out;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;

    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    grid_t g;
    double tol = 1e-8, *x, *r, *p, *q, *per_it, *ar_per_it;
    int max_iters = 100000, repeat = 1, rc = 0;
    size_t len;
    solve_t s = { 0, 0.0, 0.0, 0.0, 0.0 }, first = s;

    g.n = 256;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g.size);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (0 == strcmp(argv[i], "--n")) {
            g.n = atoi(argv[i + 1]);
        } else if (0 == strcmp(argv[i], "--tol")) {
            tol = atof(argv[i + 1]);
        } else if (0 == strcmp(argv[i], "--max-iters")) {
            max_iters = atoi(argv[i + 1]);
        } else if (0 == strcmp(argv[i], "--repeat")) {
            repeat = atoi(argv[i + 1]);
        } else {
            break;
        }
    }
    if (g.n < g.size || g.n < 2 || !(tol > 0.0) || max_iters < 1 || repeat < 1) {
        if (0 == g.rank) {
            fprintf(stderr, "usage: rsag_cg [--n N (>= 2 and >= the number of ranks)] "
                            "[--tol T (> 0)] [--max-iters K (>= 1)] [--repeat R (>= 1)]\n");
        }
        MPI_Finalize();
        return 2;
    }
    g.row0 = (int) ((long) g.n * g.rank / g.size);
    g.rows = (int) ((long) g.n * (g.rank + 1) / g.size) - g.row0;
    g.up = g.rank > 0 ? g.rank - 1 : MPI_PROC_NULL;
    g.down = g.rank + 1 < g.size ? g.rank + 1 : MPI_PROC_NULL;
    len = (size_t) (g.rows + 2) * (size_t) g.n;
    x = malloc(len * sizeof(double));
    r = malloc(len * sizeof(double));
    p = malloc(len * sizeof(double));
    q = malloc(len * sizeof(double));
    per_it = malloc((size_t) repeat * sizeof(double));
    ar_per_it = malloc((size_t) repeat * sizeof(double));
    if (!x || !r || !p || !q || !per_it || !ar_per_it) {
        fprintf(stderr, "rsag_cg: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int k = 0; k < repeat; ++k) {
        s = solve(&g, tol, max_iters, x, r, p, q);
        if (0 == k) {
            first = s;
        } else if (s.iterations != first.iterations || s.residual != first.residual) {
            rc = 1;     /* the same solve must give the same answer */
        }
        per_it[k] = 1e6 * s.seconds / s.iterations;
        ar_per_it[k] = 1e6 * s.allreduce_seconds / s.iterations;
    }
    qsort(per_it, (size_t) repeat, sizeof(double), cmp_double);
    qsort(ar_per_it, (size_t) repeat, sizeof(double), cmp_double);
    if (0 == g.rank) {
        printf("rsag_cg: np=%d n=%d iterations=%d residual=%.6e max_abs_r=%.6e "
               "us_per_iteration=%.3f allreduce_us_per_iteration=%.3f repeats=%d%s\n",
               g.size, g.n, first.iterations, first.residual, first.max_abs_r,
               per_it[repeat / 2], ar_per_it[repeat / 2], repeat,
               rc ? " DIFFERENT-ANSWERS" : "");
        if (first.residual > tol) {
            printf("rsag_cg: did not converge in %d iterations\n", max_iters);
            rc = 1;
        }
    }
    free(x);
    free(r);
    free(p);
    free(q);
    free(per_it);
    free(ar_per_it);
    MPI_Finalize();
    return rc;
}
