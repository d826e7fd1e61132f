# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# matrix.sh: the correctness matrix (test/mpi/rsag_check.c) over the default
# transport (ob1 + vader, see transports.sh): every algorithm of every
# collective switched through MPI_T inside one job per process count, then
# each algorithm forced the way users force it (--mca), and the ring and
# priority-aware patterns with unusual chunk and run settings.
#
# Jobs with more ranks than this machine's 2 cores spend most of their time
# waiting for a core, not on data: from np 5 those run one case in K of each
# (collective, algorithm, communicator) block (rsag_check --every K, K = np,
# see matrix_every), and which one rotates with RSAG_MATRIX_SEED (default:
# the day, UTC), so that K runs on consecutive days run every case.  The seed is printed in each log;
# RSAG_MATRIX_SEED=S test/run_tests.sh -k NAME replays a run,
# RSAG_MATRIX_EVERY=1 runs the whole matrix at every process count.
# (mpirun already sets mpi_yield_when_idle for such jobs: rsag_check's ranks
# yield their core while they wait; forcing it changes nothing.)

matrix_seed=${RSAG_MATRIX_SEED:-$(( $(date -u +%s) / 86400 ))}
if ! [[ "$matrix_seed" =~ ^[0-9]+$ ]]; then
    echo "matrix.sh: RSAG_MATRIX_SEED must be a non-negative integer, not '$matrix_seed'" >&2
    matrix_seed=0
