#!/usr/bin/env bash
# The whole test suite of mca_coll_rsag.  Run from a configured, built and
# installed tree (README: ./autogen.pl && ./configure && make && make install):
#
#   test/run_tests.sh            everything (about 12 minutes on 2 cores)
#   test/run_tests.sh -k NAME    only the tests whose name contains NAME
#   test/run_tests.sh -l         list the tests
#
# Each test is one program or one mpirun; its output goes to
# test/results/<name>.log.  The last line is "N passed, N failed".
# RSAG_MPIRUN_TIMEOUT (seconds, default 900) bounds every mpirun.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
results="$here/results"
filter=""
list_only=0
while [ $# -gt 0 ]; do
    case "$1" in
        -k) filter="$2"; shift 2 ;;
        -l) list_only=1; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "run_tests.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

# Where the component was installed, from the configured Makefile.
makevar() { sed -n "s|^$1 = ||p" "$top/ompi/mca/coll/rsag/Makefile" 2>/dev/null | head -n 1; }
componentdir=$(makevar ompicomponentdir)
pkglibdir=$(makevar OMPI_PKGLIBDIR)
if [ -z "$componentdir" ]; then
    echo "run_tests.sh: the tree is not configured; run ./autogen.pl && ./configure && make && make install" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
if [ "$componentdir" != "$pkglibdir" ]; then
    export OMPI_MCA_mca_base_component_path="$pkglibdir:$componentdir"
fi
# Tuning files of the user must not change what the tests expect.
export OMPI_MCA_mca_param_files=/dev/null
unset OMPI_MCA_coll OMPI_MCA_coll_rsag_allreduce_algorithm OMPI_MCA_coll_rsag_reduce_algorithm

timeout_s=${RSAG_MPIRUN_TIMEOUT:-900}
mpirun_cmd=(timeout -k 10 "$timeout_s" mpirun --allow-run-as-root --oversubscribe)
check="$here/mpi/rsag_check"
demo="$top/contrib/rsag_demo"
mkdir -p "$results"

passed=0
failed=0
failed_names=()

# run_test NAME COMMAND... : passes when the command exits 0.
# expect_in_log PATTERN / expect_not_in_log PATTERN refine the last test.
last_log=""
last_name=""
last_ok=0
run_test() {
    local name="$1"; shift
    [ -n "$filter" ] && [[ "$name" != *"$filter"* ]] && { last_name=""; return; }
    if [ "$list_only" = 1 ]; then echo "$name"; last_name=""; return; fi
    last_name="$name"
    last_log="$results/$name.log"
    local t0=$SECONDS
    { echo "+ $*"; "$@"; } >"$last_log" 2>&1
    local rc=$?
    last_ok=$(( rc == 0 ))
    [ "$last_ok" = 1 ] || echo "exit status $rc" >>"$last_log"
    last_time=$(( SECONDS - t0 ))
    finish_test
}
expect_in_log() {
    [ -z "$last_name" ] && return
    if ! grep -qE -- "$1" "$last_log"; then
        echo "expected in output: $1" >>"$last_log"
        reopen_failed
    fi
}
expect_not_in_log() {
    [ -z "$last_name" ] && return
    if grep -qE -- "$1" "$last_log"; then
        echo "not expected in output: $1" >>"$last_log"
        reopen_failed
    fi
}
finish_test() {
    if [ "$last_ok" = 1 ]; then
        passed=$((passed + 1))
        printf 'PASS %-44s %4ds\n' "$last_name" "$last_time"
    else
        failed=$((failed + 1))
        failed_names+=("$last_name")
        printf 'FAIL %-44s %4ds   (log: %s)\n' "$last_name" "$last_time" "${last_log#$top/}"
        tail -n 15 "$last_log" | sed 's/^/    | /'
    fi
}
# A check after run_test turned a pass into a failure.
reopen_failed() {
    if [ "$last_ok" = 1 ]; then
        passed=$((passed - 1))
        failed=$((failed + 1))
        failed_names+=("$last_name")
        last_ok=0
        printf 'FAIL %-44s (expectation, log: %s)\n' "$last_name" "${last_log#$top/}"
        tail -n 5 "$last_log" | sed 's/^/    | /'
    fi
}

