/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The rank-order reduce-scatter (coll_rsag_ordered.c), the building block
 * of the `ordered` rows (coll_rsag_<collective>_ordered.c) that
 * coll_rsag_reproducible = placement runs wherever `direct` cannot
 * (doc/reproducible.md).
 *
 * Rank r gets block r (a->displ) of every rank's input by a pairwise
 * exchange (it receives the p - 1 pieces of its block, sends each other
 * rank j its piece of block j) and folds the p pieces left in rank order:
 *
 *     block r = ((x_0[r] op x_1[r]) op x_2[r]) op ... op x_{p-1}[r]
 *
 * per element, which is MPI's order (non-commutative ops too) and depends
 * on nothing but p and the inputs: not on the placement, the transport,
 * the arrival order of the pieces, nor on the form of the call.
 */
#ifndef MCA_COLL_RSAG_ORDERED_H
#define MCA_COLL_RSAG_ORDERED_H

#include "coll_rsag.h"

/* Append the rank-order reduce-scatter of a->input over a->displ to s,
 * then a fence (what follows may overwrite the input: in place, the
 * receive buffer).  `out`: where block r goes (n_r elements; in place it
 * may overlap the input: then it is written once every piece of the input
 * was sent), or NULL: the block stays in a temporary of the schedule.  Returns where block r is (NULL when it is empty or the
 * description failed: s->err).  Temporary memory: p n_r elements. */
char *mca_coll_rsag_ordered_rs(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                               char *out);

#endif /* MCA_COLL_RSAG_ORDERED_H */
