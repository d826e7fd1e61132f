/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The algorithm tables: the single source of truth for what rsag can do.
 *
 * One X-macro list per collective, one row per algorithm:
 *
 *   X(coll, ALG, id, "name", "description", restrictions, layout,
 *     default_min_bytes, function)
 *
 *   id           value of the MCA enum coll_rsag_<coll>_algorithm (0 is "auto")
 *   name         enum string, MPI_T pvar suffix, verbose/benchmark label
 *   restrictions MCA_COLL_RSAG_NEEDS_* bits, checked per call by the selector,
 *                and property bits (MCA_COLL_RSAG_FOLDS_IN_RANK_ORDER): what
 *                the row promises, which a mode may require
 *   layout       the block layout the dispatcher prepares for the algorithm
 *                (MCA_COLL_RSAG_LAYOUT_*, below)
 *   default_min_bytes
 *                compiled-in thresholds of `auto`, one per communicator class
 *                (MCA_COLL_RSAG_BY_CLASS, from the table below: three size
 *                classes and "several nodes"): `auto`
 *                uses the applicable algorithm with the largest threshold <=
 *                message bytes, a node-aware row (one that needs several
 *                nodes) ahead of the flat ones from its threshold on.
 *                coll_rsag_<coll>_<name>_min_bytes = N >= 0
 *                overrides them for every communicator size.
 *   function     the implementation (one file per algorithm)
 *
 * The MCA enums, the selector, the dispatch table, the MPI_T counters, the
 * tests and the benchmark are all generated from these lists, so adding an
 * algorithm is one row here and one file.  This header is pure C: the pure
 * parts (selector, unit tests) include it without MPI and ignore the
 * function column.
 */
#ifndef MCA_COLL_RSAG_ALGORITHMS_H
#define MCA_COLL_RSAG_ALGORITHMS_H

/* Restriction bits (the "restrictions" column). */
#define MCA_COLL_RSAG_NEEDS_COMMUTATIVE   0x1u  /* op must be commutative */
#define MCA_COLL_RSAG_NEEDS_COUNT_GE_POF2 0x2u  /* count >= p' = 2^floor(log2 p) */
#define MCA_COLL_RSAG_NEEDS_SINGLE_NODE   0x4u  /* all ranks on one node, its shared
                                                   segment made (coll_rsag_segment.c) */
#define MCA_COLL_RSAG_NEEDS_CONTIGUOUS    0x8u  /* datatype size == extent == true
                                                   extent (any lower bound) */
#define MCA_COLL_RSAG_NEEDS_MULTI_NODE    0x10u /* ranks on >= 2 nodes, any number (>= 1)
                                                   on each, at least one node with >= 2
                                                   (one rank per node: the node-aware
                                                   algorithms would be the flat one on a
                                                   copy of the communicator), and the
                                                   node and cross-node communicators
                                                   usable (coll_rsag_hier.c) */
#define MCA_COLL_RSAG_NEEDS_ORDERED_START 0x20u /* started in the communicator's order of
                                                   collectives: blocking, MPI_I*, or a
                                                   persistent request whose starts are
                                                   asserted ordered (coll_rsag_dispatch.c) */
#define MCA_COLL_RSAG_NUM_RESTRICTIONS    6

/* Property bits, in the same column: what a row guarantees, not what a call
 * needs (the selector never counts them as unmet restrictions).
 * FOLDS_IN_RANK_ORDER: every element of the result is the left fold in
 * rank order, ((x_0 op x_1) op x_2) op ... op x_{p-1}, the same bits on
 * every placement and form; the rows coll_rsag_reproducible = placement
 * chooses among (doc/reproducible.md). */
#define MCA_COLL_RSAG_FOLDS_IN_RANK_ORDER 0x40u
/* FOLDS_WHOLE: every contribution of an element is in hand at once where it
 * is folded (not partial results), so coll_rsag_reproducible = exact can
 * fold them with its exact sum instead of the op (coll_rsag_exact.h): the
 * rows exact chooses among before its own collectives (`direct`, and
 * `ordered` for the calls its one collective does not take:
 * mca_coll_rsag_select). */
#define MCA_COLL_RSAG_FOLDS_WHOLE 0x80u
/* FILLS_PIPE: a pipeline of segments of coll_rsag_exchange_chunk_size down
 * p - 1 hops (`chain`): auto takes the row only for a message of at least
 * p - 1 segments (call->pipe_full), where filling the pipe costs no more
 * than the segments themselves and the row is no slower than the trees;
 * forced, it runs at any size. */
#define MCA_COLL_RSAG_FILLS_PIPE 0x100u

/* Layouts (the "layout" column; mca_coll_rsag_args_t in coll_rsag.h). */
#define MCA_COLL_RSAG_LAYOUT_NONE   0   /* whole vectors only */
#define MCA_COLL_RSAG_LAYOUT_RANKS  1   /* p rank blocks and their p' folded vblocks */
#define MCA_COLL_RSAG_LAYOUT_HALVES 2   /* p' vblocks: halves of halves of the vector */

