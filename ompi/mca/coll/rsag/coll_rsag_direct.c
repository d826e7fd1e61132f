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
 * A vector of up to 56 bytes goes whole through box t % 2 instead: the
 * box's stamp = t stands for arrive (and says done >= t - 1).
 *
 * Before writing slot half (or box) t % 2 a rank waits until every rank is
 * done with step t - 2 (the last step that used it).  A CMA step reads
 * user buffers, so it ends with every rank waiting for everyone's done:
 * no rank returns while a peer may still read its buffers.  A segment
 * step only reads the segment, so it ends without waiting.
 */
#include "ompi_config.h"

#include <string.h>
#include <time.h>

#include "ompi/constants.h"

#include "coll_rsag.h"
#include "coll_rsag_cma.h"
#include "coll_rsag_direct.h"
#include "coll_rsag_op.h"
#include "coll_rsag_segment.h"
#include "coll_rsag_stream.h"

/* Vectors reduced whole by every rank (segment path): up to
 * WHOLE_BYTES / p bytes, at least up to WHOLE_MIN. */
#define MCA_COLL_RSAG_DIRECT_WHOLE_BYTES ((size_t) 64 * 1024)
#define MCA_COLL_RSAG_DIRECT_WHOLE_MIN ((size_t) 4 * 1024)
/* Up to this many ranks the source table lives on the stack: no malloc
 * (and no atomic counter update, which would wait for the done store's
 * cache miss to drain) in a small call. */
#define MCA_COLL_RSAG_DIRECT_SRC_STACK 64

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
} mca_coll_rsag_direct_ctx_t;

/* Reduce elements [i0, i0 + n) of all p inputs, in rank order, into
 * `dest` (data pointers: element i0's first byte).  The partial result
 * goes back and forth between dest and ctx->tmp so that the last step
 * writes dest: step q writes dest when p - 1 - q is even.  A pulled piece
 * lands in the step's target and is reduced there (target = acc op x_q);
 * a local piece is read where it is (target = acc op x_q, 3 buffers).
 * When dest is my own input (in place) ctx->own holds a copy of it, taken
 * before dest is written. */
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

static double mca_coll_rsag_direct_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* How this call writes for its peers (coll_rsag_direct_stream): sets
 * ctx->stream_min; returns the start time when the call is timed for the
 * learner (auto, segment path, at least coll_rsag_direct_stream_min_bytes),
 * else 0. */
static double mca_coll_rsag_direct_stream_choose(mca_coll_rsag_direct_ctx_t *ctx, bool use_cma,
                                                 size_t bytes, mca_coll_rsag_stream_way_t *way,
                                                 bool *trial)
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
    *way = mca_coll_rsag_stream_pick(&ctx->seg->learn, bytes, trial);
    ctx->stream_min = (MCA_COLL_RSAG_WAY_STREAMED == *way) ? min : SIZE_MAX;
    return mca_coll_rsag_direct_now();
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

