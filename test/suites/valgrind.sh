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

vg_supp=${RSAG_VALGRIND_SUPP:-$(ls /usr/share/openmpi/openmpi-valgrind.supp \
    /usr/share/openmpi*/openmpi-valgrind.supp 2>/dev/null | head -n 1)}
vg_filter="$here/valgrind-filter.awk"
# valgrind slows a job down many times: twice the usual mpirun time limit.
vg_mpirun=(timeout -k 10 "$(( timeout_s * 2 ))" "${mpirun_cmd[@]:4}")

# valgrind_job NAME NP PROGRAM ARGS...: the job under memcheck, then the filter.
valgrind_job() {
    local name="$1" np="$2"; shift 2
    local dir="$results/$name.vg"
    if ! command -v valgrind >/dev/null; then
        echo "valgrind is not installed (contrib/install-deps.sh installs it)"
        return 1
    fi
    if [ ! -r "$vg_supp" ]; then
        echo "Open MPI's openmpi-valgrind.supp was not found (set RSAG_VALGRIND_SUPP)"
        return 1
    fi
    rm -rf "$dir" && mkdir -p "$dir" || return 1
    # --keep-debuginfo: Open MPI dlcloses components before the leak check,
    # frames in them would lose the object name the filter looks for.
    local TIMEFORMAT="valgrind job: %R s wall, %U s user, %S s system CPU"
    time "${vg_mpirun[@]}" -np "$np" valgrind -q --keep-debuginfo=yes --num-callers=40 \
        --suppressions="$vg_supp" --leak-check=full --show-leak-kinds=definite \
        --errors-for-leak-kinds=definite --xml=yes --xml-file="$dir/vg.%p.xml" "$@"
    local rc=$?
    awk -v others="$results/$name.others.log" -f "$vg_filter" "$dir"/vg.*.xml || return 1
    [ "$(ls "$dir"/vg.*.xml | wc -l)" -eq "$np" ] || { echo "expected $np reports"; return 1; }
    return $rc
}

# The quick matrix: every algorithm of every collective (switched through MPI_T),
# power-of-two and not.
for np in 2 3 4; do
    run_test "valgrind-check-quick-np$np" valgrind_job "valgrind-check-quick-np$np" "$np" \
        "$check" --quick
    expect_in_log 'rsag_check: np=[0-9]+ cases=[0-9]+ passed=[0-9]+ failed=0'
    expect_in_log 'valgrind-filter: [0-9]+ files \([0-9]+ finished\), 0 rsag records'
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
    vg_fixture "$@" >"$f" && awk -f "$vg_filter" "$f"
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
