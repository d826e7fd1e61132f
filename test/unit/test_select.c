/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Unit tests of the selector (coll_rsag_select.c) and of the algorithm
 * tables it reads: restrictions, forced algorithms and their fallback,
 * thresholds by communicator-size class and their overrides, delegation,
 * and the validation of hostile settings.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "coll_rsag_index.h"
#include "coll_rsag_select.h"
#include "unit.h"

static mca_coll_rsag_call_t call_of(int p, size_t count, size_t type_size, bool commutative)
{
    /* a call on one node with a contiguous datatype: every restriction
     * but the op's and the count's met */
    mca_coll_rsag_call_t c = { .comm_size = p, .count = count, .bytes = count * type_size,
                               .commutative = commutative, .dtype_supported = true,
                               .single_node = true, .contiguous = true, .nodes = 1,
                               .min_ranks_per_node = p };
    return c;
}

/* Every table: ids 1..n in order, unique names other than "auto", and an
 * algorithm with threshold 0 whose only possible restriction is a
 * commutative op, so auto has a choice for every commutative call. */
static void test_tables(void)
{
    for (int coll = 0; coll < MCA_COLL_RSAG_NUM_COLLS; ++coll) {
        const mca_coll_rsag_coll_desc_t *d = &mca_coll_rsag_colls[coll];
        bool universal = false;

        CHECK(d->name != NULL && d->mpi_name != NULL && d->nalgs >= 1
                  && d->nalgs <= MCA_COLL_RSAG_MAX_ALGS, "collective %d", coll);
        for (int i = 0; i < d->nalgs; ++i) {
            const mca_coll_rsag_alg_desc_t *a = &d->algs[i];
            CHECK(a->id == i + 1, "%s: row %d has id %d", d->name, i, a->id);
            CHECK(strcmp(a->name, "auto") != 0 && strlen(a->description) > 20, "%s row %d",
                  d->name, i);
            CHECK(mca_coll_rsag_alg((mca_coll_rsag_coll_t) coll, a->id) == a, "lookup");
            for (int j = 0; j < i; ++j) {
                CHECK(strcmp(a->name, d->algs[j].name) != 0, "%s: duplicate name %s", d->name,
                      a->name);
            }
            bool zero_everywhere = true;
            for (int k = 0; k < MCA_COLL_RSAG_NUM_COMM_CLASSES; ++k) {
                zero_everywhere &= (0 == a->default_min_bytes[k]);
            }
            universal |= (0 == (a->restrictions & ~MCA_COLL_RSAG_NEEDS_COMMUTATIVE)
                          && zero_everywhere);
        }
        CHECK(universal, "%s has a default algorithm for every commutative call", d->name);
        CHECK(mca_coll_rsag_alg((mca_coll_rsag_coll_t) coll, 0) == NULL
                  && mca_coll_rsag_alg((mca_coll_rsag_coll_t) coll, d->nalgs + 1) == NULL,
              "out-of-range ids");
        CHECK(strcmp(mca_coll_rsag_alg_name((mca_coll_rsag_coll_t) coll, 0), "auto") == 0,
              "id 0 is auto");
    }
}

/* The row of collective `coll` named `name`, or NULL. */
static const mca_coll_rsag_alg_desc_t *row_named(mca_coll_rsag_coll_t coll, const char *name)
{
    const mca_coll_rsag_coll_desc_t *desc = &mca_coll_rsag_colls[coll];

    for (int i = 0; i < desc->nalgs; ++i) {
        if (0 == strcmp(desc->algs[i].name, name)) {
            return &desc->algs[i];
        }
    }
    return NULL;
}

/* The tiers of the point-to-point algorithms are tested with `direct` off
 * (at p <= 2 it takes every size from 1 KB by default; test_direct covers
 * it). */
static void direct_off(mca_coll_rsag_coll_t coll, mca_coll_rsag_tuning_t *t)
{
    const mca_coll_rsag_alg_desc_t *direct = row_named(coll, "direct");

    if (NULL != direct) {
        t->min_bytes[direct->id] = LONG_MAX;
    }
}

static void test_auto(mca_coll_rsag_coll_t coll, int small_alg, int big_alg)
{
    mca_coll_rsag_tuning_t t;
    mca_coll_rsag_decision_t d;
    mca_coll_rsag_call_t c;
    size_t thr;

    mca_coll_rsag_tuning_defaults(coll, &t);
    CHECK(t.forced == MCA_COLL_RSAG_AUTO && t.min_bytes[big_alg] == -1, "defaults");
    direct_off(coll, &t);

    for (int p = 1; p <= 70; ++p) {
        int pof2 = mca_coll_rsag_pof2_floor(p);
        size_t big_count;

        thr = mca_coll_rsag_threshold(coll, &t, big_alg, mca_coll_rsag_comm_class(NULL, p), NULL);
        CHECK(thr > 0, "p=%d threshold of %d", p, big_alg);
        if (thr >= (size_t) MCA_COLL_RSAG_OFF) {    /* off in this size class */
            c = call_of(p, (size_t) 1 << 24, 8, true);
            d = mca_coll_rsag_select(coll, &c, &t);
            CHECK(d.alg != big_alg, "p=%d: %d is off but auto picked it", p, big_alg);
            continue;
        }
        big_count = (thr + 3) / 4 > (size_t) pof2 ? (thr + 3) / 4 : (size_t) pof2;

        /* below the threshold (one element of 4 bytes; at p <= 2 the
         * threshold is 1 byte, and one element is below p' from p = 2): the
         * small-message algorithm */
        c = call_of(p, 1, 4, true);
        d = mca_coll_rsag_select(coll, &c, &t);
        CHECK((d.alg == small_alg || (thr <= 4 && 1 >= pof2))
                  && d.reason == MCA_COLL_RSAG_REASON_AUTO, "p=%d small -> %d", p, d.alg);

        /* at and above the threshold, commutative, enough elements */
        c = call_of(p, big_count, 4, true);
        d = mca_coll_rsag_select(coll, &c, &t);
        CHECK(d.alg == big_alg, "p=%d count=%zu -> %d", p, big_count, d.alg);

        /* large but non-commutative: the order-preserving algorithm */
        c = call_of(p, big_count, 4, false);
        d = mca_coll_rsag_select(coll, &c, &t);
        CHECK(d.alg == small_alg && d.reason == MCA_COLL_RSAG_REASON_AUTO,
              "p=%d non-commutative -> %d", p, d.alg);

        /* large in bytes but count < p' (huge elements): no Rabenseifner,
         * but another rsag algorithm (the small-message one, or one whose
         * threshold is lower and that has no count restriction) */
        if (pof2 > 1) {
            c = call_of(p, (size_t) pof2 - 1, thr, true);
            d = mca_coll_rsag_select(coll, &c, &t);
            CHECK(d.alg != big_alg && d.alg > 0 && d.reason == MCA_COLL_RSAG_REASON_AUTO,
                  "p=%d count < p' -> %d", p, d.alg);
        }
    }
}

