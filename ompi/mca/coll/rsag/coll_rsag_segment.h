/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The per-communicator shared segment of the node path (`direct`), made
 * lazily by the first call that selects `direct` on a communicator whose
 * ranks all live on this node, and unmapped with the communicator.
 *
 * Layout (every part starts on a cache line):
 *
 *   ctl[0] ... ctl[p-1]     one control line per rank, written only by its
 *                           rank, read by all: the progress counters of the
 *                           protocol and the addresses it publishes
 *   box[0][0,1] ...         two boxes of 65 lines per rank, written only by
 *   box[p-1][0,1]           its rank: the tick that stamps it, then a
 *                           vector of up to 4152 bytes (1080 from p = 3;
 *                           up to 56 in the stamp's line, so that a peer
 *                           reads both with one cache miss); a step's two
 *                           boxes alternate like the slot halves
 *   slot[0] ... slot[p-1]   one data slot per rank (coll_rsag_segment_size
 *                           bytes, a multiple of the cache line), written
 *                           only by its rank; two halves so that a window
 *                           can be written while peers still read the
 *                           previous one
 *
 * The protocol counts "ticks": every rank runs the same sequence of ticks
 * (collectives on a communicator are ordered), so a counter that reached
 * tick t says that rank is past that point of the t-th step.  Counters only
 * grow, so nothing is ever reset.  Writes are published with release
 * stores and read with acquire loads.
 */
#ifndef MCA_COLL_RSAG_SEGMENT_H
#define MCA_COLL_RSAG_SEGMENT_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "opal/mca/base/base.h"
#include "ompi/communicator/communicator.h"

#include "coll_rsag_index.h"
#include "coll_rsag_stream.h"

BEGIN_C_DECLS

#define MCA_COLL_RSAG_CACHE_LINE ((size_t) 64)

/* One rank's control line. */
typedef struct mca_coll_rsag_ctl_t {
    uint64_t arrive;    /* tick: my input of this tick is published (slot or addresses) */
    uint64_t ready;     /* tick: my part of the result is available */
    uint64_t done;      /* tick: I have stopped reading peers' data of this tick */
    uint64_t failed;    /* tick at which my part failed (a CMA transfer); 0: never */
    uint64_t input;     /* CMA: address of my input's first data byte */
    uint64_t output;    /* CMA: address of my receive buffer's first data byte */
    uint64_t probe;     /* set-up: address of a private word peers test-read */
    int32_t pid;        /* set-up: my process id */
    uint16_t joined;    /* set-up: 1 once pid and probe are written */
    uint16_t probed;    /* set-up: my CMA test read worked (1) or not (2) */
} mca_coll_rsag_ctl_t;

/* One rank's ballot line: the copy learner's votes (coll_rsag_stream.h),
 * double-buffered by the vote's parity (a rank posts vote e + 2 only
 * after every rank posted e + 1, so after everyone read e). */
typedef struct mca_coll_rsag_vote_t {
    uint64_t seq;                       /* my last vote posted (1, 2, ...) */
    double cost[2][2];                  /* [vote % 2][way]: my seconds per call */
} __attribute__((aligned(64))) mca_coll_rsag_vote_t;

/* One rank's box: a small vector after its stamp, from the start of a
 * cache line, so that a vector of up to 56 bytes and its stamp share one
 * line (a peer reads both with one miss); larger ones continue on the
 * next lines (read after the stamp: written before it).  Its size:
 * MCA_COLL_RSAG_BOX_BYTES (coll_rsag_index.h). */
typedef struct mca_coll_rsag_box_t {
    uint64_t tick;                      /* data holds this tick's vector */
    char data[MCA_COLL_RSAG_BOX_BYTES]; /* 8-byte aligned */
} mca_coll_rsag_box_t;

/* How the node path moves data between ranks. */
typedef enum mca_coll_rsag_copy_mode_t {
    MCA_COLL_RSAG_COPY_SEGMENT,     /* copies through the data slots */
    MCA_COLL_RSAG_COPY_CMA          /* single-copy pulls of peers' buffers (CMA) */
} mca_coll_rsag_copy_mode_t;

