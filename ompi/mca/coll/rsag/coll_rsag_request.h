/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The requests of rsag's nonblocking (MPI_Iallreduce ...) and persistent
 * (MPI_Allreduce_init ...; MPIX_ in Open MPI 4.1) calls
 * (coll_rsag_request.c).
 *
 * A request owns the schedule of its call (coll_rsag_sched.h), built once
 * when the call is made, and holds the communicator, datatype and op until
 * it is freed.  Started (at once for a nonblocking call, by MPI_Start for
 * a persistent one), it is advanced first by the call itself, then by
 * Open MPI's progress engine: one progress function of the component walks
 * the requests in flight, so any MPI call that progresses (a wait or test
 * on any request, a blocking point-to-point call) moves them on; no thread
 * is needed.
 *
 *   nonblocking   made, started, completed; freed by the wait or test
 *                 that completes it (or at completion, after
 *                 MPI_Request_free);
 *   persistent    made inactive and complete; each MPI_Start resets the
 *                 schedule's cursors and runs the same steps again;
 *                 MPI_Request_free frees it (when in flight: at completion).
 *
 * Counters: coll_rsag_nonblocking_requests (nonblocking calls rsag ran),
 * coll_rsag_persistent_starts (starts of rsag's persistent requests).
 */
#ifndef MCA_COLL_RSAG_REQUEST_H
#define MCA_COLL_RSAG_REQUEST_H

#include "ompi_config.h"

#include <stdbool.h>

#include "ompi/mca/coll/base/coll_base_util.h"
#include "ompi/request/request.h"

#include "coll_rsag.h"

BEGIN_C_DECLS

/* Open MPI's MPI layer takes a nonblocking collective's request for an
 * ompi_coll_base_nbc_request_t (it parks the user's op and datatype in
 * it until completion), so ours is one. */
typedef struct mca_coll_rsag_request_t {
    ompi_coll_base_nbc_request_t super;
    mca_coll_rsag_sched_t sched;
    int tag;
    /* on the component's list of requests in flight (under its lock;
     * the list item is the ompi_request_t's own) */
    bool in_flight;
    bool free_when_done;        /* MPI_Request_free came while in flight */
    bool filled;                /* a collective of a slot rsag filled (coll_rsag_fill.c):
                                   not counted as one of rsag's reductions */
    /* retained for the life of the request, with the schedule's datatype
     * and op: the user may free them (not while the request waits in a
     * pool: then NULL) */
    struct ompi_communicator_t *comm;
    /* a nonblocking request of the latency path: freed, it waits here for
     * the next call of its shape (coll_rsag_latency.c); NULL: destroyed */
    struct mca_coll_rsag_request_pool_t *pool;
    /* a persistent request's own segment (its `direct` step runs on it:
     * coll_rsag_dispatch.c), destroyed with the request; else NULL */
    mca_coll_rsag_segment_t *segment;
} mca_coll_rsag_request_t;

OBJ_CLASS_DECLARATION(mca_coll_rsag_request_t);

/* Freed nonblocking requests of one call shape, kept for reuse (the
 * latency path for MPI_I*): a request in the pool holds its datatype, op
 * and schedule, not the communicator (which may go meanwhile: the module's
 * destructor drains the pool).  Under the requests' lock. */
#define MCA_COLL_RSAG_POOL_SIZE 4
typedef struct mca_coll_rsag_request_pool_t {
    mca_coll_rsag_request_t *idle[MCA_COLL_RSAG_POOL_SIZE];
    int n;
} mca_coll_rsag_request_pool_t;

/* A request of the pool made ready for a new call on comm (comm retained,
 * not started), or NULL when the pool is empty. */
mca_coll_rsag_request_t *mca_coll_rsag_request_pool_take(mca_coll_rsag_request_pool_t *pool,
                                                         struct ompi_communicator_t *comm);
/* Destroy every request waiting in the pool. */
void mca_coll_rsag_request_pool_drain(mca_coll_rsag_request_pool_t *pool);

/* A request of a call on comm with dtype and op (all retained; dtype and op
 * may be NULL: a collective that reduces nothing), with an empty schedule
 * and the tag `tag`; NULL when out of memory. */
mca_coll_rsag_request_t *mca_coll_rsag_request_new(struct ompi_communicator_t *comm,
                                                   struct ompi_datatype_t *dtype,
                                                   struct ompi_op_t *op, int tag,
                                                   bool persistent);
/* Free a request that is not in flight (and was never handed out). */
void mca_coll_rsag_request_release(mca_coll_rsag_request_t *r);
/* Start a nonblocking request (counted in coll_rsag_nonblocking_requests). */
int mca_coll_rsag_request_start_nonblocking(mca_coll_rsag_request_t *r);

/* The tag of the next request on a communicator (see MCA_COLL_RSAG_TAG_*). */
int mca_coll_rsag_request_tag(mca_coll_rsag_module_t *m);
/* The next n tags at once (the lanes of a schedule, s->lane_tag: every
 * call that builds lanes takes them, blocking or not, in call order as
 * the requests' own); returns the first. */
int mca_coll_rsag_request_tags(mca_coll_rsag_module_t *m, int n);

/* Component life cycle: the counters (register), the progress function
 * (close: unregistered if it was registered). */
void mca_coll_rsag_request_register(const mca_base_component_t *c);

/* coll_rsag_persistent_starts_ordered: persistent requests are started in
 * the communicator's order of collectives on every rank. */
extern bool mca_coll_rsag_persistent_starts_ordered;
void mca_coll_rsag_request_close(void);

END_C_DECLS

#endif /* MCA_COLL_RSAG_REQUEST_H */
