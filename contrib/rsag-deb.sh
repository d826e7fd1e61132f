#!/usr/bin/env bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-deb.sh: a Debian package (.deb) of this build, for the Open MPI it was
# configured against; `make deb` runs it (doc/install.md, "A Debian package").
#
#   make deb        ->  mca-coll-rsag_<version>-1+ompi<series>_<arch>.deb
#
# The built tree is installed with DESTDIR into a staging directory, with the
# component in Open MPI's own component directory (its pkglibdir, whatever
# --with-ompi-component-dir said) and the tools in /usr/lib/mca-coll-rsag/bin
# (commands in /usr/bin run them there: the scripts find their awk files next
# to themselves), the docs in /usr/share/doc/mca-coll-rsag; dpkg-deb makes
# the package.  The version is configure.ac's (AC_INIT).  It depends on the
# runtime library package and openmpi-bin of the configured Open MPI series
# (libopenmpi3 and openmpi-bin 4.1.x on Debian 12, libopenmpi40 and
# openmpi-bin 5.0.x on Debian 13), as dpkg-shlibdeps and dpkg -S find them.
#
# On Open MPI 5.0, mpirun hands its processes a component path that leaves
# pkglibdir out (doc/install.md): the package adds /etc/profile.d/$pkg.sh,
# which names Open MPI's default path again by the parameter's long name
# for every login shell (no maintainer script, no file of another package
# changed).
#
# Usage (make deb passes these from the configured tree):
#   rsag-deb.sh BUILDDIR SRCDIR VERSION OMPI_VERSION PKGLIBDIR
set -euo pipefail

die() { echo "rsag-deb: $*" >&2; exit 1; }
[ $# -eq 5 ] || die "usage: rsag-deb.sh BUILDDIR SRCDIR VERSION OMPI_VERSION PKGLIBDIR (run it as: make deb)"
builddir=$(cd "$1" && pwd)
srcdir=$(cd "$2" && pwd)
version=$3
ompi_version=$4
pkglibdir=$5
pkg=mca-coll-rsag
for tool in dpkg-deb dpkg-shlibdeps dpkg-architecture dpkg; do
    command -v "$tool" >/dev/null 2>&1 ||
        die "$tool is missing (apt-get install -y dpkg-dev; contrib/install-deps.sh installs it)"
done
[ -n "$pkglibdir" ] || die "configure did not find Open MPI's pkglibdir (ompi_info --path pkglibdir)"
series=${ompi_version%.*}
case "$series" in
    4.1|5.0) ;;
    *) die "Open MPI $ompi_version: only the 4.1 and 5.0 series are packaged" ;;
esac
next_series="${series%.*}.$(( ${series#*.} + 1 ))"
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
debversion="$version-1+ompi$series"
deb="$builddir/${pkg}_${debversion}_$arch.deb"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage="$work/root"
libexec=/usr/lib/$pkg/bin
doc=/usr/share/doc/$pkg

# ---- the files ----------------------------------------------------------------
# The component directory and the tools' directory given on make's command
# line override configure's choice in every Makefile of the tree.
make -C "$builddir" install DESTDIR="$stage" ompicomponentdir="$pkglibdir" rsagbindir="$libexec" \
    >"$work/install.log" 2>&1 || { tail -n 20 "$work/install.log" >&2; die "make install DESTDIR=... failed"; }
[ -f "$stage$pkglibdir/mca_coll_rsag.so" ] || die "make install did not put mca_coll_rsag.so into $pkglibdir"
# Nothing else of the tree's install may land elsewhere (a new install
# directory must be placed in the package on purpose).
unexpected=$(cd "$stage" && find . -type f | sed 's|^\.||' | grep -v -e "^$pkglibdir/" -e "^$libexec/" || true)
[ -z "$unexpected" ] || die "make install put files where the package does not expect them: $unexpected"

