/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Unit tests of coll_rsag_stream.c: the streaming copy writes exactly the
 * bytes of a memcpy, for every alignment of source and target against a
 * cache line and every length across the head, line, piece and tail paths,
 * and nothing around them; mca_coll_rsag_copy_for_peer likewise on both
 * sides of its threshold; the learner of coll_rsag_direct_stream auto
 * against a simulated machine whose faster way changes; the copy learner
 * of coll_rsag_single_copy auto, four ranks voting, likewise, every rank
 * taking the same way at every call.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll_rsag_stream.h"
#include "unit.h"

#define GUARD 80
#define MAXLEN (3 * 4096 + 200)

static unsigned char src_buf[MAXLEN + 2 * GUARD] __attribute__((aligned(64)));
static unsigned char dst_buf[MAXLEN + 2 * GUARD] __attribute__((aligned(64)));

/* Copy len bytes from src_buf + so to dst_buf + GUARD + doff with `copy`;
 * true when exactly those bytes changed, to the source's values. */
static int copied_exactly(size_t so, size_t doff, size_t len, size_t min_bytes, int use_peer)
{
    unsigned char *d = dst_buf + GUARD + doff;

    memset(dst_buf, 0xA5, sizeof(dst_buf));
    if (use_peer) {
        mca_coll_rsag_copy_for_peer(d, src_buf + so, len, min_bytes);
    } else {
        mca_coll_rsag_stream_copy(d, src_buf + so, len);
    }
    if (0 != memcmp(d, src_buf + so, len)) {
        return 0;
    }
    for (unsigned char *x = dst_buf; x < d; ++x) {
        if (0xA5 != *x) {
            return 0;
        }
    }
    for (unsigned char *x = d + len; x < dst_buf + sizeof(dst_buf); ++x) {
        if (0xA5 != *x) {
            return 0;
        }
    }
    return 1;
}

/* `calls` calls of the learner on a machine where a call costs `cached` or
 * `streamed` us: how many went the slower way; *switched_at: the first
 * call after which the preferred way changed (-1: none). */
static int slow_calls(mca_coll_rsag_stream_learner_t *l, size_t bytes, double cached,
                      double streamed, int calls, int *switched_at)
{
    int slow = 0;

    *switched_at = -1;
    for (int i = 0; i < calls; ++i) {
        bool trial, changed;
        mca_coll_rsag_stream_way_t way = mca_coll_rsag_stream_pick(l, bytes, &trial), now;
        double t = (MCA_COLL_RSAG_WAY_CACHED == way ? cached : streamed) * 1e-6;

        slow += (t > 1e-6 * (cached < streamed ? cached : streamed));
        changed = mca_coll_rsag_stream_learn(l, bytes, way, trial, t, &now);
        if (changed && *switched_at < 0) {
            *switched_at = i;
        }
    }
    return slow;
}

