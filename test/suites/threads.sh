# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# threads.sh: rsag's reductions from several threads at once under
# MPI_THREAD_MULTIPLE, and a race detector over them.  Sourced by
# test/run_tests.sh.
#
# test/mpi/rsag_threads: 4 threads per rank, each on its own two
# communicators (a dup and a reversed split of MPI_COMM_WORLD), all four
# collectives in all three forms (blocking, nonblocking, persistent) and a
# batch of requests outstanding at once, every result checked; auto, then
# every algorithm forced in turn; rsag's MPI_T counters must show that rsag
# ran every call (none delegated, the forced algorithm where it applies).
# MPI_Init_thread must provide MPI_THREAD_MULTIPLE, else the test fails.
# A short run under valgrind's helgrind, filtered by test/helgrind-filter.awk
# (rsag's reports must all be explained; Open MPI's are listed in
# test/results/<test>.others.log), and the controls: without rsag the
# counter checks fail, and the filter rejects planted rsag races.

threads=$here/mpi/rsag_threads

# Over UCX, not ob1: Open MPI's ob1 (4.1.4 and 5.0.7) loses and double-frees
# its own send requests when several threads drive it at once -- the same
# program without rsag (coll_rsag_priority -1: tuned and libnbc) crashed
# once and hung three times in 40 runs under load, a communicator destroyed
# under a live call (doc/threads.md, Open MPI's ob1).  rsag's code under
# test (its request list, lock, engine and node path) is the same over any
# PML; the transport assertion proves UCX carried the traffic.
# Four threads per rank outnumber the cores at np 2 as well: Open MPI yields
# an idle core by itself only when processes outnumber them (np 3 here), so
# the job says so (mpi_yield_when_idle), as a program with more threads than
# cores should; without it every thread's wait spins out its time slice, and
# the same job took 28 s instead of 6 (coll/tuned as well as rsag: 2-4 ms
# a call).
for np in 2 3; do
    run_test "threads-multiple-np$np" "${mpirun_cmd[@]}" --mca mpi_yield_when_idle 1 \
        --mca pml ucx --mca pml_ucx_tls any \
        --mca pml_ucx_devices any "${transport_verbose[@]}" -np "$np" "$threads"
    expect_that assert_transport "$last_log" "$np" ucx
    expect_in_log 'MPI_Init_thread provided MPI_THREAD_MULTIPLE'
    expect_in_log '^rsag_threads: phase auto: ok '
    expect_in_log '^rsag_threads: phase forced-1: ok '
    expect_not_in_log 'FAIL'
    expect_in_log "rsag_threads: np=$np threads=4 calls=[0-9]+ failed=0"
done

# The control: rsag left out of the selection (its variables still exist):
# the results are right but every phase must fail on rsag's counters.
run_test threads-detects-no-rsag-np2 exits_nonzero "${mpirun_cmd[@]}" --mca pml ucx \
    --mca pml_ucx_tls any --mca pml_ucx_devices any --mca coll_rsag_priority -1 -np 2 \
    "$threads" --iters 1 --auto-only
expect_in_log 'phase auto: FAIL'
expect_in_log 'rsag counted 0 calls'
expect_not_in_log 'element [0-9]+ is'

# helgrind_job NAME NP PROGRAM ARGS...: the job under valgrind --tool=helgrind
# (XML per process in $results/NAME.hg/), then test/helgrind-filter.awk.
# Twice the usual mpirun time limit.
helgrind_job() {
    local name="$1" np="$2"; shift 2
    local dir="$results/$name.hg"
    if ! command -v valgrind >/dev/null; then
        echo "valgrind is not installed (contrib/install-deps.sh installs it)"
        return 1
    fi
    rm -rf "$dir" && mkdir -p "$dir" || return 1
    local TIMEFORMAT="helgrind job: %R s wall, %U s user, %S s system CPU"
    time timeout -k 10 "$(( timeout_s * 2 ))" "${mpirun_cmd[@]:4}" -np "$np" valgrind -q \
        --tool=helgrind --keep-debuginfo=yes --num-callers=40 \
        --xml=yes --xml-file="$dir/hg.%p.xml" "$@"
    local rc=$?
    awk -v others="$results/$name.others.log" -f "$here/helgrind-filter.awk" \
        "$dir"/hg.*.xml || return 1
    [ "$(ls "$dir"/hg.*.xml | wc -l)" -eq "$np" ] || { echo "expected $np reports"; return 1; }
    return $rc
}

