/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Unit tests of coll_rsag_index.c: exhaustive over small communicators and
 * a spread of counts, by simulating the data movement the algorithms do.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll_rsag_index.h"
#include "unit.h"

#define MAXP 128

static void test_pof2(void)
{
    for (int p = 1; p <= 5000; ++p) {
        int pof2 = 1, lg = 0;
        while (2 * pof2 <= p) {
            pof2 *= 2;
            ++lg;
        }
        CHECK(mca_coll_rsag_pof2_floor(p) == pof2, "p=%d", p);
        CHECK(mca_coll_rsag_log2_floor(p) == lg, "p=%d", p);
    }
    CHECK(mca_coll_rsag_pof2_floor(0x7fffffff) == 0x40000000, "INT_MAX");
}

/* Folding is a bijection from the kept ranks onto [0, p') that keeps
 * rank order, and the folded-away ranks are exactly the odd ranks < 2r. */
static void test_fold(void)
{
    for (int p = 1; p <= MAXP; ++p) {
        int pof2 = mca_coll_rsag_pof2_floor(p), extra = p - pof2, last = -1, kept = 0;
        for (int rank = 0; rank < p; ++rank) {
            int v = mca_coll_rsag_fold_vrank(rank, p);
            bool folded = rank < 2 * extra && rank % 2 == 1;
            CHECK((v < 0) == folded, "p=%d rank=%d v=%d", p, rank, v);
            if (v >= 0) {
                CHECK(v == last + 1, "p=%d rank=%d: vranks in rank order", p, rank);
                CHECK(mca_coll_rsag_fold_rank(v, p) == rank, "p=%d rank=%d inverse", p, rank);
                last = v;
                ++kept;
            } else {
                CHECK(mca_coll_rsag_fold_vrank(rank - 1, p) >= 0, "partner of %d kept", rank);
            }
        }
        CHECK(kept == pof2, "p=%d kept %d", p, kept);
    }
}

static void test_split(void)
{
    for (size_t off = 0; off < 5; ++off) {
        for (size_t cnt = 0; cnt < 40; ++cnt) {
            mca_coll_rsag_range_t w = { off, cnt }, lo, up;
            mca_coll_rsag_split_halves(w, &lo, &up);
            CHECK(lo.off == off && lo.cnt == cnt / 2, "lower of %zu", cnt);
            CHECK(up.off == lo.off + lo.cnt && lo.cnt + up.cnt == cnt, "upper of %zu", cnt);
        }
    }
}

static bool same_range(mca_coll_rsag_range_t a, mca_coll_rsag_range_t b)
{
    return a.off == b.off && a.cnt == b.cnt;
}

/* Recursive halving: partners share their window, split it between them,
 * and the final blocks partition [0, count). */
static void test_halving(size_t count, int pof2)
{
    static mca_coll_rsag_halving_step_t steps[MAXP][MCA_COLL_RSAG_MAX_STEPS];
    static size_t vdispl[MAXP + 1];
    int nsteps = 0, lg = mca_coll_rsag_log2_floor(pof2);
    unsigned char *owner = calloc(count + 1, 1);

    mca_coll_rsag_displs_bisect(count, pof2, vdispl);
    for (int v = 0; v < pof2; ++v) {
        nsteps = mca_coll_rsag_halving_pattern(vdispl, pof2, v, MCA_COLL_RSAG_DISTANCE_DOUBLING,
                                                steps[v]);
        CHECK(nsteps == lg, "pof2=%d nsteps=%d", pof2, nsteps);
    }
    for (int v = 0; v < pof2; ++v) {
        mca_coll_rsag_range_t window = { 0, count };
        for (int k = 0; k < nsteps; ++k) {
            const mca_coll_rsag_halving_step_t *s = &steps[v][k], *t;
            CHECK(s->peer == (v ^ (1 << k)), "peer v=%d k=%d", v, k);
            t = &steps[s->peer][k];
            CHECK(same_range(s->keep, t->give) && same_range(s->give, t->keep),
                  "count=%zu pof2=%d v=%d k=%d: partners split one window", count, pof2, v, k);
            CHECK(s->keep.cnt + s->give.cnt == window.cnt
                      && (s->keep.off == window.off || s->give.off == window.off),
                  "window v=%d k=%d", v, k);
            CHECK(((v >> k) & 1) ? s->keep.off >= s->give.off : s->keep.off <= s->give.off,
                  "lower vrank keeps the lower half v=%d k=%d", v, k);
            window = s->keep;
        }
        mca_coll_rsag_range_t block = mca_coll_rsag_vblocks(
            vdispl, mca_coll_rsag_halving_position(v, pof2, MCA_COLL_RSAG_DISTANCE_DOUBLING), 1);
        CHECK(same_range(block, window), "block of v=%d", v);
        if (count >= (size_t) pof2) {
            CHECK(block.cnt >= 1, "count=%zu >= p'=%d: v=%d owns something", count, pof2, v);
        }
        for (size_t i = block.off; i < block.off + block.cnt; ++i) {
            owner[i]++;
        }
    }
    for (size_t i = 0; i < count; ++i) {
        CHECK(owner[i] == 1, "count=%zu pof2=%d element %zu owned %d times", count, pof2, i,
              owner[i]);
    }
    /* every cut of the layout is split_halves' cut of its window */
    for (int n = pof2; n > 1; n /= 2) {
        for (int lo = 0; lo < pof2; lo += n) {
            mca_coll_rsag_range_t lower, upper;
            mca_coll_rsag_split_halves(mca_coll_rsag_vblocks(vdispl, lo, n), &lower, &upper);
            CHECK(vdispl[lo + n / 2] == upper.off, "count=%zu pof2=%d cut at vblock %d", count,
                  pof2, lo + n / 2);
        }
    }
    free(owner);
}

/* The binomial gather that reverses the halving brings every element to
 * vroot; every sender holds its whole window when it sends. */
