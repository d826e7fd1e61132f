#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-model-compare.sh: the cost model against a benchmark run: for every
# rsag algorithm column of a rsag-bench.sh CSV (<coll>-np<N>.csv), the
# predicted time, the measured time and their ratio predicted / measured.
#
#   contrib/rsag-model-compare.sh -P PROFILE --ppn 1 [--min-bytes 65536] \
#       [--model PATH] [--set K=V]... CSV...
#
# The collective and p come from the file name; --ppn is the ranks per
# node of the run (1: every rank on its own emulated host).  Prints one
# table per CSV (bytes, then measured / predicted / ratio per algorithm) and
# a last line per CSV: "within N of M cells within +-25 %, worst R".
#
#   contrib/rsag-model-compare.sh --direct -P PROFILE [-o DIR] [--reps N]
#       [--colls LIST] [--sizes LIST] [--lock FILE] [--mpirun-args "A"]
#
# --direct measures, then compares: the node path `direct` forced, np 2
# (bound to cores, never oversubscribed), rsag_bench at 8 B .. 64 MB (x4),
# --reps jobs (default 5) per collective, interleaved; per size the median
# over the jobs of rsag_bench's time (the max over ranks of the per-rank
# median), the model's prediction for 2 ranks on one node, their ratio and
# the verdict: "ok" within +-20 %, else "OFF"; a last line per collective
# "direct np 2 COLL: N of M sizes within +-20 %".  A row whose MPI_T counter
# says direct did not run is marked "not direct".  Raw CSVs in DIR
# (default ./rsag-model-compare-out).  Exit status 1 if a size is off.
set -u
PROG=rsag-model-compare.sh
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "$PROG: $*" >&2; exit 2; }
MODEL=$here/rsag_model
PPN=1
MIN=0
ARGS=()
CSVS=()
DIRECT=0
OUT=./rsag-model-compare-out
REPS=5
COLLS=allreduce,reduce,reduce_scatter_block,reduce_scatter
SIZES=8,32,128,512,2048,8192,32768,131072,524288,2097152,8388608,33554432,67108864
LOCK=
MPIRUN_ARGS=
BENCH=$here/rsag_bench
while [ $# -gt 0 ]; do
    case "$1" in
    --direct) DIRECT=1; shift ;;
    -o) OUT=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --colls) COLLS=$2; shift 2 ;;
    --sizes) SIZES=$2; shift 2 ;;
    --lock) LOCK=$2; shift 2 ;;
    --mpirun-args) MPIRUN_ARGS=$2; shift 2 ;;
    --bench) BENCH=$2; shift 2 ;;
    -P) ARGS+=(-P "$2"); shift 2 ;;
    --set) ARGS+=(--set "$2"); shift 2 ;;
    --net-rate) ARGS+=(--net-rate "$2"); shift 2 ;;
    --ppn) PPN=$2; shift 2 ;;
    --min-bytes) MIN=$2; shift 2 ;;
    --model) MODEL=$2; shift 2 ;;
    -h|--help) sed -n '5,/^set -u/p' "$0" | sed '$d'; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) CSVS+=("$1"); shift ;;
    esac