# Short: 4 threads, one iteration, three counts, every algorithm forced in
# turn (about 45 s at np 2 on a quiet 2-core machine).
run_test threads-helgrind-np2 helgrind_job threads-helgrind-np2 2 "$threads" \
    --iters 1 --counts 1,300,20000
expect_in_log 'rsag_threads: np=2 threads=4 calls=[0-9]+ failed=0'
expect_in_log 'helgrind-filter: [0-9]+ reports: [0-9]+ rsag \([0-9]+ explained.*\), 0 unexplained'

# The filter itself, on planted reports: a race between two rsag functions
# and a race between rsag and the test program must fail it, as must a
# report that did not finish; a race inside Open MPI and a race on rsag's
# atomic lock word must not.
hg_fixture() {   # hg_fixture OBJ1 FN1 OBJ2 FN2 STATE [FN2-CALLER [FN1-CALLER [ALLOC-FN]]]
    local caller="" caller1="" alloc=""
    [ -n "${8:-}" ] && alloc="<auxwhat>Address is in a block allocated</auxwhat>
  <stack>
    <frame>
      <obj>/x/libc.so.6</obj>
      <fn>malloc</fn>
    </frame>
    <frame>
      <obj>/x/mca_coll_rsag.so</obj>
      <fn>$8</fn>
    </frame>
  </stack>"
    [ -n "${6:-}" ] && caller="<frame><obj>/x/mca_coll_rsag.so</obj><fn>$6</fn></frame>"
    [ -n "${7:-}" ] && caller1="<frame><obj>/x/mca_coll_rsag.so</obj><fn>$7</fn></frame>"
    cat <<EOF
<?xml version="1.0"?>
<valgrindoutput>
<error>
  <unique>0x1</unique>
  <tid>2</tid>
  <kind>Race</kind>
  <xwhat>
    <text>Possible data race during write of size 8 at 0x1000 by thread #2</text>
  </xwhat>
  <stack>
    <frame>
      <obj>$1</obj>
      <fn>$2</fn>
    </frame>
    $caller1
    <frame>
      <obj>/usr/lib/x86_64-linux-gnu/libmpi.so.40</obj>
      <fn>PMPI_Allreduce</fn>
    </frame>
  </stack>
  <xauxwhat>
    <text>This conflicts with a previous write of size 8 by thread #3</text>
  </xauxwhat>
  <stack>
    <frame>
      <obj>$3</obj>
      <fn>$4</fn>
    </frame>
    $caller
    <frame>
      <obj>/usr/lib/x86_64-linux-gnu/libmpi.so.40</obj>
      <fn>PMPI_Wait</fn>
    </frame>
  </stack>
  $alloc
</error>
$5
EOF
}
hg_filter() {   # hg_filter OBJ1 FN1 OBJ2 FN2 STATE [FN2-CALLER [FN1-CALLER [ALLOC-FN]]]
    local f="$results/threads-helgrind-fixture.xml"
    hg_fixture "$@" >"$f" && awk -f "$here/helgrind-filter.awk" "$f"
}
rsag_so=/x/mca_coll_rsag.so
run_test threads-helgrind-filter-flags-rsag-race exits_nonzero \
    hg_filter "$rsag_so" mca_coll_rsag_sched_progress "$rsag_so" mca_coll_rsag_sched_reset \
    '</valgrindoutput>'
expect_in_log 'unexplained in .*rsag:mca_coll_rsag_sched_progress'
run_test threads-helgrind-filter-flags-rsag-program-race exits_nonzero \
    hg_filter "$rsag_so" mca_coll_rsag_copy /x/rsag_threads verify '</valgrindoutput>'
