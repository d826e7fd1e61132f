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
 * Cost (p ranks, n <= MCA_COLL_RSAG_BOX_BYTES): alpha_line (my box to the
 *       other cores) + (p - 1) line misses, overlapped + (p - 1) n gamma;
 *       no handshake at the end: before box t % 2 is written again at tick
 *       t + 2 every peer's stamp of t + 1 says it finished reading it.
 * Restrictions: what `direct`'s one-box form needs (one node, segment
 *       made, contiguous datatype, segment path, not CMA), blocking calls;
 *       the op and datatype are retained while remembered.
 * Memory: per communicator, collective and shape (up to
 *       MCA_COLL_RSAG_LATENCY_SHAPES, the oldest replaced), one block of the
 *       state, the layout and three box-sized temporaries (about 3.5 KB at
 *       p = 2); for MPI_I*, up to MCA_COLL_RSAG_POOL_SIZE freed requests per
 *       shape.
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

/* The settings a decision of one collective read. */
typedef struct mca_coll_rsag_latency_settings_t {
    mca_coll_rsag_tuning_t tuning;
    int class_bounds[MCA_COLL_RSAG_NUM_SIZE_CLASSES - 1];
    size_t max_bytes;
    int verbose;
} mca_coll_rsag_latency_settings_t;

/* One remembered blocking call: the prepared call and what it was decided
 * under. */
struct mca_coll_rsag_remembered_t {
    mca_coll_rsag_direct_t *d;
    int alg;                                   /* the direct row's id */
    struct ompi_datatype_t *dtype;             /* retained */
    struct ompi_op_t *op;                      /* retained */
    mca_coll_rsag_latency_settings_t settings;
};

/* The nonblocking calls of one shape: their freed requests, kept for the
 * next call (the shape and settings of the last call that was decided). */
struct mca_coll_rsag_kept_t {
    mca_coll_rsag_request_pool_t pool;
    mca_coll_rsag_direct_t *shape;             /* a call of the shape, for comparisons */
    int alg;
    struct ompi_datatype_t *dtype;             /* retained while it is the shape's */
    struct ompi_op_t *op;
    mca_coll_rsag_latency_settings_t settings;
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
            MCA_COLL_RSAG_BOX_BYTES) " (one box, the default)",
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
                                           mca_coll_rsag_coll_t coll)
{
    memset(st, 0, sizeof(*st));     /* padding too: compared with memcmp */
    st->tuning = mca_coll_rsag_component.tuning[coll];
    memcpy(st->class_bounds, mca_coll_rsag_component.class_bounds, sizeof(st->class_bounds));
    st->max_bytes = mca_coll_rsag_latency.max_bytes;
    st->verbose = mca_coll_rsag_component.verbose;
}

