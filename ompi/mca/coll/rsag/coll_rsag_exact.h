/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * coll_rsag_reproducible = exact (coll_rsag_exact.c; doc/reproducible.md,
 * "exact"): MPI_SUM of MPI_FLOAT, MPI_DOUBLE, their complex types and the
 * Fortran ones, with a result that depends only on the multiset of the
 * contributions.  The dispatcher's two entry points call
 * mca_coll_rsag_exact_try first when a call asks for exact; a call it does
 * not take goes on asking for placement.
 *
 * The arithmetic is pure and lives in coll_rsag_exact_kernels.c; this file
 * runs it around rsag's own collectives (mode off, so the thresholds and
 * a forced coll_rsag_<coll>_algorithm choose them, counted and traced as
 * any call):
 *
 *   gather    p x (the reals of the vector) doubles at most
 *             coll_rsag_exact_gather_max_bytes: every rank writes its
 *             contribution into its slot of a zeroed array, one MPI_SUM
 *             collective of it delivers every contribution exactly, and the
 *             receivers compute the result locally;
 *   two-pass  pass 1, an MPI_MAX allreduce of the exponent fields (int16,
 *             one per real); pass 2, the user's collective, MPI_SUM of the
 *             extracted pieces (two doubles per real, interleaved, so a
 *             reduce-scatter's block b is the pieces of the user's block b).
 *
 * Blocking: those collectives called one after the other.  Nonblocking and
 * persistent: one request whose schedule chains local steps (POLL steps
 * whose start does the work) and the inner collectives, each a nested
 * schedule (mca_coll_rsag_sched_nested), fenced one after the other.
 */
#ifndef MCA_COLL_RSAG_EXACT_H
#define MCA_COLL_RSAG_EXACT_H

#include "coll_rsag.h"

BEGIN_C_DECLS

/* coll_rsag_exact_gather_max_bytes */
extern size_t mca_coll_rsag_exact_gather_max_bytes;
void mca_coll_rsag_exact_register(const mca_base_component_t *c);

/* A call that asks for exact (a->reproducible): when its op and datatype
 * are exact's (and p <= 2^16), run it (request NULL: blocking; else a
 * nonblocking call, or a persistent *_init when `persistent`) and return
 * true with *err; else set a->reproducible to placement, say so once in
 * the verbose trace, and return false. */
/* An inner collective: pass 1 (MPI_MAX of the exponent fields), or the
 * one collective of the gather path / pass 2. */
typedef struct mca_coll_rsag_exact_inner_t {
    mca_coll_rsag_coll_t coll;
    const void *sbuf;
    void *rbuf;
    size_t count;
    struct ompi_datatype_t *dtype;
    struct ompi_op_t *op;
    int root;
    const size_t *displ;        /* its blocks (a reduce-scatter), or NULL */
} mca_coll_rsag_exact_inner_t;

/* The dispatcher's entry for the inner collectives (rsag's selection with
 * the mode off; blocking now when `nested` is NULL, else built into it on
 * `tag`; *delegate when the previous module must take it), handed in by the
 * dispatcher so that this file does not call back up into it by name:
 * mca_coll_rsag_dispatch_inner (coll_rsag_dispatch.h). */
typedef int (*mca_coll_rsag_exact_inner_fn_t)(mca_coll_rsag_module_t *m,
                                              const mca_coll_rsag_exact_inner_t *in,
                                              struct ompi_communicator_t *comm, int tag,
                                              mca_coll_rsag_sched_t *nested, bool *delegate);

bool mca_coll_rsag_exact_try(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                             mca_coll_rsag_args_t *a, bool persistent,
                             ompi_request_t **request, int *err,
                             mca_coll_rsag_exact_inner_fn_t inner);

END_C_DECLS

#endif /* MCA_COLL_RSAG_EXACT_H */
