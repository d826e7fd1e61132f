# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# multinode.sh: rsag on communicators that span nodes, on the emulated
# cluster of contrib/rsag-cluster.sh (doc/cluster.md).  Sourced by
# test/run_tests.sh.
#
# The suite brings up 3 hosts (rsag-h1..3), runs its tests and tears the
# cluster down; it holds the lock of "rsag-cluster.sh with" meanwhile, so two
# suites on one machine take turns.  For each layout, 2 hosts x 2 ranks (np 4)
# and 3 hosts with 2+1+2 ranks (np 5):
#   multinode-nodes-npN   MPI_COMM_TYPE_SHARED sees the expected nodes and
#                         sizes, one host name per node, every rank pair
#                         talks (test/mpi/rsag_nodes)
#   multinode-matrix-np4, multinode-matrix-capped-np5 (links capped at
#                         1 Gbit/s): rsag_check --quick, every algorithm of
#                         every collective forced in turn through MPI_T, and
#                         auto; each must report 0 failed, and rsag's counters
#                         prove it ran the forced algorithm (hierarchical's
#                         and leaders' counters moved for each collective:
#                         they apply to any placement with a node of >= 2)
# In all of them every rank pair on one node must use vader and every pair
# across nodes tcp (btl_base_verbose).  And:
#   multinode-exchange-chunks-np4  2 hosts x 2 ranks, exchanges across the
#                         hosts cut in 24-byte messages: rsag_check --quick
#                         (one case in 6), every algorithm forced, blocking
#                         and nonblocking, 0 failed
#   multinode-hier-auto-np4  2 hosts x 2 ranks: with the default thresholds
#                         auto chooses hierarchical for 1 MiB of each of the
#                         four collectives (the verbose trace says so, and
#                         that the node and cross-node communicators were
#                         made), rsag_bench's results are right
#   multinode-hier-roundrobin-np4  ranks placed round-robin by node (0, 2 on
#                         one host): rsag_check --quick with hierarchical
#                         forced for the four collectives; rsag's counters
#                         show hierarchical ran, non-commutative ops fall
#                         back to a flat algorithm with the reason traced
#   multinode-hier-forced-nonblocking-np4  2 hosts x 2 ranks, hierarchical
#                         forced by --mca for the four collectives, in the
#                         nonblocking and persistent forms (rsag_check
#                         --form): the trace says "hierarchical (forced)" and
#                         hierarchical's counters moved for each collective
#                         (on one node these forms only show its fallback)
#   multinode-hier-pipelined-np4  2 hosts x 2 ranks, hierarchical forced for
#                         the four collectives with small chunks
#                         (coll_rsag_hierarchical_chunk_size): a 1 MiB call
#                         of each in 16 chunks of 64 KiB, blocking,
#                         nonblocking and persistent (rsag_bench --forms),
#                         results right, the node step `direct` in the
#                         blocking form; then rsag_check --quick (every
#                         other case) in the three forms with 64-byte
#                         chunks (up to 256 lanes a call), 0 failed.  The
#                         verbose trace line "hierarchical <coll> ...
#                         pipelined in N chunks" proves the pipeline ran
#   multinode-hier-uneven-np5  2+1+2 ranks: forced hierarchical runs (S = 1:
#                         the trace says 1 cross-node communicator of 3 made,
#                         its counters moved), pipelined in 64-byte chunks
#                         (the trace says so), results right; non-commutative
#                         ops fall back, saying why
#   multinode-matrix-uneven-np8  3+2+3 ranks (S = 2): the matrix as above
#                         (but for the transport check: rsag's patterns leave
#                         some cross-node pairs silent at np 8)
#   multinode-hier-samebits-np8  3+2+3: MPI_Allreduce of non-integer doubles
#                         (rsag_nodes --samebits) with hierarchical forced,
#                         leaders forced, and auto (leaders at 8 KB,
#                         hierarchical at 1.1 MB, the trace says so): every
#                         rank gets the same bits, close to the sum
#   multinode-hier-pipelined-uneven-np8  3+2+3, placed by slot and by node:
#                         rsag_check (one case in 7) with hierarchical forced
#                         in 64-byte chunks, the three forms, 0 failed
#   multinode-hier-onethree-np4  1+3 ranks: rsag_check --quick (one case in 2)
#                         with hierarchical, then leaders, forced for the four
#                         collectives; both ran (counters), 0 failed
#   multinode-leaders-auto-np5  2+1+2: auto chooses leaders for 1 KiB of each
#                         collective (below coll_rsag_<coll>_leaders_max_bytes,
#                         the trace says so), rsag_bench's results right
#   multinode-checks-reject-wrong-job-np4  a job over tcp alone, expected on
#                         3 nodes, fails both checks
#   multinode-link-cap-np2  a ping-pong between 2 hosts, links capped at
#                         200 and then 50 Mbit/s: each rate stays under its
#                         cap (25, 6.25 MB/s), the 50 Mbit/s one is within 4x
#                         of its cap, and the 200 Mbit/s one at least twice
#                         it (4x expected): the cap is what limits the rate
#   multinode-down-leaves-nothing  no namespace, link, mount, /etc/hosts
#                         line, process or Open MPI file of the hosts is left
# Where namespaces cannot be made (not root, no netns/veth/bridge) or
# another suite holds the cluster's lock too long, each selected test is a
# SKIP, counted in the summary (.ci/run fails on it); RSAG_REQUIRE_MULTINODE=1
# makes each a failure instead.  Where they can, a cluster that does not come
# up fails each selected test.  About 5 minutes on
# 2 cores.
# RSAG_MULTINODE_TIMEOUT (seconds, default 300) bounds every mpirun.

