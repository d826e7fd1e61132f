/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Unit tests of the cost model (contrib/model/coll_rsag_model.[ch]): a formula for every
 * table row, the closed forms of the algorithms' headers at small p on a
 * plain alpha-beta-gamma profile, monotonicity in bytes, the known
 * crossovers, the intra/inter-node split, hierarchical (and its pipeline),
 * leaders, the shaper burst
 * and pipelined rendezvous, profiles and thresholds.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_rsag_index.h"
#include "coll_rsag_model.h"
#include "unit.h"

#define AR MCA_COLL_RSAG_ALLREDUCE
#define RD MCA_COLL_RSAG_REDUCE
#define RSB MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK

static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(b) + 1e-15;
}

/* alpha 1 us, beta 1 ns/B, gamma 0.5 ns/B on both links; no eager limit
 * effects, no cache, no overlap: the textbook model. */
static void plain(mca_coll_rsag_model_profile_t *pr, double a, double b, double g)
{
    mca_coll_rsag_model_profile_default(pr);
    mca_coll_rsag_model_link_t l = { .alpha = a, .beta = b, .beta_cache = b, .beta_eager = b,
                                     .rndv = 0, .o = a, .overlap = 0, .eager = 0 };
    pr->shm = l;
    pr->net = l;
    pr->gamma = pr->gamma_cache = g;
    pr->cache_bytes = 0;
    pr->node_bw = pr->fabric_bw = 0;
    pr->nic_share = 0;
}

/* The time of a call with the default knobs but whole exchanges across
 * nodes: the closed forms below are of whole messages (test_exchange_chunk
 * checks the cut ones). */
static double T(mca_coll_rsag_coll_t coll, const char *alg, int p, int ppn, size_t n,
                const mca_coll_rsag_model_profile_t *pr)
{
    mca_coll_rsag_model_call_t c;
    mca_coll_rsag_model_call_init(&c, p, ppn, n);
    c.knobs.exchange_chunk = 0;
    return mca_coll_rsag_model_time(coll, alg, &c, pr);
}

static void test_every_row(void)
{
    for (int coll = 0; coll < MCA_COLL_RSAG_NUM_COLLS; coll++) {
        const mca_coll_rsag_coll_desc_t *cd = &mca_coll_rsag_colls[coll];
        for (int i = 0; i < cd->nalgs; i++)
            CHECK(mca_coll_rsag_model_has(coll, cd->algs[i].name),
                  "%s %s has no formula in coll_rsag_model.c", cd->name, cd->algs[i].name);
        CHECK(mca_coll_rsag_model_has(coll, "hierarchical"), "%s hierarchical", cd->name);
        CHECK(!mca_coll_rsag_model_has(coll, "no_such_algorithm"), "%s unknown", cd->name);
    }
    mca_coll_rsag_model_profile_t pr;
    mca_coll_rsag_model_profile_default(&pr);
    CHECK(T(AR, "no_such_algorithm", 4, 4, 1024, &pr) == MCA_COLL_RSAG_MODEL_NA, "unknown NA");
    CHECK(T(AR, "recursive_doubling", 1, 1, 1024, &pr) == 0.0, "p = 1 costs nothing");
}

static void test_closed_forms(void)
{
    const double a = 1e-6, b = 1e-9, g = 0.5e-9;
    mca_coll_rsag_model_profile_t pr;
    plain(&pr, a, b, g);
    double n = 1 << 20;
    size_t N = 1 << 20;
    /* recursive doubling: log2 p (alpha + n beta + n gamma) */
    CHECK(close_to(T(AR, "recursive_doubling", 2, 2, N, &pr), a + n * b + n * g), "rd p2");
    CHECK(close_to(T(AR, "recursive_doubling", 4, 4, N, &pr), 2 * (a + n * b + n * g)), "rd p4");
    /* p = 3: (1 + 2) alpha + 3 n beta + 2 n gamma */
    CHECK(close_to(T(AR, "recursive_doubling", 3, 3, N, &pr), 3 * a + 3 * n * b + 2 * n * g),
          "rd p3 %g", T(AR, "recursive_doubling", 3, 3, N, &pr));
    /* Rabenseifner: 2 log2 p alpha + 2 (p-1)/p n beta + (p-1)/p n gamma */
    CHECK(close_to(T(AR, "rabenseifner", 4, 4, N, &pr), 4 * a + 1.5 * n * b + 0.75 * n * g),
          "rab p4");
    CHECK(close_to(T(AR, "rabenseifner", 8, 8, N, &pr), 6 * a + 1.75 * n * b + 0.875 * n * g),
          "rab p8");
    /* p = 3 adds 3 alpha + 2 n beta + n/2 gamma to p' = 2 */
    CHECK(close_to(T(AR, "rabenseifner", 3, 3, N, &pr),
                   (2 * a + n * b + 0.5 * n * g) + (3 * a + 2 * n * b + 0.5 * n * g)), "rab p3");
    /* ring, whole blocks: 2 (p-1) alpha + 2 (p-1)/p n beta + (p-1)/p n gamma */
    mca_coll_rsag_model_call_t c;
    mca_coll_rsag_model_call_init(&c, 4, 4, N);
    c.knobs.ring_segment = 0;
    CHECK(close_to(mca_coll_rsag_model_time(AR, "ring", &c, &pr),
                   6 * a + 1.5 * n * b + 0.75 * n * g), "ring p4");
    CHECK(close_to(mca_coll_rsag_model_time(RSB, "ring", &c, &pr),
                   3 * a + 0.75 * n * b + 0.75 * n * g), "rs ring p4");
    /* recursive halving: log2 p alpha + (p-1)/p n (beta + gamma) */
    CHECK(close_to(T(RSB, "recursive_halving", 4, 4, N, &pr), 2 * a + 0.75 * n * (b + g)),
          "halving p4");
    CHECK(close_to(T(MCA_COLL_RSAG_REDUCE_SCATTER, "recursive_halving", 8, 8, N, &pr),
                   3 * a + 0.875 * n * (b + g)), "halving p8, reduce_scatter");
    /* priority, one block per message, no overlap: halving's bytes with
     * p-1 messages; a further message costs o (= alpha here) */
    CHECK(close_to(T(RSB, "priority_aware", 4, 4, N, &pr), 3 * a + 0.75 * n * (b + g)), "prio p4 %g",
          T(RSB, "priority_aware", 4, 4, N, &pr));
    /* circulant: ceil(log2 p) alpha + (p-1)/p n (beta + gamma), and a
     * further message (o = alpha here) in each round of >= 2 blocks, whose
     * run wraps on some rank: p = 8 rounds of 1, 2, 4 blocks, p = 5 of
     * 1, 1, 2; the allreduce adds the mirror allgather */
    CHECK(close_to(T(RSB, "circulant", 8, 8, N, &pr), 5 * a + 0.875 * n * (b + g)), "circ p8 %g",
          T(RSB, "circulant", 8, 8, N, &pr));
    CHECK(close_to(T(MCA_COLL_RSAG_REDUCE_SCATTER, "circulant", 5, 5, N, &pr),
                   4 * a + 0.8 * n * (b + g)), "circ p5, reduce_scatter");
    CHECK(close_to(T(AR, "circulant", 5, 5, N, &pr), 8 * a + 0.8 * n * (2 * b + g)),
          "circ allreduce p5");
    /* binomial: ceil(log2 p) (alpha + n beta + n gamma) */
    CHECK(close_to(T(RD, "binomial", 4, 4, N, &pr), 2 * (a + n * b + n * g)), "binomial p4");
    CHECK(close_to(T(RD, "binomial", 3, 3, N, &pr), 2 * (a + n * b + n * g)), "binomial p3");
    CHECK(close_to(T(RD, "binomial", 5, 5, N, &pr), 3 * (a + n * b + n * g)), "binomial p5");
    /* Rabenseifner reduce: the root reduces 3/4 n, not 2 n */
    CHECK(close_to(T(RD, "rabenseifner", 4, 4, N, &pr), 4 * a + 1.5 * n * b + 0.75 * n * g),
          "rab reduce p4");
    /* an odd root folded away adds alpha + n/p' beta */
    mca_coll_rsag_model_call_init(&c, 3, 3, N);
    c.knobs.root = 1;
    CHECK(close_to(mca_coll_rsag_model_time(RD, "rabenseifner", &c, &pr),
                   T(RD, "rabenseifner", 3, 3, N, &pr) + a + n / 2 * b), "odd folded root");
    /* count < p': Rabenseifner cannot run */
    CHECK(T(AR, "rabenseifner", 8, 8, 32, &pr) == MCA_COLL_RSAG_MODEL_NA, "count < p'");
    CHECK(T(AR, "rabenseifner", 8, 8, 64, &pr) != MCA_COLL_RSAG_MODEL_NA, "count = p'");
    /* two processes per core: shared-memory copies and reductions take twice as long */
    pr.cpu_share = 2;
    CHECK(close_to(T(RSB, "recursive_halving", 4, 4, N, &pr), 2 * a + 0.75 * n * 2 * (b + g)),
          "cpu_share 2");
    pr.cpu_share = 1;
    /* direct: one node only */
    CHECK(T(AR, "direct", 4, 2, N, &pr) == MCA_COLL_RSAG_MODEL_NA, "direct off one node");
    CHECK(T(AR, "direct", 4, 4, N, &pr) < HUGE_VAL, "direct on one node");
}

