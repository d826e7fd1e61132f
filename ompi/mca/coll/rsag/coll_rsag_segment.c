/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The per-communicator shared segment of the node path; see
 * coll_rsag_segment.h.
 *
 * Set-up, once per communicator, every step through the PML (linear: a
 * node has few ranks, and it happens once):
 *
 *   rank 0            checks its allowance (coll_rsag_segment_max_bytes),
 *                     shm_open(O_CREAT|O_EXCL) "/rsag-<job>-<cid>-<pid>-<n>",
 *                     checks the free space of /dev/shm
 *                     (coll_rsag_segment_keep_free_percent), reserves the
 *                     memory with posix_fallocate (ENOSPC on a full tmpfs,
 *                     where a segment only ftruncate'd would raise SIGBUS at
 *                     its first touch), mmap; the name (empty on failure) to
 *                     1..p-1
 *   every rank        maps it, writes pid and probe address in its control
 *                     line, tells rank 0 whether it mapped
 *   rank 0            shm_unlink at once (every rank has mapped or failed,
 *                     nobody needs the name: nothing is left in /dev/shm
 *                     whatever happens later), the verdict to 1..p-1
 *   every rank        (only when something may use CMA: single copy cma,
 *                     or auto unless coll_rsag_direct_cma_min_bytes is set
 *                     to never)
 *                     test-reads its right neighbour's probe word with CMA
 *                     and posts the outcome in its control line; each reads
 *                     all of them: CMA only if every probe worked (same
 *                     answer everywhere)
 *
 * Each rank sends and receives the same messages whatever failed, so a
 * failure anywhere gives every rank the same answer and nobody waits for a
 * message that will not come.
 */
#include "ompi_config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "mpi.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/base/mca_base_var_enum.h"
#include "opal/runtime/opal_progress.h"
#include "opal/util/proc.h"
#if OMPI_MAJOR_VERSION >= 5
#if defined(__has_include)
#if __has_include("opal/mca/pmix/pmix-internal.h")
#include "opal/mca/pmix/pmix-internal.h"
#define MCA_COLL_RSAG_HAVE_PMIX_CLEANUP 1
#endif
#endif
#else
#include "opal/mca/pmix/pmix.h"
#define MCA_COLL_RSAG_HAVE_PMIX_CLEANUP 1
#endif
#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/group/group.h"

#include "coll_rsag.h"
#include "coll_rsag_cma.h"
#include "coll_rsag_help.h"
#include "coll_rsag_p2p.h"
#include "coll_rsag_segment.h"

/* coll_rsag_segment_size 0 (the default): each rank's slot is
 * MCA_COLL_RSAG_AUTO_SEGMENT_TOTAL / p, between the two bounds below.  A
 * window (half a slot) of 512 KB at np 2 amortizes the two waits of each
 * window and stays in a core's L2-sized reach; 64 KB slots cost 3-6x at
 * 1-16 MB (np 2, direct allreduce, coll_rsag_segment_size 64K/256K/1M/4M
 * in alternating jobs: 1 MB was fastest, 4 MB slower again).  The total
 * keeps a node of many ranks at 8 MB of shared memory per communicator. */
#define MCA_COLL_RSAG_AUTO_SEGMENT_TOTAL ((size_t) 8 * 1024 * 1024)
#define MCA_COLL_RSAG_AUTO_SEGMENT_MIN ((size_t) 64 * 1024)
#define MCA_COLL_RSAG_AUTO_SEGMENT_MAX ((size_t) 1024 * 1024)
#define MCA_COLL_RSAG_MIN_SEGMENT_SIZE (2 * MCA_COLL_RSAG_CACHE_LINE)
#define MCA_COLL_RSAG_MAX_SEGMENT_SIZE ((size_t) 1 << 30)
/* Pulled and reduced at a time: small enough that a pulled chunk is still
 * in the cache when it is reduced, large enough to amortize the system
 * call (about 1 us). */
#define MCA_COLL_RSAG_DEFAULT_CHUNK_SIZE ((size_t) 128 * 1024)
/* coll_rsag_direct_cma_min_bytes's value when not set (then `auto` learns
 * the copy mode, coll_rsag_stream.h; set to this value: never CMA).  No
 * fixed threshold fits: on the 2-core VM the segment was faster at every
 * size one day (64 KB 8.7 vs 17.8 us, 1 MB 116-126 vs 176-196 us), CMA
 * 1.4-2.2x faster from 64 KB four days later. */
#define MCA_COLL_RSAG_DEFAULT_CMA_MIN_BYTES SIZE_MAX
/* Below which piece size the node path never streams what it writes for
 * other cores (coll_rsag_stream.h).  Direct allreduce at np 2 on the 2-core
 * VM, both ways interleaved in one job: from 16 KB streaming costs nothing
 * where the two vCPUs share a cache (64 KB: 12.7 vs 12.5 us) and wins where
 * they do not (64 KB: 10.1 vs 42.9 us); below it the call is a few us and
 * mostly waiting. */
#define MCA_COLL_RSAG_DEFAULT_STREAM_MIN_BYTES 16384
#define MCA_COLL_RSAG_NAME_LEN 64
/* The probe word of a rank: this pattern xor its pid. */
#define MCA_COLL_RSAG_PROBE_MAGIC 0x7273616700000000ULL
/* Per process, all of the segments it created together: room for a
 * container's default 64 MB /dev/shm to hold rsag's and vader's. */
#define MCA_COLL_RSAG_DEFAULT_MAX_BYTES ((size_t) 32 * 1024 * 1024)
/* A name of a dead creator older than this (seconds) is a leftover: a set-up
 * takes milliseconds. */
#define MCA_COLL_RSAG_STALE_SECONDS 60
/* Part of /dev/shm (per cent of its size) a new segment must leave free:
 * vader's files are sparse and take their pages as they are used. */
#define MCA_COLL_RSAG_DEFAULT_KEEP_FREE 25
/* Busy polls before a wait starts calling opal_progress, and how often a
 * wait on a node that is not oversubscribed yields the core anyway. */
#define MCA_COLL_RSAG_SPINS 64
#define MCA_COLL_RSAG_YIELD_MASK 0xffffu
/* Between busy polls: a poll that hammers the line delays the writer's
 * store to it (the line bounces); with a pause the 8-byte direct allreduce
 * at np 2 took 0.68-0.69 instead of 0.80-0.82 us (2-core VM, rsag-bench
 * median, spins 64 to 100000 alike). */
