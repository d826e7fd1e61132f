/*
 * The algorithm tables: the single source of truth for what rsag can do.
 *
 * One X-macro list per collective, one row per algorithm:
 *
 *   X(coll, ALG, id, "name", "description", restrictions, default_min_bytes, function)
 *
 *   id           value of the MCA enum coll_rsag_<coll>_algorithm (0 is "auto")
 *   name         enum string, MPI_T pvar suffix, verbose/benchmark label
 *   restrictions MCA_COLL_RSAG_NEEDS_* bits, checked per call by the selector
 *   default_min_bytes
 *                default of coll_rsag_<coll>_<name>_min_bytes: `auto` uses the
 *                applicable algorithm with the largest threshold <= message
 *                bytes (measured on this machine; see README "Selection")
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

/* Default thresholds (bytes of the whole vector), measured on the
 * development machine (contrib/results/2026-11-first/, README "Measured").
 * Rabenseifner overtakes recursive doubling at 4 KiB at np 2 (vader's
 * 4 KiB eager limit: whole-vector exchanges turn to rendezvous there,
 * halves do not). */
#define MCA_COLL_RSAG_ALLREDUCE_RABENSEIFNER_MIN_BYTES ((size_t) 4096)
/* The ring pays p - 1 latencies per phase where recursive halving pays
 * log2 p, but its temporaries are four segments instead of half or all
 * of the vector, and it has no extra step for p != 2^k.  Median time of
 * the ring / of the algorithm auto uses below it, MPI_DOUBLE sums, 256 KB
 * segments, 5 interleaved runs (64M: 3; np 4 is oversubscribed and noisy,
 * +-20 %):
 *   allreduce / rabenseifner   1M   2M   4M   8M   16M  32M  64M bytes
 *     np 2                    1.24 1.22 1.10 0.97 1.03 0.97 0.53
 *     np 4                    1.12 1.23 0.85 0.85 0.87 0.78 0.48
 *   reduce-scatter / halving  256K 512K 1M   2M   4M   16M  32M
 *     np 2                    0.85 0.81 0.82 0.92 0.80 0.71 0.42
 *     np 4                    2.49 0.99 0.81 1.20 0.71 0.70 0.93
 * The ring is never much slower from these sizes up, and twice as fast at
 * 64 MB, where the others' vector-sized temporaries are fresh pages. */
#define MCA_COLL_RSAG_ALLREDUCE_RING_MIN_BYTES ((size_t) 8 << 20)
#define MCA_COLL_RSAG_RS_RING_MIN_BYTES ((size_t) 1 << 20)

/* Default auto threshold of the priority-aware algorithms (seed 002: they
 * send more, smaller messages and only pay off for large ones). */
#define MCA_COLL_RSAG_PRIORITY_MIN_BYTES ((size_t) 1 << 30)

#define MCA_COLL_RSAG_ALLREDUCE_ALGORITHMS(X)                                      \
    X(ALLREDUCE, RECURSIVE_DOUBLING, 1, "recursive_doubling",                      \
      "recursive doubling on whole vectors, extra ranks folded in and out; "       \
      "log2(p) steps, order-preserving (non-commutative ops)",                     \
      0u, 0, mca_coll_rsag_allreduce_recursive_doubling)                           \
    X(ALLREDUCE, RABENSEIFNER, 2, "rabenseifner",                                  \
      "Rabenseifner: reduce-scatter by recursive halving + allgather by "          \
      "recursive doubling, balanced non-power-of-two pre-step; commutative ops, "  \
      "count >= p'",                                                               \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE | MCA_COLL_RSAG_NEEDS_COUNT_GE_POF2,         \
      MCA_COLL_RSAG_ALLREDUCE_RABENSEIFNER_MIN_BYTES,                              \
      mca_coll_rsag_allreduce_rabenseifner)                                  \
    X(ALLREDUCE, RING, 3, "ring",                                                  \
      "pipelined ring: ring reduce-scatter + ring allgather over p blocks of "     \
      "any size, sent in coll_rsag_allreduce_ring_segment_size segments; "         \
      "2(p-1) steps, commutative ops",                                             \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE, MCA_COLL_RSAG_ALLREDUCE_RING_MIN_BYTES,      \
      mca_coll_rsag_allreduce_ring)                                                \
    X(ALLREDUCE, PRIORITY, 4, "priority",                                          \
      "priority-aware reduce-scatter (recursive halving sending each block as "    \
      "its own message in the order the partner needs it, reducing lazily) + "     \
      "allgather by recursive doubling; commutative ops",                          \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE, MCA_COLL_RSAG_PRIORITY_MIN_BYTES,           \
      mca_coll_rsag_allreduce_priority)

