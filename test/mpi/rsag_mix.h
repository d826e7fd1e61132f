/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/* rsag_mix64: a 64-bit mixing function (the finalizer of splitmix64), the
 * test programs' one source of reproducible pseudo-random values. */
#ifndef RSAG_MIX_H
#define RSAG_MIX_H

#include <stdint.h>

static inline uint64_t rsag_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

#endif /* RSAG_MIX_H */