#if defined(__x86_64__) || defined(__i386__)
#define MCA_COLL_RSAG_CPU_RELAX() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define MCA_COLL_RSAG_CPU_RELAX() __asm__ __volatile__("yield" ::: "memory")
#else
#define MCA_COLL_RSAG_CPU_RELAX() do { } while (0)
#endif

/* One control line per rank, no more. */
_Static_assert(sizeof(mca_coll_rsag_ctl_t) <= MCA_COLL_RSAG_CACHE_LINE,
               "a control line must fit one cache line");
_Static_assert(sizeof(mca_coll_rsag_box_t) == MCA_COLL_RSAG_BOX_LINES * MCA_COLL_RSAG_CACHE_LINE,
               "a box is whole cache lines");
_Static_assert(sizeof(mca_coll_rsag_vote_t) == MCA_COLL_RSAG_CACHE_LINE,
               "a ballot is one cache line");
/* Lines per rank before the slots: its control line, its ballot and its
 * two boxes. */
#define MCA_COLL_RSAG_LINES_PER_RANK (2 + 2 * MCA_COLL_RSAG_BOX_LINES)

mca_coll_rsag_node_params_t mca_coll_rsag_node_params = {
    .segment_size = 0,      /* by communicator size */
    .single_copy = MCA_COLL_RSAG_SINGLE_COPY_AUTO,
    .chunk_size = MCA_COLL_RSAG_DEFAULT_CHUNK_SIZE,
    .cma_min_bytes = MCA_COLL_RSAG_DEFAULT_CMA_MIN_BYTES,
    .stream = MCA_COLL_RSAG_STREAM_AUTO,
    .stream_min_bytes = MCA_COLL_RSAG_DEFAULT_STREAM_MIN_BYTES,
    .max_bytes = MCA_COLL_RSAG_DEFAULT_MAX_BYTES,
    .keep_free_percent = MCA_COLL_RSAG_DEFAULT_KEEP_FREE,
    .test_fail = 0,
};

/* coll_rsag_direct_cma_min_bytes's index: is it set (a fixed threshold)
 * or not (coll_rsag_single_copy auto learns)? */
static int mca_coll_rsag_cma_min_index = -1;

/* Segments made by this process, for unique names. */
static uint32_t mca_coll_rsag_segments_made = 0;
/* Bytes of the segments this process created and still has (its share of
 * /dev/shm), against coll_rsag_segment_max_bytes. */
static size_t mca_coll_rsag_segment_bytes_held = 0;

/* The limits on rsag's shared memory: coll_rsag_segment_max_bytes and
 * coll_rsag_segment_keep_free_percent. */
static void mca_coll_rsag_segment_register_limits(const mca_base_component_t *c)
{
    (void) mca_base_component_var_register(
        c, "segment_max_bytes",
        "Bytes of shared memory (in /dev/shm) that the segments one process creates for the "
        "direct algorithms may take together (rank 0 of each single-node communicator creates "
        "its segment: p * (8448 B + the data slot), e.g. 2 MiB at p = 2, 8.1 MiB at p = 16, "
        "18.1 MiB at p = 256; and the segment of each persistent request direct serves, made "
        "by its *_init: p * (8448 B + up to twice its vector, at most the communicator's "
        "slot)). Per process, not per node: the node as a whole is guarded by "
        "coll_rsag_segment_keep_free_percent. A communicator or request whose segment would "
        "go over uses rsag's point-to-point algorithms instead (verbose trace). Default "
        "32 MiB",
        MCA_BASE_VAR_TYPE_SIZE_T, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_ALL_EQ,
        &mca_coll_rsag_node_params.max_bytes);

    (void) mca_base_component_var_register(
        c, "segment_keep_free_percent",
        "Per cent of the size of /dev/shm that must stay free after a new shared segment of "
        "the direct algorithms is made (vader's files and others' need their pages later); "
        "else that communicator uses rsag's point-to-point algorithms (verbose trace). 0: no "
        "such check, only the reservation of the segment's memory (posix_fallocate) decides. "
        "0 to 99, default 25",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_ALL_EQ,
        &mca_coll_rsag_node_params.keep_free_percent);
    if (mca_coll_rsag_node_params.keep_free_percent < 0
        || mca_coll_rsag_node_params.keep_free_percent > 99) {
        opal_output(0, "coll:rsag: coll_rsag_segment_keep_free_percent = %d is out of range "
                       "(valid: 0 to 99); using %d", mca_coll_rsag_node_params.keep_free_percent,
                    MCA_COLL_RSAG_DEFAULT_KEEP_FREE);
        mca_coll_rsag_node_params.keep_free_percent = MCA_COLL_RSAG_DEFAULT_KEEP_FREE;
    }
}

/* coll_rsag_direct_stream and coll_rsag_direct_stream_min_bytes. */
static void mca_coll_rsag_segment_register_stream(const mca_base_component_t *c)
{
    static const mca_base_var_enum_value_t streams[] = {
        { MCA_COLL_RSAG_STREAM_AUTO, "auto" },
        { MCA_COLL_RSAG_STREAM_ALWAYS, "always" },
        { MCA_COLL_RSAG_STREAM_NEVER, "never" },
        { 0, NULL }
    };
    mca_base_var_enum_t *e = NULL;

    if (OPAL_SUCCESS == mca_base_var_enum_create("coll_rsag_direct_stream_modes", streams,
                                                 &e)) {
        (void) mca_base_component_var_register(
            c, "direct_stream",
            "How the direct algorithms write what other ranks of the node read next (a "
            "rank's input or result, into the shared segment). A line just written stays "
            "modified in the writer's cache, and a core that shares no cache with the writer "
            "(another die or socket, or vCPUs the hypervisor moved) fetches it several times "
            "slower than from memory; non-temporal (streaming) stores send it to memory "
            "instead, which loses where the cores share a cache and the data fits it "
            "(doc/direct.md, Steady speed). auto: each rank times its calls both ways, per "
            "communicator and message size, keeps the faster and tries the other again every "
            "64 calls; always: streaming stores; never: memcpy. Pieces below "
            "coll_rsag_direct_stream_min_bytes always go by memcpy; only x86-64 has streaming "
            "stores. Each rank decides alone (ranks may differ; settable through MPI_T)",
            MCA_BASE_VAR_TYPE_INT, e, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_5,
            MCA_BASE_VAR_SCOPE_LOCAL, &mca_coll_rsag_node_params.stream);
        OBJ_RELEASE(e);
    }

    (void) mca_base_component_var_register(
        c, "direct_stream_min_bytes",
        "Pieces the direct algorithms write for other ranks that are smaller than this "
        "(bytes) always go by memcpy, whatever coll_rsag_direct_stream says. Default "
        MCA_COLL_RSAG_STRINGIFY(MCA_COLL_RSAG_DEFAULT_STREAM_MIN_BYTES),
        MCA_BASE_VAR_TYPE_SIZE_T, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_6,
        MCA_BASE_VAR_SCOPE_LOCAL,
        &mca_coll_rsag_node_params.stream_min_bytes);
}