static void test_gather(size_t count, int pof2)
{
    static mca_coll_rsag_halving_step_t steps[MAXP][MCA_COLL_RSAG_MAX_STEPS];
    static unsigned char have[MAXP][256];
    static size_t vdispl[MAXP + 1];
    bool active[MAXP];
    int nsteps = 0;

    if (count > 256) {
        return;
    }
    mca_coll_rsag_displs_bisect(count, pof2, vdispl);
    for (int vroot = 0; vroot < pof2; ++vroot) {
        for (int v = 0; v < pof2; ++v) {
            mca_coll_rsag_range_t b;
            nsteps = mca_coll_rsag_halving_pattern(vdispl, pof2, v,
                                                    MCA_COLL_RSAG_DISTANCE_DOUBLING, steps[v]);
            b = nsteps > 0 ? steps[v][nsteps - 1].keep : mca_coll_rsag_vblocks(vdispl, 0, 1);
            memset(have[v], 0, sizeof(have[v]));
            memset(have[v] + b.off, 1, b.cnt);
            active[v] = true;
        }
        for (int k = nsteps - 1; k >= 0; --k) {
            for (int v = 0; v < pof2; ++v) {
                int peer = v ^ (1 << k);
                const mca_coll_rsag_halving_step_t *s = &steps[v][k];
                if (!active[v] || !mca_coll_rsag_gather_sends(v, vroot, k)) {
                    continue;
                }
                CHECK(active[peer] && !mca_coll_rsag_gather_sends(peer, vroot, k),
                      "vroot=%d k=%d: %d sends to a receiver", vroot, k, v);
                for (size_t i = s->keep.off; i < s->keep.off + s->keep.cnt; ++i) {
                    CHECK(have[v][i], "vroot=%d k=%d v=%d sends element %zu it lacks", vroot,
                          k, v, i);
                    have[peer][i] = 1;
                }
                CHECK(same_range(s->keep, steps[peer][k].give), "receiver expects it");
                active[v] = false;
            }
        }
        for (int v = 0; v < pof2; ++v) {
            CHECK(active[v] == (v == vroot), "vroot=%d: only the root remains (v=%d)", vroot, v);
        }
        for (size_t i = 0; i < count; ++i) {
            CHECK(have[vroot][i], "vroot=%d lacks element %zu", vroot, i);
        }
    }
}

/* Binomial tree: parents and children agree, every vrank is reached. */
static void test_binomial(void)
{
    for (int p = 1; p <= MAXP; ++p) {
        int children_of[MAXP] = { 0 };
        for (int v = 1; v < p; ++v) {
            int parent = mca_coll_rsag_binomial_parent(v);
            CHECK(parent >= 0 && parent < v, "p=%d v=%d parent=%d", p, v, parent);
            CHECK(v - parent < mca_coll_rsag_binomial_child_limit(parent, p),
                  "p=%d v=%d within its parent's child limit", p, v);
            children_of[parent]++;
        }
        CHECK(mca_coll_rsag_binomial_parent(0) == -1, "root has no parent");
        for (int v = 0; v < p; ++v) {
            int n = 0;
            for (int mask = 1; mask < mca_coll_rsag_binomial_child_limit(v, p) && v + mask < p;
                 mask <<= 1) {
                CHECK(mca_coll_rsag_binomial_parent(v + mask) == v, "p=%d child %d of %d", p,
                      v + mask, v);
                ++n;
            }
            CHECK(n == children_of[v], "p=%d v=%d children %d vs %d", p, v, n, children_of[v]);
            CHECK(mca_coll_rsag_binomial_children(v, p) == n, "p=%d v=%d children count", p, v);
        }
        for (int root = 0; root < p; ++root) {
            for (int rank = 0; rank < p; ++rank) {
                int v = mca_coll_rsag_rotate(rank, root, p);
                CHECK(v >= 0 && v < p && mca_coll_rsag_unrotate(v, root, p) == rank,
                      "rotate p=%d root=%d rank=%d", p, root, rank);
            }
            CHECK(mca_coll_rsag_rotate(root, root, p) == 0, "root is vrank 0");
        }
    }
}

/* The contiguous-range tree: each leader's partial, its own input folded
 * with its children's partials in order, covers a contiguous range right
 * after the one before; rank 0's covers [0, p); every other rank is the
 * child of exactly its parent; rank 0's children span ceil(log_k p) levels. */
static int tree_end(int r, int p, int k)
{
    int end = r + 1;

    for (int i = 0, c; (c = mca_coll_rsag_tree_child(r, p, k, i)) >= 0; ++i) {
        CHECK(c == end, "p=%d k=%d rank %d child %d starts at %d", p, k, r, c, end);
        CHECK(mca_coll_rsag_tree_parent(c, k) == r, "p=%d k=%d parent of %d", p, k, c);
        end = tree_end(c, p, k);
    }
    return end;
}

static void test_tree(void)
{
    static const int ks[] = { 2, 3, 4, 5, 7, 8, 16, 64, 1000 };

    for (int p = 1; p <= 300; ++p) {
        for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); ++i) {
            int k = ks[i], levels = 0;
            CHECK(tree_end(0, p, k) == p, "p=%d k=%d: rank 0 covers [0, p)", p, k);
            for (int r = 0; r < p; ++r) {
                if (mca_coll_rsag_tree_child(r, p, k, 0) >= 0) {
                    for (int j = 0; mca_coll_rsag_tree_child(r, p, k, j) >= 0; ++j) {
                        levels = j / (k - 1) + 1 > levels ? j / (k - 1) + 1 : levels;
                    }
                }
            }
            CHECK(levels == mca_coll_rsag_tree_levels(p, k), "p=%d k=%d levels %d vs %d", p, k,
                  levels, mca_coll_rsag_tree_levels(p, k));
        }
    }
    CHECK(mca_coll_rsag_tree_parent(0, 2) == -1, "rank 0 has no parent");
    CHECK(mca_coll_rsag_tree_child(1 << 30, 0x7fffffff, 2, 40) == -1, "no overflow");
}


/* Block layouts: even cuts differ by at most one element, the larger
 * first; counts layouts are prefix sums; vblocks tile the vector in
 * vrank order. */
