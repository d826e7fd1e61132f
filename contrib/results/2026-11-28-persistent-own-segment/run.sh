#!/bin/bash
# (copied from the session scripts; run from the top of the tree, component installed)
# pers.sh ROUNDS OUT COLL: blocking and persistent forms; variants new (own
# segments), old (own segments refused: the former default), nbc (coll ^rsag)
R=$1; OUT=$2; COLL=${3:-allreduce}; mkdir -p $OUT
export OMPI_MCA_mca_base_component_path=${OMPI_MCA_mca_base_component_path:-/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3:$HOME/.openmpi/components}
SIZES=${SIZES:-8,64,512,1K,4K,16K,64K,256K,1M,4M,16M,64M}
vars=(new old nbc)
for r in $(seq 1 $R); do
  for k in 0 1 2; do
    v=${vars[$(( (k + r) % 3 ))]}
    case $v in
      new) args=() ;;
      old) args=(--mca coll_rsag_segment_max_bytes 2101760) ;;
      nbc) args=(--mca coll ^rsag) ;;
    esac
    mpirun --allow-run-as-root -np 2 --bind-to core "${args[@]}" ${RSAG_BENCH:-contrib/rsag_bench} \
      --coll $COLL --forms blocking,persistent --sizes $SIZES --label $v 2>/dev/null \
      | grep "^${v}_" | sed "s/^/$r,/" >> $OUT/raw.csv
  done
done
