#!/usr/bin/env bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# Run the demo: MPI_Allreduce and MPI_Reduce on 4 ranks, with rsag's
# decisions printed (coll_rsag_verbose 1) and its MPI_T call counters read
# back by the program.  Uses whatever mca_coll_rsag Open MPI finds (its
# pkglibdir or ~/.openmpi/components); extra arguments go to mpirun.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
np=${RSAG_DEMO_NP:-4}
args=()
[ "$(id -u)" -eq 0 ] && args+=(--allow-run-as-root)
[ "$(nproc)" -lt "$np" ] && args+=(--oversubscribe)
# Open MPI 5.0's launcher (PRRTE) hands the processes its PMIx component
# path as OMPI_MCA_mca_base_component_path, which replaces Open MPI's own
# default (pkglibdir and ~/.openmpi/components): name the default again
# unless the user set a path (doc/install.md).
if [ -z "${OMPI_MCA_mca_base_component_path:-}" ] &&
   ompi_info --version 2>/dev/null | grep -q '^Open MPI v5\.'; then
    pkglibdir=$(ompi_info --parsable --path pkglibdir | sed 's/^path:pkglibdir://')
    args+=(--mca mca_base_component_path "$pkglibdir:$HOME/.openmpi/components")
fi
echo "+ mpirun ${args[*]} --mca coll_rsag_verbose 1 $* -np $np contrib/rsag_demo"
exec mpirun "${args[@]}" --mca coll_rsag_verbose 1 "$@" -np "$np" "$here/rsag_demo"