static void test_layouts(void)
{
    size_t displ[MAXP + 1];
    int counts[MAXP];

    for (int p = 1; p <= MAXP; p += (p < 20 ? 1 : 13)) {
        for (size_t count = 0; count < 300; count += (count < 40 ? 1 : 37)) {
            mca_coll_rsag_displs_even(count, p, displ);
            CHECK(displ[0] == 0 && displ[p] == count, "even p=%d count=%zu", p, count);
            for (int i = 0; i < p; ++i) {
                size_t c = mca_coll_rsag_block(displ, i).cnt;
                CHECK(c == count / p || c == count / p + 1, "even block size");
                CHECK(i == 0 || c <= mca_coll_rsag_block(displ, i - 1).cnt, "larger first");
            }
        }
        for (int i = 0; i < p; ++i) {
            counts[i] = (i * 7 + 3) % 5;   /* zeros included */
        }
        counts[p - 1] = 0;
        mca_coll_rsag_displs_counts(counts, p, displ);
        for (int i = 0; i < p; ++i) {
            CHECK(mca_coll_rsag_block(displ, i).cnt == (size_t) counts[i], "counts block %d", i);
        }
        /* vblocks */
        {
            int pof2 = mca_coll_rsag_pof2_floor(p);
            size_t next = 0, vdispl[MAXP + 1];
            mca_coll_rsag_displs_fold(displ, p, vdispl);
            for (int v = 0; v < pof2; ++v) {
                mca_coll_rsag_range_t vb = mca_coll_rsag_vblocks(vdispl, v, 1);
                int r = mca_coll_rsag_fold_rank(v, p);
                size_t expect = (size_t) counts[r]
                                + ((r + 1 < p && mca_coll_rsag_fold_vrank(r + 1, p) < 0)
                                       ? (size_t) counts[r + 1] : 0);
                CHECK(vb.off == next && vb.cnt == expect, "p=%d vblock %d", p, v);
                next = vb.off + vb.cnt;
            }
            CHECK(next == displ[p], "p=%d vblocks tile the vector", p);
            CHECK(mca_coll_rsag_vblocks(vdispl, 0, pof2).cnt == displ[p], "all vblocks");
        }
    }
}

/* One order: partners agree on the window, split it, and each ends with
 * the vblock at its position. */
static void test_vhalving_order(mca_coll_rsag_order_t order)
{
    for (int pof2 = 2; pof2 <= MAXP; pof2 *= 2) {
        int lg = mca_coll_rsag_log2_floor(pof2);
        for (int v = 0; v < pof2; ++v) {
            int lo = 0, n = pof2, pos = mca_coll_rsag_halving_position(v, pof2, order);
            for (int k = 0; k < lg; ++k) {
                mca_coll_rsag_vstep_t s = mca_coll_rsag_halving_step(v, pof2, k, order);
                mca_coll_rsag_vstep_t t = mca_coll_rsag_halving_step(s.peer, pof2, k, order);
                CHECK(s.half == n / 2 && t.peer == v, "pof2=%d v=%d k=%d", pof2, v, k);
                CHECK(s.peer == (MCA_COLL_RSAG_DISTANCE_HALVING == order ? v ^ (pof2 >> (k + 1))
                                                                       : v ^ (1 << k)),
                      "pof2=%d v=%d k=%d: partner distance", pof2, v, k);
                CHECK(s.keep_lo == t.give_lo && s.give_lo == t.keep_lo, "partners split");
                CHECK(s.keep_lo <= pos && pos < s.keep_lo + s.half, "keeps the half holding v");
                CHECK((s.keep_lo == lo || s.give_lo == lo)
                          && (s.keep_lo == lo + s.half || s.give_lo == lo + s.half),
                      "halves of the current window");
                lo = s.keep_lo;
                n = s.half;
            }
            CHECK(lo == pos && n == 1, "pof2=%d v=%d ends with its vblock", pof2, v);
        }
    }
}

/* Distance halving over vblocks: partners agree on the window, split it,
 * and each ends with its own vblock; distance doubling the same over bit-
 * reversed positions (a bijection). */
static void test_vhalving(void)
{
    test_vhalving_order(MCA_COLL_RSAG_DISTANCE_HALVING);
    test_vhalving_order(MCA_COLL_RSAG_DISTANCE_DOUBLING);
    for (int pof2 = 1; pof2 <= MAXP; pof2 *= 2) {
        char seen[MAXP] = { 0 };
        for (int v = 0; v < pof2; ++v) {
            int t = mca_coll_rsag_halving_position(v, pof2, MCA_COLL_RSAG_DISTANCE_DOUBLING);
            CHECK(t >= 0 && t < pof2 && !seen[t], "pof2=%d: positions are a permutation", pof2);
            seen[t] = 1;
            CHECK(mca_coll_rsag_halving_position(v, pof2, MCA_COLL_RSAG_DISTANCE_HALVING) == v,
                  "halving position is the vrank");
        }
    }
}

/* The vblock pattern as element ranges: each step splits the previous
 * kept range into keep and give, the last keep is the vrank's vblock; the
 * reduce-scatter receive buffer holds exactly the largest part received
 * at once (pre-step or a halving step). */
