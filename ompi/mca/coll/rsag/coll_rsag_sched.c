/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Schedules: building and running; see coll_rsag_sched.h.
 *
 * Running keeps two cursors: `next`, the first step not issued yet, and
 * `oldest`, the first step not complete.  Messages issued and not complete
 * lie between them; a progress pass retires those that completed, then
 * issues steps in order for as long as the next one may go.  The blocking
 * run waits, when nothing moves, for the message that holds the next step
 * back (ompi_request_wait: Open MPI's progress engine spins meanwhile, and
 * with it every nonblocking schedule of this process).
 *
 * A schedule with lanes (coll_rsag_sched.h) keeps the two cursors per
 * lane instead, and a stage (the lanes that run side by side) at a time:
 * a pass retires and issues in every lane of the stage, and the next
 * stage begins when all of them are complete.  Its blocking run never
 * waits inside one message: it makes passes, with opal_progress between
 * them, until the schedule is done.
 *
 * After an error nothing more is issued: receives in flight are cancelled
 * and waited for (no buffer is freed under a pending receive), sends are
 * released to complete in the background, as Open MPI's own collectives
 * do, since waiting for a peer that gave up would hang.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "ompi/constants.h"
#include "opal/runtime/opal_progress.h"
#include "ompi/group/group.h"
#include "ompi/proc/proc.h"

#include "coll_rsag.h"
#include "coll_rsag_op.h"
#include "coll_rsag_p2p.h"
#include "coll_rsag_sched.h"

static void mca_coll_rsag_sched_fail(mca_coll_rsag_sched_t *s, int err)
{
    if (OMPI_SUCCESS == s->err) {
        s->err = err;
    }
}

/* Grow an array of `*cap` elements of `size` bytes to hold one more. */
static bool mca_coll_rsag_sched_grow(void **array, int *cap, int used, size_t size)
{
    int want = (*cap < 16) ? 16 : 2 * *cap;
    void *bigger;

    if (used < *cap) {
        return true;
    }
    bigger = realloc(*array, (size_t) want * size);
    if (NULL == bigger) {
        return false;
    }
    *array = bigger;
    *cap = want;
    return true;
}

void mca_coll_rsag_sched_init(mca_coll_rsag_sched_t *s, struct ompi_datatype_t *dtype,
                              struct ompi_op_t *op)
{
    memset(s, 0, sizeof(*s));
    s->dtype = dtype;
    s->op = op;
    s->err = OMPI_SUCCESS;
}

void mca_coll_rsag_sched_reset(mca_coll_rsag_sched_t *s, struct ompi_datatype_t *dtype,
                               struct ompi_op_t *op)
{
    for (int i = s->ntmps - 1; i >= 0; --i) {
        mca_coll_rsag_tmp_free(&s->tmps[i]);
    }
    for (int i = 0; i < s->npolls; ++i) {
        s->polls[i].release(s->polls[i].state);
    }
    s->nsteps = s->fence = s->ncomms = s->ntmps = s->npolls = 0;
    s->nlanes = s->lane = s->nlanetags = s->lane_tag = 0;
    s->in_group = false;
    s->next = s->oldest = 0;
    s->draining = false;
    s->dtype = dtype;
    s->op = op;
    s->err = OMPI_SUCCESS;
    /* s->nonblocking stays: it is the schedule's, not the call's */
}

void mca_coll_rsag_sched_fini(mca_coll_rsag_sched_t *s)
{
    mca_coll_rsag_sched_reset(s, NULL, NULL);
    free(s->steps);
    free(s->reqs);
    free(s->done);
    free(s->tmps);
    free(s->polls);
    free(s->lanes);
    memset(s, 0, sizeof(*s));
}

/* Index of `comm` among the schedule's communicators (added if new). */
static int mca_coll_rsag_sched_comm(mca_coll_rsag_sched_t *s, struct ompi_communicator_t *comm)
{
    for (int i = 0; i < s->ncomms; ++i) {
        if (s->comms[i] == comm) {
            return i;
        }
    }
    if (s->ncomms == MCA_COLL_RSAG_SCHED_COMMS) {
        mca_coll_rsag_sched_fail(s, OMPI_ERR_NOT_SUPPORTED);
        return 0;
    }
    s->comms[s->ncomms] = comm;
    return s->ncomms++;
}

