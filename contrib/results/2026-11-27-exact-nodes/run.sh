#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The run of this directory (README.md): coll_rsag_reproducible off,
# placement and exact across nodes, and exact's two passes (a row without
# the whole fold forced: exact's own collectives run it), on the emulated
# cluster, 4 hosts x 1 rank, links capped at 1 Gbit/s; 3 interleaved
# repetitions, 10 calls per job.  Oversubscribed: 4 processes on 2 cores.
#   run.sh > raw.txt     columns: mode coll bytes time_us(max over ranks of
#                        the per-rank median call) verified
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
cluster=$top/contrib/rsag-cluster.sh
"$cluster" up 4 --rate 1gbit >/dev/null || exit 1
trap '"$cluster" down >/dev/null' EXIT
read -r -a args <<<"$("$cluster" mpirun-args)"
job() {     # job LABEL COLL MCA...
    local label=$1 coll=$2
    shift 2
    OMPI_MCA_mca_base_component_path=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3:$HOME/.openmpi/components \
    mpirun --allow-run-as-root --oversubscribe -np 4 --host rsag-h1,rsag-h2,rsag-h3,rsag-h4 \
        "${args[@]}" "$@" "$top/contrib/rsag_bench" --coll "$coll" --sizes 64K,1M,4M --iters 10 \
        --rsag-algorithms current --label "$label" 2>&1 |
        awk -F, -v l="$label" -v c="$coll" '$2 == c { print l, c, $4, $5, $10 }'
}
declare -A twopass=([allreduce]=circulant [reduce_scatter_block]=circulant [reduce]=rabenseifner)
for _ in 1 2 3; do
    for coll in allreduce reduce_scatter_block reduce; do
        job off "$coll"
        job exact "$coll" --mca coll_rsag_reproducible exact
        job placement "$coll" --mca coll_rsag_reproducible placement
    done
    for coll in allreduce reduce_scatter_block reduce; do
        job twopass "$coll" --mca coll_rsag_reproducible exact \
            --mca "coll_rsag_${coll}_algorithm" "${twopass[$coll]}"
    done
done
