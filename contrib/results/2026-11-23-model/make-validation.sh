#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The model against this directory's benchmark runs on the emulated cluster
# (run-validation.sh), >= 64 KB, every flat rsag algorithm, and the
# shared-memory profile against the np 2 run of 2026-11-21; writes
# validation.txt.  4 hosts x 1 rank are 4 processes on 2 cores: cpu_share 2.
#   contrib/results/2026-11-23-model/make-validation.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
cmp=$here/../../rsag-model-compare.sh
prof=$here/1gbit.profile
{
    echo "# model (profile 1gbit.profile) / measured (rsag-bench.sh --rsag-only), >= 64 KB"
    for cfg in 4x1 2x1; do
        share=1; [ "$cfg" = 4x1 ] && share=2
        for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
            n=${cfg%x1}
            csv=$here/bench-$cfg-1gbit/$coll-np$n.csv
            [ -s "$csv" ] || { echo "(no $csv)"; continue; }
            echo
            echo "## $cfg hosts x ranks, 1 Gbit/s, cpu_share $share"
            "$cmp" -P "$prof" --set cpu_share=$share --ppn 1 --min-bytes 65536 "$csv"
        done
    done
    # one node: the shared-memory profile against the np 2 run of 2026-11-21
    # (not oversubscribed; a different day and load: a check of the formulas)
    for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
        csv=$here/../2026-11-21/$coll-np2.csv
        [ -s "$csv" ] || continue
        echo
        echo "## one node, np 2 (2026-11-21), profile shm.profile"
        "$cmp" -P "$here/shm.profile" --ppn 2 --min-bytes 65536 "$csv"
    done
} >"$here/validation.txt"
cat "$here/validation.txt"