static int mca_coll_rsag_sched_append(mca_coll_rsag_sched_t *s, mca_coll_rsag_step_kind_t kind,
                                      int comm, int peer, size_t count, const void *a,
                                      const void *b, void *dst)
{
    mca_coll_rsag_step_t *st;

    if (OMPI_SUCCESS != s->err) {
        return -1;
    }
    if (s->nsteps == s->cap) {
        /* the three arrays grow together; a failure leaves s->cap as it was */
        int cap = s->cap, reqcap = s->cap, donecap = s->cap;

        if (!mca_coll_rsag_sched_grow((void **) &s->steps, &cap, s->nsteps, sizeof(*s->steps))
            || !mca_coll_rsag_sched_grow((void **) &s->reqs, &reqcap, s->nsteps,
                                         sizeof(*s->reqs))
            || !mca_coll_rsag_sched_grow((void **) &s->done, &donecap, s->nsteps,
                                         sizeof(*s->done))) {
            mca_coll_rsag_sched_fail(s, OMPI_ERR_OUT_OF_RESOURCE);
            return -1;
        }
        s->cap = cap;
    }
    st = &s->steps[s->nsteps];
    *st = (mca_coll_rsag_step_t) { .kind = (uint8_t) kind, .comm = (uint8_t) comm,
                                   .lane = (uint16_t) s->lane, .peer = peer, .fence = s->fence,
                                   .after = { -1, -1, -1 },
                                   .count = count, .a = a, .b = b, .dst = dst };
    return s->nsteps++;
}

int mca_coll_rsag_sched_send(mca_coll_rsag_sched_t *s, const struct mca_coll_rsag_args_t *a,
                             const void *buf, size_t count, int peer)
{
    return mca_coll_rsag_sched_append(s, MCA_COLL_RSAG_STEP_SEND,
                                      mca_coll_rsag_sched_comm(s, a->comm), peer, count, buf,
                                      NULL, NULL);
}

int mca_coll_rsag_sched_recv(mca_coll_rsag_sched_t *s, const struct mca_coll_rsag_args_t *a,
                             void *buf, size_t count, int peer)
{
    return mca_coll_rsag_sched_append(s, MCA_COLL_RSAG_STEP_RECV,
                                      mca_coll_rsag_sched_comm(s, a->comm), peer, count, NULL,
                                      NULL, buf);
}

/* Give step `step` (just appended, or -1 after a failure) its own datatype. */
static int mca_coll_rsag_sched_type(mca_coll_rsag_sched_t *s, int step,
                                    struct ompi_datatype_t *dtype)
{
    if (step >= 0) {
        s->steps[step].dtype = dtype;
    }
    return step;
}

int mca_coll_rsag_sched_send_typed(mca_coll_rsag_sched_t *s,
                                   const struct mca_coll_rsag_args_t *a, const void *buf,
                                   size_t count, struct ompi_datatype_t *dtype, int peer)
{
    return mca_coll_rsag_sched_type(s, mca_coll_rsag_sched_send(s, a, buf, count, peer), dtype);
}

int mca_coll_rsag_sched_recv_typed(mca_coll_rsag_sched_t *s,
                                   const struct mca_coll_rsag_args_t *a, void *buf,
                                   size_t count, struct ompi_datatype_t *dtype, int peer)
{
    return mca_coll_rsag_sched_type(s, mca_coll_rsag_sched_recv(s, a, buf, count, peer), dtype);
}

int mca_coll_rsag_sched_sndrcv(mca_coll_rsag_sched_t *s, const void *src, size_t scount,
                               struct ompi_datatype_t *stype, void *dst, size_t rcount,
                               struct ompi_datatype_t *rtype)
{
    int step = mca_coll_rsag_sched_append(s, MCA_COLL_RSAG_STEP_SNDRCV, 0, 0, scount, src,
                                          NULL, dst);

    if (step >= 0) {
        s->steps[step].dtype = stype;
        s->steps[step].count2 = rcount;
        s->steps[step].dtype2 = rtype;
    }
    return step;
}

int mca_coll_rsag_sched_reduce(mca_coll_rsag_sched_t *s, const void *in, void *inout,
                               size_t count)
{
    return mca_coll_rsag_sched_append(s, MCA_COLL_RSAG_STEP_REDUCE, 0, 0, count, in, NULL,
                                      inout);
}

