# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-thresholds.awk: turn an rsag-only benchmark CSV (rsag-bench.sh
# --rsag-only, file <coll>-np<N>.csv) into coll_rsag_<coll>_<alg>_min_bytes
# settings for an MCA parameter file, with comments showing the measurements.
# Used by rsag-tune.sh; kept apart so that it can be tested on synthetic CSVs.
#
#   awk -F, -v coll=allreduce [-v margin=0.03] -f rsag-thresholds.awk FILE.csv
#
# Input columns used (by header name): bytes, rsag_<alg>_us, rsag_<alg>_ran
# for every algorithm in the order of rsag's enum (the first one is the
# always-applicable base: recursive_doubling, binomial or recursive_halving),
# and rsag_auto_us if present.
#
# Rules (rsag's selector: `auto` picks the applicable algorithm with the
# largest min_bytes <= the message bytes):
#  1. Per size, ascending, the candidates are the algorithms that really ran
#     at that size (rsag_<alg>_ran = <alg>: restrictions met).  The winner is
#     the fastest candidate, except that the previous size's winner (the base
#     algorithm before the first size) stays winner while it is within
#     `margin` of the fastest.  This is the "winner" column of the comments
#     only; the thresholds come from rule 2.
#  2. Thresholds: every combination is tried -- the base algorithm at 0,
#     each other algorithm that ran at some size either off or starting at one of the measured
#     sizes (no two at the same size) -- and simulated with the selector's
#     rule at every measured size.  The combination kept has the smallest
#     worst slowdown (time of the algorithm it picks / time of the fastest
#     algorithm at that size; a slowdown within `margin`, default 3 %,
#     counts as none: noise does not move thresholds), then the smallest
#     sum of log slowdowns, then the fewest algorithms,
#     then (same choices at every measured size) the later starts.
#     One algorithm has one threshold, so an isolated win may be given up
#     when taking it would cost more elsewhere (the comment lines show what
#     each size costs).
#  3. The base algorithm keeps 0 (it covers everything below the others);
#     an algorithm left off gets 9223372036854775807 (LONG_MAX, the
#     largest value of these long parameters; a larger number would wrap to
#     -1, "class default"), so `auto` never picks it.
# Output: comment lines (one per size: every algorithm's time, fastest,
# winner, the choice of the new thresholds, its time / the fastest time, and
# auto's under the thresholds of the run), then one line per algorithm:
#   coll_rsag_<coll>_<alg>_min_bytes = N
# Exit status 1 with a message on stderr if the CSV lacks the columns.

function hsize(b) {
    if (b >= 1048576 && b % 1048576 == 0) return (b / 1048576) "M"
    if (b >= 1024 && b % 1024 == 0) return (b / 1024) "K"
    return b
}
function ratio(a, b) { return (a == "" || b == "" || b <= 0) ? "-" : sprintf("%.2f", a / b) }
# The algorithm auto picks at the i-th smallest size under thr[]: the one
# that ran there with the largest threshold <= the size (0: none).
function pick(i,    s, b, k, c) {
    s = ord[i]; b = size[s]; c = 0
    for (k = 1; k <= na; ++k)
        if (ok[s, k] && thr[k] != never && thr[k] + 0 <= b && (c == 0 || thr[k] + 0 >= thr[c] + 0)) c = k
    return c
}
# No two algorithms of opt[] start at the same size.
function distinct_options(    j, k) {
    for (j = 2; j <= na; ++j) for (k = j + 1; k <= na; ++k) if (opt[j] && opt[j] == opt[k]) return 0
    return 1
}
# worst, sumlog, used of thr[]; 0 when some size is left to no algorithm.
function score(    i, c, r, f) {
    worst = 1; sumlog = 0; used = 0
    for (k = 2; k <= na; ++k) used += (thr[k] != never)
    for (i = 1; i <= ns; ++i) {
        f = fastest[i]
        if (f == 0) continue
        c = pick(i)
        if (c == 0) return 0
        r = (t[ord[i], c] + 0) / (t[ord[i], f] + 0)
        if (r <= 1 + margin) continue           # noise: no slowdown
        sumlog += log(r)
        if (r > worst) worst = r
    }
    return 1
}
function better(    eps) {
    eps = 1e-9
    if (worst < bworst - eps) return 1
    if (worst > bworst + eps) return 0
    if (sumlog < bsum - eps) return 1
    if (sumlog > bsum + eps) return 0
    if (used != bused) return used < bused
    return optsum() > bsumopt     # equal in effect: the later starts
}
function optsum(    k, x) { x = 0; for (k = 2; k <= na; ++k) x += opt[k]; return x }

