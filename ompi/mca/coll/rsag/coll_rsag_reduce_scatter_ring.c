/*
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter by a pipelined ring, and
 * the two ring phases that the ring allreduce is made of.
 *
 * Idea: the ranks form a ring r -> r + 1.  At step s = 0 .. p-2 rank r
 * sends block (r-s-1) mod p to r + 1 and receives block (r-s-2) mod p from
 * r - 1, which it reduces with its own contribution: what it reduced at
 * step s is what it sends at step s + 1, so block r, received last, holds
 * every rank's contribution.  Blocks travel in segments: a segment is
 * received into one of four slots, reduced, and forwarded at once, so the
 * next segment arrives while this one is reduced and rank r + 1 works on a
 * block before rank r has finished it.
 *
 *   p = 4; "b:x..y" = block b reduced over ranks x, x+1, .., y (mod 4)
 *            rank 0     rank 1     rank 2     rank 3
 *   sends    3 (own)    0 (own)    1 (own)    2 (own)      then forwards
 *   step 0   2:3..0     3:0..1     0:1..2     1:2..3       what it reduced
 *   step 1   1:2..0     2:3..1     3:0..2     0:1..3
 *   step 2   0:all      1:all      2:all      3:all
 *
 * The allgather phase (ring allreduce) walks the same ring one block
 * later: at step s rank r sends block (r-s) mod p and receives block
 * (r-s-1) mod p straight into place, forwarding each segment on arrival.
 *
 * Blocks may be of any size, zero included, so one code serves both
 * collectives (coll_rsag_module.c builds the layout).  Segments are
 * coll_rsag_allreduce_ring_segment_size bytes of data (at least one
 * element; 0: whole blocks); both ends of a link cut them with the same
 * cursor (coll_rsag_index.c), so each segment is one message.
 *
 * Cost, n the whole vector, k segments per block:
 *       (p-1) k alpha + (p-1)/p n beta + (p-1)/p n gamma; the segments
 *       pipeline, so for k >> p the time nears (p-1)/p n max(beta, gamma)
 *       instead of their sum.  Bandwidth-optimal like recursive halving,
 *       but p-1 latencies instead of log2 p: a large-message algorithm.
 * Restrictions: commutative op (partial sums are combined in ring order,
 *       not rank order).
 * Memory: four receive slots of one segment (two blocks when whole blocks
 *       are sent), a request array with one entry per segment sent, and
 *       for reduce-scatter a work vector of n elements for the forwarded
 *       partial sums.  The send buffer is read, never copied.
 */
#include "ompi_config.h"

#include "mpi.h"
#include "ompi/constants.h"
#include "ompi/mca/coll/base/coll_tags.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/request/request.h"

#include "coll_rsag.h"

/* Receives posted ahead of the one being processed (one slot each). */
#define MCA_COLL_RSAG_RING_SLOTS 4
/* With whole blocks two slots keep one receive ahead at half the memory. */
#define MCA_COLL_RSAG_RING_BLOCK_SLOTS 2
/* Sends in flight at most.  Posting a whole block of small segments at
 * once (thousands of messages) makes Open MPI 4.1's shared-memory path
 * slow down quadratically (4 MB in 64-byte segments: 2.4 s instead of
 * 0.01 s on 2 ranks); a window keeps it linear. */
#define MCA_COLL_RSAG_RING_SENDS 8

/* One pass of the ring, p - 1 steps, pipelined by segments.
 *  op != NULL  reduce-scatter: receive (shift 2) into the slots, reduce
 *              work[seg] = slot (op) input[seg] (out for block r, the last
 *              step), forward from work; the first block (shift 1) is sent
 *              from the input.
 *  op == NULL  allgather: receive (shift 1) straight into work and forward
 *              from there; the first block (shift 0) is sent from work.
 * What r sends is the first block, then the segments it received in the
 * first p - 2 steps (a prefix of its receive stream) once processed.  A
 * rank blocks only when its next receive has not arrived and no send can
 * be posted, and then wakes on that receive or on its oldest send: every
 * send it waits for is one its successor has a receive posted for, so the
 * ring cannot deadlock. */
static int mca_coll_rsag_ring_pass(const char *input, char *work, char *out,
                                   const size_t *displ, struct ompi_datatype_t *dtype,
                                   struct ompi_op_t *op, int tag,
                                   struct ompi_communicator_t *comm)
{
    const bool reduce = (NULL != op);
    const int shift = reduce ? 2 : 1;
    const size_t W = MCA_COLL_RSAG_RING_SENDS;
    int rank = ompi_comm_rank(comm);
    int size = ompi_comm_size(comm);
    int succ = (rank + 1) % size, pred = (rank + size - 1) % size;
    size_t seg_bytes = mca_coll_rsag_component.ring_segment_size;
    size_t type_size, segcount, nrecv, nfirst, nsend, nslots;
    size_t processed = 0, sent = 0, retired = 0;
    struct ompi_request_t *rreq[MCA_COLL_RSAG_RING_SLOTS], *sreq[MCA_COLL_RSAG_RING_SENDS];
    mca_coll_rsag_ring_cursor_t post, cur, first, fwd;
    mca_coll_rsag_tmp_t slots = MCA_COLL_RSAG_TMP_INIT;
    ptrdiff_t lb, extent;
    int err = OMPI_SUCCESS;

