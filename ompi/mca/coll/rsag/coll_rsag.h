/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * mca_coll_rsag: reduction collectives built on reduce-scatter/allgather.
 *
 * The component, the module and the one signature every algorithm has.
 * HACKING.md draws the call path; in short:
 *
 *   coll_rsag_component.c   MCA parameters and MPI_T counters
 *   coll_rsag_module.c      query, enable/disable (previous modules kept for
 *                           delegation), the twelve slots (blocking,
 *                           nonblocking, persistent), generated from one list
 *   coll_rsag_dispatch.c    the module's state and the dispatcher: describe,
 *                           decide (selector, counters, verbose trace),
 *                           build (the shared prologue, then the algorithm),
 *                           run; the node segment and node structure made
 *                           on first use
 *   coll_rsag_algorithms.h  one table per collective: the single source of
 *                           truth (enum, names, restrictions, layout,
 *                           default thresholds, function)
 *   coll_rsag_select.c      the pure selector
 *   coll_rsag_<coll>_<alg>.c  one file per algorithm, a composition of the
 *                           building blocks: coll_rsag_halving.c,
 *                           coll_rsag_ring.c, coll_rsag_priority_pattern.c;
 *                           each describes its steps into a schedule
 *   coll_rsag_sched.c       schedules: run blocking, nonblocking, persistent
 *   coll_rsag_request.c     the requests of the nonblocking and persistent calls
 *   coll_rsag_mem.h, _p2p.h, _op.h   temporaries, point-to-point, op dispatch
 *   coll_rsag_index.c       pure index arithmetic
 */
#ifndef MCA_COLL_RSAG_H
#define MCA_COLL_RSAG_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/mca/coll/base/coll_tags.h"
#include "ompi/op/op.h"
#include "opal/runtime/opal_progress.h"

#include "coll_rsag_compat.h"
#include "coll_rsag_index.h"
#include "coll_rsag_mem.h"
#include "coll_rsag_sched.h"
#include "coll_rsag_segment.h"
#include "coll_rsag_select.h"

BEGIN_C_DECLS

/* coll_rsag_verbose levels */
#define MCA_COLL_RSAG_VERBOSE_DECISIONS 1   /* each decision, once per comm and size class */
#define MCA_COLL_RSAG_VERBOSE_MODULE    2   /* module query/enable/disable */

typedef struct mca_coll_rsag_component_t {
    mca_coll_base_component_t super;

    int priority;
    int verbose;
    int output;                                    /* opal_output stream */
    mca_coll_rsag_tuning_t tuning[MCA_COLL_RSAG_NUM_COLLS];
    /* coll_rsag_comm_class_<k>_max_size; every tuning[].class_bounds points here */
    int class_bounds[MCA_COLL_RSAG_NUM_SIZE_CLASSES - 1];
    /* coll_rsag_oversubscribed_defaults: where Open MPI yields when idle, a
     * one-node communicator takes the "oversubscribed node" thresholds and
     * direct copies through the segment */
    bool oversubscribed_defaults;

    size_t allreduce_ring_chunk_size;              /* ring chunk bytes; 0: whole blocks */
    size_t rs_ring_chunk_size;                     /* the reduce-scatter ring's */
    int priority_aware_run_blocks;                 /* vblocks per message, power of 2 */
    /* coll_rsag_<coll>_hierarchical_inter_algorithm: the algorithm of the
     * cross-node step of hierarchical (0: auto) */
    int hier_inter[MCA_COLL_RSAG_NUM_COLLS];
    /* coll_rsag_hierarchical_chunk_size: bytes of one chunk of the pipelined
     * hierarchical algorithms (0: not pipelined; coll_rsag_hier.c) */
    size_t hier_chunk_size;
    /* coll_rsag_exchange_chunk_size: largest message in bytes where
     * circulant and ordered send a run of blocks (0: whole runs;
     * mca_coll_rsag_exchange_chunk) */
    size_t exchange_chunk_size;

    /* MPI_T counters coll_rsag_<coll>_<alg>_calls; [coll][0] counts calls
     * delegated to the previous module (coll_rsag_<coll>_delegated_calls).
     * Incremented atomically. */
    unsigned long long calls[MCA_COLL_RSAG_NUM_COLLS][MCA_COLL_RSAG_MAX_ALGS + 1];
} mca_coll_rsag_component_t;

MCA_COLL_RSAG_EXPORT extern mca_coll_rsag_component_t mca_coll_rsag_component;

