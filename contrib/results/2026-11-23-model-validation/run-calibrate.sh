#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The network microbenchmarks of this directory: rsag_calibrate (with the
# isolated exchanges exchange1 / exchange4) on N emulated hosts x 1 rank,
# links capped at 1 Gbit/s, tcp.  Run from the top of a built tree as root:
#   contrib/results/2026-11-23-model-validation/run-calibrate.sh LOCK CAL N...
# RUN=2 (environment) writes the second run's files (*-raw-run2.txt); the
# fit takes, per figure, the smaller of the runs (merge-runs.sh).
set -u
lock=$1 cal=$2; shift 2
sfx=${RUN:+-run$RUN}
out=contrib/results/2026-11-23-model-validation
for n in "$@"; do
    f=$out/net-1gbit-raw$sfx.txt; [ "$n" = 2 ] || f=$out/net-1gbit-${n}x1-raw$sfx.txt
    hosts=$(seq -s, -f 'rsag-h%g:1' 1 "$n")
    flock -x "$lock" bash -c '
        echo "# rsag_calibrate $2 hosts x 1 rank, rate 1gbit, $(date -u "+%Y-%m-%d %H:%M UTC"), load $(cut -d" " -f1-3 /proc/loadavg)"
        echo "eager $(ompi_info --param btl tcp --level 9 --parsable | awk -F: "\$5 == \"btl_tcp_eager_limit\" && \$6 == \"value\" { print \$7; exit }")"
        contrib/rsag-cluster.sh with "$2" --rate 1gbit -- sh -c "mpirun --allow-run-as-root \$(contrib/rsag-cluster.sh mpirun-args) --host $3 -np $2 $1 --max-bytes 16777216"
        echo "# end $(date -u "+%H:%M UTC"), load $(cut -d" " -f1-3 /proc/loadavg)"' \
        run "$cal" "$n" "$hosts" >"$f.tmp" && mv "$f.tmp" "$f"
done
