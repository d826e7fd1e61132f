/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_check.c -- independent correctness test for the coll/rsag component.
 *
 * One mpirun runs the whole matrix (the component's own unit tests cover the
 * pure parts; this program checks results through the MPI API):
 *
 *   communicators  MPI_COMM_WORLD, a dup of it, split by rank%2, and a split
 *                  with reversed rank order
 *   collectives    MPI_Allreduce, MPI_Reduce, MPI_Reduce_scatter_block,
 *                  MPI_Reduce_scatter (a collective whose control variable
 *                  coll_rsag_<coll>_algorithm does not exist while rsag is
 *                  loaded counts as one failed case)
 *   algorithms     every item of that enum control variable (auto first),
 *                  written with MPI_T_cvar_write before the cases
 *                  (--algorithms current: left alone, only read)
 *   datatypes      the predefined integer, floating point, complex, C_BOOL,
 *                  BYTE and MINLOC/MAXLOC pair types; derived types with
 *                  holes (vector), a resized extent, lb = -8 and a negative
 *                  true lower bound (hindexed), built on int, double and a
 *                  2 x uint64 "affine map" element
 *   ops            every predefined op the type allows; a commutative user op
 *                  (sum) and a non-commutative one (composition of affine maps
 *                  x -> a*x+b mod 2^64, checked in rank order).  Open MPI
 *                  rejects predefined ops on derived types (MPI_ERR_OP), so
 *                  derived types are reduced with the user ops.
 *   counts         0 1 2 p-1 p p+1 p'-1 p' p'+1 2p'+1 7 13 31 257 1021 4099
 *                  and 2^20+3 (int/double sum, not with --quick)
 *   MPI_IN_PLACE, every root of MPI_Reduce (--quick: 0, 1, p-1, p/2),
 *   NULL or a real recvbuf on non-roots, even / single-rank / random
 *   recvcounts (with zeros) for MPI_Reduce_scatter.
 *
 * Every rank regenerates every rank's input from (seed, case, rank, element),
 * so it knows the exact expected result of its own output: values are small
 * integers (floating point sums and products are exact), integer overflow
 * wraps as in the type's width.  Besides the values, a case checks that the
 * call returned MPI_SUCCESS, that sendbuf was not modified and that no byte of
 * recvbuf outside the type map (holes, 64 guard bytes on both sides) changed.
 *
 * Proof that rsag ran: around every tested call all MPI_T counters
 * coll_rsag_<coll>_<alg>_calls and coll_rsag_<coll>_delegated_calls are read.
 * Exactly one must move, by one, and belong to the tested collective; all
 * ranks must agree on it; when the forced algorithm applies (an algorithm
 * named *rabenseifner* needs a commutative op and count >= p', *ring*,
 * *priority*, *circulant* and *chain* a commutative op, *direct* a contiguous
 * datatype and one node, *hierarchical* and *leaders* a commutative op and
 * several nodes, one of them with >= 2 ranks) it must be its
 * counter (or "delegated", for a non-commutative op); "delegated" is a failure
 * for a commutative op.  No counter at all: rsag is not loaded, every case
 * fails.
 *
 * Forms (--form, a list: the matrix once per form): every case is one call
 * of the blocking collective (default), of the nonblocking one
 * (MPI_Iallreduce ... completed by MPI_Wait, or by an MPI_Test loop for every
 * third case), or of the persistent one
 * (MPI_Allreduce_init ... once, then MPI_Start + MPI_Wait twice with fresh
 * input written into the same buffers before each start, both results
 * checked: a restart must read its input again; then MPI_Request_free).  The
 * algorithm counter must move by one per case in every form (a persistent
 * request decides once, at init); besides, rsag's counters
 * coll_rsag_nonblocking_requests and coll_rsag_persistent_starts must move by
 * one per nonblocking call and by one per MPI_Start of a call rsag ran itself
 * (not delegated), and not at all in the other forms.  `direct` runs only in
 * the blocking form: in the others its counter must never move (forced
 * direct falls back to auto).
 *
 * Usage: mpirun -np N rsag_check [--quick] [--seed N] [--group G[,G]]
 *                               [--algorithms all|current] [--coll LIST]
 *                               [--form blocking|nonblocking|persistent[,...]]
 *                               [--every K [--offset J]] [--timeout SEC] [--verbose]
 *   --every K: only one case in K of each (collective, algorithm, communicator)
 *     block, the same on every rank (valgrind runs, where every case costs
 *     ~1 ms; the oversubscribed matrix jobs).  --offset J (taken modulo K,
 *     default 0): the cases J, J+K, J+2K, ... of each block, so that K runs
 *     with J = 0..K-1 together run every case once.
 *   --group main (default) | smallint | ulong | all: smallint and ulong hold
 *     the cases broken in Open MPI 4.1.4 itself (see case_group()).
 * Hidden, for testing the checker itself:
 *   --no-rsag          do not check counters (runs against coll/tuned)
 *   --cvar-prefix PFX  enumerate PFX_<coll>_algorithm instead of coll_rsag_...
 *   --max-print N      failure lines printed per rank (default 20)
 *
 * Output: one line per failing case on the failing rank (first 20), then on
 * world rank 0 per-algorithm and per-counter case counts and, last,
 *   rsag_check: np=<p> cases=<n> passed=<a> failed=<b> delegated=<d>
 * Exit status 0 iff failed == 0.  Bookkeeping uses MPI_Gather/MPI_Bcast, not
 * the collectives under test.
 *
 * Files: this one runs the matrix and checks each case; rsag_check_data.[ch]
 * hold the datatypes, ops and the generation / comparison of values;
 * rsag_mpit.[ch] (shared with the other test programs) rsag's MPI_T
 * control variables and counters.
 */

#define _POSIX_C_SOURCE 200809L

#include <mpi.h>

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rsag_check_data.h"
#include "rsag_forms.h"
#include "rsag_mpit.h"

#define GUARD     64      /* sentinel bytes before and after every buffer */
#define SENT      0xA5    /* sentinel byte value */
#define MAXALG    32
#define NCOLL     4
#define MAXPRINT  20
#define MAXCTR    (NCOLL * (MAXALG + 1))
#define NAMELEN   256
#define LARGE_COUNT ((1 << 20) + 3)
#define LARGE_SALT  0x4c41524745ULL   /* every large case's salt: same data, see xcache */

enum { COLL_ALLREDUCE, COLL_REDUCE, COLL_RSB, COLL_RS };
static const char *coll_names[NCOLL] = {
    "allreduce", "reduce", "reduce_scatter_block", "reduce_scatter"
};

/* ------------------------------------------------------------------------ */
/* options                                                                  */

static struct {
    int quick;
    unsigned long long seed;
    int group_main, group_small, group_ulong;
    int alg_current;
    int coll_sel[NCOLL];
    int verbose;
    int norsag;
    int timeout;
    int max_print;
    int forms;           /* the forms to run, 1 << RT_FORM_* */
    int form;            /* the one running */
    int every;           /* run one case in `every` of each block */
    int offset;          /* ... the one at this position (0..every-1) */
    char cvar_prefix[128];
} opt;

/* ------------------------------------------------------------------------ */
/* MPI_T: control variables (forced algorithm) and counters                 */

/* Through rsag_mpit.c (rt_mpit_open: tolerant, so that a run without rsag
 * reports instead of aborting).  colls[] and ctrs[] are this program's view:
 * the algorithms (value 0 first) and one flat list of counters, per
 * collective its algorithms' counters then the delegated one. */

typedef struct {
    int value;
    char name[NAMELEN];
    int ctr;             /* index into ctrs[] of its counter, -1 for auto */
} alginfo;

typedef struct {
    int selected;        /* asked for on the command line */
    int run;             /* tested in this run */
    int have_cvar;
    int orig_val;
    int nalg;
    alginfo alg[MAXALG];
    int deleg_ctr;
    int nrun;
    int run_alg[MAXALG]; /* indices into alg[], -1 = "default" (cvar absent) */
    int ctr_missing;     /* some of its counters do not exist */
} collinfo;

typedef struct {
    const char *name;
    int coll;
    int alg;             /* index into collinfo.alg, -1 = delegated */
    int found;
} ctrinfo;

static collinfo colls[NCOLL];
static ctrinfo ctrs[MAXCTR];
static int nctr;
static int mpit_ok;
static int rsag_loaded;
static int world_rank, world_size;
static unsigned long long ctr_before[MAXCTR], ctr_after[MAXCTR];

/* rsag's counters of the nonblocking calls it ran and of the starts of its
 * persistent requests: -1 when missing (rt_counter) */
