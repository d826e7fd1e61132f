# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-cluster-bench.awk: the merge of contrib/rsag-cluster-bench.sh (mawk is
# fine).  Input: raw.csv (placement,rep,job,label,coll,np,bytes,time_us,ran,
# verified).  Per placement, collective, size and job: median, min and max
# over the repetitions -> csv (results.csv) and outdir/plot-<placement>-<coll>.csv
# (medians, one column per job, for gnuplot); the table on stdout.
# Checks, each listed and making the exit status 1: a result not verified
# "ok"; a rsag_auto or rsag_<name> (forced) row where rsag's counters did
# not move (ran "-": rsag not loaded, "none": it did not do the call); any other job's row where rsag
# was loaded (ran not "-").  A forced row where rsag ran another algorithm
# (the forced one's restrictions unmet at that size) is listed, not
# counted.  With forced rsag jobs, a second table per
# placement and collective: each of them against the best of every other job.
NR == 1 { next }
NF < 10 { bad[++nbad] = "short row " NR ": " $0; next }
{
    pl = $1; job = $3; coll = $5; b = $7 + 0; t = $8; ran = $9
    if ($10 != "ok") bad[++nbad] = pl " " coll " " job " " b " B rep " $2 ": verified " $10
    if (job == "rsag_auto" && (ran == "-" || ran == "none"))
        bad[++nbad] = pl " " coll " " b " B rep " $2 ": rsag did not run in rsag_auto (ran " ran ")"
    if (job ~ /^rsag_/ && job != "rsag_auto" && ran != substr(job, 6)) {
        # forced, but its restrictions unmet at this size (rsag fell back):
        # not a measurement of it, left out of its table with a note
        if (ran == "-" || ran == "none") bad[++nbad] = pl " " coll " " b " B rep " $2 ": " job " ran " ran
        else if (!((pl, coll, job, b) in fellnote)) { fellnote[pl, coll, job, b] = 1; fell[++nfell] = pl " " coll " " b " B: " job " fell back to " ran }
        next
    }
    if (job !~ /^rsag_/ && ran != "-")
        bad[++nbad] = pl " " coll " " job " " b " B rep " $2 ": rsag was loaded (ran " ran ")"
    if (t !~ /^[0-9.]+$/) next
    g = pl SUBSEP coll
    if (!(g in gseen)) { gseen[g] = 1; groups[++ng] = g }
    if (!((g, job) in jseen)) { jseen[g, job] = 1; jobs[g, ++nj[g]] = job }
    if (!((g, b) in bseen)) { bseen[g, b] = 1; sizes[g, ++nb[g]] = b }
    k = g SUBSEP job SUBSEP b
    v[k, ++n[k]] = t + 0
    if (job == "rsag_auto") algs[k] = algs[k] (index("/" algs[k] "/", "/" ran "/") ? "" : (algs[k] == "" ? "" : "/") ran)
}
function stats(k,    i, j, x, m, a) {   # sets MED, MIN, MAX of v[k, 1..n[k]]
    m = n[k]
    for (i = 1; i <= m; ++i) a[i] = v[k, i]
    for (i = 2; i <= m; ++i) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; --j) a[j + 1] = a[j]; a[j + 1] = x }
    MIN = a[1]; MAX = a[m]
    MED = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
}
function cell(k) { if (!(k in n)) return "-"; stats(k); return sprintf("%.1f [%.1f-%.1f]", MED, MIN, MAX) }
function med(k) { if (!(k in n)) return -1; stats(k); return MED }
# The forced rsag jobs of group g against the best other job (rsag's
# auto and other forced ones, tuned's default and forced, han) per size.
function forced_table(g, pc,    i, c, k2, b, j, t, bt, best, head) {
    for (i = 1; i <= nb[g]; ++i) {
        b = s[i]
        for (c = 1; c <= ncol; ++c) {
            j = col[c]
            if (j !~ /^rsag_/ || j == "rsag_auto") continue
            if (!head++) printf "%s, %s: rsag's algorithms forced; ratio best other / forced (> 1: forced faster)\n%10s  %-28s %-28s %-40s %9s\n", pc[1], pc[2], "bytes", "forced", "time", "best other job", "ratio"
            best = ""; bt = -1
            for (k2 = 1; k2 <= ncol; ++k2) {
                if (col[k2] == j) continue
                t = med(g SUBSEP col[k2] SUBSEP b)
                if (t > 0 && (bt < 0 || t < bt)) { bt = t; best = col[k2] }
            }
            printf "%10d  %-28s %-28s %-40s %9s\n", b, j, cell(g SUBSEP j SUBSEP b),
                (best == "" ? "-" : best " " cell(g SUBSEP best SUBSEP b)), ratio(bt, med(g SUBSEP j SUBSEP b))
        }
    }
}
function ratio(a, b) { return (a > 0 && b > 0) ? sprintf("%.2f", a / b) : "-" }
END {
    print "placement,coll,bytes,job,n,median_us,min_us,max_us" > csv
    for (gi = 1; gi <= ng; ++gi) {
        g = groups[gi]; split(g, pc, SUBSEP)
        # sizes in increasing order
        for (i = 1; i <= nb[g]; ++i) s[i] = sizes[g, i]
        for (i = 2; i <= nb[g]; ++i) { x = s[i]; for (j = i - 1; j >= 1 && s[j] > x; --j) s[j + 1] = s[j]; s[j + 1] = x }
        # the plot's columns: rsag_auto, tuned_default, han, then the others
        ncol = 0
        for (o = 1; o <= 3; ++o)
            for (i = 1; i <= nj[g]; ++i) {
                j = jobs[g, i]
                if ((o == 1 && j == "rsag_auto") || (o == 2 && j == "tuned_default") || (o == 3 && j == "han")) col[++ncol] = j
            }
        for (i = 1; i <= nj[g]; ++i) {
            j = jobs[g, i]
            if (j != "rsag_auto" && j != "tuned_default" && j != "han") col[++ncol] = j
        }
        plot = outdir "/plot-" pc[1] "-" pc[2] ".csv"
        line = "bytes"; for (c = 1; c <= ncol; ++c) line = line "," col[c]
        print line > plot
        printf "\n%s, %s: time in us, median [min-max] over the repetitions; ratios > 1: rsag faster\n", pc[1], pc[2]
        printf "%10s  %-28s %-28s %-40s %-28s %9s %9s %8s  %s\n", "bytes", "rsag_auto", "tuned_default",
            "best tuned (of the default and forced)", "han", "best/rsag", "tdef/rsag", "han/rsag", "rsag ran"
        for (i = 1; i <= nb[g]; ++i) {
            b = s[i]; line = b
            for (c = 1; c <= ncol; ++c) {
                k = g SUBSEP col[c] SUBSEP b
                if (k in n) { stats(k); printf "%s,%s,%d,%s,%d,%.3f,%.3f,%.3f\n", pc[1], pc[2], b, col[c], n[k], MED, MIN, MAX > csv; line = line "," MED }
                else line = line ",NaN"
            }
            print line > plot
            best = ""; bt = -1
            for (c = 1; c <= ncol; ++c) {
                if (col[c] !~ /^tuned_/) continue
                t = med(g SUBSEP col[c] SUBSEP b)
                if (t > 0 && (bt < 0 || t < bt)) { bt = t; best = col[c] }
            }
            r = med(g SUBSEP "rsag_auto" SUBSEP b)
            printf "%10d  %-28s %-28s %-40s %-28s %9s %9s %8s  %s\n", b,
                cell(g SUBSEP "rsag_auto" SUBSEP b), cell(g SUBSEP "tuned_default" SUBSEP b),
                (best == "" ? "-" : best " " cell(g SUBSEP best SUBSEP b)), cell(g SUBSEP "han" SUBSEP b),
                ratio(bt, r), ratio(med(g SUBSEP "tuned_default" SUBSEP b), r), ratio(med(g SUBSEP "han" SUBSEP b), r),
                algs[g SUBSEP "rsag_auto" SUBSEP b]
        }
        forced_table(g, pc)
        close(plot)
        delete s; delete col
    }
    if (nfell) {
        printf "\nforced, but its restrictions were unmet at this size (rsag fell back; not in the tables):\n"
        for (i = 1; i <= nfell; ++i) print "  " fell[i]
    }
    if (nbad) {
        printf "\n%d problem(s):\n", nbad
        for (i = 1; i <= nbad; ++i) print "  " bad[i]
        exit 1
    }
    print "\nchecks: every result verified; rsag ran in every rsag_auto and rsag_<name> call (the forced algorithm, or the fallback listed above) and was not loaded in any other job"
}
