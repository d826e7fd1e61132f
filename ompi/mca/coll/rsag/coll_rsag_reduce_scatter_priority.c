/*
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter, priority-aware (seed 002).
 *
 * Idea: the steps of recursive halving over vblocks, but each step's outgoing
 * half leaves as separate nonblocking messages of U vblocks ("runs"), in the
 * order the partner needs them, and a received run is reduced only when due:
 * just before it is forwarded in the next step or, if kept, while the next
 * step's messages are in flight.
 *
 * Schedule of vrank v (U = 1 below; step k pairs v with v ^ m, m = p'/2^(k+1),
 * inside the aligned window of 2m vblocks, as in recursive halving):
 *   step 0   post the receives of the kept half K0 in v's own need order;
 *            send the given half G0 from the input in the partner's order.
 *   step k   (1) for each run of G_k in the partner's order: wait for the
 *            step k-1 receive holding it, reduce that receive into the work
 *            vector, send the run; (2) for each run of K_k in v's order:
 *            wait and reduce the step k-1 receive holding it (if not yet
 *            done), then post the step k receive of the run in the slot of
 *            the receive area it just freed.
 *   end      wait and reduce the last receive (vblock v); rs_deliver.
 * "The order u needs a window" (mca_coll_rsag_priority_order): first the
 * half u forwards next, in the order its next partner needs it, then the
 * half u keeps, in u's own order.  p = 8 (vblock numbers; >w sends to vrank
 * w, < receives from the same vrank, both in time order):
 *
 *        step 0 (distance 4)      step 1 (distance 2)   step 2 (distance 1)
 *   v0   >v4 7 6 5 4  < 3 2 1 0   >v2 3 2  < 1 0        >v1 1  < 0
 *   v1   >v5 6 7 4 5  < 2 3 0 1   >v3 2 3  < 0 1        >v0 0  < 1
 *   v2   >v6 5 4 7 6  < 1 0 3 2   >v0 1 0  < 3 2        >v3 3  < 2
 *   v3   >v7 4 5 6 7  < 0 1 2 3   >v1 0 1  < 2 3        >v2 2  < 3
 *   v4   >v0 3 2 1 0  < 7 6 5 4   >v6 7 6  < 5 4        >v5 5  < 4
 *   v5   >v1 2 3 0 1  < 6 7 4 5   >v7 6 7  < 4 5        >v4 4  < 5
 *   v6   >v2 1 0 3 2  < 5 4 7 6   >v4 5 4  < 7 6        >v7 7  < 6
 *   v7   >v3 0 1 2 3  < 4 5 6 7   >v5 4 5  < 6 7        >v6 6  < 7
 *
 *   v0 in time (rN: reduce the received vblock N, sN/pN: send/post N):
 *   step 0: p3 p2 p1 p0 (from v4), s7 s6 s5 s4 (to v4, from the input)
 *   step 1: r3 s3, r2 s2 (to v2) | r1 p1, r0 p0 (from v2)
 *   step 2: r1 s1 (to v1)        | r0 p0 (from v1)
 *   end:    r0 -> v0's vblock reduced
 * The sends of one step go out in exactly the order the partner posts its
 * receives, so messages match in order on one tag.  With U > 1 the same
 * order is cut into aligned runs of U vblocks (min(U, m) per step, e.g. U = 2
 * at step 0: v0 sends 6-7 4-5); U >= p'/2 is recursive halving with
 * nonblocking messages.  Non-power-of-two p: the balanced pre-step of
 * recursive halving folds p onto p' first; zero-size runs are not sent.
 *
 * Cost (p = p', U = 1): (p-1) alpha + (p-1)/p n beta + (p-1)/p n gamma: the
 *       bytes and flops of recursive halving, but p-1 messages per rank
 *       instead of log2 p (sum over steps of max(1, m/U) for U > 1); the
 *       gain is overlap: while a step's messages are in flight, the rank
 *       reduces what it received before.  p != p' adds what recursive
 *       halving adds (pre-step and block hand-over).
 * Restrictions: commutative op (received runs are reduced as tmp (op) ours).
 * Memory: exactly recursive halving's: a work vector of n elements and one
 *       receive area mirroring the first kept half K0 (or the pre-step's
 *       ceil(n/2) when larger): a run R always lands at tmp[R - K0], whatever
 *       the step, since a slot is reused only after its content is reduced.
 *       Plus O(p') request handles.  The send buffer is never copied.
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "mpi.h"
#include "ompi/constants.h"
#include "ompi/mca/coll/base/coll_tags.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/request/request.h"

#include "coll_rsag.h"

/* The receives of one step: runs of `run` vblocks tiling the kept half
 * [base, base + n * run), indexed by position (run i starts at
 * base + i * run), whatever the order they were posted in. */
