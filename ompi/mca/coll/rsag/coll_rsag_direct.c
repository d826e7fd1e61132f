/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The node path's building block; see coll_rsag_direct.h.
 *
 * Synchronization, through each rank's control line (single writer,
 * release stores, acquire loads; tick t is this call's step, or window):
 *
 *   arrive = t   my input of step t is readable (copied into my slot, or
 *                its address published for CMA)
 *   ready  = t   my block of step t is reduced and readable
 *   done   = t   I read nothing of step t any more
 *
 * A vector of up to mca_coll_rsag_box_max(p) bytes goes whole through box t % 2
 * instead: the box's stamp = t stands for arrive (and says done >= t - 1).
 *
 * Before writing slot half (or box) t % 2 a rank waits until whoever read
 * it at step t - 2 (the last step that used it) is done with that step:
 * every rank, or only the root of a whole-vector reduce (seg->readers).  A CMA step reads
 * user buffers, so it ends with every rank waiting for everyone's done:
 * no rank returns while a peer may still read its buffers.  A segment
 * step only reads the segment, so it ends without waiting.
 *
 * A call is a resumable machine (mca_coll_rsag_direct_t): its ticks are
 * taken when it starts (in call order, the same on every rank), a tick
 * begins only once this rank finished the tick before it (an earlier
 * call's request may still be in flight), and each wait point either
 * waits (blocking calls: the same spin as ever) or asks once and returns
 * MCA_COLL_RSAG_POLL_AGAIN (nonblocking and persistent calls, polled by
 * the progress engine), resuming at the same point on the next poll.
 */
#include "ompi_config.h"

#include <string.h>
#include <time.h>

#include "opal/mca/base/mca_base_pvar.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/util/output.h"
#include "ompi/constants.h"

#include "coll_rsag.h"
#include "coll_rsag_cma.h"
#include "coll_rsag_direct.h"
#include "coll_rsag_exact.h"
#include "coll_rsag_exact_kernels.h"
#include "coll_rsag_help.h"
#include "coll_rsag_index.h"
#include "coll_rsag_mem.h"
#include "coll_rsag_op.h"
#include "coll_rsag_reproducible.h"
#include "coll_rsag_sched.h"
#include "coll_rsag_segment.h"
#include "coll_rsag_stream.h"

/* Vectors reduced whole by every rank (segment path): up to
 * WHOLE_BYTES / p bytes, at least up to WHOLE_MIN. */
#define MCA_COLL_RSAG_DIRECT_WHOLE_BYTES ((size_t) 64 * 1024)
#define MCA_COLL_RSAG_DIRECT_WHOLE_MIN ((size_t) 4 * 1024)
/* Under coll_rsag_reproducible = exact the fold costs about ten times the
 * op, so an allreduce's ranks fold the whole vector only up to
 * EXACT_WHOLE_BYTES, and their own blocks (split) above: OSU's MPI_FLOAT
 * allreduce at np 2, 2 KB - 32 KB, 1.2-1.5x faster split, even at 1 KB. */
#define MCA_COLL_RSAG_DIRECT_EXACT_WHOLE_BYTES ((size_t) 1024)

/* A reduce's vector goes whole to its root (at np 2 up to
 * REDUCE_WHOLE_BYTES, else as any whole vector), in windows of
 * PIPE_BYTES: the root reduces window t while the others copy window
 * t + 1, and the data crosses between cores once, in pieces that stay in
 * cache.  Measured at np 2 (contrib/results/2026-11-26-reduce): 1.5-2x
 * the split path from 16 KB to 128 KB, 1.4x at 256 KB, even at 320 KB,
 * behind it from 384 KB.  Its windows are streamed when the learner
 * streams the call (coll_rsag_direct_stream): 2-3x faster when the cores
 * share no cache, slower when they do.  The root alone reduces (p - 1) n
 * bytes: from p = 3 the cost model (contrib/model, the `direct` row) puts
 * the split path ahead above the common bound. */
#define MCA_COLL_RSAG_DIRECT_REDUCE_WHOLE_BYTES ((size_t) 256 * 1024)
#define MCA_COLL_RSAG_DIRECT_PIPE_BYTES ((size_t) 8 * 1024)

/* A reduce by CMA at p = 2 up to PULL_BYTES: the root pulls the whole
 * other vector, then reduces (root_pulls), where the split path has each
 * rank pull half, reduce it and the other rank write its half of the
 * result into the root's buffer.  The data crosses between the cores once
 * instead of 1.5 times, and the other rank is free once its vector is
 * read.  Measured at np 2 (OSU, 3 interleaved rounds, 2026-11-27): 1.1-1.5x
 * the split path from 16 KB to 512 KB, 0.77-0.8x from 1 MB, where the
 * split path's two cores reduce at once. */
#define MCA_COLL_RSAG_DIRECT_PULL_BYTES ((size_t) 512 * 1024)

/* Where rank q's input is: in this process (its slot, or my own input:
 * element i's bytes at local + (i - first) * extent), or in process pid
 * at address remote + i * extent. */
typedef struct mca_coll_rsag_direct_src_t {
    const char *local;
    size_t first;
    pid_t pid;
    uint64_t remote;
} mca_coll_rsag_direct_src_t;

/* One call's view of the data. */
typedef struct mca_coll_rsag_direct_ctx_t {
    const mca_coll_rsag_args_t *a;
    mca_coll_rsag_segment_t *seg;
    ptrdiff_t lb;                       /* true lower bound */
    size_t ext;                         /* bytes per element (== size) */
    mca_coll_rsag_direct_src_t *src;    /* [p] */
    char *tmp;                          /* data of one chunk: the other half of the ping-pong */
    char *own;                          /* NULL, or where my own chunk is copied first */
    size_t stream_min;                  /* pieces for peers this large go streamed */
    /* coll_rsag_reproducible = exact: every chunk's p pieces folded at once
     * by exact's sum (mca_coll_rsag_exact_fold), `terms` [p] pointing at
     * them; an element is `reals` floats (exact_float) or doubles */
    bool exact, exact_float;
    size_t reals;
    const void **terms;
    /* a reduce whose root pulls everything (CMA, p = 2): the read of rank
     * release_q's piece that ends at element release_end is the last read
     * of the peers' buffers; then done = release_t, so they may return
     * while the root still reduces (release_end 0: none) */
    size_t release_end;
    int release_q;
    uint64_t release_t;
} mca_coll_rsag_direct_ctx_t;

/* Reduce elements [i0, i0 + n) of all p inputs, in rank order, into
 * `dest` (data pointers: element i0's first byte).  The partial result
 * goes back and forth between dest and ctx->tmp so that the last step
 * writes dest: step q writes dest when p - 1 - q is even.  A pulled piece
 * lands in the step's target and is reduced there (target = acc op x_q);
 * a local piece is read where it is (target = acc op x_q, 3 buffers).
 * When dest is my own input (in place) ctx->own holds a copy of it, taken
 * before dest is written. */
static int mca_coll_rsag_direct_fold_exact(const mca_coll_rsag_direct_ctx_t *ctx, size_t i0,
                                           size_t n, char *dest);

static int mca_coll_rsag_direct_fold(const mca_coll_rsag_direct_ctx_t *ctx, size_t i0,
                                     size_t n, char *dest)
{
    const mca_coll_rsag_args_t *a = ctx->a;
    int p = a->size;
    size_t bytes = n * ctx->ext;
    const char *acc = NULL;

    if (0 == n) {
        return OMPI_SUCCESS;
    }
    if (NULL != ctx->own) {
        const mca_coll_rsag_direct_src_t *me = &ctx->src[a->rank];
        memcpy(ctx->own, me->local + (i0 - me->first) * ctx->ext, bytes);
    }
    if (ctx->exact) {
        return mca_coll_rsag_direct_fold_exact(ctx, i0, n, dest);
    }
    for (int q = 0; q < p; ++q) {
        const mca_coll_rsag_direct_src_t *s = &ctx->src[q];
        char *target = (0 == ((p - 1 - q) & 1)) ? dest : ctx->tmp;
        const char *x = NULL;

        if (NULL != s->local) {
            x = (q == a->rank && NULL != ctx->own) ? ctx->own
                                                   : s->local + (i0 - s->first) * ctx->ext;
        } else {
            int err = mca_coll_rsag_cma_read(s->pid, target,
                                             s->remote + (uint64_t) (i0 * ctx->ext), bytes);
            if (OMPI_SUCCESS != err) {
                return err;
            }
            if (i0 + n == ctx->release_end && q == ctx->release_q) {
                mca_coll_rsag_publish(ctx->seg, MCA_COLL_RSAG_CTL(done), ctx->release_t);
            }
        }
        if (0 == q) {
            acc = (NULL != x) ? x : target;
            continue;
        }
        if (NULL != x) {
            mca_coll_rsag_op_reduce3(a->op, acc - ctx->lb, x - ctx->lb, target - ctx->lb, n,
                                     a->dtype);
        } else {
            mca_coll_rsag_op_reduce(a->op, acc - ctx->lb, target - ctx->lb, n, a->dtype);
        }
        acc = target;
    }
    if (acc != dest) {      /* p == 1 never comes here; kept for safety of the parity */
        memcpy(dest, acc, bytes);
    }
    return OMPI_SUCCESS;
}

/* The same elements under coll_rsag_reproducible = exact (my own piece
 * already in ctx->own when in place): every rank's piece in hand at once
 * (a local one where it is, a pulled one in its own part of ctx->tmp: p
 * chunks), then folded by exact's sum into dest. */
static int mca_coll_rsag_direct_fold_exact(const mca_coll_rsag_direct_ctx_t *ctx, size_t i0,
                                           size_t n, char *dest)
{
    const mca_coll_rsag_args_t *a = ctx->a;
    size_t bytes = n * ctx->ext;

    for (int q = 0; q < a->size; ++q) {
        const mca_coll_rsag_direct_src_t *s = &ctx->src[q];

        if (NULL != s->local) {
            ctx->terms[q] = (q == a->rank && NULL != ctx->own)
                            ? ctx->own : s->local + (i0 - s->first) * ctx->ext;
        } else {
            char *piece = ctx->tmp + (size_t) q * bytes;
            int err = mca_coll_rsag_cma_read(s->pid, piece,
                                             s->remote + (uint64_t) (i0 * ctx->ext), bytes);
            if (OMPI_SUCCESS != err) {
                return err;
            }
            ctx->terms[q] = piece;
        }
    }
    mca_coll_rsag_exact_fold(ctx->terms, (size_t) a->size, ctx->exact_float, n * ctx->reals,
                             dest);
    return OMPI_SUCCESS;
}

static double mca_coll_rsag_direct_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* How this call writes for its peers (coll_rsag_direct_stream): sets
 * ctx->stream_min; returns the start time when the call is timed for the
 * learner (`timed`: it runs to its end inside; auto, segment path, at least
 * coll_rsag_direct_stream_min_bytes), else 0.  A call that is not timed
 * takes the way learned so far: a trial it made would never be recorded. */
static double mca_coll_rsag_direct_stream_choose(mca_coll_rsag_direct_ctx_t *ctx, bool use_cma,
                                                 size_t bytes, bool timed,
                                                 mca_coll_rsag_stream_way_t *way, bool *trial)
{
    size_t min = mca_coll_rsag_node_params.stream_min_bytes;

    switch (mca_coll_rsag_node_params.stream) {
    case MCA_COLL_RSAG_STREAM_ALWAYS:
        ctx->stream_min = min;
        return 0;
    case MCA_COLL_RSAG_STREAM_NEVER:
        ctx->stream_min = SIZE_MAX;
        return 0;
    default:
        break;
    }
    if (use_cma || bytes < min) {
        ctx->stream_min = min;      /* nothing, or nothing large, goes through the slots */
        return 0;
    }
    /* (a request's own segment: the communicator's learner, see node) */
    *way = timed ? mca_coll_rsag_stream_pick(&ctx->seg->learn, bytes, trial)
                 : mca_coll_rsag_stream_preferred(NULL != ctx->seg->node ? &ctx->seg->node->learn
                                                                         : &ctx->seg->learn,
                                                  bytes);
    ctx->stream_min = (MCA_COLL_RSAG_WAY_STREAMED == *way) ? min : SIZE_MAX;
    return timed ? mca_coll_rsag_direct_now() : 0;
}

/* After a timed call: learn, and say when the preferred way changed. */
static void mca_coll_rsag_direct_stream_learn(const mca_coll_rsag_args_t *a, size_t bytes,
                                              mca_coll_rsag_stream_way_t way, bool trial,
                                              double t0)
{
    mca_coll_rsag_segment_t *seg = a->segment;
    mca_coll_rsag_stream_way_t now;

    if (mca_coll_rsag_stream_learn(&seg->learn, bytes, way, trial,
                                   mca_coll_rsag_direct_now() - t0, &now)
        && mca_coll_rsag_component.verbose >= MCA_COLL_RSAG_VERBOSE_MODULE) {
        opal_output(mca_coll_rsag_component.output,
                    "coll:rsag: direct on %s, rank %d, %zu-byte calls: writes for peers %s "
                    "(streamed %.1f us, cached %.1f us per call)",
                    a->comm->c_name, a->rank, bytes,
                    MCA_COLL_RSAG_WAY_STREAMED == now ? "streamed" : "cached",
                    1e6 * mca_coll_rsag_stream_cost(&seg->learn, bytes, MCA_COLL_RSAG_WAY_STREAMED),
                    1e6 * mca_coll_rsag_stream_cost(&seg->learn, bytes, MCA_COLL_RSAG_WAY_CACHED));
    }
}

/* Even share of rank q in elements [w0, w1). */
static void mca_coll_rsag_direct_part(size_t w0, size_t w1, int p, int q, size_t *lo,
                                      size_t *hi)
{
    size_t len = w1 - w0, base = len / (size_t) p, rem = len % (size_t) p;
    size_t uq = (size_t) q;

    *lo = w0 + uq * base + (uq < rem ? uq : rem);
    *hi = *lo + base + (uq < rem ? 1 : 0);
}

/* Block of rank q in elements [w0, w1): its share of the window for the
 * allreduce and reduce, MPI's block clipped to the window for the
 * reduce-scatter. */
static void mca_coll_rsag_direct_block(const mca_coll_rsag_args_t *a,
                                       mca_coll_rsag_direct_kind_t kind, size_t w0, size_t w1,
                                       int q, size_t *lo, size_t *hi)
{
    if (MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER != kind) {
        mca_coll_rsag_direct_part(w0, w1, a->size, q, lo, hi);
        return;
    }
    *lo = a->displ[q] > w0 ? a->displ[q] : w0;
    *hi = a->displ[q + 1] < w1 ? a->displ[q + 1] : w1;
    if (*hi < *lo) {
        *hi = *lo;
    }
}


/* The phases of a call's machine: each names the wait it resumes at. */
typedef enum mca_coll_rsag_direct_phase_t {
    MCA_COLL_RSAG_DIRECT_IDLE,          /* not started, or complete */
    MCA_COLL_RSAG_DIRECT_SEG_BEGIN,     /* my tick t - 1 finished, everyone done with t - 2 */
    MCA_COLL_RSAG_DIRECT_SEG_ARRIVE,    /* every rank's input of tick t posted */
    MCA_COLL_RSAG_DIRECT_SEG_GATHER,    /* the owners' blocks of tick t ready, one by one */
    MCA_COLL_RSAG_DIRECT_CMA_BEGIN,     /* my tick t - 1 finished */
    MCA_COLL_RSAG_DIRECT_CMA_ARRIVE,    /* every rank's addresses published */
    MCA_COLL_RSAG_DIRECT_CMA_GATHER,    /* the owners' blocks ready */
    MCA_COLL_RSAG_DIRECT_CMA_DONE,      /* everyone done: nobody reads my buffers */
    MCA_COLL_RSAG_DIRECT_TREE_BEGIN,    /* my tick t - 1 finished, my box's readers done */
    MCA_COLL_RSAG_DIRECT_TREE_GATHER,   /* my children's partials of tick t, one by one */
    MCA_COLL_RSAG_DIRECT_TREE_RELEASE   /* rank 0's result of tick t in its box */
} mca_coll_rsag_direct_phase_t;

/* One call: what the description fixed (for a persistent request, for
 * its life) and where the machine stands. */
struct mca_coll_rsag_direct_t {
    mca_coll_rsag_args_t a;             /* a copy; a.displ points into this block */
    mca_coll_rsag_direct_kind_t kind;
    mca_coll_rsag_direct_ctx_t ctx;
    char *in, *out, *stage;             /* data pointers (element 0's first byte) */
    size_t window, chunk;
    bool use_cma, whole, boxed, all;
    bool root_pulls;                    /* CMA reduce at p = 2: the root pulls it all */
    int fanin;                          /* 0: flat; k >= 2: the boxed tree of fan-in k */
    uint64_t nticks;                    /* ticks of one call */
    /* the run in progress */
    int phase;                          /* mca_coll_rsag_direct_phase_t */
    bool wait;                          /* this poll may wait (blocking call) */
    uint64_t t, last;                   /* current and last tick of this call */
    size_t w0, w1, lo, hi;              /* window and my block in it */
    int k;                              /* next rank (or step, or child) of a wait on several */
    const char *acc;                    /* the tree: my partial so far (data pointer) */
    int err;
    bool fresh;                         /* started, not polled yet */
    mca_coll_rsag_stream_way_t way;     /* how this call writes for peers (the learner's) */
    bool trial;
    double t0;                          /* > 0: this call is timed for the learner */
    /* the copy learner (coll_rsag_single_copy auto): a blocking call is
     * timed from its first poll; its way; a nonblocking call took the
     * agreed way of a size no vote has settled yet */
    bool copy_timed;
    int copy_way;
    bool copy_guessed;
    double c0;
    bool counted;                       /* a memory request of rsag's (prepared calls) */
};

/* ---- wait points: wait (blocking) or ask once ---------------------------- */

static bool mca_coll_rsag_direct_one(const mca_coll_rsag_direct_t *d, int q, size_t field,
                                     uint64_t t)
{
    if (d->wait) {
        mca_coll_rsag_wait_one(d->ctx.seg, q, field, t);
        return true;
    }
    return mca_coll_rsag_test_one(d->ctx.seg, q, field, t);
}

/* Box t % 2 of rank q stamped t (wait, or ask once). */
static bool mca_coll_rsag_direct_box_at(const mca_coll_rsag_direct_t *d, int q, uint64_t t)
{
    if (d->wait) {
        mca_coll_rsag_wait_box(d->ctx.seg, q, (int) (t & 1), t);
    }
    return d->wait || mca_coll_rsag_test_box(d->ctx.seg, q, (int) (t & 1), t);
}

/* Every rank's `field` at t (boxes: box t % 2 stamped t), from rank d->k
 * on; resumes there. */
static bool mca_coll_rsag_direct_every(mca_coll_rsag_direct_t *d, size_t field, bool box,
                                       uint64_t t)
{
    const mca_coll_rsag_segment_t *seg = d->ctx.seg;

    for (; d->k < seg->size; ++d->k) {
        if (box ? !mca_coll_rsag_direct_box_at(d, d->k, t)
                : !mca_coll_rsag_direct_one(d, d->k, field, t)) {
            return false;
        }
    }
    d->k = 0;
    return true;
}

/* This rank finished tick t - 1 (its calls' ticks run in order). */
static bool mca_coll_rsag_direct_my_turn(const mca_coll_rsag_direct_t *d, uint64_t t)
{
    if (mca_coll_rsag_test_finished(d->ctx.seg, t - 1)) {
        return true;
    }
    if (d->wait) {
        mca_coll_rsag_wait_finished(d->ctx.seg, t - 1);
        return true;
    }
    return false;
}

/* This rank has a receive buffer in the call: every rank but a reduce's
 * non-roots (whether it copies a result into it: takes_result). */
static bool mca_coll_rsag_direct_is_root(const mca_coll_rsag_direct_t *d)
{
    return MCA_COLL_RSAG_DIRECT_REDUCE != d->kind || d->a.rank == d->a.root;
}

/* This rank copies out a result of its own: a reduce's root, and every
 * rank of the others but a reduce-scatter's whose block is empty. */
static bool mca_coll_rsag_direct_takes_result(const mca_coll_rsag_direct_t *d)
{
    if (MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER == d->kind) {
        return d->a.displ[d->a.rank] != d->a.displ[d->a.rank + 1];
    }
    return mca_coll_rsag_direct_is_root(d);
}

/* A whole-vector reduce (segment path): only the root reads the posted
 * inputs. */
static bool mca_coll_rsag_direct_root_reads_all(const mca_coll_rsag_direct_t *d)
{
    return d->whole && MCA_COLL_RSAG_DIRECT_REDUCE == d->kind;
}

/* This rank reads nothing of the others' inputs: a whole-vector reduce's
 * non-roots, and a whole-vector reduce-scatter's ranks whose block is empty
 * (fewer elements than ranks).  They post and leave: on an oversubscribed
 * node a wait for every box costs a turn of every peer on the cores. */
static bool mca_coll_rsag_direct_reads_none(const mca_coll_rsag_direct_t *d)
{
    if (MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER == d->kind) {
        return d->whole && !mca_coll_rsag_direct_takes_result(d);
    }
    return mca_coll_rsag_direct_root_reads_all(d) && !mca_coll_rsag_direct_is_root(d);
}

/* Before this rank posts into half (box) h at tick t: whoever read what it
 * posted there at tick t - 2 is done with it -- every rank, or only one
 * rank (the root of a whole-vector reduce; the tree's parent), none when
 * that was this rank (reusable).  Then it notes who will read tick t's
 * (flat: every rank's segment notes the same, the calls are the same
 * everywhere; the tree notes its own, mca_coll_rsag_direct_tree_note). */
static bool mca_coll_rsag_direct_reusable(mca_coll_rsag_direct_t *d, uint64_t t)
{
    const mca_coll_rsag_segment_t *seg = d->ctx.seg;
    int who = seg->readers[t & 1];

    return t <= 2
           || (who < 0 ? mca_coll_rsag_direct_every(d, MCA_COLL_RSAG_CTL(done), false, t - 2)
                       : (who == d->a.rank
                          || mca_coll_rsag_direct_one(d, who, MCA_COLL_RSAG_CTL(done), t - 2)));
}

static bool mca_coll_rsag_direct_readers_done(mca_coll_rsag_direct_t *d, uint64_t t)
{
    if (!mca_coll_rsag_direct_reusable(d, t)) {
        return false;
    }
    d->ctx.seg->readers[t & 1] = mca_coll_rsag_direct_root_reads_all(d) ? d->a.root : -1;
    return true;
}

/* ---- the CMA path: one tick ---------------------------------------------- */

/* Publish my buffers' addresses, then arrive. */
static void mca_coll_rsag_direct_cma_post(mca_coll_rsag_direct_t *d)
{
    mca_coll_rsag_segment_t *seg = d->ctx.seg;

    seg->ctl[d->a.rank].input = (uint64_t) (uintptr_t) d->in;
    seg->ctl[d->a.rank].output = (uint64_t) (uintptr_t) d->out;
    mca_coll_rsag_publish(seg, MCA_COLL_RSAG_CTL(arrive), d->t);
}

/* Every rank arrived: my block, chunk by chunk, pulled from the peers and
 * reduced (to the root, or in place aside), then ready. */
static void mca_coll_rsag_direct_cma_reduce(mca_coll_rsag_direct_t *d)
{
    const mca_coll_rsag_args_t *a = &d->a;
    mca_coll_rsag_direct_ctx_t *ctx = &d->ctx;
    mca_coll_rsag_segment_t *seg = ctx->seg;
    mca_coll_rsag_ctl_t *ctl = seg->ctl;
    int p = a->size, r = a->rank, err = OMPI_SUCCESS;
    size_t b0 = a->displ[r], b1 = a->displ[r + 1], chunk = d->chunk;
    bool to_root = (MCA_COLL_RSAG_DIRECT_REDUCE == d->kind && r != a->root);

    for (int q = 0; q < p; ++q) {
        ctx->src[q].local = (q == r) ? d->in : NULL;
        ctx->src[q].first = 0;
        ctx->src[q].pid = seg->pids[q];
        ctx->src[q].remote = ctl[q].input;
    }
    if (d->root_pulls && r == a->root && !ctx->exact && b1 > b0) {
        ctx->release_end = b1;              /* the peer's last piece read: it may go */
        ctx->release_q = 1 - r;
        ctx->release_t = d->t;
    }
    for (size_t i = b0; i < b1 && OMPI_SUCCESS == err; i += chunk) {
        size_t n = (b1 - i < chunk) ? b1 - i : chunk;

        if (to_root) {
            err = mca_coll_rsag_direct_fold(ctx, i, n, d->stage);
            if (OMPI_SUCCESS == err) {
                err = mca_coll_rsag_cma_write(seg->pids[a->root], d->stage,
                                              ctl[a->root].output + (uint64_t) (i * ctx->ext),
                                              n * ctx->ext);
            }
        } else if (MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER == d->kind) {
            /* in place, my input is the receive buffer peers still read */
            err = mca_coll_rsag_direct_fold(ctx, i, n,
                                            (a->in_place ? d->stage : d->out)
                                                + (i - b0) * ctx->ext);
        } else {
            err = mca_coll_rsag_direct_fold(ctx, i, n, d->out + i * ctx->ext);
        }
    }
    if (OMPI_SUCCESS != err) {
        d->err = err;
        ctl[r].failed = d->t;
    }
    mca_coll_rsag_publish(seg, MCA_COLL_RSAG_CTL(ready), d->t);
}

/* Block j of the allreduce, pulled from its owner (ready). */
static void mca_coll_rsag_direct_cma_pull(mca_coll_rsag_direct_t *d, int j)
{
    const mca_coll_rsag_args_t *a = &d->a;
    size_t lo = a->displ[j], len = a->displ[j + 1] - lo, ext = d->ctx.ext;
    int err;

    if (0 == len || OMPI_SUCCESS != d->err) {
        return;
    }
    err = mca_coll_rsag_cma_read(d->ctx.seg->pids[j], d->out + lo * ext,
                                 d->ctx.seg->ctl[j].output + (uint64_t) (lo * ext), len * ext);
    if (OMPI_SUCCESS != err) {
        d->err = err;
    }
}

/* After the gather: done, then (once everyone is done) the verdict. */
static void mca_coll_rsag_direct_cma_done(mca_coll_rsag_direct_t *d)
{
    mca_coll_rsag_segment_t *seg = d->ctx.seg;

    if (OMPI_SUCCESS != d->err) {
        seg->ctl[d->a.rank].failed = d->t;
    }
    mca_coll_rsag_publish(seg, MCA_COLL_RSAG_CTL(done), d->t);
}

static int mca_coll_rsag_direct_cma_verdict(mca_coll_rsag_direct_t *d)
{
    const mca_coll_rsag_segment_t *seg = d->ctx.seg;

    for (int q = 0; q < seg->size; ++q) {
        if (seg->ctl[q].failed == d->t && OMPI_SUCCESS == d->err) {
            d->err = OMPI_ERROR;
        }
    }
    return d->err;
}

/* The CMA tick from where it stands; MCA_COLL_RSAG_POLL_AGAIN at a wait
 * that is not answered yet. */
static int mca_coll_rsag_direct_cma(mca_coll_rsag_direct_t *d)
{
    const mca_coll_rsag_args_t *a = &d->a;
    int p = a->size;

    switch (d->phase) {
    case MCA_COLL_RSAG_DIRECT_CMA_BEGIN:
        if (!mca_coll_rsag_direct_my_turn(d, d->t)) {
            return MCA_COLL_RSAG_POLL_AGAIN;
        }
        mca_coll_rsag_direct_cma_post(d);
        mca_coll_rsag_count(&mca_coll_rsag_direct_cma_calls, 1ULL);
        d->phase = MCA_COLL_RSAG_DIRECT_CMA_ARRIVE;
        /* fall through */
    case MCA_COLL_RSAG_DIRECT_CMA_ARRIVE:
        if (!mca_coll_rsag_direct_every(d, MCA_COLL_RSAG_CTL(arrive), false, d->t)) {
            return MCA_COLL_RSAG_POLL_AGAIN;
        }
        mca_coll_rsag_direct_cma_reduce(d);
        d->phase = MCA_COLL_RSAG_DIRECT_CMA_GATHER;
        d->k = (MCA_COLL_RSAG_DIRECT_ALLREDUCE == d->kind) ? 1 : 0;
        /* fall through */
    case MCA_COLL_RSAG_DIRECT_CMA_GATHER:
        if (MCA_COLL_RSAG_DIRECT_ALLREDUCE == d->kind) {
            /* the other blocks from their owners, the next rank's first */
            for (; d->k < p; ++d->k) {
                int j = (a->rank + d->k) % p;

                if (!mca_coll_rsag_direct_one(d, j, MCA_COLL_RSAG_CTL(ready), d->t)) {
                    return MCA_COLL_RSAG_POLL_AGAIN;
                }
                mca_coll_rsag_direct_cma_pull(d, j);
            }
            d->k = 0;
        } else if (MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER == d->kind && a->in_place) {
            /* my block aside until peers stop reading my receive buffer */
            if (!mca_coll_rsag_direct_every(d, MCA_COLL_RSAG_CTL(ready), false, d->t)) {
                return MCA_COLL_RSAG_POLL_AGAIN;
            }
            memcpy(d->out, d->stage, (a->displ[a->rank + 1] - a->displ[a->rank]) * d->ctx.ext);
        }
        d->k = 0;
        mca_coll_rsag_direct_cma_done(d);
        d->phase = MCA_COLL_RSAG_DIRECT_CMA_DONE;
        /* fall through */
    default:
        /* no rank returns while a peer may still read its buffers */
        if (!mca_coll_rsag_direct_every(d, MCA_COLL_RSAG_CTL(done), false, d->t)) {
            return MCA_COLL_RSAG_POLL_AGAIN;
        }
        mca_coll_rsag_finish(d->ctx.seg, d->t);
        d->phase = MCA_COLL_RSAG_DIRECT_IDLE;
        return mca_coll_rsag_direct_cma_verdict(d);
    }
}

/* ---- the segment path: one tick per window ------------------------------- */

/* The segment path, tick t: publish my input of elements [w0, w1) (in box
 * or slot half h).  `all`: copy the whole window (else not my block
 * [lo, hi), which I read from my input). */
static void mca_coll_rsag_direct_post(mca_coll_rsag_direct_ctx_t *ctx, const char *in,
                                      size_t w0, size_t w1, size_t lo, size_t hi, bool boxed,
                                      bool all, uint64_t t)
{
    mca_coll_rsag_segment_t *seg = ctx->seg;
    int r = ctx->a->rank, h = (int) (t & 1);
    size_t ext = ctx->ext, stream_min = ctx->stream_min;

    if (boxed) {
        mca_coll_rsag_box_t *box = mca_coll_rsag_box(seg, r, h);

        memcpy(box->data, in, (w1 - w0) * ext);
        mca_coll_rsag_box_publish(box, t);
        return;
    }
    /* what goes into my slot is read by the other cores, not by me:
     * streamed past my cache from coll_rsag_direct_stream_min_bytes on */
    if (all) {
        mca_coll_rsag_copy_for_peer(mca_coll_rsag_slot(seg, r, h), in + w0 * ext,
                                    (w1 - w0) * ext, stream_min);
    } else {
        /* the peers read every part of the window but my block (a
         * reduce-scatter block may lie outside the window) */
        size_t ml = lo < w1 ? lo : w1, mh = hi < w1 ? hi : w1;

        mca_coll_rsag_copy_for_peer(mca_coll_rsag_slot(seg, r, h), in + w0 * ext,
                                    (ml - w0) * ext, stream_min);
        mca_coll_rsag_copy_for_peer(mca_coll_rsag_slot(seg, r, h) + (mh - w0) * ext,
                                    in + mh * ext, (w1 - mh) * ext, stream_min);
    }
    mca_coll_rsag_publish(seg, MCA_COLL_RSAG_CTL(arrive), t);
}

/* Every rank posted tick t: point ctx->src at their inputs. */
static void mca_coll_rsag_direct_point(mca_coll_rsag_direct_ctx_t *ctx, const char *in,
                                       size_t w0, bool boxed, bool all, uint64_t t)
{
    mca_coll_rsag_segment_t *seg = ctx->seg;
    int p = ctx->a->size, r = ctx->a->rank, h = (int) (t & 1);

    for (int q = 0; q < p; ++q) {
        ctx->src[q].local = boxed ? mca_coll_rsag_box(seg, q, h)->data
                                  : mca_coll_rsag_slot(seg, q, h);
        ctx->src[q].first = boxed ? 0 : w0;
    }
    if (!boxed && !all) {
        ctx->src[r].local = in + w0 * ctx->ext;  /* my block straight from my input */
    }
}

/* The segment path, one window [w0, w1) split among its owners (tick t,
 * input posted): my block reduced into my slot, then ready. */
static void mca_coll_rsag_direct_split(mca_coll_rsag_direct_ctx_t *ctx,
                                       mca_coll_rsag_direct_kind_t kind, char *out,
                                       char *stage, size_t w0, size_t lo, size_t hi, uint64_t t)
{
    const mca_coll_rsag_args_t *a = ctx->a;
    mca_coll_rsag_segment_t *seg = ctx->seg;
    int r = a->rank, h = (int) (t & 1);
    size_t ext = ctx->ext;
    char *mine;

    if (MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER == kind) {
        /* results only move down (block r starts at displ[r] >= 0):
         * in place, every byte written was copied to the slot already */
        (void) mca_coll_rsag_direct_fold(ctx, lo, hi - lo, out + (lo - a->displ[r]) * ext);
        return;
    }
    mine = (MCA_COLL_RSAG_DIRECT_REDUCE == kind && r != a->root) ? stage : out + lo * ext;
    (void) mca_coll_rsag_direct_fold(ctx, lo, hi - lo, mine);
    if (r != a->root) {
        /* my part of my slot is read by nobody but me: it takes the
         * result, for the other cores (streamed, as the input was) */
        mca_coll_rsag_copy_for_peer(mca_coll_rsag_slot(seg, r, h) + (lo - w0) * ext, mine,
                                    (hi - lo) * ext, ctx->stream_min);
    }
    mca_coll_rsag_publish(seg, MCA_COLL_RSAG_CTL(ready), t);
}

/* The segment path: block j of window [w0, w1), ready in its owner's slot,
 * copied to where it goes. */
static void mca_coll_rsag_direct_take(mca_coll_rsag_direct_ctx_t *ctx,
                                      mca_coll_rsag_direct_kind_t kind, char *out, size_t w0,
                                      size_t w1, int j, uint64_t t)
{
    size_t jl, jh, ext = ctx->ext;

    mca_coll_rsag_direct_block(ctx->a, kind, w0, w1, j, &jl, &jh);
    memcpy(out + jl * ext, mca_coll_rsag_slot(ctx->seg, j, (int) (t & 1)) + (jl - w0) * ext,
           (jh - jl) * ext);
}

/* A whole vector, every input posted: the result where it is needed. */
static void mca_coll_rsag_direct_whole(mca_coll_rsag_direct_t *d)
{
    const mca_coll_rsag_args_t *a = &d->a;
    int r = a->rank;

    if (MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER == d->kind) {
        (void) mca_coll_rsag_direct_fold(&d->ctx, a->displ[r], a->displ[r + 1] - a->displ[r],
                                         d->out);
    } else if (MCA_COLL_RSAG_DIRECT_ALLREDUCE == d->kind || r == a->root) {
        (void) mca_coll_rsag_direct_fold(&d->ctx, d->w0, d->w1 - d->w0,
                                         d->out + d->w0 * d->ctx.ext);
    }
}

/* The window of tick d->t, and my block in it. */
static void mca_coll_rsag_direct_window(mca_coll_rsag_direct_t *d)
{
    size_t n = d->a.count;

    d->w1 = (n - d->w0 < d->window) ? n : d->w0 + d->window;
    if (d->whole) {
        d->lo = d->w0;          /* not split: all of it is "mine" (see d->all) */
        d->hi = d->w1;
        return;
    }
    mca_coll_rsag_direct_block(&d->a, d->kind, d->w0, d->w1, d->a.rank, &d->lo, &d->hi);
}

/* Tick d->t ends: done; the next window, or the end of the call. */
static bool mca_coll_rsag_direct_next(mca_coll_rsag_direct_t *d)
{
    mca_coll_rsag_publish(d->ctx.seg, MCA_COLL_RSAG_CTL(done), d->t);
    mca_coll_rsag_finish(d->ctx.seg, d->t);
    if (d->t == d->last) {
        d->phase = MCA_COLL_RSAG_DIRECT_IDLE;
        return false;
    }
    ++d->t;
    d->w0 += d->window;
    d->phase = MCA_COLL_RSAG_DIRECT_SEG_BEGIN;
    return true;
}

/* The segment ticks from where they stand; MCA_COLL_RSAG_POLL_AGAIN at a
 * wait that is not answered yet. */
static int mca_coll_rsag_direct_slots(mca_coll_rsag_direct_t *d)
{
    const mca_coll_rsag_args_t *a = &d->a;
    int p = a->size;

    do {
        switch (d->phase) {
        case MCA_COLL_RSAG_DIRECT_SEG_BEGIN:
            if (!mca_coll_rsag_direct_my_turn(d, d->t)
                || !mca_coll_rsag_direct_readers_done(d, d->t)) {
                return MCA_COLL_RSAG_POLL_AGAIN;
            }
            mca_coll_rsag_direct_window(d);
            mca_coll_rsag_direct_post(&d->ctx, d->in, d->w0, d->w1, d->lo, d->hi, d->boxed,
                                      d->all, d->t);
            d->phase = MCA_COLL_RSAG_DIRECT_SEG_ARRIVE;
            /* fall through */
        case MCA_COLL_RSAG_DIRECT_SEG_ARRIVE:
            if (!mca_coll_rsag_direct_reads_none(d)
                && !mca_coll_rsag_direct_every(d, MCA_COLL_RSAG_CTL(arrive), d->boxed, d->t)) {
                return MCA_COLL_RSAG_POLL_AGAIN;
            }
            mca_coll_rsag_direct_point(&d->ctx, d->in, d->w0, d->boxed, d->all, d->t);
            if (d->whole) {
                mca_coll_rsag_direct_whole(d);
                continue;                       /* to the end of the tick */
            }
            mca_coll_rsag_direct_split(&d->ctx, d->kind, d->out, d->stage, d->w0, d->lo,
                                       d->hi, d->t);
            d->phase = MCA_COLL_RSAG_DIRECT_SEG_GATHER;
            d->k = 1;
            /* fall through */
        default:
            if (MCA_COLL_RSAG_DIRECT_ALLREDUCE == d->kind
                || (MCA_COLL_RSAG_DIRECT_REDUCE == d->kind && a->rank == a->root)) {
                for (; d->k < p; ++d->k) {
                    int j = (a->rank + d->k) % p;

                    if (!mca_coll_rsag_direct_one(d, j, MCA_COLL_RSAG_CTL(ready), d->t)) {
                        return MCA_COLL_RSAG_POLL_AGAIN;
                    }
                    mca_coll_rsag_direct_take(&d->ctx, d->kind, d->out, d->w0, d->w1, j, d->t);
                }
            }
            d->k = 0;
        }
    } while (mca_coll_rsag_direct_next(d));
    return OMPI_SUCCESS;
}

/* ---- the boxed tree --------------------------------------------------------
 *
 * Idea: at larger p, reading p boxes on every rank costs p line transfers
 *       per rank; instead the boxes are reduced up a tree of fan-in k to
 *       rank 0 and every rank that needs the result reads one box, rank 0's.
 *
 *   level 1   (k = 3)  0 <- 1 2    3 <- 4 5    6 <- 7 8   leaders fold, in rank
 *   level 2            0 <- 3 6                           order, their input and
 *   release            every rank that takes the result   children's partials,
 *                      copies it from box[0][t % 2]       then stamp their box
 *
 * Cost (L = ceil(log_k p) levels, n <= MCA_COLL_RSAG_BOX_SHARED_BYTES): per level a
 *       hand-off and k - 1 box reads folded, (k - 1) n gamma; then one
 *       hand-off and one read of rank 0's box, n; against the flat form's
 *       p - 1 box reads and (p - 1) n gamma on every rank (doc/direct.md, The
 *       tree; the model's direct_tree).
 * Restrictions: boxed calls (the whole vector in one box), p >= 3; the fan-in
 *       from coll_rsag_direct_fanin (mca_coll_rsag_direct_fanin_auto when 0).
 * Memory: two box-sized temporaries for the partial in between folds.
 *
 * The tree (mca_coll_rsag_tree_child): a leader folds its own input, then
 * its children's partials in order, each covering the ranks right after
 * the range folded so far; so rank 0 computes x_0 op x_1 op ... op x_{p-1}
 * in rank order, once, and every rank copies the same bits.
 *
 * Protocol of tick t, half h = t % 2 (a rank's box is written by it alone,
 * published by its stamp, a release store; read after an acquire load of
 * the stamp):
 *   1 a leaf copies its input into its box h and stamps it t;
 *   2 a leader waits for each child's box h stamped t, folds it (the partial
 *     in between in its temporaries), writes the last fold into its box h
 *     (rank 0 of a reduce whose root is 0: into the receive buffer, and
 *     stamps nothing) and stamps it t;
 *   3 every rank that takes the result (allreduce: all; reduce-scatter:
 *     those whose block is not empty; a reduce: its root) waits for box h
 *     of rank 0 stamped t and copies the result (or its block) out; then
 *     done = t, as every tick.
 * Who reads box h of rank r at tick t: its parent (r != 0; the partial), and
 * for rank 0 the ranks of step 3.  Before box h is written again, at tick
 * t + 2, they must be done; the proofs, by causality, without handshakes:
 *   a) rank 0 writes its box only at its last fold, after every child's
 *      stamp of t + 2; a stamp of t + 2 follows the stamps of that rank's
 *      children, so the whole tree stamped t + 2: every rank started tick
 *      t + 2, so it finished t + 1 and t (ticks run in order on a rank) and
 *      read nothing more of t.  Rank 0 waits for nobody.
 *   b) a rank r != 0 that takes the result (step 3) read rank 0's result
 *      of t; rank 0 stamped it after r's
 *      parent stamped t, which that parent did after folding r's box: when
 *      r starts t + 2, its parent is done with it.  r notes itself as the
 *      reader (no wait).
 *   c) a rank r != 0 that takes no result (a reduce's non-root, a
 *      reduce-scatter's rank with an empty block) reads nothing that
 *      proves it: it notes its parent, and at t + 2 waits for the parent's
 *      done of t (which the parent publishes after stamping, so at once in
 *      the steady state).
 * Every other rank (r != 0) checks what it noted at t, however tick t ran
 * (flat, tree, slots: seg->readers); so the forms mix, and a flat tick after
 * a tree tick waits for what the tree noted: rank 0 every rank (or the
 * reduce's root), the others their proof (b) or their parent (c).  The
 * temporaries are this call's own, the receive buffer written only by its
 * rank; a rank's input is read before its box is stamped (in place too: the
 * result is copied out only in step 3).
 */

/* The tree's fan-in of a boxed call of `bytes` at p >= 3 ranks: 0 flat,
 * else k >= 2 (coll_rsag_direct_fanin; auto and values out of range: the
 * model's rule). */
static int mca_coll_rsag_direct_fanin(int p, size_t bytes, mca_coll_rsag_direct_kind_t kind)
{
    int k = mca_coll_rsag_node_params.fanin;

    if (k <= 0 || k > MCA_COLL_RSAG_DIRECT_MAX_FANIN) {
        k = mca_coll_rsag_direct_fanin_auto(p, bytes, MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER == kind);
    }
    return k >= 2 ? k : 0;
}

/* Rank 0 of a reduce rooted at 0: its last fold goes straight to its
 * receive buffer, and nobody reads its box. */
static bool mca_coll_rsag_direct_tree_to_out(const mca_coll_rsag_direct_t *d)
{
    return 0 == d->a.rank && MCA_COLL_RSAG_DIRECT_REDUCE == d->kind && 0 == d->a.root;
}

/* Who reads my box of this tick, for the tick that writes it next (the
 * proofs of the protocol). */
static void mca_coll_rsag_direct_tree_note(mca_coll_rsag_direct_t *d)
{
    const mca_coll_rsag_args_t *a = &d->a;
    int r = a->rank, *who = &d->ctx.seg->readers[d->t & 1];

    if (0 == r) {
        *who = (MCA_COLL_RSAG_DIRECT_REDUCE == d->kind) ? a->root : -1;
    } else {
        *who = mca_coll_rsag_direct_takes_result(d) ? r : mca_coll_rsag_tree_parent(r, d->fanin);
    }
}

/* Fold child c's partial (child number d->k, stamped) into mine: the
 * partial goes back and forth between the two temporaries; the last fold
 * writes my box (or the receive buffer). */
static void mca_coll_rsag_direct_tree_fold(mca_coll_rsag_direct_t *d, int c)
{
    const mca_coll_rsag_args_t *a = &d->a;
    mca_coll_rsag_segment_t *seg = d->ctx.seg;
    int h = (int) (d->t & 1);
    ptrdiff_t lb = d->ctx.lb;
    char *target;

    if (mca_coll_rsag_tree_child(a->rank, a->size, d->fanin, d->k + 1) < 0) {
        target = mca_coll_rsag_direct_tree_to_out(d) ? d->out
                                                     : mca_coll_rsag_box(seg, a->rank, h)->data;
    } else {
        target = (d->k & 1) ? d->stage : d->ctx.tmp;
    }
    mca_coll_rsag_op_reduce3(a->op, d->acc - lb, mca_coll_rsag_box(seg, c, h)->data - lb,
                             target - lb, a->count, a->dtype);
    d->acc = target;
}

/* Step 3: the result, or my block of it, from rank 0's box. */
static bool mca_coll_rsag_direct_tree_release(mca_coll_rsag_direct_t *d)
{
    const mca_coll_rsag_args_t *a = &d->a;
    size_t ext = d->ctx.ext, lo = 0, len = a->count;
    const char *result;

    if (!mca_coll_rsag_direct_takes_result(d) || mca_coll_rsag_direct_tree_to_out(d)) {
        return true;
    }
    if (0 != a->rank && !mca_coll_rsag_direct_box_at(d, 0, d->t)) {
        return false;
    }
    if (MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER == d->kind) {
        lo = a->displ[a->rank];
        len = a->displ[a->rank + 1] - lo;
    }
    result = mca_coll_rsag_box(d->ctx.seg, 0, (int) (d->t & 1))->data;
    memcpy(d->out, result + lo * ext, len * ext);
    return true;
}

/* The tree's tick from where it stands; MCA_COLL_RSAG_POLL_AGAIN at a wait
 * that is not answered yet. */
static int mca_coll_rsag_direct_tree(mca_coll_rsag_direct_t *d)
{
    const mca_coll_rsag_args_t *a = &d->a;
    mca_coll_rsag_box_t *mine = mca_coll_rsag_box(d->ctx.seg, a->rank, (int) (d->t & 1));
    int c;

    switch (d->phase) {
    case MCA_COLL_RSAG_DIRECT_TREE_BEGIN:
        /* rank 0 waits for nobody (proof a) */
        if (!mca_coll_rsag_direct_my_turn(d, d->t)
            || (0 != a->rank && !mca_coll_rsag_direct_reusable(d, d->t))) {
            return MCA_COLL_RSAG_POLL_AGAIN;
        }
        mca_coll_rsag_direct_tree_note(d);
        mca_coll_rsag_count(&mca_coll_rsag_direct_tree_calls, 1ULL);
        d->acc = d->in;
        d->k = 0;
        d->phase = MCA_COLL_RSAG_DIRECT_TREE_GATHER;
        /* fall through */
    case MCA_COLL_RSAG_DIRECT_TREE_GATHER:
        for (; (c = mca_coll_rsag_tree_child(a->rank, a->size, d->fanin, d->k)) >= 0; ++d->k) {
            if (!mca_coll_rsag_direct_box_at(d, c, d->t)) {
                return MCA_COLL_RSAG_POLL_AGAIN;
            }
            mca_coll_rsag_direct_tree_fold(d, c);
        }
        if (0 == d->k) {
            memcpy(mine->data, d->in, a->count * d->ctx.ext);     /* a leaf */
        }
        if (!mca_coll_rsag_direct_tree_to_out(d)) {
            mca_coll_rsag_box_publish(mine, d->t);
        }
        d->k = 0;
        d->phase = MCA_COLL_RSAG_DIRECT_TREE_RELEASE;
        /* fall through */
    default:
        if (!mca_coll_rsag_direct_tree_release(d)) {
            return MCA_COLL_RSAG_POLL_AGAIN;
        }
    }
    (void) mca_coll_rsag_direct_next(d);    /* one tick: done, and the end */
    return OMPI_SUCCESS;
}

/* Calls (ticks) this process ran through the tree, and by CMA (MPI_T). */
unsigned long long mca_coll_rsag_direct_tree_calls = 0;
unsigned long long mca_coll_rsag_direct_cma_calls = 0;

void mca_coll_rsag_direct_register(const mca_base_component_t *c)
{
    int *k = &mca_coll_rsag_node_params.fanin;

    (void) mca_base_component_var_register(
        c, "direct_fanin",
        "How the direct algorithms reduce a vector that fits one box (up to "
        MCA_COLL_RSAG_STRINGIFY(MCA_COLL_RSAG_BOX_SHARED_BYTES) " bytes) on a node of p >= 3 "
        "ranks. "
        "1: flat, every rank that needs the result reads all p boxes; k >= 2: a tree of "
        "fan-in k through the shared segment (groups of k consecutive ranks reduce to their "
        "lowest, those to theirs, up to rank 0, in rank order; every rank then reads rank 0's "
        "box); 0 (default): from the cost model, by p and size (flat below p = 24). Valid: 0 "
        "to " MCA_COLL_RSAG_STRINGIFY(MCA_COLL_RSAG_DIRECT_MAX_FANIN) "; the same on every rank "
        "(settable through MPI_T: a call takes the value at its first call of a shape, a "
        "persistent request at its init)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_5,
        MCA_BASE_VAR_SCOPE_ALL_EQ, k);
    if (*k < 0 || *k > MCA_COLL_RSAG_DIRECT_MAX_FANIN) {
        mca_coll_rsag_warn_setting("coll_rsag_direct_fanin = %d is out of range (valid: 0 auto, "
                                   "1 flat, 2 to %d a tree of that fan-in); using 0 (auto)", *k,
                                   MCA_COLL_RSAG_DIRECT_MAX_FANIN);
        *k = 0;
    }
    (void) mca_base_component_pvar_register(
        c, "direct_tree_calls",
        "Calls rsag's direct algorithms ran through the boxed tree (coll_rsag_direct_fanin), "
        "all forms and collectives; they count in their collective's direct counter too",
        OPAL_INFO_LVL_4, MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
        NULL, MCA_BASE_VAR_BIND_NO_OBJECT,
        MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS, NULL, NULL, NULL,
        &mca_coll_rsag_direct_tree_calls);
    (void) mca_base_component_pvar_register(
        c, "direct_cma_calls",
        "Calls rsag's direct algorithms ran by CMA (single-copy pulls of peers' buffers) "
        "instead of through the shared segment, all forms and collectives; they count in "
        "their collective's direct counter too",
        OPAL_INFO_LVL_4, MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
        NULL, MCA_BASE_VAR_BIND_NO_OBJECT,
        MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS, NULL, NULL, NULL,
        &mca_coll_rsag_direct_cma_calls);
}

/* ---- the call: described once, started, polled --------------------------- */

static void mca_coll_rsag_direct_start(void *state)
{
    mca_coll_rsag_direct_t *d = state;
    mca_coll_rsag_segment_t *seg = d->ctx.seg;

    /* my ticks, taken in call order: the same on every rank */
    d->t = seg->tick + 1;
    seg->tick += d->nticks;
    d->last = seg->tick;
    d->w0 = 0;
    d->k = 0;
    d->err = OMPI_SUCCESS;
    d->fresh = true;
    d->phase = d->use_cma ? MCA_COLL_RSAG_DIRECT_CMA_BEGIN
               : 0 == d->fanin ? MCA_COLL_RSAG_DIRECT_SEG_BEGIN
                               : MCA_COLL_RSAG_DIRECT_TREE_BEGIN;
}

/* How this start writes for its peers (coll_rsag_direct_stream): chosen
 * at its first poll.  Only a call that runs to its end inside (blocking)
 * is timed for the learner: a request's time includes what the program
 * did between its start and its wait. */
static void mca_coll_rsag_direct_stream_first(mca_coll_rsag_direct_t *d, bool wait)
{
    d->fresh = false;
    d->way = MCA_COLL_RSAG_WAY_CACHED;
    d->trial = false;
    d->t0 = mca_coll_rsag_direct_stream_choose(&d->ctx, d->use_cma, d->a.count * d->ctx.ext,
                                               wait, &d->way, &d->trial);
    /* a reduce's pipeline writes windows smaller than the threshold: the
     * call's size decided, its windows follow */
    if (mca_coll_rsag_direct_root_reads_all(d) && SIZE_MAX != d->ctx.stream_min
        && d->a.count * d->ctx.ext >= d->ctx.stream_min) {
        d->ctx.stream_min = 0;
    }
}

static int mca_coll_rsag_direct_poll(void *state, bool wait)
{
    mca_coll_rsag_direct_t *d = state;
    int rc;

    d->wait = wait;
    if (d->fresh) {
        mca_coll_rsag_direct_stream_first(d, wait);
        d->c0 = d->copy_timed ? mca_coll_rsag_direct_now() : 0;
    }
    rc = d->use_cma ? mca_coll_rsag_direct_cma(d)
         : 0 == d->fanin ? mca_coll_rsag_direct_slots(d) : mca_coll_rsag_direct_tree(d);
    if (MCA_COLL_RSAG_POLL_AGAIN != rc && d->t0 > 0) {
        mca_coll_rsag_direct_stream_learn(&d->a, d->a.count * d->ctx.ext, d->way, d->trial,
                                          d->t0);
    }
    if (OMPI_SUCCESS == rc && d->c0 > 0) {
        /* a call the stream learner tried the other way is not typical */
        mca_coll_rsag_copy_record(&d->ctx.seg->copy[d->kind], d->a.count * d->ctx.ext,
                                  d->copy_way, !(d->t0 > 0 && d->trial),
                                  mca_coll_rsag_direct_now() - d->c0);
        d->c0 = 0;
    }
    return rc;
}

static void mca_coll_rsag_direct_release(void *state)
{
    mca_coll_rsag_direct_free(state);
}

/* The verbose trace of the fan-in boxed calls take on this communicator,
 * by its rank 0, when it changes (the first boxed call, a new size, a new
 * coll_rsag_direct_fanin). */
static void mca_coll_rsag_direct_trace_fanin(const mca_coll_rsag_direct_t *d, size_t bytes)
{
    mca_coll_rsag_segment_t *seg = d->a.segment;
    int k = d->fanin > 0 ? d->fanin : 1;

    if (mca_coll_rsag_component.verbose < MCA_COLL_RSAG_VERBOSE_DECISIONS || 0 != d->a.rank
        || seg->traced_fanin == k) {
        return;
    }
    seg->traced_fanin = k;
    opal_output(mca_coll_rsag_component.output,
                "coll:rsag: direct on %s (size %d): %zu-byte boxed calls go %s, fan-in %d "
                "(coll_rsag_direct_fanin %d)", d->a.comm->c_name, d->a.size, bytes,
                k > 1 ? "through the tree" : "flat", k, mca_coll_rsag_node_params.fanin);
}

/* The verbose trace of a vote's outcome, by rank 0, when a class's copy
 * mode is decided or changes. */
static void mca_coll_rsag_direct_trace_copy(const mca_coll_rsag_direct_t *d, size_t bytes,
                                            const double agreed[2])
{
    bool cma;

    if (mca_coll_rsag_component.verbose < MCA_COLL_RSAG_VERBOSE_DECISIONS || 0 != d->a.rank) {
        return;
    }
    cma = MCA_COLL_RSAG_COPY_CMA == mca_coll_rsag_copy_agreed(&d->a.segment->copy[d->kind], bytes);
    opal_output(mca_coll_rsag_component.output,
                "coll:rsag: direct on %s (size %d), %zu-byte %s calls: %s (segment %.1f us, "
                "CMA %.1f us per call, slowest rank)", d->a.comm->c_name, d->a.size, bytes,
                mca_coll_rsag_colls[d->a.coll].name,
                cma ? "single copy by CMA" : "copies through the segment",
                1e6 * agreed[MCA_COLL_RSAG_COPY_SEGMENT], 1e6 * agreed[MCA_COLL_RSAG_COPY_CMA]);
}

/* CMA or the segment (the same answer on every rank).  An element larger
 * than a window can only go by CMA (the selector saw to it that CMA works
 * then).  coll_rsag_single_copy cma: CMA; auto with
 * coll_rsag_direct_cma_min_bytes set: from there; auto otherwise: from
 * MCA_COLL_RSAG_COPY_LEARN_MIN_BYTES the copy learner's way
 * (coll_rsag_stream.h) — a blocking call votes when a vote is due, picks
 * (the trials) and is timed; nonblocking and persistent calls take the
 * agreed way, untimed (their time includes the program's). */
static bool mca_coll_rsag_direct_use_cma(mca_coll_rsag_direct_t *d, size_t bytes,
                                         bool blocking)
{
    mca_coll_rsag_segment_t *seg = d->a.segment;
    mca_coll_rsag_copy_learner_t *l = &seg->copy[d->kind];
    double agreed[2];
    bool trial;

    if (MCA_COLL_RSAG_COPY_CMA != seg->mode) {
        return false;
    }
    if (0 == d->window || MCA_COLL_RSAG_SINGLE_COPY_CMA == mca_coll_rsag_node_params.single_copy) {
        return true;
    }
    if (!seg->learn_copy) {
        return bytes >= mca_coll_rsag_node_params.cma_min_bytes;
    }
    if (bytes < MCA_COLL_RSAG_COPY_LEARN_MIN_BYTES) {
        return false;
    }
    if (!blocking) {
        d->copy_guessed = !mca_coll_rsag_copy_settled(l, bytes);
        return MCA_COLL_RSAG_COPY_CMA == mca_coll_rsag_copy_agreed(l, bytes);
    }
    if (mca_coll_rsag_copy_vote_due(l, bytes)
        && mca_coll_rsag_segment_vote(seg, l, bytes, agreed)) {
        mca_coll_rsag_direct_trace_copy(d, bytes, agreed);
    }
    d->copy_way = mca_coll_rsag_copy_pick(l, bytes, &trial);
    d->copy_timed = true;
    return MCA_COLL_RSAG_COPY_CMA == d->copy_way;
}

/* How the call goes: CMA or the segment, window, chunk, the small-vector
 * forms, flat or the tree. */
static void mca_coll_rsag_direct_plan(mca_coll_rsag_direct_t *d, bool blocking)
{
    const mca_coll_rsag_args_t *a = &d->a;
    mca_coll_rsag_segment_t *seg = a->segment;
    size_t ext = (size_t) a->extent, n = a->count, bytes = n * ext;
    /* A small vector is reduced whole by every rank that needs it: one
     * wait instead of two, for p times the reading.  Up to 32 KB at np 2
     * (the whole 16 KB and split 64 KB calls cost about the same per byte),
     * less for larger p; a reduce's up to 256 KB at np 2, pipelined, to
     * its root alone (MCA_COLL_RSAG_DIRECT_REDUCE_WHOLE_BYTES). */
    bool reduce = MCA_COLL_RSAG_DIRECT_REDUCE == d->kind;
    /* (not under exact: its fold costs several times the op's, which the
     * root alone would pay for the whole vector; split, every rank folds
     * its part) */
    size_t whole_max = (reduce && 2 == a->size && !d->ctx.exact)
                       ? MCA_COLL_RSAG_DIRECT_REDUCE_WHOLE_BYTES
                       : MCA_COLL_RSAG_DIRECT_WHOLE_BYTES / (size_t) a->size;

    d->window = seg->slot_bytes / 2 / ext;
    d->chunk = mca_coll_rsag_node_params.chunk_size / ext;
    d->chunk = d->chunk > 0 ? d->chunk : 1;
    d->use_cma = mca_coll_rsag_direct_use_cma(d, bytes, blocking);
    /* A reduce by CMA at p = 2, up to PULL_BYTES: the root pulls the other
     * vector whole, the other rank returns as soon as it is read, then the
     * root reduces (the layout copy gives the root every element, one
     * chunk). */
    d->root_pulls = d->use_cma && reduce && 2 == a->size
                    && bytes <= MCA_COLL_RSAG_DIRECT_PULL_BYTES;
    if (d->root_pulls) {
        size_t *displ = (size_t *) d->a.displ;     /* this block's own copy */

        for (int q = 0; q <= a->size; ++q) {
            displ[q] = q <= a->root ? 0 : n;
        }
        d->chunk = n;
    }
    whole_max = whole_max > MCA_COLL_RSAG_DIRECT_WHOLE_MIN ? whole_max
                                                          : MCA_COLL_RSAG_DIRECT_WHOLE_MIN;
    if (d->ctx.exact && MCA_COLL_RSAG_DIRECT_ALLREDUCE == d->kind) {
        whole_max = MCA_COLL_RSAG_DIRECT_EXACT_WHOLE_BYTES;
    }
    d->whole = !d->use_cma && (reduce ? d->window > 0 : n <= d->window) && bytes <= whole_max;
    if (d->whole && reduce && d->window > MCA_COLL_RSAG_DIRECT_PIPE_BYTES / ext) {
        d->window = MCA_COLL_RSAG_DIRECT_PIPE_BYTES / ext;     /* the root's pipeline */
        d->window = d->window > 0 ? d->window : 1;
    }
    /* A vector that fits a box goes whole through the boxes: its stamp
     * shares a cache line with its first 56 bytes, and the rest is read
     * once the stamp is seen, with no arrive or done line in between.
     * Two ranks use the whole box, more ranks its first 1080 bytes
     * (mca_coll_rsag_box_max).  In one tick: a reduce's windows may be
     * smaller than a box (tiny segments). */
    d->boxed = d->whole && bytes <= mca_coll_rsag_box_max(a->size) && n <= d->window;
    /* My block is read straight from my input, except in place: the result
     * overwrites my input while I still read it, so my block is read from
     * my slot copy like everyone else's. */
    d->all = d->whole || a->in_place;
    if (mca_coll_rsag_direct_root_reads_all(d) && a->rank == a->root && !a->in_place) {
        d->all = false;         /* nobody else reads the root's input: it stays where it is */
    }
    d->nticks = d->use_cma ? 1 : (n + d->window - 1) / d->window;
    /* at p >= 3, a box may go up a tree instead (the boxed tree); not in
     * the reproducible modes: the tree folds partials of runs of ranks,
     * another association than the flat left fold in rank order that
     * `ordered` and the other forms of `direct` compute, and not every
     * contribution at once as exact's sum needs (doc/reproducible.md) */
    d->fanin = 0;
    if (d->boxed && a->size >= 3 && MCA_COLL_RSAG_REPRODUCIBLE_OFF == a->reproducible) {
        d->fanin = mca_coll_rsag_direct_fanin(a->size, bytes, d->kind);
        mca_coll_rsag_direct_trace_fanin(d, bytes);
    }
}

/* The temporaries' sizes in elements, the same on every rank: a chunk or
 * window for the ping-pong, a copy of my own chunk, a stage. */
static void mca_coll_rsag_direct_temp_counts(const mca_coll_rsag_direct_t *d, size_t n[3])
{
    const mca_coll_rsag_args_t *a = &d->a;
    int r = a->rank;
    bool is_root = mca_coll_rsag_direct_is_root(d);
    size_t my_len = a->displ[r + 1] - a->displ[r];

    n[1] = n[2] = 0;
    if (d->use_cma) {
        n[0] = d->chunk < a->count ? d->chunk : a->count;
        if (d->ctx.exact) {
            n[0] *= (size_t) a->size;           /* every rank's piece of a chunk at once */
        }
        if (a->in_place && is_root && MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER != d->kind) {
            n[1] = n[0];                        /* dest is my own input */
        }
        if (!is_root) {
            n[2] = d->root_pulls ? 0 : n[0];    /* reduce: chunks on their way to the root */
        } else if (MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER == d->kind && a->in_place) {
            n[2] = my_len;                      /* my block until peers stop reading rbuf */
        }
    } else {
        n[0] = d->window < a->count ? d->window : a->count;
        n[2] = (is_root && 0 == d->fanin) ? 0 : n[0];   /* the tree: the other partial */
        if (2 == a->size) {
            n[0] = 0;   /* reading from slots, two inputs go straight to dest */
        }
    }
}

/* This call's buffers (data pointers: element 0's first byte; the
 * receive buffer of a non-root may be NULL: never used then). */
static void mca_coll_rsag_direct_buffers(mca_coll_rsag_direct_t *d)
{
    const mca_coll_rsag_args_t *a = &d->a;

    d->in = (char *) a->input + d->ctx.lb;
    d->out = (NULL != a->rbuf && mca_coll_rsag_direct_is_root(d)) ? a->rbuf + d->ctx.lb : NULL;
}

/* The temporaries (tmp, own, stage: data pointers, element 0's first
 * byte), from wherever the caller took them. */
static void mca_coll_rsag_direct_set_temps(mca_coll_rsag_direct_t *d, char *tmp, char *own,
                                           char *stage)
{
    ptrdiff_t lb = d->ctx.lb;

    d->ctx.tmp = (NULL != tmp) ? tmp + lb : NULL;
    d->ctx.own = (NULL != own) ? own + lb : NULL;
    d->stage = (NULL != stage) ? stage + lb : NULL;
    mca_coll_rsag_direct_buffers(d);
}

/* One block: the state, then the layout (a copy: the module's cache may be
 * refilled meanwhile), then the source and term tables, then `extra` bytes for the
 * caller; the call described and planned.  `counted`: a memory request of
 * rsag's (coll_rsag_mem.c: counted, and failed by coll_rsag_test_alloc_fail;
 * freed with mca_coll_rsag_free), else plain calloc.  NULL when it fails. */
static mca_coll_rsag_direct_t *mca_coll_rsag_direct_new(const mca_coll_rsag_args_t *a,
                                                        const size_t *layout,
                                                        mca_coll_rsag_direct_kind_t kind,
                                                        size_t extra, bool counted,
                                                        bool blocking)
{
    int p = a->size;
    size_t nd = (size_t) p + 1;
    size_t bytes = sizeof(mca_coll_rsag_direct_t) + nd * sizeof(size_t)
                   + (size_t) p * (sizeof(mca_coll_rsag_direct_src_t) + sizeof(void *)) + extra;
    int ncomp = 1;
    ptrdiff_t true_lb, true_extent;
    mca_coll_rsag_direct_t *d;
    size_t *displ;

    d = counted ? mca_coll_rsag_malloc(bytes) : calloc(1, bytes);
    if (NULL == d) {
        return NULL;
    }
    if (counted) {
        memset(d, 0, bytes);
        d->counted = true;
    }
    displ = (size_t *) (d + 1);
    if (NULL != layout) {
        memcpy(displ, layout, nd * sizeof(size_t));
    }
    d->a = *a;
    d->a.displ = displ;
    d->a.vdispl = NULL;
    d->kind = kind;
    ompi_datatype_get_true_extent(a->dtype, &true_lb, &true_extent);
    d->ctx = (mca_coll_rsag_direct_ctx_t) { .a = &d->a, .seg = a->segment, .lb = true_lb,
                                            .ext = (size_t) a->extent,
                                            .src = (mca_coll_rsag_direct_src_t *) (displ + nd) };
    d->ctx.terms = (const void **) (d->ctx.src + p);
    d->ctx.exact = MCA_COLL_RSAG_REPRODUCIBLE_EXACT == a->reproducible
                   && mca_coll_rsag_exact_kind(a->dtype, a->op, &d->ctx.exact_float, &ncomp);
    d->ctx.reals = (size_t) ncomp;
    mca_coll_rsag_direct_plan(d, blocking);
    return d;
}

int mca_coll_rsag_direct_step(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                              mca_coll_rsag_direct_kind_t kind)
{
    mca_coll_rsag_direct_t *d;
    mca_coll_rsag_poll_t poll;
    size_t n[3];
    char *t[3];

    if (OMPI_SUCCESS != s->err) {
        return s->err;
    }
    d = mca_coll_rsag_direct_new(a, a->displ, kind, 0, false, !s->nonblocking);
    if (NULL == d) {
        s->err = OMPI_ERR_OUT_OF_RESOURCE;
        return s->err;
    }
    /* taken from the schedule on every rank before any step, all three
     * (some empty): an allocation failure meets every rank at one request
     * (the failure injection counts them) */
    mca_coll_rsag_direct_temp_counts(d, n);
    for (int i = 0; i < 3; ++i) {
        t[i] = mca_coll_rsag_sched_tmp(s, n[i]);
    }
    mca_coll_rsag_direct_set_temps(d, t[0], t[1], t[2]);
    poll = (mca_coll_rsag_poll_t) { .state = d, .start = mca_coll_rsag_direct_start,
                                    .poll = mca_coll_rsag_direct_poll,
                                    .release = mca_coll_rsag_direct_release };
    (void) mca_coll_rsag_sched_poll_step(s, &poll);
    return s->err;
}

int mca_coll_rsag_direct_own_plan(const mca_coll_rsag_args_t *a,
                                  mca_coll_rsag_direct_kind_t kind, bool guess,
                                  size_t *slot_bytes)
{
    /* planned as the request will be, on the node's segment (no layout:
     * the plan does not read it) */
    mca_coll_rsag_direct_t *d = mca_coll_rsag_direct_new(a, NULL, kind, 0, false, false);
    int rc = OMPI_SUCCESS;

    *slot_bytes = 0;
    if (NULL == d) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    if (!guess && d->copy_guessed) {
        /* the copy mode is learned (and could be tried) in blocking calls
         * only: the request would keep a guess made before any call of
         * its size */
        rc = OMPI_ERR_NOT_AVAILABLE;
    } else if (!d->use_cma) {
        /* a window of the plan, whole cache lines: planned again on slots
         * of twice that, the call gets the same window, ticks and forms */
        size_t half = (d->window < d->a.count ? d->window : d->a.count) * d->ctx.ext;

        half = (half + MCA_COLL_RSAG_CACHE_LINE - 1) & ~(MCA_COLL_RSAG_CACHE_LINE - 1);
        *slot_bytes = 2 * half;
    }
    mca_coll_rsag_direct_free(d);
    return rc;
}

/* ---- a call described once, run many times (the latency path) ----------- */

/* Each temporary of a one-box call of p ranks fits what such a call puts
 * in a box, on its own cache lines. */
static size_t mca_coll_rsag_direct_box_temp(int p)
{
    return (mca_coll_rsag_box_max(p) + MCA_COLL_RSAG_CACHE_LINE - 1)
           & ~(MCA_COLL_RSAG_CACHE_LINE - 1);
}

mca_coll_rsag_direct_t *mca_coll_rsag_direct_prepare(const mca_coll_rsag_args_t *a,
                                                     const size_t *layout,
                                                     mca_coll_rsag_direct_kind_t kind,
                                                     bool counted, int *err)
{
    size_t temp = mca_coll_rsag_direct_box_temp(a->size);
    mca_coll_rsag_direct_t *d = mca_coll_rsag_direct_new(
        a, layout, kind, 3 * temp + MCA_COLL_RSAG_CACHE_LINE, counted, false);
    uintptr_t extra;
    size_t n[3];
    char *t[3];

    *err = (NULL == d) ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS;
    if (NULL == d || d->use_cma || !d->boxed) {
        mca_coll_rsag_direct_free(d);   /* only a one-box call runs without a schedule */
        return NULL;
    }
    /* the temporaries after the source and term tables, from the next
     * cache line */
    extra = (uintptr_t) (d->ctx.terms + a->size);
    extra = (extra + MCA_COLL_RSAG_CACHE_LINE - 1) & ~(uintptr_t) (MCA_COLL_RSAG_CACHE_LINE - 1);
    mca_coll_rsag_direct_temp_counts(d, n);
    for (int i = 0; i < 3; ++i) {
        t[i] = n[i] > 0 ? (char *) extra + (size_t) i * temp : NULL;
    }
    mca_coll_rsag_direct_set_temps(d, t[0], t[1], t[2]);
    return d;
}

bool mca_coll_rsag_direct_serves(const mca_coll_rsag_direct_t *d, const mca_coll_rsag_args_t *a)
{
    return a->count == d->a.count && a->dtype == d->a.dtype && a->op == d->a.op
           && a->root == d->a.root && a->in_place == d->a.in_place
           && (NULL == a->displ
               || 0 == memcmp(a->displ, d->a.displ, ((size_t) a->size + 1) * sizeof(size_t)));
}

void mca_coll_rsag_direct_rebind(mca_coll_rsag_direct_t *d, const mca_coll_rsag_args_t *a)
{
    d->a.input = a->input;
    d->a.rbuf = a->rbuf;
    mca_coll_rsag_direct_buffers(d);
}

int mca_coll_rsag_direct_run(mca_coll_rsag_direct_t *d, const mca_coll_rsag_args_t *a)
{
    mca_coll_rsag_direct_rebind(d, a);
    mca_coll_rsag_direct_start(d);
    return mca_coll_rsag_direct_poll(d, true);
}

mca_coll_rsag_direct_t *mca_coll_rsag_direct_one_box(const mca_coll_rsag_sched_t *s)
{
    mca_coll_rsag_direct_t *d;

    if (1 != s->nsteps || 1 != s->npolls || mca_coll_rsag_direct_poll != s->polls[0].poll) {
        return NULL;
    }
    d = s->polls[0].state;
    return (d->boxed && !d->use_cma) ? d : NULL;
}

void mca_coll_rsag_direct_free(mca_coll_rsag_direct_t *d)
{
    if (NULL != d && d->counted) {
        mca_coll_rsag_free(d);
    } else {
        free(d);
    }
}