expect_in_log 'unexplained in .*rsag:mca_coll_rsag_copy'
run_test threads-helgrind-filter-passes-request-completion \
    hg_filter /x/rsag_threads verify "$rsag_so" mca_coll_rsag_op_reduce3 '</valgrindoutput>' \
    mca_coll_rsag_request_progress
expect_in_log 'helgrind-filter: 1 reports: 1 rsag \(1 explained: .* 1 completion, 0 start, 0 reuse\), 0 unexplained'
# rsag advancing, from another thread's progress, a request whose buffers
# the program prepared before starting it: handed over by the start
run_test threads-helgrind-filter-passes-request-start \
    hg_filter "$rsag_so" mca_coll_rsag_op_reduce3 /x/rsag_threads prepare '</valgrindoutput>' \
    '' mca_coll_rsag_request_progress
expect_in_log 'helgrind-filter: 1 reports: 1 rsag \(1 explained: .* 1 start, 0 reuse\), 0 unexplained'
# the same hand-off, helgrind naming the program's check of the previous
# result (its last access it remembers) instead of the fill
run_test threads-helgrind-filter-passes-request-start-after-verify \
    hg_filter "$rsag_so" mca_coll_rsag_op_reduce3 /x/rsag_threads verify '</valgrindoutput>' \
    '' mca_coll_rsag_request_progress
expect_in_log 'helgrind-filter: 1 reports: 1 rsag \(1 explained: .* 1 start, 0 reuse\), 0 unexplained'
# the program's next call using a buffer that another thread's progress
# wrote while advancing the program's previous request, given back by its
# completion
run_test threads-helgrind-filter-passes-buffer-reuse \
    hg_filter "$rsag_so" mca_coll_rsag_op_reduce3 "$rsag_so" mca_coll_rsag_op_reduce \
    '</valgrindoutput>' mca_coll_rsag_request_progress mca_coll_rsag_iallreduce_intra
expect_in_log 'helgrind-filter: 1 reports: 1 rsag \(1 explained: .* 1 reuse\), 0 unexplained'
run_test threads-helgrind-filter-flags-rsag-after-program exits_nonzero \
    hg_filter "$rsag_so" mca_coll_rsag_op_reduce3 /x/rsag_threads verify '</valgrindoutput>'
expect_in_log 'unexplained in .*rsag:mca_coll_rsag_op_reduce3'
run_test threads-helgrind-filter-flags-unfinished-run exits_nonzero \
    hg_filter /x/libopen-pal.so.40 opal_progress /x/mca_pml_ob1.so mca_pml_ob1_irecv ''
expect_in_log 'no closing'
# Open MPI against Open MPI on a block rsag allocated (a temporary handed
# to the PML): a handoff, not rsag's race
run_test threads-helgrind-filter-passes-open-mpi-race-on-rsag-memory \
    hg_filter /x/mca_pml_ob1.so mca_pml_ob1_recv_frag_callback_match /x/libopen-pal.so.40 \
    opal_convertor_unpack '</valgrindoutput>' '' '' mca_coll_rsag_tmp_alloc
expect_in_log 'helgrind-filter: 1 reports: 1 rsag \(1 explained: 0 atomic, 1 handoff,'
run_test threads-helgrind-filter-passes-open-mpi-race \
    hg_filter /x/mca_pml_ob1.so mca_pml_ob1_irecv /x/libopen-pal.so.40 opal_progress \
    '</valgrindoutput>'
expect_in_log 'helgrind-filter: 1 reports: 0 rsag .* 1 others'
run_test threads-helgrind-filter-passes-atomic-lock-word \
    hg_filter "$rsag_so" mca_coll_rsag_nb_trylock "$rsag_so" mca_coll_rsag_nb_unlock.part.0 \
    '</valgrindoutput>'
expect_in_log 'helgrind-filter: 1 reports: 1 rsag \(1 explained: 1 atomic'
