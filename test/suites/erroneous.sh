# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# erroneous.sh: erroneous programs (doc/erroneous.md).  Sourced by
# test/run_tests.sh.
#
# test/mpi/rsag_erroneous runs one erroneous reduction per job: counts,
# datatypes, ops, roots or rsag settings that differ between ranks,
# MPI_IN_PLACE where MPI forbids it, datatypes of zero and negative extent,
# an allocation failure on one rank only.  Each job runs under its own
# timeout (RSAG_ERRONEOUS_TIMEOUT, default 180 s): a job that does not end
# is a hang and fails the test, as does a crash (a signal).  What each case
# must end with -- an MPI error and the program's clean MPI_Abort, every
# rank returning (MPI leaves the result undefined), or a delegation -- is
# checked in its log, with the proof that rsag took the call ("rsag ran
# ALG", "rsag delegated", or coll_rsag_check_args's line).  The cases that
# hang by default (a root that differs, as in Open MPI's tuned; rsag
# settings that differ; a datatype size that differs on rsag's node path)
# run with coll_rsag_check_args on, which turns them into the same MPI
# error on every rank; erroneous-root-hangs-without-check-np2 shows that the
# hang is detected (and that the check is what prevents it).  rsag's own
# settings are compared even without it, once per communicator and
# collective (erroneous-param-differs-np3, -threshold-differs-np3).

erroneous=$here/mpi/rsag_erroneous
err_timeout=${RSAG_ERRONEOUS_TIMEOUT:-180}

# erroneous_job [TIMEOUT=S] MPIRUN-ARGS...: the job under its own timeout;
# fails (and says HANG) when it does not end in time, else passes with its
# exit status in the log (an abort is an expected ending here).  Open MPI
# 4.1.4's mpirun sometimes never exits after MPI_Abort (or crashes, see
# no_rank_crash); by then it has told every rank to die, so a job whose log
# says "MPI_ABORT was invoked" and whose mpirun is still there 20 s later
# has ended: mpirun is stopped and the job counts as aborted (it exits
# within a second or two when it does exit; the wait was 60 s, a minute of
# CI whenever the quirk struck).
erroneous_job() {
    local t=$err_timeout rc pid abort_at=0 log=${last_log:-/dev/null}
    case "$1" in TIMEOUT=*) t=${1#TIMEOUT=}; shift ;; esac
    timeout -k 10 "$t" "${mpirun_cmd[@]:4}" "$@" &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        sleep 1
        if [ "$abort_at" = 0 ] && grep -q 'MPI_ABORT was invoked' "$log" 2>/dev/null; then
            abort_at=$SECONDS
        fi
        if [ "$abort_at" != 0 ] && [ $(( SECONDS - abort_at )) -ge 20 ]; then
            echo "erroneous: MPI_Abort was called; mpirun has not ended 20 s later" \
                 "(Open MPI's mpirun): stopping it"
            local child
            child=$(pgrep -P "$pid")
            kill -TERM "$pid" 2>/dev/null
            sleep 5
            [ -n "$child" ] && kill -KILL $child 2>/dev/null
            wait "$pid"
            echo "erroneous: the job ended (MPI_Abort; mpirun stopped)"
            return 0
        fi
    done
    wait "$pid"
    rc=$?
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        echo "erroneous: HANG: the job did not end within $t s"
        return 1
    fi
    echo "erroneous: the job ended (exit status $rc)"
}

# no_rank_crash LOG: no MPI process died of a signal.  Open MPI 4.1.4's
# mpirun itself sometimes crashes in PMIx_server_finalize while it shuts a
# job down after MPI_Abort (its backtrace has an mpirun frame): that one is
# Open MPI's and is only noted.
no_rank_crash() {
    awk '
        /exited on signal/ { bad = bad "\n  " $0 }
        match($0, /^\[[^]:]*:[0-9]+\] Signal: /) {
            pid = $1; sig[pid] = 1
        }
        /^\[[^]]*\] \[ *[0-9]+\] .*mpirun\(/ { mpirun[$1] = 1 }
        END {
            for (p in sig) {
                if (p in mpirun) {
                    print "no_rank_crash: mpirun " p " crashed while ending the job (Open MPI)"
                } else {
                    bad = bad "\n  process " p " died of a signal"
                }
            }
            if (bad != "") { print "no_rank_crash: an MPI process crashed:" bad; exit 1 }
        }' "$1"
}

# Every case: it ended, and no MPI process died of a signal.
ended_cleanly() {
    expect_in_log '^erroneous: the job ended'
    expect_not_in_log 'HANG'
    test_ran && expect_that no_rank_crash "$last_log"
}

# --- the default behaviour (coll_rsag_check_args off) ----------------------

# Counts that differ: some rank's receive is too short (MPI_ERR_TRUNCATE),
# the program aborts.  np 3: the PML algorithms (ring, recursive doubling,
# Rabenseifner), with `direct` left off (auto takes it on one node from
# p <= 4 too; the node path's cases are the -direct-np2 ones below).
err_p2p=()
for c in allreduce reduce reduce_scatter_block reduce_scatter; do
    err_p2p+=(--mca "coll_rsag_${c}_direct_min_bytes" 9223372036854775807)
