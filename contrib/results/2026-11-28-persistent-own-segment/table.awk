# raw: round,label,coll,np,bytes,time_us,...  label = <variant>_<form>
BEGIN { FS = "," }
{ k = $2 SUBSEP $5; v[k, ++n[k]] = $6; sizes[$5] = 1; labels[$2] = 1 }
function med(k,   i, j, a, m, t) {
    m = n[k]; for (i = 1; i <= m; i++) a[i] = v[k, i]
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
}
END {
    printf "%10s %9s %9s %9s %9s %9s %9s | %8s %8s %8s %8s\n", "bytes", "new_blk", "new_pers", "old_pers", "nbc_blk", "nbc_pers", "", "new_p/blk", "old_p/blk", "old/new", "nbc/new"
    ns = asorti(sizes, s, "@ind_num_asc")
    for (i = 1; i <= ns; i++) {
        b = s[i]
        nb = med("new_blocking" SUBSEP b); np_ = med("new_persistent" SUBSEP b)
        op = med("old_persistent" SUBSEP b); tb = med("nbc_blocking" SUBSEP b); tp = med("nbc_persistent" SUBSEP b)
        printf "%10d %9.3f %9.3f %9.3f %9.3f %9.3f %9s | %8.2f %8.2f %8.2f %8.2f\n", b, nb, np_, op, tb, tp, "", np_ / nb, op / nb, op / np_, tp / np_
    }
}
