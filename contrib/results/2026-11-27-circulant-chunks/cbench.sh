#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The quick runs of this directory (README.md, "16 MB and 4 x 1"): one
# rsag_bench job per forced rsag algorithm on an emulated cluster that is
# already up (contrib/rsag-cluster.sh up N --rate 1gbit), one rank per host.
#   cbench.sh NP COLL SIZES ALG...     EXTRA="--mca ..." adds mpirun options,
#                                      ITERS (default 20) the calls per size
# Prints: ALG,<rsag_bench's CSV line> (time_us is field 5 after the label).
np=$1; coll=$2; sizes=$3; shift 3
top=$(cd "$(dirname "$0")/../../.." && pwd)
read -r -a args <<<"$("$top/contrib/rsag-cluster.sh" mpirun-args)"
hosts=$(for i in $(seq 1 "$np"); do printf 'rsag-h%d,' "$i"; done)
for alg in "$@"; do
    # shellcheck disable=SC2086
    OMPI_MCA_mca_base_component_path=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3:$HOME/.openmpi/components \
    mpirun $EXTRA --allow-run-as-root --oversubscribe -np "$np" --host "${hosts%,}" "${args[@]}" \
        --mca "coll_rsag_${coll}_algorithm" "$alg" "$top/contrib/rsag_bench" --coll "$coll" \
        --sizes "$sizes" --iters "${ITERS:-20}" --rsag-algorithms current --label "$alg" 2>&1 |
        grep -v '^#' | grep ",$coll," | sed "s/^/$alg,/"
done
