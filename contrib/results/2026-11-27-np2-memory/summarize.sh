#!/bin/bash
# Medians of run.sh's raw files: OSU rsag / tuned per size (ratio tuned / rsag),
# and the direct ways against Rabenseifner (µs, median of the jobs).
here=$(cd "$(dirname "$0")" && pwd)
med() { sort -g | awk '{a[NR]=$1} END{print NR ? a[int((NR+1)/2)] : "-"}'; }
for b in allreduce reduce reduce_scatter; do
    echo "== OSU 5.3 osu_$b, np 2: bytes, rsag µs, tuned µs, tuned / rsag (median of 5 rounds)"
    for s in $(awk '{print $1}' "$here/raw/osu_$b.rsag.1"); do
        r=$(cat "$here"/raw/osu_$b.rsag.* | awk -v s="$s" '$1==s{print $2}' | med)
        t=$(cat "$here"/raw/osu_$b.tuned.* | awk -v s="$s" '$1==s{print $2}' | med)
        awk -v s="$s" -v r="$r" -v t="$t" 'BEGIN{printf "%9s %10.2f %10.2f %6.2f\n", s, r, t, t / r}'
    done
done
for c in allreduce reduce; do
    alg=rabenseifner; [ "$c" = reduce ] && alg=binomial
    echo "== $c, rsag_bench: bytes, direct (segment), direct (CMA from 32 KB), rsag's $alg, tuned's default; µs, median of 3 jobs"
    for s in $(awk -F, -v c="$c" '$2==c{print $4}' "$here/raw/direct-ways.csv" | sort -n | uniq); do
        printf "%9s" "$s"
        for l in direct_segment direct_cma "rsag_$alg" tuned; do
            printf " %10.2f" "$(awk -F, -v s="$s" -v l="$l" -v c="$c" '$2==c && $4==s && $1==l{print $5}' "$here/raw/direct-ways.csv" | med)"
        done
        echo
    done
done
