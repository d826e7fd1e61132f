/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Pure index arithmetic; see coll_rsag_index.h.
 */
#include "coll_rsag_index.h"

int mca_coll_rsag_pof2_floor(int p)
{
    /* Highest set bit; called on every collective call, so no loop. */
    return (p < 2) ? 1 : 1 << (31 - __builtin_clz((unsigned) p));
}

int mca_coll_rsag_log2_floor(int p)
{
    int lg = 0;
    while ((1 << (lg + 1)) <= p && lg < 30) {
        ++lg;
    }
    return lg;
}

int mca_coll_rsag_fold_vrank(int rank, int p)
{
    int extra = p - mca_coll_rsag_pof2_floor(p);
    if (rank < 2 * extra) {
        return (rank % 2 == 0) ? rank / 2 : -1;
    }
    return rank - extra;
}

int mca_coll_rsag_fold_rank(int vrank, int p)
{
    int extra = p - mca_coll_rsag_pof2_floor(p);
    return (vrank < extra) ? 2 * vrank : vrank + extra;
}

void mca_coll_rsag_split_halves(mca_coll_rsag_range_t whole,
                                mca_coll_rsag_range_t *lower,
                                mca_coll_rsag_range_t *upper)
{
    size_t low = whole.cnt / 2;
    lower->off = whole.off;
    lower->cnt = low;
    upper->off = whole.off + low;
    upper->cnt = whole.cnt - low;
}

void mca_coll_rsag_displs_fold(const size_t *displ, int p, size_t *vdispl)
{
    int pof2 = mca_coll_rsag_pof2_floor(p);

    /* vblock v starts where the first rank it stands for starts */
    for (int v = 0; v < pof2; ++v) {
        vdispl[v] = displ[mca_coll_rsag_fold_rank(v, p)];
    }
    vdispl[pof2] = displ[p];
}

void mca_coll_rsag_displs_bisect(size_t count, int pof2, size_t *vdispl)
{
    vdispl[0] = 0;
    vdispl[pof2] = count;
    for (int n = pof2; n > 1; n /= 2) {
        for (int lo = 0; lo < pof2; lo += n) {
            mca_coll_rsag_range_t lower, upper;
            mca_coll_rsag_range_t whole = mca_coll_rsag_vblocks(vdispl, lo, n);

            mca_coll_rsag_split_halves(whole, &lower, &upper);
            vdispl[lo + n / 2] = upper.off;
        }
    }
}

int mca_coll_rsag_halving_position(int vrank, int pof2, mca_coll_rsag_order_t order)
{
    int t = 0;

    if (MCA_COLL_RSAG_DISTANCE_HALVING == order) {
        return vrank;
    }
    for (int bit = 1; bit < pof2; bit <<= 1) {
        t = (t << 1) | ((vrank & bit) ? 1 : 0);
    }
    return t;
}

mca_coll_rsag_vstep_t mca_coll_rsag_halving_step(int vrank, int pof2, int k,
                                                 mca_coll_rsag_order_t order)
{
    mca_coll_rsag_vstep_t s;
    int m = pof2 >> (k + 1);
    int t = mca_coll_rsag_halving_position(vrank, pof2, order);
    int window_lo = t & ~(2 * m - 1);

    /* the partner's position is t ^ m: at vrank distance m, or 2^k when
     * positions are vranks with their bits reversed */
    s.peer = (MCA_COLL_RSAG_DISTANCE_HALVING == order) ? vrank ^ m : vrank ^ (1 << k);
    s.half = m;
    s.keep_lo = (t & m) ? window_lo + m : window_lo;
    s.give_lo = (t & m) ? window_lo : window_lo + m;
    return s;
}

