# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-bench-merge.awk: the merge step of rsag-bench.sh.  Reads the raw CSV
# (every line of every job: rep,job,label,coll,np,bytes,time_us,memcpy_us,
# busbw_GBps,iters,ran,verified,oversubscribed,osu_us), writes the wide CSV (file
# csv: one row per size, the median of every variant, memcpy, ratios) and
# prints the tables (times, ratios, variant ratios) on stdout.
# Variables (-v): rsag_labels, rsag_algs, tuned_labels, variant_names, coll,
# np, oversub, ncores, csv, not_quiet, disturbed (see rsag-bench.sh); rows
# labelled tuned_samejob (coll/tuned timed inside the rsag_auto job) give the
# column samejob_tuned_default/rsag_auto: the median over the repetitions of
# each job's own ratio; tcol:
# the raw column of the time to use (7 time_us, rsag-bench's measure: max
# over ranks of the per-rank median; 14 osu_us, OSU's: mean over ranks of
# the per-rank mean).
function short(l,    x) {        # tuned_default -> tdef, tuned_3_ring -> t3
    if (l == "tuned_default") return "tdef"
    if (l == "tuned_mmap0") return "tdef0"
    if (l ~ /^tuned_[0-9]+_/) { x = l; sub(/^tuned_/, "", x); sub(/_.*/, "", x); return "t" x }
    return l
}
function ratio(a, b) { return (a == "" || b == "" || b <= 0) ? "" : sprintf("%.2f", a / b) }
NR == 1 { if (tcol == "") tcol = 7; next }
{
    key = $3 SUBSEP $6
    if ($1 + 0 > maxrep) maxrep = $1 + 0
    t[key] = t[key] " " $tcol
    if (!(($6) in seen)) { seen[$6] = 1; sizes[++ns] = $6 + 0 }
    mc[$6] = mc[$6] " " $8
    if ($12 != "ok") bad[key] = 1
    if ($3 == "rsag_auto" || $3 == "tuned_samejob") tr[$3, $6, $1] = $tcol
    if ($3 == "tuned_samejob") samejob = 1
    if (index("," ran[key] ",", "," $11 ",") == 0) ran[key] = ran[key] (ran[key] == "" ? "" : "/") $11
}
END {
    sort_numeric(sizes, ns)             # sizes ascending
    nr = split(rsag_labels, rl, " "); na = split(rsag_algs, ra, " "); nt = split(tuned_labels, tl, " ")
    nn = split(variant_names, vn, " ")
    nv = 0
    for (i = 1; i <= nr; ++i) { var[++nv] = rl[i]; x = rl[i]; sub(/^rsag_/, "", x); algof[rl[i]] = x }
    # --rsag-variant jobs: <name>_<alg>, compared with rsag_<alg> (vr: variant ratio columns)
    nvr = 0
    for (k = 1; k <= nn; ++k) for (i = 1; i <= nr; ++i) {
        x = rl[i]; sub(/^rsag_/, "", x)
        var[++nv] = vn[k] "_" x; algof[var[nv]] = x
        vr[++nvr] = var[nv]; vrbase[nvr] = rl[i]
    }
    for (i = 1; i <= nt; ++i) var[++nv] = tl[i]
    if (coll == "allreduce") busf = 2 * (np - 1) / np
    else if (coll == "reduce") busf = 1
    else busf = (np - 1) / np

    # wide CSV
    h = "bytes"
    for (v = 1; v <= nv; ++v) h = h "," var[v] "_us"
    h = h ",memcpy_us"
    for (i = 1; i <= nr; ++i) h = h "," rl[i] "_ran"
    for (i = 1; i <= nvr; ++i) h = h "," vr[i] "_ran"
    h = h ",best_tuned,best_tuned/rsag_auto,tuned_default/rsag_auto"
    for (a = 1; a <= na; ++a) h = h ",best_tuned/rsag_" ra[a]
    for (i = 2; i <= nt; ++i) h = h "," tl[i] "/rsag_auto"
    for (i = 1; i <= nvr; ++i) h = h "," vrbase[i] "/" vr[i]
    h = h ",rsag_auto/memcpy,rsag_auto_busbw_GBps,verify_failures,oversubscribed"
    if (samejob) h = h ",samejob_tuned_default/rsag_auto"
    print h > csv

    for (s = 1; s <= ns; ++s) {
        b = sizes[s]
        nfail = ""
        for (v = 1; v <= nv; ++v) {
            m[v] = median(t[var[v], b])
            med[var[v]] = m[v]
            if ((var[v], b) in bad) nfail = nfail (nfail == "" ? "" : " ") var[v]
        }
        best = ""; bestl = ""
        for (i = 1; i <= nt; ++i) if (med[tl[i]] != "" && (best == "" || med[tl[i]] < best)) { best = med[tl[i]]; bestl = tl[i] }
        mcm = median(mc[b]); auto = med["rsag_auto"]
        bw = (auto > 0) ? b / auto / 1000 : ""
        if (bw != "") bw = bw * busf
        row = b
        for (v = 1; v <= nv; ++v) row = row "," m[v]
        row = row "," mcm
        for (i = 1; i <= nr; ++i) row = row "," ran[rl[i], b]
        for (i = 1; i <= nvr; ++i) row = row "," ran[vr[i], b]
        row = row "," bestl "," ratio(best, auto) "," ratio(med["tuned_default"], auto)
        for (a = 1; a <= na; ++a) row = row "," ratio(best, med["rsag_" ra[a]])
        for (i = 2; i <= nt; ++i) row = row "," ratio(med[tl[i]], auto)
        for (i = 1; i <= nvr; ++i) row = row "," ratio(med[vrbase[i]], med[vr[i]])
        row = row "," ratio(auto, mcm) "," (bw == "" ? "" : sprintf("%.3f", bw)) "," (nfail == "" ? 0 : nfail) "," oversub
        sj = samejob ? same_job(tr, "tuned_samejob", "rsag_auto", b, maxrep) : ""
        if (samejob) row = row "," sj
        print row > csv

        # table cells
        T[s, 0] = hsize(b)
        for (v = 1; v <= nv; ++v) {
            T[s, v] = fmt(m[v]) ((var[v], b) in bad ? "!" : "")
            x = algof[var[v]]
            if (x != "" && x != "auto" && ran[var[v], b] != x) T[s, v] = T[s, v] "*"
        }
        T[s, nv + 1] = fmt(mcm); T[s, nv + 2] = ratio(auto, mcm); T[s, nv + 3] = (bw == "" ? "-" : sprintf("%.2f", bw))
        if (nt > 0) {
            R[s, 0] = hsize(b); R[s, 1] = short(bestl); R[s, 2] = ratio(best, auto); R[s, 3] = ratio(med["tuned_default"], auto)
            for (a = 1; a <= na; ++a) R[s, 3 + a] = ratio(best, med["rsag_" ra[a]])
            for (i = 2; i <= nt; ++i) R[s, 3 + na + i - 1] = ratio(med[tl[i]], auto)
            R[s, 3 + na + nt] = ran["rsag_auto", b]
            if (samejob) R[s, 4 + na + nt] = sj
        } else {                        # --rsag-only: rsag algorithms against auto
            R[s, 0] = hsize(b); x = ""
            for (a = 1; a <= na; ++a) {
                R[s, 1 + a] = ratio(med["rsag_" ra[a]], auto)
                if (med["rsag_" ra[a]] != "" && (x == "" || med["rsag_" ra[a]] < med["rsag_" x])) x = ra[a]
            }
            R[s, 1] = x; R[s, 2 + na] = ran["rsag_auto", b]
        }
        for (i = 1; i <= nvr; ++i) V[s, i] = ratio(med[vrbase[i]], med[vr[i]])
        if (nfail != "") failures = failures " " hsize(b) ":" nfail
    }

    # table 1: times
    H[0] = "bytes"
    for (v = 1; v <= nv; ++v) H[v] = short(var[v])
    H[nv + 1] = "memcpy"; H[nv + 2] = "auto/memcpy"; H[nv + 3] = (coll == "reduce" ? "bw_GB/s" : "busbw_GB/s")
    printf "%s, np %d on %d cores%s; median over %d reps of each job's time (%s), microseconds\n", \
        coll, np, ncores, (oversub == "yes" ? " -- OVERSUBSCRIBED (slow, noisy)" : " (not oversubscribed)"), maxrep, \
        (tcol == 14 ? "OSU's measure: mean over ranks of the per-rank mean" : "max over ranks of the per-rank median")
    if (coll == "reduce_scatter_block")
        print "bytes = whole input vector of one rank = recvcount * np * type size (as coll_rsag_" coll "_<alg>_min_bytes)"
    else if (coll == "reduce_scatter")
        print "bytes = whole input vector of one rank = sum of the (equal) recvcounts * type size (as coll_rsag_" coll "_<alg>_min_bytes)"
    else
        print "bytes = whole message = count * type size (as coll_rsag_" coll "_<alg>_min_bytes)"
    printf "%s = bytes/time * %s; memcpy = one memcpy of bytes on rank 0\n", H[nv + 3], \
        (coll == "allreduce" ? "2(p-1)/p" : coll == "reduce" ? "1" : "(p-1)/p")
    if (not_quiet > 0) printf "note: %d job(s) started while the machine was not quiet (see the log)\n", not_quiet
    if (disturbed > 0) printf "note: %d job(s) ran while other MPI jobs were running (see the log)\n", disturbed
    legend = ""
    mm = ""
    for (i = 2; i <= nt; ++i) {
        if (tl[i] == "tuned_mmap0") { mm = "; tdef0 = tdef with MALLOC_MMAP_MAX_=0 (no page faults on tuned's per-call temporaries)"; continue }
        x = tl[i]; sub(/^tuned_[0-9]+_/, "", x); legend = legend (legend != "" ? ", " : "") short(tl[i]) " " x
    }
    if (nt > 0) printf "tdef = coll/tuned's own decision%s; tN = coll_tuned_%s_algorithm N forced: %s\n", mm, coll, legend
    printf "! = verification failed; * = rsag did not run this algorithm at this size (restriction unmet: fell back or delegated, see the CSV's *_ran)\n"
    ncol = nv + 3
    for (c = 0; c <= ncol; ++c) { w[c] = length(H[c]); for (s = 1; s <= ns; ++s) if (length(T[s, c]) > w[c]) w[c] = length(T[s, c]) }
    for (c = 0; c <= ncol; ++c) printf "%*s%s", w[c], H[c], (c < ncol ? "  " : "\n")
    for (s = 1; s <= ns; ++s) for (c = 0; c <= ncol; ++c) printf "%*s%s", w[c], T[s, c], (c < ncol ? "  " : "\n")

    # table 2: ratios
    print ""
    if (nt > 0) {
        print "ratios time(tuned)/time(rsag): > 1 means rsag is faster"
        G[0] = "bytes"; G[1] = "best_tuned"; G[2] = "best_tuned/rsag_auto"; G[3] = "tuned_default/rsag_auto"
        for (a = 1; a <= na; ++a) G[3 + a] = "best_tuned/rsag_" ra[a]
        for (i = 2; i <= nt; ++i) G[3 + na + i - 1] = short(tl[i]) "/auto"
        ncol = 3 + na + nt
        if (samejob) print "tdef/auto_same_job: median over the repetitions of each rsag_auto job's own ratio (coll/tuned's default timed in that job, call by call beside rsag)"
    } else {
        print "ratios time(rsag algorithm)/time(rsag auto): > 1 means auto is faster"
        G[0] = "bytes"; G[1] = "fastest"
        for (a = 1; a <= na; ++a) G[1 + a] = "rsag_" ra[a] "/rsag_auto"
        ncol = 2 + na
    }
    G[ncol] = "auto_ran"
    if (nt > 0 && samejob) G[++ncol] = "tdef/auto_same_job"
    for (c = 0; c <= ncol; ++c) { w[c] = length(G[c]); for (s = 1; s <= ns; ++s) if (length(R[s, c]) > w[c]) w[c] = length(R[s, c]) }
    for (c = 0; c <= ncol; ++c) printf "%*s%s", w[c], G[c], (c < ncol ? "  " : "\n")
    for (s = 1; s <= ns; ++s) for (c = 0; c <= ncol; ++c) printf "%*s%s", w[c], (R[s, c] == "" ? "-" : R[s, c]), (c < ncol ? "  " : "\n")
    if (nvr > 0) {                      # table 3: --rsag-variant jobs against the rsag job
        print ""
        print "variant ratios time(rsag_<alg>)/time(<variant>_<alg>): > 1 means the variant is faster"
        ncol = nvr; G[0] = "bytes"
        for (i = 1; i <= nvr; ++i) G[i] = vr[i]
        for (s = 1; s <= ns; ++s) V[s, 0] = hsize(sizes[s])
        for (c = 0; c <= ncol; ++c) { w[c] = length(G[c]); for (s = 1; s <= ns; ++s) if (length(V[s, c]) > w[c]) w[c] = length(V[s, c]) }
        for (c = 0; c <= ncol; ++c) printf "%*s%s", w[c], G[c], (c < ncol ? "  " : "\n")
        for (s = 1; s <= ns; ++s) for (c = 0; c <= ncol; ++c) printf "%*s%s", w[c], (V[s, c] == "" ? "-" : V[s, c]), (c < ncol ? "  " : "\n")
    }
    if (failures != "") printf "\nVERIFICATION FAILURES (size:variants):%s\n", failures
}
