/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Streaming copies; see coll_rsag_stream.h.
 */
#include <stdint.h>
#include <string.h>

#include "coll_rsag_stream.h"

#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#define MCA_COLL_RSAG_HAVE_STREAM 1
#else
#define MCA_COLL_RSAG_HAVE_STREAM 0
#endif

bool mca_coll_rsag_stream_available(void)
{
    return MCA_COLL_RSAG_HAVE_STREAM;
}

void mca_coll_rsag_stream_copy(void *dst, const void *src, size_t bytes)
{
#if MCA_COLL_RSAG_HAVE_STREAM
    char *d = dst;
    const char *s = src;
    /* whole lines are streamed (four 16-byte stores fill one
     * write-combining buffer; a partial line would be written to memory
     * in pieces): the head up to the first line boundary goes by memcpy,
     * then the lines, then 16-byte pieces, then the tail by memcpy */
    size_t head = (size_t) (-(uintptr_t) d & 63);

    if (head > bytes) {
        head = bytes;
    }
    memcpy(d, s, head);
    d += head;
    s += head;
    bytes -= head;
    for (; bytes >= 64; bytes -= 64, d += 64, s += 64) {
        __m128i x0 = _mm_loadu_si128((const __m128i *) s);
        __m128i x1 = _mm_loadu_si128((const __m128i *) (s + 16));
        __m128i x2 = _mm_loadu_si128((const __m128i *) (s + 32));
        __m128i x3 = _mm_loadu_si128((const __m128i *) (s + 48));

        _mm_stream_si128((__m128i *) d, x0);
        _mm_stream_si128((__m128i *) (d + 16), x1);
        _mm_stream_si128((__m128i *) (d + 32), x2);
        _mm_stream_si128((__m128i *) (d + 48), x3);
    }
    for (; bytes >= 16; bytes -= 16, d += 16, s += 16) {
        _mm_stream_si128((__m128i *) d, _mm_loadu_si128((const __m128i *) s));
    }
    memcpy(d, s, bytes);
    _mm_sfence();
#else
    memcpy(dst, src, bytes);
#endif
}

static int mca_coll_rsag_stream_class(size_t bytes)
{
    int c = 0;

    while (bytes > 1 && c < MCA_COLL_RSAG_STREAM_CLASSES - 1) {
        bytes >>= 1;
        ++c;
    }
    return c;
}

double mca_coll_rsag_stream_cost(const mca_coll_rsag_stream_learner_t *l, size_t bytes,
                                 mca_coll_rsag_stream_way_t way)
{
    return l->cost[mca_coll_rsag_stream_class(bytes)][way];
}

mca_coll_rsag_stream_way_t mca_coll_rsag_stream_preferred(const mca_coll_rsag_stream_learner_t *l,
                                                          size_t bytes)
{
    int c = mca_coll_rsag_stream_class(bytes);

    if (l->calls[c] < MCA_COLL_RSAG_STREAM_FIRST) {
        return MCA_COLL_RSAG_WAY_STREAMED;
    }
    return (mca_coll_rsag_stream_way_t) l->way[c];
}

mca_coll_rsag_stream_way_t mca_coll_rsag_stream_pick(const mca_coll_rsag_stream_learner_t *l,
                                                     size_t bytes, bool *trial)
{
    int c = mca_coll_rsag_stream_class(bytes);
    unsigned long n = l->calls[c];
    mca_coll_rsag_stream_way_t best;

    if (n < MCA_COLL_RSAG_STREAM_FIRST) {
        *trial = true;      /* cached, streamed, cached, streamed: the first of
                               each way may pay the buffers' first touch */
        return (0 == (n & 1)) ? MCA_COLL_RSAG_WAY_CACHED : MCA_COLL_RSAG_WAY_STREAMED;
    }
    best = mca_coll_rsag_stream_preferred(l, bytes);
    *trial = (0 == n % MCA_COLL_RSAG_STREAM_RETRY);
    return *trial ? (mca_coll_rsag_stream_way_t) (1 - best) : best;
}

