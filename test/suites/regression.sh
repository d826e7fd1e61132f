# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# Regression tests for bugs other MPI libraries shipped in their reduction
# collectives, one named test per bug and process count.
# The program is test/mpi/rsag_regress.c (one subcommand per bug; it forces
# each algorithm through MPI_T and proves with rsag's counters which ran).
#   regression-big-*  counts summing past INT_MAX bytes: opt-in, two np-2
#                     runs of about a minute, peak 4.2 GB (auto: priority)
#                     and 3.2 GB (ring) per rank:
#                     RSAG_TEST_BIG=1 test/run_tests.sh -k big
regress="$here/mpi/rsag_regress"

# Open MPI #1764: in-place Allreduce, datatype lower bound != 0.
for np in 3 4 6; do
    run_test "regression-lb-inplace-allreduce-np$np" "${mpirun_cmd[@]}" -np "$np" \
        "$regress" lb-inplace
    expect_in_log 'rsag_regress lb-inplace: np=[0-9]+ cases=[1-9][0-9]* failed=0'
done

# MPICH #6540: in-place Reduce with root != 0 on the Rabenseifner path.
for np in 3 4 6 7; do
    run_test "regression-reduce-inplace-root-rabenseifner-np$np" "${mpirun_cmd[@]}" \
        -np "$np" "$regress" reduce-root
    expect_in_log 'rsag_regress reduce-root: np=[0-9]+ cases=[1-9][0-9]* failed=0'
done

# Open MPI #12550: count < p' stays on a logarithmic algorithm.
for np in 5 8; do
    run_test "regression-small-count-logarithmic-np$np" "${mpirun_cmd[@]}" -np "$np" \
        "$regress" small-count
    expect_in_log 'rsag_regress small-count: np=[0-9]+ cases=[1-9][0-9]* failed=0'
done

# Open MPI #8010, #5151: strided types, non-commutative op, every
# reduce-scatter path (non-commutative reduce-scatters are delegated).
for np in 3 4 6; do
    run_test "regression-noncommutative-strided-np$np" "${mpirun_cmd[@]}" -np "$np" \
        "$regress" noncomm-strided
    expect_in_log 'rsag_regress noncomm-strided: np=[0-9]+ cases=[1-9][0-9]* failed=0'
done

# Open MPI #11721: bit-identical floating-point Allreduce results on all ranks.
for np in 3 4 6; do
    run_test "regression-fp-identical-allreduce-np$np" "${mpirun_cmd[@]}" -np "$np" \
        "$regress" fp-identical
    expect_in_log 'rsag_regress fp-identical: np=[0-9]+ cases=[1-9][0-9]* failed=0'
done
# ... and the comparison does notice one differing bit on one rank.
run_test regression-fp-identical-detects-difference-np3 exits_nonzero \
    "${mpirun_cmd[@]}" -np 3 "$regress" fp-identical --perturb 2
expect_in_log "rank 2's element 0 differs from rank 0's"

# Open MPI #9616: Reduce_scatter whose counts sum past INT_MAX bytes.
if [ "${RSAG_TEST_BIG:-0}" = 1 ]; then
    # auto picks the priority algorithm at this size; the ring needs least memory
    run_test regression-big-reduce-scatter-np2 "${mpirun_cmd[@]}" -np 2 "$regress" big --verbose
    expect_in_log 'rsag_regress big: np=2 cases=1 failed=0'
    run_test regression-big-reduce-scatter-ring-np2 "${mpirun_cmd[@]}" -np 2 "$regress" big \
        --alg ring --verbose
    expect_in_log 'in place: ring ran'
    expect_in_log 'rsag_regress big: np=2 cases=1 failed=0'
fi
