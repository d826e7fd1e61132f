# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# direct.sh: the node path, the `direct` algorithm of every
# collective through the per-communicator shared segment.  Sourced by
# test/run_tests.sh.
#
# rsag_check's matrix forces direct along with every other algorithm; here
# it runs with direct alone forced for the four collectives (--algorithms
# current), at np 2 (not oversubscribed) to 16 (8 per core), on the CMA
# path from 32 KB (coll_rsag_direct_cma_min_bytes; by default auto learns
# from 16 KB which of the segment and CMA is faster), with CMA for every
# size (cma), with the defaults and without CMA (none), also with a segment so
# small that every vector of more than a few elements goes in many windows.
# rsag_direct checks what is special: same bits on every rank, equal to the
# rank-order fold, on random non-integer doubles and a non-commutative
# non-associative op; sendbuf untouched; nothing in /dev/shm after a normal
# end (after a rank is SIGKILLed: liveness.sh); 10 000 dup/use/free cycles with flat
# memory, mappings and descriptors.  Shared memory that runs short (a full
# /dev/shm in a private mount namespace, the caps) and CMA refused by the
# kernel (a seccomp filter, rsag_nocma) must mean a fallback, never a crash.

direct_force=(--mca coll_rsag_allreduce_algorithm direct
              --mca coll_rsag_reduce_algorithm direct
              --mca coll_rsag_reduce_scatter_block_algorithm direct
              --mca coll_rsag_reduce_scatter_algorithm direct)
direct_prog="$here/mpi/rsag_direct"
direct_cma=(--mca coll_rsag_direct_cma_min_bytes 32768)
# No rsag segment name may be left in /dev/shm: they are unlinked as soon as
# every rank has mapped them.  A name is /dev/shm/rsag-<job>-<cid>-<pid>-<n>
# (pid: the creator, rank 0); one whose creator still runs may belong to
# another job between its shm_open and shm_unlink, so only names of dead
# creators count as left behind.
direct_no_shm_names() {
    local f pid left=""
    for f in /dev/shm/rsag-*; do
        [ -e "$f" ] || continue
        pid=$(basename "$f" | cut -d- -f4)
        [ -n "$pid" ] && [ -d "/proc/$pid" ] && continue
        left="$left $f"
    done
    [ -z "$left" ] || { echo "left in /dev/shm:$left"; return 1; }
    echo "no rsag-* name of a finished process in /dev/shm"
}

for np in 2 3 4 5 8 16; do
    run_test "direct-matrix-np$np" "${mpirun_cmd[@]}" -np "$np" "${direct_force[@]}" \
        "${direct_cma[@]}" --mca coll_rsag_verbose 1 "$check" --quick --algorithms current
    expect_in_log "rsag_check: np=$np cases=[0-9]+ passed=[0-9]+ failed=0 "
    expect_in_log 'ran under coll_rsag_allreduce_direct_calls: [1-9]'
    expect_in_log 'ran under coll_rsag_reduce_direct_calls: [1-9]'
    expect_in_log 'ran under coll_rsag_reduce_scatter_block_direct_calls: [1-9]'
    expect_in_log 'ran under coll_rsag_reduce_scatter_direct_calls: [1-9]'
    expect_in_log 'coll:rsag: direct on MPI_COMM_WORLD .*single copy by CMA'
    # non-contiguous types are not for direct, and the trace says why
    expect_in_log 'direct forced but it needs contiguous datatype'
done
run_test direct-matrix-defaults-np5 "${mpirun_cmd[@]}" -np 5 "${direct_force[@]}" "$check" \
    --quick --algorithms current
expect_in_log 'rsag_check: np=5 cases=[0-9]+ passed=[0-9]+ failed=0 '
run_test direct-matrix-none-np3 "${mpirun_cmd[@]}" -np 3 "${direct_force[@]}" \
    --mca coll_rsag_single_copy none --mca coll_rsag_verbose 1 "$check" --quick \
    --algorithms current
expect_in_log 'rsag_check: np=3 cases=[0-9]+ passed=[0-9]+ failed=0 '
expect_in_log 'direct on MPI_COMM_WORLD .*copies through the segment \(coll_rsag_single_copy none\)'
run_test direct-matrix-none-np8 "${mpirun_cmd[@]}" -np 8 "${direct_force[@]}" \
    --mca coll_rsag_single_copy none "$check" --quick --algorithms current
expect_in_log 'rsag_check: np=8 cases=[0-9]+ passed=[0-9]+ failed=0 '
run_test direct-matrix-windows-np4 "${mpirun_cmd[@]}" -np 4 "${direct_force[@]}" \
    --mca coll_rsag_single_copy none --mca coll_rsag_segment_size 256 "$check" --quick \
    --algorithms current
expect_in_log 'rsag_check: np=4 cases=[0-9]+ passed=[0-9]+ failed=0 '
run_test direct-matrix-cma-all-sizes-np3 "${mpirun_cmd[@]}" -np 3 "${direct_force[@]}" \
    --mca coll_rsag_single_copy cma --mca coll_rsag_direct_chunk_size 4096 "$check" --quick \
    --algorithms current
expect_in_log 'rsag_check: np=3 cases=[0-9]+ passed=[0-9]+ failed=0 '

# Failures of the set-up, injected on one rank (coll_rsag_test_node_fail):
# every rank must agree.  Rank 1 cannot map the segment: every call goes to
# rsag's point-to-point algorithms, results stay right (--no-rsag: the
# counters are not checked, the forced algorithm does not run), and the
# trace says why.  Rank 1's CMA test read is refused: every rank copies
# through the segment instead, direct still runs, same bits.
run_test direct-segment-fail-np3 "${mpirun_cmd[@]}" -np 3 "${direct_force[@]}" \
    --mca coll_rsag_test_node_fail 2 --mca coll_rsag_verbose 1 "$check" --quick \
    --algorithms current --no-rsag
