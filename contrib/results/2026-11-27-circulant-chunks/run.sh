#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The runs of this directory (README.md): the circulant algorithms with
# their runs cut into messages of at most coll_rsag_exchange_chunk_size
# (default 60 KB) against rsag's other algorithms and coll/tuned's, on the
# emulated cluster with one rank per host (links capped at 1 Gbit/s),
# p = 5, 6, 7, from 64 KB (below, no run is longer than a chunk: the
# 2026-11-27-circulant run stands), 5 interleaved repetitions, medians.
# Oversubscribed: 5-7 processes on 2 cores.
#   run.sh [PART...]    PART: rsb, allreduce; default both
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=$top/contrib/results/2026-11-27-circulant-chunks
bench=$top/contrib/rsag-cluster-bench.sh
parts=${*:-rsb allreduce}
comp=(--component-dir "$HOME/.openmpi/components")
pl=(--placements 5x1,6x1,7x1 --rate 1gbit --reps 5)
sizes=(--sizes 64K,256K,1M,4M --iters 20)
for part in $parts; do
    case $part in
    rsb)       "$bench" -o "$out/reduce_scatter_block" -c reduce_scatter_block --tuned-algs 2,3,4 \
                   --rsag-algs circulant,recursive_halving,ring "${pl[@]}" "${sizes[@]}" "${comp[@]}" ;;
    allreduce) "$bench" -o "$out/allreduce" -c allreduce --tuned-algs 3,4,6 \
                   --rsag-algs circulant,rabenseifner,ring "${pl[@]}" "${sizes[@]}" "${comp[@]}" ;;
    *) echo "unknown part $part" >&2; exit 2 ;;
    esac
done
