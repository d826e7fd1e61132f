/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_mpit.c -- MPI_T helpers of the MPI test programs (see rsag_mpit.h):
 * algorithm control variables and call counters of rsag, and any other
 * variable by name.
 */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>

#include "rsag_mpit.h"

const char *rt_coll_names[RT_NCOLL] = {
    "allreduce", "reduce", "reduce_scatter_block", "reduce_scatter"
};

static MPI_T_pvar_session session;
static int mpit_started;
static int form = RT_FORM_BLOCKING;
/* the counters rt_counter found so far (or found missing: found 0) */
#define RT_MAXNAMED 16
static struct {
    char name[2 * RT_NAMELEN];
    int found;
    MPI_T_pvar_handle h;
} named[RT_MAXNAMED];
static int nnamed;
static char cvar_prefix[RT_NAMELEN] = "coll_rsag";
static void (*report_fn)(const char *line);
static struct {
    int have_cvar;
    MPI_T_cvar_handle cvar;
    int orig;
    int nalg;
    char name[RT_MAXALG][RT_NAMELEN];
    int value[RT_MAXALG];
    char ctr_name[RT_MAXALG][2 * RT_NAMELEN];
    int ctr_found[RT_MAXALG];
    MPI_T_pvar_handle ctr[RT_MAXALG];
} colls[RT_NCOLL];

static void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void report(const char *fmt, ...)
{
    char line[512];
    va_list ap;

    if (NULL == report_fn) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    report_fn(line);
}

/* A counter of rsag: an unsigned long long counter bound to no object. */
static int counter_handle(const char *name, MPI_T_pvar_handle *h)
{
    char nm[2 * RT_NAMELEN], desc[1024];
    int idx, rc, nlen = sizeof nm, dlen = sizeof desc, verb, vclass, bind, ro, cont, atom,
        cnt = 0;
    MPI_Datatype dt;
    MPI_T_enum et;

    if (MPI_SUCCESS != MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &idx)) {
        return -1;
    }
    rc = MPI_T_pvar_get_info(idx, nm, &nlen, &verb, &vclass, &dt, &et, desc, &dlen, &bind, &ro,
                             &cont, &atom);
    if (MPI_SUCCESS != rc || MPI_UNSIGNED_LONG_LONG != dt || MPI_T_BIND_NO_OBJECT != bind) {
        report("pvar %s: get_info rc=%d, datatype %s, bind %d (want unsigned long long, "
               "MPI_T_BIND_NO_OBJECT)", name, rc, MPI_UNSIGNED_LONG_LONG == dt ? "ok" : "WRONG",
               bind);
        return -1;
    }
    rc = MPI_T_pvar_handle_alloc(session, idx, NULL, h, &cnt);
    if (MPI_SUCCESS != rc || 1 != cnt) {
        report("pvar %s: handle_alloc rc=%d count=%d", name, rc, cnt);
        return -1;
    }
    if (!cont) {
        MPI_T_pvar_start(session, *h);
    }
    return 0;
}

/* The enum control variable of one collective (value 0 first, then in enum
 * order) and rsag's counter of each algorithm and of the delegated calls. */
/* Whether an algorithm of this value is already listed: rsag lists each
 * algorithm's former (deprecated) name after the current ones, with the
 * same value; it is the same algorithm. */
static int value_seen(int c, int value)
{
    for (int k = 1; k < colls[c].nalg; k++) {
        if (colls[c].value[k] == value) {
            return 1;
        }
    }
    return 0;
}

