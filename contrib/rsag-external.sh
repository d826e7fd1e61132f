#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-external.sh: build the benchmarks users measure MPI with -- the OSU
# micro-benchmarks and the Intel MPI Benchmarks (IMB-MPI1) -- from their
# public sources, outside this tree, for rsag-bench.sh --osu / --imb.
#
#   contrib/rsag-external.sh -o ~/rsag-external
#   contrib/rsag-bench.sh -n 2 -c allreduce --sizes 8,64,512,4K \
#       --osu ~/rsag-external/osu/mpi/collective --imb ~/rsag-external/imb/IMB-MPI1
#
# Sources (each a git repository, a local clone of one, or a .tar.gz):
#   --osu-src  default https://github.com/forresti/osu-micro-benchmarks.git
#              (a mirror of OSU 5.3's sources; the official tarballs are at
#              https://mvapich.cse.ohio-state.edu/benchmarks/), --osu-ref 5.3
#   --imb-src  default https://github.com/intel/mpi-benchmarks.git, --imb-ref
#              v2019.1 (IMB 2019 Update 1)
# Builds with the mpicc on PATH (the Open MPI rsag was built for).  Prints the
# two paths to give rsag-bench.sh.  Needs git (or tar), make, mpicc, and for
# OSU autotools only when the source has no configure script.
set -eu
OUT=./rsag-external
OSU_SRC=https://github.com/forresti/osu-micro-benchmarks.git
OSU_REF=""
IMB_SRC=https://github.com/intel/mpi-benchmarks.git
IMB_REF=v2019.1
usage() {
    sed -n '5,22p' "$0" | sed 's/^# \{0,1\}//'
    echo "usage: $0 [-o DIR] [--osu-src SRC] [--osu-ref REF] [--imb-src SRC] [--imb-ref REF]"
}
die() { echo "rsag-external.sh: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
    case "$1" in
    -o|--out) OUT=$2; shift 2 ;;
    --osu-src) OSU_SRC=$2; shift 2 ;;
    --osu-ref) OSU_REF=$2; shift 2 ;;
    --imb-src) IMB_SRC=$2; shift 2 ;;
    --imb-ref) IMB_REF=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
    esac
done
command -v mpicc >/dev/null 2>&1 || die "mpicc not found (Debian: apt-get install libopenmpi-dev)"
command -v make >/dev/null 2>&1 || die "make not found"
mkdir -p "$OUT" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)
case "$OUT/" in "$(cd "$(dirname "$0")/.." && pwd)/"*) die "-o $OUT is inside rsag's tree: build them outside it" ;; esac

# $1 = source, $2 = ref (may be empty), $3 = destination directory
get() {
    rm -rf "$3"
    case "$1" in
    *.tar.gz|*.tgz)
        mkdir -p "$3"
        tar -xzf "$1" -C "$3" --strip-components=1 || die "cannot unpack $1" ;;
    *)
        command -v git >/dev/null 2>&1 || die "git not found (apt-get install git)"
        git clone -q "$1" "$3" || die "cannot clone $1"
        [ -z "$2" ] || git -C "$3" checkout -q "$2" || die "$1 has no $2" ;;
    esac
}

echo "rsag-external.sh: OSU from $OSU_SRC${OSU_REF:+ ($OSU_REF)}" >&2
get "$OSU_SRC" "$OSU_REF" "$OUT/osu"
(
    cd "$OUT/osu"
    if [ ! -x configure ]; then
        command -v autoreconf >/dev/null 2>&1 || die "OSU's source has no configure: needs autoreconf (apt-get install autoconf automake libtool)"
        autoreconf -fi >/dev/null 2>&1 || die "autoreconf failed in $OUT/osu"
    fi
    ./configure CC=mpicc CXX=mpicxx >"$OUT/osu-build.log" 2>&1 || die "OSU's configure failed: $OUT/osu-build.log"
    # a clone gives every file the same age in any order, so make may think
    # the shipped configure and Makefile.in older than their sources and run
    # the autotools OSU's release used (aclocal-1.15, not installed): they
    # are up to date, tell make so
    make -j"$(nproc)" -C mpi/collective ACLOCAL=true AUTOCONF=true AUTOMAKE=true \
        AUTOHEADER=true >>"$OUT/osu-build.log" 2>&1 || die "OSU's build failed: $OUT/osu-build.log"
)
for c in allreduce reduce reduce_scatter; do
    [ -x "$OUT/osu/mpi/collective/osu_$c" ] || die "OSU built no osu_$c"
done

echo "rsag-external.sh: IMB from $IMB_SRC${IMB_REF:+ ($IMB_REF)}" >&2
get "$IMB_SRC" "$IMB_REF" "$OUT/imb"
# the top-level Makefile builds IMB-MPI1 with its C++ driver, which has every
# benchmark (the legacy src_c driver of 2019 lacks Reduce_scatter_block)
command -v mpicxx >/dev/null 2>&1 || die "mpicxx not found (Debian: apt-get install libopenmpi-dev g++)"
make -C "$OUT/imb" IMB-MPI1 CC=mpicc CXX=mpicxx -j"$(nproc)" >"$OUT/imb-build.log" 2>&1 \
    || die "IMB's build failed: $OUT/imb-build.log"
imb=$OUT/imb/IMB-MPI1
[ -x "$imb" ] || die "IMB built no IMB-MPI1"

echo "--osu $OUT/osu/mpi/collective --imb $imb"
