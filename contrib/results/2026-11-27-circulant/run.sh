#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The runs of this directory (README.md): the circulant reduce-scatter and
# allreduce against rsag's other algorithms for them and coll/tuned's, on
# the emulated cluster with one rank per host (the links, capped at 1
# Gbit/s, are the bottleneck), p = 5, 6, 7 (and 3 with the part p3):
# 5 interleaved repetitions, medians.  Oversubscribed: 5-7 processes on 2
# cores; the links are slower than the cores here, but say so with the numbers.
#   run.sh [--out DIR] [--sizes LIST] [PART...]
#                       PART: rsb, allreduce, rs (MPI_Reduce_scatter, equal
#                       counts), p3; default rsb allreduce; DIR: this
#                       directory; LIST: 8,4K,64K,256K,1M,4M
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=$top/contrib/results/2026-11-27-circulant
list=8,4K,64K,256K,1M,4M
while [ $# -gt 0 ]; do
    case $1 in
    --out) out=$2; shift 2 ;;
    --sizes) list=$2; shift 2 ;;
    *) break ;;
    esac
done
bench=$top/contrib/rsag-cluster-bench.sh
parts=${*:-rsb allreduce}
comp=(--component-dir "$HOME/.openmpi/components")
pl=(--placements 5x1,6x1,7x1 --rate 1gbit --reps 5)
sizes=(--sizes "$list" --iters 20)
for part in $parts; do
    case $part in
    rsb)       "$bench" -o "$out/reduce_scatter_block" -c reduce_scatter_block --tuned-algs 2,3,4 \
                   --rsag-algs circulant,recursive_halving,ring "${pl[@]}" "${sizes[@]}" "${comp[@]}" ;;
    allreduce) "$bench" -o "$out/allreduce" -c allreduce --tuned-algs 3,4,6 \
                   --rsag-algs circulant,rabenseifner,ring "${pl[@]}" "${sizes[@]}" "${comp[@]}" ;;
    rs)        "$bench" -o "$out/reduce_scatter" -c reduce_scatter --tuned-algs 2,3,4 \
                   --rsag-algs circulant,recursive_halving,ring "${pl[@]}" "${sizes[@]}" "${comp[@]}" ;;
    p3)        "$bench" -o "$out/p3" -c allreduce,reduce_scatter_block --tuned-algs 3,4,6 \
                   --rsag-algs circulant,rabenseifner,recursive_halving,ring --placements 3x1 --rate 1gbit \
                   --reps 5 "${sizes[@]}" "${comp[@]}" ;;
    *) echo "unknown part $part" >&2; exit 2 ;;
    esac
done