/* ---- Default thresholds by communicator size: THE table to edit ----------
 *
 * Crossovers depend on the communicator size p, so each default threshold
 * has one value per size class.  A communicator of size p is in the first
 * class whose bound is >= p (bounds: coll_rsag_comm_class_<k>_max_size,
 * defaults below); the last class takes every larger size.  Values are
 * bytes of the whole vector (count * type size).
 *
 * History: the columns started as what contrib/rsag-tune.sh chose from the run
 * of 2026-11-21 (contrib/results/2026-11-21/rsag-tune-np<N>.conf, from the
 * CSVs of that run; README "Measured"): np 2 for p <= 2 (2 cores, not
 * oversubscribed), np 4 for p <= 4 and np 8 for larger p (both
 * oversubscribed on 2 cores: noisy, +-20 % and more below 64 KB).  ob1 +
 * vader, MPI_DOUBLE sums.  The tuner keeps the thresholds with the smallest
 * worst slowdown against the fastest rsag algorithm at each measured size
 * (8 B .. 64 MB, x4 steps; reduce-scatter 64 KB .. 64 MB); what is left:
 *   allreduce p <= 2: 1.55 at 16 KB, reduce p <= 2: 1.67 at 16 KB (at
 *     4 KB vader's eager limit turns a whole-vector message into a
 *     rendezvous while Rabenseifner's halves stay eager: 2.7x there; from
 *     16 KB recursive doubling / binomial are faster again; one threshold
 *     cannot take both), allreduce p <= 4: 1.10 at 4 KB, larger: 1.04;
 *   reduce p > 2: none; reduce-scatter p <= 2: 1.04 at 64 MB, else none
 *     (from MPI_Reduce_scatter_block; its row serves both collectives).
 * MCA_COLL_RSAG_OFF: auto never picks the algorithm (it stays available to
 * force): the priority-aware reduce-scatter never won; at np 2 neither
 * the ring nor the priority-aware allreduce beat Rabenseifner by 3 %.
 * `circulant` (2026-11-27): several nodes from 64 KB (below, "several
 * nodes"); OFF on one node, where it was not measured.
 */
#define MCA_COLL_RSAG_NUM_SIZE_CLASSES 3
/* Default upper bounds of the size classes but the last: p <= 2, p <= 4. */
#define MCA_COLL_RSAG_COMM_CLASS_BOUNDS { 2, 4 }
/* Two more classes, after the size classes: a communicator whose ranks are
 * on several nodes (any size; MPI traffic crosses the network), e.g. the
 * emulated cluster of doc/cluster.md, or the cross-node communicators of
 * `hierarchical` (one rank per node); and a one-node communicator on an
 * oversubscribed node (any size; more processes than cores: Open MPI then
 * yields the core when idle, opal_progress_yield_when_idle, which mpirun
 * turns on by itself there and mpi_yield_when_idle sets by hand). */
#define MCA_COLL_RSAG_CLASS_NODES          MCA_COLL_RSAG_NUM_SIZE_CLASSES
#define MCA_COLL_RSAG_CLASS_OVERSUBSCRIBED (MCA_COLL_RSAG_NUM_SIZE_CLASSES + 1)
#define MCA_COLL_RSAG_NUM_COMM_CLASSES     (MCA_COLL_RSAG_NUM_SIZE_CLASSES + 2)

