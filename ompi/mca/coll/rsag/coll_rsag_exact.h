/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * coll_rsag_reproducible = exact (coll_rsag_exact.c; doc/reproducible.md,
 * "exact"): MPI_SUM of MPI_FLOAT, MPI_DOUBLE, their complex types and the
 * Fortran ones, with a result that depends only on the multiset of the
 * contributions.  Three ways, the same bits (the arithmetic is pure and
 * lives in coll_rsag_exact_kernels.c):
 *
 *   fold      a row that has every contribution of an element in hand at
 *             once (MCA_COLL_RSAG_FOLDS_WHOLE: `direct` on one node;
 *             `ordered`, whose owner of a block receives its p pieces)
 *             folds them with exact's sum instead of the op
 *             (mca_coll_rsag_exact_fold, mca_coll_rsag_exact_fold_step):
 *             one collective of the user's bytes, chosen by the selector
 *             wherever `direct` runs, and `ordered` for the calls the
 *             gather below does not take.
 *
 * Elsewhere (small calls off the node path, a row without the property
 * forced) this file runs the call around rsag's own collectives (mode off,
 * so the thresholds and a forced coll_rsag_<coll>_algorithm choose them,
 * counted and traced as any call):
 *
 *   gather    p x (the reals of the vector) doubles at most
 *             coll_rsag_exact_gather_max_bytes: every rank writes its
 *             contribution into its slot of a zeroed array, one MPI_SUM
 *             collective of it delivers every contribution exactly, and the
 *             receivers fold them locally;
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
#include "ompi/request/request.h"

BEGIN_C_DECLS

/* coll_rsag_exact_gather_max_bytes */
extern size_t mca_coll_rsag_exact_gather_max_bytes;
void mca_coll_rsag_exact_register(const mca_base_component_t *c);

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

/* MPI_SUM of one of exact's types: *is_float (float reals, else double)
 * and *ncomp (reals per element: 2 for complex). */
bool mca_coll_rsag_exact_kind(struct ompi_datatype_t *dt, struct ompi_op_t *op, bool *is_float,
                              int *ncomp);

/* A call that asks for exact (a->reproducible): true when exact takes it
 * (its op and datatype are exact's, p <= 2^16); else a->reproducible
 * becomes placement, the verbose trace says so once, and false. */
bool mca_coll_rsag_exact_accepts(mca_coll_rsag_coll_t coll, mca_coll_rsag_args_t *a);

/* A call exact took, run with exact's own collectives: the one-collective
 * form or the two passes (request NULL: blocking; else a nonblocking call,
 * or a persistent *_init when `persistent`).  The dispatcher calls it
 * where no row that folds whole (MCA_COLL_RSAG_FOLDS_WHOLE: `direct` on a
 * node, `ordered` for the calls the one collective does not take) runs
 * the call, or where a row without that property is forced (it then runs
 * the inner collectives). */
int mca_coll_rsag_exact_run(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                            mca_coll_rsag_args_t *a, bool persistent, ompi_request_t **request,
                            mca_coll_rsag_exact_inner_fn_t inner);

/* Whether exact's one collective takes the call `a` (exact handles it, and
 * p x its reals as doubles fit coll_rsag_exact_gather_max_bytes): the
 * selector leaves such a call to it rather than to a fold over the network
 * (`ordered`: p - 1 messages per rank). */
bool mca_coll_rsag_exact_gathers(const mca_coll_rsag_args_t *a);

/* A row that folds whole with the pieces of a block in `nslots` slots of
 * `slot` elements from `base` (slot j: rank j's contribution, one
 * contiguous run of the call's datatype) appends the fold as one step of
 * s: after every step before it (a fence), dest = exact's sum of the slots
 * (dest may be a slot).  Returns the step, or -1 (s->err) when the call is
 * not one exact takes or memory runs out. */
int mca_coll_rsag_exact_fold_step(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                  const char *base, size_t slot, int nslots, void *dest);

/* The verbose trace, once per collective: the call `a` of exact went to
 * row `alg`, which folds every element's contributions at once. */
void mca_coll_rsag_exact_note_fold(mca_coll_rsag_coll_t coll, const mca_coll_rsag_args_t *a,
                                   const char *alg);

END_C_DECLS

#endif /* MCA_COLL_RSAG_EXACT_H */
