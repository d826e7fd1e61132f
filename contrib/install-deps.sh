#!/usr/bin/env bash
# Debian/Ubuntu packages needed to build, install and test mca_coll_rsag.
# Runs apt-get as root, or through sudo for another user.
set -euo pipefail
packages=(libopenmpi-dev openmpi-bin libucx-dev autoconf automake libtool make gcc pkg-config)
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