/* Where the defaults come from (doc/parameters.md, "Default thresholds"):
 *
 * p <= 2: measured at np 2 on this machine's two cores (not oversubscribed):
 *   contrib/results/2026-11-21 for the point-to-point algorithms,
 *   contrib/results/2026-11-23-direct (a quiet machine) for `direct`, which
 *   is fastest from 1 KB for every collective (1.1-2.8x tuned's best
 *   allreduce), and contrib/results/2026-11-26-latency for the sizes below:
 *   there recursive doubling / binomial / halving won until `direct`'s
 *   small calls took the latency path (coll_rsag_latency.c), which is
 *   ahead of them and of tuned from 8 B (and so from 1 byte: the same
 *   path).  Rabenseifner shares its threshold (on equal thresholds the
 *   later row, `direct`, wins where it applies), so the calls `direct`
 *   cannot take (a non-contiguous datatype, MPI_I* before the segment
 *   exists) get Rabenseifner, or recursive doubling / binomial below p'
 *   elements, as they got from 1 KB before.
 * p <= 4 and larger p on one node: rsag's cost model (contrib/model/
 *   coll_rsag_model.c, `direct` included: its boxes, whole vectors and
 *   windows, the streamed puts, the reads of what another core wrote, the
 *   node's memory bandwidth shared by the p ranks) with the profile
 *   contrib/rsag-model.profile (links and kernels of 2026-11-23, the node
 *   path's terms of 2026-11-26: contrib/results/2026-11-26-direct-model,
 *   where the np-2 check of the direct row is), the thresholds whose worst
 *   predicted slowdown against the fastest algorithm is smallest over p =
 *   3, 4 and over p = 5, 6, 8, 12, 16, 32, 64, 128, 256 (ranks per node =
 *   p):  rsag_model -P contrib/rsag-model.profile thresholds COLL 0 3 4
 *   (and 0 5 6 8 12 16 32 64 128 256).  Worst predicted slowdowns: p <= 4
 *   1.76 (allreduce), 1.73, 1.19 (reduce, reduce-scatter); larger p 4.5,
 *   4.2, 1.4: one threshold per class cannot fit p = 5 and p = 256 alike.
 *   `direct` wins from the smallest size on; the reduce-scatters' ring
 *   overtakes it for large blocks (a window holds one owner's block: that
 *   rank reduces while the others wait).  Calls direct cannot take (a
 *   non-contiguous datatype; MPI_I* before the segment exists; persistent
 *   requests whose starts may be unordered) get the row below it: recursive doubling / binomial /
 *   halving for p <= 4, Rabenseifner from 4 KB for larger p.  More
 *   processes than cores cannot be timed honestly here, so no
 *   oversubscribed timing sets these; rsag-tune.sh --node measures a real
 *   node.
 * several nodes: measured on the emulated cluster at 1 Gbit/s (processes
 *   share the 2 cores; the links are the bottleneck): 4 and 8 hosts x 1
 *   rank (contrib/results/2026-11-23-priority-tcp: the ring 1.4-1.9x ahead
 *   from 2 MB, priority-aware 0.44-0.84 of halving's time at 128-512 KB) and 2
 *   hosts x 2 ranks (contrib/results/2026-11-23-hierarchical: below 1 MB
 *   hierarchical no faster than the best flat algorithm; -thresholds: from
 *   1 MB, its cross-node step taking these thresholds, 1.0-1.6x the best
 *   flat algorithm up to 16 MB, 0.93x at 64 MB).  The node-aware rows go
 *   ahead of the flat ones from their thresholds on wherever they apply
 *   (several nodes, any placement, one of them with >= 2 ranks), so the
 *   flat rows of this column serve one rank per node (the ring from 1 MB).
 *   The reduce-scatters follow the allreduce (its first half);
 *   hierarchical MPI_Reduce was not measured (from 64 KB).
 *   2026-11-26 (contrib/results/2026-11-26-cluster: 2 hosts x 2 ranks and
 *   3+2+3, every rsag algorithm forced in one job each): at 64 KB the
 *   allreduce's recursive doubling took 1.9 / 6.9 ms, Rabenseifner 0.54 /
 *   1.8 (tuned's best 0.55 / 1.9 ms), so Rabenseifner now starts at 64 KB,
 *   where leaders stops, for one rank per node.  Where hierarchical
 *   applies it takes the allreduce from 64 KB: it took 0.38 / 1.3 ms
 *   there, 3.2 / 3.0-3.3 ms at 256 KB (the 3+2+3 figure with the ring
 *   across, forced), where flat Rabenseifner took 7.0 / 13 and the flat
 *   ring 5.4 / 4.2.  The same runs and contrib/results/2026-11-26-cluster-auto
 *   (auto against tuned, 5 repetitions): MPI_Reduce from 4 KB to 64 KB is
 *   binomial's (16 KB: binomial 64 / 240 us, leaders 134 / 370,
 *   Rabenseifner 267 / 678 on 2 x 2 / 3+2+3), so Rabenseifner starts at
 *   64 KB, where hierarchical takes every placement it applies to; the
 *   reduce-scatters take hierarchical from 256 KB (2.4 ms on 2 x 2 against
 *   tuned's best 3.0; priority-aware, auto's choice before, 4.3).
 *   2026-11-27 (contrib/results/2026-11-27-circulant: 5, 6 and 7 hosts x 1
 *   rank, every algorithm forced, 5 repetitions): where p is not a power
 *   of two, Rabenseifner's and halving's fold cost 2-5x (allreduce 256 KB:
 *   Rabenseifner 18 ms, the ring 3.3, circulant 5.7); `circulant` has no
 *   fold for any p and the same rounds and volume as halving at a power of
 *   two (the cost model: within 3 % of Rabenseifner at p = 8, 2x ahead at
 *   p = 5), so it replaces Rabenseifner (allreduce) and priority-aware
 *   (the reduce-scatters) from 64 KB for one rank per node and as
 *   hierarchical's cross-node step (which no longer needs a rule of its
 *   own for node counts that are not powers of two); the ring keeps 1 MB
 *   and up.  Measured against the best other job at 64 KB - 1 MB:
 *   allreduce 1.02-1.41 at 64 KB, 0.39-0.60 at 256 KB (the ring),
 *   0.92-1.09 at 1 MB; the reduce-scatter 0.98-1.38, 0.53-0.56, 0.80-1.14
 *   (the table: README there).  Oversubscribed (5-7 processes on 2 cores),
 *   link-bound; the power-of-two side from the model, not measured.
 *   2026-11-27 (contrib/results/2026-11-27-circulant-chunks, same set-up,
 *   and 4 x 1): circulant's runs in messages below TCP's eager limit
 *   (coll_rsag_exchange_chunk_size) took it from 0.39-0.60 of the ring
 *   to 0.94-1.00 at 256 KB (both at the link's rate), and ahead of it
 *   from 1 MB to 4 MB (1 MB: 1.16-1.50, 4 MB 0.93-1.36; at 4 x 1 1.1-1.4
 *   from 256 KB); at 16 MB the ring is ahead
 *   (allreduce 1.08-1.3, the reduce-scatter 1.0-1.07): the ring moves
 *   from 1 MB to 16 MB on several nodes.
 *   2026-11-27 (contrib/results/2026-11-27-cross-chunks: 2 x 2, 3+2+3 and
 *   4 x 1, 3 interleaved repetitions): MPI_Reduce's pipelined `chain`
 *   carries the vector once over each link, where Rabenseifner's root takes
 *   in 2 (p-1)/p n and the tree's log2 p n: flat on 4 x 1 0.44 / 2.2 / 9.4
 *   ms at 64 KB / 256 KB / 1 MB against Rabenseifner's 0.74 / 4.1 / 16.7
 *   and binomial's 0.18 against its 0.07 at 16 KB; as hierarchical's cross
 *   step on 3+2+3 2.5 / 10.2 ms at 256 KB / 1 MB against 5.3 / 19.3 with
 *   Rabenseifner across.  It shares Rabenseifner's 64 KB in the
 *   several-nodes column and, the later row, wins the tie where auto may
 *   take it: for a message of at least p - 1 segments (FILLS_PIPE), where
 *   filling the pipe costs no more than the segments do; below that the
 *   trees' log2 p steps beat the chain's p - 1 hops (the cost model: at
 *   64 nodes x 1 rank chain 41 ms at 1 MB against Rabenseifner's 17).
 *   On the emulator, whose capped links pass small bursts at once, the
 *   chain was ahead from 16 KB on 3+2+3 and 4 x 1 (1.8-3.2x) and behind
 *   binomial on 2 x 2 (57-67 against 34-43 us at 16-32 KB).
 * oversubscribed node: one node running more processes than it has cores
 *   (a laptop, a CI runner, a test at np 16 on 2 cores).  Every wait there
 *   may cost a turn of the scheduler, so an algorithm's rounds, not its
 *   bytes, set its time, and the size classes' model (a core per rank)
 *   does not hold.  This column alone comes from oversubscribed timing,
 *   which is what it serves (contrib/results/2026-11-27-oversubscribed:
 *   np 4, 8 and 16 on 2 cores, OSU 5.3, 6 rounds in rotated order):
 *   `direct`, one round through the node's memory, was 1.3-6x faster than
 *   tuned's default at every size from 8 B to 1 MB but the reduce-scatter
 *   of fewer elements than ranks, where the size classes' recursive
 *   doubling, binomial tree and Rabenseifner had been up to 2.5x slower
 *   than tuned (MPI_Reduce of 4 KB at np 8 and 16: Rabenseifner's 2 log2 p
 *   rounds).  So `direct` from 1 byte; where it cannot run (a
 *   non-contiguous datatype, MPI_I* before the segment exists) the fastest
 *   point-to-point row at np 8 for small messages: recursive doubling,
 *   the binomial tree and recursive halving at every size.  (Rabenseifner
 *   was the allreduce's fastest from 128 KB, 1.6x recursive doubling at
 *   1 MB, but a row wins by the largest threshold at most the size, so
 *   from any threshold above direct's 1 it would take direct's calls too;
 *   at 1 byte it would take the small ones, 1.5x slower there.) */
