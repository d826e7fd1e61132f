# cg.log -> per grid: iterations, median us per iteration (rsag, stock),
# stock / rsag, and the rounds' min-max of each
function med(s,  n, x, i, j, t) {
    n = split(s, x, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] + 0 < x[i] + 0) { t = x[i]; x[i] = x[j]; x[j] = t }
    lo[0] = x[1]; hi[0] = x[n]
    return (n % 2) ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
}
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
        r = med(v[n, "rsag"]); rl = lo[0]; rh = hi[0]
        s = med(v[n, "stock"]); sl = lo[0]; sh = hi[0]
        printf "%6s %6s %6.2f (%4.2f-%4.2f) %6.2f (%4.2f-%4.2f) %10.2f %12.2f %12.2f\n", n, it[n, "rsag"] "/" it[n, "stock"], r, rl, rh, s, sl, sh, s / r, med(ar[n, "rsag"]), med(ar[n, "stock"])
    }
}
