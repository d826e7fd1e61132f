#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The projection of this directory: the cost model's predicted time of every
# rsag algorithm (hierarchical and leaders included) for p = 2 .. 65536, 1 .. 128 ranks per
# node, 8 B .. 1 GB, under a calibrated profile; no MPI, nothing measured.
#   contrib/results/2026-11-23-model/make-projection.sh PROFILE NAME [rsag_model args]
# (RSAG_PROJECTION_OUT=DIR: write into DIR instead of this directory, as
# contrib/results/2026-11-26-model-projection does)
# writes projection-NAME.tsv (every prediction), choices-NAME.md (the
# model's choice per case) and projection-NAME.png (gnuplot, if installed).
set -u
here=$(cd "$(dirname "$0")" && pwd)
model=$here/../../rsag_model
[ -x "$model" ] || { echo "build contrib/rsag_model first (make)" >&2; exit 2; }
profile=$1 name=$2; shift 2
ps=2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536
ppns=1,2,4,8,16,32,64,128
sizes=8,64,512,4K,32K,256K,2M,16M,128M,1G
out=${RSAG_PROJECTION_OUT:-$here}
tsv=$out/projection-$name.tsv
"$model" -P "$profile" "$@" table --p "$ps" --ppn "$ppns" --sizes "$sizes" \
    --colls allreduce,reduce,reduce_scatter_block >"$tsv" || exit 1

# The model's choice, flat algorithms against hierarchical, per (coll, p, ppn)
{
    echo "Model's fastest algorithm, profile \`$name\` ($*), ranks per node as given."
    echo "\"hier\" = hierarchical (intra-node direct, the best rsag algorithm between nodes,"
    echo "pipelined as --hier-chunk says, default 256 KiB); \"leaders\" = the node-aware small-message"
    echo "path (node reduce to one leader, the leaders across, release in the node);"
    echo "a~b: b is within 3 % of a (a tie for the model)."
    echo
    for coll in allreduce reduce reduce_scatter_block; do
        echo "### $coll"
        echo
        printf '| p | ppn |'; for s in ${sizes//,/ }; do printf ' %s |' "$s"; done; echo
        printf '|---|---|'; for s in ${sizes//,/ }; do printf -- '---|'; done; echo
        awk -F'\t' -v coll="$coll" '
            function short(a) {
                sub(/recursive_doubling/, "rd", a); sub(/rabenseifner/, "rab", a)
                sub(/recursive_halving/, "halving", a); sub(/hierarchical/, "hier", a)
                sub(/priority/, "prio", a)
                return a
            }
            NR > 1 && $1 == coll {
                key = $2 "\t" $3
                if (!(key in seen)) { seen[key] = 1; order[++n] = key }
                c = key SUBSEP $4
                na[c]++; alg[c, na[c]] = short($5); tm[c, na[c]] = $6 + 0
                if (!(c in best) || $6 + 0 < best[c]) best[c] = $6 + 0
                if (!($4 in sz)) { sz[$4] = 1; sizes[++m] = $4 }
            }
            END {
                for (i = 1; i <= n; i++) {
                    split(order[i], k, "\t")
                    if (k[2] != 1 && k[2] != 8 && k[2] != 32 && k[2] != 128) continue
                    if (k[1] != 2 && k[1] != 4 && k[1] != 16 && k[1] != 64 && k[1] != 256 \
                        && k[1] != 1024 && k[1] != 4096 && k[1] != 65536) continue
                    printf "| %s | %s |", k[1], k[2]
                    for (j = 1; j <= m; j++) {
                        c = order[i] SUBSEP sizes[j]; cell = ""
                        # the fastest first, then those within 3 % of it
                        for (a = 1; a <= na[c]; a++) if (tm[c, a] == best[c] && cell == "") { cell = alg[c, a]; b = a }
                        for (a = 1; a <= na[c]; a++)
                            if (a != b && tm[c, a] <= 1.03 * best[c]) cell = cell "~" alg[c, a]
                        printf " %s |", cell
                    }
                    printf "\n"
                }
            }' "$tsv"
        echo
    done
} >"$out/choices-$name.md"

command -v gnuplot >/dev/null 2>&1 || { echo "no gnuplot: plot skipped" >&2; exit 0; }
dat=$(mktemp -d)
trap 'rm -rf "$dat"' EXIT
# vs bytes: p 4096, 32 per node; vs p: 1 MB... use 2M (a projected size), 32 per node
for coll in allreduce reduce reduce_scatter_block; do
    awk -F'\t' -v c="$coll" -v d="$dat" 'NR > 1 && $1 == c && $2 == 4096 && $3 == 32 {
        print $4, $6 > (d "/" c "-bytes-" $5) }' "$tsv"
    awk -F'\t' -v c="$coll" -v d="$dat" 'NR > 1 && $1 == c && $4 == 2097152 && $3 == 32 {
        print $2, $6 > (d "/" c "-p-" $5) }' "$tsv"
done
plot_of() { # $1 = file prefix
    local first=1 f
    for f in "$dat/$1"-*; do
        [ -s "$f" ] || continue
        [ $first = 1 ] || printf ', '
        printf '"%s" using 1:2 with linespoints title "%s"' "$f" "${f##*/$1-}"
        first=0
    done
}
gnuplot <<EOF
set terminal pngcairo size 1400,1000 font ",10" noenhanced
set output "$out/projection-$name.png"
set multiplot layout 2,2 title "rsag cost model, profile $name $*: predicted time (s)"
set logscale xy
set format y "%.0e"
set key top left
set xlabel "bytes"
set title "MPI_Allreduce, p = 4096, 32 ranks per node"
plot $(plot_of allreduce-bytes)
set title "MPI_Reduce, p = 4096, 32 ranks per node"
plot $(plot_of reduce-bytes)
set title "MPI_Reduce_scatter_block, p = 4096, 32 ranks per node"
plot $(plot_of reduce_scatter_block-bytes)
set xlabel "p (32 ranks per node)"
set title "MPI_Allreduce, 2 MB"
plot $(plot_of allreduce-p)
unset multiplot
EOF
