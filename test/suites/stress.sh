# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# Randomized stress: test/mpi/rsag_stress.c draws
# collective, type, op, count, root, in-place, algorithm (through MPI_T) and
# communicator (world, dup, split halves, a scrambled subset) per call and
# verifies every result.  np 2..8, RSAG_STRESS_CALLS calls each (default
# 2000: 14 000 in all, under a minute on 2 cores).  The seed is drawn from
# the clock and printed in the log; RSAG_STRESS_SEED=S replays a run.
stress_calls=${RSAG_STRESS_CALLS:-2000}
stress_seed=()
[ -n "${RSAG_STRESS_SEED:-}" ] && stress_seed=(--seed "$RSAG_STRESS_SEED")
for np in 2 3 4 5 6 7 8; do
    run_test "stress-random-np$np" "${mpirun_cmd[@]}" -np "$np" "$here/mpi/rsag_stress" \
        --calls "$stress_calls" --timeout 200 "${stress_seed[@]}"
    expect_in_log "rsag_stress: np=$np seed=[0-9]+ calls=$stress_calls checked=[1-9][0-9]* failed=0"
done
