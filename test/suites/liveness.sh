# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# liveness.sh: a rank that dies in the middle of a collective ends the job
# promptly, with Open MPI's usual error, on every path of rsag, and leaves
# nothing in /dev/shm (doc/reliability.md, "Liveness").  Sourced by
# test/run_tests.sh.
#
# liveness-kill-<path>-np3: test/mpi/rsag_victim loops one collective forced
# to one path; rank 1 raises SIGKILL on itself just before its call 20, so
# ranks 0 and 2 are inside call 20 waiting for it (in a PML wait, or on a
# flag of the node segment for `direct`).  liveness-kill-setup-np3: rank 1
# dies before its first `direct` call, once rank 0's segment is in /dev/shm,
# i.e. while ranks 0 and 2 are in the segment's set-up.  Each test passes
# when:
#   - the job ends by itself before RSAG_LIVENESS_LIMIT seconds (default
#     120; a job that `timeout` has to end fails, whatever its status) with a
#     non-zero status (it cannot finish: its loop is 1000 calls);
#   - the victim printed that rsag ran the forced path 20 times (setup: that
#     rank 0's segment existed) before it died;
#   - after the first call no rsag-* name of rank 0 was in /dev/shm (direct:
#     the segment is mapped and its name already unlinked);
#   - mpirun's log names rank 1 as exited on signal 9;
#   - no name of the job is in /dev/shm: rsag's segment (rsag-<jobid>-... made
#     by rank 0's pid) nor vader's (vader_segment.<host>.<jobid>.<rank>).
# About 2-5 s each on an idle 2-core machine.  At the end,
# multinode-kill-hierarchical-np4: the same for hierarchical on 2 emulated
# hosts (below).

# shellcheck source=liveness.inc
. "$here/suites/liveness.inc"
liveness_limit=${RSAG_LIVENESS_LIMIT:-120}

# liveness_verdict JOB BEFORE: the checks of a job whose output is the file
# JOB (liveness_run's results set), BEFORE the listing of /dev/shm before it.
liveness_verdict() {
    local job="$1" before="$2" rc=0
    cat "$job"
    echo "liveness: mpirun exit status $liveness_rc after ${liveness_secs} s (limit ${liveness_limit} s)"
    awk -v end="$(date +%s.%N)" '/raises SIGKILL before call [0-9]+ at / {
            printf "liveness: the job ended %.1f s after the kill\n", end - $NF }' "$job"
    if [ "$liveness_timed_out" = 1 ]; then
        echo "liveness: TIMEOUT: the job did not end by itself within ${liveness_limit} s"
        rc=1
    elif [ "$liveness_rc" = 0 ]; then
        echo "liveness: the job finished normally: the victim did not die"
        rc=1
    fi
    liveness_shm_left "$job" "$before" || rc=1
    rm -f "$job"
    return "$rc"
}

# liveness_kill NP ARGS... (of rsag_victim): the job with rank 1 the victim.
liveness_kill() {
    local np="$1" before job="$last_log.job"
    shift
    before=$(ls -A /dev/shm 2>/dev/null)
    : >"$job"
    liveness_run "$liveness_limit" "$job" -np "$np" "$liveness_victim" --victim 1 "$@"
    liveness_verdict "$job" "$before"
}

liveness_signal9='(mpirun|prterun) noticed that process rank 1 with PID [0-9]+ on node [^ ]+ exited on signal 9'
# liveness_signal9_in_log: the launcher's line, which Open MPI 5.0's prterun
# wraps after "exited on", so the log is read with its lines joined.
liveness_signal9_in_log() {
    tr -s '\n' ' ' <"$last_log" | grep -qE "$liveness_signal9" && echo "the launcher's signal 9 line is there"
}

# name, then rsag_victim's arguments: collective, path, form, size
liveness_paths=(
    "recursive-doubling --coll allreduce --alg recursive_doubling --count 16"
    "rabenseifner --coll allreduce --alg rabenseifner --count 4096"
    "ring --coll allreduce --alg ring --count 20000"
    "priority-aware --coll reduce_scatter_block --alg priority_aware --count 4096"
    "binomial --coll reduce --alg binomial --count 64"
    "nonblocking --coll allreduce --alg rabenseifner --form nonblocking --count 4096"
    "persistent --coll reduce_scatter --alg ring --form persistent --count 8192"
    "direct --coll allreduce --alg direct --count 20000"
    "direct-latency --coll allreduce --alg direct --count 2"
    "direct-nonblocking --coll allreduce --alg direct --form nonblocking --count 20000"
    "direct-persistent --coll reduce_scatter_block --alg direct --form persistent --count 4096"
)
for liveness_p in "${liveness_paths[@]}"; do
    # shellcheck disable=SC2086
    set -- $liveness_p
    liveness_name=$1
    shift
    liveness_alg=$(printf '%s\n' "$@" | sed -n '/^--alg$/{n;p}')
    run_test "liveness-kill-$liveness_name-np3" liveness_kill 3 "$@" --at 20
    expect_in_log "rsag_victim: rank 1 pid [0-9]+: 20 calls by $liveness_alg( \(persistent starts\))? so far; raises SIGKILL before call 20"
    expect_that liveness_signal9_in_log
    expect_in_log 'liveness: nothing of this job .* in /dev/shm'
    expect_not_in_log 'rsag_victim: (PASS|FAIL)'
    # the segment's name is gone as soon as every rank has mapped it
    expect_in_log 'rsag_victim: after the first call, rsag-\* names of rank 0 in /dev/shm: 0$'
