# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# test/lib.sh: the test harness of mca_coll_rsag, sourced by test/run_tests.sh
# before the suites (test/suites/*.sh).  See test/README.md.
#
# What a suite may use:
#
#   run_test NAME CMD...         run CMD (output to $results/NAME.log); the
#                                test passes when CMD exits 0.  With -k only
#                                the tests whose name contains the filter run
#                                (begins with it, for a filter "^NAME"; ends
#                                with it, "NAME$"; is it, "^NAME$");
#                                with -l the name is only listed.
#   name_selected NAME           true when -k keeps a test of that name
#   expect_in_log PATTERN        refine the last test: its log must match
#   expect_not_in_log PATTERN    (grep -E) / must not match / must have exactly
#   expect_count N PATTERN       N matching lines
#   expect_that CMD...           refine the last test: CMD (given the log as
#                                $last_log) must exit 0; its output goes to the log
#   test_ran                     true when the last run_test ran (not filtered
#                                out, not listed): guard for code that reads
#                                $last_log
#   expect_ran NAME              refine the last test: it depends on what test
#                                NAME did, which must have run in this
#                                invocation (else the last test fails)
#   skip_test NAME REASON        NAME cannot run here: a SKIP line, counted in
#                                the summary's "N skipped" (.ci/run fails on
#                                a skip it does not expect)
#   exits_with_error CMD...      a command that must fail cleanly: exit status
#                                1..123, not a signal, not timeout's 124/137
#                                (use with run_test, and match the error text
#                                with expect_in_log)
#   exits_nonzero CMD...         a command that must fail, any way at all
#                                (only for commands that cannot crash or hang)
#   enum_values COLL             the values of coll_rsag_COLL_algorithm; none
#                                is a harness error (a failure in the summary)
#   harness_error MESSAGE        count a failure of the harness itself (works
#                                inside $(...)); run_tests.sh reports it
#   makevar DIR VAR              VAR of the configured $top/DIR/Makefile
#   valgrind_job NAME NP PROG... PROG under valgrind memcheck, rsag's records
#                                fail it (use with run_test NAME)
#   assert_transport LOG NP T    the job of LOG (run with "${transport_verbose[@]}")
#                                used transport T: ob1-tcp, ob1-vader or ucx
#
# Variables set by run_tests.sh: $here (test/), $top (the tree), $results
# (test/results), $check (rsag_check), $demo (rsag_demo), $timeout_s and
# "${mpirun_cmd[@]}" (timeout + mpirun --allow-run-as-root --oversubscribe).
#
# Test names: <topic>-<what>-np<N> (N: the process count; none without MPI).

# results, filters, list_only, top: set by run_tests.sh before sourcing this.
# shellcheck disable=SC2154

passed=0
failed=0
skipped=0
failed_names=()
skipped_names=()
# the tests that ran in this invocation (for expect_ran)
declare -gA ran_tests=()
last_log=""
last_name=""
last_ok=0
last_time=0
# one line per test: seconds, PASS|FAIL|SKIP, name (sorted at the end)
times_file="$results/TIMES"
# one line per error of the harness (harness_error), from any subshell
harness_errors_file="$results/HARNESS_ERRORS"

# name_matches NAME FILTER: NAME contains FILTER ("^X": begins with X, "X$":
# ends with X, "^X$": is X).
name_matches() {
    local f="${2#^}"
    case "$2" in
        ^*\$) [[ "$1" == "${f%\$}" ]] ;;
        ^*) [[ "$1" == "$f"* ]] ;;
        *\$) [[ "$1" == *"${2%\$}" ]] ;;
        *) [[ "$1" == *"$2"* ]] ;;
    esac
}

# name_selected NAME: no -k filter, or NAME matches one of them.
name_selected() {
    local f
    [ "${#filters[@]}" -eq 0 ] && return 0
    for f in "${filters[@]}"; do
        name_matches "$1" "$f" && return 0
    done
    return 1
}