static void test_forced(mca_coll_rsag_coll_t coll, int small_alg, int big_alg)
{
    mca_coll_rsag_tuning_t t;
    mca_coll_rsag_decision_t d, want;
    mca_coll_rsag_call_t c;

    mca_coll_rsag_tuning_defaults(coll, &t);

    /* forced and applicable, whatever the size */
    t.forced = big_alg;
    c = call_of(8, 8, 1, true);
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == big_alg && d.reason == MCA_COLL_RSAG_REASON_FORCED, "forced big");

    /* forced, not applicable: fall back to ours, say why */
    c = call_of(8, 7, 1, true);
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == small_alg && d.reason == MCA_COLL_RSAG_REASON_FALLBACK
              && d.unmet == MCA_COLL_RSAG_NEEDS_COUNT_GE_POF2, "count < p' fallback");
    /* (auto's order-preserving choice: the small algorithm, or direct where
     * the defaults give it the size on one node) */
    c = call_of(8, 1 << 20, 4, false);
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK((d.alg == small_alg || d.alg == row_named(coll, "direct")->id)
              && d.reason == MCA_COLL_RSAG_REASON_FALLBACK
              && d.unmet == MCA_COLL_RSAG_NEEDS_COMMUTATIVE, "non-commutative fallback");
    c = call_of(8, 3, 4, false);
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.unmet == (MCA_COLL_RSAG_NEEDS_COMMUTATIVE | MCA_COLL_RSAG_NEEDS_COUNT_GE_POF2),
          "both restrictions unmet");
    CHECK(strcmp(mca_coll_rsag_restriction_text(d.unmet), "commutative op, count >= p'") == 0,
          "restriction text");

    /* the small algorithm forced on a large message */
    t.forced = small_alg;
    c = call_of(8, 1 << 20, 8, true);
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == small_alg && d.reason == MCA_COLL_RSAG_REASON_FORCED, "forced small");

    /* an id outside the table counts as auto */
    t.forced = MCA_COLL_RSAG_AUTO;
    want = mca_coll_rsag_select(coll, &c, &t);
    t.forced = 99;
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == want.alg && d.alg != MCA_COLL_RSAG_DELEGATE
              && d.reason == MCA_COLL_RSAG_REASON_AUTO, "bad id -> auto");
}

static void test_delegation(mca_coll_rsag_coll_t coll, int small_alg)
{
    mca_coll_rsag_tuning_t t;
    mca_coll_rsag_decision_t d;
    mca_coll_rsag_call_t c = call_of(4, 100, 4, true);

    mca_coll_rsag_tuning_defaults(coll, &t);
    c.dtype_supported = false;
    t.forced = small_alg;
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == MCA_COLL_RSAG_DELEGATE && d.reason == MCA_COLL_RSAG_REASON_DATATYPE,
          "non-positive extent delegates even when forced");

    /* thresholds that leave small messages uncovered */
    mca_coll_rsag_tuning_defaults(coll, &t);
    for (int id = 1; id <= MCA_COLL_RSAG_MAX_ALGS; ++id) {
        t.min_bytes[id] = 1000;
    }
    c = call_of(4, 10, 4, true);
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == MCA_COLL_RSAG_DELEGATE && d.reason == MCA_COLL_RSAG_REASON_UNCOVERED,
          "uncovered size delegates");
    c = call_of(4, 1000, 4, true);
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg != MCA_COLL_RSAG_DELEGATE, "equal thresholds: a later row wins (%d)", d.alg);
}

/* The ring tier: from its threshold up auto takes the ring for commutative
 * ops whatever the count (empty blocks are fine: no count >= p' rule);
 * below it, or for a non-commutative op, the ring is never chosen, and auto
 * takes what it would take without the ring.
 * `noncomm` is what a large non-commutative call gets. */
static void test_ring(mca_coll_rsag_coll_t coll, int ring_alg, int noncomm)
{
    mca_coll_rsag_tuning_t t, noring;
    mca_coll_rsag_decision_t d;
    mca_coll_rsag_call_t c;
    size_t thr;

    mca_coll_rsag_tuning_defaults(coll, &t);
    direct_off(coll, &t);
    noring = t;
    noring.min_bytes[ring_alg] = LONG_MAX;
    for (int p = 1; p <= 70; ++p) {
        thr = mca_coll_rsag_threshold(coll, &t, ring_alg, mca_coll_rsag_comm_class(NULL, p),
                                      NULL);
        CHECK(thr > 0, "%s ring threshold", mca_coll_rsag_colls[coll].name);
        if (thr >= (size_t) MCA_COLL_RSAG_OFF) {    /* off in this size class */
            c = call_of(p, (size_t) 1 << 24, 8, true);
            d = mca_coll_rsag_select(coll, &c, &t);
            CHECK(d.alg != ring_alg, "p=%d: the ring is off but auto picked it", p);
            continue;
        }
        c = call_of(p, thr / 8, 8, true);
        d = mca_coll_rsag_select(coll, &c, &t);
        CHECK(d.alg == ring_alg, "p=%d at the ring threshold -> %d", p, d.alg);
        c = call_of(p, (thr - 8) / 8, 8, true);
        d = mca_coll_rsag_select(coll, &c, &t);
        CHECK(d.alg != ring_alg && d.alg == mca_coll_rsag_select(coll, &c, &noring).alg,
              "p=%d below the ring threshold -> %d", p, d.alg);
        c = call_of(p, 1, thr, true);
        d = mca_coll_rsag_select(coll, &c, &t);
        CHECK(d.alg == ring_alg, "p=%d one huge element -> %d", p, d.alg);
        c = call_of(p, thr, 8, false);
        d = mca_coll_rsag_select(coll, &c, &t);
        CHECK(d.alg == noncomm, "p=%d non-commutative -> %d", p, d.alg);
    }
    t.forced = ring_alg;
    c = call_of(8, 3, 4, true);
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == ring_alg && d.reason == MCA_COLL_RSAG_REASON_FORCED, "forced ring, count < p");
    c = call_of(8, 1000, 4, false);
    d = mca_coll_rsag_select(coll, &c, &t);
    /* the reduce-scatters' only order-preserving algorithm, direct, is
     * off for auto: the call is then uncovered rather than ruled out */
    CHECK(d.alg != ring_alg
              && (d.unmet == MCA_COLL_RSAG_NEEDS_COMMUTATIVE
                  || (d.alg == MCA_COLL_RSAG_DELEGATE
                      && d.reason == MCA_COLL_RSAG_REASON_UNCOVERED)),
          "forced ring, non-commutative");
}

/* Classes of communicator sizes: compiled-in bounds, user bounds, and
 * nonsense that MPI_T could write (still a class, never out of range). */
static void test_classes(void)
{
    const int mine[MCA_COLL_RSAG_NUM_SIZE_CLASSES - 1] = { 8, 16 };
    const int nonsense[MCA_COLL_RSAG_NUM_SIZE_CLASSES - 1] = { -3, INT_MIN };
    const int *b = mca_coll_rsag_default_class_bounds;
    char text[32];

    CHECK(MCA_COLL_RSAG_NUM_SIZE_CLASSES == 3 && b[0] == 2 && b[1] == 4, "default bounds");
    CHECK(MCA_COLL_RSAG_NUM_COMM_CLASSES == 5 && MCA_COLL_RSAG_CLASS_NODES == 3
              && MCA_COLL_RSAG_CLASS_OVERSUBSCRIBED == 4,
          "three size classes, several nodes, an oversubscribed node");
    /* a communicator on several nodes is in the "several nodes" class,
     * whatever its size; on one oversubscribed node in that class, whatever
     * its size; else (one node, or not known: 0) in its size class */
    for (int p = 1; p <= 70; ++p) {
        mca_coll_rsag_call_t c = call_of(p, 8, 8, true);
        for (int nodes = 0; nodes <= 3; ++nodes) {
            c.nodes = nodes;
            for (int over = 0; over <= 1; ++over) {
                c.oversubscribed = over;
                CHECK(mca_coll_rsag_call_class(NULL, &c)
                          == (nodes >= 2 ? MCA_COLL_RSAG_CLASS_NODES
                              : over     ? MCA_COLL_RSAG_CLASS_OVERSUBSCRIBED
                                         : mca_coll_rsag_comm_class(NULL, p)),
                      "p=%d nodes=%d oversubscribed=%d call class", p, nodes, over);
            }
        }
    }
    mca_coll_rsag_class_text(NULL, MCA_COLL_RSAG_CLASS_NODES, text, sizeof(text));
    CHECK(strcmp(text, "several nodes") == 0, "class text %s", text);
    mca_coll_rsag_class_text(NULL, MCA_COLL_RSAG_CLASS_OVERSUBSCRIBED, text, sizeof(text));
    CHECK(strcmp(text, "oversubscribed node") == 0, "class text %s", text);
    for (int p = 1; p <= 70; ++p) {
        int want = p <= 2 ? 0 : p <= 4 ? 1 : 2;
        CHECK(mca_coll_rsag_comm_class(NULL, p) == want, "p=%d default class", p);
        want = p <= 8 ? 0 : p <= 16 ? 1 : 2;
        CHECK(mca_coll_rsag_comm_class(mine, p) == want, "p=%d class under 8,16", p);
        CHECK(mca_coll_rsag_comm_class(nonsense, p) == 2, "p=%d nonsense bounds", p);
    }
    mca_coll_rsag_class_text(NULL, 1, text, sizeof(text));
    CHECK(strcmp(text, "p <= 4") == 0, "class text %s", text);
    mca_coll_rsag_class_text(mine, 2, text, sizeof(text));
    CHECK(strcmp(text, "p > 16") == 0, "class text %s", text);
}