done
[ -x "$MODEL" ] || die "$MODEL not found (make builds contrib/rsag_model)"
if [ "$DIRECT" = 1 ]; then
    [ -x "$BENCH" ] || die "$BENCH not found (make builds contrib/rsag_bench; or --bench PATH)"
    case "$REPS" in ''|*[!0-9]*|0) die "--reps must be a positive number" ;; esac
    [ "$(nproc)" -ge 2 ] || die "np 2 needs 2 cores (never oversubscribed)"
    mkdir -p "$OUT" || die "cannot create $OUT"
    root_args=; [ "$(id -u)" = 0 ] && root_args=--allow-run-as-root
    IFS=, read -r -a colls <<<"$COLLS"
    bad=0
    for c in "${colls[@]}"; do
        case "$c" in allreduce|reduce|reduce_scatter_block|reduce_scatter) ;;
        *) die "unknown collective $c" ;; esac
        : >"$OUT/direct-$c-np2.csv"
    done
    for r in $(seq 1 "$REPS"); do
        for c in "${colls[@]}"; do
            echo "$PROG: $c, job $r of $REPS" >&2
            # shellcheck disable=SC2086
            ${LOCK:+flock -x "$LOCK"} mpirun $root_args -np 2 --bind-to core \
                --mca "coll_rsag_${c}_algorithm" direct $MPIRUN_ARGS \
                "$BENCH" --coll "$c" --rsag-algorithms current --label direct --sizes "$SIZES" \
                2>>"$OUT/direct-$c-np2.log" | awk -v r="$r" -F, '$1 == "direct" { print r "," $0 }' \
                >>"$OUT/direct-$c-np2.csv" || die "rsag_bench failed (see $OUT/direct-$c-np2.log)"
        done
    done
    for c in "${colls[@]}"; do
        # rep,label,coll,np,bytes,time_us,memcpy_us,busbw,iters,ran,...
        awk -F, '{ t[$5] = t[$5] " " $6; if ($10 !~ /direct/) nd[$5] = 1 }
            END { for (b in t) { n = split(t[b], v, " ")
                      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
                          if (v[j] + 0 < v[i] + 0) { x = v[i]; v[i] = v[j]; v[j] = x }
                      print b, (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2), (b in nd) } }' \
            "$OUT/direct-$c-np2.csv" | sort -n >"$OUT/direct-$c-np2.med"
        [ -s "$OUT/direct-$c-np2.med" ] || die "no measurement of $c (see $OUT/direct-$c-np2.log)"
        echo "== direct, $c, np 2 (one node): measured us (median of $REPS jobs), model us, model/measured"
        printf '%10s %12s %12s %8s  %s\n' bytes measured model ratio verdict
        while read -r b m nd; do
            p=$("$MODEL" "${ARGS[@]}" time "$c" 2 2 "$b" | awk '$1 == "direct" { print $2 }')
            awk -v b="$b" -v m="$m" -v p="$p" -v nd="$nd" 'BEGIN {
                r = m > 0 ? p / m : 0; v = (r >= 0.8 && r <= 1.2) ? "ok" : "OFF"
                if (nd) v = v " (not direct)"
                printf "%10d %12.2f %12.2f %8.2f  %s\n", b, m, p, r, v }'
        done <"$OUT/direct-$c-np2.med" | tee "$OUT/direct-$c-np2.table"
        awk -v c="$c" '{ n++; if ($5 == "ok") k++ }
            END { printf "direct np 2 %s: %d of %d sizes within +-20 %%\n", c, k, n; exit k != n }' \
            "$OUT/direct-$c-np2.table" || bad=1
    done
    exit "$bad"
fi
[ ${#CSVS[@]} -gt 0 ] || die "no CSV given"
for csv in "${CSVS[@]}"; do
    base=$(basename "$csv" .csv)
    coll=${base%-np*}
    np=${base##*-np}
    case "$np" in ''|*[!0-9]*) die "$csv: expected <coll>-np<N>.csv" ;; esac
    tmp=$(mktemp)
    # the predictions: "bytes alg us" for every size of the CSV
    for bytes in $(awk -F, 'NR > 1 { print $1 }' "$csv"); do
        [ "$bytes" -ge "$MIN" ] || continue
        "$MODEL" "${ARGS[@]}" time "$coll" "$np" "$PPN" "$bytes" | awk -v b="$bytes" '{ print b, $1, $2 }'
    done >"$tmp" || die "rsag_model failed"
    echo "== $coll, np $np, $PPN rank(s) per node: measured us / predicted us / predicted:measured"
    awk -F, -v min="$MIN" -v pred="$tmp" '
        BEGIN { while ((getline l < pred) > 0) { split(l, f, " "); P[f[1], f[2]] = f[3] } }
        NR == 1 {
            for (i = 1; i <= NF; i++)
                if ($i ~ /^rsag_.*_us$/ && $i != "rsag_auto_us") {
                    a = $i; sub(/^rsag_/, "", a); sub(/_us$/, "", a); col[++n] = i; alg[n] = a
                }
            printf "%10s", "bytes"
            for (k = 1; k <= n; k++) printf " | %-27s", alg[k]
            printf "\n"
            next
        }
        $1 + 0 >= min {
            printf "%10d", $1
            for (k = 1; k <= n; k++) {
                m = $(col[k]); p = P[$1, alg[k]]
                if (m == "" || p == "" || p == "-") { printf " | %-27s", "-"; continue }
                r = p / m; cells++
                if (r >= 0.75 && r <= 1.25) ok++
                d = r > 1 ? r : 1 / r
                if (d > worst) { worst = d; wr = r; wa = alg[k]; wb = $1 }
                printf " | %8.1f %8.1f %8.2f ", m, p, r
            }
            printf "\n"
        }
        END { printf "within +-25 %%: %d of %d cells; worst ratio %.2f (%s, %d B)\n", ok, cells, wr, wa, wb }
    ' "$csv"
    rm -f "$tmp"
done