static void test_monotone(void)
{
    mca_coll_rsag_model_profile_t pr;
    mca_coll_rsag_model_profile_default(&pr);
    static const int ps[][2] = { { 2, 2 }, { 3, 3 }, { 4, 4 }, { 5, 5 }, { 8, 2 }, { 12, 4 },
                                 { 64, 16 }, { 1024, 32 }, { 65536, 128 } };
    for (int coll = 0; coll < MCA_COLL_RSAG_NUM_COLLS; coll++) {
        const mca_coll_rsag_coll_desc_t *cd = &mca_coll_rsag_colls[coll];
        for (int i = 0; i < cd->nalgs; i++) {
            const char *alg = cd->algs[i].name;
            int hier = !strcmp(alg, "hierarchical");
            for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
                double prev = 0;
                for (size_t n = 8; n <= ((size_t) 1 << 30); n *= 2) {
                    /* hierarchical with a fixed inter-node algorithm: the
                     * best one may switch where a faster one becomes
                     * applicable (count >= p') */
                    mca_coll_rsag_model_call_t c;
                    mca_coll_rsag_model_call_init(&c, ps[k][0], ps[k][1], n);
                    double t = hier
                        ? mca_coll_rsag_model_hierarchical(coll, "direct", cd->algs[0].name, &c, &pr)
                        : mca_coll_rsag_model_time(coll, alg, &c, &pr);
                    if (t == MCA_COLL_RSAG_MODEL_NA) continue;
                    /* direct switches from the whole-vector path (every
                     * rank reduces all n) to the split one above
                     * max(64 KB / p, 4 KB), as the component does: the
                     * model may find the first split size cheaper */
                    double wmax = 65536.0 / ps[k][0] > 4096 ? 65536.0 / ps[k][0] : 4096;
                    double tol = (!strcmp(alg, "direct") && n > wmax && n / 2 <= wmax) ? 0.25 : 1e-12;
                    CHECK(t > 0 && t >= prev * (1 - tol), "%s %s p %d ppn %d: t(%zu) = %g < %g",
                          cd->name, alg, ps[k][0], ps[k][1], n, t, prev);
                    prev = t;
                }
            }
        }
    }
}

static void test_crossovers(void)
{
    mca_coll_rsag_model_profile_t pr;
    mca_coll_rsag_model_profile_default(&pr);
    /* recursive doubling wins small vectors, Rabenseifner large ones */
    for (int p = 4; p <= 1024; p *= 4) {
        CHECK(T(AR, "recursive_doubling", p, 1, 64, &pr) < T(AR, "rabenseifner", p, 1, 64, &pr),
              "rd < rab at 64 B, p %d", p);
        CHECK(T(AR, "recursive_doubling", p, 1, 16 << 20, &pr)
                  > T(AR, "rabenseifner", p, 1, 16 << 20, &pr), "rd > rab at 16 MB, p %d", p);
    }
    /* reduce on one node: Rabenseifner beats binomial from 64 KB at p = 4
     * (the root reduces 3/4 n instead of 2 n), from 1 MB at p = 3 */
    for (int p = 3; p <= 4; p++)
        for (size_t n = p == 4 ? 65536 : 1u << 20; n <= (64u << 20); n *= 4)
            CHECK(T(RD, "rabenseifner", p, p, n, &pr) < T(RD, "binomial", p, p, n, &pr),
                  "reduce p %d %zu B", p, n);
    /* the ring's p-1 latencies lose to halving at small n, large p */
    CHECK(T(RSB, "ring", 64, 1, 4096, &pr) > T(RSB, "recursive_halving", 64, 1, 4096, &pr),
          "ring loses small");
    /* the best algorithm is one of the table's */
    mca_coll_rsag_model_call_t c;
    mca_coll_rsag_model_call_init(&c, 4, 4, 8);
    double t;
    int id = mca_coll_rsag_model_best(AR, &c, &pr, &t);
    CHECK(id >= 1 && id <= mca_coll_rsag_colls[AR].nalgs && t > 0, "best %d", id);
}

static void test_split(void)
{
    const double a = 1e-6, b = 1e-9, g = 0.5e-9;
    mca_coll_rsag_model_profile_t pr;
    plain(&pr, a, b, g);
    pr.net.alpha = 10 * a;
    pr.net.beta = pr.net.beta_cache = pr.net.beta_eager = 10 * b;
    double n = 1 << 20;
    size_t N = 1 << 20;
    /* p 4, 2 per node: distance 1 on shared memory, distance 2 on the net */
    CHECK(close_to(T(AR, "recursive_doubling", 4, 2, N, &pr),
                   (a + n * b + n * g) + (10 * a + 10 * n * b + n * g)), "rd split");
    CHECK(close_to(T(AR, "recursive_doubling", 4, 1, N, &pr), 2 * (10 * a + 10 * n * b + n * g)),
          "rd all net");
    /* Rabenseifner keeps the big halves on the node, priority sends them out */
    CHECK(T(AR, "rabenseifner", 8, 4, N, &pr) < T(AR, "priority_aware", 8, 4, N, &pr),
          "rab < prio across nodes");
    /* ppn 3 (not a power of two): pairs at distance 1 cross the node edge */
    CHECK(T(AR, "recursive_doubling", 6, 3, N, &pr) > T(AR, "recursive_doubling", 6, 6, N, &pr),
          "ppn 3 crosses");
    /* the node's link is shared by the ranks crossing at once */
    pr.nic_share = 1;
    CHECK(close_to(T(AR, "recursive_doubling", 4, 2, N, &pr),
                   (a + n * b + n * g) + (10 * a + 20 * n * b + n * g)), "nic shared");
    /* binomial: one sender per node in a step across nodes, not ppn */
    CHECK(close_to(T(RD, "binomial", 8, 4, N, &pr),
                   2 * (a + n * b + n * g) + (10 * a + 10 * n * b + n * g)), "binomial one stream");
    /* a fabric limit slows a step with many flows */
    double before = T(AR, "recursive_doubling", 16, 1, N, &pr);
    pr.fabric_bw = 1e9; /* 16 flows of 1/(10 b) = 100 MB/s need 1.6 GB/s */
    CHECK(T(AR, "recursive_doubling", 16, 1, N, &pr) > before, "fabric limit");
}