/* A communicator's segment, as this rank sees it. */
typedef struct mca_coll_rsag_segment_t {
    char *base;                     /* the mapping */
    size_t bytes;                   /* its length */
    int size, rank;
    mca_coll_rsag_ctl_t *ctl;       /* ctl[size] */
    mca_coll_rsag_vote_t *votes;    /* votes[size] */
    mca_coll_rsag_box_t *boxes;     /* box h of rank q at boxes[2 * q + h] */
    char *slots;                    /* slot q at slots + q * slot_bytes */
    size_t slot_bytes;
    mca_coll_rsag_copy_mode_t mode;
    uint64_t tick;                  /* last tick this rank took (a call takes its
                                       ticks when it starts, in call order) */
    uint64_t finished;              /* last tick this rank has finished: a tick
                                       starts only after the one before it */
    pid_t *pids;                    /* peers' process ids (CMA) */
    uint64_t *seen_done;            /* [size]: highest done of each rank seen so far */
    int readers[2];                 /* who read half (box) h at the last tick that
                                       posted into it: -1 every rank, else that one
                                       rank (a whole-vector reduce's root) */
    uint64_t probe_word;            /* what peers read to test CMA */
    size_t charged;                 /* bytes counted against coll_rsag_segment_max_bytes
                                       (the creator, rank 0), else 0 */
    int traced_fanin;               /* the boxed calls' fan-in last traced (verbose) */
    mca_coll_rsag_stream_learner_t learn; /* coll_rsag_direct_stream auto: how this rank
                                             writes for its peers, by message size */
    const struct mca_coll_rsag_segment_t *node; /* a persistent request's own segment: the
                                             communicator's, whose `learn` its calls follow
                                             as it learns (it outlives the request, which
                                             holds the communicator); else NULL */
    mca_coll_rsag_copy_learner_t copy[3]; /* coll_rsag_single_copy auto: segment or CMA,
                                             by collective (mca_coll_rsag_direct_kind_t)
                                             and message size, agreed by vote */
    bool learn_copy;                /* coll_rsag_single_copy auto learns the mode */
    uint64_t vote;                  /* my last vote */
    int traced_copy;                /* the class of the last copy-mode trace (verbose) */
} mca_coll_rsag_segment_t;

/* State of a module's node path. */
typedef enum mca_coll_rsag_node_state_t {
    MCA_COLL_RSAG_NODE_UNKNOWN = 0, /* not tried yet */
    MCA_COLL_RSAG_NODE_READY,       /* segment mapped on every rank */
    MCA_COLL_RSAG_NODE_UNAVAILABLE  /* ranks on several nodes, or the segment failed */
} mca_coll_rsag_node_state_t;

/* True when every rank of comm is on this node (the procs' locality). */
bool mca_coll_rsag_comm_single_node(struct ompi_communicator_t *comm);

/* Make the segment of `comm`, collectively (every rank of comm calls it
 * with the same tag): rank 0 creates and names it, its memory reserved
 * (posix_fallocate) within coll_rsag_segment_max_bytes and
 * coll_rsag_segment_keep_free_percent, sends the name through the PML (an
 * empty one when it could not), every rank maps it and says so, rank 0
 * unlinks the name at once and sends the verdict; then, when something may
 * use CMA (coll_rsag_single_copy cma, or auto unless
 * coll_rsag_direct_cma_min_bytes is set to never), each rank test-reads a peer with CMA,
 * posts the outcome in its control line and reads everyone's: all ranks
 * choose the same copy mode.
 * Returns the segment (NULL when any rank failed: then every rank returns
 * NULL) and in `why` the reason of a failure or the data path the calls
 * will take. */
mca_coll_rsag_segment_t *mca_coll_rsag_segment_create(struct ompi_communicator_t *comm,
                                                      int tag, char *why, size_t why_len);
/* A persistent request's own segment (collectively, in its *_init on
 * every rank of comm, `tag` as above): the same layout with data slots of
 * slot_bytes (0: none, the request copies by CMA), its own ticks (the
 * request's starts, in order on every rank whatever the order of the
 * communicator's other calls), the copy mode and copy learners of the
 * node's segment `node` as they are now, and its stream learner as it
 * learns (seg->node).  NULL when any rank failed
 * (every rank returns NULL), the reason in why; else what was made. */
mca_coll_rsag_segment_t *mca_coll_rsag_segment_create_own(const mca_coll_rsag_segment_t *node,
                                                          struct ompi_communicator_t *comm,
                                                          int tag, size_t slot_bytes,
                                                          char *why, size_t why_len);
void mca_coll_rsag_segment_destroy(mca_coll_rsag_segment_t *seg);

/* Bytes of each rank's data slot on a communicator of p ranks:
 * coll_rsag_segment_size, or by p when it is 0 (the default). */
size_t mca_coll_rsag_slot_bytes(int p);

/* Data slot of rank q, half h (0 or 1); each half holds half_bytes. */
static inline char *mca_coll_rsag_slot(const mca_coll_rsag_segment_t *seg, int q, int h)
{
    return seg->slots + (size_t) q * seg->slot_bytes + (size_t) h * (seg->slot_bytes / 2);
}

/* Box h (0 or 1) of rank q. */
static inline mca_coll_rsag_box_t *mca_coll_rsag_box(const mca_coll_rsag_segment_t *seg, int q,
                                                     int h)
{
    return &seg->boxes[2 * q + h];
}

/* ---- waiting ------------------------------------------------------------ */

/* A vote of copy learner l (one of seg->copy) on the class of `bytes`
 * (every rank of the segment calls it at the same call): post my costs,
 * wait for every rank's, settle on the slowest rank's cost of each way
 * (`agreed`, out).  True when the class's way was decided for the first
 * time or changed. */
bool mca_coll_rsag_segment_vote(mca_coll_rsag_segment_t *seg, mca_coll_rsag_copy_learner_t *l,
                                size_t bytes, double agreed[2]);

