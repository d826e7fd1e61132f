/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Copies into memory that another core reads next (pure C, no MPI).
 *
 * A line a core has just written sits modified in that core's cache; the
 * core that reads it next must fetch it from there.  Where the two cores do
 * not share a last-level cache (two dies of one processor, or a virtual
 * machine whose vCPUs the host moves between dies) that transfer costs
 * several times a read from memory: on the machine rsag was measured on, a
 * 512 KiB hand-off took 250 us in that state against 65 us otherwise, and
 * the state comes and goes every few seconds (doc/direct.md, "Steady
 * launches").  A non-temporal ("streaming") store writes the line to
 * memory without keeping it in the writer's cache, so the reader fetches
 * it from memory whatever the cores share: 47 us in both states.
 *
 * mca_coll_rsag_stream_copy writes with streaming stores where the
 * processor has them (x86-64: SSE2's movntdq, 16 bytes at a time) and ends
 * with a store fence, so a release store that publishes the data after it
 * is ordered after the data (streaming stores are weakly ordered).
 * Elsewhere it is memcpy.
 */
#ifndef MCA_COLL_RSAG_STREAM_H
#define MCA_COLL_RSAG_STREAM_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* True where mca_coll_rsag_stream_copy uses streaming stores. */
bool mca_coll_rsag_stream_available(void);

/* Copy `bytes` from `src` to `dst` (not overlapping) with streaming
 * stores, then fence. */
void mca_coll_rsag_stream_copy(void *dst, const void *src, size_t bytes);

/* memcpy below `min_bytes`, mca_coll_rsag_stream_copy from there on. */
static inline void mca_coll_rsag_copy_for_peer(void *dst, const void *src, size_t bytes,
                                               size_t min_bytes);

#ifdef __cplusplus
}
#endif

#include <string.h>

static inline void mca_coll_rsag_copy_for_peer(void *dst, const void *src, size_t bytes,
                                               size_t min_bytes)
{
    if (bytes >= min_bytes) {
        mca_coll_rsag_stream_copy(dst, src, bytes);
    } else {
        memcpy(dst, src, bytes);
    }
}

#endif /* MCA_COLL_RSAG_STREAM_H */
