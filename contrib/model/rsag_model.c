/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_model: rsag's cost model (contrib/model/coll_rsag_model.[ch])
 * from the command line; no MPI.
 *
 *   rsag_model [OPTIONS] time COLL P PPN BYTES
 *       predicted time (us) of every algorithm of COLL
 *   rsag_model [OPTIONS] table --p LIST --ppn LIST [--colls LIST] [--sizes LIST]
 *       one line per (coll, p, ppn, bytes): every algorithm's time and the
 *       model's choice (tab-separated, a header line first)
 *   rsag_model [OPTIONS] conf P PPN
 *       an MCA parameter file: coll_rsag_<coll>_<alg>_min_bytes for a
 *       communicator of P ranks, PPN per node (thresholds of
 *       mca_coll_rsag_model_thresholds), with the predicted times as comments
 *   rsag_model [OPTIONS] thresholds COLL PPN P...
 *       the thresholds one class of communicator sizes gets (PPN 0: one node)
 *   rsag_model [OPTIONS] profile
 *       the profile in use (after -P and the overrides)
 * OPTIONS:
 *   -P FILE            profile (contrib/rsag-calibrate.sh writes one); repeatable,
 *                      later files override earlier ones
 *   --net-rate R       network link bandwidth: 1gbit, 100gbit, 25e9bit, 125MB
 *                      (sets net_beta, net_beta_cache and net_beta_eager, and
 *                      drops the emulated link's net_burst, net_rndv_pipe and
 *                      net_exchange: a real link)
 *   --set KEY=VALUE    override one profile key
 *   --op OP --type T   the reduction's gamma from the profile (default SUM DOUBLE)
 *   --margin F         thresholds: relative margin (default 0.03)
 *   --no-direct        thresholds / conf: leave direct off
 *   --segment B --chunks U --root R   the algorithms' knobs
 *   --exchange-chunk B an exchange with a rank on another node in messages of at
 *                      most B (coll_rsag_exchange_chunk_size; 0: whole; default
 *                      60K, the component's)
 *   --hier-chunk B     hierarchical's pipeline chunk (coll_rsag_hierarchical_chunk_size;
 *                      0: not pipelined; default 256K, the component's)
 *
 * Own code of the mca_coll_rsag project.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_rsag_model.h"

static mca_coll_rsag_model_profile_t prof;
static double gam = -1, gam_c = -1;
static double margin = 0.03;
static int no_direct;
static mca_coll_rsag_model_knobs_t knobs;
static int knobs_set;

static void die(const char *m, const char *a)
{
    fprintf(stderr, "rsag_model: %s%s%s\n", m, a ? " " : "", a ? a : "");
    exit(2);
}

static int coll_of(const char *s)
{
    for (int c = 0; c < MCA_COLL_RSAG_NUM_COLLS; c++)
        if (!strcmp(mca_coll_rsag_colls[c].name, s)) return c;
    die("unknown collective", s);
    return -1;
}

/* 8, 4K, 1M, 1G, 1e6 */
static double size_of(const char *s)
{
    char *e;
    double v = strtod(s, &e);
    if (e == s || v < 0) die("not a size:", s);
    switch (*e) {
    case 'k': case 'K': v *= 1024; e++; break;
    case 'm': case 'M': v *= 1024 * 1024; e++; break;
    case 'g': case 'G': v *= 1024.0 * 1024 * 1024; e++; break;
    }
    if (*e) die("not a size:", s);
    return v;
}

/* link rate: NUMBER[k|m|g]bit (bits/s) or NUMBER[K|M|G]B (bytes/s) */
static double rate_of(const char *s)
{
    char *e;
    double v = strtod(s, &e), mult = 1;
    if (e == s || v <= 0) die("not a rate:", s);
    if (*e == 'k' || *e == 'K') { mult = 1e3; e++; }
    else if (*e == 'm' || *e == 'M') { mult = 1e6; e++; }
    else if (*e == 'g' || *e == 'G') { mult = 1e9; e++; }
    if (!strcmp(e, "bit") || !strcmp(e, "bps")) return v * mult / 8;
    if (!strcmp(e, "B")) return v * mult;
    die("not a rate (e.g. 1gbit, 125MB):", s);
    return 0;
}

static void call_init(mca_coll_rsag_model_call_t *c, int p, int ppn, size_t bytes)
{
    mca_coll_rsag_model_call_init(c, p, ppn, bytes);
    c->gamma = gam;
    c->gamma_cache = gam_c;
    if (knobs_set) c->knobs = knobs;
}

static int skip_direct(const char *a) { return no_direct && !strcmp(a, "direct"); }

static int parse_list(const char *s, double *out, int max, int sizes)
{
    int n = 0;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *t = strtok(buf, ","); t && n < max; t = strtok(NULL, ","))
        out[n++] = sizes ? size_of(t) : atof(t);
    return n;
}

