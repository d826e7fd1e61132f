# cg.log -> per grid: iterations, median us per iteration (rsag, stock),
# stock / rsag, and the rounds' min-max of each.  Given after
# ../../rsag-bench-lib.awk (median, sort_numeric):
#   awk -f ../../rsag-bench-lib.awk -f summary.awk cg.log
function lowest(list,    a, n) { n = split(list, a, " "); sort_numeric(a, n); return a[1] }
function highest(list,    a, n) { n = split(list, a, " "); sort_numeric(a, n); return a[n] }
{
    n = $1; sub(/^n=/, "", n); who = $3
    for (i = 4; i <= NF; i++) {
        split($i, kv, "=")
        if (kv[1] == "us_per_iteration") v[n, who] = v[n, who] " " kv[2]
        if (kv[1] == "iterations") it[n, who] = kv[2]
        if (kv[1] == "allreduce_us_per_iteration") ar[n, who] = ar[n, who] " " kv[2]
    }
    grids[n] = 1
}
END {
    printf "%6s %6s %18s %18s %10s %12s %12s\n", "grid", "iters", "rsag us (min-max)", "stock us (min-max)", "stock/rsag", "rsag ar us", "stock ar us"
    for (n in grids) {
        r = median(v[n, "rsag"]); s = median(v[n, "stock"])
        printf "%6s %6s %6.2f (%4.2f-%4.2f) %6.2f (%4.2f-%4.2f) %10.2f %12.2f %12.2f\n", n,
            it[n, "rsag"] "/" it[n, "stock"], r, lowest(v[n, "rsag"]), highest(v[n, "rsag"]),
            s, lowest(v[n, "stock"]), highest(v[n, "stock"]), s / r,
            median(ar[n, "rsag"]), median(ar[n, "stock"])
    }
}