/* bytes of the whole vector                                                      p <= 2      p <= 4    larger p   several nodes  oversubscribed node */
#define MCA_COLL_RSAG_DEF_ALLREDUCE_RECURSIVE_DOUBLING    MCA_COLL_RSAG_BY_CLASS(         0,         0,         0,         0,         0)
#define MCA_COLL_RSAG_DEF_ALLREDUCE_RABENSEIFNER          MCA_COLL_RSAG_BY_CLASS(         1, MCA_COLL_RSAG_OFF,      4096, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF)
#define MCA_COLL_RSAG_DEF_ALLREDUCE_RING                  MCA_COLL_RSAG_BY_CLASS(MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF,  16777216, MCA_COLL_RSAG_OFF)
#define MCA_COLL_RSAG_DEF_ALLREDUCE_PRIORITY_AWARE        MCA_COLL_RSAG_BY_CLASS(MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF)
#define MCA_COLL_RSAG_DEF_ALLREDUCE_DIRECT                MCA_COLL_RSAG_BY_CLASS(         1,         8,      8192, MCA_COLL_RSAG_OFF,         1)
#define MCA_COLL_RSAG_DEF_ALLREDUCE_HIERARCHICAL          MCA_COLL_RSAG_BY_CLASS(MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF,     65536, MCA_COLL_RSAG_OFF)
#define MCA_COLL_RSAG_DEF_ALLREDUCE_LEADERS               MCA_COLL_RSAG_BY_CLASS(MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF)
#define MCA_COLL_RSAG_DEF_ALLREDUCE_CIRCULANT             MCA_COLL_RSAG_BY_CLASS(MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF,     65536, MCA_COLL_RSAG_OFF)
#define MCA_COLL_RSAG_DEF_ALLREDUCE_ORDERED               MCA_COLL_RSAG_BY_CLASS(MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF)
#define MCA_COLL_RSAG_DEF_REDUCE_BINOMIAL                 MCA_COLL_RSAG_BY_CLASS(         0,         0,         0,         0,         0)
#define MCA_COLL_RSAG_DEF_REDUCE_RABENSEIFNER             MCA_COLL_RSAG_BY_CLASS(         1, MCA_COLL_RSAG_OFF,      4096,     65536, MCA_COLL_RSAG_OFF)
#define MCA_COLL_RSAG_DEF_REDUCE_DIRECT                   MCA_COLL_RSAG_BY_CLASS(         1,         8,      8192, MCA_COLL_RSAG_OFF,         1)
#define MCA_COLL_RSAG_DEF_REDUCE_HIERARCHICAL             MCA_COLL_RSAG_BY_CLASS(MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF,     65536, MCA_COLL_RSAG_OFF)
#define MCA_COLL_RSAG_DEF_REDUCE_LEADERS                  MCA_COLL_RSAG_BY_CLASS(MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF)
#define MCA_COLL_RSAG_DEF_REDUCE_ORDERED                  MCA_COLL_RSAG_BY_CLASS(MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF)
#define MCA_COLL_RSAG_DEF_REDUCE_CHAIN                    MCA_COLL_RSAG_BY_CLASS(MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF,     65536, MCA_COLL_RSAG_OFF)
/* the reduce-scatter rows serve MPI_Reduce_scatter_block and MPI_Reduce_scatter */
#define MCA_COLL_RSAG_DEF_RS_RECURSIVE_HALVING            MCA_COLL_RSAG_BY_CLASS(         0,         0,         0,         0,         0)
#define MCA_COLL_RSAG_DEF_RS_RING                         MCA_COLL_RSAG_BY_CLASS(MCA_COLL_RSAG_OFF,    131072,   8388608,  16777216, MCA_COLL_RSAG_OFF)
#define MCA_COLL_RSAG_DEF_RS_PRIORITY_AWARE               MCA_COLL_RSAG_BY_CLASS(MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF)
#define MCA_COLL_RSAG_DEF_RS_DIRECT                       MCA_COLL_RSAG_BY_CLASS(         1,         8,         8, MCA_COLL_RSAG_OFF,         1)
#define MCA_COLL_RSAG_DEF_RS_HIERARCHICAL                 MCA_COLL_RSAG_BY_CLASS(MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF,    262144, MCA_COLL_RSAG_OFF)
#define MCA_COLL_RSAG_DEF_RS_LEADERS                      MCA_COLL_RSAG_BY_CLASS(MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF)
#define MCA_COLL_RSAG_DEF_RS_CIRCULANT                    MCA_COLL_RSAG_BY_CLASS(MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF,     65536, MCA_COLL_RSAG_OFF)
/* `ordered` (every table): the rank-order fold for placement mode on any
 * placement; auto in `off` mode never picks it (not measured yet) */
