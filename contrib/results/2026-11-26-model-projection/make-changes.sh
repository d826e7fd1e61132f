#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# What hierarchical's pipeline and leaders change in the projection:
#   contrib/results/2026-11-26-model-projection/make-changes.sh PROFILE NAME
# reads projection-NAME.tsv (2026-11-23-model/make-projection.sh with RSAG_PROJECTION_OUT here, the pipelined model), runs
# the same table with --hier-chunk 0 (not pipelined) into a temporary file,
# and writes changes-NAME.txt: per collective, the cells (p, ppn, bytes) whose
# best algorithm the pipeline changes, hierarchical's pipelined / unpipelined
# time where it is best, the cells where leaders is best (and the runner-up),
# and the cells whose best differs from 2026-11-23-model's projection.
# No MPI, nothing measured.
set -u
here=$(cd "$(dirname "$0")" && pwd)
model=$here/../../rsag_model
[ -x "$model" ] || { echo "build contrib/rsag_model first (make)" >&2; exit 2; }
profile=$1 name=$2
tsv=$here/projection-$name.tsv old=$here/../2026-11-23-model/projection-$name.tsv
[ -r "$tsv" ] || { echo "no $tsv: run make-projection.sh first" >&2; exit 2; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$model" -P "$profile" --hier-chunk 0 table \
    --p 2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536 \
    --ppn 1,2,4,8,16,32,64,128 --sizes 8,64,512,4K,32K,256K,2M,16M,128M,1G \
    --colls allreduce,reduce,reduce_scatter_block >"$tmp" || exit 1
awk -F'\t' '
    FNR == 1 { f++; next }
    { c = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4; t = $6 + 0
      if (f == 1) {
          NA[c]++; AN[c, NA[c]] = $5; AT[c, NA[c]] = t
          if ($7 == "best") { B[c] = $5; BT[c] = t; cells[++n] = c }
      } else if (f == 2) {
          if ($5 == "hierarchical") U[c] = t
          if ($7 == "best") { UB[c] = $5; UT[c] = t }
      } else if ($7 == "best") O[c] = $5 }
    function hs(b) { return b >= 1073741824 ? b / 1073741824 "G" : b >= 1048576 ? b / 1048576 "M" \
                         : b >= 1024 ? b / 1024 "K" : b }
    function cell(c,   k) { split(c, k, SUBSEP); return k[1] " p=" k[2] " ppn=" k[3] " " hs(k[4]) }
    END {
        for (i = 1; i <= n; i++) {
            c = cells[i]; split(c, k, SUBSEP); coll = k[1]
            N[coll]++
            if (B[c] != UB[c]) {
                PC[coll]++
                printf "pipeline: %s: %s %.4g us -> %s %.4g us\n", cell(c), UB[c], UT[c], B[c], BT[c] >cf
            }
            if (B[c] == "hierarchical") {
                HB[coll]++; r = BT[c] / U[c]; HS[coll] += log(r)
                if (!(coll in HMIN) || r < HMIN[coll]) { HMIN[coll] = r; HMC[coll] = cell(c) }
                if (!(coll in HMAX) || r > HMAX[coll]) { HMAX[coll] = r; HXC[coll] = cell(c) }
            }
            if (B[c] == "leaders") {
                LB[coll]++; ru = ""; rt = 1e300
                for (a = 1; a <= NA[c]; a++)
                    if (AN[c, a] != "leaders" && AT[c, a] < rt) { rt = AT[c, a]; ru = AN[c, a] }
                printf "leaders: %s: %.4g us, next %s %.4g us (%.3fx)\n", cell(c), BT[c], ru, rt, rt / BT[c] >cf
            }
            if (c in O) { NO[coll]++; if (O[c] != B[c]) { OC[coll]++; CH[coll, O[c] " -> " B[c]]++ } }
        }
        nc = split("allreduce reduce reduce_scatter_block", colls, " ")
        for (j = 1; j <= nc; j++) {
            coll = colls[j]
            printf "%s: %d cells; the pipeline (256 KiB chunks against none) changes the best in %d\n", coll, N[coll], PC[coll]
            if (HB[coll]) printf "  hierarchical best in %d cells; its time pipelined / unpipelined there: geometric mean %.3f, min %.3f (%s), max %.3f (%s)\n",
                HB[coll], exp(HS[coll] / HB[coll]), HMIN[coll], HMC[coll], HMAX[coll], HXC[coll]
            printf "  leaders best in %d cells\n", LB[coll]
            printf "  best differs from 2026-11-23-model in %d of %d cells (old -> new):\n", OC[coll], NO[coll]
            for (x in CH) { split(x, y, SUBSEP); if (y[1] == coll) printf "    %5d  %s\n", CH[x], y[2] }
        }
    }' cf="$here/changes-$name.cells" "$tsv" "$tmp" "$old" >"$here/changes-$name.txt"
