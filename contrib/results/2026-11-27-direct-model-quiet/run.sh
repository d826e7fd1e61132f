#!/bin/bash
# The cost model's `direct` row against a quiet np-2 run (2026-11-27):
# calibrate the node path's terms, then measure `direct` forced at 8 B ..
# 64 MB for the four collectives and compare (contrib/rsag-model-compare.sh
# --direct: np 2 bound to the two cores, never oversubscribed; per size the
# median over the jobs).  Run from the top of the tree, nothing else running.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=${1:-$here}
"$top/contrib/rsag-calibrate.sh" -o "$out/calibrate" --runs 5 2>&1 | tee "$out/calibrate.log"
"$top/contrib/rsag-model-compare.sh" --direct -P "$out/calibrate/shm.profile" -o "$out/compare" \
    --reps 5 2>&1 | tee "$out/compare.log" || true
