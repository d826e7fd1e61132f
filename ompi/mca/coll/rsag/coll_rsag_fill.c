/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The slots a coll list leaves empty (coll_rsag_fill.h): the slot
 * functions, generated from one list (collective x form), what module
 * enable fills, the parameter and the counter.
 *
 * A slot describes its call (mca_coll_rsag_fill_args_t), takes a request
 * with the communicator's next nonblocking tag, builds the collective's
 * schedule into it (the intra-, inter- or neighborhood builder) and starts
 * it (nonblocking) or leaves it to MPI_Start (persistent): the requests,
 * the progress and the tags of rsag's own nonblocking reductions.
 */
#include "ompi_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "opal/mca/base/mca_base_pvar.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/util/output.h"
#include "ompi/communicator/communicator.h"
#include "ompi/constants.h"
#include "ompi/mca/coll/base/base.h"

#include "coll_rsag.h"
#include "coll_rsag_fill.h"
#include "coll_rsag_request.h"

bool mca_coll_rsag_fill_empty_slots = true;
static unsigned long long mca_coll_rsag_fill_calls;    /* MPI_T, atomic */

/* ---- describing a call ----------------------------------------------------- */

static void mca_coll_rsag_fill_args_init(mca_coll_rsag_fill_args_t *f,
                                         struct ompi_communicator_t *comm)
{
    memset(f, 0, sizeof(*f));
    f->rank = ompi_comm_rank(comm);
    f->size = ompi_comm_size(comm);
    f->remote_size = OMPI_COMM_IS_INTER(comm) ? ompi_comm_remote_size(comm) : 0;
    f->root = -1;
    f->a.comm = comm;
    f->a.rank = f->rank;
    f->a.size = f->size;
}

/* One side: the whole buffer to every peer, block i at i * count, block i
 * by counts and displacements (elements), by types and byte displacements. */
static void mca_coll_rsag_fill_same(mca_coll_rsag_fill_side_t *d, const void *buf, int count,
                                    struct ompi_datatype_t *type)
{
    *d = (mca_coll_rsag_fill_side_t) { .layout = MCA_COLL_RSAG_FILL_SAME, .buf = (char *) buf,
                                       .count = (size_t) count, .type = type };
}

static void mca_coll_rsag_fill_even(mca_coll_rsag_fill_side_t *d, const void *buf, int count,
                                    struct ompi_datatype_t *type)
{
    *d = (mca_coll_rsag_fill_side_t) { .layout = MCA_COLL_RSAG_FILL_EVEN, .buf = (char *) buf,
                                       .count = (size_t) count, .type = type };
}

static void mca_coll_rsag_fill_v(mca_coll_rsag_fill_side_t *d, const void *buf,
                                 const int *counts, const int *displs,
                                 struct ompi_datatype_t *type)
{
    *d = (mca_coll_rsag_fill_side_t) { .layout = MCA_COLL_RSAG_FILL_V, .buf = (char *) buf,
                                       .counts = counts, .displs = displs, .type = type };
}

static void mca_coll_rsag_fill_w(mca_coll_rsag_fill_side_t *d, const void *buf,
                                 const int *counts, const int *displs,
                                 struct ompi_datatype_t *const *types)
{
    *d = (mca_coll_rsag_fill_side_t) { .layout = MCA_COLL_RSAG_FILL_W, .buf = (char *) buf,
                                       .counts = counts, .displs = displs, .types = types };
}

static void mca_coll_rsag_fill_wa(mca_coll_rsag_fill_side_t *d, const void *buf,
                                  const int *counts, const MPI_Aint *displs,
                                  struct ompi_datatype_t *const *types)
{
    *d = (mca_coll_rsag_fill_side_t) { .layout = MCA_COLL_RSAG_FILL_WA, .buf = (char *) buf,
                                       .counts = counts, .adispls = displs, .types = types };
}