static void cmd_time(int coll, int p, int ppn, size_t bytes)
{
    const mca_coll_rsag_coll_desc_t *cd = &mca_coll_rsag_colls[coll];
    mca_coll_rsag_model_call_t c;
    call_init(&c, p, ppn, bytes);
    for (int i = 0; i < cd->nalgs; i++) {
        const char *a = cd->algs[i].name;
        double t = mca_coll_rsag_model_time(coll, a, &c, &prof);
        if (t == MCA_COLL_RSAG_MODEL_NA) printf("%-20s -\n", a);
        else printf("%-20s %.6g\n", a, t * 1e6);
    }
}

/* direct's boxed calls: the fastest fan-in (1 flat, k the tree) and its
 * time, and the flat time, for each p and size. */
static void cmd_fanin(int coll, const char *plist, const char *slist)
{
    double ps[64], ss[64];
    int np = parse_list(plist, ps, 64, 0), ns = parse_list(slist, ss, 64, 1);

    printf("# %s, one node: p bytes best_fanin best_us flat_us\n", mca_coll_rsag_colls[coll].name);
    for (int i = 0; i < np; i++) {
        for (int j = 0; j < ns; j++) {
            mca_coll_rsag_model_call_t c;
            double tb, tf;
            call_init(&c, (int) ps[i], (int) ps[i], (size_t) ss[j]);
            int k = mca_coll_rsag_model_direct_fanin(coll, &c, &prof, &tb);
            c.knobs.direct_fanin = 1;
            tf = mca_coll_rsag_model_time(coll, "direct", &c, &prof);
            printf("%d %zu %d %.4g %.4g\n", (int) ps[i], (size_t) ss[j], k, tb * 1e6, tf * 1e6);
        }
    }
}

static void cmd_table(const char *name, const char *plist, const char *qlist, const char *slist,
                      int header)
{
    double ps[64], qs[64], ss[64];
    int np = parse_list(plist, ps, 64, 0), nq = parse_list(qlist, qs, 64, 0);
    int ns = parse_list(slist, ss, 64, 1);
    int coll = coll_of(name);
    const mca_coll_rsag_coll_desc_t *cd = &mca_coll_rsag_colls[coll];
    if (header) printf("coll\tp\tppn\tbytes\talgorithm\ttime_us\tchoice\n");
    for (int i = 0; i < np; i++)
        for (int j = 0; j < nq; j++) {
            int p = (int) ps[i], q = (int) qs[j];
            if (q > p) continue;
            for (int k = 0; k < ns; k++) {
                mca_coll_rsag_model_call_t c;
                call_init(&c, p, q, (size_t) ss[k]);
                double t[MCA_COLL_RSAG_MAX_ALGS], best = MCA_COLL_RSAG_MODEL_NA;
                int bi = -1;
                for (int a = 0; a < cd->nalgs; a++) {
                    const char *an = cd->algs[a].name;
                    t[a] = mca_coll_rsag_model_time(coll, an, &c, &prof);
                    if (t[a] < best) { best = t[a]; bi = a; }
                }
                for (int a = 0; a < cd->nalgs; a++) {
                    const char *an = cd->algs[a].name;
                    if (t[a] == MCA_COLL_RSAG_MODEL_NA) continue;
                    printf("%s\t%d\t%d\t%.0f\t%s\t%.6g\t%s\n", name, p, q, ss[k], an,
                           t[a] * 1e6, a == bi ? "best" : "");
                }
            }
        }
}