int mca_coll_rsag_halving_pattern(const size_t *vdispl, int pof2, int vrank,
                                  mca_coll_rsag_order_t order,
                                  mca_coll_rsag_halving_step_t *steps)
{
    int nsteps = mca_coll_rsag_log2_floor(pof2);

    for (int k = 0; k < nsteps; ++k) {
        mca_coll_rsag_vstep_t s = mca_coll_rsag_halving_step(vrank, pof2, k, order);
        steps[k].peer = s.peer;
        steps[k].keep = mca_coll_rsag_vblocks(vdispl, s.keep_lo, s.half);
        steps[k].give = mca_coll_rsag_vblocks(vdispl, s.give_lo, s.half);
    }
    return nsteps;
}

size_t mca_coll_rsag_halving_recv_count(const size_t *vdispl, int p, int rank,
                                        mca_coll_rsag_order_t order)
{
    int pof2 = mca_coll_rsag_pof2_floor(p);
    int vrank = mca_coll_rsag_fold_vrank(rank, p);
    size_t n = vdispl[pof2], count = 0;

    if (1 == pof2) {
        return 0;
    }
    if (rank < 2 * (p - pof2)) {
        count = n - n / 2;                          /* the pre-step */
    }
    if (vrank >= 0) {
        mca_coll_rsag_vstep_t s0 = mca_coll_rsag_halving_step(vrank, pof2, 0, order);
        mca_coll_rsag_range_t keep0 = mca_coll_rsag_vblocks(vdispl, s0.keep_lo, s0.half);
        count = keep0.cnt > count ? keep0.cnt : count;
    }
    return count;
}

bool mca_coll_rsag_gather_sends(int vrank, int vroot, int level)
{
    int peer = vrank ^ (1 << level);
    return (peer >> level) == (vroot >> level);
}

int mca_coll_rsag_rotate(int rank, int root, int p)
{
    return (rank - root + p) % p;
}

int mca_coll_rsag_unrotate(int vrank, int root, int p)
{
    return (vrank + root) % p;
}

int mca_coll_rsag_binomial_parent(int vrank)
{
    return (0 == vrank) ? -1 : (vrank & (vrank - 1));
}

int mca_coll_rsag_binomial_child_limit(int vrank, int p)
{
    if (0 == vrank) {
        int limit = 1;
        while (limit < p) {
            limit <<= 1;
        }
        return limit;
    }
    return vrank & -vrank;
}

int mca_coll_rsag_binomial_children(int vrank, int p)
{
    int limit = mca_coll_rsag_binomial_child_limit(vrank, p), n = 0;

    for (int mask = 1; mask < limit && vrank + mask < p; mask <<= 1) {
        ++n;
    }
    return n;
}

void mca_coll_rsag_displs_even(size_t count, int p, size_t *displ)
{
    size_t base = count / (size_t) p, rest = count % (size_t) p;

    for (int i = 0; i <= p; ++i) {
        displ[i] = (size_t) i * base + ((size_t) i < rest ? (size_t) i : rest);
    }
}

void mca_coll_rsag_displs_counts(const int *counts, int p, size_t *displ)
{
    displ[0] = 0;
    for (int i = 0; i < p; ++i) {
        displ[i + 1] = displ[i] + (size_t) counts[i];
    }
}

mca_coll_rsag_range_t mca_coll_rsag_block(const size_t *displ, int i)
{
    mca_coll_rsag_range_t r = { displ[i], displ[i + 1] - displ[i] };
    return r;
}

int mca_coll_rsag_priority_order(int u, int lo, int n, int unit, mca_coll_rsag_vrange_t *out)
{
    int m = n / 2, nfar;
    int far_lo = (u < lo + m) ? lo + m : lo;
    int near_lo = (u < lo + m) ? lo : lo + m;

    if (n <= unit || n <= 1) {
        out[0].lo = lo;
        out[0].n = n;
        return 1;
    }
    nfar = mca_coll_rsag_priority_order(u ^ m, far_lo, m, unit, out);
    return nfar + mca_coll_rsag_priority_order(u, near_lo, m, unit, out + nfar);
}

