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
#     `margin` (default 3 %) of the fastest: noise does not move thresholds.
#  2. Thresholds, walking the sizes from the largest down: an algorithm's
#     min_bytes is the smallest size of its topmost run of wins.  One
#     algorithm has one threshold, so a win below a run of another
#     algorithm's wins is overridden (that size goes to the algorithm whose
#     range covers it; the comment lines show the cost).
#  3. The base algorithm keeps 0 (it covers everything below the others);
#     an algorithm that never wins gets 9223372036854775807 (LONG_MAX, the
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
    # 2. thresholds from the top; 3. the base keeps 0
    done[1] = 1; prev = 0
    for (i = ns; i >= 1; --i) {
        w = win[i]
        if (w == 0 || (w in done)) continue
        if (prev != 0 && prev != w) done[prev] = 1
        thr[w] = size[ord[i]]; prev = w
    }
    thr[1] = 0
    for (k = 2; k <= na; ++k) if (!(k in thr)) thr[k] = never

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
        chosen = 0
        for (k = 1; k <= na; ++k)
            if (ok[s, k] && thr[k] != never && thr[k] + 0 <= b && (chosen == 0 || thr[k] + 0 >= thr[chosen] + 0)) chosen = k
        line = sprintf("# %8s", hsize(b))
        for (k = 1; k <= na; ++k) line = line sprintf(" %*s", wd[k], ok[s, k] ? t[s, k] : "-")
        f = fastest[i]
        line = line sprintf(" %10s  %-18s %-18s %-18s %11s %12s", autot[s] == "" ? "-" : autot[s],
                            f ? alg[f] : "-", win[i] ? alg[win[i]] : "-", chosen ? alg[chosen] : "-",
                            (chosen && f) ? ratio(t[s, chosen], t[s, f]) : "-",
                            f ? ratio(autot[s], t[s, f]) : "-")
        print line
    }
    for (k = 1; k <= na; ++k) {
        why = (k == 1) ? "base algorithm: always 0" : (thr[k] == never ? "never the winner: never chosen" : "wins from " hsize(thr[k]))
        printf "# %s\ncoll_rsag_%s_%s_min_bytes = %s\n", why, coll, alg[k], thr[k]
    }
}
