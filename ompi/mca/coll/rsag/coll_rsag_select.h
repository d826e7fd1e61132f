/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Algorithm selection: a pure function from (collective, call, tuning) to
 * an algorithm id, reading the restriction columns of the algorithm tables
 * in coll_rsag_algorithms.h.  No MPI here: test/unit/test_select.c covers it.
 */
#ifndef MCA_COLL_RSAG_SELECT_H
#define MCA_COLL_RSAG_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "coll_rsag_algorithms.h"

/* The collectives rsag holds: MCA_COLL_RSAG_ALLREDUCE, ... */
typedef enum mca_coll_rsag_coll_t {
#define MCA_COLL_RSAG_COLL_ENUM(ID, name, mpi_name, LIST) MCA_COLL_RSAG_##ID,
    MCA_COLL_RSAG_COLLECTIVES(MCA_COLL_RSAG_COLL_ENUM)
#undef MCA_COLL_RSAG_COLL_ENUM
    MCA_COLL_RSAG_NUM_COLLS
} mca_coll_rsag_coll_t;

/* Algorithm ids: MCA_COLL_RSAG_ALLREDUCE_RABENSEIFNER, ...; 0 is "auto" in
 * the MCA enum and "delegate to the previous module" in a decision. */
#define MCA_COLL_RSAG_AUTO 0
#define MCA_COLL_RSAG_DELEGATE 0
#define MCA_COLL_RSAG_ALG_ENUM(coll, ALG, id, ...) MCA_COLL_RSAG_##coll##_##ALG = id,
#define MCA_COLL_RSAG_COLL_ALG_ENUM(ID, name, mpi_name, LIST) LIST(MCA_COLL_RSAG_ALG_ENUM)
enum { MCA_COLL_RSAG_COLLECTIVES(MCA_COLL_RSAG_COLL_ALG_ENUM) };
#undef MCA_COLL_RSAG_COLL_ALG_ENUM
#undef MCA_COLL_RSAG_ALG_ENUM

/* Algorithms per collective (ids 1..n, counted from the tables), and the
 * most any collective has: the size of the per-algorithm arrays. */
#define MCA_COLL_RSAG_COUNT_ALG(...) + 1
#define MCA_COLL_RSAG_COLL_NALGS(ID, name, mpi_name, LIST) \
    MCA_COLL_RSAG_NALGS_##ID = 0 LIST(MCA_COLL_RSAG_COUNT_ALG),
enum { MCA_COLL_RSAG_COLLECTIVES(MCA_COLL_RSAG_COLL_NALGS) };
#undef MCA_COLL_RSAG_COLL_NALGS
#undef MCA_COLL_RSAG_COUNT_ALG
#define MCA_COLL_RSAG_MAX2(a, b) ((a) > (b) ? (a) : (b))
#define MCA_COLL_RSAG_MAX_ALGS                                                     \
    MCA_COLL_RSAG_MAX2(MCA_COLL_RSAG_MAX2(MCA_COLL_RSAG_NALGS_ALLREDUCE,             \
                                          MCA_COLL_RSAG_NALGS_REDUCE),               \
                       MCA_COLL_RSAG_MAX2(MCA_COLL_RSAG_NALGS_REDUCE_SCATTER_BLOCK,  \
                                          MCA_COLL_RSAG_NALGS_REDUCE_SCATTER))

/* One row of an algorithm table, without its function. */
typedef struct mca_coll_rsag_alg_desc_t {
    int id;
    const char *name;
    const char *description;
    unsigned restrictions;      /* MCA_COLL_RSAG_NEEDS_* */
    int layout;                 /* MCA_COLL_RSAG_LAYOUT_* */
    size_t default_min_bytes[MCA_COLL_RSAG_NUM_COMM_CLASSES];  /* by communicator class */
} mca_coll_rsag_alg_desc_t;

typedef struct mca_coll_rsag_coll_desc_t {
    const char *name;                       /* "allreduce" */
    const char *mpi_name;                   /* "MPI_Allreduce" */
    const mca_coll_rsag_alg_desc_t *algs;   /* algs[i].id == i + 1 */
    int nalgs;
} mca_coll_rsag_coll_desc_t;

extern const mca_coll_rsag_coll_desc_t mca_coll_rsag_colls[MCA_COLL_RSAG_NUM_COLLS];

