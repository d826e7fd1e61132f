/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Requests of the nonblocking and persistent calls; see
 * coll_rsag_request.h.
 *
 * The requests in flight are on one list of the component (an opal_list,
 * through the list item every ompi_request_t has, as libnbc does).  One
 * lock guards the list and every change of a request's state (start,
 * progress, completion, free), so that a request freed by one thread while
 * another completes it is freed once, after its completion.  The lock is a
 * spin lock taken without waiting by the progress function (a thread that
 * finds it taken leaves the progress to its holder), and known to its
 * holder: a request started from inside a completion (a callback of Open
 * MPI's on the completed request) does not wait for itself.  Neither
 * opal_mutex_t nor opal_atomic_lock_t does all three (HACKING.md,
 * Conventions), so it is its own, a few lines on the compiler's atomics.
 */
#include "ompi_config.h"

#include <sched.h>

#include "mpi.h"
#include "opal/class/opal_list.h"
#include "opal/mca/base/mca_base_pvar.h"
#include "opal/runtime/opal_progress.h"
#include "ompi/communicator/communicator.h"
#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

#include "coll_rsag_request.h"

/* The lock is a plain atomic word, which race detectors do not know as a
 * lock: tell helgrind and DRD (valgrind's client requests, a few no-op
 * instructions outside valgrind), or every access under it is a report. */
#if defined(__has_include)
#if __has_include(<valgrind/helgrind.h>)
#include <valgrind/helgrind.h>
#endif
#endif
#ifndef ANNOTATE_RWLOCK_ACQUIRED
#define ANNOTATE_RWLOCK_ACQUIRED(lock, is_w) ((void) 0)
#define ANNOTATE_RWLOCK_RELEASED(lock, is_w) ((void) 0)
#endif

static struct {
    opal_list_t active;             /* requests in flight (constructed on first use) */
    bool constructed;
    int lock;                       /* 0: free, 1: taken */
    unsigned long long in_flight;   /* length of the list, read without the lock;
                                       changed by mca_coll_rsag_count */
    int registered;                 /* progress function registered */
    unsigned long long nonblocking_requests, persistent_starts;    /* MPI_T */
} mca_coll_rsag_nb;

/* This thread holds the lock. */
static __thread bool mca_coll_rsag_nb_holding;

/* Without MPI_THREAD_MULTIPLE one thread makes every MPI call: the lock is
 * a plain flag then, which still keeps a completion's own start from
 * walking the list it is in.  (The atomic word and the thread-local flag
 * cost a small nonblocking call about a tenth of its time: a thread-local
 * of a loaded component is a __tls_get_addr call.) */
static bool mca_coll_rsag_nb_held;

static bool mca_coll_rsag_nb_trylock(void)
{
    if (!opal_using_threads()) {
        if (mca_coll_rsag_nb_held) {
            return false;
        }
        mca_coll_rsag_nb_held = true;
        return true;
    }
    if (mca_coll_rsag_nb_holding
        || 0 != __atomic_exchange_n(&mca_coll_rsag_nb.lock, 1, __ATOMIC_ACQUIRE)) {
        return false;
    }
    ANNOTATE_RWLOCK_ACQUIRED(&mca_coll_rsag_nb.lock, 1);
    mca_coll_rsag_nb_holding = true;
    return true;
}

/* Take the lock unless this thread holds it; returns whether it took it. */
static bool mca_coll_rsag_nb_lock(void)
{
    if (!opal_using_threads()) {
        return mca_coll_rsag_nb_trylock();
    }
    if (mca_coll_rsag_nb_holding) {
        return false;
    }
    while (!mca_coll_rsag_nb_trylock()) {
        sched_yield();      /* the holder is moving schedules on */
    }
    return true;
}

static void mca_coll_rsag_nb_unlock(bool took)
{
    if (took && !opal_using_threads()) {
        mca_coll_rsag_nb_held = false;
    } else if (took) {
        mca_coll_rsag_nb_holding = false;
        ANNOTATE_RWLOCK_RELEASED(&mca_coll_rsag_nb.lock, 1);
        __atomic_store_n(&mca_coll_rsag_nb.lock, 0, __ATOMIC_RELEASE);
    }
}

/* The list item of a request: the one of its ompi_request_t. */
static opal_list_item_t *mca_coll_rsag_nb_item(mca_coll_rsag_request_t *r)
{
    return &r->super.super.super.super;
}

/* Under the lock, as the list changes. */
static void mca_coll_rsag_nb_link(mca_coll_rsag_request_t *r)
{
    if (!mca_coll_rsag_nb.constructed) {
        OBJ_CONSTRUCT(&mca_coll_rsag_nb.active, opal_list_t);
        mca_coll_rsag_nb.constructed = true;
    }
    opal_list_append(&mca_coll_rsag_nb.active, mca_coll_rsag_nb_item(r));
    r->in_flight = true;
    mca_coll_rsag_count(&mca_coll_rsag_nb.in_flight, 1ULL);
}

static void mca_coll_rsag_nb_unlink(mca_coll_rsag_request_t *r)
{
    (void) opal_list_remove_item(&mca_coll_rsag_nb.active, mca_coll_rsag_nb_item(r));
    r->in_flight = false;
    mca_coll_rsag_count(&mca_coll_rsag_nb.in_flight, -1ULL);
}

static void mca_coll_rsag_request_destroy(mca_coll_rsag_request_t *r)
{
    if (NULL != r->sched.dtype) {
        OBJ_RELEASE(r->sched.dtype);
    }
    if (NULL != r->sched.op) {
        OBJ_RELEASE(r->sched.op);
    }
    mca_coll_rsag_sched_fini(&r->sched);
    /* unmapped here only: a peer still reading my box maps it itself */
    mca_coll_rsag_segment_destroy(r->segment);
    r->segment = NULL;
    if (NULL != r->comm) {
        OBJ_RELEASE(r->comm);
    }
    OMPI_REQUEST_FINI(&r->super.super);
    OBJ_RELEASE(r);
}

/* A request the program freed (under the lock, not in flight): into its
 * pool when it has one with room, else destroyed.  In the pool it lets go
 * of the communicator last: when that was the last reference, the module's
 * destructor drains the pool, this request included. */
static void mca_coll_rsag_request_retire(mca_coll_rsag_request_t *r)
{
    mca_coll_rsag_request_pool_t *pool = r->pool;
    struct ompi_communicator_t *comm = r->comm;

    if (NULL == pool || pool->n == MCA_COLL_RSAG_POOL_SIZE) {
        mca_coll_rsag_request_destroy(r);
        return;
    }
    OMPI_REQUEST_FINI(&r->super.super);
    r->comm = NULL;
    pool->idle[pool->n++] = r;
    OBJ_RELEASE(comm);
}

/* The schedule ended (under the lock): complete the request, or free it
 * when MPI_Request_free came first. */
static void mca_coll_rsag_request_finish(mca_coll_rsag_request_t *r)
{
    if (r->free_when_done) {
        mca_coll_rsag_request_retire(r);
        return;
    }
    r->super.super.req_status.MPI_ERROR = r->sched.err;
    ompi_request_complete(&r->super.super, true);
}

/* The progress function: advance every request in flight, complete those
 * whose schedule ended.  Returns how many completed. */
static int mca_coll_rsag_request_progress(void)
{
    mca_coll_rsag_request_t *r, *next;
    opal_list_t ended;
    bool any = false;
    int completed = 0;

    if (0 == __atomic_load_n(&mca_coll_rsag_nb.in_flight, __ATOMIC_RELAXED)
        || !mca_coll_rsag_nb_trylock()) {
        return 0;
    }
    OPAL_LIST_FOREACH_SAFE (r, next, &mca_coll_rsag_nb.active, mca_coll_rsag_request_t) {
        if (mca_coll_rsag_sched_progress(&r->sched)) {
            if (!any) {
                /* made only when something ended: a walk that finds nothing
                 * ready (a wait's spin) costs the polls alone */
                OBJ_CONSTRUCT(&ended, opal_list_t);
                any = true;
            }
            mca_coll_rsag_nb_unlink(r);
            opal_list_append(&ended, mca_coll_rsag_nb_item(r));
        }
    }
    /* completions after the walk: a completion may start another request */
    while (any && NULL != (r = (mca_coll_rsag_request_t *) opal_list_remove_first(&ended))) {
        mca_coll_rsag_request_finish(r);
        ++completed;
    }
    if (any) {
        OBJ_DESTRUCT(&ended);
    }
    mca_coll_rsag_nb_unlock(true);
    return completed;
}

/* Start (under the lock): the first steps go out now; what is left is
 * the progress function's. */
static void mca_coll_rsag_request_launch(mca_coll_rsag_request_t *r)
{
    /* a plain load first: the exchange is a locked instruction on every start */
    if (0 == __atomic_load_n(&mca_coll_rsag_nb.registered, __ATOMIC_ACQUIRE)
        && 0 == __atomic_exchange_n(&mca_coll_rsag_nb.registered, 1, __ATOMIC_ACQ_REL)) {
        opal_progress_register(mca_coll_rsag_request_progress);
    }
    r->super.super.req_complete = REQUEST_PENDING;
    r->super.super.req_state = OMPI_REQUEST_ACTIVE;
    r->super.super.req_status.MPI_ERROR = OMPI_SUCCESS;
    r->free_when_done = false;
    mca_coll_rsag_sched_start(&r->sched, r->tag);
    if (mca_coll_rsag_sched_progress(&r->sched)) {
        mca_coll_rsag_request_finish(r);
    } else {
        mca_coll_rsag_nb_link(r);
    }
}

/* MPI_Start / MPI_Startall on persistent requests. */
static int mca_coll_rsag_request_start(size_t count, ompi_request_t **requests)
{
    for (size_t i = 0; i < count; ++i) {
        mca_coll_rsag_request_t *r = (mca_coll_rsag_request_t *) requests[i];
        bool took;

        if (OMPI_REQUEST_ACTIVE == r->super.super.req_state && !REQUEST_COMPLETE(&r->super.super)) {
            return OMPI_ERR_REQUEST;    /* started twice without a completion between */
        }
        took = mca_coll_rsag_nb_lock();
        mca_coll_rsag_request_launch(r);
        mca_coll_rsag_nb_unlock(took);
        if (!r->filled) {
            mca_coll_rsag_count(&mca_coll_rsag_nb.persistent_starts, 1ULL);
        }
    }
    return OMPI_SUCCESS;
}

int mca_coll_rsag_request_start_nonblocking(mca_coll_rsag_request_t *r)
{
    bool took = mca_coll_rsag_nb_lock();

    mca_coll_rsag_request_launch(r);
    mca_coll_rsag_nb_unlock(took);
    if (!r->filled) {
        mca_coll_rsag_count(&mca_coll_rsag_nb.nonblocking_requests, 1ULL);
    }
    return OMPI_SUCCESS;
}

/* MPI_Request_free, and the free of a completed nonblocking request by
 * its wait or test. */
static int mca_coll_rsag_request_free(ompi_request_t **request)
{
    mca_coll_rsag_request_t *r = (mca_coll_rsag_request_t *) *request;
    bool took = mca_coll_rsag_nb_lock();

    if (r->in_flight) {
        r->free_when_done = true;
    } else {
        mca_coll_rsag_request_retire(r);
    }
    mca_coll_rsag_nb_unlock(took);
    *request = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

/* Cancelling a collective is erroneous (MPI 4.0, 3.8.4). */
static int mca_coll_rsag_request_cancel(ompi_request_t *request, int complete)
{
    (void) request;
    (void) complete;
    return MPI_ERR_REQUEST;
}

static void mca_coll_rsag_request_construct(mca_coll_rsag_request_t *r)
{
    r->in_flight = r->free_when_done = r->filled = false;
    r->comm = NULL;
    r->pool = NULL;
    r->segment = NULL;
    mca_coll_rsag_sched_init(&r->sched, NULL, NULL);
}

OBJ_CLASS_INSTANCE(mca_coll_rsag_request_t, ompi_coll_base_nbc_request_t,
                   mca_coll_rsag_request_construct, NULL);

/* The request as Open MPI needs it for a call on comm (comm retained). */
static void mca_coll_rsag_request_init(mca_coll_rsag_request_t *r,
                                       struct ompi_communicator_t *comm, bool persistent)
{
    OMPI_REQUEST_INIT(&r->super.super, persistent);
    r->super.super.req_type = OMPI_REQUEST_COLL;
    r->super.super.req_start = mca_coll_rsag_request_start;
    r->super.super.req_free = mca_coll_rsag_request_free;
    r->super.super.req_cancel = mca_coll_rsag_request_cancel;
    r->super.super.req_mpi_object.comm = comm;
    r->super.super.req_status.MPI_ERROR = OMPI_SUCCESS;
    /* the user may free it while the request lives */
    OBJ_RETAIN(comm);
    r->comm = comm;
}

mca_coll_rsag_request_t *mca_coll_rsag_request_new(struct ompi_communicator_t *comm,
                                                   struct ompi_datatype_t *dtype,
                                                   struct ompi_op_t *op, int tag,
                                                   bool persistent)
{
    mca_coll_rsag_request_t *r = OBJ_NEW(mca_coll_rsag_request_t);

    if (NULL == r) {
        return NULL;
    }
    mca_coll_rsag_request_init(r, comm, persistent);
    r->tag = tag;
    if (NULL != dtype) {
        OBJ_RETAIN(dtype);
    }
    if (NULL != op) {
        OBJ_RETAIN(op);
    }
    mca_coll_rsag_sched_init(&r->sched, dtype, op);
    return r;
}

mca_coll_rsag_request_t *mca_coll_rsag_request_pool_take(mca_coll_rsag_request_pool_t *pool,
                                                         struct ompi_communicator_t *comm)
{
    mca_coll_rsag_request_t *r = NULL;
    bool took = mca_coll_rsag_nb_lock();

    if (pool->n > 0) {
        r = pool->idle[--pool->n];
    }
    mca_coll_rsag_nb_unlock(took);
    if (NULL != r) {
        mca_coll_rsag_request_init(r, comm, false);
    }
    return r;
}

void mca_coll_rsag_request_pool_drain(mca_coll_rsag_request_pool_t *pool)
{
    bool took = mca_coll_rsag_nb_lock();

    while (pool->n > 0) {
        mca_coll_rsag_request_t *r = pool->idle[--pool->n];
        r->pool = NULL;
        mca_coll_rsag_request_destroy(r);
    }
    mca_coll_rsag_nb_unlock(took);
}

void mca_coll_rsag_request_release(mca_coll_rsag_request_t *r)
{
    if (NULL != r) {
        mca_coll_rsag_request_destroy(r);
    }
}

int mca_coll_rsag_request_tag(mca_coll_rsag_module_t *m)
{
    int tag = m->next_tag;

    m->next_tag = (tag == MCA_COLL_RSAG_TAG_LAST) ? MCA_COLL_RSAG_TAG_FIRST : tag - 1;
    return tag;
}

int mca_coll_rsag_request_tags(mca_coll_rsag_module_t *m, int n)
{
    int first = m->next_tag;

    m->next_tag = mca_coll_rsag_tag_after(first, n);
    return first;
}

static void mca_coll_rsag_request_counter(const mca_base_component_t *c, const char *name,
                                          const char *help, unsigned long long *value)
{
    (void) mca_base_component_pvar_register(c, name, help, OPAL_INFO_LVL_4,
                                            MCA_BASE_PVAR_CLASS_COUNTER,
                                            MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL,
                                            MCA_BASE_VAR_BIND_NO_OBJECT,
                                            MCA_BASE_PVAR_FLAG_READONLY
                                                | MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                            NULL, NULL, NULL, value);
}

bool mca_coll_rsag_persistent_starts_ordered = false;

void mca_coll_rsag_request_register(const mca_base_component_t *c)
{
    (void) mca_base_component_var_register(
        c, "persistent_starts_ordered",
        "The program starts its persistent reductions (MPI_Allreduce_init ... then MPI_Start) "
        "on each communicator in the same order on every rank, as it makes its other "
        "collective calls: what MPI-4.1's info key mpi_assert_strict_persistent_collective_"
        "ordering asserts per communicator (a key longer than Open MPI's MPI_MAX_INFO_KEY). "
        "MPI lets a program start them in any order, so by default the node path direct, "
        "which takes its turn on the communicator when a request starts, serves a persistent "
        "request on a shared segment of its own, made by its *_init; true: on the "
        "communicator's segment, with no segment per request (all ranks must agree)",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_5,
        MCA_BASE_VAR_SCOPE_ALL_EQ, &mca_coll_rsag_persistent_starts_ordered);

    mca_coll_rsag_request_counter(c, "nonblocking_requests",
                                  "Nonblocking reductions (MPI_Iallreduce, MPI_Ireduce, "
                                  "MPI_Ireduce_scatter_block, MPI_Ireduce_scatter) rsag ran "
                                  "itself",
                                  &mca_coll_rsag_nb.nonblocking_requests);
    mca_coll_rsag_request_counter(c, "persistent_starts",
                                  "Starts (MPI_Start, MPI_Startall) of rsag's persistent "
                                  "reductions (MPI_Allreduce_init ...)",
                                  &mca_coll_rsag_nb.persistent_starts);
}

void mca_coll_rsag_request_close(void)
{
    if (0 != __atomic_exchange_n(&mca_coll_rsag_nb.registered, 0, __ATOMIC_ACQ_REL)) {
        opal_progress_unregister(mca_coll_rsag_request_progress);
    }
    if (mca_coll_rsag_nb.constructed) {
        OBJ_DESTRUCT(&mca_coll_rsag_nb.active);
        mca_coll_rsag_nb.constructed = false;
    }
}
