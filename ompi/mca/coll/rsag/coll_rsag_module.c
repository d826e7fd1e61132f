/*
 * The rsag module: one per intra-communicator.
 *
 *  query    declines intercommunicators and a negative priority, and offers
 *           the reduction slots;
 *  enable   keeps (and retains) the module that held each slot before rsag,
 *           so that what rsag cannot do is handed to it;
 *  disable  releases those modules; Open MPI calls it once per slot rsag
 *           holds, so it is idempotent (the destructor is the backstop);
 *  slots    describe the call to the pure selector, count and report the
 *           decision, then run the chosen algorithm or delegate.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "opal/util/output.h"
#include "ompi/communicator/communicator.h"
#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

#include "coll_rsag.h"
#include "coll_rsag_colllist.h"

/* Dispatch tables generated from the algorithm tables, indexed by id. */
#define MCA_COLL_RSAG_FN_ENTRY(coll, ALG, id, name, desc, restr, min, fn) [id] = fn,
static const mca_coll_base_module_allreduce_fn_t allreduce_fns[MCA_COLL_RSAG_MAX_ALGS + 1] = {
    MCA_COLL_RSAG_ALLREDUCE_ALGORITHMS(MCA_COLL_RSAG_FN_ENTRY)
};
static const mca_coll_base_module_reduce_fn_t reduce_fns[MCA_COLL_RSAG_MAX_ALGS + 1] = {
    MCA_COLL_RSAG_REDUCE_ALGORITHMS(MCA_COLL_RSAG_FN_ENTRY)
};
static const mca_coll_rsag_rs_fn_t reduce_scatter_block_fns[MCA_COLL_RSAG_MAX_ALGS + 1] = {
    MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK_ALGORITHMS(MCA_COLL_RSAG_FN_ENTRY)
};
static const mca_coll_rsag_rs_fn_t reduce_scatter_fns[MCA_COLL_RSAG_MAX_ALGS + 1] = {
    MCA_COLL_RSAG_REDUCE_SCATTER_ALGORITHMS(MCA_COLL_RSAG_FN_ENTRY)
};
#undef MCA_COLL_RSAG_FN_ENTRY