/* What the selector needs to know about one call. */
typedef struct mca_coll_rsag_call_t {
    int comm_size;
    size_t count;       /* elements */
    size_t bytes;       /* count * type size: the message size */
    bool commutative;
    bool dtype_supported;   /* every algorithm needs a positive extent */
    bool single_node;       /* all ranks on one node and its shared segment usable */
    bool contiguous;        /* datatype size == extent == true extent */
    bool nonblocking;       /* MPI_I* or a persistent *_init call */
    bool unordered_start;   /* a persistent request that may be started in another
                               order on other ranks (MPI-4.0, 6.13: its matching is
                               done at init), unless the program asserts otherwise */
    /* Node structure (the same on every rank; coll_rsag_hier.c): nodes the
     * ranks are on (0: not known, taken as one), and S, the smallest number
     * of ranks on any of them (>= 1), or 0 when not known or when the
     * node-aware algorithms cannot run on this communicator (making their
     * sub-communicators failed). */
    int nodes;
    int min_ranks_per_node;
    /* all ranks on one node that runs more processes than it has cores
     * (Open MPI yields the core when idle there): the communicator takes
     * the class MCA_COLL_RSAG_CLASS_OVERSUBSCRIBED, whatever its size */
    bool oversubscribed;
    /* coll_rsag_reproducible = placement for this call: only the rows with
     * MCA_COLL_RSAG_FOLDS_IN_RANK_ORDER may run it (mca_coll_rsag_select) */
    bool rank_order;
    /* coll_rsag_reproducible = exact for this call (MPI_SUM of a type
     * exact handles): only the rows with MCA_COLL_RSAG_FOLDS_WHOLE; where
     * none applies the dispatcher runs exact's own collectives */
    bool whole_fold;
    /* whole_fold, and exact's one collective takes the call
     * (mca_coll_rsag_exact_gathers): no row folds it over the network */
    bool exact_gather;
    /* the message is at least comm_size - 1 segments of
     * coll_rsag_exchange_chunk_size: auto may take a MCA_COLL_RSAG_FILLS_PIPE
     * row */
    bool pipe_full;
} mca_coll_rsag_call_t;

/* coll_rsag_<coll>_<alg>_min_bytes: any negative value (default -1) means
 * "the compiled-in default of the communicator's size class"; N >= 0 is
 * the threshold for every communicator size. */
#define MCA_COLL_RSAG_MIN_BYTES_BY_CLASS (-1L)

/* Per-collective tuning, from the MCA parameters. */
typedef struct mca_coll_rsag_tuning_t {
    int forced;                                       /* 0 = auto */
    long min_bytes[MCA_COLL_RSAG_MAX_ALGS + 1];       /* by id; < 0: by class */
    /* By id: auto takes the algorithm, where it applies, for every message
     * smaller than this, ahead of the min_bytes thresholds (the first such
     * row in table order); < 0: no such bound.  Only `leaders` has one
     * (coll_rsag_<coll>_leaders_max_bytes; coll_rsag_algorithms.h). */
    long max_bytes[MCA_COLL_RSAG_MAX_ALGS + 1];
    /* Upper bounds of the size classes but the last
     * (coll_rsag_comm_class_<k>_max_size; MCA_COLL_RSAG_NUM_SIZE_CLASSES - 1
     * of them); NULL: the compiled-in ones. */
    const int *class_bounds;
} mca_coll_rsag_tuning_t;

typedef enum mca_coll_rsag_reason_t {
    MCA_COLL_RSAG_REASON_AUTO,          /* auto, by message size */
    MCA_COLL_RSAG_REASON_FORCED,        /* forced and applicable */
    MCA_COLL_RSAG_REASON_FALLBACK,      /* forced, not applicable: auto among the rest */
    MCA_COLL_RSAG_REASON_DATATYPE,      /* extent <= 0: delegate */
    MCA_COLL_RSAG_REASON_NONE,          /* restrictions rule out every algorithm: delegate */
    MCA_COLL_RSAG_REASON_UNCOVERED,     /* thresholds leave this size uncovered: delegate */
    MCA_COLL_RSAG_REASON_PLACEMENT,     /* rank_order: auto among the rank-order rows (the
                                           forced one, if any, does not fold in rank order) */
    MCA_COLL_RSAG_NUM_REASONS
} mca_coll_rsag_reason_t;

typedef struct mca_coll_rsag_decision_t {
    int alg;                            /* id, or MCA_COLL_RSAG_DELEGATE */
    mca_coll_rsag_reason_t reason;
    unsigned unmet;                     /* FALLBACK: what the forced one lacked;
                                           NONE: what the algorithms lacked */
    /* AUTO / FALLBACK with an algorithm: the threshold that chose it */
    size_t threshold;
    int comm_class;                     /* class of the communicator: a size
                                           class, MCA_COLL_RSAG_CLASS_NODES or
                                           MCA_COLL_RSAG_CLASS_OVERSUBSCRIBED */
    bool by_class;                      /* threshold is the class default */
    bool below;                         /* AUTO: chosen by max_bytes (threshold is
                                           that bound, > bytes) */
    bool first;                         /* rank_order: no threshold covers the size,
                                           the first applicable rank-order row */
} mca_coll_rsag_decision_t;

