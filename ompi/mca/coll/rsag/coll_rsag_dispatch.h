/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The dispatcher (coll_rsag_dispatch.c): what happens between a slot and
 * an algorithm, and the module's state it keeps for that.
 *
 *   describe  what the selector needs to know of the call (sizes, op,
 *             datatype, where the ranks are);
 *   decide    the pure selector (or the last answer for a call of the same
 *             shape), making what the choice needs on first use (the node
 *             segment, the node structure's sub-communicators), the MPI_T
 *             counter, the verbose trace once per size class;
 *   build     the prologue every algorithm shares (one rank: a copy;
 *             nothing to reduce: done; the table row's block layout; the
 *             segment and node structure into `a`), then the algorithm;
 *   run       a blocking call: the module's schedule, built and run; a
 *             nonblocking or persistent call: a request that owns it.
 *
 * The slots (coll_rsag_module.c) call down into this file; nothing here
 * calls them.  coll_rsag_hier.c is below it: `hierarchical` reaches the
 * selection on its sub-communicators through mca_coll_rsag_hier_t.build,
 * which this file sets.
 */
#ifndef MCA_COLL_RSAG_DISPATCH_H
#define MCA_COLL_RSAG_DISPATCH_H

#include "coll_rsag.h"
#include "coll_rsag_reproducible.h"
#include "coll_rsag_exact.h"

BEGIN_C_DECLS

/* The PML tag of each collective's blocking messages. */
static inline int mca_coll_rsag_coll_tag(mca_coll_rsag_coll_t coll)
{
    switch (coll) {
    case MCA_COLL_RSAG_ALLREDUCE:
        return MCA_COLL_BASE_TAG_ALLREDUCE;
    case MCA_COLL_RSAG_REDUCE:
        return MCA_COLL_BASE_TAG_REDUCE;
    default:
        return MCA_COLL_BASE_TAG_REDUCE_SCATTER;
    }
}

/* The description of a call (`count`: elements of the whole vector;
 * `root`: -1 but for MPI_Reduce); MPI_IN_PLACE means the input is in
 * rbuf.  Inline: it is on every call's path. */
static inline int mca_coll_rsag_args(mca_coll_rsag_args_t *a, mca_coll_rsag_coll_t coll,
                                     const void *sbuf, void *rbuf, size_t count,
                                     struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                     int root, struct ompi_communicator_t *comm)
{
    ptrdiff_t lb;

    a->rank = ompi_comm_rank(comm);
    a->size = ompi_comm_size(comm);
    a->input = (MPI_IN_PLACE == sbuf && (root < 0 || a->rank == root)) ? (const char *) rbuf
                                                                        : (const char *) sbuf;
    a->rbuf = (char *) rbuf;
    a->in_place = (a->input == a->rbuf);
    a->count = count;
    a->displ = a->vdispl = NULL;
    a->dtype = dtype;
    ompi_datatype_get_extent(dtype, &lb, &a->extent);
    a->op = op;
    a->root = root;
    a->tag = mca_coll_rsag_coll_tag(coll);
    a->coll = coll;
    a->comm = comm;
    a->segment = NULL;
    a->hier = NULL;
    a->reproducible = mca_coll_rsag_reproducible;
    return OMPI_SUCCESS;
}

/* The description of an MPI_Reduce_scatter: MPI's blocks give its size
 * (their layout is kept in m's layout cache).  MPI_ERR_NO_MEM when that
 * cache cannot be made. */
int mca_coll_rsag_rs_args(mca_coll_rsag_args_t *a, mca_coll_rsag_module_t *m,
                          const void *sbuf, void *rbuf, const int *rcounts,
                          struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                          struct ompi_communicator_t *comm);

/* A blocking call: select, count, report, and run rsag's algorithm;
 * *delegate when the previous module takes the call instead (the slot
 * makes that call: its signature is the slot's). */
int mca_coll_rsag_dispatch(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                           mca_coll_rsag_args_t *a, bool *delegate);

/* A nonblocking (persistent: false) or persistent call: the same selection
 * for a call that cannot wait inside (no sub-communicators made; `direct`
 * once the node's segment exists: a persistent *_init, nonlocal in MPI-4.1,
 * may make it, an MPI_I* call not), the schedule built into
 * a request, started at once (nonblocking) or left inactive for MPI_Start
 * (persistent; `info`: its *_init's, NULL for MPI_I*: `direct` only when
 * the starts are asserted ordered, mpi_assert_strict_persistent_collective_
 * ordering on the info or the communicator).  *delegate as above. */
int mca_coll_rsag_dispatch_request(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                                   mca_coll_rsag_args_t *a, bool persistent,
                                   struct ompi_info_t *info, ompi_request_t **request,
                                   bool *delegate);

/* An inner collective of the exact mode (coll_rsag_exact.c), `in` on
 * `comm`, run with the mode off (mca_coll_rsag_exact_inner_fn_t, handed to
 * mca_coll_rsag_exact_run by the dispatcher): `nested` NULL, a blocking call through
 * mca_coll_rsag_dispatch (*delegate: the previous module's call is the
 * caller's to make); else decided (counted, traced) and built into
 * `nested`, a schedule of its own that a request runs as one step
 * (mca_coll_rsag_sched_nested). */
int mca_coll_rsag_dispatch_inner(mca_coll_rsag_module_t *m, const mca_coll_rsag_exact_inner_t *in,
                                 struct ompi_communicator_t *comm, int tag,
                                 mca_coll_rsag_sched_t *nested, bool *delegate);

END_C_DECLS

#endif /* MCA_COLL_RSAG_DISPATCH_H */