void mca_coll_rsag_segment_register(const mca_base_component_t *c)
{
    static const mca_base_var_enum_value_t modes[] = {
        { MCA_COLL_RSAG_SINGLE_COPY_AUTO, "auto" },
        { MCA_COLL_RSAG_SINGLE_COPY_CMA, "cma" },
        { MCA_COLL_RSAG_SINGLE_COPY_NONE, "none" },
        { 0, NULL }
    };
    mca_base_var_enum_t *e = NULL;
    size_t asked;

    (void) mca_base_component_var_register(
        c, "segment_size",
        "Bytes of each rank's data slot in the shared segment the direct algorithms make "
        "per single-node communicator (lazily, on first use; the segment also holds 132 "
        "64-byte lines per rank: a control line, a ballot line and two boxes of 65 lines for "
        "vectors of up to 4152 bytes, 1080 from 3 ranks). Larger vectors go through the slots "
        "in windows of half of it. 0 (default): 8 MiB / p, at least 64 KiB, at most 1 MiB. "
        "Otherwise rounded "
        "up to a multiple of 128, at least 128, at most 1 GiB",
        MCA_BASE_VAR_TYPE_SIZE_T, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_ALL_EQ,
        &mca_coll_rsag_node_params.segment_size);
    asked = mca_coll_rsag_node_params.segment_size;
    if (0 == asked) {
        /* by communicator size: mca_coll_rsag_slot_bytes */
    } else if (asked < MCA_COLL_RSAG_MIN_SEGMENT_SIZE || asked > MCA_COLL_RSAG_MAX_SEGMENT_SIZE) {
        mca_coll_rsag_node_params.segment_size = asked < MCA_COLL_RSAG_MIN_SEGMENT_SIZE
                                                     ? MCA_COLL_RSAG_MIN_SEGMENT_SIZE
                                                     : MCA_COLL_RSAG_MAX_SEGMENT_SIZE;
        mca_coll_rsag_warn_setting("coll_rsag_segment_size = %zu is out of range (valid: %zu "
                                   "to %zu bytes); using %zu", asked,
                                   MCA_COLL_RSAG_MIN_SEGMENT_SIZE, MCA_COLL_RSAG_MAX_SEGMENT_SIZE,
                                   mca_coll_rsag_node_params.segment_size);
    }
    mca_coll_rsag_node_params.segment_size =
        (mca_coll_rsag_node_params.segment_size + MCA_COLL_RSAG_MIN_SEGMENT_SIZE - 1)
        & ~(MCA_COLL_RSAG_MIN_SEGMENT_SIZE - 1);

    if (OPAL_SUCCESS == mca_base_var_enum_create("coll_rsag_single_copy_modes", modes, &e)) {
        (void) mca_base_component_var_register(
            c, "single_copy",
            "How the direct algorithms move vectors between the ranks of a node: copies "
            "through the shared segment, or single-copy pulls of peers' buffers with Linux CMA "
            "(process_vm_readv). auto: when a test read at set-up works, from 16 KB each "
            "collective and message size takes whichever of the two its blocking calls "
            "measure faster, the ranks voting (doc/direct.md, The copy mode, learned), or CMA "
            "from coll_rsag_direct_cma_min_bytes when that is set; the segment otherwise; cma: "
            "CMA for every size when it works (else the segment); none: always through the "
            "segment (no test read)",
            MCA_BASE_VAR_TYPE_INT, e, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_ALL_EQ,
            &mca_coll_rsag_node_params.single_copy);
        OBJ_RELEASE(e);
    }

    (void) mca_base_component_var_register(
        c, "direct_chunk_size",
        "Bytes the direct algorithms pull from a peer with CMA and reduce at a time (cache "
        "blocking: each pulled chunk is reduced while it is in the cache); at least 4096",
        MCA_BASE_VAR_TYPE_SIZE_T, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_ALL_EQ,
        &mca_coll_rsag_node_params.chunk_size);
    if (mca_coll_rsag_node_params.chunk_size < 4096
        || mca_coll_rsag_node_params.chunk_size > MCA_COLL_RSAG_MAX_SEGMENT_SIZE) {
        mca_coll_rsag_warn_setting("coll_rsag_direct_chunk_size = %zu is out of range (valid: "
                                   "4096 to %zu); using %zu", mca_coll_rsag_node_params.chunk_size,
                    MCA_COLL_RSAG_MAX_SEGMENT_SIZE, MCA_COLL_RSAG_DEFAULT_CHUNK_SIZE);
        mca_coll_rsag_node_params.chunk_size = MCA_COLL_RSAG_DEFAULT_CHUNK_SIZE;
    }

    mca_coll_rsag_cma_min_index = mca_base_component_var_register(
        c, "direct_cma_min_bytes",
        "With coll_rsag_single_copy auto: when set, the message size (bytes) from which the "
        "direct algorithms pull peers' buffers with CMA instead of copying through the shared "
        "segment (the largest size_t: never). Not set (the default): from 16 KB each message "
        "size class takes whichever of the two its calls measure faster, the ranks agreeing "
        "(on the machine rsag was measured on, CMA was 1.4-2.2x faster from 64 KB on one day "
        "and 1.7-2.4x slower on another)",
        MCA_BASE_VAR_TYPE_SIZE_T, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_ALL_EQ,
        &mca_coll_rsag_node_params.cma_min_bytes);

    mca_coll_rsag_segment_register_stream(c);
    mca_coll_rsag_segment_register_limits(c);

    (void) mca_base_component_var_register(
        c, "test_node_fail",
        "TEST ONLY: make the node path's set-up fail on one rank of every communicator it "
        "is made for: r + 1 (r >= 0): rank r's mapping of the shared segment fails as if mmap "
        "had (ENOMEM); -(r + 1): rank r's CMA test read is refused as if the kernel had "
        "(EPERM). 0 (default): no injected failure",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_LOCAL,
        &mca_coll_rsag_node_params.test_fail);
}