# filter_hits[i]: set when -k number i selected a test that ran or was
# skipped (run_tests.sh fails a -k that selected none).
declare -gA filter_hits=()
note_selected() {
    local i
    for ((i = 0; i < ${#filters[@]}; ++i)); do
        name_matches "$1" "${filters[$i]}" && filter_hits[$i]=1
    done
    return 0
}
# check_filters_hit: a harness error for each -k that selected no test.
check_filters_hit() {
    local i
    for ((i = 0; i < ${#filters[@]}; ++i)); do
        [ -n "${filter_hits[$i]:-}" ] || harness_error "-k '${filters[$i]}' selected no test"
    done
    return 0
}

# launcher_lost_message <OUTPUT: Open MPI 4.1.4's launcher lost a show_help
# message on its way to mpirun ("ORTE_ERROR_LOG: Out of resource" or "Data
# unpack would read past end of buffer in file ../orte/util/show_help.c"; with
# or without rsag, up to half the runs on a loaded machine): the job's output
# misses a message a check may read (rsag's, or Open MPI's error handler's).
launcher_lost_message() {
    grep -q 'ORTE_ERROR_LOG: .* in file .*orte/util/show_help'
}

# run_test NAME COMMAND... : passes when the command exits 0.  A run whose
# launcher lost a message (launcher_lost_message) is run again, up to five
# times, after a pause that grows with each (1, 2, 3, 4 s: five runs back to
# back once all lost theirs, in one CI run); the log holds the last run (and
# a line per run again), NAME.log.lost the runs before.
run_test() {
    local name="$1"; shift
    if ! name_selected "$name"; then
        last_name=""
        return 0
    fi
    if [ "$list_only" = 1 ]; then
        echo "$name"
        last_name=""
        return 0
    fi
    last_name="$name"
    last_log="$results/$name.log"
    ran_tests[$name]=1
    note_selected "$name"
    local t0=$SECONDS rc try notes=""
    rm -f "$last_log.lost"
    for try in 1 2 3 4 5; do
        echo "+ $*" >"$last_log"
        "$@" >>"$last_log" 2>&1
        rc=$?
        # the command's output, not its line (which may name the message)
        tail -n +"$(( $(printf '%s\n' "+ $*" | wc -l) + 1 ))" "$last_log" \
            | launcher_lost_message || break
        cat "$last_log" >>"$last_log.lost"
        notes+="(run $try: Open MPI's launcher lost a message, see $name.log.lost; ran the test again)"$'\n'
        [ "$try" = 5 ] || sleep "$try"
    done
    [ -z "$notes" ] || printf '%s' "$notes" >>"$last_log"
    last_ok=$(( rc == 0 ))
    [ "$last_ok" = 1 ] || echo "exit status $rc" >>"$last_log"
    last_time=$(( SECONDS - t0 ))
    finish_test
}

# true when the last run_test ran (its log exists and belongs to it)
test_ran() { [ -n "$last_name" ]; }

# expect_ran NAME: the last test checks what test NAME left behind (e.g. no
# shared memory after NAME's job), so NAME must have run in this invocation;
# under a -k that leaves NAME out the last test proves nothing and fails.
expect_ran() {
    test_ran || return 0
    if [ -z "${ran_tests[$1]:-}" ]; then
        echo "depends on test $1, which did not run in this invocation (select both, e.g. -k with a common part of their names)" >>"$last_log"
        reopen_failed
    fi
}

# skip_test NAME REASON: test NAME cannot run on this machine.  It is not a
# pass: the summary counts it in "N skipped", and .ci/run fails on a skip
# that is not on its list of expected ones.
skip_test() {
    local name="$1" reason="$2"
    name_selected "$name" || return 0
    if [ "$list_only" = 1 ]; then
        echo "$name"
        return 0
    fi
    last_name=""
    note_selected "$name"
    skipped=$((skipped + 1))
    skipped_names+=("$name")
    printf 'SKIP %-52s       (%s)\n' "$name" "$reason"
    printf '0 SKIP %s\n' "$name" >>"$times_file"
}

# harness_error MESSAGE: the harness itself went wrong (e.g. no algorithm
# found to build tests from): said at once on stderr, and counted as a
# failure in the summary.  Works in a subshell ($(...)).
harness_error() {
    echo "run_tests.sh: ERROR: $1" >&2
    printf '%s\n' "$1" >>"$harness_errors_file"
}

expect_in_log() {
    test_ran || return 0
    if ! grep -qE -- "$1" "$last_log"; then
        echo "expected in output: $1" >>"$last_log"
        reopen_failed
    fi
}

expect_not_in_log() {
    test_ran || return 0
    if grep -qE -- "$1" "$last_log"; then
        echo "not expected in output: $1" >>"$last_log"
        reopen_failed
    fi
}

# expect_count N PATTERN: the last test's log has exactly N matching lines.
expect_count() {
    test_ran || return 0
    local n
    n=$(grep -cE -- "$2" "$last_log")
    if [ "$n" != "$1" ]; then
        echo "expected $1 lines matching $2, found $n" >>"$last_log"
        reopen_failed
    fi
}

# expect_that CMD...: CMD (which may read $last_log) must exit 0; its output
# is appended to the log.
expect_that() {
    test_ran || return 0
    local out rc
    out=$("$@" 2>&1)
    rc=$?
    [ -n "$out" ] && printf '%s\n' "$out" >>"$last_log"
    if [ "$rc" -ne 0 ]; then
        echo "expected to succeed on this output: $*" >>"$last_log"
        reopen_failed
    fi
}

finish_test() {
    if [ "$last_ok" = 1 ]; then
        passed=$((passed + 1))
        printf 'PASS %-52s %4ds\n' "$last_name" "$last_time"
    else
        failed=$((failed + 1))
        failed_names+=("$last_name")
        printf 'FAIL %-52s %4ds   (log: %s)\n' "$last_name" "$last_time" "${last_log#"$top"/}"
        tail -n 15 "$last_log" | sed 's/^/    | /'
        crash_report "$last_log" | sed 's/^/    | /'
    fi
    printf '%d %s %s\n' "$last_time" "$([ "$last_ok" = 1 ] && echo PASS || echo FAIL)" \
        "$last_name" >>"$times_file"
}

# crash_report LOG: the first backtrace Open MPI's signal handler printed
# in LOG, each frame in an ELF file with debug information resolved to
# function and line (addr2line), so that a crash in CI says where it was.
# Prints nothing when LOG holds no backtrace.
crash_report() {
    local line file off
    grep -q 'Process received signal' "$1" || return 0
    echo "backtrace (first crash in the log, frames resolved):"
    sed -n '/Process received signal/,/End of error message/p' "$1" | head -n 40 |
        while IFS= read -r line; do
            echo "$line"
            # "[host:pid] [ n] /path/file.so(+0x1234)[0x...]" or "(func+0x12)"
            if [[ "$line" =~ \]\ (/[^\(]+)\(\+(0x[0-9a-f]+)\) ]]; then
                file=${BASH_REMATCH[1]}
                off=${BASH_REMATCH[2]}
                [ -r "$file" ] && command -v addr2line >/dev/null &&
                    addr2line -f -i -C -e "$file" "$(printf '0x%x' $(( off - 1 )))" |
                    paste -sd ' ' | sed 's/^/        -> /'
            fi
        done
}

# A check after run_test turned a pass into a failure.
reopen_failed() {
    if [ "$last_ok" = 1 ]; then
        passed=$((passed - 1))
        failed=$((failed + 1))
        failed_names+=("$last_name")
        last_ok=0
        printf 'FAIL %-52s (expectation, log: %s)\n' "$last_name" "${last_log#"$top"/}"
        tail -n 5 "$last_log" | sed 's/^/    | /'
        # the times file records the final verdict
        sed -i "\$s/ PASS $last_name\$/ FAIL $last_name/" "$times_file"
    fi
}

# exits_nonzero CMD...: CMD fails in any way (a crash, a timeout too); only
# for commands that cannot crash or hang (scripts, filters).
exits_nonzero() { ! "$@"; }

# exits_with_error CMD...: CMD must fail the way a program reports an error:
# exit status 1..123.  0 is a pass of CMD (this fails), 124 and 137 are
# timeout's (a hang), 125..127 a command that could not run, above 128 a
# signal (a crash): none of them is the expected failure.  Pair it with
# expect_in_log on the exact error text.
exits_with_error() {
    "$@"
    local rc=$?
    if [ "$rc" -ge 1 ] && [ "$rc" -le 123 ]; then
        echo "(failed as expected, exit status $rc)"
        return 0
    fi
    case "$rc" in
        0) echo "expected an error exit, but the command succeeded" ;;
        124|137) echo "expected an error exit, got $rc: a timeout (hang) or SIGKILL, not the expected error" ;;
        125|126|127) echo "expected an error exit, got $rc: the command could not run" ;;
        *) echo "expected an error exit, got $rc: killed by signal $((rc - 128)) (a crash), not the expected error" ;;
    esac
    return 1
}

# Values of an rsag enum parameter, from ompi_info (the algorithm tables).
# Loops over them build tests: when ompi_info shows no algorithm besides
# auto (its output changed, rsag is not installed), that is a harness error
# counted as a failure, not zero tests.
enum_values() {
    local v
    # each value once: a former (deprecated) name follows with the same value
    v=$(ompi_info --param coll rsag --level 9 --parsable 2>/dev/null |
        sed -n "s/^mca:coll:rsag:param:coll_rsag_$1_algorithm:enumerator:value://p" |
        awk -F: '!seen[$1]++ { print $2 }')
    if ! grep -qvxE '(auto)?' <<<"$v"; then
        harness_error "enum_values $1: ompi_info --param coll rsag --level 9 --parsable shows no algorithm of coll_rsag_$1_algorithm (besides auto); the tests built from it would be none"
        return 1
    fi
    printf '%s\n' "$v"
}

# needs_several_nodes NAME: algorithm NAME is a node-aware row (restriction
# "several nodes, one of them with >= 2 ranks", coll_rsag_algorithms.h): on
# one node it falls back, and the one-node suites expect that.
needs_several_nodes() {
    case "$1" in
        hierarchical|leaders) return 0 ;;
        *) return 1 ;;
    esac
}

