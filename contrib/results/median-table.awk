# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# median-table.awk: the medians over a run's rounds, one row per
# (first, second, bytes), one column per variant, then each variant's ratio
# to the last one (the reference).  Input lines: FIRST SECOND BYTES VARIANT
# VALUE.  -v vars="A B ... REF"; -v ratio=ref (REF / variant: above 1 the
# variant is faster) or var (variant / REF: below 1 it is faster).
# Given after ../rsag-bench-lib.awk (median):
#   awk -f ../../rsag-bench-lib.awk -f ../median-table.awk -v vars=... -v ratio=...
{ k = $1 " " $2 " " $3; a[k, $4] = a[k, $4] " " $5; keys[k] = 1 }
END {
    nv = split(vars, V, " ")
    printf "%-6s %-21s %9s", "", "", "bytes"; for (i = 1; i <= nv; i++) printf " %9s", V[i]
    for (i = 1; i < nv; i++) printf " %11s", ratio == "ref" ? V[nv] "/" V[i] : V[i] "/" V[nv]
    print ""
    for (k in keys) {
        split(k, f, " "); line = sprintf("%-6s %-21s %9d", f[1], f[2], f[3])
        for (i = 1; i <= nv; i++) { m[i] = median(a[k, V[i]]); line = line sprintf(" %9.2f", m[i]) }
        for (i = 1; i < nv; i++) {
            r = ratio == "ref" ? (m[i] > 0 ? m[nv] / m[i] : 0) : (m[nv] > 0 ? m[i] / m[nv] : 0)
            line = line sprintf(" %11.2f", r)
        }
        print line
    }
}
