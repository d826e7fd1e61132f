/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * coll_rsag_reproducible = exact: the driver; see coll_rsag_exact.h.
 *
 * In this file: which calls it takes; the plan of a call (its blocks, its
 * buffers, carved from one temporary); the local steps; the inner
 * collectives, blocking and nested; the blocking run; the request.
 *
 * Blocks.  Allreduce and reduce have one block, the whole vector; the
 * reduce-scatters p, MPI's (displ, in the user's elements).  A complex
 * element is two reals (c = 2), so block b is reals [c displ_b, c
 * displ_(b+1)).  The gather array holds, for each block, the p ranks'
 * contributions to it one after the other: block b's region starts at p c
 * displ_b and rank r's slot in it at p c displ_b + r n_b (n_b its reals),
 * so a reduce-scatter with blocks p c displ hands rank b every contribution
 * to its block.  Pass 2's vector has two doubles per real, so its blocks
 * are 2 c displ.
 */
#include "ompi_config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

#include "coll_rsag_mem.h"
#include "coll_rsag_reproducible.h"
#include "coll_rsag_exact.h"
#include "coll_rsag_exact_kernels.h"
#include "coll_rsag_request.h"

size_t mca_coll_rsag_exact_gather_max_bytes = 512;

void mca_coll_rsag_exact_register(const mca_base_component_t *c)
{
    (void) mca_base_component_var_register(
        c, "exact_gather_max_bytes",
        "coll_rsag_reproducible exact: a call whose p x (reals of the vector) x 8 bytes is "
        "at most this runs as one collective (every contribution delivered by a sum with "
        "zeros, the result computed locally) instead of two (doc/reproducible.md); 0: "
        "always two. The same bits either way",
        MCA_BASE_VAR_TYPE_SIZE_T, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_5,
        MCA_BASE_VAR_SCOPE_ALL_EQ, &mca_coll_rsag_exact_gather_max_bytes);
}

/* ---- which calls ------------------------------------------------------- */

bool mca_coll_rsag_exact_kind(struct ompi_datatype_t *dt, struct ompi_op_t *op,
                                     bool *is_float, int *ncomp)
{
    size_t size = 0;

    if (MPI_SUM != op) {
        return false;
    }
    (void) ompi_datatype_type_size(dt, &size);
    if (MPI_FLOAT == dt || (MPI_REAL == dt && 4 == size)) {
        *is_float = true, *ncomp = 1;
    } else if (MPI_DOUBLE == dt || (MPI_DOUBLE_PRECISION == dt && 8 == size)) {
        *is_float = false, *ncomp = 1;
    } else if (MPI_C_FLOAT_COMPLEX == dt || (MPI_COMPLEX == dt && 8 == size)) {
        *is_float = true, *ncomp = 2;
    } else if (MPI_C_DOUBLE_COMPLEX == dt || (MPI_DOUBLE_COMPLEX == dt && 16 == size)) {
        *is_float = false, *ncomp = 2;
    } else {
        return false;
    }
    return true;
}

/* Say once per process and collective (rank 0 of the call's communicator)
 * what exact did with a call. */
static void mca_coll_rsag_exact_trace(mca_coll_rsag_coll_t coll, const mca_coll_rsag_args_t *a,
                                      unsigned what, const char *text)
{
    static unsigned reported[MCA_COLL_RSAG_NUM_COLLS];

    if (mca_coll_rsag_component.verbose < MCA_COLL_RSAG_VERBOSE_DECISIONS || 0 != a->rank
        || (__atomic_fetch_or(&reported[coll], 1u << what, __ATOMIC_RELAXED) & (1u << what))) {
        return;
    }
    opal_output(mca_coll_rsag_component.output,
                "coll:rsag: %s on %s (cid %d, size %d): coll_rsag_reproducible exact: %s",
                mca_coll_rsag_colls[coll].name, a->comm->c_name, MCA_COLL_RSAG_COMM_CID(a->comm),
                a->size, text);
}

/* ---- the plan of a call ------------------------------------------------- */

enum { MCA_COLL_RSAG_EXACT_FILL, MCA_COLL_RSAG_EXACT_EXTRACT, MCA_COLL_RSAG_EXACT_FINISH,
       MCA_COLL_RSAG_EXACT_NSTAGES };