exits_nonzero() { "$@"; [ $? -ne 0 ]; }

# Values of an rsag enum parameter, from ompi_info (the algorithm tables).
enum_values() {
    ompi_info --param coll rsag --level 9 --parsable 2>/dev/null |
        sed -n "s/^mca:coll:rsag:param:coll_rsag_$1_algorithm:enumerator:value:[0-9]*://p"
}

# --- preconditions ----------------------------------------------------------
run_test installed-component-is-this-build \
    cmp "$top/ompi/mca/coll/rsag/.libs/mca_coll_rsag.so" "$componentdir/mca_coll_rsag.so"

# --- unit tests (no MPI) ----------------------------------------------------
run_test unit-index "$here/unit/test_index"
run_test unit-select "$here/unit/test_select"

# --- the component as users see it -----------------------------------------
run_test ompi_info-parameters ompi_info --param coll rsag --level 9
expect_in_log 'coll_rsag_priority" \(current value: "40"'
expect_in_log 'coll_rsag_allreduce_algorithm.*'
expect_in_log 'Valid values: 0[:|]"?auto"?, 1[:|]"?recursive_doubling"?, 2[:|]"?rabenseifner"?, 3[:|]"?ring"?, 4[:|]"?priority"?'
expect_in_log 'Valid values: 0[:|]"?auto"?, 1[:|]"?recursive_halving"?, 2[:|]"?ring"?, 3[:|]"?priority"?'
expect_in_log 'coll_rsag_allreduce_ring_segment_size'
expect_in_log 'coll_rsag_priority_chunks'
expect_in_log 'coll_rsag_allreduce_ring_min_bytes'
expect_in_log 'coll_rsag_reduce_scatter_ring_min_bytes'
expect_in_log 'Valid values: 0[:|]"?auto"?, 1[:|]"?binomial"?, 2[:|]"?rabenseifner"?'
expect_in_log 'coll_rsag_reduce_scatter_block_algorithm.*'
expect_in_log 'coll_rsag_reduce_scatter_algorithm.*'
expect_in_log 'performance "coll_rsag_temporary_bytes"'
expect_in_log 'coll_rsag_allreduce_rabenseifner_min_bytes'
expect_in_log 'performance "coll_rsag_reduce_rabenseifner_calls"'

run_test demo-default-selection-np4 "${mpirun_cmd[@]}" -np 4 "$demo"
expect_in_log 'calls done by rsag, 0 delegated; results correct'

run_test demo-explicit-coll-list-np3 "${mpirun_cmd[@]}" --mca coll rsag,basic,libnbc -np 3 "$demo"
expect_in_log 'results correct'

# Opting out: the demo fails (rsag did nothing) and says why.
run_test demo-excluded-np2 exits_nonzero "${mpirun_cmd[@]}" --mca coll ^rsag -np 2 "$demo"
expect_in_log 'mca_coll_rsag is NOT loaded'

run_test demo-negative-priority-np2 exits_nonzero "${mpirun_cmd[@]}" \
    --mca coll_rsag_priority -1 -np 2 "$demo"
expect_in_log 'rank 0: 0 calls done by rsag'

run_test verbose-decisions-np4 "${mpirun_cmd[@]}" --mca coll_rsag_verbose 1 -np 4 "$demo"
expect_in_log 'coll:rsag: allreduce on MPI_COMM_WORLD \(cid 0, size 4\): 8 bytes .* -> recursive_doubling \(auto\)'
expect_in_log 'coll:rsag: allreduce on MPI_COMM_WORLD .*: 8000000 bytes .* -> ring \(auto\)'
expect_in_log 'coll:rsag: reduce on MPI_COMM_WORLD .* -> binomial \(auto\)'

jobconf="$results/job.conf"
printf '# a per-job tuning file\ncoll_rsag_allreduce_algorithm = recursive_doubling\ncoll_rsag_verbose = 1\n' >"$jobconf"
run_test param-file-forces-algorithm \
    env OMPI_MCA_mca_param_files="$jobconf" "${mpirun_cmd[@]}" -np 4 "$demo"
expect_in_log 'allreduce on MPI_COMM_WORLD .*: 8000000 bytes .* -> recursive_doubling \(forced\)'
expect_not_in_log 'allreduce on .* -> rabenseifner'