/* The CMA path: one step. */
static int mca_coll_rsag_direct_cma(mca_coll_rsag_direct_ctx_t *ctx,
                                    mca_coll_rsag_direct_kind_t kind, char *in, char *out,
                                    char *stage, size_t chunk)
{
    const mca_coll_rsag_args_t *a = ctx->a;
    mca_coll_rsag_segment_t *seg = ctx->seg;
    mca_coll_rsag_ctl_t *ctl = seg->ctl;
    int p = a->size, r = a->rank, err = OMPI_SUCCESS;
    size_t b0 = a->displ[r], b1 = a->displ[r + 1];
    uint64_t t = ++seg->tick;
    bool to_root = (MCA_COLL_RSAG_DIRECT_REDUCE == kind && r != a->root);

    ctl[r].input = (uint64_t) (uintptr_t) in;
    ctl[r].output = (uint64_t) (uintptr_t) out;
    mca_coll_rsag_publish(seg, MCA_COLL_RSAG_CTL(arrive), t);
    mca_coll_rsag_wait_all(seg, MCA_COLL_RSAG_CTL(arrive), t);
    for (int q = 0; q < p; ++q) {
        ctx->src[q].local = (q == r) ? in : NULL;
        ctx->src[q].first = 0;
        ctx->src[q].pid = seg->pids[q];
        ctx->src[q].remote = ctl[q].input;
    }

    /* my block, chunk by chunk */
    for (size_t i = b0; i < b1 && OMPI_SUCCESS == err; i += chunk) {
        size_t n = (b1 - i < chunk) ? b1 - i : chunk;

        if (to_root) {
            err = mca_coll_rsag_direct_fold(ctx, i, n, stage);
            if (OMPI_SUCCESS == err) {
                err = mca_coll_rsag_cma_write(seg->pids[a->root], stage,
                                              ctl[a->root].output + (uint64_t) (i * ctx->ext),
                                              n * ctx->ext);
            }
        } else if (MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER == kind) {
            /* in place, my input is the receive buffer peers still read */
            err = mca_coll_rsag_direct_fold(ctx, i, n,
                                            (a->in_place ? stage : out) + (i - b0) * ctx->ext);
        } else {
            err = mca_coll_rsag_direct_fold(ctx, i, n, out + i * ctx->ext);
        }
    }
    if (OMPI_SUCCESS != err) {
        ctl[r].failed = t;
    }
    mca_coll_rsag_publish(seg, MCA_COLL_RSAG_CTL(ready), t);

    if (MCA_COLL_RSAG_DIRECT_ALLREDUCE == kind) {
        /* the other blocks from their owners, the next rank's first */
        for (int k = 1; k < p; ++k) {
            int j = (r + k) % p;
            size_t lo = a->displ[j], len = a->displ[j + 1] - lo;

            mca_coll_rsag_wait_one(seg, j, MCA_COLL_RSAG_CTL(ready), t);
            if (len > 0 && OMPI_SUCCESS == err) {
                err = mca_coll_rsag_cma_read(seg->pids[j], out + lo * ctx->ext,
                                             ctl[j].output + (uint64_t) (lo * ctx->ext),
                                             len * ctx->ext);
            }
        }
    } else if (MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER == kind && a->in_place) {
        mca_coll_rsag_wait_all(seg, MCA_COLL_RSAG_CTL(ready), t);
        memcpy(out, stage, (b1 - b0) * ctx->ext);
    }
    if (OMPI_SUCCESS != err) {
        ctl[r].failed = t;
    }
    mca_coll_rsag_publish(seg, MCA_COLL_RSAG_CTL(done), t);
    mca_coll_rsag_wait_all(seg, MCA_COLL_RSAG_CTL(done), t);
    for (int q = 0; q < p; ++q) {
        if (ctl[q].failed == t) {
            return OMPI_SUCCESS != err ? err : OMPI_ERROR;
        }
    }
    return err;
}

/* The segment path, tick t: publish my input of elements [w0, w1) (in box
 * or slot half h), wait for every rank's, and point ctx->src at them.
 * `all`: copy the whole window (else not my block [lo, hi), which I read
 * from my input). */
