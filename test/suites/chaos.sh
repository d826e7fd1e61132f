# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# chaos.sh: a hundred short random jobs, some with a rank killed or
# stopped in the middle; every job must end by itself, right where nobody
# died, and leave nothing in /dev/shm (doc/reliability.md, "Chaos").
# Sourced by test/run_tests.sh.
#
# chaos-random-jobs-np1-8 runs RSAG_CHAOS_JOBS jobs (default 150) of
# test/mpi/rsag_victim, one after the other, each drawn from the seed
# RSAG_CHAOS_SEED (default: random; printed first in the log, and the
# replay command of every failed job):
#   np 1-8 (np 1 with coll/self left out, so that rsag serves it), the
#   collective, an algorithm of its table or auto (not hierarchical or leaders: one
#   node; `direct` only blocking), the form (blocking, nonblocking,
#   persistent), the count (any from 8 to 23 331 ints; 1 for a third of
#   direct's reduce-scatters, where some ranks get no element), 10-40 calls, the transport
#   (ob1 + vader, or ob1 + tcp over the loopback), and the fault:
#     none (60 %)        exit 0, rsag_victim: PASS (every element of every
#                        result right, rsag's counter of the forced path moved
#                        by the number of calls on every rank)
#     kill (20 %)        a random rank raises SIGKILL before a random call
#                        (having seen rsag's counter of the forced path move
#                        by one per call before it):
#                        the job ends by itself, non-zero, mpirun naming a
#                        process that exited on signal 9
#     stop (20 %)        a random rank raises SIGSTOP before a random call:
#                        its peers spin in the call meanwhile.  After a pause
#                        of 0.5-2 s the harness sends, half of the time,
#                        SIGCONT: the job must then finish with every result
#                        right (a long stall of a peer is not an error; no
#                        wait gives up or corrupts state), else SIGKILL to the
#                        stopped rank: the job must end by itself as above
#                        (a peer that dies while its waiters have spun for
#                        seconds)
#   and after each job no name of that job (rsag-<jobid>-..., rank 0's pid,
#   vader_segment.*.<jobid>.*) may be in /dev/shm.
# A job that `timeout` has to end (RSAG_CHAOS_JOB_LIMIT seconds, default
# 120) is a failure.  The test fails on any failed job; its last line counts
# jobs by outcome.  About 0.9 s a job on 2 cores (100 jobs in CI, each run
# with a new seed, so that successive runs cover more; RSAG_CHAOS_JOBS=20
# for a quick look, more for a longer soak).

# shellcheck source=liveness.inc
. "$here/suites/liveness.inc"

chaos_jobs=${RSAG_CHAOS_JOBS:-100}
chaos_limit=${RSAG_CHAOS_JOB_LIMIT:-120}

# The algorithms of each collective (rsag_victim's --coll names), read from
# ompi_info when the test runs: auto plus the table, without the node-aware
# rows (needs_several_nodes).
chaos_algs() {
    local alg
    enum_values "$1" | while read -r alg; do
        needs_several_nodes "$alg" || echo "$alg"
    done
}