expect_in_log 'rsag_check: np=3 cases=[0-9]+ passed=[0-9]+ failed=0 '
expect_in_log "direct on MPI_COMM_WORLD .*not made \(rank 1 failed\); rsag's point-to-point algorithms instead"
expect_in_log 'allreduce on MPI_COMM_WORLD .* -> [a-z_]+ \(direct forced but it needs one node with its shared segment\)'
expect_not_in_log 'allreduce on MPI_COMM_WORLD .* -> direct'
run_test direct-cma-refused-np3 "${mpirun_cmd[@]}" -np 3 --mca coll_rsag_test_node_fail -2 \
    "${direct_cma[@]}" --mca coll_rsag_verbose 1 "$direct_prog" bits
expect_in_log 'rsag_direct: bits PASS np=3 '
expect_in_log 'direct on MPI_COMM_WORLD .*CMA refused on rank 1: copies through the segment'

# Same bits everywhere, equal to the rank-order fold.
for np in 2 3 5 16; do
    run_test "direct-bits-np$np" "${mpirun_cmd[@]}" -np "$np" "${direct_cma[@]}" \
        "$direct_prog" bits
    expect_in_log "rsag_direct: bits PASS np=$np "
done
run_test direct-bits-defaults-np4 "${mpirun_cmd[@]}" -np 4 "$direct_prog" bits
expect_in_log 'rsag_direct: bits PASS np=4 '
run_test direct-bits-none-np4 "${mpirun_cmd[@]}" -np 4 --mca coll_rsag_single_copy none \
    "$direct_prog" bits
expect_in_log 'rsag_direct: bits PASS np=4 '
run_test direct-bits-windows-np3 "${mpirun_cmd[@]}" -np 3 --mca coll_rsag_single_copy none \
    --mca coll_rsag_segment_size 4096 "$direct_prog" bits
expect_in_log 'rsag_direct: bits PASS np=3 '

# Nothing left in /dev/shm after a normal end.  A rank killed in the middle
# of direct calls or in the segment's set-up: liveness.sh
# (liveness-kill-direct-np3, liveness-kill-setup-np3).
run_test direct-shm-clean-after-end-np16 direct_no_shm_names
expect_ran direct-bits-np16

# A segment per communicator, made and freed 10 000 times.
run_test direct-churn-10000-np2 "${mpirun_cmd[@]}" -np 2 "$direct_prog" churn --cycles 10000
expect_in_log 'rsag_direct: churn PASS np=2 cycles=10000 '
# A persistent request's own segment, made and freed with the request 5000
# times (its *_init makes it: about 0.1 ms at np 2); nothing left in
# /dev/shm afterwards.
run_test direct-churn-persistent-5000-np2 "${mpirun_cmd[@]}" -np 2 "$direct_prog" churn \
    --cycles 5000 --form persistent
expect_in_log 'rsag_direct: churn PASS np=2 form=persistent cycles=5000 '
run_test direct-shm-clean-after-persistent-churn-np2 direct_no_shm_names
expect_ran direct-churn-persistent-5000-np2

# A communicator of one rank never makes a segment: the prologue copies.
run_test direct-self-np1 "${mpirun_cmd[@]}" -np 1 "${direct_force[@]}" "$check" --quick \
    --algorithms current
expect_in_log 'rsag_check: np=1 cases=[0-9]+ passed=[0-9]+ failed=0 '

# memcheck over a short run of both data paths (rsag_direct bits at np 3,
# CMA from 32 KB): no error and no definite leak with a frame in rsag
# (test/valgrind-filter.awk, as in valgrind.sh; Open MPI's own reports are
# listed in the .others.log and do not fail the test).  About 20 s.
direct_valgrind() {
    local dir="$results/direct-valgrind-np3.vg"
    local supp=${RSAG_VALGRIND_SUPP:-$(ls /usr/share/openmpi/openmpi-valgrind.supp \
        /usr/share/openmpi*/openmpi-valgrind.supp 2>/dev/null | head -n 1)}
    command -v valgrind >/dev/null || { echo "valgrind is not installed"; return 1; }
    [ -r "$supp" ] || { echo "openmpi-valgrind.supp not found (set RSAG_VALGRIND_SUPP)"; return 1; }
    rm -rf "$dir" && mkdir -p "$dir" || return 1
    "${mpirun_cmd[@]}" -np 3 "${direct_cma[@]}" valgrind -q --keep-debuginfo=yes \
        --num-callers=40 --suppressions="$supp" --leak-check=full \
        --show-leak-kinds=definite --errors-for-leak-kinds=definite --xml=yes \
        --xml-file="$dir/vg.%p.xml" "$direct_prog" bits || return 1
    [ "$(ls "$dir"/vg.*.xml | wc -l)" -eq 3 ] || { echo "expected 3 reports"; return 1; }
    awk -v others="$results/direct-valgrind-np3.others.log" -f "$here/valgrind-filter.awk" \
        "$dir"/vg.*.xml
}
run_test direct-valgrind-np3 direct_valgrind
expect_in_log 'rsag_direct: bits PASS np=3 '
expect_in_log 'valgrind-filter: 3 files \(3 finished\), 0 rsag records'

# --- direct in the nonblocking and persistent forms ---------------------------
# rsag_direct bits --form F: the same checks as direct-bits (same bits as the
# rank-order fold, sendbuf untouched, direct's counter moved by the call) on
# MPI_Iallreduce ... + MPI_Wait, or MPI_Allreduce_init ... + MPI_Start +
# MPI_Wait.  First a call of that form before any blocking call: a
# nonblocking one must not run direct (it may not make the segment; the trace
# says why; a blocking call makes it then), a persistent one must (its init
# may wait for its peers: it makes the segment).  --auto: nothing forced; each
# case runs blocking first (persistent: ten times, which settles the copy
# mode a request keeps from its init), and the form must choose what the blocking call
# chose (direct at np 2 from 1 KB by default; elsewhere from 1 byte through
# coll_rsag_<coll>_direct_min_bytes).  Above 2 ranks the node is
# oversubscribed: correctness only, and at np 8 and 16 vectors of at most
# 1000 elements (the set-up of the larger ones is direct-bits-np16's).
direct_auto=(--mca coll_rsag_allreduce_direct_min_bytes 1
             --mca coll_rsag_reduce_direct_min_bytes 1
             --mca coll_rsag_reduce_scatter_block_direct_min_bytes 1
             --mca coll_rsag_reduce_scatter_direct_min_bytes 1)
