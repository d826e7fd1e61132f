#include <mpi.h>
#include <mpi-ext.h>
#ifndef MPI_Allreduce_init
#define MPI_Allreduce_init MPIX_Allreduce_init
#endif
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1, iters = argc > 2 ? atoi(argv[2]) : 1000000, coll = argc > 3 ? atoi(argv[3]) : 0;
    double in[1024], out[1024]; int rank, p;
    MPI_Init(&argc, &argv); MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &p);
    for (int i = 0; i < n; ++i) in[i] = rank + i;
    MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* makes the segment */
    int rc[64]; for (int i = 0; i < p; ++i) rc[i] = n;
    for (int w = 0; w < 2; ++w) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; ++i) {
            if (coll == 0) MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            else if (coll == 1) MPI_Reduce(in, out, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            else if (coll == 2) MPI_Reduce_scatter_block(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            else if (coll == 3) MPI_Reduce_scatter(in, out, rc, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            else if (coll == 4) { MPI_Request r; MPI_Iallreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r); MPI_Wait(&r, MPI_STATUS_IGNORE); }
            else { static MPI_Request pr = MPI_REQUEST_NULL; if (pr == MPI_REQUEST_NULL) MPI_Allreduce_init(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &pr); MPI_Start(&pr); MPI_Wait(&pr, MPI_STATUS_IGNORE); }
        }
        double t = MPI_Wtime() - t0;
        if (0 == rank && w == 1) printf("coll %d n %d: %.3f us/call back-to-back\n", coll, n, 1e6 * t / iters);
    }
    MPI_Finalize();
    return 0;
}
