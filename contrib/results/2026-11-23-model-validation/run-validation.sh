#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The fresh validation runs of this directory: the runs of
# ../2026-11-23-model/run-validation.sh (rsag-bench.sh --rsag-only on the
# emulated cluster, every rsag algorithm, 64 KB .. 16 MB, 1 Gbit/s links,
# 4 hosts x 1 rank and 2 hosts x 1 rank), written here.
#   contrib/results/2026-11-23-model-validation/run-validation.sh LOCK [4x1|2x1]...
here=$(cd "$(dirname "$0")" && pwd)
RSAG_VALIDATION_OUT=contrib/results/2026-11-23-model-validation \
    exec "$here/../2026-11-23-model/run-validation.sh" "$@"
