/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_forms.c -- a reduction call in its blocking, nonblocking or
 * persistent form (see rsag_forms.h).
 */
#include <string.h>

#include "rsag_forms.h"

const char *rt_form_names[RT_NFORM] = { "blocking", "nonblocking", "persistent" };

int rt_form_index(const char *name)
{
    for (int f = 0; f < RT_NFORM; f++) {
        if (0 == strcmp(name, rt_form_names[f])) {
            return f;
        }
    }
    return -1;
}

static int post_blocking(const rt_call_t *c)
{
    switch (c->coll) {
    case RT_ALLREDUCE:
        return MPI_Allreduce(c->sbuf, c->rbuf, c->count, c->dt, c->op, c->comm);
    case RT_REDUCE:
        return MPI_Reduce(c->sbuf, c->rbuf, c->count, c->dt, c->op, c->root, c->comm);
    case RT_RSB:
        return MPI_Reduce_scatter_block(c->sbuf, c->rbuf, c->count, c->dt, c->op, c->comm);
    default:
        return MPI_Reduce_scatter(c->sbuf, c->rbuf, c->rcounts, c->dt, c->op, c->comm);
    }
}

static int post_nonblocking(const rt_call_t *c, MPI_Request *req)
{
    switch (c->coll) {
    case RT_ALLREDUCE:
        return MPI_Iallreduce(c->sbuf, c->rbuf, c->count, c->dt, c->op, c->comm, req);
    case RT_REDUCE:
        return MPI_Ireduce(c->sbuf, c->rbuf, c->count, c->dt, c->op, c->root, c->comm, req);
    case RT_RSB:
        return MPI_Ireduce_scatter_block(c->sbuf, c->rbuf, c->count, c->dt, c->op, c->comm,
                                         req);
    default:
        return MPI_Ireduce_scatter(c->sbuf, c->rbuf, c->rcounts, c->dt, c->op, c->comm, req);
    }
}

static int post_persistent(const rt_call_t *c, MPI_Request *req)
{
#if RT_HAVE_PERSISTENT
    switch (c->coll) {
    case RT_ALLREDUCE:
        return RT_ALLREDUCE_INIT(c->sbuf, c->rbuf, c->count, c->dt, c->op, c->comm,
                                 MPI_INFO_NULL, req);
    case RT_REDUCE:
        return RT_REDUCE_INIT(c->sbuf, c->rbuf, c->count, c->dt, c->op, c->root, c->comm,
                              MPI_INFO_NULL, req);
    case RT_RSB:
        return RT_RSB_INIT(c->sbuf, c->rbuf, c->count, c->dt, c->op, c->comm, MPI_INFO_NULL,
                           req);
    default:
        return RT_RS_INIT(c->sbuf, c->rbuf, c->rcounts, c->dt, c->op, c->comm, MPI_INFO_NULL,
                          req);
    }
#else
    (void) c;
    (void) req;
    return MPI_ERR_UNSUPPORTED_OPERATION;
#endif
}

int rt_post(int form, const rt_call_t *c, MPI_Request *req)
{
    *req = MPI_REQUEST_NULL;
    switch (form) {
    case RT_FORM_NONBLOCKING:
        return post_nonblocking(c, req);
    case RT_FORM_PERSISTENT:
        return post_persistent(c, req);
    default:
        return post_blocking(c);
    }
}

int rt_run(int form, const rt_call_t *c)
{
    MPI_Request req;
    int rc = rt_post(form, c, &req), rc2;

    if (MPI_SUCCESS != rc || MPI_REQUEST_NULL == req) {
        return rc;
    }
    if (RT_FORM_PERSISTENT == form) {
        rc = MPI_Start(&req);
    }
    if (MPI_SUCCESS == rc) {
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    if (RT_FORM_PERSISTENT == form && MPI_REQUEST_NULL != req) {
        rc2 = MPI_Request_free(&req);
        rc = MPI_SUCCESS == rc ? rc2 : rc;
    }
    return rc;
}