int mca_coll_rsag_ring_block(int rank, int step, int shift, int p)
{
    /* rank, step, shift < p: the sum stays far from INT_MIN */
    int b = (rank - step - shift) % p;
    return b < 0 ? b + p : b;
}

size_t mca_coll_rsag_max_block(const size_t *displ, int p)
{
    size_t max = 0;
    for (int i = 0; i < p; ++i) {
        size_t cnt = displ[i + 1] - displ[i];
        max = cnt > max ? cnt : max;
    }
    return max;
}

size_t mca_coll_rsag_ring_segcount(size_t seg_bytes, size_t type_size, size_t max_block)
{
    size_t seg = max_block;

    if (seg_bytes > 0 && type_size > 0) {
        seg = seg_bytes / type_size;
        seg = (0 == seg) ? 1 : seg;
        seg = (seg > max_block) ? max_block : seg;
    }
    return (0 == seg) ? 1 : seg;
}

/* Position c on the first segment of the first non-empty block from
 * c->step on. */
static void mca_coll_rsag_ring_cursor_settle(mca_coll_rsag_ring_cursor_t *c)
{
    for (; c->step < c->nsteps; ++c->step) {
        size_t lo, hi;

        c->block = mca_coll_rsag_ring_block(c->rank, c->step, c->shift, c->p);
        lo = c->displ[c->block];
        hi = c->displ[c->block + 1];
        if (hi > lo) {
            c->seg.off = lo;
            c->seg.cnt = (hi - lo < c->segcount) ? hi - lo : c->segcount;
            return;
        }
    }
    c->seg.off = 0;
    c->seg.cnt = 0;
}

void mca_coll_rsag_ring_cursor_init(mca_coll_rsag_ring_cursor_t *c, const size_t *displ,
                                    int p, int rank, int shift, int nsteps, size_t segcount)
{
    c->displ = displ;
    c->p = p;
    c->rank = rank;
    c->shift = shift;
    c->nsteps = nsteps;
    c->segcount = (0 == segcount) ? 1 : segcount;
    c->step = 0;
    c->block = -1;
    mca_coll_rsag_ring_cursor_settle(c);
}

void mca_coll_rsag_ring_cursor_next(mca_coll_rsag_ring_cursor_t *c)
{
    size_t end, off;

    if (mca_coll_rsag_ring_cursor_done(c)) {
        return;
    }
    end = c->displ[c->block + 1];
    off = c->seg.off + c->seg.cnt;
    if (off < end) {
        c->seg.off = off;
        c->seg.cnt = (end - off < c->segcount) ? end - off : c->segcount;
        return;
    }
    ++c->step;
    mca_coll_rsag_ring_cursor_settle(c);
}

size_t mca_coll_rsag_ring_nsegs(const size_t *displ, int p, int rank, int shift, int nsteps,
                                size_t segcount)
{
    size_t n = 0;

    segcount = (0 == segcount) ? 1 : segcount;
    for (int s = 0; s < nsteps; ++s) {
        int b = mca_coll_rsag_ring_block(rank, s, shift, p);
        size_t cnt = displ[b + 1] - displ[b];
        n += cnt / segcount + (0 != cnt % segcount);
    }
    return n;
}

int mca_coll_rsag_tree_parent(int r, int k)
{
    long long s = 1;

    if (r <= 0) {
        return -1;
    }
    while (0 == r % (s * k)) {
        s *= k;
    }
    return r - (int) (r % (s * k));
}

int mca_coll_rsag_tree_child(int r, int p, int k, int i)
{
    long long stride = 1, c;

    for (int l = i / (k - 1); l > 0; --l) {
        stride *= k;
        if (stride >= p) {
            return -1;
        }
    }
    c = r + (long long) (i % (k - 1) + 1) * stride;
    return (0 == r % (stride * k) && c < p) ? (int) c : -1;
}

