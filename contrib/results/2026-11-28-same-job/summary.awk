# summary.awk raw.csv: per collective and size, the median over the jobs of
# each job's ratio tuned_<a>/rsag_auto (time_us, both in the same job): for
# tuned's default (a = 0), and for tuned's best algorithm, the one whose
# median ratio is smallest (> 1: rsag faster than every tuned algorithm).
function median(s,    n, v, i, j, x) {
    n = split(s, v, " "); for (i = 2; i <= n; ++i) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; --j) v[j + 1] = v[j]; v[j + 1] = x }
    return n == 0 ? "" : (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2)
}
BEGIN { FS = "," }
NR > 1 {
    k = $1 SUBSEP $2 SUBSEP $4 SUBSEP $6
    if ($3 == "rsag_auto") { ra[k] = $7; ranr[$4, $6] = $11 } else { tu[k] = $7; if ($11 != "none") leak = leak " " $4 "/" $6 "/" $2 }
    if (!(($4, $6) in seen)) { seen[$4, $6] = 1; order[++n] = $4 SUBSEP $6 }
    if (!(($4, $6, $2) in sa)) { sa[$4, $6, $2] = 1; al[$4, $6] = al[$4, $6] " " $2 }
    if ($12 != "ok") bad = bad " " $3 "/" $4 "/" $6
}
END {
    for (k in ra) if (k in tu) { split(k, f, SUBSEP); rat[f[3], f[4], f[2]] = rat[f[3], f[4], f[2]] " " tu[k] / ra[k]; rs[f[3], f[4]] = rs[f[3], f[4]] " " ra[k] }
    printf "%-22s %6s %9s %9s %10s %9s %s\n", "coll", "bytes", "rsag_us", "tdef/rsag", "best/rsag", "best_alg", "rsag_ran"
    for (i = 1; i <= n; ++i) {
        split(order[i], f, SUBSEP); c = f[1]; b = f[2]
        best = ""; ba = ""
        m = split(al[c, b], as, " ")
        for (j = 1; j <= m; ++j) { x = median(rat[c, b, as[j]]); if (best == "" || x < best) { best = x; ba = as[j] } }
        printf "%-22s %6d %9.3f %9.2f %10.2f %9s %s\n", c, b, median(rs[c, b]), median(rat[c, b, 0]), best, ba, ranr[c, b]
    }
    if (leak != "") print "WARNING: rsag counters moved in tuned's variant:" leak
    if (bad != "") print "VERIFY FAILED:" bad
}
