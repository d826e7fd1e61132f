# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# exact.sh: coll_rsag_reproducible = exact (doc/reproducible.md, "exact"):
# MPI_SUM of floating-point types gives the same bits whatever the number
# of processes, the ranks the contributions sit on, the algorithm and the
# form.  rsag_exact (test/mpi/rsag_exact.c) runs, in one job per p, every
# collective with every algorithm forced through MPI_T and auto, in the
# three forms, five types, the one-collective and the two-pass sizes, in
# place or not, and prints a hash of the result per (collective, type,
# size): no hash may differ inside a job nor between jobs.  One node,
# oversubscribed: correctness only.  Sourced by run_tests.sh.

exact="$here/mpi/rsag_exact"

# The kernels without MPI: any order and grouping, the same bits; the
# one-collective form the same as the two passes; the error bound.
run_test exact-unit-kernels "$here/unit/test_exact"
expect_in_log 'test_exact: [0-9]+ checks passed, 0 failed'

# The hash lines of a log.  Wherever they are in a line: the launcher may
# cut a rank's verbose trace (stderr) around a line of its stdout; -a: a
# log may hold a stray binary byte from the launcher (Open MPI 5.0).
exact_hash_re='rsag_exact: hash [a-z_]+ [a-z_]+ [0-9]+ [0-9a-f]{16}'
exact_hashes() { grep -aoE "$exact_hash_re" "$1"; }

# exact_hashes_equal REF: the hash lines of the last log are those of test
# REF's log (the same 40 keys, the same bits).
exact_hashes_equal() {
    diff <(exact_hashes "$results/$1.log") <(exact_hashes "$last_log")
}

# exact_colls_agree: in the last log, the four collectives give the same
# bits for each (type, size) (a reduce-scatter's element i is an
# allreduce's element i), and MPI_DOUBLE_PRECISION those of MPI_DOUBLE.
exact_colls_agree() {
    awk '$2 == "hash" { t = ($4 == "double_precision") ? "double" : $4
                        if (!((t " " $5 " " $6) in seen)) { seen[t " " $5 " " $6] = 1; n[t " " $5]++ } }
         END { bad = 0
               for (k in n) if (n[k] != 1) { print k ": " n[k] " hashes"; bad = 1 }
               exit bad }' <(exact_hashes "$last_log")
}

# 40 keys: 4 collectives x 5 types x 2 sizes
exact_forty_hashes() { [ "$(exact_hashes "$last_log" | wc -l)" -eq 40 ]; }

exact_job_ok() {
    expect_in_log "rsag_exact: np=$1 cases=[1-9][0-9]* mismatches=0$"
    expect_that exact_forty_hashes
    expect_that exact_colls_agree
    for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
        expect_in_log "rsag_exact: rsag ran $coll: [1-9][0-9]* calls"
    done
}

# p = 4..12: the four contributions on a p-dependent set of ranks, zeros
# elsewhere; every job's hashes those of np 4.
for np in 4 5 6 7 8 9 10 11 12; do
    run_test "exact-sum-np$np" "${mpirun_cmd[@]}" --mca coll_rsag_reproducible exact \
        -np "$np" "$exact"
    exact_job_ok "$np"
    if [ "$np" != 4 ]; then
        expect_ran exact-sum-np4
        expect_that exact_hashes_equal exact-sum-np4
    fi
done

# `direct` reading its peers' buffers by CMA (each rank's pieces of a chunk
# pulled side by side, then folded): the same bits.
run_test exact-direct-cma-np4 "${mpirun_cmd[@]}" --mca coll_rsag_reproducible exact \
    --mca coll_rsag_single_copy cma --mca coll_rsag_direct_cma_min_bytes 0 \
    --mca coll_rsag_verbose 1 -np 4 "$exact"
exact_job_ok 4
expect_in_log 'allreduce on MPI_COMM_WORLD .*exact: direct folds every element'
expect_in_log 'direct on MPI_COMM_WORLD .*CMA'
expect_ran exact-sum-np4
expect_that exact_hashes_equal exact-sum-np4

# The one-collective form and the two passes give the same bits: every
# call exact's own collectives run in two passes (threshold 0), then every
# one in one collective; auto and a forced `direct` fold whole in both.
run_test exact-two-pass-only-np6 "${mpirun_cmd[@]}" --mca coll_rsag_reproducible exact \
    --mca coll_rsag_exact_gather_max_bytes 0 --mca coll_rsag_verbose 1 -np 6 "$exact"
exact_job_ok 6
expect_not_in_log 'coll_rsag_reproducible exact: one collective'
expect_in_log 'allreduce on MPI_COMM_WORLD .*coll_rsag_reproducible exact: two passes'
expect_in_log 'allreduce on MPI_COMM_WORLD .*exact: direct folds every element'
expect_ran exact-sum-np4
expect_that exact_hashes_equal exact-sum-np4
run_test exact-gather-only-np5 "${mpirun_cmd[@]}" --mca coll_rsag_reproducible exact \
    --mca coll_rsag_exact_gather_max_bytes 1048576 --mca coll_rsag_verbose 1 -np 5 "$exact"
exact_job_ok 5
expect_not_in_log 'coll_rsag_reproducible exact: two passes'
expect_in_log 'reduce_scatter on MPI_COMM_WORLD .*exact: direct folds every element'
expect_ran exact-sum-np4
expect_that exact_hashes_equal exact-sum-np4

