/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Schedules (coll_rsag_sched.c): every rsag algorithm is written once, as
 * a list of steps (sends, receives, reductions, copies) with the order
 * they need, and the list is run three ways:
 *
 *   blocking     built into the module's reusable schedule, run to the end
 *                by the call itself (mca_coll_rsag_sched_run);
 *   nonblocking  built into a request's own schedule, advanced by Open
 *                MPI's progress engine (coll_rsag_request.c) until done;
 *   persistent   built once by the *_init call, restarted by each
 *                MPI_Start: a start only moves data.
 *
 * Order.  Steps are issued in list order.  A step may be issued when every
 * step before the last fence is complete and the (at most three) steps it
 * names with mca_coll_rsag_sched_after are complete.  A send or receive is
 * complete when its request is; a reduction or copy when it has run (it
 * runs when issued).  So a sequential algorithm is a list with a fence
 * between its rounds, and a pipeline (the ring) names its dependencies and
 * keeps many messages in flight.
 *
 * Buffers are addresses: the user's buffers (fixed for the life of a
 * nonblocking or persistent request, by MPI's rules) and temporaries the
 * schedule owns (mca_coll_rsag_sched_tmp, taken at build time on every
 * rank before any message is sent, freed with the schedule).
 *
 * Building never fails step by step: the first failure (no memory) is kept
 * in s->err and later appends do nothing, so a builder checks s->err once.
 *
 * A step that is not a message or a local operation (`direct`, whose
 * waits are on the node's shared control lines, not on requests) is a
 * POLL step: a start function called when the step is issued, then a poll
 * function called until it says the step is complete.  A blocking run asks
 * it to wait inside (it spins on the lines as tightly as it can); a
 * nonblocking or persistent one asks it to look once and return
 * MCA_COLL_RSAG_POLL_AGAIN when nothing is ready (the progress engine
 * calls it again).
 *
 * Lanes.  A schedule may hold groups of lanes (mca_coll_rsag_sched_lanes_begin):
 * independent sequences of steps, each with its own fences, cursors and
 * tag, issued side by side: while one lane waits for a message, the ready
 * steps of the others go.  A lane waits for another only where a step
 * names one of the other's (mca_coll_rsag_sched_after, _gate).  A schedule
 * without lanes (every algorithm of the tables but a pipelined
 * hierarchical) runs as before: in list order, stopping at the first step
 * that may not go, at the same cost.  With lanes, the blocking run never
 * waits inside one message or POLL step (another lane may be what a peer
 * needs first): it looks at every lane in flight once per pass, with Open
 * MPI's progress engine between passes.
 */
#ifndef MCA_COLL_RSAG_SCHED_H
#define MCA_COLL_RSAG_SCHED_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"
#include "ompi/request/request.h"

#include "coll_rsag_mem.h"

BEGIN_C_DECLS

struct mca_coll_rsag_args_t;

typedef enum mca_coll_rsag_step_kind_t {
    MCA_COLL_RSAG_STEP_SEND,    /* send count elements at `a` to peer */
    MCA_COLL_RSAG_STEP_RECV,    /* receive count elements into dst from peer */
    MCA_COLL_RSAG_STEP_REDUCE,  /* dst = a (op) dst */
    MCA_COLL_RSAG_STEP_REDUCE3, /* dst = a (op) b */
    MCA_COLL_RSAG_STEP_COPY,    /* dst = a */
    MCA_COLL_RSAG_STEP_SNDRCV,  /* count of dtype at a -> count2 of dtype2 at dst (the
                                   type signatures match; the collectives rsag fills) */
    MCA_COLL_RSAG_STEP_POLL,    /* polls[poll]: started when issued, polled until complete
                                   (a nested schedule is one: mca_coll_rsag_sched_nested) */
    MCA_COLL_RSAG_STEP_GATE     /* nothing: complete when issued (mca_coll_rsag_sched_gate) */
} mca_coll_rsag_step_kind_t;

/* Up to this many communicators in one schedule (hierarchical: the
 * communicator, its node and its cross-node communicator). */
#define MCA_COLL_RSAG_SCHED_COMMS 4
/* Steps a step may name with mca_coll_rsag_sched_after. */
#define MCA_COLL_RSAG_STEP_DEPS 3

typedef struct mca_coll_rsag_step_t {
    uint8_t kind;           /* mca_coll_rsag_step_kind_t */
    uint8_t comm;           /* index into the schedule's comms */
    uint16_t lane;          /* index into the schedule's lanes (none: 0, unused) */
    union {
        int32_t peer;       /* SEND, RECV: rank in that communicator */
        int32_t poll;       /* POLL: index into the schedule's polls */
    };
    int32_t fence;          /* every step before this one must be complete first */
    int32_t tag;            /* SEND, RECV: the message's tag; 0: the schedule's (rsag's
                               tags are negative) */
    int32_t after[MCA_COLL_RSAG_STEP_DEPS];  /* and these (-1: none) */
    size_t count;           /* elements of the step's datatype */
    /* the step's datatype: NULL for the schedule's (every algorithm of the
     * tables); a collective rsag fills (coll_rsag_fill.c) names its own */
    struct ompi_datatype_t *dtype;
    const char *a, *b;
    char *dst;
    /* SNDRCV only: the receiving side's count and datatype */
    size_t count2;
    struct ompi_datatype_t *dtype2;
} mca_coll_rsag_step_t;

/* A lane (mca_coll_rsag_sched_lanes_begin): a contiguous run of steps
 * with its own fences, cursors and tag.  Lanes of one stage run side by
 * side; a stage begins when every lane of the stages before it is
 * complete.  The steps outside a group of lanes form lanes of their own
 * (`tagno` 0: the schedule's tag). */
typedef struct mca_coll_rsag_lane_t {
    int first, end;         /* steps [first, end); end -1 while open */
    int stage;
    int tagno;              /* 0: the schedule's tag; k >= 1: lane tag k - 1 */
    int tag;                /* the run: its messages' tag */
    int next, oldest;       /* the run: as the schedule's, within the lane */
} mca_coll_rsag_lane_t;

/* A POLL step's answer while it is not complete (error codes are < 0). */
#define MCA_COLL_RSAG_POLL_AGAIN 1

/* A POLL step: its state (owned by the schedule, released with it) and
 * what the engine calls.  start: at each issue (every MPI_Start of a
 * persistent request); poll: OMPI_SUCCESS or an error when complete,
 * MCA_COLL_RSAG_POLL_AGAIN when not yet (never with `wait`). */
typedef struct mca_coll_rsag_poll_t {
    void *state;
    void (*start)(void *state);
    int (*poll)(void *state, bool wait);
    void (*release)(void *state);
} mca_coll_rsag_poll_t;

typedef struct mca_coll_rsag_sched_t {
    /* the description */
    mca_coll_rsag_step_t *steps;
    int nsteps, cap;
    int fence;                              /* fence of the steps appended next */
    struct ompi_communicator_t *comms[MCA_COLL_RSAG_SCHED_COMMS];
    int ncomms;
    struct ompi_datatype_t *dtype;
    struct ompi_op_t *op;
    mca_coll_rsag_tmp_t *tmps;              /* temporaries, freed with the schedule */
    int ntmps, tmpcap;
    mca_coll_rsag_poll_t *polls;
    int npolls, pollcap;
    int err;                                /* first build error, then first run error */
    /* lanes (none in most schedules: then nlanes is 0 and none of this is
     * looked at) */
    mca_coll_rsag_lane_t *lanes;
    int nlanes, lanecap;
    int lane;                               /* lane of the steps appended next */
    bool in_group;                          /* between lanes_begin and lanes_end */
    int nlanetags;                          /* lanes that need a tag of their own */
    int lane_tag;                           /* the first of them (the dispatcher's) */
    int stage;                              /* the run: the stage running */
    int stage_lane;                         /* the run: its first lane */
    bool nonblocking;                       /* for a nonblocking or persistent request:
                                               what is chosen inside (hierarchical's
                                               sub-steps) must not wait inside */
    /* the run in progress */
    struct ompi_request_t **reqs;           /* [cap]: request of each issued message */
    uint8_t *done;                          /* [cap]: step complete */
    int next;                               /* next step to issue */
    int oldest;                             /* every step before it is complete */
    int tag;
    bool draining;                          /* after an error: waiting for cancelled receives */
    bool waiting;                           /* run by mca_coll_rsag_sched_run: may block */
} mca_coll_rsag_sched_t;

/* An empty schedule for `dtype` and `op` (nothing allocated yet). */
void mca_coll_rsag_sched_init(mca_coll_rsag_sched_t *s, struct ompi_datatype_t *dtype,
                              struct ompi_op_t *op);
/* Forget the steps and free the temporaries, keep the arrays: the module's
 * blocking schedule is reset for each call. */
void mca_coll_rsag_sched_reset(mca_coll_rsag_sched_t *s, struct ompi_datatype_t *dtype,
                               struct ompi_op_t *op);
/* Free everything (the schedule must not be running). */
void mca_coll_rsag_sched_fini(mca_coll_rsag_sched_t *s);

/* ---- building ------------------------------------------------------------
 * Each append returns the step's index (for mca_coll_rsag_sched_after);
 * `a` names the communicator (a->comm) the message goes over. */
int mca_coll_rsag_sched_send(mca_coll_rsag_sched_t *s, const struct mca_coll_rsag_args_t *a,
                             const void *buf, size_t count, int peer);
int mca_coll_rsag_sched_recv(mca_coll_rsag_sched_t *s, const struct mca_coll_rsag_args_t *a,
                             void *buf, size_t count, int peer);
/* The same with a datatype of the step's own (not the schedule's; a
 * zero count is a message too; the peer is never MPI_PROC_NULL). */
int mca_coll_rsag_sched_send_typed(mca_coll_rsag_sched_t *s,
                                   const struct mca_coll_rsag_args_t *a, const void *buf,
                                   size_t count, struct ompi_datatype_t *dtype, int peer);
int mca_coll_rsag_sched_recv_typed(mca_coll_rsag_sched_t *s,
                                   const struct mca_coll_rsag_args_t *a, void *buf,
                                   size_t count, struct ompi_datatype_t *dtype, int peer);
/* A local copy between two descriptions of the same type signature
 * (scount of stype at src into rcount of rtype at dst), as a message to
 * oneself would deliver it. */
int mca_coll_rsag_sched_sndrcv(mca_coll_rsag_sched_t *s, const void *src, size_t scount,
                               struct ompi_datatype_t *stype, void *dst, size_t rcount,
                               struct ompi_datatype_t *rtype);
/* inout = in (op) inout */
int mca_coll_rsag_sched_reduce(mca_coll_rsag_sched_t *s, const void *in, void *inout,
                               size_t count);
/* dst = in1 (op) in2 */
int mca_coll_rsag_sched_reduce3(mca_coll_rsag_sched_t *s, const void *in1, const void *in2,
                                void *dst, size_t count);
/* dst = src (nothing when they are the same buffer or count is 0) */
int mca_coll_rsag_sched_copy(mca_coll_rsag_sched_t *s, const void *src, void *dst, size_t count);
/* A POLL step; the schedule owns poll->state from here on (released with
 * the schedule, also when this fails). */
int mca_coll_rsag_sched_poll_step(mca_coll_rsag_sched_t *s, const mca_coll_rsag_poll_t *poll);

/* A nested schedule as one POLL step: `inner` (its own datatype, op and
 * temporaries; built by the dispatcher like any algorithm's: the exact
 * mode's inner collectives, coll_rsag_exact.c) is started, on `tag`, when
 * the step is issued and progressed by the step's poll; the step is
 * complete when `inner` is, with its error.  Every start of `s` (each
 * MPI_Start of a persistent request) starts `inner` again.  `s` owns
 * `inner` (malloc'd) from here on, also when this fails: released with `s`.
 * Tags: `inner`'s messages share `tag` with the steps of `s` (its lanes
 * keep their own); the caller fences the nested step on both sides, so on
 * every rank all of one schedule's messages are posted before any of the
 * next one's, and MPI's non-overtaking rule matches them in that order. */
int mca_coll_rsag_sched_nested(mca_coll_rsag_sched_t *s, mca_coll_rsag_sched_t *inner, int tag);

/* Steps appended from now on wait for every step appended so far. */
void mca_coll_rsag_sched_fence(mca_coll_rsag_sched_t *s);
/* Step `step` also waits for step `dep` (dep < step; -1: nothing). */
void mca_coll_rsag_sched_after(mca_coll_rsag_sched_t *s, int step, int dep);

/* Lanes: independent sequences of steps in one schedule (a pipeline of
 * chunks: hierarchical's, coll_rsag_hier.c).
 *   lanes_begin  a group of lanes starts; its lanes wait for every step
 *                appended before it (nothing may be appended between
 *                lanes_begin and the first lane);
 *   lane         the group's next lane starts: the steps appended from now
 *                on are in it, and a fence there (mca_coll_rsag_sched_fence,
 *                a sub-builder's too) waits for this lane's earlier steps
 *                only;
 *   lanes_end    the group ends: the steps appended next wait for every lane.
 * Each lane of a group sends and receives on its own tag (the dispatcher
 * reserves s->nlanetags of the communicator's request tags and sets
 * s->lane_tag, coll_rsag_request.c), so two ranks that issue the lanes'
 * steps in different orders never match one lane's message with another's.
 * Lanes depend on each other only through named dependencies
 * (mca_coll_rsag_sched_after, mca_coll_rsag_sched_gate).  At most 65535
 * lanes, groups do not nest. */
void mca_coll_rsag_sched_lanes_begin(mca_coll_rsag_sched_t *s);
void mca_coll_rsag_sched_lane(mca_coll_rsag_sched_t *s);
void mca_coll_rsag_sched_lanes_end(mca_coll_rsag_sched_t *s);
/* A gate in the current lane (or the schedule): a fence, a step that does
 * nothing and also waits for step `dep` (-1: nothing), a fence.  It is
 * complete once everything before it in its lane is (and `dep`), and what
 * follows in its lane waits for it: another lane names it with `after` (or
 * as the `dep` of its own gate) to wait for this lane's steps so far.
 * Returns its index. */
int mca_coll_rsag_sched_gate(mca_coll_rsag_sched_t *s, int dep);

/* One message of count elements at buf, to (`send`) or from peer, as the m
 * messages of even sizes mca_coll_rsag_even_chunk cuts, one step each, in
 * order; returns the first step's index (-1: none, or a failure). */
int mca_coll_rsag_sched_cut(mca_coll_rsag_sched_t *s, const struct mca_coll_rsag_args_t *a,
                            bool send, const void *buf, size_t count, size_t m, int peer);
/* One exchange with a peer and a fence after it: the send (of scount
 * elements at sbuf to dst) and the receive (of rcount into rbuf from src)
 * are both in flight, and what follows sees both complete.  With a peer on
 * another node each travels in messages of at most the exchange chunk
 * (coll_rsag_exchange_chunk_size). */
void mca_coll_rsag_sched_sendrecv(mca_coll_rsag_sched_t *s, const struct mca_coll_rsag_args_t *a,
                                  const void *sbuf, size_t scount, int dst, void *rbuf,
                                  size_t rcount, int src);

/* A temporary of count elements of the schedule's datatype, owned by the
 * schedule (from the communicator's scratch area inside a blocking call,
 * else its own memory).  NULL for count 0, or on failure (s->err set). */
char *mca_coll_rsag_sched_tmp(mca_coll_rsag_sched_t *s, size_t count);
/* The same, of `dtype` elements. */
char *mca_coll_rsag_sched_tmp_typed(mca_coll_rsag_sched_t *s, size_t count,
                                    struct ompi_datatype_t *dtype);

/* ---- running --------------------------------------------------------------
 * start: from the first step, with this tag; progress: issue what can be
 * issued, retire what completed, without waiting (returns true when the
 * schedule is done: s->err says how); run: start and wait to the end
 * (the blocking calls), returns the error. */
void mca_coll_rsag_sched_start(mca_coll_rsag_sched_t *s, int tag);
bool mca_coll_rsag_sched_progress(mca_coll_rsag_sched_t *s);
int mca_coll_rsag_sched_run(mca_coll_rsag_sched_t *s, int tag);

END_C_DECLS

#endif /* MCA_COLL_RSAG_SCHED_H */