static void setup_coll(int c)
{
    char name[2 * RT_NAMELEN], nm[RT_NAMELEN], desc[2048];
    int idx, cnt = 0, verb, bind, scope, num = 0, nlen = sizeof nm, dlen = sizeof desc, elen, rc;
    MPI_Datatype dt;
    MPI_T_enum et;

    colls[c].nalg = 1;
    snprintf(colls[c].name[0], RT_NAMELEN, "auto");
    colls[c].value[0] = 0;
    snprintf(name, sizeof name, "%s_%s_algorithm", cvar_prefix, rt_coll_names[c]);
    if (MPI_SUCCESS == MPI_T_cvar_get_index(name, &idx)) {
        rc = MPI_T_cvar_get_info(idx, nm, &nlen, &verb, &dt, &et, desc, &dlen, &bind, &scope);
        if (MPI_SUCCESS != rc || MPI_INT != dt || MPI_T_ENUM_NULL == et) {
            report("cvar %s is not an int enum (rc=%d)", name, rc);
        } else if (MPI_T_BIND_NO_OBJECT != bind) {
            report("cvar %s is bound to an object (%d)", name, bind);
        } else if (MPI_SUCCESS != (rc = MPI_T_cvar_handle_alloc(idx, NULL, &colls[c].cvar, &cnt))
                   || 1 != cnt) {
            report("cvar %s: handle_alloc rc=%d", name, rc);
        } else {
            elen = sizeof nm;
            MPI_T_enum_get_info(et, &num, nm, &elen);
            for (int i = 0; i < num && colls[c].nalg < RT_MAXALG; i++) {
                int k = colls[c].nalg, value, len = RT_NAMELEN;
                char item[RT_NAMELEN];

                if (MPI_SUCCESS != MPI_T_enum_get_item(et, i, &value, item, &len)) {
                    continue;
                }
                if (0 == value) {       /* "auto" (coll/tuned: "ignore") */
                    snprintf(colls[c].name[0], RT_NAMELEN, "%s", item);
                    continue;
                }
                if (value_seen(c, value)) {
                    continue;           /* a former name of an algorithm listed */
                }
                snprintf(colls[c].name[k], RT_NAMELEN, "%s", item);
                colls[c].value[k] = value;
                colls[c].nalg++;
            }
            MPI_T_cvar_read(colls[c].cvar, &colls[c].orig);
            colls[c].have_cvar = 1;
        }
    }
    for (int k = 0; k < colls[c].nalg; k++) {
        if (0 == k) {
            snprintf(colls[c].ctr_name[k], sizeof colls[c].ctr_name[k],
                     "coll_rsag_%s_delegated_calls", rt_coll_names[c]);
        } else {
            snprintf(colls[c].ctr_name[k], sizeof colls[c].ctr_name[k], "coll_rsag_%s_%s_calls",
                     rt_coll_names[c], colls[c].name[k]);
        }
        colls[c].ctr_found[k] = 0 == counter_handle(colls[c].ctr_name[k], &colls[c].ctr[k]);
    }
}

int rt_persistent_ordered(int on)
{
    int idx, count, value = on ? 1 : 0, rc;
    MPI_T_cvar_handle h;

    if (MPI_SUCCESS != MPI_T_cvar_get_index("coll_rsag_persistent_starts_ordered", &idx)
        || MPI_SUCCESS != MPI_T_cvar_handle_alloc(idx, NULL, &h, &count)) {
        return -1;
    }
    rc = MPI_T_cvar_write(h, &value);
    MPI_T_cvar_handle_free(&h);
    return MPI_SUCCESS == rc ? 0 : -1;
}

int rt_mpit_open(const char *prefix, void (*report_line)(const char *line))
{
    int provided;

    report_fn = report_line;
    if (NULL != prefix) {
        snprintf(cvar_prefix, sizeof cvar_prefix, "%s", prefix);
    }
    if (MPI_SUCCESS != MPI_T_init_thread(MPI_THREAD_SINGLE, &provided)) {
        return -1;
    }
    if (MPI_SUCCESS != MPI_T_pvar_session_create(&session)) {
        MPI_T_finalize();
        return -1;
    }
    mpit_started = 1;
    for (int c = 0; c < RT_NCOLL; c++) {
        setup_coll(c);
    }
    /* the test programs start their persistent requests in the same order
     * on every rank, but do not say so, as most programs do not: rsag's
     * `direct` serves each such request on a segment of its own (the
     * tests of the communicator's segment assert it: rt_persistent_ordered) */
    return 0;
}

static void print_report(const char *line)
{
    fprintf(stderr, "rsag test: %s\n", line);
}


int rt_mpit_init(void)
{
    if (0 != rt_mpit_open(NULL, print_report)) {
        fprintf(stderr, "rsag test: MPI_T initialisation failed\n");
        return -1;
    }
    for (int c = 0; c < RT_NCOLL; c++) {
        if (!colls[c].have_cvar) {
            fprintf(stderr, "rsag test: no MPI_T enum control variable coll_rsag_%s_algorithm: "
                    "is mca_coll_rsag loaded?\n", rt_coll_names[c]);
            return -1;
        }
        for (int k = 0; k < colls[c].nalg; k++) {
            if (!colls[c].ctr_found[k]) {
                fprintf(stderr, "rsag test: no MPI_T counter %s: is mca_coll_rsag loaded?\n",
                        colls[c].ctr_name[k]);
                return -1;
            }
        }
    }
    return 0;
}

