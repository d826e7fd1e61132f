# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-bench-lib.awk: the functions the merge steps of rsag-bench.sh use
# (rsag-bench-merge.awk, rsag-nbbench-merge.awk, rsag-bench-ext-merge.awk);
# given first: awk -f rsag-bench-lib.awk -f rsag-bench-merge.awk ...
function sort_numeric(a, n,    i, j, x) {    # a[1..n] ascending (insertion sort)
    for (i = 2; i <= n; ++i) {
        x = a[i] + 0
        for (j = i - 1; j >= 1 && a[j] + 0 > x; --j) a[j + 1] = a[j]
        a[j + 1] = x
    }
}
function median(list,    a, n) {
    n = split(list, a, " ")
    if (n == 0) return ""
    sort_numeric(a, n)
    return (n % 2) ? a[(n + 1) / 2] + 0 : (a[n / 2] + a[n / 2 + 1]) / 2
}
# The same-job ratio: t[label, size, rep] the times of one raw CSV; the
# median over the repetitions 1..nrep of time(num) / time(den) within each
# repetition's job at size b, "%.2f"; "" when no repetition has both.
function same_job(t, num, den, b, nrep,    r, v, n) {
    v = ""; n = 0
    for (r = 1; r <= nrep; ++r) {
        if ((num, b, r) in t && (den, b, r) in t && t[den, b, r] + 0 > 0) {
            v = v " " t[num, b, r] / t[den, b, r]; ++n
        }
    }
    return n ? sprintf("%.2f", median(v)) : ""
}
function fmt(x) {
    if (x == "") return "-"
    if (x >= 1000) return sprintf("%.0f", x)
    if (x >= 10) return sprintf("%.1f", x)
    return sprintf("%.2f", x)
}
function hsize(b) {
    if (b >= 1048576 && b % 1048576 == 0) return (b / 1048576) "M"
    if (b >= 1024 && b % 1024 == 0) return (b / 1024) "K"
    return b
}