/* Reference of auto by the rule, from the table columns of the class. */
/* A row that needs several nodes (hierarchical, leaders). */
static bool node_aware(mca_coll_rsag_coll_t coll, int id)
{
    const mca_coll_rsag_alg_desc_t *a = mca_coll_rsag_alg(coll, id);
    return NULL != a && 0 != (a->restrictions & MCA_COLL_RSAG_NEEDS_MULTI_NODE);
}

/* The decision for *c at `bytes` (elements of 8 bytes). */
static mca_coll_rsag_decision_t select_bytes(mca_coll_rsag_coll_t coll, mca_coll_rsag_call_t *c,
                                             size_t bytes, const mca_coll_rsag_tuning_t *t)
{
    c->count = bytes / 8;
    c->bytes = bytes;
    return mca_coll_rsag_select(coll, c, t);
}

static int reference_auto(mca_coll_rsag_coll_t coll, const mca_coll_rsag_call_t *c,
                          const mca_coll_rsag_tuning_t *t)
{
    const mca_coll_rsag_coll_desc_t *desc = &mca_coll_rsag_colls[coll];
    int k = mca_coll_rsag_call_class(t->class_bounds, c), best = 0;
    size_t best_min = 0;
    bool best_aware = false;

    for (int i = 0; i < desc->nalgs; ++i) {
        const mca_coll_rsag_alg_desc_t *a = &desc->algs[i];
        if (t->max_bytes[a->id] >= 0 && c->bytes < (size_t) t->max_bytes[a->id]
            && 0 == mca_coll_rsag_unmet(a, c)) {
            return a->id;
        }
    }
    for (int i = 0; i < desc->nalgs; ++i) {
        const mca_coll_rsag_alg_desc_t *a = &desc->algs[i];
        size_t min = t->min_bytes[a->id] >= 0 ? (size_t) t->min_bytes[a->id]
                                              : a->default_min_bytes[k];
        bool aware = node_aware(coll, a->id);
        /* a node-aware row over its threshold beats every flat row */
        if (0 == mca_coll_rsag_unmet(a, c) && min <= c->bytes
            && (0 == (a->restrictions & MCA_COLL_RSAG_FILLS_PIPE) || c->pipe_full)
            && (0 == best || aware > best_aware || (aware == best_aware && min >= best_min))) {
            best = a->id;
            best_min = min;
            best_aware = aware;
        }
    }
    return best;
}

/* The class defaults decide by communicator size, and the decision says
 * which threshold and class did; across sizes 8 B .. 4 GiB and p 1..70. */
static void test_class_defaults(mca_coll_rsag_coll_t coll)
{
    const int mine[MCA_COLL_RSAG_NUM_SIZE_CLASSES - 1] = { 3, 6 };
    mca_coll_rsag_tuning_t t;

    for (int bounds = 0; bounds < 2; ++bounds) {
        mca_coll_rsag_tuning_defaults(coll, &t);
        t.class_bounds = bounds ? mine : NULL;
        for (int p = 1; p <= 70; ++p) {
            int k = mca_coll_rsag_comm_class(t.class_bounds, p);
            for (size_t bytes = 8; bytes <= ((size_t) 4 << 30); bytes *= 2) {
                for (int extra = -1; extra <= 0; ++extra) {
                    mca_coll_rsag_call_t c = call_of(p, (bytes + extra) / 4, 4, true);
                    mca_coll_rsag_decision_t d = mca_coll_rsag_select(coll, &c, &t);
                    const mca_coll_rsag_alg_desc_t *a = mca_coll_rsag_alg(coll, d.alg);

                    CHECK(d.alg == reference_auto(coll, &c, &t), "%s p=%d bytes=%zu -> %d",
                          mca_coll_rsag_colls[coll].name, p, c.bytes, d.alg);
                    CHECK(d.comm_class == k && d.by_class && NULL != a
                              && d.threshold == a->default_min_bytes[k]
                              && d.threshold <= c.bytes,
                          "%s p=%d: threshold %zu of class %d", mca_coll_rsag_colls[coll].name,
                          p, d.threshold, d.comm_class);
                }
            }
        }
    }
}

/* CONTRACT with tuners: coll_rsag_<coll>_<alg>_min_bytes = N >= 0 applies
 * to every communicator size; any negative value means "by class". */
static void test_override(mca_coll_rsag_coll_t coll, int alg)
{
    mca_coll_rsag_tuning_t t;
    mca_coll_rsag_decision_t d;
    mca_coll_rsag_call_t c;

    mca_coll_rsag_tuning_defaults(coll, &t);
    /* above every default threshold of 1 KB or less (direct's at p <= 2) */
    t.min_bytes[alg] = 2048;
    for (int p = 1; p <= 70; ++p) {
        int k = mca_coll_rsag_comm_class(NULL, p);
        size_t count = (size_t) mca_coll_rsag_pof2_floor(p) > 256 ? 512 : 256;

        c = call_of(p, count, 8, true);     /* >= 2048 bytes, count >= p' */
        d = mca_coll_rsag_select(coll, &c, &t);
        CHECK(d.alg == alg && !d.by_class && d.threshold == 2048, "p=%d override -> %d", p,
              d.alg);
        CHECK(mca_coll_rsag_threshold(coll, &t, alg, k, NULL) == 2048, "p=%d threshold", p);
    }
    t.min_bytes[alg] = -7;      /* what MPI_T may write: treated as -1 */
    for (int k = 0; k < MCA_COLL_RSAG_NUM_COMM_CLASSES; ++k) {
        bool by_class = false;
        CHECK(mca_coll_rsag_threshold(coll, &t, alg, k, &by_class)
                  == mca_coll_rsag_alg(coll, alg)->default_min_bytes[k] && by_class,
              "negative threshold -> class %d default", k);
    }
    t.min_bytes[alg] = LONG_MAX;   /* absurd but valid: never chosen by auto */
    c = call_of(64, (size_t) 1 << 28, 8, true);
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg != alg && d.alg != MCA_COLL_RSAG_DELEGATE, "LONG_MAX threshold -> %d", d.alg);
}