mn_cluster="$top/contrib/rsag-cluster.sh"
mn_nodes="$here/mpi/rsag_nodes"
mn_bench="$top/contrib/rsag_bench"
mn_timeout=${RSAG_MULTINODE_TIMEOUT:-300}
mn_names=()
mn_names=(multinode-nodes-np4 multinode-nodes-np5 multinode-matrix-np4 multinode-exchange-chunks-np4
          multinode-hier-auto-np4 multinode-hier-roundrobin-np4
          multinode-hier-forced-nonblocking-np4 multinode-hier-uneven-np5
          multinode-matrix-uneven-np8 multinode-hier-samebits-np8
          multinode-hier-onethree-np4 multinode-leaders-auto-np5
          multinode-hier-pipelined-uneven-np8 multinode-hier-pipelined-np4
          multinode-checks-reject-wrong-job-np4 multinode-link-cap-np2
          multinode-matrix-capped-np5 multinode-down-leaves-nothing)

# Tests of this suite that the -k filter keeps (the cluster is made only for them).
mn_wanted=0
for mn_name in "${mn_names[@]}"; do
    name_selected "$mn_name" && mn_wanted=1
done

# mn_assert_pairs LOG NP: with btl_base_verbose, each rank names the btl it
# uses for every peer and the peer's node; the rank's own host is in the line
# prefix.  Every same-host pair must be vader, every other pair tcp.
mn_assert_pairs() {
    awk -v np="$2" '
        /mca: bml: Using [a-z0-9]+ btl for send to \[\[[0-9]+,[0-9]+\],[0-9]+\] on node / {
            me = $1; sub(/^\[/, "", me); sub(/:.*/, "", me)
            btl = $0; sub(/.*Using /, "", btl); sub(/ btl.*/, "", btl)
            node = $NF
            if (btl == "self") next
            if (me == node && btl == "vader") vader++
            else if (me != node && btl == "tcp") tcp++
            else { bad++; print "transport check: wrong btl: " $0 }
            if (me == node) same++
        }
        END {
            printf "transport check: %d same-node pairs over vader, %d cross-node pairs over tcp, %d wrong\n", vader, tcp, bad
            if (bad || vader + tcp != np * (np - 1) || vader != same) {
                printf "transport check: expected %d rank pairs, one line each\n", np * (np - 1)
                exit 1
            }
        }' "$1"
}

# mn_note CHECK ARGS...: run a check on the last log, then append its output.
mn_note() {
    local out rc
    out=$("$@"); rc=$?
    printf '%s\n' "$out" >>"$last_log"
    return "$rc"
}

# What the cluster and Open MPI on its hosts could leave behind.
mn_leftovers() {
    local left=0
    [ -e /run/rsag-cluster ] && { echo "left: /run/rsag-cluster"; left=1; }
    findmnt -rn -o TARGET | grep '^/run/rsag-cluster' && left=1
    ip -o link show | awk -F': ' '{print $2}' | grep -E '^rsag-(br0|v[0-9]+|n[0-9]+)(@|$)' && left=1
    grep -F '# rsag-cluster' /etc/hosts && left=1
    local f
    for f in /dev/shm/*rsag-h[0-9]*; do [ -e "$f" ] && { echo "left: $f"; left=1; }; done
    ls -d /tmp/ompi.rsag-h* 2>/dev/null && left=1
    pgrep -a -f 'orted .*plm_rsh_agent "?/run/rsag-cluster/agent' && left=1
    [ "$left" = 0 ] && echo "nothing left"
    return "$left"
}
mn_down_and_check() { "$mn_cluster" down && mn_leftovers; }

# mn_pingpong_rate RATE: the links capped at RATE (tc), a ping-pong of 2 MiB
# messages between 2 hosts; prints its output and last "rate=<MB/s>".
mn_pingpong_rate() {
    local out
    "$mn_cluster" rate "$1" >/dev/null || { echo "link cap: cannot set $1"; return 1; }
    out=$("${mn_mpirun[@]}" --host rsag-h1:1,rsag-h2:1 -np 2 "$mn_nodes" --expect-nodes 2 \
              --pingpong 2097152 --iters 10 2>&1) || { printf '%s\n' "$out"; return 1; }
    printf '%s\n' "$out"
    awk '/pingpong .* other-node/ {
            for (i = 1; i <= NF; i++) if ($(i + 1) == "MB/s,") rate = $i }
         END { if (rate == "") exit 1; print "rate=" rate }' <<<"$out"
}

# mn_link_cap: both sides of the cap.  At 200 Mbit/s (25 MB/s on the wire,
# counted both ways) and at 50 Mbit/s (6.25 MB/s) each ping-pong stays under
# its cap; the 50 Mbit/s one is at least a quarter of its cap (the link is
# not broken or stalled), and the 200 Mbit/s one at least twice the 50 Mbit/s
# one (4x if the caps alone limit): a cap that does nothing, or a machine
# too slow to reach 25 MB/s between namespaces, fails.  Margins for a loaded
# 2-core machine: 2 MiB messages need little CPU at these rates.
mn_link_cap() {
    local out hi lo
    out=$(mn_pingpong_rate 200mbit) || { printf '%s\n' "$out"; return 1; }
    printf '%s\n' "$out"; hi=$(sed -n 's/^rate=//p' <<<"$out")
    out=$(mn_pingpong_rate 50mbit) || { printf '%s\n' "$out"; return 1; }
    printf '%s\n' "$out"; lo=$(sed -n 's/^rate=//p' <<<"$out")
    awk -v hi="$hi" -v lo="$lo" 'BEGIN {
        printf "link cap: %s MB/s at 200 Mbit/s (cap 25), %s MB/s at 50 Mbit/s (cap 6.25)\n", hi, lo
        bad = 0
        if (hi + 0 > 25) { print "link cap: 200 Mbit/s not held"; bad = 1 }
        if (lo + 0 > 6.25) { print "link cap: 50 Mbit/s not held"; bad = 1 }
        if (lo + 0 < 6.25 / 4) { print "link cap: 50 Mbit/s link below a quarter of its cap"; bad = 1 }
        if (hi + 0 < 2 * lo) { print "link cap: 4x the cap did not give at least 2x the rate"; bad = 1 }
        if (!bad) print "link cap: both caps hold and limit the rate"
        exit bad }'
}

# mn_skip REASON: the cluster cannot be made here: every selected test of
# the suite is a SKIP (counted in the summary), or one failure with
# RSAG_REQUIRE_MULTINODE=1.
mn_skip() {
    if [ "${RSAG_REQUIRE_MULTINODE:-0}" = 1 ]; then
        mn_fail_all "RSAG_REQUIRE_MULTINODE=1 and $1"
        return
    fi
    for mn_name in "${mn_names[@]}"; do
        skip_test "$mn_name" "multinode: $1"
    done
}

# mn_fail_all MESSAGE [FILE]: every selected test of the suite fails, with
# MESSAGE (and FILE's contents) in its log: the cluster it needs is not there.
mn_fail_all() {
    for mn_name in "${mn_names[@]}"; do
        run_test "$mn_name" sh -c '[ -z "$2" ] || cat "$2"; echo "$1"; exit 1' sh "$1" "${2:-}"
    done
}

if [ "${list_only:-0}" = 1 ]; then
    for mn_name in "${mn_names[@]}"; do run_test "$mn_name" true; done
elif [ "$mn_wanted" = 1 ]; then
    mn_ok=1
    if [ "$(id -u)" != 0 ]; then
        mn_skip "needs root to make network namespaces"; mn_ok=0
    elif ! unshare --net --uts true 2>/dev/null; then
        mn_skip "this kernel or container does not allow network/UTS namespaces (unshare --net --uts failed)"; mn_ok=0
    else
        exec {mn_lock}</run
        if ! flock -w "${RSAG_CLUSTER_LOCK_WAIT:-900}" "$mn_lock"; then
            mn_skip "another user of rsag-cluster.sh holds /run locked"; mn_ok=0
        elif ! "$mn_cluster" up 3 >"$results/multinode-cluster-up.out" 2>&1; then
            # namespaces work here, so this is a fault of the cluster script
            # or of the machine's set-up, not a reason to skip
            mn_fail_all "the emulated cluster did not come up (rsag-cluster.sh up 3 failed)" \
                "$results/multinode-cluster-up.out"
            mn_ok=0
        fi
    fi

    if [ "$mn_ok" = 1 ]; then
        mn_saved_traps=$(trap -p EXIT INT TERM)
        trap '"$mn_cluster" down >/dev/null 2>&1' EXIT
        trap '"$mn_cluster" down >/dev/null 2>&1; exit 130' INT TERM
        # shellcheck disable=SC2207
        mn_mpirun=(timeout -k 10 "$mn_timeout" mpirun --allow-run-as-root
                   $("$mn_cluster" mpirun-args))
        mn_verbose=(--mca btl_base_verbose 30)

        # mn_matrix NAME NP HOSTS [ARGS...]: rsag_check's quick matrix with
        # every algorithm forced in turn (MPI_T) and auto, over vader and
        # tcp (ARGS: more rsag_check options).
        mn_matrix() {
            local name=$1 np=$2 hosts=$3
            shift 3
            run_test "$name" "${mn_mpirun[@]}" "${mn_verbose[@]}" --oversubscribe --host "$hosts" \
                -np "$np" "$check" --quick "$@"
            expect_in_log "rsag_check: np=$np cases=[0-9]+ passed=[0-9]+ failed=0"
            local coll alg
            for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
                for alg in $(enum_values "$coll"); do
                    expect_in_log "forced $coll=$alg: [1-9][0-9]* cases, 0 failed"
                done
                # every layout here has a node of >= 2 ranks: forced
                # hierarchical and leaders apply (any placement) and ran
                expect_in_log "ran under coll_rsag_${coll}_hierarchical_calls: [1-9][0-9]* cases"
                expect_in_log "ran under coll_rsag_${coll}_leaders_calls: [1-9][0-9]* cases"
            done
            # mn_pairs=0: not every rank pair talks in the matrix (np 8:
            # rsag's patterns leave some cross-node pairs silent)
            [ -n "$last_name" ] && [ "${mn_pairs:-1}" = 1 ] &&
                { mn_note mn_assert_pairs "$last_log" "$np" || reopen_failed; }
        }

        for mn_layout in "4 2 2,2 rsag-h1:2,rsag-h2:2 rsag-h1,rsag-h2" \
                         "5 3 2,1,2 rsag-h1:2,rsag-h2:1,rsag-h3:2 rsag-h1,rsag-h2,rsag-h3"; do
            read -r mn_np mn_n mn_sizes mn_hosts mn_names_seen <<<"$mn_layout"
            run_test "multinode-nodes-np$mn_np" "${mn_mpirun[@]}" "${mn_verbose[@]}" \
                --host "$mn_hosts" -np "$mn_np" "$mn_nodes" \
                --expect-nodes "$mn_n" --expect-sizes "$mn_sizes"
            expect_in_log "rsag_nodes: np=$mn_np nodes=$mn_n sizes=$mn_sizes hosts=$mn_names_seen\$"
            [ -n "$last_name" ] && { mn_note mn_assert_pairs "$last_log" "$mn_np" || reopen_failed; }
        done

        mn_matrix multinode-matrix-np4 4 rsag-h1:2,rsag-h2:2

        # Exchanges with a rank on another node go in messages of at most
        # coll_rsag_exchange_chunk_size (coll_rsag_sched.c): 24 bytes cuts
        # every exchange across the two hosts of rsag_check's vectors into
        # many (recursive doubling and halving, Rabenseifner, their folds,
        # hierarchical's cross step), the node's exchanges stay whole.
        run_test multinode-exchange-chunks-np4 "${mn_mpirun[@]}" --oversubscribe \
            --host rsag-h1:2,rsag-h2:2 -np 4 --mca coll_rsag_exchange_chunk_size 24 \
            "$check" --quick --every 6 --form blocking,nonblocking
        expect_in_log "rsag_check: np=4 cases=[1-9][0-9]* passed=[0-9]+ failed=0"
        for mn_coll in allreduce reduce reduce_scatter_block reduce_scatter; do
            for mn_alg in $(enum_values "$mn_coll"); do
                expect_in_log "forced $mn_coll=$mn_alg: [1-9][0-9]* cases, 0 failed"
            done
        done

        # hierarchical (doc/hierarchical.md): auto takes it on 2 hosts x 2
        # ranks at 1 MiB, for each collective.
        mn_hier_auto() {
            local coll rc=0
            for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
                "${mn_mpirun[@]}" --mca coll_rsag_verbose 1 --host rsag-h1:2,rsag-h2:2 -np 4 \
                    "$mn_bench" --coll "$coll" --rsag-algorithms current --sizes 1M \
                    --iters 2 --warmup 1 || rc=1
            done
            return "$rc"
        }
        run_test multinode-hier-auto-np4 mn_hier_auto
        expect_in_log 'coll:rsag: hierarchical on MPI_COMM_WORLD \(cid 0, size 4\): 2 nodes x 2 ranks: node communicators of 2 ranks, 2 cross-node communicators of 2 ranks made'
        for mn_coll in allreduce reduce reduce_scatter_block reduce_scatter; do
            expect_in_log "coll:rsag: $mn_coll on MPI_COMM_WORLD \(cid 0, size 4\): [0-9]+ bytes .* -> hierarchical \(auto\); coll_rsag_${mn_coll}_hierarchical_min_bytes [0-9]+ <= bytes \(default for several nodes\)"
        done
        expect_not_in_log 'VERIFY FAILED'

        # Placement round-robin by node: ranks 0 and 2 on one host, 1 and 3
        # on the other; hierarchical forced for every collective.
        mn_forced_hier=()
        for mn_coll in allreduce reduce reduce_scatter_block reduce_scatter; do
            mn_forced_hier+=(--mca "coll_rsag_${mn_coll}_algorithm" hierarchical)
        done
        run_test multinode-hier-roundrobin-np4 "${mn_mpirun[@]}" --map-by node \
            "${mn_forced_hier[@]}" --mca coll_rsag_verbose 1 --host rsag-h1:2,rsag-h2:2 -np 4 \
            "$check" --quick --algorithms current
        expect_in_log 'rsag_check: np=4 cases=[0-9]+ passed=[0-9]+ failed=0'
        for mn_coll in allreduce reduce reduce_scatter_block reduce_scatter; do
            expect_in_log "ran under coll_rsag_${mn_coll}_hierarchical_calls: [1-9][0-9]* cases"
        done
        expect_in_log '\(hierarchical forced but it needs commutative op\)'

        # The same forced by --mca on 2 x 2 ranks in the nonblocking and
        # persistent forms (one case in 3 of each block): hierarchical runs
        # there, and says so; non-commutative ops fall back.
        run_test multinode-hier-forced-nonblocking-np4 "${mn_mpirun[@]}" \
            "${mn_forced_hier[@]}" --mca coll_rsag_verbose 1 --host rsag-h1:2,rsag-h2:2 -np 4 \
            "$check" --quick --every 3 --form nonblocking,persistent --algorithms current
        expect_in_log 'rsag_check: np=4 cases=[1-9][0-9]* passed=[0-9]+ failed=0'
        for mn_coll in allreduce reduce reduce_scatter_block reduce_scatter; do
            expect_in_log "$mn_coll \(nonblocking or persistent\) on MPI_COMM_WORLD .* -> hierarchical \(forced\)"
            expect_in_log "rsag_check: forced $mn_coll=hierarchical: [1-9][0-9]* cases, 0 failed"
            expect_in_log "ran under coll_rsag_${mn_coll}_hierarchical_calls: [1-9][0-9]* cases"
        done

        # The pipelined hierarchical (doc/hierarchical.md, "The pipeline"):
        # MPI_Allreduce and MPI_Reduce forced, cut into small chunks, in the
        # three forms; the trace names the chunks of each call.
        mn_hier_pipelined() {
            local coll rc=0
            for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
                "${mn_mpirun[@]}" --mca "coll_rsag_${coll}_algorithm" hierarchical \
                    --mca coll_rsag_hierarchical_chunk_size 65536 --mca coll_rsag_verbose 1 \
                    --host rsag-h1:2,rsag-h2:2 -np 4 "$mn_bench" --coll "$coll" \
                    --forms blocking,nonblocking,persistent --sizes 1M --iters 2 \
                    --warmup 1 || rc=1
            done
            "${mn_mpirun[@]}" "${mn_forced_hier[@]}" \
                --mca coll_rsag_hierarchical_chunk_size 64 --mca coll_rsag_verbose 1 \
                --host rsag-h1:2,rsag-h2:2 -np 4 "$check" --quick --every 2 \
                --algorithms current --form blocking,nonblocking,persistent || rc=1
            return "$rc"
        }
        run_test multinode-hier-pipelined-np4 mn_hier_pipelined
        for mn_coll in allreduce reduce reduce_scatter_block reduce_scatter; do
            expect_in_log "coll:rsag: hierarchical $mn_coll on MPI_COMM_WORLD \(cid 0, size 4\): 1048576 bytes pipelined in 16 chunks \(coll_rsag_hierarchical_chunk_size 65536\)"
            expect_in_log "coll:rsag: hierarchical $mn_coll \(nonblocking or persistent\) on MPI_COMM_WORLD \(cid 0, size 4\): 1048576 bytes pipelined in 16 chunks"
            for mn_form in blocking nonblocking persistent; do
                expect_in_log "^current_$mn_form,$mn_coll,4,1048576,[^ ]*,ok,"
            done
            expect_in_log "hierarchical $mn_coll( \(nonblocking or persistent\))? on .* pipelined in 256 chunks \(coll_rsag_hierarchical_chunk_size 64\)"
            expect_in_log "rsag_check: forced $mn_coll=hierarchical: [1-9][0-9]* cases, 0 failed"
        done
        expect_in_log "coll:rsag: reduce_scatter on rsag node 0 of cid 0 \(cid [0-9]+, size 2\): 65536 bytes .* -> direct"
        expect_in_log 'rsag_check: np=4 cases=[1-9][0-9]* passed=[0-9]+ failed=0'
        expect_not_in_log 'VERIFY FAILED'

        # 2+1+2 ranks: hierarchical runs with S = 1 (the node leaders carry
        # the whole vector across); non-commutative ops fall back.
        # Cut into 64-byte chunks: the pipeline on uneven nodes too.
        run_test multinode-hier-uneven-np5 "${mn_mpirun[@]}" "${mn_forced_hier[@]}" \
            --mca coll_rsag_verbose 1 --mca coll_rsag_hierarchical_chunk_size 64 \
            --host rsag-h1:2,rsag-h2:1,rsag-h3:2 -np 5 \
            "$check" --quick --algorithms current --coll allreduce,reduce_scatter
        expect_in_log 'coll:rsag: hierarchical allreduce on MPI_COMM_WORLD \(cid 0, size 5\): [0-9]+ bytes pipelined in [0-9]+ chunks'
        expect_in_log 'coll:rsag: hierarchical reduce_scatter on MPI_COMM_WORLD \(cid 0, size 5\): [0-9]+ bytes pipelined in [0-9]+ chunks'
        expect_in_log 'rsag_check: np=5 cases=[0-9]+ passed=[0-9]+ failed=0'
        expect_in_log 'coll:rsag: hierarchical on MPI_COMM_WORLD \(cid 0, size 5\): 3 nodes of 1 ranks or more \(uneven\): .* 1 cross-node communicators of 3 ranks made'
        expect_in_log 'ran under coll_rsag_allreduce_hierarchical_calls: [1-9][0-9]* cases'
        expect_in_log 'ran under coll_rsag_reduce_scatter_hierarchical_calls: [1-9][0-9]* cases'
        expect_in_log '\(hierarchical forced but it needs commutative op\)'

        # 3+2+3 ranks (S = 2; local index 2 has no cross communicator):
        # the matrix, every algorithm forced.
        mn_pairs=0 mn_matrix multinode-matrix-uneven-np8 8 rsag-h1:3,rsag-h2:2,rsag-h3:3

        # Non-integer doubles on 3+2+3: every rank gets the same bits from
        # hierarchical and leaders forced, and from auto (leaders below
        # 64 KiB, hierarchical from there on, ahead of the flat rows: the
        # 160000-byte call is one Rabenseifner would take by its threshold).
        mn_samebits() {
            local alg rc=0
            for alg in hierarchical leaders auto; do
                echo "== allreduce $alg"
                "${mn_mpirun[@]}" --oversubscribe --mca coll_rsag_allreduce_algorithm "$alg" \
                    --mca coll_rsag_verbose 1 --host rsag-h1:3,rsag-h2:2,rsag-h3:3 -np 8 \
                    "$mn_nodes" --samebits 3,1000,20000,140000 || rc=1
            done
            return "$rc"
        }
        run_test multinode-hier-samebits-np8 mn_samebits
        expect_in_log 'coll:rsag: allreduce on MPI_COMM_WORLD \(cid 0, size 8\): 8000 bytes .* -> hierarchical \(forced\)'
        expect_in_log 'coll:rsag: allreduce on MPI_COMM_WORLD \(cid 0, size 8\): 8000 bytes .* -> leaders \(forced\)'
        expect_in_log 'coll:rsag: allreduce on MPI_COMM_WORLD \(cid 0, size 8\): 8000 bytes .* -> leaders \(auto\)'
        expect_in_log 'coll:rsag: allreduce on MPI_COMM_WORLD \(cid 0, size 8\): 160000 bytes .* -> hierarchical \(auto\)'
        expect_in_log 'coll:rsag: allreduce on MPI_COMM_WORLD \(cid 0, size 8\): 1120000 bytes .* -> hierarchical \(auto\)'
        expect_count 12 'samebits [0-9]+ doubles: same bits on all ranks'
        expect_not_in_log 'samebits .*FAILED'

        # 3+2+3 ranks, the pipeline in 64-byte chunks, by slot and by node,
        # the three forms: every rank must cut a call into as many chunks,
        # whatever the size of its node (a rank on the 2-rank node that cut
        # by its own node size once waited forever for a lane).
        mn_pipe_uneven() {
            local map rc=0
            for map in slot node; do
                "${mn_mpirun[@]}" --oversubscribe "${mn_forced_hier[@]}" \
                    --mca coll_rsag_hierarchical_chunk_size 64 --map-by "$map" \
                    --host rsag-h1:3,rsag-h2:2,rsag-h3:3 -np 8 "$check" --quick --every 7 \
                    --algorithms current --form blocking,nonblocking,persistent || rc=1
            done
            return "$rc"
        }
        run_test multinode-hier-pipelined-uneven-np8 mn_pipe_uneven
        expect_count 2 'rsag_check: np=8 cases=[1-9][0-9]* passed=[0-9]+ failed=0'
        for mn_coll in allreduce reduce reduce_scatter_block reduce_scatter; do
            expect_count 2 "rsag_check: forced $mn_coll=hierarchical: [1-9][0-9]* cases, 0 failed"
        done

        # 1+3 ranks: hierarchical and leaders forced for the four
        # collectives (one case in 2), both run.
        mn_onethree() {
            local alg coll rc=0 forced
            for alg in hierarchical leaders; do
                forced=()
                for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
                    forced+=(--mca "coll_rsag_${coll}_algorithm" "$alg")
                done
                "${mn_mpirun[@]}" --oversubscribe "${forced[@]}" --host rsag-h1:1,rsag-h2:3 \
                    -np 4 "$check" --quick --every 2 --algorithms current || rc=1
            done
            return "$rc"
        }
        run_test multinode-hier-onethree-np4 mn_onethree
        for mn_coll in allreduce reduce reduce_scatter_block reduce_scatter; do
            expect_in_log "ran under coll_rsag_${mn_coll}_hierarchical_calls: [1-9][0-9]* cases"
            expect_in_log "ran under coll_rsag_${mn_coll}_leaders_calls: [1-9][0-9]* cases"
        done
        expect_count 2 'rsag_check: np=4 cases=[0-9]+ passed=[0-9]+ failed=0'

        # Small messages on 2+1+2 under auto: leaders for the four
        # collectives (below coll_rsag_<coll>_leaders_max_bytes), results right.
        mn_leaders_auto() {
            local coll rc=0
            for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
                "${mn_mpirun[@]}" --oversubscribe --mca coll_rsag_verbose 1 \
                    --host rsag-h1:2,rsag-h2:1,rsag-h3:2 -np 5 "$mn_bench" --coll "$coll" \
                    --rsag-algorithms current --sizes 1K --iters 2 --warmup 1 || rc=1
            done
            return "$rc"
        }
        run_test multinode-leaders-auto-np5 mn_leaders_auto
        for mn_coll in allreduce reduce reduce_scatter_block reduce_scatter; do
            mn_bound=65536                          # the defaults: allreduce 64 KiB, reduce 4 KiB,
            case $mn_coll in reduce) mn_bound=4096 ;; reduce_scatter*) mn_bound=131072 ;; esac   # the reduce-scatters 128 KiB
            expect_in_log "coll:rsag: $mn_coll on MPI_COMM_WORLD \(cid 0, size 5\): [0-9]+ bytes .* -> leaders \(auto\); bytes < coll_rsag_${mn_coll}_leaders_max_bytes $mn_bound \(several nodes\)"
        done
        expect_not_in_log 'VERIFY FAILED'

        # The checks reject what they must: a job over tcp alone (no vader
        # between ranks of one host) on 2 nodes, expected on 3.
        mn_wrong_job() {
            local log="$results/multinode-wrong-job.out"
            "${mn_mpirun[@]/self,vader,tcp/self,tcp}" "${mn_verbose[@]}" \
                --host rsag-h1:2,rsag-h2:2 -np 4 "$mn_nodes" --expect-nodes 3 >"$log" 2>&1 &&
                { echo "rsag_nodes accepted 2 nodes for 3"; return 1; }
            grep 'rsag_nodes:' "$log"
            if mn_assert_pairs "$log" 4; then echo "the pair check accepted tcp within a host"; return 1; fi
            return 0
        }
        run_test multinode-checks-reject-wrong-job-np4 mn_wrong_job
        expect_in_log 'rsag_nodes: expected 3 nodes'
        expect_in_log 'transport check: wrong btl: .* Using tcp btl .* on node rsag-h1'

        # 200 and 50 Mbit/s are below what the links carry uncapped on this
        # machine, so the caps are what limit the ping-pong (both checked).
        run_test multinode-link-cap-np2 mn_link_cap
        expect_in_log 'link cap: both caps hold and limit the rate'

        # The 3-host matrix runs on 1 Gbit/s links.
        "$mn_cluster" rate 1gbit >/dev/null
        mn_matrix multinode-matrix-capped-np5 5 rsag-h1:2,rsag-h2:1,rsag-h3:2

        run_test multinode-down-leaves-nothing mn_down_and_check
        "$mn_cluster" down >/dev/null 2>&1     # also when -k left that test out
        trap - EXIT INT TERM
        eval "$mn_saved_traps"
    fi
    [ -n "${mn_lock:-}" ] && exec {mn_lock}<&-
fi
