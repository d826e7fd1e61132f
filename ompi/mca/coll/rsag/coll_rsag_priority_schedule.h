/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The priority-aware reduce-scatter without its delivery
 * (coll_rsag_priority_schedule.c), shared by the priority reduce-scatter
 * and the priority allreduce; the schedule is drawn in
 * coll_rsag_reduce_scatter_priority.c.
 */
#ifndef MCA_COLL_RSAG_PRIORITY_SCHEDULE_H
#define MCA_COLL_RSAG_PRIORITY_SCHEDULE_H

#include "coll_rsag.h"

/* Appends to s: fold p onto p', then leave this vrank's vblock of
 * a->vdispl reduced in `work` (a->count elements, user layout; other
 * ranges hold partial sums).  `tmp` holds mca_coll_rsag_halving_recv_count
 * elements (distance halving); `input` may be `work`.  The blocks go out
 * in runs of coll_rsag_priority_chunks vblocks.  Ends with a fence: what
 * follows sees every message complete.  Commutative ops.  Returns
 * s->err. */
int mca_coll_rsag_priority_rs(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                              const char *input, char *work, char *tmp);

#endif /* MCA_COLL_RSAG_PRIORITY_SCHEDULE_H */