enum { FC_NBREQ, FC_STARTS, NFC };
static const char *form_ctr_names[NFC] = { "coll_rsag_nonblocking_requests",
                                           "coll_rsag_persistent_starts" };
static long long fctr_before[NFC], fctr_after[NFC];

static void read_form_counters(long long *v)
{
    for (int i = 0; i < NFC; i++)
        v[i] = rt_counter(form_ctr_names[i]);
}

static void r0printf(const char *fmt, ...)
{
    if (world_rank != 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fflush(stdout);
}

/* what rsag_mpit finds missing or malformed */
static void report_mpit(const char *line)
{
    r0printf("rsag_check: ERROR: %s\n", line);
}

static int add_counter(int coll, int alg)
{
    ctrinfo *k = &ctrs[nctr];
    int rk = alg >= 0 ? alg : 0;     /* rsag_mpit: counter 0 is the delegated one */
    k->name = rt_counter_name(coll, rk);
    k->coll = coll;
    k->alg = alg;
    k->found = rt_counter_found(coll, rk);
    return nctr++;
}

static void setup_collinfo(int ci)
{
    collinfo *c = &colls[ci];
    c->have_cvar = 0;
    c->nalg = 0;
    c->deleg_ctr = -1;
    if (!mpit_ok)
        return;
    if (rt_have_cvar(ci)) {
        for (int a = 0; a < rt_nalg(ci) && a < MAXALG; a++) {
            c->alg[a].value = rt_alg_value(ci, a);
            snprintf(c->alg[a].name, sizeof c->alg[a].name, "%s", rt_alg(ci, a));
            c->nalg++;
        }
        c->orig_val = rt_orig_value(ci);
        c->have_cvar = 1;
    }
    /* counters: one per non-auto algorithm plus delegated */
    for (int a = 0; a < c->nalg; a++) {
        c->alg[a].ctr = -1;
        if (c->alg[a].value == 0 || strcmp(c->alg[a].name, "auto") == 0)
            continue;
        c->alg[a].ctr = add_counter(ci, a);
        if (!ctrs[c->alg[a].ctr].found)
            c->ctr_missing = 1;
    }
    c->deleg_ctr = add_counter(ci, -1);
    if (!ctrs[c->deleg_ctr].found)
        c->ctr_missing = 1;
}

static int read_counters(unsigned long long *v)
{
    rt_snap_t snap;
    int rc = 0;

    for (int ci = 0; ci < NCOLL && nctr > 0; ci++) {
        if (rt_snapshot(ci, &snap) != 0)
            rc = -1;
        for (int k = 0; k < nctr; k++)
            if (ctrs[k].coll == ci)
                v[k] = ctrs[k].found ? snap.ctr[ctrs[k].alg >= 0 ? ctrs[k].alg : 0] : 0;
    }
    return rc;
}

static int write_cvar(int ci, int value)
{
    return rt_write_value(ci, value);
}

/* ------------------------------------------------------------------------ */
/* cases                                                                    */

typedef struct {
    const char *cname;
    MPI_Comm comm;
    int p, me, pp;         /* size, rank, largest power of two <= p */
    int coll;
    int ai;                /* forced algorithm (index into alg[]), -1 = none */
    const char *aname;
    const ttype *t;
    int op;
    int count;
    int root;
    int inplace;
    int single_node;       /* every rank of comm on one node (direct needs it) */
    int multi_node;        /* >= 2 nodes, one with >= 2 ranks (hierarchical
                              and leaders need it) */
    int nullrecv;          /* reduce: non-roots pass recvbuf = NULL */
    int rspat;             /* reduce_scatter: recvcounts pattern */
    uint64_t salt;
} casedesc;

static const char *rspat_names[3] = { "even", "one-rank", "random" };

/* per-block results: (moved counter + 1) | failed << 20 */
#define RES_FAIL (1 << 20)
static int *blk_res;
static size_t blk_n, blk_cap;

static struct {
    unsigned long long cases, passed, failed, delegated;
    unsigned long long per_ctr[MAXCTR];
    unsigned long long per_forced[NCOLL][MAXALG + 1];
    unsigned long long per_forced_failed[NCOLL][MAXALG + 1];
} tally;

static int printed;
static int skipped_self;
static unsigned long long skipped_stock;
static char cur_desc[1024];
/* the case in progress, described only when a message needs it (a
 * description per case was a tenth of the matrix's time under valgrind) */
static const casedesc *volatile cur_case;
static volatile sig_atomic_t in_case;

static void describe(const casedesc *cd, char *s, size_t n)
{
    char root[32] = "-", extra[64] = "";
    if (cd->coll == COLL_REDUCE) {
        snprintf(root, sizeof root, "%d", cd->root);
        snprintf(extra, sizeof extra, " nonroot_recvbuf=%s", cd->nullrecv ? "NULL" : "buf");
    } else if (cd->coll == COLL_RS) {
        snprintf(extra, sizeof extra, " recvcounts=%s", rspat_names[cd->rspat]);
    }
    snprintf(s, n, "comm=%s(np=%d) form=%s coll=%s alg=%s type=%s op=%s count=%d root=%s "
             "inplace=%d%s", cd->cname, cd->p, rt_form_names[opt.form], coll_names[cd->coll],
             cd->aname, cd->t->name, ops[cd->op].name, cd->count, root, cd->inplace, extra);
}

static void on_alarm(int sig)
{
    (void)sig;
    char msg[1400];
    if (in_case)
        describe(cur_case, cur_desc, sizeof cur_desc);
    int n = snprintf(msg, sizeof msg, "rsag_check: rank %d: TIMEOUT after %d s%s%s\n",
                     world_rank, opt.timeout, in_case ? " in case " : "",
                     in_case ? cur_desc : "");
    if (n > 0) {
        ssize_t w = write(2, msg, (size_t)(n < (int)sizeof msg ? n : (int)sizeof msg - 1));
        (void)w;
    }
    _exit(3);
}

/* A crash names the case it happened in, then goes on to the handler that
 * was there (Open MPI's backtrace). */
static struct sigaction crash_prev[3];
static const int crash_sigs[3] = { SIGSEGV, SIGBUS, SIGABRT };

static void on_crash(int sig)
{
    char msg[1400];
    if (in_case)
        describe(cur_case, cur_desc, sizeof cur_desc);
    int n = snprintf(msg, sizeof msg, "rsag_check: rank %d: signal %d%s%s\n", world_rank, sig,
                     in_case ? " in case " : "", in_case ? cur_desc : "");
    if (n > 0) {
        ssize_t w = write(2, msg, (size_t)(n < (int)sizeof msg ? n : (int)sizeof msg - 1));
        (void)w;
    }
    for (int i = 0; i < 3; i++)
        if (crash_sigs[i] == sig)
            sigaction(sig, &crash_prev[i], NULL);
    raise(sig);
}

static void catch_crashes(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_crash;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++)
        sigaction(crash_sigs[i], &sa, &crash_prev[i]);
}

typedef struct {
    unsigned char *base;
    char *origin;
    size_t total;
    long nitems;
} buf_t;

static int buf_alloc(buf_t *b, const ttype *t, long nitems)
{
    size_t span = nitems > 0 ? (size_t)(nitems - 1) * (size_t)t->ext + (size_t)t->text : 0;
    b->total = span + 2 * GUARD;
    b->nitems = nitems;
    b->base = malloc(b->total);
    if (b->base == NULL)
        return -1;
    memset(b->base, SENT, b->total);
    b->origin = (char *)b->base + GUARD - t->tlb;
    return 0;
}

static void buf_fill_values(buf_t *b, const casedesc *cd, uint64_t hb)
{
    const ttype *t = cd->t;
    for (long i = 0; i < b->nitems; i++)
        for (int j = 0; j < t->nel; j++) {
            val_t v = gen_val(t->el, cd->op, hb, (uint64_t)i * t->nel + j, cd->p);
            store_elem(t->el, b->origin + i * t->ext + t->off[j], &v);
        }
}

/* The inputs of the large cases (LARGE_SALT) are the same in every block of
 * a run: their bytes are kept, so that filling 1M elements again is one
 * copy.  Generating them was the test's own largest cost in the full matrix
 * (about a quarter of its CPU time at np 4).  Four images: int and double
 * sums, twice for a persistent case's second start. */
static struct {
    const ttype *t;
    int op, p;
    long n;
    uint64_t hb;
    unsigned char *img;     /* the whole buffer, guards included */
} fcache[4];
static int fcache_next;

/* buf_fill: every element of b (just made by buf_alloc) the input of the
 * rank whose hash base is hb */