run_test direct-forms-nonblocking-np2 "${mpirun_cmd[@]}" -np 2 "${direct_cma[@]}" \
    --mca coll_rsag_verbose 1 "$direct_prog" bits --form nonblocking
expect_in_log "rsag_direct: before the segment, a nonblocking allreduce ran [a-z_]+"
expect_not_in_log "rsag_direct: before the segment, a nonblocking allreduce ran direct"
expect_in_log "allreduce \(nonblocking or persistent\) on MPI_COMM_WORLD .* -> [a-z_]+ \(direct forced but it needs one node with its shared segment\); .*direct not before a blocking call or a persistent \*_init has made the node's shared segment"
expect_in_log "allreduce \(nonblocking or persistent\) on MPI_COMM_WORLD .* -> direct \(forced\)"
expect_in_log 'coll:rsag: direct on MPI_COMM_WORLD .*single copy by CMA from 32768 bytes'
expect_in_log "rsag_direct: bits PASS np=2 form=nonblocking cases=[0-9]+ failures=0 direct=[1-9]"
# the persistent init makes the segment itself: its first call runs direct
run_test direct-forms-persistent-np2 "${mpirun_cmd[@]}" -np 2 "${direct_cma[@]}" \
    --mca coll_rsag_verbose 1 "$direct_prog" bits --form persistent
expect_in_log "rsag_direct: before the segment, a persistent allreduce ran direct"
expect_in_log "allreduce \(nonblocking or persistent\) on MPI_COMM_WORLD .* -> direct \(forced\)"
expect_not_in_log "direct not before"
expect_in_log 'coll:rsag: direct on MPI_COMM_WORLD .*single copy by CMA from 32768 bytes'
expect_in_log "rsag_direct: bits PASS np=2 form=persistent cases=[0-9]+ failures=0 direct=[1-9]"
# (np 2 under auto: the defaults already take direct there)
for direct_form in nonblocking persistent; do
    run_test "direct-forms-$direct_form-auto-np2" "${mpirun_cmd[@]}" -np 2 "$direct_prog" bits \
        --form "$direct_form" --auto
    expect_in_log "rsag_direct: bits PASS np=2 form=$direct_form auto cases=[0-9]+ failures=0 direct=[1-9]"
done
# direct_forms NP FORM HOW MAX_COUNT [MPIRUN ARGS...]: test
# direct-forms-FORM[-auto]-npNP[-SUFFIX], rsag_direct bits in FORM with direct
# forced (HOW "forced") or under auto with its thresholds at 1 byte (HOW
# "auto"), vectors of at most MAX_COUNT elements (0: all); passes when the
# results are right and direct ran.  SUFFIX: $direct_suffix.
direct_forms() {
    local np="$1" form="$2" how="$3" max="$4" mode=() extra=() name
    shift 4
    name="direct-forms-$form${direct_suffix:+-$direct_suffix}-np$np"
    if [ "$how" = auto ]; then
        mode=(--auto)
        extra=("${direct_auto[@]}")
        name="direct-forms-$form-auto-np$np"
    fi
    [ "$max" = 0 ] || mode+=(--max-count "$max")
    run_test "$name" "${mpirun_cmd[@]}" -np "$np" "${extra[@]}" "$@" "$direct_prog" bits \
        --form "$form" "${mode[@]}"
    expect_in_log "rsag_direct: bits PASS np=$np form=$form${extra:+ auto} cases=[0-9]+ failures=0 direct=[1-9]"
}
direct_suffix=windows
direct_forms 3 nonblocking forced 5000 --mca coll_rsag_single_copy none \
    --mca coll_rsag_segment_size 4096
direct_suffix=cma
direct_forms 3 persistent forced 0 --mca coll_rsag_single_copy cma \
    --mca coll_rsag_direct_chunk_size 4096
direct_suffix=
direct_forms 3 nonblocking auto 5000
direct_forms 4 persistent auto 5000
direct_forms 4 nonblocking forced 5000
direct_forms 4 persistent forced 5000 --mca coll_rsag_single_copy none
direct_forms 8 nonblocking auto 1000
direct_forms 8 persistent forced 1000
direct_forms 8 nonblocking forced 1000
direct_forms 16 nonblocking forced 1000
direct_forms 16 persistent auto 1000
direct_forms 16 persistent forced 1000
# one rank: no segment, the prologue copies, direct counted in both forms
run_test direct-forms-self-np1 "${mpirun_cmd[@]}" -np 1 "${direct_force[@]}" "$check" --quick \
    --algorithms current --form nonblocking,persistent --every 4
expect_in_log 'rsag_check: np=1 cases=[0-9]+ passed=[0-9]+ failed=0 '
expect_in_log 'ran under coll_rsag_allreduce_direct_calls: [1-9]'
expect_in_log 'ran under coll_rsag_reduce_scatter_direct_calls: [1-9]'

# Persistent requests of the four collectives (3, 1000 and 40000 elements,
# in place and not) each started 100 times with new data between the
# starts, every result checked bit for bit; direct ran every one (its
# counter moved when the request was made; coll_rsag_persistent_starts by
# 100 per request).  CMA from 32 KB at np 2; windows of 32 KB at np 3.
# Each request on its own segment; -ordered: the starts asserted ordered,
# on the communicator's segment.
run_test direct-restart-persistent-np2 "${mpirun_cmd[@]}" -np 2 "${direct_cma[@]}" \
    "$direct_prog" restart --starts 100
