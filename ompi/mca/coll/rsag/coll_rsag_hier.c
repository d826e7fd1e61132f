/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The node structure and the sub-communicators of `hierarchical`; see
 * coll_rsag_hier.h.
 */
#include "ompi_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "opal/mca/hwloc/base/base.h"
#include "opal/util/output.h"
#include "ompi/communicator/communicator.h"
#include "ompi/constants.h"
#include "ompi/group/group.h"
#include "ompi/proc/proc.h"

#include "coll_rsag_hier.h"
#include "coll_rsag_index.h"

void mca_coll_rsag_hier_free(mca_coll_rsag_hier_t *h)
{
    if (NULL == h) {
        return;
    }
    if (NULL != h->node_m) {
        OBJ_RELEASE(h->node_m);
    }
    if (NULL != h->cross_m) {
        OBJ_RELEASE(h->cross_m);
    }
    if (NULL != h->node_comm) {
        ompi_comm_free(&h->node_comm);
    }
    if (NULL != h->cross_comm) {
        ompi_comm_free(&h->cross_comm);
    }
    free(h->node_of);
    free(h);
}

/* My node's lowest rank: the peers Open MPI reports on this node. */
static int mca_coll_rsag_node_leader(struct ompi_communicator_t *comm)
{
    int me = ompi_comm_rank(comm);

    for (int q = 0; q < me; ++q) {
        ompi_proc_t *proc = ompi_group_peer_lookup(comm->c_local_group, q);
        if (NULL != proc && OPAL_PROC_ON_LOCAL_NODE(proc->super.proc_flags)) {
            return q;
        }
    }
    return me;
}

mca_coll_rsag_hier_t *mca_coll_rsag_hier_structure(struct ompi_communicator_t *comm)
{
    int p = ompi_comm_size(comm), leader = mca_coll_rsag_node_leader(comm);
    int *leaders = NULL, *count = NULL, rc;
    mca_coll_rsag_hier_t *h;

    /* Plain malloc: this bookkeeping is not a temporary of a call, and the
     * test failure injection (coll_rsag_test_alloc_fail) must not make one
     * rank skip the allgather the others are in. */
    h = malloc(sizeof(*h));
    leaders = malloc(4 * (size_t) p * sizeof(int));
    if (NULL == h || NULL == leaders) {
        free(h);
        free(leaders);
        return NULL;
    }
    memset(h, 0, sizeof(*h));
    h->node_of = leaders + p;
    h->local_of = leaders + 2 * (size_t) p;
    count = leaders + 3 * (size_t) p;

    /* allgather is not a slot of rsag: no re-entrance */
    rc = comm->c_coll->coll_allgather(&leader, 1, MPI_INT, leaders, 1, MPI_INT, comm,
                                      comm->c_coll->coll_allgather_module);
    if (OMPI_SUCCESS != rc) {
        goto fail;
    }
    /* nodes numbered by their leaders, in rank order; the same on every
     * rank, as every rank computes it from the same array */
    h->nodes = 0;
    for (int q = 0; q < p; ++q) {
        int l = leaders[q];
        if (l < 0 || l > q || leaders[l] != l) {
            /* locality that does not form nodes */
            goto fail;
        }
        if (l == q) {
            count[h->nodes] = 0;
            h->node_of[q] = h->nodes++;
        } else {
            h->node_of[q] = h->node_of[l];
        }
        h->local_of[q] = count[h->node_of[q]]++;
    }
    h->ranks_per_node = count[0];
    for (int j = 1; j < h->nodes; ++j) {
        if (count[j] != count[0]) {
            h->ranks_per_node = 0;
        }
    }
    /* from the same array on every rank: the same S everywhere */
    h->min_ranks = mca_coll_rsag_hier_min_ranks(count, h->nodes);
    /* node_of lives in the block of `leaders`: keep it, free it as one */
    memmove(leaders, h->node_of, 2 * (size_t) p * sizeof(int));
    h->node_of = leaders;
    h->local_of = leaders + p;
    return h;

fail:
    free(leaders);
    free(h);
    return NULL;
}

