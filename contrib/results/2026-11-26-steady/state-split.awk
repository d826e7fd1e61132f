# launches.log -> per (benchmark, size, variant): median over the rounds whose
# probe said the cores share a cache (probe < 150 us) and over the others,
# and their ratio (slow / fast).
$1 == "round" && $3 == "probe_us" { st[$2] = ($4 < 150) ? "f" : "s"; next }
$1 == "round" && NF == 6 { k = $3 " " $5 " " $4; s = st[$2]; v[k, s, ++n[k, s]] = $6; keys[k] = 1 }
function med(k, s,    m, i, j, x, a) {
    m = n[k, s]; if (m == 0) return 0
    for (i = 1; i <= m; i++) a[i] = v[k, s, i]
    for (i = 2; i <= m; i++) { x = a[i]; j = i - 1; while (j > 0 && a[j] > x) { a[j + 1] = a[j]; j-- } a[j + 1] = x }
    return (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
}
END {
    printf "%-20s %10s %-6s %12s %12s %8s\n", "benchmark", "bytes", "which", "shared-cache", "no-shared", "ratio"
    for (k in keys) {
        split(k, f, " "); a = med(k, "f"); b = med(k, "s")
        printf "%-20s %10d %-6s %12.1f %12.1f %8.2f\n", f[1], f[2], f[3], a, b, (a > 0) ? b / a : 0
    }
}
