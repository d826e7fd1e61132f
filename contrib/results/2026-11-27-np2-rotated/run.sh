#!/bin/bash
# OSU 5.3 (osu_allreduce, osu_reduce, osu_reduce_scatter; MPI_FLOAT sums,
# -i 200 -x 20) and IMB-MPI1 2019 (Allreduce, Reduce, Reduce_scatter_block,
# its default iterations, -sync 1: a barrier between calls, as OSU) at np 2
# bound to the two cores: NOT oversubscribed.  Variants NAME=MCA-ARGS run
# in the order rotated by the round, so each takes every place in a round
# equally often (two identical variants in a fixed order differed by up to 16 % in one run).
# Raw reports in raw/<tool>.<bench>.<name>.<round>.
# usage: OSU_DIR=.../mpi/collective IMB=.../IMB-MPI1 ./run.sh ROUNDS NAME=ARGS...
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${OSU_DIR:?set OSU_DIR}" "${IMB:?set IMB}"
rounds=$1; shift
out=${OUT:-$here/raw}
mkdir -p "$out"
n=$#
run() { timeout 900 mpirun --allow-run-as-root -np 2 --bind-to core "$@"; }
for r in $(seq "$rounds"); do
    for j in $(seq 0 $((n - 1))); do
        i=$(( (j + r) % n + 1 ))
        v=${!i}; name=${v%%=*}; args=${v#*=}
        for b in allreduce reduce reduce_scatter; do
            # shellcheck disable=SC2086
            run $args "$OSU_DIR/osu_$b" -m "${SIZES:-8:16777216}" -i 200 -x 20 -f \
                >"$out/osu.$b.$name.$r" 2>&1
        done
        for b in Allreduce Reduce Reduce_scatter_block; do
            # shellcheck disable=SC2086
            run $args "$IMB" -npmin 2 -msglog "${MSGLOG:-3:24}" -sync 1 -time 10 $b \
                >"$out/imb.$b.$name.$r" 2>&1
        done
    done
done