static void test_hierarchical(void)
{
    mca_coll_rsag_model_profile_t pr;
    mca_coll_rsag_model_profile_default(&pr);
    CHECK(T(AR, "hierarchical", 8, 8, 1 << 20, &pr) == MCA_COLL_RSAG_MODEL_NA, "one node: NA");
    CHECK(T(AR, "hierarchical", 8, 1, 1 << 20, &pr) == MCA_COLL_RSAG_MODEL_NA, "ppn 1: NA");
    mca_coll_rsag_model_call_t c;
    mca_coll_rsag_model_call_init(&c, 16, 8, 64 << 20);
    double h = mca_coll_rsag_model_hierarchical(AR, "direct", "rabenseifner", &c, &pr);
    double h2 = mca_coll_rsag_model_hierarchical(AR, "recursive_halving", "ring", &c, &pr);
    double best = mca_coll_rsag_model_time(AR, "hierarchical", &c, &pr);
    CHECK(h > 0 && h2 > 0 && best <= h && best <= h2, "hierarchical best %g %g %g", best, h, h2);
    /* 2 nodes x 8, 64 MB on 1 Gbit/s: the network carries n/8 per rank
     * instead of n: hierarchical beats every flat algorithm */
    const mca_coll_rsag_coll_desc_t *cd = &mca_coll_rsag_colls[AR];
    for (int i = 0; i < cd->nalgs; i++) {
        if (!strcmp(cd->algs[i].name, "hierarchical")) continue;
        double t = mca_coll_rsag_model_time(AR, cd->algs[i].name, &c, &pr);
        CHECK(best < t, "hierarchical %g < %s %g", best, cd->algs[i].name, t);
    }
    for (int coll = 0; coll < MCA_COLL_RSAG_NUM_COLLS; coll++)
        CHECK(mca_coll_rsag_model_time(coll, "hierarchical", &c, &pr) < HUGE_VAL, "coll %d", coll);
    CHECK(mca_coll_rsag_model_hierarchical(AR, "direct", "no_such", &c, &pr)
              == MCA_COLL_RSAG_MODEL_NA, "unknown inter");
}

/* hierarchical's pipeline (knobs.hier_chunk, mca_coll_rsag_hier_pipeline):
 * the chunk count, the closed form on the textbook profile, bounds, and
 * what the installed profile predicts at 16 MB on 2 nodes x 4 ranks. */
static double H(mca_coll_rsag_coll_t coll, const char *intra, const char *inter, int p, int ppn,
                size_t n, size_t chunk, const mca_coll_rsag_model_profile_t *pr)
{
    mca_coll_rsag_model_call_t c;
    mca_coll_rsag_model_call_init(&c, p, ppn, n);
    c.knobs.hier_chunk = chunk;
    c.knobs.exchange_chunk = 0;     /* whole exchanges, as T() */
    return mca_coll_rsag_model_hierarchical(coll, intra, inter, &c, pr);
}

static void test_hier_pipeline(void)
{
    const double a = 1e-6, b = 1e-9, g = 0.5e-9;
    mca_coll_rsag_model_profile_t pr, pz;
    mca_coll_rsag_model_call_t c;

    /* the chunk count: ceil(bytes / chunk), at most count / ppn and 256 */
    mca_coll_rsag_model_call_init(&c, 8, 4, 16 << 20);
    CHECK(c.knobs.hier_chunk == MCA_COLL_RSAG_HIER_DEFAULT_CHUNK && c.knobs.hier_chunk == 262144,
          "default chunk %zu", c.knobs.hier_chunk);
    CHECK(mca_coll_rsag_model_hier_chunks(&c) == 64, "16 MB: 64 chunks");
    c.bytes = (16 << 20) + 8;
    CHECK(mca_coll_rsag_model_hier_chunks(&c) == 65, "16 MB + 8: 65 chunks");
    c.bytes = (size_t) 1 << 30;
    CHECK(mca_coll_rsag_model_hier_chunks(&c) == 256, "1 GB: 256 chunks at most");
    c.bytes = 64;
    c.knobs.hier_chunk = 8;
    CHECK(mca_coll_rsag_model_hier_chunks(&c) == 2, "8 elements, 4 per node: 2 chunks");
    c.knobs.hier_chunk = 0;
    c.bytes = 16 << 20;
    CHECK(mca_coll_rsag_model_hier_chunks(&c) == 1, "chunk 0: not cut");
    c.knobs.hier_chunk = 32 << 20;
    CHECK(mca_coll_rsag_model_hier_chunks(&c) == 1, "chunk above the call: not cut");

    /* textbook profile, 2 nodes x 4, halving in the node, Rabenseifner
     * across (2 ranks): per chunk of m bytes
     *   t1 = 2a + 3/4 m (b + g), t2 = 2a + m/4 b + m/8 g (g2 = m/8 g),
     *   t3 = 2a + 3/4 m b (recursive doubling of the slices);
     * the node side t1 + t3 + g2 exceeds t2, so
     *   T = t1 + t2 + t3 + (C - 1) (t1 + t3 + g2) */
    plain(&pr, a, b, g);
    const size_t n = 1 << 20;
    double whole = 6 * a + n * (1.75 * b + 0.875 * g);
    double t0 = H(AR, "recursive_halving", "rabenseifner", 8, 4, n, 0, &pr);
    CHECK(close_to(t0, whole), "unpipelined closed form %g vs %g", t0, whole);
    CHECK(H(AR, "recursive_halving", "rabenseifner", 8, 4, n, n, &pr) == t0,
          "one chunk is the unpipelined call");
    double m = 65536, C = 16;
    double t1 = 2 * a + 0.75 * m * (b + g), t2 = 2 * a + m / 4 * b + m / 8 * g;
    double t3 = 2 * a + 0.75 * m * b;
    double want = t1 + t2 + t3 + (C - 1) * (t1 + t3 + m / 8 * g);
    double tp = H(AR, "recursive_halving", "rabenseifner", 8, 4, n, 65536, &pr);
    CHECK(close_to(tp, want), "16 chunks: closed form %g vs %g", tp, want);
    CHECK(tp < t0, "16 chunks faster than none on the textbook profile: %g vs %g", tp, t0);

    /* bounds, every collective, several shapes and chunk sizes:
     *   T >= C T1 / 3 (T1: one chunk alone, its phases at best in parallel),
     *   T <= T0 + C A (T0 unpipelined; A: one chunk's latency terms, the
     *   unpipelined time of a chunk with beta = gamma = 0) */
    plain(&pz, a, 0, 0);
    static const int shapes[][2] = { { 8, 4 }, { 16, 4 }, { 64, 8 }, { 32, 2 } };
    static const size_t chunks[] = { 4096, 65536, 262144 };
    static const char *inters[] = { "recursive_halving", "ring", "rabenseifner", "binomial" };
    mca_coll_rsag_coll_t colls[] = { AR, RD, RSB, MCA_COLL_RSAG_REDUCE_SCATTER };
    int checked = 0;
    for (size_t ci = 0; ci < sizeof colls / sizeof colls[0]; ci++)
        for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
            for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++)
                for (size_t ii = 0; ii < sizeof inters / sizeof inters[0]; ii++) {
                    int p = shapes[si][0], q = shapes[si][1];
                    size_t bytes = 4 << 20, ch = chunks[k];
                    double T = H(colls[ci], "recursive_halving", inters[ii], p, q, bytes, ch, &pr);
                    if (T == MCA_COLL_RSAG_MODEL_NA) continue;
                    mca_coll_rsag_model_call_init(&c, p, q, bytes);
                    c.knobs.hier_chunk = ch;
                    double nc = (double) mca_coll_rsag_model_hier_chunks(&c);
                    size_t cb = (bytes / 8 + (size_t) nc - 1) / (size_t) nc * 8;
                    double T0 = H(colls[ci], "recursive_halving", inters[ii], p, q, bytes, 0, &pr);
                    double T1 = H(colls[ci], "recursive_halving", inters[ii], p, q, cb, 0, &pr);
                    double A = H(colls[ci], "recursive_halving", inters[ii], p, q, cb, 0, &pz);
                    CHECK(T >= nc * T1 / 3 * (1 - 1e-12), "coll %d p %d ppn %d chunk %zu %s: %g < %g / 3",
                          (int) colls[ci], p, q, ch, inters[ii], T, nc * T1);
                    CHECK(T <= (T0 + nc * A) * (1 + 1e-12), "coll %d p %d ppn %d chunk %zu %s: %g > %g + %g",
                          (int) colls[ci], p, q, ch, inters[ii], T, T0, nc * A);
                    checked++;
                }
    CHECK(checked >= 96, "bounds checked on %d cases", checked);

    /* the installed profile (the emulated cluster, 1 Gbit/s) */
    FILE *f = fopen(RSAG_MODEL_PROFILE, "r");
    mca_coll_rsag_model_profile_default(&pr);
    CHECK(NULL != f && 0 == mca_coll_rsag_model_profile_read(f, &pr), "read %s", RSAG_MODEL_PROFILE);
    if (NULL != f) fclose(f);
    mca_coll_rsag_model_call_init(&c, 8, 4, 16 << 20);
    c.knobs.hier_chunk = 0;
    t0 = mca_coll_rsag_model_time(AR, "hierarchical", &c, &pr);
    c.knobs.hier_chunk = MCA_COLL_RSAG_HIER_DEFAULT_CHUNK;
    tp = mca_coll_rsag_model_time(AR, "hierarchical", &c, &pr);
    /* the link carries 16 MB each way, 130 ms at 1 Gbit/s: the node phases
     * the pipeline hides are 1-2 % of that, its chunks' own costs as much */
    CHECK(tp < 1.02 * t0, "16 MB, 2 x 4: the default chunk %g us, unpipelined %g us", tp * 1e6,
          t0 * 1e6);
    /* no chunking beats the node link: the allreduce of 2 nodes moves n
     * bytes each way over it; only the call's last message (at most the
     * shaper's burst) passes faster */
    double beta = pr.net.beta < pr.net.beta_cache ? pr.net.beta : pr.net.beta_cache;
    beta = pr.net.beta_eager < beta ? pr.net.beta_eager : beta;
    for (size_t ch = 4096; ch <= (4u << 20); ch *= 4) {
        c.knobs.hier_chunk = ch;
        tp = mca_coll_rsag_model_time(AR, "hierarchical", &c, &pr);
        CHECK(tp >= ((16 << 20) - (double) pr.net.burst) * beta,
              "chunk %zu: %g us below the link's %g us", ch, tp * 1e6,
              ((16 << 20) - (double) pr.net.burst) * beta * 1e6);
    }
}

