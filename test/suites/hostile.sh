# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# Hostile configuration: each bad setting gives a clear
# message naming the valid values (rsag's own, or Open MPI's refusal) and
# the job goes on with safe settings; rsag_hostile then checks the results
# of every algorithm of every collective.  Sourced by run_tests.sh.

hostile="$here/mpi/rsag_hostile"
ok_line='rsag_hostile: np=[0-9]+ [0-9]+ cases, 0 failed'

# hostile_test NAME NP "MCA args..." : rsag_hostile under those --mca args.
hostile_test() {
    local name="$1" np="$2"; shift 2
    run_test "$name" "${mpirun_cmd[@]}" "$@" -np "$np" "$hostile"
    expect_in_log "$ok_line"
}

# --- algorithm names: Open MPI refuses, lists the values; rsag keeps auto ---
hostile_test hostile-algorithm-name-np3 3 --mca coll_rsag_reduce_scatter_block_algorithm fastest
expect_in_log 'Valid values : 0[:|]"?auto"?, 1[:|]"?recursive_halving"?, 2[:|]"?ring"?, 3[:|]"?priority_aware"?'
expect_in_log 'ignoring the invalid coll_rsag_reduce_scatter_block_algorithm setting; using auto'

# --- thresholds ----------------------------------------------------------------
hostile_test hostile-threshold-negative-np3 3 --mca coll_rsag_allreduce_ring_min_bytes -5
expect_in_log 'coll_rsag_allreduce_ring_min_bytes = -5 is invalid \(valid: -1 for the size-class defaults p <= 2: off, p <= 4: off, p > 4: off, several nodes: 16777216, oversubscribed node: off, or a byte count >= 0\); using -1'

# Absurd thresholds on every algorithm: nothing covers any size, so rsag
# says so at start and delegates every auto call (and still runs forced ones).
# (The size classes' defaults, as on a node with a core per process: the
# oversubscribed node's column has `direct` from 1 byte, which takes the
# small contiguous calls.)
hostile_test hostile-threshold-absurd-np3 3 --mca coll_rsag_verbose 1 \
    --mca coll_rsag_oversubscribed_defaults 0 \
    --mca coll_rsag_reduce_binomial_min_bytes 1000000000000000 \
    --mca coll_rsag_reduce_rabenseifner_min_bytes 1000000000000000 \
    --mca coll_rsag_reduce_chain_min_bytes 1000000000000000
expect_in_log 'the coll_rsag_reduce_\*_min_bytes thresholds leave MPI_Reduce messages below 1000000000000000 bytes uncovered \(every communicator size\): they go to the previous coll module'
expect_in_log 'reduce on MPI_COMM_WORLD .* -> delegated to the previous module \(no rsag algorithm.s \*_min_bytes covers this size\)'
expect_in_log 'reduce on MPI_COMM_WORLD .* -> binomial \(forced\)'

# --- communicator-size class bounds (np 3 on 2 cores is an oversubscribed
# --- node: its own class unless coll_rsag_oversubscribed_defaults is off) ----------
hostile_test hostile-class-bound-zero-np3 3 --mca coll_rsag_verbose 1 \
    --mca coll_rsag_oversubscribed_defaults 0 --mca coll_rsag_comm_class_0_max_size 0
expect_in_log 'coll_rsag_comm_class_\*_max_size must be >= 1 and increasing; using the defaults 2 < 4'
expect_in_log 'allreduce on .* -> recursive_doubling \(auto\); .*\(default for p <= 4\)'

hostile_test hostile-class-bounds-decreasing-np3 3 --mca coll_rsag_comm_class_0_max_size 8 \
    --mca coll_rsag_comm_class_1_max_size 4
expect_in_log 'coll_rsag_comm_class_\*_max_size must be >= 1 and increasing; using the defaults 2 < 4'

# --- chunk sizes ----------------------------------------------------------------
hostile_test hostile-chunk-size-negative-np3 3 --mca coll_rsag_allreduce_ring_chunk_size -1 \
    --mca coll_rsag_exchange_chunk_size -1
expect_in_log 'coll_rsag_allreduce_ring_chunk_size = 18446744073709551615 is not a size \(a negative value\?\); valid: 0 \(whole blocks\) or a byte count; using 262144'
expect_in_log 'coll_rsag_exchange_chunk_size = 18446744073709551615 is not a size \(a negative value\?\); valid: 0 \(whole runs\) or a byte count; using 61440'