/* A reduction: input (or MPI_IN_PLACE), output, the whole vector. */
static void mca_coll_rsag_fill_red(mca_coll_rsag_fill_args_t *f, const void *sbuf, void *rbuf,
                                   size_t count, struct ompi_datatype_t *dtype,
                                   struct ompi_op_t *op)
{
    f->in_place = (MPI_IN_PLACE == sbuf);
    f->send.buf = (char *) sbuf;
    f->recv.buf = (char *) rbuf;
    f->count = count;
    f->dtype = dtype;
    f->op = op;
}

static size_t mca_coll_rsag_fill_sum(const int *counts, int n)
{
    size_t sum = 0;

    for (int i = 0; i < n; ++i) {
        sum += (size_t) counts[i];
    }
    return sum;
}

/* ---- running it ------------------------------------------------------------ */

/* A persistent collective on an intercommunicator: MPI's layer makes no
 * request of ours on a rank it answers itself (MPI_Reduce_init of 0
 * elements, which a root group's MPI_PROC_NULL ranks may pass), so a count
 * of these calls differs between ranks, and their starts may come in any
 * order, so no one tag serves them all.  But both ends of every message
 * reach the slot: each pair of ranks counts the calls in which it
 * exchanges messages, and a message's tag is its pair's count. */
static int mca_coll_rsag_fill_pair_tags(mca_coll_rsag_module_t *m, mca_coll_rsag_sched_t *s,
                                        int remote_size)
{
    char *used;

    if (NULL == m->pair_calls) {
        m->pair_calls = mca_coll_rsag_malloc((size_t) remote_size * sizeof(*m->pair_calls));
        if (NULL == m->pair_calls) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        memset(m->pair_calls, 0, (size_t) remote_size * sizeof(*m->pair_calls));
    }
    used = calloc((size_t) remote_size, 1);
    if (NULL == used) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (int i = 0; i < s->nsteps; ++i) {
        mca_coll_rsag_step_t *st = &s->steps[i];

        if (MCA_COLL_RSAG_STEP_SEND == st->kind || MCA_COLL_RSAG_STEP_RECV == st->kind) {
            used[st->peer] = 1;
            st->tag = MCA_COLL_RSAG_TAG_FIRST
                      - (int) (m->pair_calls[st->peer] % (unsigned) (MCA_COLL_RSAG_TAG_FIRST
                                                                     - MCA_COLL_RSAG_TAG_LAST + 1));
        }
    }
    for (int q = 0; q < remote_size; ++q) {
        m->pair_calls[q] += (unsigned) used[q];
    }
    free(used);
    return OMPI_SUCCESS;
}

/* Build the call's schedule into a request and start it (a persistent
 * request waits for MPI_Start).  blocking: the caller waits for it at once.
 * A blocking call, and a nonblocking one on an intercommunicator, takes the
 * fixed tag (MCA_COLL_RSAG_TAG_FILL_ORDERED: every message of their
 * schedules is posted at the start); a persistent one on an
 * intercommunicator its pairs' tags (above); the others the communicator's
 * next nonblocking tag (persistent requests may start in any order). */
static int mca_coll_rsag_fill_call(mca_coll_base_module_t *module, mca_coll_rsag_fill_args_t *f,
                                   mca_coll_rsag_fill_build_fn_t build, bool persistent,
                                   bool blocking, ompi_request_t **request)
{
    mca_coll_rsag_module_t *m = (mca_coll_rsag_module_t *) module;
    mca_coll_rsag_request_t *r;
    int err;

    mca_coll_rsag_call_begin(NULL);     /* temporaries: the request's own memory */
    f->a.tag = (blocking || 0 < f->remote_size) ? MCA_COLL_RSAG_TAG_FILL_ORDERED
                                                : mca_coll_rsag_request_tag(m);
    r = mca_coll_rsag_request_new(f->a.comm, f->dtype, f->op, f->a.tag, persistent);
    if (NULL == r) {
        err = OMPI_ERR_OUT_OF_RESOURCE;
    } else {
        r->filled = true;
        r->sched.nonblocking = true;
        err = build(&r->sched, f);
        if (OMPI_SUCCESS == err) {
            err = r->sched.err;
        }
        if (OMPI_SUCCESS == err && persistent && 0 < f->remote_size) {
            err = mca_coll_rsag_fill_pair_tags(m, &r->sched, f->remote_size);
        }
    }
    err = mca_coll_rsag_call_end(err);
    if (OMPI_SUCCESS != err) {
        mca_coll_rsag_request_release(r);
        return err;
    }
    mca_coll_rsag_count(&mca_coll_rsag_fill_calls, 1ULL);
    *request = &r->super.super;
    return persistent ? OMPI_SUCCESS : mca_coll_rsag_request_start_nonblocking(r);
}