/* The validation helpers the component applies at registration. */
static void test_validation(void)
{
    int bounds[MCA_COLL_RSAG_NUM_COMM_CLASSES - 1] = { 2, 4 };
    long mb;
    int chunks;
    size_t seg;
    mca_coll_rsag_tuning_t t;

    CHECK(!mca_coll_rsag_fix_class_bounds(bounds) && bounds[0] == 2 && bounds[1] == 4, "ok");
    bounds[0] = 8; bounds[1] = 16;
    CHECK(!mca_coll_rsag_fix_class_bounds(bounds) && bounds[0] == 8, "8,16 ok");
    bounds[0] = 0; bounds[1] = 16;
    CHECK(mca_coll_rsag_fix_class_bounds(bounds) && bounds[0] == 2 && bounds[1] == 4, "0");
    bounds[0] = 8; bounds[1] = 8;
    CHECK(mca_coll_rsag_fix_class_bounds(bounds) && bounds[0] == 2 && bounds[1] == 4, "equal");
    bounds[0] = 8; bounds[1] = -4;
    CHECK(mca_coll_rsag_fix_class_bounds(bounds) && bounds[0] == 2 && bounds[1] == 4, "neg");

    mb = -1;
    CHECK(!mca_coll_rsag_fix_min_bytes(&mb) && mb == -1, "-1 ok");
    mb = 0;
    CHECK(!mca_coll_rsag_fix_min_bytes(&mb) && mb == 0, "0 ok");
    mb = LONG_MAX;
    CHECK(!mca_coll_rsag_fix_min_bytes(&mb) && mb == LONG_MAX, "huge ok");
    mb = -2;
    CHECK(mca_coll_rsag_fix_min_bytes(&mb) && mb == -1, "-2 -> -1");
    mb = LONG_MIN;
    CHECK(mca_coll_rsag_fix_min_bytes(&mb) && mb == -1, "LONG_MIN -> -1");

    chunks = 1;
    CHECK(!mca_coll_rsag_fix_run_blocks(&chunks) && chunks == 1, "1 ok");
    chunks = 8;
    CHECK(!mca_coll_rsag_fix_run_blocks(&chunks) && chunks == 8, "8 ok");
    chunks = 6;
    CHECK(mca_coll_rsag_fix_run_blocks(&chunks) && chunks == 4, "6 -> 4");
    chunks = 0;
    CHECK(mca_coll_rsag_fix_run_blocks(&chunks) && chunks == 1, "0 -> 1");
    chunks = -5;
    CHECK(mca_coll_rsag_fix_run_blocks(&chunks) && chunks == 1, "-5 -> 1");
    chunks = INT_MAX;
    CHECK(mca_coll_rsag_fix_run_blocks(&chunks)
              && chunks == MCA_COLL_RSAG_MAX_RUN_BLOCKS, "INT_MAX -> cap");

    seg = 0;
    CHECK(!mca_coll_rsag_fix_chunk_size(&seg, 99) && seg == 0, "0 ok");
    seg = 1;
    CHECK(!mca_coll_rsag_fix_chunk_size(&seg, 99) && seg == 1, "1 ok");
    seg = (size_t) -1;
    CHECK(mca_coll_rsag_fix_chunk_size(&seg, 99) && seg == 99, "-1 -> default");
    seg = SIZE_MAX >> 1;
    CHECK(!mca_coll_rsag_fix_chunk_size(&seg, 99) && seg == SIZE_MAX >> 1, "huge ok");

    for (int coll = 0; coll < MCA_COLL_RSAG_NUM_COLLS; ++coll) {
        mca_coll_rsag_tuning_defaults((mca_coll_rsag_coll_t) coll, &t);
        for (int k = 0; k < MCA_COLL_RSAG_NUM_COMM_CLASSES; ++k) {
            CHECK(mca_coll_rsag_uncovered_below((mca_coll_rsag_coll_t) coll, &t, k) == 0,
                  "defaults cover every size (coll %d class %d)", coll, k);
        }
        for (int id = 1; id <= MCA_COLL_RSAG_MAX_ALGS; ++id) {
            t.min_bytes[id] = 5000 + id;
        }
        CHECK(mca_coll_rsag_uncovered_below((mca_coll_rsag_coll_t) coll, &t, 1) == 5001,
              "uncovered below the smallest threshold (coll %d)", coll);
    }
}

/* The node path: every collective has a "direct" row that needs one node
 * and a contiguous datatype (not a commutative op), is auto's from 1 KB
 * at p <= 2 only, falls back to rsag's other algorithms when forced and not
 * applicable, saying what is missing, and never counts as covering small
 * messages. */
static void test_direct(mca_coll_rsag_coll_t coll)
{
    const mca_coll_rsag_coll_desc_t *desc = &mca_coll_rsag_colls[coll];
    const mca_coll_rsag_alg_desc_t *direct = row_named(coll, "direct");
    mca_coll_rsag_tuning_t t, autot;
    mca_coll_rsag_decision_t d;
    mca_coll_rsag_call_t c;
    int fallback;

    mca_coll_rsag_tuning_defaults(coll, &autot);
    CHECK(NULL != direct, "%s has a direct row", desc->name);
    if (NULL == direct) {
        return;
    }
    CHECK(direct->restrictions == (MCA_COLL_RSAG_NEEDS_SINGLE_NODE | MCA_COLL_RSAG_NEEDS_CONTIGUOUS
                                   | MCA_COLL_RSAG_NEEDS_ORDERED_START
                                   | MCA_COLL_RSAG_FOLDS_IN_RANK_ORDER
                                   | MCA_COLL_RSAG_FOLDS_WHOLE)
              && direct->layout == MCA_COLL_RSAG_LAYOUT_RANKS, "%s direct row", desc->name);
    /* auto takes it by default at p <= 2 from 1 byte (measured there: from
     * 1 KB, and below it since small calls take the latency path); on
     * larger one-node communicators where the cost model says it wins
     * (coll_rsag_algorithms.h): from 8 B at p <= 4, from 8 B (the
     * reduce-scatters) or 8 KB for larger p, the reduce-scatters' ring
     * taking over from 128 KB (p <= 4) and 8 MB (larger p); never on
     * several nodes */
    bool rs = MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK == coll || MCA_COLL_RSAG_REDUCE_SCATTER == coll;
    const size_t from[3] = { 1, 8, rs ? 8 : 8192 };
    const size_t until[3] = { SIZE_MAX, rs ? 131072 : SIZE_MAX, rs ? 8388608 : SIZE_MAX };
    for (int k = 0; k < MCA_COLL_RSAG_NUM_SIZE_CLASSES; ++k) {
        CHECK(direct->default_min_bytes[k] == from[k], "%s direct from %zu B in class %d",
              desc->name, from[k], k);
    }
    CHECK(direct->default_min_bytes[MCA_COLL_RSAG_CLASS_NODES] == (size_t) MCA_COLL_RSAG_OFF,
          "%s direct is off by default on several nodes", desc->name);

    mca_coll_rsag_tuning_defaults(coll, &t);
    for (int p = 1; p <= 70; p += 3) {
        for (size_t bytes = 1; bytes <= ((size_t) 1 << 30); bytes <<= 3) {
            int k = p <= 2 ? 0 : p <= 4 ? 1 : 2;
            bool want = bytes >= from[k] && bytes < until[k];

            c = call_of(p, bytes, 1, true);
            d = mca_coll_rsag_select(coll, &c, &t);
            CHECK((d.alg == direct->id) == want, "%s p=%d bytes=%zu: auto %s direct", desc->name,
                  p, bytes, want ? "did not pick" : "picked");
            /* a nonblocking or persistent call gets the same choice (the
             * dispatcher says single_node only once the segment exists) */
            c.nonblocking = true;
            d = mca_coll_rsag_select(coll, &c, &t);
            CHECK((d.alg == direct->id) == want && d.alg != MCA_COLL_RSAG_DELEGATE,
                  "%s p=%d bytes=%zu nonblocking", desc->name, p, bytes);
            c.nonblocking = false;
            /* where it cannot run, auto takes a point-to-point algorithm */
            c.contiguous = false;
            d = mca_coll_rsag_select(coll, &c, &t);
            CHECK(d.alg != direct->id && d.alg != MCA_COLL_RSAG_DELEGATE,
                  "%s p=%d bytes=%zu non-contiguous", desc->name, p, bytes);
        }
    }

    t.forced = direct->id;
    c = call_of(5, 3, 8, false);            /* non-commutative, count < p': still direct */
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == direct->id && d.reason == MCA_COLL_RSAG_REASON_FORCED,
          "%s forced direct, non-commutative", desc->name);

    c = call_of(5, 1000, 8, true);
    c.single_node = false;
    fallback = mca_coll_rsag_select(coll, &c, &autot).alg;    /* what auto takes */
    CHECK(fallback != direct->id && fallback != MCA_COLL_RSAG_DELEGATE, "%s auto", desc->name);
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == fallback && d.reason == MCA_COLL_RSAG_REASON_FALLBACK
              && d.unmet == MCA_COLL_RSAG_NEEDS_SINGLE_NODE, "%s several nodes -> %d",
          desc->name, d.alg);
    CHECK(0 == strcmp(mca_coll_rsag_restriction_text(d.unmet),
                      "one node with its shared segment"), "single-node text");

    c = call_of(5, 1000, 8, true);
    c.nonblocking = true;
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == direct->id && d.reason == MCA_COLL_RSAG_REASON_FORCED,
          "%s nonblocking, forced -> %d", desc->name, d.alg);

    /* a persistent request whose starts may come in any order: not direct
     * (it takes its turn on the communicator when started) */
    c = call_of(5, 1000, 8, true);
    c.nonblocking = true;
    c.unordered_start = true;
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg != direct->id && d.alg != MCA_COLL_RSAG_DELEGATE
              && d.reason == MCA_COLL_RSAG_REASON_FALLBACK
              && d.unmet == MCA_COLL_RSAG_NEEDS_ORDERED_START,
          "%s persistent, starts in any order, forced -> %d", desc->name, d.alg);
    CHECK(0 == strcmp(mca_coll_rsag_restriction_text(d.unmet),
                      "starts in the communicator's order (persistent: "
                      "mpi_assert_strict_persistent_collective_ordering)"), "ordered-start text");
    d = mca_coll_rsag_select(coll, &c, &autot);
    CHECK(d.alg != direct->id && d.alg != MCA_COLL_RSAG_DELEGATE,
          "%s persistent, starts in any order, auto -> %d", desc->name, d.alg);

    c = call_of(5, 1000, 8, true);
    c.contiguous = false;
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == fallback && d.reason == MCA_COLL_RSAG_REASON_FALLBACK
              && d.unmet == MCA_COLL_RSAG_NEEDS_CONTIGUOUS, "%s non-contiguous -> %d",
          desc->name, d.alg);

    c.single_node = false;
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.unmet == (MCA_COLL_RSAG_NEEDS_SINGLE_NODE | MCA_COLL_RSAG_NEEDS_CONTIGUOUS)
              && 0 == strcmp(mca_coll_rsag_restriction_text(d.unmet),
                             "one node with its shared segment, contiguous datatype"),
          "%s both unmet", desc->name);

    /* a threshold makes auto take it, only where it applies */
    mca_coll_rsag_tuning_defaults(coll, &t);
    t.min_bytes[direct->id] = 4096;
    c = call_of(4, 4096, 1, false);
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == direct->id && d.reason == MCA_COLL_RSAG_REASON_AUTO, "%s auto direct",
          desc->name);
    c = call_of(4, 4095, 1, true);
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg != direct->id, "%s below the threshold", desc->name);
    c = call_of(4, 1 << 20, 1, true);
    c.contiguous = false;
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg != direct->id && d.alg != MCA_COLL_RSAG_DELEGATE, "%s auto, non-contiguous",
          desc->name);

    /* only algorithms every call can use count as covering small sizes */
    for (int id = 1; id <= desc->nalgs; ++id) {
        t.min_bytes[id] = (id == direct->id) ? 0 : 1000;
    }
    CHECK(mca_coll_rsag_uncovered_below(coll, &t, 0) == 1000, "%s direct does not cover",
          desc->name);
}

