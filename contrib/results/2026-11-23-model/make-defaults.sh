#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The model's thresholds for the compiled-in classes that cannot be measured
# on this 2-core machine without oversubscription (coll_rsag_algorithms.h):
#   p <= 4        p = 3 and 4, one node
#   larger p      p = 5 .. 64 on one node (5 6 7 8 12 16 24 32 48 64)
# under a shared-memory profile; direct left off (not measured quietly yet).
#   contrib/results/2026-11-23-model/make-defaults.sh SHM-PROFILE [NET-PROFILE]
set -u
here=$(cd "$(dirname "$0")" && pwd)
model=$here/../../rsag_model
profile=${1:?usage: make-defaults.sh PROFILE}
for coll in allreduce reduce reduce_scatter_block; do
    echo "== $coll, p <= 4 (p 3, 4; one node)"
    "$model" -P "$profile" --no-direct thresholds "$coll" 0 3 4
    echo "== $coll, larger p on one node (p 5 .. 64)"
    "$model" -P "$profile" --no-direct thresholds "$coll" 0 5 6 7 8 12 16 24 32 48 64
done
# Several nodes (a suggestion for the "several nodes" class another change
# adds; not in the table): with a network profile as $2, p = 2 .. 64 nodes
# of 2, 4, 8 ranks, and 1 .. 64 nodes of 1 rank.
if [ -n "${2:-}" ]; then
    for coll in allreduce reduce reduce_scatter_block; do
        for ppn in 1 2 4 8; do
            ps=""
            for nodes in 2 3 4 8 16 32 64; do ps="$ps $((nodes * ppn))"; done
            echo "== $coll, several nodes of $ppn ranks (p$ps), profile $2"
            # shellcheck disable=SC2086
            "$model" -P "$2" --no-direct thresholds "$coll" "$ppn" $ps
        done
    done
fi
