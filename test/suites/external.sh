# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# Other projects' tests of the collectives rsag fills in when the coll list
# leaves them empty (nonblocking, persistent, neighborhood, intercommunicator),
# with --mca coll $external_coll:
#  - external-mpich-<program>-np<N>: MPICH's own tests (test/mpi/coll of
#    Debian's mpich 4.0.2), downloaded, verified and built outside the tree
#    by contrib/rsag-mpich-tests.sh (cached: ~30 s the first time).  The
#    download needs the network: when it fails the tests FAIL, saying why;
#  - external-mpi4py-<what>-np<N>: test/mpi/rsag_mpi4py.py through Debian's
#    python3-mpi4py, every collective mpi4py has, at np 1-4, and once with
#    the default coll selection.
# rsag's part is shown by its verbose line (contrib/rsag-mpich-tests.sh
# --proof: the level and the pattern, kept there).

# The coll list under test: the card's.  rsag fills every slot basic leaves
# empty (coll_rsag_fill.c), so every nonblocking, persistent, neighborhood
# and intercommunicator call of these tests is rsag's.
external_coll=rsag,basic

external_mpich="$top/contrib/rsag-mpich-tests.sh"
external_python=${RSAG_PYTHON:-/usr/bin/python3}
read -r external_proof_verbose external_proof_pattern < <("$external_mpich" --proof)
# a hang here is a failure in minutes, not in RSAG_MPIRUN_TIMEOUT's 15
external_mpirun=(timeout -k 10 "${RSAG_EXTERNAL_TIMEOUT:-180}" mpirun --allow-run-as-root --oversubscribe)

# ---- MPICH's tests ------------------------------------------------------------
# Download, verify, configure and build once (no MPI job); each test then runs
# one program.  After a failed build the tests neither download nor build
# again: each fails at once.
external_fetch=()
run_test external-mpich-build "$external_mpich" --build-only
expect_in_log '^rsag-mpich-tests: built [0-9]+ programs of MPICH'"'"'s tests in '
if test_ran && [ "$last_ok" != 1 ]; then
    external_fetch=(--no-build)
fi
mapfile -t external_names < <("$external_mpich" -l)
[ ${#external_names[@]} -gt 0 ] || harness_error "contrib/rsag-mpich-tests.sh -l listed no test"
for external_name in "${external_names[@]}"; do
    run_test "$external_name" env RSAG_MPIRUN_TIMEOUT="${RSAG_EXTERNAL_TIMEOUT:-180}" \
        "$external_mpich" --coll "$external_coll" "${external_fetch[@]}" -k "^$external_name\$"
    expect_in_log ' No Errors'
    expect_in_log "$external_proof_pattern"
    expect_in_log "^rsag-mpich-tests: PASS $external_name\$"
done

# ---- mpi4py -------------------------------------------------------------------
# (Lines are matched anywhere, not from the start: rsag's verbose output of
# the other ranks shares the stream, and a line may land inside another.)
# --libnbc where libnbc does the nonblocking calls (see rsag_mpi4py.py: two
# things Open MPI 4.1.4's libnbc gets wrong, left out or accepted).
external_mpi4py() {  # external_mpi4py NAME NP [MPIRUN ARGS...]
    local name=$1 np=$2 libnbc=()
    shift 2
    case " $* " in *" coll rsag,basic "*) ;; *) libnbc=(--libnbc) ;; esac
    run_test "$name" "${external_mpirun[@]}" "$@" -np "$np" \
        "$external_python" "$here/mpi/rsag_mpi4py.py" "${libnbc[@]}"
    expect_in_log 'rsag_mpi4py: [1-9][0-9]* checks passed'
    expect_not_in_log 'MISMATCH'
}
if "$external_python" -c 'import mpi4py.MPI, numpy' >/dev/null 2>&1; then
    for np in 1 2 3 4; do
        external_mpi4py "external-mpi4py-coll-np$np" "$np" --mca coll "$external_coll" \
            --mca coll_rsag_verbose "$external_proof_verbose"
        expect_in_log "$external_proof_pattern"
        [ "$np" = 1 ] && expect_in_log 'rsag_mpi4py: intercommunicator left out: it needs 2 ranks'
        [ "$np" = 1 ] || expect_in_log 'rsag_mpi4py: intercommunicator '
    done
    # the default selection: the same checks pass without rsag filling anything
    external_mpi4py external-mpi4py-default-np3 3
else
    for np in 1 2 3 4; do
        skip_test "external-mpi4py-coll-np$np" "$external_python cannot import mpi4py and numpy (contrib/install-deps.sh: python3-mpi4py, python3-numpy)"
    done
    skip_test external-mpi4py-default-np3 "$external_python cannot import mpi4py and numpy"
fi