int mca_coll_rsag_sched_reduce3(mca_coll_rsag_sched_t *s, const void *in1, const void *in2,
                                void *dst, size_t count)
{
    return mca_coll_rsag_sched_append(s, MCA_COLL_RSAG_STEP_REDUCE3, 0, 0, count, in1, in2,
                                      dst);
}

int mca_coll_rsag_sched_copy(mca_coll_rsag_sched_t *s, const void *src, void *dst, size_t count)
{
    if (0 == count || src == dst) {
        return -1;
    }
    return mca_coll_rsag_sched_append(s, MCA_COLL_RSAG_STEP_COPY, 0, 0, count, src, NULL, dst);
}

int mca_coll_rsag_sched_poll_step(mca_coll_rsag_sched_t *s, const mca_coll_rsag_poll_t *poll)
{
    int step;

    if (OMPI_SUCCESS != s->err
        || !mca_coll_rsag_sched_grow((void **) &s->polls, &s->pollcap, s->npolls,
                                     sizeof(*s->polls))) {
        mca_coll_rsag_sched_fail(s, OMPI_ERR_OUT_OF_RESOURCE);
        poll->release(poll->state);
        return -1;
    }
    s->polls[s->npolls] = *poll;    /* the schedule owns the state from here on */
    step = mca_coll_rsag_sched_append(s, MCA_COLL_RSAG_STEP_POLL, 0, 0, 0, NULL, NULL, NULL);
    if (step >= 0) {
        s->steps[step].poll = s->npolls;
    }
    ++s->npolls;
    return step;
}

/* The POLL step of a nested schedule: the schedule and its tag. */
typedef struct mca_coll_rsag_sched_nest_t {
    mca_coll_rsag_sched_t *inner;
    int tag;
} mca_coll_rsag_sched_nest_t;

static void mca_coll_rsag_sched_nest_start(void *state)
{
    mca_coll_rsag_sched_nest_t *n = state;

    mca_coll_rsag_sched_start(n->inner, n->tag);
}

static int mca_coll_rsag_sched_nest_poll(void *state, bool wait)
{
    mca_coll_rsag_sched_nest_t *n = state;

    while (!mca_coll_rsag_sched_progress(n->inner)) {
        if (!wait) {
            return MCA_COLL_RSAG_POLL_AGAIN;
        }
        opal_progress();
    }
    return n->inner->err;
}

static void mca_coll_rsag_sched_nest_release(void *state)
{
    mca_coll_rsag_sched_nest_t *n = state;

    if (NULL != n) {
        mca_coll_rsag_sched_fini(n->inner);
        free(n->inner);
        free(n);
    }
}

int mca_coll_rsag_sched_nested(mca_coll_rsag_sched_t *s, mca_coll_rsag_sched_t *inner, int tag)
{
    mca_coll_rsag_sched_nest_t *n = malloc(sizeof(*n));
    mca_coll_rsag_poll_t poll = { n, mca_coll_rsag_sched_nest_start,
                                  mca_coll_rsag_sched_nest_poll,
                                  mca_coll_rsag_sched_nest_release };

    if (NULL == n) {
        mca_coll_rsag_sched_fini(inner);
        free(inner);
        mca_coll_rsag_sched_fail(s, OMPI_ERR_OUT_OF_RESOURCE);
        return -1;
    }
    n->inner = inner;
    n->tag = tag;
    if (OMPI_SUCCESS != inner->err) {
        mca_coll_rsag_sched_fail(s, inner->err);
    }
    return mca_coll_rsag_sched_poll_step(s, &poll);
}

void mca_coll_rsag_sched_fence(mca_coll_rsag_sched_t *s)
{
    s->fence = s->nsteps;
}

void mca_coll_rsag_sched_after(mca_coll_rsag_sched_t *s, int step, int dep)
{
    mca_coll_rsag_step_t *st;

    if (step < 0 || dep < 0 || step >= s->nsteps || OMPI_SUCCESS != s->err) {
        return;
    }
    st = &s->steps[step];
    if (dep < st->fence && (0 == s->nlanes || dep >= s->lanes[st->lane].first)) {
        return;                             /* already implied (a fence is its lane's) */
    }
    for (int k = 0; k < MCA_COLL_RSAG_STEP_DEPS; ++k) {
        if (dep == st->after[k]) {
            return;
        }
        if (st->after[k] < 0) {
            st->after[k] = dep;
            return;
        }
    }
    /* a builder asked for more than a step can hold: a bug, caught by the
     * tests of every algorithm (the call fails cleanly) */
    mca_coll_rsag_sched_fail(s, OMPI_ERR_NOT_SUPPORTED);
}

