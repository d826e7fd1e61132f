# states.awk raw.csv: summary.awk's "best/rsag" split by the host's state
# in each job, judged by rsag's own time at the job's smallest size (below
# CUT microseconds, default 0.5: the fast state, where the two vCPUs' cache
# line hand-off is ~130 ns; above: the slow one, ~500 ns).
function median(s,    n, v, i, j, x) {
    n = split(s, v, " "); for (i = 2; i <= n; ++i) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; --j) v[j + 1] = v[j]; v[j + 1] = x }
    return n == 0 ? "" : (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2)
}
BEGIN { FS = ","; if (cut == "") cut = 0.5 }
NR > 1 {
    j = $1 SUBSEP $2 SUBSEP $4
    if ($3 == "rsag_auto") { ra[j, $6] = $7; if (!(j in small) || $6 + 0 < small[j]) { small[j] = $6 + 0; st[j] = ($7 < cut) ? "fast" : "slow" } }
    else tu[j, $6] = $7
    if (!(($4, $6) in seen)) { seen[$4, $6] = 1; order[++n] = $4 SUBSEP $6 }
}
END {
    for (k in ra) if (k in tu) { split(k, f, SUBSEP); j = f[1] SUBSEP f[2] SUBSEP f[3]; s = st[j]
        r[s, f[3], f[4], f[2]] = r[s, f[3], f[4], f[2]] " " tu[k] / ra[k]; al[f[3], f[4]] = al[f[3], f[4]] " " f[2]; cnt[s, f[3]]++ }
    printf "%-22s %6s %10s %10s\n", "coll", "bytes", "best_fast", "best_slow"
    for (i = 1; i <= n; ++i) {
        split(order[i], f, SUBSEP); c = f[1]; b = f[2]
        m = split(al[c, b], as, " ")
        for (q = 1; q <= 2; ++q) { s = (q == 1) ? "fast" : "slow"; best[s] = ""
            for (x = 1; x <= m; ++x) { v = median(r[s, c, b, as[x]]); if (v != "" && (best[s] == "" || v < best[s])) best[s] = v } }
        printf "%-22s %6d %10s %10s\n", c, b, best["fast"] == "" ? "-" : sprintf("%.2f", best["fast"]), best["slow"] == "" ? "-" : sprintf("%.2f", best["slow"])
    }
}
