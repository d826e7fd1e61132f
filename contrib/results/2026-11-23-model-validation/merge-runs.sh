#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# net-1gbit[-4x1]-raw.txt = per figure the smallest of the runs
# (*-raw-run1.txt, *-raw-run2.txt): other jobs on this shared machine only
# ever slow a figure down (the rule rsag-calibrate.sh --runs applies to
# shared memory).
#   contrib/results/2026-11-23-model-validation/merge-runs.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
for base in net-1gbit net-1gbit-4x1; do
    ls "$here/$base"-raw-run*.txt >/dev/null 2>&1 || continue
    { grep -h '^# rsag_calibrate\|^# end' "$here/$base"-raw-run*.txt
      echo "# per figure the smallest of $(ls "$here/$base"-raw-run*.txt | wc -l) runs"
      awk '/^#/ || /^rsag-cluster/ { next }
           { k = $1; for (i = 2; i < NF; i++) k = k " " $i
             if (!(k in v) || $NF + 0 < v[k] + 0) v[k] = $NF; if (!(k in o)) o[k] = ++n }
           END { for (k in o) r[o[k]] = k; for (i = 1; i <= n; i++) print r[i], v[r[i]] }' \
          "$here/$base"-raw-run*.txt
    } >"$here/$base-raw.txt"
done
