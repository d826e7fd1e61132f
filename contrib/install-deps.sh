#!/usr/bin/env bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# Debian/Ubuntu packages needed to build, install and test mca_coll_rsag,
# on Debian 12 (Open MPI 4.1) and Debian 13 (Open MPI 5.0) alike.
# Runs apt-get as root, or through sudo for another user.
#
# Debian 13's libopenmpi-dev 5.0.7 lacks internal headers that its own
# opal_config.h includes (the first: opal/mca/threads/pthreads/
# threads_pthreads_mutex.h).  When the installed headers are incomplete,
# this script takes the headers of ompi/ and opal/ from the same version's
# Debian source package (apt-get source) into /usr/local/src/openmpi-VERSION,
# where configure looks for them (or pass configure --with-ompi-source=DIR).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

# valgrind: the memcheck suite; dpkg-dev, xz-utils: the source package of
# Open MPI when its headers are incomplete (above); git: copying the tree
# (contrib/rsag-debian13.sh); debootstrap: the Debian 13 / Open MPI 5.0 run
# (contrib/rsag-debian13.sh, CI); iproute2, procps: the emulated cluster
# (contrib/rsag-cluster.sh: ip, tc; the multinode suite: pgrep).
# python3-mpi4py, python3-numpy: test/mpi/rsag_mpi4py.py; curl: MPICH's tests
# (contrib/rsag-mpich-tests.sh; both for test/suites/external.sh).
# slurmctld, slurmd, slurm-client, munge: the Slurm cluster on the emulated
# hosts (contrib/rsag-slurm.sh, test/suites/slurm.sh); Open MPI's ranks use
# the PMIx plugin of slurm-wlm-basic-plugins, which they depend on.  Without
# recommends (which would add every Slurm plugin and its -dev package).  Not
# in a chroot (the Debian 13 run, which does not test Slurm): installing
# munge there could start its daemon inside the chroot.
packages=(libopenmpi-dev openmpi-bin libucx-dev autoconf automake libtool make gcc pkg-config
          valgrind dpkg-dev xz-utils git debootstrap iproute2 procps
          python3-mpi4py python3-numpy curl)
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
if ! ischroot; then
    "${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        slurmctld slurmd slurm-client munge
fi

# ---- localhost in /etc/hosts ---------------------------------------------------
# Every mpirun and orted looks up "localhost" (hwloc's X11 probe falls back to
# TCP on localhost).  Where /etc/hosts lacks the name (some sandboxes and
# containers start with an empty one), the lookup goes to DNS, and a dropped
# reply stalls the launch 5 s (the resolver's timeout): about half of all jobs
# here took 5-10 s longer, and the suite ran past CI's limit.  Add the lines a
# Debian installation has; nothing else in the file changes.
if ! getent -s files hosts localhost >/dev/null; then
    echo "install-deps: /etc/hosts does not name localhost; adding Debian's two lines (else every mpirun may wait 5 s for DNS)"
    printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' |
        "${as_root[@]}" tee -a /etc/hosts >/dev/null
fi

# ---- Open MPI's internal headers ---------------------------------------------
# The first ompi/ or opal/ header the component's includes need that is not
# installed (empty when none is missing).
first_missing_ompi_header() {
    local inc=() d
    for d in $(mpicc --showme:incdirs); do
        inc+=("-I$d")
        [ -f "$d/openmpi/ompi_config.h" ] && inc+=("-I$d/openmpi")
    done
    printf '%s\n' '#include "ompi_config.h"' '#include "ompi/mca/coll/coll.h"' \
        '#include "ompi/mca/coll/base/coll_base_util.h"' '#include "ompi/mca/pml/pml.h"' |
        gcc -E -o /dev/null "${inc[@]}" -I"$top/config/compat" \
            $(pkg-config --cflags-only-I pmix 2>/dev/null || true) -x c - 2>&1 |
        sed -nE 's/.*fatal error: ((ompi|opal)\/[^:]*): No such file.*/\1/p' | head -n 1 || true
}
missing=$(first_missing_ompi_header)
[ -n "$missing" ] || exit 0

version=$(dpkg-query -W -f='${Version}' libopenmpi-dev)           # e.g. 5.0.7-1
srcpkg=$(dpkg-query -W -f='${source:Package}' libopenmpi-dev)      # openmpi
upstream=${version#*:}
upstream=${upstream%-*}
dest=/usr/local/src/openmpi-$upstream
if [ -f "$dest/.complete" ] && [ -f "$dest/$missing" ]; then
    echo "install-deps: Open MPI $upstream's missing headers are in $dest"
    exit 0
fi
echo "install-deps: libopenmpi-dev $version lacks $missing (and maybe more);"
echo "install-deps: taking ompi/ and opal/ headers from Debian's source package $srcpkg=$version into $dest"

# A private apt configuration with deb-src lines for the system's Debian
# archive: the system's own sources are not changed.
. /etc/os-release
codename=${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}
mirror=${RSAG_DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
    mirror=$( { sed -nE 's/^[[:space:]]*deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+)[[:space:]].*/\2/p' \
                    /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null
                sed -nE 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | tr -s ' \t' '\n\n'
              } | grep -E '^[a-z+]+://[^ ]*/debian/?$' | head -n 1 || true)
    mirror=${mirror:-http://deb.debian.org/debian}
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/empty" "$work/lists/partial" "$work/cache/archives/partial"
chmod 755 "$work"
printf 'deb-src %s %s main\ndeb-src %s %s-updates main\n' "$mirror" "$codename" "$mirror" "$codename" \
    >"$work/sources.list"
apt_src=(apt-get -q -o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=$work/empty"
         -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o "Acquire::Languages=none"
         -o "APT::Sandbox::User=$(id -un)")
"${apt_src[@]}" update >"$work/apt.log" 2>&1 ||
    { cat "$work/apt.log" >&2; echo "install-deps: cannot read $mirror's $codename source lists" >&2; exit 1; }
(cd "$work" && "${apt_src[@]}" source --download-only "$srcpkg=$version") >"$work/apt.log" 2>&1 ||
    { cat "$work/apt.log" >&2; echo "install-deps: apt-get source $srcpkg=$version failed" >&2; exit 1; }
dpkg-source -q -x "$work"/*.dsc "$work/tree" >"$work/apt.log" 2>&1 ||
    { cat "$work/apt.log" >&2; echo "install-deps: dpkg-source -x failed" >&2; exit 1; }
"${as_root[@]}" rm -rf "$dest"
"${as_root[@]}" mkdir -p "$dest"
(cd "$work/tree" && find ompi opal -name '*.h' -print0 | "${as_root[@]}" xargs -0 cp --parents -t "$dest" --)
echo "$version" | "${as_root[@]}" tee "$dest/.complete" >/dev/null
[ -f "$dest/$missing" ] ||
    { echo "install-deps: $srcpkg=$version has no $missing either" >&2; exit 1; }
echo "install-deps: $(find "$dest" -name '*.h' | wc -l) headers of Open MPI $upstream in $dest (configure finds them there)"
