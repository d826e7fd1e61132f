/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The priority-aware reduce-scatter schedule; see
 * coll_rsag_reduce_scatter_priority.c for the idea and the diagram.
 *
 * Every step's receives land in one receive area, `tmp`, which mirrors the
 * first kept half K0 of the work vector: a run R always lands at
 * tmp[R - K0], whatever the step, since a slot is reused only after its
 * content is reduced.  Sends of one step go out in exactly the order the
 * partner posts its receives, so messages match in order on one tag.
 */
#include "ompi_config.h"

#include "mpi.h"
#include "ompi/constants.h"
#include "ompi/request/request.h"

#include "coll_rsag_halving.h"
#include "coll_rsag_op.h"
#include "coll_rsag_p2p.h"
#include "coll_rsag_priority_schedule.h"

/* The receives of one step: runs of `run` vblocks tiling the kept half
 * [base, base + n * run), indexed by position (run i starts at
 * base + i * run), whatever the order they were posted in. */
typedef struct mca_coll_rsag_prio_recvs_t {
    mca_coll_rsag_vrange_t *runs;
    ompi_request_t **reqs;   /* MPI_REQUEST_NULL once reduced, or when empty */
    bool *pending;           /* received data not yet reduced into work */
    int base, run, n;
    const char *src;         /* the other operand of their reductions */
} mca_coll_rsag_prio_recvs_t;

/* One call: the buffers, the sends so far, and the bookkeeping block. */
typedef struct mca_coll_rsag_prio_t {
    const mca_coll_rsag_args_t *a;
    char *work;
    char *tmp;
    size_t tmp_base;         /* tmp[i] mirrors work[tmp_base + i] */
    int pof2, vrank, unit;
    ompi_request_t **sends;
    int nsends;
    mca_coll_rsag_prio_recvs_t recvs[2];   /* of the previous and the current step */
    mca_coll_rsag_vrange_t *order;         /* one run order */
    void *book;
} mca_coll_rsag_prio_t;

static mca_coll_rsag_range_t mca_coll_rsag_prio_elems(const mca_coll_rsag_prio_t *c,
                                                      mca_coll_rsag_vrange_t run)
{
    return mca_coll_rsag_vblocks(c->a->vdispl, run.lo, run.n);
}

/* Post the receive of `run` from vrank `peer` into its slot of tmp. */
static int mca_coll_rsag_prio_post(mca_coll_rsag_prio_t *c, mca_coll_rsag_prio_recvs_t *rv,
                                   mca_coll_rsag_vrange_t run, int peer)
{
    const mca_coll_rsag_args_t *a = c->a;
    int i = (run.lo - rv->base) / rv->run;
    mca_coll_rsag_range_t e = mca_coll_rsag_prio_elems(c, run);

    rv->runs[i] = run;
    rv->reqs[i] = MPI_REQUEST_NULL;
    rv->pending[i] = e.cnt > 0;
    if (0 == e.cnt) {
        return OMPI_SUCCESS;
    }
    return mca_coll_rsag_irecv(mca_coll_rsag_elem(c->tmp, e.off - c->tmp_base, a->extent), e.cnt,
                               a->dtype, mca_coll_rsag_fold_rank(peer, a->size), a->tag, a->comm,
                               &rv->reqs[i]);
}

/* Make sure the receive holding vblock `vb` is reduced into work. */
static int mca_coll_rsag_prio_settle(mca_coll_rsag_prio_t *c, mca_coll_rsag_prio_recvs_t *rv,
                                     int vb)
{
    const mca_coll_rsag_args_t *a = c->a;
    int i = (vb - rv->base) / rv->run;
    mca_coll_rsag_range_t e;
    int err;

    if (!rv->pending[i]) {
        return OMPI_SUCCESS;
    }
    err = ompi_request_wait(&rv->reqs[i], MPI_STATUS_IGNORE);
    if (OMPI_SUCCESS != err) {
        return err;
    }
    e = mca_coll_rsag_prio_elems(c, rv->runs[i]);
    mca_coll_rsag_op_reduce3(a->op, mca_coll_rsag_elem(c->tmp, e.off - c->tmp_base, a->extent),
                             mca_coll_rsag_elem(rv->src, e.off, a->extent),
                             mca_coll_rsag_elem(c->work, e.off, a->extent), e.cnt, a->dtype);
    rv->pending[i] = false;
    return OMPI_SUCCESS;
}

