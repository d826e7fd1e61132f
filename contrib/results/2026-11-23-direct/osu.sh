#!/bin/bash
# OSU 5.3 cross-check, np 2 bound to the two cores, 2 interleaved rounds
OUT=${1:-/tmp/final/osu}; mkdir -p "$OUT"
M="mpirun --allow-run-as-root -np 2 --bind-to core"
echo "start $(date -u) $(uptime)" >> "$OUT/machine.txt"
for round in 1 2; do
  for b in allreduce reduce reduce_scatter; do
    $M /tmp/osu_$b -m 8:67108864 -f > "$OUT/$b-rsag-r$round.txt" 2>&1
    $M --mca coll_rsag_${b}_algorithm direct /tmp/osu_$b -m 8:67108864 -f > "$OUT/$b-direct-r$round.txt" 2>&1
    $M --mca coll ^rsag /tmp/osu_$b -m 8:67108864 -f > "$OUT/$b-tuned-r$round.txt" 2>&1
    $M -x MALLOC_MMAP_MAX_=0 --mca coll ^rsag /tmp/osu_$b -m 8:67108864 -f > "$OUT/$b-tunedmmap0-r$round.txt" 2>&1
  done
done
echo "end $(date -u) $(uptime)" >> "$OUT/machine.txt"
