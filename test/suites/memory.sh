# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# memory.sh: temporary memory (test/mpi/rsag_memory.c): the priority-aware
# reduce-scatter's peak temporary memory (MPI_T coll_rsag_temporary_bytes) is
# never above recursive halving's, for both reduce-scatter collectives,
# irregular counts and in place.
for np in 4 6 8; do
    run_test "memory-priority-aware-vs-halving-np$np" "${mpirun_cmd[@]}" -np "$np" \
        "$here/mpi/rsag_memory"
    expect_in_log 'rsag_memory: np=[0-9]+ cases=[0-9]+ passed=[0-9]+ failed=0'
done