expect_in_log 'rsag_direct: restart PASS np=2 requests=24 starts=100 each, by direct 2400, failures=0'
run_test direct-restart-persistent-ordered-np2 "${mpirun_cmd[@]}" -np 2 "${direct_cma[@]}" \
    "$direct_prog" restart --starts 100 --ordered
expect_in_log 'rsag_direct: restart PASS np=2 requests=24 starts=100 each, by direct 2400, failures=0'
run_test direct-restart-persistent-windows-np3 "${mpirun_cmd[@]}" -np 3 \
    --mca coll_rsag_single_copy none --mca coll_rsag_segment_size 65536 "$direct_prog" restart \
    --starts 100
expect_in_log 'rsag_direct: restart PASS np=3 requests=24 starts=100 each, by direct 2400, failures=0'

# Several direct requests in flight at once on one communicator and on a
# second one, a persistent one among them, a blocking direct call between
# them, completed in reverse order (MPI_Wait on the last first, MPI_Test
# loops, a blocking call on the other communicator between the waits); every
# call by direct (counters), every result checked.
run_test direct-outstanding-np2 "${mpirun_cmd[@]}" -np 2 "$direct_prog" outstanding --rounds 6
expect_in_log 'rsag_direct: outstanding PASS np=2 rounds=6 nonblocking requests=24 by direct=42 failures=0'
run_test direct-outstanding-windows-np3 "${mpirun_cmd[@]}" -np 3 \
    --mca coll_rsag_segment_size 4096 "$direct_prog" outstanding --rounds 6
expect_in_log 'rsag_direct: outstanding PASS np=3 rounds=6 nonblocking requests=24 by direct=42 failures=0'
run_test direct-outstanding-cma-np4 "${mpirun_cmd[@]}" -np 4 --mca coll_rsag_single_copy cma \
    "$direct_prog" outstanding --rounds 6
expect_in_log 'rsag_direct: outstanding PASS np=4 rounds=6 nonblocking requests=24 by direct=42 failures=0'

# memcheck over both forms with direct forced (CMA from 32 KB: both data
# paths), as direct-valgrind-np3
direct_valgrind_form() {
    (export OMPI_MCA_coll_rsag_direct_cma_min_bytes=32768; valgrind_job "$@")
}
run_test direct-valgrind-nonblocking-np2 direct_valgrind_form direct-valgrind-nonblocking-np2 \
    2 "$direct_prog" bits --form nonblocking --max-count 5000
expect_in_log 'rsag_direct: bits PASS np=2 form=nonblocking cases=[0-9]+ failures=0 direct=[1-9]'
expect_in_log 'valgrind-filter: 2 files \(2 finished\), 0 rsag records'
run_test direct-valgrind-persistent-np2 direct_valgrind_form direct-valgrind-persistent-np2 \
    2 "$direct_prog" restart --starts 5
expect_in_log 'rsag_direct: restart PASS np=2 requests=24 starts=5 each, by direct 120, failures=0'
expect_in_log 'valgrind-filter: 2 files \(2 finished\), 0 rsag records'

# Shared memory runs short: a fallback, never a crash (a segment only
# ftruncate'd was "made" on a full /dev/shm and raised SIGBUS at its first
# touch).  direct_small_shm SIZE CMD...: CMD in a private mount namespace
# whose /dev/shm is a tmpfs of SIZE; afterwards it lists what CMD left there
# ("rsag names left in /dev/shm: N").  vader's files go to /tmp
# (btl_vader_backing_directory), so that only rsag meets the small /dev/shm.
direct_small_shm() {
    local size=$1
    shift
    unshare -m --propagation private sh -c '
        mount -t tmpfs -o size="$0" tmpfs /dev/shm || exit 1
        "$@"
        rc=$?
        echo "/dev/shm after the job: $(ls -A /dev/shm | tr "\n" " ")"
        echo "rsag names left in /dev/shm: $(ls -A /dev/shm | grep -c "^rsag-")"
        exit $rc' "$size" "$@"
}
direct_shm_vader=(--mca btl_vader_backing_directory /tmp)
# 16 KiB: rsag's 2 MiB segment cannot be reserved (posix_fallocate: ENOSPC;
# the free-space rule off, so the reservation itself is what refuses): both
# communicators fall back to the point-to-point algorithms, results right.
run_test direct-shm-full-fallback-np2 direct_small_shm 16k "${mpirun_cmd[@]}" -np 2 \
    "${direct_shm_vader[@]}" --mca coll_rsag_segment_keep_free_percent 0 \
    --mca coll_rsag_verbose 1 "$direct_prog" comms
expect_in_log "direct on MPI_COMM_WORLD .*: shared segment of [0-9]+ bytes not made: posix_fallocate: No space left on device; rsag's point-to-point algorithms instead"
expect_in_log "direct on MPI COMMUNICATOR [0-9]+ DUP FROM 0 .*not made: posix_fallocate: No space left on device"
expect_in_log 'rsag_direct: comms round 1 comm 0: [a-z_]+ \(not direct\)'
expect_in_log 'rsag_direct: comms round 1 comm 1: [a-z_]+ \(not direct\)'
expect_in_log 'rsag_direct: comms PASS np=2 comms=2 failures=0'
expect_in_log 'rsag names left in /dev/shm: 0$'
expect_not_in_log 'Bus error|signal 7'
# 2304 KiB: the segment (2114048 bytes at np 2) would fit, but would leave
# less than coll_rsag_segment_keep_free_percent (25 %) of /dev/shm free.
run_test direct-shm-keep-free-fallback-np2 direct_small_shm 2304k "${mpirun_cmd[@]}" -np 2 \
    "${direct_shm_vader[@]}" --mca coll_rsag_verbose 1 "$direct_prog" comms
