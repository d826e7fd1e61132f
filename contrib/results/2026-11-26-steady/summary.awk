# launches.log -> per (benchmark, size, variant): median, min, max over
# rounds and max/min; lines "round R BENCH VARIANT BYTES US".
$1 == "round" && NF == 6 { k = $3 " " $5 " " $4; v[k, ++n[k]] = $6 }
END {
    printf "%-20s %10s %-6s %10s %10s %10s %8s\n", "benchmark", "bytes", "which", "median", "min", "max", "max/min"
    for (k in n) {
        m = n[k]
        for (i = 1; i <= m; i++) a[i] = v[k, i]
        for (i = 2; i <= m; i++) { x = a[i]; j = i - 1; while (j > 0 && a[j] > x) { a[j + 1] = a[j]; j-- } a[j + 1] = x }
        med = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
        split(k, f, " ")
        printf "%-20s %10d %-6s %10.1f %10.1f %10.1f %8.2f\n", f[1], f[2], f[3], med, a[1], a[m], a[m] / a[1]
    }
}