#define MCA_COLL_RSAG_DEF_RS_ORDERED                      MCA_COLL_RSAG_BY_CLASS(MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF, MCA_COLL_RSAG_OFF)
/* ---- end of the threshold table ------------------------------------------ */

/* ---- Below these sizes, auto takes `leaders` -------------------------------
 *
 * The node-aware small-message path (`leaders`: node reduce to local rank
 * 0, the leaders across nodes, release in the node) is taken by auto for
 * every message smaller than coll_rsag_<coll>_leaders_max_bytes wherever
 * it applies (several nodes, one of them with >= 2 ranks; commutative op),
 * ahead of the *_min_bytes thresholds above (which cannot say "below":
 * auto takes the largest threshold <= bytes).  Its *_min_bytes stay OFF:
 * from the bound on, the table decides as before.  Measured on the
 * emulated cluster at 1 Gbit/s, 2 hosts x 2 ranks and 3+2+3 (processes
 * sharing the 2 cores; contrib/results/2026-11-26-cluster, one job per
 * placement, every algorithm forced): allreduce, leaders ahead of every
 * other rsag algorithm at 8 B-16 KB on both, hierarchical at 64 KB: 64 KiB;
 * the reduce-scatters, leaders ahead of halving at 64 KB on both (0.18 /
 * 1.1 ms against 0.42 / 1.2), not at 256 KB: 128 KiB; reduce: leaders
 * ahead at 8 B - 1 KB on 3+2+3 and level on 2 x 2, binomial ahead at 16 KB
 * on both (contrib/results/2026-11-26-cluster-auto: leaders at 16 KB was
 * 0.44 / 0.81 of tuned's best): 4 KiB. */
#define MCA_COLL_RSAG_DEF_ALLREDUCE_LEADERS_MAX_BYTES     65536
#define MCA_COLL_RSAG_DEF_REDUCE_LEADERS_MAX_BYTES        4096
#define MCA_COLL_RSAG_DEF_RS_LEADERS_MAX_BYTES            131072

/* "Never by auto": the largest value of the long threshold parameters, so
 * a tuner file's "= 9223372036854775807" means the same. */
#define MCA_COLL_RSAG_OFF 9223372036854775807

/* One threshold per class, as an array initializer.  It only appears
 * inside the default_min_bytes column, whose users put it in an
 * initializer and never pass it on to another macro. */
#define MCA_COLL_RSAG_BY_CLASS(p2, p4, larger, nodes, oversubscribed) \
    { (size_t) (p2), (size_t) (p4), (size_t) (larger), (size_t) (nodes), (size_t) (oversubscribed) }

