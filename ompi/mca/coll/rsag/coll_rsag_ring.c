/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The ring phases as schedules: one pass of p - 1 steps, pipelined by
 * chunks; see coll_rsag_ring.h for what each phase computes.
 *
 *  reduce-scatter  receive i (shift 2) into slot i mod S, reduce
 *                  work[seg] = slot (op) input[seg] (into `out` for block
 *                  r, the last step), forward from work; the first block
 *                  (shift 1) is sent from the input.
 *  allgather       receive (shift 1) straight into work and forward from
 *                  there; the first block (shift 0) is sent from work.
 *
 * What r sends is the first block, then the chunks it received in the
 * first p - 2 steps (a prefix of its receive stream) once processed; both
 * ends of a link cut chunks with the same cursor (coll_rsag_index.c), so
 * send k of r is receive k of r + 1, one message.  The steps and what
 * each names (mca_coll_rsag_sched_after):
 *
 *   receive i    the step that last used its slot: reduction i - S
 *                (allgather: receive i - S, so S receives are posted
 *                ahead); after a reduce-scatter, the allgather's receive i
 *                lands where that phase's send i read, and names it;
 *   reduction i  receive i;
 *   send k       send k - W (at most W sends in flight), and what produced
 *                its data: reduction (receive) k - nfirst for a forwarded
 *                chunk, the reduce-scatter's reduction of it for the
 *                allgather's first block.
 *
 * Order of the list.  Steps issue in list order, so a step placed too
 * early holds back the ones after it, and one placed too late starves the
 * neighbour.  Give every chunk a clock (ring step, place in its block):
 * send k of r and receive k of r + 1 share it.  Each rank lists its steps
 * by clock: first receives 0 .. S-1, then for each received chunk i the
 * sends that may go before it, reduction i, receive i + S.  Send k may go
 * before reduction i when its data is ready (first block, or k - nfirst
 * < i) and the receive that completes send k - W is posted: receive k - W
 * of r + 1 follows its reduction k - W - S, so send k waits for the clock
 * to pass send k - W - S (no wait for k < W + S).  Then every step waits
 * only for steps of an earlier clock, on any rank: the ring cannot
 * deadlock, for any p, layout and chunk size, and each rank keeps up to
 * W sends and S receives in flight (the first block's sends run W + S
 * ahead of the reductions).  The allgather's steps follow all of the
 * reduce-scatter's.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_ring.h"

/* Receives posted ahead of the one being processed (one slot each). */
#define MCA_COLL_RSAG_RING_SLOTS 4
/* With whole blocks two slots keep one receive ahead at half the memory. */
#define MCA_COLL_RSAG_RING_BLOCK_SLOTS 2
/* Sends in flight at most.  Posting a whole block of small chunks at
 * once (thousands of messages) makes Open MPI 4.1's shared-memory path
 * slow down quadratically (4 MB in 64-byte chunks: 2.4 s instead of
 * 0.01 s on 2 ranks); a window keeps it linear. */
#define MCA_COLL_RSAG_RING_SENDS 8

/* One phase being described. */
typedef struct mca_coll_rsag_ring_build_t {
    mca_coll_rsag_sched_t *s;
    const mca_coll_rsag_args_t *a;
    const char *input;          /* reduce-scatter: this rank's contribution */
    char *work, *out, *slots;
    bool reduce;                /* reduce-scatter (else allgather) */
    int succ, pred;
    size_t segcount;
    size_t nslots;              /* S: receive i waits for the use of receive i - S */
    const mca_coll_rsag_ring_t *rs; /* allgather: the reduce-scatter before it, or NULL */
    mca_coll_rsag_ring_t *r;
    /* post: next receive to post; cur: next received chunk to process;
     * send: next send; lag: the send W + S before it */
    mca_coll_rsag_ring_cursor_t post, cur, send, lag;
} mca_coll_rsag_ring_build_t;

/* Whether chunk x comes before chunk y on the ring's clock. */
static bool mca_coll_rsag_ring_earlier(const mca_coll_rsag_ring_cursor_t *x,
                                       const mca_coll_rsag_ring_cursor_t *y)
{
    size_t xo = x->seg.off - x->displ[x->block], yo = y->seg.off - y->displ[y->block];

    return x->step < y->step || (x->step == y->step && xo < yo);
}

/* Receive i: the `post` cursor's chunk, into its slot (reduce-scatter)
 * or its place in work (allgather). */
