# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# core.sh: the component as users see it (README "Using it"): the installed
# component is this build, ompi_info shows every parameter, the demo runs
# with rsag selected by default and by an explicit coll list, opting out
# (^rsag, a negative priority) works, verbose decision lines, forcing an
# algorithm by a parameter file and by the environment, an invalid algorithm
# name.  Sourced first by run_tests.sh.

# --- precondition: the installed component is the one just built ----------
run_test core-installed-component-is-this-build \
    cmp "$top/ompi/mca/coll/rsag/.libs/mca_coll_rsag.so" "$componentdir/mca_coll_rsag.so"

# --- ompi_info -------------------------------------------------------------
run_test core-ompi_info-parameters ompi_info --param coll rsag --level 9
expect_in_log 'coll_rsag_priority" \(current value: "40"'
expect_in_log 'coll_rsag_allreduce_algorithm.*'
expect_in_log 'Valid values: 0[:|]"?auto"?, 1[:|]"?recursive_doubling"?, 2[:|]"?rabenseifner"?, 3[:|]"?ring"?, 4[:|]"?priority_aware"?'
expect_in_log 'Valid values: 0[:|]"?auto"?, 1[:|]"?recursive_halving"?, 2[:|]"?ring"?, 3[:|]"?priority_aware"?'
expect_in_log 'coll_rsag_allreduce_ring_chunk_size'
expect_in_log 'coll_rsag_reduce_scatter_ring_chunk_size'
expect_in_log 'coll_rsag_priority_aware_run_blocks'
expect_in_log 'coll_rsag_allreduce_ring_min_bytes'
expect_in_log 'coll_rsag_reduce_scatter_ring_min_bytes'
expect_in_log 'Valid values: 0[:|]"?auto"?, 1[:|]"?binomial"?, 2[:|]"?rabenseifner"?'
expect_in_log 'coll_rsag_reduce_scatter_block_algorithm.*'
expect_in_log 'coll_rsag_reduce_scatter_algorithm.*'
expect_in_log 'performance "coll_rsag_temporary_bytes"'
expect_in_log 'coll_rsag_allreduce_rabenseifner_min_bytes'
expect_in_log 'performance "coll_rsag_reduce_rabenseifner_calls"'

# The component's version is rsag's own (configure.ac's AC_INIT, through
# configure's -D flags), not Open MPI's; the MCA and coll framework
# versions are Open MPI's: 2.1.0, and coll 2.0.0 on 4.1, 2.4.0 on 5.0 (as
# configure found them).
core_version=$(makevar . PACKAGE_VERSION)
core_coll_api=$(makevar ompi/mca/coll/rsag RSAG_COLL_API | sed -n 's/^coll \([0-9.]*\) .*/\1/p')
run_test core-ompi_info-version ompi_info
expect_in_log "MCA coll: rsag \\(MCA v2\\.1\\.0, API v${core_coll_api//./\\.}, Component v${core_version//./\\.}\\)"
expect_that test -n "$core_version" -a -n "$core_coll_api"

# --- selection: by default, by an explicit list, opted out -----------------
run_test core-demo-default-selection-np4 "${mpirun_cmd[@]}" -np 4 "$demo"
expect_in_log 'calls done by rsag, 0 delegated; results correct'

run_test core-demo-explicit-coll-list-np3 "${mpirun_cmd[@]}" --mca coll rsag,basic,libnbc -np 3 "$demo"
expect_in_log 'results correct'

# Opting out: the demo fails (rsag did nothing) and says why.
run_test core-demo-excluded-np2 exits_with_error "${mpirun_cmd[@]}" --mca coll ^rsag -np 2 "$demo"
expect_in_log 'mca_coll_rsag is NOT loaded'

run_test core-demo-negative-priority-np2 exits_with_error "${mpirun_cmd[@]}" \
    --mca coll_rsag_priority -1 -np 2 "$demo"
expect_in_log 'rank 0: 0 calls done by rsag'

# --- verbose decisions, forcing an algorithm --------------------------------
run_test core-verbose-decisions-np4 "${mpirun_cmd[@]}" --mca coll_rsag_verbose 1 -np 4 "$demo"
expect_in_log 'coll:rsag: allreduce on MPI_COMM_WORLD \(cid 0, size 4\): 8 bytes .* -> direct \(auto\)'
expect_in_log 'coll:rsag: allreduce on MPI_COMM_WORLD .*: 8000000 bytes .* -> direct \(auto\)'
expect_in_log 'coll:rsag: reduce on MPI_COMM_WORLD .* -> direct \(auto\)'

jobconf="$results/job.conf"
printf '# a per-job tuning file\ncoll_rsag_allreduce_algorithm = recursive_doubling\ncoll_rsag_verbose = 1\n' >"$jobconf"
run_test core-param-file-forces-algorithm-np4 \
    env OMPI_MCA_mca_param_files="$jobconf" "${mpirun_cmd[@]}" -np 4 "$demo"
expect_in_log 'allreduce on MPI_COMM_WORLD .*: 8000000 bytes .* -> recursive_doubling \(forced\)'
expect_not_in_log 'allreduce on .* -> rabenseifner'

run_test core-env-forces-algorithm-np4 \
    env OMPI_MCA_coll_rsag_reduce_algorithm=rabenseifner OMPI_MCA_coll_rsag_verbose=1 \
    "${mpirun_cmd[@]}" -np 4 "$demo"
expect_in_log 'reduce on MPI_COMM_WORLD .*: 8000000 bytes .* -> rabenseifner \(forced\)'
expect_in_log 'reduce on MPI_COMM_WORLD .*: 8 bytes .* -> direct \(rabenseifner forced but it needs count >= p'"'"'\)'

run_test core-bad-algorithm-name-is-reported-np2 \
    "${mpirun_cmd[@]}" --mca coll_rsag_allreduce_algorithm bogus -np 2 "$demo"
expect_in_log 'Valid values : 0[:|]"?auto"?, 1[:|]"?recursive_doubling"?, 2[:|]"?rabenseifner"?'
expect_in_log 'ignoring the invalid coll_rsag_allreduce_algorithm setting; using auto'
expect_in_log 'results correct'
