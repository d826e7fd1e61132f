/*
 * Helpers shared by rsag's algorithms: memory (temporaries laid out like
 * user buffers, served from each communicator's scratch area when it has
 * room, with accounting and test-only failure injection), datatype-engine
 * copies, order-respecting reduction, and point-to-point exchanges through
 * the PML.
 */
#include "ompi_config.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "opal/mca/base/mca_base_pvar.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/base/coll_base_util.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/op/op.h"
#include "ompi/request/request.h"

#include "coll_rsag.h"

/* Scratch-area blocks start on cache-line boundaries. */
#define MCA_COLL_RSAG_SCRATCH_ALIGN ((size_t) 64)

/* Enough for every algorithm at 64 MiB messages: the largest per-call need
 * is 1.5 messages (Reduce Rabenseifner off the root, the reduce-scatters'
 * work vector and receive buffer), 96 MiB. */
#define MCA_COLL_RSAG_DEFAULT_SCRATCH_MAX ((size_t) 128 << 20)

/* The scratch area of the collective this thread is running, if any. */
static __thread mca_coll_rsag_scratch_t *mca_coll_rsag_current_scratch = NULL;

void mca_coll_rsag_memory_register(const mca_base_component_t *c)
{
    mca_coll_rsag_component.scratch_max_bytes = MCA_COLL_RSAG_DEFAULT_SCRATCH_MAX;
    (void) mca_base_component_var_register(
        c, "scratch_max_bytes",
        "Largest scratch area (bytes) each communicator keeps for the temporaries of "
        "rsag's collectives, reused across calls so that large temporaries are not "
        "mapped and page-faulted on every call; it grows to the largest need of a call "
        "seen so far and is freed with the communicator. Needs beyond it are allocated "
        "per call. 0 disables the scratch areas. Default 128 MiB: enough for every "
        "algorithm at 64 MiB messages",
        MCA_BASE_VAR_TYPE_SIZE_T, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_5,
        MCA_BASE_VAR_SCOPE_LOCAL, &mca_coll_rsag_component.scratch_max_bytes);

    mca_coll_rsag_component.test_alloc_fail = 0;
    (void) mca_base_component_var_register(
        c, "test_alloc_fail",
        "TEST ONLY: make the Nth memory request of rsag from now fail (N > 0; counted "
        "down, 0 afterwards; requests for empty temporaries count too), as if malloc had "
        "failed: the collective returns MPI_ERR_NO_MEM. 0 (default): no injected failure",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_9,
        MCA_BASE_VAR_SCOPE_LOCAL, &mca_coll_rsag_component.test_alloc_fail);

    (void) mca_base_component_pvar_register(
        c, "allocations", "Number of memory requests rsag made on this process",
        OPAL_INFO_LVL_4, MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
        NULL, MCA_BASE_VAR_BIND_NO_OBJECT,
        MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS, NULL, NULL, NULL,
        &mca_coll_rsag_component.allocs);
    (void) mca_base_component_pvar_register(
        c, "allocations_live",
        "Memory blocks rsag holds on this process: temporaries of a running call and "
        "each communicator's layout cache (scratch areas not included)",
        OPAL_INFO_LVL_4, MCA_BASE_PVAR_CLASS_LEVEL, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
        NULL, MCA_BASE_VAR_BIND_NO_OBJECT,
        MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS, NULL, NULL, NULL,
        &mca_coll_rsag_component.allocs_live);
    (void) mca_base_component_pvar_register(
        c, "scratch_bytes",
        "Bytes held by the scratch areas of all communicators on this process",
        OPAL_INFO_LVL_4, MCA_BASE_PVAR_CLASS_LEVEL, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
        NULL, MCA_BASE_VAR_BIND_NO_OBJECT,
        MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS, NULL, NULL, NULL,
        &mca_coll_rsag_component.scratch_bytes);
    (void) mca_base_component_pvar_register(
        c, "scratch_hits",
        "Number of temporaries served from a communicator's scratch area",
        OPAL_INFO_LVL_4, MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
        NULL, MCA_BASE_VAR_BIND_NO_OBJECT,
        MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS, NULL, NULL, NULL,
        &mca_coll_rsag_component.scratch_hits);
}

/* One memory request: false when coll_rsag_test_alloc_fail says this one
 * fails. */
static bool mca_coll_rsag_request_ok(void)
{
    ++mca_coll_rsag_component.allocs;
    if (mca_coll_rsag_component.test_alloc_fail > 0
        && 0 == --mca_coll_rsag_component.test_alloc_fail) {
        opal_output_verbose(MCA_COLL_RSAG_VERBOSE_MODULE, mca_coll_rsag_component.output,
                            "coll:rsag: memory request %llu fails (coll_rsag_test_alloc_fail)",
                            mca_coll_rsag_component.allocs);
        return false;
    }
    return true;
}

