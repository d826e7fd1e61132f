/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The ring phases: one pass of p - 1 steps, pipelined by segments; see
 * coll_rsag_ring.h for what each phase computes.
 *
 *  reduce-scatter  receive (shift 2) into one of the receive slots, reduce
 *                  work[seg] = slot (op) input[seg] (into `out` for block
 *                  r, the last step), forward from work; the first block
 *                  (shift 1) is sent from the input.
 *  allgather       receive (shift 1) straight into work and forward from
 *                  there; the first block (shift 0) is sent from work.
 *
 * What r sends is the first block, then the segments it received in the
 * first p - 2 steps (a prefix of its receive stream) once processed.  A
 * rank blocks only when its next receive has not arrived and no send can
 * be posted, and then wakes on that receive or on its oldest send: every
 * send it waits for is one its successor has a receive posted for, so the
 * ring cannot deadlock.  Both ends of a link cut segments with the same
 * cursor (coll_rsag_index.c), so each segment is one message.
 */
#include "ompi_config.h"

#include "mpi.h"
#include "ompi/constants.h"
#include "ompi/request/request.h"

#include "coll_rsag_op.h"
#include "coll_rsag_p2p.h"
#include "coll_rsag_ring.h"

/* Receives posted ahead of the one being processed (one slot each). */
#define MCA_COLL_RSAG_RING_SLOTS 4
/* With whole blocks two slots keep one receive ahead at half the memory. */
#define MCA_COLL_RSAG_RING_BLOCK_SLOTS 2
/* Sends in flight at most.  Posting a whole block of small segments at
 * once (thousands of messages) makes Open MPI 4.1's shared-memory path
 * slow down quadratically (4 MB in 64-byte segments: 2.4 s instead of
 * 0.01 s on 2 ranks); a window keeps it linear. */
#define MCA_COLL_RSAG_RING_SENDS 8

/* One pass in progress. */
typedef struct mca_coll_rsag_ring_t {
    const mca_coll_rsag_args_t *a;
    const char *input;          /* reduce-scatter: this rank's contribution */
    char *work, *out;
    bool reduce;                /* reduce-scatter (else allgather) */
    int succ, pred;
    size_t segcount, nslots;
    size_t nrecv;               /* segments arriving from r - 1 */
    size_t nfirst, nsend;       /* segments of the first block; of all sent */
    size_t processed, sent, retired;
    struct ompi_request_t *rreq[MCA_COLL_RSAG_RING_SLOTS];
    struct ompi_request_t *sreq[MCA_COLL_RSAG_RING_SENDS];
    /* post: next receive to post; cur: next receive to process; first,
     * fwd: next segment to send of the first block, of the forwarded ones */
    mca_coll_rsag_ring_cursor_t post, cur, first, fwd;
    mca_coll_rsag_tmp_t slots;
} mca_coll_rsag_ring_t;

/* Where segment `seg` is received into: slot j, or its place in work. */
static char *mca_coll_rsag_ring_landing(mca_coll_rsag_ring_t *r, size_t j,
                                        mca_coll_rsag_range_t seg)
{
    return r->reduce ? mca_coll_rsag_elem(r->slots.buf, j * r->segcount, r->a->extent)
                     : mca_coll_rsag_elem(r->work, seg.off, r->a->extent);
}

/* Post the receive of the `post` cursor's segment into slot j. */
static int mca_coll_rsag_ring_post_recv(mca_coll_rsag_ring_t *r, size_t j)
{
    const mca_coll_rsag_args_t *a = r->a;
    int err = mca_coll_rsag_irecv(mca_coll_rsag_ring_landing(r, j, r->post.seg),
                                  r->post.seg.cnt, a->dtype, r->pred, a->tag, a->comm,
                                  &r->rreq[j]);

    mca_coll_rsag_ring_cursor_next(&r->post);
    return err;
}

/* Retire the sends done, in order, and post every send that is ready and
 * fits in the window. */
