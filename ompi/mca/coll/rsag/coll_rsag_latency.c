/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The latency path; see coll_rsag_latency.h.
 *
 * Idea: a small call on one node spends more time deciding, building and
 *       freeing its schedule than moving its bytes; the decision and the
 *       description of a call of the same shape are the same every time,
 *       so they are made once and kept.
 *
 *   first call of a shape   describe, select (direct), prepare, run
 *   every later call        same shape and settings? -> run the prepared call:
 *      rank q:  box[q][t % 2] = x_q, stamp t    (one cache line up to 56 B)
 *               wait box[j][t % 2] stamped t, every j
 *               result = ((x_0 op x_1) op x_2) ... in rank order
 *
 * Cost (p ranks, n <= mca_coll_rsag_box_max(p)): alpha_line (my box to the
 *       other cores) + (p - 1) line misses, overlapped + (p - 1) n gamma;
 *       no handshake at the end: before box t % 2 is written again at tick
 *       t + 2 every peer's stamp of t + 1 says it finished reading it.
 * Restrictions: what `direct`'s one-box form needs (one node, segment
 *       made, contiguous datatype, segment path, not CMA), blocking calls;
 *       the op and datatype are retained while remembered.
 * Memory: per communicator, once a call took the path, one table of
 *       entries (MCA_COLL_RSAG_LATENCY_SHAPES per form and collective, the
 *       oldest replaced); per shape remembered, one block of the state, the
 *       layout and three box-sized temporaries (about 13 KB at p = 2); for
 *       MPI_I*, up to MCA_COLL_RSAG_POOL_SIZE freed requests per shape.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "opal/mca/base/mca_base_pvar.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/util/output.h"
#include "ompi/communicator/communicator.h"
#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

#include "coll_rsag_direct.h"
#include "coll_rsag_index.h"
#include "coll_rsag_latency.h"
#include "coll_rsag_mem.h"
#include "coll_rsag_request.h"
#include "coll_rsag_segment.h"

/* Call shapes remembered per communicator, form and collective (a solver
 * alternating a dot product and a norm of two sizes: two). */
#define MCA_COLL_RSAG_LATENCY_SHAPES 4

/* The settings a decision of one collective read. */
typedef struct mca_coll_rsag_latency_settings_t {
    mca_coll_rsag_tuning_t tuning;
    int class_bounds[MCA_COLL_RSAG_NUM_SIZE_CLASSES - 1];
    size_t max_bytes;
    int verbose;
    int fanin;                                 /* coll_rsag_direct_fanin */
    int reproducible;                          /* the call's mode (placement: flat) */
    bool oversubscribed;                       /* the oversubscribed node's column */
} mca_coll_rsag_latency_settings_t;

/* One remembered shape: a call of it described once (blocking: the call
 * that runs; MPI_I*: what the kept requests are compared with), the
 * decision and the settings it was made under, and for MPI_I* the freed
 * requests of the shape.  Free while d is NULL. */
typedef struct mca_coll_rsag_latency_entry_t {
    mca_coll_rsag_direct_t *d;
    int alg;                                   /* the direct row's id */
    struct ompi_datatype_t *dtype;             /* retained while d is set */
    struct ompi_op_t *op;                      /* retained while d is set */
    mca_coll_rsag_latency_settings_t settings;
    mca_coll_rsag_request_pool_t pool;
} mca_coll_rsag_latency_entry_t;

enum { MCA_COLL_RSAG_LATENCY_BLOCKING, MCA_COLL_RSAG_LATENCY_NONBLOCKING,
       MCA_COLL_RSAG_LATENCY_FORMS };

/* A module's table, made by the first call that takes the path; its
 * entries are reused in place, never freed before the module (a request in
 * flight points at its entry's pool). */
struct mca_coll_rsag_latency_t {
    mca_coll_rsag_latency_entry_t entry[MCA_COLL_RSAG_LATENCY_FORMS][MCA_COLL_RSAG_NUM_COLLS]
                                       [MCA_COLL_RSAG_LATENCY_SHAPES];
    unsigned char next[MCA_COLL_RSAG_LATENCY_FORMS][MCA_COLL_RSAG_NUM_COLLS];
};

static struct {
    size_t max_bytes;                          /* coll_rsag_latency_max_bytes */
    unsigned long long calls;                  /* coll_rsag_latency_calls (MPI_T) */
} mca_coll_rsag_latency = { .max_bytes = MCA_COLL_RSAG_BOX_BYTES };