int mca_coll_rsag_tree_levels(int p, int k)
{
    int levels = 0;

    for (long long span = 1; span < p; span *= k) {
        ++levels;
    }
    return levels;
}

/* The node terms of the shipped profile (contrib/rsag-model.profile,
 * measured by rsag-calibrate.sh on a quiet machine, 2026-11-27) in units
 * of one hand-off (125.5 ns there): the first wait after the barrier
 * (sync, 248 ns), each further line of a wait (14.1 ns), a byte another
 * core wrote, folded (0.198 ns) or copied (0.149 ns), in pieces of a box. */
#define MCA_COLL_RSAG_FANIN_SYNC 1.976
#define MCA_COLL_RSAG_FANIN_LINE 0.1127
#define MCA_COLL_RSAG_FANIN_FOLD 0.001576
#define MCA_COLL_RSAG_FANIN_COPY 0.00119

int mca_coll_rsag_direct_fanin_auto(int p, size_t bytes, bool reduce_scatter)
{
    /* a vector beyond its stamp's line: one more hand-off per read of it */
    double n = (double) bytes, beyond = bytes > 56 ? 1.0 : 0.0;
    double folded = reduce_scatter ? n / p : n, best;
    int best_k = 1;

    if (p < 3) {
        return 1;
    }
    /* flat: one wait on the p - 1 others, their boxes folded */
    best = MCA_COLL_RSAG_FANIN_SYNC + (p - 2) * MCA_COLL_RSAG_FANIN_LINE + beyond
           + (p - 1) * folded * MCA_COLL_RSAG_FANIN_FOLD;
    for (int depth = 2; depth <= 31 && (1LL << (depth - 1)) < p; ++depth) {
        /* the least k with k^depth >= p */
        int k = 2;
        double t;

        while (mca_coll_rsag_tree_levels(p, k) > depth) {
            ++k;
        }
        /* per level a wait on k - 1 children (the first after the barrier)
         * and their partials folded; then rank 0's result copied out */
        t = MCA_COLL_RSAG_FANIN_SYNC - 1.0
            + depth * (1.0 + (k - 2) * MCA_COLL_RSAG_FANIN_LINE + beyond
                       + (k - 1) * n * MCA_COLL_RSAG_FANIN_FOLD)
            + 1.0 + beyond + (reduce_scatter ? n / p : n) * MCA_COLL_RSAG_FANIN_COPY;
        if (t < best) {
            best = t;
            best_k = k;
        }
    }
    return best_k;
}

/* ---- node-aware layouts --------------------------------------------------- */

int mca_coll_rsag_hier_min_ranks(const int *count, int N)
{
    int S = (N > 0) ? count[0] : 0;

    for (int j = 1; j < N; ++j) {
        S = (count[j] < S) ? count[j] : S;
    }
    return S;
}

size_t mca_coll_rsag_hier_chunks(size_t count, size_t type_size, size_t chunk, int S)
{
    size_t bytes = count * type_size, n;

    if (0 == chunk || S < 1) {
        return 1;
    }
    n = bytes / chunk + (0 != bytes % chunk);
    n = (n > count / (size_t) S) ? count / (size_t) S : n;
    n = (n > MCA_COLL_RSAG_HIER_MAX_CHUNKS) ? MCA_COLL_RSAG_HIER_MAX_CHUNKS : n;
    return (n < 1) ? 1 : n;
}

void mca_coll_rsag_hier_slices(size_t count, int S, int L, size_t *displ)
{
    mca_coll_rsag_displs_even(count, S, displ);
    for (int l = S + 1; l <= L; ++l) {
        displ[l] = count;
    }
}

