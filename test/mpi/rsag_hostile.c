/*
 * rsag_hostile.c -- hostile settings written through MPI_T must not crash,
 * hang or corrupt a collective.
 *
 * The MCA parameters are checked once at registration; MPI_T may write any
 * value later.  This program writes the settings given on the command line
 * (name=value, parsed by the control variable's datatype), then, for every
 * algorithm of every collective (forced through coll_rsag_<coll>_algorithm,
 * then auto), runs MPI_Allreduce, MPI_Reduce (root p - 1),
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter (irregular counts with a
 * zero) on MPI_INT sums of several sizes, and checks every result exactly.
 * The counter coll_rsag_<coll>_delegated_calls plus the algorithm counters
 * must account for every call.
 *
 * Usage: mpirun -np N rsag_hostile [name=value ...]
 *   e.g. coll_rsag_allreduce_ring_segment_size=1 coll_rsag_priority_chunks=-7
 * Prints "rsag_hostile: N cases, F failed" on rank 0; exit status 1 on any
 * failure, 2 when a setting cannot be written.
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ALLREDUCE, REDUCE, RSB, RS, NCOLL };
static const char *coll_names[NCOLL] = { "allreduce", "reduce", "reduce_scatter_block",
                                         "reduce_scatter" };
#define MAXALG 9
static int rank, size, cases, failures;

static void die(const char *what, const char *name, int rc)
{
    fprintf(stderr, "rsag_hostile: rank %d: %s(%s) failed (%d)\n", rank, what, name, rc);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static int cvar_index(const char *name, MPI_Datatype *dt, MPI_T_enum *et)
{
    char n[256];
    int idx, nlen = sizeof n, verb, bind, scope, rc;

    if (MPI_SUCCESS != (rc = MPI_T_cvar_get_index(name, &idx))) {
        die("MPI_T_cvar_get_index", name, rc);
    }
    rc = MPI_T_cvar_get_info(idx, n, &nlen, &verb, dt, et, NULL, NULL, &bind, &scope);
    if (MPI_SUCCESS != rc) {
        die("MPI_T_cvar_get_info", name, rc);
    }
    return idx;
}

/* Write "name=value" through MPI_T, by the variable's datatype. */
static void write_setting(const char *setting)
{
    char name[256];
    const char *eq = strchr(setting, '=');
    MPI_Datatype dt;
    MPI_T_enum et;
    MPI_T_cvar_handle h;
    int idx, count, rc;
    union { int i; unsigned u; long l; unsigned long ul; long long ll; unsigned long long ull; } v;

    if (NULL == eq || (size_t) (eq - setting) >= sizeof name) {
        fprintf(stderr, "rsag_hostile: expected name=value, got %s\n", setting);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memcpy(name, setting, (size_t) (eq - setting));
    name[eq - setting] = '\0';
    idx = cvar_index(name, &dt, &et);
    if (dt == MPI_INT) {
        v.i = (int) strtol(eq + 1, NULL, 0);
    } else if (dt == MPI_UNSIGNED) {
        v.u = (unsigned) strtoul(eq + 1, NULL, 0);
    } else if (dt == MPI_LONG) {
        v.l = strtol(eq + 1, NULL, 0);
    } else if (dt == MPI_UNSIGNED_LONG) {
        v.ul = strtoul(eq + 1, NULL, 0);
    } else if (dt == MPI_LONG_LONG) {
        v.ll = strtoll(eq + 1, NULL, 0);
    } else if (dt == MPI_UNSIGNED_LONG_LONG) {
        v.ull = strtoull(eq + 1, NULL, 0);
    } else {
        die("unsupported datatype of", name, 0);
    }
    if (MPI_SUCCESS != (rc = MPI_T_cvar_handle_alloc(idx, NULL, &h, &count))) {
        die("MPI_T_cvar_handle_alloc", name, rc);
    }
    if (MPI_SUCCESS != (rc = MPI_T_cvar_write(h, &v))) {
        die("MPI_T_cvar_write", name, rc);
    }
    MPI_T_cvar_handle_free(&h);
    if (0 == rank) {
        printf("rsag_hostile: wrote %s through MPI_T\n", setting);
    }
}

/* Handles on coll_rsag_<coll>_delegated_calls and every algorithm's
 * counter (allocated once: reads are relative to the handle). */
typedef struct {
    int n;
    MPI_T_pvar_handle h[MAXALG + 1];
} counters_t;

static void counters_alloc(MPI_T_pvar_session s, int coll, int nalg, char names[][64],
                           counters_t *c)
{
    char name[160];
    int idx, count, rc;

    c->n = nalg + 1;
    for (int a = 0; a <= nalg; ++a) {
        if (0 == a) {
            snprintf(name, sizeof name, "coll_rsag_%s_delegated_calls", coll_names[coll]);
        } else {
            snprintf(name, sizeof name, "coll_rsag_%s_%s_calls", coll_names[coll], names[a - 1]);
        }
        if (MPI_SUCCESS != (rc = MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &idx))) {
            die("MPI_T_pvar_get_index", name, rc);
        }
        if (MPI_SUCCESS != (rc = MPI_T_pvar_handle_alloc(s, idx, NULL, &c->h[a], &count))) {
            die("MPI_T_pvar_handle_alloc", name, rc);
        }
    }
}