typedef struct prio_recvs_t {
    mca_coll_rsag_vrange_t *runs;
    ompi_request_t **reqs;   /* MPI_REQUEST_NULL once reduced, or when empty */
    bool *pending;           /* received data not yet reduced into work */
    int base, run, n;
    const char *src;         /* the other operand of their reductions */
} prio_recvs_t;

/* What every helper of one call needs. */
typedef struct prio_call_t {
    const size_t *displ;
    int size;                /* communicator size */
    char *work;
    char *tmp;
    size_t tmp_base;         /* tmp[i] mirrors work[tmp_base + i] */
    ptrdiff_t extent;
    struct ompi_datatype_t *dtype;
    struct ompi_op_t *op;
    int tag;
    struct ompi_communicator_t *comm;
    ompi_request_t **sends;
    int nsends;
} prio_call_t;

static mca_coll_rsag_range_t prio_elems(const prio_call_t *c, mca_coll_rsag_vrange_t run)
{
    return mca_coll_rsag_vblocks(c->displ, c->size, run.lo, run.lo + run.n);
}

/* Post the receive of `run` from vrank `peer` into its slot of tmp. */
static int prio_post(prio_call_t *c, prio_recvs_t *rv, mca_coll_rsag_vrange_t run, int peer)
{
    int i = (run.lo - rv->base) / rv->run;
    mca_coll_rsag_range_t e = prio_elems(c, run);

    rv->runs[i] = run;
    rv->reqs[i] = MPI_REQUEST_NULL;
    rv->pending[i] = e.cnt > 0;
    if (0 == e.cnt) {
        return OMPI_SUCCESS;
    }
    return MCA_PML_CALL(irecv(mca_coll_rsag_elem(c->tmp, e.off - c->tmp_base, c->extent), e.cnt,
                              c->dtype, mca_coll_rsag_fold_rank(peer, c->size), c->tag, c->comm,
                              &rv->reqs[i]));
}

/* Make sure the receive holding vblock `vb` is reduced into work. */
static int prio_settle(prio_call_t *c, prio_recvs_t *rv, int vb)
{
    int i = (vb - rv->base) / rv->run;
    mca_coll_rsag_range_t e;
    int err;

    if (!rv->pending[i]) {
        return OMPI_SUCCESS;
    }
    err = ompi_request_wait(&rv->reqs[i], MPI_STATUS_IGNORE);
    if (OMPI_SUCCESS != err) {
        return err;
    }
    e = prio_elems(c, rv->runs[i]);
    mca_coll_rsag_reduce_into(c->op, c->dtype, e.cnt,
                              mca_coll_rsag_elem(c->tmp, e.off - c->tmp_base, c->extent),
                              mca_coll_rsag_elem(rv->src, e.off, c->extent),
                              mca_coll_rsag_elem(c->work, e.off, c->extent));
    rv->pending[i] = false;
    return OMPI_SUCCESS;
}

/* Send `run` of `buf` to vrank `peer` (nothing when it is empty). */
static int prio_send(prio_call_t *c, const char *buf, mca_coll_rsag_vrange_t run, int peer)
{
    mca_coll_rsag_range_t e = prio_elems(c, run);
    ompi_request_t **req = &c->sends[c->nsends];

    if (0 == e.cnt) {
        return OMPI_SUCCESS;
    }
    *req = MPI_REQUEST_NULL;
    ++c->nsends;
    return MCA_PML_CALL(isend(mca_coll_rsag_elem(buf, e.off, c->extent), e.cnt, c->dtype,
                              mca_coll_rsag_fold_rank(peer, c->size), c->tag,
                              MCA_PML_BASE_SEND_STANDARD, c->comm, req));
}