static void mca_coll_rsag_ring_recv(mca_coll_rsag_ring_build_t *b, size_t i)
{
    const mca_coll_rsag_args_t *a = b->a;
    mca_coll_rsag_ring_t *r = b->r;
    char *dst = b->reduce ? mca_coll_rsag_elem(b->slots, (i % b->nslots) * b->segcount, a->extent)
                          : mca_coll_rsag_elem(b->work, b->post.seg.off, a->extent);
    int step = mca_coll_rsag_sched_recv(b->s, a, dst, b->post.seg.cnt, b->pred);

    r->recv[i] = step;
    if (i >= b->nslots) {
        mca_coll_rsag_sched_after(b->s, step, r->ready[i - b->nslots]);
    }
    /* The reduce-scatter's send i read this place (the input's block
     * r - 1 for its first block). */
    if (NULL != b->rs && (i >= b->rs->nfirst || b->rs->first_in_work)) {
        mca_coll_rsag_sched_after(b->s, step, b->rs->send[i]);
    }
    mca_coll_rsag_ring_cursor_next(&b->post);
}

/* Received chunk i (the `cur` cursor's) is usable after its reduction,
 * into out for the last step (reduce-scatter), or as it arrives. */
static void mca_coll_rsag_ring_process(mca_coll_rsag_ring_build_t *b, size_t i)
{
    const mca_coll_rsag_args_t *a = b->a;
    mca_coll_rsag_ring_t *r = b->r;

    if (b->reduce) {
        mca_coll_rsag_range_t seg = b->cur.seg;
        char *dst = (b->cur.step == a->size - 2)
                        ? mca_coll_rsag_elem(b->out, seg.off - a->displ[a->rank], a->extent)
                        : mca_coll_rsag_elem(b->work, seg.off, a->extent);
        int step = mca_coll_rsag_sched_reduce3(
            b->s, mca_coll_rsag_elem(b->slots, (i % b->nslots) * b->segcount, a->extent),
            mca_coll_rsag_elem(b->input, seg.off, a->extent), dst, seg.cnt);

        mca_coll_rsag_sched_after(b->s, step, r->recv[i]);
        r->ready[i] = step;
    } else {
        r->ready[i] = r->recv[i];
    }
    mca_coll_rsag_ring_cursor_next(&b->cur);
}

/* Send k: the `send` cursor's chunk, from the input (the reduce-scatter's
 * first block) or work. */
static void mca_coll_rsag_ring_send(mca_coll_rsag_ring_build_t *b, size_t k)
{
    const size_t W = MCA_COLL_RSAG_RING_SENDS;
    const mca_coll_rsag_args_t *a = b->a;
    mca_coll_rsag_ring_t *r = b->r;
    bool first = k < r->nfirst;
    const char *src = (first && b->reduce) ? b->input : b->work;
    int step = mca_coll_rsag_sched_send(b->s, a, mca_coll_rsag_elem(src, b->send.seg.off, a->extent),
                                        b->send.seg.cnt, b->succ);

    r->send[k] = step;
    if (k >= W) {
        mca_coll_rsag_sched_after(b->s, step, r->send[k - W]);
    }
    if (!first) {
        mca_coll_rsag_sched_after(b->s, step, r->ready[k - r->nfirst]);
    } else if (NULL != b->rs) {
        /* block r: the reduce-scatter's last step */
        mca_coll_rsag_sched_after(b->s, step, b->rs->ready[b->rs->nrecv - r->nfirst + k]);
    }
    mca_coll_rsag_ring_cursor_next(&b->send);
    if (k + 1 > W + b->nslots) {
        mca_coll_rsag_ring_cursor_next(&b->lag);
    }
}

/* Whether send k goes before received chunk i is processed (i = nrecv:
 * after the last one); see the order at the top. */
static bool mca_coll_rsag_ring_send_goes(const mca_coll_rsag_ring_build_t *b, size_t k,
                                         size_t i)
{
    const mca_coll_rsag_ring_t *r = b->r;

    if (k >= r->nfirst && k - r->nfirst >= i) {
        return false;                       /* its data is not there yet */
    }
    if (k < MCA_COLL_RSAG_RING_SENDS + b->nslots || i == r->nrecv) {
        return true;
    }
    return mca_coll_rsag_ring_earlier(&b->lag, &b->cur);
}

