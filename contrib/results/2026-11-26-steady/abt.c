/* in-job A/B: batches of calls alternating coll_rsag_direct_stream_min_bytes
   between A and B (MPI_T), per-batch mean time */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static MPI_T_cvar_handle h;
static void set(size_t v){ MPI_T_cvar_write(h, &v); }
int main(int argc, char **argv) {
    int prov; MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &prov); MPI_T_init_thread(MPI_THREAD_SINGLE, &prov);
    int rank, p; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &p);
    const char *coll = argv[1]; size_t bytes = strtoul(argv[2], 0, 0); int batches = atoi(argv[3]), per = atoi(argv[4]);
    size_t A = strtoul(argv[5],0,0), B = strtoull(argv[6],0,0);
    int idx, cnt; MPI_T_cvar_get_index("coll_rsag_direct_stream_min_bytes", &idx);
    MPI_T_cvar_handle_alloc(idx, NULL, &h, &cnt);
    size_t n = bytes / 8; double *s = malloc(bytes), *r = malloc(bytes);
    for (size_t i = 0; i < n; i++) s[i] = i + rank, r[i] = 0;
    static double ta[100000], tb[100000];
    for (int b = 0; b < batches; b++) for (int v = 0; v < 2; v++) {
        set(v ? B : A);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < per; i++) {
            if (!strcmp(coll, "rsb")) MPI_Reduce_scatter_block(s, r, n / p, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            else if (!strcmp(coll, "reduce")) MPI_Reduce(s, r, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            else MPI_Allreduce(s, r, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        double t = (MPI_Wtime() - t0) / per * 1e6;
        MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        (v ? tb : ta)[b] = t;
    }
    if (rank == 0) for (int b = 0; b < batches; b++) printf("%s %zu batch %2d: A %.1f  B %.1f  B/A %.2f\n", coll, bytes, b, ta[b], tb[b], tb[b]/ta[b]);
    MPI_T_finalize(); MPI_Finalize();
}
