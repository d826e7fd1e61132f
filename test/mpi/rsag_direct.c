/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_direct.c -- what is special to the node path (`direct`).
 *
 *   rsag_direct bits [--iters N]
 *     MPI_Allreduce, MPI_Reduce (every root), MPI_Reduce_scatter_block and
 *     MPI_Reduce_scatter (irregular counts with zeros) forced to direct
 *     through MPI_T, on random non-integer doubles (no sum is exact), with
 *     MPI_SUM and with a non-commutative, non-associative user op
 *     (a o b = a/2 + b), in place and not, at sizes through the slot path,
 *     the windowed segment path and the CMA path.  Every rank regenerates
 *     every input and checks its result bit for bit against the left fold
 *     ((x_0 o x_1) o x_2) ... in rank order (a boxed call at p >= 3 that
 *     goes up the tree: the tree's fold, of the fan-in set by --fanin or of
 *     the component's auto rule, mca_coll_rsag_direct_fanin_auto, linked
 *     in); the allreduce results must be
 *     the same bits on every rank (a checksum gathered); the send buffer
 *     must be untouched; the direct counter must move by one per call.
 *
 *   rsag_direct churn [--cycles N] [--form persistent]
 *     N cycles of MPI_Comm_dup, an allreduce forced to direct (which makes
 *     the communicator's shared segment) and MPI_Comm_free; --form
 *     persistent: of MPI_Allreduce_init forced to direct (which makes the
 *     request's own segment), a start, a wait and MPI_Request_free.  After a
 *     warm-up, the resident memory, the number of mappings
 *     (/proc/self/maps lines) and of open descriptors (/proc/self/fd) may
 *     not grow: a segment or a descriptor kept per communicator fails.
 *
 *   rsag_direct comms [--comms N]
 *     MPI_COMM_WORLD and N - 1 duplicates of it, all kept, each with one
 *     MPI_Allreduce of 1000 doubles forced to direct (the first call on a
 *     communicator makes its segment), then once more on each; every
 *     result checked.  Rank 0 prints, per communicator, the algorithm that
 *     ran ("comm K: direct" or the point-to-point algorithm rsag fell back
 *     to): the suite runs it where the shared memory is short (a full
 *     /dev/shm, a small coll_rsag_segment_max_node_bytes) and checks which
 *     communicators got the node path.  Then the duplicates are freed and
 *     one more is made ("comms after free: ..."): the shared memory of
 *     the freed ones must be available again.
 *
 *   rsag_direct kill
 *     Makes a segment (a direct allreduce on a dup), checks that no
 *     /dev/shm/rsag-* name exists while it is mapped (unlinked at once),
 *     then rank 1 sends itself SIGKILL in the middle of a loop of direct
 *     allreduces; the job is aborted by mpirun (the suite bounds it with a
 *     timeout and checks /dev/shm afterwards).
 *
 *   rsag_direct unordered [--rounds N] [--ordered] [--expect-direct N]
 *                         [--no-settle]
 *     Three persistent allreduce requests (56 B, 8 KB, 40 KB), made after
 *     10 blocking calls of each size (which settle the copy mode learned
 *     from 16 KB; --no-settle: none), started in opposite orders on even
 *     and odd ranks (legal: their matching is done at init), every result
 *     checked: `direct` must serve N of them (default 3), each on its own
 *     segment (its ticks are the request's starts), and another algorithm
 *     the others (no room for their segments, an unsettled copy mode).
 *     --ordered: asserted ordered (coll_rsag_persistent_starts_ordered)
 *     and started in one order: `direct` must serve them.
 *
 *   rsag_direct latency [--iters N] [--form blocking|nonblocking]
 *     The latency path: for each collective forced to direct, 1, 7, 135,
 *     200, 519 and 600 doubles, MPI_SUM and the user op, in place and not,
 *     N calls of one shape (fresh inputs each, checked as in bits): every
 *     call but the first of a shape that fits a box (4152 bytes at np 2,
 *     1080 from np 3) must take the latency path (coll_rsag_latency_calls; the first may too, when an
 *     earlier batch had the same shape: the reduce-scatters' blocks of 1
 *     and 7 elements are the same on 8 or more ranks).  Then settings
 *     changed through MPI_T between calls of one shape: another forced
 *     algorithm must run the next call, and coll_rsag_latency_max_bytes 0
 *     turns the path off.
 *     --form nonblocking: MPI_I* + MPI_Wait instead (after a blocking call
 *     made the segment); every call but a shape's first reuses a request
 *     the communicator kept (MPI_SUM only: a user op's request is not
 *     kept); then six MPI_Iallreduce of one shape outstanding at once,
 *     three rounds (more than the four a shape keeps).
 *
 *   --fanin K[,K...] (bits, restart, latency): the boxed tree.  Each mode
 *     runs once per fan-in K, set through MPI_T (coll_rsag_direct_fanin;
 *     0 auto, 1 flat, k >= 2 the tree): a call whose whole vector fits a
 *     box (1080 bytes) at p >= 3 under k >= 2 must be reduced in the tree's
 *     order -- each leader folds its input, then its children's partials,
 *     level by level, ranks [r, r + k^l) at level l -- and its result is
 *     checked bit for bit against that fold (non-integer doubles, and the
 *     non-associative user op: any other grouping or order gives other
 *     bits), the same bits on every rank; coll_rsag_direct_tree_calls must
 *     move by one per such call and by none for any other.  bits --fanin
 *     runs 1, 7, 64, 135 (a box) and 200 (more) doubles; --form all runs the
 *     three forms in one job.  Rank 0 prints tree_calls=N (this rank's).
 *
 *   learn [--rounds N]: coll_rsag_single_copy auto learning the copy mode:
 *     N (default 140: the first trials, two later ones) blocking calls of
 *     each collective at 64 KB and 1 MB through direct, every result
 *     checked, then 8 nonblocking allreduces of each size (they take the
 *     agreed way); coll_rsag_direct_cma_calls must move by more than 0 and
 *     less than the calls made: both ways ran.  --cma none: by none of them
 *     (the segment: an oversubscribed node's default), --cma all: by all of
 *     them (coll_rsag_single_copy cma).  Rank 0 prints calls= cma=.
 *
 *   empty [--calls N]: MPI_Reduce_scatter of fewer elements than ranks (the
 *     first size / 2 ranks get one element, the rest none; np >= 2), forced
 *     to direct, in each form: N (default 2000) calls with new inputs, every
 *     result checked, then two calls rank 0 enters 0.5 s late: a rank with
 *     no element must return within 0.25 s (it reads nobody's input, so it
 *     does not wait for rank 0's); direct's counter moved by every call.
 *
 * Rank 0 prints "rsag_direct: <mode> PASS ..." or "... FAIL ..."; exit
 * status 0 iff PASS.
 */
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll_rsag_index.h"
#include "rsag_forms.h"
#include "rsag_mpit.h"

static int rank, size;
static long failures;
/* --form, --auto, --max-count */
static int form = RT_FORM_BLOCKING, use_auto;
static size_t max_count = (size_t) -1;
/* cases run by direct in --form, and by each form under --auto */
static long direct_cases, auto_cases;
/* --fanin: the fan-ins to run (nfanins 0: not given), the one in effect */
static int fanins[8], nfanins, tree_k;
static long long tree_calls;    /* coll_rsag_direct_tree_calls moved by, this rank */

#define FAIL(...)                                                                   \
    do {                                                                            \
        if (failures++ < 10) {                                                      \
            fprintf(stderr, "rsag_direct[%d]: ", rank);                             \
            fprintf(stderr, __VA_ARGS__);                                           \
            fputc('\n', stderr);                                                    \
        }                                                                           \
    } while (0)

/* Input element i of rank q in case c: a non-integer double in [-1, 1)
 * with all mantissa bits used. */
static double input(int c, int q, size_t i)
{
    uint64_t x = ((uint64_t) c << 48) ^ ((uint64_t) q << 40) ^ (uint64_t) i;
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return (double) (int64_t) x / 9223372036854775808.0;
}

/* a o b = a/2 + b: neither commutative nor associative */
static void halfplus(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    double *a = in, *b = inout;
    (void) dt;
    for (int i = 0; i < *len; ++i) {
        b[i] = a[i] / 2 + b[i];
    }
}

static double combine(int nc, double acc, double x)
{
    return nc ? acc / 2 + x : acc + x;
}

/* A reduce-scatter (auto's fan-in is another there). */
static int is_rs(int coll)
{
    return RT_RS == coll || RT_RSB == coll;
}

/* The fan-in a boxed call of coll over `total` elements runs at: the one
 * set through MPI_T (--fanin), or with 0 (auto, the default) the
 * component's rule. */
static int fanin_of(int coll, size_t total)
{
    if (0 != tree_k) {
        return tree_k;
    }
    return mca_coll_rsag_direct_fanin_auto(size, total * sizeof(double), is_rs(coll));
}

/* The boxed tree runs a call of coll over `total` elements. */
static int tree_runs(int coll, size_t total)
{
    return fanin_of(coll, total) >= 2 && size >= 3 && total > 0 && total * sizeof(double) <= 1080;
}

/* The partial of rank r in the tree of fan-in k: its input, then at
 * each level l it leads (r a multiple of k^l) its children r + j k^(l-1)
 * (j = 1 .. k - 1, below size), each their own partial. */
static double tree_partial(int c, int nc, size_t i, int r, int k)
{
    double acc = input(c, r, i);
    for (long s = 1; s < size && 0 == r % (s * k); s *= k) {
        for (int j = 1; j < k; ++j) {
            if (r + j * s >= size) {
                return acc;
            }
            acc = combine(nc, acc, tree_partial(c, nc, i, (int) (r + j * s), k));
        }
    }
    return acc;
}

/* Element i of the result of a call of coll over `total` elements: the
 * left fold in rank order, or the tree's fold when the tree runs it. */
static double reference(int coll, int c, int nc, size_t i, size_t total)
{
    double acc = input(c, 0, i);
    if (tree_runs(coll, total)) {
        return tree_partial(c, nc, i, 0, fanin_of(coll, total));
    }
    for (int q = 1; q < size; ++q) {
        acc = combine(nc, acc, input(c, q, i));
    }
    return acc;
}

/* Set coll_rsag_direct_fanin through MPI_T. */
static void set_fanin(int k)
{
    static MPI_T_cvar_handle h;
    static int have;
    if (!have) {
        h = rt_cvar("coll_rsag_direct_fanin", NULL, NULL);
        have = 1;
    }
    rt_cvar_write(h, &k);
    tree_k = k;
}

/* coll_rsag_direct_tree_calls moved by `want` since *mark (when --fanin). */
static void check_tree_calls(long long *mark, long long want, const char *what)
{
    long long now;
    if (0 == nfanins) {
        return;
    }
    now = rt_counter("coll_rsag_direct_tree_calls");
    if (now - *mark != want) {
        FAIL("%s (fan-in %d): coll_rsag_direct_tree_calls moved by %lld, not %lld", what, tree_k,
             now - *mark, want);
    }
    tree_calls += now - *mark;
    *mark = now;
}

static uint64_t bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof(u));
    return u;
}

static void force_direct(void)
{
    for (int coll = 0; coll < RT_NCOLL; ++coll) {
        int k = rt_alg_index(coll, "direct");
        if (k < 0 || 0 != rt_force(coll, k)) {
            fprintf(stderr, "rsag_direct: no direct algorithm for %s\n", rt_coll_names[coll]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
}

/* One call of collective `coll` in form `f`, checked; `want`: the
 * algorithm that must run it (NULL: direct).  Returns what ran (static). */
static const char *one_case(MPI_Comm comm, int coll, int c, int nc, MPI_Op op, size_t n,
                            int inplace, int root, int f, const char *want)
{
    static char ran_name[RT_NAMELEN];
    int k = rt_alg_index(coll, "direct"), *counts = malloc(sizeof(int) * (size_t) size);
    size_t lo = 0, hi = n, total = n;
    double *sbuf = malloc(sizeof(double) * (n + 1)), *rbuf = malloc(sizeof(double) * (n + 1));
    rt_snap_t before, after;
    rt_call_t call;
    const char *ran;
    int by_direct;
    long long mark = nfanins ? rt_counter("coll_rsag_direct_tree_calls") : 0;

    /* reduce-scatter blocks: irregular, with zeros (coll RS), or even */
    if (RT_RS == coll || RT_RSB == coll) {
        size_t used = 0;
        for (int q = 0; q < size; ++q) {
            counts[q] = (RT_RSB == coll) ? (int) (n / (size_t) size)
                                         : (q % 3 == 1 ? 0 : (int) (n / (size_t) size) + q);
            used += (size_t) counts[q];
        }
        total = used;
        for (int q = 0; q < rank; ++q) {
            lo += (size_t) counts[q];
        }
        hi = lo + (size_t) counts[rank];
        free(sbuf);
        free(rbuf);
        sbuf = malloc(sizeof(double) * (total + 1));
        rbuf = malloc(sizeof(double) * (total + 1));
    }
    for (size_t i = 0; i < total; ++i) {
        sbuf[i] = input(c, rank, i);
        rbuf[i] = inplace ? sbuf[i] : -7.0;
    }
    call = (rt_call_t) { .coll = coll, .sbuf = inplace ? MPI_IN_PLACE : sbuf, .rbuf = rbuf,
                         .count = RT_RSB == coll ? counts[0] : (int) n, .rcounts = counts,
                         .dt = MPI_DOUBLE, .op = op, .root = root, .comm = comm };
    if (RT_REDUCE == coll && rank != root) {
        call.sbuf = sbuf;
    }
    rt_snapshot(coll, &before);
    if (MPI_SUCCESS != rt_run(f, &call)) {
        FAIL("%s n=%zu form %s: the call failed", rt_coll_names[coll], total, rt_form_names[f]);
    }
    rt_snapshot(coll, &after);
    ran = rt_ran(coll, &before, &after);
    snprintf(ran_name, sizeof(ran_name), "%s", ran);
    if (NULL == want) {
        want = rt_alg(coll, k);
    }
    if (0 != strcmp(want, "any") && 0 != strcmp(ran, want) && total > 0) {
        FAIL("%s n=%zu form %s: %s ran, not %s", rt_coll_names[coll], total, rt_form_names[f],
             ran, want);
    }
    by_direct = 0 == strcmp(ran, rt_alg(coll, k));
    if (by_direct && total > 0 && f == form) {
        ++direct_cases;
    }
    check_tree_calls(&mark, by_direct && tree_runs(coll, total), rt_coll_names[coll]);
    if (RT_REDUCE != coll || rank == root) {
        size_t off = (RT_RS == coll || RT_RSB == coll) ? lo : 0;
        size_t end = (RT_RS == coll || RT_RSB == coll) ? hi : n;
        for (size_t i = off; i < end; ++i) {
            double want = reference(coll, c, nc, i, total), got = rbuf[i - off];
            /* the same bits by direct; another algorithm sums in its own order */
            int same = by_direct ? bits(got) == bits(want)
                                 : (got - want <= 1e-12 * size && want - got <= 1e-12 * size);
            if (!same) {
                FAIL("%s %s n=%zu inplace=%d root=%d: element %zu is %a, %s gives %a",
                     rt_coll_names[coll], nc ? "halfplus" : "sum", total, inplace, root, i,
                     rbuf[i - off], tree_runs(coll, total) ? "the tree's order" : "rank order", want);
                break;
            }
        }
    }
    if (!inplace) {
        for (size_t i = 0; i < total; ++i) {
            if (bits(sbuf[i]) != bits(input(c, rank, i))) {
                FAIL("%s n=%zu: sendbuf changed at %zu", rt_coll_names[coll], total, i);
                break;
            }
        }
    }
    if (RT_ALLREDUCE == coll && by_direct) {     /* the same bits everywhere */
        uint64_t sum = 0, *all = malloc(sizeof(uint64_t) * (size_t) size);
        for (size_t i = 0; i < n; ++i) {
            sum = sum * 31 + bits(rbuf[i]);
        }
        MPI_Allgather(&sum, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, comm);
        for (int q = 1; q < size; ++q) {
            if (all[q] != all[0]) {
                FAIL("allreduce n=%zu: rank %d's result differs from rank 0's", n, q);
                break;
            }
        }
        free(all);
    }
    free(counts);
    free(sbuf);
    free(rbuf);
    return ran_name;
}

/* Blocking calls of one shape that settle its copy mode under
 * coll_rsag_single_copy auto (from 16 KB): the ranks vote before the call
 * after MCA_COLL_RSAG_COPY_FIRST (9) of them.  A persistent request keeps
 * the mode of its init; made before the vote, auto gives it the
 * point-to-point algorithms. */
#define SETTLE_CALLS 10

/* A case in --form: with --auto, the blocking call first (persistent:
 * SETTLE_CALLS times), and the form must choose what the blocking call
 * chose. */
static void form_case(MPI_Comm comm, int coll, int c, int nc, MPI_Op op, size_t n, int inplace,
                      int root)
{
    char chosen[RT_NAMELEN];

    if (!use_auto) {
        (void) one_case(comm, coll, c, nc, op, n, inplace, root, form, NULL);
        return;
    }
    for (int i = 0; i < (RT_FORM_PERSISTENT == form ? SETTLE_CALLS : 1); ++i) {
        snprintf(chosen, sizeof(chosen), "%s",
                 one_case(comm, coll, c, nc, op, n, inplace, root, RT_FORM_BLOCKING, "any"));
    }
    (void) one_case(comm, coll, c, nc, op, n, inplace, root, form, chosen);
    ++auto_cases;
}

/* A nonblocking call uses direct once a blocking call or a persistent
 * *_init has made the segment: before, it falls back, and a blocking call
 * then makes it.  A persistent *_init makes it itself (it may wait for its
 * peers), so the first persistent call already runs direct (when it is
 * forced, or auto takes it). */
static void make_segment(MPI_Comm comm)
{
    const char *ran;

    if (RT_FORM_BLOCKING == form) {
        return;
    }
    ran = one_case(comm, RT_ALLREDUCE, 99, 0, MPI_SUM, 1000, 0, -1, form, "any");
    if (0 == rank) {
        printf("rsag_direct: before the segment, a %s allreduce ran %s\n", rt_form_names[form],
               ran);
    }
    if (RT_FORM_PERSISTENT == form) {
        if (0 != strcmp(ran, "direct") && !use_auto) {
            FAIL("the first persistent call, forced to direct, ran %s", ran);
        }
        return;
    }
    if (0 == strcmp(ran, "direct")) {
        FAIL("a %s call ran direct before any blocking call made the segment",
             rt_form_names[form]);
    }
    (void) one_case(comm, RT_ALLREDUCE, 98, 0, MPI_SUM, 1000, 0, -1, RT_FORM_BLOCKING,
                    use_auto ? "any" : NULL);
}

/* The fan-ins of --fanin (one pass without), and the forms of --form
 * (all: the three, blocking first), as one list of passes: pass i runs
 * fan-in pass_fanin(i) in form pass_form(i). */
static int all_forms;
static int passes(void)
{
    return (nfanins ? nfanins : 1) * (all_forms ? RT_NFORM : 1);
}
static void pass_begin(int i, int first_form)
{
    if (nfanins) {
        set_fanin(fanins[i / (all_forms ? RT_NFORM : 1)]);
    }
    form = all_forms ? i % RT_NFORM : first_form;
}

/* One pass of bits: every size, op, in place or not, collective and root;
 * returns the last case number. */
static int bits_pass(int iters, MPI_Op halfop, int c)
{
    /* 1 (slots, whole), 1000 (8000 B: one window), 5000 (40 KB: windows
     * of 32 KB, or CMA), 300001 (2.4 MB: CMA chunks) elements; with
     * --fanin, the boxes: 8, 56 (the stamp's line), 512, 1080 (a box)
     * bytes, and 1600 (more: flat) */
    static const size_t all_sizes[] = { 1, 7, 1000, 5000, 300001 };
    static const size_t box_sizes[] = { 1, 7, 64, 135, 200 };
    const size_t *sizes = nfanins ? box_sizes : all_sizes;
    size_t nsizes = nfanins ? sizeof(box_sizes) / sizeof(box_sizes[0])
                            : sizeof(all_sizes) / sizeof(all_sizes[0]);

    for (int it = 0; it < iters; ++it) {
        for (size_t s = 0; s < nsizes && sizes[s] <= max_count; ++s) {
            for (int nc = 0; nc < 2; ++nc) {
                for (int inplace = 0; inplace < 2; ++inplace) {
                    MPI_Op op = nc ? halfop : MPI_SUM;
                    form_case(MPI_COMM_WORLD, RT_ALLREDUCE, ++c, nc, op, sizes[s], inplace, -1);
                    for (int root = 0; root < size; root += (size > 4 ? size / 3 : 1)) {
                        form_case(MPI_COMM_WORLD, RT_REDUCE, ++c, nc, op, sizes[s], inplace,
                                  root);
                    }
                    form_case(MPI_COMM_WORLD, RT_RSB, ++c, nc, op, sizes[s], inplace, -1);
                    form_case(MPI_COMM_WORLD, RT_RS, ++c, nc, op, sizes[s], inplace, -1);
                }
            }
        }
    }
    return c;
}

static int mode_bits(int iters)
{
    MPI_Op halfop;
    int c = 0, form0 = form;

    MPI_Op_create(halfplus, 0, &halfop);
    if (!use_auto) {
        force_direct();
    }
    for (int pass = 0; pass < passes(); ++pass) {
        pass_begin(pass, form0);
        if (0 == pass) {
            make_segment(MPI_COMM_WORLD);   /* a later form finds it made */
        }
        c = bits_pass(iters, halfop, c);
    }
    MPI_Op_free(&halfop);
    {
        long all = 0;
        MPI_Reduce(&failures, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        long ran_direct = 0;
        MPI_Allreduce(&direct_cases, &ran_direct, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
        if (0 == rank) {
            printf("rsag_direct: bits %s np=%d form=%s%s cases=%d failures=%ld "
                   "direct=%ld", all ? "FAIL" : "PASS", size,
                   all_forms ? "all" : rt_form_names[form], use_auto ? " auto" : "", c, all,
                   ran_direct);
            if (nfanins) {
                printf(" fanins=%d tree_calls=%lld", nfanins, tree_calls);
            }
            printf("\n");
        }
        return all ? 1 : 0;
    }
}

static long count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    long n = 0;
    int ch;
    if (NULL == f) {
        return -1;
    }
    while (EOF != (ch = fgetc(f))) {
        n += ('\n' == ch);
    }
    fclose(f);
    return n;
}

static long count_dir(const char *path, const char *prefix)
{
    DIR *d = opendir(path);
    struct dirent *e;
    long n = 0;
    if (NULL == d) {
        return -1;
    }
    while (NULL != (e = readdir(d))) {
        if ('.' != e->d_name[0] && (NULL == prefix || 0 == strncmp(e->d_name, prefix,
                                                                   strlen(prefix)))) {
            ++n;
        }
    }
    closedir(d);
    return n;
}

static int mode_churn(int cycles)
{
    int k = rt_alg_index(RT_ALLREDUCE, "direct"), warm = cycles < 1000 ? cycles / 5 : 200;
    long rss0 = 0, maps0 = 0, fds0 = 0, rss1, maps1, fds1, bad = 0, all = 0;
    double v[4096];
    rt_snap_t before, after;

    force_direct();
    rt_snapshot(RT_ALLREDUCE, &before);
    for (int i = 0; i < cycles; ++i) {
        MPI_Comm dup;
        if (i == warm) {
            rss0 = rt_rss_kb();
            maps0 = count_lines("/proc/self/maps");
            fds0 = count_dir("/proc/self/fd", NULL);
        }
        for (int j = 0; j < 4096; ++j) {
            v[j] = rank + j;
        }
        /* 32 KB: the slot path, so every cycle makes and frees a segment:
         * a communicator's, or a persistent request's own */
        if (RT_FORM_PERSISTENT == form) {
            MPI_Request req;
            rt_call_t call = { .coll = RT_ALLREDUCE, .sbuf = MPI_IN_PLACE, .rbuf = v,
                               .count = 4096, .dt = MPI_DOUBLE, .op = MPI_SUM, .root = 0,
                               .comm = MPI_COMM_WORLD };

            if (MPI_SUCCESS != rt_post(RT_FORM_PERSISTENT, &call, &req)) {
                FAIL("churn: no persistent request");
                break;
            }
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            MPI_Request_free(&req);
        } else {
            MPI_Comm_dup(MPI_COMM_WORLD, &dup);
            MPI_Allreduce(MPI_IN_PLACE, v, 4096, MPI_DOUBLE, MPI_SUM, dup);
            MPI_Comm_free(&dup);
        }
        if (v[5] != (double) size * (size - 1) / 2 + 5.0 * size) {
            ++bad;
        }
    }
    rt_snapshot(RT_ALLREDUCE, &after);
    rss1 = rt_rss_kb();
    maps1 = count_lines("/proc/self/maps");
    fds1 = count_dir("/proc/self/fd", NULL);
    if (after.ctr[k] - before.ctr[k] != (unsigned long long) cycles) {
        FAIL("churn: direct ran %llu times, not %d", after.ctr[k] - before.ctr[k], cycles);
    }
    if (bad) {
        FAIL("churn: %ld wrong results", bad);
    }
    if (rss1 - rss0 > 512 || maps1 > maps0 || fds1 > fds0) {
        FAIL("churn: grew over %d cycles: rss %ld -> %ld KiB, maps %ld -> %ld, fds %ld -> %ld",
             cycles - warm, rss0, rss1, maps0, maps1, fds0, fds1);
    }
    MPI_Reduce(&failures, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("rsag_direct: churn %s np=%d%s cycles=%d rss %ld->%ld KiB maps %ld->%ld "
               "fds %ld->%ld\n", all ? "FAIL" : "PASS", size,
               RT_FORM_PERSISTENT == form ? " form=persistent" : "", cycles, rss0, rss1, maps0,
               maps1, fds0, fds1);
    }
    return all ? 1 : 0;
}

/* One checked call of collective `coll` on n doubles (rank + j: exact sums). */
static void learn_call(int coll, int n, double *in, double *out, int nonblocking)
{
    double want;
    int lo = 0, len = n, root = 0;
    MPI_Request req;

    for (int j = 0; j < n; ++j) {
        in[j] = rank + j % 1000;
        out[j] = -1;
    }
    if (RT_ALLREDUCE == coll && nonblocking) {
        MPI_Iallreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (RT_ALLREDUCE == coll) {
        MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    } else if (RT_REDUCE == coll) {
        MPI_Reduce(in, out, n, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
        len = rank == root ? n : 0;
    } else {
        MPI_Reduce_scatter_block(in, out, n / size, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        lo = rank * (n / size);
        len = n / size;
    }
    for (int j = 0; j < len; ++j) {
        want = (double) size * (size - 1) / 2 + (double) size * ((lo + j) % 1000);
        if (out[j] != want) {
            FAIL("learn: %s of %d doubles: element %d is %g, not %g", rt_coll_names[coll], n,
                 lo + j, out[j], want);
            break;
        }
    }
}

/* One MPI_Reduce_scatter of `empty`'s shape (the first size / 2 ranks get
 * one element, the others none) in the current form, on inputs of call c;
 * *req is the persistent request (made on its first use).  Returns the
 * call's time on this rank and checks the result. */
static double empty_call(int c, double *in, double *out, const int *counts, MPI_Request *req)
{
    int h = size / 2;
    double t0, t;
    rt_call_t call = { .coll = RT_RS, .sbuf = in, .rbuf = out, .count = 0, .rcounts = counts,
                       .dt = MPI_DOUBLE, .op = MPI_SUM, .root = 0, .comm = MPI_COMM_WORLD };

    for (int e = 0; e < h; ++e) {
        in[e] = (double) (rank * 7 + c % 13 + e);
    }
    out[0] = -1;
    t0 = MPI_Wtime();
    if (RT_FORM_PERSISTENT == form) {
        if (MPI_REQUEST_NULL == *req && MPI_SUCCESS != rt_post(form, &call, req)) {
            FAIL("empty: no persistent request");
            return 0;
        }
        if (MPI_SUCCESS != MPI_Start(req) || MPI_SUCCESS != MPI_Wait(req, MPI_STATUS_IGNORE)) {
            FAIL("empty: persistent start %d failed", c);
        }
    } else if (MPI_SUCCESS != rt_post(form, &call, req)
               || MPI_SUCCESS != MPI_Wait(req, MPI_STATUS_IGNORE)) {
        FAIL("empty: %s call %d failed", rt_form_names[form], c);
    }
    t = MPI_Wtime() - t0;
    if (rank < h) {
        /* element `rank`: sum over q of q * 7 + c % 13 + rank */
        double want = 7.0 * size * (size - 1) / 2 + (double) size * (c % 13 + rank);

        if (out[0] != want) {
            FAIL("empty: %s call %d: got %g, expected %g", rt_form_names[form], c, out[0], want);
        }
    }
    return t;
}

/* Fewer elements than ranks: the reduce-scatter where the last size / 2
 * ranks receive nothing, as OSU's osu_reduce_scatter calls it below p
 * elements.  Such a rank reads no peer's input, so it posts its own and
 * leaves.  In each form: `calls` calls with new inputs, every result
 * checked (the ranks without data run ahead of the others, by at most the
 * segment's two boxes); then two calls that rank 0 enters 0.5 s after the
 * others: a rank without data must be back within 0.25 s (before, it waited
 * for rank 0's box); direct must have run every call. */
static int mode_empty(int calls)
{
    int k = rt_alg_index(RT_RS, "direct"), *counts = malloc(sizeof(int) * (size_t) size);
    double *in = malloc(sizeof(double) * (size_t) size), *out = malloc(sizeof(double) * 2);
    long all = 0;

    force_direct();
    for (int q = 0; q < size; ++q) {
        counts[q] = q < size / 2 ? 1 : 0;
    }
    for (int f = 0; f < RT_NFORM; ++f) {
        MPI_Request req = MPI_REQUEST_NULL;
        rt_snap_t before, after;
        unsigned long long want;
        double slowest = 0;

        if (RT_FORM_PERSISTENT == f && !RT_HAVE_PERSISTENT) {
            continue;
        }
        form = f;       /* (the blocking form, first, made the segment) */
        rt_snapshot(RT_RS, &before);
        for (int c = 0; c < calls; ++c) {
            (void) empty_call(c, in, out, counts, &req);
        }
        for (int c = 0; c < 2; ++c) {
            double t;

            MPI_Barrier(MPI_COMM_WORLD);
            if (0 == rank) {
                usleep(500000);
            }
            t = empty_call(calls + c, in, out, counts, &req);
            slowest = t > slowest ? t : slowest;
        }
        slowest = counts[rank] == 0 ? slowest : 0;
        if (slowest > 0.25) {
            FAIL("empty: %s: a rank without data waited %.2f s for rank 0", rt_form_names[f],
                 slowest);
        }
        MPI_Allreduce(MPI_IN_PLACE, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (MPI_REQUEST_NULL != req) {
            MPI_Request_free(&req);
        }
        rt_snapshot(RT_RS, &after);
        /* a persistent request is counted once, at its init */
        want = RT_FORM_PERSISTENT == f ? 1ULL : (unsigned long long) calls + 2;
        if (after.ctr[k] - before.ctr[k] != want) {
            FAIL("empty: %s: direct ran %llu calls, not %llu", rt_form_names[f],
                 after.ctr[k] - before.ctr[k], want);
        }
        if (0 == rank) {
            printf("rsag_direct: empty %s: %d calls; the ranks without data waited at most "
                   "%.3f s for rank 0\n",
                   rt_form_names[f], calls + 2, slowest);
        }
    }
    free(counts);
    free(in);
    free(out);
    MPI_Reduce(&failures, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("rsag_direct: empty %s np=%d calls=%d\n", all ? "FAIL" : "PASS", size, calls);
    }
    return all ? 1 : 0;
}

/* learn's --cma: "some" (the learner: both ways must run), "none" (every
 * call through the segment), "all" (every call by CMA) */
static const char *learn_cma = "some";

static int mode_learn(int rounds)
{
    static const int sizes[] = { 8192, 131072 };        /* 64 KB, 1 MB */
    static const int colls[] = { RT_ALLREDUCE, RT_REDUCE, RT_RSB };
    double *in = malloc(131072 * sizeof(double)), *out = malloc(131072 * sizeof(double));
    long long cma0 = rt_counter("coll_rsag_direct_cma_calls"), cma, calls = 0;
    unsigned long long ran = 0;
    long all = 0;

    force_direct();
    for (int ci = 0; ci < 3; ++ci) {
        int k = rt_alg_index(colls[ci], "direct");
        rt_snap_t before, after;

        rt_snapshot(colls[ci], &before);
        for (int si = 0; si < 2; ++si) {
            for (int i = 0; i < rounds; ++i, ++calls) {
                learn_call(colls[ci], sizes[si], in, out, 0);
            }
            for (int i = 0; RT_ALLREDUCE == colls[ci] && i < 8; ++i, ++calls) {
                learn_call(colls[ci], sizes[si], in, out, 1);
            }
        }
        rt_snapshot(colls[ci], &after);
        ran += after.ctr[k] - before.ctr[k];
    }
    cma = rt_counter("coll_rsag_direct_cma_calls") - cma0;
    if (ran != (unsigned long long) calls) {
        FAIL("learn: direct ran %llu of %lld calls", ran, calls);
    }
    if (0 == strcmp(learn_cma, "none") ? 0 != cma
        : 0 == strcmp(learn_cma, "all") ? cma != calls
                                         : (cma <= 0 || cma >= calls)) {
        FAIL("learn: %lld of %lld calls by CMA, not --cma %s%s", cma, calls, learn_cma,
             0 == strcmp(learn_cma, "some") ? " (both ways must have run)" : "");
    }
    free(in);
    free(out);
    MPI_Reduce(&failures, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("rsag_direct: learn %s np=%d calls=%lld cma=%lld\n", all ? "FAIL" : "PASS", size,
               calls, cma);
    }
    return all ? 1 : 0;
}

static int mode_comms(int ncomms)
{
    int k = rt_alg_index(RT_ALLREDUCE, "direct");
    MPI_Comm *comms = malloc(sizeof(MPI_Comm) * (size_t) ncomms);
    double v[1000];
    long all = 0;

    force_direct();
    for (int c = 0; c < ncomms; ++c) {
        if (0 == c) {
            comms[c] = MPI_COMM_WORLD;
        } else {
            MPI_Comm_dup(MPI_COMM_WORLD, &comms[c]);
        }
    }
    for (int round = 0; round < 2; ++round) {
        for (int c = 0; c < ncomms; ++c) {
            rt_snap_t before, after;
            const char *ran;

            for (int j = 0; j < 1000; ++j) {
                v[j] = rank + j + c;
            }
            rt_snapshot(RT_ALLREDUCE, &before);
            MPI_Allreduce(MPI_IN_PLACE, v, 1000, MPI_DOUBLE, MPI_SUM, comms[c]);
            rt_snapshot(RT_ALLREDUCE, &after);
            ran = rt_ran(RT_ALLREDUCE, &before, &after);
            for (int j = 0; j < 1000; ++j) {
                if (v[j] != (double) size * (size - 1) / 2 + (double) size * (j + c)) {
                    FAIL("comms: comm %d element %d is %g", c, j, v[j]);
                    break;
                }
            }
            /* rsag ran it (an algorithm of its own, not delegated) */
            if (rt_alg_index(RT_ALLREDUCE, ran) < 0) {
                FAIL("comms: comm %d: %s ran, not one of rsag's algorithms", c, ran);
            }
            if (0 == rank) {
                printf("rsag_direct: comms round %d comm %d: %s%s\n", round, c, ran,
                       0 == strcmp(ran, rt_alg(RT_ALLREDUCE, k)) ? "" : " (not direct)");
            }
        }
    }
    for (int c = 1; c < ncomms; ++c) {
        MPI_Comm_free(&comms[c]);
    }
    free(comms);
    {   /* the duplicates' shared memory is given back: a new one may have it */
        MPI_Comm again;
        rt_snap_t before, after;
        const char *ran;

        MPI_Comm_dup(MPI_COMM_WORLD, &again);
        for (int j = 0; j < 1000; ++j) {
            v[j] = rank;
        }
        rt_snapshot(RT_ALLREDUCE, &before);
        MPI_Allreduce(MPI_IN_PLACE, v, 1000, MPI_DOUBLE, MPI_SUM, again);
        rt_snapshot(RT_ALLREDUCE, &after);
        ran = rt_ran(RT_ALLREDUCE, &before, &after);
        if (v[999] != (double) size * (size - 1) / 2) {
            FAIL("comms: after free: result %g", v[999]);
        }
        if (0 == rank) {
            printf("rsag_direct: comms after free: %s%s\n", ran,
                   0 == strcmp(ran, rt_alg(RT_ALLREDUCE, k)) ? "" : " (not direct)");
        }
        MPI_Comm_free(&again);
    }
    MPI_Reduce(&failures, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("rsag_direct: comms %s np=%d comms=%d failures=%ld\n", all ? "FAIL" : "PASS",
               size, ncomms, all);
    }
    return all ? 1 : 0;
}

static int mode_kill(void)
{
    MPI_Comm dup;
    double *v = malloc(sizeof(double) * 100000);
    long names;

    force_direct();
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    for (int j = 0; j < 100000; ++j) {
        v[j] = j;
    }
    MPI_Allreduce(MPI_IN_PLACE, v, 100000, MPI_DOUBLE, MPI_SUM, dup);
    names = count_dir("/dev/shm", "rsag-");
    if (0 == rank) {
        printf("rsag_direct: kill segment mapped, /dev/shm/rsag-* names: %ld\n", names);
        fflush(stdout);
    }
    for (int i = 0; i < 1000000; ++i) {
        if (1 == rank && 20 == i) {
            raise(SIGKILL);
        }
        MPI_Allreduce(MPI_IN_PLACE, v, i % 2 ? 100000 : 100, MPI_DOUBLE, MPI_SUM, dup);
    }
    if (0 == rank) {
        printf("rsag_direct: kill FAIL: the job survived a killed rank\n");
    }
    MPI_Comm_free(&dup);
    free(v);
    return 1;
}

/* ---- restart: persistent requests started again and again ---------------- */

/* Inputs of start `it` of request `c`: element i of rank q. */
static double restart_input(int c, int it, int q, size_t i)
{
    return input(c * 1000 + it, q, i);
}

/* The reference of element i at start `it` of a call of `total`
 * elements (MPI_SUM; rank order, or the tree's). */
static double restart_reference(int coll, int c, int it, size_t i, size_t total)
{
    return reference(coll, c * 1000 + it, 0, i, total);
}

/* One persistent request of coll over n elements (per rank block for the
 * reduce-scatters), started `starts` times with new data each time, every
 * result checked.  Returns the number of starts that ran by direct. */
static long restart_one(int coll, int c, size_t n, int inplace, int starts)
{
    int *counts = malloc(sizeof(int) * (size_t) size), root = size - 1;
    size_t total = (RT_ALLREDUCE == coll || RT_REDUCE == coll) ? n : n * (size_t) size;
    size_t lo = (RT_ALLREDUCE == coll || RT_REDUCE == coll) ? 0 : n * (size_t) rank;
    size_t len = (RT_ALLREDUCE == coll || RT_REDUCE == coll) ? n : n;
    double *sbuf = malloc(sizeof(double) * total), *rbuf = malloc(sizeof(double) * total);
    long long starts0 = rt_counter("coll_rsag_persistent_starts");
    rt_snap_t before, after;
    MPI_Request req;
    rt_call_t call;
    int k = rt_alg_index(coll, "direct");
    long ran_direct = 0;

    for (int q = 0; q < size; ++q) {
        counts[q] = (int) n;
    }
    call = (rt_call_t) { .coll = coll, .sbuf = inplace ? MPI_IN_PLACE : sbuf, .rbuf = rbuf,
                         .count = (int) n, .rcounts = counts, .dt = MPI_DOUBLE, .op = MPI_SUM,
                         .root = root, .comm = MPI_COMM_WORLD };
    if (RT_REDUCE == coll && rank != root) {
        call.sbuf = sbuf;
    }
    rt_snapshot(coll, &before);
    if (MPI_SUCCESS != rt_post(RT_FORM_PERSISTENT, &call, &req)) {
        FAIL("restart %s: no persistent request", rt_coll_names[coll]);
        return 0;
    }
    rt_snapshot(coll, &after);
    if (0 == strcmp(rt_ran(coll, &before, &after), rt_alg(coll, k))) {
        ran_direct = 1;
    }
    for (int it = 0; it < starts; ++it) {
        double *in = inplace && (RT_REDUCE != coll || rank == root) ? rbuf : sbuf;
        for (size_t i = 0; i < total; ++i) {
            in[i] = restart_input(c, it, rank, i);
        }
        long long mark = nfanins ? rt_counter("coll_rsag_direct_tree_calls") : 0;
        if (MPI_SUCCESS != MPI_Start(&req) || MPI_SUCCESS != MPI_Wait(&req, MPI_STATUS_IGNORE)) {
            FAIL("restart %s start %d failed", rt_coll_names[coll], it);
            break;
        }
        check_tree_calls(&mark, ran_direct && tree_runs(coll, total), "restart");
        if (RT_REDUCE == coll && rank != root) {
            continue;
        }
        for (size_t i = 0; i < len; ++i) {
            double want = restart_reference(coll, c, it, lo + i, total);
            if (bits(rbuf[i]) != bits(want)) {
                FAIL("restart %s n=%zu inplace=%d start %d: element %zu is %a, expected %a",
                     rt_coll_names[coll], n, inplace, it, lo + i, rbuf[i], want);
                it = starts;
                break;
            }
        }
    }
    MPI_Request_free(&req);
    if (rt_counter("coll_rsag_persistent_starts") - starts0 != starts) {
        FAIL("restart %s: coll_rsag_persistent_starts moved by %lld, not %d",
             rt_coll_names[coll], rt_counter("coll_rsag_persistent_starts") - starts0, starts);
    }
    free(counts);
    free(sbuf);
    free(rbuf);
    return ran_direct ? starts : 0;
}

static int mode_restart(int starts)
{
    /* boxed, whole, windows (with a small segment) or CMA */
    static const size_t sizes[] = { 3, 1000, 40000 };
    long ran = 0, all = 0, ran_min = 0;
    int c = 0, runs = 0;

    force_direct();
    form = RT_FORM_PERSISTENT;
    make_segment(MPI_COMM_WORLD);
    for (int pass = 0; pass < (nfanins ? nfanins : 1); ++pass) {
        if (nfanins) {
            set_fanin(fanins[pass]);
        }
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]) && sizes[s] <= max_count; ++s) {
            for (int coll = 0; coll < RT_NCOLL; ++coll) {
                for (int inplace = 0; inplace < 2; ++inplace) {
                    ran += restart_one(coll, ++c, sizes[s], inplace, starts);
                    ++runs;
                }
            }
        }
    }
    MPI_Allreduce(&failures, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&ran, &ran_min, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
    if (0 == rank) {
        int ok = 0 == all && ran_min == (long) runs * starts;
        printf("rsag_direct: restart %s np=%d requests=%d starts=%d each, by direct %ld, "
               "failures=%ld", ok ? "PASS" : "FAIL", size, runs, starts, ran_min, all);
        if (nfanins) {
            printf(" fanins=%d tree_calls=%lld", nfanins, tree_calls);
        }
        printf("\n");
    }
    return all || ran_min != (long) runs * starts;
}

/* ---- outstanding: several direct requests at once ------------------------ */

typedef struct {
    int coll;           /* RT_ALLREDUCE or RT_RSB */
    size_t n;           /* elements (per block for RT_RSB) */
    int c;              /* data seed */
    double *sbuf, *rbuf;
    MPI_Request req;
    MPI_Comm comm;
} pending_t;

static void pending_post(pending_t *pd, int f)
{
    size_t total = RT_RSB == pd->coll ? pd->n * (size_t) size : pd->n;
    rt_call_t call;

    pd->sbuf = malloc(sizeof(double) * total);
    pd->rbuf = malloc(sizeof(double) * total);
    for (size_t i = 0; i < total; ++i) {
        pd->sbuf[i] = restart_input(pd->c, 0, rank, i);
        pd->rbuf[i] = -7.0;
    }
    call = (rt_call_t) { .coll = pd->coll, .sbuf = pd->sbuf, .rbuf = pd->rbuf,
                         .count = (int) pd->n, .dt = MPI_DOUBLE, .op = MPI_SUM, .root = 0,
                         .comm = pd->comm };
    if (MPI_SUCCESS != rt_post(f, &call, &pd->req)
        || (RT_FORM_PERSISTENT == f && MPI_SUCCESS != MPI_Start(&pd->req))) {
        FAIL("outstanding: a request was not posted");
    }
}

static void pending_check(pending_t *pd, const char *what)
{
    size_t lo = RT_RSB == pd->coll ? pd->n * (size_t) rank : 0;

    for (size_t i = 0; i < pd->n; ++i) {
        double want = restart_reference(pd->coll, pd->c, 0, lo + i,
                                        RT_RSB == pd->coll ? pd->n * (size_t) size : pd->n);
        if (bits(pd->rbuf[i]) != bits(want)) {
            FAIL("outstanding %s (%s n=%zu): element %zu is %a, expected %a", what,
                 rt_coll_names[pd->coll], pd->n, lo + i, pd->rbuf[i], want);
            break;
        }
    }
    free(pd->sbuf);
    free(pd->rbuf);
}

/* Round r: on comm A, a nonblocking allreduce, a nonblocking
 * reduce-scatter-block and a started persistent allreduce; on comm B a
 * nonblocking allreduce; a blocking direct allreduce on A among them; then
 * completed in reverse order, two by MPI_Test loops, a blocking call on B
 * between the waits. */
static void outstanding_round(MPI_Comm a, MPI_Comm b, int r, size_t n)
{
    pending_t pd[5] = {
        { RT_ALLREDUCE, n, 10 * r + 1, NULL, NULL, MPI_REQUEST_NULL, a },
        { RT_RSB, n / (size_t) size + 1, 10 * r + 2, NULL, NULL, MPI_REQUEST_NULL, a },
        { RT_ALLREDUCE, n + 3, 10 * r + 3, NULL, NULL, MPI_REQUEST_NULL, b },
        { RT_ALLREDUCE, 7, 10 * r + 4, NULL, NULL, MPI_REQUEST_NULL, a },
        { RT_ALLREDUCE, 2 * n, 10 * r + 5, NULL, NULL, MPI_REQUEST_NULL, a },
    };
    MPI_Request persistent;

    pending_post(&pd[0], RT_FORM_NONBLOCKING);
    pending_post(&pd[1], RT_FORM_NONBLOCKING);
    pending_post(&pd[2], RT_FORM_NONBLOCKING);
    pending_post(&pd[3], RT_FORM_PERSISTENT);
    persistent = pd[3].req;
    (void) one_case(a, RT_ALLREDUCE, 10 * r + 6, 0, MPI_SUM, n, 0, -1, RT_FORM_BLOCKING, NULL);
    pending_post(&pd[4], RT_FORM_NONBLOCKING);
    /* the last first */
    MPI_Wait(&pd[4].req, MPI_STATUS_IGNORE);
    pending_check(&pd[4], "waited first");
    (void) one_case(b, RT_ALLREDUCE, 10 * r + 7, 0, MPI_SUM, n, 1, -1, RT_FORM_BLOCKING, NULL);
    MPI_Wait(&pd[3].req, MPI_STATUS_IGNORE);
    pending_check(&pd[3], "persistent");
    for (int flag = 0; !flag;) {
        MPI_Test(&pd[2].req, &flag, MPI_STATUS_IGNORE);
    }
    pending_check(&pd[2], "on the other communicator, tested");
    for (int flag = 0; !flag;) {
        MPI_Test(&pd[1].req, &flag, MPI_STATUS_IGNORE);
    }
    pending_check(&pd[1], "tested");
    MPI_Wait(&pd[0].req, MPI_STATUS_IGNORE);
    pending_check(&pd[0], "waited last");
    MPI_Request_free(&persistent);
}

static int mode_outstanding(int rounds)
{
    static const size_t sizes[] = { 5, 3000, 70000 };
    long long nb0, all = 0, moved, moved_min = 0;
    int ka = rt_alg_index(RT_ALLREDUCE, "direct"), kr = rt_alg_index(RT_RSB, "direct");
    rt_snap_t a0, a1, r0, r1;
    MPI_Comm b;

    force_direct();
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    form = RT_FORM_NONBLOCKING;
    make_segment(MPI_COMM_WORLD);
    make_segment(b);
    nb0 = rt_counter("coll_rsag_nonblocking_requests");
    rt_snapshot(RT_ALLREDUCE, &a0);
    rt_snapshot(RT_RSB, &r0);
    for (int r = 0; r < rounds; ++r) {
        size_t n = sizes[r % 3] <= max_count ? sizes[r % 3] : sizes[0];
        outstanding_round(MPI_COMM_WORLD, b, r, n);
    }
    rt_snapshot(RT_ALLREDUCE, &a1);
    rt_snapshot(RT_RSB, &r1);
    /* every call by direct: per round 4 allreduce requests (one
     * persistent) and 2 blocking allreduces, 1 reduce-scatter-block */
    if (a1.ctr[ka] - a0.ctr[ka] != 6ULL * (unsigned) rounds
        || r1.ctr[kr] - r0.ctr[kr] != (unsigned long long) rounds) {
        FAIL("outstanding: direct ran %llu allreduces and %llu reduce-scatter-blocks, not %d "
             "and %d", a1.ctr[ka] - a0.ctr[ka], r1.ctr[kr] - r0.ctr[kr], 6 * rounds, rounds);
    }
    moved = rt_counter("coll_rsag_nonblocking_requests") - nb0;
    MPI_Comm_free(&b);
    MPI_Allreduce(&failures, &all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&moved, &moved_min, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    if (0 == rank) {
        int ok = 0 == all && moved_min == 4LL * rounds;
        printf("rsag_direct: outstanding %s np=%d rounds=%d nonblocking requests=%lld "
               "by direct=%llu failures=%lld\n", ok ? "PASS" : "FAIL", size, rounds,
               moved_min, a1.ctr[ka] - a0.ctr[ka] + r1.ctr[kr] - r0.ctr[kr], all);
    }
    return 0 != all || moved_min != 4LL * rounds;
}

/* Persistent requests started in a different order on different ranks,
 * which MPI allows (their matching is done at init): without the
 * ordering assertion (coll_rsag_persistent_starts_ordered) three
 * MPI_Allreduce_init requests of different sizes (a box, the whole vector
 * through the slots, windows), the even ranks starting them in one order,
 * the odd ones in the reverse order, each round with new data, every
 * result checked.  `direct` serves them each on its own segment (its
 * ticks are the request's starts); where that cannot be made (no room for
 * it, the copy mode of its size not settled: want_direct < 3), another
 * algorithm.  With --ordered (main sets the assertion), the same requests
 * started in one order: `direct` serves them on the communicator's
 * segment. */
static int mode_unordered(int rounds, int ordered, int want_direct, int settle)
{
    enum { NREQ = 3 };
    static const size_t n[NREQ] = { 7, 1000, 5000 };
    double *sbuf[NREQ], *rbuf[NREQ];
    MPI_Request req[NREQ];
    rt_snap_t before, after;
    int k = rt_alg_index(RT_ALLREDUCE, "direct"), by_direct = 0;

    for (int r = 0; r < NREQ; ++r) {
        sbuf[r] = malloc(sizeof(double) * n[r]);
        rbuf[r] = malloc(sizeof(double) * n[r]);
        /* blocking calls of each size first, as a program's: under
         * coll_rsag_single_copy auto their votes settle the copy mode of
         * the sizes from 16 KB, which a request keeps from its init */
        for (int i = 0; settle && i < SETTLE_CALLS; ++i) {
            for (size_t j = 0; j < n[r]; ++j) {
                sbuf[r][j] = 1.0;
            }
            MPI_Allreduce(sbuf[r], rbuf[r], (int) n[r], MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
    }
    rt_snapshot(RT_ALLREDUCE, &before);     /* rsag counts a persistent request at init */
    for (int r = 0; r < NREQ; ++r) {
        rt_call_t call;

        call = (rt_call_t) { .coll = RT_ALLREDUCE, .sbuf = sbuf[r], .rbuf = rbuf[r],
                             .count = (int) n[r], .dt = MPI_DOUBLE, .op = MPI_SUM,
                             .root = 0, .comm = MPI_COMM_WORLD };
        if (MPI_SUCCESS != rt_post(RT_FORM_PERSISTENT, &call, &req[r])) {
            FAIL("unordered: no persistent request");
            return 1;
        }
    }
    for (int it = 0; it < rounds; ++it) {
        int reverse = !ordered && 1 == rank % 2;

        for (int r = 0; r < NREQ; ++r) {
            for (size_t i = 0; i < n[r]; ++i) {
                sbuf[r][i] = restart_input(r, it, rank, i);
            }
        }
        for (int j = 0; j < NREQ; ++j) {
            MPI_Start(&req[reverse ? NREQ - 1 - j : j]);
        }
        MPI_Waitall(NREQ, req, MPI_STATUSES_IGNORE);
        for (int r = 0; r < NREQ; ++r) {
            for (size_t i = 0; i < n[r]; ++i) {
                /* another algorithm may add in another order: the last bits */
                double want = restart_reference(RT_ALLREDUCE, r, it, i, n[r]);

                if (fabs(rbuf[r][i] - want) > 1e-12 * fabs(want)) {
                    FAIL("unordered: round %d request %d element %zu is %a, expected %a", it, r,
                         i, rbuf[r][i], want);
                    i = n[r];
                    it = rounds;
                }
            }
        }
    }
    rt_snapshot(RT_ALLREDUCE, &after);
    by_direct = (int) (after.ctr[k] - before.ctr[k]);
    for (int r = 0; r < NREQ; ++r) {
        MPI_Request_free(&req[r]);
        free(sbuf[r]);
        free(rbuf[r]);
    }
    if (by_direct != want_direct) {
        FAIL("unordered: %d of the %d requests ran direct, expected %d", by_direct, NREQ,
             want_direct);
    }
    {
        long all = 0;

        MPI_Reduce(&failures, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        if (0 == rank) {
            printf("rsag_direct: unordered %s np=%d rounds=%d %s direct=%d failures=%ld\n",
                   all ? "FAIL" : "PASS", size, rounds, ordered ? "ordered" : "any-order",
                   by_direct, all);
        }
        return all ? 1 : 0;
    }
}

/* The latency path: batches of calls of one shape forced to direct, every
 * result checked bit for bit; the first call of a batch decides, each
 * later one of at most a box must take the latency path.  Then a
 * settings change between two calls of one shape: another forced
 * algorithm runs the next call, and coll_rsag_latency_max_bytes 0 turns
 * the path off. */
static int mode_latency(int iters)
{
    /* 8 and 56 bytes (the stamp's line), 1080 (a box of 3 or more ranks
     * exactly), 1600 (more: the latency path only at np 2), 4152 (a box of
     * 2 ranks exactly), 4800 (more than any box: never the latency path) */
    static const size_t sizes[] = { 1, 7, 135, 200, 519, 600 };
    MPI_T_cvar_handle maxh = rt_cvar("coll_rsag_latency_max_bytes", NULL, NULL);
    long long lat0 = rt_counter("coll_rsag_latency_calls"), expect = 0, got, first = 0;
    int c = 1000, rd = rt_alg_index(RT_ALLREDUCE, "recursive_doubling");
    /* mca_coll_rsag_box_max: what a box carries; the parameter's default */
    size_t zero = 0, box = size <= 2 ? 4152 : 1080, max_default = 4152;
    MPI_Op halfop;
    long all = 0;

    if (lat0 < 0 || rd < 0) {
        FAIL("no coll_rsag_latency_calls counter or no recursive_doubling");
    }
    MPI_Op_create(halfplus, 0, &halfop);
    force_direct();
    make_segment(MPI_COMM_WORLD);
    lat0 = rt_counter("coll_rsag_latency_calls");
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); ++s) {
        size_t n = sizes[s];
        for (int nc = 0; nc < 2; ++nc) {
            for (int inplace = 0; inplace < 2; ++inplace) {
                for (int coll = 0; coll < RT_NCOLL; ++coll) {
                    /* a new root with each batch: the shape of a non-root's
                     * reduce (never in place) changes with it */
                    int root = (int) (4 * s + 2 * (size_t) nc + (size_t) inplace) % size;
                    /* the whole vector: a reduce-scatter's as one_case cuts it */
                    size_t total = n;
                    if (RT_RSB == coll) {
                        total = n / (size_t) size * (size_t) size;
                    } else if (RT_RS == coll) {
                        total = 0;
                        for (int q = 0; q < size; ++q) {
                            total += q % 3 == 1 ? 0 : n / (size_t) size + (size_t) q;
                        }
                    }
                    for (int it = 0; it < iters; ++it) {
                        (void) one_case(MPI_COMM_WORLD, coll, ++c, nc, nc ? halfop : MPI_SUM,
                                        n, inplace, root, form, NULL);
                    }
                    /* nonblocking: requests are kept for reuse only with an
                     * intrinsic op (Open MPI's MPI layer takes over the free
                     * of one with the user's op) */
                    if (total > 0 && total * sizeof(double) <= box
                        && (RT_FORM_BLOCKING == form || !nc)) {
                        expect += iters - 1;
                        ++first;    /* a shape met in an earlier batch may be remembered */
                    }
                }
            }
        }
    }
    got = rt_counter("coll_rsag_latency_calls") - lat0;
    if (got < expect || got > expect + first) {
        FAIL("%lld calls took the latency path, expected %lld to %lld", got, expect,
             expect + first);
    }
    if (RT_FORM_NONBLOCKING == form) {
        /* more requests of one shape outstanding than the pool keeps */
        enum { OUT = 6 };
        double in[OUT], out[OUT];
        MPI_Request req[OUT];
        for (int round = 0; round < 3; ++round) {
            for (int k = 0; k < OUT; ++k) {
                in[k] = input(++c, rank, 0);
                out[k] = -7.0;
                MPI_Iallreduce(&in[k], &out[k], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req[k]);
            }
            MPI_Waitall(OUT, req, MPI_STATUSES_IGNORE);
            for (int k = 0; k < OUT; ++k) {
                double want = reference(RT_ALLREDUCE, c - OUT + 1 + k, 0, 0, 1);
                if (bits(out[k]) != bits(want)) {
                    FAIL("outstanding round %d request %d: %a, rank order gives %a", round, k,
                         out[k], want);
                }
            }
        }
        MPI_Op_free(&halfop);
        MPI_Reduce(&failures, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        if (0 == rank) {
            printf("rsag_direct: latency %s np=%d form=nonblocking iters=%d latency_calls=%lld "
                   "failures=%ld", all ? "FAIL" : "PASS", size, iters, expect, all);
            if (nfanins) {
                printf(" fanin=%d tree_calls=%lld", tree_k, tree_calls);
            }
            printf("\n");
        }
        return all ? 1 : 0;
    }
    /* settings: an allreduce of one double twice (the first decides, the
     * second is remembered), then another forced algorithm, then direct
     * again (the settings it was remembered under: remembered still), then
     * the path turned off */
    lat0 = rt_counter("coll_rsag_latency_calls");
    (void) one_case(MPI_COMM_WORLD, RT_ALLREDUCE, ++c, 0, MPI_SUM, 1, 0, -1, RT_FORM_BLOCKING,
                    NULL);
    (void) one_case(MPI_COMM_WORLD, RT_ALLREDUCE, ++c, 0, MPI_SUM, 1, 0, -1, RT_FORM_BLOCKING,
                    NULL);
    rt_force(RT_ALLREDUCE, rd);
    (void) one_case(MPI_COMM_WORLD, RT_ALLREDUCE, ++c, 0, MPI_SUM, 1, 0, -1, RT_FORM_BLOCKING,
                    rt_alg(RT_ALLREDUCE, rd));
    if (rt_counter("coll_rsag_latency_calls") - lat0 != 1) {
        FAIL("the latency path ran a call after the forced algorithm changed");
    }
    force_direct();
    (void) one_case(MPI_COMM_WORLD, RT_ALLREDUCE, ++c, 0, MPI_SUM, 1, 0, -1, RT_FORM_BLOCKING,
                    NULL);
    rt_cvar_write(maxh, &zero);
    (void) one_case(MPI_COMM_WORLD, RT_ALLREDUCE, ++c, 0, MPI_SUM, 1, 0, -1, RT_FORM_BLOCKING,
                    NULL);
    rt_cvar_write(maxh, &max_default);
    if (rt_counter("coll_rsag_latency_calls") - lat0 != 2) {
        FAIL("after the settings changes %lld calls took the latency path, expected 2",
             rt_counter("coll_rsag_latency_calls") - lat0);
    }
    if (nfanins) {
        /* the fan-in changed between two calls of one shape: the next call
         * decides again (not by the latency path), the one after it is
         * remembered under the new fan-in */
        int k = tree_k;
        for (int round = 0; round < 2; ++round) {
            lat0 = rt_counter("coll_rsag_latency_calls");
            (void) one_case(MPI_COMM_WORLD, RT_ALLREDUCE, ++c, 0, MPI_SUM, 1, 0, -1,
                            RT_FORM_BLOCKING, NULL);
            (void) one_case(MPI_COMM_WORLD, RT_ALLREDUCE, ++c, 0, MPI_SUM, 1, 0, -1,
                            RT_FORM_BLOCKING, NULL);
            if (rt_counter("coll_rsag_latency_calls") - lat0 != 1 + (0 == round)) {
                FAIL("fan-in %d: %lld calls of two took the latency path, expected %d", tree_k,
                     rt_counter("coll_rsag_latency_calls") - lat0, 1 + (0 == round));
            }
            set_fanin(k == 1 ? 2 : 1);
        }
        set_fanin(k);
    }
    MPI_Op_free(&halfop);
    MPI_Reduce(&failures, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("rsag_direct: latency %s np=%d iters=%d latency_calls=%lld failures=%ld",
               all ? "FAIL" : "PASS", size, iters, expect, all);
        if (nfanins) {
            printf(" fanin=%d tree_calls=%lld", tree_k, tree_calls);
        }
        printf("\n");
    }
    return all ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "bits";
    int n = 0, rc, ordered = 0, want_direct = 3, settle = 1;

    for (int i = 2; i < argc; ++i) {
        const char *v = i + 1 < argc ? argv[i + 1] : "";
        if (0 == strcmp(argv[i], "--iters") || 0 == strcmp(argv[i], "--cycles")
            || 0 == strcmp(argv[i], "--comms") || 0 == strcmp(argv[i], "--starts")
            || 0 == strcmp(argv[i], "--rounds") || 0 == strcmp(argv[i], "--calls")) {
            n = atoi(v);
            ++i;
        } else if (0 == strcmp(argv[i], "--form")) {
            all_forms = 0 == strcmp(v, "all");
            form = all_forms ? RT_FORM_BLOCKING : rt_form_index(v);
            ++i;
        } else if (0 == strcmp(argv[i], "--fanin")) {
            for (const char *p = v; *p && nfanins < 8; p = strchr(p, ',') ? strchr(p, ',') + 1 : "") {
                fanins[nfanins++] = atoi(p);
            }
            ++i;
        } else if (0 == strcmp(argv[i], "--max-count")) {
            max_count = (size_t) atol(v);
            ++i;
        } else if (0 == strcmp(argv[i], "--auto")) {
            use_auto = 1;
        } else if (0 == strcmp(argv[i], "--ordered")) {
            ordered = 1;
        } else if (0 == strcmp(argv[i], "--expect-direct")) {
            want_direct = atoi(v);
            ++i;
        } else if (0 == strcmp(argv[i], "--no-settle")) {
            settle = 0;
        } else if (0 == strcmp(argv[i], "--cma")) {
            learn_cma = v;
            ++i;
        }
    }
    if (form < 0) {
        fprintf(stderr, "rsag_direct: --form blocking|nonblocking|persistent\n");
        return 2;
    }
    if (0 != strcmp(learn_cma, "none") && 0 != strcmp(learn_cma, "some")
        && 0 != strcmp(learn_cma, "all")) {
        fprintf(stderr, "rsag_direct: --cma none|some|all\n");
        return 2;
    }
    rt_start(&argc, &argv, &rank, &size);
    if (ordered && 0 != rt_persistent_ordered(1)) {
        FAIL("cannot set coll_rsag_persistent_starts_ordered");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (nfanins && 0 == strcmp(mode, "latency")) {
        set_fanin(fanins[0]);           /* latency: the first fan-in only */
    }
    if (0 == strcmp(mode, "bits")) {
        rc = mode_bits(n > 0 ? n : 1);
    } else if (0 == strcmp(mode, "churn")) {
        rc = mode_churn(n > 0 ? n : 10000);
    } else if (0 == strcmp(mode, "comms")) {
        rc = mode_comms(n > 0 ? n : 2);
    } else if (0 == strcmp(mode, "kill")) {
        rc = mode_kill();
    } else if (0 == strcmp(mode, "restart")) {
        rc = mode_restart(n > 0 ? n : 100);
    } else if (0 == strcmp(mode, "outstanding")) {
        rc = mode_outstanding(n > 0 ? n : 6);
    } else if (0 == strcmp(mode, "unordered")) {
        rc = mode_unordered(n > 0 ? n : 20, ordered, want_direct, settle);
    } else if (0 == strcmp(mode, "latency")) {
        rc = mode_latency(n > 0 ? n : 5);
    } else if (0 == strcmp(mode, "empty")) {
        rc = mode_empty(n > 0 ? n : 2000);
    } else if (0 == strcmp(mode, "learn")) {
        rc = mode_learn(n > 0 ? n : 140);
    } else {
        if (0 == rank) {
            fprintf(stderr, "usage: rsag_direct bits [--iters N] [--form F] [--auto] "
                            "[--max-count N] [--fanin K,...] [--form all] | restart [--starts N] | outstanding "
                            "[--rounds N] | unordered [--rounds N] [--ordered] [--expect-direct N] [--no-settle] | latency [--iters N] [--form F] | "
                            "empty [--calls N] | "
                            "churn [--cycles N] | learn [--rounds N] [--cma none|some|all] | "
                            "comms [--comms N] | kill\n");
        }
        rc = 2;
    }
    rt_mpit_finalize();
    MPI_Finalize();
    return rc;
}
