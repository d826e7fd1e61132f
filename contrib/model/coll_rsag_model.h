/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The cost model: predicted time of each rsag algorithm of each collective
 * for (p, ranks per node, bytes, reduction rate, profile).  Pure C, no MPI
 * (test/unit/test_model.c); a tool, not linked into the component: it
 * reads the component's algorithm tables (coll_rsag_select.h,
 * coll_rsag_algorithms.h in ompi/mca/coll/rsag/, on the include path).
 * contrib/model/rsag_model.c prints predictions, projections and parameter
 * files from it, contrib/rsag-calibrate.sh measures profiles.
 *
 * A profile is alpha-beta-gamma with the intra/inter-node split:
 *   per link (shared memory "shm", network "net"):
 *     alpha      s     one message, end to end (8 B exchange)
 *     beta       s/B   per byte above the eager limit (rendezvous), when
 *                      the call's vectors (2 n bytes) exceed 4 cache_bytes
 *     beta_cache s/B   the same when they fit cache_bytes (log-linear between)
 *     beta_eager s/B   per byte up to the eager limit
 *     eager      B     eager limit: larger messages pay rndv once more
 *     rndv       s     rendezvous handshake of a message from an idle link
 *                      (the first of a step)
 *     rndv_pipe  s     the same for a message sent right behind another
 *                      while the peer sends too (a further pipelined
 *                      segment or run): on a shaped tcp link its control
 *                      message queues behind the other direction's data;
 *                      < 0 (the default when a profile has no such key):
 *                      rndv
 *     o          s     per-message overhead of a pipelined sender (the
 *                      cost of one more segment / run, latency hidden)
 *     overlap    0..1  fraction of the reduction hidden behind transfers
 *                      (0: the CPU moves the bytes, as on shared memory)
 *     burst      B     a call's last message, when it is at most this
 *                      large, costs alpha only: a link shaper whose bucket
 *                      is not in debt passes one packet at once and charges
 *                      its bytes after the call (the emulated cluster's htb
 *                      with 64 KB GSO packets: just under the tcp eager
 *                      limit; 0 on real links and shared memory).  Earlier
 *                      messages pay in full (the debt delays the next one)
 *     beta_burst s/B   per byte of such a message (the unshaped path)
 *   net only:
 *     nic_share  1: the ranks of a node crossing the network at once share
 *                its link (beta times their number); 0: each has its own
 *     net_exchange >= 1 per-byte factor of an exchange step (both
 *                directions between the same pair at once) over a one-way
 *                step (a ring hop, a tree's send), above the eager limit:
 *                the isolated exchanges' slope over the ping-pong's (1 on
 *                2 emulated hosts, about 2 on 4 hosts x 1 rank sharing 2
 *                cores; below the eager limit both run at one rate)
 *     fabric_bw  B/s   all inter-node traffic together (0: unlimited)
 *   shm only:
 *     node_bw    B/s   a node's memory copy bandwidth shared by its ranks'
 *                      transfers: the most k ranks copying at once move
 *                      together (0: unlimited)
 *   the node path (`direct`), measured by rsag-calibrate:
 *     stream_beta, stream_cache  s/B  one core's streaming copy (non-
 *                      temporal stores, what direct writes for other cores
 *                      from coll_rsag_direct_stream_min_bytes on), source in
 *                      memory / in cache (0: memcpy's)
 *     node_mem_bw B/s  the node's memory traffic, reads and writes of all
 *                      its cores together: the most k ranks streaming-copying
 *                      at once move (2 bytes of traffic per byte copied)
 *                      (0: unlimited)
 *     xcopy, xreduce  s/B  reading data another core has just written
 *                      into shared memory with memcpy: copied out, or
 *                      reduced (SUM DOUBLE; other ops scaled by their gamma)
 *                      (0: memcpy_beta, gamma)
 *     xcopy_nt, xreduce_nt  the same when it was written by the streaming
 *                      copy (0: xcopy, xreduce)
 *                      (all four read in pieces of 256 KB, where the
 *                      prefetchers run ahead)
 *     xcopy.B, xcopy_nt.B, xreduce.B, xreduce_nt.B  the same read in
 *                      pieces of B bytes (small pieces pay a line fetched
 *                      from the writer's cache each); between the sizes
 *                      given, log-linear in the piece's size; below the
 *                      smallest its rate (none given: the 256 KB rate)
 *     llc_bytes  B     the last-level cache: where the node's data (its
 *                      ranks' vectors) outgrows it, log-linear from
 *                      llc_bytes / 4 to llc_bytes, memory rates and
 *                      node_mem_bw (measured within it) slow down by
 *     dram_factor >= 1 a memcpy's rate with its buffers beyond the
 *                      last-level cache over memcpy_beta (1: no such tier)
 *     handoff    s     a flag one rank writes until another sees it
 *     handoff_line s   each further flag of a wait on many ranks
 *     sync       s     the first wait of a call: a flag each way right
 *                      after a barrier (the skew the barrier leaves)
 *     call_alpha s     entering and leaving a collective (count 0)
 *   gamma        s/B   reduction, per byte of one operand, memory-bound
 *                      (large vectors), for the call's op and type
 *   gamma_cache  s/B   the same when the call's vectors fit cache_bytes
 *   memcpy, cma  s/B   one core's memcpy and process_vm_readv (direct)
 *   cma_alpha    s     one CMA system call (direct, per chunk)
 *   cpu_share    >= 1  processes per core (1: each rank has its own core);
 *                      reductions and copies take that many times longer
 *                      (the emulated cluster's hosts share this machine's 2
 *                      cores: 4 hosts x 1 rank is 2)
 * The time of a call is its critical path: the max over ranks, which the
 * benchmark (contrib/rsag-bench.sh) reports.  Each algorithm's formula is
 * in coll_rsag_model.c, next to the cost in its own file's header.
 */
#ifndef MCA_COLL_RSAG_MODEL_H
#define MCA_COLL_RSAG_MODEL_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "coll_rsag_index.h"
#include "coll_rsag_select.h"

#define MCA_COLL_RSAG_MODEL_MAX_GAMMAS 32
#define MCA_COLL_RSAG_MODEL_MAX_XPOINTS 6
/* The reads of what another core wrote: xcopy, xcopy_nt, xreduce, xreduce_nt. */
enum { MCA_COLL_RSAG_MODEL_XCOPY, MCA_COLL_RSAG_MODEL_XCOPY_NT, MCA_COLL_RSAG_MODEL_XREDUCE,
       MCA_COLL_RSAG_MODEL_XREDUCE_NT };

typedef struct mca_coll_rsag_model_link_t {
    double alpha, beta, beta_cache, beta_eager, rndv, o, overlap, rndv_pipe, beta_burst;
    size_t eager, burst;
} mca_coll_rsag_model_link_t;

typedef struct mca_coll_rsag_model_profile_t {
    char name[64];
    mca_coll_rsag_model_link_t shm, net;
    double nic_share;           /* net: 1 shared per node, 0 per rank */
    double net_exchange;        /* net: exchange / one-way per byte, >= 1 */
    double fabric_bw;           /* B/s, 0 = unlimited */
    double node_bw;             /* B/s, 0 = unlimited */
    double gamma, gamma_cache;  /* default op/type: SUM DOUBLE */
    size_t cache_bytes;
    double memcpy_beta, memcpy_cache, cma_beta, cma_alpha;
    double cpu_share;           /* processes per core, >= 1 */
    /* the node path's terms (direct) */
    double stream_beta, stream_cache, node_mem_bw;
    double handoff, handoff_line, sync, call_alpha;
    double xcopy, xcopy_nt, xreduce, xreduce_nt;
    /* the same at other piece sizes: xpiece[kind][i] bytes, xat[kind][i]
     * s/B (kind MCA_COLL_RSAG_MODEL_X*; the plain fields are 256 KB's) */
    int nx[4];
    size_t xpiece[4][MCA_COLL_RSAG_MODEL_MAX_XPOINTS];
    double xat[4][MCA_COLL_RSAG_MODEL_MAX_XPOINTS];
    size_t llc_bytes;           /* the last-level cache; 0: no such tier */
    double dram_factor;         /* memory rates beyond it / within it, >= 1 */
    /* gamma by "OP TYPE" ("SUM DOUBLE"), memory-bound and cached */
    int ngammas;
    struct { char key[32]; double gamma, gamma_cache; } gammas[MCA_COLL_RSAG_MODEL_MAX_GAMMAS];
} mca_coll_rsag_model_profile_t;

/* The algorithms' knobs (defaults: the MCA parameters' defaults). */
typedef struct mca_coll_rsag_model_knobs_t {
    size_t ring_segment;        /* coll_rsag_<coll>_ring_chunk_size; 0 whole blocks */
    int priority_chunks;        /* coll_rsag_priority_aware_run_blocks */
    size_t direct_chunk;        /* coll_rsag_direct_chunk_size */
    size_t direct_slot;         /* coll_rsag_segment_size: bytes of a segment
                                 * slot; 0: 8 MiB / p in [64 KiB, 1 MiB] */
    size_t direct_stream_min;   /* coll_rsag_direct_stream_min_bytes */
    int direct_stream;          /* coll_rsag_direct_stream: MCA_COLL_RSAG_MODEL_STREAM_* */
    size_t direct_cma_min;      /* coll_rsag_direct_cma_min_bytes (SIZE_MAX:
                                 * never, the segment carries every call) */
    int direct_fanin;           /* coll_rsag_direct_fanin: 0 the model's best
                                 * (mca_coll_rsag_model_direct_fanin), 1 flat,
                                 * k >= 2 the tree of fan-in k (boxed calls, p >= 3) */
    int root;                   /* MPI_Reduce root */
    size_t exchange_chunk;      /* coll_rsag_exchange_chunk_size: an exchange with a
                                 * rank on another node goes in messages of at most
                                 * this (0: whole) */
    size_t hier_chunk;          /* coll_rsag_hierarchical_chunk_size: bytes of a
                                 * chunk of hierarchical's pipeline; 0 not cut
                                 * (default MCA_COLL_RSAG_HIER_DEFAULT_CHUNK,
                                 * coll_rsag_index.h, the component's) */
} mca_coll_rsag_model_knobs_t;

/* How `direct` writes what its peers read (coll_rsag_direct_stream):
 * AUTO, the component's learner, takes the faster of the two ways per
 * communicator and size (the model: the faster of its two predictions);
 * ALWAYS streams from direct_stream_min on; NEVER copies with memcpy. */
enum { MCA_COLL_RSAG_MODEL_STREAM_AUTO, MCA_COLL_RSAG_MODEL_STREAM_ALWAYS,
       MCA_COLL_RSAG_MODEL_STREAM_NEVER };

/* One call to predict. */
typedef struct mca_coll_rsag_model_call_t {
    int p;                      /* communicator size, >= 1 */
    int ppn;                    /* ranks per node (consecutive ranks), 1 .. p */
    size_t bytes;               /* the whole vector (count * type size) */
    size_t type_size;           /* bytes of one element (count >= p' check), 8 */
    double gamma, gamma_cache;  /* s/B of the op/type; < 0: the profile's default */
    size_t whole_bytes;         /* this call is a piece (a pipeline chunk) of a step
                                 * of whole_bytes: they decide the cache rates, as the
                                 * call's vectors do (0: bytes) */
    mca_coll_rsag_model_knobs_t knobs;
} mca_coll_rsag_model_call_t;

/* The slot of `direct`'s segment for p ranks (the component's
 * mca_coll_rsag_slot_bytes): knobs.direct_slot, or 8 MiB / p between
 * 64 KiB and 1 MiB, rounded up to 128 bytes. */
size_t mca_coll_rsag_model_direct_slot(const mca_coll_rsag_model_knobs_t *knobs, int p);

/* `direct`'s boxed calls (bytes <= 1080 at p >= 3, one node): the fan-in the
 * model finds fastest for `coll` (1: flat, every rank reads the p boxes;
 * k >= 2: the tree of fan-in k, k from 2 to MCA_COLL_RSAG_MODEL_MAX_FANIN),
 * *t its time; 1 (and the flat time) for any other call.  The component's
 * auto rule (mca_coll_rsag_direct_fanin_auto) is this with the shipped
 * profile, for the allreduce. */
#define MCA_COLL_RSAG_MODEL_MAX_FANIN 64
int mca_coll_rsag_model_direct_fanin(mca_coll_rsag_coll_t coll,
                                     const mca_coll_rsag_model_call_t *call,
                                     const mca_coll_rsag_model_profile_t *prof, double *t);

/* "Not applicable" (direct off one node, count < p', unknown name). */
#define MCA_COLL_RSAG_MODEL_NA HUGE_VAL

/* A call with the default knobs, SUM on doubles (gamma < 0). */
void mca_coll_rsag_model_call_init(mca_coll_rsag_model_call_t *call, int p, int ppn,
                                   size_t bytes);

/* Predicted seconds of algorithm `alg` (a row name of the collective's
 * table, or "hierarchical", below) for `call`; MCA_COLL_RSAG_MODEL_NA when
 * the algorithm cannot run it. */
double mca_coll_rsag_model_time(mca_coll_rsag_coll_t coll, const char *alg,
                                const mca_coll_rsag_model_call_t *call,
                                const mca_coll_rsag_model_profile_t *prof);

/* Is there a formula for (coll, alg)?  Every row of every table must have
 * one (test_model checks): a new row needs one formula in coll_rsag_model.c. */
int mca_coll_rsag_model_has(mca_coll_rsag_coll_t coll, const char *alg);

/* The node-aware algorithm (`hierarchical`): intra-node reduce-scatter (`intra`:
 * "direct" or "recursive_halving"), then among the ranks of equal local
 * index an inter-node reduction of n/ppn bytes by rsag's own `inter`
 * algorithm of `coll` over p/ppn ranks, one per node, all ppn of a node at
 * once, then an intra-node allgather (allreduce), gather to the root
 * (reduce), nothing (reduce-scatter; they first copy their input in the
 * slices' order, not rank order for ppn >= 2 by slot).
 * mca_coll_rsag_model_time(coll, "hierarchical", ...) is this with intra =
 * "direct" (or "recursive_halving" when direct cannot run) and the inter
 * algorithm the model finds fastest.
 * Pipelined (knobs.hier_chunk, the component's mca_coll_rsag_hier_pipeline):
 * C = ceil(n / hier_chunk) chunks, at most count / ppn and 256 (C = 1
 * when hier_chunk is 0), each chunk's three phases costed on its bytes
 * (t1 node reduce-scatter, t2 cross-node, t3 node allgather / gather,
 * the cache rates of the whole call's steps), and
 *     T = t1 + t2 + t3 + (C - 1) max(t1 + t3 + g2, t2)
 * with g2 the reductions of t2: the chunks' node phases wait for each
 * other (the component's gate), and t3 of one chunk cannot hide t1 of
 * another either: both are the rank's CPU and the node's memory (the
 * progress engine runs one step at a time), as are t2's reductions; the
 * network's share of t2 overlaps them.  Only the last chunk's last message
 * gets the shaper burst's credit.  C = 1 is the unpipelined sum. */
/* C above: the number of chunks the component cuts the call into
 * (mca_coll_rsag_hier_chunks with S = ppn). */
size_t mca_coll_rsag_model_hier_chunks(const mca_coll_rsag_model_call_t *call);

double mca_coll_rsag_model_hierarchical(mca_coll_rsag_coll_t coll, const char *intra,
                                        const char *inter,
                                        const mca_coll_rsag_model_call_t *call,
                                        const mca_coll_rsag_model_profile_t *prof);

/* The fastest algorithm of the table for the call (commutative op,
 * contiguous type; forced-only rows included when include_off): its id,
 * *t its time. */
int mca_coll_rsag_model_best(mca_coll_rsag_coll_t coll, const mca_coll_rsag_model_call_t *call,
                             const mca_coll_rsag_model_profile_t *prof, double *t);

/* Thresholds for `auto` from the model: for each size 2^k, k = 3 .. 30,
 * the predicted slowdown of each algorithm of the table against the best
 * one, the worst over every p in ps[0..nps-1] (ranks per node min(ppn, p);
 * ppn <= 0: one node).  Every assignment of thresholds (each algorithm but
 * the base off or starting at one of those sizes) is simulated as auto
 * applies it (the largest threshold not above the size among the
 * algorithms that can run); the one with the smallest worst slowdown wins
 * (slowdowns within `margin`, e.g. 0.03, count as none), then the smallest
 * total, then the one using fewer algorithms: the rules of
 * contrib/rsag-thresholds.awk.  min_bytes[id] gets the size an algorithm
 * starts at, MCA_COLL_RSAG_OFF when never; the base (id 1) gets 0.
 * Algorithms for which skip(alg) is true (e.g. direct) stay off.  Returns
 * that worst slowdown (1.0 = none). */
double mca_coll_rsag_model_thresholds(mca_coll_rsag_coll_t coll, const int *ps, int nps, int ppn,
                                      const mca_coll_rsag_model_profile_t *prof, double margin,
                                      int (*skip)(const char *alg), size_t *min_bytes);

/* ---- profiles ----------------------------------------------------------- */

/* A plausible profile of this 2-core machine's order of magnitude, for the
 * unit tests and as the base a file overrides. */
void mca_coll_rsag_model_profile_default(mca_coll_rsag_model_profile_t *prof);

/* Read `key = value` lines (# comments) over *prof: keys as the fields
 * above with the link prefix (shm_alpha, net_beta, ...), and
 * gamma.<OP>.<TYPE> / gamma_cache.<OP>.<TYPE>.  Returns 0, or the line
 * number of the first bad line (*prof keeps what came before). */
int mca_coll_rsag_model_profile_read(FILE *f, mca_coll_rsag_model_profile_t *prof);
void mca_coll_rsag_model_profile_write(FILE *f, const mca_coll_rsag_model_profile_t *prof);

/* gamma (and gamma_cache) of "OP TYPE" from the profile; 0 and the
 * defaults when the profile has no such entry. */
int mca_coll_rsag_model_gamma(const mca_coll_rsag_model_profile_t *prof, const char *op,
                              const char *type, double *gamma, double *gamma_cache);

#endif /* MCA_COLL_RSAG_MODEL_H */
