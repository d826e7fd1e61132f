# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# reproducible.sh: coll_rsag_reproducible = placement (doc/reproducible.md):
# for a given p, the same bits whatever algorithm, size, form and placement.
# Sourced by test/run_tests.sh.  (The `exact` mode has its own suite.)
#
#   reproducible-placement-node-npN (N = 4 .. 12, one node, oversubscribed:
#                         correctness only)  test/mpi/rsag_repro in one job:
#                         every algorithm forced through MPI_T and auto, 8 B ..
#                         256 KB, blocking, MPI_I* and persistent (starts
#                         asserted ordered and not), MPI_IN_PLACE or not, the
#                         four collectives, after a warm-up in off mode; every
#                         result is the left fold in rank order, bit for bit
#                         (so every variant the same hash), and rsag ran every
#                         call with direct or ordered (MPI_T counters: both
#                         ran); the hashes are kept for the cluster tests
#   reproducible-placement-fanin-np5  coll_rsag_direct_fanin 2 (direct's
#                         boxed tree, another association): placement runs
#                         direct flat, the same checks and hashes (a guard
#                         removed from coll_rsag_direct.c fails it)
#   reproducible-placement-noncomm-np6  a non-commutative user op (2x2
#                         matrix products): the result is MPI's order,
#                         x_0 x_1 ... x_5, from every variant
#   reproducible-off-control-np6  the control: the same program in off mode
#                         finds different bits across algorithms (else the
#                         tests above prove nothing)
#   reproducible-placement-differs-np3  rank 0 alone sets placement (MPI_T):
#                         the settings check stops the first blocking call
#                         with MPI_ERR_ARG on every rank, one line from rank 0
#   reproducible-placement-cluster-2x2-np4, -cluster-323-np8  the emulated
#                         cluster (doc/cluster.md; 2 hosts x 2 ranks, 3+2+3):
#                         the same checks (`ordered` ran, never `direct`), and
#                         the same hashes as the one-node job of the same p
#                         (which must run in the same invocation)
#   exact-cluster-323-np8  coll_rsag_reproducible = exact on 3+2+3:
#                         test/mpi/rsag_exact (exact.sh), every row forced and
#                         auto; auto's large calls by `ordered`'s fold over
#                         the network, the small ones by exact's one
#                         collective; the hashes of exact-sum-np4 (one node)
# About 40 s on 2 cores (the cluster ~15 s of it).  The cluster tests follow
# multinode.sh: a SKIP where namespaces cannot be made (a failure with
# RSAG_REQUIRE_MULTINODE=1), the lock of rsag-cluster.sh held meanwhile.

rp_prog="$here/mpi/rsag_repro"

# rp_hashes LOG: the "hash COLL BYTES HEX" lines of a job, sorted.
rp_hashes() { awk '/^hash / { print $2, $3, $4 }' "$1" | sort; }

# rp_same_hashes P: each of the last test's hashes is the one-node job's
# of p = P for that collective and size.
rp_same_hashes() {
    local mine theirs
    mine=$(rp_hashes "$last_log")
    theirs=$(rp_hashes "$results/reproducible-placement-node-np$1.log")
    if [ -z "$mine" ] || [ -n "$(comm -23 <(printf '%s\n' "$mine") <(printf '%s\n' "$theirs"))" ]; then
        echo "hashes differ from reproducible-placement-node-np$1:"
        diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$mine")
        return 1
    fi
    echo "same $(wc -l <<<"$mine") hashes as reproducible-placement-node-np$1"
}

# rp_expect_placement P: what every placement job must show.
rp_expect_placement() {
    expect_in_log "^PASS: mode placement, p = $1"
    expect_count "${2:-24}" "^hash [a-z_]+ [0-9]+ [0-9a-f]{16} \([0-9]+ variants, 1 different\)"
    expect_not_in_log '^FAIL'
}

for rp_np in 4 5 6 7 8 9 10 11 12; do
    run_test "reproducible-placement-node-np$rp_np" "${mpirun_cmd[@]}" -np "$rp_np" "$rp_prog"
    rp_expect_placement "$rp_np"
    # one node: direct where it runs, ordered where it cannot (MPI_I*
    # before the segment exists, unordered persistent starts, forced)
    expect_in_log '^ran direct [1-9][0-9]* ordered [1-9][0-9]* other 0 '
done

# direct's boxed tree asked for (auto keeps it flat below p = 24): placement
# must still fold flat, in rank order (the tree's association differs at
# 1 KB here), and give the one-node job's hashes
run_test reproducible-placement-fanin-np5 "${mpirun_cmd[@]}" -np 5 \
    --mca coll_rsag_direct_fanin 2 "$rp_prog" --max-bytes 1024
rp_expect_placement 5 12
expect_in_log '^ran direct [1-9][0-9]* ordered [1-9][0-9]* other 0 '
expect_ran reproducible-placement-node-np5
expect_that rp_same_hashes 5

run_test reproducible-placement-noncomm-np6 "${mpirun_cmd[@]}" -np 6 "$rp_prog" --noncomm \
    --max-bytes 8192
