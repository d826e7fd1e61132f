#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The nonblocking and persistent calls' measurement (run from the top of the tree, after make install
# into .inst; BASE_INST: the component directory of a build of main before
# the nonblocking engine).  Held under the machine's exclusive lock by the
# caller: flock -x /work/.machine.lock contrib/results/2026-11-23-nonblocking/run.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
inst=$top/.inst
base_inst=${BASE_INST:?set BASE_INST to the component directory of main's build}
sysdir=$(ompi_info --path pkglibdir | awk '{ print $2 }')
machine() {
    echo "== $1: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
    ps -eo pid,pcpu,etime,comm --sort=-pcpu | head -6
}
{
    echo "host $(hostname), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
    ompi_info --version | head -1
    echo "tree $(git -C "$top" log --oneline -1)"
    machine start
} >"$here/machine.txt"

# 1. nonblocking and persistent: rsag against libnbc and tuned's blocking call
"$inst/bin/rsag-bench.sh" --nonblocking -n 2 -c allreduce --component-dir "$inst" \
    --mpirun-args "--bind-to core --report-bindings" --reps 7 --wait-quiet 30 \
    --sizes 8,64,1K,8K,64K,1M,4M,16M,64M -o "$here"
rc1=$?
machine "after the nonblocking run" >>"$here/machine.txt"

# 2. the blocking call before (main) and after (the engine): the same
#    benchmark, the rsag job of each build interleaved in one run
"$inst/bin/rsag-bench.sh" -n 2 -c allreduce --rsag-only --component-dir "$inst" \
    --rsag-variant "main=--mca mca_base_component_path $base_inst:$sysdir" \
    --mpirun-args "--bind-to core" --reps 7 --wait-quiet 30 \
    --sizes 8,64K,16M -o "$here/blocking-before-after"
rc2=$?
machine end >>"$here/machine.txt"
echo "exit: nonblocking $rc1, before/after $rc2" | tee -a "$here/machine.txt"
[ "$rc1" = 0 ] && [ "$rc2" = 0 ]
