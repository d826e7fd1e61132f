/*
 * Unit tests of the selector (coll_rsag_select.c) and of the algorithm
 * tables it reads: restrictions, forced algorithms and their fallback,
 * thresholds, delegation.
 */
#include <string.h>

#include "coll_rsag_index.h"
#include "coll_rsag_select.h"
#include "unit.h"

static mca_coll_rsag_call_t call_of(int p, size_t count, size_t type_size, bool commutative)
{
    mca_coll_rsag_call_t c = { p, count, count * type_size, commutative, true };
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
            universal |= (0 == (a->restrictions & ~MCA_COLL_RSAG_NEEDS_COMMUTATIVE)
                          && 0 == a->default_min_bytes);
        }
        CHECK(universal, "%s has a default algorithm for every commutative call", d->name);
        CHECK(mca_coll_rsag_alg((mca_coll_rsag_coll_t) coll, 0) == NULL
                  && mca_coll_rsag_alg((mca_coll_rsag_coll_t) coll, d->nalgs + 1) == NULL,
              "out-of-range ids");
        CHECK(strcmp(mca_coll_rsag_alg_name((mca_coll_rsag_coll_t) coll, 0), "auto") == 0,
              "id 0 is auto");
    }
}

static void test_auto(mca_coll_rsag_coll_t coll, int small_alg, int big_alg)
{
    mca_coll_rsag_tuning_t t;
    mca_coll_rsag_decision_t d;
    mca_coll_rsag_call_t c;
    size_t thr;

    mca_coll_rsag_tuning_defaults(coll, &t);
    thr = t.min_bytes[big_alg];
    CHECK(t.forced == MCA_COLL_RSAG_AUTO && thr > 0, "defaults");

    for (int p = 1; p <= 70; ++p) {
        int pof2 = mca_coll_rsag_pof2_floor(p);
        size_t big_count = thr / 4 > (size_t) pof2 ? thr / 4 : (size_t) pof2;

        /* below the threshold: the small-message algorithm */
        c = call_of(p, 1, 4, true);
        d = mca_coll_rsag_select(coll, &c, &t);
        CHECK(d.alg == small_alg
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

        /* large in bytes but count < p' (huge elements): no Rabenseifner */
        if (pof2 > 1) {
            c = call_of(p, (size_t) pof2 - 1, thr, true);
            d = mca_coll_rsag_select(coll, &c, &t);
            CHECK(d.alg == small_alg, "p=%d count < p' -> %d", p, d.alg);
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
    c = call_of(8, 1 << 20, 4, false);
    d = mca_coll_rsag_select(coll, &c, &t);
    CHECK(d.alg == small_alg && d.reason == MCA_COLL_RSAG_REASON_FALLBACK
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
 * below it, or for a non-commutative op, the ring is never chosen.
 * `noncomm` is what a large non-commutative call gets. */
static void test_ring(mca_coll_rsag_coll_t coll, int ring_alg, int below_alg, int noncomm)
{
    mca_coll_rsag_tuning_t t;
    mca_coll_rsag_decision_t d;
    mca_coll_rsag_call_t c;
    size_t thr;

    mca_coll_rsag_tuning_defaults(coll, &t);
    thr = t.min_bytes[ring_alg];
    CHECK(thr > 0, "%s ring threshold", mca_coll_rsag_colls[coll].name);
    for (int p = 1; p <= 70; ++p) {
        c = call_of(p, thr / 8, 8, true);
        d = mca_coll_rsag_select(coll, &c, &t);
        CHECK(d.alg == ring_alg, "p=%d at the ring threshold -> %d", p, d.alg);
        c = call_of(p, (thr - 8) / 8, 8, true);
        d = mca_coll_rsag_select(coll, &c, &t);
        CHECK(d.alg == below_alg, "p=%d below the ring threshold -> %d", p, d.alg);
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
    CHECK(d.alg != ring_alg && d.unmet == MCA_COLL_RSAG_NEEDS_COMMUTATIVE,
          "forced ring, non-commutative");
}

int main(void)
{
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
              MCA_COLL_RSAG_ALLREDUCE_RABENSEIFNER, MCA_COLL_RSAG_ALLREDUCE_RECURSIVE_DOUBLING);
    test_ring(MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK, MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK_RING,
              MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK_RECURSIVE_HALVING, MCA_COLL_RSAG_DELEGATE);
    test_ring(MCA_COLL_RSAG_REDUCE_SCATTER, MCA_COLL_RSAG_REDUCE_SCATTER_RING,
              MCA_COLL_RSAG_REDUCE_SCATTER_RECURSIVE_HALVING, MCA_COLL_RSAG_DELEGATE);
    test_delegation(MCA_COLL_RSAG_ALLREDUCE, MCA_COLL_RSAG_ALLREDUCE_RECURSIVE_DOUBLING);
    test_delegation(MCA_COLL_RSAG_REDUCE, MCA_COLL_RSAG_REDUCE_BINOMIAL);
    return unit_report("test_select");
}
