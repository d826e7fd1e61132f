#!/bin/bash
# What this run measured (np 2 bound to the two cores, not oversubscribed,
# a quiet machine; rsag-bench.sh's --wait-quiet refuses to time otherwise):
#  1. MPI_Reduce from 8 KB to 1 MB, rsag against coll/tuned's default and
#     every algorithm of tuned forced, with OSU's and IMB's measures beside
#     rsag-bench's own (the pipelined root path, coll_rsag_direct.c);
#  2. the four collectives from 8 B to 4 KB in fine steps, the same three
#     measures, IMB with and without its barrier (issue: "OSU vs IMB").
# $1 = output directory (default ./out), $2 = the options
# contrib/rsag-external.sh printed (--osu DIR --imb PATH), $3 = reps (5).
here=$(cd "$(dirname "$0")" && pwd)
bench=$here/../../rsag-bench.sh
out=${1:-./out}; ext=${2:?give the --osu/--imb options rsag-external.sh printed}; reps=${3:-5}
mkdir -p "$out"
# shellcheck disable=SC2086
"$bench" -n 2 -c reduce --reps "$reps" --wait-quiet 120 \
    --sizes 8K,16K,32K,64K,128K,192K,256K,384K,512K,1M $ext -o "$out/reduce-mid"
for c in allreduce reduce reduce_scatter_block reduce_scatter; do
    e=$ext
    # OSU has no MPI_Reduce_scatter_block: IMB alone there
    [ "$c" = reduce_scatter_block ] && e=$(echo "$ext" | sed 's/--osu [^ ]*//')
    # shellcheck disable=SC2086
    "$bench" -n 2 -c "$c" --reps "$reps" --wait-quiet 120 \
        --sizes 8,16,32,64,128,256,512,1K,2K,4K $e -o "$out/small"
done
