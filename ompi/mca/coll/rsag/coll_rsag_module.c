/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The rsag module's face to Open MPI: one module per communicator.
 *
 *  query    declines a negative priority, offers the twelve reduction
 *           slots on an intracommunicator (none on an intercommunicator);
 *  enable   keeps (and retains) the module that held each slot before rsag,
 *           so that what rsag cannot do is handed to it, and fills the
 *           slots the coll list left empty (coll_rsag_fill.c; on an
 *           intercommunicator that is all it does);
 *  disable  releases those modules; Open MPI calls it once per slot rsag
 *           holds, so it is idempotent (the destructor is the backstop);
 *  slots    describe the call (mca_coll_rsag_args_t) and hand it to the
 *           dispatcher (coll_rsag_dispatch.c), or to the previous module
 *           when rsag delegates.  The twelve are generated from one list:
 *           four collectives (their parameters, how each is described) times
 *           three forms (blocking, nonblocking, persistent: what each adds to
 *           the parameters and which entry point of the dispatcher it calls).
 */
#include "ompi_config.h"

#include <string.h>

#include "mpi.h"
#include "opal/util/output.h"
#include "ompi/communicator/communicator.h"
#include "ompi/constants.h"

#include "coll_rsag.h"
#include "coll_rsag_check.h"
#include "coll_rsag_colllist.h"
#include "coll_rsag_dispatch.h"
#include "coll_rsag_fill.h"
#include "coll_rsag_op.h"

/* ---- the slots --------------------------------------------------------- */

#define MCA_COLL_RSAG_UNPAREN(...) __VA_ARGS__

/* The four collectives: X(name, COLL, parameters, arguments, describe, check)
 * with the parameters before the communicator, the same as arguments, the
 * expression that fills `a` from them (an Open MPI error code), and the
 * optional comparison of the arguments across ranks that a blocking call makes
 * first (coll_rsag_check_args, coll_rsag_check.c). */
#define MCA_COLL_RSAG_SLOT_COLLECTIVES(X)                                          \
    X(allreduce, MCA_COLL_RSAG_ALLREDUCE,                                          \
      (const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,     \
       struct ompi_op_t *op),                                                      \
      (sbuf, rbuf, count, dtype, op),                                              \
      mca_coll_rsag_args(&a, MCA_COLL_RSAG_ALLREDUCE, sbuf, rbuf, (size_t) count,  \
                         dtype, op, -1, comm),                                     \
      mca_coll_rsag_check_call(m, MCA_COLL_RSAG_ALLREDUCE, sbuf, (size_t) count,   \
                               NULL, dtype, op, -1, comm))                         \
    X(reduce, MCA_COLL_RSAG_REDUCE,                                                \
      (const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,     \
       struct ompi_op_t *op, int root),                                            \
      (sbuf, rbuf, count, dtype, op, root),                                        \
      mca_coll_rsag_args(&a, MCA_COLL_RSAG_REDUCE, sbuf, rbuf, (size_t) count,     \
                         dtype, op, root, comm),                                   \
      mca_coll_rsag_check_call(m, MCA_COLL_RSAG_REDUCE, sbuf, (size_t) count,      \
                               NULL, dtype, op, root, comm))                       \
    X(reduce_scatter_block, MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK,                    \
      (const void *sbuf, void *rbuf, int rcount, struct ompi_datatype_t *dtype,    \
       struct ompi_op_t *op),                                                      \
      (sbuf, rbuf, rcount, dtype, op),                                             \
      mca_coll_rsag_args(&a, MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK, sbuf, rbuf,       \
                         (size_t) rcount * (size_t) ompi_comm_size(comm), dtype,   \
                         op, -1, comm),                                            \
      mca_coll_rsag_check_call(m, MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK, sbuf,        \
                               (size_t) rcount * (size_t) ompi_comm_size(comm),    \
                               NULL, dtype, op, -1, comm))                         \
    X(reduce_scatter, MCA_COLL_RSAG_REDUCE_SCATTER,                                \
      (const void *sbuf, void *rbuf, const int *rcounts,                           \
       struct ompi_datatype_t *dtype, struct ompi_op_t *op),                       \
      (sbuf, rbuf, rcounts, dtype, op),                                            \
      mca_coll_rsag_rs_args(&a, m, sbuf, rbuf, rcounts, dtype, op, comm),          \
      mca_coll_rsag_check_call(m, MCA_COLL_RSAG_REDUCE_SCATTER, sbuf, 0, rcounts,  \
                               dtype, op, -1, comm))