/* The settings the decision of collective `coll` read are still `st`. */
static bool mca_coll_rsag_latency_same_settings(const mca_coll_rsag_latency_settings_t *st,
                                                mca_coll_rsag_coll_t coll)
{
    return st->max_bytes == mca_coll_rsag_latency.max_bytes
           && st->verbose == mca_coll_rsag_component.verbose
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

static void mca_coll_rsag_latency_release(struct mca_coll_rsag_remembered_t *r)
{
    if (NULL != r) {
        mca_coll_rsag_direct_free(r->d);
        OBJ_RELEASE(r->dtype);
        OBJ_RELEASE(r->op);
        free(r);
    }
}

bool mca_coll_rsag_latency_try(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                               mca_coll_rsag_args_t *a, int *err)
{
    struct mca_coll_rsag_remembered_t *r = NULL;

    for (int i = 0; i < MCA_COLL_RSAG_LATENCY_SHAPES && NULL != m->remembered[coll][i]; ++i) {
        if (mca_coll_rsag_direct_serves(m->remembered[coll][i]->d, a)) {
            r = m->remembered[coll][i];
            break;
        }
    }
    if (NULL == r || !mca_coll_rsag_latency_same_settings(&r->settings, coll)) {
        return false;
    }
    __atomic_fetch_add(&mca_coll_rsag_component.calls[coll][r->alg], 1ULL, __ATOMIC_RELAXED);
    __atomic_fetch_add(&mca_coll_rsag_latency.calls, 1ULL, __ATOMIC_RELAXED);
    mca_coll_rsag_call_begin(NULL);     /* no temporaries: the peak is 0 */
    *err = mca_coll_rsag_call_end(mca_coll_rsag_direct_run(r->d, a));
    return true;
}

bool mca_coll_rsag_latency_remember(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                                    int alg, mca_coll_rsag_args_t *a, int *err)
{
    struct mca_coll_rsag_remembered_t *r = NULL, **slot;
    size_t *even = NULL;
    size_t bytes;
    int i, prep_err = OMPI_SUCCESS;

    if (!mca_coll_rsag_latency_small(m, a, &bytes)) {
        return false;
    }
    /* the entry of this shape (remembered under other settings), else a
     * free one, else the next in turn */
    for (i = 0; i < MCA_COLL_RSAG_LATENCY_SHAPES && NULL != m->remembered[coll][i]; ++i) {
        if (mca_coll_rsag_direct_serves(m->remembered[coll][i]->d, a)) {
            break;
        }
    }
    if (MCA_COLL_RSAG_LATENCY_SHAPES == i) {
        i = m->latency_next[coll][0]++ % MCA_COLL_RSAG_LATENCY_SHAPES;
    }
    slot = &m->remembered[coll][i];
    mca_coll_rsag_latency_release(*slot);
    *slot = NULL;
    r = calloc(1, sizeof(*r));
    if (NULL == a->displ) {
        even = malloc(((size_t) a->size + 1) * sizeof(size_t));
    }
    if (NULL == r || (NULL == a->displ && NULL == even)) {
        goto cleanup;
    }
    if (NULL != even) {
        mca_coll_rsag_displs_even(a->count, a->size, even);
    }
    a->segment = m->segment;
    r->d = mca_coll_rsag_direct_prepare(a, NULL != even ? even : a->displ,
                                        mca_coll_rsag_direct_kind(coll), true, &prep_err);
    if (NULL == r->d) {
        if (OMPI_SUCCESS != prep_err) {
            /* out of memory: the call fails, as it would the usual way */
            *err = prep_err;
            free(r);
            r = NULL;
            free(even);
            return true;
        }
        goto cleanup;                   /* not one box: the usual way */
    }
    r->alg = alg;
    r->dtype = a->dtype;
    r->op = a->op;
    OBJ_RETAIN(r->dtype);
    OBJ_RETAIN(r->op);
    mca_coll_rsag_latency_settings(&r->settings, coll);
    *slot = r;
    r = NULL;
    if (mca_coll_rsag_component.verbose >= MCA_COLL_RSAG_VERBOSE_DECISIONS && 0 == a->rank) {
        opal_output(mca_coll_rsag_component.output,
                    "coll:rsag: %s on %s (cid %d, size %d): %zu-byte calls of this shape take "
                    "the latency path", mca_coll_rsag_colls[coll].name, a->comm->c_name,
                    MCA_COLL_RSAG_COMM_CID(a->comm), a->size, bytes);
    }
    *err = mca_coll_rsag_direct_run((*slot)->d, a);    /* decided: not counted */
cleanup:
    free(even);
    if (NULL != r) {
        mca_coll_rsag_direct_free(r->d);
        free(r);
        return false;
    }
    return true;
}

/* ---- nonblocking calls: their requests kept for reuse -------------------- */

static void mca_coll_rsag_latency_release_kept(struct mca_coll_rsag_kept_t *k)
{
    if (NULL != k) {
        mca_coll_rsag_request_pool_drain(&k->pool);
        mca_coll_rsag_direct_free(k->shape);
        if (NULL != k->dtype) {
            OBJ_RELEASE(k->dtype);
            OBJ_RELEASE(k->op);
        }
        free(k);
    }
}

bool mca_coll_rsag_latency_try_request(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                                       mca_coll_rsag_args_t *a, ompi_request_t **request)
{
    struct mca_coll_rsag_kept_t *k = NULL;
    mca_coll_rsag_request_t *r;
    mca_coll_rsag_direct_t *d;

    for (int i = 0; i < MCA_COLL_RSAG_LATENCY_SHAPES && NULL != m->kept[coll][i]; ++i) {
        if (NULL != m->kept[coll][i]->shape
            && mca_coll_rsag_direct_serves(m->kept[coll][i]->shape, a)) {
            k = m->kept[coll][i];
            break;
        }
    }
    if (NULL == k || !mca_coll_rsag_latency_same_settings(&k->settings, coll)
        || NULL == (r = mca_coll_rsag_request_pool_take(&k->pool, a->comm))) {
        return false;
    }
    d = mca_coll_rsag_direct_one_box(&r->sched);
    if (NULL == d || !mca_coll_rsag_direct_serves(d, a)) {
        /* kept before the shape changed: not this call's */
        r->pool = NULL;
        mca_coll_rsag_request_release(r);
        return false;
    }
    __atomic_fetch_add(&mca_coll_rsag_component.calls[coll][k->alg], 1ULL, __ATOMIC_RELAXED);
    __atomic_fetch_add(&mca_coll_rsag_latency.calls, 1ULL, __ATOMIC_RELAXED);
    mca_coll_rsag_direct_rebind(d, a);
    r->tag = mca_coll_rsag_request_tag(m);
    *request = &r->super.super;
    (void) mca_coll_rsag_request_start_nonblocking(r);
    return true;
}

void mca_coll_rsag_latency_adopt(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll, int alg,
                                 mca_coll_rsag_args_t *a, mca_coll_rsag_request_t *r)
{
    struct mca_coll_rsag_kept_t *k = NULL;
    size_t bytes;
    int i, prep_err;

    if (!mca_coll_rsag_latency_small(m, a, &bytes) || NULL == a->displ
        || NULL == mca_coll_rsag_direct_one_box(&r->sched)
        || !ompi_op_is_intrinsic(a->op) || !ompi_datatype_is_predefined(a->dtype)) {
        /* only requests Open MPI's MPI layer leaves alone: it takes over
         * the completion and the free of one whose op or datatype is the
         * user's */
        return;
    }
    /* the entry of this shape, else a free one, else the next in turn
     * (entries are reused in place, never freed before the module: a
     * request in flight points at its entry's pool) */
    for (i = 0; i < MCA_COLL_RSAG_LATENCY_SHAPES && NULL != m->kept[coll][i]; ++i) {
        if (NULL != m->kept[coll][i]->shape
            && mca_coll_rsag_direct_serves(m->kept[coll][i]->shape, a)) {
            break;
        }
    }
    if (MCA_COLL_RSAG_LATENCY_SHAPES == i) {
        i = m->latency_next[coll][1]++ % MCA_COLL_RSAG_LATENCY_SHAPES;
    }
    if (NULL == m->kept[coll][i] && NULL == (m->kept[coll][i] = calloc(1, sizeof(*k)))) {
        return;
    }
    k = m->kept[coll][i];
    if (NULL == k->shape || !mca_coll_rsag_direct_serves(k->shape, a)
        || !mca_coll_rsag_latency_same_settings(&k->settings, coll)) {
        /* a new shape, or new settings: the requests kept of the old one
         * go (one still in flight comes back later, and goes when taken) */
        mca_coll_rsag_request_pool_drain(&k->pool);
        mca_coll_rsag_direct_free(k->shape);
        if (NULL != k->dtype) {
            OBJ_RELEASE(k->dtype);
            OBJ_RELEASE(k->op);
        }
        k->dtype = NULL;
        /* not a memory request of the call's: the call succeeds without it */
        k->shape = mca_coll_rsag_direct_prepare(a, a->displ, mca_coll_rsag_direct_kind(coll),
                                                false, &prep_err);
        if (NULL == k->shape) {
            return;             /* the request is not kept: nothing else changes */
        }
        k->dtype = a->dtype;
        k->op = a->op;
        OBJ_RETAIN(k->dtype);
        OBJ_RETAIN(k->op);
        k->alg = alg;
        mca_coll_rsag_latency_settings(&k->settings, coll);
    }
    r->pool = &k->pool;
}

void mca_coll_rsag_latency_forget(mca_coll_rsag_module_t *m)
{
    for (int c = 0; c < MCA_COLL_RSAG_NUM_COLLS; ++c) {
        for (int i = 0; i < MCA_COLL_RSAG_LATENCY_SHAPES; ++i) {
            mca_coll_rsag_latency_release(m->remembered[c][i]);
            m->remembered[c][i] = NULL;
            mca_coll_rsag_latency_release_kept(m->kept[c][i]);
            m->kept[c][i] = NULL;
        }
    }
}