void mca_coll_rsag_latency_register(const mca_base_component_t *c)
{
    (void) mca_base_component_var_register(
        c, "latency_max_bytes",
        "Blocking reductions of up to this many bytes that rsag runs with direct on a "
        "one-node communicator take the latency path: the decision and the call's "
        "description are made at the first call of a shape (count, datatype, op, root, in "
        "place) and kept, and each later call of that shape only moves its data through one "
        "box of the node's segment. 0: off. At most " MCA_COLL_RSAG_STRINGIFY(
            MCA_COLL_RSAG_BOX_BYTES) " (one box, the default); on communicators of 3 or more "
        "ranks a box carries " MCA_COLL_RSAG_STRINGIFY(MCA_COLL_RSAG_BOX_SHARED_BYTES)
        " bytes at most, larger calls take the usual way",
        MCA_BASE_VAR_TYPE_SIZE_T, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_5,
        MCA_BASE_VAR_SCOPE_LOCAL, &mca_coll_rsag_latency.max_bytes);
    (void) mca_base_component_pvar_register(
        c, "latency_calls",
        "Blocking reductions rsag ran through the latency path: a call of a shape it "
        "remembered, run with no decision and no schedule (the first call of a shape, "
        "decided, is not counted here); they count in their collective's direct counter too",
        OPAL_INFO_LVL_4, MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
        NULL, MCA_BASE_VAR_BIND_NO_OBJECT,
        MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS, NULL, NULL, NULL,
        &mca_coll_rsag_latency.calls);
}

/* The settings of collective `coll`'s decisions as they are now. */
static void mca_coll_rsag_latency_settings(mca_coll_rsag_latency_settings_t *st,
                                           mca_coll_rsag_coll_t coll,
                                           const mca_coll_rsag_args_t *a)
{
    memset(st, 0, sizeof(*st));     /* padding too: compared with memcmp */
    st->tuning = mca_coll_rsag_component.tuning[coll];
    memcpy(st->class_bounds, mca_coll_rsag_component.class_bounds, sizeof(st->class_bounds));
    st->max_bytes = mca_coll_rsag_latency.max_bytes;
    st->verbose = mca_coll_rsag_component.verbose;
    st->fanin = mca_coll_rsag_node_params.fanin;
    st->reproducible = a->reproducible;
    st->oversubscribed = mca_coll_rsag_node_oversubscribed();
}

/* The settings the decision of collective `coll` read are still `st`, and
 * the call `a` asks for the same reproducibility (placement runs `direct`
 * flat, never up the boxed tree). */
static bool mca_coll_rsag_latency_same_settings(const mca_coll_rsag_latency_settings_t *st,
                                                mca_coll_rsag_coll_t coll,
                                                const mca_coll_rsag_args_t *a)
{
    return st->max_bytes == mca_coll_rsag_latency.max_bytes
           && st->reproducible == a->reproducible
           && st->verbose == mca_coll_rsag_component.verbose
           && st->fanin == mca_coll_rsag_node_params.fanin
           && st->oversubscribed == mca_coll_rsag_node_oversubscribed()
           && 0 == memcmp(&st->tuning, &mca_coll_rsag_component.tuning[coll], sizeof(st->tuning))
           && 0 == memcmp(st->class_bounds, mca_coll_rsag_component.class_bounds,
                          sizeof(st->class_bounds));
}

/* The call is small enough for the latency path (p >= 2, within
 * coll_rsag_latency_max_bytes). */
static bool mca_coll_rsag_latency_small(const mca_coll_rsag_module_t *m,
                                        const mca_coll_rsag_args_t *a, size_t *bytes)
{
    size_t type_size;

    ompi_datatype_type_size(a->dtype, &type_size);
    *bytes = a->count * type_size;
    return NULL != m->segment && a->size >= 2 && a->count > 0
           && *bytes <= mca_coll_rsag_latency.max_bytes;
}

/* ---- the table ------------------------------------------------------------ */

/* The entry of form f and collective coll that holds a's shape, or NULL. */
static mca_coll_rsag_latency_entry_t *mca_coll_rsag_latency_find(
    mca_coll_rsag_module_t *m, int f, mca_coll_rsag_coll_t coll, const mca_coll_rsag_args_t *a)
{
    if (NULL == m->latency) {
        return NULL;
    }
    for (int i = 0; i < MCA_COLL_RSAG_LATENCY_SHAPES; ++i) {
        mca_coll_rsag_latency_entry_t *e = &m->latency->entry[f][coll][i];
        if (NULL != e->d && mca_coll_rsag_direct_serves(e->d, a)) {
            return e;
        }
    }
    return NULL;
}

