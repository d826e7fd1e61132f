# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# lifecycle.sh: the module life cycle (test/mpi/rsag_lifecycle.c): 1000
# communicator dup/split/free cycles with bounded memory, and an
# intercommunicator whose reductions rsag must leave to coll/inter (churn.sh
# runs 10 000 cycles).
for np in 2 4; do
    run_test "lifecycle-np$np" "${mpirun_cmd[@]}" -np "$np" "$here/mpi/rsag_lifecycle"
done
