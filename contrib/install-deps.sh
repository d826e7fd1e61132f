#!/usr/bin/env bash
# Debian/Ubuntu packages needed to build, install and test mca_coll_rsag.
# Runs apt-get as root, or through sudo for another user.
set -euo pipefail
# valgrind: the memcheck suite; dpkg-dev, xz-utils, git: contrib/ompi5-compile-check.sh
# (Open MPI 5.0 build check).
packages=(libopenmpi-dev openmpi-bin libucx-dev autoconf automake libtool make gcc pkg-config
          valgrind dpkg-dev xz-utils git)
if [ "$(id -u)" -eq 0 ]; then
    as_root=(env)
else
    as_root=(sudo env)
fi
"${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get update -q
"${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${packages[@]}"
# gnuplot for contrib/rsag-bench.sh's PNG plot; without recommends it is 4 small
# packages (with them, ImageMagick and Ghostscript).
"${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends gnuplot-nox
