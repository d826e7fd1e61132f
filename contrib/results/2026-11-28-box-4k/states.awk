# run.sh's CSV -> the same as summary.awk, but each job (pair, build,
# collective) put in the host's state it met: fast when its blocking call of
# the smallest size took less than `cut` us (default 0.45; this VM's two
# states: 0.25-0.40 and 0.50-0.80 us), and A against B within each state:
# the medians over the jobs of that state, and their ratio A / B.
# awk -F, -f ../../rsag-bench-lib.awk -f states.awk raw.csv
NR == 1 { next }
{
    form = $4; sub(/^[AB]_/, "", form)
    job = $1 SUBSEP $2 SUBSEP $3
    if (form == "blocking" && ($5 == 8 || $5 == 16)) small[job] = $6
    k = $3 SUBSEP form SUBSEP $5
    if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
    row[++nr] = job SUBSEP k SUBSEP $2 SUBSEP $6
}
END {
    if (cut == "") cut = 0.45
    for (i = 1; i <= nr; ++i) {
        split(row[i], f, SUBSEP)      # pair build coll | coll form bytes | build | time
        job = f[1] SUBSEP f[2] SUBSEP f[3]; k = f[4] SUBSEP f[5] SUBSEP f[6]
        st = (small[job] + 0 < cut) ? "fast" : "slow"
        t[st, f[7], k] = t[st, f[7], k] " " f[8]; n[st, f[7], k]++
    }
    printf "%-21s %-12s %6s | %8s %8s %6s (n A/B) | %8s %8s %6s (n A/B)\n", "coll", "form", "bytes", \
        "fast A", "fast B", "A/B", "slow A", "slow B", "A/B"
    for (i = 1; i <= nk; ++i) {
        k = keys[i]; split(k, kk, SUBSEP)
        fa = median(t["fast", "A", k]); fb = median(t["fast", "B", k])
        sa = median(t["slow", "A", k]); sb = median(t["slow", "B", k])
        printf "%-21s %-12s %6d | %8.3f %8.3f %6.2f (%d/%d) | %8.3f %8.3f %6.2f (%d/%d)\n", kk[1], kk[2], kk[3], \
            fa, fb, (fb > 0 ? fa / fb : 0), n["fast", "A", k], n["fast", "B", k], \
            sa, sb, (sb > 0 ? sa / sb : 0), n["slow", "A", k], n["slow", "B", k]
    }
}