/* A peer killed in the set-up leaves rank 0 waiting in (2) with the name in
 * /dev/shm until the launcher kills it too: the name is registered with the
 * job's PMIx server, which removes it when the job ends, however it ends (as
 * it removes the BTL's segments).  Best effort: without a server the name is
 * only unlinked by rank 0. */
static void mca_coll_rsag_segment_cleanup_at_job_end(const char *name)
{
    char path[MCA_COLL_RSAG_NAME_LEN + 16];

    snprintf(path, sizeof(path), "/dev/shm%s", name);
#if !defined(MCA_COLL_RSAG_HAVE_PMIX_CLEANUP)
    (void) path;            /* headers without the call: rank 0's unlink only */
#elif OMPI_MAJOR_VERSION >= 5
    (void) opal_pmix_register_cleanup(path, false, false, false);
#else
    if (NULL != opal_pmix.register_cleanup) {
        (void) opal_pmix.register_cleanup(path, false, false, false);
    }
#endif
}

bool mca_coll_rsag_comm_single_node(struct ompi_communicator_t *comm)
{
    return !ompi_group_have_remote_peers(comm->c_local_group);
}

/* Wait until *word reaches t. */
static void mca_coll_rsag_wait_word(const uint64_t *word, uint64_t t)
{
    for (uint32_t spins = 0; __atomic_load_n(word, __ATOMIC_ACQUIRE) < t; ++spins) {
        if (spins < MCA_COLL_RSAG_SPINS) {
            MCA_COLL_RSAG_CPU_RELAX();
            continue;
        }
        /* Other communicators' requests may need progress.  When the node
         * is oversubscribed Open MPI makes an idle opal_progress yield the
         * core, so the peer we wait for can run; otherwise yielding would
         * put this rank behind every other runnable process for a time
         * slice, so it yields only once in a long while, in case other
         * jobs keep the peer from running. */
        opal_progress();
        if (!opal_progress_yield_when_idle && 0 == (spins & MCA_COLL_RSAG_YIELD_MASK)) {
            sched_yield();
        }
    }
}

/* Rank q's line was just read at tick t: note how far rank q is done (it
 * published done of the step before this one's arrive); the line is in my
 * cache now. */
static void mca_coll_rsag_note_done(const mca_coll_rsag_segment_t *seg, int q)
{
    uint64_t done = __atomic_load_n(&seg->ctl[q].done, __ATOMIC_ACQUIRE);

    if (done > seg->seen_done[q]) {
        seg->seen_done[q] = done;
    }
}

static const uint64_t *mca_coll_rsag_field(const mca_coll_rsag_segment_t *seg, int q,
                                           size_t field)
{
    return (const uint64_t *) ((const char *) &seg->ctl[q] + field);
}

void mca_coll_rsag_wait_one(const mca_coll_rsag_segment_t *seg, int q, size_t field,
                            uint64_t t)
{
    /* A done of rank q seen before (counters only grow) answers without
     * touching its line, which rank q wrote since: a cache miss less. */
    if (MCA_COLL_RSAG_CTL(done) == field && seg->seen_done[q] >= t) {
        return;
    }
    mca_coll_rsag_wait_word(mca_coll_rsag_field(seg, q, field), t);
    mca_coll_rsag_note_done(seg, q);
}

bool mca_coll_rsag_test_one(const mca_coll_rsag_segment_t *seg, int q, size_t field,
                            uint64_t t)
{
    if (MCA_COLL_RSAG_CTL(done) == field && seg->seen_done[q] >= t) {
        return true;
    }
    if (__atomic_load_n(mca_coll_rsag_field(seg, q, field), __ATOMIC_ACQUIRE) < t) {
        return false;
    }
    mca_coll_rsag_note_done(seg, q);
    return true;
}

void mca_coll_rsag_wait_all(const mca_coll_rsag_segment_t *seg, size_t field, uint64_t t)
{
    for (int q = 0; q < seg->size; ++q) {
        mca_coll_rsag_wait_one(seg, q, field, t);
    }
}

/* A box stamped t says its rank's done >= t - 1. */
static void mca_coll_rsag_note_box(const mca_coll_rsag_segment_t *seg, int q, uint64_t t)
{
    if (t - 1 > seg->seen_done[q]) {
        seg->seen_done[q] = t - 1;
    }
}

void mca_coll_rsag_wait_box(const mca_coll_rsag_segment_t *seg, int q, int h, uint64_t t)
{
    mca_coll_rsag_wait_word(&mca_coll_rsag_box(seg, q, h)->tick, t);
    mca_coll_rsag_note_box(seg, q, t);
}

bool mca_coll_rsag_test_box(const mca_coll_rsag_segment_t *seg, int q, int h, uint64_t t)
{
    if (__atomic_load_n(&mca_coll_rsag_box(seg, q, h)->tick, __ATOMIC_ACQUIRE) < t) {
        return false;
    }
    mca_coll_rsag_note_box(seg, q, t);
    return true;
}

void mca_coll_rsag_wait_finished(const mca_coll_rsag_segment_t *seg, uint64_t t)
{
    mca_coll_rsag_wait_word(&seg->finished, t);
}

size_t mca_coll_rsag_slot_bytes(int p)
{
    size_t s = mca_coll_rsag_node_params.segment_size;

    if (0 == s) {
        s = MCA_COLL_RSAG_AUTO_SEGMENT_TOTAL / (size_t) p;
        s = s < MCA_COLL_RSAG_AUTO_SEGMENT_MIN ? MCA_COLL_RSAG_AUTO_SEGMENT_MIN
            : s > MCA_COLL_RSAG_AUTO_SEGMENT_MAX ? MCA_COLL_RSAG_AUTO_SEGMENT_MAX : s;
        s &= ~(MCA_COLL_RSAG_MIN_SEGMENT_SIZE - 1);
    }
    return s;
}

