/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_forms.h -- one reduction call in any of its three forms, for the MPI
 * test programs: blocking (MPI_Allreduce), nonblocking (MPI_Iallreduce, then
 * a completion call) and persistent (MPI_Allreduce_init, MPI_Start and a
 * completion call, MPI_Request_free).
 *
 * The persistent collectives are MPI_<Coll>_init in Open MPI 5.0 (and any
 * MPI 4 library) and MPIX_<Coll>_init of the pcollreq extension
 * (<mpi-ext.h>) in Open MPI 4.1: RT_<COLL>_INIT names whichever exists, and
 * RT_HAVE_PERSISTENT says whether one does.
 */
#ifndef RSAG_FORMS_H
#define RSAG_FORMS_H

#include <mpi.h>

#include "rsag_mpit.h"

#if MPI_VERSION >= 4 || (defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5)
#define RT_HAVE_PERSISTENT 1
#define RT_ALLREDUCE_INIT MPI_Allreduce_init
#define RT_REDUCE_INIT MPI_Reduce_init
#define RT_RSB_INIT MPI_Reduce_scatter_block_init
#define RT_RS_INIT MPI_Reduce_scatter_init
#else
#if defined(OPEN_MPI)
#include <mpi-ext.h>
#endif
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define RT_HAVE_PERSISTENT 1
#define RT_ALLREDUCE_INIT MPIX_Allreduce_init
#define RT_REDUCE_INIT MPIX_Reduce_init
#define RT_RSB_INIT MPIX_Reduce_scatter_block_init
#define RT_RS_INIT MPIX_Reduce_scatter_init
#else
#define RT_HAVE_PERSISTENT 0
#endif
#endif

/* The names of the forms RT_FORM_* (rsag_mpit.h), in their order. */
extern const char *rt_form_names[RT_NFORM];
/* index of the form called name, -1 if there is none */
int rt_form_index(const char *name);

/* One call of collective coll (RT_ALLREDUCE ... RT_RS of rsag_mpit.h):
 * count is the element count of allreduce and reduce and the block size of
 * reduce_scatter_block; rcounts the counts of reduce_scatter; root only for
 * reduce. */
typedef struct {
    int coll;
    const void *sbuf;
    void *rbuf;
    int count;
    const int *rcounts;
    MPI_Datatype dt;
    MPI_Op op;
    int root;
    MPI_Comm comm;
} rt_call_t;

/* Issue the call in `form`: blocking runs it (*req = MPI_REQUEST_NULL),
 * nonblocking posts it, persistent creates the inactive request (MPI_INFO_NULL)
 * without starting it.  Returns what the MPI call returned
 * (MPI_ERR_UNSUPPORTED_OPERATION for persistent without RT_HAVE_PERSISTENT). */
int rt_post(int form, const rt_call_t *c, MPI_Request *req);

/* The whole call once in `form`: post, start (persistent), MPI_Wait, free
 * (persistent).  Returns the first error. */
int rt_run(int form, const rt_call_t *c);

#endif
