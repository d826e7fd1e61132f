# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# Scratch area: temporaries come from a per-communicator area
# reused across calls.  48 MiB MPI_Reduce at np 2 (Rabenseifner, forced: auto
# takes `direct` there, whose first calls try both its ways; 72 MiB of
# temporaries off the root, above glibc's largest mmap threshold, so
# without the area every call maps and page-faults them afresh): with the
# area, the timed calls take their temporaries from it, it does not grow,
# costs (almost) no page faults and is freed with the communicator; with
# coll_rsag_scratch_max_bytes 0 (through MPI_T) nothing is kept.  The
# per-call temporary need (coll_rsag_temporary_bytes) is the same both ways.
run_test scratch-reuse-reduce-np2 "${mpirun_cmd[@]}" -np 2 \
    --mca coll_rsag_reduce_algorithm rabenseifner "$here/mpi/rsag_alloc" \
    --scratch --coll reduce --bytes 50331648 --iters 3
expect_in_log 'rsag_alloc: np=2 cases=1 failed=0'
# Reduce_scatter_block and Allreduce at 4 MiB, np 3 (folding: forced, as
# auto takes `direct` there).
run_test scratch-reuse-small-np3 "${mpirun_cmd[@]}" -np 3 \
    --mca coll_rsag_allreduce_algorithm rabenseifner --mca coll_rsag_reduce_algorithm rabenseifner \
    --mca coll_rsag_reduce_scatter_block_algorithm recursive_halving "$here/mpi/rsag_alloc" \
    --scratch --bytes 4194304 --iters 3
expect_in_log 'rsag_alloc: np=3 cases=3 failed=0'
# A cap below a call's need: some temporaries of a call come from the area,
# the others from malloc (6000-byte work vectors, 3000-byte receive
# buffers); every algorithm, with failures injected at each request, must
# still give right results and free everything.
run_test scratch-cap-below-need-np4 "${mpirun_cmd[@]}" -np 4 \
    --mca coll_rsag_scratch_max_bytes 4096 "$here/mpi/rsag_alloc" --fail --count 1500
expect_in_log 'rsag_alloc: np=4 cases=[0-9]+ failed=0'