/* ---- lanes ---------------------------------------------------------------- */

/* Open a new lane from the next step on, the current one; -1 on failure. */
static int mca_coll_rsag_sched_lane_new(mca_coll_rsag_sched_t *s, int first, int stage, int tagno)
{
    if (s->nlanes > UINT16_MAX) {
        mca_coll_rsag_sched_fail(s, OMPI_ERR_NOT_SUPPORTED);     /* the step's lane is 16 bits */
        return -1;
    }
    if (!mca_coll_rsag_sched_grow((void **) &s->lanes, &s->lanecap, s->nlanes,
                                  sizeof(*s->lanes))) {
        mca_coll_rsag_sched_fail(s, OMPI_ERR_OUT_OF_RESOURCE);
        return -1;
    }
    s->lanes[s->nlanes] = (mca_coll_rsag_lane_t) { .first = first, .end = -1, .stage = stage,
                                                   .tagno = tagno };
    s->lane = s->nlanes++;
    s->fence = s->nsteps;                   /* a new lane waits for none of its own */
    return s->lane;
}

void mca_coll_rsag_sched_lanes_begin(mca_coll_rsag_sched_t *s)
{
    if (OMPI_SUCCESS != s->err) {
        return;
    }
    if (s->in_group) {
        mca_coll_rsag_sched_fail(s, OMPI_ERR_NOT_SUPPORTED);     /* groups do not nest */
        return;
    }
    /* the steps so far: lane 0 of stage 0 (they were appended to lane 0) */
    if (0 == s->nlanes && mca_coll_rsag_sched_lane_new(s, 0, 0, 0) < 0) {
        return;
    }
    s->lanes[s->lane].end = s->nsteps;
    s->in_group = true;
}

void mca_coll_rsag_sched_lane(mca_coll_rsag_sched_t *s)
{
    mca_coll_rsag_lane_t *cur;
    int stage;

    if (OMPI_SUCCESS != s->err) {
        return;
    }
    cur = s->in_group ? &s->lanes[s->lane] : NULL;
    if (NULL == cur || (0 == cur->tagno && cur->end != s->nsteps)) {
        /* outside a group, or steps between lanes_begin and its first lane */
        mca_coll_rsag_sched_fail(s, OMPI_ERR_NOT_SUPPORTED);
        return;
    }
    if (0 == cur->tagno) {
        stage = cur->stage + 1;             /* the group's first lane */
    } else {
        cur->end = s->nsteps;
        stage = cur->stage;
    }
    (void) mca_coll_rsag_sched_lane_new(s, s->nsteps, stage, s->nlanetags + 1);
    if (OMPI_SUCCESS == s->err) {
        ++s->nlanetags;
    }
}

void mca_coll_rsag_sched_lanes_end(mca_coll_rsag_sched_t *s)
{
    mca_coll_rsag_lane_t *cur;

    if (OMPI_SUCCESS != s->err) {
        return;
    }
    if (!s->in_group) {
        mca_coll_rsag_sched_fail(s, OMPI_ERR_NOT_SUPPORTED);
        return;
    }
    cur = &s->lanes[s->lane];
    cur->end = s->nsteps;
    s->in_group = false;
    /* what follows: a lane of the next stage, open to the end of the schedule */
    (void) mca_coll_rsag_sched_lane_new(s, s->nsteps, cur->stage + 1, 0);
}

int mca_coll_rsag_sched_gate(mca_coll_rsag_sched_t *s, int dep)
{
    int gate;

    mca_coll_rsag_sched_fence(s);
    gate = mca_coll_rsag_sched_append(s, MCA_COLL_RSAG_STEP_GATE, 0, 0, 0, NULL, NULL, NULL);
    mca_coll_rsag_sched_after(s, gate, dep);
    mca_coll_rsag_sched_fence(s);
    return gate;
}

/* The elements per message of an exchange with `peer`: the exchange
 * chunk (coll_rsag_exchange_chunk_size) when the peer is on another node,
 * else SIZE_MAX.  Both directions of an exchange are busy at once: over
 * TCP a message above the eager limit waits for its receiver's answer,
 * which queues behind the receiver's own data (MPI_Reduce across 2 x 2
 * hosts at 256 KB: 3.5 ms whole, 2.4 ms with the eager limit raised).
 * Being on one node is symmetric, so both ends cut a message alike. */