/* leaders' release inside the node (coll_rsag_<coll>_leaders.c), on the
 * textbook profile, 2 nodes x 4: the leaders' step (the best flat algorithm
 * of 2 ranks) is Rabenseifner for the allreduce and the reduce
 * (2a + n b + n/2 g) and half a vector for the reduce-scatter
 * (a + n/2 (b + g)); the node reduce is the same for all three. */
static void test_leaders(void)
{
    const double a = 1e-6, b = 1e-9, g = 0.5e-9;
    mca_coll_rsag_model_profile_t pr;
    mca_coll_rsag_model_call_t c;
    const double n = 65536, q = 4;
    plain(&pr, a, b, g);
    mca_coll_rsag_model_call_init(&c, 8, 4, 65536);
    double rd = mca_coll_rsag_model_time(RD, "leaders", &c, &pr);
    double ar = mca_coll_rsag_model_time(AR, "leaders", &c, &pr);
    double rs = mca_coll_rsag_model_time(RSB, "leaders", &c, &pr);
    CHECK(rd > 0 && rd < HUGE_VAL, "leaders reduce %g", rd);
    /* allreduce: the binomial broadcast, log2 4 = 2 messages of n */
    CHECK(close_to(ar - rd, 2 * (a + n * b)), "allreduce release %g", ar - rd);
    /* reduce-scatter: own block copied, 3 blocks sent, o = a after the first */
    double blk = n / 8;
    CHECK(close_to(rs - rd, -a - n / 2 * b + blk * pr.memcpy_beta + a + blk * b
                   + (q - 2) * (a + blk * b)), "reduce-scatter release %g", rs - rd);
    /* reduce: a root that is not its node's leader gets one more message */
    c.knobs.root = 1;
    CHECK(close_to(mca_coll_rsag_model_time(RD, "leaders", &c, &pr) - rd, a + n * b),
          "root 1: one message more");
    c.knobs.root = 4;
    CHECK(close_to(mca_coll_rsag_model_time(RD, "leaders", &c, &pr), rd),
          "root 4, the second node's leader: as root 0");
    CHECK(mca_coll_rsag_model_time(AR, "leaders", &c, &pr) == ar, "the allreduce has no root");
}

/* No prediction is negative under the installed profile (its shaper burst
 * credit once exceeded what binomial's one-stream steps were charged:
 * MPI_Reduce on 8 ranks, 4 per node, 32 KB took -872 us). */
static void test_nonnegative(void)
{
    mca_coll_rsag_model_profile_t pr;
    FILE *f = fopen(RSAG_MODEL_PROFILE, "r");
    mca_coll_rsag_model_profile_default(&pr);
    CHECK(NULL != f && 0 == mca_coll_rsag_model_profile_read(f, &pr), "read %s", RSAG_MODEL_PROFILE);
    if (NULL != f) fclose(f);
    static const int shapes[][2] = { { 2, 1 }, { 4, 2 }, { 8, 4 }, { 16, 4 }, { 64, 8 }, { 256, 32 } };
    for (int coll = 0; coll < MCA_COLL_RSAG_NUM_COLLS; coll++) {
        const mca_coll_rsag_coll_desc_t *cd = &mca_coll_rsag_colls[coll];
        for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
            for (size_t n = 8; n <= (64u << 20); n *= 8)
                for (int i = 0; i < cd->nalgs; i++) {
                    double t = T(coll, cd->algs[i].name, shapes[si][0], shapes[si][1], n, &pr);
                    CHECK(t >= 0, "%s %s p %d ppn %d %zu B: %g us", cd->name, cd->algs[i].name,
                          shapes[si][0], shapes[si][1], n, t * 1e6);
                }
    }
}

/* An exchange with a rank on another node cut in messages of at most
 * coll_rsag_exchange_chunk_size (the default knob): each piece below the
 * eager limit, so no rendezvous and no exchange factor, an overhead o per
 * further piece; one-way steps and steps inside a node unchanged. */
static void test_exchange_chunk(void)
{
    const double a = 1e-6, b = 1e-9, g = 0.5e-9;
    mca_coll_rsag_model_profile_t pr;
    mca_coll_rsag_model_call_t c;
    plain(&pr, a, b, g);
    pr.net.eager = 65536;
    pr.net.beta_eager = 2e-9;
    pr.net.rndv = 50e-6;
    pr.net.o = 0.2e-6;
    pr.net_exchange = 2.0;
    double n = 1 << 20, pieces = ceil(n / MCA_COLL_RSAG_EXCHANGE_DEFAULT_CHUNK);
    mca_coll_rsag_model_call_init(&c, 2, 1, 1 << 20);
    CHECK(MCA_COLL_RSAG_EXCHANGE_DEFAULT_CHUNK == c.knobs.exchange_chunk, "the component's default");
    /* recursive doubling, 2 nodes: one exchange of 1 MB in 18 pieces */
    double t = mca_coll_rsag_model_time(AR, "recursive_doubling", &c, &pr);
    CHECK(close_to(t, a + (pieces - 1) * pr.net.o + n * pr.net.beta_eager + n * g),
          "rd cut: %g", t);
    CHECK(close_to(T(AR, "recursive_doubling", 2, 1, 1 << 20, &pr),
                   a + pr.net.rndv + 2 * n * b + n * g), "rd whole");
    /* a message within the chunk, a one-way step, a step on one node: as whole */
    mca_coll_rsag_model_call_init(&c, 2, 1, 32768);
    CHECK(close_to(mca_coll_rsag_model_time(AR, "recursive_doubling", &c, &pr),
                   T(AR, "recursive_doubling", 2, 1, 32768, &pr)), "within the chunk");
    mca_coll_rsag_model_call_init(&c, 2, 1, 1 << 20);
    CHECK(close_to(mca_coll_rsag_model_time(RD, "binomial", &c, &pr),
                   T(RD, "binomial", 2, 1, 1 << 20, &pr)), "one way");
    mca_coll_rsag_model_call_init(&c, 2, 2, 1 << 20);
    CHECK(close_to(mca_coll_rsag_model_time(AR, "recursive_doubling", &c, &pr),
                   T(AR, "recursive_doubling", 2, 2, 1 << 20, &pr)), "one node");
}

