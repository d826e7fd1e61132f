#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The model's thresholds for the compiled-in classes that cannot be measured
# on this 2-core machine without oversubscription (coll_rsag_algorithms.h):
#   p <= 4        p = 3 and 4, one node
#   larger p      p = 5 .. 64 on one node (5 6 7 8 12 16 24 32 48 64)
# under a shared-memory profile; direct left off (not measured quietly yet).
#   contrib/results/2026-11-23-model/make-defaults.sh PROFILE
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
