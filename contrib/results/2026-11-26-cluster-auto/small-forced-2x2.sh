#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# Allreduce at 8 B and 1 KB on 2 hosts x 2 ranks: every rsag algorithm
# forced in one job (rsag_bench --rsag-algorithms forced, interleaved per
# round) and coll/tuned's default (0), recursive doubling (3) and
# Rabenseifner (6), 300 calls each, 3 repetitions.  Run inside the cluster:
#   contrib/rsag-cluster.sh with 2 --rate 1gbit -- contrib/results/2026-11-26-cluster-auto/small-forced-2x2.sh
cd "$(cd "$(dirname "$0")/../../.." && pwd)"
args=$(contrib/rsag-cluster.sh mpirun-args)
comp=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3:$HOME/.openmpi/components
for rep in 1 2 3; do
  echo "== rep $rep rsag forced"
  OMPI_MCA_mca_base_component_path=$comp mpirun --allow-run-as-root $args --host rsag-h1:2,rsag-h2:2 -np 4 contrib/rsag_bench --coll allreduce --sizes 8,1024 --iters 300 --rsag-algorithms forced 2>&1 | grep -v "^#"
  echo "== rep $rep tuned"
  for a in 0 3 6; do OMPI_MCA_mca_base_component_path=$comp mpirun --allow-run-as-root $args --host rsag-h1:2,rsag-h2:2 -np 4 --mca coll ^rsag --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allreduce_algorithm $a contrib/rsag_bench --coll allreduce --sizes 8,1024 --iters 300 --rsag-algorithms current --label tuned$a 2>&1 | grep -v "^#\|^label"; done
done
