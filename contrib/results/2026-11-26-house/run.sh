#!/bin/bash
# The per-call path before and after the dispatcher's move out of the module
# (and the rest of that change): the same rsag_bench binary, and OSU's
# osu_allreduce / osu_reduce, against two builds of the component chosen per
# job with --mca mca_base_component_path, np 2 bound to the two cores (not
# oversubscribed), ob1 + vader, jobs interleaved (before, after, tuned),
# ROUNDS rounds.
#
#   run.sh BEFORE_DIR AFTER_DIR OUTDIR [ROUNDS] [OSU_DIR]
#
# BEFORE_DIR, AFTER_DIR: directories holding mca_coll_rsag.so of each build;
# OSU_DIR: where osu_allreduce and osu_reduce are (built outside this tree).
set -u
before=$1 after=$2 out=$3 rounds=${4:-7} osu=${5:-}
here=$(cd "$(dirname "$0")/../../.." && pwd)
pkglib=$(ompi_info --path pkglibdir --parsable | cut -d: -f3)
mkdir -p "$out"
m=(mpirun --allow-run-as-root -np 2 --bind-to core)
echo "start $(date -u) $(uptime)" >>"$out/machine.txt"
for r in $(seq 1 "$rounds"); do
    for coll in allreduce reduce; do
        for v in before after; do
            dir=$before; [ "$v" = after ] && dir=$after
            "${m[@]}" --mca mca_base_component_path "$pkglib:$dir" "$here/contrib/rsag_bench" \
                --coll "$coll" --sizes 8,64K,16M --rsag-algorithms current --label "$v" \
                >>"$out/bench-$coll-$v.txt" 2>&1
            if [ -n "$osu" ]; then
                for b in 8 65536 16777216; do
                    "${m[@]}" --mca mca_base_component_path "$pkglib:$dir" "$osu/osu_$coll" \
                        -m "$b:$b" -f >>"$out/osu-$coll-$v.txt" 2>&1
                done
            fi
        done
        if [ -n "$osu" ]; then
            for b in 8 65536 16777216; do
                "${m[@]}" --mca coll ^rsag "$osu/osu_$coll" -m "$b:$b" -f \
                    >>"$out/osu-$coll-tuned.txt" 2>&1
            done
        fi
    done
done
echo "end $(date -u) $(uptime)" >>"$out/machine.txt"
