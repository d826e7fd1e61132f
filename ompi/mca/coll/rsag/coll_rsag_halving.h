/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Building blocks of the recursive-halving family (coll_rsag_halving.c):
 * Rabenseifner's allreduce and reduce, the recursive-halving reduce-scatter
 * and, for its pre-step and delivery, the priority-aware one.
 *
 *   fold        the balanced pre-step: p ranks -> p' vranks, no idle half
 *   halving_rs  reduce-scatter along a halving pattern
 *   folded_rs   fold, then halving_rs: how every one of them begins
 *   doubling_allgather  the pattern walked backwards, then the whole vector
 *               to the folded-away ranks
 *   unfold_blocks  the end of a folding reduce-scatter: each rank its block
 *
 * They describe their steps into a schedule (coll_rsag_sched.h); nothing
 * is sent while they run.
 *
 * `input` is this rank's contribution (the send buffer, read only, or the
 * work vector itself when in place); `work` is the vector being reduced
 * (a->count elements, user layout); `tmp` receives the largest part this
 * rank is sent at once (mca_coll_rsag_halving_recv_count), always at its
 * start.  The first reduction reads input and writes work, so the send
 * buffer is never copied.  Received parts are reduced as tmp (op) ours:
 * commutative ops only.
 */
#ifndef MCA_COLL_RSAG_HALVING_H
#define MCA_COLL_RSAG_HALVING_H

#include "coll_rsag.h"

/* Each block below appends its steps to the schedule s and ends with a
 * fence: what follows sees every step of it complete.  The schedule's
 * first error (s->err) is returned. */

/* The temporaries, owned by s: `*work` of work_count elements (0: none,
 * NULL) and `*tmp` for the receives of a halving in `order` over
 * a->vdispl.  Both are requested on every rank while the schedule is built,
 * before any message, so an allocation failure meets all ranks at the same
 * request. */
int mca_coll_rsag_halving_buffers(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                  size_t work_count, mca_coll_rsag_order_t order, char **work,
                                  char **tmp);

/* The balanced pre-step (Kurnosov's description of Rabenseifner's reduce):
 * in each pair (2i, 2i+1) below 2r the even rank reduces the lower half of
 * the vector and the odd rank the upper half at the same time; the odd
 * rank then hands its half to the even one and leaves.  Nothing on ranks
 * >= 2r. */
int mca_coll_rsag_fold(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                       const char *input, char *work, char *tmp);

/* Reduce-scatter along steps[0..nsteps): at each step send `give` (from
 * src, then from work) and reduce the received half into `keep` of work;
 * the last step's result goes to `last` instead when it is not NULL. */
int mca_coll_rsag_halving_rs(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                             const char *src, char *work, char *tmp,
                             const mca_coll_rsag_halving_step_t *steps, int nsteps, char *last);

/* fold, then halving_rs over a->vdispl in `order`; returns this rank's
 * halving steps in steps / *nsteps (0 on a folded-away rank, which holds
 * nothing afterwards).  `last` as for halving_rs. */
int mca_coll_rsag_folded_rs(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                            const char *input, char *work, char *tmp,
                            mca_coll_rsag_order_t order, mca_coll_rsag_halving_step_t *steps,
                            int *nsteps, char *last);

/* Allgather by recursive doubling: the halving steps walked backwards,
 * each vrank sending what it keeps and receiving what it gave (nsteps = 0
 * on a folded-away rank); then each even rank below 2r gives the whole
 * vector to its odd neighbour. */
int mca_coll_rsag_doubling_allgather(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                     char *work, const mca_coll_rsag_halving_step_t *steps,
                                     int nsteps);

/* End of a folding reduce-scatter: `work` holds this vrank's vblock
 * reduced (a->displ layout); the rank's own block goes to a->rbuf and an
 * even rank below 2r sends its odd neighbour's block to it (odd ranks below
 * 2r just receive; their `work` is not read). */
int mca_coll_rsag_unfold_blocks(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                const char *work);

#endif /* MCA_COLL_RSAG_HALVING_H */