static void test_learner(void)
{
    static mca_coll_rsag_stream_learner_t l;     /* zeroed: nothing known */
    size_t mb = 1 << 20;
    bool trial;
    int at, slow;

    /* the first calls of a class try both ways, alternately */
    for (int i = 0; i < MCA_COLL_RSAG_STREAM_FIRST; ++i) {
        mca_coll_rsag_stream_way_t now, way = mca_coll_rsag_stream_pick(&l, mb, &trial);

        CHECK(trial && way == (i % 2 ? MCA_COLL_RSAG_WAY_STREAMED : MCA_COLL_RSAG_WAY_CACHED),
              "first call %d: way %d trial %d", i, (int) way, (int) trial);
        (void) mca_coll_rsag_stream_learn(&l, mb, way, trial,
                                          (MCA_COLL_RSAG_WAY_CACHED == way ? 70 : 140) * 1e-6,
                                          &now);
    }
    CHECK(MCA_COLL_RSAG_WAY_CACHED == mca_coll_rsag_stream_preferred(&l, mb),
          "cached is faster: preferred");
    /* steady: the slower way only on the retries */
    slow = slow_calls(&l, mb, 70, 140, 640, &at);
    CHECK(slow == 640 / MCA_COLL_RSAG_STREAM_RETRY, "steady: %d calls the slow way", slow);
    CHECK(at < 0, "steady: switched at call %d", at);
    /* the cores stop sharing a cache: streamed wins within a few calls */
    slow = slow_calls(&l, mb, 480, 90, 640, &at);
    CHECK(at >= 0 && at <= 3, "cached got slow: switched at call %d", at);
    CHECK(slow <= 4 + 640 / MCA_COLL_RSAG_STREAM_RETRY, "cached got slow: %d slow calls", slow);
    CHECK(MCA_COLL_RSAG_WAY_STREAMED == mca_coll_rsag_stream_preferred(&l, mb), "now streamed");
    /* and back: found at the next retry of the other way */
    slow = slow_calls(&l, mb, 70, 140, 640, &at);
    CHECK(at >= 0 && at <= MCA_COLL_RSAG_STREAM_RETRY, "cached fast again: switched at %d", at);
    CHECK(slow <= MCA_COLL_RSAG_STREAM_RETRY + 640 / MCA_COLL_RSAG_STREAM_RETRY,
          "cached fast again: %d slow calls", slow);
    /* one preempted call of the preferred way does not switch */
    {
        mca_coll_rsag_stream_way_t now;

        do {    /* past any retry due now */
            (void) mca_coll_rsag_stream_pick(&l, mb, &trial);
            if (trial) {
                (void) mca_coll_rsag_stream_learn(&l, mb, MCA_COLL_RSAG_WAY_STREAMED, true,
                                                  140e-6, &now);
            }
        } while (trial);
        CHECK(!mca_coll_rsag_stream_learn(&l, mb, MCA_COLL_RSAG_WAY_CACHED, false, 50000e-6,
                                          &now) && MCA_COLL_RSAG_WAY_CACHED == now,
              "one 50 ms call switched the way");
    }
    /* two ways within 10 % of each other: no switching back and forth */
    slow = slow_calls(&l, mb, 100, 95, 640, &at);
    CHECK(at < 0, "near-equal ways: switched at call %d", at);
    /* size classes are learned apart: 64 KiB knows nothing yet */
    (void) mca_coll_rsag_stream_pick(&l, 64 * 1024, &trial);
    CHECK(trial, "a new size class starts with trials");
}

/* The copy learner: R ranks make the same calls; at each call every rank
 * asks whether a vote is due (the same answer everywhere), the vote takes
 * each way's slowest rank, and every rank picks.  A call of way w costs
 * rank r cost[w] * (1 + r / 10) us (the last rank is the slowest).
 * Returns how many calls went the slower way; *switched_at: the first call
 * at which the agreed way changed after the first vote (-1: none). */
#define RANKS 4
static int voted_calls(mca_coll_rsag_copy_learner_t l[RANKS], size_t bytes, double seg,
                       double cma, int calls, int *switched_at)
{
    int slow = 0;

    *switched_at = -1;
    for (int i = 0; i < calls; ++i) {
        int way[RANKS], before = mca_coll_rsag_copy_agreed(&l[0], bytes);
        bool trial[RANKS], due = mca_coll_rsag_copy_vote_due(&l[0], bytes);

        for (int r = 1; r < RANKS; ++r) {
            CHECK(due == mca_coll_rsag_copy_vote_due(&l[r], bytes), "call %d: vote due on rank "
                  "%d and not on rank 0, or the other way round", i, r);
        }
        if (due) {
            double agreed[2] = { 0, 0 };

            for (int r = 0; r < RANKS; ++r) {
                for (int w = 0; w < 2; ++w) {
                    double c = mca_coll_rsag_copy_cost(&l[r], bytes, w);
                    agreed[w] = c > agreed[w] ? c : agreed[w];
                }
            }
            for (int r = 0; r < RANKS; ++r) {
                (void) mca_coll_rsag_copy_settle(&l[r], bytes, agreed);
            }
            if (mca_coll_rsag_copy_agreed(&l[0], bytes) != before && i > MCA_COLL_RSAG_COPY_FIRST
                && *switched_at < 0) {
                *switched_at = i;
            }
        }
        for (int r = 0; r < RANKS; ++r) {
            way[r] = mca_coll_rsag_copy_pick(&l[r], bytes, &trial[r]);
            CHECK(way[r] == way[0] && trial[r] == trial[0], "call %d: rank %d goes way %d, rank "
                  "0 way %d", i, r, way[r], way[0]);
            mca_coll_rsag_copy_record(&l[r], bytes, way[r], true,
                                      1e-6 * (way[r] ? cma : seg) * (1 + r / 10.0));
        }
        slow += (way[0] ? cma : seg) > (cma < seg ? cma : seg);
    }
    return slow;
}