static int mca_coll_rsag_ring_sends(mca_coll_rsag_ring_t *r)
{
    const mca_coll_rsag_args_t *a = r->a;
    const size_t W = MCA_COLL_RSAG_RING_SENDS;
    int err;

    while (r->retired < r->sent && REQUEST_COMPLETE(r->sreq[r->retired % W])) {
        err = ompi_request_wait(&r->sreq[r->retired++ % W], MPI_STATUS_IGNORE);
        if (OMPI_SUCCESS != err) {
            return err;
        }
    }
    while (r->sent < r->nsend && r->sent - r->retired < W
           && (r->sent < r->nfirst || r->sent - r->nfirst < r->processed)) {
        bool from_first = r->sent < r->nfirst;
        mca_coll_rsag_ring_cursor_t *c = from_first ? &r->first : &r->fwd;
        const char *src = (from_first && r->reduce) ? r->input : r->work;

        err = mca_coll_rsag_isend(mca_coll_rsag_elem(src, c->seg.off, a->extent), c->seg.cnt,
                                  a->dtype, r->succ, a->tag, a->comm, &r->sreq[r->sent % W]);
        if (OMPI_SUCCESS != err) {
            return err;
        }
        ++r->sent;
        mca_coll_rsag_ring_cursor_next(c);
    }
    return OMPI_SUCCESS;
}

/* Wait for receive slot j, or its oldest send if that completes first
 * (wait_any frees what completed; mirror that).  *ready: slot j arrived. */
static int mca_coll_rsag_ring_wait(mca_coll_rsag_ring_t *r, size_t j, bool *ready)
{
    const size_t W = MCA_COLL_RSAG_RING_SENDS;
    struct ompi_request_t *pending[2] = { r->rreq[j], MPI_REQUEST_NULL };
    int n = 1, idx = MPI_UNDEFINED, err;

    *ready = MPI_REQUEST_NULL == r->rreq[j];
    if (*ready) {
        return OMPI_SUCCESS;
    }
    if (REQUEST_COMPLETE(r->rreq[j])) {
        *ready = true;
        return ompi_request_wait(&r->rreq[j], MPI_STATUS_IGNORE);
    }
    if (r->retired < r->sent) {
        pending[n++] = r->sreq[r->retired % W];
    }
    err = ompi_request_wait_any((size_t) n, pending, &idx, MPI_STATUS_IGNORE);
    if (0 == idx) {
        r->rreq[j] = MPI_REQUEST_NULL;
    } else if (1 == idx) {
        r->sreq[r->retired++ % W] = MPI_REQUEST_NULL;
    }
    return err;
}

/* Segment `processed` is here in slot j: reduce it (the last step's into
 * out), and receive the one nslots ahead into the freed slot. */
static int mca_coll_rsag_ring_process(mca_coll_rsag_ring_t *r, size_t j)
{
    const mca_coll_rsag_args_t *a = r->a;
    int err = OMPI_SUCCESS;

    if (r->reduce) {
        mca_coll_rsag_range_t seg = r->cur.seg;
        char *dst = (r->cur.step == a->size - 2)
                        ? mca_coll_rsag_elem(r->out, seg.off - a->displ[a->rank], a->extent)
                        : mca_coll_rsag_elem(r->work, seg.off, a->extent);
        mca_coll_rsag_op_reduce3(a->op, mca_coll_rsag_ring_landing(r, j, seg),
                                 mca_coll_rsag_elem(r->input, seg.off, a->extent), dst, seg.cnt,
                                 a->dtype);
    }
    if (!mca_coll_rsag_ring_cursor_done(&r->post)) {
        err = mca_coll_rsag_ring_post_recv(r, j);
    }
    ++r->processed;
    mca_coll_rsag_ring_cursor_next(&r->cur);
    return err;
}

