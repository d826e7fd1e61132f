#!/bin/bash
# The quiet measurement of 2026-11-26 (np 2 bound to the two cores, not
# oversubscribed; nothing else running), in order:
#   1. launches.sh: 20 launches in a row of OSU 5.3's osu_allreduce,
#      osu_reduce and osu_reduce_scatter, 64 KB .. 64 MB, rsag's defaults
#      and coll/tuned interleaved, the machine's state probed each round;
#   2. the nonblocking and persistent forms against the blocking call and
#      libnbc (rsag-bench.sh --nonblocking), MPI_Allreduce 8 B .. 64 MB;
#   3. calibration and the cost model's direct row against measurement
#      (rsag-calibrate.sh, rsag-model-compare.sh --direct).
# Usage: OSU=<osu 5.3>/mpi/collective run.sh  (from the top of a built tree)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
{ date -u; uptime; nproc; } > "$here/machine.txt"
"$here/launches.sh" 20 > "$here/launches.log"
awk -f "$here/summary.awk" "$here/launches.log" | sort -k1,1 -k2n -k3 > "$here/launches-table.txt"
contrib/rsag-bench.sh --nonblocking -n 2 -c allreduce --reps 3 \
    --sizes 8,64,1K,8K,64K,1M,16M,64M -o "$here/nb" > "$here/nb.log" 2>&1
contrib/rsag-calibrate.sh -o "$here/prof" --runs 3 > "$here/calibrate.log" 2>&1
contrib/rsag-model-compare.sh --direct -P "$here/prof/shm.profile" -o "$here/compare-direct" \
    --reps 3 > "$here/compare-direct.log" 2>&1
{ date -u; uptime; } >> "$here/machine.txt"