static void test_vpattern(void)
{
    static size_t displ[MAXP + 1], vdispl[MAXP + 1];
    static int counts[MAXP];
    mca_coll_rsag_halving_step_t steps[MCA_COLL_RSAG_MAX_STEPS];
    const mca_coll_rsag_order_t halving = MCA_COLL_RSAG_DISTANCE_HALVING;

    mca_coll_rsag_displs_even(10, 1, displ);
    mca_coll_rsag_displs_fold(displ, 1, vdispl);
    CHECK(mca_coll_rsag_halving_recv_count(vdispl, 1, 0, halving) == 0,
          "p=1 receives nothing");
    for (int p = 2; p <= MAXP; p += (p < 20 ? 1 : 7)) {
        int pof2 = mca_coll_rsag_pof2_floor(p), extra = p - pof2;
        for (int layout = 0; layout < 4; ++layout) {
            for (int i = 0; i < p; ++i) {
                counts[i] = layout == 0 ? 5 : layout == 1 ? (i * 7 + 3) % 5
                          : layout == 2 ? (i == p / 2 ? 1000 : 0) : (i == 0 ? 3 : 0);
            }
            mca_coll_rsag_displs_counts(counts, p, displ);
            mca_coll_rsag_displs_fold(displ, p, vdispl);
            for (int rank = 0; rank < p; ++rank) {
                int v = mca_coll_rsag_fold_vrank(rank, p);
                size_t n = displ[p], want = rank < 2 * extra ? n - n / 2 : 0;
                mca_coll_rsag_range_t window = { 0, n };
                if (v >= 0) {
                    int ns = mca_coll_rsag_halving_pattern(vdispl, pof2, v, halving, steps);
                    CHECK(ns == mca_coll_rsag_log2_floor(pof2), "p=%d steps", p);
                    for (int k = 0; k < ns; ++k) {
                        mca_coll_rsag_vstep_t s = mca_coll_rsag_halving_step(v, pof2, k, halving);
                        const mca_coll_rsag_halving_step_t *h = &steps[k];
                        CHECK(h->peer == s.peer && h->keep.cnt + h->give.cnt == window.cnt
                                  && (h->keep.off == window.off || h->give.off == window.off)
                                  && (h->keep.off + h->keep.cnt == h->give.off
                                      || h->give.off + h->give.cnt == h->keep.off),
                              "p=%d layout %d v=%d k=%d splits the window", p, layout, v, k);
                        window = h->keep;
                        want = h->keep.cnt > want ? h->keep.cnt : want;
                    }
                    mca_coll_rsag_range_t mine = mca_coll_rsag_vblocks(vdispl, v, 1);
                    CHECK(window.off == mine.off && window.cnt == mine.cnt,
                          "p=%d v=%d ends with its vblock", p, v);
                }
                CHECK(mca_coll_rsag_halving_recv_count(vdispl, p, rank, halving) == want,
                      "p=%d layout %d rank %d: receive buffer %zu, largest receive %zu", p,
                      layout, rank, mca_coll_rsag_halving_recv_count(vdispl, p, rank, halving),
                      want);
            }
        }
    }
}

/* Priority order: a permutation of the window in aligned runs; the half
 * the receiver forwards next comes first, in its next partner's order. */
static void test_priority_order(void)
{
    static mca_coll_rsag_vrange_t runs[MAXP], far[MAXP];

    for (int n = 1; n <= MAXP; n *= 2) {
        for (int unit = 1; unit <= 2 * n; unit *= 2) {
            for (int lo = 0; lo < 2 * n; lo += n) {
                for (int u = lo; u < lo + n; ++u) {
                    int cnt = mca_coll_rsag_priority_order(u, lo, n, unit, runs);
                    int run = unit < n ? unit : n, next_lo, nfar;
                    char seen[MAXP * 2] = { 0 };
                    CHECK(cnt == n / run, "n=%d unit=%d runs=%d", n, unit, cnt);
                    for (int i = 0; i < cnt; ++i) {
                        CHECK(runs[i].n == run && runs[i].lo % run == 0, "aligned runs");
                        for (int b = runs[i].lo; b < runs[i].lo + runs[i].n; ++b) {
                            CHECK(b >= lo && b < lo + n && !seen[b], "permutation");
                            seen[b] = 1;
                        }
                    }
                    if (n > run) {
                        /* first the far half, as u ^ n/2 wants it */
                        next_lo = (u < lo + n / 2) ? lo + n / 2 : lo;
                        nfar = mca_coll_rsag_priority_order(u ^ (n / 2), next_lo, n / 2, unit,
                                                            far);
                        CHECK(nfar == cnt / 2, "far runs");
                        for (int i = 0; i < nfar; ++i) {
                            CHECK(runs[i].lo == far[i].lo && runs[i].n == far[i].n,
                                  "n=%d u=%d: far half first, in the next partner's order", n, u);
                        }
                        CHECK(runs[cnt - 1].lo <= u && u < runs[cnt - 1].lo + run,
                              "own vblock last");
                    }
                }
            }
        }
    }
}

/* Walk a ring cursor into arrays of (step, block, off, cnt); returns n. */
static size_t ring_walk(const size_t *displ, int p, int rank, int shift, int nsteps,
                        size_t segcount, mca_coll_rsag_range_t *segs, int *blocks)
{
    mca_coll_rsag_ring_cursor_t c;
    size_t n = 0;

    for (mca_coll_rsag_ring_cursor_init(&c, displ, p, rank, shift, nsteps, segcount);
         !mca_coll_rsag_ring_cursor_done(&c); mca_coll_rsag_ring_cursor_next(&c)) {
        segs[n] = c.seg;
        blocks[n] = c.block;
        ++n;
    }
    return n;
}

/* The ring walks: segments tile each walked block in order, both ends of
 * every link cut the same segments in the same order (what r sends first
 * and then forwards is what r + 1 receives), and the reduce-scatter ring
 * leaves block r on rank r reduced over every rank exactly once. */