expect_in_log "direct on MPI_COMM_WORLD .*: shared segment of 2114048 bytes not made: /dev/shm has [0-9]+ of 2359296 bytes free and must keep 589824 free \(coll_rsag_segment_keep_free_percent 25\); rsag's point-to-point algorithms instead"
expect_in_log 'rsag_direct: comms round 0 comm 0: [a-z_]+ \(not direct\)'
expect_in_log 'rsag_direct: comms PASS np=2 comms=2 failures=0'
expect_in_log 'rsag names left in /dev/shm: 0$'
# ... and the same /dev/shm without that rule: the segment is made, direct runs.
run_test direct-shm-keep-free-off-np2 direct_small_shm 2304k "${mpirun_cmd[@]}" -np 2 \
    "${direct_shm_vader[@]}" --mca coll_rsag_segment_keep_free_percent 0 \
    --mca coll_rsag_verbose 1 "$direct_prog" comms --comms 1
expect_in_log 'direct on MPI_COMM_WORLD .*: shared segment 2114048 bytes, copies through the segment'
expect_in_log 'rsag_direct: comms round 1 comm 0: direct$'
expect_in_log 'rsag_direct: comms PASS np=2 comms=1 failures=0'
expect_in_log 'rsag names left in /dev/shm: 0$'
# Leftovers of killed jobs are removed: in the private /dev/shm, three
# names in rsag's pattern: a creator that is gone, the name 2 minutes old
# (removed by the first segment's creation); the same, but just made (could
# be a set-up in another pid namespace: kept); a creator that runs (kept).
direct_with_leftovers() {
    local dead
    dead=$(sh -c 'echo $$')
    : > "/dev/shm/rsag-1-3-$dead-0" && touch -d '2 minutes ago' "/dev/shm/rsag-1-3-$dead-0" &&
        : > "/dev/shm/rsag-1-4-$dead-0" && : > "/dev/shm/rsag-1-5-$$-0" || return 1
    echo "/dev/shm before the job: $(ls -A /dev/shm | tr '\n' ' ')"
    "$@"
}
run_test direct-shm-leftovers-removed-np2 direct_small_shm 8m bash -c \
    "$(declare -f direct_with_leftovers); direct_with_leftovers \"\$@\"" direct_with_leftovers \
    "${mpirun_cmd[@]}" -np 2 "${direct_shm_vader[@]}" --mca coll_rsag_segment_keep_free_percent 0 \
    --mca coll_rsag_verbose 1 "$direct_prog" comms --comms 1
expect_in_log '/dev/shm before the job: .*rsag-1-3-'
expect_in_log 'coll:rsag: removed 1 shared segment name\(s\) left in /dev/shm by processes that are gone'
expect_in_log 'rsag_direct: comms round 1 comm 0: direct$'
expect_in_log '/dev/shm after the job: rsag-1-[45]-[0-9]+-0 rsag-1-[45]-[0-9]+-0 $'
expect_in_log 'rsag names left in /dev/shm: 2$'
# The per-process cap: 5 MiB holds the segments of MPI_COMM_WORLD and of
# the first duplicate (2 MiB each, both created by rank 0), not of the
# second, which falls back; once the duplicates are freed a new one gets
# its segment again.
run_test direct-shm-cap-fallback-np2 "${mpirun_cmd[@]}" -np 2 \
    --mca coll_rsag_segment_max_bytes 5242880 --mca coll_rsag_verbose 1 "$direct_prog" comms \
    --comms 3
expect_in_log 'rsag_direct: comms round 1 comm 0: direct$'
expect_in_log 'rsag_direct: comms round 1 comm 1: direct$'
expect_in_log 'rsag_direct: comms round 1 comm 2: [a-z_]+ \(not direct\)'
expect_in_log "direct on MPI COMMUNICATOR [0-9]+ DUP FROM 0 .*: shared segment of 2114048 bytes not made: this process's segments would take 6342144 bytes, above coll_rsag_segment_max_bytes 5242880; rsag's point-to-point algorithms instead"
expect_count 1 'not made: '
expect_in_log 'rsag_direct: comms after free: direct$'
expect_in_log 'rsag_direct: comms PASS np=2 comms=3 failures=0'
run_test direct-shm-clean-after-cap-np2 direct_no_shm_names

# CMA refused for real: rsag_nocma installs a seccomp filter under which
# process_vm_readv/writev fail (EPERM, or ENOSYS), then execs the rank
# (vader's own single copy is turned off: it would meet the same filter).
# With coll_rsag_single_copy cma the test read is refused on every rank and
# every rank copies through the segment; direct still runs (rsag_direct
# bits checks its counter), same bits.
direct_nocma=(--mca btl_vader_single_copy_mechanism none)
run_test direct-cma-seccomp-refused-np2 "${mpirun_cmd[@]}" -np 2 "${direct_nocma[@]}" \
    --mca coll_rsag_single_copy cma --mca coll_rsag_verbose 1 "$here/mpi/rsag_nocma" \
    "$direct_prog" bits
expect_in_log 'direct on MPI_COMM_WORLD .*: shared segment [0-9]+ bytes; CMA refused \(process_vm_readv: Operation not permitted\): copies through the segment'
expect_not_in_log 'single copy by CMA'
expect_in_log 'rsag_direct: bits PASS np=2 '
run_test direct-cma-seccomp-enosys-np3 "${mpirun_cmd[@]}" -np 3 "${direct_nocma[@]}" \
    "${direct_cma[@]}" --mca coll_rsag_verbose 1 "$here/mpi/rsag_nocma" --errno ENOSYS \
    "$direct_prog" bits
expect_in_log 'direct on MPI_COMM_WORLD .*: shared segment [0-9]+ bytes; CMA refused \(process_vm_readv: Function not implemented\): copies through the segment'
expect_in_log 'rsag_direct: bits PASS np=3 '
# With the defaults (auto, learning) the test read is made too: refused,
# every rank copies through the segment and nothing is learned.
run_test direct-cma-learn-refused-np2 "${mpirun_cmd[@]}" -np 2 "${direct_nocma[@]}" \
    --mca coll_rsag_verbose 1 "$here/mpi/rsag_nocma" "$direct_prog" bits