mkdir -p "$stage/usr/bin" "$stage$doc/doc"
for f in "$stage$libexec"/*; do
    name=$(basename "$f")
    [ -x "$f" ] || continue
    printf '#!/bin/sh\n# %s of the package %s (its files are in %s)\nexec %s/%s "$@"\n' \
        "$name" "$pkg" "$libexec" "$libexec" "$name" >"$stage/usr/bin/$name"
    chmod 755 "$stage/usr/bin/$name"
done
install -m 644 "$srcdir/README.md" "$stage$doc/"
install -m 644 "$srcdir"/doc/*.md "$stage$doc/doc/"
{
    echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
    echo "Upstream-Name: mca_coll_rsag"
    echo
    echo "Files: *"
    echo "Copyright: 2026 The mca_coll_rsag developers"
    echo "License: BSD-3-Clause"
    sed 's/^$/./; s/^/ /' "$srcdir/LICENSE"
} >"$stage$doc/copyright"
chmod 644 "$stage$doc/copyright"

# ---- the dependencies --------------------------------------------------------
# The shared libraries the component and the programs link (dpkg-shlibdeps
# reads the packages' shlibs files; it wants a debian/control to exist), and
# the Open MPI series the component was built for: its ABI is Open MPI's
# internal one, so the runtime library and openmpi-bin stay within it.
mkdir -p "$work/src/debian"
printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' "$pkg" "$pkg" >"$work/src/debian/control"
elves=()
while IFS= read -r -d '' f; do
    head -c 4 "$f" | grep -q 'ELF' && elves+=("$f")
done < <(find "$stage" -type f -print0)
shlibs=$(cd "$work/src" && dpkg-shlibdeps -O "${elves[@]}" 2>"$work/shlibdeps.err" |
         sed -n 's/^shlibs:Depends=//p') ||
    { cat "$work/shlibdeps.err" >&2; die "dpkg-shlibdeps failed"; }
libmpi=$(ldd "$stage$pkglibdir/mca_coll_rsag.so" | sed -n 's/.*libmpi\.so[^ ]* => \([^ ]*\).*/\1/p' | head -n 1)
[ -n "$libmpi" ] || die "mca_coll_rsag.so does not link libmpi (ldd)"
libpkg=$(dpkg -S "$(readlink -f "$libmpi")" 2>/dev/null | sed -n '1s/[:,].*//p')
[ -n "$libpkg" ] || die "no installed package owns $(readlink -f "$libmpi") (Open MPI not from Debian's packages?)"
depends=$(printf '%s\n' "$shlibs, $libpkg (>= $ompi_version), $libpkg (<< $next_series~), openmpi-bin (>= $ompi_version), openmpi-bin (<< $next_series~)" |
          sed 's/, /\n/g' | awk '!seen[$0]++' | paste -sd, | sed 's/,/, /g')

# ---- Open MPI 5.0: the component path under mpirun ----------------------------
# 5.0.7's mpirun hands its processes PMIx's component path as
# OMPI_MCA_mca_base_component_path, without Open MPI's pkglibdir; Open MPI
# reads a parameter's long name first, so OMPI_MCA_opal_mca_base_component_path
# in the environment mpirun starts from names Open MPI's default path again
# (the per-user install does the same with a line of
# ~/.openmpi/mca-params.conf: doc/install.md).  /etc/profile.d sets it for
# every login shell, unless the user set it; a plain file of the package
# (not a conffile): removing the package removes it.
mkdir -p "$stage/DEBIAN"
if [ "$series" = 5.0 ]; then
    mkdir -p "$stage/etc/profile.d"
    cat >"$stage/etc/profile.d/$pkg.sh" <<EOF
# $pkg: Open MPI 5.0's mpirun hands its processes a component path without
# $pkglibdir, where this package put rsag;
# the long name below wins over it (/usr/share/doc/$pkg/doc/install.md).
if [ -z "\${OMPI_MCA_opal_mca_base_component_path:-}" ]; then
    OMPI_MCA_opal_mca_base_component_path="$pkglibdir:\$HOME/.openmpi/components"
    export OMPI_MCA_opal_mca_base_component_path
fi
EOF
    chmod 644 "$stage/etc/profile.d/$pkg.sh"
fi

# ---- control and the package -------------------------------------------------
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat >"$stage/DEBIAN/control" <<EOF
Package: $pkg
Version: $debversion
Architecture: $arch
Maintainer: ${DEBFULLNAME:-mca_coll_rsag developers} <${DEBEMAIL:-$(id -un)@$(hostname -f 2>/dev/null || hostname)}>
Installed-Size: $size
Depends: $depends
Section: libs
Priority: optional
Description: faster reduction collectives for Open MPI $series (coll component rsag)
 mca_coll_rsag is an Open MPI coll component that takes over MPI_Allreduce,
 MPI_Reduce, MPI_Reduce_scatter_block and MPI_Reduce_scatter with
 reduce-scatter/allgather algorithms chosen per call.  This package installs
 it into Open MPI's own component directory, so every job of every user
 uses it (opt out per job: mpirun --mca coll ^rsag), with its benchmark,
 tuner and cost model (rsag-bench.sh, rsag-tune.sh, rsag_model, ...).
 Built for Open MPI $ompi_version.
EOF
find "$stage" -type d -exec chmod 755 {} +
rm -f "$deb"
dpkg-deb --root-owner-group --build "$stage" "$deb" >/dev/null || die "dpkg-deb --build failed"
echo "rsag-deb: $deb"