static void mca_coll_rsag_release_previous(mca_coll_rsag_module_t *m)
{
    if (!m->previous_retained) {
        return;
    }
    m->previous_retained = false;
#define MCA_COLL_RSAG_RELEASE(name)                                                \
    if (NULL != m->previous.name##_module) {                                       \
        OBJ_RELEASE(m->previous.name##_module);                                    \
    }
    MCA_COLL_RSAG_SLOTS(MCA_COLL_RSAG_RELEASE)
#undef MCA_COLL_RSAG_RELEASE
    memset(&m->previous, 0, sizeof(m->previous));
}

static void mca_coll_rsag_module_construct(mca_coll_rsag_module_t *m)
{
    memset(&m->previous, 0, sizeof(m->previous));
    m->previous_retained = false;
    m->displ = NULL;
    memset(m->reported, 0, sizeof(m->reported));
    mca_coll_rsag_scratch_init(&m->scratch);
    memset(m->last, 0, sizeof(m->last));
}

static void mca_coll_rsag_module_destruct(mca_coll_rsag_module_t *m)
{
    mca_coll_rsag_release_previous(m);
    mca_coll_rsag_free(m->displ);
    m->displ = NULL;
    mca_coll_rsag_scratch_fini(&m->scratch);
}

size_t *mca_coll_rsag_module_displ(mca_coll_rsag_module_t *m, int p)
{
    if (NULL == m->displ) {
        m->displ = mca_coll_rsag_malloc(((size_t) p + 1) * sizeof(size_t));
    }
    return m->displ;
}

OBJ_CLASS_INSTANCE(mca_coll_rsag_module_t, mca_coll_base_module_t,
                   mca_coll_rsag_module_construct, mca_coll_rsag_module_destruct);

int mca_coll_rsag_init_query(bool enable_progress_threads, bool enable_mpi_threads)
{
    (void) mca_coll_rsag_check_coll_list();
    return mca_coll_rsag_op_init();
}

static int mca_coll_rsag_module_enable(mca_coll_base_module_t *module,
                                       struct ompi_communicator_t *comm)
{
    mca_coll_rsag_module_t *m = (mca_coll_rsag_module_t *) module;

#define MCA_COLL_RSAG_KEEP(name)                                                   \
    m->previous.name = comm->c_coll->coll_##name;                                  \
    m->previous.name##_module = comm->c_coll->coll_##name##_module;                \
    if (NULL != m->previous.name##_module) {                                       \
        OBJ_RETAIN(m->previous.name##_module);                                     \
    }
    MCA_COLL_RSAG_SLOTS(MCA_COLL_RSAG_KEEP)
#undef MCA_COLL_RSAG_KEEP
    m->previous_retained = true;

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

mca_coll_base_module_t *mca_coll_rsag_comm_query(struct ompi_communicator_t *comm,
                                                 int *priority)
{
    mca_coll_rsag_module_t *m;

    if (OMPI_COMM_IS_INTER(comm) || mca_coll_rsag_component.priority < 0) {
        opal_output_verbose(MCA_COLL_RSAG_VERBOSE_MODULE, mca_coll_rsag_component.output,
                            "coll:rsag: declining %s: %s", comm->c_name,
                            OMPI_COMM_IS_INTER(comm) ? "intercommunicator"
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
    m->super.coll_allreduce = mca_coll_rsag_allreduce_intra;
    m->super.coll_reduce = mca_coll_rsag_reduce_intra;
    m->super.coll_reduce_scatter_block = mca_coll_rsag_reduce_scatter_block_intra;
    m->super.coll_reduce_scatter = mca_coll_rsag_reduce_scatter_intra;
    return &m->super;
}

/* log2 size class of a message: 0 for 0 bytes, k + 1 for [2^k, 2^(k+1)). */
static int mca_coll_rsag_size_class(size_t bytes)
{
    int c = 0;
    while (bytes > 0 && c < 63) {
        bytes >>= 1;
        ++c;
    }
    return c;
}

static const char *mca_coll_rsag_reason_text(const mca_coll_rsag_decision_t *d,
                                             mca_coll_rsag_coll_t coll, char *buf,
                                             size_t len)
{
    const mca_coll_rsag_tuning_t *tuning = &mca_coll_rsag_component.tuning[coll];

    switch (d->reason) {
    case MCA_COLL_RSAG_REASON_FORCED:
        return "forced";
    case MCA_COLL_RSAG_REASON_FALLBACK:
        snprintf(buf, len, "%s forced but it needs %s",
                 mca_coll_rsag_alg_name(coll, tuning->forced),
                 mca_coll_rsag_restriction_text(d->unmet));
        return buf;
    case MCA_COLL_RSAG_REASON_DATATYPE:
        return "datatype extent is not positive";
    case MCA_COLL_RSAG_REASON_NONE:
        snprintf(buf, len, "every rsag algorithm needs %s",
                 mca_coll_rsag_restriction_text(d->unmet));
        return buf;
    case MCA_COLL_RSAG_REASON_UNCOVERED:
        return "no rsag algorithm's *_min_bytes covers this size";
    default:
        return "auto";
    }
}

/* For a choice by auto, the threshold that made it:
 * "; coll_rsag_allreduce_ring_min_bytes 8388608 <= bytes (default for p <= 4)". */
static const char *mca_coll_rsag_threshold_text(const mca_coll_rsag_decision_t *d,
                                                mca_coll_rsag_coll_t coll, char *buf,
                                                size_t len)
{
    char range[32];

    if (MCA_COLL_RSAG_DELEGATE == d->alg || (MCA_COLL_RSAG_REASON_AUTO != d->reason
                                             && MCA_COLL_RSAG_REASON_FALLBACK != d->reason)) {
        return "";
    }
    mca_coll_rsag_class_text(mca_coll_rsag_component.class_bounds, d->comm_class, range,
                             sizeof(range));
    snprintf(buf, len, "; coll_rsag_%s_%s_min_bytes %zu <= bytes (%s %s)",
             mca_coll_rsag_colls[coll].name, mca_coll_rsag_alg_name(coll, d->alg), d->threshold,
             d->by_class ? "default for" : "set for every size, here", range);
    return buf;
}

/* Describe the call, select, count, and report once per size class. */
static int mca_coll_rsag_decide(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                                size_t count, struct ompi_datatype_t *dtype,
                                struct ompi_op_t *op, struct ompi_communicator_t *comm)
{
    const mca_coll_rsag_tuning_t *tuning = &mca_coll_rsag_component.tuning[coll];
    mca_coll_rsag_last_decision_t *last = NULL;
    mca_coll_rsag_call_t call;
    mca_coll_rsag_decision_t d;
    ptrdiff_t lb, extent;
    size_t type_size;
    int size_class;

    memset(&call, 0, sizeof(call));     /* padding too: compared with memcmp */
    ompi_datatype_type_size(dtype, &type_size);
    ompi_datatype_get_extent(dtype, &lb, &extent);
    call.comm_size = ompi_comm_size(comm);
    call.count = count;
    call.bytes = count * type_size;
    call.commutative = ompi_op_is_commute(op);
    call.dtype_supported = extent > 0;

    if (tuning->forced >= 0 && tuning->forced <= MCA_COLL_RSAG_MAX_ALGS) {
        last = &m->last[coll][tuning->forced];
    }
    if (NULL != last && last->valid && 0 == memcmp(&last->call, &call, sizeof(call))
        && 0 == memcmp(&last->tuning, tuning, sizeof(*tuning))
        /* the class bounds are shared by pointer: MPI_T may have moved them */
        && last->d.comm_class == mca_coll_rsag_comm_class(tuning->class_bounds,
                                                          call.comm_size)) {
        d = last->d;
    } else {
        d = mca_coll_rsag_select(coll, &call, tuning);
        if (NULL != last) {
            memcpy(&last->call, &call, sizeof(call));
            memcpy(&last->tuning, tuning, sizeof(*tuning));
            last->d = d;
            last->valid = true;
        }
    }
    mca_coll_rsag_component.tmp_bytes_now = 0;
    mca_coll_rsag_component.tmp_bytes_peak = 0;
    __atomic_fetch_add(&mca_coll_rsag_component.calls[coll][d.alg], 1ULL, __ATOMIC_RELAXED);

    if (mca_coll_rsag_component.verbose < MCA_COLL_RSAG_VERBOSE_DECISIONS) {
        return d.alg;
    }
    size_class = mca_coll_rsag_size_class(call.bytes);
    if (0 == ompi_comm_rank(comm)
        && 0 == (m->reported[coll][d.alg][d.reason] & (1ULL << size_class))) {
        char why[160], thr[160];

        m->reported[coll][d.alg][d.reason] |= 1ULL << size_class;
        opal_output(mca_coll_rsag_component.output,
                    "coll:rsag: %s on %s (cid %d, size %d): %zu bytes (size class %d), "
                    "%s op -> %s (%s)%s",
                    mca_coll_rsag_colls[coll].name, comm->c_name, MCA_COLL_RSAG_COMM_CID(comm),
                    call.comm_size, call.bytes, size_class,
                    call.commutative ? "commutative" : "non-commutative",
                    MCA_COLL_RSAG_DELEGATE == d.alg ? "delegated to the previous module"
                                                    : mca_coll_rsag_alg_name(coll, d.alg),
                    mca_coll_rsag_reason_text(&d, coll, why, sizeof(why)),
                    mca_coll_rsag_threshold_text(&d, coll, thr, sizeof(thr)));
    }
    return d.alg;
}

int mca_coll_rsag_allreduce_intra(const void *sbuf, void *rbuf, int count,
                                  struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                  struct ompi_communicator_t *comm,
                                  mca_coll_base_module_t *module)
{
    mca_coll_rsag_module_t *m = (mca_coll_rsag_module_t *) module;
    int alg = mca_coll_rsag_decide(m, MCA_COLL_RSAG_ALLREDUCE, (size_t) count, dtype, op, comm);

    if (MCA_COLL_RSAG_DELEGATE == alg) {
        if (NULL == m->previous.allreduce) {
            return OMPI_ERR_NOT_SUPPORTED;
        }
        return m->previous.allreduce(sbuf, rbuf, count, dtype, op, comm,
                                     m->previous.allreduce_module);
    }
    mca_coll_rsag_call_begin(m);
    return mca_coll_rsag_call_end(allreduce_fns[alg](sbuf, rbuf, count, dtype, op, comm, module));
}

int mca_coll_rsag_reduce_intra(const void *sbuf, void *rbuf, int count,
                               struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                               int root, struct ompi_communicator_t *comm,
                               mca_coll_base_module_t *module)
{
    mca_coll_rsag_module_t *m = (mca_coll_rsag_module_t *) module;
    int alg = mca_coll_rsag_decide(m, MCA_COLL_RSAG_REDUCE, (size_t) count, dtype, op, comm);

    if (MCA_COLL_RSAG_DELEGATE == alg) {
        if (NULL == m->previous.reduce) {
            return OMPI_ERR_NOT_SUPPORTED;
        }
        return m->previous.reduce(sbuf, rbuf, count, dtype, op, root, comm,
                                  m->previous.reduce_module);
    }
    mca_coll_rsag_call_begin(m);
    return mca_coll_rsag_call_end(reduce_fns[alg](sbuf, rbuf, count, dtype, op, root, comm,
                                                  module));
}

int mca_coll_rsag_reduce_scatter_block_intra(const void *sbuf, void *rbuf, int rcount,
                                             struct ompi_datatype_t *dtype,
                                             struct ompi_op_t *op,
                                             struct ompi_communicator_t *comm,
                                             mca_coll_base_module_t *module)
{
    mca_coll_rsag_module_t *m = (mca_coll_rsag_module_t *) module;
    int p = ompi_comm_size(comm);
    size_t total = (size_t) rcount * (size_t) p;
    int alg = mca_coll_rsag_decide(m, MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK, total, dtype, op, comm);
    size_t *displ;

    if (MCA_COLL_RSAG_DELEGATE == alg) {
        if (NULL == m->previous.reduce_scatter_block) {
            return OMPI_ERR_NOT_SUPPORTED;
        }
        return m->previous.reduce_scatter_block(sbuf, rbuf, rcount, dtype, op, comm,
                                                m->previous.reduce_scatter_block_module);
    }
    displ = mca_coll_rsag_module_displ(m, p);
    if (NULL == displ) {
        return mca_coll_rsag_call_end(OMPI_ERR_OUT_OF_RESOURCE);
    }
    mca_coll_rsag_displs_even(total, p, displ);
    mca_coll_rsag_call_begin(m);
    return mca_coll_rsag_call_end(reduce_scatter_block_fns[alg](sbuf, rbuf, displ, dtype, op,
                                                                comm, m));
}

int mca_coll_rsag_reduce_scatter_intra(const void *sbuf, void *rbuf, const int *rcounts,
                                       struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                       struct ompi_communicator_t *comm,
                                       mca_coll_base_module_t *module)
{
    mca_coll_rsag_module_t *m = (mca_coll_rsag_module_t *) module;
    int p = ompi_comm_size(comm);
    size_t *displ = mca_coll_rsag_module_displ(m, p);
    int alg;

    if (NULL == displ) {
        return mca_coll_rsag_call_end(OMPI_ERR_OUT_OF_RESOURCE);
    }
    mca_coll_rsag_displs_counts(rcounts, p, displ);
    alg = mca_coll_rsag_decide(m, MCA_COLL_RSAG_REDUCE_SCATTER, displ[p], dtype, op, comm);
    if (MCA_COLL_RSAG_DELEGATE == alg) {
        if (NULL == m->previous.reduce_scatter) {
            return OMPI_ERR_NOT_SUPPORTED;
        }
        return m->previous.reduce_scatter(sbuf, rbuf, rcounts, dtype, op, comm,
                                          m->previous.reduce_scatter_module);
    }
    mca_coll_rsag_call_begin(m);
    return mca_coll_rsag_call_end(reduce_scatter_fns[alg](sbuf, rbuf, displ, dtype, op, comm, m));
}