/* `ordered` sends p - 1 messages however small its blocks: each further one
 * pays the link's overhead o (an 8-byte reduce-scatter on 65 536 ranks is
 * not free), on top of the bytes. */
static void test_ordered_messages(void)
{
    mca_coll_rsag_model_profile_t pr;
    mca_coll_rsag_model_profile_default(&pr);
    double t = T(RSB, "ordered", 65536, 2, 8, &pr);
    CHECK(t >= 65534 * pr.net.o + pr.net.alpha, "65536 ranks, 8 B: %g s", t);
    t = T(RSB, "ordered", 8, 8, 8, &pr);
    CHECK(t >= 7 * pr.shm.o + pr.shm.alpha && t < 7 * pr.shm.o + pr.shm.alpha + 1e-6,
          "one node of 8, 8 B: %g s", t);
}

/* The emulated link's shaper burst (net_burst, beta_burst): only the call's
 * last network message, only up to the burst, only on the network; the
 * pipelined rendezvous (rndv_pipe) of the ring's further segments; the
 * exchange factor (net_exchange) on exchange steps only. */
static void test_burst_and_pipe(void)
{
    const double a = 1e-6, b = 1e-9, g = 0.5e-9, bb = 0.1e-9;
    mca_coll_rsag_model_profile_t pr, pb;
    plain(&pr, a, b, g);
    pb = pr;
    pb.net.burst = 32768;
    pb.net.beta_burst = bb;
    double m = 32768;
    /* reduce-scatter p 2 over 2 nodes: its one message of 32 KB is the last */
    CHECK(close_to(T(RSB, "recursive_halving", 2, 1, 65536, &pr), a + m * b + m * g), "rs plain");
    CHECK(close_to(T(RSB, "recursive_halving", 2, 1, 65536, &pb), a + m * bb + m * g),
          "rs burst %g", T(RSB, "recursive_halving", 2, 1, 65536, &pb));
    /* allreduce: the reduce-scatter's message pays, the allgather's is free */
    CHECK(close_to(T(AR, "rabenseifner", 2, 1, 65536, &pb), 2 * a + m * b + m * bb + m * g),
          "rabenseifner burst");
    CHECK(close_to(T(AR, "recursive_doubling", 2, 1, 32768, &pb), a + m * bb + m * g),
          "rd burst");
    /* above the burst, or on one node: nothing changes */
    CHECK(close_to(T(RSB, "recursive_halving", 2, 1, 131072, &pb),
                   T(RSB, "recursive_halving", 2, 1, 131072, &pr)), "above the burst");
    CHECK(close_to(T(AR, "rabenseifner", 2, 2, 65536, &pb), T(AR, "rabenseifner", 2, 2, 65536, &pr)),
          "one node");
    CHECK(close_to(T(AR, "direct", 2, 2, 65536, &pb), T(AR, "direct", 2, 2, 65536, &pr)), "direct");
    /* 4 nodes: the last message (distance 1, the allgather's half) of 32 KB */
    CHECK(close_to(T(AR, "rabenseifner", 4, 1, 65536, &pr) - T(AR, "rabenseifner", 4, 1, 65536, &pb),
                   32768 * (b - bb)), "p 4 credit");

    /* ring p 2 over 2 nodes, 2 MB: blocks of 1 MB in 4 segments of 256 KB,
     * 3 of them pipelined (eager 0: every message is a rendezvous) */
    mca_coll_rsag_model_profile_t pp = pr;
    pp.net.rndv = 5e-6;
    pp.net.rndv_pipe = -1.0;
    double same = T(RSB, "ring", 2, 1, 2 << 20, &pp);
    pp.net.rndv_pipe = 100e-6;
    double piped = T(RSB, "ring", 2, 1, 2 << 20, &pp);
    CHECK(close_to(piped - same, 3 * (100e-6 - 5e-6)), "ring rndv_pipe %g", piped - same);
    /* one segment: no pipelined message */
    pp.net.rndv_pipe = -1.0;
    same = T(RSB, "ring", 2, 1, 256 << 10, &pp);
    pp.net.rndv_pipe = 100e-6;
    CHECK(close_to(T(RSB, "ring", 2, 1, 256 << 10, &pp), same), "one segment");
    /* net_exchange: exchange steps pay it per byte, one-way steps do not */
    mca_coll_rsag_model_profile_t px = pr;
    px.net_exchange = 2.0;
    double n = 1 << 20;
    CHECK(close_to(T(AR, "recursive_doubling", 2, 1, 1 << 20, &px), a + 2 * n * b + n * g),
          "rd exchange");
    CHECK(close_to(T(RD, "binomial", 2, 1, 1 << 20, &px), T(RD, "binomial", 2, 1, 1 << 20, &pr)),
          "binomial one way");
    CHECK(close_to(T(RSB, "ring", 4, 1, 1 << 20, &px), T(RSB, "ring", 4, 1, 1 << 20, &pr)),
          "ring one way");
    /* p = 2: a ring hop goes both ways between the same pair (the block of
     * n / 2 = 512 KB in 2 segments of 256 KB, o = alpha in this profile) */
    CHECK(close_to(T(RSB, "ring", 2, 1, 1 << 20, &px), 2 * a + 0.5 * n * 2 * b + 0.5 * n * g),
          "ring p 2 exchange %g", T(RSB, "ring", 2, 1, 1 << 20, &px));
    CHECK(close_to(T(RSB, "recursive_halving", 4, 1, 1 << 20, &px), 2 * a + 0.75 * n * (2 * b + g)),
          "halving exchange");
    /* reduce's Rabenseifner: exchanges, then a one-way gather */
    CHECK(close_to(T(RD, "rabenseifner", 4, 1, 1 << 20, &px), 4 * a + 0.75 * n * 2 * b
                   + 0.75 * n * b + 0.75 * n * g), "reduce rabenseifner");
    CHECK(close_to(T(AR, "recursive_doubling", 2, 2, 1 << 20, &px),
                   T(AR, "recursive_doubling", 2, 2, 1 << 20, &pr)), "one node: no factor");
    px.net.eager = pr.net.eager = 1 << 20;
    CHECK(close_to(T(AR, "recursive_doubling", 2, 1, 1 << 20, &px),
                   T(AR, "recursive_doubling", 2, 1, 1 << 20, &pr)), "eager: no factor");
    /* the defaults: no burst, rndv_pipe as rndv */
    mca_coll_rsag_model_profile_default(&pp);
    CHECK(pp.net.burst == 0 && pp.net.rndv_pipe < 0 && pp.shm.rndv_pipe < 0
              && pp.net_exchange == 1.0, "defaults");
}

