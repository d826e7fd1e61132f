/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Pure index arithmetic shared by rsag's algorithms: power-of-two folding,
 * rank remapping, block layouts, the recursive-halving pattern, ring walks
 * and binomial-tree relations.  No MPI here: test/unit/test_index.c checks
 * it exhaustively.
 *
 * Vocabulary used by every algorithm file (HACKING.md has the long form):
 *   p       communicator size
 *   p'      largest power of two <= p            (mca_coll_rsag_pof2_floor)
 *   r       p - p', the "extra" ranks
 *   vrank   rank in the folded power-of-two group (mca_coll_rsag_fold_vrank):
 *           ranks < 2r pair up as (even, odd); the even one of each pair
 *           becomes vrank rank/2, the odd one leaves (-1); ranks >= 2r
 *           become rank - r.  vranks keep the order of ranks, which is what
 *           lets order-preserving algorithms handle non-commutative ops.
 *   layout  displ[0..p]: block i of a vector is [displ[i], displ[i+1])
 *   vblock  one of the p' pieces recursive halving deals out, given by
 *           vdispl[0..p']: the blocks of the ranks a vrank stands for
 *           (reduce-scatters), or halves of halves of the vector
 *           (Rabenseifner's algorithms)
 */
#ifndef MCA_COLL_RSAG_INDEX_H
#define MCA_COLL_RSAG_INDEX_H

#include <stdbool.h>
#include <stddef.h>

/* log2 of the largest communicator (int ranks) bounds every step count. */
#define MCA_COLL_RSAG_MAX_STEPS 32

/* The node path's box (coll_rsag_segment.h): a vector of up to BOX_BYTES
 * after its 8-byte stamp, BOX_LINES cache lines; here so that the cost
 * model and the fan-in rule, which decide by it, share the size.  Two
 * ranks put a vector of up to a whole box there; from three on, up to
 * BOX_SHARED_BYTES (the range where the boxed tree and its fan-in rule
 * were fitted; beyond it the slots' split path reads 1/p of the vector
 * per peer instead of all of it): mca_coll_rsag_box_max. */
#define MCA_COLL_RSAG_BOX_LINES 65
#define MCA_COLL_RSAG_BOX_BYTES 4152            /* BOX_LINES lines less the stamp */
#define MCA_COLL_RSAG_BOX_SHARED_BYTES 1080     /* 17 lines less the stamp */
_Static_assert(MCA_COLL_RSAG_BOX_BYTES == MCA_COLL_RSAG_BOX_LINES * 64 - 8,
               "a box is its lines less the 8-byte stamp");
_Static_assert(MCA_COLL_RSAG_BOX_SHARED_BYTES % 64 == 56
                   && MCA_COLL_RSAG_BOX_SHARED_BYTES <= MCA_COLL_RSAG_BOX_BYTES,
               "the shared part of a box ends at a line's end");

/* The largest vector a boxed call of p ranks carries. */
static inline size_t mca_coll_rsag_box_max(int p)
{
    return p <= 2 ? (size_t) MCA_COLL_RSAG_BOX_BYTES : (size_t) MCA_COLL_RSAG_BOX_SHARED_BYTES;
}

/* A run of elements [off, off + cnt) of a vector. */
typedef struct mca_coll_rsag_range_t {
    size_t off;
    size_t cnt;
} mca_coll_rsag_range_t;

/* Largest power of two <= p (p >= 1), and its log2. */
int mca_coll_rsag_pof2_floor(int p);
int mca_coll_rsag_log2_floor(int p);

/* Folding p ranks onto p' (see above); -1 for a rank folded away. */
int mca_coll_rsag_fold_vrank(int rank, int p);
/* Inverse of mca_coll_rsag_fold_vrank for 0 <= vrank < p'. */
int mca_coll_rsag_fold_rank(int vrank, int p);

/* Split a window in two: the lower half gets floor(cnt/2) elements, the
 * upper half the rest.  Used by the balanced pre-step and by the layout of
 * Rabenseifner's halving, so both agree on where a window is cut. */
void mca_coll_rsag_split_halves(mca_coll_rsag_range_t whole,
                                mca_coll_rsag_range_t *lower,
                                mca_coll_rsag_range_t *upper);

/*
 * Block layouts.  A layout of p blocks is an array displ[0..p] of element
 * offsets: block i is [displ[i], displ[i+1]).  Reduce-scatter algorithms
 * leave block i on rank i; allreduce's ring cuts its vector the same way.
 */

/* count elements cut into p blocks as even as possible: the first
 * count % p blocks get one element more. */
void mca_coll_rsag_displs_even(size_t count, int p, size_t *displ);
/* Prefix sums of MPI_Reduce_scatter's recvcounts (zeros allowed). */
void mca_coll_rsag_displs_counts(const int *counts, int p, size_t *displ);
/* Block i of a layout as a range. */
mca_coll_rsag_range_t mca_coll_rsag_block(const size_t *displ, int i);
/* Largest block of a layout. */
size_t mca_coll_rsag_max_block(const size_t *displ, int p);

/* The vblocks of a p-block layout (vdispl[0..p']): vblock v is the blocks
 * of the ranks vrank v stands for after folding (its own, and its
 * folded-away odd neighbour's when it has one), which are contiguous. */
void mca_coll_rsag_displs_fold(const size_t *displ, int p, size_t *vdispl);
/* The vblocks of Rabenseifner's halving (vdispl[0..pof2]): [0, count) cut
 * in halves, the halves in halves, and so on log2(pof2) times, each cut by
 * mca_coll_rsag_split_halves. */
void mca_coll_rsag_displs_bisect(size_t count, int pof2, size_t *vdispl);
/* vblocks [lo, lo + n) as one element range. */
static inline mca_coll_rsag_range_t mca_coll_rsag_vblocks(const size_t *vdispl, int lo, int n)
{
    mca_coll_rsag_range_t r = { vdispl[lo], vdispl[lo + n] - vdispl[lo] };
    return r;
}

/*
 * Recursive halving over p' vblocks: log2 p' steps; at step k the vblocks
 * are cut into aligned windows of 2m, m = p'/2^(k+1), the two vranks
 * whose positions t, t ^ m lie in one window pair up, and each keeps the
 * half holding its own position and gives the other half.  After the last
 * step the vrank at position t keeps vblock t alone.  Two orders:
 *   DISTANCE_HALVING   position = vrank: partners at distance p'/2, p'/4,
 *                      .., 1; vrank v ends with vblock v (reduce-scatters,
 *                      whose blocks must end on their ranks);
 *   DISTANCE_DOUBLING  position = vrank with its bits reversed: partners at
 *                      distance 1, 2, 4, ..; at step k the vrank whose bit
 *                      k is clear keeps the lower half (Rabenseifner's
 *                      algorithms, as in the description of his reduce).
 * Walking the steps backwards regathers the windows: receiving give of
 * step k grows keep back to the step-k window (allgather, binomial
 * gather).
 */
typedef enum mca_coll_rsag_order_t {
    MCA_COLL_RSAG_DISTANCE_HALVING,
    MCA_COLL_RSAG_DISTANCE_DOUBLING
} mca_coll_rsag_order_t;

/* One step in vblock indices. */
typedef struct mca_coll_rsag_vstep_t {
    int peer;      /* vrank of the partner */
    int half;      /* m: vblocks in each half */
    int keep_lo;   /* keep vblocks [keep_lo, keep_lo + m) */
    int give_lo;   /* give vblocks [give_lo, give_lo + m) */
} mca_coll_rsag_vstep_t;

/* One step as element ranges of a vblock layout. */
typedef struct mca_coll_rsag_halving_step_t {
    int peer;                    /* vrank of the partner in this step */
    mca_coll_rsag_range_t keep;  /* half of the window reduced and kept here */
    mca_coll_rsag_range_t give;  /* half of the window sent to the partner */
} mca_coll_rsag_halving_step_t;

/* The vblock position of vrank in `order` (vrank, or its bits reversed). */
int mca_coll_rsag_halving_position(int vrank, int pof2, mca_coll_rsag_order_t order);
/* Step k (0 <= k < log2 pof2) of vrank. */
mca_coll_rsag_vstep_t mca_coll_rsag_halving_step(int vrank, int pof2, int k,
                                                 mca_coll_rsag_order_t order);
/* Every step of vrank as element ranges of vdispl[0..pof2]; returns the
 * number of steps, log2 pof2.  The last keep is vrank's own vblock. */
int mca_coll_rsag_halving_pattern(const size_t *vdispl, int pof2, int vrank,
                                  mca_coll_rsag_order_t order,
                                  mca_coll_rsag_halving_step_t *steps);

/* Elements of the receive buffer of a folding halving over vdispl on a
 * communicator of p ranks: the most `rank` receives at once, i.e. the
 * first step's kept half on a rank that keeps a vrank (later steps
 * receive less) and, on ranks below 2r, the pre-step's ceil(n/2) as well.
 * 0 when p = 1. */
size_t mca_coll_rsag_halving_recv_count(const size_t *vdispl, int p, int rank,
                                        mca_coll_rsag_order_t order);

/* In the binomial gather that reverses a DISTANCE_DOUBLING halving, at
 * level k (partner vrank ^ 2^k) a vrank sends its window and leaves when
 * its partner is on the root's side: both share the bits >= k with vroot. */
bool mca_coll_rsag_gather_sends(int vrank, int vroot, int level);

/* A run of vblocks [lo, lo + n). */
typedef struct mca_coll_rsag_vrange_t {
    int lo;
    int n;
} mca_coll_rsag_vrange_t;

/* The priority-aware pattern (DISTANCE_HALVING).  A vrank u that receives
 * the aligned window W = [lo, lo + n) (n a power of two, u inside W) needs
 * its vblocks in this order: first the half of W not holding u, in the
 * order u's next partner u ^ (n/2) needs it (u forwards that half next),
 * then the half holding u, in u's own order.  Writes that order to out[],
 * cut into aligned runs of `unit` vblocks (a power of two; a window of at
 * most `unit` vblocks is one run), and returns the number of runs
 * (at most n / min(unit, n)). */
int mca_coll_rsag_priority_order(int u, int lo, int n, int unit, mca_coll_rsag_vrange_t *out);

/* Rotation that makes `root` rank 0 of a binomial tree over p ranks. */
int mca_coll_rsag_rotate(int rank, int root, int p);
int mca_coll_rsag_unrotate(int vrank, int root, int p);

/* Binomial tree rooted at 0: the parent of vrank (> 0) is vrank with its
 * lowest set bit cleared; the children of vrank are vrank + 2^k for every
 * 2^k below that bit (every 2^k for vrank 0) with vrank + 2^k < p. */
int mca_coll_rsag_binomial_parent(int vrank);
/* Exclusive upper bound of the child distances of vrank: lowest set bit of
 * vrank, or the first power of two >= p for vrank 0. */
int mca_coll_rsag_binomial_child_limit(int vrank, int p);
/* Number of children of vrank in the tree over p ranks. */
int mca_coll_rsag_binomial_children(int vrank, int p);

/*
 * Ring patterns.  Every rank sends to rank + 1 and receives from rank - 1;
 * at step s rank r handles block (r - s - shift) mod p.  The reduce-scatter
 * ring sends with shift 1 and receives with shift 2 (block r arrives last,
 * at step p - 2); the allgather ring sends with shift 0 and receives with
 * shift 1.  A link's sender (shift k) and receiver (shift k + 1) thus walk
 * the same blocks in the same order.
 */
int mca_coll_rsag_ring_block(int rank, int step, int shift, int p);

/* Elements per segment for segments of `seg_bytes` bytes of data
 * (`type_size` each; at least one element; 0 = whole blocks), capped at
 * `max_block`, so that a slot is never larger than a block (the cut is
 * the same).  Never 0. */
size_t mca_coll_rsag_ring_segcount(size_t seg_bytes, size_t type_size, size_t max_block);

/* The segments of a ring walk in message order: steps [0, nsteps), at
 * each the block mca_coll_rsag_ring_block(rank, step, shift, p) cut into
 * runs of segcount elements (the last one shorter), empty blocks skipped.
 * Both ends of a link cut identically, so every segment is one message. */
typedef struct mca_coll_rsag_ring_cursor_t {
    const size_t *displ;
    int p, rank, shift, nsteps;
    size_t segcount;
    int step;                   /* step of `seg`; nsteps once past the end */
    int block;                  /* block of `seg` */
    mca_coll_rsag_range_t seg;  /* the current segment */
} mca_coll_rsag_ring_cursor_t;

void mca_coll_rsag_ring_cursor_init(mca_coll_rsag_ring_cursor_t *c, const size_t *displ,
                                    int p, int rank, int shift, int nsteps, size_t segcount);
void mca_coll_rsag_ring_cursor_next(mca_coll_rsag_ring_cursor_t *c);
static inline bool mca_coll_rsag_ring_cursor_done(const mca_coll_rsag_ring_cursor_t *c)
{
    return c->step >= c->nsteps;
}
/* Number of segments of a ring walk. */
size_t mca_coll_rsag_ring_nsegs(const size_t *displ, int p, int rank, int shift, int nsteps,
                                size_t segcount);

/* The contiguous-range tree of fan-in k >= 2 over ranks 0..p-1 (direct's
 * tree, coll_rsag_direct.c): level-1 groups are k consecutive ranks led by
 * the lowest, level-l groups k consecutive level-(l-1) leaders; rank 0 is
 * the top.  A rank that leads up to level l holds the partial of ranks
 * [r, r + k^l); its children, in fold order, are r + j k^(l-1) for l = 1,
 * 2, ... and j = 1 .. k - 1 (those below p), each holding the partial of
 * the k^(l-1) ranks from it, so folding them in that order after its own
 * input gives x_r op ... op x_{r + k^l - 1} in rank order.
 * parent: the leader that folds r's partial (-1 for rank 0); child: the
 * i-th child of r in fold order (i >= 0), -1 past the last; levels: the
 * levels of the tree over p ranks (ceil(log_k p)). */
int mca_coll_rsag_tree_parent(int r, int k);
int mca_coll_rsag_tree_child(int r, int p, int k, int i);
int mca_coll_rsag_tree_levels(int p, int k);
/* coll_rsag_direct_fanin auto: the fan-in of a boxed `direct` call of
 * `bytes` at p ranks (1: flat, k >= 2: the tree): the cost model's two
 * forms (contrib/model/coll_rsag_model.c, direct_flat_boxed and
 * direct_tree) with the shipped profile's node terms as ratios to one
 * hand-off, the faster taken (test_model checks the choice's time against
 * the model's best).  For each depth L the least k with k^L >= p (fewer
 * children a level cost less at the same depth).  A reduce-scatter's flat
 * form reads only its block of each box, so it goes up the tree later. */
int mca_coll_rsag_direct_fanin_auto(int p, size_t bytes, bool reduce_scatter);

/*
 * Node-aware layouts (`hierarchical` and `leaders`, coll_rsag_hier.c).  A
 * communicator of p ranks on N nodes: node_of[q] (0..N-1, nodes numbered
 * by their lowest rank) and local_of[q] (q's index on its node, rank
 * order); S >= 1 is the smallest number of ranks on any node.
 */

/* S = the smallest of the N node sizes count[0..N-1] (0 when N < 1). */
int mca_coll_rsag_hier_min_ranks(const int *count, int N);

/* The default of coll_rsag_hierarchical_chunk_size (provisional, not
 * measured: a 1 MiB call in 4 chunks, a guess at a chunk large enough that
 * its three extra latencies stay small beside its transfer), and the most
 * chunks (lanes, and tags) of one call: beyond, the chunks grow. */
#define MCA_COLL_RSAG_HIER_DEFAULT_CHUNK ((size_t) 256 * 1024)
#define MCA_COLL_RSAG_HIER_MAX_CHUNKS 256

/* coll_rsag_exchange_chunk_size's default: below ob1's TCP eager limit
 * (64 KB with its header), so no message of a round waits for a
 * rendezvous handshake behind the other direction's data
 * (contrib/results/2026-11-27-circulant-chunks) */
#define MCA_COLL_RSAG_EXCHANGE_DEFAULT_CHUNK ((size_t) 60 * 1024)

/* The chunks the pipeline cuts a call of `count` elements of `type_size`
 * bytes into, with chunks of `chunk` bytes (0: not cut) on nodes of at
 * least S ranks: ceil(bytes / chunk), at most count / S (every chunk at
 * least an element for each of the S slices; S, not a rank's own node
 * size: every rank must cut the call alike) and MAX_CHUNKS; 1: not cut. */
size_t mca_coll_rsag_hier_chunks(size_t count, size_t type_size, size_t chunk, int S);

/* The node step's layout on a node of L >= 1 ranks: the vector of `count`
 * elements cut as evenly as possible into S <= L slices, slice l < S for
 * local rank l, empty blocks for local ranks S..L-1: displ[0..L]. */
void mca_coll_rsag_hier_slices(size_t count, int S, int L, size_t *displ);

/* The order of MPI's rank blocks of a node-aware reduce-scatter: by
 * (local index mod S, node, local index), so that "slice c" (the blocks
 * of the ranks whose local index is c mod S) is contiguous, and within it
 * the part of node j (the blocks local rank c of node j brings home) too.
 * qof[k] = the rank whose block comes k-th; work: N + 1 + p ints.  S = 1
 * gives node order (node, local index).  Returns whether the order is the
 * identity (qof[k] == k: no copy needed). */
bool mca_coll_rsag_hier_rs_order(int p, int N, int S, const int *node_of,
                                 const int *local_of, int *qof, int *work);

/* From that order and MPI's block layout displ[0..p] (in rank order):
 * slice[0..S], the offsets of the S slices in the reordered vector, and
 * for slice c: part[0..N], the offsets of each node's part inside it
 * (relative to the slice's start). */
void mca_coll_rsag_hier_rs_sums(int p, int N, int S, const int *node_of, const int *local_of,
                                const int *qof, const size_t *displ, int c, size_t *slice,
                                size_t *part);

/*
 * The circulant pattern (Traff, "Optimal, Non-pipelined Reduce-scatter
 * and Allreduce Algorithms"; coll_rsag_circulant.c): q = ceil(log2 p)
 * rounds for any p.  Skips s_q = p, s_k = ceil(s_(k+1) / 2) down to
 * s_0 = 1.  Reduce-scatter, rounds k = q-1 .. 0: rank r holds partial
 * sums of the s_(k+1) blocks r .. r + s_(k+1) - 1 (mod p), sends the `far`
 * ones, r + s_k .. r + s_(k+1) - 1, to `up` = r + s_k, and reduces the
 * `near` ones, r .. r + n_k - 1 (n_k = s_(k+1) - s_k <= s_k), with what
 * `down` = r - s_k sends (its far blocks are r's near ones); afterwards it
 * holds r .. r + s_k - 1, after round 0 block r alone: p - 1 blocks sent
 * in all.  The allgather is the mirror, rounds k = 0 .. q-1: r sends its
 * near blocks to down and receives its far blocks from up.
 */

/* The skips: skip[0..q] (skip must hold MCA_COLL_RSAG_MAX_STEPS + 1);
 * returns q (0 for p = 1, whose skip[0] is 1). */
int mca_coll_rsag_circulant_skips(int p, int *skip);

/* Round k (0 <= k < q) of `rank`: its peers and its two runs of blocks
 * ([lo, lo + n) mod p; lo in [0, p)). */
typedef struct mca_coll_rsag_circulant_round_t {
    int up, down;                   /* rank + s_k, rank - s_k (mod p) */
    mca_coll_rsag_vrange_t near;    /* rank .. rank + n_k - 1 */
    mca_coll_rsag_vrange_t far;     /* rank + s_k .. rank + s_(k+1) - 1 */
} mca_coll_rsag_circulant_round_t;

mca_coll_rsag_circulant_round_t mca_coll_rsag_circulant_round(int rank, int p, const int *skip,
                                                              int k);

/* A run of blocks [run.lo, run.lo + run.n) mod p (run.n <= p) of the
 * layout displ[0..p] as element ranges: the blocks up to p - 1, then
 * those from block 0 when the run wraps around; empty ranges left out.
 * Returns how many (0, 1 or 2) it wrote to piece[].  Both ends of a
 * message cut the same run alike, so each piece is one message. */
int mca_coll_rsag_block_run(const size_t *displ, int p, mca_coll_rsag_vrange_t run,
                            mca_coll_rsag_range_t piece[2]);

/* A piece of cnt elements cut into the fewest messages of at most `chunk`
 * elements (chunk >= 1), of even sizes: m = ceil(cnt / chunk) of them
 * (mca_coll_rsag_even_chunks), the first cnt % m one element longer.
 * mca_coll_rsag_even_chunk gives message j's (j < m) offset in the piece
 * and its length.  Both ends of a message cut a piece the same way. */
size_t mca_coll_rsag_even_chunks(size_t cnt, size_t chunk);
size_t mca_coll_rsag_even_chunk(size_t cnt, size_t m, size_t j, size_t *len);
/* The messages of one message of cnt elements cut so (an exchange's, a
 * pipeline's segments): mca_coll_rsag_even_chunks, but one for cnt 0 (a
 * zero-count message is still a message). */
size_t mca_coll_rsag_even_messages(size_t cnt, size_t chunk);

#endif /* MCA_COLL_RSAG_INDEX_H */
