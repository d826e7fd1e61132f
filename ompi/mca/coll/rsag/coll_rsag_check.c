/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * coll_rsag_check_args: compare a blocking reduction's arguments across the
 * ranks before running it (see coll_rsag_check.h).
 *
 * MPI requires count, datatype, op, root (and for MPI_Allreduce and the
 * reduce-scatters, MPI_IN_PLACE on all ranks or none) to be the same on
 * every rank; an erroneous program that breaks this may make a rank wait
 * forever (a root that differs: every reduction library hangs there, Open
 * MPI's tuned too), get MPI_ERR_TRUNCATE on some ranks, or a wrong result.
 * So do rsag's settings: a coll_rsag_<coll>_algorithm that differs between
 * ranks sends different messages.  With the check on, every rank first
 * contributes one vector of these values to one MPI_LONG allreduce with
 * MPI_MAX of (v, -v), through the module rsag replaced (the call uses no
 * algorithm of rsag's and cannot mismatch); every rank then sees the same
 * minimum and maximum of each value and returns the same error, so no rank
 * is left waiting.  Nonblocking and persistent calls are not checked: a
 * blocking exchange inside MPI_Iallreduce could deadlock a correct program.
 *
 * Without the check, the settings alone (the forced algorithm, the
 * thresholds of the collective, direct's fan-in and copy mode,
 * hierarchical's chunk, Open MPI's yield when idle, which picks the
 * oversubscribed column, and coll_rsag_reproducible) are compared the same way once per
 * communicator and collective, at its first blocking call: a parameter set
 * differently on some ranks (a tuning file read on some nodes only) then
 * stops the job with one line from rank 0 instead of sending different
 * messages.  That costs one small allreduce per communicator and collective.
 */
#include "ompi_config.h"

#include <stdint.h>
#include <string.h>

#include "mpi.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/util/output.h"
#include "ompi/communicator/communicator.h"
#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

#include "coll_rsag_check.h"
#include "coll_rsag_reproducible.h"
#include "coll_rsag_segment.h"

bool mca_coll_rsag_check_args = false;

void mca_coll_rsag_check_register(const mca_base_component_t *c)
{
    mca_coll_rsag_check_args = false;
    (void) mca_base_component_var_register(
        c, "check_args",
        "Before each blocking MPI_Allreduce, MPI_Reduce, MPI_Reduce_scatter_block and "
        "MPI_Reduce_scatter, check that every rank passed the same count, datatype size and "
        "extent, op, root, use of MPI_IN_PLACE and rsag settings for the collective (one "
        "small allreduce per call); an erroneous call then returns the same error on every "
        "rank (MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_OP, MPI_ERR_ROOT, MPI_ERR_BUFFER or "
        "MPI_ERR_ARG) instead of hanging or computing garbage. For debugging; default false",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_5,
        MCA_BASE_VAR_SCOPE_ALL_EQ, &mca_coll_rsag_check_args);
}

/* The values compared, in the order their errors are reported. */
enum {
    MCA_COLL_RSAG_CHK_COLL,
    MCA_COLL_RSAG_CHK_COUNT,
    MCA_COLL_RSAG_CHK_RCOUNTS,
    MCA_COLL_RSAG_CHK_TYPE,
    MCA_COLL_RSAG_CHK_TYPE_SIZE,
    MCA_COLL_RSAG_CHK_EXTENT,
    MCA_COLL_RSAG_CHK_OP,
    MCA_COLL_RSAG_CHK_ROOT,
    MCA_COLL_RSAG_CHK_IN_PLACE,
    MCA_COLL_RSAG_CHK_FORCED,
    MCA_COLL_RSAG_CHK_THRESHOLDS,
    MCA_COLL_RSAG_CHK_REPRODUCIBLE,
    MCA_COLL_RSAG_CHK_N
};

static const struct {
    const char *what;
    int err;
} mca_coll_rsag_chk[MCA_COLL_RSAG_CHK_N] = {
    { "the collective", MPI_ERR_ARG },
    { "the count", MPI_ERR_COUNT },
    { "the receive counts", MPI_ERR_COUNT },
    { "the predefined datatype", MPI_ERR_TYPE },
    { "the datatype's size", MPI_ERR_TYPE },
    { "the datatype's extent", MPI_ERR_TYPE },
    { "the op", MPI_ERR_OP },
    { "the root", MPI_ERR_ROOT },
    { "MPI_IN_PLACE (all ranks or none)", MPI_ERR_BUFFER },
    { "coll_rsag algorithm setting", MPI_ERR_ARG },
    { "coll_rsag threshold settings", MPI_ERR_ARG },
    { "coll_rsag_reproducible", MPI_ERR_ARG },
};

/* FNV-1a over n longs, folded to a non-negative long. */
static long mca_coll_rsag_check_hash(const long *v, size_t n)
{
    uint64_t h = 1469598103934665603ULL;

    for (size_t i = 0; i < n; ++i) {
        uint64_t x = (uint64_t) v[i];
        for (int b = 0; b < 8; ++b) {
            h = (h ^ ((x >> (8 * b)) & 0xffu)) * 1099511628211ULL;
        }
    }
    return (long) (h >> 1);
}

/* The call's own arguments into v (the values between COUNT and FORCED). */
static void mca_coll_rsag_check_arguments(long *v, mca_coll_rsag_coll_t coll, const void *sbuf,
                                          size_t count, const int *rcounts,
                                          struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                          int root, int p)
{
    ptrdiff_t lb, extent;
    size_t type_size;

    ompi_datatype_type_size(dtype, &type_size);
    ompi_datatype_get_extent(dtype, &lb, &extent);
    v[MCA_COLL_RSAG_CHK_COUNT] = (long) count;
    if (NULL != rcounts) {
        long rc[65], h = 0;
        /* hash the counts in pieces of 64 */
        for (int i = 0; i < p; i += 64) {
            int n = (p - i < 64) ? p - i : 64;
            for (int k = 0; k < n; ++k) {
                rc[k] = rcounts[i + k];
            }
            rc[n] = h;
            h = mca_coll_rsag_check_hash(rc, (size_t) n + 1);
        }
        v[MCA_COLL_RSAG_CHK_RCOUNTS] = h;
    }
    /* a predefined datatype by its id; derived ones by size and extent */
    v[MCA_COLL_RSAG_CHK_TYPE] = ompi_datatype_is_predefined(dtype) ? (long) dtype->id : -1L;
    v[MCA_COLL_RSAG_CHK_TYPE_SIZE] = (long) type_size;
    v[MCA_COLL_RSAG_CHK_EXTENT] = (long) extent;
    /* a predefined op by its index; user ops by their commutativity (their
     * handles are each process's own) */
    v[MCA_COLL_RSAG_CHK_OP] = ompi_op_is_intrinsic(op) ? (long) op->o_f_to_c_index
                                                       : -1L - (long) ompi_op_is_commute(op);
    v[MCA_COLL_RSAG_CHK_ROOT] = root;
    v[MCA_COLL_RSAG_CHK_IN_PLACE] = (MCA_COLL_RSAG_REDUCE != coll && MPI_IN_PLACE == sbuf);
}

int mca_coll_rsag_check_call_slow(mca_coll_rsag_module_t *m, mca_coll_rsag_coll_t coll,
                                  const void *sbuf, size_t count, const int *rcounts,
                                  struct ompi_datatype_t *dtype, struct ompi_op_t *op, int root,
                                  struct ompi_communicator_t *comm, bool settings_only)
{
    const mca_coll_rsag_tuning_t *tuning = &mca_coll_rsag_component.tuning[coll];
    long v[2 * MCA_COLL_RSAG_CHK_N], all[2 * MCA_COLL_RSAG_CHK_N];
    long shape[6];
    int p = ompi_comm_size(comm), err;
    bool in_setup;

    if (NULL == m->previous.allreduce) {
        return OMPI_SUCCESS;        /* nothing to compare with that cannot mismatch */
    }
    memset(v, 0, sizeof(v));
    v[MCA_COLL_RSAG_CHK_COLL] = (long) coll;
    if (!settings_only) {
        /* the call's arguments too (the comparison of the settings alone leaves
         * them to the program) */
        mca_coll_rsag_check_arguments(v, coll, sbuf, count, rcounts, dtype, op, root, p);
    }
    v[MCA_COLL_RSAG_CHK_FORCED] = tuning->forced;
    /* the thresholds, how direct reduces a box (flat or the tree's fan-in:
     * ranks that differ would wait for each other's boxes forever),
     * hierarchical's chunk size (ranks that cut a call into a different
     * number of lanes would never match their messages), how direct copies
     * (by CMA or through the segment, fixed or learned: both ends of a copy
     * must take the same way), and whether the node is taken as
     * oversubscribed (its own column of thresholds) */
    shape[0] = mca_coll_rsag_check_hash(
        tuning->min_bytes, sizeof(tuning->min_bytes) / sizeof(tuning->min_bytes[0]))
        ^ mca_coll_rsag_check_hash(tuning->max_bytes,
                                   sizeof(tuning->max_bytes) / sizeof(tuning->max_bytes[0]));
    shape[1] = mca_coll_rsag_node_params.fanin;
    shape[2] = (long) mca_coll_rsag_component.hier_chunk_size;
    shape[3] = mca_coll_rsag_node_params.single_copy;
    shape[4] = (long) mca_coll_rsag_node_params.cma_min_bytes;
    shape[5] = mca_coll_rsag_node_oversubscribed();
    v[MCA_COLL_RSAG_CHK_THRESHOLDS] =
        mca_coll_rsag_check_hash(shape, sizeof(shape) / sizeof(shape[0]));
    /* ranks in different modes would run different algorithms */
    v[MCA_COLL_RSAG_CHK_REPRODUCIBLE] = mca_coll_rsag_reproducible;
    for (int i = 0; i < MCA_COLL_RSAG_CHK_N; ++i) {
        v[MCA_COLL_RSAG_CHK_N + i] = -v[i];
    }
    /* The previous module's allreduce may call back into the communicator's
     * slots (coll/basic's is a reduce and a bcast through c_coll): while it
     * runs, rsag's slots on this communicator hand every call on, so none
     * of rsag's algorithms (chosen by settings not yet compared) runs. */
    in_setup = m->in_setup;
    m->in_setup = true;
    err = m->previous.allreduce(v, all, 2 * MCA_COLL_RSAG_CHK_N, &ompi_mpi_long.dt,
                                &ompi_mpi_op_max.op, comm, m->previous.allreduce_module);
    m->in_setup = in_setup;
    if (OMPI_SUCCESS != err) {
        return err;
    }
    for (int i = 0; i < MCA_COLL_RSAG_CHK_N; ++i) {
        long hi = all[i], lo = -all[MCA_COLL_RSAG_CHK_N + i];
        if (hi != lo) {
            if (0 == ompi_comm_rank(comm)) {
                opal_output(0, "coll:rsag: %s: %s on %s (cid %d): %s differs "
                               "between ranks (from %ld to %ld): %s",
                            settings_only ? "settings check" : "coll_rsag_check_args",
                            mca_coll_rsag_colls[coll].mpi_name, comm->c_name,
                            MCA_COLL_RSAG_COMM_CID(comm), mca_coll_rsag_chk[i].what, lo, hi,
                            MPI_ERR_ROOT == mca_coll_rsag_chk[i].err    ? "MPI_ERR_ROOT"
                            : MPI_ERR_COUNT == mca_coll_rsag_chk[i].err ? "MPI_ERR_COUNT"
                            : MPI_ERR_TYPE == mca_coll_rsag_chk[i].err  ? "MPI_ERR_TYPE"
                            : MPI_ERR_OP == mca_coll_rsag_chk[i].err    ? "MPI_ERR_OP"
                            : MPI_ERR_BUFFER == mca_coll_rsag_chk[i].err ? "MPI_ERR_BUFFER"
                                                                          : "MPI_ERR_ARG");
            }
            return mca_coll_rsag_chk[i].err;
        }
    }
    return OMPI_SUCCESS;
}
