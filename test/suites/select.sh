# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# Thresholds by communicator-size class, their overrides, and the verbose
# decision trace.  Sourced by run_tests.sh.

hostile="$here/mpi/rsag_hostile"

# ompi_info shows every threshold's per-class defaults and the class bounds.
run_test select-ompi_info-class-defaults ompi_info --param coll rsag --level 9
expect_in_log 'coll_rsag_allreduce_rabenseifner_min_bytes" \(current value: "-1".*type: long'
expect_in_log '-1: the default of the communicator.s size class \(coll_rsag_comm_class_\*_max_size\): p <= 2: 1, p <= 4: off, p > 4: 4096, several nodes: off, oversubscribed node: off bytes; N >= 0: N for every communicator size'
expect_in_log 'p <= 2: 1, p <= 4: 8, p > 4: 8192, several nodes: off, oversubscribed node: 1 bytes'
expect_in_log 'coll_rsag_comm_class_0_max_size" \(current value: "2"'
expect_in_log 'coll_rsag_comm_class_1_max_size" \(current value: "4"'

# Class bounds as MCA parameters change the class help text and the trace.
run_test select-ompi_info-class-bounds-set env OMPI_MCA_coll_rsag_comm_class_0_max_size=3 \
    OMPI_MCA_coll_rsag_comm_class_1_max_size=8 ompi_info --param coll rsag --level 9
expect_in_log 'p <= 3: 1, p <= 8: off, p > 8: 4096, several nodes: off, oversubscribed node: off bytes'

# The trace: comm, comm size, bytes, algorithm, and the threshold that
# decided with its size class; each class decides differently (the demo's
# 80000 and 8000000-byte allreduces).  np 3 and 5 on this machine's 2 cores
# are an oversubscribed node, which has a class of its own (below): these
# tests of the size classes turn it off, as on a node with a core per rank.
sizeclass=(--mca coll_rsag_oversubscribed_defaults 0)
for np in 2 3 5; do
    case $np in
        2) range='p <= 2' decides='80000 bytes .* -> direct \(auto\); coll_rsag_allreduce_direct_min_bytes 1' small=direct ;;
        3) range='p <= 4' decides='8000000 bytes .* -> direct \(auto\); coll_rsag_allreduce_direct_min_bytes 8' small=direct ;;
        *) range='p > 4' decides='80000 bytes .* -> direct \(auto\); coll_rsag_allreduce_direct_min_bytes 8192' small=binomial ;;
    esac
    run_test "select-verbose-threshold-np$np" "${mpirun_cmd[@]}" --mca coll_rsag_verbose 1 \
        "${sizeclass[@]}" -np "$np" "$demo"
    expect_in_log "allreduce on MPI_COMM_WORLD \(cid 0, size $np\): $decides <= bytes \(default for $range\)"
    expect_in_log "reduce on MPI_COMM_WORLD \(cid 0, size $np\): 8 bytes .* -> $small \(auto\); coll_rsag_reduce_${small}_min_bytes [018] <= bytes \(default for $range\)"
    expect_in_log 'results correct'
done

run_test select-class-bounds-mca-np3 "${mpirun_cmd[@]}" --mca coll_rsag_verbose 1 \
    "${sizeclass[@]}" --mca coll_rsag_comm_class_0_max_size 3 \
    --mca coll_rsag_comm_class_1_max_size 8 -np 3 "$demo"
expect_in_log 'allreduce on .*: 80000 bytes .* -> direct \(auto\); .* \(default for p <= 3\)'
expect_in_log 'results correct'

# The oversubscribed node (np 3 and 5 on 2 cores: Open MPI yields when
# idle) takes its own column, whatever the communicator's size: `direct`
# from 1 byte, so the 8-byte MPI_Reduce that the size class "p > 4" gives
# to the binomial tree (select-verbose-threshold-np5) goes to `direct`,
# results correct; the settings check passes (every rank sees the node
# alike).  Without the yield (mpi_yield_when_idle 0) the same job takes
# its size class again, so the trace line can tell the two apart.
for np in 3 5; do
    run_test "select-oversubscribed-class-np$np" "${mpirun_cmd[@]}" --mca coll_rsag_verbose 1 \
        -np "$np" "$demo"
    expect_in_log "reduce on MPI_COMM_WORLD \(cid 0, size $np\): 8 bytes .* -> direct \(auto\); coll_rsag_reduce_direct_min_bytes 1 <= bytes \(default for oversubscribed node\)"
    expect_in_log "allreduce on MPI_COMM_WORLD \(cid 0, size $np\): 80000 bytes .* -> direct \(auto\); .*\(default for oversubscribed node\)"
    expect_not_in_log 'default for p [<>]'
    expect_in_log 'results correct'
