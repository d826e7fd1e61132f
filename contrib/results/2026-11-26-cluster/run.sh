#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The runs of this directory (README.md): rsag against coll/tuned on the
# emulated cluster, 2 hosts x 2 ranks and 3+2+3, links at 1 Gbit/s, on a
# quiet machine.  From the top of a built and installed tree, as root.
set -eu
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=$top/contrib/results/2026-11-26-cluster
common=(--placements 2x2,3+2+3 --rate 1gbit --sizes 8,1K,64K,1M,16M --reps 5 --iters 10
        --component-dir "$HOME/.openmpi/components")
"$top/contrib/rsag-cluster-bench.sh" -o "$out/allreduce" -c allreduce --tuned-algs 3,4,6 "${common[@]}"
"$top/contrib/rsag-cluster-bench.sh" -o "$out/reduce" -c reduce --tuned-algs 3,5,7 "${common[@]}"
"$top/contrib/rsag-cluster-bench.sh" -o "$out/reduce_scatter_block" -c reduce_scatter_block --tuned-algs 3,4 "${common[@]}"
