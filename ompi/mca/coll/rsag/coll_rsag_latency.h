/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The latency path (coll_rsag_latency.c): the small blocking reductions
 * that programs make most (the dot products and norms of an iterative
 * solver) on a one-node communicator, run with no schedule, no allocation
 * and no selection.
 *
 * The first blocking call of a shape (count, datatype, op, root, in place,
 * reduce-scatter blocks) is decided as every call is; when the dispatcher
 * chose `direct` and the whole vector fits one box of the node's segment
 * (MCA_COLL_RSAG_BOX_BYTES; coll_rsag_latency_max_bytes), the call is
 * described once (mca_coll_rsag_direct_prepare) and kept per communicator,
 * collective and shape (four; the oldest replaced).  An MPI_I* call of such
 * a shape is decided and built the usual way once; its request, freed, is
 * kept for the next call of the shape.  Each later call of that shape under the same settings
 * runs it straight: copy into my box, wait for the peers' boxes of this
 * tick, reduce in rank order.  Any difference in the shape or in a setting
 * the decision read (the collective's thresholds and forced algorithm, the
 * communicator size classes, coll_rsag_latency_max_bytes, the verbosity,
 * coll_rsag_direct_fanin)
 * sends the call the usual way, which decides again and remembers the new
 * shape.  The boxes are double-buffered by tick and stamped with it, so a
 * call needs no completion handshake (doc/direct.md, The latency path).
 */
#ifndef MCA_COLL_RSAG_LATENCY_H
#define MCA_COLL_RSAG_LATENCY_H

#include "coll_rsag.h"
#include "ompi/request/request.h"

BEGIN_C_DECLS

/* coll_rsag_latency_max_bytes and the coll_rsag_latency_calls counter. */
void mca_coll_rsag_latency_register(const mca_base_component_t *c);

/* A blocking call: when m remembers a call of a's shape under today's
 * settings, run it and return true (*err: its outcome); else false. */
bool mca_coll_rsag_latency_try(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                               mca_coll_rsag_args_t *a, int *err);

/* After the dispatcher chose `alg`, a row of `direct`, for the blocking
 * call a (inside the call's bracket): when the call fits the latency path,
 * remember it, run it and return true (*err: its outcome); else false
 * (nothing remembered). */
bool mca_coll_rsag_latency_remember(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                                    int alg, mca_coll_rsag_args_t *a, int *err);

/* MPI_I*: when m keeps a freed request of a's shape (decided under
 * today's settings), point it at a's buffers, start it, set *request and
 * return true; else false. */
struct mca_coll_rsag_request_t;
bool mca_coll_rsag_latency_try_request(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                                       mca_coll_rsag_args_t *a, ompi_request_t **request);
/* After the dispatcher built request r for the MPI_I* call a with `alg`,
 * a row of `direct`: when the call fits the latency path (one box, an
 * intrinsic op and a predefined datatype), r is kept for reuse once the
 * program frees it. */
void mca_coll_rsag_latency_adopt(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll, int alg,
                                 mca_coll_rsag_args_t *a, struct mca_coll_rsag_request_t *r);

/* Forget everything m remembers and keeps (module destructor). */
void mca_coll_rsag_latency_forget(mca_coll_rsag_module_t *m);

END_C_DECLS

#endif /* MCA_COLL_RSAG_LATENCY_H */