struct mca_coll_rsag_exact_plan_t;
/* a local step of a request: the plan and what to do */
typedef struct mca_coll_rsag_exact_stage_t {
    struct mca_coll_rsag_exact_plan_t *plan;
    int what;
} mca_coll_rsag_exact_stage_t;

typedef struct mca_coll_rsag_exact_plan_t {
    mca_coll_rsag_coll_t coll;
    bool is_float, gather, output;  /* output: this rank receives a result */
    int ncomp, p, rank, nblocks;
    size_t realsize;                /* bytes of one real: 4 or 8 */
    size_t R;                       /* reals of the whole vector */
    size_t mine0, mine_n;           /* the reals of this rank's result */
    const char *input;
    char *rbuf;
    size_t *displ;                  /* [nblocks + 1]: block offsets, user elements */
    size_t *idispl;                 /* [p + 1]: the inner reduce-scatter's, or NULL */
    mca_coll_rsag_exact_inner_fn_t run;     /* the dispatcher's entry for inner calls */
    double *x, *q, *S, *g, *h;
    const void **terms;             /* gather: the p contributions to my block in h */
    int16_t *e, *E;
    mca_coll_rsag_exact_stage_t stages[MCA_COLL_RSAG_EXACT_NSTAGES];
} mca_coll_rsag_exact_plan_t;

#define MCA_COLL_RSAG_EXACT_ALIGN(b) (((b) + 15) & ~(size_t) 15)

/* Bytes of the plan and its buffers (layout: mca_coll_rsag_exact_carve). */
static size_t mca_coll_rsag_exact_bytes(const mca_coll_rsag_exact_plan_t *pl)
{
    size_t b = MCA_COLL_RSAG_EXACT_ALIGN(sizeof(*pl))
               + 2 * MCA_COLL_RSAG_EXACT_ALIGN(((size_t) pl->p + 1) * sizeof(size_t));

    if (pl->gather) {
        return b + 2 * MCA_COLL_RSAG_EXACT_ALIGN((size_t) pl->p * pl->R * sizeof(double))
               + MCA_COLL_RSAG_EXACT_ALIGN(pl->R * sizeof(double))
               + MCA_COLL_RSAG_EXACT_ALIGN((size_t) pl->p * sizeof(void *));
    }
    return b + MCA_COLL_RSAG_EXACT_ALIGN(pl->R * sizeof(double))
           + 2 * MCA_COLL_RSAG_EXACT_ALIGN(pl->R * sizeof(int16_t))
           + 2 * MCA_COLL_RSAG_EXACT_ALIGN(2 * pl->R * sizeof(double));
}

/* Lay the plan and its buffers out in `mem` (mca_coll_rsag_exact_bytes of it). */
static mca_coll_rsag_exact_plan_t *mca_coll_rsag_exact_carve(const mca_coll_rsag_exact_plan_t *pl,
                                                             char *mem)
{
    mca_coll_rsag_exact_plan_t *out = (mca_coll_rsag_exact_plan_t *) mem;
    char *at = mem + MCA_COLL_RSAG_EXACT_ALIGN(sizeof(*pl));
#define MCA_COLL_RSAG_EXACT_TAKE(ptr, type, n)                                     \
    (ptr) = (type *) at;                                                           \
    at += MCA_COLL_RSAG_EXACT_ALIGN((n) * sizeof(type))

    *out = *pl;
    MCA_COLL_RSAG_EXACT_TAKE(out->displ, size_t, (size_t) pl->p + 1);
    MCA_COLL_RSAG_EXACT_TAKE(out->idispl, size_t, (size_t) pl->p + 1);
    if (pl->gather) {
        MCA_COLL_RSAG_EXACT_TAKE(out->g, double, (size_t) pl->p * pl->R);
        MCA_COLL_RSAG_EXACT_TAKE(out->h, double, (size_t) pl->p * pl->R);
        MCA_COLL_RSAG_EXACT_TAKE(out->x, double, pl->R);
        MCA_COLL_RSAG_EXACT_TAKE(out->terms, const void *, (size_t) pl->p);
    } else {
        MCA_COLL_RSAG_EXACT_TAKE(out->x, double, pl->R);
        MCA_COLL_RSAG_EXACT_TAKE(out->e, int16_t, pl->R);
        MCA_COLL_RSAG_EXACT_TAKE(out->E, int16_t, pl->R);
        MCA_COLL_RSAG_EXACT_TAKE(out->q, double, 2 * pl->R);
        MCA_COLL_RSAG_EXACT_TAKE(out->S, double, 2 * pl->R);
    }
#undef MCA_COLL_RSAG_EXACT_TAKE
    for (int k = 0; k < MCA_COLL_RSAG_EXACT_NSTAGES; ++k) {
        out->stages[k] = (mca_coll_rsag_exact_stage_t) { out, k };
    }
    return out;
}