/* An empty set of receives for the kept half of step s. */
static void prio_recvs_init(prio_recvs_t *rv, mca_coll_rsag_vstep_t s, int unit, const char *src)
{
    rv->base = s.keep_lo;
    rv->run = unit < s.half ? unit : s.half;
    rv->n = s.half / rv->run;
    rv->src = src;
    for (int i = 0; i < rv->n; ++i) {
        rv->reqs[i] = MPI_REQUEST_NULL;
        rv->pending[i] = false;
    }
}

int mca_coll_rsag_priority_rs(const char *input, char *work, char *tmp, const size_t *displ,
                              struct ompi_datatype_t *dtype, struct ompi_op_t *op, int tag,
                              struct ompi_communicator_t *comm)
{
    int rank = ompi_comm_rank(comm);
    int size = ompi_comm_size(comm);
    int pof2 = mca_coll_rsag_pof2_floor(size);
    int vrank = mca_coll_rsag_fold_vrank(rank, size);
    int nsteps = mca_coll_rsag_log2_floor(pof2);
    int chunks = mca_coll_rsag_component.priority_chunks;
    int unit = mca_coll_rsag_pof2_floor(chunks > 1 ? chunks : 1);
    int maxruns = pof2 / 2;
    prio_call_t c = { .displ = displ, .size = size, .work = work, .tmp = tmp,
                      .dtype = dtype, .op = op, .tag = tag, .comm = comm };
    prio_recvs_t recvs[2], *prev = &recvs[0], *next = &recvs[1];
    size_t nreqs = (size_t) pof2 + 2 * (size_t) maxruns, nruns_max = 3 * (size_t) maxruns;
    mca_coll_rsag_vrange_t *runs, *order;
    mca_coll_rsag_vstep_t s;
    ompi_request_t **reqs;
    void *book;
    bool *pending;
    ptrdiff_t lb;
    int nruns, err;

    recvs[0].n = recvs[1].n = 0;
    /* Bookkeeping in one block: the requests of every send (p'-1 at most)
     * and of the receives of two consecutive steps (p'/2 runs at most
     * each), their runs, one run order, and the receives' pending flags.
     * Allocated on every rank before the first message, so that a failure
     * (the same on every rank) leaves no peer waiting. */
    book = mca_coll_rsag_malloc(nreqs * sizeof(ompi_request_t *)
                                + nruns_max * sizeof(mca_coll_rsag_vrange_t)
                                + 2 * (size_t) maxruns * sizeof(bool));
    if (NULL == book) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    reqs = (ompi_request_t **) book;
    runs = (mca_coll_rsag_vrange_t *) (reqs + nreqs);
    pending = (bool *) (runs + nruns_max);
    c.sends = reqs;
    for (int i = 0; i < 2; ++i) {
        recvs[i].reqs = reqs + pof2 + i * maxruns;
        recvs[i].runs = runs + i * maxruns;
        recvs[i].pending = pending + i * maxruns;
    }
    order = runs + 2 * maxruns;

    err = mca_coll_rsag_fold_balanced(input, work, tmp, displ[size], dtype, op, tag, comm);
    if (OMPI_SUCCESS != err || vrank < 0 || 0 == nsteps) {
        goto cleanup;
    }
    ompi_datatype_get_extent(dtype, &lb, &c.extent);