/* ---- the slots ------------------------------------------------------------- */

#define MCA_COLL_RSAG_FILL_UNPAREN(...) __VA_ARGS__

/* The collectives: X(name, own, intra builder, inter builder, parameters
 * (each followed by a comma), how `f` is described from them).  own: one
 * of rsag's four reductions (on an intracommunicator, rsag's own slot; the
 * fill is its fallback).  The neighborhood ones: N(name, parameters,
 * describe), the neighbor builder. */
#define MCA_COLL_RSAG_FILL_COLLECTIVES(X)                                                    \
    X(barrier, false, mca_coll_rsag_fill_barrier_intra, mca_coll_rsag_fill_barrier_inter,    \
      (), (void) 0)                                                                          \
    X(bcast, false, mca_coll_rsag_fill_bcast_intra, mca_coll_rsag_fill_bcast_inter,          \
      (void *buf, int count, struct ompi_datatype_t *dtype, int root, ),                     \
      (f.root = root, mca_coll_rsag_fill_same(&f.send, buf, count, dtype),                   \
       mca_coll_rsag_fill_same(&f.recv, buf, count, dtype)))                                 \
    X(gather, false, mca_coll_rsag_fill_gather_intra, mca_coll_rsag_fill_gather_inter,       \
      (const void *sbuf, int scount, struct ompi_datatype_t *stype, void *rbuf, int rcount,  \
       struct ompi_datatype_t *rtype, int root, ),                                           \
      (f.root = root, f.in_place = (MPI_IN_PLACE == sbuf),                                   \
       mca_coll_rsag_fill_same(&f.send, sbuf, scount, stype),                                \
       mca_coll_rsag_fill_even(&f.recv, rbuf, rcount, rtype)))                               \
    X(gatherv, false, mca_coll_rsag_fill_gather_intra, mca_coll_rsag_fill_gather_inter,      \
      (const void *sbuf, int scount, struct ompi_datatype_t *stype, void *rbuf,              \
       const int *rcounts, const int *displs, struct ompi_datatype_t *rtype, int root, ),    \
      (f.root = root, f.in_place = (MPI_IN_PLACE == sbuf),                                   \
       mca_coll_rsag_fill_same(&f.send, sbuf, scount, stype),                                \
       mca_coll_rsag_fill_v(&f.recv, rbuf, rcounts, displs, rtype)))                         \
    X(scatter, false, mca_coll_rsag_fill_scatter_intra, mca_coll_rsag_fill_scatter_inter,    \
      (const void *sbuf, int scount, struct ompi_datatype_t *stype, void *rbuf, int rcount,  \
       struct ompi_datatype_t *rtype, int root, ),                                           \
      (f.root = root, f.in_place = (MPI_IN_PLACE == rbuf),                                   \
       mca_coll_rsag_fill_even(&f.send, sbuf, scount, stype),                                \
       mca_coll_rsag_fill_same(&f.recv, rbuf, rcount, rtype)))                               \
    X(scatterv, false, mca_coll_rsag_fill_scatter_intra, mca_coll_rsag_fill_scatter_inter,   \
      (const void *sbuf, const int *scounts, const int *displs,                              \
       struct ompi_datatype_t *stype, void *rbuf, int rcount, struct ompi_datatype_t *rtype, \
       int root, ),                                                                          \
      (f.root = root, f.in_place = (MPI_IN_PLACE == rbuf),                                   \
       mca_coll_rsag_fill_v(&f.send, sbuf, scounts, displs, stype),                          \
       mca_coll_rsag_fill_same(&f.recv, rbuf, rcount, rtype)))                               \
    X(allgather, false, mca_coll_rsag_fill_allgather_intra,                                  \
      mca_coll_rsag_fill_allgather_inter,                                                    \
      (const void *sbuf, int scount, struct ompi_datatype_t *stype, void *rbuf, int rcount,  \
       struct ompi_datatype_t *rtype, ),                                                     \
      (f.in_place = (MPI_IN_PLACE == sbuf),                                                  \
       mca_coll_rsag_fill_same(&f.send, sbuf, scount, stype),                                \
       mca_coll_rsag_fill_even(&f.recv, rbuf, rcount, rtype)))                               \
    X(allgatherv, false, mca_coll_rsag_fill_allgather_intra,                                 \
      mca_coll_rsag_fill_allgather_inter,                                                    \
      (const void *sbuf, int scount, struct ompi_datatype_t *stype, void *rbuf,              \
       const int *rcounts, const int *displs, struct ompi_datatype_t *rtype, ),              \
      (f.in_place = (MPI_IN_PLACE == sbuf),                                                  \
       mca_coll_rsag_fill_same(&f.send, sbuf, scount, stype),                                \
       mca_coll_rsag_fill_v(&f.recv, rbuf, rcounts, displs, rtype)))                         \
    X(alltoall, false, mca_coll_rsag_fill_alltoall_intra, mca_coll_rsag_fill_alltoall_inter, \
      (const void *sbuf, int scount, struct ompi_datatype_t *stype, void *rbuf, int rcount,  \
       struct ompi_datatype_t *rtype, ),                                                     \
      (f.in_place = (MPI_IN_PLACE == sbuf),                                                  \
       mca_coll_rsag_fill_even(&f.send, sbuf, scount, stype),                                \
       mca_coll_rsag_fill_even(&f.recv, rbuf, rcount, rtype)))                               \
    X(alltoallv, false, mca_coll_rsag_fill_alltoall_intra,                                   \
      mca_coll_rsag_fill_alltoall_inter,                                                     \
      (const void *sbuf, const int *scounts, const int *sdispls,                             \
       struct ompi_datatype_t *stype, void *rbuf, const int *rcounts, const int *rdispls,    \
       struct ompi_datatype_t *rtype, ),                                                     \
      (f.in_place = (MPI_IN_PLACE == sbuf),                                                  \
       mca_coll_rsag_fill_v(&f.send, sbuf, scounts, sdispls, stype),                         \
       mca_coll_rsag_fill_v(&f.recv, rbuf, rcounts, rdispls, rtype)))                        \
    X(alltoallw, false, mca_coll_rsag_fill_alltoall_intra,                                   \
      mca_coll_rsag_fill_alltoall_inter,                                                     \
      (const void *sbuf, const int *scounts, const int *sdispls,                             \
       struct ompi_datatype_t *const *stypes, void *rbuf, const int *rcounts,                \
       const int *rdispls, struct ompi_datatype_t *const *rtypes, ),                         \
      (f.in_place = (MPI_IN_PLACE == sbuf),                                                  \
       mca_coll_rsag_fill_w(&f.send, sbuf, scounts, sdispls, stypes),                        \
       mca_coll_rsag_fill_w(&f.recv, rbuf, rcounts, rdispls, rtypes)))                       \
    X(reduce, true, mca_coll_rsag_fill_reduce_intra, mca_coll_rsag_fill_reduce_inter,        \
      (const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,               \
       struct ompi_op_t *op, int root, ),                                                    \
      (f.root = root, mca_coll_rsag_fill_red(&f, sbuf, rbuf, (size_t) count, dtype, op)))    \
    X(allreduce, true, mca_coll_rsag_fill_allreduce_intra,                                   \
      mca_coll_rsag_fill_allreduce_inter,                                                    \
      (const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,               \
       struct ompi_op_t *op, ),                                                              \
      mca_coll_rsag_fill_red(&f, sbuf, rbuf, (size_t) count, dtype, op))                     \
    X(reduce_scatter_block, true, mca_coll_rsag_fill_reduce_scatter_intra,                   \
      mca_coll_rsag_fill_reduce_scatter_inter,                                               \
      (const void *sbuf, void *rbuf, int rcount, struct ompi_datatype_t *dtype,              \
       struct ompi_op_t *op, ),                                                              \
      mca_coll_rsag_fill_red(&f, sbuf, rbuf, (size_t) rcount * (size_t) f.size, dtype, op))  \
    X(reduce_scatter, true, mca_coll_rsag_fill_reduce_scatter_intra,                         \
      mca_coll_rsag_fill_reduce_scatter_inter,                                               \
      (const void *sbuf, void *rbuf, const int *rcounts, struct ompi_datatype_t *dtype,      \
       struct ompi_op_t *op, ),                                                              \
      (f.rcounts = rcounts,                                                                  \
       mca_coll_rsag_fill_red(&f, sbuf, rbuf, mca_coll_rsag_fill_sum(rcounts, f.size),       \
                              dtype, op)))                                                   \
    X(scan, false, mca_coll_rsag_fill_scan_intra, NULL,                                      \
      (const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,               \
       struct ompi_op_t *op, ),                                                              \
      mca_coll_rsag_fill_red(&f, sbuf, rbuf, (size_t) count, dtype, op))                     \
    X(exscan, false, mca_coll_rsag_fill_exscan_intra, NULL,                                  \
      (const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,               \
       struct ompi_op_t *op, ),                                                              \
      mca_coll_rsag_fill_red(&f, sbuf, rbuf, (size_t) count, dtype, op))