# chaos_job N: draw job N from RANDOM (seeded), run it, check it.  Prints one
# line per job; returns 1 when the job failed.
chaos_job() {
    local n="$1" np coll alg form count calls tr=() fault victim at pause action
    local out="$results/chaos-job.out" before pid i verdict="ok" why="" algs=()
    local colls=(allreduce reduce reduce_scatter_block reduce_scatter)
    local nps=(1 2 2 2 3 3 3 4 4 5 6 7 8)
    np=${nps[RANDOM % ${#nps[@]}]}
    coll=${colls[RANDOM % 4]}
    mapfile -t algs < <(printf '%s\n' "${chaos_algs_of[$coll]}")
    alg=${algs[RANDOM % ${#algs[@]}]}
    case $((RANDOM % 3)) in 0) form=blocking ;; 1) form=nonblocking ;; *) form=persistent ;; esac
    [ "$alg" = direct ] && form=blocking
    # any count from 8 (forced algorithms need count >= p', p' <= 8): odd ones,
    # primes, uneven blocks, not only round numbers
    case $((RANDOM % 5)) in 0) count=$((8 + RANDOM % 24)) ;; 1) count=$((32 + RANDOM % 300)) ;;
        2) count=$((332 + RANDOM % 3000)) ;; 3) count=$((3332 + RANDOM % 8000)) ;;
        *) count=$((11332 + RANDOM % 12000)) ;; esac
    # a third of direct's reduce-scatters on 2+ ranks: count 1, the blocks
    # q mod 3 + 0, so that the ranks q = 0, 3, 6 get no element (they post
    # and leave without waiting for their peers)
    if [ "$coll" = reduce_scatter ] && [ "$alg" = direct ] && [ "$np" -ge 2 ] &&
        [ $((RANDOM % 3)) = 0 ]; then
        count=1
    fi
    calls=$((10 + RANDOM % 31))
    # two-way choices from a high bit (the low bits of RANDOM repeat sooner)
    if [ $(((RANDOM >> 7) & 1)) = 1 ]; then
        # shellcheck disable=SC2054
        tr=(--mca pml ob1 --mca btl self,tcp --mca btl_tcp_if_include lo)
        trname=tcp
    else
        # shellcheck disable=SC2054
        tr=(--mca pml ob1 --mca btl self,vader)
        trname=vader
    fi
    [ "$np" = 1 ] && tr+=(--mca coll '^self')
    case $((RANDOM % 10)) in 0|1) fault="kill" ;; 2|3) fault="stop" ;; *) fault="none" ;; esac
    [ "$np" = 1 ] && fault=none
    victim=$((RANDOM % np))
    at=$((RANDOM % calls))
    pause=$((5 + RANDOM % 16))            # tenths of a second
    pause=$((pause / 10)).$((pause % 10))
    action=cont
    [ $(((RANDOM >> 7) & 1)) = 1 ] && action="kill"

    local args=(-np "$np" "${tr[@]}" "$liveness_victim" --coll "$coll" --alg "$alg" --form "$form"
                --count "$count" --calls "$calls")
    [ "$fault" != none ] && args+=(--victim "$victim" --at "$at" --signal "$fault")
    local what="np=$np $coll $alg $form count=$count calls=$calls $trname fault=$fault"
    [ "$fault" != none ] && what="$what victim=$victim at=$at"
    [ "$fault" = stop ] && what="$what, $action after ${pause} s"
    chaos_outcome=$fault
    [ "$fault" = stop ] && chaos_outcome=stop-$action

    before=$(ls -A /dev/shm 2>/dev/null)
    : >"$out"
    if [ "$fault" = stop ]; then
        rm -f "$out.st"
        ( liveness_run "$chaos_limit" "$out" "${args[@]}"
          echo "$liveness_rc $liveness_secs $liveness_timed_out" >"$out.st" ) &
        local bg=$!
        pid=""
        # the stopped rank says so (its pid) before it stops
        for ((i = 0; i < 10 * chaos_limit; i++)); do
            pid=$(sed -n 's/^rsag_victim: rank [0-9]* pid \([0-9]*\): .* raises SIGSTOP .*/\1/p' "$out")
            [ -n "$pid" ] && break
            kill -0 "$bg" 2>/dev/null || break
            sleep 0.1
        done
        if [ -n "$pid" ]; then
            # wait until it is stopped (state T), then the pause
            for ((i = 0; i < 100; i++)); do
                [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" = T ] && break
                sleep 0.05
            done
            sleep "$pause"
            if [ "$action" = cont ]; then kill -CONT "$pid"; else kill -KILL "$pid"; fi
        fi
        wait "$bg"
        read -r liveness_rc liveness_secs liveness_timed_out <"$out.st"
        rm -f "$out.st"
        [ -n "$pid" ] || { verdict=FAIL; why="the stopped rank never said so"; }
    else
        liveness_run "$chaos_limit" "$out" "${args[@]}"
    fi

    if [ "$liveness_timed_out" = 1 ]; then
        verdict=FAIL; why="TIMEOUT: did not end by itself within $chaos_limit s"
    elif [ "$fault" != none ] && ! grep -qE "^rsag_victim: rank $victim pid [0-9]+: $at calls by $alg( \(persistent starts\))? so far" "$out"; then
        # the calls before the fault ran on the forced path
        verdict=FAIL; why="the victim did not report $at calls by rsag's $alg before the fault"
    elif [ "$fault" = none ] || { [ "$fault" = stop ] && [ "$action" = cont ]; }; then
        if [ "$liveness_rc" != 0 ] || ! grep -q '^rsag_victim: PASS ' "$out"; then
            verdict=FAIL; why="exit $liveness_rc, no PASS: $(grep -m 3 -E 'FAIL|rsag_victim\[' "$out" | tr '\n' ' ')"
        fi
    else
        if [ "$liveness_rc" = 0 ]; then
            verdict=FAIL; why="exit 0 although a rank was killed"
        elif ! tr -s '\n' ' ' <"$out" | grep -qE 'noticed that process rank [0-9]+ with PID [0-9]+ on node [^ ]+ exited on signal 9'; then
            verdict=FAIL; why="no 'exited on signal 9' from mpirun"
        fi
    fi
    local shm
    if ! shm=$(liveness_shm_left "$out" "$before"); then
        verdict=FAIL; why="$why $(printf '%s\n' "$shm" | grep -E 'LEFT|never ran')"
    fi
    printf 'chaos: job %d: %s: %s (exit %s, %s s)%s\n' "$n" "$what" "$verdict" "$liveness_rc" \
        "$liveness_secs" "${why:+ -- $why}"
    if [ "$verdict" != ok ]; then
        sed 's/^/    | /' "$out" | tail -n 20
        echo "    replay: RSAG_CHAOS_SEED=$chaos_seed RSAG_CHAOS_JOBS=$n test/run_tests.sh -k chaos (its last job)"
        return 1
    fi
    return 0
}