static size_t mca_coll_rsag_sched_exchange_chunk(const struct mca_coll_rsag_args_t *a, int peer)
{
    ompi_proc_t *proc = ompi_group_peer_lookup(a->comm->c_local_group, peer);

    if (NULL == proc || OPAL_PROC_ON_LOCAL_NODE(proc->super.proc_flags)) {
        return SIZE_MAX;
    }
    return mca_coll_rsag_exchange_chunk(a);
}

int mca_coll_rsag_sched_cut(mca_coll_rsag_sched_t *s, const struct mca_coll_rsag_args_t *a,
                            bool send, const void *buf, size_t count, size_t m, int peer)
{
    int first = -1;

    for (size_t j = 0; j < m; ++j) {
        size_t len, at = mca_coll_rsag_even_chunk(count, m, j, &len);
        char *msg = mca_coll_rsag_elem(buf, at, a->extent);
        int step = send ? mca_coll_rsag_sched_send(s, a, msg, len, peer)
                        : mca_coll_rsag_sched_recv(s, a, msg, len, peer);

        first = (0 == j) ? step : first;
    }
    return first;
}

void mca_coll_rsag_sched_sendrecv(mca_coll_rsag_sched_t *s, const struct mca_coll_rsag_args_t *a,
                                  const void *sbuf, size_t scount, int dst, void *rbuf,
                                  size_t rcount, int src)
{
    (void) mca_coll_rsag_sched_cut(
        s, a, false, rbuf, rcount,
        mca_coll_rsag_even_messages(rcount, mca_coll_rsag_sched_exchange_chunk(a, src)), src);
    (void) mca_coll_rsag_sched_cut(
        s, a, true, sbuf, scount,
        mca_coll_rsag_even_messages(scount, mca_coll_rsag_sched_exchange_chunk(a, dst)), dst);
    mca_coll_rsag_sched_fence(s);
}

char *mca_coll_rsag_sched_tmp(mca_coll_rsag_sched_t *s, size_t count)
{
    return mca_coll_rsag_sched_tmp_typed(s, count, s->dtype);
}

char *mca_coll_rsag_sched_tmp_typed(mca_coll_rsag_sched_t *s, size_t count,
                                    struct ompi_datatype_t *dtype)
{
    mca_coll_rsag_tmp_t *t;
    int err;

    if (OMPI_SUCCESS != s->err) {
        return NULL;
    }
    if (!mca_coll_rsag_sched_grow((void **) &s->tmps, &s->tmpcap, s->ntmps, sizeof(*s->tmps))) {
        mca_coll_rsag_sched_fail(s, OMPI_ERR_OUT_OF_RESOURCE);
        return NULL;
    }
    t = &s->tmps[s->ntmps];
    *t = (mca_coll_rsag_tmp_t) MCA_COLL_RSAG_TMP_INIT;
    err = mca_coll_rsag_tmp_alloc(t, count, dtype);
    if (OMPI_SUCCESS != err) {
        mca_coll_rsag_sched_fail(s, err);
        return NULL;
    }
    ++s->ntmps;
    return t->buf;
}

/* ---- running ------------------------------------------------------------ */

void mca_coll_rsag_sched_start(mca_coll_rsag_sched_t *s, int tag)
{
    s->waiting = false;
    s->next = s->oldest = 0;
    s->tag = tag;
    s->draining = false;
    if (s->nsteps > 0) {
        memset(s->done, 0, (size_t) s->nsteps * sizeof(*s->done));
    }
    if (s->nlanes > 0) {
        if (s->lanes[s->nlanes - 1].end < 0) {
            s->lanes[s->nlanes - 1].end = s->nsteps;     /* the last lane, still open */
        }
        for (int k = 0; k < s->nlanes; ++k) {
            mca_coll_rsag_lane_t *l = &s->lanes[k];

            l->next = l->oldest = l->first;
            l->tag = (0 == l->tagno) ? tag : mca_coll_rsag_tag_after(s->lane_tag, l->tagno - 1);
        }
        s->stage = s->stage_lane = 0;
    }
}

static bool mca_coll_rsag_sched_dep_done(const mca_coll_rsag_sched_t *s, int dep)
{
    return dep < 0 || s->done[dep];
}

