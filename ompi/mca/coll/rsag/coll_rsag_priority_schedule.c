/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The priority-aware reduce-scatter schedule; see
 * coll_rsag_reduce_scatter_priority.c for the idea and the diagram.
 *
 * The receives land in one receive area, `tmp`, which mirrors the first
 * kept half K0 of the work vector (run R of step 0 at tmp[R - K0]): the
 * halving's memory, nothing more.  Inside it, two areas alternate: A, the
 * natural places (steps 0, 2, 4, ...: R at tmp[R - K0]), and B, the part
 * of tmp that mirrors G1, the half given at step 1 (steps 1, 3, ...: R
 * at tmp[G1 - K0 + R - K1], K_k lying inside K1 for k >= 1).  B is free
 * once step 1 has forwarded G1, and every receive of step k - 2 is
 * reduced during step k - 1 (the runs of K_{k-2} are G_{k-1} and
 * K_{k-1}, all settled there), so step 1 posts all its receives right
 * after forwarding, and every later step posts all its receives first,
 * before it reduces anything: the partner's messages are matched at once
 * and flow (their rendezvous answered) while this rank reduces and
 * forwards.  B needs |K1| <= |G1| elements (always so for equal blocks);
 * otherwise a receive is posted only once the reduction that frees its
 * natural slot is done, as with a single area.  Reductions are cut into
 * slices with the progress engine run between them, so that the transfers
 * of a btl without asynchronous progress (tcp) keep moving while a large
 * run is reduced.  Sends of one step go out in exactly the order the
 * partner posts its receives, so messages match in order on one tag.
 */
#include "ompi_config.h"

#include "mpi.h"
#include "ompi/constants.h"
#include "ompi/request/request.h"
#include "opal/runtime/opal_progress.h"

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
    char *area;              /* where they land: area[i] mirrors work[area_base + i] */
    size_t area_base;
} mca_coll_rsag_prio_recvs_t;