#define MCA_COLL_RSAG_ALLREDUCE_ALGORITHMS(X)                                      \
    X(ALLREDUCE, RECURSIVE_DOUBLING, 1, "recursive_doubling",                      \
      "recursive doubling on whole vectors, extra ranks folded in and out; "       \
      "log2(p) steps, order-preserving (non-commutative ops)",                     \
      0u, MCA_COLL_RSAG_LAYOUT_NONE, MCA_COLL_RSAG_DEF_ALLREDUCE_RECURSIVE_DOUBLING,                     \
      mca_coll_rsag_allreduce_recursive_doubling)                           \
    X(ALLREDUCE, RABENSEIFNER, 2, "rabenseifner",                                  \
      "Rabenseifner: reduce-scatter by recursive halving + allgather by "          \
      "recursive doubling, balanced non-power-of-two pre-step; commutative ops, "  \
      "count >= p'",                                                               \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE | MCA_COLL_RSAG_NEEDS_COUNT_GE_POF2,         \
      MCA_COLL_RSAG_LAYOUT_HALVES, MCA_COLL_RSAG_DEF_ALLREDUCE_RABENSEIFNER,                                    \
      mca_coll_rsag_allreduce_rabenseifner)                                  \
    X(ALLREDUCE, RING, 3, "ring",                                                  \
      "pipelined ring: ring reduce-scatter + ring allgather over p blocks of "     \
      "any size, sent in coll_rsag_allreduce_ring_chunk_size chunks; "             \
      "2(p-1) steps, commutative ops",                                             \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE, MCA_COLL_RSAG_LAYOUT_RANKS,                 \
      MCA_COLL_RSAG_DEF_ALLREDUCE_RING,           \
      mca_coll_rsag_allreduce_ring)                                                \
    X(ALLREDUCE, PRIORITY_AWARE, 4, "priority_aware",                              \
      "priority-aware reduce-scatter (recursive halving sending each block as "    \
      "its own message in the order the partner needs it, reducing lazily) + "     \
      "allgather by recursive doubling; commutative ops",                          \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE, MCA_COLL_RSAG_LAYOUT_RANKS,                 \
      MCA_COLL_RSAG_DEF_ALLREDUCE_PRIORITY_AWARE,                                  \
      mca_coll_rsag_allreduce_priority_aware)                                      \
    X(ALLREDUCE, DIRECT, 5, "direct",                                              \
      "node path: each rank reduces its block in rank order from its peers' "     \
      "buffers, then copies the others; same bits everywhere, any op; one node, "  \
      "contiguous type",                                                           \
      MCA_COLL_RSAG_NEEDS_SINGLE_NODE | MCA_COLL_RSAG_NEEDS_CONTIGUOUS             \
          | MCA_COLL_RSAG_NEEDS_ORDERED_START | MCA_COLL_RSAG_FOLDS_IN_RANK_ORDER  \
          | MCA_COLL_RSAG_FOLDS_WHOLE,                                              \
      MCA_COLL_RSAG_LAYOUT_RANKS, MCA_COLL_RSAG_DEF_ALLREDUCE_DIRECT,              \
      mca_coll_rsag_direct_algorithm)                                              \
    X(ALLREDUCE, HIERARCHICAL, 6, "hierarchical",                                  \
      "node-aware: reduce-scatter inside each node, allreduce of each slice "      \
      "across nodes by the ranks of the same local index, allgather inside each "  \
      "node; commutative ops, several nodes, any number of ranks on each",        \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE | MCA_COLL_RSAG_NEEDS_MULTI_NODE,            \
      MCA_COLL_RSAG_LAYOUT_NONE, MCA_COLL_RSAG_DEF_ALLREDUCE_HIERARCHICAL,         \
      mca_coll_rsag_allreduce_hierarchical)                                        \
    X(ALLREDUCE, LEADERS, 7, "leaders",                                            \
      "node-aware, small messages: reduce to local rank 0 inside each node, "      \
      "allreduce among the node leaders, broadcast inside each node; "             \
      "commutative ops, several nodes",                                            \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE | MCA_COLL_RSAG_NEEDS_MULTI_NODE,            \
      MCA_COLL_RSAG_LAYOUT_NONE, MCA_COLL_RSAG_DEF_ALLREDUCE_LEADERS,              \
      mca_coll_rsag_allreduce_leaders)                                             \
    X(ALLREDUCE, CIRCULANT, 8, "circulant",                                        \
      "Traff's circulant reduce-scatter + its mirror allgather over p blocks: "    \
      "2 ceil(log2 p) rounds for any p, 2(p-1) blocks sent; commutative ops",      \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE, MCA_COLL_RSAG_LAYOUT_RANKS,                 \
      MCA_COLL_RSAG_DEF_ALLREDUCE_CIRCULANT, mca_coll_rsag_allreduce_circulant)    \
    X(ALLREDUCE, ORDERED, 9, "ordered",                                            \
      "rank-order fold: each rank receives the p-1 pieces of its block (pairwise " \
      "exchange) and folds all p in rank order, then a ring allgather; the same "  \
      "bits on any placement; any op, any datatype",                               \
      MCA_COLL_RSAG_FOLDS_IN_RANK_ORDER | MCA_COLL_RSAG_FOLDS_WHOLE,               \
      MCA_COLL_RSAG_LAYOUT_RANKS,                                                  \
      MCA_COLL_RSAG_DEF_ALLREDUCE_ORDERED, mca_coll_rsag_allreduce_ordered)

