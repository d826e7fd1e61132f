#!/bin/bash
# OSU's view of the same two builds: OSU 5.3's osu_allreduce and osu_reduce
# and OSU 7.4's osu_iallreduce (pure communication column), MPI_FLOAT,
# 512 B - 8 KB, np 2 bound to the two cores, one launch of each build per
# round and benchmark, order alternating.  OSU is built outside the tree.
# Usage: osu-pairs.sh ROUNDS DIR_A DIR_B OSU53_COLLECTIVE_DIR OSU74_NONBLOCKING_DIR OUT.csv
set -eu
rounds=$1 a=$2 b=$3 osu53=$4 osu74=$5 out=$6
ompi=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3
echo "round,build,bench,bytes,us" >"$out"
one() { # $1 round, $2 build, $3 component dir, $4 benchmark path, $5 column of the time
    OMPI_MCA_mca_base_component_path="$ompi:$3" mpirun --allow-run-as-root -np 2 --bind-to core \
        "$4" -m 512:8192 $( [[ "$4" == *osu74* ]] && echo "-T mpi_float" ) 2>/dev/null |
        awk -v r="$1" -v v="$2" -v bn="$(basename "$4")" -v c="$5" \
            '/^[0-9]/ { print r "," v "," bn "," $1 "," $c }'
}
for ((r = 1; r <= rounds; r++)); do
    for bench in "$osu53/osu_allreduce 2" "$osu53/osu_reduce 2" "$osu74/osu_iallreduce 4"; do
        set -- $bench
        if ((r % 2)); then one "$r" A "$a" "$1" "$2"; one "$r" B "$b" "$1" "$2"
        else one "$r" B "$b" "$1" "$2"; one "$r" A "$a" "$1" "$2"; fi
    done >>"$out"
done