/* The node-aware rows: every collective has a "hierarchical" row that
 * needs a commutative op and several nodes with the same number (>= 2) of
 * ranks on each; only the "several nodes" class can give it a threshold;
 * forced where it does not apply it falls back, saying what is missing;
 * it never counts as covering small messages. */
static void test_hierarchical(mca_coll_rsag_coll_t coll)
{
    const mca_coll_rsag_coll_desc_t *desc = &mca_coll_rsag_colls[coll];
    const mca_coll_rsag_alg_desc_t *hier = row_named(coll, "hierarchical");
    mca_coll_rsag_tuning_t t, autot;
    mca_coll_rsag_decision_t d;
    mca_coll_rsag_call_t c;
    bool picked = false;
    int fallback;

    mca_coll_rsag_tuning_defaults(coll, &autot);
    CHECK(NULL != hier, "%s has a hierarchical row", desc->name);
    if (NULL == hier) {
        return;
    }
    CHECK(hier->restrictions == (MCA_COLL_RSAG_NEEDS_COMMUTATIVE | MCA_COLL_RSAG_NEEDS_MULTI_NODE),
          "%s hierarchical restrictions", desc->name);
    for (int k = 0; k < MCA_COLL_RSAG_NUM_SIZE_CLASSES; ++k) {
        CHECK(hier->default_min_bytes[k] == (size_t) MCA_COLL_RSAG_OFF,
              "%s hierarchical is off in size class %d", desc->name, k);
    }
    CHECK(hier->default_min_bytes[MCA_COLL_RSAG_CLASS_NODES] < (size_t) MCA_COLL_RSAG_OFF,
          "%s hierarchical has a threshold for several nodes", desc->name);

    /* applicable: N >= 2 nodes, S >= 1 ranks on the smallest, one node
     * with >= 2 (p > N), commutative; even and uneven nodes */
    for (int nodes = 0; nodes <= 5; ++nodes) {
        for (int rpn = 0; rpn <= 4; ++rpn) {
            for (int more = 0; more <= 2; ++more) {
                int p = nodes * rpn > 0 ? nodes * rpn + more : 5;
                c = call_of(p, 1 << 20, 8, true);
                c.single_node = nodes <= 1;
                c.nodes = nodes;
                c.min_ranks_per_node = rpn;
                CHECK((0 == mca_coll_rsag_unmet(hier, &c)) == (nodes >= 2 && rpn >= 1 && p > nodes),
                      "%s nodes=%d smallest node=%d p=%d", desc->name, nodes, rpn, p);
            }
        }
    }

    /* auto takes it on several nodes from its threshold on */
    c = call_of(4, 1, 8, true);
    c.single_node = false;
    c.nodes = 2;
    c.min_ranks_per_node = 2;
    for (size_t bytes = 8; bytes <= ((size_t) 1 << 30); bytes *= 2) {
        d = select_bytes(coll, &c, bytes, &autot);
        CHECK(d.comm_class == MCA_COLL_RSAG_CLASS_NODES, "%s class several nodes", desc->name);
        CHECK(bytes >= hier->default_min_bytes[MCA_COLL_RSAG_CLASS_NODES] || d.alg != hier->id,
              "%s auto at %zu bytes on 2 x 2: %d", desc->name, bytes, d.alg);
        /* from its threshold on it goes ahead of every flat row */
        CHECK(bytes < hier->default_min_bytes[MCA_COLL_RSAG_CLASS_NODES]
                  || (d.below && node_aware(coll, d.alg)) || d.alg == hier->id,
              "%s auto at %zu bytes on 2 x 2: %d, not hierarchical", desc->name, bytes, d.alg);
        CHECK(d.alg == reference_auto(coll, &c, &autot), "%s reference", desc->name);
        picked |= (d.alg == hier->id);
    }
    CHECK(picked, "%s: auto takes hierarchical at some size on 2 x 2", desc->name);
    /* one rank on each of 4 nodes: no node-aware row applies, the flat
     * rows of the several-nodes column decide */
    c.nodes = 4;
    c.min_ranks_per_node = 1;
    for (size_t bytes = 8; bytes <= ((size_t) 1 << 30); bytes *= 2) {
        d = select_bytes(coll, &c, bytes, &autot);
        CHECK(d.alg != MCA_COLL_RSAG_DELEGATE && !node_aware(coll, d.alg)
                  && d.alg == reference_auto(coll, &c, &autot),
              "%s auto at %zu bytes on 4 x 1: %d", desc->name, bytes, d.alg);
    }
    /* ... never on one node, nor on 2+1+2 */
    for (int p = 2; p <= 70; p += 7) {
        c = call_of(p, 1 << 24, 8, true);
        d = mca_coll_rsag_select(coll, &c, &autot);
        CHECK(d.alg != hier->id, "%s p=%d one node: auto picked hierarchical", desc->name, p);
    }

    mca_coll_rsag_tuning_defaults(coll, &t);
    t.forced = hier->id;
    c = call_of(5, 1 << 20, 8, true);       /* one node */
    fallback = mca_coll_rsag_select(coll, &c, &autot).alg;
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == fallback && d.alg != hier->id && d.reason == MCA_COLL_RSAG_REASON_FALLBACK
              && d.unmet == MCA_COLL_RSAG_NEEDS_MULTI_NODE, "%s forced on one node -> %d",
          desc->name, d.alg);
    CHECK(0 == strcmp(mca_coll_rsag_restriction_text(d.unmet),
                      "several nodes, one of them with >= 2 ranks"),
          "multi-node text");
    c.single_node = false;                  /* 2+1+2: runs */
    c.nodes = 3;
    c.min_ranks_per_node = 1;
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == hier->id && d.reason == MCA_COLL_RSAG_REASON_FORCED
              && d.comm_class == MCA_COLL_RSAG_CLASS_NODES, "%s forced on 2+1+2", desc->name);
    c.min_ranks_per_node = 0;               /* sub-communicators failed */
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg != hier->id && d.alg != MCA_COLL_RSAG_DELEGATE
              && d.reason == MCA_COLL_RSAG_REASON_FALLBACK
              && d.unmet == MCA_COLL_RSAG_NEEDS_MULTI_NODE, "%s forced, unavailable", desc->name);
    c = call_of(4, 1 << 20, 8, true);       /* one rank on each of 4 nodes */
    c.single_node = false;
    c.nodes = 4;
    c.min_ranks_per_node = 1;
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg != hier->id && d.reason == MCA_COLL_RSAG_REASON_FALLBACK
              && d.unmet == MCA_COLL_RSAG_NEEDS_MULTI_NODE, "%s forced, 1 per node", desc->name);
    c = call_of(4, 1 << 20, 8, false);      /* 2 x 2, non-commutative */
    c.single_node = false;
    c.nodes = 2;
    c.min_ranks_per_node = 2;
    d = mca_coll_rsag_select(coll, &c, &t);
    /* the fallback, or the previous module: `ordered` applies, but auto in
     * off mode leaves it to the forced or to placement mode */
    CHECK(d.alg != hier->id && d.reason != MCA_COLL_RSAG_REASON_FORCED
              && ((d.unmet & MCA_COLL_RSAG_NEEDS_COMMUTATIVE)
                  || (MCA_COLL_RSAG_DELEGATE == d.alg
                      && MCA_COLL_RSAG_REASON_UNCOVERED == d.reason)),
          "%s forced, non-commutative", desc->name);
    c.commutative = true;
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == hier->id && d.reason == MCA_COLL_RSAG_REASON_FORCED, "%s forced on 2 x 2",
          desc->name);

    /* it does not cover small messages for calls it cannot take */
    for (int id = 1; id <= desc->nalgs; ++id) {
        t.min_bytes[id] = (id == hier->id) ? 0 : 1000;
    }
    CHECK(mca_coll_rsag_uncovered_below(coll, &t, MCA_COLL_RSAG_CLASS_NODES) == 1000,
          "%s hierarchical does not cover", desc->name);
}

