#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The cost of coll_rsag_reproducible (README.md here): np 2 on this
# machine's 2 cores (not oversubscribed, bound to cores), rsag's defaults
# with the mode off, placement and exact, one job per mode, interleaved
# (the order rotating with the repetition), 5 repetitions:
#   rb     contrib/rsag_bench (--rsag-algorithms current: auto), MPI_DOUBLE sums,
#          MPI_Allreduce, MPI_Reduce, MPI_Reduce_scatter_block, 16 KB - 64 MB
#   small  the same at 8 B - 4 KB with REPS_SMALL (default 11) repetitions:
#          launches here are fast or slow (2x at 8 B, whatever the mode), so
#          small sizes need more of them for a median
#   osu    OSU 5.3's osu_allreduce and osu_reduce (MPI_FLOAT sums), the same
#          modes, as users measure (--osu DIR: its mpi/collective directory),
#          8 B - 1 MB
# Then merge.sh: medians over the repetitions and the ratios mode / off.
#   run.sh [--out DIR] [--osu DIR] [PART...]        (default: rb small osu)
# --out DIR: the raw files, log and table go to DIR (a later run's results
# directory) instead of here.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
scripts=$here
if [ "${1:-}" = --out ]; then mkdir -p "$2" && here=$(cd "$2" && pwd); shift 2; fi
bench=$top/contrib/rsag_bench
osu=/tmp/ext/osu/mpi/collective
if [ "${1:-}" = --osu ]; then osu=$2; shift 2; fi
parts=${*:-rb small osu}
reps=${REPS:-5}
modes=(off placement exact)
comp=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3:$HOME/.openmpi/components
run() {   # $1 mode, then the program and its arguments
    local mode=$1; shift
    OMPI_MCA_mca_base_component_path=$comp mpirun --allow-run-as-root -np 2 --bind-to core \
        --mca coll_rsag_reproducible "$mode" "$@"
}
for part in $parts; do
    case $part in
    rb|small)
         out=$here/$part-raw.csv range=(--min-bytes 16K --max-bytes 64M) n=$reps
         [ "$part" = small ] && range=(--min-bytes 8 --max-bytes 4K) n=${REPS_SMALL:-11}
         echo "rep,mode,label,coll,np,bytes,time_us,memcpy_us,busbw_GBps,iters,ran,verified,oversubscribed,osu_us" >"$out"
         for ((rep = 1; rep <= n; ++rep)); do
             for c in allreduce reduce reduce_scatter_block; do
                 for ((k = 0; k < 3; ++k)); do
                     mode=${modes[$(( (k + rep - 1) % 3 ))]}
                     run "$mode" "$bench" --coll "$c" "${range[@]}" \
                         --rsag-algorithms current --label "$mode" 2>>"$here/log.txt" |
                         awk -F, -v rep="$rep" -v mode="$mode" 'NR > 1 && NF >= 10 { print rep "," mode "," $0 }' >>"$out"
                     echo "$part rep $rep $c $mode done" >&2
                 done
             done
         done ;;
    osu) out=$here/osu-raw.csv
         echo "rep,mode,coll,bytes,avg_us" >"$out"
         for ((rep = 1; rep <= reps; ++rep)); do
             for c in allreduce reduce; do
                 for ((k = 0; k < 3; ++k)); do
                     mode=${modes[$(( (k + rep - 1) % 3 ))]}
                     run "$mode" "$osu/osu_$c" -m 8:1048576 -f 2>>"$here/log.txt" |
                         awk -v rep="$rep" -v mode="$mode" -v c="$c" '/^[0-9]/ { print rep "," mode "," c "," $1 "," $2 }' >>"$out"
                     echo "osu rep $rep $c $mode done" >&2
                 done
             done
         done ;;
    *) echo "unknown part $part" >&2; exit 2 ;;
    esac
done
"$scripts/merge.sh" "$here"