    /* Step 0: every receive of K0 is posted (tmp mirrors K0), then G0
     * leaves from the input (from work on a rank that folded). */
    s = mca_coll_rsag_vhalving_step(vrank, pof2, 0);
    c.tmp_base = mca_coll_rsag_vblocks(displ, size, s.keep_lo, s.keep_lo + s.half).off;
    prio_recvs_init(prev, s, unit, (rank < 2 * (size - pof2)) ? work : input);
    nruns = mca_coll_rsag_priority_order(vrank, s.keep_lo, s.half, unit, order);
    for (int i = 0; i < nruns; ++i) {
        if (OMPI_SUCCESS != (err = prio_post(&c, prev, order[i], s.peer))) {
            goto cleanup;
        }
    }
    nruns = mca_coll_rsag_priority_order(s.peer, s.give_lo, s.half, unit, order);
    for (int i = 0; i < nruns; ++i) {
        if (OMPI_SUCCESS != (err = prio_send(&c, prev->src, order[i], s.peer))) {
            goto cleanup;
        }
    }

    for (int k = 1; k < nsteps; ++k) {
        prio_recvs_t *t;

        s = mca_coll_rsag_vhalving_step(vrank, pof2, k);
        /* (1) what the partner needs, in its order: reduce, then forward */
        nruns = mca_coll_rsag_priority_order(s.peer, s.give_lo, s.half, unit, order);
        for (int i = 0; i < nruns; ++i) {
            if (OMPI_SUCCESS != (err = prio_settle(&c, prev, order[i].lo))
                || OMPI_SUCCESS != (err = prio_send(&c, work, order[i], s.peer))) {
                goto cleanup;
            }
        }
        /* (2) what stays, in my order: reduce, and receive into the freed slot */
        prio_recvs_init(next, s, unit, work);
        nruns = mca_coll_rsag_priority_order(vrank, s.keep_lo, s.half, unit, order);
        for (int i = 0; i < nruns; ++i) {
            if (OMPI_SUCCESS != (err = prio_settle(&c, prev, order[i].lo))
                || OMPI_SUCCESS != (err = prio_post(&c, next, order[i], s.peer))) {
                goto cleanup;
            }
        }
        t = prev;
        prev = next;
        next = t;
    }

    /* The last receive holds this vrank's own vblock. */
    err = prio_settle(&c, prev, vrank);
    if (OMPI_SUCCESS == err) {
        /* Sent ranges of work are never written again, but the caller may
         * overwrite the input (in place) or work (allreduce) next. */
        err = ompi_request_wait_all(c.nsends, c.sends, MPI_STATUSES_IGNORE);
    }

cleanup:
    /* Nothing is left on success; on an error nothing may stay pending on
     * buffers the caller frees. */
    mca_coll_rsag_requests_drop(recvs[0].reqs, (size_t) recvs[0].n, true);
    mca_coll_rsag_requests_drop(recvs[1].reqs, (size_t) recvs[1].n, true);
    mca_coll_rsag_requests_drop(c.sends, (size_t) c.nsends, false);
    mca_coll_rsag_free(book);
    return err;
}

int mca_coll_rsag_reduce_scatter_priority(const void *sbuf, void *rbuf, const size_t *displ,
                                          struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                          struct ompi_communicator_t *comm,
                                          mca_coll_rsag_module_t *module)
{
    const int tag = MCA_COLL_BASE_TAG_REDUCE_SCATTER;
    int size = ompi_comm_size(comm);
    size_t n = displ[size];
    const char *input = (MPI_IN_PLACE == sbuf) ? (const char *) rbuf : (const char *) sbuf;
    mca_coll_rsag_tmp_t work = MCA_COLL_RSAG_TMP_INIT, tmp = MCA_COLL_RSAG_TMP_INIT;
    int err = OMPI_SUCCESS;

    if (1 == size) {
        err = mca_coll_rsag_copy(dtype, n, rbuf, input);
        goto cleanup;
    }
    if (0 == n) {
        goto cleanup;
    }
    err = mca_coll_rsag_rs_buffers(&work, &tmp, displ, dtype, comm);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }

    err = mca_coll_rsag_priority_rs(input, work.buf, tmp.buf, displ, dtype, op, tag, comm);
    if (OMPI_SUCCESS == err) {
        err = mca_coll_rsag_rs_deliver(work.buf, rbuf, displ, dtype, tag, comm);
    }

cleanup:
    mca_coll_rsag_tmp_free(&tmp);
    mca_coll_rsag_tmp_free(&work);
    return err;
}
