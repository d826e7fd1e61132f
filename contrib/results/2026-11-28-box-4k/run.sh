#!/bin/bash
# Boxes of 4 KB at np 2 against the 1 KB ones: two builds of the component,
# A (boxes of 1080 bytes) and B (4152 bytes at p = 2), each installed in a
# directory of its own; per launch pair one rsag_bench job of each (order
# alternating), per collective, np 2 bound to the two cores, blocking and
# MPI_I* + MPI_Wait interleaved call by call (--forms), 8 B - 8 KB.
# Usage: run.sh PAIRS DIR_A DIR_B OUT.csv   (run from the top of the tree)
set -eu
pairs=$1 a=$2 b=$3 out=$4
ompi=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3
echo "pair,build,coll,label,bytes,time_us,ran" >"$out"
job() { # $1 pair, $2 build, $3 component dir, $4 collective
    OMPI_MCA_mca_base_component_path="$ompi:$3" mpirun --allow-run-as-root -np 2 --bind-to core \
        contrib/rsag_bench --coll "$4" --sizes 8,64,512,1K,2K,4K,8K --forms blocking,nonblocking \
        --label "$2" 2>/dev/null |
        awk -F, -v k="$1" -v v="$2" -v c="$4" 'NR > 1 { print k "," v "," c "," $1 "," $4 "," $5 "," $9 }'
}
for ((k = 1; k <= pairs; k++)); do
    for c in allreduce reduce reduce_scatter_block; do
        if ((k % 2)); then job "$k" A "$a" "$c"; job "$k" B "$b" "$c"
        else job "$k" B "$b" "$c"; job "$k" A "$a" "$c"; fi
    done >>"$out"
done