/* Tags of nonblocking and persistent requests: each request takes the
 * next one, downwards, on every rank in the same order (MPI orders the
 * collective calls of a communicator), so messages of requests in flight at
 * the same time never match each other's.  The range is the bottom of
 * Open MPI's nonblocking range: libnbc takes its tags from the top of it
 * and would have to run some 10^9 nonblocking collectives on one
 * communicator, with some still in flight, to meet one of ours in use. */
/* Add d to a process-wide counter (the MPI_T counters): a relaxed atomic
 * when threads may make MPI calls at once, a plain add otherwise.  A
 * locked add also waits for this thread's earlier stores to reach the
 * cache, such as a box just published to a peer on another core: a tenth
 * of a small nonblocking call. */
static inline void mca_coll_rsag_count(unsigned long long *counter, unsigned long long d)
{
    if (opal_using_threads()) {
        (void) __atomic_fetch_add(counter, d, __ATOMIC_RELAXED);
    } else {
        *counter += d;
    }
}

/* A macro's value as a string literal (for help texts). */
#define MCA_COLL_RSAG_STR2(x) #x
#define MCA_COLL_RSAG_STRINGIFY(x) MCA_COLL_RSAG_STR2(x)

#define MCA_COLL_RSAG_TAG_LAST  MCA_COLL_BASE_TAG_NONBLOCKING_END
#define MCA_COLL_RSAG_TAG_FIRST (MCA_COLL_BASE_TAG_NONBLOCKING_END + (1 << 20) - 1)
/* The tag k places after `tag` in that sequence (downwards, FIRST after
 * LAST): the lanes of a schedule take consecutive ones (coll_rsag_sched.h). */
static inline int mca_coll_rsag_tag_after(int tag, int k)
{
    const int range = MCA_COLL_RSAG_TAG_FIRST - MCA_COLL_RSAG_TAG_LAST + 1;

    return MCA_COLL_RSAG_TAG_FIRST - (MCA_COLL_RSAG_TAG_FIRST - tag + k % range) % range;
}
/* The tag of the node segment's set-up messages, just above that range: a
 * tag of their own, so that a peer which (in an erroneous program, or with
 * settings that differ between ranks) sends a reduction's data instead can
 * never land in the set-up's small receive buffers. */
#define MCA_COLL_RSAG_TAG_SETUP (MCA_COLL_RSAG_TAG_FIRST + 1)
/* The collectives rsag fills (coll_rsag_fill.c) that are blocking, or
 * nonblocking on an intercommunicator: one fixed tag, as Open MPI's basic
 * uses, not a request's.  MPI's layer returns from some calls without
 * reaching the slot on some ranks (MPI_Bcast, MPI_Ireduce of 0 elements:
 * a root group's MPI_PROC_NULL ranks may pass 0), so a count of calls would
 * differ between ranks.  Every message of such a schedule is posted when
 * the call starts, the calls start in the same order everywhere and the
 * messages of one pair stay in order, so one tag serves all of them. */
#define MCA_COLL_RSAG_TAG_FILL_ORDERED (MCA_COLL_RSAG_TAG_FIRST + 2)

/* The slots rsag takes (coll_<name> in Open MPI's module and c_coll). */
#define MCA_COLL_RSAG_SLOTS(S) S(allreduce) S(reduce) S(reduce_scatter_block) S(reduce_scatter) \
    S(iallreduce) S(ireduce) S(ireduce_scatter_block) S(ireduce_scatter)                        \
    S(allreduce_init) S(reduce_init) S(reduce_scatter_block_init) S(reduce_scatter_init)

/* The function and module that held each slot before rsag, kept for
 * delegation. */
typedef struct mca_coll_rsag_previous_t {
#define MCA_COLL_RSAG_PREVIOUS_FIELDS(name)                                        \
    mca_coll_base_module_##name##_fn_t name;                                       \
    mca_coll_base_module_t *name##_module;
    MCA_COLL_RSAG_SLOTS(MCA_COLL_RSAG_PREVIOUS_FIELDS)
#undef MCA_COLL_RSAG_PREVIOUS_FIELDS
} mca_coll_rsag_previous_t;

/* The selector's last answer for one collective on one communicator and
 * one value of coll_rsag_<coll>_algorithm, with the inputs it was computed
 * from (compared whole, padding zeroed, so any change of the call or of
 * the tuning parameters, e.g. through MPI_T, selects again). */
typedef struct mca_coll_rsag_last_decision_t {
    bool valid;
    mca_coll_rsag_call_t call;
    mca_coll_rsag_tuning_t tuning;
    mca_coll_rsag_decision_t d;
} mca_coll_rsag_last_decision_t;