/* Forget what e remembers (its kept requests too: one still in flight
 * comes back later, and goes when taken). */
static void mca_coll_rsag_latency_clear(mca_coll_rsag_latency_entry_t *e)
{
    mca_coll_rsag_request_pool_drain(&e->pool);
    if (NULL != e->d) {
        mca_coll_rsag_direct_free(e->d);
        OBJ_RELEASE(e->dtype);
        OBJ_RELEASE(e->op);
        e->d = NULL;
    }
}

/* The entry for a's shape: its own, else a free one, else the next in
 * turn, cleared; NULL when the table cannot be made. */
static mca_coll_rsag_latency_entry_t *mca_coll_rsag_latency_slot(
    mca_coll_rsag_module_t *m, int f, mca_coll_rsag_coll_t coll, const mca_coll_rsag_args_t *a)
{
    mca_coll_rsag_latency_entry_t *e = mca_coll_rsag_latency_find(m, f, coll, a);

    if (NULL != e) {
        return e;
    }
    if (NULL == m->latency && NULL == (m->latency = calloc(1, sizeof(*m->latency)))) {
        return NULL;
    }
    for (int i = 0; i < MCA_COLL_RSAG_LATENCY_SHAPES; ++i) {
        e = &m->latency->entry[f][coll][i];
        if (NULL == e->d) {
            return e;
        }
    }
    e = &m->latency->entry[f][coll][m->latency->next[f][coll]++ % MCA_COLL_RSAG_LATENCY_SHAPES];
    mca_coll_rsag_latency_clear(e);
    return e;
}

/* Remember in the free entry e the call a (layout: its RANKS layout),
 * decided as `alg`; `counted`: its memory is a memory request of the
 * call's (coll_rsag_mem.h).  OMPI_SUCCESS, also when the call is not of
 * one box (then e stays free), or OMPI_ERR_OUT_OF_RESOURCE. */
static int mca_coll_rsag_latency_set(mca_coll_rsag_latency_entry_t *e,
                                     mca_coll_rsag_coll_t coll, int alg,
                                     const mca_coll_rsag_args_t *a, const size_t *layout,
                                     bool counted)
{
    int err;

    e->d = mca_coll_rsag_direct_prepare(a, layout, mca_coll_rsag_direct_kind(coll), counted,
                                        &err);
    if (NULL == e->d) {
        return err;
    }
    e->alg = alg;
    e->dtype = a->dtype;
    e->op = a->op;
    OBJ_RETAIN(e->dtype);
    OBJ_RETAIN(e->op);
    mca_coll_rsag_latency_settings(&e->settings, coll, a);
    return OMPI_SUCCESS;
}

/* A call that skipped its decision: count it where the decision would
 * have. */
static void mca_coll_rsag_latency_count(const mca_coll_rsag_latency_entry_t *e,
                                        mca_coll_rsag_coll_t coll)
{
    mca_coll_rsag_count(&mca_coll_rsag_component.calls[coll][e->alg], 1ULL);
    mca_coll_rsag_count(&mca_coll_rsag_latency.calls, 1ULL);
}

/* ---- blocking calls -------------------------------------------------------- */

bool mca_coll_rsag_latency_try(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                               mca_coll_rsag_args_t *a, int *err)
{
    mca_coll_rsag_latency_entry_t *e =
        mca_coll_rsag_latency_find(m, MCA_COLL_RSAG_LATENCY_BLOCKING, coll, a);

    if (NULL == e || !mca_coll_rsag_latency_same_settings(&e->settings, coll, a)) {
        return false;
    }
    mca_coll_rsag_latency_count(e, coll);
    mca_coll_rsag_call_begin(NULL);     /* no temporaries: the peak is 0 */
    *err = mca_coll_rsag_call_end(mca_coll_rsag_direct_run(e->d, a));
    return true;
}

