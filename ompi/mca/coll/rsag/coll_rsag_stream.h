/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Copies into memory that another core reads next (pure C, no MPI).
 *
 * A line a core has just written sits modified in that core's cache; the
 * core that reads it next must fetch it from there.  Where the two cores do
 * not share a last-level cache (two dies of one processor, or a virtual
 * machine whose vCPUs the host moves between dies) that transfer costs
 * several times a read from memory: on the machine rsag was measured on, a
 * 512 KiB hand-off took 250 us in that state against 65 us otherwise, and
 * the state comes and goes every few seconds (doc/direct.md, "Steady
 * launches").  A non-temporal ("streaming") store writes the line to
 * memory without keeping it in the writer's cache, so the reader fetches
 * it from memory whatever the cores share: 47 us in both states.
 *
 * mca_coll_rsag_stream_copy writes with streaming stores where the
 * processor has them (x86-64: SSE2's movntdq, 16 bytes at a time) and ends
 * with a store fence, so a release store that publishes the data after it
 * is ordered after the data (streaming stores are weakly ordered).
 * Elsewhere it is memcpy.
 */
#ifndef MCA_COLL_RSAG_STREAM_H
#define MCA_COLL_RSAG_STREAM_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* True where mca_coll_rsag_stream_copy uses streaming stores. */
bool mca_coll_rsag_stream_available(void);

/* Copy `bytes` from `src` to `dst` (not overlapping) with streaming
 * stores, then fence. */
void mca_coll_rsag_stream_copy(void *dst, const void *src, size_t bytes);

/* memcpy below `min_bytes`, mca_coll_rsag_stream_copy from there on. */
static inline void mca_coll_rsag_copy_for_peer(void *dst, const void *src, size_t bytes,
                                               size_t min_bytes);

/*
 * Which way is faster changes with where the cores are (streaming loses
 * up to 2x where the two cores share a cache and the data fits it, and
 * wins 2.5-5x where they do not), and on a virtual machine it changes
 * while the job runs.  So in `auto` each rank learns it per communicator
 * and message size class (a power of two): it times its calls both ways,
 * then keeps the faster, and tries the other way again every
 * MCA_COLL_RSAG_STREAM_RETRY calls of the class.  A rank decides alone
 * how it writes (the readers do not care), but the ranks make the same
 * calls in the same order, so they try the same calls the other way, and
 * each one's timing sees the others' choice too.
 */
#define MCA_COLL_RSAG_STREAM_CLASSES 48     /* message sizes 2^0 .. 2^47 bytes */
#define MCA_COLL_RSAG_STREAM_FIRST 4        /* first calls of a class: both ways, alternately */
#define MCA_COLL_RSAG_STREAM_RETRY 64       /* then the other way once every this many calls */

typedef enum mca_coll_rsag_stream_way_t {
    MCA_COLL_RSAG_WAY_CACHED = 0,           /* memcpy: the lines stay in the writer's cache */
    MCA_COLL_RSAG_WAY_STREAMED = 1          /* streaming stores: the lines go to memory */
} mca_coll_rsag_stream_way_t;

/* The preferred way changes when the other costs less than this share of
 * it: two ways that cost about the same do not take turns. */
#define MCA_COLL_RSAG_STREAM_SWITCH 0.9

typedef struct mca_coll_rsag_stream_learner_t {
    unsigned long calls[MCA_COLL_RSAG_STREAM_CLASSES];
    double cost[MCA_COLL_RSAG_STREAM_CLASSES][2];   /* seconds per call, each way */
    unsigned char way[MCA_COLL_RSAG_STREAM_CLASSES]; /* preferred, once both were timed */
} mca_coll_rsag_stream_learner_t;

/* The way to write a call of `bytes` bytes; *trial is set when this call
 * tries a way (its time then replaces what was known of that way, instead
 * of being averaged in). */
mca_coll_rsag_stream_way_t mca_coll_rsag_stream_pick(const mca_coll_rsag_stream_learner_t *l,
                                                     size_t bytes, bool *trial);

/* Record the call's time; true when the preferred way of its class was
 * decided for the first time or changed (*now: the way preferred now). */
bool mca_coll_rsag_stream_learn(mca_coll_rsag_stream_learner_t *l, size_t bytes,
                                mca_coll_rsag_stream_way_t way, bool trial, double seconds,
                                mca_coll_rsag_stream_way_t *now);

/* What a call of `bytes` bytes cost the last times it went `way` (seconds). */
double mca_coll_rsag_stream_cost(const mca_coll_rsag_stream_learner_t *l, size_t bytes,
                                 mca_coll_rsag_stream_way_t way);

/* The way preferred for `bytes` now (streamed until both were timed). */
mca_coll_rsag_stream_way_t mca_coll_rsag_stream_preferred(const mca_coll_rsag_stream_learner_t *l,
                                                          size_t bytes);

#ifdef __cplusplus
}
#endif

#include <string.h>

static inline void mca_coll_rsag_copy_for_peer(void *dst, const void *src, size_t bytes,
                                               size_t min_bytes)
{
    if (bytes >= min_bytes) {
        mca_coll_rsag_stream_copy(dst, src, bytes);
    } else {
        memcpy(dst, src, bytes);
    }
}

#endif /* MCA_COLL_RSAG_STREAM_H */
