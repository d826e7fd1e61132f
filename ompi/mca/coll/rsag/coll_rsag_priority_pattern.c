/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The message pattern of the priority-aware reduce-scatter; see
 * coll_rsag_reduce_scatter_priority_aware.c for the idea and the diagram.
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
 * natural slot is done, as with a single area.  Sends of one step go out
 * in exactly the order the partner posts its receives, so messages match
 * in order on one tag.
 *
 * As a schedule: the steps are appended in the order the old blocking code
 * ran them, with no fence inside; each reduction names the receive it
 * reads (mca_coll_rsag_sched_after), so the schedule holds back exactly
 * there and nowhere else: sends and receives posted earlier stay in
 * flight.  A receive that reuses a slot is appended after the reduction
 * that read the slot's previous message, a send after the reduction that
 * produced its run (steps are issued in order).  Which receive is still
 * to be reduced ("pending") is bookkeeping of the build: the order is the
 * same on every run.  One fence at the end: every message is complete
 * before the caller's next phase writes the input or work.
 */
#include "ompi_config.h"

#include "ompi/constants.h"

#include "coll_rsag_halving.h"
#include "coll_rsag_priority_pattern.h"

/* One receive of a step: its run of vblocks, its step in the schedule (-1
 * when empty) and whether its reduction is still to be appended. */
typedef struct mca_coll_rsag_prio_slot_t {
    mca_coll_rsag_vrange_t run;
    int recv;
    bool pending;
} mca_coll_rsag_prio_slot_t;

/* The receives of one step: runs of `run` vblocks tiling the kept half
 * [base, base + n * run), indexed by position (run i starts at
 * base + i * run), whatever the order they were posted in. */
typedef struct mca_coll_rsag_prio_recvs_t {
    mca_coll_rsag_prio_slot_t *slots;
    int base, run, n;
    const char *src;         /* the other operand of their reductions */
    char *area;              /* where they land: area[i] mirrors work[area_base + i] */
    size_t area_base;
} mca_coll_rsag_prio_recvs_t;

/* One description: the schedule, the buffers and the build's bookkeeping. */
typedef struct mca_coll_rsag_prio_t {
    mca_coll_rsag_sched_t *s;
    const mca_coll_rsag_args_t *a;
    char *work;
    char *area[2];           /* A (even steps) and B (odd steps) in tmp */
    size_t area_base[2];     /* area[j][i] mirrors work[area_base[j] + i] */
    bool two_areas;          /* B usable: receives posted ahead */
    int pof2, vrank, unit;
    mca_coll_rsag_prio_recvs_t recvs[2];   /* of the previous and the current step */
    mca_coll_rsag_vrange_t *order;         /* one run order */
    void *book;
} mca_coll_rsag_prio_t;

static mca_coll_rsag_range_t mca_coll_rsag_prio_elems(const mca_coll_rsag_prio_t *c,
                                                      mca_coll_rsag_vrange_t run)
{
    return mca_coll_rsag_vblocks(c->a->vdispl, run.lo, run.n);
}

/* Receive `run` from vrank `peer` into its slot of tmp. */
static void mca_coll_rsag_prio_post(mca_coll_rsag_prio_t *c, mca_coll_rsag_prio_recvs_t *rv,
                                    mca_coll_rsag_vrange_t run, int peer)
{
    const mca_coll_rsag_args_t *a = c->a;
    mca_coll_rsag_prio_slot_t *slot = &rv->slots[(run.lo - rv->base) / rv->run];
    mca_coll_rsag_range_t e = mca_coll_rsag_prio_elems(c, run);

    slot->run = run;
    slot->pending = e.cnt > 0;
    slot->recv = (0 == e.cnt) ? -1
                 : mca_coll_rsag_sched_recv(c->s, a,
                                            mca_coll_rsag_elem(rv->area, e.off - rv->area_base,
                                                               a->extent),
                                            e.cnt, mca_coll_rsag_fold_rank(peer, a->size));
}

