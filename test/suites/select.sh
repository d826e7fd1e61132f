# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# Thresholds by communicator-size class, their overrides, and the verbose
# decision trace.  Sourced by run_tests.sh.

hostile="$here/mpi/rsag_hostile"

# ompi_info shows every threshold's per-class defaults and the class bounds.
run_test select-ompi_info-class-defaults ompi_info --param coll rsag --level 9
expect_in_log 'coll_rsag_allreduce_rabenseifner_min_bytes" \(current value: "-1".*type: long'
expect_in_log '-1: the default of the communicator.s size class \(coll_rsag_comm_class_\*_max_size\): p <= 2: 1023, p <= 4: off, p > 4: 65536, several nodes: 131072 bytes; N >= 0: N for every communicator size'
expect_in_log 'p <= 2: off, p <= 4: 4096, p > 4: 16384, several nodes: 1048576 bytes'
expect_in_log 'coll_rsag_comm_class_0_max_size" \(current value: "2"'
expect_in_log 'coll_rsag_comm_class_1_max_size" \(current value: "4"'

# Class bounds as MCA parameters change the class help text and the trace.
run_test select-ompi_info-class-bounds-set env OMPI_MCA_coll_rsag_comm_class_0_max_size=3 \
    OMPI_MCA_coll_rsag_comm_class_1_max_size=8 ompi_info --param coll rsag --level 9
expect_in_log 'p <= 3: 1023, p <= 8: off, p > 8: 65536, several nodes: 131072 bytes'

# The trace: comm, comm size, bytes, algorithm, and the threshold that
# decided with its size class; each class decides differently (the demo's
# 80000 and 8000000-byte allreduces).
for np in 2 3 5; do
    case $np in
        2) range='p <= 2' decides='80000 bytes .* -> direct \(auto\); coll_rsag_allreduce_direct_min_bytes 1024' ;;
        3) range='p <= 4' decides='8000000 bytes .* -> ring \(auto\); coll_rsag_allreduce_ring_min_bytes 4096' ;;
        *) range='p > 4' decides='80000 bytes .* -> rabenseifner \(auto\); coll_rsag_allreduce_rabenseifner_min_bytes 65536' ;;
    esac
    run_test "select-verbose-threshold-np$np" "${mpirun_cmd[@]}" --mca coll_rsag_verbose 1 \
        -np "$np" "$demo"
    expect_in_log "allreduce on MPI_COMM_WORLD \(cid 0, size $np\): $decides <= bytes \(default for $range\)"
    expect_in_log "reduce on MPI_COMM_WORLD \(cid 0, size $np\): 8 bytes .* -> binomial \(auto\); coll_rsag_reduce_binomial_min_bytes 0 <= bytes \(default for $range\)"
    expect_in_log 'results correct'
done

run_test select-class-bounds-mca-np3 "${mpirun_cmd[@]}" --mca coll_rsag_verbose 1 \
    --mca coll_rsag_comm_class_0_max_size 3 --mca coll_rsag_comm_class_1_max_size 8 \
    -np 3 "$demo"
expect_in_log 'allreduce on .*: 80000 bytes .* -> direct \(auto\); .* \(default for p <= 3\)'
expect_in_log 'results correct'

# CONTRACT with the tuner: a scalar min_bytes in a parameter file applies
# to every communicator size (one class each: np 2, 3, 5); no class default
# lies between 70000 and 80000 bytes, so the ring takes the 80000-byte call
# everywhere.
tunefile="$results/select-tuned.conf"
printf '# as a tuner writes it\ncoll_rsag_allreduce_ring_min_bytes = 70000\ncoll_rsag_verbose = 1\n' \
    >"$tunefile"
for np in 2 3 5; do
    run_test "select-param-file-threshold-every-size-np$np" \
        env OMPI_MCA_mca_param_files="$tunefile" "${mpirun_cmd[@]}" -np "$np" "$demo"
    expect_in_log "allreduce on MPI_COMM_WORLD \(cid 0, size $np\): 80000 bytes .* -> ring \(auto\); coll_rsag_allreduce_ring_min_bytes 70000 <= bytes \(set for every size"
    expect_in_log 'allreduce on .*: 800 bytes .* -> recursive_doubling \(auto\)'
    expect_in_log 'results correct'
done

# Once per communicator, collective, decision and message size class: the
# program's 4-byte checking Allreduce runs 80 times, one line in auto.
run_test select-verbose-once-per-size-class-np3 "${mpirun_cmd[@]}" --mca coll_rsag_verbose 1 \
    -np 3 "$hostile"
expect_count 1 'allreduce on MPI_COMM_WORLD .*: 4 bytes .* -> recursive_doubling \(auto\)'
expect_count 1 'reduce_scatter_block on MPI_COMM_WORLD .*: 12 bytes .* -> ring \(forced\)'
expect_in_log 'rsag_hostile: np=3 [0-9]+ cases, 0 failed'