#define MCA_COLL_RSAG_FILL_NEIGHBORS(N)                                                      \
    N(allgather,                                                                             \
      (const void *sbuf, int scount, struct ompi_datatype_t *stype, void *rbuf, int rcount,  \
       struct ompi_datatype_t *rtype, ),                                                     \
      (mca_coll_rsag_fill_same(&f.send, sbuf, scount, stype),                                \
       mca_coll_rsag_fill_even(&f.recv, rbuf, rcount, rtype)))                               \
    N(allgatherv,                                                                            \
      (const void *sbuf, int scount, struct ompi_datatype_t *stype, void *rbuf,              \
       const int *rcounts, const int *displs, struct ompi_datatype_t *rtype, ),              \
      (mca_coll_rsag_fill_same(&f.send, sbuf, scount, stype),                                \
       mca_coll_rsag_fill_v(&f.recv, rbuf, rcounts, displs, rtype)))                         \
    N(alltoall,                                                                              \
      (const void *sbuf, int scount, struct ompi_datatype_t *stype, void *rbuf, int rcount,  \
       struct ompi_datatype_t *rtype, ),                                                     \
      (mca_coll_rsag_fill_even(&f.send, sbuf, scount, stype),                                \
       mca_coll_rsag_fill_even(&f.recv, rbuf, rcount, rtype)))                               \
    N(alltoallv,                                                                             \
      (const void *sbuf, const int *scounts, const int *sdispls,                             \
       struct ompi_datatype_t *stype, void *rbuf, const int *rcounts, const int *rdispls,    \
       struct ompi_datatype_t *rtype, ),                                                     \
      (mca_coll_rsag_fill_v(&f.send, sbuf, scounts, sdispls, stype),                         \
       mca_coll_rsag_fill_v(&f.recv, rbuf, rcounts, rdispls, rtype)))                        \
    N(alltoallw,                                                                             \
      (const void *sbuf, const int *scounts, const MPI_Aint *sdispls,                        \
       struct ompi_datatype_t *const *stypes, void *rbuf, const int *rcounts,                \
       const MPI_Aint *rdispls, struct ompi_datatype_t *const *rtypes, ),                    \
      (mca_coll_rsag_fill_wa(&f.send, sbuf, scounts, sdispls, stypes),                       \
       mca_coll_rsag_fill_wa(&f.recv, rbuf, rcounts, rdispls, rtypes)))

