# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# matrix.sh: the correctness matrix (test/mpi/rsag_check.c) over the default
# transport (ob1 + vader, see transports.sh): every algorithm of every
# collective switched through MPI_T inside one job per process count, then
# each algorithm forced the way users force it (--mca), and the ring and
# priority schedules with unusual segment and chunk settings.

# --- every algorithm (switched through MPI_T), np 1-9, 12, 16 ---------------
# np 1: coll/self (priority 75) owns size-1 communicators unless left out.
run_test matrix-np1 "${mpirun_cmd[@]}" --mca coll rsag,basic,libnbc -np 1 "$check"
for np in 2 3 4 5 6 7 8 9 12 16; do
    run_test "matrix-np$np" "${mpirun_cmd[@]}" -np "$np" "$check"
done

# --- every algorithm forced the way users force it: --mca -------------------
for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
    for alg in $(enum_values "$coll"); do
        run_test "matrix-mca-forced-$coll-$alg-np5" "${mpirun_cmd[@]}" \
            --mca "coll_rsag_${coll}_algorithm" "$alg" -np 5 "$check" \
            --algorithms current --coll "$coll" --quick
    done
done

# --- the ring pipeline with tiny chunks: thousands of messages per block ----
run_test matrix-ring-small-chunks-np5 "${mpirun_cmd[@]}" \
    --mca coll_rsag_allreduce_ring_chunk_size 256 \
    --mca coll_rsag_reduce_scatter_ring_chunk_size 256 -np 5 "$check" \
    --coll allreduce,reduce_scatter_block,reduce_scatter
expect_in_log 'forced allreduce=ring: [0-9]+ cases, 0 failed'
expect_in_log 'forced reduce_scatter=ring: [0-9]+ cases, 0 failed'

# --- the priority-aware pattern with runs of 2 vblocks ------------------------
run_test matrix-priority-aware-runs2-np6 "${mpirun_cmd[@]}" \
    --mca coll_rsag_priority_aware_run_blocks 2 -np 6 "$check" --quick \
    --coll allreduce,reduce_scatter_block,reduce_scatter
expect_in_log 'forced reduce_scatter=priority_aware: [0-9]+ cases, 0 failed'