static void test_profile(void)
{
    mca_coll_rsag_model_profile_t a, b;
    mca_coll_rsag_model_profile_default(&a);
    const char *text = "# comment\nname = test\nshm_alpha = 2e-6\nnet_beta = 1e-8\n"
                       "net_eager = 1000\ngamma.SUM.FLOAT = 3e-10\ngamma_cache.SUM.FLOAT = 1e-10\n";
    FILE *f = fmemopen((void *) text, strlen(text), "r");
    CHECK(f && mca_coll_rsag_model_profile_read(f, &a) == 0, "read");
    if (f) fclose(f);
    CHECK(!strcmp(a.name, "test") && a.shm.alpha == 2e-6 && a.net.beta == 1e-8
              && a.net.eager == 1000, "values");
    double g, gc;
    CHECK(mca_coll_rsag_model_gamma(&a, "SUM", "FLOAT", &g, &gc) && g == 3e-10 && gc == 1e-10,
          "gamma");
    CHECK(!mca_coll_rsag_model_gamma(&a, "MAX", "INT8", &g, &gc) && g == a.gamma, "default gamma");
    char buf[8192];
    FILE *w = fmemopen(buf, sizeof buf, "w");
    mca_coll_rsag_model_profile_write(w, &a);
    fclose(w);
    mca_coll_rsag_model_profile_default(&b);
    FILE *r = fmemopen(buf, strlen(buf), "r");
    CHECK(mca_coll_rsag_model_profile_read(r, &b) == 0, "reread");
    fclose(r);
    CHECK(close_to(b.shm.alpha, a.shm.alpha) && close_to(b.net.beta, a.net.beta)
              && b.ngammas == a.ngammas && !strcmp(b.name, "test"), "round trip");
    CHECK(b.net.rndv_pipe < 0 && b.net.burst == 0, "no rndv_pipe, no burst: as before");
    const char *more = "net_rndv_pipe = 5e-4\nnet_burst = 49152\nnet_beta_burst = 7e-10\n"
                       "net_exchange = 2\n";
    f = fmemopen((void *) more, strlen(more), "r");
    CHECK(mca_coll_rsag_model_profile_read(f, &a) == 0 && a.net.rndv_pipe == 5e-4
              && a.net.burst == 49152 && a.net.beta_burst == 7e-10 && a.net_exchange == 2.0,
          "rndv_pipe, burst, exchange");
    fclose(f);
    w = fmemopen(buf, sizeof buf, "w");
    mca_coll_rsag_model_profile_write(w, &a);
    fclose(w);
    mca_coll_rsag_model_profile_default(&b);
    r = fmemopen(buf, strlen(buf), "r");
    CHECK(mca_coll_rsag_model_profile_read(r, &b) == 0 && close_to(b.net.rndv_pipe, 5e-4)
              && b.net.burst == 49152 && close_to(b.net.beta_burst, 7e-10) && b.net_exchange == 2.0,
          "round trip 2");
    fclose(r);
    const char *bad = "shm_alpha = 1\nnonsense line\n";
    f = fmemopen((void *) bad, strlen(bad), "r");
    CHECK(mca_coll_rsag_model_profile_read(f, &b) == 2, "bad line number");
    fclose(f);
    const char *bad2 = "no_such_key = 1\n";
    f = fmemopen((void *) bad2, strlen(bad2), "r");
    CHECK(mca_coll_rsag_model_profile_read(f, &b) == 1, "unknown key");
    fclose(f);
}