/* The receive holding vblock `vb` reduced into work, once it arrived
 * (nothing when that is already described). */
static void mca_coll_rsag_prio_settle(mca_coll_rsag_prio_t *c, mca_coll_rsag_prio_recvs_t *rv,
                                      int vb)
{
    const mca_coll_rsag_args_t *a = c->a;
    mca_coll_rsag_prio_slot_t *slot = &rv->slots[(vb - rv->base) / rv->run];
    mca_coll_rsag_range_t e;

    if (!slot->pending) {
        return;
    }
    e = mca_coll_rsag_prio_elems(c, slot->run);
    mca_coll_rsag_sched_after(c->s,
                              mca_coll_rsag_sched_reduce3(
                                  c->s, mca_coll_rsag_elem(rv->area, e.off - rv->area_base,
                                                           a->extent),
                                  mca_coll_rsag_elem(rv->src, e.off, a->extent),
                                  mca_coll_rsag_elem(c->work, e.off, a->extent), e.cnt),
                              slot->recv);
    slot->pending = false;
}

/* Send `run` of `buf` to vrank `peer` (nothing when it is empty). */
static void mca_coll_rsag_prio_send(mca_coll_rsag_prio_t *c, const char *buf,
                                    mca_coll_rsag_vrange_t run, int peer)
{
    const mca_coll_rsag_args_t *a = c->a;
    mca_coll_rsag_range_t e = mca_coll_rsag_prio_elems(c, run);

    if (e.cnt > 0) {
        (void) mca_coll_rsag_sched_send(c->s, a, mca_coll_rsag_elem(buf, e.off, a->extent), e.cnt,
                                        mca_coll_rsag_fold_rank(peer, a->size));
    }
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
        rv->slots[i].recv = -1;
        rv->slots[i].pending = false;
    }
}

/* Bookkeeping of the build in one block: the receives of two consecutive
 * steps (p'/2 runs at most each) and one run order.  Taken on every rank,
 * so that every rank makes the same memory requests; freed when the
 * description is done. */
static int mca_coll_rsag_prio_book(mca_coll_rsag_prio_t *c)
{
    size_t maxruns = (size_t) c->pof2 / 2;

    c->book = mca_coll_rsag_malloc(2 * maxruns * sizeof(mca_coll_rsag_prio_slot_t)
                                   + maxruns * sizeof(mca_coll_rsag_vrange_t));
    if (NULL == c->book) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    c->recvs[0].slots = (mca_coll_rsag_prio_slot_t *) c->book;
    c->recvs[1].slots = c->recvs[0].slots + maxruns;
    c->order = (mca_coll_rsag_vrange_t *) (c->recvs[1].slots + maxruns);
    return OMPI_SUCCESS;
}

/* Receive the kept half of step s into `next`, in this vrank's order. */
static void mca_coll_rsag_prio_post_all(mca_coll_rsag_prio_t *c, mca_coll_rsag_vstep_t s,
                                        mca_coll_rsag_prio_recvs_t *next)
{
    int nruns = mca_coll_rsag_priority_order(c->vrank, s.keep_lo, s.half, c->unit, c->order);

    for (int i = 0; i < nruns; ++i) {
        mca_coll_rsag_prio_post(c, next, c->order[i], s.peer);
    }
}

/* Step 0: every receive of K0 is posted into `next` (area A), then G0
 * leaves from `src` (the input, or work on a rank that folded). */
static void mca_coll_rsag_prio_first_step(mca_coll_rsag_prio_t *c,
                                          mca_coll_rsag_prio_recvs_t *next, const char *src)
{
    mca_coll_rsag_vstep_t s = mca_coll_rsag_halving_step(c->vrank, c->pof2, 0,
                                                         MCA_COLL_RSAG_DISTANCE_HALVING);
    int nruns;

    mca_coll_rsag_prio_recvs_init(c, next, 0, s, src);
    mca_coll_rsag_prio_post_all(c, s, next);
    nruns = mca_coll_rsag_priority_order(s.peer, s.give_lo, s.half, c->unit, c->order);
    for (int i = 0; i < nruns; ++i) {
        mca_coll_rsag_prio_send(c, src, c->order[i], s.peer);
    }
}

