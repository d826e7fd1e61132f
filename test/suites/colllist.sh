# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The coll list check (ompi/mca/coll/rsag/coll_rsag_colllist.c): rsag fills
# the slots a list leaves empty (coll_rsag_fill.c), so a list needs basic
# besides rsag; one that leaves basic out (or, with the filling off, libnbc,
# self or inter) gets one message from rsag, naming a list that works,
# before Open MPI fails; working lists and an unset `coll` get none.
# rsag's line itself proves rsag was loaded; the runs that start prove rsag
# did the reductions with the demo's own count of rsag calls.

# colllist_run CMD...: CMD's output, then how many rsag list lines it had
# (one message per job, from rank 0), with CMD's exit status.
colllist_run() {
    local out rc
    out=$("$@" 2>&1)
    rc=$?
    printf '%s\n' "$out"
    echo "rsag coll-list lines: $(printf '%s\n' "$out" | grep -c 'coll:rsag: the coll list')"
    return $rc
}

# rsag,basic: the card's own command.  basic has no nonblocking,
# persistent or neighborhood collectives; rsag fills them
# (coll_rsag_fill.c) and says so at verbose 2; no list line.
run_test colllist-rsag-basic-np2 colllist_run \
    "${mpirun_cmd[@]}" --mca coll rsag,basic --mca coll_rsag_verbose 2 -np 2 "$demo"
expect_in_log 'rsag coll-list lines: 0$'
expect_in_log 'coll:rsag: filled 36 empty slots on MPI_COMM_WORLD \(cid 0, size 2\): ibarrier'
expect_in_log 'neighbor_alltoallw_init; fallback of ireduce reduce_init iallreduce allreduce_init'
expect_in_log 'rank 0: [1-9][0-9]* calls done by rsag, 0 delegated; results correct'

# rsag alone: no component gives MPI_Bcast & co.; rsag names basic first.
run_test colllist-rsag-alone-np2 exits_nonzero colllist_run \
    "${mpirun_cmd[@]}" --mca coll rsag -np 2 "$demo"
expect_in_log 'coll:rsag: the coll list "rsag" leaves out basic: no component provides the blocking collectives other than rsag'
expect_in_log '^Use --mca coll rsag,basic$'
expect_in_log 'rsag coll-list lines: 1$'

# Filling off: rsag,basic fails as in Open MPI; rsag names libnbc, self, inter.
run_test colllist-unfilled-rsag-basic-np2 exits_nonzero colllist_run \
    "${mpirun_cmd[@]}" --mca coll rsag,basic --mca coll_rsag_fill_empty_slots false -np 2 "$demo"
expect_in_log 'coll:rsag: the coll list "rsag,basic" leaves out libnbc, self, inter: without libnbc no component provides the nonblocking collectives$'
expect_in_log '^Use --mca coll rsag,basic,self,libnbc,inter$'
expect_in_log 'rsag coll-list lines: 1$'

# An exclusion list that takes libnbc away: basic stays, rsag fills.
run_test colllist-exclude-libnbc-np3 colllist_run \
    "${mpirun_cmd[@]}" --mca coll ^libnbc -np 3 "$demo"
expect_in_log 'rsag coll-list lines: 0$'
expect_in_log 'rank 0: [1-9][0-9]* calls done by rsag, 0 delegated; results correct'

# Filling off, rsag,basic,libnbc: intercommunicators are left to basic alone.
run_test colllist-unfilled-no-self-inter-np3 colllist_run \
    "${mpirun_cmd[@]}" --mca coll rsag,basic,libnbc --mca coll_rsag_fill_empty_slots false \
    -np 3 "$demo"
expect_in_log 'coll:rsag: the coll list "rsag,basic,libnbc" leaves out self, inter: intercommunicator collectives .*crash'
expect_in_log '^Use --mca coll rsag,basic,self,libnbc,inter$'
expect_in_log 'rsag coll-list lines: 1$'
expect_in_log 'rank 0: [1-9][0-9]* calls done by rsag, 0 delegated; results correct'

# The list README recommends: no line, rsag does the reductions.
run_test colllist-recommended-np3 colllist_run \
    "${mpirun_cmd[@]}" --mca coll rsag,basic,self,libnbc,inter -np 3 "$demo"
expect_in_log 'rsag coll-list lines: 0$'
expect_in_log 'rank 0: [1-9][0-9]* calls done by rsag, 0 delegated; results correct'

# coll unset (the default selection): no line either.
run_test colllist-unset-np2 colllist_run "${mpirun_cmd[@]}" -np 2 "$demo"
expect_in_log 'rsag coll-list lines: 0$'
expect_in_log 'rank 0: [1-9][0-9]* calls done by rsag, 0 delegated; results correct'