expect_in_log 'direct on MPI_COMM_WORLD .*: shared segment [0-9]+ bytes; CMA refused \(process_vm_readv: Operation not permitted\): copies through the segment'
expect_not_in_log 'single copy by CMA'
expect_in_log 'rsag_direct: bits PASS np=2 '
# coll_rsag_direct_cma_min_bytes set to never: nothing uses CMA, no test read
# (the filter would refuse it), and the trace says the segment carries the data.
run_test direct-cma-no-test-read-np2 "${mpirun_cmd[@]}" -np 2 "${direct_nocma[@]}" \
    --mca coll_rsag_direct_cma_min_bytes 18446744073709551615 \
    --mca coll_rsag_verbose 1 "$here/mpi/rsag_nocma" "$direct_prog" bits
expect_in_log 'direct on MPI_COMM_WORLD .*: shared segment [0-9]+ bytes, copies through the segment \(coll_rsag_single_copy auto, coll_rsag_direct_cma_min_bytes set to never: no CMA, no test read\)'
expect_not_in_log 'CMA refused|single copy by CMA'
expect_in_log 'rsag_direct: bits PASS np=2 '

# The copy mode learned (coll_rsag_single_copy auto, the default): 140
# blocking calls of each collective at 64 KB and 1 MB, then nonblocking
# ones; both ways must have run (coll_rsag_direct_cma_calls), every result
# right, and rank 0 traces each vote's outcome for each collective and size.
# The ranks must agree on every call's way: a disagreement hangs or gives
# wrong sums.  np 4 is oversubscribed: correctness only, with the defaults
# of a node with a core per rank (an oversubscribed node copies through the
# segment and learns nothing: direct-oversubscribed-segment-np4 below).
for np in 2 4; do
    nodefaults=(); [ "$np" -gt 2 ] && nodefaults=(--mca coll_rsag_oversubscribed_defaults 0)
    run_test "direct-learn-copy-np$np" "${mpirun_cmd[@]}" -np "$np" --mca coll_rsag_verbose 1 \
        "${nodefaults[@]}" "$direct_prog" learn
    for direct_coll in allreduce reduce reduce_scatter_block; do
        for direct_bytes in 65536 1048576; do
            expect_in_log "direct on MPI_COMM_WORLD \\(size $np\\), $direct_bytes-byte $direct_coll calls: (single copy by CMA|copies through the segment) \\(segment [0-9.]+ us, CMA [0-9.]+ us per call, slowest rank\\)"
        done
    done
    expect_in_log "direct on MPI_COMM_WORLD .*: shared segment [0-9]+ bytes, copies through the segment below 16384 bytes, from there each size the faster of the segment and single copy by CMA, as measured"
    expect_in_log "rsag_direct: learn PASS np=$np calls=856 cma=[1-9]"
done
# On an oversubscribed node (np 4 on 2 cores) the default copies through the
# segment: no test read, no vote, no CMA call, results right; set
# coll_rsag_single_copy cma, it reads by CMA there too.
run_test direct-oversubscribed-segment-np4 "${mpirun_cmd[@]}" -np 4 --mca coll_rsag_verbose 1 \
    "$direct_prog" learn --cma none
expect_in_log 'direct on MPI_COMM_WORLD .*: shared segment [0-9]+ bytes, copies through the segment \(an oversubscribed node: no CMA, no test read'
expect_not_in_log 'per call, slowest rank|single copy by CMA|test read of a peer'
expect_in_log 'rsag_direct: learn PASS np=4 calls=856 cma=0$'
run_test direct-oversubscribed-cma-set-np4 "${mpirun_cmd[@]}" -np 4 --mca coll_rsag_verbose 1 \
    --mca coll_rsag_single_copy cma "$direct_prog" learn --cma all
expect_in_log 'direct on MPI_COMM_WORLD .*: shared segment [0-9]+ bytes, single copy by CMA \(test read of a peer worked on every rank\)'
expect_in_log 'rsag_direct: learn PASS np=4 calls=856 cma=856$'
# A reduce-scatter of fewer elements than ranks (OSU's below p elements):
# a rank that gets none reads nobody's input, so it posts its own and
# returns; the others' results stay right while it runs ahead, in every form.
for np in 2 4; do
    run_test "direct-empty-blocks-np$np" "${mpirun_cmd[@]}" -np "$np" "$direct_prog" empty
    expect_in_log "rsag_direct: empty PASS np=$np calls=2000"
done
# The same up the boxed tree (fan-in 2): a rank with an empty block takes no
# result from rank 0's box, so it waits for its parent two ticks later.
run_test direct-empty-blocks-tree-np5 "${mpirun_cmd[@]}" -np 5 --mca coll_rsag_direct_fanin 2 \
    --mca coll_rsag_verbose 1 "$direct_prog" empty
expect_in_log 'direct on MPI_COMM_WORLD \(size 5\): 16-byte boxed calls go through the tree, fan-in 2'
expect_in_log 'rsag_direct: empty PASS np=5 calls=2000'

# How a rank writes what its peers read (coll_rsag_direct_stream): streaming
# stores for every piece, however small and misaligned (min 0), or never:
# the same bits either way.  auto learns per size class and says so at
# verbose 2, on every rank, for the classes it timed both ways.
run_test direct-bits-stream-always-np3 "${mpirun_cmd[@]}" -np 3 \
    --mca coll_rsag_single_copy none --mca coll_rsag_direct_stream always \
    --mca coll_rsag_direct_stream_min_bytes 0 "$direct_prog" bits
expect_in_log 'rsag_direct: bits PASS np=3 '
run_test direct-bits-stream-never-np3 "${mpirun_cmd[@]}" -np 3 \
    --mca coll_rsag_single_copy none --mca coll_rsag_direct_stream never "$direct_prog" bits
expect_in_log 'rsag_direct: bits PASS np=3 '
run_test direct-stream-auto-learns-np2 "${mpirun_cmd[@]}" -np 2 \
    --mca coll_rsag_single_copy none --mca coll_rsag_verbose 2 "$direct_prog" bits
