# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# circulant.sh: the circulant algorithms (coll_rsag_circulant.c) forced by
# --mca on MPI_Allreduce and both reduce-scatters at the sizes where their
# pattern has its special cases: np 5 and 7 (odd p: a block nobody sends in
# the first round, runs of blocks that wrap around the end of the vector)
# and np 6 (skips 1 2 3 6: in the first round a rank sends to and receives
# from the same peer), in the blocking, nonblocking and persistent forms,
# with rsag_check's cases: uneven and zero MPI_Reduce_scatter counts,
# MPI_IN_PLACE, counts below p, derived datatypes.  The matrix
# (matrix.sh) runs them too, one case in np at these sizes; here one case
# in 8 of each block, rotating with RSAG_MATRIX_SEED (default: the day,
# UTC) as the matrix does.  rsag_check proves through MPI_T that
# circulant ran every case it applies to (commutative ops).

circulant_seed=${RSAG_MATRIX_SEED:-$(( $(date -u +%s) / 86400 ))}
[[ "$circulant_seed" =~ ^[0-9]+$ ]] || circulant_seed=0
for np in 5 6 7; do
    offset=$(( (10#$circulant_seed + np) % 8 ))
    run_test "circulant-forms-np$np" "${mpirun_cmd[@]}" -np "$np" \
        --mca coll_rsag_allreduce_algorithm circulant \
        --mca coll_rsag_reduce_scatter_block_algorithm circulant \
        --mca coll_rsag_reduce_scatter_algorithm circulant \
        "$check" --quick --algorithms current --coll allreduce,reduce_scatter_block,reduce_scatter \
        --form blocking,nonblocking,persistent --every 8 --offset "$offset"
    expect_in_log "rsag_check: seed=[0-9]+ np=$np mode=quick every=8 "
    expect_in_log "rsag_check: np=$np cases=[1-9][0-9]* passed=[0-9]+ failed=0 "
    for coll in allreduce reduce_scatter_block reduce_scatter; do
        expect_in_log "rsag_check: forced $coll=circulant: [1-9][0-9]* cases, 0 failed"
        expect_in_log "rsag_check: ran under coll_rsag_${coll}_circulant_calls: [1-9][0-9]* cases"
    done
done
# exchange-chunks-<alg>-<chunk>-npN: coll_rsag_exchange_chunk_size far
# below rsag_check's vectors, so every run of circulant's rounds and every
# piece of ordered's exchange goes in several messages, each reduced as
# it arrives (ordered: message by message in rank order), and MPI_Reduce's
# chain passes many more segments than its window of receives posted
# ahead and sends in flight (coll_rsag_reduce_chain.c).
for spec in circulant:8:5 circulant:24:6 ordered:200:5 chain:8:5; do
    IFS=: read -r alg chunk np <<<"$spec"
    colls=allreduce,reduce_scatter_block,reduce_scatter
    [ "$alg" = ordered ] && colls=allreduce,reduce,reduce_scatter_block,reduce_scatter
    [ "$alg" = chain ] && colls=reduce
    forced=()
    for coll in ${colls//,/ }; do
        forced+=(--mca "coll_rsag_${coll}_algorithm" "$alg")
    done
    run_test "exchange-chunks-$alg-$chunk-np$np" "${mpirun_cmd[@]}" -np "$np" "${forced[@]}" \
        --mca coll_rsag_exchange_chunk_size "$chunk" \
        "$check" --quick --algorithms current --coll "$colls" \
        --form blocking,nonblocking,persistent --every 8 --offset "$(( (10#$circulant_seed + 3) % 8 ))"
    expect_in_log "rsag_check: np=$np cases=[1-9][0-9]* passed=[0-9]+ failed=0 "
    for coll in ${colls//,/ }; do
        expect_in_log "rsag_check: forced $coll=$alg: [1-9][0-9]* cases, 0 failed"
        expect_in_log "rsag_check: ran under coll_rsag_${coll}_${alg}_calls: [1-9][0-9]* cases"
    done
done