/* The blocks: the whole vector, or MPI's blocks of a reduce-scatter; the
 * inner reduce-scatter's blocks in doubles (`per`: doubles per element). */
static void mca_coll_rsag_exact_blocks(mca_coll_rsag_exact_plan_t *pl, const size_t *displ,
                                       size_t count)
{
    size_t per = (size_t) pl->ncomp * (pl->gather ? (size_t) pl->p : 2);

    if (1 == pl->nblocks) {
        pl->displ[0] = 0;
        pl->displ[1] = count;
        return;
    }
    for (int b = 0; b <= pl->p; ++b) {
        pl->displ[b] = (NULL != displ) ? displ[b] : count / (size_t) pl->p * (size_t) b;
        pl->idispl[b] = per * pl->displ[b];
    }
}

/* Whether exact takes the call a: MPI_SUM of one of its types (*is_float,
 * *ncomp), at most 2^16 processes, a count its inner collectives can
 * carry as int. */
static bool mca_coll_rsag_exact_handles(const mca_coll_rsag_args_t *a, bool *is_float,
                                        int *ncomp)
{
    return mca_coll_rsag_exact_kind(a->dtype, a->op, is_float, ncomp)
           && a->size <= MCA_COLL_RSAG_EXACT_MAX_TERMS
           && a->count <= (size_t) INT32_MAX / 4 / (size_t) *ncomp;
}

/* Fill the plan of a call (without its buffers); false when exact cannot
 * take it.  MPI_Reduce_scatter's blocks (a->displ) are the module's
 * layout cache, which the inner calls overwrite: they are copied into the
 * plan (mca_coll_rsag_exact_blocks) before any inner call. */
static bool mca_coll_rsag_exact_describe(mca_coll_rsag_exact_plan_t *pl,
                                         mca_coll_rsag_coll_t coll,
                                         const mca_coll_rsag_args_t *a)
{
    bool rs = (MCA_COLL_RSAG_REDUCE_SCATTER == coll || MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK == coll);

    memset(pl, 0, sizeof(*pl));
    if (!mca_coll_rsag_exact_handles(a, &pl->is_float, &pl->ncomp)) {
        return false;
    }
    pl->coll = coll;
    pl->p = a->size;
    pl->rank = a->rank;
    pl->nblocks = rs ? a->size : 1;
    pl->realsize = pl->is_float ? sizeof(float) : sizeof(double);
    pl->R = a->count * (size_t) pl->ncomp;
    pl->gather = (size_t) pl->p * pl->R * sizeof(double) <= mca_coll_rsag_exact_gather_max_bytes;
    pl->input = a->input;
    pl->rbuf = a->rbuf;
    pl->output = (MCA_COLL_RSAG_REDUCE != coll || a->rank == a->root);
    return true;
}

/* ---- the local steps ---------------------------------------------------- */

/* Doubles the kernels may read or write where they are (no copy through
 * pl->x): the user's buffer holds doubles, aligned as doubles. */
static bool mca_coll_rsag_exact_direct(const mca_coll_rsag_exact_plan_t *pl, const void *buf)
{
    return !pl->is_float && 0 == ((uintptr_t) buf % _Alignof(double));
}

