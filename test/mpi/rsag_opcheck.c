/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_opcheck: the (type, op) pairs Open MPI's op framework is known to
 * get wrong (op/avx 8/16-bit MPI_SUM, Open MPI #8045; MIN/MAX on
 * MPI_UNSIGNED_LONG compared as signed, #10525; MIN/MAX on MPI_OFFSET),
 * once through MPI_Reduce_local (Open MPI alone) and once through
 * MPI_Allreduce (rsag), at every count 1..70 and 1000, against results
 * computed here.  rsag's counters are read around every tested
 * MPI_Allreduce: rsag must have run each one with an algorithm of its own
 * (not delegated), or the results prove nothing about rsag.  Prints one line
 * per wrong (call, pair), then
 *   rsag_opcheck: rsag ran <k> of <n> allreduce calls itself
 *   rsag_opcheck: np=<p> reduce_local wrong=<n> allreduce wrong=<m>
 * and exits 1 when the allreduce was wrong anywhere or rsag did not run
 * every one of them.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsag_mpit.h"

typedef enum { SUM, MAX, MIN } which_t;
static const struct {
    MPI_Datatype dt;
    MPI_Op op;
    which_t which;
    int size, is_signed;
    const char *name;
} pairs[] = {
    { MPI_INT8_T, MPI_SUM, SUM, 1, 1, "MPI_SUM/MPI_INT8_T" },
    { MPI_UINT8_T, MPI_SUM, SUM, 1, 0, "MPI_SUM/MPI_UINT8_T" },
    { MPI_SIGNED_CHAR, MPI_SUM, SUM, 1, 1, "MPI_SUM/MPI_SIGNED_CHAR" },
    { MPI_INT16_T, MPI_SUM, SUM, 2, 1, "MPI_SUM/MPI_INT16_T" },
    { MPI_UINT16_T, MPI_SUM, SUM, 2, 0, "MPI_SUM/MPI_UINT16_T" },
    { MPI_SHORT, MPI_SUM, SUM, 2, 1, "MPI_SUM/MPI_SHORT" },
    { MPI_UNSIGNED_LONG, MPI_MAX, MAX, 8, 0, "MPI_MAX/MPI_UNSIGNED_LONG" },
    { MPI_UNSIGNED_LONG, MPI_MIN, MIN, 8, 0, "MPI_MIN/MPI_UNSIGNED_LONG" },
    { MPI_OFFSET, MPI_MAX, MAX, 8, 1, "MPI_MAX/MPI_OFFSET" },
    { MPI_OFFSET, MPI_MIN, MIN, 8, 1, "MPI_MIN/MPI_OFFSET" },
};
#define NPAIRS ((int) (sizeof(pairs) / sizeof(pairs[0])))
#define MAXN 1000

/* Element i of rank r: every bit pattern class (top bit set, negative,
 * sums that overflow). */
static uint64_t value(int r, int i)
{
    uint64_t x = (uint64_t) (i * 37 + r * 101 + 200) * 0x9e3779b97f4a7c15ULL;
    return (i + r) % 3 == 0 ? ~x : x >> (i % 5);
}

static void put(void *buf, int i, int size, uint64_t v)
{
    switch (size) {
    case 1: ((uint8_t *) buf)[i] = (uint8_t) v; break;
    case 2: ((uint16_t *) buf)[i] = (uint16_t) v; break;
    default: ((uint64_t *) buf)[i] = v; break;
    }
}

static uint64_t get(const void *buf, int i, int size)
{
    switch (size) {
    case 1: return ((const uint8_t *) buf)[i];
    case 2: return ((const uint16_t *) buf)[i];
    default: return ((const uint64_t *) buf)[i];
    }
}

/* x (op) y on size-byte values held in the low bits. */
static uint64_t combine(int p, uint64_t x, uint64_t y)
{
    int bits = 8 * pairs[p].size;
    uint64_t mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
    int greater;

    if (pairs[p].which == SUM) {
        return (x + y) & mask;
    }
    greater = pairs[p].is_signed ? (int64_t) (x << (64 - bits)) > (int64_t) (y << (64 - bits))
                                 : x > y;
    return (pairs[p].which == MAX) == greater ? x : y;
}

/* 1 when buf[0..n) differs from the expected reduction over ranks 0..np-1. */
static int wrong(int p, const void *buf, int n, int np)
{
    uint64_t mask = pairs[p].size == 8 ? ~0ULL : (1ULL << 8 * pairs[p].size) - 1;

    for (int i = 0; i < n; ++i) {
        uint64_t want = value(0, i) & mask;
        for (int r = 1; r < np; ++r) {
            want = combine(p, want, value(r, i) & mask);
        }
        if (get(buf, i, pairs[p].size) != want) {
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    static uint64_t in[MAXN], out[MAXN];
    int rank, np, local_wrong = 0, all_wrong = 0, calls = 0, by_rsag = 0;
    rt_snap_t before, after;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    /* tolerant: without rsag the program still runs and says so */
    (void) rt_mpit_open(NULL, NULL);
    for (int p = 0; p < NPAIRS; ++p) {
        int bad_local = 0, bad_all = 0;
        for (int n = 1; n <= 71; ++n) {
            int count = n == 71 ? MAXN : n;
            /* Open MPI alone: ranks 1 and 0 combined locally. */
            for (int i = 0; i < count; ++i) {
                put(in, i, pairs[p].size, value(1, i));
                put(out, i, pairs[p].size, value(0, i));
            }
            MPI_Reduce_local(in, out, count, pairs[p].dt, pairs[p].op);
            bad_local |= wrong(p, out, count, 2);
            /* Through the coll component. */
            for (int i = 0; i < count; ++i) {
                put(in, i, pairs[p].size, value(rank, i));
            }
            rt_snapshot(RT_ALLREDUCE, &before);
            MPI_Allreduce(in, out, count, pairs[p].dt, pairs[p].op, MPI_COMM_WORLD);
            rt_snapshot(RT_ALLREDUCE, &after);
            {
                const char *ran = rt_ran(RT_ALLREDUCE, &before, &after);
                ++calls;
                by_rsag += strcmp(ran, "none") && strcmp(ran, "several")
                           && strcmp(ran, "delegated");
            }
            bad_all |= wrong(p, out, count, np);
        }
        MPI_Allreduce(MPI_IN_PLACE, &bad_all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (0 == rank) {
            if (bad_local) printf("rsag_opcheck: reduce_local %s wrong\n", pairs[p].name);
            if (bad_all) printf("rsag_opcheck: allreduce %s wrong\n", pairs[p].name);
        }
        local_wrong += bad_local;
        all_wrong += bad_all;
    }
    /* the fewest calls any rank saw rsag run */
    MPI_Allreduce(MPI_IN_PLACE, &by_rsag, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("rsag_opcheck: rsag ran %d of %d allreduce calls itself\n", by_rsag, calls);
        printf("rsag_opcheck: np=%d reduce_local wrong=%d allreduce wrong=%d\n", np,
               local_wrong, all_wrong);
    }
    rt_mpit_finalize();
    MPI_Finalize();
    return all_wrong || by_rsag != calls ? 1 : 0;
}