void *mca_coll_rsag_malloc(size_t bytes)
{
    void *ptr = mca_coll_rsag_request_ok() ? malloc(bytes > 0 ? bytes : 1) : NULL;

    if (NULL != ptr) {
        ++mca_coll_rsag_component.allocs_live;
    }
    return ptr;
}

void mca_coll_rsag_free(void *ptr)
{
    if (NULL != ptr) {
        --mca_coll_rsag_component.allocs_live;
        free(ptr);
    }
}

void mca_coll_rsag_scratch_init(mca_coll_rsag_scratch_t *s)
{
    memset(s, 0, sizeof(*s));
}

/* Give the area back (no temporary of it may be live). */
static void mca_coll_rsag_scratch_release(mca_coll_rsag_scratch_t *s)
{
    if (NULL != s->base) {
        mca_coll_rsag_component.scratch_bytes -= s->size;
        free(s->base);
    }
    s->base = NULL;
    s->size = s->used = 0;
}

void mca_coll_rsag_scratch_fini(mca_coll_rsag_scratch_t *s)
{
    if (mca_coll_rsag_current_scratch == s) {
        mca_coll_rsag_current_scratch = NULL;
    }
    mca_coll_rsag_scratch_release(s);
}

void mca_coll_rsag_call_begin(mca_coll_rsag_module_t *m)
{
    mca_coll_rsag_current_scratch = &m->scratch;
}

int mca_coll_rsag_call_end(int err)
{
    mca_coll_rsag_current_scratch = NULL;
    /* Open MPI 4.1 reports its internal out-of-resource code as
     * MPI_ERR_INTERN; an MPI code (>= 0) passes through unchanged. */
    return (OMPI_ERR_OUT_OF_RESOURCE == err) ? MPI_ERR_NO_MEM : err;
}

/* `bytes` from the current call's scratch area, or NULL: no area, or no
 * room.  The first request of a call (nothing live) may first resize the
 * area to the largest need of a call seen so far, within the cap. */
static char *mca_coll_rsag_scratch_take(mca_coll_rsag_scratch_t *s, size_t bytes)
{
    size_t cap = mca_coll_rsag_component.scratch_max_bytes;
    size_t need = (bytes + MCA_COLL_RSAG_SCRATCH_ALIGN - 1) & ~(MCA_COLL_RSAG_SCRATCH_ALIGN - 1);
    char *ptr;

    if (NULL == s) {
        return NULL;
    }
    if (0 == s->live) {
        s->used = s->call_need = 0;
        if (s->size > cap) {
            mca_coll_rsag_scratch_release(s);    /* the cap was lowered */
        }
    }
    if (need < bytes || 0 == cap) {
        return NULL;
    }
    s->call_need = (s->call_need + need < s->call_need) ? SIZE_MAX : s->call_need + need;
    if (s->want > cap || (s->call_need > s->want && s->want < cap)) {
        s->want = (s->call_need < cap) ? s->call_need : cap;
    }
    if (0 == s->live && s->size < s->want && s->want <= cap) {
        mca_coll_rsag_scratch_release(s);
        s->base = malloc(s->want);
        if (NULL != s->base) {
            s->size = s->want;
            mca_coll_rsag_component.scratch_bytes += s->size;
        }
    }
    if (need > s->size - s->used) {
        return NULL;
    }
    ptr = s->base + s->used;
    s->used += need;
    ++s->live;
    ++mca_coll_rsag_component.scratch_hits;
    return ptr;
}

int mca_coll_rsag_tmp_alloc(mca_coll_rsag_tmp_t *tmp, size_t count,
                            struct ompi_datatype_t *dtype)
{
    ptrdiff_t lb, extent, true_lb, true_extent;
    size_t bytes;

    tmp->raw = tmp->buf = NULL;
    tmp->bytes = 0;
    tmp->scratch = NULL;
    if (!mca_coll_rsag_request_ok()) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    if (0 == count) {
        return OMPI_SUCCESS;
    }
    ompi_datatype_get_extent(dtype, &lb, &extent);
    ompi_datatype_get_true_extent(dtype, &true_lb, &true_extent);
    /* The last element starts (count - 1) extents in and spans true_extent. */
    bytes = (size_t) true_extent + (count - 1) * (size_t) extent;
    if (0 == bytes) {
        bytes = 1;
    }
    tmp->raw = mca_coll_rsag_scratch_take(mca_coll_rsag_current_scratch, bytes);
    if (NULL != tmp->raw) {
        tmp->scratch = mca_coll_rsag_current_scratch;
    } else if (NULL == (tmp->raw = malloc(bytes))) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    ++mca_coll_rsag_component.allocs_live;
    tmp->buf = tmp->raw - true_lb;
    tmp->bytes = bytes;
    mca_coll_rsag_component.tmp_bytes_now += bytes;
    if (mca_coll_rsag_component.tmp_bytes_now > mca_coll_rsag_component.tmp_bytes_peak) {
        mca_coll_rsag_component.tmp_bytes_peak = mca_coll_rsag_component.tmp_bytes_now;
    }
    return OMPI_SUCCESS;
}

