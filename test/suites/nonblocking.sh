# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# nonblocking.sh: the nonblocking (MPI_Iallreduce, MPI_Ireduce,
# MPI_Ireduce_scatter_block, MPI_Ireduce_scatter) and persistent
# (MPI_Allreduce_init ... + MPI_Start; MPIX_ in Open MPI 4.1) reductions:
# the correctness matrix through both forms (rsag_check --form),
# every algorithm forced by --mca in the nonblocking form, the hard cases of
# request handling (rsag_nbc), valgrind, and the ob1 + tcp transport.  Every
# case proves through MPI_T that rsag ran the call itself: its algorithm
# counters, coll_rsag_nonblocking_requests and coll_rsag_persistent_starts.
# `direct` runs in these forms once a blocking call has made the
# communicator's segment (its own tests there: direct-forms-* in direct.sh).

# --- the matrix through both forms, every algorithm switched through MPI_T --
# (quick: the full matrix at np 2 takes minutes in these forms on 2 cores;
# at np 4, oversubscribed, one case in 3 of each block)
for np in 2 4; do
    every=(); [ "$np" = 4 ] && every=(--every 3)
    for form in nonblocking persistent; do
        run_test "nonblocking-matrix-$form-np$np" "${mpirun_cmd[@]}" -np "$np" "$check" \
            --quick "${every[@]}" --form "$form"
        expect_in_log "rsag_check: seed=[0-9]+ np=$np mode=quick( every=3)? form=$form "
        expect_in_log 'rsag_check: np=[0-9]+ cases=[0-9]+ passed=[0-9]+ failed=0 '
        # every rsag algorithm that runs on one node ran cases; direct too
        # in the persistent form (the first persistent init that selects it
        # makes the segment); in the nonblocking form only once one of
        # rsag_check's blocking calls made it, which depends on np
        expect_in_log 'ran under coll_rsag_allreduce_ring_calls: [1-9][0-9]* cases'
        expect_in_log 'ran under coll_rsag_reduce_rabenseifner_calls: [1-9][0-9]* cases'
        expect_in_log 'ran under coll_rsag_reduce_scatter_priority_aware_calls: [1-9][0-9]* cases'
        expect_in_log 'ran under coll_rsag_reduce_scatter_block_recursive_halving_calls: [1-9]'
        if [ "$form" = persistent ]; then
            expect_in_log 'ran under coll_rsag_allreduce_direct_calls: [1-9][0-9]* cases'
        fi
    done
done

# --- every algorithm forced the way users force it (--mca), nonblocking -----
# One job per algorithm name, forcing it on every collective that has it
# (from the ompi_info enumerations; none is a harness error): `hierarchical`
# must fall back (one node: that it runs, forced, in these forms is
# multinode-hier-forced-nonblocking-np4); the others must run, `direct` too
# (rsag_check's own blocking calls, forced to it as well, make the segment).
algorithms_by_name
for alg in "${forced_names[@]}"; do
    colls="${forced_colls[$alg]}"
    forced_mca "$alg"
    run_test "nonblocking-mca-forced-$alg-np5" "${mpirun_cmd[@]}" --mca coll_rsag_verbose 1 \
        "${forced_args[@]}" -np 5 "$check" --quick --form nonblocking --algorithms current \
        --coll "$colls"
    expect_in_log 'rsag_check: np=5 cases=[0-9]+ passed=[0-9]+ failed=0 '
    for coll in ${colls//,/ }; do
        expect_in_log "rsag_check: forced $coll=$alg: [1-9][0-9]* cases, 0 failed"
        if needs_several_nodes "$alg"; then
            expect_in_log "$coll \(nonblocking or persistent\) on MPI_COMM_WORLD .* -> [a-z_]+ \($alg forced but it needs several nodes"
        else
            expect_in_log "$coll \(nonblocking or persistent\) on MPI_COMM_WORLD .* -> $alg \(forced\)"
            expect_in_log "ran under coll_rsag_${coll}_${alg}_calls: [1-9][0-9]* cases"
        fi
    done
done

# --- the hard cases of request handling --------------------------------------
for np in 2 3 4; do
    run_test "nonblocking-requests-np$np" "${mpirun_cmd[@]}" -np "$np" "$here/mpi/rsag_nbc" \
        --timeout "$(( timeout_s > 60 ? timeout_s - 30 : timeout_s ))"
    for case in many progress mixed free restart inplace allocfail; do
        expect_in_log "rsag_nbc: $case: ok"
    done
    expect_in_log 'rsag_nbc: restart: ok \(1000 starts of each collective'
    expect_in_log 'rsag_nbc: allocfail: ok \([1-9][0-9]* calls, [1-9][0-9]* failures injected'
    expect_in_log "rsag_nbc: np=$np cases=7 failed=0"
done

# The checks of who ran the calls can fail: with coll/libnbc's priority
# above rsag's, libnbc takes the nonblocking and persistent slots (rsag keeps
# the blocking ones, which it has alone): the results are right, and every
# case must fail on rsag's counters.
run_test nonblocking-requests-detect-libnbc-np2 exits_with_error "${mpirun_cmd[@]}" \
    --mca coll_libnbc_priority 100 -np 2 "$here/mpi/rsag_nbc" --case many,restart
expect_in_log "rsag_nbc: many: FAIL"
expect_in_log "rsag_nbc: rank [01]: many: counters: rsag's allreduce algorithm counters moved by 0, expected [1-9]"
expect_in_log "rsag_nbc: rank [01]: restart: allreduce: coll_rsag_persistent_starts moved by 0 over 1000 starts"
expect_not_in_log 'elements wrong'
run_test nonblocking-matrix-detects-libnbc-np2 exits_with_error "${mpirun_cmd[@]}" \
    --mca coll_libnbc_priority 100 -np 2 "$check" --quick --form nonblocking,persistent \
    --coll reduce_scatter_block --max-print 1000000
expect_in_log 'form=nonblocking coll=reduce_scatter_block .*: counter mismatch: no coll_rsag_reduce_scatter_block_\*_calls counter moved'
expect_in_log 'form=persistent coll=reduce_scatter_block .*: counter mismatch: no coll_rsag_reduce_scatter_block_\*_calls counter moved'
expect_not_in_log 'wrong result|returned error|sendbuf modified|overwritten'

# --- memcheck over the quick matrix in both forms ---------------------------
# (one case in 8 of each block: every algorithm, communicator and collective,
# in under a minute of CPU; the whole quick matrix takes minutes under
# valgrind).  Open MPI 4.1.4's libnbc leaks every persistent request it is
# given; test/valgrind-filter.awk leaves those to libnbc.
run_test nonblocking-valgrind-check-quick-np2 valgrind_job \
    nonblocking-valgrind-check-quick-np2 2 "$check" --quick --every 8 \
    --form nonblocking,persistent
expect_in_log 'rsag_check: np=[0-9]+ cases=[0-9]+ passed=[0-9]+ failed=0'
expect_in_log 'valgrind-filter: 2 files \(2 finished\), 0 rsag records'


# --- over ob1 + tcp ---------------------------------------------------------
run_test nonblocking-ob1-tcp-np3 "${mpirun_cmd[@]}" --mca pml ob1 --mca btl self,tcp \
    --mca btl_tcp_if_include lo "${transport_verbose[@]}" -np 3 "$check" --quick \
    --form nonblocking,persistent
expect_in_log 'rsag_check: np=[0-9]+ cases=[0-9]+ passed=[0-9]+ failed=0'
expect_that assert_transport "$last_log" 3 ob1-tcp
