#!/bin/bash
# OSU 7.4's nonblocking reductions (osu_iallreduce, osu_ireduce,
# osu_ireduce_scatter_block; MPI_FLOAT, 8 B - 16 MB) with rsag and with
# libnbc (--mca coll ^rsag), np 2 bound to the two cores, one launch of
# each per round, their order alternating round by round; the "Pure
# Comm." column is MPI_I<coll> + MPI_Wait with nothing between.
# OSU 7.4 is built outside the tree (OSU 5.3 has no nonblocking reduction
# benchmark): its public sources, ./configure CC=mpicc CXX=mpicxx && make.
# Usage: osu74-pairs.sh ROUNDS OSU74_NON_BLOCKING_DIR OUT.csv
set -eu
rounds=$1 dir=$2 out=$3
run() { # $1 round, $2 variant, $3 benchmark, mpirun args after
    local r=$1 v=$2 b=$3; shift 3
    mpirun --allow-run-as-root -np 2 --bind-to core "$@" "$dir/$b" -T mpi_float -m 8:16777216 |
        awk -v r="$r" -v v="$v" -v b="$b" '/^[0-9]/ { print r "," v "," b "," $1 "," $2 "," $3 "," $4 "," $5 }'
}
echo "round,variant,bench,bytes,overall_us,compute_us,pure_us,overlap_pct" >"$out"
for ((r = 1; r <= rounds; r++)); do
    for b in osu_iallreduce osu_ireduce osu_ireduce_scatter_block; do
        if ((r % 2)); then
            run "$r" rsag "$b" >>"$out"; run "$r" libnbc "$b" --mca coll '^rsag' >>"$out"
        else
            run "$r" libnbc "$b" --mca coll '^rsag' >>"$out"; run "$r" rsag "$b" >>"$out"
        fi
    done
done