chaos_random_jobs() {
    local n failed=0 c
    declare -A counts=()
    declare -gA chaos_algs_of=()
    RANDOM=$chaos_seed
    echo "chaos: seed $chaos_seed, $chaos_jobs jobs (RSAG_CHAOS_SEED=$chaos_seed to replay)"
    for c in allreduce reduce reduce_scatter_block reduce_scatter; do
        chaos_algs_of[$c]=$(chaos_algs "$c")
        [ -n "${chaos_algs_of[$c]}" ] || { echo "chaos: no algorithms of $c from ompi_info"; return 1; }
    done
    for ((n = 1; n <= chaos_jobs; n++)); do
        chaos_job "$n" || failed=$((failed + 1))
        counts[$chaos_outcome]=$(( ${counts[$chaos_outcome]:-0} + 1 ))
    done
    rm -f "$results/chaos-job.out"
    printf 'chaos: seed %s: %d jobs: %d clean, %d killed, %d stopped then continued, %d stopped then killed; %d failed\n' \
        "$chaos_seed" "$chaos_jobs" "${counts[none]:-0}" "${counts[kill]:-0}" \
        "${counts[stop-cont]:-0}" "${counts[stop-kill]:-0}" "$failed"
    [ "$failed" = 0 ]
}

chaos_seed=${RSAG_CHAOS_SEED:-$(( ($(date +%s) ^ $$) % 32768 ))}
run_test chaos-random-jobs-np1-8 chaos_random_jobs
expect_in_log "chaos: seed $chaos_seed: $chaos_jobs jobs: .*; 0 failed$"