static void mca_coll_rsag_exact_local(mca_coll_rsag_exact_plan_t *pl, int what)
{
    size_t c = (size_t) pl->ncomp;
    const double *x = mca_coll_rsag_exact_direct(pl, pl->input) ? (const double *) pl->input
                                                                 : pl->x;
    double *out = mca_coll_rsag_exact_direct(pl, pl->rbuf) ? (double *) pl->rbuf : pl->x;

    switch (what) {
    case MCA_COLL_RSAG_EXACT_FILL:
        if (!pl->gather) {
            if (x == pl->x) {
                mca_coll_rsag_exact_load(pl->input, pl->is_float, pl->R, pl->x);
            }
            mca_coll_rsag_exact_fields(x, pl->R, pl->e);
            break;
        }
        memset(pl->g, 0, (size_t) pl->p * pl->R * sizeof(double));
        for (int b = 0; b < pl->nblocks; ++b) {
            size_t first = c * pl->displ[b], n = c * pl->displ[b + 1] - first;

            mca_coll_rsag_exact_load(pl->input + first * pl->realsize, pl->is_float, n,
                                     pl->g + (size_t) pl->p * first + (size_t) pl->rank * n);
        }
        break;
    case MCA_COLL_RSAG_EXACT_EXTRACT:
        mca_coll_rsag_exact_extract(x, pl->E, pl->R, pl->q);
        break;
    default:
        if (!pl->output) {
            break;
        }
        if (pl->gather) {
            /* allreduce, reduce: the whole array; a reduce-scatter: my block's
             * region, the p contributions to it one after the other */
            for (int t = 0; t < pl->p; ++t) {
                pl->terms[t] = pl->h + (size_t) t * pl->mine_n;
            }
            mca_coll_rsag_exact_fold(pl->terms, (size_t) pl->p, false, pl->mine_n, out);
        } else {
            mca_coll_rsag_exact_finish(pl->S, pl->E + pl->mine0, pl->mine_n, out);
        }
        if (out == pl->x) {
            mca_coll_rsag_exact_store(pl->x, pl->is_float, pl->mine_n, pl->rbuf);
        }
        break;
    }
}

/* A local step as a POLL step: the work at its start, complete at once. */
static void mca_coll_rsag_exact_step_start(void *state)
{
    mca_coll_rsag_exact_stage_t *st = state;

    mca_coll_rsag_exact_local(st->plan, st->what);
}

static int mca_coll_rsag_exact_step_poll(void *state, bool wait)
{
    return OMPI_SUCCESS;
}

static void mca_coll_rsag_exact_step_release(void *state)
{
    /* the state is in the plan, a temporary of the schedule */
}

/* ---- the inner collectives ---------------------------------------------- */

static mca_coll_rsag_exact_inner_t mca_coll_rsag_exact_pass(const mca_coll_rsag_exact_plan_t *pl,
                                                           int pass, int root)
{
    mca_coll_rsag_exact_inner_t in = { pl->coll, NULL, NULL, 0, MPI_DOUBLE, MPI_SUM,
                                       MCA_COLL_RSAG_REDUCE == pl->coll ? root : -1,
                                       pl->nblocks > 1 ? pl->idispl : NULL };

    if (1 == pass) {
        in = (mca_coll_rsag_exact_inner_t) { MCA_COLL_RSAG_ALLREDUCE, pl->e, pl->E, pl->R,
                                             MPI_SHORT, MPI_MAX, -1, NULL };
    } else if (pl->gather) {
        in.sbuf = pl->g;
        in.rbuf = pl->h;
        in.count = (size_t) pl->p * pl->R;
    } else {
        in.sbuf = pl->q;
        in.rbuf = pl->S;
        in.count = 2 * pl->R;
    }
    return in;
}

/* The previous module's call, when rsag's thresholds leave an inner
 * blocking call to it. */
static int mca_coll_rsag_exact_previous(mca_coll_rsag_module_t *m,
                                        const mca_coll_rsag_exact_inner_t *in,
                                        struct ompi_communicator_t *comm)
{
    mca_coll_rsag_previous_t *pv = &m->previous;
    int p = ompi_comm_size(comm), err, *counts;

    switch (in->coll) {
    case MCA_COLL_RSAG_ALLREDUCE:
        return NULL == pv->allreduce ? OMPI_ERR_NOT_SUPPORTED
               : pv->allreduce(in->sbuf, in->rbuf, (int) in->count, in->dtype, in->op, comm,
                               pv->allreduce_module);
    case MCA_COLL_RSAG_REDUCE:
        return NULL == pv->reduce ? OMPI_ERR_NOT_SUPPORTED
               : pv->reduce(in->sbuf, in->rbuf, (int) in->count, in->dtype, in->op, in->root,
                            comm, pv->reduce_module);
    case MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK:
        return NULL == pv->reduce_scatter_block ? OMPI_ERR_NOT_SUPPORTED
               : pv->reduce_scatter_block(in->sbuf, in->rbuf, (int) (in->count / (size_t) p),
                                          in->dtype, in->op, comm,
                                          pv->reduce_scatter_block_module);
    default:
        if (NULL == pv->reduce_scatter) {
            return OMPI_ERR_NOT_SUPPORTED;
        }
        counts = mca_coll_rsag_malloc((size_t) p * sizeof(int));
        if (NULL == counts) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        for (int b = 0; b < p; ++b) {
            counts[b] = (int) (in->displ[b + 1] - in->displ[b]);
        }
        err = pv->reduce_scatter(in->sbuf, in->rbuf, counts, in->dtype, in->op, comm,
                                 pv->reduce_scatter_module);
        mca_coll_rsag_free(counts);
        return err;
    }
}