typedef struct mca_coll_rsag_module_t {
    mca_coll_base_module_t super;
    mca_coll_rsag_scratch_t scratch;
    /* the temporaries of a blocking call of coll_rsag_reproducible exact,
     * which brackets the inner collectives that use `scratch`
     * (coll_rsag_exact.c) */
    mca_coll_rsag_scratch_t exact_scratch;
    mca_coll_rsag_previous_t previous;
    bool previous_retained;
    /* The communicator's info said coll_rsag_reductions = false: rsag does
     * not take its four reductions here (they stay with the module below),
     * and fills empty slots as on an intercommunicator. */
    bool reductions_off;
    /* Block layouts of the current call: p + 1 rank-block offsets, then
     * p' + 1 vblock offsets; allocated on first use, kept with the
     * communicator. */
    size_t *layouts;
    /* Decisions already printed at MCA_COLL_RSAG_VERBOSE_DECISIONS: one bit
     * per message size class (log2 of bytes) for each (blocking or not,
     * coll, alg, reason). */
    uint64_t reported[2][MCA_COLL_RSAG_NUM_COLLS][MCA_COLL_RSAG_MAX_ALGS + 1]
                     [MCA_COLL_RSAG_NUM_REASONS];
    mca_coll_rsag_last_decision_t last[MCA_COLL_RSAG_NUM_COLLS][MCA_COLL_RSAG_MAX_ALGS + 1];
    /* The node path (direct): whether every rank is on this node (-1: not
     * looked at yet), the state of the shared segment and the segment,
     * made by the first call that selects direct, freed with the module. */
    int all_local;
    mca_coll_rsag_node_state_t node_state;
    mca_coll_rsag_segment_t *segment;
    /* The node structure (coll_rsag_hier.c): nodes the ranks are on (-1:
     * not known yet) and S, the smallest number of ranks on a node, the
     * same on every rank; hier: its details and the sub-communicators of
     * hierarchical (NULL on one node); in_setup: making them, every call
     * on this communicator goes to the previous module. */
    int nodes;
    int min_ranks_per_node;
    struct mca_coll_rsag_hier_t *hier;
    bool in_setup;
    /* The schedule of the blocking calls, reset and reused by each. */
    mca_coll_rsag_sched_t sched;
    /* Tag of the next nonblocking or persistent request (coll_rsag_request.c). */
    int next_tag;
    /* The latency path's table (coll_rsag_latency.c): the small calls it
     * remembers, by form, collective and shape; NULL until a call took it. */
    struct mca_coll_rsag_latency_t *latency;
    /* Bit c: rsag's settings of collective c were compared across the
     * ranks (coll_rsag_check.c: once, at its first blocking call). */
    unsigned settings_checked;
    /* An intercommunicator's persistent collectives that rsag fills
     * (coll_rsag_fill.c): per remote rank, how many have exchanged messages
     * with it (their tag); NULL until the first. */
    unsigned *pair_calls;
} mca_coll_rsag_module_t;

OBJ_CLASS_DECLARATION(mca_coll_rsag_module_t);

/* Component / module entry points (coll_rsag_module.c); the slots are
 * static there, generated from MCA_COLL_RSAG_SLOTS. */
int mca_coll_rsag_init_query(bool enable_progress_threads, bool enable_mpi_threads);
mca_coll_base_module_t *mca_coll_rsag_comm_query(struct ompi_communicator_t *comm, int *priority);

/* The node is taken as oversubscribed: Open MPI yields the core when idle
 * there (it does where a node runs more processes than it has cores), and
 * coll_rsag_oversubscribed_defaults is on.  The same on every rank of one
 * node (and compared between ranks by the settings check). */
static inline bool mca_coll_rsag_node_oversubscribed(void)
{
    return mca_coll_rsag_component.oversubscribed_defaults && opal_progress_yield_when_idle;
}

/* Release the modules kept for delegation (idempotent): module disable,
 * and the module's destructor as a backstop. */