/* One call: the buffers, the sends so far, and the bookkeeping block. */
typedef struct mca_coll_rsag_prio_t {
    const mca_coll_rsag_args_t *a;
    char *work;
    char *area[2];           /* A (even steps) and B (odd steps) in tmp */
    size_t area_base[2];     /* area[j][i] mirrors work[area_base[j] + i] */
    bool two_areas;          /* B usable: receives posted ahead */
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

/* Bytes reduced between two runs of the progress engine. */
#define MCA_COLL_RSAG_PRIO_SLICE_BYTES ((size_t) 1 << 20)

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
    return mca_coll_rsag_irecv(mca_coll_rsag_elem(rv->area, e.off - rv->area_base, a->extent), e.cnt,
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
    size_t slice, n;
    int err;

    if (!rv->pending[i]) {
        return OMPI_SUCCESS;
    }
    err = ompi_request_wait(&rv->reqs[i], MPI_STATUS_IGNORE);
    if (OMPI_SUCCESS != err) {
        return err;
    }
    e = mca_coll_rsag_prio_elems(c, rv->runs[i]);
    /* In slices, the progress engine run between them (see the top). */
    slice = MCA_COLL_RSAG_PRIO_SLICE_BYTES / (size_t) (a->extent > 0 ? a->extent : 1);
    slice = slice > 0 ? slice : 1;
    for (size_t done = 0; done < e.cnt; done += n) {
        size_t off = e.off + done;

        n = e.cnt - done < slice ? e.cnt - done : slice;
        if (done > 0) {
            opal_progress();
        }
        mca_coll_rsag_op_reduce3(a->op,
                                 mca_coll_rsag_elem(rv->area, off - rv->area_base, a->extent),
                                 mca_coll_rsag_elem(rv->src, off, a->extent),
                                 mca_coll_rsag_elem(c->work, off, a->extent), n, a->dtype);
    }
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

/* An empty set of receives for the kept half of step k (s), landing in
 * area k % 2 (in A when B is not usable). */
static void mca_coll_rsag_prio_recvs_init(mca_coll_rsag_prio_t *c, mca_coll_rsag_prio_recvs_t *rv,
                                          int k, mca_coll_rsag_vstep_t s, const char *src)
{
    rv->base = s.keep_lo;
    rv->run = c->unit < s.half ? c->unit : s.half;
    rv->n = s.half / rv->run;
    rv->src = src;
    rv->area = c->area[c->two_areas ? k % 2 : 0];
    rv->area_base = c->area_base[c->two_areas ? k % 2 : 0];
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

/* Post the receives of the kept half of step s into `next`, in this
 * vrank's order. */
static int mca_coll_rsag_prio_post_all(mca_coll_rsag_prio_t *c, mca_coll_rsag_vstep_t s,
                                       mca_coll_rsag_prio_recvs_t *next)
{
    int nruns = mca_coll_rsag_priority_order(c->vrank, s.keep_lo, s.half, c->unit, c->order);
    int err = OMPI_SUCCESS;

    for (int i = 0; OMPI_SUCCESS == err && i < nruns; ++i) {
        err = mca_coll_rsag_prio_post(c, next, c->order[i], s.peer);
    }
    return err;
}

/* Step 0: every receive of K0 is posted into `next` (area A), then G0
 * leaves from `src` (the input, or work on a rank that folded). */
static int mca_coll_rsag_prio_first_step(mca_coll_rsag_prio_t *c,
                                         mca_coll_rsag_prio_recvs_t *next, const char *src)
{
    mca_coll_rsag_vstep_t s = mca_coll_rsag_halving_step(c->vrank, c->pof2, 0,
                                                         MCA_COLL_RSAG_DISTANCE_HALVING);
    int nruns, err;

    mca_coll_rsag_prio_recvs_init(c, next, 0, s, src);
    err = mca_coll_rsag_prio_post_all(c, s, next);
    nruns = mca_coll_rsag_priority_order(s.peer, s.give_lo, s.half, c->unit, c->order);
    for (int i = 0; OMPI_SUCCESS == err && i < nruns; ++i) {
        err = mca_coll_rsag_prio_send(c, src, c->order[i], s.peer);
    }
    return err;
}

/* Step k >= 1: what the partner needs, in its order, is reduced (from the
 * receives of step k - 1, `prev`) and forwarded; the rest of `prev` (the
 * kept half K_k) is reduced while the partner's messages arrive.  The
 * receives of K_k (`next`) are posted before all that (k >= 2), right
 * after the forwarding (k = 1), or, without area B, each one once its
 * slot is reduced. */
static int mca_coll_rsag_prio_step(mca_coll_rsag_prio_t *c, int k,
                                   mca_coll_rsag_prio_recvs_t *prev,
                                   mca_coll_rsag_prio_recvs_t *next)
{
    mca_coll_rsag_vstep_t s = mca_coll_rsag_halving_step(c->vrank, c->pof2, k,
                                                         MCA_COLL_RSAG_DISTANCE_HALVING);
    int nruns, err = OMPI_SUCCESS;

    mca_coll_rsag_prio_recvs_init(c, next, k, s, c->work);
    if (c->two_areas && k >= 2) {
        err = mca_coll_rsag_prio_post_all(c, s, next);
    }
    nruns = mca_coll_rsag_priority_order(s.peer, s.give_lo, s.half, c->unit, c->order);
    for (int i = 0; OMPI_SUCCESS == err && i < nruns; ++i) {
        err = mca_coll_rsag_prio_settle(c, prev, c->order[i].lo);
        if (OMPI_SUCCESS == err) {
            err = mca_coll_rsag_prio_send(c, c->work, c->order[i], s.peer);
        }
    }
    if (OMPI_SUCCESS == err && c->two_areas && 1 == k) {
        err = mca_coll_rsag_prio_post_all(c, s, next);
    }
    nruns = mca_coll_rsag_priority_order(c->vrank, s.keep_lo, s.half, c->unit, c->order);
    for (int i = 0; OMPI_SUCCESS == err && i < nruns; ++i) {
        err = mca_coll_rsag_prio_settle(c, prev, c->order[i].lo);
        if (OMPI_SUCCESS == err && !c->two_areas) {
            err = mca_coll_rsag_prio_post(c, next, c->order[i], s.peer);
        }
    }
    return err;
}

/* Area A is tmp, mirroring K0; area B is the part of tmp mirroring G1,
 * for K1, when p' >= 4 and K1 has no more elements than G1. */
static void mca_coll_rsag_prio_areas(mca_coll_rsag_prio_t *c, char *tmp)
{
    const size_t *vdispl = c->a->vdispl;
    mca_coll_rsag_vstep_t s0 = mca_coll_rsag_halving_step(c->vrank, c->pof2, 0,
                                                          MCA_COLL_RSAG_DISTANCE_HALVING);

    c->area[0] = c->area[1] = tmp;
    c->area_base[0] = c->area_base[1] = mca_coll_rsag_vblocks(vdispl, s0.keep_lo, s0.half).off;
    c->two_areas = false;
    if (c->pof2 >= 4) {
        mca_coll_rsag_vstep_t s1 = mca_coll_rsag_halving_step(c->vrank, c->pof2, 1,
                                                              MCA_COLL_RSAG_DISTANCE_HALVING);
        mca_coll_rsag_range_t k1 = mca_coll_rsag_vblocks(vdispl, s1.keep_lo, s1.half);
        mca_coll_rsag_range_t g1 = mca_coll_rsag_vblocks(vdispl, s1.give_lo, s1.half);

        if (k1.cnt <= g1.cnt) {
            c->two_areas = true;
            c->area[1] = mca_coll_rsag_elem(tmp, g1.off - c->area_base[0], c->a->extent);
            c->area_base[1] = k1.off;
        }
    }
}

int mca_coll_rsag_priority_rs(const mca_coll_rsag_args_t *a, const char *input, char *work,
                              char *tmp)
{
    int chunks = mca_coll_rsag_component.priority_chunks;
    mca_coll_rsag_prio_t c = { .a = a, .work = work,
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
    mca_coll_rsag_prio_areas(&c, tmp);
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