done
# (MPI_Reduce's Rabenseifner path from 8 KB, as p <= 4 had it before direct)
err_p2p+=(--mca coll_rsag_reduce_rabenseifner_min_bytes 8192)
for c in count:10 count:100000 count-reduce:100000 count-rsb:100000 rcounts:100000 \
         type:10 type:100000; do
    name=${c%%:*} n=${c#*:}
    run_test "erroneous-$name-$n-np3" erroneous_job "${err_p2p[@]}" -np 3 "$erroneous" "$name" \
        --count "$n"
    ended_cleanly
    expect_in_log "rank [0-9]: $name: MPI_ERR_TRUNCATE; rsag ran [a-z_]+"
    expect_in_log "rank [0-9]: $name: aborting after MPI_ERR_TRUNCATE"
done

# Counts that differ on the node path (np 2, `direct`, forced as at np 2 by
# default): each rank reduces with its own count; MPI leaves the result
# undefined, every rank returns.
err_direct=(--mca coll_rsag_allreduce_algorithm direct --mca coll_rsag_reduce_algorithm direct
        --mca coll_rsag_reduce_scatter_block_algorithm direct
        --mca coll_rsag_reduce_scatter_algorithm direct)
for c in count count-reduce count-rsb rcounts; do
    run_test "erroneous-$c-direct-np2" erroneous_job "${err_direct[@]}" -np 2 "$erroneous" "$c" \
        --count 100000
    ended_cleanly
    expect_count 2 "rank [01]: $c: success; rsag ran direct"
    expect_in_log "$c: every rank returned"
done

# Ops that differ: no message changes size; the result is undefined and
# every rank returns.
for n in 10 100000; do
    run_test "erroneous-op-$n-np3" erroneous_job -np 3 "$erroneous" op --count "$n"
    ended_cleanly
    expect_count 3 "rank [0-2]: op: success, .*; rsag ran [a-z_]+"
done

# MPI_IN_PLACE on a non-root of MPI_Reduce: Open MPI's argument check
# refuses it (MPI_ERR_ARG) before any coll module sees the call.
run_test erroneous-inplace-reduce-nonroot-np3 erroneous_job -np 3 "$erroneous" \
    inplace-reduce-nonroot
ended_cleanly
expect_in_log 'rank 1: inplace-reduce-nonroot: MPI_ERR_ARG; rsag did not see it'

# MPI_IN_PLACE on one rank only of MPI_Allreduce: rsag finds each rank's
# input by itself, so the erroneous call still gives the right result.
for n in 10 100000; do
    run_test "erroneous-inplace-allreduce-one-$n-np3" erroneous_job -np 3 "$erroneous" \
        inplace-allreduce-one --count "$n"
    ended_cleanly
    expect_count 3 "rank [0-2]: inplace-allreduce-one: success, right result; rsag ran [a-z_]+"
done

# Datatypes of extent 0 and -4 (a commutative user op): rsag delegates them
# (every algorithm needs a positive extent); the previous module returns a
# result (extent 0) or an error (extent -4, Open MPI's tuned) -- no crash.
run_test erroneous-extent-zero-np3 erroneous_job -np 3 "$erroneous" extent-zero
ended_cleanly
expect_count 3 'rank [0-2]: extent-zero: success, .*; rsag delegated'
run_test erroneous-extent-negative-np3 erroneous_job -np 3 "$erroneous" extent-negative
ended_cleanly
expect_in_log 'rank [0-2]: extent-negative: MPI_ERR_[A-Z]+; rsag delegated'

# An allocation failure on rank 0 only (coll_rsag_test_alloc_fail = 1 there,
# through MPI_T): rank 0 gets MPI_ERR_NO_MEM before sending anything; the
# others wait for it, so the program must abort -- the careful one by
# MPI_Abort, the default one (MPI_ERRORS_ARE_FATAL) by Open MPI's handler.
for n in 10 100000; do
    run_test "erroneous-alloc-one-rank-$n-np3" erroneous_job -np 3 "$erroneous" \
        alloc-one-rank --count "$n"
    ended_cleanly
    expect_in_log 'rank 0: alloc-one-rank: MPI_ERR_NO_MEM; rsag ran [a-z_]+'
    expect_in_log 'rank 0: alloc-one-rank: aborting after MPI_ERR_NO_MEM'
done
run_test erroneous-alloc-one-rank-fatal-np3 erroneous_job -np 3 "$erroneous" \
    alloc-one-rank --fatal
ended_cleanly
expect_in_log 'MPI_ERR_NO_MEM'
expect_in_log 'error occurred in MPI_Allreduce'

# --- coll_rsag_check_args on ----------------------------------------------

err_check=(--mca coll_rsag_check_args 1)

# The control: a correct program passes the check, and rsag runs the call.
run_test erroneous-check-passes-correct-np3 erroneous_job "${err_check[@]}" -np 3 \
    "$erroneous" same
ended_cleanly
expect_count 3 'rank [0-2]: same: success, right result; rsag ran [a-z_]+'
expect_not_in_log 'coll:rsag: coll_rsag_check_args'

# Each mismatch: the same error class on every rank, rank 0's line naming it.
for c in root:MPI_ERR_ROOT:'the root' count:MPI_ERR_COUNT:'the count' \
         rcounts:MPI_ERR_COUNT:'the receive counts' type:MPI_ERR_TYPE:'the predefined datatype' \
         op:MPI_ERR_OP:'the op' inplace-allreduce-one:MPI_ERR_BUFFER:'MPI_IN_PLACE'; do
    IFS=: read -r name cls what <<<"$c"
    run_test "erroneous-check-$name-np3" erroneous_job "${err_check[@]}" -np 3 "$erroneous" "$name" \
        --sync
    ended_cleanly
    expect_count 3 "rank [0-2]: $name: $cls; "
    expect_in_log \
        "coll:rsag: coll_rsag_check_args: MPI_[A-Za-z_]+ on .*: $what.* differs between ranks.*: $cls"
done

# A datatype size that differs on the node path (np 2, `direct`): without
# the check one rank waits for the other forever; with it, MPI_ERR_TYPE.
run_test erroneous-check-type-direct-np2 erroneous_job "${err_check[@]}" "${err_direct[@]}" -np 2 \
    "$erroneous" type --count 100000 --sync
ended_cleanly
expect_count 2 'rank [01]: type: MPI_ERR_TYPE; '

# rsag's algorithm set differently on rank 0 (an app context of its own):
# without the check the ranks run different algorithms (a hang, or a crash
# in Open MPI's ob1 when a setup receive of `direct` matches another rank's
# data: doc/erroneous.md); with it, MPI_ERR_ARG on every rank.
run_test erroneous-check-param-np3 erroneous_job "${err_check[@]}" \
    -np 1 env OMPI_MCA_coll_rsag_allreduce_algorithm=direct "$erroneous" param --count 100000 \
    --sync : -np 2 env OMPI_MCA_coll_rsag_allreduce_algorithm=rabenseifner "$erroneous" param \
    --count 100000 --sync
ended_cleanly
expect_count 3 'rank [0-2]: param: MPI_ERR_ARG; '
expect_in_log 'coll_rsag_check_args: MPI_Allreduce on .*: coll_rsag algorithm setting differs'

# The same without coll_rsag_check_args: rsag compares its settings of a
# collective once per communicator, at the first blocking call, so the
# ranks never run different algorithms: MPI_ERR_ARG on every rank, one line
# from rank 0.  Also a threshold set differently on one rank (one that
# decides only the test's large call: the program's first, small calls are
# nonblocking, which cannot be checked without blocking -- doc/erroneous.md).
run_test erroneous-param-differs-np3 erroneous_job \
    -np 1 env OMPI_MCA_coll_rsag_allreduce_algorithm=direct "$erroneous" param --count 100000 \
    --sync : -np 2 env OMPI_MCA_coll_rsag_allreduce_algorithm=rabenseifner "$erroneous" param \
    --count 100000 --sync
ended_cleanly
expect_count 3 'rank [0-2]: param: MPI_ERR_ARG; '
expect_count 1 'coll:rsag: settings check: MPI_Allreduce on .*: coll_rsag algorithm setting differs'
# The same for each setting folded into the "threshold settings" compared
# (name: the variable set on one rank of three only):
#   threshold  a threshold;
#   fanin      the boxed tree's fan-in (the ranks would wait for boxes the
#              others never write);
#   copy       direct's copy mode (one end of a copy would read by CMA what
#              the other wrote into the segment);
#   yield      Open MPI's yield when idle, which picks the oversubscribed
#              node's defaults (3 processes on this machine's 2 cores: on
#              for all three unless set).
for differs in threshold:coll_rsag_allreduce_ring_min_bytes=65536 \
    fanin:coll_rsag_direct_fanin=2 copy:coll_rsag_single_copy=none \
    yield:mpi_yield_when_idle=0; do
    run_test "erroneous-${differs%%:*}-differs-np3" erroneous_job \
        -np 2 "$erroneous" param --count 100000 --sync : \
        -np 1 env "OMPI_MCA_${differs#*:}" "$erroneous" param --count 100000 --sync
    ended_cleanly
    expect_count 3 'rank [0-2]: param: MPI_ERR_ARG; '
    expect_count 1 'coll:rsag: settings check: MPI_Allreduce on .*: coll_rsag threshold settings differ'
done

# The hang detection itself: a root that differs, without the check, hangs
# in a point-to-point reduce (binomial here; tuned's too): the job must be
# reported as a HANG (a short limit).  (`direct`, which auto takes at np 2,
# returns on both ranks instead: each takes itself for the root and reads
# the other's box; MPI leaves the result undefined.)
run_test erroneous-root-hangs-without-check-np2 exits_nonzero erroneous_job TIMEOUT=10 \
    -np 2 --mca coll_rsag_reduce_algorithm binomial "$erroneous" root --count 10
expect_in_log 'HANG: the job did not end within 10 s'
