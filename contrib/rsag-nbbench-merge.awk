# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-nbbench-merge.awk: the merge step of rsag-bench.sh --nonblocking.
# Reads the raw CSV (rep,job,label,coll,np,bytes,time_us,memcpy_us,
# busbw_GBps,iters,ran,verified,oversubscribed,osu_us,form,compute_us,
# overlap_pct,tests), takes the median over repetitions of every
# (label, size), writes the wide CSV (file csv: bytes, the times, memcpy_us,
# then overlaps and ratios) and prints the tables and the nonblocking targets
# (met / MISSED) on stdout.
# Labels: rsag_<form> (rsag's job), libnbc_<form> (--mca coll ^rsag:
# blocking is coll/tuned's, the others libnbc's), samejob_<form> (rsag's
# job, rsag_bench --previous: the same calls on a communicator whose info
# keeps rsag's reductions off, interleaved with rsag's; their ratios to
# rsag's are taken job by job, then the median over the repetitions).
# Variables (-v): coll, np, oversub, ncores, csv, not_quiet, disturbed,
# target_nb (Iallreduce+Wait / rsag blocking, at most; 1.1),
# target_overlap (%, from target_from bytes; 80), target_pers (blocking /
# persistent, at least; 1.0), target_pers_small (the same at the smallest
# size; 1.3), target_libnbc (libnbc I* / rsag I*, at least, from
# target_from; 1.5), target_from (bytes; 1048576).
function ratio(a, b) { return (a == "" || b == "" || b <= 0) ? "" : sprintf("%.2f", a / b) }
function pct(x) { return x == "" ? "-" : sprintf("%.0f", x) }
# one target check: value v against limit lim ("le" or "ge"), counted in
# the summary of target name
function check(name, v, lim, how, size,    ok) {
    if (v == "") return "-"
    ok = (how == "le") ? (v + 0 <= lim + 0) : (v + 0 >= lim + 0)
    nchk[name]++
    if (!ok) { nmiss[name]++; missed[name] = missed[name] " " hsize(size) "=" v }
    if (worst[name] == "" || (how == "le" ? v + 0 > worst[name] + 0 : v + 0 < worst[name] + 0)) {
        worst[name] = v; worst_at[name] = size
    }
    return ok ? "met" : "MISSED"
}
NR == 1 { next }
{
    key = $3 SUBSEP $6
    t[key] = t[key] " " $7
    if ($17 != "") ov[key] = ov[key] " " $17
    if ($16 != "") cp[key] = cp[key] " " $16
    if ($18 != "") ts[key] = ts[key] " " $18
    if (!(($6) in seen)) { seen[$6] = 1; sizes[++ns] = $6 + 0 }
    mc[$6] = mc[$6] " " $8
    if ($1 + 0 > maxrep) maxrep = $1 + 0
    if ($12 != "ok") { bad[key] = 1; nbad++ }
    tr[$3, $6, $1] = $7
}
END {
    if (target_nb == "") target_nb = 1.1
    if (target_overlap == "") target_overlap = 80
    if (target_pers == "") target_pers = 1.0
    if (target_pers_small == "") target_pers_small = 1.3
    if (target_libnbc == "") target_libnbc = 1.5
    if (target_from == "") target_from = 1048576
    sort_numeric(sizes, ns)             # sizes ascending
    nl = split("rsag_blocking rsag_nonblocking rsag_persistent libnbc_blocking libnbc_nonblocking libnbc_persistent", tl, " ")
    split("rsag_overlap rsag_overlap_test libnbc_overlap libnbc_overlap_test", ol, " ")
    for (i = 1; i <= ns; ++i) {
        b = sizes[i]
        for (k = 1; k <= nl; ++k) T[tl[k], b] = median(t[tl[k] SUBSEP b])
        for (k = 1; k <= 4; ++k) {
            OV[ol[k], b] = median(ov[ol[k] SUBSEP b])
            OT[ol[k], b] = median(t[ol[k] SUBSEP b])
            CP[ol[k], b] = median(cp[ol[k] SUBSEP b])
            TS[ol[k], b] = median(ts[ol[k] SUBSEP b])
        }
        MC[b] = median(mc[b])
    }

    printf "%s, np %d%s, %d repetition(s); times in us: max over ranks of the per-rank median, median over repetitions\n", \
        coll, np, (oversub == "yes" ? " (OVERSUBSCRIBED on " ncores " cores: noisy)" : " (not oversubscribed, " ncores " cores)"), maxrep
    if (not_quiet + 0 > 0 || disturbed + 0 > 0)
        printf "WARNING: %d start(s) on a busy machine, %d job(s) disturbed (see the log)\n", not_quiet, disturbed
    printf "rsag: rsag's job; tuned: blocking call with --mca coll ^rsag (coll/tuned); libnbc: the same job's I*/persistent calls\n"
    printf "I*+W: MPI_I%s + MPI_Wait; S+W: MPI_Start + MPI_Wait of a persistent request made once per size\n\n", coll
    printf "%-6s %10s %10s %10s %10s %10s %10s %9s\n", "bytes", "rsag blk", "rsag I*+W", "rsag S+W", \
        "tuned blk", "libnbc I*+W", "libnbc S+W", "memcpy"
    for (i = 1; i <= ns; ++i) {
        b = sizes[i]
        printf "%-6s %10s %10s %10s %10s %10s %10s %9s\n", hsize(b), fmt(T["rsag_blocking", b]), \
            fmt(T["rsag_nonblocking", b]), fmt(T["rsag_persistent", b]), fmt(T["libnbc_blocking", b]), \
            fmt(T["libnbc_nonblocking", b]), fmt(T["libnbc_persistent", b]), fmt(MC[b])
    }

    printf "\noverlap %% = 100 * (1 - (total - compute) / pure), compute loop = the pure I*+W time (OSU's method);\n"
    printf "no test: nothing between I* and Wait but the compute; test: MPI_Test every test interval in it\n\n"
    printf "%-6s %12s %12s %8s %12s %12s %10s\n", "bytes", "rsag no test", "rsag test", "(tests)", \
        "libnbc no test", "libnbc test", "compute us"
    for (i = 1; i <= ns; ++i) {
        b = sizes[i]
        printf "%-6s %12s %12s %8s %12s %12s %10s\n", hsize(b), pct(OV["rsag_overlap", b]), \
            pct(OV["rsag_overlap_test", b]), (TS["rsag_overlap_test", b] == "" ? "-" : TS["rsag_overlap_test", b]), \
            pct(OV["libnbc_overlap", b]), pct(OV["libnbc_overlap_test", b]), fmt(CP["rsag_overlap", b])
    }

    printf "\nratios and the nonblocking targets (met / MISSED; - = not a target at that size)\n"
    printf "  nb/blk    = rsag I*+W / rsag blocking          target <= %s at every size\n", target_nb
    printf "  blk/pers  = rsag blocking / rsag S+W            target >= %s, >= %s at %s\n", target_pers, target_pers_small, hsize(sizes[1])
    printf "  tuned/pers = tuned blocking / rsag S+W          (no target)\n"
    printf "  libnbc/nb = libnbc I*+W / rsag I*+W             target >= %s from %s\n", target_libnbc, hsize(target_from)
    printf "  overlap   = rsag overlap with MPI_Test (no test) target >= %s %% from %s\n\n", target_overlap, hsize(target_from)
    printf "%-6s %14s %16s %10s %16s %18s\n", "bytes", "nb/blk", "blk/pers", "tuned/pers", "libnbc/nb", "overlap % (no test)"
    for (i = 1; i <= ns; ++i) {
        b = sizes[i]
        r1 = ratio(T["rsag_nonblocking", b], T["rsag_blocking", b])
        r2 = ratio(T["rsag_blocking", b], T["rsag_persistent", b])
        r3 = ratio(T["libnbc_blocking", b], T["rsag_persistent", b])
        r4 = ratio(T["libnbc_nonblocking", b], T["rsag_nonblocking", b])
        o1 = OV["rsag_overlap_test", b]
        c1 = check("nb", r1, target_nb, "le", b)
        c2 = check("pers", r2, (i == 1 ? target_pers_small : target_pers), "ge", b)
        c4 = (b >= target_from) ? check("libnbc", r4, target_libnbc, "ge", b) : "-"
        c5 = (b >= target_from && o1 != "") ? check("overlap", sprintf("%.0f", o1), target_overlap, "ge", b) : "-"
        printf "%-6s %7s %-6s %9s %-6s %10s %9s %-6s %6s (%3s) %-6s\n", hsize(b), (r1 == "" ? "-" : r1), c1, \
            (r2 == "" ? "-" : r2), c2, (r3 == "" ? "-" : r3), (r4 == "" ? "-" : r4), c4, pct(o1), \
            pct(OV["rsag_overlap", b]), c5
        row = b "," T["rsag_blocking", b] "," T["rsag_nonblocking", b] "," T["rsag_persistent", b] "," \
            T["libnbc_blocking", b] "," T["libnbc_nonblocking", b] "," T["libnbc_persistent", b] "," MC[b] "," \
            OV["rsag_overlap", b] "," OV["rsag_overlap_test", b] "," OV["libnbc_overlap", b] "," \
            OV["libnbc_overlap_test", b] "," r1 "," r2 "," r3 "," r4
        SJ["blk", b] = same_job(tr, "samejob_blocking", "rsag_blocking", b, maxrep)
        SJ["nb", b] = same_job(tr, "samejob_nonblocking", "rsag_nonblocking", b, maxrep)
        SJ["pers", b] = same_job(tr, "samejob_persistent", "rsag_persistent", b, maxrep)
        if (SJ["blk", b] SJ["nb", b] SJ["pers", b] != "") any_same = 1
        rows[i] = row "," SJ["blk", b] "," SJ["nb", b] "," SJ["pers", b]
    }
    if (any_same) {
        printf "\nthe same ratios within rsag's job (--previous: the module below rsag on a communicator whose info\n"
        printf "keeps rsag's reductions off, call by call beside rsag's calls), median over the repetitions of each job's ratio:\n"
        printf "  tuned/blk = tuned blocking / rsag blocking; libnbc/nb = libnbc I*+W / rsag I*+W; libnbc/pers = libnbc S+W / rsag S+W\n\n"
        printf "%-6s %10s %10s %12s\n", "bytes", "tuned/blk", "libnbc/nb", "libnbc/pers"
        for (i = 1; i <= ns; ++i) {
            b = sizes[i]
            printf "%-6s %10s %10s %12s\n", hsize(b), (SJ["blk", b] == "" ? "-" : SJ["blk", b]), \
                (SJ["nb", b] == "" ? "-" : SJ["nb", b]), (SJ["pers", b] == "" ? "-" : SJ["pers", b])
        }
    }
    split("nb pers libnbc overlap", names, " ")
    split("I*+Wait <= " target_nb "x rsag blocking at every size|persistent S+W >= " target_pers "x rsag blocking (" target_pers_small "x at " hsize(sizes[1]) ")|>= " target_libnbc "x libnbc's I* from " hsize(target_from) "|overlap (with MPI_Test) >= " target_overlap " % from " hsize(target_from), desc, "|")
    printf "\ntargets:\n"
    for (k = 1; k <= 4; ++k) {
        n = names[k]
        if (nchk[n] == 0) printf "  %-55s not measured\n", desc[k]
        else if (nmiss[n] == 0) printf "  %-55s MET at %d size(s) (worst %s at %s)\n", desc[k], nchk[n], worst[n], hsize(worst_at[n])
        else printf "  %-55s MISSED at %d of %d size(s):%s\n", desc[k], nmiss[n], nchk[n], missed[n]
    }
    if (nbad > 0) printf "\nVERIFICATION FAILURES: %d row(s) with a wrong result\n", nbad
    if (csv != "") {
        print "bytes,rsag_blocking_us,rsag_nonblocking_us,rsag_persistent_us,tuned_blocking_us,libnbc_nonblocking_us,libnbc_persistent_us,memcpy_us,rsag_overlap_pct,rsag_overlap_test_pct,libnbc_overlap_pct,libnbc_overlap_test_pct,nb_over_blocking,blocking_over_persistent,tuned_over_persistent,libnbc_over_rsag_nb,samejob_tuned_over_rsag_blocking,samejob_libnbc_over_rsag_nb,samejob_libnbc_over_rsag_persistent" >csv
        for (i = 1; i <= ns; ++i) print rows[i] >>csv
        close(csv)
    }
}