done
run_test select-oversubscribed-yield-off-np5 "${mpirun_cmd[@]}" --mca coll_rsag_verbose 1 \
    --mca mpi_yield_when_idle 0 -np 5 "$demo"
expect_in_log 'reduce on MPI_COMM_WORLD \(cid 0, size 5\): 8 bytes .* -> binomial \(auto\); .*\(default for p > 4\)'
expect_not_in_log 'default for oversubscribed node'
expect_in_log 'results correct'

# CONTRACT with the tuner: a scalar min_bytes in a parameter file applies
# to every communicator size (one class each: np 2, 3, 5); no class default
# lies between 70000 and 80000 bytes, so the ring takes the 80000-byte call
# everywhere.
tunefile="$results/select-tuned.conf"
printf '# as a tuner writes it\ncoll_rsag_allreduce_ring_min_bytes = 70000\ncoll_rsag_verbose = 1\ncoll_rsag_oversubscribed_defaults = 0\n' \
    >"$tunefile"
for np in 2 3 5; do
    run_test "select-param-file-threshold-every-size-np$np" \
        env OMPI_MCA_mca_param_files="$tunefile" "${mpirun_cmd[@]}" -np "$np" "$demo"
    expect_in_log "allreduce on MPI_COMM_WORLD \(cid 0, size $np\): 80000 bytes .* -> ring \(auto\); coll_rsag_allreduce_ring_min_bytes 70000 <= bytes \(set for every size"
    # (p <= 2 on one node: direct from 1 B, measured; p <= 4: from 8 B,
    # the cost model's default)
    if [ "$np" -le 3 ]; then
        expect_in_log 'allreduce on .*: 800 bytes .* -> direct \(auto\)'
    else
        expect_in_log 'allreduce on .*: 800 bytes .* -> recursive_doubling \(auto\)'
    fi
    expect_in_log 'results correct'
done

# Once per communicator, collective, decision and message size class: the
# program's 4-byte checking Allreduce runs 80 times, one line in auto.
run_test select-verbose-once-per-size-class-np3 "${mpirun_cmd[@]}" --mca coll_rsag_verbose 1 \
    "${sizeclass[@]}" -np 3 "$hostile"
expect_count 1 'allreduce on MPI_COMM_WORLD .*: 4 bytes .* -> recursive_doubling \(auto\)'
expect_count 1 'reduce_scatter_block on MPI_COMM_WORLD .*: 12 bytes .* -> ring \(forced\)'
expect_in_log 'rsag_hostile: np=3 [0-9]+ cases, 0 failed'

# ============================================================================
# Former parameter names (deprecated synonyms) and the former algorithm name
# `priority`: ompi_info marks them, a parameter file using them still
# changes what rsag does, and Open MPI warns once per job, not once per rank.
# ============================================================================
run_test select-former-names-deprecated ompi_info --param coll rsag --level 9 --parsable
for old_new in allreduce_priority_min_bytes:allreduce_priority_aware_min_bytes \
    reduce_scatter_priority_min_bytes:reduce_scatter_priority_aware_min_bytes \
    reduce_scatter_block_priority_min_bytes:reduce_scatter_block_priority_aware_min_bytes \
    priority_chunks:priority_aware_run_blocks \
    allreduce_ring_segment_size:allreduce_ring_chunk_size; do
    expect_in_log "^mca:coll:rsag:param:coll_rsag_${old_new%%:*}:deprecated:yes$"
    expect_in_log "^mca:coll:rsag:param:coll_rsag_${old_new%%:*}:synonym_of:name:coll_rsag_${old_new#*:}$"
