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

# transport_verbose and assert_transport: test/lib.sh.

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
# would look like): the first of these tests runs such a job (the second uses
# the same job's output when this run made it), which must succeed, and the
# assertion must fail on its output.
transport_control_done=0
vader_job_then_assert() {   # vader_job_then_assert ob1-tcp|ucx
    local log="$results/transport-vader-control.out"
    if [ "$transport_control_done" = 1 ]; then
        echo "control job: the one of this run ($log)"
    else
        "${mpirun_cmd[@]}" --mca pml ob1 --mca btl self,vader "${transport_verbose[@]}" \
            -np 3 "$demo" >"$log" 2>&1 || { echo "the ob1 + vader job failed"; return 2; }
        transport_control_done=1
    fi
    grep -q 'results correct' "$log" || { echo "the ob1 + vader job gave no result"; return 2; }
    echo "control job: $(grep -c 'bml: Using vader btl for send' "$log") rank pairs over vader"
    assert_transport "$log" 3 "$1"
}
run_test transport-assertion-rejects-vader-as-tcp-np3 exits_nonzero vader_job_then_assert ob1-tcp
expect_in_log 'transport check: 0 of 6 rank pairs use the tcp btl'
expect_in_log 'control job: 6 rank pairs over vader'
run_test transport-assertion-rejects-ob1-as-ucx-np3 exits_nonzero vader_job_then_assert ucx
expect_in_log 'transport check: 0 of 3 ranks selected pml ucx'
