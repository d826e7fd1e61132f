#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The model against the emulated cluster, >= 64 KB, every flat rsag
# algorithm, before (../2026-11-23-model/1gbit.profile) and after
# (this directory's profiles), on two sets of benchmark runs: the 10:3x UTC runs of
# ../2026-11-23-model (bench-*) and this directory's fresh runs
# (run-validation.sh).  4 hosts x 1 rank are 4 processes on 2 cores:
# cpu_share 2; after: 1gbit-4x1.profile, the network fitted from the 4
# hosts' own microbenchmarks (net-1gbit-4x1-raw.txt), shared memory and
# reduction rates as 1gbit.profile.  Writes validation.txt (every table)
# and summary.txt.
#   contrib/results/2026-11-23-model-validation/make-validation.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
cmp=$here/../../rsag-model-compare.sh
old=$here/../2026-11-23-model
: >"$here/summary.txt.tmp"
{
    echo "# model / measured (rsag-bench.sh --rsag-only), >= 64 KB, 1 Gbit/s emulated links"
    for runs in "$old" "$here"; do
        for cfg in 2x1 4x1; do
            share=1; [ "$cfg" = 4x1 ] && share=2
            n=${cfg%x1}
            for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
                csv=$runs/bench-$cfg-1gbit/$coll-np$n.csv
                [ -s "$csv" ] || continue
                line="$(basename "$runs") $cfg $coll"
                after=$here/1gbit.profile
                [ "$cfg" = 4x1 ] && after=$here/1gbit-4x1.profile
                for prof in "$old/1gbit.profile" "$after"; do
                    echo
                    echo "## runs $(basename "$runs"), $cfg hosts x ranks, cpu_share $share, profile $(basename "$(dirname "$prof")")/$(basename "$prof")"
                    out=$("$cmp" -P "$prof" --set cpu_share=$share --ppn 1 --min-bytes 65536 "$csv")
                    echo "$out"
                    line="$line | $(echo "$out" | sed -n 's/^within +-25 %: \([0-9]* of [0-9]*\) cells.*/\1/p')"
                done
                echo "$line" >>"$here/summary.txt.tmp"
            done
        done
    done
} >"$here/validation.txt"
{ echo "# cells within +-25 % (>= 64 KB): runs, layout, collective | before (2026-11-23-model/1gbit.profile) | after (this directory: 2x1 1gbit.profile, 4x1 1gbit-4x1.profile)"
  cat "$here/summary.txt.tmp"; } >"$here/summary.txt"
rm -f "$here/summary.txt.tmp"
cat "$here/summary.txt"