static void print_thresholds(int coll, const int *ps, int nps, int ppn, int conf)
{
    const mca_coll_rsag_coll_desc_t *cd = &mca_coll_rsag_colls[coll];
    size_t mb[MCA_COLL_RSAG_MAX_ALGS + 1];
    double worst = mca_coll_rsag_model_thresholds(coll, ps, nps, ppn, &prof, margin,
                                                  skip_direct, mb);
    printf("# %s: worst predicted slowdown against the best algorithm, 8 B .. 1 GB: %.3f\n",
           cd->name, worst);
    for (int a = 1; a <= cd->nalgs; a++) {
        const char *an = cd->algs[a - 1].name;
        if (conf)
            printf("coll_rsag_%s_%s_min_bytes = %zu\n", cd->name, an, mb[a]);
        else if (mb[a] == (size_t) MCA_COLL_RSAG_OFF)
            printf("%s %s OFF\n", cd->name, an);
        else
            printf("%s %s %zu\n", cd->name, an, mb[a]);
    }
}

static void cmd_conf(int p, int ppn)
{
    printf("# mca_coll_rsag thresholds from the cost model (contrib/rsag_model, rsag-tune.sh --model)\n");
    printf("# profile %s; p %d, %d ranks per node; op/type gamma %.3g s/B; margin %.0f %%\n",
           prof.name, p, ppn, gam >= 0 ? gam : prof.gamma, margin * 100);
    printf("# net link %.4g MB/s, alpha %.3g us; shm alpha %.3g us\n", 1e-6 / prof.net.beta,
           prof.net.alpha * 1e6, prof.shm.alpha * 1e6);
    printf("# hierarchical pipelined in chunks of %zu bytes (coll_rsag_hierarchical_chunk_size)\n",
           knobs.hier_chunk);
    printf("# Scalar values: they apply to every communicator size of the job.\n");
    for (int coll = 0; coll < MCA_COLL_RSAG_NUM_COLLS; coll++) {
        printf("#\n");
        print_thresholds(coll, &p, 1, ppn, 1);
        static const size_t show[] = { 8, 1024, 65536, 1u << 20, 16u << 20, 256u << 20 };
        for (size_t s = 0; s < sizeof show / sizeof show[0]; s++) {
            mca_coll_rsag_model_call_t c;
            call_init(&c, p, ppn, show[s]);
            const mca_coll_rsag_coll_desc_t *cd = &mca_coll_rsag_colls[coll];
            printf("#   %10zu B:", show[s]);
            for (int a = 0; a < cd->nalgs; a++) {
                double t = mca_coll_rsag_model_time(coll, cd->algs[a].name, &c, &prof);
                if (t == MCA_COLL_RSAG_MODEL_NA) printf(" %s -", cd->algs[a].name);
                else printf(" %s %.4g us", cd->algs[a].name, t * 1e6);
            }
            printf("\n");
        }
    }
}