static bool mca_coll_rsag_sched_ready(const mca_coll_rsag_sched_t *s,
                                      const mca_coll_rsag_step_t *st)
{
    return st->fence <= s->oldest && mca_coll_rsag_sched_dep_done(s, st->after[0])
           && mca_coll_rsag_sched_dep_done(s, st->after[1])
           && mca_coll_rsag_sched_dep_done(s, st->after[2]);
}

/* Issue step i: post its message, or do its local work. */
static int mca_coll_rsag_sched_issue(mca_coll_rsag_sched_t *s, int i)
{
    const mca_coll_rsag_step_t *st = &s->steps[i];
    struct ompi_datatype_t *dtype = (NULL != st->dtype) ? st->dtype : s->dtype;
    int tag = (0 != st->tag) ? st->tag : (0 != s->nlanes) ? s->lanes[st->lane].tag : s->tag;
    int err = OMPI_SUCCESS;

    s->reqs[i] = MPI_REQUEST_NULL;
    switch ((mca_coll_rsag_step_kind_t) st->kind) {
    case MCA_COLL_RSAG_STEP_SEND:
        if (s->waiting && (i + 1 == s->nsteps || s->steps[i + 1].fence > i)) {
            /* A blocking run would wait for this send next (the steps
             * after it wait for everything before them): send blocking,
             * which lets the PML send a small message inline, without a
             * request (every receive of this round is already posted). */
            err = mca_coll_rsag_send(st->a, st->count, dtype, st->peer, tag,
                                     s->comms[st->comm]);
            break;
        }
        return mca_coll_rsag_isend(st->a, st->count, dtype, st->peer, tag,
                                   s->comms[st->comm], &s->reqs[i]);
    case MCA_COLL_RSAG_STEP_RECV:
        return mca_coll_rsag_irecv(st->dst, st->count, dtype, st->peer, tag,
                                   s->comms[st->comm], &s->reqs[i]);
    case MCA_COLL_RSAG_STEP_REDUCE:
        mca_coll_rsag_op_reduce(s->op, st->a, st->dst, st->count, s->dtype);
        break;
    case MCA_COLL_RSAG_STEP_REDUCE3:
        mca_coll_rsag_op_reduce3(s->op, st->a, st->b, st->dst, st->count, s->dtype);
        break;
    case MCA_COLL_RSAG_STEP_COPY:
        err = mca_coll_rsag_copy(dtype, st->count, st->dst, st->a);
        break;
    case MCA_COLL_RSAG_STEP_SNDRCV:
        err = ompi_datatype_sndrcv(st->a, (int32_t) st->count, dtype, st->dst,
                                   (int32_t) st->count2, st->dtype2);
        break;
    case MCA_COLL_RSAG_STEP_POLL: {
        const mca_coll_rsag_poll_t *p = &s->polls[st->poll];

        p->start(p->state);
        err = p->poll(p->state, s->waiting);
        if (MCA_COLL_RSAG_POLL_AGAIN == err) {
            return OMPI_SUCCESS;            /* polled by mca_coll_rsag_sched_progress */
        }
        break;
    }
    case MCA_COLL_RSAG_STEP_GATE:
        break;
    }
    s->done[i] = 1;
    return err;
}

/* Message i completed: take its error and free its request. */
static void mca_coll_rsag_sched_retire(mca_coll_rsag_sched_t *s, int i)
{
    int err = s->reqs[i]->req_status.MPI_ERROR;

    (void) ompi_request_free(&s->reqs[i]);
    s->reqs[i] = MPI_REQUEST_NULL;
    s->done[i] = 1;
    if (OMPI_SUCCESS != err) {
        mca_coll_rsag_sched_fail(s, err);
    }
}

/* Poll step i (issued, not complete) once, or until complete (`wait`);
 * true when it completed. */
static bool mca_coll_rsag_sched_poll(mca_coll_rsag_sched_t *s, int i, bool wait)
{
    const mca_coll_rsag_poll_t *p = &s->polls[s->steps[i].poll];
    int err = p->poll(p->state, wait);

    if (MCA_COLL_RSAG_POLL_AGAIN == err) {
        return false;
    }
    s->done[i] = 1;
    if (OMPI_SUCCESS != err) {
        mca_coll_rsag_sched_fail(s, err);
    }
    return true;
}