expect_in_log 'rsag_direct: bits PASS np=2 '
expect_in_log 'direct on MPI_COMM_WORLD, rank 0, 24000(00|08)-byte calls: writes for peers (streamed|cached) \(streamed [0-9.]+ us, cached [0-9.]+ us per call\)'
expect_in_log 'direct on MPI_COMM_WORLD, rank 1, 24000(00|08)-byte calls: writes for peers (streamed|cached)'
# below coll_rsag_direct_stream_min_bytes nothing is timed (8000-byte calls)
expect_not_in_log 'rank [01], 8000-byte calls: writes for peers'

# Persistent requests may be started in a different order on each rank (MPI
# matches them at init): direct, which takes its turn when a request starts,
# serves each such request on a segment of its own, made at init (its ticks
# are the request's starts).  Three requests (a box, a whole vector, windows)
# started in opposite orders on even and odd ranks, every result checked:
# by direct, each with its own segment (the trace); without room for those
# segments (coll_rsag_segment_max_bytes just above the communicator's
# segment, 2 x (36 lines + 1 MB) at np 2: not one more 2 x 36 lines): right
# results by another algorithm, and the trace says why; under auto (direct
# at every size at np 2), the 40 KB request made before any blocking call
# of its size (the copy mode it would keep not learned yet): by another
# algorithm, the other two by direct (forced, direct takes the mode agreed
# so far: chaos, liveness); asserted
# ordered
# (coll_rsag_persistent_starts_ordered) and started in order: by direct on
# the communicator's segment, no segment of their own.
for np in 2 4; do
    run_test "direct-persistent-any-order-np$np" "${mpirun_cmd[@]}" -np "$np" \
        --mca coll_rsag_allreduce_algorithm direct --mca coll_rsag_verbose 1 \
        "$direct_prog" unordered
    expect_in_log "rsag_direct: unordered PASS np=$np rounds=20 any-order direct=3 failures=0"
    for bytes in 56 8000 40000; do
        expect_in_log "direct on MPI_COMM_WORLD \(cid 0, size $np\): a persistent allreduce of $bytes bytes: its own shared segment, [0-9]+ bytes \([0-9]+-byte data slots\) \(its starts may come in any order\)"
    done
done
run_test direct-persistent-any-order-no-room-np2 "${mpirun_cmd[@]}" -np 2 \
    --mca coll_rsag_allreduce_algorithm direct --mca coll_rsag_verbose 1 \
    --mca coll_rsag_segment_max_bytes 2116288 "$direct_prog" unordered --expect-direct 0
expect_in_log 'rsag_direct: unordered PASS np=2 rounds=20 any-order direct=0 failures=0'
expect_in_log 'a persistent allreduce of 8000 bytes: shared segment of [0-9]+ bytes not made: this process.s segments would take [0-9]+ bytes, above coll_rsag_segment_max_bytes 2116288; its starts may come in any order: not direct'
expect_in_log "allreduce \(nonblocking or persistent\) on MPI_COMM_WORLD .* -> [a-z_]+ \(direct forced but it needs starts in the communicator's order \(persistent: mpi_assert_strict_persistent_collective_ordering\)\)"
run_test direct-persistent-ordered-np2 "${mpirun_cmd[@]}" -np 2 \
    --mca coll_rsag_allreduce_algorithm direct --mca coll_rsag_verbose 1 \
    "$direct_prog" unordered --ordered
expect_in_log 'rsag_direct: unordered PASS np=2 rounds=20 ordered direct=3 failures=0'
expect_not_in_log 'its own shared segment'
run_test direct-persistent-any-order-unsettled-np2 "${mpirun_cmd[@]}" -np 2 \
    --mca coll_rsag_verbose 1 "$direct_prog" unordered --no-settle --expect-direct 2
expect_in_log 'rsag_direct: unordered PASS np=2 rounds=20 any-order direct=2 failures=0'
expect_in_log 'a persistent allreduce of 40000 bytes: no segment of its own, the copy mode of its size not learned yet \(no blocking call of its size has voted\); its starts may come in any order: not direct'
expect_in_log 'a persistent allreduce of 8000 bytes: its own shared segment'

# --- the latency path ------------------------------------------------------------
# rsag_direct latency: every collective forced to direct on 1, 7, 135, 200,
# 519 and 600 doubles (8 B, 56 B: the stamp's line, 1080 B: a box from np 3,
# 1600 B: more, 4152 B: a box at np 2, 4800 B: more than any box),
# MPI_SUM and a non-commutative user op, in place and not, batches of five
# calls of one shape with fresh non-integer inputs, every result the same
# bits as the rank-order fold (the tree's, where auto's fan-in rule takes
# the tree: np 16 from 256 B); every call but a shape's first that fits a
# box must take the latency path (coll_rsag_latency_calls; the
# first too when an earlier batch had its shape); then a forced algorithm
# changed through MPI_T between two calls of one shape must run the next
# call, and coll_rsag_latency_max_bytes 0 turns the path off.  --form nonblocking:
# MPI_I* + MPI_Wait, every call of a shape but the first reusing a request
# the communicator kept (MPI_SUM: a user op's request is not kept), then six
# requests of one shape outstanding at once.  np 3 to 16 are oversubscribed:
# correctness only, and the waits must not crawl (the np 16 job in the
# usual time limit).
for np in 2 3 5 16; do
    run_test "direct-latency-np$np" "${mpirun_cmd[@]}" -np "$np" "$direct_prog" latency
    expect_in_log "rsag_direct: latency PASS np=$np iters=5 latency_calls=[1-9][0-9]* failures=0"
    run_test "direct-latency-nonblocking-np$np" "${mpirun_cmd[@]}" -np "$np" "$direct_prog" \
        latency --form nonblocking
    expect_in_log "rsag_direct: latency PASS np=$np form=nonblocking iters=5 latency_calls=[1-9][0-9]* failures=0"
