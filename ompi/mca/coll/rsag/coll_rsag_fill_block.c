/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * What every schedule of a filled collective is made of (coll_rsag_fill.h):
 * a side of the call's data cut into blocks by a peer's index (a rank, a
 * remote rank, a neighbor's position), one message of a block to or from
 * a peer, and a local copy between the two sides' descriptions.  The
 * builders (coll_rsag_fill_intra.c, _inter.c, _neighbor.c) are written in
 * these.
 */
#include "ompi_config.h"

#include <stdbool.h>

#include "mpi.h"
#include "ompi/constants.h"

#include "coll_rsag.h"
#include "coll_rsag_fill.h"

void mca_coll_rsag_fill_block(const mca_coll_rsag_fill_side_t *side, int i, char **buf,
                              size_t *count, struct ompi_datatype_t **type)
{
    ptrdiff_t lb, extent;

    *buf = side->buf;
    *count = side->count;
    *type = side->type;
    switch (side->layout) {
    case MCA_COLL_RSAG_FILL_NONE:
        *count = 0;
        break;
    case MCA_COLL_RSAG_FILL_SAME:
        break;
    case MCA_COLL_RSAG_FILL_EVEN:
        (void) ompi_datatype_get_extent(side->type, &lb, &extent);
        *buf = side->buf + (ptrdiff_t) i * (ptrdiff_t) side->count * extent;
        break;
    case MCA_COLL_RSAG_FILL_V:
        (void) ompi_datatype_get_extent(side->type, &lb, &extent);
        *buf = side->buf + (ptrdiff_t) side->displs[i] * extent;
        *count = (size_t) side->counts[i];
        break;
    case MCA_COLL_RSAG_FILL_W:
        *buf = side->buf + side->displs[i];
        *count = (size_t) side->counts[i];
        *type = side->types[i];
        break;
    case MCA_COLL_RSAG_FILL_WA:
        *buf = side->buf + side->adispls[i];
        *count = (size_t) side->counts[i];
        *type = side->types[i];
        break;
    }
}

/* One message of block i of `side` to or from `peer` (nothing for
 * MPI_PROC_NULL; an empty side sends and receives empty messages). */
static void mca_coll_rsag_fill_message(mca_coll_rsag_sched_t *s,
                                       const mca_coll_rsag_fill_args_t *f,
                                       const mca_coll_rsag_fill_side_t *side, int i, int peer,
                                       bool send)
{
    struct ompi_datatype_t *type;
    size_t count;
    char *buf;

    if (MPI_PROC_NULL == peer) {
        return;
    }
    mca_coll_rsag_fill_block(side, i, &buf, &count, &type);
    if (MCA_COLL_RSAG_FILL_NONE == side->layout) {
        type = (struct ompi_datatype_t *) MPI_BYTE;
    }
    if (send) {
        (void) mca_coll_rsag_sched_send_typed(s, &f->a, buf, count, type, peer);
    } else {
        (void) mca_coll_rsag_sched_recv_typed(s, &f->a, buf, count, type, peer);
    }
}

void mca_coll_rsag_fill_send(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f,
                             const mca_coll_rsag_fill_side_t *side, int i, int peer)
{
    mca_coll_rsag_fill_message(s, f, side, i, peer, true);
}

void mca_coll_rsag_fill_recv(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f,
                             const mca_coll_rsag_fill_side_t *side, int i, int peer)
{
    mca_coll_rsag_fill_message(s, f, side, i, peer, false);
}

void mca_coll_rsag_fill_local(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f,
                              int i, int j)
{
    struct ompi_datatype_t *stype, *rtype;
    size_t scount, rcount;
    char *sbuf, *rbuf;

    mca_coll_rsag_fill_block(&f->send, i, &sbuf, &scount, &stype);
    mca_coll_rsag_fill_block(&f->recv, j, &rbuf, &rcount, &rtype);
    /* the same place only when the same description (MPI_BOTTOM: the
     * datatypes hold the addresses) */
    if (!(sbuf == rbuf && scount == rcount && stype == rtype) && (0 < scount || 0 < rcount)) {
        (void) mca_coll_rsag_sched_sndrcv(s, sbuf, scount, stype, rbuf, rcount, rtype);
    }
}

/* The block of rank i of a reduce-scatter: MPI_Reduce_scatter's counts, or
 * count / p each (MPI_Reduce_scatter_block). */
size_t mca_coll_rsag_fill_rs_block(const mca_coll_rsag_fill_args_t *f, int i, size_t *displ)
{
    size_t each = f->count / (size_t) f->size;

    if (NULL == f->rcounts) {
        *displ = (size_t) i * each;
        return each;
    }
    *displ = 0;
    for (int k = 0; k < i; ++k) {
        *displ += (size_t) f->rcounts[k];
    }
    return (size_t) f->rcounts[i];
}
