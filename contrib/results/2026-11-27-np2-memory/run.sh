#!/bin/bash
# np 2 on a day this VM's memory ran at half the speed of 2026-11-23: OSU 5.3
# rsag auto against coll/tuned's default, 5 interleaved rounds; and `direct`'s
# segment path against its CMA path, rsag's Rabenseifner (MPI_Allreduce) or
# binomial tree (MPI_Reduce) and coll/tuned's default (rsag_bench, 3
# interleaved jobs).  np 2 bound to the two cores, not oversubscribed.
#   run.sh OSU_COLLECTIVE_DIR [OUT] [PART]   PART: all (default), osu, ways
set -u
osu=${1:?usage: run.sh OSU_COLLECTIVE_DIR [OUT]}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=${2:-$here}
part=${3:-all}
mkdir -p "$out/raw"
mr="mpirun --allow-run-as-root -np 2 --bind-to core"
{ echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
  "$here/memprobe" ; } > "$out/probe.txt"
[ "$part" = ways ] || for r in 1 2 3 4 5; do
    for b in allreduce reduce reduce_scatter; do
        for m in rsag tuned; do
            a=""; [ "$m" = tuned ] && a="--mca coll_rsag_priority -1"
            $mr $a "$osu/osu_$b" -m 8:16777216 -i 200 -x 20 2>/dev/null | grep -E '^[0-9]' \
                > "$out/raw/osu_$b.$m.$r"
        done
    done
done
[ "$part" = osu ] && exit 0
rm -f "$out/raw/direct-ways.csv"
for r in 1 2 3; do
    for c in allreduce reduce; do
        for v in segment cma; do
            a="--mca coll_rsag_${c}_algorithm direct"
            [ "$v" = cma ] && a="$a --mca coll_rsag_direct_cma_min_bytes 32768"
            $mr $a "$top/contrib/rsag_bench" --coll $c --rsag-algorithms current --label "direct_$v" \
                --sizes 32K,64K,256K,1M,4M,16M 2>/dev/null | grep -v '^#\|^label' >> "$out/raw/direct-ways.csv"
        done
        alg=rabenseifner; [ "$c" = reduce ] && alg=binomial
        $mr --mca coll_rsag_${c}_algorithm $alg "$top/contrib/rsag_bench" --coll $c \
            --rsag-algorithms current --label "rsag_$alg" --sizes 32K,64K,256K,1M,4M,16M 2>/dev/null \
            | grep -v '^#\|^label' >> "$out/raw/direct-ways.csv"
        $mr --mca coll_rsag_priority -1 "$top/contrib/rsag_bench" --coll $c \
            --rsag-algorithms current --label tuned --sizes 32K,64K,256K,1M,4M,16M 2>/dev/null \
            | grep -v '^#\|^label' >> "$out/raw/direct-ways.csv"
    done
done