/* `leaders`: the row, its restrictions, and auto's "below" rule: taken
 * below coll_rsag_<coll>_leaders_max_bytes on several nodes (even and
 * uneven), ahead of every threshold; never on one node nor one rank per
 * node; 0 turns the rule off; forced, at any size. */
static void test_leaders(mca_coll_rsag_coll_t coll)
{
    const mca_coll_rsag_coll_desc_t *desc = &mca_coll_rsag_colls[coll];
    const mca_coll_rsag_alg_desc_t *lead = row_named(coll, "leaders");
    mca_coll_rsag_tuning_t t;
    mca_coll_rsag_decision_t d;
    mca_coll_rsag_call_t c;
    long max;

    CHECK(NULL != lead, "%s has a leaders row", desc->name);
    if (NULL == lead) {
        return;
    }
    CHECK(lead->restrictions == (MCA_COLL_RSAG_NEEDS_COMMUTATIVE | MCA_COLL_RSAG_NEEDS_MULTI_NODE),
          "%s leaders restrictions", desc->name);
    mca_coll_rsag_tuning_defaults(coll, &t);
    max = t.max_bytes[lead->id];
    /* the table's defaults: allreduce 64 KiB, reduce 4 KiB, the reduce-scatters 128 KiB */
    CHECK(max == (MCA_COLL_RSAG_ALLREDUCE == coll ? 65536 : MCA_COLL_RSAG_REDUCE == coll ? 4096 : 131072),
          "%s leaders below its default bound", desc->name);
    for (int id = 1; id <= desc->nalgs; ++id) {
        CHECK(id == lead->id || t.max_bytes[id] < 0, "%s only leaders has a bound", desc->name);
    }
    for (int shape = 0; shape < 4; ++shape) {
        /* 2 x 2, 2+1+2, one node of 5, 4 nodes x 1 */
        static const int P[] = { 4, 5, 5, 4 }, NODES[] = { 2, 3, 1, 4 }, S[] = { 2, 1, 5, 1 };
        bool takes = shape < 2;
        c = call_of(P[shape], 1, 8, true);
        c.single_node = (1 == NODES[shape]);
        c.nodes = NODES[shape];
        c.min_ranks_per_node = S[shape];
        for (size_t bytes = 8; bytes <= ((size_t) 1 << 24); bytes *= 2) {
            c.count = bytes / 8;
            c.bytes = bytes;
            d = mca_coll_rsag_select(coll, &c, &t);
            CHECK((d.alg == lead->id) == (takes && bytes < (size_t) max),
                  "%s shape %d bytes %zu -> %d", desc->name, shape, bytes, d.alg);
            CHECK(d.alg == reference_auto(coll, &c, &t), "%s reference", desc->name);
            if (d.alg == lead->id) {
                CHECK(d.below && d.threshold == (size_t) max
                          && d.reason == MCA_COLL_RSAG_REASON_AUTO, "%s below", desc->name);
            }
        }
        c.commutative = false;
        c.count = 1;
        c.bytes = 8;
        CHECK(mca_coll_rsag_select(coll, &c, &t).alg != lead->id, "%s non-commutative",
              desc->name);
    }
    c = call_of(4, 1, 8, true);
    c.single_node = false;
    c.nodes = 2;
    c.min_ranks_per_node = 2;
    t.max_bytes[lead->id] = 0;
    CHECK(mca_coll_rsag_select(coll, &c, &t).alg != lead->id, "%s max 0: off", desc->name);
    t.forced = lead->id;
    c.count = (size_t) 1 << 24;
    c.bytes = c.count * 8;
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == lead->id && d.reason == MCA_COLL_RSAG_REASON_FORCED, "%s forced large",
          desc->name);
}

/* Every combination of restriction bits has its own text. */
static void test_restriction_texts(void)
{
    for (unsigned a = 0; a < (1u << MCA_COLL_RSAG_NUM_RESTRICTIONS); ++a) {
        const char *ta = mca_coll_rsag_restriction_text(a);
        CHECK(NULL != ta && '\0' != ta[0], "text of %u", a);
        for (unsigned b = 0; b < a; ++b) {
            CHECK(0 != strcmp(ta, mca_coll_rsag_restriction_text(b)), "texts %u and %u", a, b);
        }
    }
}

/* Placement mode (call.rank_order): only rows that fold in rank order;
 * `direct` where it applies, else `ordered`, whatever the size, the
 * forced algorithm, the op or the placement; never the previous module
 * while a datatype is supported; a forced rank-order row stays. */
