#!/bin/bash
# direct's copy mode learned (coll_rsag_single_copy auto, the default since
# this run) against the former default (the segment at every size:
# coll_rsag_direct_cma_min_bytes set to never) and coll/tuned's default,
# np 2 bound to the two cores (not oversubscribed), ROUNDS interleaved
# rounds of OSU 5.3 (osu_reduce, osu_allreduce, osu_reduce_scatter,
# MPI_FLOAT, 8 KB - 16 MB, -i 200 -x 20) and IMB-MPI1 2019 Update 1
# (Reduce, Allreduce, Reduce_scatter_block, 8 KB - 16 MB, -sync 1).
# usage: OSU_DIR=.../mpi/collective IMB=.../IMB-MPI1 ./run.sh [ROUNDS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-7}
out=$here/raw
mkdir -p "$out"
: "${OSU_DIR:?set OSU_DIR}" "${IMB:?set IMB}"
run() { mpirun --allow-run-as-root -np 2 --bind-to core "$@"; }
for r in $(seq "$rounds"); do
    for v in learn never tuned; do
        case $v in
        learn) a=() ;;
        never) a=(--mca coll_rsag_direct_cma_min_bytes 18446744073709551615) ;;
        tuned) a=(--mca coll_rsag_priority -1) ;;
        esac
        for b in reduce allreduce reduce_scatter; do
            run "${a[@]}" "$OSU_DIR/osu_$b" -m 8192:16777216 -i 200 -x 20 >"$out/osu.$b.$v.$r" 2>&1
        done
        run "${a[@]}" "$IMB" -npmin 2 -msglog 13:24 -iter 200 -sync 1 -time 10 \
            Reduce Allreduce Reduce_scatter_block >"$out/imb.$v.$r" 2>&1
    done
done