/* After an error: cancel the receives in flight, release the sends; a
 * POLL step cannot be cancelled (its peers count on it): it is polled to
 * its end. */
static void mca_coll_rsag_sched_drain_range(mca_coll_rsag_sched_t *s, int from, int to)
{
    for (int i = from; i < to; ++i) {
        if (!s->done[i] && MCA_COLL_RSAG_STEP_POLL == s->steps[i].kind) {
            continue;
        }
        if (s->done[i] || MPI_REQUEST_NULL == s->reqs[i]) {
            s->done[i] = 1;
            continue;
        }
        if (MCA_COLL_RSAG_STEP_RECV == s->steps[i].kind) {
            (void) ompi_request_cancel(s->reqs[i]);
        } else {
            (void) ompi_request_free(&s->reqs[i]);
            s->reqs[i] = MPI_REQUEST_NULL;
            s->done[i] = 1;
        }
    }
}

static void mca_coll_rsag_sched_drain(mca_coll_rsag_sched_t *s)
{
    s->draining = true;
    mca_coll_rsag_sched_drain_range(s, s->oldest, s->next);
}

static void mca_coll_rsag_sched_advance_oldest(mca_coll_rsag_sched_t *s)
{
    while (s->oldest < s->next && s->done[s->oldest]) {
        ++s->oldest;
    }
}

/* Retire the issued steps in [from, to) that completed (a POLL step is
 * polled once, without waiting); true when one did. */
static bool mca_coll_rsag_sched_retire_range(mca_coll_rsag_sched_t *s, int from, int to)
{
    bool moved = false;

    for (int i = from; i < to; ++i) {
        if (s->done[i]) {
            continue;
        }
        if (MCA_COLL_RSAG_STEP_POLL == s->steps[i].kind) {
            moved |= mca_coll_rsag_sched_poll(s, i, false);
        } else if (REQUEST_COMPLETE(s->reqs[i])) {
            mca_coll_rsag_sched_retire(s, i);
            moved = true;
        }
    }
    return moved;
}

/* Retire what completed in lane l and issue what may go, without waiting;
 * true when something moved. */
static bool mca_coll_rsag_sched_lane_pass(mca_coll_rsag_sched_t *s, mca_coll_rsag_lane_t *l)
{
    bool moved = mca_coll_rsag_sched_retire_range(s, l->oldest, l->next);

    for (;;) {
        const mca_coll_rsag_step_t *st;

        while (l->oldest < l->next && s->done[l->oldest]) {
            ++l->oldest;
        }
        if (s->draining || OMPI_SUCCESS != s->err || l->next == l->end) {
            return moved;
        }
        st = &s->steps[l->next];
        if (st->fence > l->oldest || !mca_coll_rsag_sched_dep_done(s, st->after[0])
            || !mca_coll_rsag_sched_dep_done(s, st->after[1])
            || !mca_coll_rsag_sched_dep_done(s, st->after[2])) {
            return moved;
        }
        {
            int err = mca_coll_rsag_sched_issue(s, l->next++);
            if (OMPI_SUCCESS != err) {
                mca_coll_rsag_sched_fail(s, err);
            }
        }
        moved = true;
    }
}

/* mca_coll_rsag_sched_progress of a schedule with lanes: the lanes of the
 * running stage, each in turn; the next stage once all are complete. */
static bool mca_coll_rsag_sched_progress_lanes(mca_coll_rsag_sched_t *s)
{
    for (;;) {
        bool moved = false, complete = true, in_flight = false;
        int k;

        for (k = s->stage_lane; k < s->nlanes && s->lanes[k].stage == s->stage; ++k) {
            mca_coll_rsag_lane_t *l = &s->lanes[k];

            moved |= mca_coll_rsag_sched_lane_pass(s, l);
            complete &= (l->oldest == l->end);
            in_flight |= (l->oldest < l->next);
        }
        if (OMPI_SUCCESS != s->err && !s->draining) {
            s->draining = true;
            for (k = s->stage_lane; k < s->nlanes && s->lanes[k].stage == s->stage; ++k) {
                mca_coll_rsag_sched_drain_range(s, s->lanes[k].oldest, s->lanes[k].next);
            }
            continue;                       /* look again: the drain completed sends */
        }
        if (s->draining) {
            if (!in_flight) {
                return true;
            }
        } else if (complete) {
            if (k == s->nlanes) {
                return true;
            }
            s->stage_lane = k;
            s->stage = s->lanes[k].stage;
            continue;
        }
        if (!moved) {
            return false;
        }
    }
}