    for (size_t j = 0; j < MCA_COLL_RSAG_RING_SLOTS; ++j) {
        rreq[j] = MPI_REQUEST_NULL;
    }
    for (size_t j = 0; j < W; ++j) {
        sreq[j] = MPI_REQUEST_NULL;
    }
    ompi_datatype_get_extent(dtype, &lb, &extent);
    ompi_datatype_type_size(dtype, &type_size);
    segcount = mca_coll_rsag_ring_segcount(seg_bytes, type_size,
                                           mca_coll_rsag_max_block(displ, size));

    /* What arrives from r - 1: p - 1 blocks; what leaves for r + 1: the
     * first block, then each block received but the last one. */
    nrecv = mca_coll_rsag_ring_nsegs(displ, size, rank, shift, size - 1, segcount);
    nfirst = mca_coll_rsag_ring_nsegs(displ, size, rank, shift - 1, 1, segcount);
    nsend = nfirst + mca_coll_rsag_ring_nsegs(displ, size, rank, shift, size - 2, segcount);
    nslots = (reduce && 0 == seg_bytes) ? MCA_COLL_RSAG_RING_BLOCK_SLOTS
                                        : MCA_COLL_RSAG_RING_SLOTS;
    nslots = (nrecv < nslots) ? nrecv : nslots;
    if (reduce) {
        err = mca_coll_rsag_tmp_alloc(&slots, nslots * segcount, dtype);
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }

    /* Post the first receives: one per slot. */
    mca_coll_rsag_ring_cursor_init(&post, displ, size, rank, shift, size - 1, segcount);
    for (size_t j = 0; j < nslots; ++j, mca_coll_rsag_ring_cursor_next(&post)) {
        char *dst = reduce ? mca_coll_rsag_elem(slots.buf, j * segcount, extent)
                           : mca_coll_rsag_elem(work, post.seg.off, extent);
        err = MCA_PML_CALL(irecv(dst, post.seg.cnt, dtype, pred, tag, comm, &rreq[j]));
        if (OMPI_SUCCESS != err) {
            goto cleanup;
        }
    }

    mca_coll_rsag_ring_cursor_init(&cur, displ, size, rank, shift, size - 1, segcount);
    mca_coll_rsag_ring_cursor_init(&first, displ, size, rank, shift - 1, 1, segcount);
    mca_coll_rsag_ring_cursor_init(&fwd, displ, size, rank, shift, size - 2, segcount);
    while (processed < nrecv || retired < nsend) {
        size_t j = (nslots > 0) ? processed % nslots : 0;

        /* Release the sends done, in order, and post what is ready. */
        while (retired < sent && REQUEST_COMPLETE(sreq[retired % W])) {
            err = ompi_request_wait(&sreq[retired % W], MPI_STATUS_IGNORE);
            ++retired;
            if (OMPI_SUCCESS != err) {
                goto cleanup;
            }
        }
        while (sent < nsend && sent - retired < W && (sent < nfirst || sent - nfirst < processed)) {
            mca_coll_rsag_ring_cursor_t *c = (sent < nfirst) ? &first : &fwd;
            const char *src = (sent < nfirst && reduce) ? input : work;

            err = MCA_PML_CALL(isend(mca_coll_rsag_elem(src, c->seg.off, extent), c->seg.cnt,
                                     dtype, succ, tag, MCA_PML_BASE_SEND_STANDARD, comm,
                                     &sreq[sent % W]));
            if (OMPI_SUCCESS != err) {
                goto cleanup;
            }
            ++sent;
            mca_coll_rsag_ring_cursor_next(c);
        }

        /* Nothing left to receive: finish the sends. */
        if (processed == nrecv) {
            err = ompi_request_wait(&sreq[retired % W], MPI_STATUS_IGNORE);
            ++retired;
            if (OMPI_SUCCESS != err) {
                goto cleanup;
            }
            continue;
        }

        /* Next receive not there yet: sleep until it or the oldest send
         * completes (wait_any frees what completed; mirror that). */
        if (MPI_REQUEST_NULL != rreq[j] && !REQUEST_COMPLETE(rreq[j])) {
            struct ompi_request_t *pending[2] = { rreq[j], MPI_REQUEST_NULL };
            int n = 1, idx = MPI_UNDEFINED;

            if (retired < sent) {
                pending[n++] = sreq[retired % W];
            }
            err = ompi_request_wait_any((size_t) n, pending, &idx, MPI_STATUS_IGNORE);
            if (0 == idx) {
                rreq[j] = MPI_REQUEST_NULL;
            } else if (1 == idx) {
                sreq[retired % W] = MPI_REQUEST_NULL;
                ++retired;
            }
            if (OMPI_SUCCESS != err) {
                goto cleanup;
            }
            continue;
        }
        if (MPI_REQUEST_NULL != rreq[j]) {
            err = ompi_request_wait(&rreq[j], MPI_STATUS_IGNORE);
            if (OMPI_SUCCESS != err) {
                goto cleanup;
            }
        }

        /* Segment `processed` is here: reduce it (the last step's into
         * out), and receive the one nslots ahead into the freed slot. */
        if (reduce) {
            char *slot = mca_coll_rsag_elem(slots.buf, j * segcount, extent);
            char *dst = (cur.step == size - 2)
                            ? mca_coll_rsag_elem(out, cur.seg.off - displ[rank], extent)
                            : mca_coll_rsag_elem(work, cur.seg.off, extent);
            mca_coll_rsag_reduce_into(op, dtype, cur.seg.cnt, slot,
                                      mca_coll_rsag_elem(input, cur.seg.off, extent), dst);
        }
        if (!mca_coll_rsag_ring_cursor_done(&post)) {
            char *dst = reduce ? mca_coll_rsag_elem(slots.buf, j * segcount, extent)
                               : mca_coll_rsag_elem(work, post.seg.off, extent);
            err = MCA_PML_CALL(irecv(dst, post.seg.cnt, dtype, pred, tag, comm, &rreq[j]));
            if (OMPI_SUCCESS != err) {
                goto cleanup;
            }
            mca_coll_rsag_ring_cursor_next(&post);
        }
        ++processed;
        mca_coll_rsag_ring_cursor_next(&cur);
    }

cleanup:
    if (OMPI_SUCCESS != err) {
        mca_coll_rsag_requests_drop(rreq, MCA_COLL_RSAG_RING_SLOTS, true);
        mca_coll_rsag_requests_drop(sreq, W, false);
    }
    mca_coll_rsag_tmp_free(&slots);
    return err;
}