done
# the trace names the shapes it remembers
run_test direct-latency-trace-np2 "${mpirun_cmd[@]}" -np 2 --mca coll_rsag_verbose 1 \
    "$direct_prog" latency --iters 2
expect_in_log 'rsag_direct: latency PASS np=2 iters=2 '
expect_in_log 'allreduce on MPI_COMM_WORLD \(cid 0, size 2\): 8-byte calls of this shape take the latency path'
# memcheck: the remembered calls' blocks and the kept requests are freed
# with the communicator
run_test direct-latency-valgrind-np2 valgrind_job direct-latency-valgrind-np2 2 \
    "$direct_prog" latency --iters 3
expect_in_log 'rsag_direct: latency PASS np=2 iters=3 '
expect_in_log 'valgrind-filter: 2 files \(2 finished\), 0 rsag records'
run_test direct-latency-valgrind-nonblocking-np2 valgrind_job \
    direct-latency-valgrind-nonblocking-np2 2 "$direct_prog" latency --iters 3 --form nonblocking
expect_in_log 'rsag_direct: latency PASS np=2 form=nonblocking iters=3 '
expect_in_log 'valgrind-filter: 2 files \(2 finished\), 0 rsag records'

# --- the boxed tree --------------------------------------------------------------
# coll_rsag_direct_fanin k >= 2 (set through MPI_T by the program): a vector
# of up to a box (1080 bytes) at p >= 3 is reduced up a tree of fan-in k to
# rank 0, which every rank then reads.  rsag_direct --fanin: every
# collective forced to direct, 1, 7, 64, 135 doubles (8 B to a box) and 200
# (more: flat), MPI_SUM on non-integer doubles and a non-commutative,
# non-associative user op, in place and not, reduce at several roots; each
# result the same bits as the tree's documented fold order (any other
# grouping gives other bits) on every rank, and coll_rsag_direct_tree_calls
# moving by one for each boxed call and by none for the others (so a test
# that passes ran the tree).  --form all: blocking, nonblocking and
# persistent in one job.  restart: persistent requests restarted with new
# data; latency: the latency path's remembered calls and kept requests,
# and a fan-in changed between two calls of one shape (the next decides
# again).  np 3 to 16 are oversubscribed: correctness only.
for np in 3 5 8; do
    run_test "direct-tree-bits-np$np" "${mpirun_cmd[@]}" -np "$np" "$direct_prog" bits \
        --fanin 2,3,4 --form all
    expect_in_log "rsag_direct: bits PASS np=$np form=all cases=[0-9]+ failures=0 direct=[0-9]+ fanins=3 tree_calls=[1-9][0-9]*"
done
run_test direct-tree-bits-np16 "${mpirun_cmd[@]}" -np 16 "$direct_prog" bits --fanin 4 \
    --form all --max-count 135
expect_in_log "rsag_direct: bits PASS np=16 form=all cases=[0-9]+ failures=0 direct=[0-9]+ fanins=1 tree_calls=[1-9][0-9]*"
run_test direct-tree-restart-np4 "${mpirun_cmd[@]}" -np 4 "$direct_prog" restart \
    --fanin 2,3,4 --max-count 3 --starts 20
expect_in_log "rsag_direct: restart PASS np=4 requests=24 starts=20 each, by direct 480, failures=0 fanins=3 tree_calls=480"
run_test direct-tree-latency-np7 "${mpirun_cmd[@]}" -np 7 "$direct_prog" latency --fanin 3
expect_in_log "rsag_direct: latency PASS np=7 iters=5 latency_calls=[1-9][0-9]* failures=0 fanin=3 tree_calls=[1-9][0-9]*"
run_test direct-tree-latency-nonblocking-np8 "${mpirun_cmd[@]}" -np 8 "$direct_prog" latency \
    --fanin 2 --form nonblocking
expect_in_log "rsag_direct: latency PASS np=8 form=nonblocking iters=5 latency_calls=[1-9][0-9]* failures=0 fanin=2 tree_calls=[1-9][0-9]*"
# auto at np 16: the model keeps boxed calls of up to 56 bytes flat there
# (doc/direct.md, The tree; the tree from 256 B); the trace says so and no
# call ran the tree.  A forced fan-in is traced too.
run_test direct-tree-auto-np16 "${mpirun_cmd[@]}" -np 16 --mca coll_rsag_verbose 1 \
    "$direct_prog" bits --fanin 0,3 --max-count 7
expect_in_log "rsag_direct: bits PASS np=16 form=blocking cases=[0-9]+ failures=0 direct=[0-9]+ fanins=2 tree_calls=[1-9][0-9]*"
expect_in_log 'direct on MPI_COMM_WORLD \(size 16\): 8-byte boxed calls go flat, fan-in 1 \(coll_rsag_direct_fanin 0\)'
expect_in_log 'direct on MPI_COMM_WORLD \(size 16\): 8-byte boxed calls go through the tree, fan-in 3 \(coll_rsag_direct_fanin 3\)'
# a bad value: one message, auto
run_test direct-tree-bad-fanin-np3 "${mpirun_cmd[@]}" -np 3 --mca coll_rsag_direct_fanin -2 \
    "$direct_prog" bits --max-count 7
expect_in_log 'rsag_direct: bits PASS np=3 '
expect_in_log 'coll_rsag_direct_fanin = -2 is out of range \(valid: 0 auto, 1 flat, 2 to 256 a tree of that fan-in\); using 0 \(auto\)'
expect_count 1 'coll_rsag_direct_fanin = -2 is out of range'
# memcheck: the tree's folds read and write only what they own
run_test direct-tree-valgrind-np3 valgrind_job direct-tree-valgrind-np3 3 "$direct_prog" bits \
    --fanin 2 --form all --max-count 64
expect_in_log 'rsag_direct: bits PASS np=3 form=all '
expect_in_log 'valgrind-filter: 3 files \(3 finished\), 0 rsag records'