/* One slot function.  `build`: the builder for this communicator (an
 * expression of comm; NULL where MPI defines no such call). */
#define MCA_COLL_RSAG_FILL_SLOT(slot, params, describe, build, fparams, persistent)         \
    static int mca_coll_rsag_fill_##slot(MCA_COLL_RSAG_FILL_UNPAREN params                  \
                                         struct ompi_communicator_t *comm,                  \
                                         MCA_COLL_RSAG_FILL_UNPAREN fparams                 \
                                         ompi_request_t **request,                          \
                                         mca_coll_base_module_t *module)                    \
    {                                                                                       \
        mca_coll_rsag_fill_build_fn_t fn = (build);                                         \
        mca_coll_rsag_fill_args_t f;                                                        \
                                                                                            \
        if (NULL == fn) {                                                                   \
            return OMPI_ERR_NOT_SUPPORTED;                                                  \
        }                                                                                   \
        mca_coll_rsag_fill_args_init(&f, comm);                                             \
        (void) (describe);                                                                  \
        return mca_coll_rsag_fill_call(module, &f, fn, persistent, false, request);         \
    }

#define MCA_COLL_RSAG_FILL_BUILD(intra, inter) (OMPI_COMM_IS_INTER(comm) ? (inter) : (intra))
#define MCA_COLL_RSAG_FILL_FORMS(name, own, intra, inter, params, describe)                 \
    MCA_COLL_RSAG_FILL_SLOT(i##name, params, describe,                                      \
                            MCA_COLL_RSAG_FILL_BUILD(intra, inter), (), false)              \
    MCA_COLL_RSAG_FILL_SLOT(name##_init, params, describe,                                  \
                            MCA_COLL_RSAG_FILL_BUILD(intra, inter),                         \
                            (struct ompi_info_t *info, ), true)
