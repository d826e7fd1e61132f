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

/*
 * The second thing the node path learns: whether a call's data goes
 * through the shared segment (written into slots, read by the peers: two
 * copies, the second one across cores) or is pulled from the peers' own
 * buffers with CMA (one copy, by the kernel).  Which is faster changes
 * with the machine and, on a virtual machine, from one launch or one day
 * to the next (contrib/results/2026-11-27-np2-memory: CMA 1.4-2.2x faster
 * from 64 KB on one day, 1.7-2.4x slower four days before; in a slow
 * launch the segment path is 3.5-8x slower, CMA never).  Unlike the way
 * a rank writes, the copy mode is part of the protocol: every rank of a
 * call must take the same one.  So each rank times its own calls both
 * ways (trials at the same calls on every rank: the ranks make the same
 * blocking calls in the same order), and at fixed calls of each class
 * (after the first trials, then after each later run of trials) the ranks vote:
 * each posts its costs, every rank takes the slowest rank's cost of each
 * way (a call lasts as long as its slowest rank) and applies the same
 * rule to the same numbers.  The vote itself is the caller's
 * (coll_rsag_direct.c, through the segment); this is its arithmetic.
 * Ways: 0 the segment, 1 CMA (mca_coll_rsag_copy_mode_t's values).
 */
/* A way's cost at a vote is the mean of its calls since the last vote,
 * leaving out the first call of each run of it (it pays for what the other
 * way left cold: the slots or the peers' buffers out of the cache) and the
 * stream learner's trials (a segment call that writes the other way), each
 * call counted as at most twice the fastest.  So trials come in runs:
 * before the first vote COPY_CMA_FIRST calls by CMA, then COPY_FIRST -
 * COPY_CMA_FIRST through the segment (its first four are the stream
 * learner's trials); then COPY_RETRY_RUN calls the other way after
 * COPY_RETRY_MIN calls, each run followed by a vote; a switch needs the
 * other way below MCA_COLL_RSAG_STREAM_SWITCH of the agreed one.  Each
 * vote that keeps the way doubles the calls until the next run, up to
 * COPY_RETRY_MAX (a way twice as slow tried 3 calls in 64 costs 5 %, in
 * 1024 0.3 %); a first decision or a switch starts again from the least. */
#define MCA_COLL_RSAG_COPY_CMA_FIRST 3
#define MCA_COLL_RSAG_COPY_FIRST 9
#define MCA_COLL_RSAG_COPY_RETRY_RUN 3
#define MCA_COLL_RSAG_COPY_RETRY_MIN 64
#define MCA_COLL_RSAG_COPY_RETRY_MAX 1024

typedef struct mca_coll_rsag_copy_learner_t {
    unsigned long calls[MCA_COLL_RSAG_STREAM_CLASSES];  /* blocking calls picked */
    double cost[MCA_COLL_RSAG_STREAM_CLASSES][2];      /* each way's cost at the last vote */
    double sum[MCA_COLL_RSAG_STREAM_CLASSES][2];       /* since then: my seconds counted, */
    double fastest[MCA_COLL_RSAG_STREAM_CLASSES][2];   /* the fastest call, */
    unsigned n[MCA_COLL_RSAG_STREAM_CLASSES][2];       /* the calls counted */
    unsigned char way[MCA_COLL_RSAG_STREAM_CLASSES];   /* the agreed way (0 until a vote) */
    unsigned char last[MCA_COLL_RSAG_STREAM_CLASSES];  /* 1 + the way of the last call */
    unsigned long next[MCA_COLL_RSAG_STREAM_CLASSES];  /* the next run of trials starts
                                                          at this call */
    unsigned long every[MCA_COLL_RSAG_STREAM_CLASSES]; /* calls between the last vote
                                                          and that run */
} mca_coll_rsag_copy_learner_t;

/* Has a vote settled the way of the class of `bytes` (the same answer on
 * every rank: votes are collective)? */
bool mca_coll_rsag_copy_settled(const mca_coll_rsag_copy_learner_t *l, size_t bytes);

/* Must the ranks vote before the next call of `bytes` is picked? */
bool mca_coll_rsag_copy_vote_due(const mca_coll_rsag_copy_learner_t *l, size_t bytes);

/* The way of the next (blocking) call of `bytes`, counted (*trial set for
 * the runs above). */
int mca_coll_rsag_copy_pick(mca_coll_rsag_copy_learner_t *l, size_t bytes, bool *trial);

/* Record a picked call's time on this rank (no decision); `typical`: false
 * for a stream learner's trial. */
void mca_coll_rsag_copy_record(mca_coll_rsag_copy_learner_t *l, size_t bytes, int way,
                               bool typical, double seconds);

/* The vote's outcome: `agreed` = each way's cost by the slowest rank (my
 * costs start again from here).  The first vote of a class (at call
 * COPY_FIRST) takes the cheaper way, a later one switches only
 * when the other costs less than MCA_COLL_RSAG_STREAM_SWITCH of the agreed
 * one.  True when the way was decided for the first time or changed. */
bool mca_coll_rsag_copy_settle(mca_coll_rsag_copy_learner_t *l, size_t bytes,
                               const double agreed[2]);

/* The agreed way for `bytes` (what unlearned calls take: nonblocking and
 * persistent ones), and my own cost of a way now (as at the last vote when
 * no call of it counted since). */
int mca_coll_rsag_copy_agreed(const mca_coll_rsag_copy_learner_t *l, size_t bytes);
double mca_coll_rsag_copy_cost(const mca_coll_rsag_copy_learner_t *l, size_t bytes, int way);

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