# smaller than one element (MPI_INT): one element per chunk, no message
hostile_test hostile-chunk-size-one-byte-np3 3 --mca coll_rsag_verbose 1 \
    --mca coll_rsag_allreduce_ring_chunk_size 1
expect_in_log 'allreduce on .* -> ring \(forced\)'
expect_not_in_log 'coll:rsag: coll_rsag_allreduce_ring_chunk_size'

hostile_test hostile-chunk-size-huge-np3 3 \
    --mca coll_rsag_allreduce_ring_chunk_size 4611686018427387904 \
    --mca coll_rsag_exchange_chunk_size 4611686018427387904
expect_not_in_log 'coll:rsag: coll_rsag_allreduce_ring_chunk_size'
expect_not_in_log 'coll:rsag: coll_rsag_exchange_chunk_size'

# --- priority_aware_run_blocks -------------------------------------------------------------
for c in zero:0:1 negative:-3:1 not-power-of-two:6:4 huge:2147483647:65536; do
    IFS=: read -r what value used <<<"$c"
    hostile_test "hostile-run-blocks-$what-np4" 4 --mca coll_rsag_priority_aware_run_blocks "$value"
    expect_in_log "coll_rsag_priority_aware_run_blocks = $value is invalid \(valid: a power of two from 1 to 65536\); using $used"
done

# --- component priority and verbosity -----------------------------------------
hostile_test hostile-priority-too-high-np3 3 --mca coll_rsag_priority 1000
expect_in_log 'coll_rsag_priority = 1000 is out of range \(valid: a negative value disables rsag, 0..100 selects it\); using 100'

hostile_test hostile-verbose-negative-np3 3 --mca coll_rsag_verbose -2
expect_in_log 'coll_rsag_verbose = -2 is negative \(valid: 0 silent, 1 decisions, 2 also module life cycle\); using 0'

# --- a malformed parameter file: Open MPI names the file and line, skips the
# --- bad lines, and the good ones still apply ---------------------------------
badconf="$results/hostile-malformed.conf"
printf '# malformed lines among good ones\ncoll_rsag_verbose = 1\nthis line has no equals sign\n= 42\ncoll_rsag_comm_class_0_max_size = 3\n' >"$badconf"
run_test hostile-malformed-param-file-np3 \
    env OMPI_MCA_mca_param_files="$badconf" OMPI_MCA_coll_rsag_oversubscribed_defaults=0 \
    "${mpirun_cmd[@]}" -np 3 "$hostile"
expect_in_log "keyval parser: error [0-9]+ reading file $badconf at line"
expect_in_log 'allreduce on .* -> direct \(auto\); .*\(default for p <= 3\)'
expect_in_log "$ok_line"

# --- nonsense written through MPI_T after start: checked nowhere but the
# --- selector and the algorithms, which must take any value ----------------------
run_test hostile-mpit-writes-np4 "${mpirun_cmd[@]}" -np 4 "$hostile" \
    coll_rsag_allreduce_ring_chunk_size=1 coll_rsag_priority_aware_run_blocks=-7 \
    coll_rsag_comm_class_0_max_size=-3 coll_rsag_comm_class_1_max_size=0 \
    coll_rsag_allreduce_rabenseifner_min_bytes=-9 coll_rsag_verbose=-5
expect_in_log 'wrote coll_rsag_verbose=-5 through MPI_T'
expect_in_log "$ok_line"

run_test hostile-mpit-extremes-np5 "${mpirun_cmd[@]}" -np 5 "$hostile" \
    coll_rsag_allreduce_ring_chunk_size=18446744073709551615 \
    coll_rsag_reduce_scatter_ring_chunk_size=18446744073709551615 \
    coll_rsag_priority_aware_run_blocks=2147483647 coll_rsag_comm_class_1_max_size=-2147483648 \
    coll_rsag_allreduce_recursive_doubling_min_bytes=9223372036854775807 \
    coll_rsag_allreduce_rabenseifner_min_bytes=9223372036854775807 \
    coll_rsag_allreduce_ring_min_bytes=9223372036854775807 \
    coll_rsag_allreduce_priority_aware_min_bytes=9223372036854775807
expect_in_log 'wrote coll_rsag_allreduce_priority_aware_min_bytes=9223372036854775807 through MPI_T'
expect_in_log "$ok_line"