static void test_placement(mca_coll_rsag_coll_t coll)
{
    const mca_coll_rsag_coll_desc_t *desc = &mca_coll_rsag_colls[coll];
    const mca_coll_rsag_alg_desc_t *direct = row_named(coll, "direct");
    const mca_coll_rsag_alg_desc_t *ordered = row_named(coll, "ordered");
    mca_coll_rsag_tuning_t t;
    mca_coll_rsag_decision_t d;
    int nrank_order = 0;

    CHECK(NULL != direct && NULL != ordered, "%s has direct and ordered", desc->name);
    if (NULL == direct || NULL == ordered) {
        return;
    }
    for (int i = 0; i < desc->nalgs; ++i) {
        nrank_order += 0 != (desc->algs[i].restrictions & MCA_COLL_RSAG_FOLDS_IN_RANK_ORDER);
    }
    CHECK(2 == nrank_order && (direct->restrictions & MCA_COLL_RSAG_FOLDS_IN_RANK_ORDER)
              && (ordered->restrictions & MCA_COLL_RSAG_FOLDS_IN_RANK_ORDER)
              && 0 == (ordered->restrictions & ((1u << MCA_COLL_RSAG_NUM_RESTRICTIONS) - 1u))
              && ordered->layout == MCA_COLL_RSAG_LAYOUT_RANKS,
          "%s: direct and ordered fold in rank order, ordered needs nothing", desc->name);
    for (int k = 0; k < MCA_COLL_RSAG_NUM_COMM_CLASSES; ++k) {
        CHECK(ordered->default_min_bytes[k] == (size_t) MCA_COLL_RSAG_OFF,
              "%s ordered: never auto's in off mode (class %d)", desc->name, k);
    }
    mca_coll_rsag_tuning_defaults(coll, &t);
    for (int forced = 0; forced <= desc->nalgs; ++forced) {
        for (int p = 2; p <= 12; ++p) {
            for (size_t count = 1; count <= ((size_t) 1 << 20); count *= 8) {
                for (int shape = 0; shape < 6; ++shape) {
                    mca_coll_rsag_call_t c = call_of(p, count, 8, 0 != (shape & 1));
                    bool on_node = shape < 2;
                    int want;

                    t.forced = forced;
                    c.rank_order = true;
                    if (!on_node) {             /* 2 nodes, or a non-contiguous type */
                        c.single_node = false;
                        c.nodes = (shape < 4) ? 2 : 1;
                        c.min_ranks_per_node = (shape < 4) ? 1 : p;
                        c.contiguous = shape >= 4 ? false : true;
                    }
                    want = (on_node && forced != ordered->id) ? direct->id : ordered->id;
                    d = mca_coll_rsag_select(coll, &c, &t);
                    CHECK(d.alg == want, "%s placement p %d count %zu shape %d forced %d: %d",
                          desc->name, p, count, shape, forced, d.alg);
                    if (forced > 0 && forced != direct->id && forced != ordered->id) {
                        CHECK(MCA_COLL_RSAG_REASON_PLACEMENT == d.reason,
                              "%s placement replaces forced %d", desc->name, forced);
                    }
                    c.rank_order = false;       /* off: never ordered by auto */
                    t.forced = MCA_COLL_RSAG_AUTO;
                    d = mca_coll_rsag_select(coll, &c, &t);
                    CHECK(d.alg != ordered->id, "%s off: auto never ordered", desc->name);
                }
            }
        }
    }
    {
        mca_coll_rsag_call_t c = call_of(4, 100, 8, true);

        c.rank_order = true;
        c.dtype_supported = false;              /* the one case that still delegates */
        t.forced = MCA_COLL_RSAG_AUTO;
        d = mca_coll_rsag_select(coll, &c, &t);
        CHECK(MCA_COLL_RSAG_DELEGATE == d.alg && MCA_COLL_RSAG_REASON_DATATYPE == d.reason,
              "%s placement, extent <= 0: delegated", desc->name);
        c.dtype_supported = true;               /* a threshold set for ordered is honoured */
        c.single_node = false;
        c.nodes = 2;
        t.min_bytes[ordered->id] = 0;
        d = mca_coll_rsag_select(coll, &c, &t);
        CHECK(d.alg == ordered->id && !d.first, "%s placement, ordered by threshold",
              desc->name);
        t.min_bytes[ordered->id] = MCA_COLL_RSAG_MIN_BYTES_BY_CLASS;
        d = mca_coll_rsag_select(coll, &c, &t);
        CHECK(d.alg == ordered->id && d.first, "%s placement, ordered as the first row",
              desc->name);
    }
}

/* Exact mode (call.whole_fold): only the rows that fold whole, `direct`
 * and `ordered`.  `direct` wherever it applies, whatever the size (auto or
 * forced direct); elsewhere `ordered`, except for a call exact's one
 * collective takes (call.exact_gather): then no row ("delegate": the
 * dispatcher runs exact's own collectives).  A forced `ordered` runs
 * every call. */
/* MPI_Reduce's chain (MCA_COLL_RSAG_FILLS_PIPE): on several nodes, one rank
 * on each, auto takes it from its threshold for a message of at least
 * p - 1 segments (call.pipe_full, which the dispatcher computes) and
 * Rabenseifner, which shares the threshold, otherwise; forced, it runs at
 * any size; a non-commutative op never gets it. */
static void test_chain(void)
{
    const mca_coll_rsag_alg_desc_t *chain = row_named(MCA_COLL_RSAG_REDUCE, "chain");
    const mca_coll_rsag_alg_desc_t *raben = row_named(MCA_COLL_RSAG_REDUCE, "rabenseifner");
    const size_t seg = MCA_COLL_RSAG_EXCHANGE_DEFAULT_CHUNK;
    mca_coll_rsag_tuning_t t;

    CHECK(NULL != chain && NULL != raben && (chain->restrictions & MCA_COLL_RSAG_FILLS_PIPE),
          "reduce has chain (FILLS_PIPE) and rabenseifner");
    if (NULL == chain || NULL == raben) {
        return;
    }
    mca_coll_rsag_tuning_defaults(MCA_COLL_RSAG_REDUCE, &t);
    for (int p = 2; p <= 64; p *= 2) {
        for (size_t bytes = 65536; bytes <= ((size_t) 16 << 20); bytes *= 4) {
            for (int forced = 0; forced <= 1; ++forced) {
                for (int comm = 0; comm <= 1; ++comm) {
                    mca_coll_rsag_call_t c = call_of(p, bytes / 8, 8, 1 == comm);
                    size_t segments = (bytes + seg - 1) / seg;
                    mca_coll_rsag_decision_t d;
                    int want;

                    c.single_node = false;
                    c.nodes = p;
                    c.min_ranks_per_node = 1;
                    c.pipe_full = segments + 1 >= (size_t) p;
                    t.forced = forced ? chain->id : 0;
                    d = mca_coll_rsag_select(MCA_COLL_RSAG_REDUCE, &c, &t);
                    want = !comm ? d.alg : (forced || c.pipe_full) ? chain->id : raben->id;
                    CHECK(d.alg == want && (comm || d.alg != chain->id),
                          "reduce p %d x 1, %zu bytes, forced %d, commutative %d: %d (want %d)",
                          p, bytes, forced, comm, d.alg, want);
                }
            }
        }
    }
}

