# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# Reductions stay right where the installed op framework is wrong
# (coll_rsag_op.c).  Open MPI 4.1.4 gets these wrong even in
# MPI_Reduce_local: op/avx's 8/16-bit MPI_SUM from count 16 (#8045),
# op/base's MIN/MAX on MPI_UNSIGNED_LONG (compared as signed, #10525) and on
# MPI_OFFSET.  rsag self-tests the op framework at start-up and reduces the
# wrong pairs with its own kernels.  Sourced by run_tests.sh.

# The kernels themselves, without MPI.
run_test ops-unit-kernels "$here/unit/test_op_kernels"
expect_in_log 'test_op_kernels: [0-9]+ checks passed, 0 failed'

# Every pair MPI_Reduce_local gets wrong on this installation is named by
# the self-test's verbose line, and MPI_Allreduce through rsag (its counters
# show it ran every call itself) is right for all of them (default op
# components, no --mca op ^avx).  Open MPI 4.1.4 gets 10 of these pairs
# wrong: none wrong would leave nothing for the self-test to fix here, and
# ops-selftest-off-reproduces-np4 needs them too; a later Open MPI that
# fixes them all fails both, and then these tests need another broken pair.
run_test ops-selftest-fixes-np4 "${mpirun_cmd[@]}" --mca coll_rsag_verbose 1 -np 4 \
    "$here/mpi/rsag_opcheck"
expect_in_log 'rsag_opcheck: np=4 reduce_local wrong=[1-9][0-9]* allreduce wrong=0$'
expect_in_log 'rsag_opcheck: rsag ran ([1-9][0-9]*) of \1 allreduce calls itself$'
expect_in_log 'coll:rsag: op self-test: '
if test_ran; then
    for pair in $(sed -n 's/^rsag_opcheck: reduce_local \(.*\) wrong$/\1/p' "$last_log"); do
        expect_in_log "op self-test: .*[ :]$pair( \\(|,| \\(self-test)"
    done
fi

# The check that rsag ran the calls can fail: with rsag's priority below
# zero tuned does them (and gets the same pairs right or wrong as rsag
# would without its self-test; the counters decide).
run_test ops-opcheck-detects-rsag-absent-np2 exits_with_error "${mpirun_cmd[@]}" \
    --mca coll_rsag_priority -1 -np 2 "$here/mpi/rsag_opcheck"
expect_in_log 'rsag_opcheck: rsag ran 0 of [1-9][0-9]* allreduce calls itself$'

# Without the self-test rsag trusts Open MPI: MPI_Allreduce is then wrong
# for exactly the pairs MPI_Reduce_local is wrong for (10 here), which is
# what the test above guards against.  (Through rsag's point-to-point
# algorithms, which reduce in two-buffer form as MPI_Reduce_local does;
# `direct`, auto's choice at p <= 4 on one node, reduces in three-buffer
# form, whose broken pairs in Open MPI 4.1.4 are another set: 4 of them.)
run_test ops-selftest-off-reproduces-np4 exits_with_error "${mpirun_cmd[@]}" \
    --mca coll_rsag_op_selftest 0 --mca coll_rsag_allreduce_direct_min_bytes 9223372036854775807 \
    -np 4 "$here/mpi/rsag_opcheck"
expect_in_log 'rsag_opcheck: np=4 reduce_local wrong=([1-9][0-9]*) allreduce wrong=\1$'
expect_in_log 'rsag_opcheck: rsag ran ([1-9][0-9]*) of \1 allreduce calls itself$'

# rsag_check's groups of Open MPI's own op bugs: right through rsag with the
# default op components, wrong (on Open MPI 4.1.4) without the self-test.
run_test ops-ulong-minmax-np4 "${mpirun_cmd[@]}" -np 4 "$check" --group ulong
expect_in_log 'rsag_check: np=4 cases=[1-9][0-9]* passed=[0-9]+ failed=0 '
# 8/16-bit integer SUM/PROD: Open MPI 4.1.4's op/avx mis-sums 8/16-bit
# integers (Open MPI #8045), even in MPI_Reduce_local; rsag's op self-test
# replaces those kernels, so this group runs with the default op components.
run_test ops-smallint-sum-default-ops-np4 "${mpirun_cmd[@]}" -np 4 "$check" --group smallint
expect_in_log 'rsag_check: np=4 cases=[1-9][0-9]* passed=[0-9]+ failed=0 '
# Both groups where p is not a power of two (the folding paths).
run_test ops-smallint-ulong-np5 "${mpirun_cmd[@]}" -np 5 "$check" --group smallint,ulong
expect_in_log 'rsag_check: np=5 cases=[1-9][0-9]* passed=[0-9]+ failed=0 '
run_test ops-smallint-selftest-off-fails-np4 exits_with_error "${mpirun_cmd[@]}" \
    --mca coll_rsag_op_selftest 0 -np 4 "$check" --group smallint
expect_in_log 'rsag_check: np=4 cases=[0-9]+ passed=[0-9]+ failed=[1-9]'
