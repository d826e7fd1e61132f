# osu74-pairs.csv -> per benchmark and size: the medians over the rounds of
# rsag's and libnbc's "Pure Comm." times and of each round's ratio
# libnbc / rsag (> 1: rsag faster), with the smallest and largest ratio.
# awk -F, -f ../../rsag-bench-lib.awk -f osu74-summary.awk osu74-pairs.csv
NR == 1 { next }
{
    k = $3 SUBSEP $4
    if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
    pure[$2, k, $1] = $7
    if ($1 + 0 > rounds) rounds = $1 + 0
}
END {
    printf "%-26s %9s %10s %10s %8s %6s %6s\n", "bench", "bytes", "rsag_us", "libnbc_us", "ratio", "min", "max"
    for (i = 1; i <= nk; ++i) {
        k = keys[i]; split(k, kk, SUBSEP)
        tr = ""; tl = ""; q = ""; lo = ""; hi = ""
        for (r = 1; r <= rounds; ++r) {
            if (!(("rsag", k, r) in pure) || !(("libnbc", k, r) in pure)) continue
            a = pure["rsag", k, r]; b = pure["libnbc", k, r]
            tr = tr " " a; tl = tl " " b
            if (a + 0 > 0) {
                x = b / a; q = q " " x
                if (lo == "" || x < lo) lo = x
                if (hi == "" || x > hi) hi = x
            }
        }
        printf "%-26s %9d %10.2f %10.2f %8.2f %6.2f %6.2f\n", kk[1], kk[2], median(tr), median(tl), median(q), lo, hi
    }
}
