#!/bin/bash
# Medians over the rounds (OSU's average; IMB's t_avg, whole-vector bytes:
# IMB's Reduce_scatter_block sizes are per rank, so x2 at np 2) per tool,
# benchmark, size and variant, and reference / variant (e.g. tuned / rsag:
# above 1 rsag is faster).  usage: ./summarize.sh VARIANT... REFERENCE
here=$(cd "$(dirname "$0")" && pwd)
for f in "$here"/raw/*.*.*.*; do
    base=${f##*/}; IFS=. read -r tool b v r <<<"$base"
    if [ "$tool" = osu ]; then
        awk -v t=osu -v b="$b" -v v="$v" '/^[0-9]+[ \t]+[0-9.]+/{print t, b, $1, v, $2}' "$f"
    else
        awk -v t=imb -v b="$b" -v v="$v" 'NF == 5 && $1 ~ /^[0-9]+$/ && $1 > 0 && $5 ~ /^[0-9.]+$/ {
            n = $1; if (b == "Reduce_scatter_block") n *= 2; print t, b, n, v, $5 }' "$f"
    fi
done | awk -f "$here/../../rsag-bench-lib.awk" -f "$here/../median-table.awk" -v vars="$*" \
    -v ratio=ref | { IFS= read -r head; echo "$head"; sort -k1,1 -k2,2 -k3,3n; }
