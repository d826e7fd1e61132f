#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# summary.sh CSV [PREFIX...]: the ratios of this run's README from a merged
# rsag-bench CSV: per size and per job prefix (rsag, old, c2, ...), the
# times (ms) of the halving-based algorithm (recursive_halving or
# rabenseifner), the ring and priority, and priority/halving,
# priority/ring (< 1: priority faster); tuned_default when present.
csv=$1; shift
prefixes=${*:-rsag}
awk -F, -v prefixes="$prefixes" '
NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
{
    b = $1; sz = b >= 1048576 ? sprintf("%gM", b / 1048576) : sprintf("%gK", b / 1024)
    n = split(prefixes, P, " ")
    for (k = 1; k <= n; ++k) {
        p = P[k]
        h = (p "_recursive_halving_us" in col) ? $col[p "_recursive_halving_us"] : $col[p "_rabenseifner_us"]
        r = $col[p "_ring_us"]; q = $col[p "_priority_us"]
        td = ("tuned_default_us" in col) ? sprintf("%.2f", $col["tuned_default_us"] / 1000) : "-"
        printf "| %s | %s | %.2f | %.2f | %.2f | %s | %.3f | %.3f |\n", sz, p, h / 1000, r / 1000, q / 1000, td, q / h, q / r
    }
}' "$csv"
