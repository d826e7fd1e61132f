#!/bin/bash
# run in this directory: bash medians.sh > medians.txt
# medians of rsag_bench (time_us, osu_us) and of OSU (avg latency) per variant and size
med() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
for coll in allreduce reduce; do
  for b in 8 65536 16777216; do
    line="$coll $b"
    for v in before after; do
      t=$(awk -F, -v b=$b -v v=$v '$1==v && $4==b {print $5}' bench-$coll-$v.txt | med)
      o=$(awk -F, -v b=$b -v v=$v '$1==v && $4==b {print $12}' bench-$coll-$v.txt | med)
      u=$(awk -v b=$b '$1==b {print $2}' osu-$coll-$v.txt | med)
      line="$line | $v bench $t osu_us $o OSU $u"
    done
    u=$(awk -v b=$b '$1==b {print $2}' osu-$coll-tuned.txt | med)
    echo "$line | tuned OSU $u"
  done
done