/* The length of a segment of p ranks with data slots of slot_bytes. */
static size_t mca_coll_rsag_segment_bytes(int p, size_t slot_bytes)
{
    return (size_t) p * (MCA_COLL_RSAG_LINES_PER_RANK * MCA_COLL_RSAG_CACHE_LINE + slot_bytes);
}

static char *mca_coll_rsag_map(int fd, size_t bytes)
{
    void *base = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return MAP_FAILED == base ? NULL : (char *) base;
}

/* Rank 0 to every other rank: `n` ints, or one name. */
static int mca_coll_rsag_setup_bcast(void *buf, size_t n, struct ompi_datatype_t *dtype,
                                     struct ompi_communicator_t *comm, int tag)
{
    int err = OMPI_SUCCESS;

    if (0 != ompi_comm_rank(comm)) {
        return mca_coll_rsag_recv(buf, n, dtype, 0, tag, comm);
    }
    for (int q = 1; q < ompi_comm_size(comm); ++q) {
        int e = mca_coll_rsag_send(buf, n, dtype, q, tag, comm);
        err = OMPI_SUCCESS == err ? e : err;
    }
    return err;
}

/* Every rank's ok to rank 0; rank 0 gets the conjunction (and its own),
 * and the rank of the first one that failed in *who. */
static int mca_coll_rsag_setup_gather(int *ok, int *who, struct ompi_communicator_t *comm,
                                      int tag)
{
    int err = OMPI_SUCCESS;

    *who = *ok ? -1 : 0;
    if (0 != ompi_comm_rank(comm)) {
        return mca_coll_rsag_send(ok, 1, &ompi_mpi_int.dt, 0, tag, comm);
    }
    for (int q = 1; q < ompi_comm_size(comm); ++q) {
        int theirs = 0;
        int e = mca_coll_rsag_recv(&theirs, 1, &ompi_mpi_int.dt, q, tag, comm);

        err = OMPI_SUCCESS == err ? e : err;
        if ((OMPI_SUCCESS != e || !theirs) && *ok) {
            *ok = 0;
            *who = q;
        }
    }
    return err;
}

/* Take `bytes` from this process's allowance (coll_rsag_segment_max_bytes);
 * false, and nothing taken, when it would go over. */
