/*
 * rsag_mpit.c -- MPI_T helpers of the MPI test programs (see rsag_mpit.h):
 * algorithm control variables and call counters of rsag, and any other
 * variable by name.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "rsag_mpit.h"

const char *rt_coll_names[RT_NCOLL] = {
    "allreduce", "reduce", "reduce_scatter_block", "reduce_scatter"
};

static MPI_T_pvar_session session;
static struct {
    MPI_T_cvar_handle cvar;
    int nalg;
    char name[RT_MAXALG][RT_NAMELEN];
    int value[RT_MAXALG];
    MPI_T_pvar_handle ctr[RT_MAXALG];
} colls[RT_NCOLL];

static int counter_handle(const char *name, MPI_T_pvar_handle *h)
{
    int idx, count;

    if (MPI_SUCCESS != MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &idx)
        || MPI_SUCCESS != MPI_T_pvar_handle_alloc(session, idx, NULL, h, &count)) {
        fprintf(stderr, "rsag test: no MPI_T counter %s: is mca_coll_rsag loaded?\n", name);
        return -1;
    }
    return 0;
}

/* The enum control variable of one collective, auto first, and a counter
 * per algorithm. */
static int setup_coll(int c)
{
    char name[2 * RT_NAMELEN], ename[RT_NAMELEN], desc[1024];
    int idx, count, verb, bind, scope, num = 0, nlen, dlen, elen;
    MPI_Datatype dt;
    MPI_T_enum et;

    snprintf(name, sizeof name, "coll_rsag_%s_algorithm", rt_coll_names[c]);
    nlen = sizeof ename;
    dlen = sizeof desc;
    if (MPI_SUCCESS != MPI_T_cvar_get_index(name, &idx)
        || MPI_SUCCESS != MPI_T_cvar_get_info(idx, ename, &nlen, &verb, &dt, &et, desc, &dlen,
                                              &bind, &scope)
        || MPI_T_ENUM_NULL == et
        || MPI_SUCCESS != MPI_T_cvar_handle_alloc(idx, NULL, &colls[c].cvar, &count)) {
        fprintf(stderr, "rsag test: no MPI_T enum control variable %s: is mca_coll_rsag "
                "loaded?\n", name);
        return -1;
    }
    elen = sizeof ename;
    MPI_T_enum_get_info(et, &num, ename, &elen);
    colls[c].nalg = 1;
    snprintf(colls[c].name[0], RT_NAMELEN, "auto");
    colls[c].value[0] = 0;
    for (int i = 0; i < num && colls[c].nalg < RT_MAXALG; i++) {
        int k = colls[c].nalg, value, len = RT_NAMELEN;
        char item[RT_NAMELEN];

        if (MPI_SUCCESS != MPI_T_enum_get_item(et, i, &value, item, &len) || 0 == value) {
            continue;
        }
        snprintf(colls[c].name[k], RT_NAMELEN, "%s", item);
        colls[c].value[k] = value;
        colls[c].nalg++;
    }
    for (int k = 0; k < colls[c].nalg; k++) {
        if (0 == k) {
            snprintf(name, sizeof name, "coll_rsag_%s_delegated_calls", rt_coll_names[c]);
        } else {
            snprintf(name, sizeof name, "coll_rsag_%s_%s_calls", rt_coll_names[c],
                     colls[c].name[k]);
        }
        if (0 != counter_handle(name, &colls[c].ctr[k])) {
            return -1;
        }
    }
    return 0;
}

int rt_mpit_init(void)
{
    int provided;

    if (MPI_SUCCESS != MPI_T_init_thread(MPI_THREAD_SINGLE, &provided)
        || MPI_SUCCESS != MPI_T_pvar_session_create(&session)) {
        fprintf(stderr, "rsag test: MPI_T initialisation failed\n");
        return -1;
    }
    for (int c = 0; c < RT_NCOLL; c++) {
        if (0 != setup_coll(c)) {
            return -1;
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
    for (int c = 0; c < RT_NCOLL; c++) {
        rt_force(c, 0);
    }
    MPI_T_pvar_session_free(&session);
    MPI_T_finalize();
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
    int back = -1;

    if (MPI_SUCCESS != MPI_T_cvar_write(colls[coll].cvar, &colls[coll].value[k])
        || MPI_SUCCESS != MPI_T_cvar_read(colls[coll].cvar, &back)
        || back != colls[coll].value[k]) {
        fprintf(stderr, "rsag test: cannot set coll_rsag_%s_algorithm to %s\n",
                rt_coll_names[coll], colls[coll].name[k]);
        return -1;
    }
    return 0;
}

void rt_snapshot(int coll, rt_snap_t *s)
{
    s->nalg = colls[coll].nalg;
    for (int k = 0; k < s->nalg; k++) {
        snprintf(s->algs[k], RT_NAMELEN, "%s", 0 == k ? "delegated" : colls[coll].name[k]);
        s->ctr[k] = 0;
        MPI_T_pvar_read(session, colls[coll].ctr[k], &s->ctr[k]);
    }
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
           || NULL != strstr(alg, "priority") || NULL != strstr(alg, "halving");
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

int rt_check_ran(int coll, int k, long count, int pof2, int commutative, int contiguous,
                 const rt_snap_t *a, const rt_snap_t *b, char *why, size_t len)
{
    const char *alg = rt_alg(coll, k), *ran = rt_ran(coll, a, b);
    int applies = k > 0 && (commutative || !needs_commutative(alg))
                  && (NULL == strstr(alg, "rabenseifner") || count >= pof2)
                  && (NULL == strstr(alg, "direct") || contiguous);

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