/* All calls rsag counted for a collective: delegated + every algorithm. */
static unsigned long long counters_sum(MPI_T_pvar_session s, counters_t *c)
{
    unsigned long long total = 0;

    for (int a = 0; a < c->n; ++a) {
        unsigned long long v = 0;
        int rc = MPI_T_pvar_read(s, c->h[a], &v);
        if (MPI_SUCCESS != rc) {
            die("MPI_T_pvar_read", "counter", rc);
        }
        total += v;
    }
    return total;
}

static void counters_free(MPI_T_pvar_session s, counters_t *c)
{
    for (int a = 0; a < c->n; ++a) {
        MPI_T_pvar_handle_free(s, &c->h[a]);
    }
}

static void check(int ok, const char *coll, const char *alg, int n)
{
    int all;

    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    ++cases;
    if (!all) {
        ++failures;
        if (0 == rank) {
            printf("rsag_hostile: FAIL %s alg=%s n=%d\n", coll, alg, n);
        }
    }
}

/* One call of `coll` with n elements per rank (Allreduce, Reduce) or per
 * block (reduce-scatter); element i of rank r is r + i. */
static void run_case(int coll, const char *alg, int n)
{
    size_t total = (coll == RSB || coll == RS) ? (size_t) n * size : (size_t) n;
    int *in = malloc(total * sizeof(int)), *out = malloc(total * sizeof(int));
    int *counts = malloc(size * sizeof(int)), ok = 1, rc = MPI_SUCCESS, mine = n, first = 0;
    long long base = (long long) size * (size - 1) / 2;

    for (size_t i = 0; i < total; ++i) {
        in[i] = rank + (int) (i % 1000);
        out[i] = -1;
    }
    switch (coll) {
    case ALLREDUCE:
        rc = MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case REDUCE:
        rc = MPI_Reduce(in, out, n, MPI_INT, MPI_SUM, size - 1, MPI_COMM_WORLD);
        if (rank != size - 1) {
            mine = 0;
        }
        break;
    case RSB:
        rc = MPI_Reduce_scatter_block(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        first = rank * n;
        break;
    default:
        /* irregular: rank 0 gets none, the others share total */
        for (int r = 0; r < size; ++r) {
            counts[r] = (0 == r) ? 0 : (int) (total / (size - 1)) + (r <= (int) (total % (size - 1)));
        }
        for (int r = 0; r < rank; ++r) {
            first += counts[r];
        }
        mine = counts[rank];
        rc = MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        break;
    }
    ok = (MPI_SUCCESS == rc);
    for (int i = 0; ok && i < mine; ++i) {
        long long want = base + (long long) size * ((first + i) % 1000);
        ok = (out[i] == want);
    }
    check(ok, coll_names[coll], alg, n);
    free(in);
    free(out);
    free(counts);
}

int main(int argc, char **argv)
{
    static const int sizes[] = { 1, 3, 17, 1000, 40000 };
    int provided, rc;
    MPI_T_pvar_session session;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (MPI_SUCCESS != (rc = MPI_T_init_thread(MPI_THREAD_SINGLE, &provided))) {
        die("MPI_T_init_thread", "", rc);
    }
    MPI_T_pvar_session_create(&session);
    for (int i = 1; i < argc; ++i) {
        write_setting(argv[i]);
    }

    for (int coll = 0; coll < NCOLL; ++coll) {
        char cname[128], item[MAXALG][64];
        int values[MAXALG], nitems, elen, idx, count;
        MPI_Datatype dt;
        MPI_T_enum et;
        MPI_T_cvar_handle h;
        unsigned long long before;
        counters_t ctr;
        int expected = 0;

        snprintf(cname, sizeof cname, "coll_rsag_%s_algorithm", coll_names[coll]);
        idx = cvar_index(cname, &dt, &et);
        elen = sizeof cname;
        MPI_T_enum_get_info(et, &nitems, cname, &elen);
        nitems = nitems > MAXALG ? MAXALG : nitems;
        for (int i = 0; i < nitems; ++i) {
            int ilen = sizeof item[i];
            MPI_T_enum_get_item(et, i, &values[i], item[i], &ilen);
        }
        if (MPI_SUCCESS != (rc = MPI_T_cvar_handle_alloc(idx, NULL, &h, &count))) {
            die("MPI_T_cvar_handle_alloc", cname, rc);
        }
        /* item 0 is auto: the algorithms are items 1.. */
        counters_alloc(session, coll, nitems - 1, item + 1, &ctr);
        before = counters_sum(session, &ctr);
        for (int a = nitems - 1; a >= 0; --a) {     /* auto last */
            MPI_T_cvar_write(h, &values[a]);
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
                run_case(coll, item[a], sizes[s]);
                ++expected;
            }
        }
        MPI_T_cvar_handle_free(&h);
        /* the correctness checks' own Allreduce calls count too */
        if (counters_sum(session, &ctr) - before < (unsigned long long) expected) {
            ++failures;
            if (0 == rank) {
                printf("rsag_hostile: FAIL %s: rsag's counters missed calls\n", coll_names[coll]);
            }
        }
        counters_free(session, &ctr);
    }

    if (0 == rank) {
        printf("rsag_hostile: np=%d %d cases, %d failed\n", size, cases, failures);
    }
    MPI_T_pvar_session_free(&session);
    MPI_T_finalize();
    MPI_Finalize();
    return failures ? 1 : 0;
}