bool mca_coll_rsag_latency_remember(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                                    int alg, mca_coll_rsag_args_t *a, int *err)
{
    mca_coll_rsag_latency_entry_t *e;
    size_t *even = NULL;
    size_t bytes;
    int rc;

    if (!mca_coll_rsag_latency_small(m, a, &bytes)
        || NULL == (e = mca_coll_rsag_latency_slot(m, MCA_COLL_RSAG_LATENCY_BLOCKING, coll, a))) {
        return false;
    }
    mca_coll_rsag_latency_clear(e);     /* this shape's, under other settings */
    if (NULL == a->displ && NULL == (even = malloc(((size_t) a->size + 1) * sizeof(size_t)))) {
        return false;
    }
    if (NULL != even) {
        mca_coll_rsag_displs_even(a->count, a->size, even);
    }
    a->segment = m->segment;
    rc = mca_coll_rsag_latency_set(e, coll, alg, a, NULL != even ? even : a->displ, true);
    free(even);
    if (OMPI_SUCCESS != rc) {
        *err = rc;                      /* out of memory: the call fails, as the usual way */
        return true;
    }
    if (NULL == e->d) {
        return false;                   /* not one box: the usual way */
    }
    if (mca_coll_rsag_component.verbose >= MCA_COLL_RSAG_VERBOSE_DECISIONS && 0 == a->rank) {
        opal_output(mca_coll_rsag_component.output,
                    "coll:rsag: %s on %s (cid %d, size %d): %zu-byte calls of this shape take "
                    "the latency path", mca_coll_rsag_colls[coll].name, a->comm->c_name,
                    MCA_COLL_RSAG_COMM_CID(a->comm), a->size, bytes);
    }
    *err = mca_coll_rsag_direct_run(e->d, a);    /* decided: not counted */
    return true;
}

/* ---- nonblocking calls: their requests kept for reuse -------------------- */

bool mca_coll_rsag_latency_try_request(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                                       mca_coll_rsag_args_t *a, ompi_request_t **request)
{
    mca_coll_rsag_latency_entry_t *e =
        mca_coll_rsag_latency_find(m, MCA_COLL_RSAG_LATENCY_NONBLOCKING, coll, a);
    mca_coll_rsag_request_t *r;
    mca_coll_rsag_direct_t *d;

    if (NULL == e || !mca_coll_rsag_latency_same_settings(&e->settings, coll, a)
        || NULL == (r = mca_coll_rsag_request_pool_take(&e->pool, a->comm))) {
        return false;
    }
    d = mca_coll_rsag_direct_one_box(&r->sched);
    if (NULL == d || !mca_coll_rsag_direct_serves(d, a)) {
        /* kept before the shape changed: not this call's */
        r->pool = NULL;
        mca_coll_rsag_request_release(r);
        return false;
    }
    mca_coll_rsag_latency_count(e, coll);
    mca_coll_rsag_direct_rebind(d, a);
    r->tag = mca_coll_rsag_request_tag(m);
    *request = &r->super.super;
    (void) mca_coll_rsag_request_start_nonblocking(r);
    return true;
}

void mca_coll_rsag_latency_adopt(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll, int alg,
                                 mca_coll_rsag_args_t *a, mca_coll_rsag_request_t *r)
{
    mca_coll_rsag_latency_entry_t *e;
    size_t bytes;

    if (!mca_coll_rsag_latency_small(m, a, &bytes) || NULL == a->displ
        || NULL == mca_coll_rsag_direct_one_box(&r->sched)
        || !ompi_op_is_intrinsic(a->op) || !ompi_datatype_is_predefined(a->dtype)) {
        /* only requests Open MPI's MPI layer leaves alone: it takes over
         * the completion and the free of one whose op or datatype is the
         * user's */
        return;
    }
    e = mca_coll_rsag_latency_slot(m, MCA_COLL_RSAG_LATENCY_NONBLOCKING, coll, a);
    if (NULL == e) {
        return;
    }
    if (NULL == e->d || !mca_coll_rsag_latency_same_settings(&e->settings, coll, a)) {
        /* a new shape, or new settings; not a memory request of the call's
         * (the call succeeds without it: the request is just not kept) */
        mca_coll_rsag_latency_clear(e);
        if (OMPI_SUCCESS != mca_coll_rsag_latency_set(e, coll, alg, a, a->displ, false)
            || NULL == e->d) {
            return;
        }
    }
    r->pool = &e->pool;
}

void mca_coll_rsag_latency_forget(mca_coll_rsag_module_t *m)
{
    if (NULL == m->latency) {
        return;
    }
    for (int f = 0; f < MCA_COLL_RSAG_LATENCY_FORMS; ++f) {
        for (int c = 0; c < MCA_COLL_RSAG_NUM_COLLS; ++c) {
            for (int i = 0; i < MCA_COLL_RSAG_LATENCY_SHAPES; ++i) {
                mca_coll_rsag_latency_clear(&m->latency->entry[f][c][i]);
            }
        }
    }
    free(m->latency);
    m->latency = NULL;
}