static void test_exact_fold(mca_coll_rsag_coll_t coll)
{
    const mca_coll_rsag_coll_desc_t *desc = &mca_coll_rsag_colls[coll];
    const mca_coll_rsag_alg_desc_t *direct = row_named(coll, "direct");
    const mca_coll_rsag_alg_desc_t *ordered = row_named(coll, "ordered");
    mca_coll_rsag_tuning_t t;
    mca_coll_rsag_decision_t d;
    int nwhole = 0;

    for (int i = 0; i < desc->nalgs; ++i) {
        nwhole += 0 != (desc->algs[i].restrictions & MCA_COLL_RSAG_FOLDS_WHOLE);
    }
    CHECK(2 == nwhole && NULL != direct && (direct->restrictions & MCA_COLL_RSAG_FOLDS_WHOLE)
          && NULL != ordered && (ordered->restrictions & MCA_COLL_RSAG_FOLDS_WHOLE),
          "%s: direct and ordered fold whole", desc->name);
    if (NULL == direct || NULL == ordered) {
        return;
    }
    mca_coll_rsag_tuning_defaults(coll, &t);
    for (int p = 2; p <= 12; ++p) {
        for (size_t count = 1; count <= ((size_t) 1 << 20); count *= 8) {
            for (int shape = 0; shape < 8; ++shape) {
                mca_coll_rsag_call_t c = call_of(p, count, 8, true);
                bool on_node = 0 == shape % 4, gather = shape >= 4;
                int off_node = gather ? MCA_COLL_RSAG_DELEGATE : ordered->id;

                if (1 == shape % 4) {
                    c.single_node = false;          /* two nodes */
                    c.nodes = 2;
                    c.min_ranks_per_node = 1;
                } else if (2 == shape % 4) {
                    c.single_node = false;          /* a request before the segment */
                    c.nonblocking = true;
                } else if (3 == shape % 4) {
                    c.unordered_start = true;       /* persistent, starts not ordered */
                    c.nonblocking = true;
                }
                c.whole_fold = true;
                c.exact_gather = gather;
                t.forced = MCA_COLL_RSAG_AUTO;
                d = mca_coll_rsag_select(coll, &c, &t);
                CHECK(d.alg == (on_node ? direct->id : off_node),
                      "%s exact p %d count %zu shape %d: %d", desc->name, p, count, shape, d.alg);
                t.forced = direct->id;
                d = mca_coll_rsag_select(coll, &c, &t);
                CHECK(d.alg == (on_node ? direct->id : off_node),
                      "%s exact forced direct p %d shape %d: %d", desc->name, p, shape, d.alg);
                t.forced = ordered->id;
                d = mca_coll_rsag_select(coll, &c, &t);
                CHECK(d.alg == ordered->id, "%s exact forced ordered p %d shape %d: %d",
                      desc->name, p, shape, d.alg);
            }
        }
    }
}

/* An oversubscribed node (its own column, measured there): auto takes
 * `direct` from 1 byte for every collective and communicator size wherever
 * it runs; where it does not (a non-contiguous datatype, not one node), the
 * column's point-to-point rows with the fewest rounds: recursive doubling,
 * the binomial tree, recursive halving, at every size.  A set threshold (N >= 0) still holds for every
 * class, this one too. */
static void test_oversubscribed(mca_coll_rsag_coll_t coll)
{
    const mca_coll_rsag_coll_desc_t *desc = &mca_coll_rsag_colls[coll];
    const mca_coll_rsag_alg_desc_t *direct = row_named(coll, "direct");
    /* the row the column gives what direct cannot take */
    const mca_coll_rsag_alg_desc_t *fallback =
        row_named(coll, MCA_COLL_RSAG_ALLREDUCE == coll ? "recursive_doubling"
                        : MCA_COLL_RSAG_REDUCE == coll  ? "binomial"
                                                        : "recursive_halving");
    mca_coll_rsag_tuning_t t;
    mca_coll_rsag_decision_t d;
    mca_coll_rsag_call_t c;

    CHECK(NULL != direct && NULL != fallback, "%s has direct and its fallback", desc->name);
    if (NULL == direct || NULL == fallback) {
        return;
    }
    mca_coll_rsag_tuning_defaults(coll, &t);
    for (int p = 1; p <= 70; p += 3) {
        for (size_t bytes = 1; bytes <= ((size_t) 1 << 30); bytes <<= 2) {
            c = call_of(p, bytes, 1, true);
            c.oversubscribed = true;
            d = mca_coll_rsag_select(coll, &c, &t);
            CHECK(d.alg == direct->id && d.comm_class == MCA_COLL_RSAG_CLASS_OVERSUBSCRIBED
                      && d.by_class && d.threshold == 1,
                  "%s p=%d bytes=%zu oversubscribed: direct by the class default (got %d)",
                  desc->name, p, bytes, d.alg);
            c.contiguous = false;
            d = mca_coll_rsag_select(coll, &c, &t);
            CHECK(d.alg == fallback->id,
                  "%s p=%d bytes=%zu oversubscribed, non-contiguous: %s, not %d", desc->name, p,
                  bytes, fallback->name, d.alg);
            /* several nodes: that class, whatever the node's load */
            c.contiguous = true;
            c.nodes = 2;
            c.single_node = false;
            d = mca_coll_rsag_select(coll, &c, &t);
            CHECK(d.comm_class == MCA_COLL_RSAG_CLASS_NODES && d.alg != direct->id,
                  "%s p=%d bytes=%zu oversubscribed on several nodes", desc->name, p, bytes);
        }
    }
    /* a threshold set for every class holds here too */
    t.min_bytes[direct->id] = 4096;
    c = call_of(8, 1024, 1, true);
    c.oversubscribed = true;
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg != direct->id, "%s set threshold, oversubscribed", desc->name);
    c = call_of(8, 4096, 1, true);
    c.oversubscribed = true;
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == direct->id && !d.by_class && d.threshold == 4096,
          "%s set threshold met, oversubscribed", desc->name);
}

int main(void)
{
    for (int coll = 0; coll < MCA_COLL_RSAG_NUM_COLLS; ++coll) {
        test_oversubscribed((mca_coll_rsag_coll_t) coll);
    }
    for (int coll = 0; coll < MCA_COLL_RSAG_NUM_COLLS; ++coll) {
        test_placement((mca_coll_rsag_coll_t) coll);
        test_exact_fold((mca_coll_rsag_coll_t) coll);
    }
    test_restriction_texts();
    test_chain();
    for (int coll = 0; coll < MCA_COLL_RSAG_NUM_COLLS; ++coll) {
        test_direct((mca_coll_rsag_coll_t) coll);
        test_hierarchical((mca_coll_rsag_coll_t) coll);
        test_leaders((mca_coll_rsag_coll_t) coll);
    }
    test_classes();
    test_validation();
    for (int coll = 0; coll < MCA_COLL_RSAG_NUM_COLLS; ++coll) {
        test_class_defaults((mca_coll_rsag_coll_t) coll);
    }
    test_override(MCA_COLL_RSAG_ALLREDUCE, MCA_COLL_RSAG_ALLREDUCE_RING);
    test_override(MCA_COLL_RSAG_ALLREDUCE, MCA_COLL_RSAG_ALLREDUCE_RABENSEIFNER);
    test_override(MCA_COLL_RSAG_REDUCE, MCA_COLL_RSAG_REDUCE_RABENSEIFNER);
    test_override(MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK, MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK_RING);
    test_override(MCA_COLL_RSAG_REDUCE_SCATTER, MCA_COLL_RSAG_REDUCE_SCATTER_PRIORITY_AWARE);
    test_tables();
    test_auto(MCA_COLL_RSAG_ALLREDUCE, MCA_COLL_RSAG_ALLREDUCE_RECURSIVE_DOUBLING,
              MCA_COLL_RSAG_ALLREDUCE_RABENSEIFNER);
    test_auto(MCA_COLL_RSAG_REDUCE, MCA_COLL_RSAG_REDUCE_BINOMIAL,
              MCA_COLL_RSAG_REDUCE_RABENSEIFNER);
    test_forced(MCA_COLL_RSAG_ALLREDUCE, MCA_COLL_RSAG_ALLREDUCE_RECURSIVE_DOUBLING,
                MCA_COLL_RSAG_ALLREDUCE_RABENSEIFNER);
    test_forced(MCA_COLL_RSAG_REDUCE, MCA_COLL_RSAG_REDUCE_BINOMIAL,
                MCA_COLL_RSAG_REDUCE_RABENSEIFNER);
    test_ring(MCA_COLL_RSAG_ALLREDUCE, MCA_COLL_RSAG_ALLREDUCE_RING,
              MCA_COLL_RSAG_ALLREDUCE_RECURSIVE_DOUBLING);
    test_ring(MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK, MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK_RING,
              MCA_COLL_RSAG_DELEGATE);
    test_ring(MCA_COLL_RSAG_REDUCE_SCATTER, MCA_COLL_RSAG_REDUCE_SCATTER_RING,
              MCA_COLL_RSAG_DELEGATE);
    test_delegation(MCA_COLL_RSAG_ALLREDUCE, MCA_COLL_RSAG_ALLREDUCE_RECURSIVE_DOUBLING);
    test_delegation(MCA_COLL_RSAG_REDUCE, MCA_COLL_RSAG_REDUCE_BINOMIAL);
    return unit_report("test_select");
}
