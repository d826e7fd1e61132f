# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# harness.sh: the checks of the harness itself can fail.  Without MPI,
# seconds: an expected failure must be a clean error exit (a crash, a
# timeout and a success are rejected), a test whose dependency did not run
# fails, an empty algorithm enumeration is a counted error, skips are
# counted in the summary line, and .ci/run's count accepts that line and
# fails on a skip it does not expect.  Each case runs in a subshell with its
# own counters and files, so it does not touch this run's.

# harness_sandbox: a subshell's fresh harness state (counters, files in a
# private directory); call first inside ( ... ).
harness_sandbox() {
    local d
    d=$(mktemp -d "$results/harness.XXXXXX") || exit 1
    # shellcheck disable=SC2064
    trap "rm -rf '$d'" EXIT
    filters=() filter_hits=() list_only=0
    passed=0 failed=0 skipped=0 failed_names=() skipped_names=()
    ran_tests=() last_name="" last_ok=0
    times_file="$d/TIMES" harness_errors_file="$d/HARNESS_ERRORS" harness_dir="$d"
    : >"$times_file"
}

# --- expected failures: only an error exit (1..123) ---------------------------
run_test harness-expected-failure-accepts-error-exit exits_with_error sh -c 'echo boom; exit 3'
expect_in_log '^boom$'
expect_in_log 'failed as expected, exit status 3'
run_test harness-expected-failure-rejects-crash exits_nonzero \
    exits_with_error sh -c 'kill -SEGV $$'
expect_in_log 'got 139: killed by signal 11 \(a crash\)'
run_test harness-expected-failure-rejects-timeout exits_nonzero \
    exits_with_error timeout 1 sleep 30
expect_in_log 'got 124: a timeout \(hang\)'
run_test harness-expected-failure-rejects-success exits_nonzero exits_with_error true
expect_in_log 'expected an error exit, but the command succeeded'

# --- a test whose dependency did not run fails; one whose dependency ran passes
harness_expect_ran() {
    (
        harness_sandbox
        run_test harness-dep-ran true >/dev/null
        run_test harness-dependent true >/dev/null
        expect_ran harness-dep-ran >/dev/null
        [ "$last_ok" = 1 ] || { echo "dependency ran, yet the test failed"; exit 1; }
        expect_ran harness-dep-never-ran >/dev/null
        cat "$last_log"; rm -f "$results"/harness-dep-ran.log "$results"/harness-dependent.log
        [ "$last_ok" = 0 ] || { echo "dependency did not run, yet the test passed"; exit 1; }
        echo "expect_ran: $passed passed, $failed failed"
    )
}
run_test harness-expect-ran-fails-without-dependency harness_expect_ran
expect_in_log 'depends on test harness-dep-never-ran, which did not run in this invocation'
expect_in_log '^expect_ran: 1 passed, 1 failed$'

# --- several -k: the tests any of them selects run; one that selects none fails
harness_filters() {
    (
        harness_sandbox
        filters=("harness-k-one" "^harness-k-t" "harness-k-nothing")
        run_test harness-k-one true >/dev/null
        run_test harness-k-two true >/dev/null
        run_test harness-k-other true >/dev/null
        echo "ran: ${!ran_tests[*]}"
        [ "${#ran_tests[@]}" = 2 ] || { echo "two of the three tests should have run"; exit 1; }
        check_filters_hit
        cat "$harness_errors_file"
        grep -qx "\-k 'harness-k-nothing' selected no test" "$harness_errors_file" &&
            [ "$(wc -l <"$harness_errors_file")" = 1 ] || { echo "expected one error, for harness-k-nothing"; exit 1; }
        rm -f "$results"/harness-k-*.log
        echo "filters: $passed passed"
    )
}
run_test harness-several-k-filters harness_filters
expect_in_log '^filters: 2 passed$'

# --- a run whose launcher lost a message is run again; the log is the last run's
harness_lost_message() {
    (
        harness_sandbox
        local runs="$harness_dir/runs"
        run_test harness-lost-twice sh -c 'echo run >>"$1"
            if [ "$(wc -l <"$1")" -lt 3 ]; then
                e=ORTE_ERROR_LOG    # (the line of this command must not match)
                echo "[vm:1] [[1,0],0] $e: Out of resource in file ../../../orte/util/show_help.c at line 501"
                exit 1
            fi
            echo "the message"' sh "$runs" >/dev/null
        cat "$last_log"; rm -f "$last_log" "$last_log.lost"
        echo "lost message: $passed passed, $failed failed, $(wc -l <"$runs") runs"
    )
}
run_test harness-lost-message-runs-again harness_lost_message
expect_in_log '^lost message: 1 passed, 0 failed, 3 runs$'
expect_in_log '^the message$'
expect_in_log "^\(run 2: Open MPI's launcher lost a message"
expect_not_in_log '^\[vm:1\]'

# --- enum_values: no algorithm in ompi_info's output is a counted error -------
harness_enum_values_empty() {
    (
        harness_sandbox
        mkdir -p "$harness_dir/bin"
        printf '#!/bin/sh\nexit 0\n' >"$harness_dir/bin/ompi_info"
        chmod +x "$harness_dir/bin/ompi_info"
        local v
        v=$(PATH="$harness_dir/bin:$PATH" enum_values allreduce)
        echo "values: [$v]"
        cat "$harness_errors_file"
        print_summary
        [ -z "$v" ] && [ -s "$harness_errors_file" ] && [ "$failed" = 1 ]
    )
}
run_test harness-enum-values-empty-is-an-error harness_enum_values_empty
expect_in_log '^values: \[\]$'
expect_in_log 'enum_values allreduce: .* shows no algorithm of coll_rsag_allreduce_algorithm'
expect_in_log '^0 passed, 1 failed$'

# --- skips are counted, never passes --------------------------------------------
harness_skip_counted() {
    (
        harness_sandbox
        run_test harness-skip-neighbour true >/dev/null
        rm -f "$results/harness-skip-neighbour.log"
        skip_test harness-skip-example "not on this machine"
        print_summary
    )
}
run_test harness-skip-is-counted harness_skip_counted
expect_in_log '^SKIP harness-skip-example +\(not on this machine\)$'
expect_in_log '^1 passed, 0 failed, 1 skipped$'

# --- .ci/run: the summary line with skips, and a skip it does not expect --------
harness_ci_count() {
    (
        harness_sandbox
        # count() from .ci/run, as CI runs it
        eval "$(sed -n '/^count() {/,/^}/p' "$top/.ci/run")"
        passed=0 failed=0 skipped=0 t_part=$SECONDS
        printf 'PASS a\nSKIP ompi5-x     (Open MPI 4.1.4 here)\n1 passed, 0 failed, 1 skipped\n' \
            >"$harness_dir/expected.log"
        count "$harness_dir/expected.log" expected 'ompi5-*'
        echo "after an expected skip: $passed passed, $failed failed, $skipped skipped"
        printf 'SKIP multinode-nodes-np4     (no namespaces)\n0 passed, 0 failed, 1 skipped\n' \
            >"$harness_dir/unexpected.log"
        count "$harness_dir/unexpected.log" unexpected 'ompi5-*'
        echo "after an unexpected skip: $passed passed, $failed failed, $skipped skipped"
    )
}
run_test harness-ci-count-fails-unexpected-skip harness_ci_count
expect_in_log '^after an expected skip: 1 passed, 0 failed, 1 skipped$'
expect_in_log 'unexpected: unexpected skip: multinode-nodes-np4 \(counted as a failure\)'
expect_in_log '^after an unexpected skip: 1 passed, 1 failed, 2 skipped$'
