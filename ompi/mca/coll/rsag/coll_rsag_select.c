/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Algorithm selection; see coll_rsag_select.h.
 *
 * Rules, in order:
 *  1. A forced algorithm (coll_rsag_<coll>_algorithm != auto) is used when
 *     the call meets its restrictions.
 *  2. Otherwise `auto`: an applicable algorithm with a max_bytes bound
 *     above the message size (`leaders`: small messages on several nodes)
 *     is taken first.  Else, among the applicable algorithms, the one with the
 *     largest threshold that is <= the message size (later table rows win
 *     ties).  An algorithm's threshold is coll_rsag_<coll>_<alg>_min_bytes
 *     when that is >= 0, else the table's default for the communicator's
 *     size class.  A forced algorithm that does not apply
 *     falls back to this rule, never to a linear algorithm.
 *  2b. coll_rsag_reproducible = placement (call->rank_order): rules 1 and 2
 *     among the rows that fold in rank order only
 *     (MCA_COLL_RSAG_FOLDS_IN_RANK_ORDER); a forced row without the bit is
 *     replaced (REASON_PLACEMENT), and a size no threshold covers takes
 *     the first applicable such row in table order (`direct`, then
 *     `ordered`, which applies to every call), never the previous module.
 *     coll_rsag_reproducible = exact (call->whole_fold): the same among
 *     the rows that fold whole (MCA_COLL_RSAG_FOLDS_WHOLE: `direct`, then
 *     `ordered`), except that a call exact's one collective takes
 *     (call->exact_gather: small) goes to the first such row only if it
 *     runs on one node (`direct`: no message at all), not to one that
 *     folds over the network (`ordered`: p - 1 messages per rank); where
 *     none is taken, "delegate" means exact's own collectives
 *     (coll_rsag_exact.c), never the previous module.
 *  3. If no algorithm of ours applies (a datatype whose extent is not
 *     positive, an op that every algorithm of the collective needs to be
 *     commutative, or thresholds that leave this size uncovered), delegate
 *     to the previous module.
 */
#include <stdint.h>
#include <stdio.h>

#include "coll_rsag_select.h"
#include "coll_rsag_index.h"

#define MCA_COLL_RSAG_ALG_DESC(coll, ALG, id, name, desc, restr, layout, min_bytes, fn) \
    { id, name, desc, restr, layout, min_bytes },

const int mca_coll_rsag_default_class_bounds[MCA_COLL_RSAG_NUM_SIZE_CLASSES - 1] =
    MCA_COLL_RSAG_COMM_CLASS_BOUNDS;

#define MCA_COLL_RSAG_ALG_TABLE(ID, name, mpi_name, LIST) \
    static const mca_coll_rsag_alg_desc_t ID##_algs[] = { LIST(MCA_COLL_RSAG_ALG_DESC) };
MCA_COLL_RSAG_COLLECTIVES(MCA_COLL_RSAG_ALG_TABLE)
#undef MCA_COLL_RSAG_ALG_TABLE
#undef MCA_COLL_RSAG_ALG_DESC