expect_in_log '^PASS: mode placement, p = 6, non-commutative op'
expect_in_log '^ran direct [1-9][0-9]* ordered [1-9][0-9]* other 0 '
expect_not_in_log '^FAIL'

run_test reproducible-off-control-np6 "${mpirun_cmd[@]}" -np 6 "$rp_prog" --mode off \
    --expect-differ --max-bytes 8192
expect_in_log '^PASS: mode off, p = 6'
expect_in_log '^hash [a-z_]+ [0-9]+ [0-9a-f]{16} \([0-9]+ variants, [2-9][0-9]* different\)'

run_test reproducible-placement-differs-np3 exits_with_error "${mpirun_cmd[@]}" -np 3 \
    "$here/mpi/rsag_erroneous" reproducible-one-rank --count 1000 --sync
expect_count 3 'rank [0-2]: reproducible-one-rank: MPI_ERR_ARG; '
expect_count 1 'coll:rsag: settings check: MPI_Allreduce on .*: coll_rsag_reproducible differs between ranks \(from 0 to 1\): MPI_ERR_ARG'

# --- the emulated cluster ---------------------------------------------------
rp_cluster="$top/contrib/rsag-cluster.sh"
rp_cluster_names=(reproducible-placement-cluster-2x2-np4 reproducible-placement-cluster-323-np8
                  exact-cluster-323-np8)
rp_wanted=0
for rp_name in "${rp_cluster_names[@]}"; do
    name_selected "$rp_name" && rp_wanted=1
done

rp_skip() {
    for rp_name in "${rp_cluster_names[@]}"; do
        if [ "${RSAG_REQUIRE_MULTINODE:-0}" = 1 ]; then
            run_test "$rp_name" sh -c 'echo "RSAG_REQUIRE_MULTINODE=1 and $1"; exit 1' sh "$1"
        else
            skip_test "$rp_name" "reproducible: $1"
        fi
    done
}

if [ "${list_only:-0}" = 1 ]; then
    for rp_name in "${rp_cluster_names[@]}"; do run_test "$rp_name" true; done
elif [ "$rp_wanted" = 1 ]; then
    if [ "$(id -u)" != 0 ]; then
        rp_skip "needs root to make network namespaces"
    elif ! unshare --net --uts true 2>/dev/null; then
        rp_skip "this kernel or container does not allow network/UTS namespaces"
    else
        exec {rp_lock}</run
        if ! flock -w "${RSAG_CLUSTER_LOCK_WAIT:-900}" "$rp_lock"; then
            rp_skip "another user of rsag-cluster.sh holds /run locked"
        elif ! "$rp_cluster" up 3 >"$results/reproducible-cluster-up.out" 2>&1; then
            for rp_name in "${rp_cluster_names[@]}"; do
                run_test "$rp_name" sh -c 'cat "$1"; echo "the emulated cluster did not come up"; exit 1' \
                    sh "$results/reproducible-cluster-up.out"
            done
        else
            rp_saved_traps=$(trap -p EXIT INT TERM)
            trap '"$rp_cluster" down >/dev/null 2>&1' EXIT
            trap '"$rp_cluster" down >/dev/null 2>&1; exit 130' INT TERM
            # shellcheck disable=SC2207
            rp_mpirun=(timeout -k 10 "${RSAG_MULTINODE_TIMEOUT:-300}" mpirun --allow-run-as-root
                       --oversubscribe $("$rp_cluster" mpirun-args))
            for rp_layout in "2x2 4 rsag-h1:2,rsag-h2:2" "323 8 rsag-h1:3,rsag-h2:2,rsag-h3:3"; do
                read -r rp_what rp_np rp_hosts <<<"$rp_layout"
                run_test "reproducible-placement-cluster-$rp_what-np$rp_np" "${rp_mpirun[@]}" \
                    --host "$rp_hosts" -np "$rp_np" "$rp_prog"
                rp_expect_placement "$rp_np"
                expect_in_log '^ran direct 0 ordered [1-9][0-9]* other 0 '
                expect_ran "reproducible-placement-node-np$rp_np"
                expect_that rp_same_hashes "$rp_np"
            done
            run_test exact-cluster-323-np8 "${rp_mpirun[@]}" --host rsag-h1:3,rsag-h2:2,rsag-h3:3 \
                -np 8 --mca coll_rsag_reproducible exact --mca coll_rsag_verbose 1 "$here/mpi/rsag_exact"
            exact_job_ok 8
            expect_in_log 'allreduce on MPI_COMM_WORLD .*exact: ordered folds every element'
            expect_in_log 'reduce_scatter on MPI_COMM_WORLD .*coll_rsag_reproducible exact: one collective'
            expect_not_in_log 'exact: direct folds'
            expect_ran exact-sum-np4
            expect_that exact_hashes_equal exact-sum-np4
            "$rp_cluster" down >/dev/null 2>&1
            trap - EXIT INT TERM
            eval "$rp_saved_traps"
        fi
        exec {rp_lock}<&-
    fi
fi