static void buf_fill(buf_t *b, const casedesc *cd, uint64_t hb)
{
    if (cd->salt != LARGE_SALT) {
        buf_fill_values(b, cd, hb);
        return;
    }
    for (int i = 0; i < 4; i++)
        if (fcache[i].img && fcache[i].t == cd->t && fcache[i].op == cd->op &&
            fcache[i].p == cd->p && fcache[i].n == b->nitems && fcache[i].hb == hb) {
            memcpy(b->base, fcache[i].img, b->total);
            return;
        }
    buf_fill_values(b, cd, hb);
    int i = fcache_next;
    fcache_next = (fcache_next + 1) % 4;
    free(fcache[i].img);
    fcache[i].img = malloc(b->total);
    if (fcache[i].img == NULL)
        return;
    memcpy(fcache[i].img, b->base, b->total);
    fcache[i].t = cd->t;
    fcache[i].op = cd->op;
    fcache[i].p = cd->p;
    fcache[i].n = b->nitems;
    fcache[i].hb = hb;
}

/* bytes outside the data of the type map must still hold the sentinel;
 * returns the offset (from the buffer origin) of the first bad byte or 0 */
static int check_holes(const buf_t *b, const ttype *t, long *bad_off)
{
    size_t span = b->total - 2 * GUARD;
    if (!t->derived) {
        for (size_t i = 0; i < GUARD; i++) {
            if (b->base[i] != SENT) {
                *bad_off = (long)((char *)b->base + i - b->origin);
                return 1;
            }
            if (b->base[GUARD + span + i] != SENT) {
                *bad_off = (long)((char *)b->base + GUARD + span + i - b->origin);
                return 1;
            }
        }
        return 0;
    }
    unsigned char *mask = calloc(b->total, 1);
    if (mask == NULL)
        return 0;
    size_t o0 = (size_t)(b->origin - (char *)b->base);
    for (long i = 0; i < b->nitems; i++)
        for (int j = 0; j < t->nel; j++)
            memset(mask + o0 + (size_t)(i * t->ext + t->off[j]), 1, t->el->esz);
    int bad = 0;
    for (size_t i = 0; i < b->total; i++) {
        if (!mask[i] && b->base[i] != SENT) {
            *bad_off = (long)i - (long)o0;
            bad = 1;
            break;
        }
    }
    free(mask);
    return bad;
}

static void make_rcounts(const casedesc *cd, int *rc)
{
    int p = cd->p, n = cd->count;
    if (cd->rspat == 0) {
        for (int i = 0; i < p; i++)
            rc[i] = n / p + (i < n % p);
    } else if (cd->rspat == 1) {
        int who = (int)(cd->salt % (uint64_t)p);
        for (int i = 0; i < p; i++)
            rc[i] = (i == who) ? n : 0;
    } else {
        /* p - 1 random cut points in [0, n] (duplicates give zero counts) */
        int *cut = malloc(sizeof(int) * (size_t)(p + 1));
        cut[0] = 0;
        cut[p] = n;
        for (int i = 1; i < p; i++)
            cut[i] = (int)(mix64(cd->salt + (uint64_t)i) % (uint64_t)(n + 1));
        for (int i = 2; i < p; i++)           /* insertion sort of cut[1..p-1] */
            for (int j = i; j > 1 && cut[j - 1] > cut[j]; j--) {
                int x = cut[j]; cut[j] = cut[j - 1]; cut[j - 1] = x;
            }
        for (int i = 0; i < p; i++)
            rc[i] = cut[i + 1] - cut[i];
        free(cut);
    }
}

static int forced_applies(const casedesc *cd, long n_items)
{
    rt_placement_t where = { cd->single_node, cd->multi_node };

    return rt_applies(colls[cd->coll].alg[cd->ai].name, n_items, cd->pp, ops[cd->op].commute,
                      rt_contiguous(cd->t->dt), where);
}

typedef struct {
    int failed;
    char why[600];
} verdict;

static void fail(verdict *v, const char *fmt, ...)
{
    if (v->failed)
        return;   /* keep the first problem */
    v->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->why, sizeof v->why, fmt, ap);
    va_end(ap);
}

/* check which counter moved; returns the moved counter or -1 */
static int check_counters(const casedesc *cd, long n_items, verdict *v)
{
    collinfo *c = &colls[cd->coll];
    int moved = -1, nmoved = 0;
    char list[400] = "";
    size_t ll = 0;
    /* A call delegated to the previous module may make that module call
     * other collectives (coll/tuned's reduce-scatter calls MPI_Reduce),
     * which rsag counts under their own names: then only this
     * collective's counters are checked. */
    int delegated = c->deleg_ctr >= 0 && ctr_after[c->deleg_ctr] - ctr_before[c->deleg_ctr] == 1;
    for (int k = 0; k < nctr; k++) {
        if (!ctrs[k].found || (delegated && ctrs[k].coll != cd->coll))
            continue;
        unsigned long long d = ctr_after[k] - ctr_before[k];
        if (d != 0) {
            nmoved++;
            if (d == 1 && ctrs[k].coll == cd->coll && moved < 0)
                moved = k;
            else
                moved = -2;
            if (ll < sizeof list - 1)
                ll += (size_t)snprintf(list + ll, sizeof list - ll, "%s%s+%llu",
                                       ll ? "," : "", ctrs[k].name, d);
        }
    }
    if (c->ctr_missing) {
        fail(v, "counter mismatch: some coll_rsag_%s_*_calls pvars do not exist",
             coll_names[cd->coll]);
        return moved >= 0 ? moved : -1;
    }
    if (nmoved == 0 && n_items == 0) {
        /* Open MPI's API layer returns before any coll module when there
         * is nothing to reduce (count 0, all recvcounts 0). */
        return -1;
    }
    if (nmoved == 0) {
        fail(v, "counter mismatch: no coll_rsag_%s_*_calls counter moved (rsag not used?)",
             coll_names[cd->coll]);
        return -1;
    }
    if (nmoved != 1 || moved < 0) {
        fail(v, "counter mismatch: expected exactly one coll_rsag_%s_* counter +1, moved: %s",
             coll_names[cd->coll], list);
        return -1;
    }
    int comm = ops[cd->op].commute;
    if (moved == c->deleg_ctr) {
        if (comm)
            fail(v, "counter mismatch: delegated a commutative op (%s)", ctrs[moved].name);
        return moved;
    }
    /* direct runs in the nonblocking and persistent forms too, once a
     * blocking call has made the communicator's segment (or on one rank):
     * rt_applies accepts it there, and a fallback too */
    if (cd->ai >= 0 && c->alg[cd->ai].ctr >= 0) {
        int want = c->alg[cd->ai].ctr;
        if (forced_applies(cd, n_items) && moved != want)
            fail(v, "counter mismatch: forced %s applies but %s moved (expected %s)",
                 c->alg[cd->ai].name, ctrs[moved].name, ctrs[want].name);
    }
    return moved;
}

/* The counters of the forms: a call rsag ran itself (an algorithm counter
 * moved, not the delegated one) counts one nonblocking request in the
 * nonblocking form, `starts` starts in the persistent form, nothing in the
 * blocking form; a delegated call (or none) counts nothing. */
static void check_form_counters(int moved, int starts, verdict *v)
{
    int ours = moved >= 0 && ctrs[moved].alg >= 0;
    long long want[NFC] = { 0, 0 };

    if (ours && opt.form == RT_FORM_NONBLOCKING)
        want[FC_NBREQ] = 1;
    if (ours && opt.form == RT_FORM_PERSISTENT)
        want[FC_STARTS] = starts;
    for (int i = 0; i < NFC; i++) {
        if (fctr_before[i] < 0 || fctr_after[i] < 0) {
            /* before the nonblocking engine these counters do not exist:
             * only the blocking form can do without them */
            if (opt.form != RT_FORM_BLOCKING)
                fail(v, "counter mismatch: no MPI_T counter %s", form_ctr_names[i]);
            continue;
        }
        if (fctr_after[i] - fctr_before[i] != want[i])
            fail(v, "counter mismatch: %s moved by %lld, expected %lld (%s form, %s)",
                 form_ctr_names[i], fctr_after[i] - fctr_before[i], want[i],
                 rt_form_names[opt.form], moved < 0 ? "no algorithm counter moved" :
                 ctrs[moved].name);
    }
}

