#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The runs of this directory (README.md): rsag auto with node-aware rows
# first (hierarchical allreduce from 64 KB) against coll/tuned on Open MPI
# 4.1 (this machine) and against coll/han and tuned on Open MPI 5.0 (the
# Debian 13 root file system given by --root50, rsag built in it at
# /root/rsag by contrib/rsag-debian13.sh).
#   run.sh [--root50 DIR] [PART...]
# PART: a41 (allreduce), r41 (reduce), s41 (reduce_scatter_block),
# big41 (64 MB), one41 (4 hosts x 1), han50 (Open MPI 5.0); default all;
# after41: MPI_Reduce at 4 and 16 KB and the reduce-scatter at 256 KB after
# their thresholds changed (README.md), not in the default list.
set -u   # a part that fails (see its log.txt) does not stop the others
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=$top/contrib/results/2026-11-26-cluster-auto
bench=$top/contrib/rsag-cluster-bench.sh
root50=-
if [ "${1:-}" = --root50 ]; then root50=$2; shift 2; fi
parts=${*:-a41 r41 s41 big41 one41 han50}
comp=(--component-dir "$HOME/.openmpi/components")
pl=(--placements 2x2,3+2+3 --rate 1gbit --reps 5)
small=(--sizes 8,1K,16K --iters 200)
large=(--sizes 64K,256K,1M,16M --iters 10)
for part in $parts; do
    case $part in
    a41)  "$bench" -o "$out/allreduce-small" -c allreduce --tuned-algs 3,4,6 "${pl[@]}" "${small[@]}" "${comp[@]}"
          "$bench" -o "$out/allreduce-large" -c allreduce --tuned-algs 3,4,6 "${pl[@]}" "${large[@]}" "${comp[@]}" ;;
    r41)  "$bench" -o "$out/reduce-small" -c reduce --tuned-algs 3,5,7 "${pl[@]}" "${small[@]}" "${comp[@]}"
          "$bench" -o "$out/reduce-large" -c reduce --tuned-algs 3,5,7 "${pl[@]}" "${large[@]}" "${comp[@]}" ;;
    s41)  "$bench" -o "$out/reduce_scatter_block" -c reduce_scatter_block --tuned-algs 3,4 "${pl[@]}" \
              --sizes 64K,256K,1M --iters 10 "${comp[@]}" ;;
    big41) "$bench" -o "$out/allreduce-64M" -c allreduce --tuned-algs 4,6 "${pl[@]}" --sizes 64M --iters 3 "${comp[@]}" ;;
    one41) "$bench" -o "$out/4x1" -c allreduce,reduce_scatter_block --tuned-algs 3,4,6 --placements 4x1 \
              --rate 1gbit --reps 5 --sizes 8,64K,1M,16M --iters 10 "${comp[@]}" ;;
    han50) [ "$root50" != - ] || { echo "han50 needs --root50 DIR" >&2; exit 2; }
          for c in allreduce reduce; do
              "$bench" -o "$out/han-$c" -c "$c" --tuned-algs none "${pl[@]}" --sizes 8,1K,64K,1M,16M --iters 10 \
                  --root "$root50" --component-dir /root/.openmpi/components --bench /root/rsag/contrib/rsag_bench
          done ;;
    after41) "$bench" -o "$out/reduce-after" -c reduce --tuned-algs 3,5,7 "${pl[@]}" --sizes 4K,16K --iters 200 "${comp[@]}"
          "$bench" -o "$out/reduce_scatter_block-after" -c reduce_scatter_block --tuned-algs 3,4 "${pl[@]}" \
              --sizes 256K --iters 10 "${comp[@]}" ;;
    *) echo "unknown part $part" >&2; exit 2 ;;
    esac
done
