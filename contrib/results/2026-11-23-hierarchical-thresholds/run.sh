#!/bin/bash
cd /work/main
out=contrib/results/2026-11-23-hierarchical-thresholds
mkdir -p $out
{ date -u; uptime; } > $out/machine-state.txt
contrib/rsag-cluster.sh with 2 --rate 1gbit -- sh -c '
  ARGS="$(contrib/rsag-cluster.sh mpirun-args) --host rsag-h1:2,rsag-h2:2"
  contrib/rsag-bench.sh -n 4 -c allreduce --mpirun-args "$ARGS" \
      --reps 1 --sizes 1048576,4194304,16777216,67108864 --iters 5 \
      -o '"$out"
{ date -u; uptime; } >> $out/machine-state.txt
