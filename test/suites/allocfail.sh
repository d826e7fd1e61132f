# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# Allocation failure: coll_rsag_test_alloc_fail makes the k-th
# memory request of rsag fail on every rank, for every request of every
# collective and algorithm, in place and not.  Each call must return
# MPI_ERR_NO_MEM under MPI_ERRORS_RETURN, free what it took (MPI_T
# coll_rsag_allocations_live unchanged), not hang (the mpirun timeout), and
# leave the communicator usable (the same call right after is right).
# np 5 and 6 fold (p not a power of two), np 4 does not.
for np in 4 5 6; do
    run_test "allocfail-every-request-np$np" "${mpirun_cmd[@]}" -np "$np" \
        "$here/mpi/rsag_alloc" --fail
    expect_in_log 'rsag_alloc: np=[0-9]+ cases=[0-9]+ failed=0'
    expect_not_in_log 'requests 0\.\.0'
done
