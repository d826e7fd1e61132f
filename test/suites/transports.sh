# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# transports.sh: the correctness matrix over the other transports.
# Sourced by test/run_tests.sh.
#
# The core tests run over the default transport, which on one node is
# ob1 + vader (shared memory): transport-default-is-ob1-vader asserts that.
# Here a reduced matrix (rsag_check --quick, every algorithm) runs over
# ob1 + tcp on the loopback and over UCX.  Each job runs with pml_base_verbose (and, for ob1,
# btl_base_verbose, for UCX pml_ucx_verbose) and its log must show that the intended transport
# carried the traffic: a job that silently ran over ob1 + vader fails the
# assertion (transports-assertion-rejects-vader shows that it does).

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

# The transport the core matrix runs over, with no transport arguments.
run_test transport-default-is-ob1-vader-np3 "${mpirun_cmd[@]}" "${transport_verbose[@]}" \
    -np 3 "$check" --quick
expect_in_log 'rsag_check: np=[0-9]+ cases=[0-9]+ passed=[0-9]+ failed=0'
expect_that assert_transport "$last_log" 3 ob1-vader

for np in 3 4; do
    run_test "transport-ob1-tcp-np$np" "${mpirun_cmd[@]}" --mca pml ob1 --mca btl self,tcp \
        --mca btl_tcp_if_include lo "${transport_verbose[@]}" -np "$np" "$check" --quick
    expect_in_log 'rsag_check: np=[0-9]+ cases=[0-9]+ passed=[0-9]+ failed=0'
    expect_that assert_transport "$last_log" "$np" ob1-tcp

    run_test "transport-ucx-np$np" "${mpirun_cmd[@]}" --mca pml ucx --mca pml_ucx_tls any \
        --mca pml_ucx_devices any "${transport_verbose[@]}" -np "$np" "$check" --quick
    expect_in_log 'rsag_check: np=[0-9]+ cases=[0-9]+ passed=[0-9]+ failed=0'
    expect_that assert_transport "$last_log" "$np" ucx
done

# The assertions reject a job that ran over ob1 + vader (what a silent fallback
# would look like): each test runs such a job, which must succeed, and the
# assertion must fail on its output.
vader_job_then_assert() {   # vader_job_then_assert ob1-tcp|ucx
    local log="$results/transport-vader-control.out"
    "${mpirun_cmd[@]}" --mca pml ob1 --mca btl self,vader "${transport_verbose[@]}" \
        -np 3 "$demo" >"$log" 2>&1 || { echo "the ob1 + vader job failed"; return 2; }
    grep -q 'results correct' "$log" || { echo "the ob1 + vader job gave no result"; return 2; }
    echo "control job: $(grep -c 'bml: Using vader btl for send' "$log") rank pairs over vader"
    assert_transport "$log" 3 "$1"
}
run_test transport-assertion-rejects-vader-as-tcp-np3 exits_nonzero vader_job_then_assert ob1-tcp
expect_in_log 'transport check: 0 of 6 rank pairs use the tcp btl'
expect_in_log 'control job: 6 rank pairs over vader'
run_test transport-assertion-rejects-ob1-as-ucx-np3 exits_nonzero vader_job_then_assert ucx
expect_in_log 'transport check: 0 of 3 ranks selected pml ucx'