done
set --

# the boxed tree (fan-in 2 at np 4: rank 1 is rank 0's first child): rank 0
# waits for the dead rank's box, the others for rank 0's result; the
# launcher ends the job and nothing stays in /dev/shm
liveness_kill_tree() {
    (export OMPI_MCA_coll_rsag_direct_fanin=2; liveness_kill "$@")
}
run_test liveness-kill-direct-tree-np4 liveness_kill_tree 4 --coll allreduce --alg direct \
    --count 2 --at 20
expect_in_log 'rsag_victim: rank 1 pid [0-9]+: 20 calls by direct so far; raises SIGKILL before call 20'
expect_that liveness_signal9_in_log
expect_in_log 'liveness: nothing of this job .* in /dev/shm'
expect_not_in_log 'rsag_victim: (PASS|FAIL)'

# (rsag_victim's one call under auto before the set-up must not make the
# segment: auto's direct, from 8 B at p <= 4 by default, is left off)
liveness_kill_auto_p2p() {
    (export OMPI_MCA_coll_rsag_allreduce_direct_min_bytes=9223372036854775807; liveness_kill "$@")
}
run_test liveness-kill-setup-np3 liveness_kill_auto_p2p 3 --coll allreduce --alg direct \
    --count 20000 --at 0 --in-setup
expect_in_log 'rsag_victim: rank 1: rank 0 is in the set-up: /dev/shm/rsag-[0-9]+-[0-9]+-[0-9]+-[0-9]+ exists'
expect_in_log 'rsag_victim: rank 1 pid [0-9]+: 0 calls by direct so far; raises SIGKILL before call 0'
expect_that liveness_signal9_in_log
expect_in_log 'liveness: nothing of this job .* in /dev/shm'

# hierarchical needs several nodes: the emulated cluster of
# contrib/rsag-cluster.sh (doc/cluster.md), 2 hosts x 2 ranks, brought up for
# this one test under the cluster's lock ("with") and taken down after it.
# Rank 1 (on rsag-h1) dies before call 20 of a hierarchical allreduce; the
# others wait in its node step or, on rsag-h2, in the cross-node step.  Its
# orted reports the death to mpirun, which ends the job.  Where namespaces
# cannot be made it prints one SKIP line and counts nothing, as multinode.sh
# does (RSAG_REQUIRE_MULTINODE=1: a failure instead).  About 20 s.
liveness_cluster="$top/contrib/rsag-cluster.sh"
liveness_kill_on_cluster() {
    local before job="$last_log.job"
    before=$(ls -A /dev/shm 2>/dev/null)
    : >"$job"
    # shellcheck disable=SC2016
    RSAG_CLUSTER_LOCK_WAIT=${RSAG_CLUSTER_LOCK_WAIT:-900} "$liveness_cluster" with 2 -- \
        bash -c 'out=$1 limit=$2 cluster=$3; shift 3
                 t0=$(date +%s%N)
                 timeout -k 10 "$limit" mpirun --allow-run-as-root $("$cluster" mpirun-args) \
                     "$@" >>"$out" 2>&1
                 echo "liveness-cluster: $? $(( ($(date +%s%N) - t0) / 1000000000 ))" >>"$out"' \
        _ "$job" "$liveness_limit" "$liveness_cluster" --host rsag-h1:2,rsag-h2:2 -np 4 \
        "$liveness_victim" --victim 1 --coll allreduce --alg hierarchical --count 20000 --at 20 \
        >"$job.cluster" 2>&1
    if ! grep -q '^liveness-cluster: ' "$job"; then
        echo "liveness: the cluster's job did not run:"
        cat "$job.cluster" "$job"
        rm -f "$job" "$job.cluster"
        return 1
    fi
    rm -f "$job.cluster"
    read -r liveness_rc liveness_secs < <(sed -n 's/^liveness-cluster: //p' "$job")
    liveness_timed_out=0
    if [ "$liveness_rc" = 124 ] || [ "$liveness_secs" -ge "$liveness_limit" ]; then
        liveness_timed_out=1
    fi
    liveness_verdict "$job" "$before"
}
if name_selected multinode-kill-hierarchical-np4 && [ "${list_only:-0}" != 1 ] \
   && { [ "$(id -u)" != 0 ] || ! unshare --net --uts true 2>/dev/null; }; then
    echo "SKIP multinode-kill-hierarchical-np4: needs root and network/UTS namespaces"
    if [ "${RSAG_REQUIRE_MULTINODE:-0}" = 1 ]; then
        run_test multinode-kill-hierarchical-np4 sh -c \
            "echo 'RSAG_REQUIRE_MULTINODE=1 and no namespaces'; exit 1"
    fi
else
    run_test multinode-kill-hierarchical-np4 liveness_kill_on_cluster
    expect_in_log 'rsag_victim: rank 1 pid [0-9]+: 20 calls by hierarchical so far; raises SIGKILL before call 20'
    expect_that liveness_signal9_in_log
    expect_in_log 'liveness: nothing of this job .* in /dev/shm'
fi
