#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The runs of this directory (README.md): rsag auto, with the exchanges
# across nodes in messages below TCP's eager limit, against coll/tuned's
# default and forced algorithms, Open MPI 4.1, emulated cluster at 1 Gbit/s.
#   run.sh [--root50 DIR] [PART...]
#                        PART: allreduce, reduce, reduce_scatter_block,
#                        one (4 hosts x 1); default all; han50: MPI_Reduce
#                        against coll/han and tuned on Open MPI 5.0 (the
#                        Debian 13 root file system DIR of
#                        contrib/rsag-debian13.sh, rsag built in it at
#                        /root/rsag), not in the default list
set -u   # a part that fails (see its log.txt) does not stop the others
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=$top/contrib/results/2026-11-27-cross-chunks
bench=$top/contrib/rsag-cluster-bench.sh
comp=(--component-dir "$HOME/.openmpi/components")
root50=-
if [ "${1:-}" = --root50 ]; then root50=$2; shift 2; fi
pl=(--placements 2x2,3+2+3 --rate 1gbit --reps 5 --iters 10)
sizes=(--sizes 64K,256K,1M,4M)
for part in ${*:-allreduce reduce reduce_scatter_block one}; do
    case $part in
    allreduce) "$bench" -o "$out/allreduce" -c allreduce --tuned-algs 3,4,6 "${pl[@]}" "${sizes[@]}" "${comp[@]}" ;;
    reduce)    "$bench" -o "$out/reduce" -c reduce --tuned-algs 3,5,7 "${pl[@]}" --sizes 16K,64K,256K,1M,4M \
                   "${comp[@]}" ;;
    reduce_scatter_block)
               "$bench" -o "$out/reduce_scatter_block" -c reduce_scatter_block --tuned-algs 3,4 \
                   "${pl[@]}" "${sizes[@]}" "${comp[@]}" ;;
    one)       "$bench" -o "$out/4x1" -c allreduce,reduce,reduce_scatter_block --tuned-algs 3,4,5,6,7 \
                   --placements 4x1 --rate 1gbit --reps 5 --sizes 16K,64K,256K,1M,4M --iters 10 "${comp[@]}" ;;
    han50)     [ "$root50" != - ] || { echo "han50 needs --root50 DIR" >&2; exit 2; }
               "$bench" -o "$out/han-reduce" -c reduce --tuned-algs none "${pl[@]}" \
                   --sizes 64K,256K,1M,4M,16M --root "$root50" \
                   --component-dir /root/.openmpi/components --bench /root/rsag/contrib/rsag_bench ;;
    *) echo "run.sh: unknown part $part" >&2; exit 2 ;;
    esac
done