static void test_ring(size_t count, int p, size_t segcount, const int *irregular)
{
    size_t *displ = malloc(sizeof(size_t) * (size_t) (p + 1));
    size_t maxsegs;
    mca_coll_rsag_range_t *a, *b;
    int *ab, *bb;
    /* contributions: bit r of mask[rank][e] = rank r's value is in it */
    unsigned long long *mask, *next;

    if (NULL != irregular) {
        mca_coll_rsag_displs_counts(irregular, p, displ);
        count = displ[p];
    } else {
        mca_coll_rsag_displs_even(count, p, displ);
    }
    maxsegs = 2 * (count + (size_t) p) + 4;
    a = malloc(sizeof(*a) * maxsegs);
    b = malloc(sizeof(*b) * maxsegs);
    ab = malloc(sizeof(int) * maxsegs);
    bb = malloc(sizeof(int) * maxsegs);
    mask = calloc((size_t) p * (count + 1), sizeof(unsigned long long));
    next = calloc((size_t) p * (count + 1), sizeof(unsigned long long));
    for (int r = 0; r < p; ++r) {
        int succ = (r + 1) % p;
        for (int shift = 1; shift <= 2; ++shift) {
            /* sender r: block r - shift + 1 from its input, then the p - 2
             * blocks it receives and forwards; receiver r + 1: p - 1 blocks */
            size_t na = ring_walk(displ, p, r, shift - 1, p > 1 ? 1 : 0, segcount, a, ab);
            size_t nb;
            na += ring_walk(displ, p, r, shift, p > 1 ? p - 2 : 0, segcount, a + na, ab + na);
            nb = ring_walk(displ, p, succ, shift, p - 1, segcount, b, bb);
            CHECK(na == nb, "p=%d count=%zu seg=%zu r=%d shift=%d: %zu sent, %zu received", p,
                  count, segcount, r, shift, na, nb);
            for (size_t i = 0; i < na && i < nb; ++i) {
                CHECK(a[i].off == b[i].off && a[i].cnt == b[i].cnt && ab[i] == bb[i],
                      "p=%d count=%zu seg=%zu r=%d shift=%d: segment %zu differs", p, count,
                      segcount, r, shift, i);
            }
            CHECK(nb == mca_coll_rsag_ring_nsegs(displ, p, succ, shift, p - 1, segcount),
                  "nsegs p=%d", p);
            /* segments tile the walked blocks in order */
            for (size_t i = 0, expect = 0; i < nb; ++i) {
                bool first = (0 == i || bb[i] != bb[i - 1]);
                if (first) {
                    expect = displ[bb[i]];
                }
                CHECK(b[i].cnt > 0 && b[i].cnt <= segcount && b[i].off == expect,
                      "p=%d seg %zu tiles", p, i);
                expect = b[i].off + b[i].cnt;
                if (i + 1 == nb || bb[i + 1] != bb[i]) {
                    CHECK(expect == displ[bb[i] + 1], "p=%d block %d covered", p, bb[i]);
                }
            }
        }
    }

    /* Simulate the reduce-scatter: at step s rank r receives block
     * (r - s - 2) from r - 1, which sent its input (s = 0) or what it
     * reduced at step s - 1. */
    if (p <= 64) {
        for (int r = 0; r < p; ++r) {
            for (size_t e = 0; e < count; ++e) {
                mask[(size_t) r * count + e] = 1ULL << r;
            }
        }
        for (int s = 0; s + 1 < p; ++s) {
            memcpy(next, mask, sizeof(*mask) * (size_t) p * count);
            for (int r = 0; r < p; ++r) {
                int prev = (r + p - 1) % p;
                int blk = mca_coll_rsag_ring_block(r, s, 2, p);
                CHECK(blk == mca_coll_rsag_ring_block(prev, s, 1, p), "ring blocks agree");
                for (size_t e = displ[blk]; e < displ[blk + 1]; ++e) {
                    unsigned long long in = mask[(size_t) prev * count + e];
                    unsigned long long mine = mask[(size_t) r * count + e];
                    CHECK(0 == (in & mine), "p=%d s=%d r=%d: a contribution twice", p, s, r);
                    next[(size_t) r * count + e] = in | mine;
                }
            }
            memcpy(mask, next, sizeof(*mask) * (size_t) p * count);
        }
        for (int r = 0; r < p; ++r) {
            unsigned long long all = (64 == p) ? ~0ULL : (1ULL << p) - 1;
            for (size_t e = displ[r]; e < displ[r + 1]; ++e) {
                CHECK(mask[(size_t) r * count + e] == all, "p=%d rank %d element %zu", p, r, e);
            }
        }
    }
    free(displ);
    free(a);
    free(b);
    free(ab);
    free(bb);
    free(mask);
    free(next);
}

static void test_ring_segcount(void)
{
    CHECK(mca_coll_rsag_ring_segcount(0, 8, 1000) == 1000, "0 = whole blocks");
    CHECK(mca_coll_rsag_ring_segcount(64, 8, 1000) == 8, "64 bytes of doubles");
    CHECK(mca_coll_rsag_ring_segcount(4, 8, 1000) == 1, "at least one element");
    CHECK(mca_coll_rsag_ring_segcount(1 << 20, 8, 1000) == 1000, "capped at the block");
    CHECK(mca_coll_rsag_ring_segcount(100, 8, 0) == 1, "never 0");
    CHECK(mca_coll_rsag_ring_segcount(0, 8, 0) == 1, "never 0, whole blocks");
    CHECK(mca_coll_rsag_ring_segcount(100, 0, 7) == 7, "type size 0");
    for (int p = 1; p <= 200; ++p) {
        for (int step = 0; step < p; ++step) {
            for (int shift = 0; shift <= 2; ++shift) {
                int b = mca_coll_rsag_ring_block(p - 1, step, shift, p);
                CHECK(b == ((p - 1 - step - shift) % p + p) % p, "ring block");
            }
        }
    }
}


/* Node-aware layouts: node sizes 1..4 on 1..4 nodes (every combination),
 * ranks placed by slot, round-robin by node, and shuffled.  The order is a
 * permutation sorted by (local mod S, node, local); the identity flag is
 * right; S = 1 by slot is the identity; the sums partition the vector; the
 * node step's slices are even over S and empty from S on. */