/* One slot: unless the module is making hierarchical's sub-communicators
 * (then the previous module takes every call: they are not the user's),
 * describe the call and hand it to the dispatcher (`run`, which sets
 * `delegate`); the previous module's call with the slot's own arguments
 * when rsag delegates.  `fparams`/`fargs`: what the form adds after the
 * communicator, with a leading comma. */
#define MCA_COLL_RSAG_SLOT(slot, params, args, describe, fparams, fargs, run)     \
    static int mca_coll_rsag_##slot##_intra(MCA_COLL_RSAG_UNPAREN params,         \
                                            struct ompi_communicator_t *comm      \
                                            MCA_COLL_RSAG_UNPAREN fparams,        \
                                            mca_coll_base_module_t *module)       \
    {                                                                             \
        mca_coll_rsag_module_t *m = (mca_coll_rsag_module_t *) module;           \
        mca_coll_rsag_args_t a;                                                   \
        bool delegate = false;                                                    \
        int err;                                                                  \
                                                                                  \
        if (!m->in_setup || NULL == m->previous.slot) {                           \
            err = (describe);                                                     \
            if (OMPI_SUCCESS == err) {                                            \
                err = (run);                                                      \
            }                                                                     \
            if (!delegate) {                                                      \
                return err;                                                       \
            }                                                                     \
        }                                                                         \
        if (NULL == m->previous.slot) {                                           \
            return OMPI_ERR_NOT_SUPPORTED;                                        \
        }                                                                         \
        return m->previous.slot(MCA_COLL_RSAG_UNPAREN args,                       \
                                comm MCA_COLL_RSAG_UNPAREN fargs,                 \
                                m->previous.slot##_module);                       \
    }

/* The three forms of a collective: blocking (MPI_Allreduce), nonblocking
 * (MPI_Iallreduce), persistent (MPI_Allreduce_init; MPIX_ in Open MPI 4.1). */
#define MCA_COLL_RSAG_SLOT_FORMS(name, COLL, params, args, describe, check)       \
    MCA_COLL_RSAG_SLOT(name, params, args,                                        \
                       OMPI_SUCCESS != (err = (check)) ? err : (describe), (), (), \
                       mca_coll_rsag_dispatch(m, COLL, &a, &delegate))            \
    MCA_COLL_RSAG_SLOT(i##name, params, args, describe,                           \
                       (, ompi_request_t **request), (, request),                 \
                       mca_coll_rsag_dispatch_request(m, COLL, &a, false, NULL,   \
                                                      request, &delegate))        \
    MCA_COLL_RSAG_SLOT(name##_init, params, args, describe,                       \
                       (, struct ompi_info_t *info, ompi_request_t **request),    \
                       (, info, request),                                         \
                       mca_coll_rsag_dispatch_request(m, COLL, &a, true, info,    \
                                                      request, &delegate))

MCA_COLL_RSAG_SLOT_COLLECTIVES(MCA_COLL_RSAG_SLOT_FORMS)

#undef MCA_COLL_RSAG_SLOT_FORMS
#undef MCA_COLL_RSAG_SLOT
#undef MCA_COLL_RSAG_SLOT_COLLECTIVES

/* ---- query, enable, disable ------------------------------------------- */

int mca_coll_rsag_init_query(bool enable_progress_threads, bool enable_mpi_threads)
{
    (void) mca_coll_rsag_check_coll_list();
    return mca_coll_rsag_op_init();
}

static int mca_coll_rsag_module_enable(mca_coll_base_module_t *module,
                                       struct ompi_communicator_t *comm)
{
    mca_coll_rsag_module_t *m = (mca_coll_rsag_module_t *) module;

    if (OMPI_COMM_IS_INTER(comm) || m->reductions_off) {
        /* the slots rsag fills are all it holds on an intercommunicator,
         * or where the communicator's info turned its reductions off */
        mca_coll_rsag_fill_enable(m, comm);
        return OMPI_SUCCESS;
    }
#define MCA_COLL_RSAG_KEEP(name)                                                   \
    m->previous.name = comm->c_coll->coll_##name;                                  \
    m->previous.name##_module = comm->c_coll->coll_##name##_module;                \
    if (NULL != m->previous.name##_module) {                                       \
        OBJ_RETAIN(m->previous.name##_module);                                     \
    }
    MCA_COLL_RSAG_SLOTS(MCA_COLL_RSAG_KEEP)
#undef MCA_COLL_RSAG_KEEP
    m->previous_retained = true;
    mca_coll_rsag_fill_enable(m, comm);

    opal_output_verbose(MCA_COLL_RSAG_VERBOSE_MODULE, mca_coll_rsag_component.output,
                        "coll:rsag: enabled on %s (cid %d, size %d); previous modules: "
                        "allreduce %s, reduce %s, reduce_scatter_block %s, reduce_scatter %s",
                        comm->c_name, MCA_COLL_RSAG_COMM_CID(comm), ompi_comm_size(comm),
                        NULL != m->previous.allreduce ? "kept" : "none",
                        NULL != m->previous.reduce ? "kept" : "none",
                        NULL != m->previous.reduce_scatter_block ? "kept" : "none",
                        NULL != m->previous.reduce_scatter ? "kept" : "none");
    return OMPI_SUCCESS;
}

static int mca_coll_rsag_module_disable(mca_coll_base_module_t *module,
                                        struct ompi_communicator_t *comm)
{
    mca_coll_rsag_module_t *m = (mca_coll_rsag_module_t *) module;

    if (m->previous_retained) {
        opal_output_verbose(MCA_COLL_RSAG_VERBOSE_MODULE, mca_coll_rsag_component.output,
                            "coll:rsag: disabled on %s (cid %d)", comm->c_name,
                            MCA_COLL_RSAG_COMM_CID(comm));
    }
    mca_coll_rsag_release_previous(m);
    return OMPI_SUCCESS;
}

/* The communicator's info (MPI_Comm_dup_with_info, MPI_Comm_split_type,
 * ...: the info a communicator is made with, which Open MPI attaches
 * before it selects the coll modules) says coll_rsag_reductions = false:
 * a program, or a benchmark timing rsag against the module below it in
 * one job, keeps rsag's reductions off this communicator. */
static bool mca_coll_rsag_info_reductions_off(struct ompi_communicator_t *comm)
{
    /* not const: Open MPI 4.1's opal_info_get_bool takes a char * */
    static char key[] = "coll_rsag_reductions";
    bool value = true;
    int flag = 0;

    return NULL != comm->super.s_info
           && OPAL_SUCCESS == opal_info_get_bool(comm->super.s_info, key, &value, &flag)
           && flag && !value;
}

mca_coll_base_module_t *mca_coll_rsag_comm_query(struct ompi_communicator_t *comm,
                                                 int *priority)
{
    bool inter = OMPI_COMM_IS_INTER(comm);
    bool off = !inter && mca_coll_rsag_info_reductions_off(comm);
    mca_coll_rsag_module_t *m;

    if (((inter || off) && !mca_coll_rsag_fill_empty_slots)
        || mca_coll_rsag_component.priority < 0) {
        opal_output_verbose(MCA_COLL_RSAG_VERBOSE_MODULE, mca_coll_rsag_component.output,
                            "coll:rsag: declining %s: %s", comm->c_name,
                            inter ? "intercommunicator"
                            : off ? "its info says coll_rsag_reductions false"
                                  : "negative coll_rsag_priority");
        return NULL;
    }

    m = OBJ_NEW(mca_coll_rsag_module_t);
    if (NULL == m) {
        return NULL;
    }
    *priority = mca_coll_rsag_component.priority;
    m->super.coll_module_enable = mca_coll_rsag_module_enable;
    m->super.coll_module_disable = mca_coll_rsag_module_disable;
    if (inter || off) {
        /* only the slots enable fills (rsag's reductions are intra, and
         * this communicator's info may keep them off) */
        m->reductions_off = off;
        if (off) {
            /* (a communicator from MPI_Comm_split_type has no name yet) */
            opal_output_verbose(MCA_COLL_RSAG_VERBOSE_MODULE, mca_coll_rsag_component.output,
                                "coll:rsag: %s (cid %d, size %d): its info says "
                                "coll_rsag_reductions false: the reductions stay with the "
                                "module below rsag", comm->c_name, MCA_COLL_RSAG_COMM_CID(comm),
                                ompi_comm_size(comm));
        }
        return &m->super;
    }
#define MCA_COLL_RSAG_INSTALL(name) m->super.coll_##name = mca_coll_rsag_##name##_intra;
    MCA_COLL_RSAG_SLOTS(MCA_COLL_RSAG_INSTALL)
#undef MCA_COLL_RSAG_INSTALL
    return &m->super;
}