#define MCA_COLL_RSAG_FILL_NEIGHBOR_FORMS(name, params, describe)                           \
    MCA_COLL_RSAG_FILL_SLOT(ineighbor_##name, params, describe,                             \
                            MCA_COLL_RSAG_FILL_BUILD(mca_coll_rsag_fill_neighbor, NULL), (),  \
                            false)                                                          \
    MCA_COLL_RSAG_FILL_SLOT(neighbor_##name##_init, params, describe,                       \
                            MCA_COLL_RSAG_FILL_BUILD(mca_coll_rsag_fill_neighbor, NULL),      \
                            (struct ompi_info_t *info, ), true)

MCA_COLL_RSAG_FILL_COLLECTIVES(MCA_COLL_RSAG_FILL_FORMS)

/* The blocking forms, where the component that would take them is not in
 * the list (enable, below): coll/self on a communicator of one process,
 * coll/inter on an intercommunicator.  The nonblocking schedule, then a
 * wait. */
#define MCA_COLL_RSAG_FILL_BLOCKING(name, own, intra, inter, params, describe)              \
    static int mca_coll_rsag_fill_##name(MCA_COLL_RSAG_FILL_UNPAREN params                  \
                                         struct ompi_communicator_t *comm,                  \
                                         mca_coll_base_module_t *module)                    \
    {                                                                                       \
        mca_coll_rsag_fill_build_fn_t fn = MCA_COLL_RSAG_FILL_BUILD(intra, inter);          \
        ompi_request_t *req = MPI_REQUEST_NULL;                                             \
        mca_coll_rsag_fill_args_t f;                                                        \
        int err;                                                                            \
                                                                                            \
        if (NULL == fn) {                                                                   \
            return OMPI_ERR_NOT_SUPPORTED;                                                  \
        }                                                                                   \
        mca_coll_rsag_fill_args_init(&f, comm);                                             \
        (void) (describe);                                                                  \
        err = mca_coll_rsag_fill_call(module, &f, fn, false, true, &req);                   \
        return OMPI_SUCCESS == err ? ompi_request_wait(&req, MPI_STATUS_IGNORE) : err;      \
    }
MCA_COLL_RSAG_FILL_COLLECTIVES(MCA_COLL_RSAG_FILL_BLOCKING)
MCA_COLL_RSAG_FILL_NEIGHBORS(MCA_COLL_RSAG_FILL_NEIGHBOR_FORMS)

/* ---- enable ---------------------------------------------------------------- */

