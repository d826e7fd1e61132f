#!/usr/bin/env bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The whole test suite of mca_coll_rsag.  Run from a configured, built and
# installed tree (README: ./autogen.pl && ./configure && make && make install):
#
#   test/run_tests.sh            everything (about 15 minutes on 2 cores)
#   test/run_tests.sh -k NAME    only the tests whose name contains NAME
#                                ("^NAME": begins with NAME, "NAME$": ends
#                                with it, "^NAME$": is NAME); repeatable:
#                                the tests any of them selects, in one run
#                                (a -k that selects no test is a failure)
#   test/run_tests.sh -l         list the tests
#
# Each test is one program or one mpirun; its output goes to
# test/results/<name>.log, its time to test/results/TIMES.  The last line is
# "N passed, N failed", followed by ", N skipped" when tests could not run
# here (a skip is not a pass; .ci/run fails on unexpected ones); the exit
# status is 0 iff none failed.  RSAG_MPIRUN_TIMEOUT (seconds, default 900) bounds
# every mpirun.  The tests are in test/suites/*.sh, the harness in
# test/lib.sh; test/README.md explains both.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
results="$here/results"
filters=()
list_only=0
while [ $# -gt 0 ]; do
    case "$1" in
        -k) [ $# -ge 2 ] || { echo "run_tests.sh: -k needs a NAME" >&2; exit 2; }
            filters+=("$2"); shift 2 ;;
        -l) list_only=1; shift ;;
        -h|--help) sed -n '5,20p' "$0"; exit 0 ;;
        *) echo "run_tests.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

# shellcheck source=lib.sh
. "$here/lib.sh"

# Where the component was installed, from the configured Makefile.
componentdir=$(makevar ompi/mca/coll/rsag ompicomponentdir)
pkglibdir=$(makevar ompi/mca/coll/rsag OMPI_PKGLIBDIR)
if [ -z "$componentdir" ]; then
    echo "run_tests.sh: the tree is not configured; run ./autogen.pl && ./configure && make && make install" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
if [ "$componentdir" != "$pkglibdir" ]; then
    export OMPI_MCA_mca_base_component_path="$pkglibdir:$componentdir"
    # Open MPI 5.0's launcher exports ~/.openmpi/mca-params.conf to the
    # processes whatever mca_param_files says, and the long name of the
    # path, which `make install` writes there (doc/install.md), beats the
    # short one: name the tests' path by it too.
    export OMPI_MCA_opal_mca_base_component_path="$pkglibdir:$componentdir"
fi
# Tuning files of the user must not change what the tests expect.
export OMPI_MCA_mca_param_files=/dev/null
unset OMPI_MCA_coll OMPI_MCA_coll_rsag_allreduce_algorithm OMPI_MCA_coll_rsag_reduce_algorithm

timeout_s=${RSAG_MPIRUN_TIMEOUT:-900}
mpirun_cmd=(timeout -k 10 "$timeout_s" mpirun --allow-run-as-root --oversubscribe)
check="$here/mpi/rsag_check"
demo="$top/contrib/rsag_demo"
# The suites share this shell: none may reassign what the others read.
readonly here top results timeout_s mpirun_cmd check demo
mkdir -p "$results"
if [ "$list_only" = 1 ]; then
    harness_errors_file=$(mktemp)
    trap 'rm -f "$harness_errors_file"' EXIT
else
    : >"$times_file"
    : >"$harness_errors_file"
fi

# The suites: core.sh first (its first test checks that the installed
# component is this build), then the others in name order.
for suite in "$here/suites/core.sh" "$here"/suites/*.sh; do
    [ -e "$suite" ] || continue
    [ "$suite" = "$here/suites/core.sh" ] && [ -n "${core_done:-}" ] && continue
    # shellcheck source=/dev/null
    . "$suite"
    [ "$suite" = "$here/suites/core.sh" ] && core_done=1
done

if [ "$list_only" = 1 ]; then
    # a listing built from nothing (enum_values) is an error too
    [ -s "$harness_errors_file" ] && exit 1
    exit 0
fi
check_filters_hit
print_summary
