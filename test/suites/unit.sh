# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# unit.sh: the unit tests of the pure parts, without MPI (test/unit/*.c):
# index arithmetic (folding, halving schedule, trees) and the selector with
# the algorithm tables, and the cost model of contrib/model/ (a formula for
# every algorithm of the tables), the node path's streaming copy and its
# learner.  `make check` runs the same programs (and test_op_kernels, which
# ops.sh runs here).
run_test unit-index "$here/unit/test_index"
run_test unit-select "$here/unit/test_select"
run_test unit-model "$here/unit/test_model"
expect_in_log 'test_model: [1-9][0-9]* checks passed, 0 failed'
# the streaming copy of the node path (x86-64: it must really stream here)
run_test unit-stream "$here/unit/test_stream"
expect_in_log 'test_stream: [1-9][0-9]* checks passed, 0 failed'
if [ "$(uname -m)" = x86_64 ]; then
    expect_in_log 'streaming stores used'
fi