/* direct, the node path: its paths, its terms, p up to 256 on one node. */
static void test_direct(void)
{
    mca_coll_rsag_model_profile_t pr;
    mca_coll_rsag_model_profile_default(&pr);
    pr.stream_beta = pr.stream_cache = 4e-11;
    pr.xcopy = 3e-11;
    pr.xcopy_nt = 1e-10;
    pr.xreduce = 5e-11;
    pr.xreduce_nt = 1.2e-10;
    pr.handoff = 1e-7;
    pr.handoff_line = 3e-9;
    pr.sync = 3e-7;
    pr.call_alpha = 1e-7;
    pr.cache_bytes = 0; /* one core's rates: the memory-bound ones */

    /* the slot of the component: 8 MiB / p in [64 KiB, 1 MiB] */
    mca_coll_rsag_model_knobs_t kn;
    mca_coll_rsag_model_call_t c;
    mca_coll_rsag_model_call_init(&c, 2, 2, 8);
    kn = c.knobs;
    CHECK(mca_coll_rsag_model_direct_slot(&kn, 2) == 1u << 20, "slot p 2");
    CHECK(mca_coll_rsag_model_direct_slot(&kn, 16) == 512u << 10, "slot p 16");
    CHECK(mca_coll_rsag_model_direct_slot(&kn, 256) == 64u << 10, "slot p 256");
    kn.direct_slot = 1000;
    CHECK(mca_coll_rsag_model_direct_slot(&kn, 2) == 1024, "slot knob rounded to 128");

    /* with cache_bytes 0 every rate is the memory-bound one: a reduction of
     * a peer's bytes pays, besides xreduce, what my operand and the result
     * cost beyond the cache */
    double pen = pr.gamma - pr.gamma_cache;

    /* boxed (<= 56 B), p 2: call, copy into the box, the first wait, one reduction */
    double n = 8, t = T(AR, "direct", 2, 2, 8, &pr);
    CHECK(close_to(t, pr.call_alpha + n * pr.memcpy_beta + pr.sync + n * (pr.xreduce + pen)),
          "boxed p 2: %g", t);
    /* p 8: the wait reads 7 boxes, 7 reductions */
    t = T(AR, "direct", 8, 8, 8, &pr);
    CHECK(close_to(t, pr.call_alpha + n * pr.memcpy_beta + pr.sync + 6 * pr.handoff_line
                          + 7 * n * (pr.xreduce + pen)), "boxed p 8: %g", t);
    /* a box beyond its stamp's line (64 B): one more hand-off for its lines */
    n = 64;
    t = T(AR, "direct", 2, 2, 64, &pr);
    CHECK(close_to(t, pr.call_alpha + n * pr.memcpy_beta + pr.sync + pr.handoff
                          + n * (pr.xreduce + pen)), "boxed 64 B p 2: %g", t);
    /* split, p 2, one window of 64 KB, streamed (coll_rsag_direct_stream
     * always, >= 16 KB): the done flags, put 32K, wait, its lines, reduce
     * 32K, put 32K, wait, its lines, get 32K */
    n = 65536;
    double b = n / 2, s = pr.stream_beta;
    mca_coll_rsag_model_call_init(&c, 2, 2, 65536);
    c.knobs.direct_stream = MCA_COLL_RSAG_MODEL_STREAM_ALWAYS;
    double ts = mca_coll_rsag_model_time(AR, "direct", &c, &pr);
    CHECK(close_to(ts, pr.call_alpha + pr.handoff + b * s + pr.sync + pr.handoff
                           + b * (pr.xreduce_nt + pen) + b * s + pr.handoff + pr.handoff
                           + b * pr.xcopy_nt), "split p 2: %g", ts);
    /* memcpy throughout and the plain reads */
    c.knobs.direct_stream = MCA_COLL_RSAG_MODEL_STREAM_NEVER;
    double tm = mca_coll_rsag_model_time(AR, "direct", &c, &pr);
    CHECK(close_to(tm, pr.call_alpha + pr.handoff + b * pr.memcpy_beta + pr.sync + pr.handoff
                           + b * (pr.xreduce + pen) + b * pr.memcpy_beta + pr.handoff
                           + pr.handoff + b * pr.xcopy), "split, memcpy: %g", tm);
    /* below the streaming threshold: the same as never */
    c.knobs.direct_stream = MCA_COLL_RSAG_MODEL_STREAM_ALWAYS;
    c.knobs.direct_stream_min = (size_t) -1;
    CHECK(close_to(mca_coll_rsag_model_time(AR, "direct", &c, &pr), tm), "below stream_min");
    /* auto, the component's learner: the faster of the two ways */
    t = T(AR, "direct", 2, 2, 65536, &pr);
    CHECK(close_to(t, ts < tm ? ts : tm), "auto: the faster way: %g (%g, %g)", t, ts, tm);
    /* reduce-scatter at 64 MB, p 2: 128 windows of 512 KB, one owner each,
     * the owner's reduction (slower than the other's copy) sets the pace */
    mca_coll_rsag_model_call_init(&c, 2, 2, 64u << 20);
    c.knobs.direct_stream = MCA_COLL_RSAG_MODEL_STREAM_ALWAYS;
    t = mca_coll_rsag_model_time(RSB, "direct", &c, &pr);
    double w = 512 * 1024.0;
    CHECK(close_to(t, pr.call_alpha + pr.handoff + pr.sync - pr.handoff
                          + 128 * (pr.handoff + pr.handoff + w * (pr.xreduce_nt + pen))),
          "rs 64 MB p 2: %g", t);
    /* one window holding both blocks (64 KB): a rank copies the other's
     * block only, then reduces its own */
    mca_coll_rsag_model_call_init(&c, 2, 2, 65536);
    c.knobs.direct_stream = MCA_COLL_RSAG_MODEL_STREAM_ALWAYS;
    t = mca_coll_rsag_model_time(RSB, "direct", &c, &pr);
    CHECK(close_to(t, pr.call_alpha + pr.handoff + pr.sync - pr.handoff + pr.handoff + pr.handoff
                          + b * (pr.xreduce_nt + pen) + b * s), "rs 64 KB p 2: %g", t);

    /* reads at other piece sizes: log-linear between the given ones, the
     * smallest's rate below it, the 256 KB rate above the largest */
    {
        mca_coll_rsag_model_profile_t xp = pr;
        const char *xt = "xreduce.2048 = 4e-10\nxreduce.32768 = 2e-10\n";
        FILE *xf = fmemopen((void *) xt, strlen(xt), "r");
        CHECK(xf && 0 == mca_coll_rsag_model_profile_read(xf, &xp), "x points read");
        if (xf) fclose(xf);
        CHECK(2 == xp.nx[MCA_COLL_RSAG_MODEL_XREDUCE] && 2048 == xp.xpiece[MCA_COLL_RSAG_MODEL_XREDUCE][0],
              "x points kept in size order");
        /* a boxed 8-byte call reads at the smallest piece's rate */
        n = 8;
        t = T(AR, "direct", 2, 2, 8, &xp);
        CHECK(close_to(t, pr.call_alpha + n * pr.memcpy_beta + pr.sync + n * (4e-10 + pen)),
              "boxed at the 2 KB rate: %g", t);
        /* the whole path at 8 KB (p 2 reads 8 KB pieces: halfway in log2
         * between 2 and 32 KB) */
        mca_coll_rsag_model_call_init(&c, 2, 2, 8192);
        c.knobs.direct_stream = MCA_COLL_RSAG_MODEL_STREAM_NEVER;
        t = mca_coll_rsag_model_time(AR, "direct", &c, &xp);
        CHECK(close_to(t, pr.call_alpha + pr.handoff + 8192 * pr.memcpy_beta + pr.sync + pr.handoff
                              + 8192 * (3e-10 + pen)), "whole 8 KB at the mid rate: %g", t);
        const char *bad3 = "xreduce.x = 1\n";
        xf = fmemopen((void *) bad3, strlen(bad3), "r");
        CHECK(1 == mca_coll_rsag_model_profile_read(xf, &xp), "a bad piece size");
        fclose(xf);
    }

    /* beyond the last-level cache: the node's data of a 64 MB allreduce at
     * p 2 (256 MB) outgrows a 64 MB cache: memory rates dram_factor times
     * slower; a 1 MB one (4 MB) stays within a quarter of it */
    {
        mca_coll_rsag_model_profile_t dp = pr;
        dp.llc_bytes = 64u << 20;
        dp.dram_factor = 2.0;
        CHECK(T(AR, "direct", 2, 2, 64u << 20, &dp) > 1.5 * T(AR, "direct", 2, 2, 64u << 20, &pr),
              "64 MB beyond the cache");
        CHECK(close_to(T(AR, "direct", 2, 2, 1u << 20, &dp), T(AR, "direct", 2, 2, 1u << 20, &pr)),
              "1 MB within it");
        dp.dram_factor = 1.0;
        CHECK(close_to(T(AR, "direct", 2, 2, 64u << 20, &dp), T(AR, "direct", 2, 2, 64u << 20, &pr)),
              "factor 1: no tier");
    }

    /* the node's bandwidth shared: k = p copiers; with a node of 32 GB/s
     * of memory traffic, 64 ranks copy at 0.25 GB/s each */
    mca_coll_rsag_model_profile_t nb = pr;
    nb.node_mem_bw = 32e9;
    mca_coll_rsag_model_profile_t huge = pr;
    huge.node_mem_bw = 1e15;
    CHECK(close_to(T(AR, "direct", 2, 2, 16u << 20, &huge), T(AR, "direct", 2, 2, 16u << 20, &pr)),
          "a node of unlimited bandwidth: one core's rates");
    CHECK(T(AR, "direct", 64, 64, 16u << 20, &nb) > 4 * T(AR, "direct", 64, 64, 16u << 20, &pr),
          "64 ranks share the node's bandwidth");

    /* monotone in p (3 .. 256 on one node) and sane: 64 MB allreduce at
     * p 2 is 1-8 times the cost of moving its bytes once; p 256 costs
     * more than p 2 but less than 256 times as much */
    static const size_t sizes[] = { 8, 1024, 65536, 1u << 20, 64u << 20 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int coll = 0; coll < MCA_COLL_RSAG_NUM_COLLS; coll++) {
            double prev = 0;
            for (int p = 2; p <= 256; p = p < 16 ? p + 1 : p * 2) {
                double tp = T(coll, "direct", p, p, sizes[i], &nb);
                CHECK(tp < HUGE_VAL && tp >= prev * 0.999, "%s direct %zu B: p %d %g < %g",
                      mca_coll_rsag_colls[coll].name, sizes[i], p, tp, prev);
                prev = tp;
            }
        }
    double t2 = T(AR, "direct", 2, 2, 64u << 20, &pr), t256 = T(AR, "direct", 256, 256, 64u << 20, &nb);
    double once = (64u << 20) * 3e-11;
    CHECK(t2 > once && t2 < 8 * once, "64 MB p 2: %g s, once %g s", t2, once);
    t2 = T(AR, "direct", 2, 2, 64u << 20, &nb);
    CHECK(t256 > t2 && t256 < 256 * t2, "64 MB p 256: %g s", t256);

    /* CMA from the knob on: another formula, applies */
    mca_coll_rsag_model_call_init(&c, 4, 4, 1u << 20);
    c.knobs.direct_cma_min = 65536;
    CHECK(mca_coll_rsag_model_time(AR, "direct", &c, &pr) < HUGE_VAL, "cma path");

    /* the new keys: read, written, read back */
    const char *text = "stream_beta = 5e-11\nxreduce_nt = 2e-10\nhandoff = 1.5e-7\n"
                       "node_mem_bw = 9e9\ncall_alpha = 2e-7\n";
    mca_coll_rsag_model_profile_t a, bb;
    mca_coll_rsag_model_profile_default(&a);
    FILE *f = fmemopen((void *) text, strlen(text), "r");
    CHECK(f && mca_coll_rsag_model_profile_read(f, &a) == 0 && a.stream_beta == 5e-11
              && a.xreduce_nt == 2e-10 && a.handoff == 1.5e-7 && a.node_mem_bw == 9e9
              && a.call_alpha == 2e-7, "direct keys");
    if (f) fclose(f);
    char buf[8192];
    FILE *wr = fmemopen(buf, sizeof buf, "w");
    mca_coll_rsag_model_profile_write(wr, &a);
    fclose(wr);
    mca_coll_rsag_model_profile_default(&bb);
    f = fmemopen(buf, strlen(buf), "r");
    CHECK(mca_coll_rsag_model_profile_read(f, &bb) == 0 && close_to(bb.xreduce_nt, 2e-10)
              && close_to(bb.node_mem_bw, 9e9), "direct keys round trip");
    fclose(f);
}

/* The recorded np-2 case: contrib/results/2026-11-27-direct-model-quiet/
 * (calibrate/shm.profile from rsag-calibrate.sh --runs 5, and the median of
 * 5 jobs of rsag_bench with direct forced, allreduce, np 2, the same
 * session, a quiet machine; the profile's gamma.OP.TYPE lines left out). */
#define RECORDED_PROFILE \
    "shm_alpha = 4.631e-07\n" \
    "shm_beta = 8.932e-11\n" \
    "shm_beta_cache = 4.619e-11\n" \
    "shm_beta_eager = 4.456e-10\n" \
    "shm_eager = 4096\n" \
    "shm_rndv = 1.715e-06\n" \
    "shm_o = 1.035e-07\n" \
    "shm_burst = 0\n" \
    "shm_beta_burst = 0\n" \
    "shm_rndv_pipe = 1.886e-06\n" \
    "shm_overlap = 0\n" \
    "nic_share = 1\n" \
    "fabric_bw = 0\n" \
    "stream_beta = 5.578e-11\n" \
    "stream_cache = 5.124e-11\n" \
    "handoff = 1.255e-07\n" \
    "handoff_line = 1.414e-08\n" \
    "sync = 2.48e-07\n" \
    "call_alpha = 1.11e-07\n" \
    "xcopy = 5.423e-11\n" \
    "xreduce = 7.171e-11\n" \
    "xreduce_nt = 1.199e-10\n" \
    "xcopy_nt = 7.597e-11\n" \
    "xcopy_nt.2048 = 1.475e-10\n" \
    "xreduce.32768 = 1.82e-10\n" \
    "xreduce_nt.32768 = 2.764e-10\n" \
    "xreduce.2048 = 1.978e-10\n" \
    "xreduce_nt.2048 = 3.032e-10\n" \
    "xcopy_nt.32768 = 9.485e-11\n" \
    "xcopy.32768 = 8.792e-11\n" \
    "xcopy.2048 = 1.494e-10\n" \
    "node_bw = 3.037e+10\n" \
    "node_mem_bw = 6.809e+10\n" \
    "cache_bytes = 2097152\n" \
    "cma_alpha = 0\n" \
    "cma_beta = 8.174e-11\n" \
    "dram_factor = 1.308\n" \
    "gamma = 9.711e-11\n" \
    "gamma_cache = 5.003e-11\n" \
    "llc_bytes = 272629760\n" \
    "memcpy_beta = 6.534e-11\n" \
    "memcpy_cache = 2.141e-11\n"