/* Count the segments, take the receive slots, set the cursors. */
static int mca_coll_rsag_ring_init(mca_coll_rsag_ring_t *r, const mca_coll_rsag_args_t *a,
                                   const char *input, char *work, char *out, bool reduce)
{
    const int shift = reduce ? 2 : 1, p = a->size;
    size_t type_size, seg_bytes = mca_coll_rsag_component.ring_segment_size;

    *r = (mca_coll_rsag_ring_t) { .a = a, .input = input, .work = work, .out = out,
                                  .reduce = reduce, .succ = (a->rank + 1) % p,
                                  .pred = (a->rank + p - 1) % p };
    for (size_t j = 0; j < MCA_COLL_RSAG_RING_SLOTS; ++j) {
        r->rreq[j] = MPI_REQUEST_NULL;
    }
    for (size_t j = 0; j < MCA_COLL_RSAG_RING_SENDS; ++j) {
        r->sreq[j] = MPI_REQUEST_NULL;
    }
    ompi_datatype_type_size(a->dtype, &type_size);
    r->segcount = mca_coll_rsag_ring_segcount(seg_bytes, type_size,
                                              mca_coll_rsag_max_block(a->displ, p));
    /* What arrives from r - 1: p - 1 blocks; what leaves for r + 1: the
     * first block, then each block received but the last one. */
    r->nrecv = mca_coll_rsag_ring_nsegs(a->displ, p, a->rank, shift, p - 1, r->segcount);
    r->nfirst = mca_coll_rsag_ring_nsegs(a->displ, p, a->rank, shift - 1, 1, r->segcount);
    r->nsend = r->nfirst
               + mca_coll_rsag_ring_nsegs(a->displ, p, a->rank, shift, p - 2, r->segcount);
    r->nslots = (reduce && 0 == seg_bytes) ? MCA_COLL_RSAG_RING_BLOCK_SLOTS
                                           : MCA_COLL_RSAG_RING_SLOTS;
    r->nslots = (r->nrecv < r->nslots) ? r->nrecv : r->nslots;
    mca_coll_rsag_ring_cursor_init(&r->post, a->displ, p, a->rank, shift, p - 1, r->segcount);
    mca_coll_rsag_ring_cursor_init(&r->cur, a->displ, p, a->rank, shift, p - 1, r->segcount);
    mca_coll_rsag_ring_cursor_init(&r->first, a->displ, p, a->rank, shift - 1, 1, r->segcount);
    mca_coll_rsag_ring_cursor_init(&r->fwd, a->displ, p, a->rank, shift, p - 2, r->segcount);
    return mca_coll_rsag_tmp_alloc(&r->slots, reduce ? r->nslots * r->segcount : 0, a->dtype);
}

static int mca_coll_rsag_ring_pass(const mca_coll_rsag_args_t *a, const char *input, char *work,
                                   char *out, bool reduce)
{
    mca_coll_rsag_ring_t r;
    int err = mca_coll_rsag_ring_init(&r, a, input, work, out, reduce);

    /* The first receives: one per slot. */
    for (size_t j = 0; OMPI_SUCCESS == err && j < r.nslots; ++j) {
        err = mca_coll_rsag_ring_post_recv(&r, j);
    }
    while (OMPI_SUCCESS == err && (r.processed < r.nrecv || r.retired < r.nsend)) {
        size_t j = (r.nslots > 0) ? r.processed % r.nslots : 0;
        bool ready;

        err = mca_coll_rsag_ring_sends(&r);
        if (OMPI_SUCCESS != err) {
            break;
        }
        if (r.processed == r.nrecv) {
            /* Nothing left to receive: finish the sends. */
            err = ompi_request_wait(&r.sreq[r.retired++ % MCA_COLL_RSAG_RING_SENDS],
                                    MPI_STATUS_IGNORE);
            continue;
        }
        err = mca_coll_rsag_ring_wait(&r, j, &ready);
        if (OMPI_SUCCESS == err && ready) {
            err = mca_coll_rsag_ring_process(&r, j);
        }
    }
    if (OMPI_SUCCESS != err) {
        mca_coll_rsag_requests_drop(r.rreq, MCA_COLL_RSAG_RING_SLOTS, true);
        mca_coll_rsag_requests_drop(r.sreq, MCA_COLL_RSAG_RING_SENDS, false);
    }
    mca_coll_rsag_tmp_free(&r.slots);
    return err;
}

int mca_coll_rsag_ring_rs(const mca_coll_rsag_args_t *a, const char *input, char *work,
                          char *out)
{
    return mca_coll_rsag_ring_pass(a, input, work, out, true);
}

int mca_coll_rsag_ring_allgather(const mca_coll_rsag_args_t *a, char *buf)
{
    return mca_coll_rsag_ring_pass(a, NULL, buf, NULL, false);
}

/* TRANSITION (replaced by the ring's schedule): every rank sends its block
 * to every other rank. */
int mca_coll_rsag_ring_allgather_sched(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                       char *buf)
{
    for (int q = 0; q < a->size; ++q) {
        size_t n = a->displ[q + 1] - a->displ[q];
        if (q == a->rank || 0 == n) {
            continue;
        }
        (void) mca_coll_rsag_sched_recv(s, a, mca_coll_rsag_elem(buf, a->displ[q], a->extent), n, q);
    }
    for (int q = 0; q < a->size; ++q) {
        size_t n = a->displ[a->rank + 1] - a->displ[a->rank];
        if (q == a->rank || 0 == n) {
            continue;
        }
        (void) mca_coll_rsag_sched_send(s, a, mca_coll_rsag_elem(buf, a->displ[a->rank], a->extent), n, q);
    }
    return s->err;
}