fi
matrix_seed=$(( 10#$matrix_seed ))

# matrix_every NP: K, one case in K of each block at NP ranks.  Up to 4
# ranks (at most 2 per core: these jobs are short) everything; from 5,
# K = NP: on 2 cores the whole matrix at NP ranks costs about NP times np
# 2's (measured: np 5 ~4x, np 12 ~12x; every rank takes part in each case,
# and they take turns on the cores), so each job then costs about what np
# 2's full matrix does, and NP runs cover it.
matrix_every() {
    if [ -n "${RSAG_MATRIX_EVERY:-}" ]; then
        echo "$RSAG_MATRIX_EVERY"
    elif [ "$1" -le 4 ]; then
        echo 1
    else
        echo "$1"
    fi
}

# matrix_thin NP [SALT]: sets matrix_k, matrix_j and matrix_args (the
# rsag_check options: --every K --offset J, empty for K = 1); the offset is
# (seed + NP + SALT) mod K, so that the jobs of one run do not all skip the
# same positions.
matrix_thin() {
    matrix_k=$(matrix_every "$1")
    [[ "$matrix_k" =~ ^[1-9][0-9]*$ ]] || matrix_k=1
    matrix_j=$(( (matrix_seed + $1 + ${2:-0}) % matrix_k ))
    matrix_args=()
    [ "$matrix_k" -le 1 ] || matrix_args=(--every "$matrix_k" --offset "$matrix_j")
}

# matrix_job CMD...: prints the rotation into the log, runs CMD, and prints
# the seed again last (a failed test's log is shown by its last lines).
matrix_job() {
    local rc
    if [ "$matrix_k" -gt 1 ]; then
        echo "matrix: RSAG_MATRIX_SEED=$matrix_seed: one case in $matrix_k of each block," \
            "offset $matrix_j (replay with RSAG_MATRIX_SEED=$matrix_seed;" \
            "RSAG_MATRIX_EVERY=1: every case)"
    else
        echo "matrix: RSAG_MATRIX_SEED=$matrix_seed: every case"
    fi
    "$@"
    rc=$?
    echo "matrix: RSAG_MATRIX_SEED=$matrix_seed (every $matrix_k, offset $matrix_j)"
    return $rc
}

# matrix_expect_thinned NP: the log shows rsag_check ran the selection chosen.
matrix_expect_thinned() {
    if [ "$matrix_k" -gt 1 ]; then
        expect_in_log "rsag_check: seed=[0-9]+ np=$1 mode=[a-z]+ every=$matrix_k "
        expect_in_log "rsag_check: every=$matrix_k offset=$matrix_j: "
    else
        expect_in_log "rsag_check: seed=[0-9]+ np=$1 mode=[a-z]+ form="
    fi
}

# the algorithms of each collective, from ompi_info (the algorithm tables)
declare -A matrix_algs=()
for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
    matrix_algs[$coll]=$(enum_values "$coll")
done

# --- every algorithm (switched through MPI_T), np 1-9, 12, 16 ---------------
# np 1: coll/self (priority 75) owns size-1 communicators unless left out.
for np in 1 2 3 4 5 6 7 8 9 12 16; do
    matrix_thin "$np"
    coll_list=()
    [ "$np" = 1 ] && coll_list=(--mca coll rsag,basic,libnbc)
    run_test "matrix-np$np" matrix_job "${mpirun_cmd[@]}" "${coll_list[@]}" -np "$np" \
        "$check" "${matrix_args[@]}"
    matrix_expect_thinned "$np"
    expect_in_log "rsag_check: np=$np cases=[1-9][0-9]* passed=[0-9]+ failed=0 "
    # every algorithm of the tables was switched on and ran cases (a thinned
    # job too), and rsag's counters show the main ones doing calls
    for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
        for alg in ${matrix_algs[$coll]}; do
            expect_in_log "rsag_check: forced $coll=$alg: [1-9][0-9]* cases, 0 failed"
        done
    done
    for ctr in allreduce_ring allreduce_direct reduce_rabenseifner reduce_scatter_priority_aware \
               reduce_scatter_block_recursive_halving; do
        expect_in_log "rsag_check: ran under coll_rsag_${ctr}_calls: [1-9][0-9]* cases"
    done
done

# --- every algorithm forced the way users force it: --mca -------------------
# One job per algorithm name, forcing it on every collective that has it (the
# names of ompi_info's enumerations; `auto`, the default, is what the jobs
# above start from).  Each job must show that the forced algorithm did the
# work, not only that the results were right: its MPI_T counter ran cases
# (rsag_check checks every case that the algorithm applies to), and its
# decision line says "(forced)".  `hierarchical` needs several nodes: on this
# one it must say so and let auto decide (multinode.sh runs it for real).
algorithms_by_name
for alg in "${forced_names[@]}"; do
    colls="${forced_colls[$alg]}"
    forced_mca "$alg"
    run_test "matrix-mca-forced-$alg-np5" "${mpirun_cmd[@]}" --mca coll_rsag_verbose 1 \
        "${forced_args[@]}" -np 5 "$check" --algorithms current --coll "$colls" --quick
    expect_in_log 'rsag_check: np=5 cases=[0-9]+ passed=[0-9]+ failed=0 '
    for coll in ${colls//,/ }; do
        expect_in_log "rsag_check: forced $coll=$alg: [1-9][0-9]* cases, 0 failed"
        if needs_several_nodes "$alg"; then
            expect_in_log "coll:rsag: $coll on MPI_COMM_WORLD .* -> [a-z_]+ \($alg forced but it needs several nodes"
            expect_in_log "ran under coll_rsag_${coll}_${alg}_calls: 0 cases"
        else
            expect_in_log "coll:rsag: $coll on MPI_COMM_WORLD .* -> $alg \(forced\)"
            expect_in_log "ran under coll_rsag_${coll}_${alg}_calls: [1-9][0-9]* cases"
        fi
    done
done

# --- the ring pipeline with tiny chunks: thousands of messages per block ----
matrix_thin 5 1
run_test matrix-ring-small-chunks-np5 matrix_job "${mpirun_cmd[@]}" \
    --mca coll_rsag_allreduce_ring_chunk_size 256 \
    --mca coll_rsag_reduce_scatter_ring_chunk_size 256 -np 5 "$check" \
    --coll allreduce,reduce_scatter_block,reduce_scatter "${matrix_args[@]}"
matrix_expect_thinned 5
expect_in_log 'rsag_check: np=5 cases=[1-9][0-9]* passed=[0-9]+ failed=0 '
expect_in_log 'forced allreduce=ring: [1-9][0-9]* cases, 0 failed'
expect_in_log 'forced reduce_scatter=ring: [1-9][0-9]* cases, 0 failed'
expect_in_log 'ran under coll_rsag_allreduce_ring_calls: [1-9][0-9]* cases'

# --- the priority-aware pattern with runs of 2 vblocks ------------------------
run_test matrix-priority-aware-runs2-np6 "${mpirun_cmd[@]}" \
    --mca coll_rsag_priority_aware_run_blocks 2 -np 6 "$check" --quick \
    --coll allreduce,reduce_scatter_block,reduce_scatter
expect_in_log 'rsag_check: np=6 cases=[1-9][0-9]* passed=[0-9]+ failed=0 '
expect_in_log 'forced reduce_scatter=priority_aware: [1-9][0-9]* cases, 0 failed'
expect_in_log 'ran under coll_rsag_reduce_scatter_priority_aware_calls: [1-9][0-9]* cases'
