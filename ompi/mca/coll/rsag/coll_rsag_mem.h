/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Memory of rsag's collectives (coll_rsag_mem.c): temporaries laid out
 * like user buffers, served from a per-communicator scratch area when it
 * has room, with accounting (MPI_T counters, safe under concurrent
 * collectives on different communicators) and test-only failure
 * injection.
 */
#ifndef MCA_COLL_RSAG_MEM_H
#define MCA_COLL_RSAG_MEM_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>

#include "opal/mca/base/base.h"
#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"

BEGIN_C_DECLS

/* A communicator's scratch area: temporaries of a call are carved from it
 * one after the other (bump allocation) and it is rewound when the call's
 * last one is freed.  Kept across calls, so large temporaries are not
 * mapped and page-faulted afresh on every call; grown, up to
 * coll_rsag_scratch_max_bytes, to the largest need of a call seen so far
 * when no temporary is live; freed with the communicator.  Only the
 * thread running a collective on the communicator touches it (MPI orders
 * the collectives of one communicator). */
typedef struct mca_coll_rsag_scratch_t {
    char *base;
    size_t size;        /* bytes at base */
    size_t used;        /* bytes handed out in the current call */
    size_t call_need;   /* bytes the current call asked for so far */
    size_t want;        /* largest need of a call so far, capped */
    int live;           /* temporaries of the current call not yet freed */
} mca_coll_rsag_scratch_t;

void mca_coll_rsag_scratch_init(mca_coll_rsag_scratch_t *s);
void mca_coll_rsag_scratch_fini(mca_coll_rsag_scratch_t *s);

/* The dispatcher brackets each algorithm it runs: temporaries of the call
 * may then come from `s` (per thread: MPI allows concurrent collectives on
 * different communicators), and coll_rsag_temporary_bytes reports the
 * call's peak.  end returns err, out of memory as MPI_ERR_NO_MEM. */
void mca_coll_rsag_call_begin(mca_coll_rsag_scratch_t *s);
int mca_coll_rsag_call_end(int err);

/* A temporary vector of `count` elements of `dtype`.  `buf` is offset by
 * the type's true lower bound, so element i is at buf + i * extent exactly
 * as in a user buffer.  Every request counts for coll_rsag_test_alloc_fail,
 * empty ones (count 0) included, so algorithms that ask for the same
 * temporaries on every rank, before their first message, fail at the same
 * point everywhere. */
typedef struct mca_coll_rsag_tmp_t {
    char *raw;
    char *buf;
    size_t bytes;
    mca_coll_rsag_scratch_t *scratch;   /* the area it came from, or NULL */
} mca_coll_rsag_tmp_t;
#define MCA_COLL_RSAG_TMP_INIT { NULL, NULL, 0, NULL }

int mca_coll_rsag_tmp_alloc(mca_coll_rsag_tmp_t *tmp, size_t count,
                            struct ompi_datatype_t *dtype);
void mca_coll_rsag_tmp_free(mca_coll_rsag_tmp_t *tmp);

/* Other memory of rsag (bookkeeping, the layout cache): malloc and free
 * with the same failure injection and live-block accounting. */
void *mca_coll_rsag_malloc(size_t bytes);
void mca_coll_rsag_free(void *ptr);

/* Register the memory parameters and MPI_T counters (component register). */
void mca_coll_rsag_mem_register(const mca_base_component_t *c);

/* Address of element `index` of a vector of `dtype` elements. */
static inline char *mca_coll_rsag_elem(const void *buf, size_t index, ptrdiff_t extent)
{
    return (char *) buf + (ptrdiff_t) index * extent;
}

/* Copy `count` elements (no-op when the buffers coincide). */
static inline int mca_coll_rsag_copy(struct ompi_datatype_t *dtype, size_t count, void *dst,
                                     const void *src)
{
    if (0 == count || dst == src) {
        return OMPI_SUCCESS;
    }
    return ompi_datatype_copy_content_same_ddt(dtype, count, (char *) dst, (char *) src);
}

END_C_DECLS

#endif /* MCA_COLL_RSAG_MEM_H */
