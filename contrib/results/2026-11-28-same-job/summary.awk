# summary.awk, after the merge steps' functions (median):
#   awk -f ../../rsag-bench-lib.awk -f summary.awk raw.csv
# Per collective and size, the median over the jobs of each job's own ratio
# tuned_<a>/rsag_auto (time_us, both in the same job): for tuned's default
# (a = 0), and for tuned's best algorithm, the one whose median ratio is
# smallest (> 1: rsag faster than every tuned algorithm); then the best
# again over the jobs of each of the host's states, judged by rsag's own
# time at the job's smallest size (below CUT microseconds, -v cut=, default
# 0.5: the fast state, a cache line's hand-off between the two vCPUs ~130 ns;
# above: the slow one, ~500 ns).
BEGIN { FS = ","; if (cut == "") cut = 0.5 }
NR > 1 {
    j = $1 SUBSEP $2 SUBSEP $4                  # the job: round, tuned algorithm, coll
    if ($3 == "rsag_auto") {
        ra[j, $6] = $7; ranr[$4, $6] = $11
        if (!(j in small) || $6 + 0 < small[j]) { small[j] = $6 + 0; st[j] = ($7 < cut) ? "fast" : "slow" }
    } else {
        tu[j, $6] = $7
        if ($11 != "none") leak = leak " " $4 "/" $6 "/" $2
    }
    if (!(($4, $6) in seen)) { seen[$4, $6] = 1; order[++n] = $4 SUBSEP $6 }
    if (!(($4, $6, $2) in sa)) { sa[$4, $6, $2] = 1; al[$4, $6] = al[$4, $6] " " $2 }
    if ($12 != "ok") bad = bad " " $3 "/" $4 "/" $6
}
# the smallest median ratio over the tuned algorithms of (c, b), over the
# jobs of state s ("all": every job); its algorithm in best_alg
function best(s, c, b,    m, as, x, v, r) {
    r = ""; best_alg = ""
    m = split(al[c, b], as, " ")
    for (x = 1; x <= m; ++x) {
        v = median(rat[s, c, b, as[x]])
        if (v != "" && (r == "" || v < r)) { r = v; best_alg = as[x] }
    }
    return r
}
function cell(x) { return x == "" ? "-" : sprintf("%.2f", x) }
END {
    for (k in ra) if (k in tu) {
        split(k, f, SUBSEP); j = f[1] SUBSEP f[2] SUBSEP f[3]; x = tu[k] / ra[k]
        rat["all", f[3], f[4], f[2]] = rat["all", f[3], f[4], f[2]] " " x
        rat[st[j], f[3], f[4], f[2]] = rat[st[j], f[3], f[4], f[2]] " " x
        rs[f[3], f[4]] = rs[f[3], f[4]] " " ra[k]
    }
    printf "%-22s %6s %9s %9s %10s %9s %10s %10s %s\n", "coll", "bytes", "rsag_us", "tdef/rsag",
        "best/rsag", "best_alg", "best_fast", "best_slow", "rsag_ran"
    for (i = 1; i <= n; ++i) {
        split(order[i], f, SUBSEP); c = f[1]; b = f[2]
        all = best("all", c, b); ba = best_alg
        printf "%-22s %6d %9.3f %9.2f %10.2f %9s %10s %10s %s\n", c, b, median(rs[c, b]),
            median(rat["all", c, b, 0]), all, ba, cell(best("fast", c, b)), cell(best("slow", c, b)), ranr[c, b]
    }
    if (leak != "") print "WARNING: rsag counters moved in tuned's variant:" leak
    if (bad != "") print "VERIFY FAILED:" bad
}