static void test_copy_learner(void)
{
    static mca_coll_rsag_copy_learner_t l[RANKS];
    size_t mb = 1 << 20;
    int slow, at, n0 = MCA_COLL_RSAG_COPY_FIRST + 640;
    int first_other = MCA_COLL_RSAG_COPY_FIRST - MCA_COLL_RSAG_COPY_CMA_FIRST;

    /* CMA faster: decided after the first trials (the segment's calls of
     * them went the slow way), then runs of segment trials ever further
     * apart: 73, 204, 463 */
    slow = voted_calls(l, mb, 400, 250, n0, &at);
    CHECK(1 == mca_coll_rsag_copy_agreed(&l[0], mb), "CMA faster: agreed on CMA");
    CHECK(slow == first_other + 3 * MCA_COLL_RSAG_COPY_RETRY_RUN,
          "CMA faster: %d calls the slow way, not %d", slow,
          first_other + 3 * MCA_COLL_RSAG_COPY_RETRY_RUN);
    CHECK(at < 0, "steady machine: switched at call %d", at);
    /* a long steady stretch: the trials cost under 1 % */
    slow = voted_calls(l, mb, 400, 250, 20000, &at);
    CHECK(slow < 20000 / 100 && at < 0, "steady for 20000 calls: %d slow calls, switched at %d",
          slow, at);
    /* the segment gets faster: switched at the vote after its next run,
     * at most COPY_RETRY_MAX calls away */
    slow = voted_calls(l, mb, 150, 250, 2000, &at);
    CHECK(0 == mca_coll_rsag_copy_agreed(&l[0], mb), "segment faster now: agreed on it");
    CHECK(at >= 0 && at <= MCA_COLL_RSAG_COPY_RETRY_MAX + MCA_COLL_RSAG_COPY_RETRY_RUN,
          "segment faster now: switched at call %d", at);
    CHECK(slow <= MCA_COLL_RSAG_COPY_RETRY_MAX + 9 * MCA_COLL_RSAG_COPY_RETRY_RUN,
          "segment faster now: %d slow calls", slow);
    /* within 10 %: no switching back and forth */
    slow = voted_calls(l, mb, 150, 140, 640, &at);
    CHECK(0 == mca_coll_rsag_copy_agreed(&l[0], mb), "near-equal ways: stays");
    /* classes apart: 64 KiB starts with its own trials, segment first */
    {
        bool trial;
        CHECK(0 == mca_coll_rsag_copy_agreed(&l[0], 64 * 1024), "unlearned class: segment");
        CHECK(1 == mca_coll_rsag_copy_pick(&l[0], 64 * 1024, &trial) && trial,
              "a new class starts with a CMA trial");
    }
}

int main(void)
{
    static const size_t lens[] = { 0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 200, 1000,
                                   4095, 4096, 4097, 3 * 4096 + 77, MAXLEN };

    for (size_t i = 0; i < sizeof(src_buf); ++i) {
        src_buf[i] = (unsigned char) (i * 131 + 7);     /* never 0xA5 at every byte */
    }
    for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); ++li) {
        for (size_t doff = 0; doff < 64; ++doff) {
            for (size_t so = 0; so < 64; so += 5) {
                CHECK(copied_exactly(so, doff, lens[li], 0, 0),
                      "stream_copy len=%zu target offset %zu source offset %zu", lens[li], doff,
                      so);
            }
        }
    }
    for (size_t len = 0; len <= 300; ++len) {
        CHECK(copied_exactly(3, 9, len, 0, 0), "stream_copy len=%zu", len);
        CHECK(copied_exactly(3, 9, len, 128, 1), "copy_for_peer len=%zu (threshold 128)", len);
        CHECK(copied_exactly(0, 0, len, SIZE_MAX, 1), "copy_for_peer len=%zu (never)", len);
    }
    test_learner();
    test_copy_learner();
    printf("test_stream: streaming stores %s\n",
           mca_coll_rsag_stream_available() ? "used (x86-64 SSE2)" : "not available: memcpy");
    return unit_report("test_stream");
}
