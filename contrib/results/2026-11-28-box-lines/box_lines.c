/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Two processes pinned to cores 0 and 1 exchange n bytes per round through
 * one box each in shared memory, double-buffered by tick, as `direct`'s
 * flat allreduce does at np 2 (post mine, wait for the peer's, add):
 *   layout 0 (rsag's): one stamp at the start of the box, the data after it
 *            (56 bytes in the stamp's line, the rest on the next lines);
 *            the reader spins on the stamp, then reads the data
 *   layout 1 (the alternative): every line its own stamp and 56 bytes; the
 *            reader polls every line of the vector at once
 * Prints, per size, the median over the rounds of the cycles (rdtsc) per
 * exchange of each layout and their ratio (> 1: layout 1 faster).
 * Build: gcc -O2 -o box_lines box_lines.c; run: ./box_lines ROUNDS
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <x86intrin.h>

#define LINE 64
#define DATA 56                           /* a line's bytes after its stamp */
#define CALLS 20000                       /* exchanges per size, layout and round */
#define MAX_ROUNDS 200

typedef struct {
    _Alignas(64) char line[20][LINE];
} box_t;

static box_t *boxes;                      /* [layout][rank][half] */

static box_t *box(int layout, int rank, int half)
{
    return &boxes[4 * layout + 2 * rank + half];
}

static uint64_t *stamp(box_t *b, size_t i)
{
    return (uint64_t *) b->line[i];
}

static void post(box_t *b, const char *in, size_t n, uint64_t t, int layout)
{
    if (0 == layout) {
        memcpy(b->line[0] + 8, in, n);
        __atomic_store_n(stamp(b, 0), t, __ATOMIC_RELEASE);
        return;
    }
    for (size_t i = 0, off = 0; off < n; ++i, off += DATA) {
        memcpy(b->line[i] + 8, in + off, n - off < DATA ? n - off : DATA);
        __atomic_store_n(stamp(b, i), t, __ATOMIC_RELEASE);
    }
}

static void take(box_t *b, char *out, size_t n, uint64_t t, int layout)
{
    if (0 == layout) {
        while (__atomic_load_n(stamp(b, 0), __ATOMIC_ACQUIRE) < t) {
            _mm_pause();
        }
        memcpy(out, b->line[0] + 8, n);
        return;
    }
    for (size_t lines = (n + DATA - 1) / DATA;;) {
        int ready = 1;
        for (size_t i = 0; i < lines; ++i) {
            ready &= __atomic_load_n(stamp(b, i), __ATOMIC_ACQUIRE) >= t;
        }
        if (ready) {
            break;
        }
        _mm_pause();
    }
    for (size_t i = 0, off = 0; off < n; ++i, off += DATA) {
        memcpy(out + off, b->line[i] + 8, n - off < DATA ? n - off : DATA);
    }
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = { 8, 64, 112, 128, 168, 224, 256, 512, 1024 };
    enum { NS = sizeof(sizes) / sizeof(sizes[0]) };
    static double cycles[2][NS][MAX_ROUNDS];
    int rounds = argc > 1 ? atoi(argv[1]) : 15;
    double in[140], out[140];
    uint64_t t[2] = { 0, 0 };
    cpu_set_t cpus;
    pid_t child;
    int rank;

    if (rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "usage: %s ROUNDS (1-%d)\n", argv[0], MAX_ROUNDS);
        return 2;
    }
    boxes = mmap(NULL, 8 * sizeof(box_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                 -1, 0);
    if (MAP_FAILED == boxes) {
        perror("mmap");
        return 1;
    }
    child = fork();
    rank = (0 == child) ? 1 : 0;
    CPU_ZERO(&cpus);
    CPU_SET(rank, &cpus);
    (void) sched_setaffinity(0, sizeof(cpus), &cpus);
    for (int i = 0; i < 140; ++i) {
        in[i] = rank + i;
    }
    for (int r = 0; r < rounds; ++r) {
        for (int s = 0; s < NS; ++s) {
            for (int layout = 0; layout < 2; ++layout) {
                unsigned long long c0 = __rdtsc();
                for (int c = 0; c < CALLS; ++c) {
                    uint64_t tick = ++t[layout];
                    post(box(layout, rank, (int) (tick & 1)), (const char *) in, sizes[s], tick,
                         layout);
                    take(box(layout, 1 - rank, (int) (tick & 1)), (char *) out, sizes[s], tick,
                         layout);
                    for (size_t k = 0; k < sizes[s] / 8; ++k) {
                        out[k] += in[k];
                    }
                }
                cycles[layout][s][r] = (double) (__rdtsc() - c0) / CALLS;
            }
        }
    }
    if (0 != rank) {
        return 0;
    }
    waitpid(child, NULL, 0);
    printf("bytes layout0 layout1 ratio0/1 min max (cycles per exchange, median of %d rounds)\n",
           rounds);
    for (int s = 0; s < NS; ++s) {
        double a[MAX_ROUNDS], b[MAX_ROUNDS], q[MAX_ROUNDS];
        for (int r = 0; r < rounds; ++r) {
            a[r] = cycles[0][s][r];
            b[r] = cycles[1][s][r];
            q[r] = a[r] / b[r];
        }
        qsort(a, (size_t) rounds, sizeof(double), cmp);
        qsort(b, (size_t) rounds, sizeof(double), cmp);
        qsort(q, (size_t) rounds, sizeof(double), cmp);
        printf("%5zu %7.0f %7.0f %8.2f %5.2f %5.2f\n", sizes[s], a[rounds / 2], b[rounds / 2],
               q[rounds / 2], q[0], q[rounds - 1]);
    }
    return 0;
}