/* Run an inner collective (nested NULL: blocking, now) or build it into
 * `nested` (a request's step). */
static int mca_coll_rsag_exact_inner(mca_coll_rsag_module_t *m, mca_coll_rsag_exact_inner_fn_t run,
                                     const mca_coll_rsag_exact_inner_t *in,
                                     struct ompi_communicator_t *comm, int tag,
                                     mca_coll_rsag_sched_t *nested)
{
    bool delegate = false;
    int err;

    err = run(m, in, comm, tag, nested, &delegate);
    if (OMPI_SUCCESS == err && delegate) {
        err = mca_coll_rsag_exact_previous(m, in, comm);
    }
    return err;
}

/* ---- the blocking run --------------------------------------------------- */

static int mca_coll_rsag_exact_blocking(mca_coll_rsag_module_t *m, mca_coll_rsag_exact_plan_t *pl,
                                        const mca_coll_rsag_args_t *a)
{
    mca_coll_rsag_exact_inner_t in;
    int err;

    mca_coll_rsag_exact_local(pl, MCA_COLL_RSAG_EXACT_FILL);
    if (!pl->gather) {
        in = mca_coll_rsag_exact_pass(pl, 1, a->root);
        err = mca_coll_rsag_exact_inner(m, pl->run, &in, a->comm, 0, NULL);
        if (OMPI_SUCCESS != err) {
            return err;
        }
        mca_coll_rsag_exact_local(pl, MCA_COLL_RSAG_EXACT_EXTRACT);
    }
    in = mca_coll_rsag_exact_pass(pl, 2, a->root);
    err = mca_coll_rsag_exact_inner(m, pl->run, &in, a->comm, 0, NULL);
    if (OMPI_SUCCESS == err) {
        mca_coll_rsag_exact_local(pl, MCA_COLL_RSAG_EXACT_FINISH);
    }
    return err;
}

/* ---- the request -------------------------------------------------------- */

static void mca_coll_rsag_exact_local_step(mca_coll_rsag_sched_t *s,
                                           mca_coll_rsag_exact_plan_t *pl, int what)
{
    mca_coll_rsag_poll_t poll = { &pl->stages[what], mca_coll_rsag_exact_step_start,
                                  mca_coll_rsag_exact_step_poll,
                                  mca_coll_rsag_exact_step_release };

    (void) mca_coll_rsag_sched_poll_step(s, &poll);
    mca_coll_rsag_sched_fence(s);
}

/* An inner collective as a nested step, fenced on both sides: every
 * message of one inner collective is posted on every rank before any
 * message of the next one, all on the request's tag; MPI's non-overtaking
 * rule (messages of one sender on one communicator and tag match that
 * receiver's receives in the order posted) and the equal number of
 * messages each pair exchanges in each inner collective then match every
 * message with its own collective's receive. */
static void mca_coll_rsag_exact_nested_step(mca_coll_rsag_module_t *m,
                                            mca_coll_rsag_exact_inner_fn_t run, mca_coll_rsag_sched_t *s,
                                            const mca_coll_rsag_exact_inner_t *in,
                                            struct ompi_communicator_t *comm, int tag)
{
    mca_coll_rsag_sched_t *inner = malloc(sizeof(*inner));

    if (NULL == inner) {
        if (OMPI_SUCCESS == s->err) {
            s->err = OMPI_ERR_OUT_OF_RESOURCE;
        }
        return;
    }
    mca_coll_rsag_sched_init(inner, in->dtype, in->op);
    if (OMPI_SUCCESS == s->err) {
        inner->err = mca_coll_rsag_exact_inner(m, run, in, comm, tag, inner);
    }
    (void) mca_coll_rsag_sched_nested(s, inner, tag);
    mca_coll_rsag_sched_fence(s);
}

