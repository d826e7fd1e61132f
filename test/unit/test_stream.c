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
 * sides of its threshold.
 */
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
    printf("test_stream: streaming stores %s\n",
           mca_coll_rsag_stream_available() ? "used (x86-64 SSE2)" : "not available: memcpy");
    return unit_report("test_stream");
}
