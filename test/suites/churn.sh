# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# churn.sh: communicator churn with bounded memory.  Sourced by test/run_tests.sh.
#
# 10 000 cycles of MPI_Comm_dup or MPI_Comm_split, MPI_Allreduce and MPI_Reduce
# on the new communicator, MPI_Comm_free: each communicator gets an rsag
# module, which must be released with it.  After 200 warm-up cycles the
# resident memory of no rank may grow by more than 512 KiB (a leak of about
# 50 bytes per communicator fails), and rsag must have done the reductions.
# A few seconds per job.
for np in 2 4; do
    run_test "churn-10000-comms-np$np" "${mpirun_cmd[@]}" -np "$np" \
        "$here/mpi/rsag_lifecycle" --cycles 10000 --rss-bound 512
    expect_in_log 'rsag_lifecycle: churn PASS: 10000 dup/split\+reduce\+free cycles'
done