static int mca_coll_rsag_exact_request(mca_coll_rsag_module_t *m, mca_coll_rsag_exact_plan_t *pl,
                                       const mca_coll_rsag_args_t *a, bool persistent,
                                       ompi_request_t **request)
{
    int tag = mca_coll_rsag_request_tag(m);
    mca_coll_rsag_request_t *r = mca_coll_rsag_request_new(a->comm, a->dtype, a->op, tag,
                                                           persistent);
    mca_coll_rsag_exact_plan_t *plan;
    mca_coll_rsag_exact_inner_t in;
    mca_coll_rsag_sched_t *s;
    char *mem;
    int err;

    if (NULL == r) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    s = &r->sched;
    s->nonblocking = true;
    mem = mca_coll_rsag_sched_tmp_typed(s, mca_coll_rsag_exact_bytes(pl), MPI_BYTE);
    if (NULL != mem) {
        plan = mca_coll_rsag_exact_carve(pl, mem);
        mca_coll_rsag_exact_blocks(plan, a->displ, a->count);
        mca_coll_rsag_exact_local_step(s, plan, MCA_COLL_RSAG_EXACT_FILL);
        if (!plan->gather) {
            in = mca_coll_rsag_exact_pass(plan, 1, a->root);
            mca_coll_rsag_exact_nested_step(m, plan->run, s, &in, a->comm, tag);
            mca_coll_rsag_exact_local_step(s, plan, MCA_COLL_RSAG_EXACT_EXTRACT);
        }
        in = mca_coll_rsag_exact_pass(plan, 2, a->root);
        mca_coll_rsag_exact_nested_step(m, plan->run, s, &in, a->comm, tag);
        mca_coll_rsag_exact_local_step(s, plan, MCA_COLL_RSAG_EXACT_FINISH);
    }
    err = s->err;
    if (OMPI_SUCCESS != err) {
        mca_coll_rsag_request_release(r);
        return err;
    }
    *request = &r->super.super;
    return persistent ? OMPI_SUCCESS : mca_coll_rsag_request_start_nonblocking(r);
}

/* ---- the entry point ---------------------------------------------------- */

bool mca_coll_rsag_exact_accepts(mca_coll_rsag_coll_t coll, mca_coll_rsag_args_t *a)
{
    bool is_float;
    int ncomp;

    if (mca_coll_rsag_exact_handles(a, &is_float, &ncomp)) {
        return true;
    }
    a->reproducible = MCA_COLL_RSAG_REPRODUCIBLE_PLACEMENT;
    mca_coll_rsag_exact_trace(coll, a, 0, "not MPI_SUM of a floating-point type it "
                              "handles (or p > 65536): placement instead");
    return false;
}

bool mca_coll_rsag_exact_gathers(const mca_coll_rsag_args_t *a)
{
    bool is_float;
    int ncomp;

    return mca_coll_rsag_exact_handles(a, &is_float, &ncomp)
           && (size_t) a->size * a->count * (size_t) ncomp * sizeof(double)
              <= mca_coll_rsag_exact_gather_max_bytes;
}

/* ---- a row's fold (mca_coll_rsag_exact_fold_step) ------------------------ */

typedef struct mca_coll_rsag_exact_fold_t {
    const void **src;           /* [terms]: the slots */
    size_t terms, reals;
    bool is_float;
    void *dest;
} mca_coll_rsag_exact_fold_t;

static void mca_coll_rsag_exact_fold_start(void *state)
{
    mca_coll_rsag_exact_fold_t *f = state;

    mca_coll_rsag_exact_fold(f->src, f->terms, f->is_float, f->reals, f->dest);
}

static int mca_coll_rsag_exact_fold_poll(void *state, bool wait)
{
    return OMPI_SUCCESS;        /* done when started */
}

static void mca_coll_rsag_exact_fold_release(void *state)
{
    mca_coll_rsag_free(state);
}

