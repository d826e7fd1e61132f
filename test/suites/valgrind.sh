# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# valgrind.sh: memcheck over the correctness matrix and the module life cycle.
# Sourced by test/run_tests.sh.
#
# Every rank runs under valgrind memcheck with Open MPI's suppression file,
# one XML report per process in test/results/<test>.vg/.  test/valgrind-filter.awk
# then requires zero errors and zero definite leaks with a frame in
# mca_coll_rsag.so; what valgrind reports about Open MPI itself (or the test
# programs) is listed in test/results/<test>.others.log and does not fail the test.
# About 4 minutes of CPU time in all (wall time grows with the machine's load).

# valgrind_job (test/lib.sh) runs a job under memcheck and the filter.

# The quick matrix: every algorithm of every collective (switched through MPI_T),
# power-of-two and not.  np 2 runs all of it; np 3 and 4 (more ranks than
# the 2 cores, each under valgrind) one case in 2 of each block, the half
# chosen by RSAG_MATRIX_SEED (default: the day, UTC) as in matrix.sh, so
# that two runs cover every case; the log says which.
vg_seed=${RSAG_MATRIX_SEED:-$(( $(date -u +%s) / 86400 ))}
[[ "$vg_seed" =~ ^[0-9]+$ ]] || vg_seed=0
for np in 2 3 4; do
    vg_thin=()
    [ "$np" -le 2 ] || vg_thin=(--every 2 --offset $(( (10#$vg_seed + np) % 2 )))
    run_test "valgrind-check-quick-np$np" valgrind_job "valgrind-check-quick-np$np" "$np" \
        "$check" --quick "${vg_thin[@]}"
    expect_in_log 'rsag_check: np=[0-9]+ cases=[0-9]+ passed=[0-9]+ failed=0'
    expect_in_log 'valgrind-filter: [0-9]+ files \([0-9]+ finished\), 0 rsag records'
    [ "$np" -le 2 ] || expect_in_log "rsag_check: every=2 offset=${vg_thin[3]}: "
done

# Module creation and destruction on many communicators, an intercommunicator.
run_test valgrind-lifecycle-np3 valgrind_job valgrind-lifecycle-np3 3 \
    "$here/mpi/rsag_lifecycle" --cycles 300 --rss-bound 100000
expect_in_log 'rsag_lifecycle: churn PASS'
expect_in_log 'valgrind-filter: 3 files \(3 finished\), 0 rsag records'

# The filter itself: a leak with a frame in mca_coll_rsag.so, an invalid read
# there, and a report that did not finish must each fail it; Open MPI's own
# leak must not.
vg_fixture() {   # vg_fixture KIND OBJ STATE
    cat <<EOF
<?xml version="1.0"?>
<valgrindoutput>
<status>
  <state>RUNNING</state>
</status>
<error>
  <unique>0x1</unique>
  <kind>$1</kind>
  <what>a planted record</what>
  <stack>
    <frame>
      <obj>/usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so</obj>
      <fn>malloc</fn>
    </frame>
    <frame>
      <obj>$2</obj>
      <fn>somewhere</fn>
    </frame>
  </stack>
</error>
<status>
  <state>$3</state>
</status>
</valgrindoutput>
EOF
}
vg_filter_on() {   # vg_filter_on KIND OBJ STATE
    local f="$results/valgrind-filter-fixture.xml"
    vg_fixture "$@" >"$f" && awk -f "$here/valgrind-filter.awk" "$f"
}
run_test valgrind-filter-flags-rsag-leak exits_nonzero \
    vg_filter_on Leak_DefinitelyLost /tmp/x/mca_coll_rsag.so FINISHED
expect_in_log 'valgrind-filter: 1 files \(1 finished\), 1 rsag records'
run_test valgrind-filter-flags-rsag-invalid-read exits_nonzero \
    vg_filter_on InvalidRead /tmp/x/mca_coll_rsag.so FINISHED
expect_in_log '1 rsag records'
run_test valgrind-filter-flags-unfinished-run exits_nonzero \
    vg_filter_on Leak_DefinitelyLost /usr/lib/libmpi.so.40 RUNNING
expect_in_log '1 files \(0 finished\), 0 rsag records'
run_test valgrind-filter-passes-open-mpi-leak \
    vg_filter_on Leak_DefinitelyLost /usr/lib/libmpi.so.40 FINISHED
expect_in_log '1 files \(1 finished\), 0 rsag records, 1 other records'
# libnbc's own leak (its frame first below malloc, rsag's below it: a
# persistent call rsag delegated) is libnbc's; rsag's own allocation, with
# libnbc below it, stays rsag's.
vg_fixture2() {   # vg_fixture2 OBJ1 OBJ2: malloc <- OBJ1 <- OBJ2
    vg_fixture Leak_DefinitelyLost "$1" FINISHED | sed "s|<obj>$1</obj>|<obj>$1</obj>\\
      <fn>x</fn>\\
    </frame>\\
    <frame>\\
      <obj>$2</obj>|"
}
vg_filter_on2() {
    local f="$results/valgrind-filter-fixture.xml"
    vg_fixture2 "$@" >"$f" && awk -f "$here/valgrind-filter.awk" "$f"
}
run_test valgrind-filter-passes-libnbc-leak-under-rsag \
    vg_filter_on2 /x/mca_coll_libnbc.so /x/mca_coll_rsag.so
expect_in_log '1 files \(1 finished\), 0 rsag records, 1 other records'
run_test valgrind-filter-flags-rsag-leak-above-libnbc exits_nonzero \
    vg_filter_on2 /x/mca_coll_rsag.so /x/mca_coll_libnbc.so
expect_in_log '1 files \(1 finished\), 1 rsag records'

# Open MPI 5.0 (Debian's) has libnbc inside libmpi.so, its functions without
# names: a leak that Open MPI's code allocated, called straight from one of
# rsag's slots (the slot handed the call on), is the previous module's; the
# same allocation under another of rsag's functions (rsag asked Open MPI for
# the memory and lost it) stays rsag's.
vg_filter_on3() {   # vg_filter_on3 FN: malloc <- libmpi.so (x) <- rsag's FN
    local f="$results/valgrind-filter-fixture.xml"
    vg_fixture2 /x/libmpi.so.40 /x/mca_coll_rsag.so |
        sed "0,/<fn>somewhere<\/fn>/s//<fn>$1<\/fn>/" >"$f" &&
        awk -f "$here/valgrind-filter.awk" "$f"
}
run_test valgrind-filter-passes-previous-module-leak-under-slot \
    vg_filter_on3 mca_coll_rsag_reduce_scatter_init_intra
expect_in_log '1 files \(1 finished\), 0 rsag records, 1 other records'
run_test valgrind-filter-flags-open-mpi-allocation-under-rsag exits_nonzero \
    vg_filter_on3 mca_coll_rsag_hier_setup
expect_in_log '1 files \(1 finished\), 1 rsag records'
