#!/bin/bash
# The CG loop (contrib/rsag_cg.c: one halo exchange and three 8-byte
# MPI_Allreduce per iteration), rsag (auto) and stock Open MPI
# (coll_rsag_priority -1: tuned) interleaved, np 2 bound, not oversubscribed.
# $1 rounds (default 5), grid sizes after it (default 32 64 128 256).
here=$(cd "$(dirname "$0")" && pwd)
cg=$here/../../rsag_cg
rounds=${1:-5}; shift
for n in "${@:-32 64 128 256}"; do
    for r in $(seq 1 "$rounds"); do
        for who in rsag stock; do
            sel=""; [ $who = stock ] && sel="--mca coll_rsag_priority -1"
            echo "n=$n round=$r $who $(mpirun --allow-run-as-root -np 2 --bind-to core $sel \
                "$cg" --n "$n" --repeat 5 2>/dev/null | tail -n 1)"
        done
    done
done