/* Restriction bits of `alg` that `call` does not meet (0: applicable). */
unsigned mca_coll_rsag_unmet(const mca_coll_rsag_alg_desc_t *alg,
                             const mca_coll_rsag_call_t *call);

/* The decision for one call: the forced algorithm where it applies; else,
 * among the applicable rows, the first one with a max_bytes bound above
 * the message (`leaders`), then the one with the largest threshold <=
 * bytes (the later row on ties), a node-aware row (NEEDS_MULTI_NODE)
 * going ahead of the flat ones from its threshold on.
 * call->rank_order (coll_rsag_reproducible = placement): only the rows
 * with MCA_COLL_RSAG_FOLDS_IN_RANK_ORDER; a forced row without it is
 * replaced (REASON_PLACEMENT); among them the largest threshold <= bytes,
 * and where no threshold covers the size, the first applicable one in
 * table order (`direct` where it runs, else `ordered`): never a delegation
 * while one of them applies.  call->whole_fold (exact): the same among the
 * rows with MCA_COLL_RSAG_FOLDS_WHOLE, except that a call with
 * call->exact_gather goes to the first applicable one only if it needs one
 * node (`direct`), else to the previous module (meaning exact's own
 * collectives there). */
mca_coll_rsag_decision_t mca_coll_rsag_select(mca_coll_rsag_coll_t coll,
                                              const mca_coll_rsag_call_t *call,
                                              const mca_coll_rsag_tuning_t *tuning);

/* Table look-ups. NULL / "?" when out of range. */
const mca_coll_rsag_alg_desc_t *mca_coll_rsag_alg(mca_coll_rsag_coll_t coll, int id);
const char *mca_coll_rsag_alg_name(mca_coll_rsag_coll_t coll, int id);

/* Human-readable text of restriction bits, e.g. "commutative op, count >= p'". */
const char *mca_coll_rsag_restriction_text(unsigned bits);

/* Defaults of a tuning block (forced = auto, thresholds by class,
 * compiled-in class bounds). */
void mca_coll_rsag_tuning_defaults(mca_coll_rsag_coll_t coll, mca_coll_rsag_tuning_t *tuning);

/* ---- communicator-size classes ---------------------------------------- */

/* Compiled-in class bounds (MCA_COLL_RSAG_COMM_CLASS_BOUNDS). */
extern const int mca_coll_rsag_default_class_bounds[MCA_COLL_RSAG_NUM_SIZE_CLASSES - 1];

/* Size class of a communicator of size p: the first k whose bound is >= p,
 * else the last size class.  Any bounds give a class (MPI_T may write
 * nonsense). */
int mca_coll_rsag_comm_class(const int *bounds, int p);

/* Class of the communicator of a call: MCA_COLL_RSAG_CLASS_NODES when its
 * ranks are on several nodes, MCA_COLL_RSAG_CLASS_OVERSUBSCRIBED when they
 * are on one oversubscribed node, else its size class. */
int mca_coll_rsag_call_class(const int *bounds, const mca_coll_rsag_call_t *call);

/* "p <= 4", "p > 4", "several nodes", "oversubscribed node": the range of
 * class k under `bounds`. */
void mca_coll_rsag_class_text(const int *bounds, int k, char *buf, size_t len);

/* Threshold auto uses for algorithm `id` on a communicator of class k;
 * *by_class (may be NULL) tells whether it is the class default. */
size_t mca_coll_rsag_threshold(mca_coll_rsag_coll_t coll, const mca_coll_rsag_tuning_t *tuning,
                               int id, int k, bool *by_class);

/* ---- validation of settings (registration time) ------------------------
 * Each returns true when it had to change the value (the caller says so). */

/* Bounds must be >= 1 and strictly increasing; otherwise all are reset
 * to the compiled-in ones. */
bool mca_coll_rsag_fix_class_bounds(int *bounds);
/* A negative threshold other than -1 becomes -1 (by class). */
bool mca_coll_rsag_fix_min_bytes(long *min_bytes);
/* priority_aware_run_blocks: < 1 -> 1, otherwise rounded down to a power
 * of two and capped at MCA_COLL_RSAG_MAX_RUN_BLOCKS. */
#define MCA_COLL_RSAG_MAX_RUN_BLOCKS (1 << 16)
bool mca_coll_rsag_fix_run_blocks(int *run_blocks);
/* A ring chunk size with the top bit set (a negative number read as
 * size_t) becomes `fallback`. */
bool mca_coll_rsag_fix_chunk_size(size_t *bytes, size_t fallback);
/* Smallest message size auto covers for every commutative call of class
 * k: 0 unless the thresholds leave small messages to the previous module. */
size_t mca_coll_rsag_uncovered_below(mca_coll_rsag_coll_t coll,
                                     const mca_coll_rsag_tuning_t *tuning, int k);

#endif /* MCA_COLL_RSAG_SELECT_H */
