# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# big.sh: MPI_Allreduce and MPI_Reduce past 2^31 bytes in the default run.
# Sourced by test/run_tests.sh.
#
# test/mpi/rsag_big: MPI_INT, count 2^29 + 16 (2 GiB + 64 bytes, the count
# still an int), MPI_SUM, every element checked, rsag's counters showing
# that rsag ran each call.  At np 2 the default algorithm is the node path
# (`direct`); about 4.2 GB of memory per rank, so the job needs some 9 GiB
# free: with less it fails and says so (a test that cannot run has not
# passed).  With RSAG_TEST_BIG=1 also forced rabenseifner (through the
# network path, messages of 1 GiB; 6.3 GB per rank) and ring.

big=$here/mpi/rsag_big

# big_job NP ARGS...: the job, when MemAvailable allows it.
big_job() {
    local need_kb=$(( 9 * 1024 * 1024 )) have_kb
    have_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
    if [ "${have_kb:-0}" -lt "$need_kb" ]; then
        echo "big: needs about 9 GiB of free memory, $(( ${have_kb:-0} / 1024 )) MiB available"
        return 1
    fi
    local np="$1"; shift
    "${mpirun_cmd[@]}" -np "$np" "$big" "$@"
}

run_test big-allreduce-reduce-past-2gib-np2 big_job 2
expect_in_log 'rsag_big: allreduce count=536870928 bytes=2147483712 alg=[a-z_]+ .*: ok'
expect_in_log 'rsag_big: reduce count=536870928 bytes=2147483712 alg=[a-z_]+ .*: ok'
expect_in_log 'rsag_big: np=2 failed=0'

if [ "${RSAG_TEST_BIG:-0}" = 1 ]; then
    for alg in rabenseifner ring; do
        run_test "big-allreduce-reduce-past-2gib-$alg-np2" big_job 2 --alg "$alg"
        expect_in_log "rsag_big: allreduce count=536870928 .* alg=$alg .*: ok"
        expect_in_log 'rsag_big: np=2 failed=0'
    done
fi
