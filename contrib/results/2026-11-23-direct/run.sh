#!/bin/bash
# The np 2 comparison of `direct`: every collective, rsag (segment path by
# default, CMA as a variant) against coll/tuned in the same run; then OSU 5.3.
set -u
OUT=${1:-/tmp/final/out}; mkdir -p "$OUT"; cd /work/main
echo "start $(date -u) $(uptime)" >>"$OUT/machine.txt"
for c in allreduce reduce reduce_scatter_block reduce_scatter; do
  case $c in allreduce|reduce) reps=2 ;; *) reps=1 ;; esac
  contrib/rsag-bench.sh -n 2 -c $c --reps $reps --wait-quiet 60 \
     --rsag-variant "cma=--mca coll_rsag_single_copy cma" -o "$OUT" > "$OUT/$c.stdout" 2> "$OUT/$c.stderr"
  echo "$c done $(date -u) $(uptime)" >>"$OUT/machine.txt"
done
/tmp/final/osu.sh "$OUT/osu"
echo "end $(date -u) $(uptime)" >>"$OUT/machine.txt"
