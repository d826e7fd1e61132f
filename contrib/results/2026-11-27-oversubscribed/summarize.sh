#!/bin/bash
# Medians over the rounds of OSU's average latency (us), per np, benchmark,
# size and variant, and each variant's time / the last variant's (e.g.
# rsag / tuned: below 1 is faster than tuned; the target: at most 1.10).
# usage: ./summarize.sh [RAWDIR] VARIANT... (the last one is the reference)
here=$(cd "$(dirname "$0")" && pwd)
raw=$here/raw; [ -d "${1:-}" ] && { raw=$1; shift; }
for f in "$raw"/*.*.*.*; do
    base=${f##*/}; IFS=. read -r np b v r <<<"$base"
    awk -v np="np$np" -v b="$b" -v v="$v" '/^[0-9]+[ \t]+[0-9.]+/{print np, b, $1, v, $2}' "$f"
done | awk -f "$here/../../rsag-bench-lib.awk" -f "$here/../median-table.awk" -v vars="$*" \
    -v ratio=var | { IFS= read -r head; echo "$head"; sort -k1,1V -k2,2 -k3,3n; }
