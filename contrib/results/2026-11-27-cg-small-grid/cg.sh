#!/bin/bash
# The CG loop (contrib/rsag_cg.c: one halo exchange, the matrix-vector
# product and three 8-byte MPI_Allreduce per iteration), rsag (auto) and
# stock Open MPI (coll_rsag_priority -1: tuned) on small grids, where the
# allreduces are a large part of an iteration; np 2 bound to the two cores,
# not oversubscribed.  Which of the two goes first alternates with the
# round.  Each job solves REPEAT times and reports the median time per
# iteration.
# usage: ./cg.sh [ROUNDS [REPEAT [GRID...]]]   (defaults 9, 50, 16 24 32 64)
here=$(cd "$(dirname "$0")" && pwd)
cg=${CG:-$here/../../rsag_cg}
rounds=${1:-9}; repeat=${2:-50}; shift 2 2>/dev/null
for r in $(seq 1 "$rounds"); do
    order="rsag stock"; [ $((r % 2)) = 0 ] && order="stock rsag"
    for n in "${@:-16 24 32 64}"; do
        for who in $order; do
            sel=""; [ $who = stock ] && sel="--mca coll_rsag_priority -1"
            echo "n=$n round=$r $who $(mpirun --allow-run-as-root -np 2 --bind-to core $sel \
                "$cg" --n "$n" --repeat "$repeat" 2>/dev/null | tail -n 1)"
        done
    done
done
