/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The message pattern of the priority-aware reduce-scatter without its
 * delivery (coll_rsag_priority_pattern.c), shared by the priority-aware
 * reduce-scatter and the priority-aware allreduce; the pattern is drawn in
 * coll_rsag_reduce_scatter_priority_aware.c.  (A "pattern" is which
 * messages go where in which order; the schedule, coll_rsag_sched.h, is
 * the engine's list of steps that an algorithm describes it into.)
 */
#ifndef MCA_COLL_RSAG_PRIORITY_PATTERN_H
#define MCA_COLL_RSAG_PRIORITY_PATTERN_H

#include "coll_rsag.h"

/* Appends to s: fold p onto p', then leave this vrank's vblock of
 * a->vdispl reduced in `work` (a->count elements, user layout; other
 * ranges hold partial sums).  `tmp` holds mca_coll_rsag_halving_recv_count
 * elements (distance halving); `input` may be `work`.  The blocks go out
 * in runs of coll_rsag_priority_aware_run_blocks vblocks.  Ends with a fence: what
 * follows sees every message complete.  Commutative ops.  Returns
 * s->err. */
int mca_coll_rsag_priority_aware_rs(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                    const char *input, char *work, char *tmp);

#endif /* MCA_COLL_RSAG_PRIORITY_PATTERN_H */