/* mca_coll_rsag_sched_progress of a schedule of one POLL step (direct's
 * call on a node: every request of the latency path): issue it, then poll
 * it, with no pass over steps and fences (a tenth of an 8-byte
 * MPI_Iallreduce's time). */
static bool mca_coll_rsag_sched_progress_one(mca_coll_rsag_sched_t *s)
{
    if (0 == s->next) {
        int err;

        if (OMPI_SUCCESS != s->err) {
            return true;                    /* never issued: nothing in flight */
        }
        s->next = 1;
        err = mca_coll_rsag_sched_issue(s, 0);
        if (OMPI_SUCCESS != err) {
            mca_coll_rsag_sched_fail(s, err);
        }
    } else if (!s->done[0]) {
        (void) mca_coll_rsag_sched_poll(s, 0, false);
    }
    if (!s->done[0]) {
        return false;
    }
    s->oldest = 1;
    return true;
}

bool mca_coll_rsag_sched_progress(mca_coll_rsag_sched_t *s)
{
    if (0 != s->nlanes) {
        return mca_coll_rsag_sched_progress_lanes(s);
    }
    if (1 == s->nsteps && MCA_COLL_RSAG_STEP_POLL == s->steps[0].kind) {
        return mca_coll_rsag_sched_progress_one(s);
    }
    for (;;) {
        bool moved = mca_coll_rsag_sched_retire_range(s, s->oldest, s->next);

        mca_coll_rsag_sched_advance_oldest(s);
        while (!s->draining && OMPI_SUCCESS == s->err && s->next < s->nsteps
               && mca_coll_rsag_sched_ready(s, &s->steps[s->next])) {
            int err = mca_coll_rsag_sched_issue(s, s->next++);
            if (OMPI_SUCCESS != err) {
                mca_coll_rsag_sched_fail(s, err);
            }
            moved = true;
        }
        if (OMPI_SUCCESS != s->err && !s->draining) {
            mca_coll_rsag_sched_drain(s);
        }
        mca_coll_rsag_sched_advance_oldest(s);
        if (s->oldest == s->next && (s->draining || s->next == s->nsteps)) {
            return true;
        }
        if (!moved) {
            return false;
        }
    }
}

/* The message the schedule waits for: what holds the next step back (its
 * fence: the oldest incomplete step; else a named dependency), or the
 * oldest one in flight once everything is issued or after an error. */
static int mca_coll_rsag_sched_blocker(const mca_coll_rsag_sched_t *s)
{
    const mca_coll_rsag_step_t *st;

    if (s->draining || s->next == s->nsteps) {
        return s->oldest;
    }
    st = &s->steps[s->next];
    if (st->fence > s->oldest) {
        return s->oldest;
    }
    for (int k = 0; k < MCA_COLL_RSAG_STEP_DEPS; ++k) {
        if (!mca_coll_rsag_sched_dep_done(s, st->after[k])) {
            return st->after[k];
        }
    }
    return s->oldest;                       /* not reached: the step was ready */
}

int mca_coll_rsag_sched_run(mca_coll_rsag_sched_t *s, int tag)
{
    if (OMPI_SUCCESS != s->err) {
        return s->err;
    }
    mca_coll_rsag_sched_start(s, tag);
    if (0 != s->nlanes) {
        /* never wait inside one message or POLL step: a peer may need
         * another lane's step of this rank first */
        while (!mca_coll_rsag_sched_progress_lanes(s)) {
            opal_progress();
        }
        return s->err;
    }
    s->waiting = true;
    while (!mca_coll_rsag_sched_progress(s)) {
        int b = mca_coll_rsag_sched_blocker(s);
        int err;

        if (MCA_COLL_RSAG_STEP_POLL == s->steps[b].kind) {
            (void) mca_coll_rsag_sched_poll(s, b, true);
            continue;
        }
        err = ompi_request_wait(&s->reqs[b], MPI_STATUS_IGNORE);

        s->reqs[b] = MPI_REQUEST_NULL;
        s->done[b] = 1;
        if (OMPI_SUCCESS != err) {
            mca_coll_rsag_sched_fail(s, err);
        }
    }
    s->waiting = false;
    return s->err;
}