done
expect_in_log '^mca:coll:rsag:param:coll_rsag_priority_aware_run_blocks:deprecated:no$'
expect_in_log '^mca:coll:rsag:param:coll_rsag_reduce_scatter_ring_chunk_size:deprecated:no$'
# the former enum value: listed after the current names, same value
expect_in_log '^mca:coll:rsag:param:coll_rsag_allreduce_algorithm:enumerator:value:4:priority$'
expect_in_log '^mca:coll:rsag:param:coll_rsag_reduce_scatter_algorithm:enumerator:value:3:priority$'
expect_count 1 '^mca:coll:rsag:param:coll_rsag_allreduce_algorithm:enumerator:value:4:priority_aware$'

formerconf="$results/select-former-names.conf"
printf '%s\n' '# rsag parameters under their former names' \
    'coll_rsag_allreduce_priority_min_bytes = 5000' \
    'coll_rsag_reduce_scatter_block_algorithm = priority' \
    'coll_rsag_allreduce_ring_segment_size = 4096' \
    'coll_rsag_priority_chunks = 2' >"$formerconf"

# The values the file gives, under the current names: the former ring
# segment size sets both rings' chunk sizes.
run_test select-former-names-file-values env OMPI_MCA_mca_param_files="$formerconf" \
    ompi_info --param coll rsag --level 9 --parsable
expect_in_log '^mca:coll:rsag:param:coll_rsag_allreduce_priority_aware_min_bytes:value:5000$'
expect_in_log '^mca:coll:rsag:param:coll_rsag_reduce_scatter_block_algorithm:value:priority_aware$'
expect_in_log '^mca:coll:rsag:param:coll_rsag_allreduce_ring_chunk_size:value:4096$'
expect_in_log '^mca:coll:rsag:param:coll_rsag_reduce_scatter_ring_chunk_size:value:4096$'
expect_in_log '^mca:coll:rsag:param:coll_rsag_priority_aware_run_blocks:value:2$'

# The reduce-scatter ring's own name wins over the former common one.
run_test select-former-ring-name-own-wins env OMPI_MCA_mca_param_files="$formerconf" \
    OMPI_MCA_coll_rsag_reduce_scatter_ring_chunk_size=65536 \
    ompi_info --param coll rsag --level 9 --parsable
expect_in_log '^mca:coll:rsag:param:coll_rsag_allreduce_ring_chunk_size:value:4096$'
expect_in_log '^mca:coll:rsag:param:coll_rsag_reduce_scatter_ring_chunk_size:value:65536$'

# In a job: the former threshold name makes auto pick priority_aware (the
# trace and the counter say so), and the four former names in the file give
# one deprecation message for the job (Open MPI's show_help aggregation;
# before, each rank printed its own).
run_test select-former-names-file-job-np3 env OMPI_MCA_mca_param_files="$formerconf" \
    "${mpirun_cmd[@]}" --mca coll_rsag_verbose 1 -np 3 "$demo"
expect_in_log 'allreduce on MPI_COMM_WORLD \(cid 0, size 3\): 8000000 bytes .* -> priority_aware \(auto\); coll_rsag_allreduce_priority_aware_min_bytes 5000 <= bytes \(set for every size'
expect_in_log 'coll_rsag_allreduce_priority_aware_calls +[1-9]'
expect_count 1 'A deprecated MCA variable value was specified in an MCA variable'
expect_count 1 'Deprecated variable: +coll_rsag_'
expect_in_log 'results correct'

# Settings rsag replaces: one message for the job, not one per rank.
run_test select-unusable-settings-once-np3 "${mpirun_cmd[@]}" \
    --mca coll_rsag_priority_aware_run_blocks 3 --mca coll_rsag_verbose -2 -np 3 "$demo"
expect_count 1 'The rsag coll component was given MCA parameter settings it cannot use'
expect_count 1 'coll:rsag: coll_rsag_priority_aware_run_blocks = 3 is invalid \(valid: a power of two from 1 to 65536\); using 2'
expect_count 1 'coll:rsag: coll_rsag_verbose = -2 is negative'
expect_in_log 'results correct'
