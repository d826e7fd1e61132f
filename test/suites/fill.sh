# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# fill.sh: the slots a coll list leaves empty, which rsag fills
# (ompi/mca/coll/rsag/coll_rsag_fill.c), with exactly the card's command
# --mca coll rsag,basic.  test/mpi/rsag_fill runs every nonblocking and
# persistent collective (intra- and intercommunicators, MPI_COMM_SELF, in
# place, v and w, a non-commutative op) and the nonblocking and persistent
# neighborhood collectives (Cartesian, graph, distributed graph), checks
# every value, and checks rsag's counter coll_rsag_fill_calls against the
# calls it made (--expect-fill): that proves rsag's schedules ran.
# Sourced by test/run_tests.sh.

fill=("$here/mpi/rsag_fill")

for np in 1 2 3 4; do
    run_test "fill-rsag-basic-np$np" "${mpirun_cmd[@]}" --mca coll rsag,basic -np "$np" \
        "${fill[@]}" --expect-fill rest
    expect_in_log "rsag_fill: [0-9]+ checks, [1-9][0-9]* calls filled by rsag, all correct \(2 forms, np $np\)"
done

# What the module says it filled, on an intercommunicator too (verbose 2);
# with neither self nor inter in the list, their blocking collectives too.
run_test fill-verbose-names-slots-np2 "${mpirun_cmd[@]}" --mca coll rsag,basic \
    --mca coll_rsag_verbose 2 -np 2 "${fill[@]}" --expect-fill rest
# (short pieces, each on several ranks' lines: a long line of one rank may
# reach the log in two pieces around another's)
expect_in_log 'filled 36 empty slots on MPI_COMM_SELF \(cid 1, size 1\): ibarrier'
expect_in_log 'as coll/self would \(not listed\): barrier bcast gather gatherv scatter'
expect_in_log 'filled 30 empty slots on .*intercommunicator\): ibarrier barrier_init'
expect_in_log 'as coll/inter would \(not listed\): barrier bcast gather'
expect_in_log 'rsag_fill: [0-9]+ checks, [1-9][0-9]* calls filled by rsag, all correct'

# rsag's own nonblocking and persistent reductions, delegated (thresholds
# that cover no size): with nothing before rsag in their slots, the filled
# schedules are their fallback; every call is rsag's then.
fill_uncovered=()
if name_selected fill-fallback-reductions-np3; then
    while read -r var; do
        fill_uncovered+=(--mca "$var" 9223372036854775807)
    done < <(ompi_info --param coll rsag --level 9 --parsable 2>/dev/null |
        sed -n 's/^mca:coll:rsag:param:\(coll_rsag_[a-z_]*_min_bytes\):value:.*/\1/p' |
        grep -v -e cma -e stream -e '_priority_min_bytes$' | sort -u)
fi
run_test fill-fallback-reductions-np3 "${mpirun_cmd[@]}" --mca coll rsag,basic \
    "${fill_uncovered[@]}" -np 3 "${fill[@]}" --expect-fill all
expect_in_log 'thresholds leave MPI_Reduce_scatter messages below 9223372036854775807 bytes uncovered'
expect_in_log 'rsag_fill: [0-9]+ checks, [1-9][0-9]* calls filled by rsag, all correct \(2 forms, np 3\)'

# The reference: Open MPI's own components (libnbc) run the same program and
# agree, and rsag fills nothing when the list leaves nothing empty.  libnbc
# 4.1.4/5.0.7 puts a periodic Cartesian dimension of size 1 or 2 in the
# wrong order (open-mpi/ompi#14430): tolerated in this mode only, counted.
run_test fill-default-list-fills-nothing-np3 "${mpirun_cmd[@]}" -np 3 "${fill[@]}" \
    --expect-fill none
expect_in_log 'rsag_fill: [0-9]+ checks, 0 calls filled by rsag, all correct \(2 forms, np 3\)'

# Filling off: rsag declines intercommunicators and fills nothing.
run_test fill-off-fills-nothing-np2 "${mpirun_cmd[@]}" --mca coll_rsag_fill_empty_slots false \
    --mca coll_rsag_verbose 2 -np 2 "${fill[@]}" --expect-fill none
expect_in_log 'coll:rsag: declining .*: intercommunicator'
expect_not_in_log 'coll:rsag: filled'

# Over UCX and TCP.
run_test fill-ucx-np2 "${mpirun_cmd[@]}" --mca coll rsag,basic --mca pml ucx \
    --mca pml_ucx_tls any --mca pml_ucx_devices any -np 2 "${fill[@]}" --expect-fill rest
expect_in_log 'rsag_fill: [0-9]+ checks, [1-9][0-9]* calls filled by rsag, all correct'
run_test fill-tcp-np3 "${mpirun_cmd[@]}" --mca coll rsag,basic --mca pml ob1 \
    --mca btl self,tcp --mca btl_tcp_if_include lo -np 3 "${fill[@]}" --expect-fill rest
expect_in_log 'rsag_fill: [0-9]+ checks, [1-9][0-9]* calls filled by rsag, all correct'

# memcheck: no error and no definite leak in rsag's filled schedules.
fill_valgrind() { OMPI_MCA_coll=rsag,basic valgrind_job "$@"; }
run_test fill-valgrind-np2 fill_valgrind fill-valgrind-np2 2 "${fill[@]}" --expect-fill rest
expect_in_log 'rsag_fill: [0-9]+ checks, [1-9][0-9]* calls filled by rsag, all correct'
expect_in_log 'valgrind-filter: 2 files \(2 finished\), 0 rsag records'