static void test_hier_layouts(void)
{
    enum { MAXN = 4, MAXL = 4, MAXQ = MAXN * MAXL };
    int count[MAXN], node_of[MAXQ], local_of[MAXQ], qof[MAXQ], work[MAXN + 1 + MAXQ];
    size_t displ[MAXQ + 1], slice[MAXL + 1], part[MAXN + 1], sl[MAXL + 1];
    unsigned seed = 12345;

    for (int N = 1; N <= MAXN; ++N) {
        int combos = 1;
        for (int j = 0; j < N; ++j) {
            combos *= MAXL;
        }
        for (int m = 0; m < combos; ++m) {
            int p = 0, S, x = m;
            for (int j = 0; j < N; ++j, x /= MAXL) {
                count[j] = 1 + x % MAXL;
                p += count[j];
            }
            S = mca_coll_rsag_hier_min_ranks(count, N);
            for (int placement = 0; placement < 3; ++placement) {
                int filled[MAXN] = { 0 }, q = 0, nodes = 0;
                int seen[MAXQ] = { 0 };
                bool identity, ident_ref = true, sorted = true;

                /* rank -> node: by slot, round-robin, or shuffled */
                for (int round = 0; q < p; ++round) {
                    for (int j = 0; j < N && q < p; ++j) {
                        int jj = (0 == placement) ? nodes : j;
                        if (0 == placement) {
                            while (filled[nodes] == count[nodes]) {
                                ++nodes;
                            }
                            jj = nodes;
                        }
                        if (filled[jj] < count[jj]) {
                            node_of[q++] = jj;
                            ++filled[jj];
                        }
                    }
                }
                if (2 == placement) {
                    for (int i = p - 1; i > 0; --i) {
                        int r = (int) ((seed = seed * 1103515245u + 12345u) >> 16) % (i + 1);
                        int t = node_of[i];
                        node_of[i] = node_of[r];
                        node_of[r] = t;
                    }
                }
                /* nodes numbered by their lowest rank, local by rank order */
                {
                    int renum[MAXN], next = 0, cnt[MAXN] = { 0 };
                    for (int j = 0; j < N; ++j) {
                        renum[j] = -1;
                    }
                    for (int r = 0; r < p; ++r) {
                        if (renum[node_of[r]] < 0) {
                            renum[node_of[r]] = next++;
                        }
                    }
                    for (int r = 0; r < p; ++r) {
                        node_of[r] = renum[node_of[r]];
                        local_of[r] = cnt[node_of[r]]++;
                    }
                    CHECK(next == N, "all nodes used");
                }
                identity = mca_coll_rsag_hier_rs_order(p, N, S, node_of, local_of, qof, work);
                for (int k = 0; k < p; ++k) {
                    CHECK(qof[k] >= 0 && qof[k] < p && !seen[qof[k]], "qof permutation");
                    if (qof[k] >= 0 && qof[k] < p) {
                        seen[qof[k]] = 1;
                    }
                    ident_ref &= (qof[k] == k);
                    if (k > 0) {
                        int a = qof[k - 1], b = qof[k];
                        long ka = ((long) (local_of[a] % S) * MAXN + node_of[a]) * MAXL + local_of[a];
                        long kb = ((long) (local_of[b] % S) * MAXN + node_of[b]) * MAXL + local_of[b];
                        sorted &= (ka < kb);
                    }
                }
                CHECK(sorted, "order by (local mod S, node, local)");
                CHECK(identity == ident_ref, "identity flag");
                if (0 == placement) {
                    bool id1 = mca_coll_rsag_hier_rs_order(p, N, 1, node_of, local_of, qof, work);
                    CHECK(id1, "S = 1 by slot is rank order");
                }
                /* blocks of 0..3 elements */
                displ[0] = 0;
                for (int r = 0; r < p; ++r) {
                    displ[r + 1] = displ[r] + (size_t) ((r * 7 + m) % 4);
                }
                for (int c = 0; c < S; ++c) {
                    size_t want = 0;
                    mca_coll_rsag_hier_rs_sums(p, N, S, node_of, local_of, qof, displ, c, slice,
                                               part);
                    CHECK(slice[0] == 0 && slice[S] == displ[p], "slices cover the vector");
                    CHECK(part[0] == 0 && part[N] == slice[c + 1] - slice[c], "parts fill slice");
                    for (int j = 0; j < N; ++j) {
                        size_t n = 0;
                        for (int r = 0; r < p; ++r) {
                            if (node_of[r] == j && local_of[r] % S == c) {
                                n += displ[r + 1] - displ[r];
                            }
                        }
                        CHECK(part[j + 1] - part[j] == n, "part of node %d", j);
                    }
                    for (int r = 0; r < p; ++r) {
                        if (local_of[r] % S == c) {
                            want += displ[r + 1] - displ[r];
                        }
                    }
                    CHECK(slice[c + 1] - slice[c] == want, "slice %d", c);
                }
            }
            /* the node step's slices on each node of this structure */
            for (int j = 0; j < N; ++j) {
                static const size_t counts[] = { 0, 1, 2, 5, 17, 1000 };
                for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); ++i) {
                    size_t even[MAXL + 1];
                    mca_coll_rsag_hier_slices(counts[i], S, count[j], sl);
                    mca_coll_rsag_displs_even(counts[i], S, even);
                    for (int l = 0; l <= count[j]; ++l) {
                        CHECK(sl[l] == (l <= S ? even[l] : counts[i]), "slice bound %d", l);
                    }
                }
            }
        }
    }
}

/* The pipeline's chunk count: ceil(bytes / chunk), at most count / S and
 * MAX_CHUNKS, 1 when not cut; the same on every node size. */
static void test_hier_chunks(void)
{
    const size_t K = MCA_COLL_RSAG_HIER_DEFAULT_CHUNK;

    CHECK(K == 262144, "default chunk");
    CHECK(mca_coll_rsag_hier_chunks(1 << 21, 8, K, 2) == 64, "16 MiB: 64 chunks");
    CHECK(mca_coll_rsag_hier_chunks((1 << 21) + 1, 8, K, 3) == 65, "16 MiB + 8: 65");
    CHECK(mca_coll_rsag_hier_chunks((size_t) 1 << 27, 8, K, 2) == MCA_COLL_RSAG_HIER_MAX_CHUNKS,
          "1 GiB: at most MAX_CHUNKS");
    CHECK(mca_coll_rsag_hier_chunks(8, 8, 8, 4) == 2, "8 elements on nodes of 4: 2 chunks");
    CHECK(mca_coll_rsag_hier_chunks(3, 8, 8, 4) == 1, "fewer elements than S: not cut");
    CHECK(mca_coll_rsag_hier_chunks(1 << 21, 8, 0, 2) == 1, "chunk 0: not cut");
    CHECK(mca_coll_rsag_hier_chunks(1000, 8, K, 2) == 1, "a call below a chunk: not cut");
    CHECK(mca_coll_rsag_hier_chunks(1 << 21, 8, K, 0) == 1, "S unknown: not cut");
}

