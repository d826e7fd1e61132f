/*
 * Unit tests of coll_rsag_index.c: exhaustive over small communicators and
 * a spread of counts, by simulating the data movement the algorithms do.
 */
#include <stdbool.h>
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
    int nsteps = 0, lg = mca_coll_rsag_log2_floor(pof2);
    unsigned char *owner = calloc(count + 1, 1);

    for (int v = 0; v < pof2; ++v) {
        nsteps = mca_coll_rsag_halving_schedule(v, pof2, count, steps[v]);
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
        mca_coll_rsag_range_t block = mca_coll_rsag_halving_block(v, pof2, count);
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
    free(owner);
}

/* The binomial gather that reverses the halving brings every element to
 * vroot; every sender holds its whole window when it sends. */
static void test_gather(size_t count, int pof2)
{
    static mca_coll_rsag_halving_step_t steps[MAXP][MCA_COLL_RSAG_MAX_STEPS];
    static unsigned char have[MAXP][256];
    bool active[MAXP];
    int nsteps = 0;

    if (count > 256) {
        return;
    }
    for (int vroot = 0; vroot < pof2; ++vroot) {
        for (int v = 0; v < pof2; ++v) {
            mca_coll_rsag_range_t b;
            nsteps = mca_coll_rsag_halving_schedule(v, pof2, count, steps[v]);
            b = mca_coll_rsag_halving_block(v, pof2, count);
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
    return unit_report("test_index");
}
