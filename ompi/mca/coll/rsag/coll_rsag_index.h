/*
 * Pure index arithmetic shared by rsag's algorithms: power-of-two folding,
 * rank remapping, the recursive-halving window schedule and binomial-tree
 * relations.  No MPI here: test/unit/test_index.c checks it exhaustively.
 *
 * Vocabulary used by every algorithm file:
 *   p      communicator size
 *   p'     largest power of two <= p            (mca_coll_rsag_pof2_floor)
 *   r      p - p', the "extra" ranks
 *   vrank  rank in the folded power-of-two group (mca_coll_rsag_fold_vrank):
 *          ranks < 2r pair up as (even, odd); the even one of each pair
 *          becomes vrank rank/2, the odd one leaves (-1); ranks >= 2r
 *          become rank - r.  vranks keep the order of ranks, which is what
 *          lets order-preserving algorithms handle non-commutative ops.
 */
#ifndef MCA_COLL_RSAG_INDEX_H
#define MCA_COLL_RSAG_INDEX_H

#include <stdbool.h>
#include <stddef.h>

/* log2 of the largest communicator (int ranks) bounds every step count. */
#define MCA_COLL_RSAG_MAX_STEPS 32

/* A run of elements [off, off + cnt) of a vector. */
typedef struct mca_coll_rsag_range_t {
    size_t off;
    size_t cnt;
} mca_coll_rsag_range_t;

/* One step of recursive halving, seen from one vrank. */
typedef struct mca_coll_rsag_halving_step_t {
    int peer;                    /* vrank of the partner in this step */
    mca_coll_rsag_range_t keep;  /* half of the window reduced and kept here */
    mca_coll_rsag_range_t give;  /* half of the window sent to the partner */
} mca_coll_rsag_halving_step_t;

/* Largest power of two <= p (p >= 1), and its log2. */
int mca_coll_rsag_pof2_floor(int p);
int mca_coll_rsag_log2_floor(int p);

/* Folding p ranks onto p' (see above); -1 for a rank folded away. */
int mca_coll_rsag_fold_vrank(int rank, int p);
/* Inverse of mca_coll_rsag_fold_vrank for 0 <= vrank < p'. */
int mca_coll_rsag_fold_rank(int vrank, int p);

/* Split a window in two: the lower half gets floor(cnt/2) elements, the
 * upper half the rest.  Used by the balanced pre-step and every halving
 * step, so both agree on where a window is cut. */
void mca_coll_rsag_split_halves(mca_coll_rsag_range_t whole,
                                mca_coll_rsag_range_t *lower,
                                mca_coll_rsag_range_t *upper);

/* Recursive halving with distance doubling over p' vranks, starting from the
 * window [0, count): step k pairs vrank with vrank ^ 2^k; the lower vrank of
 * the pair keeps the lower half of the current window.  Fills steps[0..n-1]
 * and returns n = log2(p').  After the last step vrank owns
 * steps[n-1].keep; a reverse walk (k = n-1 .. 0) regathers the windows:
 * receiving steps[k].give grows steps[k].keep back to the step-k window. */
int mca_coll_rsag_halving_schedule(int vrank, int pof2, size_t count,
                                   mca_coll_rsag_halving_step_t *steps);

/* The block vrank owns after a full halving (steps[n-1].keep). */
mca_coll_rsag_range_t mca_coll_rsag_halving_block(int vrank, int pof2, size_t count);

/* In the binomial gather that reverses the halving, at level k (partner
 * vrank ^ 2^k) a vrank sends its window and leaves when its partner is on
 * the root's side: both share the bits >= k with vroot. */
bool mca_coll_rsag_gather_sends(int vrank, int vroot, int level);

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
/* The blocks of the ranks vrank stands for after folding (its own block,
 * and its folded-away odd neighbour's when it has one): contiguous. */
mca_coll_rsag_range_t mca_coll_rsag_vblock(const size_t *displ, int p, int vrank);
/* vblocks [vlo, vhi) as one element range. */
mca_coll_rsag_range_t mca_coll_rsag_vblocks(const size_t *displ, int p, int vlo, int vhi);

/*
 * Ring schedules.  Every rank sends to rank + 1 and receives from rank - 1;
 * at step s rank r handles block (r - s - shift) mod p.  The reduce-scatter
 * ring sends with shift 1 and receives with shift 2 (block r arrives last,
 * at step p - 2); the allgather ring sends with shift 0 and receives with
 * shift 1.  A link's sender (shift k) and receiver (shift k + 1) thus walk
 * the same blocks in the same order.
 */
int mca_coll_rsag_ring_block(int rank, int step, int shift, int p);

/* Largest block of a layout. */
size_t mca_coll_rsag_max_block(const size_t *displ, int p);

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

/*
 * Recursive halving over vblocks (the reduce-scatter algorithms): vranks
 * 0..p'-1 each stand for a contiguous run of rank blocks, and at step k
 * (0 <= k < log2 p') vrank v pairs with v ^ m, m = p' / 2^(k+1), inside
 * the aligned window of 2m vblocks that holds v, keeping the half that
 * holds v (distance halving).  After the last step v keeps only vblock v.
 */
typedef struct mca_coll_rsag_vstep_t {
    int peer;      /* v ^ m */
    int half;      /* m: vblocks in each half */
    int keep_lo;   /* keep vblocks [keep_lo, keep_lo + m) */
    int give_lo;   /* give vblocks [give_lo, give_lo + m) */
} mca_coll_rsag_vstep_t;

mca_coll_rsag_vstep_t mca_coll_rsag_vhalving_step(int vrank, int pof2, int k);

/* The same steps as element ranges of the layout (peer is a vrank; keep
 * and give are the vblock halves of step k), for k = 0 .. log2 p' - 1.
 * Returns log2 p'.  The doubling allgather walks them backwards. */
int mca_coll_rsag_vhalving_schedule(const size_t *displ, int p, int vrank,
                                    mca_coll_rsag_halving_step_t *steps);

/* Elements of the receive buffer of the folding reduce-scatters (recursive
 * halving, priority): the most `rank` receives into it at once, i.e. the
 * first halving step's kept half on a rank that keeps a vrank (later steps
 * receive less) and, on ranks below 2r, the pre-step's ceil(n/2) as well.
 * 0 when p = 1. */
size_t mca_coll_rsag_rs_recv_count(const size_t *displ, int p, int rank);

/* A run of vblocks [lo, lo + n). */
typedef struct mca_coll_rsag_vrange_t {
    int lo;
    int n;
} mca_coll_rsag_vrange_t;

/* The priority-aware schedule (seed 002).  A vrank u that receives the
 * aligned window W = [lo, lo + n) (n a power of two, u inside W) needs
 * its vblocks in this order: first the half of W not holding u, in the
 * order u's next partner u ^ (n/2) needs it (u forwards that half next),
 * then the half holding u, in u's own order.  Writes that order to out[],
 * cut into aligned runs of `unit` vblocks (a power of two; a window of at
 * most `unit` vblocks is one run), and returns the number of runs
 * (at most n / min(unit, n)). */
int mca_coll_rsag_priority_order(int u, int lo, int n, int unit, mca_coll_rsag_vrange_t *out);

#endif /* MCA_COLL_RSAG_INDEX_H */
