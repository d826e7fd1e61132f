#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# What changed in the projection since 2026-11-26's: per collective, how many
# cells each algorithm is the model's best in, then and now, and the most
# frequent changes of the best (old -> new, with the count).
#   contrib/results/2026-11-27-model-projection/make-diff.sh NAME > diff-NAME.txt
# No MPI, nothing measured.
set -u
here=$(cd "$(dirname "$0")" && pwd)
name=${1:-1gbit}
old=$here/../2026-11-26-model-projection/projection-$name.tsv new=$here/projection-$name.tsv
[ -r "$old" ] && [ -r "$new" ] || { echo "need $old and $new" >&2; exit 2; }
awk -F'\t' '
    FNR == 1 { f++; next }
    $7 != "best" { next }
    { c = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4; colls[$1] = 1
      if (f == 1) { O[c] = $5; no[$1, $5]++ } else { N[c] = $5; nn[$1, $5]++; algs[$1, $5] = 1 } }
    END {
        for (k in no) { split(k, q, SUBSEP); algs[q[1], q[2]] = 1 }
        for (co in colls) {
            printf "== %s: cells where each row is the best, 2026-11-26 -> now\n", co
            for (k in algs) { split(k, q, SUBSEP); if (q[1] == co) printf "  %-20s %5d -> %5d\n", q[2], no[k], nn[k] }
            delete ch
            for (c in N) { split(c, q, SUBSEP); if (q[1] == co && (c in O) && O[c] != N[c]) ch[O[c] " -> " N[c]]++ }
            printf "   changes of the best:\n"
            for (t in ch) printf "  %5d  %s\n", ch[t], t
        }
    }' "$old" "$new" | awk '/^==/ { if (buf != "") print buf; buf = ""; print; next } { print }'