static void usage(void)
{
    fprintf(stderr,
            "usage: rsag_model [-P PROFILE]... [--net-rate R] [--set K=V] [--op OP --type T]\n"
            "                  [--margin F] [--no-direct] [--segment B] [--chunks U] [--root R]\n"
            "                  [--hier-chunk B] [--exchange-chunk B]\n"
            "         time COLL P PPN BYTES | table --p LIST --ppn LIST [--colls L] [--sizes L]\n"
            "         | conf P PPN | thresholds COLL PPN P... | profile\n"
            "         | fanin COLL P-LIST SIZE-LIST   (direct's boxed calls: flat or tree, k)\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *op = "SUM", *type = "DOUBLE";
    double net_rate = 0;
    int i = 1;
    mca_coll_rsag_model_profile_default(&prof);
    mca_coll_rsag_model_call_t c0;
    mca_coll_rsag_model_call_init(&c0, 2, 1, 8);
    knobs = c0.knobs;
    char *sets[32];
    int nsets = 0;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-P") && v) {
            FILE *f = fopen(v, "r");
            if (!f) die("cannot open profile", v);
            int bad = mca_coll_rsag_model_profile_read(f, &prof);
            fclose(f);
            if (bad) { fprintf(stderr, "rsag_model: %s line %d: not KEY = VALUE\n", v, bad); exit(2); }
            i++;
        } else if (!strcmp(a, "--net-rate") && v) { net_rate = rate_of(v); i++; }
        else if (!strcmp(a, "--set") && v && nsets < 32) { sets[nsets++] = argv[++i]; }
        else if (!strcmp(a, "--op") && v) { op = v; i++; }
        else if (!strcmp(a, "--type") && v) { type = v; i++; }
        else if (!strcmp(a, "--margin") && v) { margin = atof(v); i++; }
        else if (!strcmp(a, "--no-direct")) no_direct = 1;
        else if (!strcmp(a, "--segment") && v) { knobs.ring_segment = (size_t) size_of(v); knobs_set = 1; i++; }
        else if (!strcmp(a, "--chunks") && v) { knobs.priority_chunks = atoi(v); knobs_set = 1; i++; }
        else if (!strcmp(a, "--root") && v) { knobs.root = atoi(v); knobs_set = 1; i++; }
        else if (!strcmp(a, "--hier-chunk") && v) { knobs.hier_chunk = (size_t) size_of(v); knobs_set = 1; i++; }
        else if (!strcmp(a, "--exchange-chunk") && v) { knobs.exchange_chunk = (size_t) size_of(v); knobs_set = 1; i++; }
        else usage();
    }
    if (nsets) {
        char buf[4096] = "";
        for (int k = 0; k < nsets; k++) {
            char *eq = strchr(sets[k], '=');
            if (!eq) die("--set needs KEY=VALUE:", sets[k]);
            size_t len = strlen(buf);
            snprintf(buf + len, sizeof buf - len, "%.*s = %s\n", (int) (eq - sets[k]), sets[k], eq + 1);
        }
        FILE *f = fmemopen(buf, strlen(buf), "r");
        if (!f || mca_coll_rsag_model_profile_read(f, &prof)) die("bad --set", NULL);
        fclose(f);
    }
    if (net_rate > 0) {
        /* a real link of that rate: none of the emulated link's shaper
         * effects (the burst, the pipelined rendezvous stuck behind the
         * other direction's data, the exchange factor of shared cores) */
        prof.net.beta = prof.net.beta_cache = prof.net.beta_eager = 1.0 / net_rate;
        prof.net.burst = 0;
        prof.net.rndv_pipe = -1.0;
        prof.net_exchange = 1.0;
    }
    if (strcmp(op, "SUM") || strcmp(type, "DOUBLE")) {
        if (!mca_coll_rsag_model_gamma(&prof, op, type, &gam, &gam_c))
            fprintf(stderr, "rsag_model: the profile has no gamma for %s %s: using its default\n",
                    op, type);
    }
    if (i >= argc) usage();
    const char *cmd = argv[i++];
    if (!strcmp(cmd, "time") && argc - i == 4) {
        cmd_time(coll_of(argv[i]), atoi(argv[i + 1]), atoi(argv[i + 2]), (size_t) size_of(argv[i + 3]));
    } else if (!strcmp(cmd, "table")) {
        const char *pl = NULL, *ql = NULL, *cl = "allreduce,reduce,reduce_scatter_block",
                   *sl = "8,1K,64K,1M,16M,256M,1G";
        for (; i + 1 < argc; i += 2) {
            if (!strcmp(argv[i], "--p")) pl = argv[i + 1];
            else if (!strcmp(argv[i], "--ppn")) ql = argv[i + 1];
            else if (!strcmp(argv[i], "--colls")) cl = argv[i + 1];
            else if (!strcmp(argv[i], "--sizes")) sl = argv[i + 1];
            else usage();
        }
        if (i != argc || !pl || !ql) usage();
        /* one collective at a time: strtok is not reentrant */
        char cbuf[256];
        snprintf(cbuf, sizeof cbuf, "%s", cl);
        char *save, *names[8];
        int nn = 0;
        for (char *t = strtok_r(cbuf, ",", &save); t && nn < 8; t = strtok_r(NULL, ",", &save))
            names[nn++] = t;
        for (int k = 0; k < nn; k++)
            cmd_table(names[k], pl, ql, sl, k == 0);
    } else if (!strcmp(cmd, "conf") && argc - i == 2) {
        int p = atoi(argv[i]), q = atoi(argv[i + 1]);
        if (p < 1 || q < 1 || q > p) die("conf: need 1 <= PPN <= P", NULL);
        cmd_conf(p, q);
    } else if (!strcmp(cmd, "thresholds") && argc - i >= 3) {
        int coll = coll_of(argv[i]), ppn = atoi(argv[i + 1]), ps[64], n = 0;
        for (i += 2; i < argc && n < 64; i++) ps[n++] = atoi(argv[i]);
        print_thresholds(coll, ps, n, ppn, 1);
    } else if (!strcmp(cmd, "fanin") && argc - i == 3) {
        cmd_fanin(coll_of(argv[i]), argv[i + 1], argv[i + 2]);
    } else if (!strcmp(cmd, "profile") && i == argc) {
        mca_coll_rsag_model_profile_write(stdout, &prof);
    } else {
        usage();
    }
    return 0;
}