/* Count the chunks and set the cursors of a phase. */
static void mca_coll_rsag_ring_init(mca_coll_rsag_ring_build_t *b, mca_coll_rsag_sched_t *s,
                                    const mca_coll_rsag_args_t *a, bool reduce,
                                    size_t chunk_bytes, mca_coll_rsag_ring_t *r)
{
    const int shift = reduce ? 2 : 1, p = a->size;
    size_t type_size;

    *b = (mca_coll_rsag_ring_build_t) { .s = s, .a = a, .reduce = reduce, .r = r,
                                        .succ = (a->rank + 1) % p,
                                        .pred = (a->rank + p - 1) % p };
    *r = (mca_coll_rsag_ring_t) { .recv = NULL, .chunk_bytes = chunk_bytes };
    ompi_datatype_type_size(a->dtype, &type_size);
    b->segcount = mca_coll_rsag_ring_segcount(chunk_bytes, type_size,
                                              mca_coll_rsag_max_block(a->displ, p));
    b->nslots = (reduce && 0 == chunk_bytes) ? MCA_COLL_RSAG_RING_BLOCK_SLOTS
                                           : MCA_COLL_RSAG_RING_SLOTS;
    /* What arrives from r - 1: p - 1 blocks; what leaves for r + 1: the
     * first block, then each block received but the last one. */
    r->nrecv = mca_coll_rsag_ring_nsegs(a->displ, p, a->rank, shift, p - 1, b->segcount);
    r->nsend = mca_coll_rsag_ring_nsegs(a->displ, p, a->rank, shift - 1, p - 1, b->segcount);
    r->nfirst = mca_coll_rsag_ring_nsegs(a->displ, p, a->rank, shift - 1, 1, b->segcount);
    mca_coll_rsag_ring_cursor_init(&b->post, a->displ, p, a->rank, shift, p - 1, b->segcount);
    b->cur = b->post;
    mca_coll_rsag_ring_cursor_init(&b->send, a->displ, p, a->rank, shift - 1, p - 1,
                                   b->segcount);
    b->lag = b->send;
}

/* Append the phase's steps in the order described at the top. */
static void mca_coll_rsag_ring_describe(mca_coll_rsag_ring_build_t *b)
{
    mca_coll_rsag_ring_t *r = b->r;
    size_t k = 0;

    r->recv = mca_coll_rsag_malloc((2 * r->nrecv + r->nsend) * sizeof(int));
    if (NULL == r->recv) {
        if (OMPI_SUCCESS == b->s->err) {
            b->s->err = OMPI_ERR_OUT_OF_RESOURCE;
        }
        return;
    }
    r->ready = r->recv + r->nrecv;
    r->send = r->ready + r->nrecv;

    for (size_t i = 0; i < b->nslots && i < r->nrecv; ++i) {
        mca_coll_rsag_ring_recv(b, i);
    }
    for (size_t i = 0;; ++i) {
        while (k < r->nsend && mca_coll_rsag_ring_send_goes(b, k, i)) {
            mca_coll_rsag_ring_send(b, k++);
        }
        if (i == r->nrecv) {
            break;
        }
        mca_coll_rsag_ring_process(b, i);
        if (i + b->nslots < r->nrecv) {
            mca_coll_rsag_ring_recv(b, i + b->nslots);
        }
    }
}

void mca_coll_rsag_ring_rs(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                           const char *input, char *work, char *out, size_t chunk_bytes,
                           mca_coll_rsag_ring_t *r)
{
    mca_coll_rsag_ring_build_t b;
    size_t slots;

    mca_coll_rsag_ring_init(&b, s, a, true, chunk_bytes, r);
    b.input = input;
    b.work = work;
    b.out = out;
    r->first_in_work = input == work;
    slots = (r->nrecv < b.nslots) ? r->nrecv : b.nslots;
    b.slots = mca_coll_rsag_sched_tmp(s, slots * b.segcount);
    if (OMPI_SUCCESS == s->err) {
        mca_coll_rsag_ring_describe(&b);
    }
}

void mca_coll_rsag_ring_allgather(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                  char *buf, const mca_coll_rsag_ring_t *rs)
{
    mca_coll_rsag_ring_build_t b;
    mca_coll_rsag_ring_t r;

    mca_coll_rsag_ring_init(&b, s, a, false,
                            NULL != rs ? rs->chunk_bytes
                                       : mca_coll_rsag_component.allreduce_ring_chunk_size,
                            &r);
    b.work = buf;
    b.rs = rs;
    r.first_in_work = true;
    if (OMPI_SUCCESS == s->err) {       /* else rs may be incomplete */
        mca_coll_rsag_ring_describe(&b);
    }
    mca_coll_rsag_ring_release(&r);
}

void mca_coll_rsag_ring_release(mca_coll_rsag_ring_t *r)
{
    mca_coll_rsag_free(r->recv);
    r->recv = r->ready = r->send = NULL;
}
