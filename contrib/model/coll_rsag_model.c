/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The cost model (coll_rsag_model.h): one formula per algorithm row of
 * coll_rsag_algorithms.h, each the critical path of the algorithm's steps
 * as its file's header describes them, costed on the link each step uses.
 *
 * Placement: ranks are numbered node by node (ppn consecutive ranks per
 * node, Open MPI's default by-slot mapping).  A pairwise step at rank
 * distance d stays on the node when the aligned windows of 2d ranks fit
 * inside nodes (ppn a multiple of 2d); otherwise some pairs cross: all
 * ppn ranks of a node when d >= ppn, else up to d of them.  The step costs
 * what its slowest pair costs.  After the non-power-of-two fold, vrank
 * distances are taken as rank distances (exact for p = 2^k).
 *
 * A message of m bytes on link L, with k ranks of a node sending across
 * the network at once (they share the node's link when nic_share) and F
 * messages in the whole network at once (fabric_bw):
 *     alpha + [m > eager] rndv + m max(beta k [x], F / fabric_bw)
 * with beta_eager up to the eager limit, x = net_exchange when the step is
 * an exchange (both directions between the same pair) above the eager
 * limit (where it was measured), else 1; the call's last message on the
 * network costs alpha only when it is at most net_burst bytes (a shaper's
 * burst: its bytes are paid after the call; time_ctx).
 * On shared memory k ranks of a node copying at once share node_bw, as far
 * as the node's data (p 2 n bytes on a node of p ranks) is out of the cache
 * (node_uncached: log-linear from cache_bytes to 4 cache_bytes).  A
 * reduction of m bytes (one operand) costs m gamma.  When the call's
 * vectors fit the cache (2 n <= cache_bytes) rendezvous bytes cost beta_cache and reductions gamma_cache; from
 * 2 n >= 4 cache_bytes the memory-bound beta and gamma; log-linear between.
 */
#include "coll_rsag_model.h"
#include "coll_rsag_index.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


/* ---- context of one prediction ------------------------------------------ */

typedef struct {
    const mca_coll_rsag_model_profile_t *pr;
    const mca_coll_rsag_model_call_t *c;
    int p, ppn, nodes, pof2, extra, log2p;
    double n;
    double streams;     /* extra NIC sharers (hierarchical's inter phase) */
    int memcpy_only;    /* direct: the learner's other way, memcpy throughout */
} ctx_t;

static int ilog2(int x)
{
    int l = 0;
    while ((1 << (l + 1)) <= x) l++;
    return l;
}

static int ceil_log2(int x)
{
    int l = 0;
    while ((1 << l) < x) l++;
    return l;
}

static void ctx_init(ctx_t *x, const mca_coll_rsag_model_call_t *c,
                     const mca_coll_rsag_model_profile_t *pr, double streams)
{
    x->pr = pr;
    x->c = c;
    x->p = c->p < 1 ? 1 : c->p;
    x->ppn = c->ppn < 1 ? 1 : (c->ppn > x->p ? x->p : c->ppn);
    x->nodes = (x->p + x->ppn - 1) / x->ppn;
    x->log2p = ilog2(x->p);
    x->pof2 = 1 << x->log2p;
    x->extra = x->p - x->pof2;
    x->n = (double) c->bytes;
    x->streams = streams < 1 ? 1 : streams;
    x->memcpy_only = 0;
}

/* Processes per core: CPU work stretches by this factor. */
static double cpu(const ctx_t *x)
{
    return x->pr->cpu_share > 1.0 ? x->pr->cpu_share : 1.0;
}

/* Ranks of one node crossing the network at once in a step at rank
 * distance d (0: the step stays on the nodes). */
static int crossing(const ctx_t *x, int d)
{
    if (x->nodes <= 1) return 0;
    if (d >= x->ppn) return x->ppn;
    if (x->ppn % (2 * d) == 0) return 0;
    return d < x->ppn ? d : x->ppn;
}

/* How far the call's working set (its input and output vectors, 2 n bytes;
 * of a pipeline chunk, the whole step's: cache_n) is out of the cache: 0 up to cache_bytes, 1 from 4 cache_bytes, log-linear
 * between (measured rates change gradually over that range). */
static double cache_n(const ctx_t *x)
{
    return (double) x->c->whole_bytes > x->n ? (double) x->c->whole_bytes : x->n;
}

/* The share of w bytes beyond a level of lo bytes: 0 up to lo, 1 from
 * 4 lo, log-linear between (measured rates change gradually over two
 * octaves). */
static double beyond(double w, double lo)
{
    if (w <= lo) return 0.0;
    if (w >= 4.0 * lo) return 1.0;
    return log2(w / lo) / 2.0;
}

static double uncached(const ctx_t *x)
{
    return beyond(2.0 * cache_n(x), (double) x->pr->cache_bytes);
}

/* The same for the whole node's data: its ranks' vectors, ppn 2 n bytes.
 * The node's memory bandwidth is shared only by what goes to memory. */
static double node_bytes(const ctx_t *x)
{
    return 2.0 * cache_n(x) * x->ppn;
}

static double node_uncached(const ctx_t *x)
{
    return beyond(node_bytes(x), (double) x->pr->cache_bytes);
}

/* Memory rates (measured within the last-level cache) beyond it: 1 while
 * the node's data fits a quarter of it, dram_factor from its size,
 * log-linear between. */
static double dram(const ctx_t *x)
{
    double c = (double) x->pr->llc_bytes, f = x->pr->dram_factor;
    if (c <= 0 || f <= 1.0) return 1.0;
    return 1.0 + (f - 1.0) * beyond(node_bytes(x), c / 4.0);
}

static double mix(const ctx_t *x, double cached_rate, double memory_rate)
{
    double u = uncached(x);
    return cached_rate * (1.0 - u) + memory_rate * dram(x) * u;
}

static double per_byte(const ctx_t *x, const mca_coll_rsag_model_link_t *l, double m)
{
    if (m <= (double) l->eager) return l->beta_eager;
    return mix(x, l->beta_cache, l->beta);
}

/* Rendezvous of a pipelined message (a further segment / run). */
static double rndv_pipe(const mca_coll_rsag_model_link_t *l, double m)
{
    if (m <= (double) l->eager) return 0.0;
    return l->rndv_pipe >= 0 ? l->rndv_pipe : l->rndv;
}

/* One message of m bytes (an exchange step or a one-way step: the same on
 * full-duplex links) by a rank of which k on its node move at once over
 * link `net` (1) or shared memory (0). */
static double msg_kw(const ctx_t *x, double m, int net, int k, int two_way)
{
    const mca_coll_rsag_model_profile_t *pr = x->pr;
    if (m <= 0) return 0.0;
    if (net) {
        const mca_coll_rsag_model_link_t *l = &pr->net;
        double share = pr->nic_share > 0 ? k * x->streams : 1.0;
        double chunk = (double) x->c->knobs.exchange_chunk;
        /* an exchange cut in messages of at most the chunk (the component's
         * mca_coll_rsag_sched_sendrecv with a peer on another node): below
         * the eager limit, no rendezvous, no exchange slowdown; each
         * further message its overhead */
        double pieces = two_way && chunk > 0 && m > chunk ? ceil(m / chunk) : 1.0;
        double b = per_byte(x, l, pieces > 1 ? chunk : m) * share;
        if (two_way && pieces == 1.0 && m > (double) l->eager && pr->net_exchange > 1.0)
            b *= pr->net_exchange;
        if (pr->fabric_bw > 0) {
            double f = (double) x->nodes * k * x->streams / pr->fabric_bw;
            if (f > b) b = f;
        }
        if (pieces > 1)
            return l->alpha + (pieces - 1) * l->o + (chunk > (double) l->eager ? pieces * l->rndv : 0.0)
                   + m * b;
        return l->alpha + (m > (double) l->eager ? l->rndv : 0.0) + m * b;
    }
    const mca_coll_rsag_model_link_t *l = &pr->shm;
    double b = per_byte(x, l, m) * cpu(x);
    if (pr->node_bw > 0 && k * node_uncached(x) / pr->node_bw > b)
        b = k * node_uncached(x) / pr->node_bw;
    return l->alpha + (m > (double) l->eager ? l->rndv : 0.0) + m * b;
}

static double msg_k(const ctx_t *x, double m, int net, int k)
{
    return msg_kw(x, m, net, k, 0);
}

/* A step at rank distance d, every rank moving m bytes: one way (msg: a
 * send and a receive from different ranks, or one direction only) or an
 * exchange (xmsg: both directions between the same pair, net_exchange). */
static double msg(const ctx_t *x, double m, int d)
{
    int k = crossing(x, d);
    return k ? msg_k(x, m, 1, k) : msg_k(x, m, 0, x->ppn);
}

static double xmsg(const ctx_t *x, double m, int d)
{
    int k = crossing(x, d);
    return k ? msg_kw(x, m, 1, k, 1) : msg_k(x, m, 0, x->ppn);
}

/* The gammas of the call. */
static double red(const ctx_t *x, double m)
{
    const mca_coll_rsag_model_call_t *c = x->c;
    const mca_coll_rsag_model_profile_t *pr = x->pr;
    double g = c->gamma >= 0 ? c->gamma : pr->gamma;
    double gc = c->gamma_cache >= 0 ? c->gamma_cache : pr->gamma_cache;
    if (m <= 0) return 0.0;
    return m * mix(x, gc, g) * cpu(x);
}

/* Link of a ring: the slowest hop, one rank per node sending out. */
static const mca_coll_rsag_model_link_t *ring_link(const ctx_t *x, double *beta_mult, int *net)
{
    *net = x->nodes > 1;
    *beta_mult = 1.0;
    if (*net) {
        *beta_mult = x->pr->nic_share > 0 ? x->streams : 1.0;
        return &x->pr->net;
    }
    return &x->pr->shm;
}

/* One ring step of blocks of b bytes in segments (reduce: the received
 * segments are reduced, overlapped with the next transfers as far as the
 * link allows). */
static double ring_step(const ctx_t *x, double b, int reduce)
{
    double mult;
    int net;
    const mca_coll_rsag_model_link_t *l = ring_link(x, &mult, &net);
    size_t seg = x->c->knobs.ring_segment;
    if (b <= 0) return msg_k(x, 8, net, 1); /* empty blocks still synchronise */
    double s = (seg == 0 || (double) seg >= b) ? b : (double) seg;
    double k = ceil(b / s);
    /* p = 2: the left and right neighbours are one rank, a hop an exchange */
    int tw = net && x->p == 2;
    /* on a node every rank sends its segment in the same step */
    double first = msg_kw(x, s, net, net ? 1 : x->ppn, tw);
    double bb = per_byte(x, l, s) * mult * (net ? 1.0 : cpu(x));
    if (tw && s > (double) l->eager && x->pr->net_exchange > 1.0) bb *= x->pr->net_exchange;
    if (!net && x->pr->node_bw > 0 && x->ppn * node_uncached(x) / x->pr->node_bw > bb)
        bb = x->ppn * node_uncached(x) / x->pr->node_bw;
    if (net && x->pr->fabric_bw > 0) {
        double f = (double) x->nodes * x->streams / x->pr->fabric_bw;
        if (f > bb) bb = f;
    }
    double rest = (k - 1) * (l->o + rndv_pipe(l, s) + s * bb);
    double t = first + rest;
    if (reduce) {
        double r = red(x, b), hidden = l->overlap * (r - red(x, s));
        if (hidden > rest) hidden = rest;
        t += r - hidden;
    }
    return t;
}

/* The balanced pre-step of the folding algorithms: exchange halves, reduce,
 * hand the odd rank's half over. */
static double fold_pre(const ctx_t *x)
{
    if (!x->extra) return 0.0;
    return xmsg(x, x->n / 2, 1) + red(x, x->n / 2) + msg(x, x->n / 2, 1);
}

/* Recursive halving, distance halving (reduce-scatter), over the folded
 * vector; the received half is reduced before the next step. */
static double halving_rs(const ctx_t *x)
{
    double t = 0.0;
    for (int k = 0; k < x->log2p; k++) {
        double m = x->n / (double) (2 << k);
        t += xmsg(x, m, x->pof2 >> (k + 1)) + red(x, m);
    }
    return t;
}

/* Recursive halving with distance doubling (Rabenseifner). */
static double halving_rs_doubling(const ctx_t *x)
{
    double t = 0.0;
    for (int k = 0; k < x->log2p; k++) {
        double m = x->n / (double) (2 << k);
        t += xmsg(x, m, 1 << k) + red(x, m);
    }
    return t;
}

/* The allgather (two_way: exchanges) or gather (one way) mirror of
 * halving_rs_doubling: at distance 2^k the window of n / 2^(k+1) bytes. */
static double doubling_back(const ctx_t *x, int two_way)
{
    double t = 0.0;
    for (int k = x->log2p - 1; k >= 0; k--)
        t += two_way ? xmsg(x, x->n / (double) (2 << k), 1 << k)
                     : msg(x, x->n / (double) (2 << k), 1 << k);
    return t;
}

/* Allgather by recursive doubling of p' vblocks: at distance 2^j, 2^j vblocks. */
static double doubling_ag(const ctx_t *x)
{
    double t = 0.0;
    for (int j = 0; j < x->log2p; j++)
        t += xmsg(x, x->n * (double) (1 << j) / x->pof2, 1 << j);
    return t;
}

/* The priority-aware reduce-scatter's steps (after the pre-step). */
static double priority_rs(const ctx_t *x)
{
    int U = x->c->knobs.priority_chunks < 1 ? 1 : x->c->knobs.priority_chunks;
    double t = 0.0, last = 0.0;
    for (int k = 0; k < x->log2p; k++) {
        int m = x->pof2 >> (k + 1);
        int runs = m / U > 1 ? m / U : 1;
        double bytes = x->n / (double) (2 << k), s = bytes / runs;
        int kk = crossing(x, m);
        const mca_coll_rsag_model_link_t *l = kk ? &x->pr->net : &x->pr->shm;
        double one = msg_kw(x, s, kk != 0, kk ? kk : x->ppn, 1);
        /* a further run: latency hidden, the pipelined rendezvous */
        double per = one - l->alpha + l->o
            - (s > (double) l->eager ? l->rndv : 0.0) + rndv_pipe(l, s);
        double transfer = one + (runs - 1) * per;
        /* the previous step's data is reduced while this step's runs fly */
        double r = last, hidden = l->overlap * r;
        if (hidden > transfer) hidden = transfer;
        t += transfer + r - hidden;
        last = red(x, bytes);
    }
    return t + last;
}

static size_t count_of(const ctx_t *x)
{
    size_t ts = x->c->type_size ? x->c->type_size : 8;
    return x->c->bytes / ts;
}

/* ---- the formulas, one per table row ------------------------------------ */

typedef double (*formula_t)(const ctx_t *x);

static double f_allreduce_rd(const ctx_t *x)
{
    double t = 0.0;
    if (x->extra) t += msg(x, x->n, 1) + red(x, x->n);
    for (int k = 0; k < x->log2p; k++)
        t += xmsg(x, x->n, 1 << k) + red(x, x->n);
    if (x->extra) t += msg(x, x->n, 1);
    return t;
}

static double f_allreduce_rabenseifner(const ctx_t *x)
{
    return fold_pre(x) + halving_rs_doubling(x) + doubling_back(x, 1)
        + (x->extra ? msg(x, x->n, 1) : 0.0);
}

static double f_allreduce_ring(const ctx_t *x)
{
    double b = x->n / x->p;
    return (x->p - 1) * (ring_step(x, b, 1) + ring_step(x, b, 0));
}

static double f_allreduce_priority(const ctx_t *x)
{
    return fold_pre(x) + priority_rs(x) + doubling_ag(x) + (x->extra ? msg(x, x->n, 1) : 0.0);
}

static double cma_rate(const ctx_t *x, int k)
{
    double b = x->pr->cma_beta * cpu(x);
    if (x->pr->node_bw > 0 && k * node_uncached(x) / x->pr->node_bw > b)
        b = k * node_uncached(x) / x->pr->node_bw;
    return b;
}

/* ---- direct: the node path (coll_rsag_direct.c) --------------------------
 *
 * Every rank of the node works at once, so each term is a rank's per-byte
 * cost with k ranks doing the same at once: max(one core's rate, k x the
 * phase's memory traffic per byte x node_uncached / node_mem_bw).  Traffic per byte: a
 * put 1 (the streamed write) + u (its source read from memory), a
 * reduction from the segment 1 (the peer's piece; the partial result stays
 * in the cache), a get 1 + u (the result written to the output), u the
 * call's uncached fraction (0 when its vectors fit the cache, 1 from 4
 * cache_bytes).  What a rank reads of the
 * segment that another core has just written costs the measured rates of
 * that (xcopy, xreduce; xcopy_nt, xreduce_nt when it was streamed); what it
 * copies of its own input into the segment one core's rate, cached when the
 * call's vectors fit the cache, memory-bound from 4 cache_bytes (mix).
 *
 * The segment path (the default: coll_rsag_direct_cma_min_bytes never),
 * slot = mca_coll_rsag_model_direct_slot, window W = slot / 2, T = ceil(n / W)
 * windows (ticks), b = w / p of a window of w bytes:
 *   boxed  n <= 4152 B at p = 2, 1080 B from p = 3 (mca_coll_rsag_box_max):
 *          copy into my box, one wait
 *          for all boxes, reduce (a blocking call of a remembered shape
 *          takes the latency path, coll_rsag_latency.c: the same moves
 *          without the dispatcher, and about call_alpha of its own)
 *   whole  n <= W and n <= max(64 KB / p, 4 KB): copy n into my slot (the
 *          streaming copy from stream_min), one wait, every rank that needs
 *          the result reduces it whole from the p slots: (p - 1) n
 *          (reduce-scatter: (p - 1) n / p)
 *   reduce's whole  n <= 256 KB at p = 2, else as whole; not boxed: the p - 1
 *          others copy windows of P = 8 KB into their slots while the root
 *          reduces the window before, (p - 1) P, straight into its output:
 *          the first window's copy, wait and reduction, then per further
 *          window the larger of a copy and a reduction, and a wait
 *   split  per window: copy in what the others reduce, (p - 1) b (streaming
 *          from stream_min); wait for all; reduce my block, (p - 1) b; copy
 *          my result into my slot, b (streamed too); wait for each owner;
 *          copy the p - 1 other blocks out, (p - 1) b.  Allreduce:
 *          all p ranks in every phase; reduce: the root copies out alone.
 *          Reduce-scatter: MPI's blocks of n / p bytes, so a window holds
 *          the blocks of min(p, ceil(w / (n/p))) owners, each reducing
 *          (p - 1) min(w, n/p) while the others copy the next windows in
 *          (two windows ahead at most): after the first window, a window
 *          costs the larger of the two
 *   waits  the call's first wait: sync (it meets the barrier's skew); every
 *          further one: handoff; a wait on p ranks: + (p - 2) handoff_line;
 *          unboxed, one more handoff at the start (the peers' done flags of
 *          two ticks ago, before a rank writes its slot's half again)
 *   plus call_alpha.
 * The CMA path (from coll_rsag_direct_cma_min_bytes): my block pulled from
 * each peer chunk by chunk and reduced, (p - 1) n/p (cma_beta, the node's
 * bandwidth shared), cma_alpha per pull; allreduce: the p - 1 other blocks
 * pulled; reduce: my block written to the root; a closing wait for all.
 * What a peer wrote is read at xcopy / xreduce for its piece's size
 * (xrate: 2 KB pieces pay a line fetch each, 256 KB ones stream), plus one
 * hand-off for its first line beyond the flag's own (dlines).  With
 * coll_rsag_direct_stream auto the learner keeps the faster of streaming
 * and memcpy: the model takes the faster of the two (direct).
 *
 * The boxed tree (p >= 3, coll_rsag_direct_fanin k >= 2 or the model's
 * pick): L = ceil(log_k p) levels; every rank copies its input into its
 * box (a leader reads it in its first fold instead: the same bytes);
 * per level a leader waits for its k - 1 children's boxes (the first
 * level's wait: sync, each further one: handoff, + (k - 2) handoff_line)
 * and folds them, (k - 1) n (xreduce: boxes other cores just wrote, the
 * level's ceil(p / k^l) leaders at once); then the release: one wait on
 * rank 0's box (handoff) and one copy out of it by every rank that takes
 * the result (xcopy: n, the reduce-scatter's block n / p; the reduce's
 * root alone, counted whatever the root: rank 0 as root saves it).
 * Flat is the boxed form above: one wait on the p - 1 others, (p - 1) n
 * folded by every rank that needs the result.  The tree trades the flat
 * form's (p - 1) box reads per rank for L hand-offs in a row plus one: it
 * wins where (p - 1) (handoff_line + n xreduce) outgrows
 * (L + 1) handoff + L (k - 1) (handoff_line + n xreduce). */


/* per-byte rate of one of k ranks doing it at once, moving `traffic`
 * bytes of memory per byte */
static double shared_rate(const ctx_t *x, double one, double traffic, int k)
{
    double bw = x->pr->node_mem_bw, cap = k * traffic * node_uncached(x) * dram(x);
    if (bw > 0 && cap / bw > one) return cap / bw;
    return one;
}

static double copy_rate(const ctx_t *x)
{
    return mix(x, x->pr->memcpy_cache, x->pr->memcpy_beta) * cpu(x);
}

/* Does a piece of m bytes that a rank writes for its peers go by the
 * streaming copy? */
static int streamed(const ctx_t *x, double m)
{
    return !x->memcpy_only && x->c->knobs.direct_stream != MCA_COLL_RSAG_MODEL_STREAM_NEVER
           && m >= (double) x->c->knobs.direct_stream_min && x->pr->stream_beta > 0;
}

/* s/B of reading pieces of `piece` bytes another core has just written
 * (`kind`: MCA_COLL_RSAG_MODEL_X*), `big` the 256 KB rate: log-linear
 * between the profile's piece sizes; piece 0: a box's few lines. */
static double xrate(const ctx_t *x, int kind, double big, double piece)
{
    const mca_coll_rsag_model_profile_t *pr = x->pr;
    const size_t *at = pr->xpiece[kind];
    const double *rate = pr->xat[kind];
    int n = pr->nx[kind];

    if (n == 0 || big <= 0 || piece >= 262144.0) return big;
    if (piece <= (double) at[0]) return rate[0];
    for (int i = 0; i < n; i++) {
        /* the segment [at[i], next) that holds the piece; next: the
         * following point, or 256 KB's */
        double lo = (double) at[i], hi = i + 1 < n ? (double) at[i + 1] : 262144.0;
        double rhi = i + 1 < n ? rate[i + 1] : big;
        if (piece < hi && hi > lo) return rate[i] + (rhi - rate[i]) * log2(piece / lo) / log2(hi / lo);
    }
    return big;
}

/* The first of the lines a peer wrote beyond its flag's own line: fetched
 * from the writer's cache once the flag is seen, a further hand-off (a
 * box's vector of up to 56 bytes shares its stamp's line: none). */
static double dlines(const ctx_t *x, double bytes)
{
    return bytes > 56.0 ? x->pr->handoff : 0.0;
}

/* A copy of m bytes by one of k ranks of its own data into the segment
 * for the peers: streamed from the stream_min knob on, the source cached
 * as the call's vectors are. */
static double dput(const ctx_t *x, double m, int k)
{
    const mca_coll_rsag_model_profile_t *pr = x->pr;
    if (m <= 0) return 0.0;
    if (streamed(x, m)) {
        double one = mix(x, pr->stream_cache > 0 ? pr->stream_cache : pr->stream_beta,
                         pr->stream_beta) * cpu(x);
        return m * shared_rate(x, one, 1.0 + uncached(x), k);
    }
    return m * shared_rate(x, copy_rate(x), 1.0 + uncached(x), k);
}

/* m bytes a peer wrote as pieces of `piece` bytes, copied out of the
 * segment by one of k ranks (xcopy, or xcopy_nt when streamed). */
static double dget(const ctx_t *x, double m, double piece, int k)
{
    const mca_coll_rsag_model_profile_t *pr = x->pr;
    if (m <= 0) return 0.0;
    double one = pr->xcopy > 0 ? xrate(x, MCA_COLL_RSAG_MODEL_XCOPY, pr->xcopy, piece)
                               : pr->memcpy_beta;
    if (streamed(x, piece) && pr->xcopy_nt > 0)
        one = xrate(x, MCA_COLL_RSAG_MODEL_XCOPY_NT, pr->xcopy_nt, piece);
    return m * shared_rate(x, one * cpu(x), 1.0 + uncached(x), k);
}

/* Reductions of m operand bytes by one of k ranks, the operands pieces of
 * `piece` bytes a peer wrote (xreduce, xreduce_nt when streamed; another
 * op than the profile's SUM DOUBLE scaled by its gamma); `to_temp`: the
 * result goes to a temporary that stays in the cache (a reduce's non-root
 * ranks), not to the output. */
static double dred(const ctx_t *x, double m, double piece, int k, int to_temp)
{
    const mca_coll_rsag_model_call_t *c = x->c;
    const mca_coll_rsag_model_profile_t *pr = x->pr;
    if (m <= 0) return 0.0;
    double g = c->gamma >= 0 ? c->gamma : pr->gamma;
    double gc = c->gamma_cache >= 0 ? c->gamma_cache : pr->gamma_cache;
    double one = pr->xreduce > 0 ? xrate(x, MCA_COLL_RSAG_MODEL_XREDUCE, pr->xreduce, piece)
                                 : pr->gamma;
    if (streamed(x, piece) && pr->xreduce_nt > 0)
        one = xrate(x, MCA_COLL_RSAG_MODEL_XREDUCE_NT, pr->xreduce_nt, piece);
    if (pr->gamma > 0) one *= g / pr->gamma;
    /* the rates were measured with my operand and the result in the cache:
     * beyond it, what a reduction pays more for them (half of it for my
     * operand alone) */
    one += (mix(x, gc, g) - gc) * (to_temp ? 0.5 : 1.0);
    return m * shared_rate(x, one * cpu(x), 1.0, k);
}

/* A wait on `ranks` other ranks' flags: the call's first (sync) or not. */
static double dwait(const ctx_t *x, int ranks, int first)
{
    const mca_coll_rsag_model_profile_t *pr = x->pr;
    double h = first ? pr->sync : pr->handoff;
    return h + (ranks > 1 ? (ranks - 1) * pr->handoff_line : 0.0);
}

size_t mca_coll_rsag_model_direct_slot(const mca_coll_rsag_model_knobs_t *knobs, int p)
{
    size_t s = knobs->direct_slot;
    if (p < 1) p = 1;
    if (s == 0) {
        s = ((size_t) 8 << 20) / (size_t) p;
        if (s < ((size_t) 64 << 10)) s = (size_t) 64 << 10;
        if (s > ((size_t) 1 << 20)) s = (size_t) 1 << 20;
    }
    return (s + 127) & ~(size_t) 127;
}

/* `what` 0 allreduce, 1 reduce, 2 reduce-scatter. */
static double direct_cma(const ctx_t *x, int what)
{
    const mca_coll_rsag_model_profile_t *pr = x->pr;
    int p = x->p;
    double blk = x->n / p, chunk = (double) x->c->knobs.direct_chunk;
    double pulls = ceil(blk / (chunk > 0 ? chunk : blk));
    double t = pr->call_alpha + dwait(x, p - 1, 1)
        + (p - 1) * (blk * cma_rate(x, p) + pulls * pr->cma_alpha) + red(x, (p - 1) * blk);
    if (what == 0)
        t += dwait(x, p - 1, 0) + (p - 1) * (blk * cma_rate(x, p) + pulls * pr->cma_alpha);
    if (what == 1) t += blk * cma_rate(x, p) + pulls * pr->cma_alpha;
    return t + dwait(x, p - 1, 0);
}

/* The boxed tree of fan-in k: `what` 0 allreduce, 1 reduce, 2 reduce-scatter. */
static double direct_tree(const ctx_t *x, int what, int k)
{
    int p = x->p, levels = mca_coll_rsag_tree_levels(p, k);
    double n = x->n, t = x->pr->call_alpha + n * copy_rate(x), span = 1.0;

    for (int l = 1; l <= levels; l++) {
        span *= k;
        t += dwait(x, k - 1, 1 == l) + dlines(x, n) + dred(x, (k - 1) * n, 0, (int) ceil(p / span), 0);
    }
    return t + dwait(x, 1, 0) + dlines(x, n) + dget(x, what == 2 ? n / p : n, 0, what == 1 ? 1 : p);
}

static double direct_flat_boxed(const ctx_t *x, int what);

/* The fastest fan-in of a boxed call at p >= 3 (1: flat), *t its time. */
static int best_fanin(const ctx_t *x, int what, double *t)
{
    int best = 1;
    double bt = direct_flat_boxed(x, what);

    for (int k = 2; k <= MCA_COLL_RSAG_MODEL_MAX_FANIN && k < x->p; k++) {
        double tk = direct_tree(x, what, k);
        if (tk < bt) {
            bt = tk;
            best = k;
        }
    }
    if (t) *t = bt;
    return best;
}

static double direct_way(const ctx_t *x, int what)
{
    const mca_coll_rsag_model_profile_t *pr = x->pr;
    int p = x->p;
    double n = x->n;
    if (x->nodes > 1) return MCA_COLL_RSAG_MODEL_NA;
    if (n >= (double) x->c->knobs.direct_cma_min) return direct_cma(x, what);
    double W = (double) (mca_coll_rsag_model_direct_slot(&x->c->knobs, p) / 2);
    double whole_max = 65536.0 / p > 4096.0 ? 65536.0 / p : 4096.0;
    /* unboxed: before writing its slot's half a rank reads the peers' done
     * flags of two ticks ago, lines the other cores wrote: one hand-off */
    double t = pr->call_alpha + pr->handoff;
    double rwhole_max = p == 2 ? 262144.0 : whole_max;
    if (what == 1 && n > (double) mca_coll_rsag_box_max(p) && n <= rwhole_max) {
        double P = 8192.0 < W ? 8192.0 : W, w = n < P ? n : P;
        /* the windows follow each other through the same slots: read as
         * one stream of n bytes */
        double cp = dput(x, w, p - 1), rd = dlines(x, w) + dred(x, (p - 1) * w, n, 1, 0);
        return t + cp + dwait(x, p - 1, 1) + rd
            + (ceil(n / P) - 1) * ((cp > rd ? cp : rd) + dwait(x, p - 1, 0));
    }
    if (n <= W && n <= whole_max) {
        int boxed = n <= (double) mca_coll_rsag_box_max(p);
        int k = x->c->knobs.direct_fanin;
        if (boxed && p >= 3 && k != 1) {
            if (k == 0) k = best_fanin(x, what, NULL);
            if (k >= 2) return direct_tree(x, what, k);
        }
        if (boxed) return direct_flat_boxed(x, what);
        t += dput(x, n, p) + dwait(x, p - 1, 1) + dlines(x, n);
        /* the reduce's root alone reduces; the others are done */
        return t + dred(x, (p - 1) * (what == 2 ? n / p : n), n, what == 1 ? 1 : p, 0);
    }
    double T = ceil(n / W), last = n - (T - 1) * W;
    for (int i = 0; i < 2; i++) {
        /* the full windows (T - 1 of them), then the last one */
        double w = i == 0 ? W : last, ticks = i == 0 ? T - 1 : 1;
        if (ticks <= 0 || w <= 0) continue;
        double b = w / p, one;
        if (what == 2) {
            double B = n / p, o = w < B ? w : B;
            int owners = (int) ceil(w / (B > 0 ? B : w));
            if (owners > p) owners = p;
            /* the owners read the others' whole window; the others copy it */
            /* every part of the window but my block, when it lies in it
             * (in every window's when one window holds all blocks) */
            double rd = dlines(x, w) + dred(x, (p - 1) * o, w, owners, 0),
                   cp = dput(x, owners == p ? w - o : w, p);
            one = dwait(x, p - 1, 0) + (T > 1 ? (rd > cp ? rd : cp) : rd + cp);
        } else {
            int outk = what == 0 ? p : 1;
            one = dput(x, (p - 1) * b, p) + dwait(x, p - 1, 0) + dlines(x, b)
                + dred(x, (p - 1) * b, (p - 1) * b, p, what == 1) + dput(x, b, p) + dwait(x, p - 1, 0)
                + dlines(x, b) + dget(x, (p - 1) * b, b, outk);
        }
        t += ticks * one;
    }
    /* the first wait meets the barrier's skew */
    return t + pr->sync - pr->handoff;
}

/* `direct` as the component runs it: with coll_rsag_direct_stream auto
 * its learner keeps, per communicator and size, the faster of the
 * streaming copy and memcpy. */
static double direct(const ctx_t *x, int what)
{
    double t = direct_way(x, what);
    if (x->c->knobs.direct_stream == MCA_COLL_RSAG_MODEL_STREAM_AUTO && x->pr->stream_beta > 0) {
        ctx_t y = *x;
        y.memcpy_only = 1;
        double u = direct_way(&y, what);
        if (u < t) t = u;
    }
    return t;
}

/* The flat boxed form: my box, one wait on all, (p - 1) n folded. */
static double direct_flat_boxed(const ctx_t *x, int what)
{
    int p = x->p;
    double n = x->n;
    double t = x->pr->call_alpha + n * copy_rate(x) + dwait(x, p - 1, 1) + dlines(x, n);
    /* the reduce's root alone reduces; the others are done */
    return t + dred(x, (p - 1) * (what == 2 ? n / p : n), 0, what == 1 ? 1 : p, 0);
}

int mca_coll_rsag_model_direct_fanin(mca_coll_rsag_coll_t coll,
                                     const mca_coll_rsag_model_call_t *call,
                                     const mca_coll_rsag_model_profile_t *prof, double *t)
{
    ctx_t x;
    int what = coll == MCA_COLL_RSAG_ALLREDUCE ? 0 : coll == MCA_COLL_RSAG_REDUCE ? 1 : 2;

    ctx_init(&x, call, prof, 1);
    if (x.nodes > 1 || x.p < 3 || x.n > (double) mca_coll_rsag_box_max(x.p)) {
        if (t) *t = direct(&x, what);
        return 1;
    }
    return best_fanin(&x, what, t);
}

static double f_allreduce_direct(const ctx_t *x) { return direct(x, 0); }
static double f_reduce_direct(const ctx_t *x) { return direct(x, 1); }
static double f_rs_direct(const ctx_t *x) { return direct(x, 2); }

/* Only the vranks with bit k set send at distance 2^k (one in 2^(k+1)), so
 * a step that crosses nodes carries one stream per node, not ppn: every
 * rank of a node moving at once is recursive doubling's pattern, not this. */
static double f_reduce_binomial(const ctx_t *x)
{
    double t = 0.0;
    for (int k = 0; k < ceil_log2(x->p); k++)
        t += (crossing(x, 1 << k) ? msg_k(x, x->n, 1, 1) : msg(x, x->n, 1 << k))
            + red(x, x->n);
    return t;
}

static double f_reduce_rabenseifner(const ctx_t *x)
{
    int root = x->c->knobs.root;
    double t = fold_pre(x) + halving_rs_doubling(x) + doubling_back(x, 0);
    if (x->extra && root < 2 * x->extra && (root & 1)) t += msg(x, x->n / x->pof2, 1);
    return t;
}

static double f_rs_halving(const ctx_t *x)
{
    return fold_pre(x) + halving_rs(x) + (x->extra ? msg(x, x->n / x->p, 1) : 0.0);
}

static double f_rs_ring(const ctx_t *x)
{
    return (x->p - 1) * ring_step(x, x->n / x->p, 1);
}

static double f_rs_priority(const ctx_t *x)
{
    return fold_pre(x) + priority_rs(x) + (x->extra ? msg(x, x->n / x->p, 1) : 0.0);
}

/* Traff's circulant rounds (coll_rsag_circulant.c): round k moves
 * n_k = s_(k+1) - s_k blocks of n / p one way, to r + s_k and from
 * r - s_k; reduce: the received blocks are reduced before the next round.
 * A shift by d sends min(d, ppn) ranks of a node across (ranks node by
 * node), not crossing()'s pairs.  A run of n_k >= 2 blocks wraps around
 * the vector on some rank: a second message, its overhead o. */
static double circulant(const ctx_t *x, int reduce)
{
    int skip[MCA_COLL_RSAG_MAX_STEPS + 1], q = mca_coll_rsag_circulant_skips(x->p, skip);
    double t = 0.0, b = x->n / x->p;
    for (int k = 0; k < q; k++) {
        double m = b * (skip[k + 1] - skip[k]);
        int kk = x->nodes <= 1 ? 0 : (skip[k] < x->ppn ? skip[k] : x->ppn);
        const mca_coll_rsag_model_link_t *l = kk ? &x->pr->net : &x->pr->shm;
        t += (kk ? msg_k(x, m, 1, kk) : msg_k(x, m, 0, x->ppn))
            + (skip[k + 1] - skip[k] >= 2 ? l->o : 0.0) + (reduce ? red(x, m) : 0.0);
    }
    return t;
}

static double f_allreduce_circulant(const ctx_t *x)
{
    return circulant(x, 1) + circulant(x, 0);
}

static double f_rs_circulant(const ctx_t *x)
{
    return circulant(x, 1);
}

/* `ordered` (coll_rsag_ordered.c): p - 1 pieces of a block of b bytes
 * come in at once, ppn - 1 of them from the rank's node and p - ppn over
 * the network, where the ppn ranks of a node receive at the same time; the
 * receiver's links carry them one after the other (latency paid once, each
 * further message its overhead o), and
 * the fold of the p - 1 pieces follows the last one.  O(1): the tuner
 * evaluates it at every p and size. */
static double ordered_rs(const ctx_t *x, double b)
{
    int same = x->ppn - 1, other = x->p - x->ppn;
    double lat = 0.0, t = 0.0;
    /* every further message pays its overhead o, however small (a block
     * of count < p elements is empty on most ranks, but still a message) */
    if (same > 0) {
        lat = x->pr->shm.alpha;
        t += same * (fmax(msg_k(x, b, 0, x->ppn) - x->pr->shm.alpha, 0.0) + x->pr->shm.o);
    }
    if (other > 0) {
        if (x->pr->net.alpha > lat) lat = x->pr->net.alpha;
        t += other * (fmax(msg_k(x, b, 1, x->ppn) - x->pr->net.alpha, 0.0) + x->pr->net.o);
    }
    return lat + t + red(x, b * (x->p - 1));
}

static double f_allreduce_ordered(const ctx_t *x)
{
    double b = x->n / x->p;
    return ordered_rs(x, b) + (x->p - 1) * ring_step(x, b, 0);
}

/* the root receives the other p - 1 blocks, all in flight at once */
static double f_reduce_ordered(const ctx_t *x)
{
    double b = x->n / x->p;
    return 2.0 * ordered_rs(x, b) - red(x, b * (x->p - 1));
}

static double f_rs_ordered(const ctx_t *x) { return ordered_rs(x, x->n / x->p); }

/* `chain` (coll_rsag_reduce_chain.c): segments of the exchange chunk go
 * down p - 1 hops; the first one crosses them all, each later one follows
 * at the pace of the slowest stage (its hop, across nodes one stream per
 * node when the ranks span nodes, or its reduction). */
static double f_reduce_chain(const ctx_t *x)
{
    double chunk = (double) x->c->knobs.exchange_chunk;
    double s = x->n < chunk || chunk <= 0 ? x->n : chunk, m = ceil(x->n / s);
    double hop = x->nodes > 1 ? msg_k(x, s, 1, 1) : msg_k(x, s, 0, x->ppn), r = red(x, s);
    return (x->p - 1) * (hop + r) + (m - 1) * (hop > r ? hop : r);
}

#define ALL_RS ((1u << MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK) | (1u << MCA_COLL_RSAG_REDUCE_SCATTER))
static const struct {
    unsigned colls;
    const char *name;
    formula_t f;
} formulas[] = {
    { 1u << MCA_COLL_RSAG_ALLREDUCE, "recursive_doubling", f_allreduce_rd },
    { 1u << MCA_COLL_RSAG_ALLREDUCE, "rabenseifner", f_allreduce_rabenseifner },
    { 1u << MCA_COLL_RSAG_ALLREDUCE, "ring", f_allreduce_ring },
    { 1u << MCA_COLL_RSAG_ALLREDUCE, "priority_aware", f_allreduce_priority },
    { 1u << MCA_COLL_RSAG_ALLREDUCE, "direct", f_allreduce_direct },
    { 1u << MCA_COLL_RSAG_REDUCE, "binomial", f_reduce_binomial },
    { 1u << MCA_COLL_RSAG_REDUCE, "rabenseifner", f_reduce_rabenseifner },
    { 1u << MCA_COLL_RSAG_REDUCE, "direct", f_reduce_direct },
    { ALL_RS, "recursive_halving", f_rs_halving },
    { ALL_RS, "ring", f_rs_ring },
    { ALL_RS, "priority_aware", f_rs_priority },
    { ALL_RS, "direct", f_rs_direct },
    { 1u << MCA_COLL_RSAG_ALLREDUCE, "circulant", f_allreduce_circulant },
    { ALL_RS, "circulant", f_rs_circulant },
    { 1u << MCA_COLL_RSAG_ALLREDUCE, "ordered", f_allreduce_ordered },
    { 1u << MCA_COLL_RSAG_REDUCE, "ordered", f_reduce_ordered },
    { 1u << MCA_COLL_RSAG_REDUCE, "chain", f_reduce_chain },
    { ALL_RS, "ordered", f_rs_ordered },
};

static formula_t find(mca_coll_rsag_coll_t coll, const char *alg)
{
    for (size_t i = 0; i < sizeof formulas / sizeof formulas[0]; i++)
        if ((formulas[i].colls & (1u << coll)) && !strcmp(formulas[i].name, alg))
            return formulas[i].f;
    return NULL;
}

int mca_coll_rsag_model_has(mca_coll_rsag_coll_t coll, const char *alg)
{
    return (unsigned) coll < MCA_COLL_RSAG_NUM_COLLS && alg
        && (find(coll, alg) != NULL || !strcmp(alg, "hierarchical") || !strcmp(alg, "leaders"));
}

void mca_coll_rsag_model_call_init(mca_coll_rsag_model_call_t *call, int p, int ppn, size_t bytes)
{
    memset(call, 0, sizeof *call);
    call->p = p;
    call->ppn = ppn;
    call->bytes = bytes;
    call->type_size = 8;
    call->gamma = call->gamma_cache = -1.0;
    call->knobs.ring_segment = 256 * 1024;
    call->knobs.priority_chunks = 1;
    call->knobs.direct_chunk = 128 * 1024;
    call->knobs.direct_slot = 0;
    call->knobs.direct_stream_min = 16384;
    call->knobs.direct_cma_min = (size_t) -1;
    call->knobs.root = 0;
    call->knobs.hier_chunk = MCA_COLL_RSAG_HIER_DEFAULT_CHUNK;
    call->knobs.exchange_chunk = MCA_COLL_RSAG_EXCHANGE_DEFAULT_CHUNK;
}

/* Restriction bits of the table row that the call does not meet. */
static int applicable(mca_coll_rsag_coll_t coll, const char *alg, const ctx_t *x)
{
    const mca_coll_rsag_coll_desc_t *cd = &mca_coll_rsag_colls[coll];
    for (int i = 0; i < cd->nalgs; i++) {
        if (strcmp(cd->algs[i].name, alg)) continue;
        unsigned r = cd->algs[i].restrictions;
        if ((r & MCA_COLL_RSAG_NEEDS_COUNT_GE_POF2) && count_of(x) < (size_t) x->pof2) return 0;
        if ((r & MCA_COLL_RSAG_NEEDS_SINGLE_NODE) && x->nodes > 1) return 0;
        return 1;
    }
    return 1; /* not a row (yet): the formula decides */
}

/* The last message of the call: its bytes *m and rank distance *d (0: a
 * ring hop, on the network when the ring spans nodes), *one_stream when
 * the formula charges it one stream per node whatever the distance; 0
 * when it has none on the network (direct). */
static int last_msg(formula_t f, const ctx_t *x, double *m, int *d, int *tw, int *one_stream)
{
    int top = x->pof2 >> 1; /* the last doubling step's distance */
    double seg = (double) x->c->knobs.ring_segment;
    *d = 1;
    *tw = 0;
    *one_stream = 0;
    if (f == f_allreduce_rd) {
        *m = x->n;
        *d = x->extra ? 1 : top;
        *tw = !x->extra;
    } else if (f == f_allreduce_rabenseifner || f == f_allreduce_priority) {
        *m = x->extra ? x->n : x->n / 2;
        *d = x->extra || f == f_allreduce_rabenseifner ? 1 : top;
        *tw = !x->extra;
    } else if (f == f_reduce_binomial) {
        *m = x->n;
        *d = 1 << (ceil_log2(x->p) - 1);
        *one_stream = 1;
    } else if (f == f_reduce_rabenseifner) {
        int root = x->c->knobs.root;
        *m = x->extra && root < 2 * x->extra && (root & 1) ? x->n / x->pof2 : x->n / 2;
    } else if (f == f_rs_halving || f == f_rs_priority) {
        *m = x->extra ? x->n / x->p : x->n / x->pof2;
        *tw = !x->extra;
    } else if (f == f_allreduce_ring || f == f_rs_ring) {
        *m = x->n / x->p;
        if (seg > 0 && seg < *m) *m = seg;
        *d = 0;
        *tw = x->p == 2;
    } else {
        return 0;
    }
    return 1;
}

/* The bytes of the call's last network message when a shaper's burst
 * passes them at once (the profile's net burst): what the formula charged
 * for them beyond alpha + m beta_burst; 0 otherwise. */
static double burst_credit(formula_t f, const ctx_t *x)
{
    double m;
    int d, k, tw, one_stream;
    if (x->pr->net.burst == 0 || x->nodes < 2 || !last_msg(f, x, &m, &d, &tw, &one_stream))
        return 0.0;
    if (m <= 0 || m > (double) x->pr->net.burst) return 0.0;
    k = d ? crossing(x, d) : 1;
    if (!k) return 0.0;
    if (one_stream) k = 1;
    return msg_kw(x, m, 1, k, tw) - x->pr->net.alpha
        - (m > (double) x->pr->net.eager ? x->pr->net.rndv : 0.0) - m * x->pr->net.beta_burst;
}

/* The time of `alg` on x; *credit (when not NULL) gets the shaper burst's
 * credit of its last message instead of taking it off (a pipeline chunk's
 * step: only the call's last message passes in the burst). */
static double time_ctx_credit(mca_coll_rsag_coll_t coll, const char *alg, const ctx_t *x,
                              double *credit)
{
    formula_t f = find(coll, alg);
    if (credit) *credit = 0.0;
    if (!f || !applicable(coll, alg, x)) return MCA_COLL_RSAG_MODEL_NA;
    if (x->p <= 1 || x->n <= 0) return 0.0;
    if (credit) {
        *credit = burst_credit(f, x);
        return f(x);
    }
    return f(x) - burst_credit(f, x);
}

static double time_ctx(mca_coll_rsag_coll_t coll, const char *alg, const ctx_t *x)
{
    return time_ctx_credit(coll, alg, x, NULL);
}

/* ---- hierarchical --------------------------------------------------------- */

size_t mca_coll_rsag_model_hier_chunks(const mca_coll_rsag_model_call_t *call)
{
    size_t ts = call->type_size ? call->type_size : 8;
    return mca_coll_rsag_hier_chunks(call->bytes / ts, ts, call->knobs.hier_chunk,
                                     call->ppn < 1 ? 1 : call->ppn);
}

/* A step of `bytes` (a whole call's) cut into `chunks`: one chunk's call
 * (the longest, ceil(count / chunks) elements), with the step's cache rates. */
static void hier_piece(mca_coll_rsag_model_call_t *piece, size_t bytes, size_t chunks)
{
    size_t ts = piece->type_size ? piece->type_size : 8;
    piece->bytes = bytes;
    if (chunks > 1) {
        piece->whole_bytes = bytes;
        piece->bytes = (bytes / ts + chunks - 1) / chunks * ts;
    }
}

/* The phases of one chunk of `chunks`: t[0] node reduce-scatter, t[1]
 * cross-node step, t[2] node allgather / gather; *g2 the reductions of t[1]
 * (the CPU's share of it).  When credit is not NULL, t[1] is without the
 * shaper burst's credit of its last message, *credit that credit.
 * MCA_COLL_RSAG_MODEL_NA when a step cannot run. */
static double hier_phases(mca_coll_rsag_coll_t coll, const char *intra, const char *inter,
                          const mca_coll_rsag_model_call_t *call,
                          const mca_coll_rsag_model_profile_t *prof, size_t chunks, double t[3],
                          double *g2, double *credit)
{
    double nocredit;
    ctx_t whole;
    ctx_init(&whole, call, prof, 1);
    int q = whole.ppn, N = whole.nodes;
    if (N < 2 || q < 2) return MCA_COLL_RSAG_MODEL_NA;
    mca_coll_rsag_coll_t rs = MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK;
    size_t ts = call->type_size ? call->type_size : 8;

    /* 1. reduce-scatter inside each node: q ranks, one node */
    mca_coll_rsag_model_call_t node = *call;
    node.p = q;
    node.ppn = q;
    hier_piece(&node, call->bytes, chunks);
    ctx_t xn;
    ctx_init(&xn, &node, prof, 1);
    t[0] = time_ctx(rs, intra, &xn);
    if (t[0] == MCA_COLL_RSAG_MODEL_NA) return t[0];
    /* the reduce-scatters first copy their input in the slices' order
     * (local index, node): not rank order when S > 1 by slot */
    if (coll == MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK || coll == MCA_COLL_RSAG_REDUCE_SCATTER)
        t[0] += xn.n * copy_rate(&xn);

    /* 2. across nodes: n/q bytes among N ranks, q such groups at once */
    mca_coll_rsag_model_call_t cross = *call;
    cross.p = N;
    cross.ppn = 1;
    /* a slice of at least one element: some rank carries it */
    hier_piece(&cross, (call->bytes / ts + (size_t) q - 1) / (size_t) q * ts, chunks);
    ctx_t xc;
    ctx_init(&xc, &cross, prof, q);
    mca_coll_rsag_coll_t cc = coll == MCA_COLL_RSAG_REDUCE_SCATTER ? rs : coll;
    t[1] = time_ctx_credit(cc, inter, &xc, credit);
    if (t[1] == MCA_COLL_RSAG_MODEL_NA) return t[1];
    cross.gamma = cross.gamma_cache = 0.0;
    ctx_init(&xc, &cross, prof, q);
    *g2 = t[1] - time_ctx_credit(cc, inter, &xc, credit ? &nocredit : NULL);
    if (*g2 < 0) *g2 = 0;

    /* 3. inside each node: allgather / gather to the root of the n/q slices */
    double slice = xn.n / q;
    t[2] = 0.0;
    if (coll == MCA_COLL_RSAG_ALLREDUCE || coll == MCA_COLL_RSAG_REDUCE) {
        if (!strcmp(intra, "direct")) {
            double blocks = coll == MCA_COLL_RSAG_ALLREDUCE ? q - 1 : 1;
            double chunk = (double) call->knobs.direct_chunk;
            t[2] = prof->shm.alpha + blocks * slice * cma_rate(&xn, q)
                + blocks * ceil(slice / (chunk > 0 ? chunk : slice)) * prof->cma_alpha;
        } else {
            int lq = ceil_log2(q);
            for (int j = 0; j < lq; j++)
                t[2] += msg_k(&xn, slice * (double) (1 << j), 0, q);
        }
    }
    return t[0] + t[1] + t[2];
}

static double hier(mca_coll_rsag_coll_t coll, const char *intra, const char *inter,
                   const mca_coll_rsag_model_call_t *call, const mca_coll_rsag_model_profile_t *prof)
{
    size_t C = mca_coll_rsag_model_hier_chunks(call);
    double t[3], g2, credit;
    if (C <= 1) {
        if (hier_phases(coll, intra, inter, call, prof, 1, t, &g2, NULL) == MCA_COLL_RSAG_MODEL_NA)
            return MCA_COLL_RSAG_MODEL_NA;
        return t[0] + t[1] + t[2];
    }
    /* every chunk's cross step pays its last message in full (the shaper's
     * bucket is in debt), but the last chunk's: the call's last message */
    if (hier_phases(coll, intra, inter, call, prof, C, t, &g2, &credit) == MCA_COLL_RSAG_MODEL_NA)
        return MCA_COLL_RSAG_MODEL_NA;
    double cpu_side = t[0] + t[2] + g2;
    return t[0] + t[1] + t[2] + (double) (C - 1) * (cpu_side > t[1] ? cpu_side : t[1]) - credit;
}

double mca_coll_rsag_model_hierarchical(mca_coll_rsag_coll_t coll, const char *intra,
                                        const char *inter,
                                        const mca_coll_rsag_model_call_t *call,
                                        const mca_coll_rsag_model_profile_t *prof)
{
    if ((unsigned) coll >= MCA_COLL_RSAG_NUM_COLLS || !intra || !inter) return MCA_COLL_RSAG_MODEL_NA;
    return hier(coll, intra, inter, call, prof);
}

static double hier_best(mca_coll_rsag_coll_t coll, const mca_coll_rsag_model_call_t *call,
                        const mca_coll_rsag_model_profile_t *prof)
{
    const mca_coll_rsag_coll_desc_t *cd = &mca_coll_rsag_colls[coll];
    const char *intra = hier(coll, "direct", cd->algs[0].name, call, prof) != MCA_COLL_RSAG_MODEL_NA
        ? "direct" : "recursive_halving";
    double best = MCA_COLL_RSAG_MODEL_NA;
    for (int i = 0; i < cd->nalgs; i++) {
        const char *a = cd->algs[i].name;
        if (!strcmp(a, "direct") || !strcmp(a, "hierarchical") || !strcmp(a, "leaders")) continue;
        double t = hier(coll, intra, a, call, prof);
        if (t < best) best = t;
    }
    return best;
}

/* ---- leaders ------------------------------------------------------------- *
 * The small-message node-aware path (coll_rsag_<coll>_leaders.c): (1) reduce
 * of the whole vector to the node leader, local rank 0 (`direct` where it
 * applies, else binomial), (2) the collective among the N leaders (the best
 * flat algorithm of one rank per node; MPI_Reduce rooted at the root's
 * node), (3) the release inside the node: a binomial broadcast of the
 * whole vector (allreduce: ceil(log2 q) steps, 2^j ranks sending in step
 * j), one message of n bytes to the root when it is not its node's leader
 * (reduce), or the leader's scatter of its node's q blocks of n/p
 * (reduce-scatters: its own block copied, q - 1 sends posted at once: the
 * first costs a message, the others the sender's o each).  Even nodes only
 * (ppn), as the whole model; uneven nodes are not modelled. */
static double leaders(mca_coll_rsag_coll_t coll, const mca_coll_rsag_model_call_t *call,
                      const mca_coll_rsag_model_profile_t *prof)
{
    const mca_coll_rsag_coll_desc_t *cd = &mca_coll_rsag_colls[coll];
    ctx_t whole;
    ctx_init(&whole, call, prof, 1);
    int q = whole.ppn, N = whole.nodes, root = call->knobs.root;
    if (N < 2 || q < 2) return MCA_COLL_RSAG_MODEL_NA;
    if (root < 0 || root >= whole.p) root = 0;

    /* (1) reduce to local rank 0 of each node */
    mca_coll_rsag_model_call_t node = *call;
    node.p = q;
    node.ppn = q;
    node.knobs.root = 0;
    ctx_t xn;
    ctx_init(&xn, &node, prof, 1);
    double t = time_ctx(MCA_COLL_RSAG_REDUCE, "direct", &xn);
    if (t == MCA_COLL_RSAG_MODEL_NA) t = time_ctx(MCA_COLL_RSAG_REDUCE, "binomial", &xn);

    /* (2) among the leaders, one per node */
    mca_coll_rsag_model_call_t cross = *call;
    cross.p = N;
    cross.ppn = 1;
    cross.knobs.root = root / q;
    ctx_t xc;
    ctx_init(&xc, &cross, prof, 1);
    double best = MCA_COLL_RSAG_MODEL_NA;
    for (int i = 0; i < cd->nalgs; i++) {
        const char *a = cd->algs[i].name;
        if (!strcmp(a, "direct") || !strcmp(a, "hierarchical") || !strcmp(a, "leaders")) continue;
        double ti = time_ctx(coll == MCA_COLL_RSAG_REDUCE_SCATTER
                             ? MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK : coll, a, &xc);
        if (ti < best) best = ti;
    }
    if (best == MCA_COLL_RSAG_MODEL_NA) return best;
    t += best;

    /* (3) the release inside the node */
    if (coll == MCA_COLL_RSAG_ALLREDUCE) {
        for (int j = 0; j < ceil_log2(q); j++)
            t += msg_k(&xn, whole.n, 0, (1 << j) < q ? 1 << j : q);
    } else if (coll == MCA_COLL_RSAG_REDUCE) {
        if (root % q != 0) t += msg_k(&xn, whole.n, 0, 1);
    } else {
        const mca_coll_rsag_model_link_t *l = &prof->shm;
        double b = whole.n / whole.p;
        t += b * copy_rate(&xn) + msg_k(&xn, b, 0, 1)
            + (q - 2) * (l->o + rndv_pipe(l, b) + b * per_byte(&xn, l, b) * cpu(&xn));
    }
    return t;
}

double mca_coll_rsag_model_time(mca_coll_rsag_coll_t coll, const char *alg,
                                const mca_coll_rsag_model_call_t *call,
                                const mca_coll_rsag_model_profile_t *prof)
{
    if ((unsigned) coll >= MCA_COLL_RSAG_NUM_COLLS || !alg || !call || !prof)
        return MCA_COLL_RSAG_MODEL_NA;
    if (!strcmp(alg, "hierarchical")) return hier_best(coll, call, prof);
    if (!strcmp(alg, "leaders")) return leaders(coll, call, prof);
    ctx_t x;
    ctx_init(&x, call, prof, 1);
    return time_ctx(coll, alg, &x);
}

int mca_coll_rsag_model_best(mca_coll_rsag_coll_t coll, const mca_coll_rsag_model_call_t *call,
                             const mca_coll_rsag_model_profile_t *prof, double *t)
{
    const mca_coll_rsag_coll_desc_t *cd = &mca_coll_rsag_colls[coll];
    int best = 0;
    double bt = MCA_COLL_RSAG_MODEL_NA;
    for (int i = 0; i < cd->nalgs; i++) {
        double ti = mca_coll_rsag_model_time(coll, cd->algs[i].name, call, prof);
        if (ti < bt) { bt = ti; best = cd->algs[i].id; }
    }
    if (t) *t = bt;
    return best;
}

/* ---- thresholds ------------------------------------------------------------ */

#define MODEL_MIN_LOG 3
#define MODEL_MAX_LOG 30

#define MODEL_NSIZES (MODEL_MAX_LOG - MODEL_MIN_LOG + 1)

/* The slowdowns of one assignment of thresholds (th[a] = index of the size
 * algorithm a starts at, -1 off): worst and total over the sizes, counting
 * slowdowns within the margin as none.  Auto takes, among the algorithms
 * that can run, the one with the largest threshold not above the size. */
static void simulate(int na, const double slow[][MCA_COLL_RSAG_MAX_ALGS + 1], const int *th,
                     double margin, double *worst, double *total)
{
    *worst = 1.0;
    *total = 0.0;
    for (int k = 0; k < MODEL_NSIZES; k++) {
        int pick = 0, pth = -1;
        for (int a = 1; a <= na; a++)
            if (th[a] >= 0 && th[a] <= k && th[a] >= pth && slow[k][a] != MCA_COLL_RSAG_MODEL_NA) {
                pick = a;
                pth = th[a];
            }
        double sl = pick ? slow[k][pick] : MCA_COLL_RSAG_MODEL_NA;
        if (sl == MCA_COLL_RSAG_MODEL_NA) continue; /* nothing can run it: delegated */
        if (sl <= 1.0 + margin) sl = 1.0;
        if (sl > *worst) *worst = sl;
        *total += sl - 1.0;
    }
}

/* The search over every assignment (each candidate off or from one of the
 * MODEL_NSIZES sizes: (MODEL_NSIZES + 1)^nc of them, 29^5 = 2e7 for five
 * candidates) as a depth-first walk in the order of a counter whose first
 * candidate is its lowest digit: the last candidate is assigned first, each
 * one's values from off upwards, so the leaves come in that counter's
 * order and the first best one is kept as before.  A subtree is left out
 * when no assignment in it could be kept: at each size its pick is either
 * the pick of the candidates assigned so far (the rest off) or one of the
 * unassigned candidates, so the smaller of their slowdowns bounds the
 * size's slowdown from below, hence the worst and the total; when those
 * bounds are already worse than the best kept, so is every leaf below. */
typedef struct {
    int na;
    const double (*slow)[MCA_COLL_RSAG_MAX_ALGS + 1];
    int *th, *best_th;
    const int *cand;
    int nc;
    double margin;
    double bw, bt;
    int bused;
} search_t;

/* A size's contribution: NA (delegated) counts as 1, within the margin of
 * the best as 1. */
static double search_sl(const search_t *S, double sl)
{
    if (sl == MCA_COLL_RSAG_MODEL_NA) return 1.0;
    return sl <= 1.0 + S->margin ? 1.0 : sl;
}

/* Lower bounds of worst and total over the leaves below, the candidates
 * cand[0..free) unassigned (off in th). */
static void search_bound(const search_t *S, int free, double *w, double *t)
{
    *w = 1.0;
    *t = 0.0;
    for (int k = 0; k < MODEL_NSIZES; k++) {
        int pick = 0, pth = -1;
        for (int a = 1; a <= S->na; a++)
            if (S->th[a] >= 0 && S->th[a] <= k && S->th[a] >= pth
                && S->slow[k][a] != MCA_COLL_RSAG_MODEL_NA) {
                pick = a;
                pth = S->th[a];
            }
        double lo = search_sl(S, pick ? S->slow[k][pick] : MCA_COLL_RSAG_MODEL_NA);
        for (int i = 0; i < free && lo > 1.0; i++)
            if (S->slow[k][S->cand[i]] != MCA_COLL_RSAG_MODEL_NA) {
                double sl = search_sl(S, S->slow[k][S->cand[i]]);
                if (sl < lo) lo = sl;
            }
        if (lo > *w) *w = lo;
        *t += lo - 1.0;
    }
}

static void search(search_t *S, int i, int used)
{
    double w, t;
    if (i < 0) {
        simulate(S->na, S->slow, S->th, S->margin, &w, &t);
        if (w < S->bw - 1e-12 || (w < S->bw + 1e-12 && (t < S->bt - 1e-12
                                   || (t < S->bt + 1e-12 && used < S->bused)))) {
            S->bw = w;
            S->bt = t;
            S->bused = used;
            for (int a = 1; a <= S->na; a++) S->best_th[a] = S->th[a];
        }
        return;
    }
    search_bound(S, i + 1, &w, &t);
    if (w >= S->bw + 1e-12 || (w >= S->bw - 1e-12 && t >= S->bt + 1e-12)) return;
    for (int v = -1; v < MODEL_NSIZES; v++) {
        S->th[S->cand[i]] = v;
        search(S, i - 1, used + (v >= 0));
    }
    S->th[S->cand[i]] = -1;
}

double mca_coll_rsag_model_thresholds(mca_coll_rsag_coll_t coll, const int *ps, int nps, int ppn,
                                      const mca_coll_rsag_model_profile_t *prof, double margin,
                                      int (*skip)(const char *alg), size_t *min_bytes)
{
    const mca_coll_rsag_coll_desc_t *cd = &mca_coll_rsag_colls[coll];
    int na = cd->nalgs;
    double slow[MODEL_NSIZES][MCA_COLL_RSAG_MAX_ALGS + 1];
    for (int i = 0; i <= MCA_COLL_RSAG_MAX_ALGS; i++) min_bytes[i] = (size_t) MCA_COLL_RSAG_OFF;
    min_bytes[1] = 0;
    if (na < 1) return 1.0;

    /* slowdown of each algorithm against the best, worst over the ps */
    for (int k = 0; k < MODEL_NSIZES; k++) {
        size_t bytes = (size_t) 1 << (k + MODEL_MIN_LOG);
        for (int a = 1; a <= na; a++) slow[k][a] = 1.0;
        for (int j = 0; j < nps; j++) {
            mca_coll_rsag_model_call_t call;
            int q = ppn <= 0 || ppn > ps[j] ? ps[j] : ppn;
            mca_coll_rsag_model_call_init(&call, ps[j], q, bytes);
            double t[MCA_COLL_RSAG_MAX_ALGS + 1], best = MCA_COLL_RSAG_MODEL_NA;
            for (int a = 1; a <= na; a++) {
                t[a] = (skip && skip(cd->algs[a - 1].name))
                    ? MCA_COLL_RSAG_MODEL_NA
                    : mca_coll_rsag_model_time(coll, cd->algs[a - 1].name, &call, prof);
                if (t[a] < best) best = t[a];
            }
            for (int a = 1; a <= na; a++) {
                double sl = t[a] == MCA_COLL_RSAG_MODEL_NA ? MCA_COLL_RSAG_MODEL_NA : t[a] / best;
                if (sl > slow[k][a]) slow[k][a] = sl;
            }
        }
    }

    /* every assignment: each algorithm but the base off or from one size;
     * the smallest worst slowdown, then total, then fewer algorithms */
    int th[MCA_COLL_RSAG_MAX_ALGS + 1], best_th[MCA_COLL_RSAG_MAX_ALGS + 1];
    int cand[MCA_COLL_RSAG_MAX_ALGS + 1], nc = 0;
    for (int a = 0; a <= MCA_COLL_RSAG_MAX_ALGS; a++) th[a] = best_th[a] = -1;
    th[1] = best_th[1] = 0;
    /* candidates: what is not skipped and can run at some size (a row that
     * can run nowhere here, e.g. `direct` across nodes, changes no pick:
     * it stays off, and each row left out divides the search by 29).
     * `ordered` is left out too: it is placement mode's row
     * (doc/reproducible.md), off in auto until measured, and it runs
     * everywhere, so it would multiply every search by 29 (test_model's
     * seconds into minutes) */
    for (int a = 2; a <= na; a++) {
        bool runs = false;
        for (int k = 0; k < MODEL_NSIZES && !runs; k++) runs = slow[k][a] != MCA_COLL_RSAG_MODEL_NA;
        if (runs && !(skip && skip(cd->algs[a - 1].name))
            && strcmp(cd->algs[a - 1].name, "ordered") != 0)
            cand[nc++] = a;
    }
    search_t S = { .na = na, .slow = slow, .th = th, .best_th = best_th, .cand = cand,
                   .nc = nc, .margin = margin, .bw = HUGE_VAL, .bt = HUGE_VAL, .bused = 0 };
    search(&S, nc - 1, 0);
    for (int a = 2; a <= na; a++)
        if (best_th[a] >= 0) min_bytes[a] = (size_t) 1 << (best_th[a] + MODEL_MIN_LOG);
    return S.bw;
}

/* ---- profiles ------------------------------------------------------------ */

void mca_coll_rsag_model_profile_default(mca_coll_rsag_model_profile_t *pr)
{
    memset(pr, 0, sizeof *pr);
    strcpy(pr->name, "default");
    pr->shm = (mca_coll_rsag_model_link_t) { .alpha = 0.5e-6, .beta = 1.0 / 3.0e9,
        .beta_cache = 1.0 / 10e9,
        .beta_eager = 1.0 / 2.0e9, .rndv = 3.0e-6, .o = 0.13e-6, .overlap = 0.0, .eager = 4096,
        .rndv_pipe = -1.0 };
    pr->net = (mca_coll_rsag_model_link_t) { .alpha = 40e-6, .beta = 1.0 / 110e6,
        .beta_cache = 1.0 / 110e6,
        .beta_eager = 1.0 / 110e6, .rndv = 40e-6, .o = 2e-6, .overlap = 1.0, .eager = 65536,
        .rndv_pipe = -1.0 };
    pr->nic_share = 1.0;
    pr->net_exchange = 1.0;
    pr->gamma = 7.5e-11;
    pr->gamma_cache = 5.5e-11;
    pr->cache_bytes = 4u << 20;
    pr->memcpy_beta = 3.3e-11;
    pr->memcpy_cache = 1.1e-11;
    pr->cma_beta = 1.2e-10;
    pr->cma_alpha = 1e-6;
    pr->cpu_share = 1.0;
    pr->stream_beta = 0.0;      /* memcpy's */
    pr->handoff = 0.2e-6;
    pr->handoff_line = 0.03e-6;
    pr->sync = 0.3e-6;
    pr->call_alpha = 0.05e-6;
}

static int set_double(const char *k, double v, mca_coll_rsag_model_profile_t *pr)
{
    static const struct { const char *k; size_t off; } keys[] = {
#define L(prefix, field) { #prefix "_" #field, offsetof(mca_coll_rsag_model_profile_t, prefix.field) }
        L(shm, alpha), L(shm, beta), L(shm, beta_cache), L(shm, beta_eager), L(shm, rndv), L(shm, o), L(shm, overlap),
        L(net, alpha), L(net, beta), L(net, beta_cache), L(net, beta_eager), L(net, rndv), L(net, o), L(net, overlap),
        L(shm, rndv_pipe), L(shm, beta_burst), L(net, rndv_pipe), L(net, beta_burst),
#undef L
#define F(field) { #field, offsetof(mca_coll_rsag_model_profile_t, field) }
        F(nic_share), F(net_exchange), F(fabric_bw), F(node_bw), F(gamma), F(gamma_cache), F(memcpy_beta),
        F(memcpy_cache), F(cma_beta), F(cma_alpha), F(cpu_share),
        F(stream_beta), F(stream_cache), F(node_mem_bw), F(handoff),
        F(handoff_line), F(sync), F(call_alpha), F(xcopy), F(xcopy_nt), F(xreduce), F(xreduce_nt),
        F(dram_factor),
#undef F
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strcmp(k, keys[i].k)) {
            *(double *) ((char *) pr + keys[i].off) = v;
            return 1;
        }
    if (!strcmp(k, "shm_eager")) { pr->shm.eager = (size_t) v; return 1; }
    if (!strcmp(k, "net_eager")) { pr->net.eager = (size_t) v; return 1; }
    if (!strcmp(k, "shm_burst")) { pr->shm.burst = (size_t) v; return 1; }
    if (!strcmp(k, "net_burst")) { pr->net.burst = (size_t) v; return 1; }
    if (!strcmp(k, "cache_bytes")) { pr->cache_bytes = (size_t) v; return 1; }
    if (!strcmp(k, "llc_bytes")) { pr->llc_bytes = (size_t) v; return 1; }
    return 0;
}

static const char *const xkind_names[4] = { "xcopy", "xcopy_nt", "xreduce", "xreduce_nt" };

/* "xreduce.2048": a read rate at another piece size, kept in size order */
static int set_xpoint(const char *k, double v, mca_coll_rsag_model_profile_t *pr)
{
    for (int kind = 0; kind < 4; kind++) {
        size_t len = strlen(xkind_names[kind]);
        char *end;
        if (strncmp(k, xkind_names[kind], len) || k[len] != '.') continue;
        unsigned long long b = strtoull(k + len + 1, &end, 10);
        if (*end != '\0' || b == 0 || k[len + 1] == '\0') return 0;
        int n = pr->nx[kind], i;
        for (i = 0; i < n && pr->xpiece[kind][i] < b; i++) {}
        if (i < n && pr->xpiece[kind][i] == b) { pr->xat[kind][i] = v; return 1; }
        if (n == MCA_COLL_RSAG_MODEL_MAX_XPOINTS) return 0;
        memmove(&pr->xpiece[kind][i + 1], &pr->xpiece[kind][i], (size_t) (n - i) * sizeof(size_t));
        memmove(&pr->xat[kind][i + 1], &pr->xat[kind][i], (size_t) (n - i) * sizeof(double));
        pr->xpiece[kind][i] = (size_t) b;
        pr->xat[kind][i] = v;
        pr->nx[kind] = n + 1;
        return 1;
    }
    return 0;
}

/* "gamma.SUM.DOUBLE" / "gamma_cache.SUM.DOUBLE" */
static int set_gamma(const char *k, double v, mca_coll_rsag_model_profile_t *pr)
{
    int cache = 0;
    if (!strncmp(k, "gamma_cache.", 12)) { cache = 1; k += 12; }
    else if (!strncmp(k, "gamma.", 6)) k += 6;
    else return 0;
    char key[32];
    if (strlen(k) >= sizeof key || !strchr(k, '.')) return 0;
    strcpy(key, k);
    *strchr(key, '.') = ' ';
    int i;
    for (i = 0; i < pr->ngammas; i++)
        if (!strcmp(pr->gammas[i].key, key)) break;
    if (i == pr->ngammas) {
        if (i == MCA_COLL_RSAG_MODEL_MAX_GAMMAS) return 0;
        pr->ngammas++;
        strcpy(pr->gammas[i].key, key);
        pr->gammas[i].gamma = pr->gammas[i].gamma_cache = v;
    }
    if (cache) pr->gammas[i].gamma_cache = v;
    else pr->gammas[i].gamma = v;
    return 1;
}

int mca_coll_rsag_model_profile_read(FILE *f, mca_coll_rsag_model_profile_t *pr)
{
    char line[256];
    int no = 0;
    while (fgets(line, sizeof line, f)) {
        no++;
        char *s = line, *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        while (*s == ' ' || *s == '\t') s++;
        if (*s == '\0' || *s == '\n') continue;
        char *eq = strchr(s, '=');
        if (!eq) return no;
        char *ke = eq;
        while (ke > s && (ke[-1] == ' ' || ke[-1] == '\t')) ke--;
        *ke = '\0';
        char *v = eq + 1;
        while (*v == ' ' || *v == '\t') v++;
        v[strcspn(v, " \t\r\n")] = '\0';
        if (!strcmp(s, "name")) {
            snprintf(pr->name, sizeof pr->name, "%s", v);
            continue;
        }
        char *end;
        double d = strtod(v, &end);
        if (end == v || *end != '\0' || d < 0) return no;
        if (!set_double(s, d, pr) && !set_gamma(s, d, pr) && !set_xpoint(s, d, pr)) return no;
    }
    return 0;
}

void mca_coll_rsag_model_profile_write(FILE *f, const mca_coll_rsag_model_profile_t *pr)
{
    const mca_coll_rsag_model_link_t *l[2] = { &pr->shm, &pr->net };
    static const char *nm[2] = { "shm", "net" };
    fprintf(f, "name = %s\n", pr->name);
    for (int i = 0; i < 2; i++)
        fprintf(f, "%s_alpha = %.4g\n%s_beta = %.4g\n%s_beta_cache = %.4g\n%s_beta_eager = %.4g\n"
                "%s_eager = %zu\n%s_rndv = %.4g\n%s_o = %.4g\n%s_overlap = %.4g\n%s_burst = %zu\n",
                nm[i], l[i]->alpha, nm[i], l[i]->beta, nm[i], l[i]->beta_cache, nm[i],
                l[i]->beta_eager, nm[i], l[i]->eager,
                nm[i], l[i]->rndv, nm[i], l[i]->o, nm[i], l[i]->overlap, nm[i], l[i]->burst);
    fprintf(f, "net_exchange = %.4g\n", pr->net_exchange);
    for (int i = 0; i < 2; i++) {
        if (l[i]->rndv_pipe >= 0) fprintf(f, "%s_rndv_pipe = %.4g\n", nm[i], l[i]->rndv_pipe);
        if (l[i]->burst) fprintf(f, "%s_beta_burst = %.4g\n", nm[i], l[i]->beta_burst);
    }
    fprintf(f, "nic_share = %.4g\nfabric_bw = %.4g\nnode_bw = %.4g\ngamma = %.4g\n"
            "gamma_cache = %.4g\ncache_bytes = %zu\nmemcpy_beta = %.4g\nmemcpy_cache = %.4g\n"
            "cma_beta = %.4g\ncma_alpha = %.4g\ncpu_share = %.4g\n",
            pr->nic_share, pr->fabric_bw, pr->node_bw, pr->gamma, pr->gamma_cache, pr->cache_bytes,
            pr->memcpy_beta, pr->memcpy_cache, pr->cma_beta, pr->cma_alpha, pr->cpu_share);
    fprintf(f, "stream_beta = %.4g\nstream_cache = %.4g\nnode_mem_bw = %.4g\n"
            "handoff = %.4g\nhandoff_line = %.4g\nsync = %.4g\n"
            "call_alpha = %.4g\nxcopy = %.4g\nxcopy_nt = %.4g\nxreduce = %.4g\nxreduce_nt = %.4g\n",
            pr->stream_beta, pr->stream_cache, pr->node_mem_bw, pr->handoff,
            pr->handoff_line, pr->sync, pr->call_alpha, pr->xcopy, pr->xcopy_nt, pr->xreduce,
            pr->xreduce_nt);
    fprintf(f, "llc_bytes = %zu\ndram_factor = %.4g\n", pr->llc_bytes, pr->dram_factor);
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < pr->nx[k]; i++)
            fprintf(f, "%s.%zu = %.4g\n", xkind_names[k], pr->xpiece[k][i], pr->xat[k][i]);
    for (int i = 0; i < pr->ngammas; i++) {
        char k[32];
        strcpy(k, pr->gammas[i].key);
        *strchr(k, ' ') = '.';
        fprintf(f, "gamma.%s = %.4g\ngamma_cache.%s = %.4g\n", k, pr->gammas[i].gamma, k,
                pr->gammas[i].gamma_cache);
    }
}

int mca_coll_rsag_model_gamma(const mca_coll_rsag_model_profile_t *pr, const char *op,
                              const char *type, double *gamma, double *gamma_cache)
{
    char key[64];
    snprintf(key, sizeof key, "%s %s", op, type);
    for (int i = 0; i < pr->ngammas; i++)
        if (!strcmp(pr->gammas[i].key, key)) {
            *gamma = pr->gammas[i].gamma;
            *gamma_cache = pr->gammas[i].gamma_cache;
            return 1;
        }
    *gamma = pr->gamma;
    *gamma_cache = pr->gamma_cache;
    return 0;
}
