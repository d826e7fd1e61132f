# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-bench-ext-merge.awk: the merge step of rsag-bench.sh's external
# benchmarks (--osu, --imb).  Reads OUTDIR/<coll>-np<N>-ext-raw.csv
# (rep,measure,impl,bytes,time_us; impl rsag or tuned), writes the wide CSV
# (file csv: per size and measure the medians over the repetitions and
# tuned / rsag) and prints the table.  Variables (-v): coll, np, oversub,
# ncores, csv.  Given after rsag-bench-lib.awk.
NR == 1 { next }
{
    t[$2, $4 + 0, $3] = t[$2, $4 + 0, $3] " " $5
    if (!(($2) in mseen)) { mseen[$2] = 1; ms[++nm] = $2 }
    if (!(($4 + 0) in seen)) { seen[$4 + 0] = 1; sz[++ns] = $4 + 0 }
}
END {
    sort_numeric(sz, ns)             # sizes ascending
    printf "%s, np %d%s: OSU and IMB, rsag (its defaults) and coll/tuned (its default), median over the repetitions, microseconds; ratio = tuned / rsag (> 1: rsag faster)\n", coll, np, oversub == "yes" ? " (OVERSUBSCRIBED on " ncores " cores)" : " on " ncores " cores (not oversubscribed)"
    printf "osu: OSU average; imb: IMB t_avg (-sync 1: a barrier between calls); imb_b2b: IMB -sync 0 (back to back)\n"
    h = "bytes"; line = sprintf("%6s", "bytes")
    for (m = 1; m <= nm; ++m) {
        h = h "," ms[m] "_rsag_us," ms[m] "_tuned_us," ms[m] "_ratio"
        line = line sprintf("  %10s %10s %6s", ms[m] "_rsag", ms[m] "_tuned", "ratio")
    }
    print h > csv; print line
    for (i = 1; i <= ns; ++i) {
        b = sz[i]; row = b; line = sprintf("%6s", hsize(b))
        for (m = 1; m <= nm; ++m) {
            r = median(t[ms[m], b, "rsag"]); u = median(t[ms[m], b, "tuned"])
            q = (r != "" && u != "" && r > 0) ? sprintf("%.2f", u / r) : ""
            row = row "," r "," u "," q
            line = line sprintf("  %10s %10s %6s", fmt(r), fmt(u), q == "" ? "-" : q)
        }
        print row > csv; print line
    }
}
