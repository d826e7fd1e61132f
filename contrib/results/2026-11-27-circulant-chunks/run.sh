#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# The runs of this directory (README.md): the first circulant run's parts
# rsb and allreduce (../2026-11-27-circulant/run.sh: rsag's algorithms and
# coll/tuned's on 5, 6 and 7 hosts x 1 rank, links capped at 1 Gbit/s, 5
# interleaved repetitions), from 64 KB (below, no run is longer than a
# chunk: the first run's numbers stand).  Oversubscribed: 5-7 processes on
# 2 cores.
#   run.sh [PART...]    PART: rsb, allreduce; default both
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../2026-11-27-circulant/run.sh" --out "$here" --sizes 64K,256K,1M,4M "${@:-rsb allreduce}"