# The control: the same loops under off give different bits for different
# algorithms (and orders of the contributions), so the hashes above could
# have differed.
run_test exact-control-off-np5 "${mpirun_cmd[@]}" --mca coll_rsag_reproducible off -np 5 \
    "$exact" --control
expect_in_log 'rsag_exact: np=5 cases=[1-9][0-9]* mismatches=[1-9][0-9]*$'
for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
    expect_in_log "rsag_exact: rsag ran $coll: [1-9][0-9]* calls"
done

# What exact does not handle (MPI_PROD, MPI_INT) goes on as placement and
# stays right; the verbose trace says so once per collective.
run_test exact-fallback-np5 "${mpirun_cmd[@]}" --mca coll_rsag_reproducible exact \
    --mca coll_rsag_verbose 1 -np 5 "$exact" --fallback
expect_in_log 'rsag_exact: fallback np=5 cases=[1-9][0-9]* failed=0$'
for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
    expect_in_log "rsag_exact: rsag ran $coll: [1-9][0-9]* calls"
    expect_count 1 "coll:rsag: $coll on MPI_COMM_WORLD .*exact: not MPI_SUM .*: placement instead"
done

# valgrind memcheck of the three forms, exact's three ways (auto: the
# fold; the first row forced: one collective and two passes) and requests
# in flight together: no error, no definite leak in rsag.
exact_valgrind() {
    (export OMPI_MCA_coll_rsag_reproducible=exact OMPI_MCA_coll_rsag_verbose=1; valgrind_job "$@")
}
run_test exact-valgrind-np4 exact_valgrind exact-valgrind-np4 4 "$exact" --quick
expect_in_log 'rsag_exact: np=4 cases=[1-9][0-9]* mismatches=0$'
expect_in_log 'valgrind-filter: 4 files \(4 finished\), 0 rsag records'
expect_in_log 'rsag_exact: rsag ran reduce_scatter: [1-9][0-9]* calls'
expect_in_log 'reduce_scatter on MPI_COMM_WORLD .*coll_rsag_reproducible exact: two passes'
expect_in_log 'reduce_scatter on MPI_COMM_WORLD .*coll_rsag_reproducible exact: one collective'
expect_in_log 'reduce_scatter on MPI_COMM_WORLD .*exact: direct folds every element'

# An allocation failure at any of rsag's memory requests of an exact call
# (its own temporaries, the inner collectives', direct's), blocking, the
# three ways: MPI_ERR_NO_MEM on every rank, nothing leaked, no hang, the
# next call right.  (The latency path off: its remembered calls make no
# memory request at all, so nothing could fail there.)
for count in 4 3000; do
    run_test "exact-allocfail-$count-np4" "${mpirun_cmd[@]}" --mca coll_rsag_reproducible exact \
        --mca coll_rsag_latency_max_bytes 0 --mca coll_rsag_verbose 1 -np 4 \
        "$here/mpi/rsag_alloc" --fail --float --count "$count"
    expect_in_log 'rsag_alloc: np=4 cases=[1-9][0-9]* failed=0'
    expect_not_in_log 'requests 0\.\.0'
    if [ "$count" = 4 ]; then
        expect_in_log 'reduce_scatter on .*coll_rsag_reproducible exact: one collective'
    else
        expect_in_log 'reduce_scatter on .*coll_rsag_reproducible exact: two passes'
        # `ordered` forced folds whole (its fold step's memory request too)
        expect_in_log 'allreduce on .* -> ordered \(forced\); coll_rsag_reproducible exact'
    fi
done

# Thresholds that cover no size (every call of mode off would go to the
# previous module), and no node segment: exact still takes the calls, the
# small ones by its one collective, whose inner collectives go to the
# previous module (blocking) or rsag's first row (requests), the others by
# `ordered`'s fold over the network; the bits are those of exact-sum-np4.
exact_uncovered=()
if name_selected exact-delegated-np5; then
    while read -r var; do
        exact_uncovered+=(--mca "$var" 9223372036854775807)
    done < <(ompi_info --param coll rsag --level 9 --parsable 2>/dev/null |
        sed -n 's/^mca:coll:rsag:param:\(coll_rsag_[a-z_]*_min_bytes\):value:.*/\1/p' |
        grep -v -e cma -e stream -e '_priority_min_bytes$' | sort -u)
fi
# No node segment (a one-byte cap): `direct` cannot fold.
run_test exact-delegated-np5 "${mpirun_cmd[@]}" --mca coll_rsag_reproducible exact \
    --mca coll_rsag_verbose 1 --mca coll_rsag_segment_max_bytes 1 "${exact_uncovered[@]}" \
    -np 5 "$exact" --quick
expect_in_log 'rsag_exact: np=5 cases=[1-9][0-9]* mismatches=0$'
expect_in_log 'allreduce on MPI_COMM_WORLD .* -> delegated to the previous module'
expect_in_log 'allreduce on MPI_COMM_WORLD .*coll_rsag_reproducible exact: one collective'
expect_in_log 'allreduce on MPI_COMM_WORLD .*exact: ordered folds every element'
expect_not_in_log 'exact: direct folds every element'
expect_ran exact-sum-np4
expect_that exact_hashes_equal exact-sum-np4
