#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# One benchmark run of this directory on the emulated cluster, exactly as it
# was made (README.md):
#   run.sh HOSTS RATE COLL SIZES OUTSUBDIR [rsag-bench.sh options...]
# HOSTS hosts x 1 rank, links capped at RATE (tc syntax), from the top of a
# built tree (component in $RSAG_COMPONENT_DIR, default ./.inst).  Takes
# the machine lock exclusively before the cluster's own lock (not when
# RSAG_LOCKED=1: the caller holds it); uptime before and after go to
# OUTSUBDIR/machine.txt.
set -eu
[ $# -ge 5 ] || { echo "usage: $0 HOSTS RATE COLL SIZES OUTSUBDIR [bench options]" >&2; exit 2; }
n=$1 rate=$2 coll=$3 sizes=$4 out=$5; shift 5
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
cd "$top"
hosts=$(seq -s, -f 'rsag-h%g:1' 1 "$n")
mkdir -p "$here/$out"
lock=(flock -x /work/.machine.lock)
[ "${RSAG_LOCKED:-0}" = 1 ] && lock=()
exec "${lock[@]}" contrib/rsag-cluster.sh with "$n" --rate "$rate" -- \
    bash -c 'echo "before: $(uptime)" >"$1/machine.txt"
             contrib/rsag-bench.sh -n "$2" -c "$3" --sizes "$4" --component-dir "${RSAG_COMPONENT_DIR:-$PWD/.inst}" \
                 --mpirun-args "$(contrib/rsag-cluster.sh mpirun-args) --host $5" -o "$1" "${@:6}"
             rc=$?
             echo "after:  $(uptime)" >>"$1/machine.txt"
             exit $rc' run "$here/$out" "$n" "$coll" "$sizes" "$hosts" "$@"