int mca_coll_rsag_ring_rs(const char *input, char *work, char *out, const size_t *displ,
                          struct ompi_datatype_t *dtype, struct ompi_op_t *op, int tag,
                          struct ompi_communicator_t *comm)
{
    int rank = ompi_comm_rank(comm);
    ptrdiff_t lb, extent;

    if (1 == ompi_comm_size(comm)) {
        ompi_datatype_get_extent(dtype, &lb, &extent);
        return mca_coll_rsag_copy(dtype, displ[1] - displ[0], out,
                                  mca_coll_rsag_elem(input, displ[rank], extent));
    }
    return mca_coll_rsag_ring_pass(input, work, out, displ, dtype, op, tag, comm);
}

int mca_coll_rsag_ring_allgather(char *buf, const size_t *displ, struct ompi_datatype_t *dtype,
                                 int tag, struct ompi_communicator_t *comm)
{
    if (1 == ompi_comm_size(comm)) {
        return OMPI_SUCCESS;
    }
    return mca_coll_rsag_ring_pass(NULL, buf, NULL, displ, dtype, NULL, tag, comm);
}

int mca_coll_rsag_reduce_scatter_ring(const void *sbuf, void *rbuf, const size_t *displ,
                                      struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                      struct ompi_communicator_t *comm,
                                      mca_coll_rsag_module_t *module)
{
    const int tag = MCA_COLL_BASE_TAG_REDUCE_SCATTER;
    int rank = ompi_comm_rank(comm);
    int size = ompi_comm_size(comm);
    bool in_place = (MPI_IN_PLACE == sbuf);
    const char *input = in_place ? (const char *) rbuf : (const char *) sbuf;
    mca_coll_rsag_range_t mine = mca_coll_rsag_block(displ, rank);
    mca_coll_rsag_tmp_t work = MCA_COLL_RSAG_TMP_INIT;
    size_t n = displ[size];
    ptrdiff_t lb, extent;
    char *out = rbuf;
    int err = OMPI_SUCCESS;

    ompi_datatype_get_extent(dtype, &lb, &extent);
    if (1 == size) {
        err = mca_coll_rsag_copy(dtype, n, rbuf, input);
        goto cleanup;
    }
    if (0 == n) {
        goto cleanup;
    }
    err = mca_coll_rsag_tmp_alloc(&work, n, dtype);
    if (OMPI_SUCCESS != err) {
        goto cleanup;
    }
    /* In place, the start of rbuf holds input blocks that are still being
     * read and sent: block r is reduced in the work vector, copied at the
     * end. */
    if (in_place) {
        out = mca_coll_rsag_elem(work.buf, mine.off, extent);
    }
    err = mca_coll_rsag_ring_rs(input, work.buf, out, displ, dtype, op, tag, comm);
    if (OMPI_SUCCESS == err && in_place) {
        err = mca_coll_rsag_copy(dtype, mine.cnt, rbuf, out);
    }

cleanup:
    mca_coll_rsag_tmp_free(&work);
    return err;
}