static inline void mca_coll_rsag_release_previous(mca_coll_rsag_module_t *m)
{
    if (!m->previous_retained) {
        return;
    }
    m->previous_retained = false;
/* (a fallback rsag filled itself is this module, not retained: coll_rsag_fill.c) */
#define MCA_COLL_RSAG_RELEASE(name)                                                \
    if (NULL != m->previous.name##_module && &m->super != m->previous.name##_module) { \
        OBJ_RELEASE(m->previous.name##_module);                                    \
    }
    MCA_COLL_RSAG_SLOTS(MCA_COLL_RSAG_RELEASE)
#undef MCA_COLL_RSAG_RELEASE
    memset(&m->previous, 0, sizeof(m->previous));
}

/*
 * The one signature of every algorithm: it describes its steps (sends,
 * receives, reductions, copies and the order they need) into a schedule,
 * which the blocking call runs at once, the nonblocking call hands to Open
 * MPI's progress engine and the persistent call keeps for every start
 * (coll_rsag_sched.h).  It returns OMPI_SUCCESS or the error that stopped
 * the description (s->err).  The dispatcher (coll_rsag_dispatch.c) has
 * already handled what is common to all of them: a communicator of one
 * rank (a copy), an empty vector (nothing), MPI_IN_PLACE (input is the
 * receive buffer) and the block layout the table row asks for.  So an
 * algorithm sees p >= 2, count >= 1, the restrictions of its row met.
 * The layouts (displ, vdispl) are only read while the schedule is built.
 * What an algorithm needs of the communicator's state (the node segment,
 * the node structure) the dispatcher puts here too: an algorithm reads `a`
 * only, never the module.
 */
typedef struct mca_coll_rsag_args_t {
    const char *input;      /* this rank's contribution: sbuf, or rbuf when in place */
    char *rbuf;             /* MPI's receive buffer (MPI_Reduce: root only) */
    bool in_place;          /* input == rbuf */
    size_t count;           /* elements of the whole vector */
    /* Layouts (table column "layout"; NULL when not asked for):
     * MCA_COLL_RSAG_LAYOUT_RANKS  displ: p blocks (reduce-scatters: MPI's
     *                             blocks; allreduce: even), vdispl: their
     *                             vblocks after folding;
     * MCA_COLL_RSAG_LAYOUT_HALVES vdispl: the vector cut in halves of
     *                             halves, p' vblocks. */
    const size_t *displ;
    const size_t *vdispl;
    struct ompi_datatype_t *dtype;
    ptrdiff_t extent;
    struct ompi_op_t *op;
    int root;               /* MPI_Reduce; -1 otherwise */
    int rank, size;
    int tag;
    mca_coll_rsag_coll_t coll;  /* the collective (both reduce-scatters share rows) */
    struct ompi_communicator_t *comm;
    /* the node path's shared segment (made before `direct` runs; else NULL) */
    mca_coll_rsag_segment_t *segment;
    /* the node structure and sub-communicators (ready before
     * `hierarchical` runs; else NULL or not ready) */
    struct mca_coll_rsag_hier_t *hier;
    /* the reproducibility this call must keep (mca_coll_rsag_reproducible_t,
     * coll_rsag_reproducible.h): the parameter's value, set by the slot; a
     * collective rsag runs inside another one may ask for less */
    int reproducible;
} mca_coll_rsag_args_t;

/* Elements per message at most where an algorithm sends a run of blocks
 * at once (circulant, ordered): coll_rsag_exchange_chunk_size in elements
 * of the call (at least one), or SIZE_MAX (0: every piece whole).  A
 * piece travels in the messages mca_coll_rsag_even_chunk cuts. */
static inline size_t mca_coll_rsag_exchange_chunk(const mca_coll_rsag_args_t *a)
{
    size_t bytes = mca_coll_rsag_component.exchange_chunk_size;
    size_t ext = (size_t) a->extent;

    if (0 == bytes) {
        return SIZE_MAX;
    }
    return (bytes >= ext && ext > 0) ? bytes / ext : 1;
}

/* The segments of a pipeline over the whole vector in exchange chunks
 * (MPI_Reduce's chain; the dispatcher's call->pipe_full). */
static inline size_t mca_coll_rsag_pipe_segments(const mca_coll_rsag_args_t *a)
{
    return mca_coll_rsag_even_messages(a->count, mca_coll_rsag_exchange_chunk(a));
}

typedef int (*mca_coll_rsag_alg_fn_t)(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a);

/* The algorithms: one file each (the function column of the tables). */
#define MCA_COLL_RSAG_DECLARE_ALG(coll, ALG, id, name, desc, restr, layout, min, fn) \
    int fn(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a);
MCA_COLL_RSAG_ALLREDUCE_ALGORITHMS(MCA_COLL_RSAG_DECLARE_ALG)
MCA_COLL_RSAG_REDUCE_ALGORITHMS(MCA_COLL_RSAG_DECLARE_ALG)
MCA_COLL_RSAG_REDUCE_SCATTER_ALGORITHMS(MCA_COLL_RSAG_DECLARE_ALG)
#undef MCA_COLL_RSAG_DECLARE_ALG

END_C_DECLS

#endif /* MCA_COLL_RSAG_H */