/* Send `run` of `buf` to vrank `peer` (nothing when it is empty). */
static int mca_coll_rsag_prio_send(mca_coll_rsag_prio_t *c, const char *buf,
                                   mca_coll_rsag_vrange_t run, int peer)
{
    const mca_coll_rsag_args_t *a = c->a;
    mca_coll_rsag_range_t e = mca_coll_rsag_prio_elems(c, run);
    ompi_request_t **req = &c->sends[c->nsends];

    if (0 == e.cnt) {
        return OMPI_SUCCESS;
    }
    *req = MPI_REQUEST_NULL;
    ++c->nsends;
    return mca_coll_rsag_isend(mca_coll_rsag_elem(buf, e.off, a->extent), e.cnt, a->dtype,
                               mca_coll_rsag_fold_rank(peer, a->size), a->tag, a->comm, req);
}

/* An empty set of receives for the kept half of step s. */
static void mca_coll_rsag_prio_recvs_init(mca_coll_rsag_prio_recvs_t *rv,
                                          mca_coll_rsag_vstep_t s, int unit, const char *src)
{
    rv->base = s.keep_lo;
    rv->run = unit < s.half ? unit : s.half;
    rv->n = s.half / rv->run;
    rv->src = src;
    for (int i = 0; i < rv->n; ++i) {
        rv->reqs[i] = MPI_REQUEST_NULL;
        rv->pending[i] = false;
    }
}

/* Bookkeeping in one block: the requests of every send (p'-1 at most) and
 * of the receives of two consecutive steps (p'/2 runs at most each), their
 * runs, one run order, and the receives' pending flags.  Allocated on
 * every rank before the first message, so that a failure (the same on
 * every rank) leaves no peer waiting. */
static int mca_coll_rsag_prio_book(mca_coll_rsag_prio_t *c)
{
    int maxruns = c->pof2 / 2;
    size_t nreqs = (size_t) c->pof2 + 2 * (size_t) maxruns, nruns = 3 * (size_t) maxruns;
    mca_coll_rsag_vrange_t *runs;
    ompi_request_t **reqs;
    bool *pending;

    c->recvs[0].n = c->recvs[1].n = 0;
    c->book = mca_coll_rsag_malloc(nreqs * sizeof(ompi_request_t *)
                                   + nruns * sizeof(mca_coll_rsag_vrange_t)
                                   + 2 * (size_t) maxruns * sizeof(bool));
    if (NULL == c->book) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    reqs = (ompi_request_t **) c->book;
    runs = (mca_coll_rsag_vrange_t *) (reqs + nreqs);
    pending = (bool *) (runs + nruns);
    c->sends = reqs;
    for (int i = 0; i < 2; ++i) {
        c->recvs[i].reqs = reqs + c->pof2 + i * maxruns;
        c->recvs[i].runs = runs + i * maxruns;
        c->recvs[i].pending = pending + i * maxruns;
    }
    c->order = runs + 2 * maxruns;
    return OMPI_SUCCESS;
}

/* Step 0: every receive of K0 is posted into `next` (tmp mirrors K0), then
 * G0 leaves from `src` (the input, or work on a rank that folded). */
static int mca_coll_rsag_prio_first_step(mca_coll_rsag_prio_t *c,
                                         mca_coll_rsag_prio_recvs_t *next, const char *src)
{
    mca_coll_rsag_vstep_t s = mca_coll_rsag_halving_step(c->vrank, c->pof2, 0,
                                                         MCA_COLL_RSAG_DISTANCE_HALVING);
    int nruns, err = OMPI_SUCCESS;

    c->tmp_base = mca_coll_rsag_vblocks(c->a->vdispl, s.keep_lo, s.half).off;
    mca_coll_rsag_prio_recvs_init(next, s, c->unit, src);
    nruns = mca_coll_rsag_priority_order(c->vrank, s.keep_lo, s.half, c->unit, c->order);
    for (int i = 0; OMPI_SUCCESS == err && i < nruns; ++i) {
        err = mca_coll_rsag_prio_post(c, next, c->order[i], s.peer);
    }
    nruns = mca_coll_rsag_priority_order(s.peer, s.give_lo, s.half, c->unit, c->order);
    for (int i = 0; OMPI_SUCCESS == err && i < nruns; ++i) {
        err = mca_coll_rsag_prio_send(c, src, c->order[i], s.peer);
    }
    return err;
}