/* Whether the coll component `name` was opened (the coll list keeps it). */
static bool mca_coll_rsag_fill_listed(const char *name)
{
    mca_base_component_list_item_t *cli;

    OPAL_LIST_FOREACH (cli, &ompi_coll_base_framework.framework_components,
                       mca_base_component_list_item_t) {
        if (0 == strcmp(name, cli->cli_component->mca_component_name)) {
            return true;
        }
    }
    return false;
}

/* Whether a builder exists (a function, so that the list's function names
 * are not compared with NULL where the compiler knows the answer). */
static bool mca_coll_rsag_fill_defined(mca_coll_rsag_fill_build_fn_t fn)
{
    return NULL != fn;
}

/* The names of what was filled, for the verbose line. */
typedef struct mca_coll_rsag_fill_report_t {
    char text[1200];
    int n;
} mca_coll_rsag_fill_report_t;

static void mca_coll_rsag_fill_note(mca_coll_rsag_fill_report_t *rep, const char *name)
{
    size_t len = strlen(rep->text);

    if (len + strlen(name) + 2 < sizeof(rep->text)) {
        snprintf(rep->text + len, sizeof(rep->text) - len, "%s%s", 0 == rep->n ? "" : " ",
                 name);
    }
    ++rep->n;
}

void mca_coll_rsag_fill_enable(mca_coll_rsag_module_t *m, struct ompi_communicator_t *comm)
{
    mca_coll_rsag_fill_report_t filled = { "", 0 }, fallback = { "", 0 }, self = { "", 0 };
    bool inter = OMPI_COMM_IS_INTER(comm);
    /* rsag's own reductions are not rsag's here: filled as any slot */
    bool not_own = inter || m->reductions_off;

    if (!mca_coll_rsag_fill_empty_slots) {
        return;
    }
    /* An empty slot of this communicator gets rsag's schedule (not where
     * MPI defines no such call); on an intracommunicator rsag's own four
     * reductions keep their slots and take the schedule as the fallback
     * of what they delegate, when no module held the slot before. */
#define MCA_COLL_RSAG_FILL_SET(slot, defined)                                               \
    if ((defined) && NULL == comm->c_coll->coll_##slot) {                                   \
        m->super.coll_##slot = mca_coll_rsag_fill_##slot;                                   \
        mca_coll_rsag_fill_note(&filled, #slot);                                            \
    }
/* (the list's `own` column picks ONE_true or ONE_false) */
#define MCA_COLL_RSAG_FILL_ONE_false(slot, defined) MCA_COLL_RSAG_FILL_SET(slot, defined)
#define MCA_COLL_RSAG_FILL_ONE_true(slot, defined)                                          \
    if (not_own) {                                                                          \
        MCA_COLL_RSAG_FILL_SET(slot, defined)                                               \
    } else if (NULL == m->previous.slot) {                                                  \
        m->previous.slot = mca_coll_rsag_fill_##slot;                                       \
        m->previous.slot##_module = &m->super;  /* not retained: it is this module */        \
        mca_coll_rsag_fill_note(&fallback, #slot);                                          \
    }
#define MCA_COLL_RSAG_FILL_ENABLE(name, own, intra, inter_fn, params, describe)             \
    MCA_COLL_RSAG_FILL_ONE_##own(i##name, !inter || mca_coll_rsag_fill_defined(inter_fn))   \
    MCA_COLL_RSAG_FILL_ONE_##own(name##_init, !inter || mca_coll_rsag_fill_defined(inter_fn))
#define MCA_COLL_RSAG_FILL_ENABLE_NEIGHBOR(name, params, describe)                          \
    MCA_COLL_RSAG_FILL_SET(ineighbor_##name, !inter)                                        \
    MCA_COLL_RSAG_FILL_SET(neighbor_##name##_init, !inter)
    MCA_COLL_RSAG_FILL_COLLECTIVES(MCA_COLL_RSAG_FILL_ENABLE)
    MCA_COLL_RSAG_FILL_NEIGHBORS(MCA_COLL_RSAG_FILL_ENABLE_NEIGHBOR)
    /* The blocking collectives too where the component that takes them is
     * not in the list: coll/self on one process (basic's MPI_Exscan sends to
     * a rank 1 that such a communicator does not have), coll/inter on an
     * intercommunicator (basic's MPI_Scatter there crashes in 4.1.4): taken
     * whatever holds them now (basic, tuned: lower priorities); rsag's own
     * reductions on an intracommunicator stay rsag's. */
#define MCA_COLL_RSAG_FILL_SELF_false(name, defined)                                        \
    if (defined) {                                                                          \
        m->super.coll_##name = mca_coll_rsag_fill_##name;                                   \
        mca_coll_rsag_fill_note(&self, #name);                                              \
    }
#define MCA_COLL_RSAG_FILL_SELF_true(name, defined)                                         \
    if (not_own) {                                                                          \
        MCA_COLL_RSAG_FILL_SELF_false(name, defined)                                        \
    }
#define MCA_COLL_RSAG_FILL_SELF(name, own, intra, inter_fn, params, describe)               \
    MCA_COLL_RSAG_FILL_SELF_##own(name, !inter || mca_coll_rsag_fill_defined(inter_fn))
    if (inter ? !mca_coll_rsag_fill_listed("inter")
              : (1 == ompi_comm_size(comm) && !mca_coll_rsag_fill_listed("self"))) {
        MCA_COLL_RSAG_FILL_COLLECTIVES(MCA_COLL_RSAG_FILL_SELF)
    }
#undef MCA_COLL_RSAG_FILL_SELF
#undef MCA_COLL_RSAG_FILL_SELF_true
#undef MCA_COLL_RSAG_FILL_SELF_false
#undef MCA_COLL_RSAG_FILL_ENABLE_NEIGHBOR
#undef MCA_COLL_RSAG_FILL_ENABLE
#undef MCA_COLL_RSAG_FILL_ONE_true
#undef MCA_COLL_RSAG_FILL_ONE_false
#undef MCA_COLL_RSAG_FILL_SET

    if (0 < filled.n || 0 < fallback.n || 0 < self.n) {
        opal_output_verbose(MCA_COLL_RSAG_VERBOSE_MODULE, mca_coll_rsag_component.output,
                            "coll:rsag: filled %d empty slots on %s (cid %d, size %d%s): %s%s%s%s%s",
                            filled.n, comm->c_name, MCA_COLL_RSAG_COMM_CID(comm),
                            ompi_comm_size(comm), inter ? ", intercommunicator" : "",
                            0 < filled.n ? filled.text : "none",
                            0 < fallback.n ? "; fallback of " : "", fallback.text,
                            0 < self.n ? (inter ? "; as coll/inter would (not listed): "
                                                 : "; as coll/self would (not listed): ")
                                       : "",
                            self.text);
    }
}

/* ---- registration ---------------------------------------------------------- */

void mca_coll_rsag_fill_register(const mca_base_component_t *c)
{
    (void) mca_base_component_var_register(
        c, "fill_empty_slots",
        "Fill every nonblocking, persistent and neighborhood collective slot that the "
        "selected coll components leave empty on a communicator (intra- and "
        "intercommunicators) with rsag's own simple schedules, so that --mca coll rsag,basic "
        "runs without libnbc, self or inter; also the fallback of rsag's nonblocking and "
        "persistent reductions when no module held them before rsag. false: leave them "
        "empty (Open MPI then refuses a communicator with an empty slot)",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_4, MCA_BASE_VAR_SCOPE_READONLY,
        &mca_coll_rsag_fill_empty_slots);
    (void) mca_base_component_pvar_register(
        c, "fill_calls",
        "Nonblocking and persistent collective calls (MPI_Ibcast, MPI_Bcast_init, ...) that "
        "rsag took in the slots it filled (coll_rsag_fill_empty_slots)",
        OPAL_INFO_LVL_4, MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
        NULL, MCA_BASE_VAR_BIND_NO_OBJECT,
        MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS, NULL, NULL, NULL,
        &mca_coll_rsag_fill_calls);
}
