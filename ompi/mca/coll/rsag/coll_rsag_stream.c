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