static void record(const casedesc *cd, const verdict *v, int moved, int quiet)
{
    if (v->failed && !quiet && printed < opt.max_print) {
        printed++;
        char d[1024];
        describe(cd, d, sizeof d);
        printf("rsag_check: FAIL rank=%d %s: %s\n", world_rank, d, v->why);
        if (printed == opt.max_print)
            printf("rsag_check: rank %d: further failures not printed\n", world_rank);
        fflush(stdout);
    }
    if (blk_n == blk_cap) {
        blk_cap = blk_cap ? 2 * blk_cap : 1024;
        blk_res = realloc(blk_res, blk_cap * sizeof(int));
        if (blk_res == NULL) {
            fprintf(stderr, "rsag_check: out of memory\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    blk_res[blk_n++] = (moved + 1) | (v->failed ? RES_FAIL : 0);
}

/* Expected results of the >= 1M-element cases are cached (they use a fixed
 * salt, so the same input data for a given type, op and communicator size):
 * folding p inputs of 1M elements on every rank is the dominant cost.  Each
 * entry keeps the values and their bytes as the type stores them, so that a
 * right result is found by one memcmp (check_values); four entries: int and
 * double sums, twice for a persistent case's second start. */
typedef struct {
    const ttype *t;
    int op, p;
    long n;
    uint64_t salt, hb0;
    uint64_t *v;
    unsigned char *img;     /* n elements stored at the type's extent */
} xentry;
static xentry xcache[4];
static int xcache_next;

static const xentry *expected_cached(const casedesc *cd, long nin, const uint64_t *hb)
{
    const ttype *t = cd->t;
    const edesc *el = t->el;
    if (nin < (1L << 20) || !t->plain || t->nel != 1 || t->tlb != 0 ||
        (el->cat != CAT_INT && el->cat != CAT_FLT))
        return NULL;
    for (int i = 0; i < 4; i++)
        if (xcache[i].v && xcache[i].t == t && xcache[i].op == cd->op &&
            xcache[i].p == cd->p && xcache[i].n == nin && xcache[i].salt == cd->salt &&
            xcache[i].hb0 == hb[0])
            return &xcache[i];
    xentry *x = &xcache[xcache_next];
    xcache_next = (xcache_next + 1) % 4;
    free(x->v);
    free(x->img);
    x->v = malloc(sizeof(uint64_t) * (size_t)nin);
    x->img = malloc((size_t)nin * (size_t)t->ext);
    if (x->v == NULL || x->img == NULL) {
        free(x->v);
        free(x->img);
        x->v = NULL;
        x->img = NULL;
        return NULL;
    }
    memset(x->img, SENT, (size_t)nin * (size_t)t->ext);
    x->t = t;
    x->op = cd->op;
    x->p = cd->p;
    x->n = nin;
    x->salt = cd->salt;
    x->hb0 = hb[0];
    for (long e = 0; e < nin; e++) {
        val_t exp = gen_val(el, cd->op, hb[0], (uint64_t)e, cd->p);
        for (int r = 1; r < cd->p; r++) {
            val_t x1 = gen_val(el, cd->op, hb[r], (uint64_t)e, cd->p);
            combine(el, cd->op, &exp, &x1);
        }
        if (el->cat == CAT_INT)
            x->v[e] = exp.u;
        else
            memcpy(&x->v[e], &exp.re, sizeof(double));
        store_elem(el, (char *)x->img + e * t->ext, &exp);
    }
    return x;
}

/* Complete the request of a nonblocking or started persistent call: MPI_Wait,
 * or for every third case an MPI_Test loop. */
static int complete(MPI_Request *req)
{
    int flag = 0, rc;

    if (blk_n % 3 != 2)
        return MPI_Wait(req, MPI_STATUS_IGNORE);
    do {
        rc = MPI_Test(req, &flag, MPI_STATUS_IGNORE);
    } while (rc == MPI_SUCCESS && !flag);
    return rc;
}

/* The hash bases of every rank's input for run `it` of a case (a persistent
 * case runs twice with different inputs; run 0 is every form's data). */
static void hash_bases(const casedesc *cd, int it, uint64_t *hb)
{
    uint64_t s0 = mix64(opt.seed ^ mix64(cd->salt));
    if (it > 0)
        s0 = mix64(s0 ^ (0x9e3779b97f4a7c15ULL * (uint64_t)it));
    for (int r = 0; r < cd->p; r++)
        hb[r] = mix64(s0 + 0x632be59bd9b4e019ULL * (uint64_t)(r + 1));
}

/* The values of recvbuf (at the root) after a call: every element the
 * exact reduction of every rank's input. */
static void check_values(const casedesc *cd, const buf_t *rb, long nin, long nout, long outoff,
                         const uint64_t *hb, const char *pfx, verdict *v)
{
    const ttype *t = cd->t;
    const edesc *el = t->el;
    int p = cd->p;
    long bad = -1, nbad = 0;
    val_t got_bad, exp_bad;
    const xentry *x = expected_cached(cd, nin, hb);
    const uint64_t *xc = x != NULL ? x->v : NULL;
    /* the cached bytes: equal means every element right (padding bytes that
     * differ, as a long double's may, only send it to the loop below) */
    if (x != NULL && memcmp(rb->origin, x->img + outoff * t->ext, (size_t)nout * t->ext) == 0)
        return;
    for (long i = 0; i < nout; i++) {
        for (int j = 0; j < t->nel; j++) {
            uint64_t e = (uint64_t)(outoff + i) * t->nel + j;
            val_t exp;
            if (xc != NULL) {
                memset(&exp, 0, sizeof exp);
                if (el->cat == CAT_INT)
                    exp.u = xc[e];
                else
                    memcpy(&exp.re, &xc[e], sizeof(double));
            } else {
                exp = gen_val(el, cd->op, hb[0], e, p);
                for (int r = 1; r < p; r++) {
                    val_t x = gen_val(el, cd->op, hb[r], e, p);
                    combine(el, cd->op, &exp, &x);
                }
            }
            val_t got = load_elem(el, rb->origin + i * t->ext + t->off[j]);
            if (!val_eq(el, &got, &exp)) {
                if (nbad++ == 0) {
                    bad = i * t->nel + j;
                    got_bad = got;
                    exp_bad = exp;
                }
            }
        }
    }
    if (nbad) {
        char gs[128], xs[128];
        val_fmt(el, &got_bad, gs, sizeof gs);
        val_fmt(el, &exp_bad, xs, sizeof xs);
        fail(v, "%swrong result: %ld of %ld elements differ, first at element %ld "
             "(item %ld): got %s expected %s", pfx, nbad, nout * t->nel, bad,
             bad / t->nel, gs, xs);
    }
}

static void run_case(casedesc *cd)
{
    const ttype *t = cd->t;
    int p = cd->p, me = cd->me, coll = cd->coll;
    verdict v = { 0, "" };
    int *rcounts = NULL;
    long nin, nout, outoff = 0;
    int is_root = (coll != COLL_REDUCE) || me == cd->root;
    int niter = opt.form == RT_FORM_PERSISTENT ? 2 : 1;

    cur_case = cd;
    if (!opt.norsag && !rsag_loaded) {
        /* nothing to prove: every case fails, without calling into stock
         * Open MPI (which crashes on some of them, see run_block) */
        fail(&v, "rsag not loaded");
        record(cd, &v, -1, 1);
        return;
    }
    in_case = 1;

    switch (coll) {
    case COLL_RSB:
        nin = (long)cd->count * p;
        nout = cd->count;
        outoff = (long)me * cd->count;
        break;
    case COLL_RS:
        rcounts = malloc(sizeof(int) * (size_t)p);
        make_rcounts(cd, rcounts);
        nin = cd->count;
        nout = rcounts[me];
        for (int i = 0; i < me; i++)
            outoff += rcounts[i];
        break;
    default:
        nin = nout = cd->count;
        break;
    }

    /* hash bases of every rank's input */
    uint64_t *hb = malloc(sizeof(uint64_t) * (size_t)p);

    int use_send = !(cd->inplace && is_root);
    buf_t sb = { 0 }, rb = { 0 };
    unsigned char *scopy = NULL;
    int have_rb = 0;
    if (hb == NULL)
        goto oom;
    if (use_send) {
        if (buf_alloc(&sb, t, nin) != 0)
            goto oom;
        scopy = malloc(sb.total);
        if (scopy == NULL)
            goto oom;
    }
    if (is_root) {
        if (buf_alloc(&rb, t, cd->inplace ? nin : nout) != 0)
            goto oom;
        have_rb = 1;
    } else if (!cd->nullrecv) {
        if (buf_alloc(&rb, t, nout) != 0)
            goto oom;
        have_rb = 1;
    }

    rt_call_t call = { coll, use_send ? (void *)sb.origin : MPI_IN_PLACE,
                       have_rb ? (void *)rb.origin : NULL,
                       cd->count, rcounts, t->dt,
                       ops[cd->op].op, cd->root, cd->comm };
    int check_ctr = !opt.norsag;
    if (check_ctr && read_counters(ctr_before) != 0)
        fail(&v, "MPI_T_pvar_read failed");
    if (check_ctr)
        read_form_counters(fctr_before);

    int rc = MPI_SUCCESS, starts = 0;
    MPI_Request req = MPI_REQUEST_NULL;
    for (int it = 0; it < niter && rc == MPI_SUCCESS; it++) {
        char pfx[32] = "";
        if (niter > 1)
            snprintf(pfx, sizeof pfx, "start %d: ", it + 1);
        /* fresh input in the same buffers */
        hash_bases(cd, it, hb);
        if (use_send) {
            buf_fill(&sb, cd, hb[me]);
            memcpy(scopy, sb.base, sb.total);
        }
        if (is_root && cd->inplace)
            buf_fill(&rb, cd, hb[me]);

        const char *what = "the call";
        if (it == 0)
            rc = rt_post(opt.form, &call, &req);
        if (rc == MPI_SUCCESS && opt.form == RT_FORM_PERSISTENT) {
            what = "MPI_Start";
            rc = MPI_Start(&req);
            starts += rc == MPI_SUCCESS;
        }
        if (rc == MPI_SUCCESS && opt.form != RT_FORM_BLOCKING) {
            what = "the completion";
            rc = complete(&req);
        }
        if (rc != MPI_SUCCESS) {
            char es[MPI_MAX_ERROR_STRING];
            int len = 0;
            MPI_Error_string(rc, es, &len);
            fail(&v, "%s%s returned error %d (%s)", pfx, what, rc, es);
            break;
        }
        if (opt.form == RT_FORM_NONBLOCKING && req != MPI_REQUEST_NULL)
            fail(&v, "the completed request is not MPI_REQUEST_NULL");

        /* results */
        if (is_root)
            check_values(cd, &rb, nin, nout, outoff, hb, pfx, &v);
        if (is_root) {
            long off;
            if (check_holes(&rb, t, &off))
                fail(&v, "%srecvbuf byte at offset %ld outside the type map was overwritten "
                     "(holes/guards)", pfx, off);
        }
        if (use_send && memcmp(scopy, sb.base, sb.total) != 0) {
            size_t i = 0;
            while (scopy[i] == sb.base[i])
                i++;
            fail(&v, "%ssendbuf modified (byte offset %ld from origin)", pfx,
                 (long)((char *)sb.base + i - sb.origin));
        }
    }
    if (opt.form == RT_FORM_PERSISTENT && req != MPI_REQUEST_NULL) {
        int frc = MPI_Request_free(&req);
        if (frc != MPI_SUCCESS || req != MPI_REQUEST_NULL)
            fail(&v, "MPI_Request_free of the persistent request returned %d", frc);
    }

    int moved = -1;
    if (check_ctr) {
        if (read_counters(ctr_after) != 0) {
            fail(&v, "MPI_T_pvar_read failed");
        } else {
            moved = check_counters(cd, coll == COLL_RSB ? nin : cd->count, &v);
            read_form_counters(fctr_after);
            check_form_counters(moved, starts, &v);
        }
    }

    record(cd, &v, moved, 0);

    free(sb.base);
    free(rb.base);
    free(scopy);
    free(hb);
    free(rcounts);
    in_case = 0;
    return;

oom:
    describe(cd, cur_desc, sizeof cur_desc);
    fprintf(stderr, "rsag_check: rank %d: out of memory in %s\n", world_rank, cur_desc);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

/* ------------------------------------------------------------------------ */
/* the matrix                                                               */

enum { CLS_CORE, CLS_OPS, CLS_DERIV, CLS_OTHER };

static int classify(const ttype *t, int op)
{
    const edesc *el = t->el;
    int intdbl = (el == &elems[E_INT] || el == &elems[E_DOUBLE]);
    if (!t->plain)
        return CLS_DERIV;
    if ((intdbl && (op == OP_SUM || op == OP_USUM)) || el == &elems[E_AFF])
        return CLS_CORE;
    if (intdbl)
        return CLS_OPS;
    return CLS_OTHER;
}

/* the op the quick run uses for a type outside INT/DOUBLE */
static int natural_op(const ttype *t, int op)
{
    switch (t->el->cat) {
    case CAT_INT: case CAT_FLT: case CAT_CPLX: return op == OP_SUM;
    case CAT_BYTE: return op == OP_BXOR;
    default: return 1;     /* bool: 3 logical ops, pairs: MINLOC and MAXLOC */
    }
}

static int add_count(int *list, int n, int c)
{
    if (c < 0)
        return n;
    for (int i = 0; i < n; i++)
        if (list[i] == c)
            return n;
    list[n] = c;
    return n + 1;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

typedef struct {
    MPI_Comm comm;
    const char *name;
    int p, me, pp;
    int single_node;               /* every rank on one node */
    int multi_node;                /* hierarchical and leaders apply */
    int counts[32], ncounts;       /* the full count list */
    int qroots[4], nqroots;
} commctx;

static void run_block(commctx *cx, int coll, int ai)
{
    const collinfo *c = &colls[coll];
    unsigned long rot = 0, k = 0, nseen = 0;
    casedesc cd;
    memset(&cd, 0, sizeof cd);
    cd.cname = cx->name;
    cd.comm = cx->comm;
    cd.p = cx->p;
    cd.me = cx->me;
    cd.pp = cx->pp;
    cd.single_node = cx->single_node;
    cd.multi_node = cx->multi_node;
    cd.coll = coll;
    cd.ai = ai;
    cd.aname = ai >= 0 ? c->alg[ai].name : "default";

    int p = cx->p, pp = cx->pp;
    int sub_full[8], nsub_full = 0, sub_quick[4], nsub_quick = 0;
    int small_full[12], nsmall_full = 0, small_quick[6], nsmall_quick = 0;
    int deriv_quick[6], nderiv_quick = 0;
    nsub_full = add_count(sub_full, nsub_full, 1);
    nsub_full = add_count(sub_full, nsub_full, p);
    nsub_full = add_count(sub_full, nsub_full, pp + 1);
    nsub_full = add_count(sub_full, nsub_full, 2 * pp + 1);
    nsub_full = add_count(sub_full, nsub_full, 31);
    nsub_full = add_count(sub_full, nsub_full, 1021);
    nsub_quick = add_count(sub_quick, nsub_quick, 1);
    nsub_quick = add_count(sub_quick, nsub_quick, pp + 1);
    nsub_quick = add_count(sub_quick, nsub_quick, 31);
    nsmall_full = add_count(small_full, nsmall_full, 1);
    nsmall_full = add_count(small_full, nsmall_full, 7);
    nsmall_full = add_count(small_full, nsmall_full, 8);
    nsmall_full = add_count(small_full, nsmall_full, 15);
    nsmall_full = add_count(small_full, nsmall_full, 16);
    nsmall_full = add_count(small_full, nsmall_full, 17);
    nsmall_full = add_count(small_full, nsmall_full, 31);
    nsmall_full = add_count(small_full, nsmall_full, 257);
    nsmall_full = add_count(small_full, nsmall_full, 1021);
    nsmall_quick = add_count(small_quick, nsmall_quick, 1);
    nsmall_quick = add_count(small_quick, nsmall_quick, 8);
    nsmall_quick = add_count(small_quick, nsmall_quick, 16);
    nsmall_quick = add_count(small_quick, nsmall_quick, 17);
    nsmall_quick = add_count(small_quick, nsmall_quick, 257);
    nderiv_quick = add_count(deriv_quick, nderiv_quick, 0);
    nderiv_quick = add_count(deriv_quick, nderiv_quick, 1);
    nderiv_quick = add_count(deriv_quick, nderiv_quick, pp);
    nderiv_quick = add_count(deriv_quick, nderiv_quick, 2 * pp + 1);
    nderiv_quick = add_count(deriv_quick, nderiv_quick, 31);

    for (int ti = 0; ti < ntypes; ti++) {
        const ttype *t = &types[ti];
        for (int op = 0; op < NOPS; op++) {
            if (!op_valid(t, op))
                continue;
            int grp = case_group(t, op), small = (grp == G_SMALLINT);
            if ((grp == G_MAIN && !opt.group_main) || (small && !opt.group_small) ||
                (grp == G_ULONG && !opt.group_ulong))
                continue;
            int cls = classify(t, op);
            const int *cl;
            int ncl;
            int both_inplace, all_roots = 0, large = 0;
            int one_count = -1;     /* quick: only one count of the list */
            if (small) {
                cl = opt.quick ? small_quick : small_full;
                ncl = opt.quick ? nsmall_quick : nsmall_full;
                both_inplace = 0;
            } else if (cls == CLS_CORE || cls == CLS_OPS) {
                cl = cx->counts;
                ncl = cx->ncounts;
                both_inplace = !opt.quick || cls == CLS_CORE;
                all_roots = cls == CLS_CORE &&
                            ((t->el == &elems[E_INT] && op == OP_SUM) ||
                             t->el == &elems[E_AFF]);
                large = !opt.quick && op == OP_SUM;
            } else if (cls == CLS_DERIV) {
                cl = opt.quick ? deriv_quick : cx->counts;
                ncl = opt.quick ? nderiv_quick : cx->ncounts;
                both_inplace = !opt.quick;
            } else {
                cl = opt.quick ? sub_quick : sub_full;
                ncl = opt.quick ? nsub_quick : nsub_full;
                both_inplace = 0;
                if (opt.quick && !natural_op(t, op))
                    one_count = (int)(k++ % (unsigned long)ncl);
            }
            for (int ci = 0; ci < ncl + (large ? 1 : 0); ci++) {
                if (one_count >= 0 && ci != one_count)
                    continue;
                int count = ci < ncl ? cl[ci] : LARGE_COUNT;
                if (coll == COLL_RSB && count == LARGE_COUNT)
                    count = LARGE_COUNT / p + 1;
                int ipsel = (int)(rot % 2);
                for (int ip = 0; ip < 2; ip++) {
                    if (!both_inplace && ip != ipsel)
                        continue;
                    int nroots = 1;
                    if (coll == COLL_REDUCE && all_roots && ci < ncl)
                        nroots = opt.quick ? cx->nqroots : p;
                    for (int ri = 0; ri < nroots; ri++) {
                        cd.t = t;
                        cd.op = op;
                        cd.count = count;
                        cd.inplace = ip;
                        if (coll == COLL_REDUCE) {
                            if (nroots > 1)
                                cd.root = opt.quick ? cx->qroots[ri] : ri;
                            else if (opt.quick)
                                cd.root = cx->qroots[rot % (unsigned long)cx->nqroots];
                            else
                                cd.root = (int)(rot % (unsigned long)p);
                        } else {
                            cd.root = 0;
                        }
                        cd.nullrecv = (int)((rot / 2) % 2);
                        cd.rspat = (int)(rot % 3);
                        cd.salt = ((uint64_t)coll << 56) ^ ((uint64_t)(ai + 1) << 48) ^
                                  (uint64_t)blk_n;
                        if (ci == ncl)      /* large: same data every time, see xcache */
                            cd.salt = LARGE_SALT;
                        /* stock Open MPI 4.1.4 (coll/tuned ring allreduce) frees an
                         * invalid pointer for a datatype with a negative true lower
                         * bound, and so does coll/libnbc's MPI_Ireduce (every size,
                         * np 4); only --no-rsag runs against them on purpose */
                        if (opt.norsag && t->tlb < 0 &&
                            ((coll == COLL_ALLREDUCE && (long)count * (long)t->ext >= 4096)
                             || (opt.form != RT_FORM_BLOCKING && coll == COLL_REDUCE))) {
                            skipped_stock++;
                            rot++;
                            continue;
                        }
                        /* --every K: one case in K (the same ones on every rank) */
                        if (opt.every > 1 && (nseen++ % (unsigned long)opt.every) !=
                                             (unsigned long)opt.offset) {
                            rot++;
                            continue;
                        }
                        run_case(&cd);
                        rot++;
                    }
                }
            }
        }
    }
}

/* gather the per-case results of a block to comm rank 0 and tally there */
static void finish_block(commctx *cx, int coll, int ai)
{
    int n = (int)blk_n;
    int *all = NULL;
    if (n == 0)
        return;
    if (cx->me == 0) {
        all = malloc(sizeof(int) * (size_t)n * (size_t)cx->p);
        if (all == NULL) {
            fprintf(stderr, "rsag_check: out of memory\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    MPI_Gather(blk_res, n, MPI_INT, all, n, MPI_INT, 0, cx->comm);
    if (cx->me == 0) {
        int fslot = ai >= 0 ? ai : MAXALG;
        for (int i = 0; i < n; i++) {
            int failed = 0, disagree = 0;
            int m0 = (all[i] & (RES_FAIL - 1)) - 1;
            for (int r = 0; r < cx->p; r++) {
                int x = all[(size_t)r * (size_t)n + (size_t)i];
                if (x & RES_FAIL)
                    failed = 1;
                if ((x & (RES_FAIL - 1)) - 1 != m0 && !opt.norsag && rsag_loaded &&
                    !disagree) {
                    disagree = 1;
                    if (printed < opt.max_print) {
                        int m1 = (x & (RES_FAIL - 1)) - 1;
                        printed++;
                        printf("rsag_check: FAIL comm=%s coll=%s alg=%s case #%d: ranks "
                               "disagree on the algorithm: rank 0 %s, rank %d %s\n",
                               cx->name, coll_names[coll],
                               ai >= 0 ? colls[coll].alg[ai].name : "default", i,
                               m0 >= 0 ? ctrs[m0].name : "(none)", r,
                               m1 >= 0 ? ctrs[m1].name : "(none)");
                    }
                }
            }
            failed |= disagree;
            tally.cases++;
            tally.per_forced[coll][fslot]++;
            if (failed) {
                tally.failed++;
                tally.per_forced_failed[coll][fslot]++;
            } else {
                tally.passed++;
            }
            if (m0 >= 0) {
                tally.per_ctr[m0]++;
                if (m0 == colls[coll].deleg_ctr)
                    tally.delegated++;
            }
        }
        free(all);
    }
}

static int comm_setup(commctx *cx, MPI_Comm comm, const char *name)
{
    cx->comm = comm;
    cx->name = name;
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_size(comm, &cx->p);
    MPI_Comm_rank(comm, &cx->me);
    cx->single_node = rt_single_node(comm);
    cx->multi_node = rt_multi_node(comm);
    int p = cx->p, pp = 1;
    while (pp * 2 <= p)
        pp *= 2;
    cx->pp = pp;
    int base[] = { 0, 1, 2, p - 1, p, p + 1, pp - 1, pp, pp + 1, 2 * pp + 1,
                   7, 13, 31, 257, 1021, 4099 };
    int n = 0;
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
        n = add_count(cx->counts, n, base[i]);
    qsort(cx->counts, (size_t)n, sizeof(int), cmp_int);
    cx->ncounts = n;
    int q = 0;
    q = add_count(cx->qroots, q, 0);
    q = add_count(cx->qroots, q, 1 % p);
    q = add_count(cx->qroots, q, p - 1);
    q = add_count(cx->qroots, q, p / 2);
    cx->nqroots = q;
    return 0;
}

/* Does rsag serve collective ci on this (size 1) communicator?  Probe once
 * with one int and look at its counters. */
static int rsag_owns(commctx *cx, int ci)
{
    int in = 1, out = 0, one = 1;
    rt_call_t call = { ci, &in, &out, 1, &one, MPI_INT, MPI_SUM, 0, cx->comm };
    if (read_counters(ctr_before) != 0)
        return 1;
    rt_run(opt.form, &call);
    if (read_counters(ctr_after) != 0)
        return 1;
    for (int k = 0; k < nctr; k++)
        if (ctrs[k].found && ctrs[k].coll == ci && ctr_after[k] != ctr_before[k])
            return 1;
    return 0;
}

/* ------------------------------------------------------------------------ */

static void usage(void)
{
    r0printf("usage: rsag_check [--quick] [--seed N] [--group main|smallint|ulong|all]\n"
             "                  [--algorithms all|current] [--coll allreduce,reduce,"
             "reduce_scatter_block,reduce_scatter]\n"
             "                  [--form blocking|nonblocking|persistent[,...]]\n"
             "                  [--every K [--offset J]] [--timeout SEC] [--verbose]\n");
}

static int parse_args(int argc, char **argv)
{
    opt.seed = 1;
    opt.max_print = MAXPRINT;
    opt.forms = 1 << RT_FORM_BLOCKING;
    opt.group_main = 1;
    snprintf(opt.cvar_prefix, sizeof opt.cvar_prefix, "coll_rsag");
    for (int i = 0; i < NCOLL; i++)
        opt.coll_sel[i] = 1;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i], *val = NULL;
        char key[64];
        char *eq = strchr(a, '=');
        if (eq != NULL && (size_t)(eq - a) < sizeof key) {
            memcpy(key, a, (size_t)(eq - a));
            key[eq - a] = 0;
            val = eq + 1;
        } else {
            snprintf(key, sizeof key, "%s", a);
        }
        int needs = !strcmp(key, "--seed") || !strcmp(key, "--group") ||
                    !strcmp(key, "--algorithms") || !strcmp(key, "--coll") ||
                    !strcmp(key, "--timeout") || !strcmp(key, "--cvar-prefix") ||
                    !strcmp(key, "--max-print") || !strcmp(key, "--form") ||
                    !strcmp(key, "--every") || !strcmp(key, "--offset");
        if (needs && val == NULL) {
            if (i + 1 >= argc) {
                r0printf("rsag_check: %s needs a value\n", key);
                return -1;
            }
            val = argv[++i];
        }
        if (!strcmp(key, "--quick")) {
            opt.quick = 1;
        } else if (!strcmp(key, "--verbose")) {
            opt.verbose = 1;
        } else if (!strcmp(key, "--no-rsag")) {
            opt.norsag = 1;
        } else if (!strcmp(key, "--seed")) {
            char *end;
            opt.seed = strtoull(val, &end, 0);
            if (*end) {
                r0printf("rsag_check: bad --seed '%s'\n", val);
                return -1;
            }
        } else if (!strcmp(key, "--timeout")) {
            opt.timeout = atoi(val);
        } else if (!strcmp(key, "--form")) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s", val);
            opt.forms = 0;
            for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
                int f = rt_form_index(tok);
                if (f < 0) {
                    r0printf("rsag_check: bad --form '%s'\n", tok);
                    return -1;
                }
                if (f == RT_FORM_PERSISTENT && !RT_HAVE_PERSISTENT) {
                    r0printf("rsag_check: --form persistent: this MPI has no persistent "
                             "collectives (MPI_Allreduce_init, MPIX_Allreduce_init)\n");
                    return -1;
                }
                opt.forms |= 1 << f;
            }
            if (opt.forms == 0) {
                r0printf("rsag_check: --form needs a form\n");
                return -1;
            }
        } else if (!strcmp(key, "--every")) {
            opt.every = atoi(val);
            if (opt.every < 1) {
                r0printf("rsag_check: bad --every '%s'\n", val);
                return -1;
            }
        } else if (!strcmp(key, "--offset")) {
            char *end;
            long j = strtol(val, &end, 10);
            if (*end || end == val || j < 0) {
                r0printf("rsag_check: bad --offset '%s'\n", val);
                return -1;
            }
            opt.offset = (int)(j % 1000000);
        } else if (!strcmp(key, "--max-print")) {
            opt.max_print = atoi(val);
        } else if (!strcmp(key, "--cvar-prefix")) {
            snprintf(opt.cvar_prefix, sizeof opt.cvar_prefix, "%s", val);
        } else if (!strcmp(key, "--group")) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s", val);
            opt.group_main = opt.group_small = opt.group_ulong = 0;
            for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
                if (!strcmp(tok, "main")) opt.group_main = 1;
                else if (!strcmp(tok, "smallint")) opt.group_small = 1;
                else if (!strcmp(tok, "ulong")) opt.group_ulong = 1;
                else if (!strcmp(tok, "all"))
                    opt.group_main = opt.group_small = opt.group_ulong = 1;
                else { r0printf("rsag_check: bad --group '%s'\n", tok); return -1; }
            }
        } else if (!strcmp(key, "--algorithms")) {
            if (!strcmp(val, "all")) opt.alg_current = 0;
            else if (!strcmp(val, "current")) opt.alg_current = 1;
            else { r0printf("rsag_check: bad --algorithms '%s'\n", val); return -1; }
        } else if (!strcmp(key, "--coll")) {
            for (int c = 0; c < NCOLL; c++)
                opt.coll_sel[c] = 0;
            char buf[256];
            snprintf(buf, sizeof buf, "%s", val);
            for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
                int found = 0;
                for (int c = 0; c < NCOLL; c++)
                    if (!strcmp(tok, coll_names[c])) {
                        opt.coll_sel[c] = 1;
                        found = 1;
                    }
                if (!found) {
                    r0printf("rsag_check: unknown collective '%s'\n", tok);
                    return -1;
                }
            }
        } else if (!strcmp(key, "--help") || !strcmp(key, "-h")) {
            usage();
            return 1;
        } else {
            r0printf("rsag_check: unknown option '%s'\n", a);
            usage();
            return -1;
        }
    }
    return 0;
}

static const char *alg_label(int coll, int ai)
{
    return ai >= 0 ? colls[coll].alg[ai].name : "default";
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);

    int pa = parse_args(argc, argv);
    if (pa != 0) {
        MPI_Finalize();
        return pa > 0 ? 0 : 2;
    }
    catch_crashes();
    if (opt.timeout > 0) {
        signal(SIGALRM, on_alarm);
        alarm((unsigned)opt.timeout);
    }
    double t0 = MPI_Wtime();

    init_elems();
    init_types();
    init_ops();

    /* sanity: the C structs of the pair types match MPI's extents */
    for (int e = E_FLOAT_INT; e <= E_LDOUBLE_INT; e++) {
        MPI_Aint lb, ext;
        MPI_Type_get_extent(elems[e].dt, &lb, &ext);
        if ((size_t)ext != elems[e].esz)
            r0printf("rsag_check: warning: %s extent %ld != sizeof struct %zu\n",
                     elems[e].name, (long)ext, elems[e].esz);
    }

    mpit_ok = rt_mpit_open(opt.cvar_prefix, report_mpit) == 0;

    for (int ci = 0; ci < NCOLL; ci++) {
        colls[ci].selected = opt.coll_sel[ci];
        setup_collinfo(ci);
    }
    for (int k = 0; k < nctr; k++)
        if (ctrs[k].found)
            rsag_loaded = 1;

    char groups[64];
    snprintf(groups, sizeof groups, "%s%s%s", opt.group_main ? ",main" : "",
             opt.group_small ? ",smallint" : "", opt.group_ulong ? ",ulong" : "");
    char forms[64] = "";
    for (int f = 0; f < RT_NFORM; f++)
        if (opt.forms & (1 << f)) {
            size_t l = strlen(forms);
            snprintf(forms + l, sizeof forms - l, "%s%s", l ? "," : "", rt_form_names[f]);
        }
    char every[32] = "";
    if (opt.every > 1)
        snprintf(every, sizeof every, " every=%d", opt.every);
    r0printf("rsag_check: seed=%llu np=%d mode=%s%s form=%s group=%s algorithms=%s%s\n",
             opt.seed, world_size, opt.quick ? "quick" : "full", every, forms, groups + 1,
             opt.alg_current ? "current" : "all",
             opt.norsag ? " (--no-rsag: counters NOT checked)" : "");
    if (opt.every > 1) {
        opt.offset %= opt.every;
        r0printf("rsag_check: every=%d offset=%d: the cases %d, %d, %d, ... of each block\n",
                 opt.every, opt.offset, opt.offset, opt.offset + opt.every,
                 opt.offset + 2 * opt.every);
    }
    if (!opt.norsag && !rsag_loaded) {
        r0printf("rsag_check: ERROR: coll/rsag is not loaded: none of the MPI_T performance "
                 "variables coll_rsag_<coll>_<alg>_calls / coll_rsag_<coll>_delegated_calls "
                 "exists%s. Check 'ompi_info | grep rsag' and the --mca coll selection. "
                 "Every case counts as failed (none is run).\n",
                 mpit_ok ? "" : " (MPI_T could not be initialized)");
    }

    /* which collectives and algorithms run */
    unsigned long long missing_cvars = 0;
    for (int ci = 0; ci < NCOLL; ci++) {
        collinfo *c = &colls[ci];
        c->run = 0;
        c->nrun = 0;
        if (!c->selected)
            continue;
        if (!c->have_cvar) {
            if (rsag_loaded && !opt.norsag) {
                /* rsag without the variable that selects its algorithms:
                 * nothing of this collective can be forced or checked, which
                 * is a failure of rsag (or of its names), not a skip */
                r0printf("rsag_check: FAIL: %s: control variable %s_%s_algorithm does not "
                         "exist; none of its algorithms can be tested (counted as failed)\n",
                         coll_names[ci], opt.cvar_prefix, coll_names[ci]);
                if (world_rank == 0)
                    missing_cvars++;
                continue;
            }
            c->run = 1;
            c->nrun = 1;
            c->run_alg[0] = -1;
            continue;
        }
        c->run = 1;
        if (opt.alg_current) {
            int cur = c->orig_val, a;
            for (a = 0; a < c->nalg; a++)
                if (c->alg[a].value == cur)
                    break;
            if (a == c->nalg) {
                r0printf("rsag_check: ERROR: %s_%s_algorithm has value %d which is not in "
                         "its enum\n", opt.cvar_prefix, coll_names[ci], cur);
                a = -1;
            }
            c->run_alg[c->nrun++] = a;
        } else {
            for (int a = 0; a < c->nalg; a++)
                c->run_alg[c->nrun++] = a;
        }
        if (opt.verbose && world_rank == 0) {
            int chk = rsag_loaded && !opt.norsag;
            printf("rsag_check: %s algorithms:", coll_names[ci]);
            for (int a = 0; a < c->nalg; a++)
                printf(" %s=%d%s", c->alg[a].name, c->alg[a].value,
                       chk && c->alg[a].ctr >= 0 && !ctrs[c->alg[a].ctr].found ?
                       "(no pvar!)" : "");
            printf("%s\n", !chk || ctrs[c->deleg_ctr].found ? "" : " (no delegated pvar!)");
        }
        if (c->ctr_missing && rsag_loaded && !opt.norsag)
            r0printf("rsag_check: ERROR: some coll_rsag_%s_*_calls pvars do not exist; its "
                     "cases will fail\n", coll_names[ci]);
    }

    /* communicators */
    MPI_Comm dup, split, rsplit;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &split);
    MPI_Comm_split(MPI_COMM_WORLD, 0, world_size - world_rank, &rsplit);
    commctx cxs[4];
    comm_setup(&cxs[0], MPI_COMM_WORLD, "world");
    comm_setup(&cxs[1], dup, "dup(world)");
    comm_setup(&cxs[2], split, world_rank % 2 ? "split(rank%2=1)" : "split(rank%2=0)");
    comm_setup(&cxs[3], rsplit, "split(reversed)");

    unsigned long long setup_failures = missing_cvars;
    for (int f = 0; f < RT_NFORM; f++) {
        if (!(opt.forms & (1 << f)))
            continue;
        opt.form = f;
        rt_set_form(f);
        for (int x = 0; x < 4; x++) {
            commctx *cx = &cxs[x];
            char skipped[256] = "";
            for (int ci = 0; ci < NCOLL; ci++) {
                collinfo *c = &colls[ci];
                if (!c->run)
                    continue;
                if (cx->p == 1 && !opt.norsag && rsag_loaded && !rsag_owns(cx, ci)) {
                    /* coll/self (priority 75) owns size-1 communicators unless it is
                     * left out (--mca coll ^self): nothing of rsag to test there */
                    size_t l = strlen(skipped);
                    snprintf(skipped + l, sizeof skipped - l, " %s", coll_names[ci]);
                    skipped_self = 1;
                    continue;
                }
                for (int ri = 0; ri < c->nrun; ri++) {
                    int ai = c->run_alg[ri];
                    if (ai >= 0 && !opt.alg_current) {
                        int rc = write_cvar(ci, c->alg[ai].value);
                        if (rc != MPI_SUCCESS) {
                            if (cx->me == 0 && world_rank == 0)
                                printf("rsag_check: FAIL: MPI_T_cvar_write(%s_%s_algorithm=%s) "
                                       "failed: %s (needs MCA_BASE_VAR_FLAG_SETTABLE and a "
                                       "writable scope); skipping its cases\n",
                                       opt.cvar_prefix, coll_names[ci], c->alg[ai].name,
                                       rt_mpit_err(rc));
                            if (cx->me == 0)
                                setup_failures++;
                            continue;
                        }
                    }
                    double tb = MPI_Wtime();
                    blk_n = 0;
                    run_block(cx, ci, ai);
                    finish_block(cx, ci, ai);
                    if (opt.verbose && cx->me == 0)
                        printf("rsag_check: [world rank %d] %s %s %s alg=%s: %zu cases, "
                               "%.2f s\n", world_rank, rt_form_names[f], cx->name,
                               coll_names[ci], alg_label(ci, ai), blk_n, MPI_Wtime() - tb);
                    fflush(stdout);
                }
            }
            if (skipped[0] && (opt.verbose || world_rank == 0))
                printf("rsag_check: [world rank %d] %s (size 1): rsag is not the module for%s "
                       "(coll/self owns size-1 communicators; --mca coll ^self to include "
                       "them): skipped\n", world_rank, cx->name, skipped);
        }
    }

    /* restore the control variables */
    if (!opt.alg_current)
        for (int ci = 0; ci < NCOLL; ci++)
            if (colls[ci].have_cvar && colls[ci].run)
                write_cvar(ci, colls[ci].orig_val);

    /* world totals (MPI_Gather: not one of the collectives under test) */
    enum { NBASE = 6 };
    size_t nv = NBASE + MAXCTR + 2 * NCOLL * (MAXALG + 1);
    unsigned long long *mine = calloc(nv, sizeof *mine), *all = NULL;
    mine[0] = tally.cases + setup_failures;
    mine[1] = tally.passed;
    mine[2] = tally.failed + setup_failures;
    mine[3] = tally.delegated;
    mine[4] = setup_failures;
    mine[5] = skipped_stock;
    memcpy(mine + NBASE, tally.per_ctr, sizeof tally.per_ctr);
    memcpy(mine + NBASE + MAXCTR, tally.per_forced, sizeof tally.per_forced);
    memcpy(mine + NBASE + MAXCTR + NCOLL * (MAXALG + 1), tally.per_forced_failed,
           sizeof tally.per_forced_failed);
    if (world_rank == 0)
        all = calloc(nv * (size_t)world_size, sizeof *all);
    MPI_Gather(mine, (int)nv, MPI_UNSIGNED_LONG_LONG, all, (int)nv, MPI_UNSIGNED_LONG_LONG,
               0, MPI_COMM_WORLD);
    unsigned long long failed_total = 0;
    if (world_rank == 0) {
        for (int r = 1; r < world_size; r++)
            for (size_t i = 0; i < nv; i++)
                all[i] += all[(size_t)r * nv + i];
        unsigned long long *pf = all + NBASE + MAXCTR;
        unsigned long long *pff = pf + NCOLL * (MAXALG + 1);
        for (int ci = 0; ci < NCOLL; ci++) {
            if (!colls[ci].run)
                continue;
            for (int ri = 0; ri < colls[ci].nrun; ri++) {
                int ai = colls[ci].run_alg[ri];
                int slot = ai >= 0 ? ai : MAXALG;
                printf("rsag_check: forced %s=%s: %llu cases, %llu failed\n",
                       coll_names[ci], alg_label(ci, ai),
                       pf[ci * (MAXALG + 1) + slot], pff[ci * (MAXALG + 1) + slot]);
            }
        }
        if (!opt.norsag && rsag_loaded) {
            for (int k = 0; k < nctr; k++)
                if (ctrs[k].found && colls[ctrs[k].coll].run)
                    printf("rsag_check: ran under %s: %llu cases\n", ctrs[k].name,
                           all[NBASE + k]);
        } else {
            printf("rsag_check: algorithm counters not checked%s\n",
                   opt.norsag ? " (--no-rsag)" : " (rsag not loaded)");
        }
        if (all[5])
            printf("rsag_check: --no-rsag: skipped %llu calls (counted per rank) with a "
                   "negative true lower bound: allreduce >= 4 KB, on which stock Open MPI "
                   "4.1.4 (tuned ring allreduce) crashes, and in the nonblocking and "
                   "persistent forms reduce (libnbc's crashes)\n", all[5]);
        if (all[4])
            printf("rsag_check: %llu algorithm settings could not be forced or control "
                   "variables were missing (counted as failed)\n", all[4]);
        failed_total = all[2];
        if (all[0] == 0) {
            printf("rsag_check: ERROR: no case ran%s\n",
                   skipped_self ? " (size-1 communicators belong to coll/self: run with "
                   "--mca coll ^self, or --mca coll rsag,basic,libnbc)" : "");
            failed_total = 1;   /* nothing ran at all: still a failure */
        }
        printf("rsag_check: time %.1f s\n", MPI_Wtime() - t0);
        printf("rsag_check: np=%d cases=%llu passed=%llu failed=%llu delegated=%llu\n",
               world_size, all[0], all[1], failed_total, all[3]);
        fflush(stdout);
    }
    MPI_Bcast(&failed_total, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);

    free(mine);
    free(all);
    free(blk_res);
    free(xcache[0].v);
    free(xcache[1].v);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&split);
    MPI_Comm_free(&rsplit);
    rt_mpit_finalize();
    MPI_Op_free(&ops[OP_USUM].op);
    MPI_Op_free(&ops[OP_UAFF].op);
    for (int i = 0; i < ntypes; i++)
        if (types[i].derived && types[i].el != &elems[E_AFF])
            MPI_Type_free(&types[i].dt);
    for (int i = 0; i < ntypes; i++)
        if (types[i].derived && types[i].el == &elems[E_AFF] && !types[i].plain)
            MPI_Type_free(&types[i].dt);
    MPI_Type_free(&elems[E_AFF].dt);
    MPI_Finalize();
    return failed_total == 0 ? 0 : 1;
}