/* The circulant pattern for p ranks: the skips, and a simulation of both
 * phases.  Reduce-scatter: each partial sum is a multiset of contributors,
 * kept as (count, sum of 64-bit random weights), so "every contributor
 * exactly once" is count == p and sum == the sum of all weights (a wrong
 * multiset that matches both is a 2^-64 accident); a partial sent away is
 * dropped (count 0), so a rank that later read it again would come up
 * short.  Allgather: who has which block, each received once.  Failures
 * are counted locally and CHECKed once per p (millions of steps). */
static uint64_t circ_weight(uint64_t c)
{
    uint64_t z = c * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static bool same_vrange(mca_coll_rsag_vrange_t a, mca_coll_rsag_vrange_t b)
{
    return a.lo == b.lo && a.n == b.n;
}

static void test_circulant(int p, uint32_t *cnt, uint64_t *sum, unsigned char *have)
{
    int skip[MCA_COLL_RSAG_MAX_STEPS + 1], q = mca_coll_rsag_circulant_skips(p, skip);
    int lg = 0, bad = 0, sent_bad = 0, ag_bad = 0;
    uint64_t total = 0;

    while ((1 << lg) < p) {
        ++lg;
    }
    CHECK(q == lg, "p=%d: %d rounds, ceil(log2 p) = %d", p, q, lg);
    CHECK(skip[0] == 1 && skip[q] == p, "p=%d: skips from 1 to p", p);
    for (int k = 0; k < q; ++k) {
        CHECK(skip[k] == (skip[k + 1] + 1) / 2 && skip[k] < skip[k + 1], "p=%d k=%d", p, k);
    }
    for (int r = 0; r < p; ++r) {
        uint64_t w = circ_weight((uint64_t) r);
        total += w;
        for (int b = 0; b < p; ++b) {
            cnt[(size_t) r * p + b] = 1;
            sum[(size_t) r * p + b] = w;
        }
        memset(have + (size_t) r * p, 0, (size_t) p);
        have[(size_t) r * p + r] = 1;
    }
    /* reduce-scatter: rounds q-1 .. 0 */
    for (int k = q - 1; k >= 0; --k) {
        for (int r = 0; r < p; ++r) {
            mca_coll_rsag_circulant_round_t c = mca_coll_rsag_circulant_round(r, p, skip, k);
            mca_coll_rsag_circulant_round_t d = mca_coll_rsag_circulant_round(c.down, p, skip, k);
            int n = skip[k + 1] - skip[k];

            bad += !(c.near.lo == r && c.near.n == n && c.far.n == n && n >= 1 && n <= skip[k]);
            bad += !(c.far.lo == (r + skip[k]) % p && c.up == c.far.lo);
            bad += !(d.up == r && same_vrange(d.far, c.near));   /* one message */
            for (int j = 0, b = c.near.lo; j < n; ++j, b = (b + 1 == p) ? 0 : b + 1) {
                size_t from = (size_t) c.down * p + b, to = (size_t) r * p + b;
                bad += 0 == cnt[from];
                cnt[to] += cnt[from];
                sum[to] += sum[from];
            }
        }
        for (int r = 0; r < p; ++r) {     /* what was sent is gone */
            mca_coll_rsag_circulant_round_t c = mca_coll_rsag_circulant_round(r, p, skip, k);
            for (int j = 0, b = c.far.lo; j < c.far.n; ++j, b = (b + 1 == p) ? 0 : b + 1) {
                cnt[(size_t) r * p + b] = 0;
            }
        }
    }
    for (int r = 0; r < p; ++r) {
        int kept = 0;
        for (int b = 0; b < p; ++b) {
            kept += cnt[(size_t) r * p + b] != 0;
        }
        bad += !(cnt[(size_t) r * p + r] == (uint32_t) p && sum[(size_t) r * p + r] == total);
        bad += kept != 1;       /* sent p - 1 blocks: only its own is left */
    }
    /* allgather: rounds 0 .. q-1 */
    for (int k = 0; k < q; ++k) {
        for (int r = 0; r < p; ++r) {
            mca_coll_rsag_circulant_round_t c = mca_coll_rsag_circulant_round(r, p, skip, k);
            mca_coll_rsag_circulant_round_t d = mca_coll_rsag_circulant_round(c.down, p, skip, k);

            ag_bad += !same_vrange(d.far, c.near);  /* down receives r's near blocks */
            for (int j = 0, b = c.near.lo; j < c.near.n; ++j, b = (b + 1 == p) ? 0 : b + 1) {
                unsigned char h = have[(size_t) r * p + b];
                /* r has it from before this round (own: 1; arrived in
                 * round j: j + 2); down has not had it */
                ag_bad += 0 == h || h > k + 1 || have[(size_t) c.down * p + b];
                have[(size_t) c.down * p + b] = (unsigned char) (k + 2);
            }
        }
    }
    for (size_t i = 0; i < (size_t) p * p; ++i) {
        ag_bad += !have[i];
    }
    /* p - 1 blocks sent and received per phase */
    for (int r = 0; r < p; ++r) {
        int n = 0;
        for (int k = 0; k < q; ++k) {
            n += mca_coll_rsag_circulant_round(r, p, skip, k).near.n;
        }
        sent_bad += n != p - 1;
    }
    CHECK(0 == bad, "p=%d: reduce-scatter, %d wrong", p, bad);
    CHECK(0 == ag_bad, "p=%d: allgather, %d wrong", p, ag_bad);
    CHECK(0 == sent_bad, "p=%d: %d ranks do not send p - 1 blocks", p, sent_bad);
}

/* A run of blocks as pieces: the run's elements in order, none empty, at
 * most one cut (at the wrap). */
static void test_block_run(int p, const size_t *displ)
{
    int bad = 0;

    for (int lo = 0; lo < p; ++lo) {
        for (int n = 0; n <= p; ++n) {
            mca_coll_rsag_range_t piece[2];
            mca_coll_rsag_vrange_t run = { lo, n };
            int np = mca_coll_rsag_block_run(displ, p, run, piece), i = 0;
            size_t off = 0, left = 0;

            bad += np < 0 || np > 2;
            for (int j = 0; j < n && np >= 0 && np <= 2; ++j) {
                int b = (lo + j) % p;
                for (size_t e = displ[b]; e < displ[b + 1]; ++e) {
                    if (0 == left) {
                        if (i >= np || 0 == piece[i].cnt) {
                            ++bad;
                            break;
                        }
                        off = piece[i].off;
                        left = piece[i++].cnt;
                    }
                    bad += off++ != e;
                    --left;
                }
            }
            bad += left != 0 || (np >= 0 && np <= 2 && i != np);
        }
    }
    CHECK(0 == bad, "p=%d: %d wrong pieces", p, bad);
}

/* A piece cut into even messages of at most `chunk` elements: they
 * follow one another from 0 to cnt, none empty, none longer than chunk,
 * as few as that allows, lengths within one of each other. */
static void test_even_chunks(void)
{
    static const size_t chunks[] = { 1, 2, 3, 7, 8, 64, 1000, SIZE_MAX };
    int bad = 0;

    for (size_t cnt = 0; cnt <= 200; ++cnt) {
        for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); ++c) {
            size_t m = mca_coll_rsag_even_chunks(cnt, chunks[c]), next = 0, lo = SIZE_MAX, hi = 0;

            bad += m != (cnt + chunks[c] - 1 < cnt ? 1 : (cnt + chunks[c] - 1) / chunks[c]);
            for (size_t j = 0; j < m; ++j) {
                size_t len, at = mca_coll_rsag_even_chunk(cnt, m, j, &len);

                bad += at != next || 0 == len || len > chunks[c];
                next = at + len;
                lo = len < lo ? len : lo;
                hi = len > hi ? len : hi;
            }
            bad += next != cnt || (m > 0 && hi - lo > 1);
            /* a message's cut: the same, but one (empty) for cnt 0 */
            bad += mca_coll_rsag_even_messages(cnt, chunks[c]) != (0 == cnt ? 1 : m);
        }
    }
    {   /* near the top of size_t: no overflow in the offsets */
        size_t big = SIZE_MAX - 5, len, m = mca_coll_rsag_even_chunks(big, SIZE_MAX / 3);
        size_t at = mca_coll_rsag_even_chunk(big, m, m - 1, &len);

        bad += 3 != m || at + len != big;
    }
    CHECK(0 == bad, "%d wrong message cuts", bad);
}

