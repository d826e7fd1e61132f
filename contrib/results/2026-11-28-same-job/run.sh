#!/bin/bash
# Small calls, rsag (auto) against coll/tuned in the same job: rsag_bench
# --previous times tuned on a duplicate of MPI_COMM_WORLD whose info turns
# rsag's reductions off, call by call interleaved with rsag's own calls, so
# both see the same machine.  One job per tuned algorithm (its default and
# every forced one), repeated REPS times in rotated order.
#   bash run.sh [REPS]  -> raw.csv (rep,tuned,label,coll,np,bytes,time_us,...)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
reps=${1:-5}
export OMPI_MCA_mca_base_component_path=${OMPI_MCA_mca_base_component_path:-/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3:$HOME/.openmpi/components}
declare -A algs=([allreduce]="0 1 2 3 4 5 6" [reduce]="0 1 2 3 4 5 6 7"
                 [reduce_scatter_block]="0 1 2 3 4" [reduce_scatter]="0 1 2 3 4")
out=$here/raw.csv
echo "rep,tuned,label,coll,np,bytes,time_us,memcpy_us,busbw_GBps,iters,ran,verified,oversubscribed,osu_us" > "$out"
for rep in $(seq 1 "$reps"); do
    for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
        for a in ${algs[$coll]}; do
            mpirun --allow-run-as-root -np 2 --bind-to core \
                --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_${coll}_algorithm "$a" \
                "$top/contrib/rsag_bench" --coll "$coll" --sizes 8,16,32,64,128,256,512,1K \
                --iters 2000 --warmup 200 --rsag-algorithms current --label rsag_auto \
                --previous "tuned_$a" 2>/dev/null | awk -v r="$rep" -v a="$a" 'NR > 1 { print r "," a "," $0 }' >> "$out"
        done
    done
done