bool mca_coll_rsag_hier_rs_order(int p, int N, int S, const int *node_of,
                                 const int *local_of, int *qof, int *work)
{
    int *start = work, *rank_at = work + N + 1;
    bool identity = true;
    int k = 0;

    /* the ranks of node j by local index: rank_at[start[j] + l] */
    for (int j = 0; j <= N; ++j) {
        start[j] = 0;
    }
    for (int q = 0; q < p; ++q) {
        ++start[node_of[q] + 1];
    }
    for (int j = 0; j < N; ++j) {
        start[j + 1] += start[j];
    }
    for (int q = 0; q < p; ++q) {
        rank_at[start[node_of[q]] + local_of[q]] = q;
    }
    for (int c = 0; c < S; ++c) {
        for (int j = 0; j < N; ++j) {
            for (int l = c; l < start[j + 1] - start[j]; l += S) {
                qof[k] = rank_at[start[j] + l];
                identity &= (qof[k] == k);
                ++k;
            }
        }
    }
    return identity;
}

void mca_coll_rsag_hier_rs_sums(int p, int N, int S, const int *node_of, const int *local_of,
                                const int *qof, const size_t *displ, int c, size_t *slice,
                                size_t *part)
{
    for (int i = 0; i <= S; ++i) {
        slice[i] = 0;
    }
    for (int j = 0; j <= N; ++j) {
        part[j] = 0;
    }
    for (int k = 0; k < p; ++k) {
        int q = qof[k], cq = local_of[q] % S;
        size_t n = displ[q + 1] - displ[q];

        slice[cq + 1] += n;
        if (cq == c) {
            part[node_of[q] + 1] += n;
        }
    }
    for (int i = 0; i < S; ++i) {
        slice[i + 1] += slice[i];
    }
    for (int j = 0; j < N; ++j) {
        part[j + 1] += part[j];
    }
}

int mca_coll_rsag_circulant_skips(int p, int *skip)
{
    int q = 0;

    while (q < MCA_COLL_RSAG_MAX_STEPS && (1LL << q) < (long long) p) {
        ++q;
    }
    skip[q] = p < 1 ? 1 : p;
    for (int k = q - 1; k >= 0; --k) {
        skip[k] = skip[k + 1] / 2 + skip[k + 1] % 2;
    }
    return q;
}

mca_coll_rsag_circulant_round_t mca_coll_rsag_circulant_round(int rank, int p, const int *skip,
                                                              int k)
{
    mca_coll_rsag_circulant_round_t c;
    int s = skip[k], n = skip[k + 1] - skip[k];

    c.up = (int) (((long long) rank + s) % p);
    c.down = (int) (((long long) rank - s + p) % p);
    c.near.lo = rank;
    c.near.n = n;
    c.far.lo = c.up;
    c.far.n = n;
    return c;
}

size_t mca_coll_rsag_even_chunks(size_t cnt, size_t chunk)
{
    return cnt / chunk + (0 != cnt % chunk);
}

size_t mca_coll_rsag_even_messages(size_t cnt, size_t chunk)
{
    return cnt > chunk ? mca_coll_rsag_even_chunks(cnt, chunk) : 1;
}

size_t mca_coll_rsag_even_chunk(size_t cnt, size_t m, size_t j, size_t *len)
{
    size_t base = cnt / m, longer = cnt % m;

    *len = base + (j < longer);
    return j * base + (j < longer ? j : longer);
}

int mca_coll_rsag_block_run(const size_t *displ, int p, mca_coll_rsag_vrange_t run,
                            mca_coll_rsag_range_t piece[2])
{
    long long end = (long long) run.lo + run.n;
    int n = 0;

    if (run.n <= 0) {
        return 0;
    }
    if (end <= p) {
        piece[n] = (mca_coll_rsag_range_t) { displ[run.lo], displ[end] - displ[run.lo] };
        n += piece[n].cnt > 0;
        return n;
    }
    piece[n] = (mca_coll_rsag_range_t) { displ[run.lo], displ[p] - displ[run.lo] };
    n += piece[n].cnt > 0;
    piece[n] = (mca_coll_rsag_range_t) { displ[0], displ[end - p] - displ[0] };
    n += piece[n].cnt > 0;
    return n;
}
