# A CSV of launch pairs (round,variant,bench,bytes,... one time column) ->
# per benchmark and size: the medians over the rounds of the two variants'
# times and of each round's ratio num / den (> 1: den faster), with the
# smallest and largest ratio.  -v num=, den= (the variants; default libnbc,
# rsag), col= (the time's column; default 7, osu74-pairs.csv's pure time).
# awk -F, -f ../../rsag-bench-lib.awk -f osu74-summary.awk osu74-pairs.csv
# (also the box-4k run's osu-pairs.csv: -v num=A -v den=B -v col=5)
BEGIN { if (num == "") num = "libnbc"; if (den == "") den = "rsag"; if (col == "") col = 7 }
NR == 1 { next }
{
    k = $3 SUBSEP $4
    if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
    t[$2, k, $1] = $col
    if ($1 + 0 > rounds) rounds = $1 + 0
}
END {
    printf "%-26s %9s %10s %10s %8s %6s %6s\n", "bench", "bytes", den "_us", num "_us", "ratio", "min", "max"
    for (i = 1; i <= nk; ++i) {
        k = keys[i]; split(k, kk, SUBSEP)
        td = ""; tn = ""; q = ""; lo = ""; hi = ""
        for (r = 1; r <= rounds; ++r) {
            if (!((den, k, r) in t) || !((num, k, r) in t)) continue
            a = t[den, k, r]; b = t[num, k, r]
            td = td " " a; tn = tn " " b
            if (a + 0 > 0) {
                x = b / a; q = q " " x
                if (lo == "" || x < lo) lo = x
                if (hi == "" || x > hi) hi = x
            }
        }
        printf "%-26s %9d %10.2f %10.2f %8.2f %6.2f %6.2f\n", kk[1], kk[2], median(td), median(tn), median(q), lo, hi
    }
}
