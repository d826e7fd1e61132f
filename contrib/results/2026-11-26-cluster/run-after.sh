#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The re-run after the thresholds changed (README.md): allreduce and
# reduce_scatter_block at 64 KB - 16 MB, rsag against tuned.
set -eu
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=$top/contrib/results/2026-11-26-cluster
common=(--placements 2x2,3+2+3 --rate 1gbit --sizes 64K,256K,1M,16M --reps 5 --iters 10
        --component-dir "$HOME/.openmpi/components")
"$top/contrib/rsag-cluster-bench.sh" -o "$out/after-allreduce" -c allreduce --tuned-algs 3,4,6 "${common[@]}"
[ "${1:-}" = allreduce ] || "$top/contrib/rsag-cluster-bench.sh" -o "$out/after-reduce_scatter_block" -c reduce_scatter_block --tuned-algs 3,4 "${common[@]}"