/* Step k >= 1: what the partner needs, in its order, is reduced (from the
 * receives of step k - 1, `prev`) and forwarded; then what stays, in this
 * vrank's order, is reduced and received again into the freed slots
 * (`next`). */
static int mca_coll_rsag_prio_step(mca_coll_rsag_prio_t *c, int k,
                                   mca_coll_rsag_prio_recvs_t *prev,
                                   mca_coll_rsag_prio_recvs_t *next)
{
    mca_coll_rsag_vstep_t s = mca_coll_rsag_halving_step(c->vrank, c->pof2, k,
                                                         MCA_COLL_RSAG_DISTANCE_HALVING);
    int nruns, err = OMPI_SUCCESS;

    nruns = mca_coll_rsag_priority_order(s.peer, s.give_lo, s.half, c->unit, c->order);
    for (int i = 0; OMPI_SUCCESS == err && i < nruns; ++i) {
        err = mca_coll_rsag_prio_settle(c, prev, c->order[i].lo);
        if (OMPI_SUCCESS == err) {
            err = mca_coll_rsag_prio_send(c, c->work, c->order[i], s.peer);
        }
    }
    if (OMPI_SUCCESS != err) {
        return err;
    }
    mca_coll_rsag_prio_recvs_init(next, s, c->unit, c->work);
    nruns = mca_coll_rsag_priority_order(c->vrank, s.keep_lo, s.half, c->unit, c->order);
    for (int i = 0; OMPI_SUCCESS == err && i < nruns; ++i) {
        err = mca_coll_rsag_prio_settle(c, prev, c->order[i].lo);
        if (OMPI_SUCCESS == err) {
            err = mca_coll_rsag_prio_post(c, next, c->order[i], s.peer);
        }
    }
    return err;
}

int mca_coll_rsag_priority_rs(const mca_coll_rsag_args_t *a, const char *input, char *work,
                              char *tmp)
{
    int chunks = mca_coll_rsag_component.priority_chunks;
    mca_coll_rsag_prio_t c = { .a = a, .work = work, .tmp = tmp,
                               .pof2 = mca_coll_rsag_pof2_floor(a->size),
                               .vrank = mca_coll_rsag_fold_vrank(a->rank, a->size),
                               .unit = mca_coll_rsag_pof2_floor(chunks > 1 ? chunks : 1) };
    int nsteps = mca_coll_rsag_log2_floor(c.pof2), cur = 0;
    bool folded = a->rank < 2 * (a->size - c.pof2);
    int err = mca_coll_rsag_prio_book(&c);

    if (OMPI_SUCCESS != err) {
        return err;
    }
    err = mca_coll_rsag_fold(a, input, work, tmp);
    if (OMPI_SUCCESS != err || c.vrank < 0 || 0 == nsteps) {
        goto cleanup;
    }
    err = mca_coll_rsag_prio_first_step(&c, &c.recvs[cur], folded ? work : input);
    for (int k = 1; OMPI_SUCCESS == err && k < nsteps; ++k, cur = 1 - cur) {
        err = mca_coll_rsag_prio_step(&c, k, &c.recvs[cur], &c.recvs[1 - cur]);
    }
    /* The last receive holds this vrank's own vblock. */
    if (OMPI_SUCCESS == err) {
        err = mca_coll_rsag_prio_settle(&c, &c.recvs[cur], c.vrank);
    }
    /* Sent ranges of work are never written again, but the caller may
     * overwrite the input (in place) or work (allreduce) next. */
    if (OMPI_SUCCESS == err) {
        err = ompi_request_wait_all(c.nsends, c.sends, MPI_STATUSES_IGNORE);
    }

cleanup:
    /* Nothing is left on success; on an error nothing may stay pending on
     * buffers the caller frees. */
    mca_coll_rsag_requests_drop(c.recvs[0].reqs, (size_t) c.recvs[0].n, true);
    mca_coll_rsag_requests_drop(c.recvs[1].reqs, (size_t) c.recvs[1].n, true);
    mca_coll_rsag_requests_drop(c.sends, (size_t) c.nsends, false);
    mca_coll_rsag_free(c.book);
    return err;
}