# algorithms_by_name: every algorithm name of the four tables once (auto left
# out), in table order, into the array forced_names, and for each the
# collectives that have it, comma-separated, into forced_colls[NAME]; then
# forced_mca NAME puts the --mca arguments that force NAME on all of them into
# the array forced_args.  The suites force each name in one job.
algorithms_by_name() {
    local coll alg
    declare -gA forced_colls=()
    forced_names=()
    for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
        for alg in $(enum_values "$coll"); do
            [ "$alg" = auto ] && continue
            [ -n "${forced_colls[$alg]:-}" ] || forced_names+=("$alg")
            forced_colls[$alg]="${forced_colls[$alg]:+${forced_colls[$alg]},}$coll"
        done
    done
}
forced_mca() {
    local coll
    forced_args=()
    for coll in ${forced_colls[$1]//,/ }; do
        forced_args+=(--mca "coll_rsag_${coll}_algorithm" "$1")
    done
}

# makevar DIR VAR: the value of VAR in the configured $top/DIR/Makefile.
makevar() { sed -n "s|^$2 = ||p" "$top/$1/Makefile" 2>/dev/null | head -n 1; }

# --- shared by several suites -------------------------------------------------

# valgrind_job NAME NP PROGRAM ARGS...: the job under valgrind memcheck (Open
# MPI's suppression file, RSAG_VALGRIND_SUPP to override; one XML report per
# process in $results/NAME.vg/), then test/valgrind-filter.awk: fails on any
# error or definite leak with a frame in mca_coll_rsag.so; valgrind's findings
# elsewhere go to $results/NAME.others.log.  Twice the usual mpirun time limit.
valgrind_job() {
    local name="$1" np="$2"; shift 2
    local dir="$results/$name.vg" supp
    supp=${RSAG_VALGRIND_SUPP:-$(ls /usr/share/openmpi/openmpi-valgrind.supp \
        /usr/share/openmpi*/openmpi-valgrind.supp 2>/dev/null | head -n 1)}
    if ! command -v valgrind >/dev/null; then
        echo "valgrind is not installed (contrib/install-deps.sh installs it)"
        return 1
    fi
    if [ ! -r "$supp" ]; then
        echo "Open MPI's openmpi-valgrind.supp was not found (set RSAG_VALGRIND_SUPP)"
        return 1
    fi
    rm -rf "$dir" && mkdir -p "$dir" || return 1
    # --keep-debuginfo: Open MPI dlcloses components before the leak check,
    # frames in them would lose the object name the filter looks for.
    local TIMEFORMAT="valgrind job: %R s wall, %U s user, %S s system CPU"
    time timeout -k 10 "$(( timeout_s * 2 ))" "${mpirun_cmd[@]:4}" -np "$np" valgrind -q \
        --keep-debuginfo=yes --num-callers=40 \
        --suppressions="$supp" --leak-check=full --show-leak-kinds=definite \
        --errors-for-leak-kinds=definite --xml=yes --xml-file="$dir/vg.%p.xml" "$@"
    local rc=$?
    awk -v others="$results/$name.others.log" -f "$here/valgrind-filter.awk" \
        "$dir"/vg.*.xml || return 1
    [ "$(ls "$dir"/vg.*.xml | wc -l)" -eq "$np" ] || { echo "expected $np reports"; return 1; }
    return $rc
}

# mpirun arguments that make the transport selection visible in a job's log,
# for assert_transport.
transport_verbose=(--mca pml_base_verbose 10 --mca btl_base_verbose 30 --mca pml_ucx_verbose 10)

# assert_transport LOG NP ob1-tcp|ob1-vader|ucx: every rank selected the
# intended PML; for ob1, every rank reached every other rank through the
# intended BTL (tcp or vader) and no pair used the other one; for UCX, every
# rank connected to every rank through it.
assert_transport() {
    local log="$1" np="$2" want="$3" pml n expect_pairs=$(( $2 * ($2 - 1) ))
    [ -r "$log" ] || { echo "transport check: no log $log"; return 2; }
    local btl="" other=""
    case "$want" in
        ob1-tcp) pml=ob1 btl=tcp other="vader|sm|smcuda" ;;
        # Open MPI 5.0 renamed the shared-memory btl vader to sm.
        ob1-vader) pml=ob1 btl=vader other="tcp|openib|uct"
                   ompi_info | grep -q "MCA btl: vader" || btl=sm ;;
        ucx) pml=ucx ;;
        *) echo "assert_transport: unknown transport $want"; return 2 ;;
    esac
    n=$(grep -c "select: component $pml selected" "$log")
    if [ "$n" -ne "$np" ]; then
        echo "transport check: $n of $np ranks selected pml $pml"
        return 1
    fi
    if grep -qE "select: component [a-z0-9]+ selected" "$log" &&
       grep -E "select: component [a-z0-9]+ selected" "$log" | grep -qv "component $pml "; then
        echo "transport check: another PML was selected"
        return 1
    fi
    case "$want" in
        ob1-*)
            n=$(grep -c "bml: Using $btl btl for send to" "$log")
            if [ "$n" -ne "$expect_pairs" ]; then
                echo "transport check: $n of $expect_pairs rank pairs use the $btl btl"
                return 1
            fi
            if grep -qE "bml: Using ($other) btl for send" "$log"; then
                echo "transport check: another btl ($other) was used"
                return 1
            fi ;;
        ucx)
            n=$(grep -c "pml_ucx.c:[0-9]* connecting to proc" "$log")
            if [ "$n" -lt "$expect_pairs" ]; then
                echo "transport check: $n UCX connections for $expect_pairs rank pairs"
                return 1
            fi ;;
    esac
    echo "transport check: $want used by all $np ranks"
}

# The summary at the end of a run: the slowest tests, the failed and skipped
# ones and the last line "N passed, N failed" (", N skipped" when some were).
# Errors of the harness count as failures.  Returns 0 iff none failed.
print_summary() {
    local err
    if [ -s "$harness_errors_file" ]; then
        while IFS= read -r err; do
            failed=$((failed + 1))
            failed_names+=("harness-error")
            echo "FAIL harness: $err"
        done <"$harness_errors_file"
    fi
    if [ -s "$times_file" ] && [ "$((passed + failed))" -gt 1 ]; then
        echo
        echo "slowest tests (seconds; all in ${times_file#"$top"/}):"
        sort -rn "$times_file" | head -n 10 | awk '{ printf "  %5d  %s\n", $1, $3 }'
    fi
    echo
    if [ "$failed" -gt 0 ]; then
        echo "failed: ${failed_names[*]}"
    fi
    if [ "$skipped" -gt 0 ]; then
        echo "skipped: ${skipped_names[*]}"
        echo "$passed passed, $failed failed, $skipped skipped"
    else
        echo "$passed passed, $failed failed"
    fi
    [ "$failed" -eq 0 ]
}