#define MCA_COLL_RSAG_REDUCE_ALGORITHMS(X)                                         \
    X(REDUCE, BINOMIAL, 1, "binomial",                                             \
      "binomial tree on whole vectors; log2(p) steps, order-preserving "           \
      "(non-commutative ops)",                                                     \
      0u, MCA_COLL_RSAG_LAYOUT_NONE, MCA_COLL_RSAG_DEF_REDUCE_BINOMIAL,            \
      mca_coll_rsag_reduce_binomial)          \
    X(REDUCE, RABENSEIFNER, 2, "rabenseifner",                                     \
      "Rabenseifner: reduce-scatter by recursive halving + binomial gather to "    \
      "the root, balanced non-power-of-two pre-step; commutative ops, "            \
      "count >= p'",                                                               \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE | MCA_COLL_RSAG_NEEDS_COUNT_GE_POF2,         \
      MCA_COLL_RSAG_LAYOUT_HALVES, MCA_COLL_RSAG_DEF_REDUCE_RABENSEIFNER,          \
      mca_coll_rsag_reduce_rabenseifner)                                           \
    X(REDUCE, DIRECT, 3, "direct",                                                 \
      "node path: rank r reduces block r from all p inputs in rank order "        \
      "(CMA pulls, or through the shared segment) and writes it into the root's "  \
      "buffer; any op; one node, contiguous datatype",                             \
      MCA_COLL_RSAG_NEEDS_SINGLE_NODE | MCA_COLL_RSAG_NEEDS_CONTIGUOUS             \
          | MCA_COLL_RSAG_NEEDS_ORDERED_START | MCA_COLL_RSAG_FOLDS_IN_RANK_ORDER  \
          | MCA_COLL_RSAG_FOLDS_WHOLE,                                              \
      MCA_COLL_RSAG_LAYOUT_RANKS, MCA_COLL_RSAG_DEF_REDUCE_DIRECT,                 \
      mca_coll_rsag_direct_algorithm)                                              \
    X(REDUCE, HIERARCHICAL, 4, "hierarchical",                                     \
      "node-aware: reduce-scatter inside each node, reduce of each slice to the "  \
      "root's node by the ranks of the same local index, gather to the root; "     \
      "commutative ops, several nodes, any number of ranks on each",              \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE | MCA_COLL_RSAG_NEEDS_MULTI_NODE,            \
      MCA_COLL_RSAG_LAYOUT_NONE, MCA_COLL_RSAG_DEF_REDUCE_HIERARCHICAL,            \
      mca_coll_rsag_reduce_hierarchical)                                           \
    X(REDUCE, LEADERS, 5, "leaders",                                               \
      "node-aware, small messages: reduce to local rank 0 inside each node, "      \
      "reduce among the node leaders to the root's node, then to the root; "       \
      "commutative ops, several nodes",                                            \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE | MCA_COLL_RSAG_NEEDS_MULTI_NODE,            \
      MCA_COLL_RSAG_LAYOUT_NONE, MCA_COLL_RSAG_DEF_REDUCE_LEADERS,                 \
      mca_coll_rsag_reduce_leaders)                                                \
    X(REDUCE, ORDERED, 6, "ordered",                                               \
      "rank-order fold: each rank receives the p-1 pieces of its block (pairwise " \
      "exchange), folds all p in rank order and sends the block to the root; "     \
      "the same bits on any placement; any op, any datatype",                      \
      MCA_COLL_RSAG_FOLDS_IN_RANK_ORDER | MCA_COLL_RSAG_FOLDS_WHOLE,               \
      MCA_COLL_RSAG_LAYOUT_RANKS,                                                  \
      MCA_COLL_RSAG_DEF_REDUCE_ORDERED, mca_coll_rsag_reduce_ordered)                \
    X(REDUCE, CHAIN, 7, "chain",                                                   \
      "pipelined chain: the vector in coll_rsag_exchange_chunk_size segments "     \
      "flows from the last rank to the root, each rank adding its part as a "      \
      "segment passes; every link carries the vector once; commutative ops",       \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE | MCA_COLL_RSAG_FILLS_PIPE,                  \
      MCA_COLL_RSAG_LAYOUT_NONE, MCA_COLL_RSAG_DEF_REDUCE_CHAIN,                   \
      mca_coll_rsag_reduce_chain)

/* MPI_Reduce_scatter_block and MPI_Reduce_scatter share their algorithms
 * (one implementation over a block layout, coll_rsag_reduce_scatter_*.c),
 * so one list serves both collectives. */