void mca_coll_rsag_hier_setup(mca_coll_rsag_hier_t *h, struct ompi_communicator_t *comm,
                              mca_coll_rsag_new_module_fn_t new_module, char *why,
                              size_t why_len)
{
    int me = ompi_comm_rank(comm);
    char name[MPI_MAX_OBJECT_NAME];
    int rc1, rc2;

    /* Creating communicators runs collectives on comm (the context id
     * agreement, the split's allgather): the caller sends those that come
     * back into rsag's slots to the previous module meanwhile. */
    bool crosses = h->local_of[me] < h->min_ranks;

    rc1 = ompi_comm_split(comm, h->node_of[me], me, &h->node_comm, false);
    /* cross communicators only for the local indices every node has */
    rc2 = ompi_comm_split(comm, crosses ? h->local_of[me] : MPI_UNDEFINED, h->node_of[me],
                          &h->cross_comm, false);
    if (MPI_COMM_NULL == h->cross_comm) {
        h->cross_comm = NULL;
    }

    /* names for the verbose trace (ompi_comm_set_name: 4.1 and 5.0) */
    if (OMPI_SUCCESS == rc1 && NULL != h->node_comm) {
        snprintf(name, sizeof(name), "rsag node %d of cid %d", h->node_of[me],
                 MCA_COLL_RSAG_COMM_CID(comm));
        (void) ompi_comm_set_name(h->node_comm, name);
    }
    if (OMPI_SUCCESS == rc2 && NULL != h->cross_comm) {
        snprintf(name, sizeof(name), "rsag cross %d of cid %d", h->local_of[me],
                 MCA_COLL_RSAG_COMM_CID(comm));
        (void) ompi_comm_set_name(h->cross_comm, name);
    }
    if (OMPI_SUCCESS == rc1 && OMPI_SUCCESS == rc2) {
        h->node_m = new_module(1, ompi_comm_size(h->node_comm));
        h->cross_m = (NULL != h->cross_comm) ? new_module(h->nodes, 1) : NULL;
    }
    /* Every rank must take the same view: a failure on one rank only
     * (memory) would leave the others in steps it never joins.  The
     * sub-communicators exist or not on all (the splits are collective);
     * the private modules are small: not agreed on, as before. */
    if (OMPI_SUCCESS != rc1 || OMPI_SUCCESS != rc2 || NULL == h->node_m
        || (NULL != h->cross_comm && NULL == h->cross_m)) {
        snprintf(why, why_len, "could not make the node and cross-node communicators (%d, %d)",
                 rc1, rc2);
        h->state = MCA_COLL_RSAG_HIER_UNAVAILABLE;
        return;
    }
    if (h->ranks_per_node > 0) {
        snprintf(why, why_len, "%d nodes x %d ranks: node communicators of %d ranks, %d "
                 "cross-node communicators of %d ranks made",
                 h->nodes, h->ranks_per_node, ompi_comm_size(h->node_comm), h->ranks_per_node,
                 h->nodes);
    } else {
        snprintf(why, why_len, "%d nodes of %d ranks or more (uneven): node communicators "
                 "(this one %d ranks), %d cross-node communicators of %d ranks made "
                 "(local indices < %d)",
                 h->nodes, h->min_ranks, ompi_comm_size(h->node_comm), h->min_ranks, h->nodes,
                 h->min_ranks);
    }
    h->state = MCA_COLL_RSAG_HIER_READY;
}

void mca_coll_rsag_hier_args(mca_coll_rsag_args_t *s, const mca_coll_rsag_args_t *a,
                             struct ompi_communicator_t *comm, const void *input, void *rbuf,
                             size_t count, int root)
{
    memset(s, 0, sizeof(*s));
    s->input = (const char *) input;
    s->rbuf = (char *) rbuf;
    s->in_place = (s->input == s->rbuf);
    s->count = count;
    s->dtype = a->dtype;
    s->extent = a->extent;
    s->op = a->op;
    s->root = root;
    s->rank = ompi_comm_rank(comm);
    s->size = ompi_comm_size(comm);
    s->comm = comm;
}

int mca_coll_rsag_hier_node_reduce_scatter(mca_coll_rsag_sched_t *s,
                                           const mca_coll_rsag_args_t *a,
                                           mca_coll_rsag_hier_slices_t *sl)
{
    mca_coll_rsag_hier_t *h = a->hier;
    int L = ompi_comm_size(h->node_comm), l = ompi_comm_rank(h->node_comm);
    int S = h->min_ranks;
    mca_coll_rsag_args_t sa;

    memset(sl, 0, sizeof(*sl));
    sl->displ = malloc(((size_t) L + 1) * sizeof(size_t));
    sl->slice = mca_coll_rsag_sched_tmp(s, (l < S) ? a->count / (size_t) S + 1 : 1);
    if (NULL == sl->displ || OMPI_SUCCESS != s->err) {
        return (OMPI_SUCCESS != s->err) ? s->err : OMPI_ERR_OUT_OF_RESOURCE;
    }
    mca_coll_rsag_hier_slices(a->count, S, L, sl->displ);
    sl->mine = sl->displ[l + 1] - sl->displ[l];

    mca_coll_rsag_hier_args(&sa, a, h->node_comm, a->input, sl->slice, a->count, -1);
    return h->build(s, h->node_m, MCA_COLL_RSAG_REDUCE_SCATTER,
                    MCA_COLL_RSAG_REDUCE_SCATTER_DIRECT, &sa, sl->displ);
}

void mca_coll_rsag_hier_slices_free(mca_coll_rsag_hier_slices_t *sl)
{
    free(sl->displ);
    sl->displ = NULL;
}

