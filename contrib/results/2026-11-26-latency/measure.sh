#!/bin/bash
# Interleaved rounds, np 2 bound to both cores (not oversubscribed).
# OSU 5.3 (barrier between calls) and a back-to-back loop, tuned vs rsag.
# $1 rounds, $2 out dir, $3 component dir
export OMPI_MCA_mca_base_component_path=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3:${3:-$HOME/.openmpi/components}
out=${2:-/tmp/lat/m}; mkdir -p $out
D="--mca coll_rsag_allreduce_algorithm direct --mca coll_rsag_reduce_algorithm direct --mca coll_rsag_reduce_scatter_block_algorithm direct --mca coll_rsag_reduce_scatter_algorithm direct --mca coll_rsag_persistent_starts_ordered 1"
declare -A MODE=( [tuned]="--mca coll_rsag_priority -1" [auto]="--mca coll_rsag_persistent_starts_ordered 1" [direct]="$D" )
for r in $(seq 1 ${1:-3}); do
  for b in osu_allreduce osu_reduce osu_reduce_scatter; do
    for m in tuned auto direct; do
      mpirun --allow-run-as-root -np 2 --bind-to core ${MODE[$m]} /tmp/osu-src/mpi/collective/$b -m 8:1024 -i 20000 -x 2000 2>/dev/null | grep -E "^[0-9]" > $out/$b.$m.$r
    done
  done
  for c in 0 1 2 3 4 5; do for n in 1 8 64 127; do
    for m in tuned auto direct; do
      mpirun --allow-run-as-root -np 2 --bind-to core ${MODE[$m]} /tmp/lat/loop $n 200000 $c 2>/dev/null | awk -v n=$n '/coll/{print n*8, $5}' >> $out/loop$c.$m.$r
    done
  done; done
done
med() { sort -n | awk '{a[NR]=$1}END{if(NR==0){print "-"}else{print a[int((NR+1)/2)]}}'; }
for b in osu_allreduce osu_reduce osu_reduce_scatter loop0 loop1 loop2 loop3 loop4 loop5; do
  echo "== $b: bytes tuned auto direct | tuned/auto tuned/direct"
  sizes=$(cat $out/$b.tuned.* | awk '{print $1}' | sort -n | uniq)
  for s in $sizes; do
    t=$(cat $out/$b.tuned.* | awk -v s=$s '$1==s{print $2}' | med)
    a=$(cat $out/$b.auto.* | awk -v s=$s '$1==s{print $2}' | med)
    d=$(cat $out/$b.direct.* | awk -v s=$s '$1==s{print $2}' | med)
    echo "$s $t $a $d | $(awk -v t=$t -v a=$a 'BEGIN{printf "%.2f", t/a}') $(awk -v t=$t -v d=$d 'BEGIN{printf "%.2f", t/d}')"
  done
done