void mca_coll_rsag_tmp_free(mca_coll_rsag_tmp_t *tmp)
{
    if (NULL != tmp->raw) {
        mca_coll_rsag_component.tmp_bytes_now -= tmp->bytes;
        --mca_coll_rsag_component.allocs_live;
        if (NULL == tmp->scratch) {
            free(tmp->raw);
        } else if (0 == --tmp->scratch->live) {
            tmp->scratch->used = 0;              /* the call's last one: rewind */
        }
    }
    tmp->raw = tmp->buf = NULL;
    tmp->bytes = 0;
    tmp->scratch = NULL;
}

int mca_coll_rsag_copy(struct ompi_datatype_t *dtype, size_t count, void *dst,
                       const void *src)
{
    if (0 == count || dst == src) {
        return OMPI_SUCCESS;
    }
    return ompi_datatype_copy_content_same_ddt(dtype, count, (char *) dst, (char *) src);
}

void *mca_coll_rsag_reduce_ordered(struct ompi_op_t *op, struct ompi_datatype_t *dtype,
                                   size_t count, void *in, void *inout, bool in_is_lower)
{
    if (0 == count) {
        return inout;
    }
    if (in_is_lower || ompi_op_is_commute(op)) {
        ompi_op_reduce(op, in, inout, count, dtype);     /* inout = in (op) inout */
        return inout;
    }
    ompi_op_reduce(op, inout, in, count, dtype);         /* in = inout (op) in */
    return in;
}

void mca_coll_rsag_reduce3(struct ompi_op_t *op, struct ompi_datatype_t *dtype, size_t count,
                           const void *lower, const void *upper, void *target)
{
    if (0 == count) {
        return;
    }
    /* Open MPI's 3-buffer kernels exist for intrinsic ops on predefined
     * types; its user-op fallback swaps the operands and only knows C
     * callbacks, so user ops take a copy and an ordered 2-buffer reduce. */
    if (ompi_op_is_intrinsic(op) && ompi_datatype_is_predefined(dtype) && count <= INT_MAX) {
        ompi_3buff_op_reduce(op, (void *) lower, (void *) upper, target, (int) count, dtype);
        return;
    }
    ompi_datatype_copy_content_same_ddt(dtype, count, target, (char *) upper);
    ompi_op_reduce(op, (void *) lower, target, count, dtype);  /* target = lower (op) upper */
}

int mca_coll_rsag_sendrecv(const void *sbuf, size_t scount, int dst,
                           void *rbuf, size_t rcount, int src,
                           struct ompi_datatype_t *dtype, int tag,
                           struct ompi_communicator_t *comm)
{
    return ompi_coll_base_sendrecv((void *) sbuf, scount, dtype, dst, tag,
                                   rbuf, rcount, dtype, src, tag,
                                   comm, MPI_STATUS_IGNORE, ompi_comm_rank(comm));
}

int mca_coll_rsag_send(const void *buf, size_t count, struct ompi_datatype_t *dtype,
                       int dst, int tag, struct ompi_communicator_t *comm)
{
    return MCA_PML_CALL(send(buf, count, dtype, dst, tag, MCA_PML_BASE_SEND_STANDARD, comm));
}

int mca_coll_rsag_recv(void *buf, size_t count, struct ompi_datatype_t *dtype,
                       int src, int tag, struct ompi_communicator_t *comm)
{
    return MCA_PML_CALL(recv(buf, count, dtype, src, tag, comm, MPI_STATUS_IGNORE));
}

void mca_coll_rsag_requests_drop(struct ompi_request_t **reqs, size_t n, bool receives)
{
    for (size_t i = 0; i < n; ++i) {
        if (NULL == reqs[i] || MPI_REQUEST_NULL == reqs[i]) {
            continue;
        }
        if (receives) {
            (void) ompi_request_cancel(reqs[i]);
            (void) ompi_request_wait(&reqs[i], MPI_STATUS_IGNORE);
        } else {
            (void) ompi_request_free(&reqs[i]);
        }
        reqs[i] = MPI_REQUEST_NULL;
    }
}
