# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# rsag-common.sh: what rsag-bench.sh and rsag-tune.sh share, sourced by both
# (installed next to them): messages, the collectives, and the options both
# take -- their defaults, parsing and checks.  The sourcing script sets PROG
# (its name, for messages) first.
#
#   common_option "$@"     handles one shared option at the front of "$@":
#                          returns 0 and sets SHIFT (words it took), or 1
#                          when "$1" is not one of them
#   check_common_options   refuses bad values of the shared options
#   BENCH_PASS_ARGS        the measurement options as given (rsag-tune.sh
#                          passes them on to rsag-bench.sh)

die() { echo "$PROG: $*" >&2; exit 2; }
need() { [ $# -ge 2 ] && [ -n "$2" ] || die "option $1 needs a value"; }

# The collectives of rsag, in their usual order.
RSAG_COLLS="allreduce reduce reduce_scatter_block reduce_scatter"
is_coll() { case " $RSAG_COLLS " in *" $1 "*) [ -n "$1" ] ;; *) false ;; esac; }

# Defaults of the shared options (OUTDIR: set by each script).
NP=2
MPIRUN_ARGS=
REPS=3
MIN_BYTES=8
MAX_BYTES=64M
SIZES=
ITERS=
DTYPE=double
COMPONENT_DIR=${RSAG_COMPONENT_DIR:-}
BENCH=
WAIT_QUIET=0
QUIET_LOAD=0.7
QUIET_CPU=0.3
BENCH_PASS_ARGS=()

# Usage lines of the shared options, for the scripts' --help.
common_usage() {
    cat <<EOF2
  -n, --np NP            process count (default 2)
      --mpirun-args "A"  extra mpirun arguments (e.g. "--mca pml ucx"), all jobs
      --reps N           repetitions of every benchmark job (default 3)
      --min-bytes N      smallest message (default 8)
      --max-bytes N      largest message (default 64M; K/M/G suffixes)
      --sizes N,N,...    explicit message sizes instead of min..max (powers of 4)
      --iters N          timed calls per size (default: rsag_bench's adaptive)
      --dtype T          double | float | int (default double)
  -o, --outdir DIR       where the outputs go (default $OUTDIR)
      --component-dir D  directory holding mca_coll_rsag.so, added to Open MPI's
                         component path (default: \$RSAG_COMPONENT_DIR, or nothing:
                         rsag installed in Open MPI's pkglibdir)
      --bench PATH       rsag_bench binary (default: the one next to rsag-bench.sh
                         (make / make install put it there) unless rsag_bench.c
                         there is newer, else build rsag_bench.c into OUTDIR)
      --wait-quiet SECS  before the run, wait until no other mpirun/rsag_check
                         runs and the 1-min loadavg < --quiet-load, polling every
                         20 s, at most SECS; before every job, wait (at most SECS)
                         until no other mpirun/rsag_check runs and the other
                         processes used less than --quiet-cpu cores over 2 s;
                         a job during which other MPI jobs appeared is run again
                         (at most twice) (default 0: no wait, no check)
                         each wait is at most SECS, all waits of the run together
                         at most 3*SECS; then it measures anyway and says so
      --quiet-load L     loadavg threshold of --wait-quiet (default 0.7)
      --quiet-cpu C      CPU-use threshold of --wait-quiet, cores (default 0.3)
EOF2
}

common_option() {
    case "$1" in
    -n|--np) need "$@"; NP=$2 ;;
    --mpirun-args) need "$@"; MPIRUN_ARGS=$2 ;;
    -o|--outdir) need "$@"; OUTDIR=$2 ;;
    --reps) need "$@"; REPS=$2 ;;
    --min-bytes) need "$@"; MIN_BYTES=$2 ;;
    --max-bytes) need "$@"; MAX_BYTES=$2 ;;
    --sizes) need "$@"; SIZES=$2 ;;
    --iters) need "$@"; ITERS=$2 ;;
    --dtype) need "$@"; DTYPE=$2 ;;
    --component-dir) need "$@"; COMPONENT_DIR=$2 ;;
    --bench) need "$@"; BENCH=$2 ;;
    --wait-quiet) need "$@"; WAIT_QUIET=$2 ;;
    --quiet-load) need "$@"; QUIET_LOAD=$2 ;;
    --quiet-cpu) need "$@"; QUIET_CPU=$2 ;;
    *) return 1 ;;
    esac
    case "$1" in
    -n|--np|--mpirun-args|-o|--outdir) ;;
    *) BENCH_PASS_ARGS+=("$1" "$2") ;;
    esac
    SHIFT=2
}

check_common_options() {
    case "$NP" in ''|*[!0-9]*) die "-n must be a number" ;; esac
    case "$REPS" in ''|*[!0-9]*|0) die "--reps must be a positive number" ;; esac
    case "$WAIT_QUIET" in ''|*[!0-9]*) die "--wait-quiet must be seconds" ;; esac
}