/* From which message size coll_rsag_single_copy auto learns the copy mode
 * (seg->learn_copy: CMA works on every rank and
 * coll_rsag_direct_cma_min_bytes is not set). */
#define MCA_COLL_RSAG_COPY_LEARN_MIN_BYTES ((size_t) 16 * 1024)

/* Wait until field `field` of rank q's line reaches tick t, progressing
 * Open MPI and yielding the core (oversubscribed peers must run). */
void mca_coll_rsag_wait_one(const mca_coll_rsag_segment_t *seg, int q, size_t field,
                            uint64_t t);
/* ... of every rank (self included). */
void mca_coll_rsag_wait_all(const mca_coll_rsag_segment_t *seg, size_t field, uint64_t t);

/* The same questions asked once, without waiting (the polls of a
 * nonblocking or persistent call's progress): true when the counter (or
 * box stamp) has reached t. */
bool mca_coll_rsag_test_one(const mca_coll_rsag_segment_t *seg, int q, size_t field,
                            uint64_t t);
bool mca_coll_rsag_test_box(const mca_coll_rsag_segment_t *seg, int q, int h, uint64_t t);
/* Box h of rank q holds tick t's vector: wait for it.  A rank stamps a
 * box of tick t only after its done of t - 1, so this (and test_box)
 * also tells the waits for done. */
void mca_coll_rsag_wait_box(const mca_coll_rsag_segment_t *seg, int q, int h, uint64_t t);

/* This rank's own order of ticks: has it finished tick t (test), wait
 * until it has, progressing Open MPI (an earlier call's request still in
 * flight finishes from its progress function), and say it has. */
static inline bool mca_coll_rsag_test_finished(const mca_coll_rsag_segment_t *seg, uint64_t t)
{
    return __atomic_load_n(&seg->finished, __ATOMIC_ACQUIRE) >= t;
}
void mca_coll_rsag_wait_finished(const mca_coll_rsag_segment_t *seg, uint64_t t);
static inline void mca_coll_rsag_finish(mca_coll_rsag_segment_t *seg, uint64_t t)
{
    __atomic_store_n(&seg->finished, t, __ATOMIC_RELEASE);
}

static inline void mca_coll_rsag_publish(mca_coll_rsag_segment_t *seg, size_t field, uint64_t t)
{
    __atomic_store_n((uint64_t *) ((char *) &seg->ctl[seg->rank] + field), t, __ATOMIC_RELEASE);
}

#define MCA_COLL_RSAG_CTL(field) offsetof(mca_coll_rsag_ctl_t, field)

/* Stamp my box with tick t (its data written before). */
static inline void mca_coll_rsag_box_publish(mca_coll_rsag_box_t *box, uint64_t t)
{
    __atomic_store_n(&box->tick, t, __ATOMIC_RELEASE);
}

/* Registration of the node path's parameters (component register):
 * coll_rsag_segment_size, coll_rsag_single_copy, coll_rsag_direct_chunk_size. */
void mca_coll_rsag_segment_register(const mca_base_component_t *c);

typedef enum mca_coll_rsag_single_copy_t {
    MCA_COLL_RSAG_SINGLE_COPY_AUTO = 0,
    MCA_COLL_RSAG_SINGLE_COPY_CMA,
    MCA_COLL_RSAG_SINGLE_COPY_NONE
} mca_coll_rsag_single_copy_t;

typedef enum mca_coll_rsag_stream_mode_t {
    MCA_COLL_RSAG_STREAM_AUTO = 0,  /* learn per communicator and size (coll_rsag_stream.h) */
    MCA_COLL_RSAG_STREAM_ALWAYS,
    MCA_COLL_RSAG_STREAM_NEVER
} mca_coll_rsag_stream_mode_t;

typedef struct mca_coll_rsag_node_params_t {
    size_t segment_size;    /* data slot bytes per rank */
    int single_copy;        /* mca_coll_rsag_single_copy_t */
    size_t chunk_size;      /* bytes reduced at a time from CMA pulls */
    size_t cma_min_bytes;   /* auto, when set: CMA from this message size on (not
                               set: auto learns the mode, coll_rsag_stream.h) */
    int stream;             /* mca_coll_rsag_stream_mode_t */
    size_t stream_min_bytes; /* smaller pieces copied into the segment for other
                                cores always stay in the cache */
    size_t max_bytes;       /* the segments one process creates, together */
    int keep_free_percent;  /* of /dev/shm's size, free after a new segment */
    int fanin;              /* coll_rsag_direct_fanin: 0 auto, 1 flat, k >= 2 the
                               boxed tree of fan-in k (coll_rsag_direct.c) */
    int test_fail;          /* TEST ONLY: r + 1: rank r fails to map the segment;
                               -(r + 1): rank r's CMA test read is refused */
} mca_coll_rsag_node_params_t;
extern mca_coll_rsag_node_params_t mca_coll_rsag_node_params;

END_C_DECLS

#endif /* MCA_COLL_RSAG_SEGMENT_H */