#define MCA_COLL_RSAG_COLL_DESC(ID, name, mpi_name, LIST) \
    [MCA_COLL_RSAG_##ID] = { name, mpi_name, ID##_algs, (int) (sizeof(ID##_algs) / sizeof(ID##_algs[0])) },
const mca_coll_rsag_coll_desc_t mca_coll_rsag_colls[MCA_COLL_RSAG_NUM_COLLS] = {
    MCA_COLL_RSAG_COLLECTIVES(MCA_COLL_RSAG_COLL_DESC)
};
#undef MCA_COLL_RSAG_COLL_DESC

const mca_coll_rsag_alg_desc_t *mca_coll_rsag_alg(mca_coll_rsag_coll_t coll, int id)
{
    if (coll < 0 || coll >= MCA_COLL_RSAG_NUM_COLLS || id < 1
        || id > mca_coll_rsag_colls[coll].nalgs) {
        return NULL;
    }
    return &mca_coll_rsag_colls[coll].algs[id - 1];
}

const char *mca_coll_rsag_alg_name(mca_coll_rsag_coll_t coll, int id)
{
    const mca_coll_rsag_alg_desc_t *alg = mca_coll_rsag_alg(coll, id);
    if (MCA_COLL_RSAG_AUTO == id) {
        return "auto";
    }
    return (NULL == alg) ? "?" : alg->name;
}

unsigned mca_coll_rsag_unmet(const mca_coll_rsag_alg_desc_t *alg,
                             const mca_coll_rsag_call_t *call)
{
    unsigned unmet = 0;

    if ((alg->restrictions & MCA_COLL_RSAG_NEEDS_COMMUTATIVE) && !call->commutative) {
        unmet |= MCA_COLL_RSAG_NEEDS_COMMUTATIVE;
    }
    if ((alg->restrictions & MCA_COLL_RSAG_NEEDS_COUNT_GE_POF2)
        && (call->comm_size < 1
            || call->count < (size_t) mca_coll_rsag_pof2_floor(call->comm_size))) {
        unmet |= MCA_COLL_RSAG_NEEDS_COUNT_GE_POF2;
    }
    if ((alg->restrictions & MCA_COLL_RSAG_NEEDS_SINGLE_NODE) && !call->single_node) {
        unmet |= MCA_COLL_RSAG_NEEDS_SINGLE_NODE;
    }
    if ((alg->restrictions & MCA_COLL_RSAG_NEEDS_CONTIGUOUS) && !call->contiguous) {
        unmet |= MCA_COLL_RSAG_NEEDS_CONTIGUOUS;
    }
    if ((alg->restrictions & MCA_COLL_RSAG_NEEDS_MULTI_NODE)
        && (call->nodes < 2 || call->min_ranks_per_node < 1
            || call->comm_size <= call->nodes)) {
        unmet |= MCA_COLL_RSAG_NEEDS_MULTI_NODE;
    }
    if ((alg->restrictions & MCA_COLL_RSAG_NEEDS_ORDERED_START) && call->unordered_start) {
        unmet |= MCA_COLL_RSAG_NEEDS_ORDERED_START;
    }
    return unmet;
}

/* The property bits a row needs for the call: placement's
 * (call->rank_order), exact's (call->whole_fold), or none. */
static unsigned mca_coll_rsag_wanted(const mca_coll_rsag_call_t *call)
{
    return (call->rank_order ? MCA_COLL_RSAG_FOLDS_IN_RANK_ORDER : 0u)
           | (call->whole_fold ? MCA_COLL_RSAG_FOLDS_WHOLE : 0u);
}

/* Whether the call may take row `alg` at all: in a reproducible mode only
 * the rows with its property. */
static bool mca_coll_rsag_considered(const mca_coll_rsag_alg_desc_t *alg,
                                     const mca_coll_rsag_call_t *call)
{
    unsigned want = mca_coll_rsag_wanted(call);

    return want == (alg->restrictions & want);
}

mca_coll_rsag_decision_t mca_coll_rsag_select(mca_coll_rsag_coll_t coll,
                                              const mca_coll_rsag_call_t *call,
                                              const mca_coll_rsag_tuning_t *tuning)
{
    const mca_coll_rsag_coll_desc_t *desc = &mca_coll_rsag_colls[coll];
    mca_coll_rsag_decision_t d = { MCA_COLL_RSAG_DELEGATE, MCA_COLL_RSAG_REASON_AUTO, 0,
                                   0, 0, false, false, false };
    const mca_coll_rsag_alg_desc_t *forced = mca_coll_rsag_alg(coll, tuning->forced);
    unsigned unmet_any = 0;
    bool applicable = false;

    d.comm_class = mca_coll_rsag_call_class(tuning->class_bounds, call);

    if (!call->dtype_supported) {
        d.reason = MCA_COLL_RSAG_REASON_DATATYPE;
        return d;
    }
    if (NULL != forced && !mca_coll_rsag_considered(forced, call)) {
        d.reason = MCA_COLL_RSAG_REASON_PLACEMENT;
        forced = NULL;
    }
    if (NULL != forced) {
        d.unmet = mca_coll_rsag_unmet(forced, call);
        if (0 == d.unmet) {
            d.alg = forced->id;
            d.reason = MCA_COLL_RSAG_REASON_FORCED;
            return d;
        }
        d.reason = MCA_COLL_RSAG_REASON_FALLBACK;
    }
    for (int i = 0; i < desc->nalgs; ++i) {
        const mca_coll_rsag_alg_desc_t *alg = &desc->algs[i];
        long max = tuning->max_bytes[alg->id];

        if (max >= 0 && call->bytes < (size_t) max && mca_coll_rsag_considered(alg, call)
            && 0 == mca_coll_rsag_unmet(alg, call)) {
            d.alg = alg->id;
            d.threshold = (size_t) max;
            d.below = true;
            return d;
        }
    }
    /* The largest threshold <= bytes; a node-aware row (one that needs
     * several nodes) that reaches its threshold goes ahead of every flat
     * one, so the flat rows' thresholds of the several-nodes class serve
     * the placements no node-aware row takes (one rank per node). */
    bool node_aware = false;
    const mca_coll_rsag_alg_desc_t *first = NULL;   /* the first applicable row */
    for (int i = 0; i < desc->nalgs; ++i) {
        const mca_coll_rsag_alg_desc_t *alg = &desc->algs[i];
        bool by_class, aware = 0 != (alg->restrictions & MCA_COLL_RSAG_NEEDS_MULTI_NODE);
        size_t min = mca_coll_rsag_threshold(coll, tuning, alg->id, d.comm_class, &by_class);
        unsigned unmet = mca_coll_rsag_unmet(alg, call);

        if (!mca_coll_rsag_considered(alg, call)) {
            continue;
        }
        if (0 != unmet) {
            unmet_any |= unmet;
            continue;
        }
        applicable = true;
        first = (NULL == first) ? alg : first;
        if (min > call->bytes || (node_aware && !aware)
            || ((alg->restrictions & MCA_COLL_RSAG_FILLS_PIPE) && !call->pipe_full)) {
            continue;
        }
        if (MCA_COLL_RSAG_DELEGATE == d.alg || (aware && !node_aware) || min >= d.threshold) {
            d.alg = alg->id;
            d.threshold = min;
            d.by_class = by_class;
            node_aware = aware;
        }
    }
    if (MCA_COLL_RSAG_DELEGATE == d.alg && 0 != mca_coll_rsag_wanted(call) && applicable
        && !(call->exact_gather && 0 == (first->restrictions & MCA_COLL_RSAG_NEEDS_SINGLE_NODE))) {
        d.alg = first->id;              /* placement: never the previous module */
        d.threshold = 0;
        d.by_class = false;
        d.first = true;
    } else if (MCA_COLL_RSAG_DELEGATE == d.alg) {
        d.reason = applicable ? MCA_COLL_RSAG_REASON_UNCOVERED : MCA_COLL_RSAG_REASON_NONE;
        d.unmet = applicable ? 0 : unmet_any;
    }
    return d;
}

/* Every combination of the restriction bits, in bit order, as text. */
#define MCA_COLL_RSAG_T_COMM "commutative op"
#define MCA_COLL_RSAG_T_POF2 "count >= p'"
#define MCA_COLL_RSAG_T_NODE "one node with its shared segment"
#define MCA_COLL_RSAG_T_CONT "contiguous datatype"
#define MCA_COLL_RSAG_T_MULTI "several nodes, one of them with >= 2 ranks"
#define MCA_COLL_RSAG_T_BLOCK "starts in the communicator's order (persistent: " \
    "mpi_assert_strict_persistent_collective_ordering)"
/* The 16 combinations of the first four bits, each followed by `tail`
 * (the text of the fifth and sixth bits, or nothing). */
#define MCA_COLL_RSAG_T16(first, tail)                                             \
    first,                                                                         \
    MCA_COLL_RSAG_T_COMM tail,                                                     \
    MCA_COLL_RSAG_T_POF2 tail,                                                     \
    MCA_COLL_RSAG_T_COMM ", " MCA_COLL_RSAG_T_POF2 tail,                           \
    MCA_COLL_RSAG_T_NODE tail,                                                     \
    MCA_COLL_RSAG_T_COMM ", " MCA_COLL_RSAG_T_NODE tail,                           \
    MCA_COLL_RSAG_T_POF2 ", " MCA_COLL_RSAG_T_NODE tail,                           \
    MCA_COLL_RSAG_T_COMM ", " MCA_COLL_RSAG_T_POF2 ", " MCA_COLL_RSAG_T_NODE tail, \
    MCA_COLL_RSAG_T_CONT tail,                                                     \
    MCA_COLL_RSAG_T_COMM ", " MCA_COLL_RSAG_T_CONT tail,                           \
    MCA_COLL_RSAG_T_POF2 ", " MCA_COLL_RSAG_T_CONT tail,                           \
    MCA_COLL_RSAG_T_COMM ", " MCA_COLL_RSAG_T_POF2 ", " MCA_COLL_RSAG_T_CONT tail, \
    MCA_COLL_RSAG_T_NODE ", " MCA_COLL_RSAG_T_CONT tail,                           \
    MCA_COLL_RSAG_T_COMM ", " MCA_COLL_RSAG_T_NODE ", " MCA_COLL_RSAG_T_CONT tail, \
    MCA_COLL_RSAG_T_POF2 ", " MCA_COLL_RSAG_T_NODE ", " MCA_COLL_RSAG_T_CONT tail, \
    MCA_COLL_RSAG_T_COMM ", " MCA_COLL_RSAG_T_POF2 ", " MCA_COLL_RSAG_T_NODE ", "  \
        MCA_COLL_RSAG_T_CONT tail
static const char *const mca_coll_rsag_restriction_texts[1u << MCA_COLL_RSAG_NUM_RESTRICTIONS] = {
    MCA_COLL_RSAG_T16("none", ""),
    MCA_COLL_RSAG_T16(MCA_COLL_RSAG_T_MULTI, ", " MCA_COLL_RSAG_T_MULTI),
    MCA_COLL_RSAG_T16(MCA_COLL_RSAG_T_BLOCK, ", " MCA_COLL_RSAG_T_BLOCK),
    MCA_COLL_RSAG_T16(MCA_COLL_RSAG_T_MULTI ", " MCA_COLL_RSAG_T_BLOCK,
                      ", " MCA_COLL_RSAG_T_MULTI ", " MCA_COLL_RSAG_T_BLOCK),
};

const char *mca_coll_rsag_restriction_text(unsigned bits)
{
    return mca_coll_rsag_restriction_texts[bits & ((1u << MCA_COLL_RSAG_NUM_RESTRICTIONS) - 1u)];
}

void mca_coll_rsag_tuning_defaults(mca_coll_rsag_coll_t coll, mca_coll_rsag_tuning_t *tuning)
{
    tuning->forced = MCA_COLL_RSAG_AUTO;
    for (int id = 0; id <= MCA_COLL_RSAG_MAX_ALGS; ++id) {
        tuning->min_bytes[id] = MCA_COLL_RSAG_MIN_BYTES_BY_CLASS;
    }
    tuning->class_bounds = NULL;
    for (int id = 0; id <= MCA_COLL_RSAG_MAX_ALGS; ++id) {
        tuning->max_bytes[id] = -1;
    }
    switch (coll) {
    case MCA_COLL_RSAG_ALLREDUCE:
        tuning->max_bytes[MCA_COLL_RSAG_ALLREDUCE_LEADERS] =
            MCA_COLL_RSAG_DEF_ALLREDUCE_LEADERS_MAX_BYTES;
        break;
    case MCA_COLL_RSAG_REDUCE:
        tuning->max_bytes[MCA_COLL_RSAG_REDUCE_LEADERS] = MCA_COLL_RSAG_DEF_REDUCE_LEADERS_MAX_BYTES;
        break;
    case MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK:
        tuning->max_bytes[MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK_LEADERS] =
            MCA_COLL_RSAG_DEF_RS_LEADERS_MAX_BYTES;
        break;
    case MCA_COLL_RSAG_REDUCE_SCATTER:
        tuning->max_bytes[MCA_COLL_RSAG_REDUCE_SCATTER_LEADERS] = MCA_COLL_RSAG_DEF_RS_LEADERS_MAX_BYTES;
        break;
    default:
        break;
    }
}

int mca_coll_rsag_comm_class(const int *bounds, int p)
{
    if (NULL == bounds) {
        bounds = mca_coll_rsag_default_class_bounds;
    }
    for (int k = 0; k < MCA_COLL_RSAG_NUM_SIZE_CLASSES - 1; ++k) {
        if (p <= bounds[k]) {
            return k;
        }
    }
    return MCA_COLL_RSAG_NUM_SIZE_CLASSES - 1;
}

int mca_coll_rsag_call_class(const int *bounds, const mca_coll_rsag_call_t *call)
{
    if (call->nodes >= 2) {
        return MCA_COLL_RSAG_CLASS_NODES;
    }
    if (call->oversubscribed) {
        return MCA_COLL_RSAG_CLASS_OVERSUBSCRIBED;
    }
    return mca_coll_rsag_comm_class(bounds, call->comm_size);
}

void mca_coll_rsag_class_text(const int *bounds, int k, char *buf, size_t len)
{
    if (NULL == bounds) {
        bounds = mca_coll_rsag_default_class_bounds;
    }
    if (k >= MCA_COLL_RSAG_CLASS_OVERSUBSCRIBED) {
        snprintf(buf, len, "oversubscribed node");
    } else if (k == MCA_COLL_RSAG_CLASS_NODES) {
        snprintf(buf, len, "several nodes");
    } else if (k < MCA_COLL_RSAG_NUM_SIZE_CLASSES - 1) {
        snprintf(buf, len, "p <= %d", bounds[k]);
    } else {
        snprintf(buf, len, "p > %d", bounds[MCA_COLL_RSAG_NUM_SIZE_CLASSES - 2]);
    }
}

size_t mca_coll_rsag_threshold(mca_coll_rsag_coll_t coll, const mca_coll_rsag_tuning_t *tuning,
                               int id, int k, bool *by_class)
{
    const mca_coll_rsag_alg_desc_t *alg = mca_coll_rsag_alg(coll, id);
    bool use_class = tuning->min_bytes[id] < 0;

    if (NULL != by_class) {
        *by_class = use_class;
    }
    if (!use_class) {
        return (size_t) tuning->min_bytes[id];
    }
    if (NULL == alg || k < 0 || k >= MCA_COLL_RSAG_NUM_COMM_CLASSES) {
        return 0;
    }
    return alg->default_min_bytes[k];
}

bool mca_coll_rsag_fix_class_bounds(int *bounds)
{
    for (int k = 0; k < MCA_COLL_RSAG_NUM_SIZE_CLASSES - 1; ++k) {
        if (bounds[k] < 1 || (k > 0 && bounds[k] <= bounds[k - 1])) {
            for (int j = 0; j < MCA_COLL_RSAG_NUM_SIZE_CLASSES - 1; ++j) {
                bounds[j] = mca_coll_rsag_default_class_bounds[j];
            }
            return true;
        }
    }
    return false;
}

bool mca_coll_rsag_fix_min_bytes(long *min_bytes)
{
    if (*min_bytes < MCA_COLL_RSAG_MIN_BYTES_BY_CLASS) {
        *min_bytes = MCA_COLL_RSAG_MIN_BYTES_BY_CLASS;
        return true;
    }
    return false;
}

bool mca_coll_rsag_fix_run_blocks(int *run_blocks)
{
    int fixed = *run_blocks;

    if (fixed < 1) {
        fixed = 1;
    } else if (fixed > MCA_COLL_RSAG_MAX_RUN_BLOCKS) {
        fixed = MCA_COLL_RSAG_MAX_RUN_BLOCKS;
    } else {
        fixed = mca_coll_rsag_pof2_floor(fixed);
    }
    if (fixed == *run_blocks) {
        return false;
    }
    *run_blocks = fixed;
    return true;
}

bool mca_coll_rsag_fix_chunk_size(size_t *bytes, size_t fallback)
{
    if (*bytes > (SIZE_MAX >> 1)) {
        *bytes = fallback;
        return true;
    }
    return false;
}

size_t mca_coll_rsag_uncovered_below(mca_coll_rsag_coll_t coll,
                                     const mca_coll_rsag_tuning_t *tuning, int k)
{
    const mca_coll_rsag_coll_desc_t *desc = &mca_coll_rsag_colls[coll];
    size_t lowest = SIZE_MAX;

    for (int i = 0; i < desc->nalgs; ++i) {
        size_t min;

        /* only what every commutative call meets covers it */
        if (desc->algs[i].restrictions & (MCA_COLL_RSAG_NEEDS_COUNT_GE_POF2
                                          | MCA_COLL_RSAG_NEEDS_SINGLE_NODE
                                          | MCA_COLL_RSAG_NEEDS_CONTIGUOUS
                                          | MCA_COLL_RSAG_NEEDS_MULTI_NODE
                                          | MCA_COLL_RSAG_NEEDS_ORDERED_START)) {
            continue;
        }
        min = mca_coll_rsag_threshold(coll, tuning, desc->algs[i].id, k, NULL);
        lowest = (min < lowest) ? min : lowest;
    }
    return (SIZE_MAX == lowest) ? 0 : lowest;
}