int mca_coll_rsag_exact_fold_step(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                  const char *base, size_t slot, int nslots, void *dest)
{
    mca_coll_rsag_exact_fold_t *f;
    mca_coll_rsag_poll_t poll = { NULL, mca_coll_rsag_exact_fold_start,
                                  mca_coll_rsag_exact_fold_poll,
                                  mca_coll_rsag_exact_fold_release };
    bool is_float;
    int ncomp;

    if (OMPI_SUCCESS != s->err) {
        return -1;
    }
    if (!mca_coll_rsag_exact_handles(a, &is_float, &ncomp)) {
        s->err = OMPI_ERR_BAD_PARAM;            /* exact mode accepted it: not reached */
        return -1;
    }
    /* one block: the state and the slots' addresses after it */
    f = mca_coll_rsag_malloc(sizeof(*f) + (size_t) nslots * sizeof(*f->src));
    if (NULL == f) {
        s->err = OMPI_ERR_OUT_OF_RESOURCE;
        return -1;
    }
    f->src = (const void **) (f + 1);
    for (int j = 0; j < nslots; ++j) {
        f->src[j] = base + (size_t) j * slot * (size_t) a->extent;
    }
    f->terms = (size_t) nslots;
    f->reals = slot * (size_t) ncomp;
    f->is_float = is_float;
    f->dest = dest;
    poll.state = f;
    mca_coll_rsag_sched_fence(s);               /* every piece is in its slot */
    return mca_coll_rsag_sched_poll_step(s, &poll);     /* it owns f, also on failure */
}

void mca_coll_rsag_exact_note_fold(mca_coll_rsag_coll_t coll, const mca_coll_rsag_args_t *a,
                                   const char *alg)
{
    char text[160];

    if (mca_coll_rsag_component.verbose >= MCA_COLL_RSAG_VERBOSE_DECISIONS && 0 == a->rank) {
        snprintf(text, sizeof(text), "%s folds every element's contributions at once (no "
                 "passes)", alg);
        mca_coll_rsag_exact_trace(coll, a, 3, text);
    }
}

int mca_coll_rsag_exact_run(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                            mca_coll_rsag_args_t *a, bool persistent, ompi_request_t **request,
                            mca_coll_rsag_exact_inner_fn_t inner)
{
    mca_coll_rsag_exact_plan_t desc, *pl;
    mca_coll_rsag_tmp_t tmp = MCA_COLL_RSAG_TMP_INIT;
    int err;

    (void) mca_coll_rsag_exact_describe(&desc, coll, a);   /* accepted: it succeeds */
    desc.run = inner;
    mca_coll_rsag_exact_trace(coll, a, desc.gather ? 1 : 2,
                              desc.gather ? "one collective (gather by sum)"
                                          : "two passes (exponents, then pieces)");
    if (1 == desc.nblocks) {
        desc.mine_n = desc.R;
    } else {
        size_t c = (size_t) desc.ncomp;
        size_t b0 = (NULL != a->displ) ? a->displ[a->rank]
                                       : a->count / (size_t) a->size * (size_t) a->rank;
        size_t b1 = (NULL != a->displ) ? a->displ[a->rank + 1]
                                       : a->count / (size_t) a->size * (size_t) (a->rank + 1);
        desc.mine0 = c * b0;
        desc.mine_n = c * (b1 - b0);
    }
    if (NULL != request) {
        mca_coll_rsag_call_begin(NULL);     /* temporaries: the request's own memory */
        return mca_coll_rsag_call_end(mca_coll_rsag_exact_request(m, &desc, a, persistent,
                                                                  request));
    }
    if (0 == a->count) {
        return OMPI_SUCCESS;            /* nothing to reduce */
    }
    /* blocking: the temporaries come from exact's own scratch area of the
     * module (kept between calls, as the module's `scratch`, within
     * coll_rsag_scratch_max_bytes: no fresh pages at every call); each
     * inner call brackets the module's `scratch` for its own */
    mca_coll_rsag_call_begin(&m->exact_scratch);
    err = mca_coll_rsag_tmp_alloc(&tmp, mca_coll_rsag_exact_bytes(&desc), MPI_BYTE);
    (void) mca_coll_rsag_call_end(OMPI_SUCCESS);
    if (OMPI_SUCCESS == err) {
        pl = mca_coll_rsag_exact_carve(&desc, tmp.buf);
        mca_coll_rsag_exact_blocks(pl, a->displ, a->count);
        err = mca_coll_rsag_exact_blocking(m, pl, a);
    }
    mca_coll_rsag_tmp_free(&tmp);
    return (OMPI_ERR_OUT_OF_RESOURCE == err) ? MPI_ERR_NO_MEM : err;
}