#define MCA_COLL_RSAG_RS_ALGORITHMS(X, COLL)                                       \
    X(COLL, RECURSIVE_HALVING, 1, "recursive_halving",                             \
      "recursive halving over the rank blocks (distance halving), extra ranks "    \
      "folded in with the balanced pre-step; commutative ops",                     \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE, MCA_COLL_RSAG_LAYOUT_RANKS,                 \
      MCA_COLL_RSAG_DEF_RS_RECURSIVE_HALVING,     \
      mca_coll_rsag_reduce_scatter_recursive_halving)                              \
    X(COLL, RING, 2, "ring",                                                       \
      "pipelined ring over the rank blocks, sent in "                              \
      "coll_rsag_reduce_scatter_ring_chunk_size chunks and forwarded as soon as "  \
      "reduced; p-1 steps, commutative ops",                                       \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE, MCA_COLL_RSAG_LAYOUT_RANKS,                 \
      MCA_COLL_RSAG_DEF_RS_RING,                  \
      mca_coll_rsag_reduce_scatter_ring)                                           \
    X(COLL, PRIORITY_AWARE, 3, "priority_aware",                                   \
      "priority-aware recursive halving: each step's half leaves as one message "  \
      "per coll_rsag_priority_aware_run_blocks vblocks, in the order the partner " \
      "needs them, and received blocks are reduced just before they are "          \
      "forwarded; "                                                                \
      "commutative ops",                                                           \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE, MCA_COLL_RSAG_LAYOUT_RANKS,                 \
      MCA_COLL_RSAG_DEF_RS_PRIORITY_AWARE,                                         \
      mca_coll_rsag_reduce_scatter_priority_aware)                                 \
    X(COLL, DIRECT, 4, "direct",                                                   \
      "node path: rank r reduces its block from all p inputs in rank order, "     \
      "pulling peers' pieces with CMA (or through the shared segment); any op; "   \
      "one node, contiguous datatype",                                             \
      MCA_COLL_RSAG_NEEDS_SINGLE_NODE | MCA_COLL_RSAG_NEEDS_CONTIGUOUS             \
          | MCA_COLL_RSAG_NEEDS_ORDERED_START | MCA_COLL_RSAG_FOLDS_IN_RANK_ORDER  \
          | MCA_COLL_RSAG_FOLDS_WHOLE,                                              \
      MCA_COLL_RSAG_LAYOUT_RANKS, MCA_COLL_RSAG_DEF_RS_DIRECT,                     \
      mca_coll_rsag_direct_algorithm)                                              \
    X(COLL, HIERARCHICAL, 5, "hierarchical",                                       \
      "node-aware: reduce-scatter inside each node into one slice per local "      \
      "index (the blocks of the ranks of that index), then reduce-scatter of "     \
      "each slice across nodes; any rank placement; commutative ops, several "     \
      "nodes, any number of ranks on each",                                        \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE | MCA_COLL_RSAG_NEEDS_MULTI_NODE,            \
      MCA_COLL_RSAG_LAYOUT_RANKS, MCA_COLL_RSAG_DEF_RS_HIERARCHICAL,               \
      mca_coll_rsag_reduce_scatter_hierarchical)                                   \
    X(COLL, LEADERS, 6, "leaders",                                                 \
      "node-aware, small messages: reduce to local rank 0 inside each node, "      \
      "reduce-scatter of the per-node totals among the node leaders (each gets "   \
      "its node's blocks), scatter inside each node; commutative ops, several "    \
      "nodes",                                                                     \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE | MCA_COLL_RSAG_NEEDS_MULTI_NODE,            \
      MCA_COLL_RSAG_LAYOUT_RANKS, MCA_COLL_RSAG_DEF_RS_LEADERS,                    \
      mca_coll_rsag_reduce_scatter_leaders)                                        \
    X(COLL, CIRCULANT, 7, "circulant",                                             \
      "Traff's circulant reduce-scatter over the rank blocks: ceil(log2 p) "       \
      "rounds for any p, each rank sending and reducing p-1 blocks; "              \
      "commutative ops",                                                           \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE, MCA_COLL_RSAG_LAYOUT_RANKS,                 \
      MCA_COLL_RSAG_DEF_RS_CIRCULANT, mca_coll_rsag_reduce_scatter_circulant)      \
    X(COLL, ORDERED, 8, "ordered",                                                 \
      "rank-order fold: each rank receives the p-1 pieces of its block (pairwise " \
      "exchange) and folds all p in rank order; the same bits on any placement; "  \
      "any op, any datatype",                                                      \
      MCA_COLL_RSAG_FOLDS_IN_RANK_ORDER | MCA_COLL_RSAG_FOLDS_WHOLE,               \
      MCA_COLL_RSAG_LAYOUT_RANKS,                                                  \
      MCA_COLL_RSAG_DEF_RS_ORDERED, mca_coll_rsag_reduce_scatter_ordered)

#define MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK_ALGORITHMS(X)                           \
    MCA_COLL_RSAG_RS_ALGORITHMS(X, REDUCE_SCATTER_BLOCK)
#define MCA_COLL_RSAG_REDUCE_SCATTER_ALGORITHMS(X)                                 \
    MCA_COLL_RSAG_RS_ALGORITHMS(X, REDUCE_SCATTER)

/* Former algorithm names, still accepted as values of
 * coll_rsag_<coll>_algorithm (an extra enum value, listed after the table's
 * names, mapping to the same id) and as deprecated synonyms of the
 * coll_rsag_<coll>_<name>_min_bytes thresholds (ompi_info shows them
 * deprecated; Open MPI warns once per job when one is set).  Rows:
 * A(old name, current name).  Nothing else (selector, tests, benchmark)
 * sees them: they are not algorithms. */
#define MCA_COLL_RSAG_DEPRECATED_ALG_NAMES(A)                                      \
    A("priority", "priority_aware")

/* The collectives rsag holds, in slot order. */
#define MCA_COLL_RSAG_COLLECTIVES(C)                                               \
    C(ALLREDUCE, "allreduce", "MPI_Allreduce", MCA_COLL_RSAG_ALLREDUCE_ALGORITHMS) \
    C(REDUCE, "reduce", "MPI_Reduce", MCA_COLL_RSAG_REDUCE_ALGORITHMS)             \
    C(REDUCE_SCATTER_BLOCK, "reduce_scatter_block", "MPI_Reduce_scatter_block",    \
      MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK_ALGORITHMS)                               \
    C(REDUCE_SCATTER, "reduce_scatter", "MPI_Reduce_scatter",                      \
      MCA_COLL_RSAG_REDUCE_SCATTER_ALGORITHMS)

#endif /* MCA_COLL_RSAG_ALGORITHMS_H */
