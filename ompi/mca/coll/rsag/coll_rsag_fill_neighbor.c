/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The neighborhood collectives rsag fills (coll_rsag_fill.h): the
 * communicator's topology names, in MPI's order, the in-neighbors block k
 * of the receive buffer comes from and the out-neighbors block k of the
 * send buffer goes to (allgather: the whole send buffer to each); every
 * message is in flight at once, one round.
 *
 *   Cartesian   per dimension d, from MPI_Cart_shift(d, 1): neighbors 2d
 *               (source, the - side) and 2d + 1 (destination, the + side),
 *               MPI_PROC_NULL off a non-periodic edge (no message, the
 *               block untouched);
 *   graph       MPI_Graph_neighbors, in and out alike;
 *   dist graph  MPI_Dist_graph_neighbors' sources and destinations.
 *
 * One tag carries every message of a call, and MPI matches messages of one
 * pair in the order they were posted.  A periodic dimension of size 2 (or
 * 1) makes one process both neighbors of that dimension: block 2d goes to
 * it as the source and must land in its block 2d + 1 (it came from its
 * destination).  So, per dimension, the sends are posted - side first and
 * the receives + side first: the k-th message of the pair meets the k-th
 * receive, as MPI's defining sequence of two MPI_Sendrecv per dimension
 * pairs them.  A graph's repeated edges match in list order by the same
 * rule.
 *
 * Cost: max(in, out) (alpha + n beta).  Memory: the neighbor lists.
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "mpi.h"
#include "ompi/constants.h"
#include "ompi/mca/topo/topo.h"

#include "coll_rsag.h"
#include "coll_rsag_fill.h"

/* The neighbor lists of this rank (malloc'ed; *in and *out freed by the
 * caller), and whether the order of a Cartesian topology applies. */
static int mca_coll_rsag_fill_neighbors(struct ompi_communicator_t *comm, int rank, int *nin,
                                        int **in, int *nout, int **out, bool *cart)
{
    mca_topo_base_module_t *topo = comm->c_topo;
    int err = OMPI_SUCCESS, weighted = 0, n = 0;
    int *inw = NULL, *outw = NULL;

    *in = *out = NULL;
    *nin = *nout = 0;
    *cart = false;
    if (NULL == topo || !OMPI_COMM_IS_TOPO(comm)) {
        return MPI_ERR_TOPOLOGY;
    }
    if (OMPI_COMM_IS_CART(comm)) {
        err = topo->topo.cart.cartdim_get(comm, &n);
        if (OMPI_SUCCESS != err) {
            return err;
        }
        *cart = true;
        *nin = *nout = 2 * n;
    } else if (OMPI_COMM_IS_GRAPH(comm)) {
        err = topo->topo.graph.graph_neighbors_count(comm, rank, &n);
        *nin = *nout = n;
    } else {
        err = topo->topo.dist_graph.dist_graph_neighbors_count(comm, nin, nout, &weighted);
    }
    if (OMPI_SUCCESS != err) {
        return err;
    }
    /* one more than asked: malloc(0) may be NULL */
    *in = malloc(((size_t) *nin + 1) * sizeof(int));
    *out = malloc(((size_t) *nout + 1) * sizeof(int));
    inw = malloc(((size_t) *nin + 1) * sizeof(int));
    outw = malloc(((size_t) *nout + 1) * sizeof(int));
    if (NULL == *in || NULL == *out || NULL == inw || NULL == outw) {
        err = OMPI_ERR_OUT_OF_RESOURCE;
    } else if (*cart) {
        for (int d = 0; d < n && OMPI_SUCCESS == err; ++d) {
            err = topo->topo.cart.cart_shift(comm, d, 1, &(*in)[2 * d], &(*in)[2 * d + 1]);
            (*out)[2 * d] = (*in)[2 * d];
            (*out)[2 * d + 1] = (*in)[2 * d + 1];
        }
    } else if (OMPI_COMM_IS_GRAPH(comm)) {
        err = topo->topo.graph.graph_neighbors(comm, rank, n, *in);
        for (int k = 0; k < n; ++k) {
            (*out)[k] = (*in)[k];
        }
    } else {
        err = topo->topo.dist_graph.dist_graph_neighbors(comm, *nin, *in, inw, *nout, *out,
                                                         outw);
    }
    free(inw);
    free(outw);
    if (OMPI_SUCCESS != err) {
        free(*in);
        free(*out);
        *in = *out = NULL;
    }
    return err;
}

/* Position of the k-th receive (or send) to post: per Cartesian dimension,
 * receives + side first, sends - side first (the header); list order
 * otherwise. */
static int mca_coll_rsag_fill_recv_order(bool cart, int k)
{
    return cart ? (k ^ 1) : k;
}

int mca_coll_rsag_fill_neighbor(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f)
{
    int nin, nout, *in, *out, err;
    bool cart;

    err = mca_coll_rsag_fill_neighbors(f->a.comm, f->rank, &nin, &in, &nout, &out, &cart);
    if (OMPI_SUCCESS != err) {
        return err;
    }
    for (int k = 0; k < nin; ++k) {
        int j = mca_coll_rsag_fill_recv_order(cart, k);
        mca_coll_rsag_fill_recv(s, f, &f->recv, j, in[j]);
    }
    for (int k = 0; k < nout; ++k) {
        mca_coll_rsag_fill_send(s, f, &f->send, k, out[k]);
    }
    free(in);
    free(out);
    return s->err;
}
