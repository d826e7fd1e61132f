#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The validation runs of this directory: rsag-bench.sh --rsag-only on the
# emulated cluster, every rsag algorithm, 64 KB .. 16 MB, at 1 Gbit/s links:
# 4 hosts x 1 rank and 2 hosts x 1 rank.  Run from the top of a built tree
# (component in ./.inst) as root; each run under flock -x LOCK.
#   [RSAG_VALIDATION_OUT=DIR] contrib/results/2026-11-23-model/run-validation.sh LOCK [4x1|2x1]...
set -u
lock=$1; shift
out=${RSAG_VALIDATION_OUT:-contrib/results/2026-11-23-model}   # where the runs go
for cfg in "$@"; do
    case "$cfg" in
    4x1) n=4; hosts=rsag-h1:1,rsag-h2:1,rsag-h3:1,rsag-h4:1 ;;
    2x1) n=2; hosts=rsag-h1:1,rsag-h2:1 ;;
    *) echo "unknown $cfg" >&2; exit 2 ;;
    esac
    for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
        dir=$out/bench-$cfg-1gbit
        mkdir -p "$dir"
        flock -x "$lock" contrib/rsag-cluster.sh with "$n" --rate 1gbit -- bash -c '
            echo "$3 before: $(uptime)" >>"$1/machine.txt"
            contrib/rsag-bench.sh -n "$2" -c "$3" --rsag-only --sizes 64K,256K,1M,4M,16M \
                --reps 2 --iters 5 --component-dir "$PWD/.inst" \
                --mpirun-args "$(contrib/rsag-cluster.sh mpirun-args) --host $4" -o "$1"
            rc=$?
            echo "$3 after:  $(uptime)" >>"$1/machine.txt"
            exit $rc' run "$dir" "$n" "$coll" "$hosts" || echo "FAILED $cfg $coll" >&2
    done
done
