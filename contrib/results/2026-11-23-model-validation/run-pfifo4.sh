#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# Experiment: the same microbenchmarks on 2 emulated hosts at 1 Gbit/s, with
# a 4-packet pfifo instead of htb's default leaf fifo (txqueuelen packets)
# under the rate class on both ends of each link: with a short queue, does
# a handshake or ACK still wait behind the other direction's queued data?
# (fq_codel, the first choice, is not in this kernel.)  rsag-cluster.sh
# itself is unchanged; the cluster is torn down after the run.
#   contrib/results/2026-11-23-model-validation/run-pfifo4.sh LOCK CAL
set -u
lock=$1 cal=$2
out=contrib/results/2026-11-23-model-validation/net-1gbit-pfifo4-raw.txt
flock -x -w 600 "$lock" bash -c '
    echo "# rsag_calibrate 2 hosts x 1 rank, rate 1gbit, pfifo limit 4 leaves, $(date -u "+%Y-%m-%d %H:%M UTC"), load $(cut -d" " -f1-3 /proc/loadavg)"
    contrib/rsag-cluster.sh with 2 --rate 1gbit -- sh -c "
        for i in 1 2; do
            tc qdisc add dev rsag-v\$i parent 1:1 handle 10: pfifo limit 4 || exit 1
            nsenter --net=/run/rsag-cluster/net/rsag-h\$i tc qdisc add dev eth0 parent 1:1 handle 10: pfifo limit 4 || exit 1
        done
        mpirun --allow-run-as-root \$(contrib/rsag-cluster.sh mpirun-args) --host rsag-h1:1,rsag-h2:1 -np 2 $1 --max-bytes 16777216"
    echo "# end $(date -u "+%H:%M UTC"), load $(cut -d" " -f1-3 /proc/loadavg)"' run "$cal" >"$out.tmp" && mv "$out.tmp" "$out"