#define MCA_COLL_RSAG_REDUCE_ALGORITHMS(X)                                         \
    X(REDUCE, BINOMIAL, 1, "binomial",                                             \
      "binomial tree on whole vectors; log2(p) steps, order-preserving "           \
      "(non-commutative ops)",                                                     \
      0u, 0, mca_coll_rsag_reduce_binomial)                                        \
    X(REDUCE, RABENSEIFNER, 2, "rabenseifner",                                     \
      "Rabenseifner: reduce-scatter by recursive halving + binomial gather to "    \
      "the root, balanced non-power-of-two pre-step; commutative ops, "            \
      "count >= p'",                                                               \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE | MCA_COLL_RSAG_NEEDS_COUNT_GE_POF2,         \
      16384, mca_coll_rsag_reduce_rabenseifner)

/* MPI_Reduce_scatter_block and MPI_Reduce_scatter share their algorithms
 * (one implementation over a block layout, coll_rsag_reduce_scatter_*.c),
 * so one list serves both collectives. */
#define MCA_COLL_RSAG_RS_ALGORITHMS(X, COLL)                                       \
    X(COLL, RECURSIVE_HALVING, 1, "recursive_halving",                             \
      "recursive halving over the rank blocks (distance halving), extra ranks "    \
      "folded in with the balanced pre-step; commutative ops",                     \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE, 0,                                          \
      mca_coll_rsag_reduce_scatter_recursive_halving)                              \
    X(COLL, RING, 2, "ring",                                                       \
      "pipelined ring over the rank blocks, sent in "                              \
      "coll_rsag_allreduce_ring_segment_size segments and forwarded as soon as "   \
      "reduced; p-1 steps, commutative ops",                                       \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE, MCA_COLL_RSAG_RS_RING_MIN_BYTES,             \
      mca_coll_rsag_reduce_scatter_ring)                                           \
    X(COLL, PRIORITY, 3, "priority",                                               \
      "priority-aware recursive halving: each step's half leaves as one message "  \
      "per coll_rsag_priority_chunks vblocks, in the order the partner needs "     \
      "them, and received blocks are reduced just before they are forwarded; "    \
      "commutative ops",                                                           \
      MCA_COLL_RSAG_NEEDS_COMMUTATIVE, MCA_COLL_RSAG_PRIORITY_MIN_BYTES,           \
      mca_coll_rsag_reduce_scatter_priority)

#define MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK_ALGORITHMS(X)                           \
    MCA_COLL_RSAG_RS_ALGORITHMS(X, REDUCE_SCATTER_BLOCK)
#define MCA_COLL_RSAG_REDUCE_SCATTER_ALGORITHMS(X)                                 \
    MCA_COLL_RSAG_RS_ALGORITHMS(X, REDUCE_SCATTER)

/* The collectives rsag holds, in slot order. */
#define MCA_COLL_RSAG_COLLECTIVES(C)                                               \
    C(ALLREDUCE, "allreduce", "MPI_Allreduce", MCA_COLL_RSAG_ALLREDUCE_ALGORITHMS) \
    C(REDUCE, "reduce", "MPI_Reduce", MCA_COLL_RSAG_REDUCE_ALGORITHMS)             \
    C(REDUCE_SCATTER_BLOCK, "reduce_scatter_block", "MPI_Reduce_scatter_block",    \
      MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK_ALGORITHMS)                               \
    C(REDUCE_SCATTER, "reduce_scatter", "MPI_Reduce_scatter",                      \
      MCA_COLL_RSAG_REDUCE_SCATTER_ALGORITHMS)

#endif /* MCA_COLL_RSAG_ALGORITHMS_H */
