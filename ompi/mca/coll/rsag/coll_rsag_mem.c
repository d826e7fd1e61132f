/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Memory of rsag's collectives; see coll_rsag_mem.h.
 *
 * Counters are process-wide and may be updated by threads running
 * collectives on different communicators at once, so they change only
 * through relaxed atomics; the per-call temporary accounting is per
 * thread and published when the call ends.
 */
#include "ompi_config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "opal/mca/base/mca_base_pvar.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"

#include "coll_rsag.h"
#include "coll_rsag_mem.h"

/* Scratch-area blocks start on cache-line boundaries. */
#define MCA_COLL_RSAG_SCRATCH_ALIGN ((size_t) 64)

/* Enough for every algorithm at 64 MiB messages: the largest per-call need
 * is 1.5 messages (Reduce Rabenseifner off the root, the reduce-scatters'
 * work vector and receive buffer), 96 MiB. */
#define MCA_COLL_RSAG_DEFAULT_SCRATCH_MAX ((size_t) 128 << 20)

#define MCA_COLL_RSAG_ADD(var, n) __atomic_fetch_add(&(var), (n), __ATOMIC_RELAXED)
#define MCA_COLL_RSAG_SUB(var, n) __atomic_fetch_sub(&(var), (n), __ATOMIC_RELAXED)

/* Settings and MPI_T counters (coll_rsag_<name>). */
static struct {
    size_t scratch_max_bytes;       /* cap of each scratch area; 0: none */
    int test_alloc_fail;            /* countdown to an injected failure; 0: none */
    unsigned long long requests;    /* allocations: memory requests */
    unsigned long long live;        /* allocations_live: blocks held */
    unsigned long long scratch_bytes;
    unsigned long long scratch_hits;
    unsigned long long tmp_peak;    /* temporary_bytes: peak of the last call */
} mca_coll_rsag_mem = { .scratch_max_bytes = MCA_COLL_RSAG_DEFAULT_SCRATCH_MAX };

/* The call this thread is running, if any: its scratch area and its
 * temporary bytes now and at their peak. */
static __thread struct {
    mca_coll_rsag_scratch_t *scratch;
    unsigned long long now, peak;
} mca_coll_rsag_call;

void mca_coll_rsag_mem_register(const mca_base_component_t *c)
{
    /* The memory counters (MPI_T performance variables). */
    static const struct {
        const char *name, *help;
        int var_class;
        unsigned long long *value;
    } counters[] = {
        { "temporary_bytes",
          "Peak temporary memory (bytes) that rsag's last collective call on this process "
          "allocated",
          MCA_BASE_PVAR_CLASS_LEVEL, &mca_coll_rsag_mem.tmp_peak },
        { "allocations", "Number of memory requests rsag made on this process",
          MCA_BASE_PVAR_CLASS_COUNTER, &mca_coll_rsag_mem.requests },
        { "allocations_live",
          "Memory blocks rsag holds on this process: temporaries of a running call and each "
          "communicator's layout cache (scratch areas not included)",
          MCA_BASE_PVAR_CLASS_LEVEL, &mca_coll_rsag_mem.live },
        { "scratch_bytes",
          "Bytes held by the scratch areas of all communicators on this process",
          MCA_BASE_PVAR_CLASS_LEVEL, &mca_coll_rsag_mem.scratch_bytes },
        { "scratch_hits", "Number of temporaries served from a communicator's scratch area",
          MCA_BASE_PVAR_CLASS_COUNTER, &mca_coll_rsag_mem.scratch_hits },
    };

    mca_coll_rsag_mem.scratch_max_bytes = MCA_COLL_RSAG_DEFAULT_SCRATCH_MAX;
    (void) mca_base_component_var_register(
        c, "scratch_max_bytes",
        "Largest scratch area (bytes) each communicator keeps for the temporaries of "
        "rsag's collectives, reused across calls so that large temporaries are not "
        "mapped and page-faulted on every call; it grows to the largest need of a call "
        "seen so far and is freed with the communicator. Needs beyond it are allocated "
        "per call. 0 disables the scratch areas. Default 128 MiB: enough for every "
        "algorithm at 64 MiB messages",
        MCA_BASE_VAR_TYPE_SIZE_T, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_5,
        MCA_BASE_VAR_SCOPE_LOCAL, &mca_coll_rsag_mem.scratch_max_bytes);

    mca_coll_rsag_mem.test_alloc_fail = 0;
    (void) mca_base_component_var_register(
        c, "test_alloc_fail",
        "TEST ONLY: make the Nth memory request of rsag from now fail (N > 0; counted "
        "down, 0 afterwards; requests for empty temporaries count too), as if malloc had "
        "failed: the collective returns MPI_ERR_NO_MEM. 0 (default): no injected failure",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_9,
        MCA_BASE_VAR_SCOPE_LOCAL, &mca_coll_rsag_mem.test_alloc_fail);

    for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); ++i) {
        (void) mca_base_component_pvar_register(
            c, counters[i].name, counters[i].help, OPAL_INFO_LVL_4, counters[i].var_class,
            MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL, MCA_BASE_VAR_BIND_NO_OBJECT,
            MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS, NULL, NULL, NULL,
            counters[i].value);
    }
}