/* Step k >= 1: what the partner needs, in its order, is reduced (from the
 * receives of step k - 1, `prev`) and forwarded; the rest of `prev` (the
 * kept half K_k) is reduced while the partner's messages arrive.  The
 * receives of K_k (`next`) are posted before all that (k >= 2), right
 * after the forwarding (k = 1), or, without area B, each one once its
 * slot is reduced. */
static void mca_coll_rsag_prio_step(mca_coll_rsag_prio_t *c, int k,
                                    mca_coll_rsag_prio_recvs_t *prev,
                                    mca_coll_rsag_prio_recvs_t *next)
{
    mca_coll_rsag_vstep_t s = mca_coll_rsag_halving_step(c->vrank, c->pof2, k,
                                                         MCA_COLL_RSAG_DISTANCE_HALVING);
    int nruns;

    mca_coll_rsag_prio_recvs_init(c, next, k, s, c->work);
    if (c->two_areas && k >= 2) {
        mca_coll_rsag_prio_post_all(c, s, next);
    }
    nruns = mca_coll_rsag_priority_order(s.peer, s.give_lo, s.half, c->unit, c->order);
    for (int i = 0; i < nruns; ++i) {
        mca_coll_rsag_prio_settle(c, prev, c->order[i].lo);
        mca_coll_rsag_prio_send(c, c->work, c->order[i], s.peer);
    }
    if (c->two_areas && 1 == k) {
        mca_coll_rsag_prio_post_all(c, s, next);
    }
    nruns = mca_coll_rsag_priority_order(c->vrank, s.keep_lo, s.half, c->unit, c->order);
    for (int i = 0; i < nruns; ++i) {
        mca_coll_rsag_prio_settle(c, prev, c->order[i].lo);
        if (!c->two_areas) {
            mca_coll_rsag_prio_post(c, next, c->order[i], s.peer);
        }
    }
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

int mca_coll_rsag_priority_aware_rs(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                    const char *input, char *work, char *tmp)
{
    int run_blocks = mca_coll_rsag_component.priority_aware_run_blocks;
    mca_coll_rsag_prio_t c = { .s = s, .a = a, .work = work,
                               .pof2 = mca_coll_rsag_pof2_floor(a->size),
                               .vrank = mca_coll_rsag_fold_vrank(a->rank, a->size),
                               .unit = mca_coll_rsag_pof2_floor(run_blocks > 1 ? run_blocks : 1) };
    int nsteps = mca_coll_rsag_log2_floor(c.pof2), cur = 0;
    bool folded = a->rank < 2 * (a->size - c.pof2);
    int err = mca_coll_rsag_prio_book(&c);

    if (OMPI_SUCCESS != err) {
        if (OMPI_SUCCESS == s->err) {
            s->err = err;
        }
        return s->err;
    }
    (void) mca_coll_rsag_fold(s, a, input, work, tmp);
    if (c.vrank >= 0 && nsteps > 0) {
        mca_coll_rsag_prio_areas(&c, tmp);
        mca_coll_rsag_prio_first_step(&c, &c.recvs[cur], folded ? work : input);
        for (int k = 1; k < nsteps; ++k, cur = 1 - cur) {
            mca_coll_rsag_prio_step(&c, k, &c.recvs[cur], &c.recvs[1 - cur]);
        }
        /* The last receive holds this vrank's own vblock. */
        mca_coll_rsag_prio_settle(&c, &c.recvs[cur], c.vrank);
        /* Sent ranges of work are never written again, but the caller may
         * overwrite the input (in place) or work (allreduce) next. */
        mca_coll_rsag_sched_fence(s);
    }
    mca_coll_rsag_free(c.book);
    return s->err;
}
