#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# merge.sh: medians over the repetitions of run.sh's raw files, per
# collective, size and mode, and the ratios placement / off and exact / off
# (time ratios: < 1 faster than off) -> table.txt.
#   merge.sh [DIR]     (default: this directory; run.sh --out's DIR)
here=$(cd "${1:-$(dirname "$0")}" && pwd)
merge() {   # $1 raw file, $2 column of the collective, $3 of bytes, $4 of the time, $5 title
    [ -s "$1" ] || return 0
    awk -F, -v cc="$2" -v cb="$3" -v ct="$4" -v title="$5" '
    NR == 1 { next }
    { k = $cc SUBSEP $cb; if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
      v[k, $2, ++n[k, $2]] = $ct + 0 }
    function med(k, m,    i, j, x, a, c) {
        c = n[k, m]; if (!c) return -1
        for (i = 1; i <= c; ++i) a[i] = v[k, m, i]
        for (i = 2; i <= c; ++i) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; --j) a[j + 1] = a[j]; a[j + 1] = x }
        return (c % 2) ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
    }
    function r(a, b) { return (a > 0 && b > 0) ? sprintf("%.2f", a / b) : "-" }
    END {
        printf "%s: median us over the repetitions; ratios mode / off (< 1: faster than off)\n", title
        printf "%-22s %10s %10s %10s %10s %9s %9s\n", "collective", "bytes", "off", "placement", "exact", "plc/off", "exact/off"
        for (i = 1; i <= nk; ++i) {
            split(keys[i], kk, SUBSEP)
            o = med(keys[i], "off"); p = med(keys[i], "placement"); e = med(keys[i], "exact")
            printf "%-22s %10d %10.2f %10.2f %10.2f %9s %9s\n", kk[1], kk[2], o, p, e, r(p, o), r(e, o)
        }
        print ""
    }' "$1"
}
{
    merge "$here/small-raw.csv" 4 6 7 "rsag_bench, 8 B - 4 KB (max over ranks of the median call)"
    merge "$here/rb-raw.csv" 4 6 7 "rsag_bench, 16 KB - 64 MB (max over ranks of the median call)"
    merge "$here/osu-raw.csv" 3 4 5 "OSU 5.3 (average latency)"
} | tee "$here/table.txt"
