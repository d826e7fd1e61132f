#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The second session of this run (README.md), all under one exclusive
# machine lock, taken before the cluster's own:
#   flock -x /work/.machine.lock contrib/results/2026-11-23-priority-tcp/session2.sh
# Component: .inst-new (the schedule that posts receives ahead), variant
# "old" = .inst-base (the schedule before), "c2"/"c4" = chunks 2 / 4.
# (a) MPI_Allreduce, 4 hosts x 1 rank, 1 Gbit/s, 512 KB .. 64 MB, with
#     coll/tuned; (b) MPI_Reduce_scatter_block new vs old, same links;
# (c) smaller sizes for the thresholds; (d) one node, np 2 (vader, not
#     oversubscribed): new vs old; (e) the multinode tests; (f) the
#     exchange-pattern check (xchg.c); (g) 200 Mbit/s; (h) 8 hosts x 1 rank.
# Parts (f) on are skipped past $LATE (UTC, HH:MM) to keep the deadline.
set -u
LATE=${LATE:-10:10}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
cd "$top"
export RSAG_LOCKED=1
PK=$(ompi_info --path pkglibdir | awk '{print $NF}')
OLD="old=--mca mca_base_component_path $top/.inst-base:$PK"
C2="c2=--mca coll_rsag_priority_chunks 2"
NEW=$top/.inst-new
hosts=rsag-h1:1,rsag-h2:1,rsag-h3:1,rsag-h4:1
late() { [[ "$(date -u +%H:%M)" > "$LATE" ]] && echo "skipped (late): $*" && return 0; return 1; }
stamp() { echo "=== $* $(date -u '+%H:%M:%S UTC'), $(uptime)"; }

stamp a
RSAG_COMPONENT_DIR=$NEW "$here/run.sh" 4 1gbit allreduce 512K,2M,8M,32M,64M ar-4x1-1gbit \
    --reps 2 --iters 3 --rsag-variant "$OLD" --rsag-variant "$C2"
stamp b
RSAG_COMPONENT_DIR=$NEW "$here/run.sh" 4 1gbit reduce_scatter_block 512K,2M,8M,32M,64M rsb-4x1-1gbit \
    --rsag-only --reps 2 --iters 3 --rsag-variant "$OLD" --rsag-variant "$C2"
stamp c
{
RSAG_COMPONENT_DIR=$NEW "$here/run.sh" 4 1gbit reduce_scatter_block 64K,128K,256K,512K rsb-4x1-1gbit-small \
    --rsag-only --reps 2 --iters 20
RSAG_COMPONENT_DIR=$NEW "$here/run.sh" 4 1gbit allreduce 16K,64K,128K,256K,512K ar-4x1-1gbit-small \
    --rsag-only --reps 2 --iters 20
}
stamp d
for coll in reduce_scatter_block allreduce; do
    contrib/rsag-bench.sh -n 2 -c $coll --sizes 64K,1M,16M --rsag-only --reps 3 \
        --component-dir "$NEW" --rsag-variant "$OLD" -o "$here/np2-vader"
done >"$here/np2-vader.out" 2>&1
stamp e
cp "$NEW/mca_coll_rsag.so" .inst/mca_coll_rsag.so
test/run_tests.sh -k multinode >"$here/tests-multinode.out" 2>&1; tail -1 "$here/tests-multinode.out"
stamp f
late xchg || {
mpicc -O2 -o /tmp/rsag-prio-xchg "$here/xchg.c" || exit 1
xchg() {
    for pat in "pair 2" "shift 1"; do
        mpirun --allow-run-as-root $(contrib/rsag-cluster.sh mpirun-args) --host $hosts -np 4 \
            /tmp/rsag-prio-xchg 16777216 $pat
    done
}
{
    echo "# 1 Gbit/s, $(date -u '+%H:%M:%S UTC'), $(uptime)"
    contrib/rsag-cluster.sh with 4 --rate 1gbit -- bash -c "$(declare -f xchg); hosts=$hosts; xchg"
    echo "# uncapped, $(date -u '+%H:%M:%S UTC'), $(uptime)"
    contrib/rsag-cluster.sh with 4 -- bash -c "$(declare -f xchg); hosts=$hosts; xchg"
    echo "# 200 Mbit/s, $(date -u '+%H:%M:%S UTC'), $(uptime)"
    contrib/rsag-cluster.sh with 4 --rate 200mbit -- bash -c "$(declare -f xchg); hosts=$hosts; xchg"
} >"$here/xchg-4x1.txt" 2>&1
rm -f /tmp/rsag-prio-xchg
}
stamp g
late 200mbit || RSAG_COMPONENT_DIR=$NEW "$here/run.sh" 4 200mbit reduce_scatter_block 512K,4M,16M rsb-4x1-200mbit \
    --rsag-only --reps 2 --iters 3 --rsag-variant "$OLD"
stamp h
late 8x1 || RSAG_COMPONENT_DIR=$NEW "$here/run.sh" 8 1gbit reduce_scatter_block 2M,16M rsb-8x1-1gbit \
    --rsag-only --reps 2 --iters 3 --rsag-variant "$OLD" --rsag-variant "$C2" \
    --rsag-variant "c4=--mca coll_rsag_priority_chunks 4"
stamp end
