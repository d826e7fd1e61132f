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
set -u
PROG=rsag-model-compare.sh
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "$PROG: $*" >&2; exit 2; }
MODEL=$here/rsag_model
PPN=1
MIN=0
ARGS=()
CSVS=()
while [ $# -gt 0 ]; do
    case "$1" in
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
