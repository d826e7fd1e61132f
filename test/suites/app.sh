# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# app.sh: an application loop as a correctness check -- contrib/rsag_cg,
# conjugate gradients on the 2-D Laplacian with three 8-byte allreduces per
# iteration.  With rsag (the trace proves rsag did its 8-byte allreduces)
# and without (--mca coll ^rsag), the solve must take the same number of
# iterations and reach the same residual; run twice in one job it must give
# the same answer.  Its speed is measured by the benchmark, not here.

cg="$top/contrib/rsag_cg"

# app_cg_compare NP: rsag's run, stock Open MPI's run, and the comparison.
app_cg_compare() {
    local np="$1" with without
    with=$("${mpirun_cmd[@]}" -np "$np" --mca coll_rsag_verbose 1 "$cg" --n 96 --repeat 2 2>&1) \
        || { echo "$with"; echo "app: the run with rsag failed"; return 1; }
    without=$("${mpirun_cmd[@]}" -np "$np" --mca coll ^rsag "$cg" --n 96 --repeat 2 2>&1) \
        || { echo "$without"; echo "app: the run without rsag failed"; return 1; }
    printf 'with rsag:\n%s\nwithout rsag:\n%s\n' "$with" "$without"
    local a b
    a=$(grep -o 'iterations=[0-9]* residual=[^ ]*' <<<"$with")
    b=$(grep -o 'iterations=[0-9]* residual=[^ ]*' <<<"$without")
    [ -n "$a" ] && [ -n "$b" ] || { echo "app: no result line"; return 1; }
    # the iteration count must match; the residual to 1e-6 relative (the
    # sums of np > 2 ranks may round differently in another order)
    awk -v a="$a" -v b="$b" 'BEGIN {
        split(a, x, /[= ]/); split(b, y, /[= ]/)
        d = x[4] - y[4]; if (d < 0) d = -d
        if (x[2] != y[2]) { print "app: iterations differ: " x[2] " with rsag, " y[2] " without"; exit 1 }
        if (d > 1e-6 * y[4]) { print "app: residuals differ: " x[4] " with rsag, " y[4] " without"; exit 1 }
        print "app: same iterations (" x[2] ") and residual with and without rsag"
    }'
}
for np in 2 3; do
    run_test "app-cg-same-answer-np$np" app_cg_compare "$np"
    expect_in_log 'app: same iterations \([0-9]+\) and residual with and without rsag'
    expect_in_log 'allreduce on MPI_COMM_WORLD .*: 8 bytes .* -> [a-z_]+'
    expect_not_in_log 'DIFFERENT-ANSWERS|did not converge'
done