/* One memory request: false when coll_rsag_test_alloc_fail says this one
 * fails.  The countdown is a test setting written through MPI_T between
 * calls; the decrement is atomic so that only one request takes it. */
static bool mca_coll_rsag_request_ok(void)
{
    int left = __atomic_load_n(&mca_coll_rsag_mem.test_alloc_fail, __ATOMIC_RELAXED);
    unsigned long long n = MCA_COLL_RSAG_ADD(mca_coll_rsag_mem.requests, 1ULL) + 1;

    while (left > 0) {
        if (__atomic_compare_exchange_n(&mca_coll_rsag_mem.test_alloc_fail, &left, left - 1,
                                        false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
            if (1 == left) {
                opal_output_verbose(MCA_COLL_RSAG_VERBOSE_MODULE,
                                    mca_coll_rsag_component.output,
                                    "coll:rsag: memory request %llu fails "
                                    "(coll_rsag_test_alloc_fail)", n);
                return false;
            }
            break;
        }
    }
    return true;
}

void *mca_coll_rsag_malloc(size_t bytes)
{
    void *ptr = mca_coll_rsag_request_ok() ? malloc(bytes > 0 ? bytes : 1) : NULL;

    if (NULL != ptr) {
        MCA_COLL_RSAG_ADD(mca_coll_rsag_mem.live, 1ULL);
    }
    return ptr;
}

void mca_coll_rsag_free(void *ptr)
{
    if (NULL != ptr) {
        MCA_COLL_RSAG_SUB(mca_coll_rsag_mem.live, 1ULL);
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
        MCA_COLL_RSAG_SUB(mca_coll_rsag_mem.scratch_bytes, (unsigned long long) s->size);
        free(s->base);
    }
    s->base = NULL;
    s->size = s->used = 0;
}

void mca_coll_rsag_scratch_fini(mca_coll_rsag_scratch_t *s)
{
    if (mca_coll_rsag_call.scratch == s) {
        mca_coll_rsag_call.scratch = NULL;
    }
    mca_coll_rsag_scratch_release(s);
}

void mca_coll_rsag_call_begin(mca_coll_rsag_scratch_t *s)
{
    mca_coll_rsag_call.scratch = s;
    mca_coll_rsag_call.now = mca_coll_rsag_call.peak = 0;
    __atomic_store_n(&mca_coll_rsag_mem.tmp_peak, 0ULL, __ATOMIC_RELAXED);
}

int mca_coll_rsag_call_end(int err)
{
    mca_coll_rsag_call.scratch = NULL;
    __atomic_store_n(&mca_coll_rsag_mem.tmp_peak, mca_coll_rsag_call.peak, __ATOMIC_RELAXED);
    /* Open MPI 4.1 reports its internal out-of-resource code as
     * MPI_ERR_INTERN; an MPI code (>= 0) passes through unchanged. */
    return (OMPI_ERR_OUT_OF_RESOURCE == err) ? MPI_ERR_NO_MEM : err;
}

/* A fresh area of `want` bytes for `s`, if malloc gives it. */
static void mca_coll_rsag_scratch_grow(mca_coll_rsag_scratch_t *s)
{
    mca_coll_rsag_scratch_release(s);
    s->base = malloc(s->want);
    if (NULL != s->base) {
        s->size = s->want;
        MCA_COLL_RSAG_ADD(mca_coll_rsag_mem.scratch_bytes, (unsigned long long) s->size);
    }
}

/* `bytes` from the current call's scratch area, or NULL: no area, or no
 * room.  The first request of a call (nothing live) may first resize the
 * area to the largest need of a call seen so far, within the cap. */
static char *mca_coll_rsag_scratch_take(mca_coll_rsag_scratch_t *s, size_t bytes)
{
    size_t cap = mca_coll_rsag_mem.scratch_max_bytes;
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
        mca_coll_rsag_scratch_grow(s);
    }
    if (need > s->size - s->used) {
        return NULL;
    }
    ptr = s->base + s->used;
    s->used += need;
    ++s->live;
    MCA_COLL_RSAG_ADD(mca_coll_rsag_mem.scratch_hits, 1ULL);
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
    tmp->raw = mca_coll_rsag_scratch_take(mca_coll_rsag_call.scratch, bytes);
    if (NULL != tmp->raw) {
        tmp->scratch = mca_coll_rsag_call.scratch;
    } else if (NULL == (tmp->raw = malloc(bytes))) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    MCA_COLL_RSAG_ADD(mca_coll_rsag_mem.live, 1ULL);
    tmp->buf = tmp->raw - true_lb;
    tmp->bytes = bytes;
    mca_coll_rsag_call.now += bytes;
    if (mca_coll_rsag_call.now > mca_coll_rsag_call.peak) {
        mca_coll_rsag_call.peak = mca_coll_rsag_call.now;
    }
    return OMPI_SUCCESS;
}

void mca_coll_rsag_tmp_free(mca_coll_rsag_tmp_t *tmp)
{
    if (NULL != tmp->raw) {
        mca_coll_rsag_call.now -= tmp->bytes;
        MCA_COLL_RSAG_SUB(mca_coll_rsag_mem.live, 1ULL);
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