int mca_coll_rsag_hier_bcast(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a, char *buf,
                             size_t count, int root)
{
    int p = a->size, vr = (a->rank - root + p) % p, mask = 1;

    mca_coll_rsag_sched_fence(s);
    if (p < 2 || 0 == count) {
        return s->err;
    }
    /* receive from the parent (vr without its lowest set bit), then send
     * to the children vr + 2^k below that bit, the farthest first */
    while (mask < p && 0 == (vr & mask)) {
        mask <<= 1;
    }
    if (vr > 0) {
        (void) mca_coll_rsag_sched_recv(s, a, buf, count, (vr - mask + root) % p);
        mca_coll_rsag_sched_fence(s);
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (vr + mask < p) {
            (void) mca_coll_rsag_sched_send(s, a, buf, count, (vr + mask + root) % p);
        }
    }
    return s->err;
}

/* ---- the pipeline -------------------------------------------------------- */

/* The verbose trace: rank 0, once per communicator, form, collective and
 * size class. */
static void mca_coll_rsag_hier_pipe_trace(const mca_coll_rsag_sched_t *s,
                                          const mca_coll_rsag_args_t *a, size_t bytes,
                                          size_t chunks)
{
    uint64_t *traced = &a->hier->pipe_traced[s->nonblocking ? 1 : 0][a->coll];
    int size_class = 0;

    for (size_t b = bytes; b > 0 && size_class < 63; b >>= 1) {
        ++size_class;
    }
    if (mca_coll_rsag_component.verbose < MCA_COLL_RSAG_VERBOSE_DECISIONS || 0 != a->rank
        || 0 != (*traced & (1ULL << size_class))) {
        return;
    }
    *traced |= 1ULL << size_class;
    opal_output(mca_coll_rsag_component.output,
                "coll:rsag: hierarchical %s%s on %s (cid %d, size %d): %zu bytes pipelined in "
                "%zu chunks (coll_rsag_hierarchical_chunk_size %zu)",
                mca_coll_rsag_colls[a->coll].name,
                s->nonblocking ? " (nonblocking or persistent)" : "", a->comm->c_name,
                MCA_COLL_RSAG_COMM_CID(a->comm), a->size, bytes, chunks,
                mca_coll_rsag_component.hier_chunk_size);
}

int mca_coll_rsag_hier_pipeline(mca_coll_rsag_sched_t *s, const mca_coll_rsag_args_t *a,
                                mca_coll_rsag_hier_body_fn_t body, void *ctx)
{
    mca_coll_rsag_hier_pipe_t pipe = { .lanes = false, .node_done = -1, .offset = 0,
                                       .chunk = 0, .chunks = 1 };
    size_t type_size, bytes, n, base, extra;
    int prev = -1, err = OMPI_SUCCESS;

    ompi_datatype_type_size(a->dtype, &type_size);
    bytes = a->count * type_size;
    n = mca_coll_rsag_hier_chunks(a->count, type_size, mca_coll_rsag_component.hier_chunk_size,
                                  a->hier->min_ranks);
    if (n <= 1) {
        return body(s, a, &pipe, ctx);      /* not cut: the phases one after the other */
    }
    mca_coll_rsag_hier_pipe_trace(s, a, bytes, n);

    /* chunk k: elements [k base + min(k, extra), ...), the first `extra` one longer */
    base = a->count / n;
    extra = a->count % n;
    pipe.lanes = true;
    pipe.chunks = n;
    mca_coll_rsag_sched_lanes_begin(s);
    for (size_t k = 0; k < n && OMPI_SUCCESS == err; ++k) {
        mca_coll_rsag_args_t ca = *a;

        pipe.offset = k * base + (k < extra ? k : extra);
        ca.count = base + (k < extra ? 1 : 0);
        ca.input = mca_coll_rsag_elem(a->input, pipe.offset, a->extent);
        ca.rbuf = (NULL == a->rbuf) ? NULL : mca_coll_rsag_elem(a->rbuf, pipe.offset, a->extent);
        ca.displ = ca.vdispl = NULL;

        mca_coll_rsag_sched_lane(s);
        if (prev >= 0) {
            (void) mca_coll_rsag_sched_gate(s, prev);   /* after the last chunk's node phase */
        }
        pipe.node_done = -1;
        pipe.chunk = k;
        err = body(s, &ca, &pipe, ctx);
        if (pipe.node_done < 0) {
            /* a body without a node phase mark: its whole lane counts */
            pipe.node_done = mca_coll_rsag_sched_gate(s, -1);
        }
        prev = pipe.node_done;
    }
    mca_coll_rsag_sched_lanes_end(s);
    return (OMPI_SUCCESS != err) ? err : s->err;
}

void mca_coll_rsag_hier_node_done(mca_coll_rsag_sched_t *s, mca_coll_rsag_hier_pipe_t *pipe)
{
    if (pipe->lanes) {
        pipe->node_done = mca_coll_rsag_sched_gate(s, -1);
    }
}