bool mca_coll_rsag_stream_learn(mca_coll_rsag_stream_learner_t *l, size_t bytes,
                                mca_coll_rsag_stream_way_t way, bool trial, double seconds,
                                mca_coll_rsag_stream_way_t *now)
{
    int c = mca_coll_rsag_stream_class(bytes);
    bool known = l->calls[c] >= MCA_COLL_RSAG_STREAM_FIRST;
    mca_coll_rsag_stream_way_t before = mca_coll_rsag_stream_preferred(l, bytes);
    double *cost = &l->cost[c][way];

    /* a trial replaces (the other way may have changed since it was last
     * timed); the preferred way's calls are averaged, each counted as at
     * most 4 times the average, so that one slow call (a preemption) does
     * not switch at once, but a lasting change does within a few calls */
    if (trial) {
        *cost = seconds;
    } else {
        *cost = 0.75 * *cost + 0.25 * (seconds < 4 * *cost ? seconds : 4 * *cost);
    }
    ++l->calls[c];
    if (MCA_COLL_RSAG_STREAM_FIRST == l->calls[c]) {
        l->way[c] = l->cost[c][MCA_COLL_RSAG_WAY_STREAMED] <= l->cost[c][MCA_COLL_RSAG_WAY_CACHED]
                        ? MCA_COLL_RSAG_WAY_STREAMED : MCA_COLL_RSAG_WAY_CACHED;
    } else if (known && l->cost[c][1 - before] < MCA_COLL_RSAG_STREAM_SWITCH * l->cost[c][before]) {
        l->way[c] = (unsigned char) (1 - before);
    }
    *now = mca_coll_rsag_stream_preferred(l, bytes);
    /* changed, or decided for the first time */
    return known ? *now != before : MCA_COLL_RSAG_STREAM_FIRST == l->calls[c];
}

/* ---- the copy mode, agreed by vote ----------------------------------------- */

bool mca_coll_rsag_copy_vote_due(const mca_coll_rsag_copy_learner_t *l, size_t bytes)
{
    int c = mca_coll_rsag_stream_class(bytes);
    unsigned long n = l->calls[c];

    /* after the first trials, and after each later run of trials */
    return MCA_COLL_RSAG_COPY_FIRST == n
           || (n > MCA_COLL_RSAG_COPY_FIRST && l->next[c] + MCA_COLL_RSAG_COPY_RETRY_RUN == n);
}

int mca_coll_rsag_copy_pick(mca_coll_rsag_copy_learner_t *l, size_t bytes, bool *trial)
{
    int c = mca_coll_rsag_stream_class(bytes);
    unsigned long n = l->calls[c]++;

    if (n < MCA_COLL_RSAG_COPY_FIRST) {
        *trial = true;
        return n < MCA_COLL_RSAG_COPY_CMA_FIRST ? 1 : 0;
    }
    *trial = n >= l->next[c] && n < l->next[c] + MCA_COLL_RSAG_COPY_RETRY_RUN;
    return *trial ? 1 - l->way[c] : l->way[c];
}

void mca_coll_rsag_copy_record(mca_coll_rsag_copy_learner_t *l, size_t bytes, int way,
                               bool typical, double seconds)
{
    int c = mca_coll_rsag_stream_class(bytes);
    bool first_of_run = (l->last[c] != 1 + way);

    l->last[c] = (unsigned char) (1 + way);
    if (first_of_run || !typical) {
        return;
    }
    if (0 == l->n[c][way] || seconds < l->fastest[c][way]) {
        l->fastest[c][way] = seconds;
    }
    l->sum[c][way] += seconds < 2 * l->fastest[c][way] ? seconds : 2 * l->fastest[c][way];
    ++l->n[c][way];
}

bool mca_coll_rsag_copy_settle(mca_coll_rsag_copy_learner_t *l, size_t bytes,
                               const double agreed[2])
{
    int c = mca_coll_rsag_stream_class(bytes), before = l->way[c];
    bool first = MCA_COLL_RSAG_COPY_FIRST == l->calls[c], changed;

    for (int w = 0; w < 2; ++w) {
        l->cost[c][w] = mca_coll_rsag_copy_cost(l, bytes, w);
        l->sum[c][w] = 0;
        l->n[c][w] = 0;
    }

    if (first) {
        l->way[c] = agreed[1] < agreed[0] ? 1 : 0;
    } else if (agreed[1 - before] < MCA_COLL_RSAG_STREAM_SWITCH * agreed[before]) {
        l->way[c] = (unsigned char) (1 - before);
    }
    changed = first || l->way[c] != before;
    /* the next run: soon after a decision, ever later while it holds */
    l->every[c] = changed ? MCA_COLL_RSAG_COPY_RETRY_MIN
                  : (2 * l->every[c] < MCA_COLL_RSAG_COPY_RETRY_MAX ? 2 * l->every[c]
                                                                    : MCA_COLL_RSAG_COPY_RETRY_MAX);
    l->next[c] = l->calls[c] + l->every[c];
    return changed;
}

bool mca_coll_rsag_copy_settled(const mca_coll_rsag_copy_learner_t *l, size_t bytes)
{
    return l->every[mca_coll_rsag_stream_class(bytes)] > 0;     /* set by every settle */
}

int mca_coll_rsag_copy_agreed(const mca_coll_rsag_copy_learner_t *l, size_t bytes)
{
    return l->way[mca_coll_rsag_stream_class(bytes)];
}

double mca_coll_rsag_copy_cost(const mca_coll_rsag_copy_learner_t *l, size_t bytes, int way)
{
    int c = mca_coll_rsag_stream_class(bytes);

    return l->n[c][way] > 0 ? l->sum[c][way] / l->n[c][way] : l->cost[c][way];
}