/* Every p up to CIRC_ALL, then a spread up to CIRC_MAXP (the simulation
 * costs p^2 steps: every p to 1000 would take seconds). */
static void test_circulant_all(void)
{
    enum { CIRC_ALL = 512, CIRC_MAXP = 1025 };
    uint32_t *cnt = malloc(sizeof(uint32_t) * CIRC_MAXP * CIRC_MAXP);
    uint64_t *sum = malloc(sizeof(uint64_t) * CIRC_MAXP * CIRC_MAXP);
    unsigned char *have = malloc((size_t) CIRC_MAXP * CIRC_MAXP);
    static size_t displ[41];

    CHECK(cnt && sum && have, "memory");
    for (int p = 1; p <= CIRC_MAXP && cnt && sum && have; ++p) {
        if (p <= CIRC_ALL || p % 29 == 0 || p >= 1020 || (p >= 767 && p <= 769)) {
            test_circulant(p, cnt, sum, have);
        }
    }
    free(cnt);
    free(sum);
    free(have);
    for (int p = 1; p <= 40; ++p) {
        size_t counts[] = { 0, 1, 3, (size_t) p - 1, (size_t) p, 2 * (size_t) p + 1 };
        for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); ++i) {
            mca_coll_rsag_displs_even(counts[i], p, displ);
            test_block_run(p, displ);
        }
        displ[0] = 0;       /* uneven, zeros among them (MPI_Reduce_scatter) */
        for (int r = 0; r < p; ++r) {
            displ[r + 1] = displ[r] + ((r % 3 == 1) ? 0 : (size_t) (r * 7) % 11);
        }
        test_block_run(p, displ);
    }
}

int main(void)
{
    static const size_t counts[] = { 0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64,
                                     65, 100, 127, 128, 129, 255, 256, 1000, 4099 };

    test_pof2();
    test_fold();
    test_split();
    for (int pof2 = 1; pof2 <= MAXP; pof2 *= 2) {
        for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); ++i) {
            test_halving(counts[i], pof2);
            test_gather(counts[i], pof2);
        }
    }
    test_binomial();
    test_tree();
    test_layouts();
    test_vhalving();
    test_vpattern();
    test_priority_order();
    test_ring_segcount();
    test_hier_layouts();
    test_hier_chunks();
    test_circulant_all();
    test_even_chunks();
    for (int p = 1; p <= 33; ++p) {
        static const size_t segs[] = { 1, 2, 3, 7, 64 };
        int irregular[33];
        for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); ++i) {
            for (size_t k = 0; k < sizeof(segs) / sizeof(segs[0]); ++k) {
                if (counts[i] <= 1000 || k >= 3) {
                    test_ring(counts[i], p, segs[k], NULL);
                }
            }
        }
        /* irregular blocks with zeros (MPI_Reduce_scatter) */
        for (int r = 0; r < p; ++r) {
            irregular[r] = (r % 3 == 1) ? 0 : (r * 7) % 11;
        }
        test_ring(0, p, 2, irregular);
        test_ring(0, p, 5, irregular);
    }
    test_ring(100000, 64, 4099, NULL);
    return unit_report("test_index");
}