static bool mca_coll_rsag_charge(size_t bytes)
{
    size_t held = __atomic_load_n(&mca_coll_rsag_segment_bytes_held, __ATOMIC_RELAXED);

    do {
        if (bytes > mca_coll_rsag_node_params.max_bytes
            || held > mca_coll_rsag_node_params.max_bytes - bytes) {
            return false;
        }
    } while (!__atomic_compare_exchange_n(&mca_coll_rsag_segment_bytes_held, &held,
                                          held + bytes, false, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    return true;
}

static void mca_coll_rsag_uncharge(size_t bytes)
{
    (void) __atomic_fetch_sub(&mca_coll_rsag_segment_bytes_held, bytes, __ATOMIC_RELAXED);
}

/* Does the file system of `fd` (the tmpfs behind shm_open) keep
 * coll_rsag_segment_keep_free_percent of its size free once `bytes` more
 * are taken?  Else the reason in why. */
static bool mca_coll_rsag_room(int fd, size_t bytes, char *why, size_t why_len)
{
    int keep = mca_coll_rsag_node_params.keep_free_percent;
    struct statvfs st;
    size_t total, avail, kept;

    if (keep <= 0 || 0 != fstatvfs(fd, &st)) {
        return true;        /* no check asked, or none possible: posix_fallocate decides */
    }
    total = (size_t) st.f_blocks * (size_t) st.f_frsize;
    avail = (size_t) st.f_bavail * (size_t) st.f_frsize;
    kept = total / 100 * (size_t) keep + total % 100 * (size_t) keep / 100;
    if (avail >= bytes && avail - bytes >= kept) {
        return true;
    }
    snprintf(why, why_len, "shared segment of %zu bytes not made: /dev/shm has %zu of %zu "
                           "bytes free and must keep %zu free (coll_rsag_segment_keep_free_"
                           "percent %d)", bytes, avail, total, kept, keep);
    return false;
}

/* Remove the names rsag left in /dev/shm (once per process, before its
 * first segment).  A name lives only during its communicator's set-up, but
 * a job killed in the middle of one (a rank dead before it answered) leaves
 * it, with its reserved memory.  A leftover is a name of ours
 * (rsag-<job>-<cid>-<pid>-<n>, owned by this user) whose creator <pid> no
 * longer exists and that is older than a set-up can be (a creator in
 * another pid namespace sharing /dev/shm looks dead: the age protects its
 * set-up in progress). */
static void mca_coll_rsag_segment_sweep(void)
{
    static int swept = 0;
    time_t now = time(NULL);
    struct dirent *e;
    int removed = 0;
    DIR *d;

    if (0 != __atomic_exchange_n(&swept, 1, __ATOMIC_RELAXED)
        || NULL == (d = opendir("/dev/shm"))) {
        return;
    }
    while (NULL != (e = readdir(d))) {
        char name[sizeof(e->d_name) + 16];
        unsigned job, n;
        int cid, pid;
        struct stat st;

        if (4 != sscanf(e->d_name, "rsag-%u-%d-%d-%u", &job, &cid, &pid, &n) || pid <= 0
            || (0 == kill((pid_t) pid, 0) || ESRCH != errno)) {
            continue;   /* not ours, or its creator runs (or belongs to another user) */
        }
        snprintf(name, sizeof(name), "/dev/shm/%s", e->d_name);
        if (0 != stat(name, &st) || st.st_uid != geteuid()
            || now - st.st_mtime < MCA_COLL_RSAG_STALE_SECONDS) {
            continue;
        }
        removed += (0 == shm_unlink(name + strlen("/dev/shm")));
    }
    closedir(d);
    if (removed > 0 && mca_coll_rsag_component.verbose >= MCA_COLL_RSAG_VERBOSE_DECISIONS) {
        opal_output(mca_coll_rsag_component.output, "coll:rsag: removed %d shared segment "
                    "name(s) left in /dev/shm by processes that are gone", removed);
    }
}

/* Rank 0: create the segment under `name`, with its memory reserved (a
 * file that is only ftruncate'd has no pages: on a full tmpfs the first
 * touch of a page raises SIGBUS).  The descriptor, or -1 with the reason
 * in why; *created when the name exists (to unlink). */
static int mca_coll_rsag_segment_make(const char *name, size_t bytes, bool *created,
                                      char *why, size_t why_len)
{
    int fd, rc;

    mca_coll_rsag_segment_sweep();
    if (!mca_coll_rsag_charge(bytes)) {
        snprintf(why, why_len, "shared segment of %zu bytes not made: this process's segments "
                               "would take %zu bytes, above coll_rsag_segment_max_bytes %zu",
                 bytes, __atomic_load_n(&mca_coll_rsag_segment_bytes_held, __ATOMIC_RELAXED)
                            + bytes, mca_coll_rsag_node_params.max_bytes);
        return -1;
    }
    fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) {
        snprintf(why, why_len, "shared segment of %zu bytes not made: shm_open: %s", bytes,
                 strerror(errno));
        goto cleanup;
    }
    *created = true;
    mca_coll_rsag_segment_cleanup_at_job_end(name);
    if (!mca_coll_rsag_room(fd, bytes, why, why_len)) {
        goto cleanup;
    }
    /* posix_fallocate returns the error (errno is not set) */
    while (EINTR == (rc = posix_fallocate(fd, 0, (off_t) bytes))) {
    }
    if (0 != rc) {
        snprintf(why, why_len, "shared segment of %zu bytes not made: posix_fallocate: %s",
                 bytes, strerror(rc));
        goto cleanup;
    }
    return fd;

cleanup:
    if (fd >= 0) {
        close(fd);
        shm_unlink(name);
        *created = false;
    }
    mca_coll_rsag_uncharge(bytes);
    return -1;
}

/* Every rank with a descriptor: map it and join (pid and probe address in
 * my control line).  The mapping, or NULL with the reason in why. */
static char *mca_coll_rsag_segment_join(mca_coll_rsag_segment_t *seg, int fd, size_t bytes,
                                        int rank, char *why, size_t why_len)
{
    char *base = mca_coll_rsag_map(fd, bytes);
    mca_coll_rsag_ctl_t *mine;

    if (NULL != base && mca_coll_rsag_node_params.test_fail == rank + 1) {
        munmap(base, bytes);        /* injected: as if mmap had failed */
        base = NULL;
        errno = ENOMEM;
    }
    if (NULL == base) {
        snprintf(why, why_len, "shared segment of %zu bytes not made: mmap: %s", bytes,
                 strerror(errno));
        return NULL;
    }
    mine = (mca_coll_rsag_ctl_t *) base + rank;
    seg->probe_word = MCA_COLL_RSAG_PROBE_MAGIC ^ (uint64_t) getpid();
    mine->pid = (int32_t) getpid();
    mine->probe = (uint64_t) (uintptr_t) &seg->probe_word;
    __atomic_store_n(&mine->joined, (uint16_t) 1, __ATOMIC_RELEASE);
    return base;
}

/* The set-up's messages (the same on every rank whatever failed): the
 * name from rank 0 (empty when it could not make the segment), every
 * rank's outcome to rank 0, which then unlinks the name, and the verdict
 * from rank 0.  Returns the mapping when every rank has it, else NULL
 * (unmapped) with the reason in why. */
static char *mca_coll_rsag_segment_exchange(mca_coll_rsag_segment_t *seg, bool can,
                                            struct ompi_communicator_t *comm, int tag,
                                            size_t bytes, char *why, size_t why_len)
{
    int rank = ompi_comm_rank(comm), fd = -1, who = -1, verdict[2] = { 0, 0 };
    char name[MCA_COLL_RSAG_NAME_LEN];
    bool created = false, charged = false;
    char *base = NULL;

    memset(name, 0, sizeof(name));
    if (0 == rank && can) {
        snprintf(name, sizeof(name), "/rsag-%u-%d-%d-%u",
                 (unsigned) OPAL_PROC_MY_NAME.jobid, MCA_COLL_RSAG_COMM_CID(comm), (int) getpid(),
                 __atomic_fetch_add(&mca_coll_rsag_segments_made, 1u, __ATOMIC_RELAXED));
        fd = mca_coll_rsag_segment_make(name, bytes, &created, why, why_len);
        charged = (fd >= 0);
        if (fd < 0) {
            name[0] = '\0';         /* (1) carries "no segment" */
        }
    }
    /* (1) the name; empty when rank 0 could not make the segment */
    if (OMPI_SUCCESS != mca_coll_rsag_setup_bcast(name, sizeof(name), &ompi_mpi_char.dt, comm,
                                                  tag)) {
        name[0] = '\0';
    }
    name[sizeof(name) - 1] = '\0';
    if (0 != rank && can && '\0' != name[0]) {
        struct stat st = { 0 };

        fd = shm_open(name, O_RDWR, 0600);
        if (fd < 0) {
            snprintf(why, why_len, "shared segment of %zu bytes not made: shm_open: %s", bytes,
                     strerror(errno));
        } else if (0 != fstat(fd, &st) || (size_t) st.st_size != bytes) {
            /* every rank computes the length; one that got another (out of
             * memory while planning a request's own segment) must not map
             * past the end of the file (SIGBUS) */
            snprintf(why, why_len, "shared segment of %zu bytes not made: rank 0 made %lld",
                     bytes, (long long) st.st_size);
            close(fd);
            fd = -1;
        }
    }
    if (fd >= 0) {
        base = mca_coll_rsag_segment_join(seg, fd, bytes, rank, why, why_len);
        close(fd);
    }
    /* (2) who mapped it; rank 0 removes the name at once */
    verdict[0] = (NULL != base);
    (void) mca_coll_rsag_setup_gather(&verdict[0], &who, comm, tag);
    if (created) {
        shm_unlink(name);
    }
    verdict[1] = who;
    if (OMPI_SUCCESS != mca_coll_rsag_setup_bcast(verdict, 2, &ompi_mpi_int.dt, comm, tag)) {
        verdict[0] = 0;
    }
    if (!verdict[0]) {
        if (NULL != base) {     /* mine worked: say whose did not */
            snprintf(why, why_len, "shared segment of %zu bytes not made (rank %d failed)",
                     bytes, verdict[1]);
        } else if (0 != rank && can && '\0' == name[0]) {
            snprintf(why, why_len, "shared segment of %zu bytes not made (rank 0 failed)",
                     bytes);
        }
        if (NULL != base) {
            munmap(base, bytes);
        }
        if (charged) {
            mca_coll_rsag_uncharge(bytes);
        }
        return NULL;
    }
    seg->charged = charged ? bytes : 0;
    return base;
}

/* Wait until rank q's control line says `joined`: written before rank q's
 * answer in (2), so at once; a few polls, then yield the core. */
static void mca_coll_rsag_wait_joined(const mca_coll_rsag_segment_t *seg, int q)
{
    for (uint32_t spins = 0; 0 == __atomic_load_n(&seg->ctl[q].joined, __ATOMIC_ACQUIRE);
         ++spins) {
        if (spins < MCA_COLL_RSAG_SPINS) {
            MCA_COLL_RSAG_CPU_RELAX();
        } else {
            sched_yield();
        }
    }
}

/* Is coll_rsag_direct_cma_min_bytes set (anywhere but its default)? */
static bool mca_coll_rsag_cma_min_set(void)
{
    mca_base_var_source_t source = MCA_BASE_VAR_SOURCE_DEFAULT;

    if (mca_coll_rsag_cma_min_index >= 0) {
        (void) mca_base_var_get_value(mca_coll_rsag_cma_min_index, NULL, &source, NULL);
    }
    return MCA_BASE_VAR_SOURCE_DEFAULT != source;
}

/* The default way (coll_rsag_single_copy auto, no threshold set) on an
 * oversubscribed node: through the segment, nothing learned.  There each
 * CMA read is a system call per peer that may meet a peer that is not
 * running: forced, CMA took 1.2-4x the segment's time at every size from
 * 16 KB to 1 MB at np 4, 8 and 16 on 2 cores, and the learner's trials of
 * it alone made MPI_Reduce 1.3x slower than the segment at np 16
 * (contrib/results/2026-11-27-oversubscribed). */
static bool mca_coll_rsag_segment_only_oversubscribed(void)
{
    return MCA_COLL_RSAG_SINGLE_COPY_AUTO == mca_coll_rsag_node_params.single_copy
           && !mca_coll_rsag_cma_min_set() && mca_coll_rsag_node_oversubscribed();
}

/* May anything use CMA on this communicator?  coll_rsag_single_copy cma;
 * auto, learning (coll_rsag_direct_cma_min_bytes not set; not on an
 * oversubscribed node) or with a threshold other than never. */
static bool mca_coll_rsag_cma_wanted(void)
{
    return MCA_COLL_RSAG_SINGLE_COPY_CMA == mca_coll_rsag_node_params.single_copy
           || (MCA_COLL_RSAG_SINGLE_COPY_AUTO == mca_coll_rsag_node_params.single_copy
               && !mca_coll_rsag_segment_only_oversubscribed()
               && (!mca_coll_rsag_cma_min_set()
                   || SIZE_MAX != mca_coll_rsag_node_params.cma_min_bytes));
}

bool mca_coll_rsag_segment_vote(mca_coll_rsag_segment_t *seg, mca_coll_rsag_copy_learner_t *l,
                                size_t bytes, double agreed[2])
{
    uint64_t e = ++seg->vote;
    mca_coll_rsag_vote_t *mine = &seg->votes[seg->rank];
    int h = (int) (e & 1);

    for (int w = 0; w < 2; ++w) {
        mine->cost[h][w] = mca_coll_rsag_copy_cost(l, bytes, w);
        agreed[w] = 0;
    }
    __atomic_store_n(&mine->seq, e, __ATOMIC_RELEASE);
    for (int q = 0; q < seg->size; ++q) {
        const mca_coll_rsag_vote_t *v = &seg->votes[q];

        mca_coll_rsag_wait_word(&v->seq, e);
        for (int w = 0; w < 2; ++w) {
            agreed[w] = v->cost[h][w] > agreed[w] ? v->cost[h][w] : agreed[w];
        }
    }
    return mca_coll_rsag_copy_settle(l, bytes, agreed);
}

/* (3) can we read a peer's memory?  Each rank test-reads its right
 * neighbour and posts the outcome in its control line (every rank has
 * mapped the segment, so every rank posts); each reads all outcomes: CMA
 * only if every test worked, the same answer everywhere.  Sets the mode
 * and says in why which path the calls will take. */
static void mca_coll_rsag_segment_probe(mca_coll_rsag_segment_t *seg, char *why, size_t why_len)
{
    int p = seg->size, rank = seg->rank, right = (rank + 1) % p, refused = -1, probe_err;
    size_t min = mca_coll_rsag_node_params.cma_min_bytes;

    probe_err = mca_coll_rsag_cma_probe(seg->pids[right], seg->ctl[right].probe,
                                        MCA_COLL_RSAG_PROBE_MAGIC ^ (uint64_t) seg->pids[right]);
    if (mca_coll_rsag_node_params.test_fail == -(rank + 1)) {
        probe_err = EPERM;              /* injected: as if the kernel had refused */
    }
    __atomic_store_n(&seg->ctl[rank].probed, (uint16_t) (0 == probe_err ? 1 : 2),
                     __ATOMIC_RELEASE);
    for (int q = 0; q < p; ++q) {
        uint16_t v;
        for (uint32_t spins = 0;
             0 == (v = __atomic_load_n(&seg->ctl[q].probed, __ATOMIC_ACQUIRE)); ++spins) {
            if (spins < MCA_COLL_RSAG_SPINS) {
                MCA_COLL_RSAG_CPU_RELAX();
            } else {
                opal_progress();
                sched_yield();
            }
        }
        if (2 == v && refused < 0) {
            refused = q;
        }
    }
    if (refused >= 0 && 0 != probe_err) {
        snprintf(why, why_len, "shared segment %zu bytes; CMA refused (process_vm_readv: %s): "
                               "copies through the segment", seg->bytes, strerror(probe_err));
    } else if (refused >= 0) {
        snprintf(why, why_len, "shared segment %zu bytes; CMA refused on rank %d: copies "
                               "through the segment", seg->bytes, refused);
    } else if (MCA_COLL_RSAG_SINGLE_COPY_CMA == mca_coll_rsag_node_params.single_copy) {
        seg->mode = MCA_COLL_RSAG_COPY_CMA;
        snprintf(why, why_len, "shared segment %zu bytes, single copy by CMA (test read of a "
                               "peer worked on every rank)", seg->bytes);
    } else if (!mca_coll_rsag_cma_min_set()) {
        seg->mode = MCA_COLL_RSAG_COPY_CMA;
        seg->learn_copy = true;
        snprintf(why, why_len, "shared segment %zu bytes, copies through the segment below "
                               "%zu bytes, from there each size the faster of the segment and "
                               "single copy by CMA, as measured (test read of a peer worked on "
                               "every rank)", seg->bytes, MCA_COLL_RSAG_COPY_LEARN_MIN_BYTES);
    } else {
        seg->mode = MCA_COLL_RSAG_COPY_CMA;
        snprintf(why, why_len, "shared segment %zu bytes, copies through the segment below "
                               "%zu bytes, single copy by CMA from %zu bytes (test read of a "
                               "peer worked on every rank)", seg->bytes, min, min);
    }
}

/* Make and map a segment of comm's ranks with data slots of slot_bytes
 * (collectively, the set-up's messages with `tag`), its parts laid out,
 * every rank joined (pids known), copying through the slots.  NULL when
 * any rank failed (on every rank), with the reason in why. */
static mca_coll_rsag_segment_t *mca_coll_rsag_segment_map_new(struct ompi_communicator_t *comm,
                                                              int tag, size_t slot_bytes,
                                                              char *why, size_t why_len)
{
    int p = ompi_comm_size(comm), rank = ompi_comm_rank(comm);
    size_t bytes = mca_coll_rsag_segment_bytes(p, slot_bytes);
    mca_coll_rsag_segment_t *seg = calloc(1, sizeof(*seg));
    pid_t *pids = calloc((size_t) p, sizeof(pid_t));
    uint64_t *seen_done = calloc((size_t) p, sizeof(uint64_t));
    bool can = (NULL != seg && NULL != pids && NULL != seen_done);
    char *base;

    /* Out of memory here: still every message of the set-up (rank 0 sends
     * no name; the others answer "failed"), so that nobody waits. */
    snprintf(why, why_len, "shared segment of %zu bytes not made: %s", bytes,
             strerror(ENOMEM));
    base = mca_coll_rsag_segment_exchange(seg, can, comm, tag, bytes, why, why_len);
    if (NULL == base) {
        goto cleanup;
    }
    seg->base = base;
    seg->bytes = bytes;
    seg->size = p;
    seg->rank = rank;
    seg->ctl = (mca_coll_rsag_ctl_t *) base;
    seg->votes = (mca_coll_rsag_vote_t *) (base + (size_t) p * MCA_COLL_RSAG_CACHE_LINE);
    seg->boxes = (mca_coll_rsag_box_t *) (base + (size_t) 2 * p * MCA_COLL_RSAG_CACHE_LINE);
    seg->slots = base + (size_t) p * MCA_COLL_RSAG_LINES_PER_RANK * MCA_COLL_RSAG_CACHE_LINE;
    seg->slot_bytes = slot_bytes;
    seg->mode = MCA_COLL_RSAG_COPY_SEGMENT;
    seg->tick = 0;
    seg->finished = 0;
    seg->pids = pids;
    seg->seen_done = seen_done;
    seg->readers[0] = seg->readers[1] = -1;
    for (int q = 0; q < p; ++q) {
        mca_coll_rsag_wait_joined(seg, q);
        pids[q] = (pid_t) seg->ctl[q].pid;
    }
    return seg;

cleanup:
    free(seen_done);
    free(pids);
    free(seg);
    return NULL;
}

mca_coll_rsag_segment_t *mca_coll_rsag_segment_create(struct ompi_communicator_t *comm,
                                                      int tag, char *why, size_t why_len)
{
    size_t slot_bytes = mca_coll_rsag_slot_bytes(ompi_comm_size(comm));
    mca_coll_rsag_segment_t *seg = mca_coll_rsag_segment_map_new(comm, tag, slot_bytes, why,
                                                                 why_len);
    size_t bytes;

    if (NULL == seg) {
        return NULL;
    }
    bytes = seg->bytes;
    if (mca_coll_rsag_cma_wanted()) {
        mca_coll_rsag_segment_probe(seg, why, why_len);
    } else if (MCA_COLL_RSAG_SINGLE_COPY_NONE == mca_coll_rsag_node_params.single_copy) {
        snprintf(why, why_len, "shared segment %zu bytes, copies through the segment "
                               "(coll_rsag_single_copy none)", bytes);
    } else if (mca_coll_rsag_segment_only_oversubscribed()) {
        snprintf(why, why_len, "shared segment %zu bytes, copies through the segment (an "
                               "oversubscribed node: no CMA, no test read, unless "
                               "coll_rsag_single_copy cma or coll_rsag_direct_cma_min_bytes "
                               "says so)", bytes);
    } else {
        snprintf(why, why_len, "shared segment %zu bytes, copies through the segment "
                               "(coll_rsag_single_copy auto, coll_rsag_direct_cma_min_bytes "
                               "set to never: no CMA, no test read)", bytes);
    }
    return seg;
}

mca_coll_rsag_segment_t *mca_coll_rsag_segment_create_own(const mca_coll_rsag_segment_t *node,
                                                          struct ompi_communicator_t *comm,
                                                          int tag, size_t slot_bytes,
                                                          char *why, size_t why_len)
{
    mca_coll_rsag_segment_t *seg = mca_coll_rsag_segment_map_new(comm, tag, slot_bytes, why,
                                                                 why_len);

    if (NULL == seg) {
        return NULL;
    }
    /* what the node's segment found and learned of the copy mode, the
     * same on every rank (its set-up and votes were collective, and this
     * call is ordered like them; the request's starts are not, so they
     * keep this); nothing is learned here: a request's time includes the
     * program's */
    seg->mode = node->mode;
    seg->learn_copy = node->learn_copy;
    memcpy(seg->copy, node->copy, sizeof(seg->copy));
    /* how this rank writes for its peers is its own choice, nothing to
     * agree on: the request follows what the blocking calls learn */
    seg->node = node;
    seg->traced_fanin = node->traced_fanin;
    snprintf(why, why_len, "its own shared segment, %zu bytes (%zu-byte data slots)",
             seg->bytes, slot_bytes);
    return seg;
}

void mca_coll_rsag_segment_destroy(mca_coll_rsag_segment_t *seg)
{
    if (NULL == seg) {
        return;
    }
    if (NULL != seg->base) {
        munmap(seg->base, seg->bytes);
    }
    if (seg->charged > 0) {
        mca_coll_rsag_uncharge(seg->charged);
    }
    free(seg->seen_done);
    free(seg->pids);
    free(seg);
}