#define RECORDED_DIRECT_NP2 \
    { { 8, 0.38 }, { 32, 0.38 }, { 128, 0.51 }, { 512, 0.71 }, \
      { 2048, 1.22 }, { 8192, 2.54 }, { 32768, 7.41 }, { 131072, 15.18 }, { 524288, 62.42 }, \
      { 2097152, 319.98 }, { 8388608, 1343.02 }, { 33554432, 8038.70 }, { 67108864, 18408.71 } }

/* The np-2 case against a recorded profile and a recorded measurement:
 * RECORDED_PROFILE and RECORDED_DIRECT_NP2 above, 8 B to 64 MB, within
 * +-30 %: the run's worst cells (0.72 at 512 KB and 64 MB) sit where the
 * jobs of one run spread the most (64 MB: 16.6-23.7 ms over its 5 jobs);
 * rsag-model-compare.sh --direct prints the +-20 % verdict of a run. */
static void test_direct_np2_recorded(void)
{
    mca_coll_rsag_model_profile_t pr;
    mca_coll_rsag_model_profile_default(&pr);
    const char *rec = RECORDED_PROFILE;
    FILE *f = fmemopen((void *) rec, strlen(rec), "r");
    CHECK(f && mca_coll_rsag_model_profile_read(f, &pr) == 0, "recorded profile");
    if (f) fclose(f);
    static const struct { size_t bytes; double us; } m[] = RECORDED_DIRECT_NP2;
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        double t = T(AR, "direct", 2, 2, m[i].bytes, &pr) * 1e6;
        CHECK(t > 0.7 * m[i].us && t < 1.3 * m[i].us, "np 2, %zu B: model %.2f us, measured %.2f us",
              m[i].bytes, t, m[i].us);
    }
}

static int no_direct(const char *alg) { return !strcmp(alg, "direct"); }

static void test_thresholds(void)
{
    mca_coll_rsag_model_profile_t pr;
    mca_coll_rsag_model_profile_default(&pr);
    size_t mb[MCA_COLL_RSAG_MAX_ALGS + 1];
    int ps[] = { 3, 4 };
    double worst = mca_coll_rsag_model_thresholds(RD, ps, 2, 0, &pr, 0.03, no_direct, mb);
    CHECK(mb[MCA_COLL_RSAG_REDUCE_BINOMIAL] == 0, "base 0");
    CHECK(mb[MCA_COLL_RSAG_REDUCE_RABENSEIFNER] <= (1u << 20), "rabenseifner from <= 1 MB: %zu",
          mb[MCA_COLL_RSAG_REDUCE_RABENSEIFNER]);
    CHECK(mb[MCA_COLL_RSAG_REDUCE_DIRECT] == (size_t) MCA_COLL_RSAG_OFF, "direct skipped");
    CHECK(worst >= 1.0 && worst < 2.0, "worst %g", worst);
    /* thresholds only grow along the chain: every threshold set is a size */
    for (int coll = 0; coll < MCA_COLL_RSAG_NUM_COLLS; coll++) {
        int p16[] = { 16 };
        mca_coll_rsag_model_thresholds(coll, p16, 1, 4, &pr, 0.03, NULL, mb);
        CHECK(mb[1] == 0, "coll %d base", coll);
        for (int a = 2; a <= mca_coll_rsag_colls[coll].nalgs; a++)
            CHECK(mb[a] == (size_t) MCA_COLL_RSAG_OFF || (mb[a] & (mb[a] - 1)) == 0,
                  "coll %d alg %d: %zu", coll, a, mb[a]);
    }
}

/* direct's boxed tree: at p <= 2 and above a box nothing changes; a tree
 * of fan-in k costs its levels' hand-offs; the component's auto rule
 * (mca_coll_rsag_direct_fanin_auto) stays within 10 % of the model's best
 * fan-in with the shipped profile, for every collective, p and box size
 * of the grid, and never picks the tree at p <= 5. */
static void test_direct_tree(void)
{
    static const int ps[] = { 3, 4, 5, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 512, 1024 };
    static const size_t ns[] = { 8, 16, 64, 128, 256, 384, 512, 768, 1080 };
    static const mca_coll_rsag_coll_t colls[] = { AR, RD, RSB };
    mca_coll_rsag_model_profile_t pr;
    mca_coll_rsag_model_call_t c;
    FILE *f = fopen(RSAG_MODEL_PROFILE, "r");
    double tb, tr, worst = 1.0;

    mca_coll_rsag_model_profile_default(&pr);
    CHECK(NULL != f && 0 == mca_coll_rsag_model_profile_read(f, &pr), "read %s",
          RSAG_MODEL_PROFILE);
    if (NULL != f) fclose(f);
    mca_coll_rsag_model_call_init(&c, 2, 2, 8);
    CHECK(1 == mca_coll_rsag_model_direct_fanin(AR, &c, &pr, &tb), "np 2 is flat");
    mca_coll_rsag_model_call_init(&c, 256, 256, 4096);
    CHECK(1 == mca_coll_rsag_model_direct_fanin(AR, &c, &pr, &tb), "above a box: flat");
    mca_coll_rsag_model_call_init(&c, 64, 64, 1080);
    c.knobs.direct_fanin = 1;
    tr = mca_coll_rsag_model_time(AR, "direct", &c, &pr);
    c.knobs.direct_fanin = 8;
    tb = mca_coll_rsag_model_time(AR, "direct", &c, &pr);
    CHECK(tb < tr, "p 64, 1080 B: the tree of 8 beats flat (%g vs %g us)", tb * 1e6, tr * 1e6);
    c.knobs.direct_fanin = 63;
    CHECK(mca_coll_rsag_model_time(AR, "direct", &c, &pr) > tr,
          "one level of 63 children: flat plus a hand-off");
    for (size_t ci = 0; ci < sizeof colls / sizeof colls[0]; ci++)
        for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
            for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
                int k = mca_coll_rsag_direct_fanin_auto(ps[i], ns[j], RSB == colls[ci]);
                mca_coll_rsag_model_call_init(&c, ps[i], ps[i], ns[j]);
                (void) mca_coll_rsag_model_direct_fanin(colls[ci], &c, &pr, &tb);
                c.knobs.direct_fanin = k;
                tr = mca_coll_rsag_model_time(colls[ci], "direct", &c, &pr);
                worst = tr / tb > worst ? tr / tb : worst;
                CHECK(tr <= 1.10 * tb, "coll %d p %d %zu B: auto's fan-in %d %g us, best %g us",
                      (int) colls[ci], ps[i], ns[j], k, tr * 1e6, tb * 1e6);
                CHECK(ps[i] > 5 || 1 == k, "p %d: flat", ps[i]);
            }
    printf("direct fan-in: auto's worst slowdown against the model's best %.3f\n", worst);
}

int main(void)
{
    test_every_row();
    test_closed_forms();
    test_monotone();
    test_crossovers();
    test_split();
    test_hierarchical();
    test_hier_pipeline();
    test_leaders();
    test_nonnegative();
    test_burst_and_pipe();
    test_exchange_chunk();
    test_ordered_messages();
    test_profile();
    test_thresholds();
    test_direct();
    test_direct_np2_recorded();
    test_direct_tree();
    return unit_report("test_model");
}