static void mca_coll_rsag_direct_post(mca_coll_rsag_direct_ctx_t *ctx, const char *in,
                                      size_t w0, size_t w1, size_t lo, size_t hi, bool boxed,
                                      bool all, uint64_t t)
{
    mca_coll_rsag_segment_t *seg = ctx->seg;
    int p = ctx->a->size, r = ctx->a->rank, h = (int) (t & 1);
    size_t ext = ctx->ext, stream_min = ctx->stream_min;

    if (boxed) {
        mca_coll_rsag_box_t *box = mca_coll_rsag_box(seg, r, h);

        memcpy(box->data, in, (w1 - w0) * ext);
        mca_coll_rsag_box_publish(box, t);
        mca_coll_rsag_wait_boxes(seg, h, t);
        for (int q = 0; q < p; ++q) {
            ctx->src[q].local = mca_coll_rsag_box(seg, q, h)->data;
            ctx->src[q].first = 0;
        }
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
    mca_coll_rsag_wait_all(seg, MCA_COLL_RSAG_CTL(arrive), t);
    for (int q = 0; q < p; ++q) {
        ctx->src[q].local = mca_coll_rsag_slot(seg, q, h);
        ctx->src[q].first = w0;
    }
    if (!all) {
        ctx->src[r].local = in + w0 * ext;  /* my block straight from my input */
    }
}

/* The segment path, one window [w0, w1) split among its owners (tick t,
 * input posted): my block reduced into my slot, the others' copied. */
static void mca_coll_rsag_direct_split(mca_coll_rsag_direct_ctx_t *ctx,
                                       mca_coll_rsag_direct_kind_t kind, char *out,
                                       char *stage, size_t w0, size_t w1, size_t lo, size_t hi,
                                       uint64_t t)
{
    const mca_coll_rsag_args_t *a = ctx->a;
    mca_coll_rsag_segment_t *seg = ctx->seg;
    int p = a->size, r = a->rank, h = (int) (t & 1);
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
    if (MCA_COLL_RSAG_DIRECT_ALLREDUCE == kind || r == a->root) {
        for (int k = 1; k < p; ++k) {
            int j = (r + k) % p;
            size_t jl, jh;

            mca_coll_rsag_direct_block(a, kind, w0, w1, j, &jl, &jh);
            mca_coll_rsag_wait_one(seg, j, MCA_COLL_RSAG_CTL(ready), t);
            memcpy(out + jl * ext, mca_coll_rsag_slot(seg, j, h) + (jl - w0) * ext,
                   (jh - jl) * ext);
        }
    }
}

/* The segment path: one step per window of `window` elements. */
static int mca_coll_rsag_direct_slots(mca_coll_rsag_direct_ctx_t *ctx,
                                      mca_coll_rsag_direct_kind_t kind, const char *in,
                                      char *out, char *stage, size_t window)
{
    const mca_coll_rsag_args_t *a = ctx->a;
    mca_coll_rsag_segment_t *seg = ctx->seg;
    int p = a->size, r = a->rank;
    size_t n = a->count, ext = ctx->ext;
    /* A small vector is reduced whole by every rank that needs it: one
     * wait instead of two, for p times the reading.  Up to 32 KB at np 2
     * (the whole 16 KB and split 64 KB calls cost about the same per byte),
     * less for larger p. */
    size_t whole_max = MCA_COLL_RSAG_DIRECT_WHOLE_BYTES / (size_t) p;
    bool whole = (n <= window)
                 && n * ext <= (whole_max > MCA_COLL_RSAG_DIRECT_WHOLE_MIN
                                ? whole_max : MCA_COLL_RSAG_DIRECT_WHOLE_MIN);
    /* A vector of one box (56 bytes) goes whole through the boxes: its
     * data and its stamp share a cache line, one miss per peer. */
    bool boxed = whole && n * ext <= MCA_COLL_RSAG_BOX_BYTES;
    /* My block is read straight from my input, except in place: the result
     * overwrites my input while I still read it, so my block is read from
     * my slot copy like everyone else's. */
    bool own_from_input = !a->in_place;

    for (size_t w0 = 0; w0 < n; w0 += window) {
        size_t w1 = (n - w0 < window) ? n : w0 + window, lo, hi;
        uint64_t t = ++seg->tick;

        if (t > 2) {
            mca_coll_rsag_wait_all(seg, MCA_COLL_RSAG_CTL(done), t - 2);
        }
        mca_coll_rsag_direct_block(a, kind, w0, w1, r, &lo, &hi);
        mca_coll_rsag_direct_post(ctx, in, w0, w1, lo, hi, boxed, whole || !own_from_input, t);
        if (!whole) {
            mca_coll_rsag_direct_split(ctx, kind, out, stage, w0, w1, lo, hi, t);
        } else if (MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER == kind) {
            (void) mca_coll_rsag_direct_fold(ctx, a->displ[r], a->displ[r + 1] - a->displ[r],
                                             out);
        } else if (MCA_COLL_RSAG_DIRECT_ALLREDUCE == kind || r == a->root) {
            (void) mca_coll_rsag_direct_fold(ctx, 0, n, out);
        }
        mca_coll_rsag_publish(seg, MCA_COLL_RSAG_CTL(done), t);
    }
    return OMPI_SUCCESS;
}

int mca_coll_rsag_direct(const mca_coll_rsag_args_t *a, mca_coll_rsag_direct_kind_t kind)
{
    mca_coll_rsag_segment_t *seg = a->segment;
    mca_coll_rsag_tmp_t tmp = MCA_COLL_RSAG_TMP_INIT, own = MCA_COLL_RSAG_TMP_INIT,
                        stage = MCA_COLL_RSAG_TMP_INIT;
    mca_coll_rsag_direct_src_t src_stack[MCA_COLL_RSAG_DIRECT_SRC_STACK];
    mca_coll_rsag_direct_ctx_t ctx;
    int p = a->size, r = a->rank, err;
    ptrdiff_t true_lb, true_extent;
    size_t ext = (size_t) a->extent, half = seg->slot_bytes / 2;
    size_t window = half / ext, chunk, bytes = a->count * ext;
    size_t my_len = a->displ[r + 1] - a->displ[r];
    bool is_root = (MCA_COLL_RSAG_DIRECT_REDUCE != kind || r == a->root);
    /* an element larger than a window can only go by CMA (the selector
     * saw to it that CMA works then) */
    bool use_cma = (MCA_COLL_RSAG_COPY_CMA == seg->mode)
                   && (MCA_COLL_RSAG_SINGLE_COPY_CMA == mca_coll_rsag_node_params.single_copy
                       || bytes >= mca_coll_rsag_node_params.cma_min_bytes || 0 == window);
    size_t ntmp, nown = 0, nstage = 0;
    mca_coll_rsag_stream_way_t way = MCA_COLL_RSAG_WAY_CACHED;
    bool trial = false;
    double t0;

    ctx.src = NULL;
    ompi_datatype_get_true_extent(a->dtype, &true_lb, &true_extent);
    chunk = mca_coll_rsag_node_params.chunk_size / ext;
    chunk = chunk > 0 ? chunk : 1;

    /* Every rank asks for the same three temporaries (some empty), before
     * any step: an allocation failure meets every rank at one request. */
    if (use_cma) {
        ntmp = chunk < a->count ? chunk : a->count;
        if (a->in_place && is_root && MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER != kind) {
            nown = ntmp;                        /* dest is my own input */
        }
        if (!is_root) {
            nstage = ntmp;                      /* reduce: chunks on their way to the root */
        } else if (MCA_COLL_RSAG_DIRECT_REDUCE_SCATTER == kind && a->in_place) {
            nstage = my_len;                    /* my block until peers stop reading rbuf */
        }
    } else {
        ntmp = window < a->count ? window : a->count;
        nstage = is_root ? 0 : ntmp;
        if (2 == p) {
            ntmp = 0;   /* reading from slots, two inputs go straight to dest */
        }
    }
    err = mca_coll_rsag_tmp_alloc(&tmp, ntmp, a->dtype);
    if (OMPI_SUCCESS == err) {
        err = mca_coll_rsag_tmp_alloc(&own, nown, a->dtype);
    }
    if (OMPI_SUCCESS == err) {
        err = mca_coll_rsag_tmp_alloc(&stage, nstage, a->dtype);
    }
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }
    ctx.src = (p <= MCA_COLL_RSAG_DIRECT_SRC_STACK)
              ? src_stack : mca_coll_rsag_malloc((size_t) p * sizeof(*ctx.src));
    if (NULL == ctx.src) {
        err = OMPI_ERR_OUT_OF_RESOURCE;
        goto cleanup;
    }
    ctx.a = a;
    ctx.seg = seg;
    ctx.lb = true_lb;
    ctx.ext = ext;
    ctx.tmp = tmp.buf + true_lb;
    ctx.own = nown > 0 ? own.buf + true_lb : NULL;

    /* data pointers: element 0's first byte (the receive buffer of a
     * non-root may be NULL: never used then) */
    t0 = mca_coll_rsag_direct_stream_choose(&ctx, use_cma, bytes, &way, &trial);
    if (use_cma) {
        err = mca_coll_rsag_direct_cma(&ctx, kind, (char *) a->input + true_lb,
                                       NULL != a->rbuf && is_root ? a->rbuf + true_lb : NULL,
                                       nstage > 0 ? stage.buf + true_lb : NULL, chunk);
    } else {
        err = mca_coll_rsag_direct_slots(&ctx, kind, a->input + true_lb,
                                         NULL != a->rbuf && is_root ? a->rbuf + true_lb : NULL,
                                         nstage > 0 ? stage.buf + true_lb : NULL, window);
    }

    if (t0 > 0) {
        mca_coll_rsag_direct_stream_learn(a, bytes, way, trial, t0);
    }

cleanup:
    if (src_stack != ctx.src) {
        mca_coll_rsag_free(ctx.src);
    }
    mca_coll_rsag_tmp_free(&stage);
    mca_coll_rsag_tmp_free(&own);
    mca_coll_rsag_tmp_free(&tmp);
    return err;
}