void rt_start(int *argc, char ***argv, int *rank, int *size)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    if (0 != rt_mpit_init()) {
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

void rt_mpit_finalize(void)
{
    if (!mpit_started) {
        return;
    }
    for (int c = 0; c < RT_NCOLL; c++) {
        if (colls[c].have_cvar) {
            rt_write_value(c, colls[c].orig);
            MPI_T_cvar_handle_free(&colls[c].cvar);
            colls[c].have_cvar = 0;
        }
        for (int k = 0; k < colls[c].nalg; k++) {
            if (colls[c].ctr_found[k]) {
                MPI_T_pvar_handle_free(session, &colls[c].ctr[k]);
                colls[c].ctr_found[k] = 0;
            }
        }
    }
    for (int i = 0; i < nnamed; i++) {
        if (named[i].found) {
            MPI_T_pvar_handle_free(session, &named[i].h);
        }
    }
    nnamed = 0;
    MPI_T_pvar_session_free(&session);
    MPI_T_finalize();
    mpit_started = 0;
}

long long rt_counter(const char *name)
{
    unsigned long long v = 0;
    int i;

    if (!mpit_started) {
        return -1;
    }
    for (i = 0; i < nnamed; i++) {
        if (0 == strcmp(named[i].name, name)) {
            break;
        }
    }
    if (i == nnamed) {
        if (RT_MAXNAMED == nnamed) {
            return -1;
        }
        snprintf(named[i].name, sizeof named[i].name, "%s", name);
        named[i].found = 0 == counter_handle(name, &named[i].h);
        nnamed++;
    }
    if (!named[i].found || MPI_SUCCESS != MPI_T_pvar_read(session, named[i].h, &v)) {
        return -1;
    }
    return (long long) v;
}

void rt_set_form(int f)
{
    form = f;
}

int rt_form(void)
{
    return form;
}

int rt_have_cvar(int coll)
{
    return colls[coll].have_cvar;
}

int rt_alg_value(int coll, int k)
{
    return colls[coll].value[k];
}

int rt_orig_value(int coll)
{
    return colls[coll].orig;
}

int rt_write_value(int coll, int value)
{
    int back = -1, rc;

    if (!colls[coll].have_cvar) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    rc = MPI_T_cvar_write(colls[coll].cvar, &value);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    MPI_T_cvar_read(colls[coll].cvar, &back);
    return back == value ? MPI_SUCCESS : MPI_T_ERR_INVALID;
}

const char *rt_mpit_err(int rc)
{
    switch (rc) {
    case MPI_T_ERR_INVALID_NAME: return "MPI_T_ERR_INVALID_NAME";
    case MPI_T_ERR_INVALID_INDEX: return "MPI_T_ERR_INVALID_INDEX";
    case MPI_T_ERR_INVALID_HANDLE: return "MPI_T_ERR_INVALID_HANDLE";
    case MPI_T_ERR_CVAR_SET_NOT_NOW: return "MPI_T_ERR_CVAR_SET_NOT_NOW";
    case MPI_T_ERR_CVAR_SET_NEVER: return "MPI_T_ERR_CVAR_SET_NEVER";
    case MPI_T_ERR_NOT_INITIALIZED: return "MPI_T_ERR_NOT_INITIALIZED";
    case MPI_T_ERR_INVALID: return "MPI_T_ERR_INVALID";
    default: return "MPI_T error";
    }
}

int rt_counter_found(int coll, int k)
{
    return colls[coll].ctr_found[k];
}

const char *rt_counter_name(int coll, int k)
{
    return colls[coll].ctr_name[k];
}

int rt_loaded(void)
{
    for (int c = 0; c < RT_NCOLL; c++) {
        for (int k = 0; k < colls[c].nalg; k++) {
            if (colls[c].ctr_found[k]) {
                return 1;
            }
        }
    }
    return 0;
}

int rt_counters_missing(int coll)
{
    for (int k = 0; k < colls[coll].nalg; k++) {
        if (!colls[coll].ctr_found[k]) {
            return 1;
        }
    }
    return 0;
}

long long rt_calls(int coll)
{
    long long total = 0;
    rt_snap_t s;

    if (!rt_loaded()) {
        return -1;
    }
    for (int c = 0; c < RT_NCOLL; c++) {
        if (coll >= 0 && c != coll) {
            continue;
        }
        rt_snapshot(c, &s);
        for (int k = 0; k < s.nalg; k++) {
            total += (long long) s.ctr[k];
        }
    }
    return total;
}

int rt_nalg(int coll)
{
    return colls[coll].nalg;
}

const char *rt_alg(int coll, int k)
{
    return colls[coll].name[k];
}

int rt_alg_index(int coll, const char *name)
{
    for (int k = 0; k < colls[coll].nalg; k++) {
        if (0 == strcmp(colls[coll].name[k], name)) {
            return k;
        }
    }
    return -1;
}

int rt_force(int coll, int k)
{
    if (MPI_SUCCESS != rt_write_value(coll, colls[coll].value[k])) {
        fprintf(stderr, "rsag test: cannot set coll_rsag_%s_algorithm to %s\n",
                rt_coll_names[coll], colls[coll].name[k]);
        return -1;
    }
    return 0;
}

int rt_snapshot(int coll, rt_snap_t *s)
{
    int rc = 0;

    s->nalg = colls[coll].nalg;
    for (int k = 0; k < s->nalg; k++) {
        s->algs[k] = (0 == k) ? "delegated" : colls[coll].name[k];
        s->ctr[k] = 0;
        if (colls[coll].ctr_found[k]
            && MPI_SUCCESS != MPI_T_pvar_read(session, colls[coll].ctr[k], &s->ctr[k])) {
            rc = -1;
        }
    }
    return rc;
}

const char *rt_ran(int coll, const rt_snap_t *a, const rt_snap_t *b)
{
    const char *ran = "none";

    (void) coll;
    for (int k = 0; k < a->nalg; k++) {
        unsigned long long d = b->ctr[k] - a->ctr[k];

        if (0 == d) {
            continue;
        }
        if (1 != d || 0 != strcmp(ran, "none")) {
            return "several";
        }
        ran = b->algs[k];
    }
    return ran;
}

static int needs_commutative(const char *alg)
{
    return NULL != strstr(alg, "rabenseifner") || NULL != strstr(alg, "ring")
           || NULL != strstr(alg, "priority") || NULL != strstr(alg, "halving")
           || NULL != strstr(alg, "hierarchical") || NULL != strstr(alg, "leaders")
           || NULL != strstr(alg, "circulant") || NULL != strstr(alg, "chain");
}

rt_placement_t rt_placement(MPI_Comm comm)
{
    rt_placement_t where;

    where.single_node = rt_single_node(comm);
    where.multi_node = rt_multi_node(comm);
    return where;
}

int rt_contiguous(MPI_Datatype dt)
{
    MPI_Aint lb, ext, tlb, text;
    int sz;

    MPI_Type_size(dt, &sz);
    MPI_Type_get_extent(dt, &lb, &ext);
    MPI_Type_get_true_extent(dt, &tlb, &text);
    return sz > 0 && (MPI_Aint) sz == ext && text == ext;
}

int rt_applies(const char *alg, long count, int pof2, int commutative, int contiguous,
               rt_placement_t where)
{
    return (commutative || !needs_commutative(alg))
           && (NULL == strstr(alg, "rabenseifner") || count >= pof2)
           && (NULL == strstr(alg, "direct")
               || (contiguous && where.single_node && RT_FORM_BLOCKING == form))
           && ((NULL == strstr(alg, "hierarchical") && NULL == strstr(alg, "leaders"))
               || where.multi_node);
}

int rt_check_ran(int coll, int k, long count, int pof2, int commutative, int contiguous,
                 rt_placement_t where, const rt_snap_t *a, const rt_snap_t *b, char *why,
                 size_t len)
{
    const char *alg = rt_alg(coll, k), *ran = rt_ran(coll, a, b);
    int applies = k > 0 && rt_applies(alg, count, pof2, commutative, contiguous, where);

    if (0 == strcmp(ran, "none") || 0 == strcmp(ran, "several")) {
        snprintf(why, len, "the counters say %s ran", ran);
        return 1;
    }
    if (applies && 0 != strcmp(ran, alg)) {
        snprintf(why, len, "%s forced and applicable, but the counters say %s ran", alg, ran);
        return 1;
    }
    if (commutative && 0 == strcmp(ran, "delegated")) {
        snprintf(why, len, "a commutative op was delegated");
        return 1;
    }
    snprintf(why, len, "%s ran", ran);
    return 0;
}

static void rt_die(const char *what, const char *name, int rc)
{
    int rank = -1;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "rsag test: rank %d: %s(%s) failed (%d): is mca_coll_rsag loaded?\n", rank,
            what, name, rc);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

MPI_T_pvar_handle rt_pvar(const char *name, int var_class)
{
    MPI_T_pvar_handle h;
    int idx, count, rc;

    if (MPI_SUCCESS != (rc = MPI_T_pvar_get_index(name, var_class, &idx))) {
        rt_die("MPI_T_pvar_get_index", name, rc);
    }
    if (MPI_SUCCESS != (rc = MPI_T_pvar_handle_alloc(session, idx, NULL, &h, &count))) {
        rt_die("MPI_T_pvar_handle_alloc", name, rc);
    }
    return h;
}

unsigned long long rt_pvar_read(MPI_T_pvar_handle h)
{
    unsigned long long v = 0;
    int rc = MPI_T_pvar_read(session, h, &v);

    if (MPI_SUCCESS != rc) {
        rt_die("MPI_T_pvar_read", "a counter", rc);
    }
    return v;
}

void rt_pvar_free(MPI_T_pvar_handle *h)
{
    MPI_T_pvar_handle_free(session, h);
}

MPI_T_cvar_handle rt_cvar(const char *name, MPI_Datatype *dt, MPI_T_enum *et)
{
    char buf[256];
    int idx, count, verb, bind, scope, len = sizeof buf, rc;
    MPI_Datatype d;
    MPI_T_cvar_handle h;
    MPI_T_enum e;

    if (MPI_SUCCESS != (rc = MPI_T_cvar_get_index(name, &idx))) {
        rt_die("MPI_T_cvar_get_index", name, rc);
    }
    rc = MPI_T_cvar_get_info(idx, buf, &len, &verb, &d, &e, NULL, NULL, &bind, &scope);
    if (MPI_SUCCESS != rc) {
        rt_die("MPI_T_cvar_get_info", name, rc);
    }
    if (NULL != dt) {
        *dt = d;
    }
    if (NULL != et) {
        *et = e;
    }
    if (MPI_SUCCESS != (rc = MPI_T_cvar_handle_alloc(idx, NULL, &h, &count))) {
        rt_die("MPI_T_cvar_handle_alloc", name, rc);
    }
    return h;
}

void rt_cvar_write(MPI_T_cvar_handle h, const void *value)
{
    int rc = MPI_T_cvar_write(h, value);

    if (MPI_SUCCESS != rc) {
        rt_die("MPI_T_cvar_write", "a control variable", rc);
    }
}

long rt_rss_kb(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");

    if (NULL != f) {
        if (2 != fscanf(f, "%ld %ld", &pages, &resident)) {
            resident = 0;
        }
        fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

int rt_multi_node(MPI_Comm comm)
{
    MPI_Comm node;
    int size, node_size = 0, local = 0, nodes = 0, min_size = 0;

    MPI_Comm_size(comm, &size);
    if (MPI_SUCCESS != MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node)) {
        return 0;
    }
    MPI_Comm_size(node, &node_size);
    MPI_Comm_rank(node, &local);
    MPI_Comm_free(&node);
    local = (0 == local);   /* one leader per node */
    MPI_Allreduce(&local, &nodes, 1, MPI_INT, MPI_SUM, comm);
    MPI_Allreduce(&node_size, &min_size, 1, MPI_INT, MPI_MIN, comm);
    return nodes >= 2 && min_size >= 1 && size > nodes;
}

int rt_single_node(MPI_Comm comm)
{
    MPI_Comm node;
    int size, node_size = 0;

    MPI_Comm_size(comm, &size);
    if (MPI_SUCCESS != MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node)) {
        return 0;
    }
    MPI_Comm_size(node, &node_size);
    MPI_Comm_free(&node);
    return node_size == size;
}