run_test env-forces-algorithm \
    env OMPI_MCA_coll_rsag_reduce_algorithm=rabenseifner OMPI_MCA_coll_rsag_verbose=1 \
    "${mpirun_cmd[@]}" -np 4 "$demo"
expect_in_log 'reduce on MPI_COMM_WORLD .*: 8000000 bytes .* -> rabenseifner \(forced\)'
expect_in_log 'reduce on MPI_COMM_WORLD .*: 8 bytes .* -> binomial \(rabenseifner forced but it needs count >= p'"'"'\)'

run_test bad-algorithm-name-is-reported "${mpirun_cmd[@]}" \
    --mca coll_rsag_allreduce_algorithm bogus -np 2 "$demo"
expect_in_log 'Valid values : 0[:|]"?auto"?, 1[:|]"?recursive_doubling"?, 2[:|]"?rabenseifner"?'
expect_in_log 'ignoring the invalid coll_rsag_allreduce_algorithm setting; using auto'
expect_in_log 'results correct'

# --- correctness matrix: every algorithm (switched through MPI_T) -----------
# np 1: coll/self (priority 75) owns size-1 communicators unless left out.
run_test matrix-np1 "${mpirun_cmd[@]}" --mca coll rsag,basic,libnbc -np 1 "$check"
for np in 2 3 4 5 6 7 8 9 12 16; do
    run_test "matrix-np$np" "${mpirun_cmd[@]}" -np "$np" "$check"
done

# --- every algorithm forced the way users force it: --mca -------------------
for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
    for alg in $(enum_values "$coll"); do
        run_test "mca-forced-$coll-$alg-np5" "${mpirun_cmd[@]}" \
            --mca "coll_rsag_${coll}_algorithm" "$alg" -np 5 "$check" \
            --algorithms current --coll "$coll" --quick
    done
done

# --- the ring pipeline with tiny segments: thousands of messages per block --
run_test matrix-ring-small-segments-np5 "${mpirun_cmd[@]}" \
    --mca coll_rsag_allreduce_ring_segment_size 256 -np 5 "$check" \
    --coll allreduce,reduce_scatter_block,reduce_scatter
expect_in_log 'forced allreduce=ring: [0-9]+ cases, 0 failed'
expect_in_log 'forced reduce_scatter=ring: [0-9]+ cases, 0 failed'

# --- the priority schedule with runs of 2 blocks -----------------------------
run_test matrix-priority-chunks2-np6 "${mpirun_cmd[@]}" \
    --mca coll_rsag_priority_chunks 2 -np 6 "$check" --quick \
    --coll allreduce,reduce_scatter_block,reduce_scatter
expect_in_log 'forced reduce_scatter=priority: [0-9]+ cases, 0 failed'

# --- 8/16-bit integer SUM/PROD -----------------------------------------------
# Open MPI 4.1.4's op/avx mis-sums 8/16-bit integers (Open MPI #8045), even
# in MPI_Reduce_local; rsag's op self-test replaces those kernels, so this
# group runs with the default op components (test/suites/ops.sh).
run_test smallint-sum-default-ops-np4 "${mpirun_cmd[@]}" -np 4 "$check" --group smallint

# --- temporary memory: priority-aware reduce-scatter vs recursive halving ----
for np in 4 6 8; do
    run_test "memory-priority-vs-halving-np$np" "${mpirun_cmd[@]}" -np "$np" \
        "$here/mpi/rsag_memory"
    expect_in_log 'rsag_memory: np=[0-9]+ cases=[0-9]+ passed=[0-9]+ failed=0'
done

# --- module life cycle -------------------------------------------------------
for np in 2 4; do
    run_test "lifecycle-np$np" "${mpirun_cmd[@]}" -np "$np" "$here/mpi/rsag_lifecycle"
done

# --- further suites: one file per topic under test/suites/, in name order ----
# Each is sourced here and uses run_test / expect_in_log like the tests above.
for suite in "$here"/suites/*.sh; do
    [ -e "$suite" ] || continue
    # shellcheck source=/dev/null
    . "$suite"
done

[ "$list_only" = 1 ] && exit 0
echo
if [ "$failed" -gt 0 ]; then
    echo "failed: ${failed_names[*]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
