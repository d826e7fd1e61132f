/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The dispatcher and the module's state; see coll_rsag_dispatch.h.
 *
 * In this file, top to bottom: the module object (its state: decision
 * cache, layouts, node segment, node structure, the blocking calls'
 * schedule); the verbose trace; describe; the node segment and node
 * structure made on first use; decide; build; run; the selection on a
 * sub-communicator of hierarchical (mca_coll_rsag_hier_t.build); the two
 * entry points of the slots.
 */
#include "ompi_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "opal/util/output.h"
#include "ompi/communicator/communicator.h"
#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/info/info.h"
#include "ompi/op/op.h"
#include "opal/util/info.h"

#include "coll_rsag_dispatch.h"
#include "coll_rsag_direct.h"
#include "coll_rsag_exact.h"
#include "coll_rsag_hier.h"
#include "coll_rsag_latency.h"
#include "coll_rsag_request.h"

/* The dispatch table, generated from the algorithm tables: [coll][id]. */
#define MCA_COLL_RSAG_FN_ENTRY(coll, ALG, id, name, desc, restr, layout, min, fn) [id] = fn,
#define MCA_COLL_RSAG_FN_ROW(ID, name, mpi_name, LIST) \
    [MCA_COLL_RSAG_##ID] = { LIST(MCA_COLL_RSAG_FN_ENTRY) },
static const mca_coll_rsag_alg_fn_t mca_coll_rsag_fns[MCA_COLL_RSAG_NUM_COLLS]
                                                    [MCA_COLL_RSAG_MAX_ALGS + 1] = {
    MCA_COLL_RSAG_COLLECTIVES(MCA_COLL_RSAG_FN_ROW)
};
#undef MCA_COLL_RSAG_FN_ROW
#undef MCA_COLL_RSAG_FN_ENTRY

static int mca_coll_rsag_sub_build(mca_coll_rsag_sched_t *s, mca_coll_rsag_module_t *sub,
                                   mca_coll_rsag_coll_t coll, int forced,
                                   mca_coll_rsag_args_t *sa, const size_t *displ);

/* ---- the module object ------------------------------------------------
 * Its state is the dispatcher's but for the previous modules, which
 * coll_rsag_module.c keeps at enable and releases at disable (the
 * destructor is the backstop). */

static void mca_coll_rsag_module_construct(mca_coll_rsag_module_t *m)
{
    memset(&m->previous, 0, sizeof(m->previous));
    m->previous_retained = false;
    m->reductions_off = false;
    m->layouts = NULL;
    memset(m->reported, 0, sizeof(m->reported));
    mca_coll_rsag_scratch_init(&m->scratch);
    mca_coll_rsag_scratch_init(&m->exact_scratch);
    memset(m->last, 0, sizeof(m->last));
    m->all_local = -1;
    m->node_state = MCA_COLL_RSAG_NODE_UNKNOWN;
    m->segment = NULL;
    m->nodes = -1;
    m->min_ranks_per_node = 0;
    m->hier = NULL;
    m->in_setup = false;
    mca_coll_rsag_sched_init(&m->sched, NULL, NULL);
    m->next_tag = MCA_COLL_RSAG_TAG_FIRST;
    m->settings_checked = 0;
    m->latency = NULL;
    m->pair_calls = NULL;
}

static void mca_coll_rsag_module_destruct(mca_coll_rsag_module_t *m)
{
    mca_coll_rsag_release_previous(m);
    mca_coll_rsag_free(m->layouts);
    m->layouts = NULL;
    mca_coll_rsag_scratch_fini(&m->scratch);
    mca_coll_rsag_scratch_fini(&m->exact_scratch);
    mca_coll_rsag_segment_destroy(m->segment);
    m->segment = NULL;
    mca_coll_rsag_hier_free(m->hier);
    m->hier = NULL;
    mca_coll_rsag_sched_fini(&m->sched);
    mca_coll_rsag_latency_forget(m);
    mca_coll_rsag_free(m->pair_calls);
    m->pair_calls = NULL;
}

/* The module's layout cache: p + 1 rank-block offsets, then p' + 1
 * vblock offsets. */
static size_t *mca_coll_rsag_module_layouts(mca_coll_rsag_module_t *m, int p)
{
    if (NULL == m->layouts) {
        m->layouts = mca_coll_rsag_malloc(((size_t) p + 1 + (size_t) mca_coll_rsag_pof2_floor(p)
                                           + 1) * sizeof(size_t));
    }
    return m->layouts;
}

OBJ_CLASS_INSTANCE(mca_coll_rsag_module_t, mca_coll_base_module_t,
                   mca_coll_rsag_module_construct, mca_coll_rsag_module_destruct);

/* log2 size class of a message: 0 for 0 bytes, k + 1 for [2^k, 2^(k+1)). */
static int mca_coll_rsag_size_class(size_t bytes)
{
    int c = 0;
    while (bytes > 0 && c < 63) {
        bytes >>= 1;
        ++c;
    }
    return c;
}

static const char *mca_coll_rsag_reason_text(const mca_coll_rsag_decision_t *d,
                                             mca_coll_rsag_coll_t coll, int forced, char *buf,
                                             size_t len)
{
    switch (d->reason) {
    case MCA_COLL_RSAG_REASON_FORCED:
        return "forced";
    case MCA_COLL_RSAG_REASON_FALLBACK:
        snprintf(buf, len, "%s forced but it needs %s",
                 mca_coll_rsag_alg_name(coll, forced),
                 mca_coll_rsag_restriction_text(d->unmet));
        return buf;
    case MCA_COLL_RSAG_REASON_DATATYPE:
        return "datatype extent is not positive";
    case MCA_COLL_RSAG_REASON_NONE:
        snprintf(buf, len, "every rsag algorithm needs %s",
                 mca_coll_rsag_restriction_text(d->unmet));
        return buf;
    case MCA_COLL_RSAG_REASON_UNCOVERED:
        return "no rsag algorithm's *_min_bytes covers this size";
    case MCA_COLL_RSAG_REASON_PLACEMENT:
        snprintf(buf, len, "%s forced but it does not fold in rank order "
                 "(coll_rsag_reproducible placement)", mca_coll_rsag_alg_name(coll, forced));
        return buf;
    default:
        return "auto";
    }
}

/* For a choice by auto, the threshold that made it:
 * "; coll_rsag_allreduce_ring_min_bytes 8388608 <= bytes (default for p <= 4)". */
static const char *mca_coll_rsag_threshold_text(const mca_coll_rsag_decision_t *d,
                                                mca_coll_rsag_coll_t coll, char *buf,
                                                size_t len)
{
    char range[32];

    if (MCA_COLL_RSAG_DELEGATE == d->alg || (MCA_COLL_RSAG_REASON_AUTO != d->reason
                                             && MCA_COLL_RSAG_REASON_FALLBACK != d->reason
                                             && MCA_COLL_RSAG_REASON_PLACEMENT != d->reason)) {
        return "";
    }
    if (d->first) {
        return "; the first algorithm of the mode that applies (no *_min_bytes of one covers "
               "this size)";
    }
    mca_coll_rsag_class_text(mca_coll_rsag_component.class_bounds, d->comm_class, range,
                             sizeof(range));
    if (d->below) {
        snprintf(buf, len, "; bytes < coll_rsag_%s_%s_max_bytes %zu (%s)",
                 mca_coll_rsag_colls[coll].name, mca_coll_rsag_alg_name(coll, d->alg),
                 d->threshold, range);
        return buf;
    }
    snprintf(buf, len, "; coll_rsag_%s_%s_min_bytes %zu <= bytes (%s %s)",
             mca_coll_rsag_colls[coll].name, mca_coll_rsag_alg_name(coll, d->alg), d->threshold,
             d->by_class ? "default for" : "set for every size, here", range);
    return buf;
}

/* Print the decision, by rank 0, once per (algorithm, reason, size class)
 * and communicator; `forced` is the algorithm asked for (0: auto). */
static void mca_coll_rsag_report(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                                 int forced, const mca_coll_rsag_call_t *call,
                                 const mca_coll_rsag_decision_t *d,
                                 struct ompi_communicator_t *comm)
{
    int size_class = mca_coll_rsag_size_class(call->bytes);
    uint64_t *reported = &m->reported[call->nonblocking ? 1 : 0][coll][d->alg][d->reason];
    char why[160], thr[200];
    /* a nonblocking call on one node before the segment exists */
    bool no_segment_yet = call->nonblocking && call->comm_size > 1 && 1 == m->all_local
                          && MCA_COLL_RSAG_NODE_UNKNOWN == m->node_state && !call->single_node;

    if (0 != ompi_comm_rank(comm) || 0 != (*reported & (1ULL << size_class))) {
        return;
    }
    *reported |= 1ULL << size_class;
    opal_output(mca_coll_rsag_component.output,
                "coll:rsag: %s%s on %s (cid %d, size %d): %zu bytes (size class %d), "
                "%s op -> %s (%s)%s%s%s",
                mca_coll_rsag_colls[coll].name,
                call->nonblocking ? " (nonblocking or persistent)" : "", comm->c_name,
                MCA_COLL_RSAG_COMM_CID(comm),
                call->comm_size, call->bytes, size_class,
                call->commutative ? "commutative" : "non-commutative",
                MCA_COLL_RSAG_DELEGATE == d->alg ? "delegated to the previous module"
                                                 : mca_coll_rsag_alg_name(coll, d->alg),
                mca_coll_rsag_reason_text(d, coll, forced, why, sizeof(why)),
                mca_coll_rsag_threshold_text(d, coll, thr, sizeof(thr)),
                call->rank_order ? "; coll_rsag_reproducible placement: only algorithms that "
                                   "fold in rank order"
                : call->whole_fold ? "; coll_rsag_reproducible exact: only algorithms that fold "
                                     "every element's contributions at once"
                                   : "",
                no_segment_yet ? "; direct not before a blocking call or a persistent *_init "
                                 "has made the node's shared segment (making it waits for "
                                 "every rank)" : "");
}

/* Can the node path run this call?  All ranks on this node, the segment
 * not known to have failed, and an element that fits half a data slot
 * unless CMA carries it.  The same answer on every rank. */
static bool mca_coll_rsag_node_usable(mca_coll_rsag_module_t *m,
                                      struct ompi_communicator_t *comm, ptrdiff_t extent)
{
    if (m->all_local < 0) {
        m->all_local = mca_coll_rsag_comm_single_node(comm) ? 1 : 0;
    }
    switch (m->node_state) {
    case MCA_COLL_RSAG_NODE_UNAVAILABLE:
        return false;
    case MCA_COLL_RSAG_NODE_READY:
        return MCA_COLL_RSAG_COPY_CMA == m->segment->mode
               || (size_t) extent <= m->segment->slot_bytes / 2;
    default:
        return 1 == m->all_local
               && (MCA_COLL_RSAG_SINGLE_COPY_NONE != mca_coll_rsag_node_params.single_copy
                   || (size_t) extent <= mca_coll_rsag_slot_bytes(ompi_comm_size(comm)) / 2);
    }
}

/* The first call that selects an algorithm of the node path makes the
 * communicator's segment (collectively: every rank made the same
 * decision) and says how it went. */
static void mca_coll_rsag_node_setup(mca_coll_rsag_module_t *m, const mca_coll_rsag_args_t *a)
{
    char why[256];

    m->segment = mca_coll_rsag_segment_create(a->comm, MCA_COLL_RSAG_TAG_SETUP, why, sizeof(why));
    m->node_state = NULL != m->segment ? MCA_COLL_RSAG_NODE_READY
                                       : MCA_COLL_RSAG_NODE_UNAVAILABLE;
    if (mca_coll_rsag_component.verbose >= MCA_COLL_RSAG_VERBOSE_MODULE
        || (0 == a->rank && mca_coll_rsag_component.verbose >= MCA_COLL_RSAG_VERBOSE_DECISIONS)) {
        opal_output(mca_coll_rsag_component.output,
                    "coll:rsag: direct on %s (cid %d, size %d): %s%s", a->comm->c_name,
                    MCA_COLL_RSAG_COMM_CID(a->comm), a->size, why,
                    NULL != m->segment ? "" : "; rsag's point-to-point algorithms instead");
    }
}

/* The node structure of the communicator, for the selector: computed by
 * the first call on a communicator that is not on one node (collectively:
 * every rank is in that call), then kept. */
static void mca_coll_rsag_nodes(mca_coll_rsag_module_t *m, const mca_coll_rsag_args_t *a,
                                mca_coll_rsag_call_t *call)
{
    if (m->nodes < 0) {
        if (1 == m->all_local) {
            m->nodes = 1;
            m->min_ranks_per_node = a->size;
        } else if (NULL != (m->hier = mca_coll_rsag_hier_structure(a->comm))) {
            m->hier->build = mca_coll_rsag_sub_build;
            m->nodes = m->hier->nodes;
            m->min_ranks_per_node = m->hier->min_ranks;
        } else {
            m->nodes = 0;           /* unknown: size classes, no hierarchical */
            m->min_ranks_per_node = 0;
        }
    }
    call->nodes = m->nodes;
    call->min_ranks_per_node =
        (NULL != m->hier && MCA_COLL_RSAG_HIER_UNAVAILABLE == m->hier->state)
            ? 0 : m->min_ranks_per_node;
}

/* What the selector needs to know about the call `a` (`nonblocking`: an
 * MPI_I* or persistent call; `may_wait`: the call may wait for its peers,
 * to make the node's segment: a blocking call or a persistent *_init). */
static void mca_coll_rsag_describe(mca_coll_rsag_module_t *m, const mca_coll_rsag_args_t *a,
                                   bool nonblocking, bool may_wait, bool unordered_start,
                                   mca_coll_rsag_call_t *call)
{
    ptrdiff_t true_lb, true_extent;
    size_t type_size;

    memset(call, 0, sizeof(*call));     /* padding too: compared with memcmp */
    ompi_datatype_type_size(a->dtype, &type_size);
    ompi_datatype_get_true_extent(a->dtype, &true_lb, &true_extent);
    call->comm_size = a->size;
    call->count = a->count;
    call->bytes = a->count * type_size;
    call->commutative = ompi_op_is_commute(a->op);
    call->dtype_supported = a->extent > 0;
    call->contiguous = type_size > 0 && (ptrdiff_t) type_size == a->extent
                       && true_extent == a->extent;
    call->single_node = mca_coll_rsag_node_usable(m, a->comm, a->extent);
    call->oversubscribed = 1 == m->all_local && mca_coll_rsag_node_oversubscribed();
    /* Making the segment waits for every rank: a nonblocking call uses
     * `direct` only once a blocking call or a persistent *_init has made it
     * (the same on every rank: the calls on a communicator are ordered).
     * One rank needs no segment: the prologue copies. */
    if (!may_wait && a->size > 1 && MCA_COLL_RSAG_NODE_READY != m->node_state) {
        call->single_node = false;
    }
    call->nonblocking = nonblocking;
    call->unordered_start = unordered_start;
    /* in the call description, so the decision cache (memcmp of the call)
     * forgets its answer when the mode changes through MPI_T; exact's
     * inner collectives run with a->reproducible = off */
    call->rank_order = MCA_COLL_RSAG_REPRODUCIBLE_PLACEMENT == a->reproducible;
    call->whole_fold = MCA_COLL_RSAG_REPRODUCIBLE_EXACT == a->reproducible;
    call->exact_gather = call->whole_fold && mca_coll_rsag_exact_gathers(a);
    call->pipe_full = mca_coll_rsag_pipe_segments(a) + 1 >= (size_t) a->size;
    if (nonblocking && m->nodes < 0) {
        /* Finding the node structure is a collective exchange: a
         * nonblocking call must not wait for its peers, so until a
         * blocking call has found it, the structure is "not known" (the
         * same on every rank: the calls on a communicator are ordered). */
        call->nodes = 0;
        call->min_ranks_per_node = 0;
        return;
    }
    mca_coll_rsag_nodes(m, a, call);
}

/* A private module for a sub-communicator of hierarchical (the node
 * structure's mca_coll_rsag_new_module_fn_t): never installed, it only
 * holds the state of rsag's calls there. */
static mca_coll_rsag_module_t *mca_coll_rsag_private_module(int nodes, int ranks_per_node)
{
    mca_coll_rsag_module_t *s = OBJ_NEW(mca_coll_rsag_module_t);

    if (NULL != s) {
        s->all_local = (1 == nodes) ? 1 : 0;
        s->nodes = nodes;
        s->min_ranks_per_node = ranks_per_node;
    }
    return s;
}

/* The first call that selects hierarchical makes the sub-communicators
 * (collectively: every rank made the same decision) and says how it went. */
static void mca_coll_rsag_hier_make(mca_coll_rsag_module_t *m, const mca_coll_rsag_args_t *a)
{
    char why[256];

    /* the collectives that making the communicators runs on a->comm go
     * to the previous module (the slots look at in_setup) */
    m->in_setup = true;
    mca_coll_rsag_hier_setup(m->hier, a->comm, mca_coll_rsag_private_module, why, sizeof(why));
    m->in_setup = false;
    if (mca_coll_rsag_component.verbose >= MCA_COLL_RSAG_VERBOSE_MODULE
        || (0 == a->rank && mca_coll_rsag_component.verbose >= MCA_COLL_RSAG_VERBOSE_DECISIONS)) {
        opal_output(mca_coll_rsag_component.output,
                    "coll:rsag: hierarchical on %s (cid %d, size %d): %s%s", a->comm->c_name,
                    MCA_COLL_RSAG_COMM_CID(a->comm), a->size, why,
                    MCA_COLL_RSAG_HIER_READY == m->hier->state
                        ? "" : "; rsag's flat algorithms instead");
    }
}

/* Select for `call` under `tuning`, making what the chosen algorithm needs
 * on first use (the node segment, the sub-communicators); when that fails,
 * select again without it. */
static mca_coll_rsag_decision_t mca_coll_rsag_select_and_prepare(
    mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll, const mca_coll_rsag_args_t *a,
    mca_coll_rsag_call_t *call, const mca_coll_rsag_tuning_t *tuning)
{
    mca_coll_rsag_decision_t d = mca_coll_rsag_select(coll, call, tuning);
    unsigned needs;

    if (MCA_COLL_RSAG_DELEGATE == d.alg || 1 >= a->size) {
        return d;
    }
    needs = mca_coll_rsag_alg(coll, d.alg)->restrictions;
    if ((needs & MCA_COLL_RSAG_NEEDS_SINGLE_NODE)
        && MCA_COLL_RSAG_NODE_UNKNOWN == m->node_state) {
        mca_coll_rsag_node_setup(m, a);
        call->single_node = mca_coll_rsag_node_usable(m, a->comm, a->extent);
        if (!call->single_node) {
            d = mca_coll_rsag_select(coll, call, tuning);
        }
    } else if ((needs & MCA_COLL_RSAG_NEEDS_MULTI_NODE) && NULL != m->hier
               && MCA_COLL_RSAG_HIER_UNKNOWN == m->hier->state) {
        /* making the sub-communicators waits for every rank: not in a
         * nonblocking call (a flat algorithm until a blocking call made them) */
        if (!call->nonblocking) {
            mca_coll_rsag_hier_make(m, a);
        }
        if (MCA_COLL_RSAG_HIER_READY != m->hier->state) {
            call->min_ranks_per_node = 0;
            d = mca_coll_rsag_select(coll, call, tuning);
        }
    }
    return d;
}

/* Describe the call to the selector and select (or reuse the last answer
 * for a call of the same shape), count, and report once per size class. */
static int mca_coll_rsag_decide(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                                const mca_coll_rsag_args_t *a, bool nonblocking, bool may_wait,
                                bool unordered_start)
{
    const mca_coll_rsag_tuning_t *tuning = &mca_coll_rsag_component.tuning[coll];
    mca_coll_rsag_last_decision_t *last = NULL;
    mca_coll_rsag_call_t call;
    mca_coll_rsag_decision_t d;

    mca_coll_rsag_describe(m, a, nonblocking, may_wait, unordered_start, &call);
    if (tuning->forced >= 0 && tuning->forced <= MCA_COLL_RSAG_MAX_ALGS) {
        last = &m->last[coll][tuning->forced];
    }
    if (NULL != last && last->valid && 0 == memcmp(&last->call, &call, sizeof(call))
        && 0 == memcmp(&last->tuning, tuning, sizeof(*tuning))
        /* the class bounds are shared by pointer: MPI_T may have moved them */
        && last->d.comm_class == mca_coll_rsag_call_class(tuning->class_bounds, &call)) {
        d = last->d;
    } else {
        d = mca_coll_rsag_select_and_prepare(m, coll, a, &call, tuning);
        if (NULL != last) {
            memcpy(&last->call, &call, sizeof(call));
            memcpy(&last->tuning, tuning, sizeof(*tuning));
            last->d = d;
            last->valid = true;
        }
    }
    if (MCA_COLL_RSAG_DELEGATE == d.alg && call.whole_fold) {
        return d.alg;       /* exact's own collectives take it: counted and traced there */
    }
    mca_coll_rsag_count(&mca_coll_rsag_component.calls[coll][d.alg], 1ULL);
    if (mca_coll_rsag_component.verbose >= MCA_COLL_RSAG_VERBOSE_DECISIONS) {
        mca_coll_rsag_report(m, coll, tuning->forced, &call, &d, a->comm);
        if (call.whole_fold) {
            mca_coll_rsag_exact_note_fold(coll, a, mca_coll_rsag_alg_name(coll, d.alg));
        }
    }
    return d.alg;
}

/* The prologue every algorithm shares, then the algorithm's steps,
 * appended to s after a fence (what came before is complete first). */
static int mca_coll_rsag_build(mca_coll_rsag_sched_t *s, mca_coll_rsag_module_t *m,
                               mca_coll_rsag_coll_t coll, int alg, mca_coll_rsag_args_t *a)
{
    int layout = mca_coll_rsag_alg(coll, alg)->layout;
    int pof2 = mca_coll_rsag_pof2_floor(a->size);
    size_t *layouts;

    /* a persistent request's own segment (mca_coll_rsag_own_segment), else
     * the communicator's */
    a->segment = NULL != a->segment ? a->segment : m->segment;
    a->hier = m->hier;
    mca_coll_rsag_sched_fence(s);
    if (1 == a->size) {
        (void) mca_coll_rsag_sched_copy(s, a->input, a->rbuf, a->count);
        return s->err;
    }
    if (0 == a->count) {
        return s->err;
    }
    if (MCA_COLL_RSAG_LAYOUT_NONE != layout) {
        layouts = mca_coll_rsag_module_layouts(m, a->size);
        if (NULL == layouts) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        a->vdispl = layouts + a->size + 1;
        if (MCA_COLL_RSAG_LAYOUT_HALVES == layout) {
            mca_coll_rsag_displs_bisect(a->count, pof2, layouts + a->size + 1);
        } else {
            if (NULL == a->displ) {     /* MPI_Reduce_scatter brought its own */
                mca_coll_rsag_displs_even(a->count, a->size, layouts);
            }
            a->displ = layouts;
            mca_coll_rsag_displs_fold(layouts, a->size, layouts + a->size + 1);
        }
    }
    return mca_coll_rsag_fns[coll][alg](s, a);
}

/* A schedule with lanes (pipelined hierarchical) takes a tag for each of
 * them from the communicator's request tags, blocking or not: unique
 * among the requests in flight, and the same on every rank (the calls on
 * a communicator are ordered, and every rank opened the same lanes). */
static void mca_coll_rsag_lane_tags(mca_coll_rsag_module_t *m, mca_coll_rsag_sched_t *s)
{
    if (s->nlanetags > 0) {
        s->lane_tag = mca_coll_rsag_request_tags(m, s->nlanetags);
    }
}

/* A blocking call: describe it into the module's schedule and run it. */
static int mca_coll_rsag_run(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll, int alg,
                             mca_coll_rsag_args_t *a)
{
    int err;

    mca_coll_rsag_sched_reset(&m->sched, a->dtype, a->op);
    err = mca_coll_rsag_build(&m->sched, m, coll, alg, a);
    mca_coll_rsag_lane_tags(m, &m->sched);
    if (OMPI_SUCCESS == err) {
        err = mca_coll_rsag_sched_run(&m->sched, a->tag);
    }
    mca_coll_rsag_sched_reset(&m->sched, NULL, NULL);     /* the temporaries, in the call */
    return err;
}

/* A step of rsag's own on a sub-communicator of hierarchical, appended to
 * the parent's schedule: no slot, no MPI_T counter, no call bracket (the
 * parent's call holds it: its scratch area serves the temporaries).  The
 * node structure's `build` (mca_coll_rsag_sub_build_fn_t, coll_rsag_hier.h). */
static int mca_coll_rsag_sub_build(mca_coll_rsag_sched_t *s, mca_coll_rsag_module_t *sub,
                                   mca_coll_rsag_coll_t coll, int forced,
                                   mca_coll_rsag_args_t *sa, const size_t *displ)
{
    mca_coll_rsag_tuning_t tuning = mca_coll_rsag_component.tuning[coll];
    mca_coll_rsag_call_t call;
    mca_coll_rsag_decision_t d;

    sa->tag = mca_coll_rsag_coll_tag(coll);
    sa->coll = coll;
    sa->displ = sa->vdispl = NULL;
    if (NULL != displ) {
        size_t *layouts = mca_coll_rsag_module_layouts(sub, sa->size);
        if (NULL == layouts) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        memcpy(layouts, displ, ((size_t) sa->size + 1) * sizeof(size_t));
        sa->displ = layouts;
    }
    tuning.forced = forced;
    mca_coll_rsag_describe(sub, sa, s->nonblocking, !s->nonblocking, false, &call);
    if (s->nonblocking) {
        /* `direct` takes its ticks when its step is issued, which must be
         * in call order; a step inside a nonblocking hierarchical schedule
         * is issued when its messages allow, which may differ by rank */
        call.single_node = false;
    }
    d = mca_coll_rsag_select_and_prepare(sub, coll, sa, &call, &tuning);
    if (MCA_COLL_RSAG_DELEGATE == d.alg) {
        /* Only thresholds set to leave this size uncovered get here (the
         * parent call is commutative, of a positive extent): the first row
         * of every table needs no more than a commutative op. */
        d.alg = 1;
    }
    if (mca_coll_rsag_component.verbose >= MCA_COLL_RSAG_VERBOSE_DECISIONS) {
        mca_coll_rsag_report(sub, coll, forced, &call, &d, sa->comm);
    }
    return mca_coll_rsag_build(s, sub, coll, d.alg, sa);
}

/* ---- the entry points of the slots (coll_rsag_dispatch.h) ---------------- */

/* coll_rsag_reproducible = exact: whether exact's own collectives take the
 * call at once, a row that does not fold whole being forced (it runs their
 * inner collectives).  A call exact does not handle goes on as placement
 * (a->reproducible); one it handles otherwise goes to the selector among
 * the rows that fold whole, and to exact's own collectives where none
 * runs it (the entry points below). */
static bool mca_coll_rsag_exact_own(mca_coll_rsag_coll_t coll, mca_coll_rsag_args_t *a)
{
    const mca_coll_rsag_alg_desc_t *forced;

    if (MCA_COLL_RSAG_REPRODUCIBLE_EXACT != a->reproducible
        || !mca_coll_rsag_exact_accepts(coll, a)) {
        return false;
    }
    forced = mca_coll_rsag_alg(coll, mca_coll_rsag_component.tuning[coll].forced);
    return NULL != forced && 0 == (forced->restrictions & MCA_COLL_RSAG_FOLDS_WHOLE);
}

int mca_coll_rsag_dispatch(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                           mca_coll_rsag_args_t *a, bool *delegate)
{
    int alg, err = OMPI_SUCCESS;

    *delegate = false;
    if (mca_coll_rsag_exact_own(coll, a)) {
        return mca_coll_rsag_exact_run(m, coll, a, false, NULL, mca_coll_rsag_dispatch_inner);
    }
    if (mca_coll_rsag_latency_try(m, coll, a, &err)) {
        return err;                     /* a remembered call: no decision, no schedule */
    }
    mca_coll_rsag_call_begin(&m->scratch);
    alg = mca_coll_rsag_decide(m, coll, a, false, true, false);
    if (MCA_COLL_RSAG_DELEGATE == alg && MCA_COLL_RSAG_REPRODUCIBLE_EXACT == a->reproducible) {
        (void) mca_coll_rsag_call_end(OMPI_SUCCESS);   /* no row folds whole here */
        return mca_coll_rsag_exact_run(m, coll, a, false, NULL, mca_coll_rsag_dispatch_inner);
    }
    *delegate = (MCA_COLL_RSAG_DELEGATE == alg);
    if (!*delegate
        && !(mca_coll_rsag_direct_algorithm == mca_coll_rsag_fns[coll][alg]
             && mca_coll_rsag_latency_remember(m, coll, alg, a, &err))) {
        err = mca_coll_rsag_run(m, coll, alg, a);
    }
    return mca_coll_rsag_call_end(err);
}

/* The assertion that the program starts the persistent collectives of
 * this communicator in the same order on every rank, as its other
 * collectives: coll_rsag_persistent_starts_ordered for the whole job, or
 * MPI-4.1's key on the communicator or the *_init call's info (where an
 * MPI accepts a key that long: Open MPI's MPI_MAX_INFO_KEY is 36). */
static bool mca_coll_rsag_starts_ordered(struct ompi_communicator_t *comm,
                                         struct ompi_info_t *info)
{
    /* not const: Open MPI 4.1's opal_info_get_bool takes a char * */
    static char key[] = "mpi_assert_strict_persistent_collective_ordering";
    bool value = false;
    int flag = 0;

    if (mca_coll_rsag_persistent_starts_ordered) {
        return true;
    }
    if (NULL != info && OPAL_SUCCESS == opal_info_get_bool(&info->super, key, &value,
                                                           &flag)
        && flag) {
        return value;
    }
    if (NULL != comm->super.s_info
        && OPAL_SUCCESS == opal_info_get_bool(comm->super.s_info, key, &value,
                                              &flag)
        && flag) {
        return value;
    }
    return false;
}

/* A persistent request that an algorithm taking its turn on the
 * communicator when started (`direct`'s ticks) serves, without the
 * assertion that starts are ordered, gets its own segment: its ticks are
 * its starts, the same on every rank in whatever order the program starts
 * its requests (MPI matches a persistent collective's starts with each
 * other, not with the communicator's other calls).  Collective (the
 * *_init may wait: MPI-4.1, 7.13); the node's segment exists (the
 * decision made it).  False when it could not be made (on every rank);
 * *seg NULL when the call needs none (one rank, nothing to reduce). */
static bool mca_coll_rsag_own_segment(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                                      int alg, const mca_coll_rsag_args_t *a,
                                      mca_coll_rsag_segment_t **seg)
{
    /* forced: direct even on a guessed copy mode (mca_coll_rsag_direct_own_plan) */
    bool forced = mca_coll_rsag_component.tuning[coll].forced == alg;
    mca_coll_rsag_args_t plan = *a;
    char why[256];
    size_t slot;
    int rc;

    *seg = NULL;
    if (a->size < 2 || 0 == a->count) {
        return true;
    }
    plan.segment = m->segment;
    rc = mca_coll_rsag_direct_own_plan(&plan, mca_coll_rsag_direct_kind(coll), forced, &slot);
    if (OMPI_ERR_NOT_AVAILABLE == rc) {
        snprintf(why, sizeof(why), "no segment of its own, the copy mode of its size not "
                 "learned yet (no blocking call of its size has voted)");
    } else {
        if (OMPI_SUCCESS != rc) {
            slot = SIZE_MAX / 4 / (size_t) a->size;     /* no rank maps what rank 0 made */
        }
        *seg = mca_coll_rsag_segment_create_own(m->segment, a->comm, MCA_COLL_RSAG_TAG_SETUP,
                                                slot, why, sizeof(why));
    }
    if (mca_coll_rsag_component.verbose >= MCA_COLL_RSAG_VERBOSE_MODULE
        || (0 == a->rank && mca_coll_rsag_component.verbose >= MCA_COLL_RSAG_VERBOSE_DECISIONS)) {
        opal_output(mca_coll_rsag_component.output,
                    "coll:rsag: direct on %s (cid %d, size %d): a persistent %s of %zu bytes: "
                    "%s%s", a->comm->c_name, MCA_COLL_RSAG_COMM_CID(a->comm), a->size,
                    mca_coll_rsag_colls[coll].name, a->count * (size_t) a->extent, why,
                    NULL != *seg ? " (its starts may come in any order)"
                                 : "; its starts may come in any order: not direct");
    }
    return NULL != *seg;
}

int mca_coll_rsag_dispatch_request(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                                   mca_coll_rsag_args_t *a, bool persistent,
                                   struct ompi_info_t *info, ompi_request_t **request,
                                   bool *delegate)
{
    mca_coll_rsag_request_t *r = NULL;
    mca_coll_rsag_segment_t *own = NULL;
    int alg, err;

    *delegate = false;
    if (mca_coll_rsag_exact_own(coll, a)) {
        return mca_coll_rsag_exact_run(m, coll, a, persistent, request,
                                       mca_coll_rsag_dispatch_inner);
    }
    if (!persistent && mca_coll_rsag_latency_try_request(m, coll, a, request)) {
        return OMPI_SUCCESS;            /* a kept request: no decision, no build */
    }
    mca_coll_rsag_call_begin(NULL);     /* temporaries: the request's own memory */
    /* a persistent *_init is nonlocal (MPI-4.1, 7.13): it may make the
     * node's segment; an MPI_I* call may not wait for its peers.  The
     * starts of a persistent request may come in any order on the ranks
     * (its matching is done at init, MPI-4.0, 6.13): an algorithm that
     * takes its turn on the communicator when started (`direct`'s ticks)
     * runs such a request on a segment of its own, and needs the
     * program's assertion that they do not where that cannot be made. */
    alg = mca_coll_rsag_decide(m, coll, a, true, persistent, false);
    if (persistent && MCA_COLL_RSAG_DELEGATE != alg
        && (mca_coll_rsag_alg(coll, alg)->restrictions & MCA_COLL_RSAG_NEEDS_ORDERED_START)
        && !mca_coll_rsag_starts_ordered(a->comm, info)
        && !mca_coll_rsag_own_segment(m, coll, alg, a, &own)) {
        mca_coll_rsag_count(&mca_coll_rsag_component.calls[coll][alg], -1ULL);
        alg = mca_coll_rsag_decide(m, coll, a, true, persistent, true);
    }
    a->segment = own;                   /* the build's `direct` step runs on it */
    if (MCA_COLL_RSAG_DELEGATE == alg && MCA_COLL_RSAG_REPRODUCIBLE_EXACT == a->reproducible) {
        (void) mca_coll_rsag_call_end(OMPI_SUCCESS);   /* no row folds whole here */
        return mca_coll_rsag_exact_run(m, coll, a, persistent, request,
                                       mca_coll_rsag_dispatch_inner);
    }
    *delegate = (MCA_COLL_RSAG_DELEGATE == alg);
    if (*delegate) {
        return mca_coll_rsag_call_end(OMPI_SUCCESS);
    }
    a->tag = mca_coll_rsag_request_tag(m);
    r = mca_coll_rsag_request_new(a->comm, a->dtype, a->op, a->tag, persistent);
    if (NULL != r) {
        r->sched.nonblocking = true;
        r->segment = own;
    } else {
        mca_coll_rsag_segment_destroy(own);
    }
    err = (NULL == r) ? OMPI_ERR_OUT_OF_RESOURCE : mca_coll_rsag_build(&r->sched, m, coll, alg, a);
    if (NULL != r) {
        mca_coll_rsag_lane_tags(m, &r->sched);
    }
    err = mca_coll_rsag_call_end(err);
    if (OMPI_SUCCESS != err) {
        mca_coll_rsag_request_release(r);
        return err;
    }
    *request = &r->super.super;
    if (persistent) {
        return OMPI_SUCCESS;
    }
    if (mca_coll_rsag_direct_algorithm == mca_coll_rsag_fns[coll][alg]) {
        mca_coll_rsag_latency_adopt(m, coll, alg, a, r);
    }
    return mca_coll_rsag_request_start_nonblocking(r);
}

/* An inner collective of the exact mode (coll_rsag_dispatch.h). */
int mca_coll_rsag_dispatch_inner(mca_coll_rsag_module_t *m, const mca_coll_rsag_exact_inner_t *in,
                                 struct ompi_communicator_t *comm, int tag,
                                 mca_coll_rsag_sched_t *nested, bool *delegate)
{
    mca_coll_rsag_coll_t coll = in->coll;
    const size_t *displ = in->displ;
    mca_coll_rsag_args_t ia, *a = &ia;
    size_t *layouts = NULL;
    int alg;

    (void) mca_coll_rsag_args(a, coll, in->sbuf, in->rbuf, in->count, in->dtype, in->op,
                              in->root, comm);
    a->reproducible = MCA_COLL_RSAG_REPRODUCIBLE_OFF;
    if (NULL != nested) {
        a->tag = tag;
    }

    if (NULL != displ) {
        layouts = mca_coll_rsag_module_layouts(m, a->size);
        if (NULL == layouts) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        memcpy(layouts, displ, ((size_t) a->size + 1) * sizeof(size_t));
    }
    a->displ = layouts;
    if (NULL == nested) {
        return mca_coll_rsag_dispatch(m, coll, a, delegate);
    }
    *delegate = false;
    /* a step of a request: decided as a nonblocking call whose start may
     * come in any order (no `direct`: its ticks are taken when the step is
     * issued, which the outer schedule's messages order differently on
     * different ranks) */
    alg = mca_coll_rsag_decide(m, coll, a, true, false, true);
    if (MCA_COLL_RSAG_DELEGATE == alg) {
        /* thresholds that leave this size uncovered (MPI_SUM and MPI_MAX of
         * predefined types need no more): the first row, counted as such */
        mca_coll_rsag_count(&mca_coll_rsag_component.calls[coll][alg], -1ULL);
        alg = 1;
        mca_coll_rsag_count(&mca_coll_rsag_component.calls[coll][alg], 1ULL);
    }
    nested->nonblocking = true;
    (void) mca_coll_rsag_build(nested, m, coll, alg, a);
    mca_coll_rsag_lane_tags(m, nested);
    return nested->err;
}

int mca_coll_rsag_rs_args(mca_coll_rsag_args_t *a, mca_coll_rsag_module_t *m,
                          const void *sbuf, void *rbuf, const int *rcounts,
                          struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                          struct ompi_communicator_t *comm)
{
    int p = ompi_comm_size(comm);
    size_t *displ = mca_coll_rsag_module_layouts(m, p);

    if (NULL == displ) {
        return MPI_ERR_NO_MEM;
    }
    mca_coll_rsag_displs_counts(rcounts, p, displ);
    (void) mca_coll_rsag_args(a, MCA_COLL_RSAG_REDUCE_SCATTER, sbuf, rbuf, displ[p], dtype, op,
                              -1, comm);
    a->displ = displ;
    return OMPI_SUCCESS;
}

