/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The arithmetic of coll_rsag_reproducible = exact (pure C, no MPI;
 * doc/reproducible.md, "exact", has the argument; test/unit/test_exact.c).
 *
 * A sum of doubles made independent of its order: every contribution x of
 * an element is cut, at boundaries fixed by the element's largest exponent
 * E over all contributions, into two pieces q1 and q2 that lie on fixed
 * grids (error-free extraction as in Rump, Ogita and Oishi's "Accurate
 * floating-point summation part I: faithful rounding", with boundaries
 * fixed in advance as in Demmel and Nguyen's "Parallel Reproducible
 * Summation").  Any sum of up to 2^16 pieces of one grid, in any order and
 * any grouping, is exact in double, so MPI_SUM of the pieces gives the same
 * S1 = sum q1 and S2 = sum q2 whatever the algorithm; the result is
 * RN(S1 + S2).
 *
 * The three passes of the driver (coll_rsag_exact.c) and the kernels here:
 *   1  E = max over contributions of field(x)     mca_coll_rsag_exact_fields
 *   2  (q1, q2) per element, interleaved          mca_coll_rsag_exact_extract
 *      then MPI_SUM of the 2n doubles
 *   3  RN(S1 + S2), specials, scale               mca_coll_rsag_exact_finish
 * and the whole fold, 1-3 at once over every contribution in hand (the
 * one-collective form, and `direct`): mca_coll_rsag_exact_fold.
 *
 * Every operation must round to double on its own: no contraction into
 * fused multiply-adds (the .c file turns it off itself), no reassociation
 * (-ffast-math is refused), FLT_EVAL_METHOD 0 (SSE2 on x86-64; checked).
 */
#ifndef MCA_COLL_RSAG_EXACT_KERNELS_H
#define MCA_COLL_RSAG_EXACT_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Terms a sum may have (p <= 2^16): L in doc/reproducible.md. */
#define MCA_COLL_RSAG_EXACT_LOG2_MAX_TERMS 16
#define MCA_COLL_RSAG_EXACT_MAX_TERMS (1 << MCA_COLL_RSAG_EXACT_LOG2_MAX_TERMS)
/* The exponent field of an element holding inf or NaN. */
#define MCA_COLL_RSAG_EXACT_FIELD_SPECIAL 2047

/* The exponent key of x: its 11-bit exponent field, 1 for zeros and
 * subnormals (they share the binade scale of the smallest normals). */
int16_t mca_coll_rsag_exact_field(double x);

/* Contributions as doubles: n values of float (`is_float`) or double at
 * `in` into x (floats convert exactly). */
void mca_coll_rsag_exact_load(const void *in, bool is_float, size_t n, double *x);
/* Results out: n doubles into float (rounded once) or double at `out`. */
void mca_coll_rsag_exact_store(const double *r, bool is_float, size_t n, void *out);

/* e[i] = field(x[i]) (pass 1's contribution; MPI_MAX of these over the
 * ranks is E). */
void mca_coll_rsag_exact_fields(const double *x, size_t n, int16_t *e);

/* q[2i] = q1, q[2i + 1] = q2 of x[i] under E[i] (pass 2's contribution). */
void mca_coll_rsag_exact_extract(const double *x, const int16_t *E, size_t n, double *q);

/* r[i] = the result of element i from S[2i] = sum q1, S[2i + 1] = sum q2
 * under E[i]: RN(S1 + S2) scaled back, a NaN made the canonical quiet NaN. */
void mca_coll_rsag_exact_finish(const double *S, const int16_t *E, size_t n, double *r);

/* The whole fold: src[t], t < terms, holds contribution t of n reals
 * (float when `is_float`, else double; any alignment); dest gets the n
 * results in the same type, bit for bit what the three passes give for the
 * same contributions.  For the one-collective form and for the algorithms
 * that have every contribution of an element in hand at once (`direct`).
 * dest may be one of the sources: each part is read whole before it is
 * written. */
void mca_coll_rsag_exact_fold(const void *const *src, size_t terms, bool is_float, size_t n,
                              void *dest);

#endif /* MCA_COLL_RSAG_EXACT_KERNELS_H */