BEGIN {
    FS = ","
    if (margin == "") margin = 0.03
    never = "9223372036854775807"
    if (coll == "") { print "rsag-thresholds.awk: -v coll=COLL missing" > "/dev/stderr"; bad = 1; exit 1 }
}
NR == 1 {
    for (i = 1; i <= NF; ++i) {
        col[$i] = i
        if ($i ~ /^rsag_.*_us$/ && $i != "rsag_auto_us") {
            a = $i; sub(/^rsag_/, "", a); sub(/_us$/, "", a)
            alg[++na] = a
        }
    }
    if (!("bytes" in col) || na == 0) {
        print "rsag-thresholds.awk: " FILENAME ": no bytes / rsag_<alg>_us columns (an rsag-bench.sh CSV?)" > "/dev/stderr"
        bad = 1; exit 1
    }
    for (k = 1; k <= na; ++k) if (!(("rsag_" alg[k] "_ran") in col)) {
        print "rsag-thresholds.awk: " FILENAME ": column rsag_" alg[k] "_ran missing" > "/dev/stderr"
        bad = 1; exit 1
    }
    next
}
NF > 1 {
    ns++
    size[ns] = $col["bytes"] + 0
    for (k = 1; k <= na; ++k) {
        t[ns, k] = $col["rsag_" alg[k] "_us"]
        ok[ns, k] = (t[ns, k] != "" && $col["rsag_" alg[k] "_ran"] == alg[k])
    }
    autot[ns] = ("rsag_auto_us" in col) ? $col["rsag_auto_us"] : ""
}
END {
    if (bad) exit 1
    if (ns == 0) { print "rsag-thresholds.awk: " FILENAME ": no data rows" > "/dev/stderr"; exit 1 }
    # sizes ascending (insertion sort of the row order)
    for (s = 1; s <= ns; ++s) ord[s] = s
    for (i = 2; i <= ns; ++i) {
        x = ord[i]
        for (j = i - 1; j >= 1 && size[ord[j]] > size[x]; --j) ord[j + 1] = ord[j]
        ord[j + 1] = x
    }
    # 1. winners, with the noise margin
    cur = 1
    for (i = 1; i <= ns; ++i) {
        s = ord[i]; best = 0
        for (k = 1; k <= na; ++k) if (ok[s, k] && (best == 0 || t[s, k] + 0 < t[s, best] + 0)) best = k
        fastest[i] = best
        if (best == 0) { win[i] = 0; continue }
        if (ok[s, cur] && t[s, cur] + 0 <= (t[s, best] + 0) * (1 + margin)) win[i] = cur
        else win[i] = cur = best
    }
    # 2. every combination of thresholds (an odometer over the options of
    # algorithms 2..na: 0 = off, j = from the j-th smallest size); 3. the
    # base keeps 0
    # an algorithm that ran at no size stays off (it can be picked at none:
    # leaving it out of the odometer changes no result, only the time)
    for (k = 2; k <= na; ++k) {
        opt[k] = 0; runs[k] = 0
        for (s = 1; s <= ns; ++s) if (ok[s, k]) runs[k] = 1
    }
    have = 0
    while (1) {
        if (distinct_options()) {
            for (k = 2; k <= na; ++k) thr[k] = opt[k] ? size[ord[opt[k]]] : never
            thr[1] = 0
            if (score() && (!have || better())) {
                have = 1; bworst = worst; bsum = sumlog; bused = used; bsumopt = optsum()
                for (k = 2; k <= na; ++k) bopt[k] = opt[k]
            }
        }
        for (k = 2; k <= na && (opt[k] == ns || !runs[k]); ++k) opt[k] = 0
        if (k > na) break
        opt[k]++
    }
    if (!have) { print "rsag-thresholds.awk: " FILENAME ": no thresholds cover every size" > "/dev/stderr"; exit 1 }
    thr[1] = 0
    for (k = 2; k <= na; ++k) thr[k] = bopt[k] ? size[ord[bopt[k]]] : never

    # comments: the measurements and what the new thresholds choose
    printf "# %s: times in microseconds (median over reps of the max over ranks of the\n", coll
    printf "# per-rank median), margin %d %%; new = choice of the thresholds below,\n", margin * 100 + 0.5
    printf "# new/fastest and auto/fastest = time ratios (auto: thresholds of the run)\n"
    h = sprintf("# %8s", "bytes")
    for (k = 1; k <= na; ++k) { wd[k] = length(alg[k]) < 8 ? 8 : length(alg[k]); h = h sprintf(" %*s", wd[k], alg[k]) }
    h = h sprintf(" %10s  %-18s %-18s %-18s %11s %12s", "auto", "fastest", "winner", "new", "new/fastest", "auto/fastest")
    print h
    for (i = 1; i <= ns; ++i) {
        s = ord[i]; b = size[s]
        chosen = pick(i)
        line = sprintf("# %8s", hsize(b))
        for (k = 1; k <= na; ++k) line = line sprintf(" %*s", wd[k], ok[s, k] ? t[s, k] : "-")
        f = fastest[i]
        line = line sprintf(" %10s  %-18s %-18s %-18s %11s %12s", autot[s] == "" ? "-" : autot[s],
                            f ? alg[f] : "-", win[i] ? alg[win[i]] : "-", chosen ? alg[chosen] : "-",
                            (chosen && f) ? ratio(t[s, chosen], t[s, f]) : "-",
                            f ? ratio(autot[s], t[s, f]) : "-")
        print line
        if (chosen && f && (t[s, chosen] + 0) / (t[s, f] + 0) > wr) { wr = (t[s, chosen] + 0) / (t[s, f] + 0); wb = b }
    }
    if (wr > 1 + margin) printf "# these thresholds: worst slowdown %.2f, at %s (no choice of thresholds does better)\n", wr, hsize(wb)
    else printf "# these thresholds: the fastest algorithm (within %d %%) at every size\n", margin * 100 + 0.5
    for (k = 1; k <= na; ++k) {
        why = (k == 1) ? "base algorithm: always 0" : (thr[k] == never ? "off: never the better choice" : "from " hsize(thr[k]))
        printf "# %s\ncoll_rsag_%s_%s_min_bytes = %s\n", why, coll, alg[k], thr[k]
    }
}
