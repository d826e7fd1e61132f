# run.sh's CSV -> per collective, form and size: the medians over the pairs
# of A's and B's times and of each pair's ratio A / B (> 1: B faster), with
# the quartiles of the ratio.
# awk -F, -f ../../rsag-bench-lib.awk -f summary.awk raw.csv
function q(list, f,    a, n, i) { n = split(list, a, " "); sort_numeric(a, n); i = int(f * (n - 1) + 1.5); return a[i < 1 ? 1 : i > n ? n : i] }
NR == 1 { next }
{
    form = $4; sub(/^[AB]_/, "", form)
    k = $3 SUBSEP form SUBSEP $5
    if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
    t[$2, k, $1] = $6
    if ($1 + 0 > pairs) pairs = $1 + 0
}
END {
    printf "%-21s %-12s %6s %8s %8s %6s %6s %6s\n", "coll", "form", "bytes", "A_us", "B_us", "A/B", "q1", "q3"
    for (i = 1; i <= nk; ++i) {
        k = keys[i]; split(k, kk, SUBSEP); la = ""; lb = ""; r = ""
        for (p = 1; p <= pairs; ++p) {
            if (!(("A", k, p) in t) || !(("B", k, p) in t)) continue
            la = la " " t["A", k, p]; lb = lb " " t["B", k, p]
            if (t["B", k, p] + 0 > 0) r = r " " t["A", k, p] / t["B", k, p]
        }
        printf "%-21s %-12s %6d %8.3f %8.3f %6.2f %6.2f %6.2f\n", kk[1], kk[2], kk[3], median(la), median(lb), median(r), q(r, 0.25), q(r, 0.75)
    }
}
