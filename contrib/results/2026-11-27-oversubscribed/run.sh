#!/bin/bash
# OSU 5.3 (osu_allreduce, osu_reduce, osu_reduce_scatter; MPI_FLOAT sums,
# 8 B - 1 MB, -i ITERS -x 20) at np 4, 8 and 16 on this machine's 2 cores:
# OVERSUBSCRIBED (mpirun --oversubscribe; Open MPI yields the core when
# idle).  Variants are given as NAME=MCA-ARGS; in round r they run in the
# order rotated by r, so each takes every place in the round equally often
# (two identical variants in a fixed order differed by up to 16 % in one run at np 2).  Each job's
# OSU report goes to raw/<np>.<bench>.<name>.<round>.
# usage: OSU_DIR=.../mpi/collective ./run.sh ROUNDS NAME=ARGS...
#   e.g. ./run.sh 6 'rsag=' 'tuned=--mca coll_rsag_priority -1'
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${OSU_DIR:?set OSU_DIR}"
rounds=$1; shift
out=${OUT:-$here/raw}
mkdir -p "$out"
n=$#
for np in ${NPS:-4 8 16}; do
    for b in ${BENCHES:-allreduce reduce reduce_scatter}; do
        for r in $(seq "$rounds"); do
            for j in $(seq 0 $((n - 1))); do
                i=$(( (j + r) % n + 1 ))
                v=${!i}; name=${v%%=*}; args=${v#*=}
                # shellcheck disable=SC2086
                timeout 600 mpirun --allow-run-as-root -np "$np" --oversubscribe $args \
                    "$OSU_DIR/osu_$b" -m "${SIZES:-8:1048576}" -i "${ITERS:-200}" -x 20 -f \
                    >"$out/$np.$b.$name.$r" 2>&1
            done
        done
    done
done
