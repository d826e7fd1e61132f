# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# unit.sh: the unit tests of the pure parts, without MPI (test/unit/*.c):
# index arithmetic (folding, halving schedule, trees) and the selector with
# the algorithm tables.  `make check` runs the same programs (and
# test_op_kernels, which ops.sh runs here).
run_test unit-index "$here/unit/test_index"
run_test unit-select "$here/unit/test_select"
