# osu-pairs.csv -> per benchmark and size: the medians over the rounds of
# A's and B's times and of each round's ratio A / B (> 1: B faster), with
# the smallest and largest ratio.
# awk -F, -f ../../rsag-bench-lib.awk -f osu-summary.awk osu-pairs.csv
NR == 1 { next }
{
    k = $3 SUBSEP $4
    if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
    t[$2, k, $1] = $5
    if ($1 + 0 > rounds) rounds = $1 + 0
}
END {
    printf "%-16s %6s %8s %8s %6s %6s %6s\n", "bench", "bytes", "A_us", "B_us", "A/B", "min", "max"
    for (i = 1; i <= nk; ++i) {
        k = keys[i]; split(k, kk, SUBSEP); la = ""; lb = ""; q = ""; lo = ""; hi = ""
        for (r = 1; r <= rounds; ++r) {
            if (!(("A", k, r) in t) || !(("B", k, r) in t)) continue
            la = la " " t["A", k, r]; lb = lb " " t["B", k, r]
            x = t["A", k, r] / t["B", k, r]; q = q " " x
            if (lo == "" || x < lo) lo = x
            if (hi == "" || x > hi) hi = x
        }
        printf "%-16s %6d %8.2f %8.2f %6.2f %6.2f %6.2f\n", kk[1], kk[2], median(la), median(lb), median(q), lo, hi
    }
}
