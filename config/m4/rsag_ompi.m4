# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# Checks that locate an installed Open MPI and its developer headers.

# RSAG_FIND_OMPI: find Open MPI (--with-ompi=DIR or mpicc on PATH) and
# derive the compile and link flags of its internal API.
AC_DEFUN([RSAG_FIND_OMPI], [
  AC_ARG_WITH([ompi],
    [AS_HELP_STRING([--with-ompi=DIR],
      [Open MPI installation prefix (default: the one whose mpicc is on PATH)])])

  AS_IF([test -n "$with_ompi" && test "x$with_ompi" != xyes],
    [AC_PATH_PROG([MPICC], [mpicc], [], [$with_ompi/bin])
     AC_PATH_PROG([OMPI_INFO], [ompi_info], [], [$with_ompi/bin])],
    [AC_PATH_PROG([MPICC], [mpicc])
     AC_PATH_PROG([OMPI_INFO], [ompi_info])])

  # An Open MPI whose programs cannot run on this host (a newer
  # distribution's package unpacked with dpkg -x, for a compile check) is
  # described by its pkg-config files instead: RSAG_OMPI_FROM_PKGCONFIG.
  AS_IF([test -n "$MPICC" && test -n "$OMPI_INFO" && $MPICC --showme:version >/dev/null 2>&1],
    [RSAG_OMPI_FROM_WRAPPER],
    [test -n "$with_ompi" && test "x$with_ompi" != xyes],
    [RSAG_OMPI_FROM_PKGCONFIG],
    [test -z "$MPICC" || test -z "$OMPI_INFO"],
    [AC_MSG_ERROR([Open MPI was not found (need mpicc and ompi_info).
  On Debian/Ubuntu:  apt-get install -y libopenmpi-dev openmpi-bin
  Elsewhere: put Open MPI's bin/ on PATH or pass --with-ompi=DIR.])],
    [AC_MSG_ERROR([$MPICC does not run here (try: $MPICC --showme:version).])])

  AC_SUBST([MPICC])
  AC_SUBST([OMPI_INFO])
  AC_SUBST([OMPI_PREFIX])
  AC_SUBST([OMPI_PKGLIBDIR])
  AC_SUBST([OMPI_CPPFLAGS])
  AC_SUBST([OMPI_LIBS])
  AC_SUBST([MPI_LINK])
])

# RSAG_OMPI_FROM_WRAPPER: the flags from a runnable mpicc and ompi_info.
AC_DEFUN([RSAG_OMPI_FROM_WRAPPER], [
  AS_IF([! $MPICC --showme:version 2>/dev/null | grep -qi "open mpi"],
    [AC_MSG_ERROR([$MPICC is not Open MPI's compiler wrapper (MPICH or another MPI?).
  mca_coll_rsag is an Open MPI component: point --with-ompi=DIR at an Open MPI install.])])

  OMPI_PREFIX=`$OMPI_INFO --parsable --path prefix | sed -e 's/^path:prefix://'`
  OMPI_PKGLIBDIR=`$OMPI_INFO --parsable --path pkglibdir | sed -e 's/^path:pkglibdir://'`

  # Include directories: the wrapper's, plus <dir>/openmpi where the internal
  # headers live in a plain `make install` of Open MPI.
  OMPI_CPPFLAGS=""
  for d in `$MPICC --showme:incdirs`; do
    OMPI_CPPFLAGS="$OMPI_CPPFLAGS -I$d"
    AS_IF([test -d "$d/openmpi" && test -f "$d/openmpi/ompi_config.h"],
      [OMPI_CPPFLAGS="$OMPI_CPPFLAGS -I$d/openmpi"])
  done
  # libmpi from the wrapper; libopen-pal named explicitly because we call
  # opal (output, MCA variables, datatype engine) directly and link with
  # -no-undefined.
  OMPI_LIBDIRS=""
  for d in `$MPICC --showme:libdirs`; do OMPI_LIBDIRS="$OMPI_LIBDIRS -L$d"; done
  OMPI_LIBS="$OMPI_LIBDIRS -lmpi -lopen-pal"
  MPI_LINK=`$MPICC --showme:link`

])

# RSAG_OMPI_FROM_PKGCONFIG: --with-ompi=DIR names an Open MPI whose programs
# cannot run here (e.g. Debian trixie's 5.0 packages unpacked with dpkg -x
# into ROOT, so DIR=ROOT/usr).  The flags come from DIR's ompi-c.pc, whose
# paths (prefix=/usr) pkg-config relocates under ROOT (its sysroot).
# Nothing of that Open MPI is executed: this builds the component (a compile
# and link check), it does not make it runnable here.
AC_DEFUN([RSAG_OMPI_FROM_PKGCONFIG], [
  AC_PATH_PROG([PKG_CONFIG], [pkg-config])
  AS_IF([test -z "$PKG_CONFIG"],
    [AC_MSG_ERROR([Open MPI in $with_ompi does not run here, and pkg-config (to read its ompi-c.pc) is missing.
  On Debian/Ubuntu:  apt-get install -y pkg-config])])
  AC_MSG_CHECKING([for ompi-c.pc under $with_ompi])
  rsag_pcdir=""
  for d in "$with_ompi"/lib/pkgconfig "$with_ompi"/lib/*/pkgconfig "$with_ompi"/lib/*/openmpi/lib/pkgconfig; do
    AS_IF([test -z "$rsag_pcdir" && test -f "$d/ompi-c.pc"], [rsag_pcdir="$d"])
  done
  AS_IF([test -z "$rsag_pcdir"],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([$with_ompi has neither a runnable bin/mpicc nor an ompi-c.pc: is it an Open MPI prefix?])])
  AC_MSG_RESULT([$rsag_pcdir])
  rsag_with_ompi=`echo "$with_ompi" | sed -e 's|/*$||'`
  rsag_pc_prefix=`PKG_CONFIG_LIBDIR="$rsag_pcdir" $PKG_CONFIG --variable=prefix ompi-c | sed -e 's|/*$||'`
  rsag_sysroot="${rsag_with_ompi%$rsag_pc_prefix}"
  AS_IF([test -z "$rsag_pc_prefix" || test "$rsag_sysroot$rsag_pc_prefix" != "$rsag_with_ompi"],
    [AC_MSG_ERROR([$rsag_pcdir/ompi-c.pc says prefix=$rsag_pc_prefix, which is not the end of --with-ompi=$with_ompi.])])
  AC_MSG_NOTICE([Open MPI in $with_ompi does not run on this host: using its pkg-config files (sysroot $rsag_sysroot); the component can be built, not run, with it])
  rsag_pc="env PKG_CONFIG_LIBDIR=$rsag_pcdir PKG_CONFIG_SYSROOT_DIR=$rsag_sysroot PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1 $PKG_CONFIG"
  OMPI_CPPFLAGS=`$rsag_pc --cflags-only-I ompi-c`
  # Debian's 5.0 wrapper does not name PMIx's include directory, which
  # opal's headers need (<pmix.h>): take it from pmix.pc next to ompi-c.pc.
  AS_IF([test -f "$rsag_pcdir/pmix.pc"],
    [OMPI_CPPFLAGS="$OMPI_CPPFLAGS `$rsag_pc --cflags-only-I pmix`"])
  # libmpi and libopen-pal as in RSAG_OMPI_FROM_WRAPPER; the linker must
  # take libmpi's own dependencies (libpmix, ...) from the same tree.
  OMPI_LIBDIRS=""
  for d in `$rsag_pc --libs-only-L ompi-c | sed -e 's/-L//g'`; do
    OMPI_LIBDIRS="$OMPI_LIBDIRS -L$d -Wl,-rpath-link,$d"
    AS_IF([test -e "$d/libmpi.so"],
      [OMPI_LIBDIRS="$OMPI_LIBDIRS -Wl,-rpath-link,`readlink -f "$d/libmpi.so" | sed -e 's|/[[^/]]*$||'`"])
  done
  OMPI_LIBS="$OMPI_LIBDIRS -lmpi -lopen-pal"
  MPI_LINK="$OMPI_LIBDIRS -lmpi"
  OMPI_PREFIX="$with_ompi"
  OMPI_PKGLIBDIR=""
])

# RSAG_CHECK_OMPI_HEADERS: the developer headers must be installed, the
# version must be one we build for, and ompi/op/op.h must compile (Debian's
# libopenmpi-dev omits a Fortran helper header that op.h includes: we supply
# a compatible one from config/compat).  Debian 13's libopenmpi-dev 5.0.7
# also lacks internal headers that its own opal_config.h includes: they are
# taken, searched last, from an Open MPI source tree of the same version
# (--with-ompi-source=DIR; default /usr/local/src/openmpi-VERSION, where
# contrib/install-deps.sh puts those of Debian's source package).
AC_DEFUN([RSAG_CHECK_OMPI_HEADERS], [
  AC_ARG_WITH([ompi-source],
    [AS_HELP_STRING([--with-ompi-source=DIR],
      [an Open MPI source tree (or its ompi/ and opal/ headers) of the same
       version, for internal headers the installed Open MPI lacks (Debian 13's
       5.0.7); default /usr/local/src/openmpi-VERSION if there
       (contrib/install-deps.sh fills it from Debian's source package)])])

  # The headers are installed at all?  (A file test: compiling them may fail
  # for another reason, dealt with below.)
  AC_MSG_CHECKING([for Open MPI's developer headers])
  rsag_incdir=""
  for rsag_flag in $OMPI_CPPFLAGS; do
    rsag_d=`echo "$rsag_flag" | sed -n -e 's/^-I//p'`
    AS_IF([test -z "$rsag_incdir" && test -n "$rsag_d" && test -f "$rsag_d/ompi_config.h" &&
           test -f "$rsag_d/ompi/mca/coll/coll.h"], [rsag_incdir="$rsag_d"])
  done
  AS_IF([test -z "$rsag_incdir"],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([Open MPI's developer headers (ompi_config.h, ompi/mca/coll/coll.h) are missing.
  On Debian/Ubuntu:  apt-get install -y libopenmpi-dev
  From source: configure Open MPI with --with-devel-headers.])])
  AC_MSG_RESULT([$rsag_incdir])

  rsag_save_CPPFLAGS="$CPPFLAGS"
  CPPFLAGS="$CPPFLAGS $OMPI_CPPFLAGS"

  AC_COMPUTE_INT([rsag_ompi_major], [OMPI_MAJOR_VERSION], [#include "mpi.h"],
    [AC_MSG_ERROR([cannot read OMPI_MAJOR_VERSION from mpi.h])])
  AC_COMPUTE_INT([rsag_ompi_minor], [OMPI_MINOR_VERSION], [#include "mpi.h"],
    [AC_MSG_ERROR([cannot read OMPI_MINOR_VERSION from mpi.h])])
  AC_COMPUTE_INT([rsag_ompi_release], [OMPI_RELEASE_VERSION], [#include "mpi.h"],
    [rsag_ompi_release=0])
  OMPI_VERSION="$rsag_ompi_major.$rsag_ompi_minor.$rsag_ompi_release"
  AC_MSG_CHECKING([whether Open MPI $OMPI_VERSION is supported])
  AS_CASE(["$rsag_ompi_major.$rsag_ompi_minor"],
    [4.1], [RSAG_COLL_API="coll 2.0.0 (Open MPI 4.1)"],
    [5.0], [RSAG_COLL_API="coll 2.4.0 (Open MPI 5.0)"],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([Open MPI $OMPI_VERSION is not supported: mca_coll_rsag builds against 4.1.x and 5.0.x.])])
  AC_MSG_RESULT([yes, $RSAG_COLL_API])
  AC_SUBST([OMPI_VERSION])
  AC_SUBST([RSAG_COLL_API])

  # Open MPI 5.0's opal headers include <pmix.h>, which its wrapper does not
  # name (Debian: /usr/lib/<triplet>/pmix2/include): take it from pmix.pc.
  AS_IF([test "$rsag_ompi_major" -ge 5],
    [AC_PATH_PROG([PKG_CONFIG], [pkg-config])
     AS_IF([test -n "$PKG_CONFIG" && ! echo "$OMPI_CPPFLAGS" | grep -q pmix],
       [rsag_pmix_cflags=`$PKG_CONFIG --cflags-only-I pmix 2>/dev/null`
        AS_IF([test -n "$rsag_pmix_cflags"],
          [OMPI_CPPFLAGS="$OMPI_CPPFLAGS $rsag_pmix_cflags"
           CPPFLAGS="$CPPFLAGS $rsag_pmix_cflags"])])])

  RSAG_COMPAT_CPPFLAGS=""
  AC_MSG_CHECKING([for ompi/mpi/fortran/base/fint_2_int.h])
  AS_IF([test -f "$rsag_incdir/ompi/mpi/fortran/base/fint_2_int.h"],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no: using config/compat/])
     RSAG_COMPAT_CPPFLAGS='-I$(top_srcdir)/config/compat'
     CPPFLAGS="$CPPFLAGS -I$srcdir/config/compat"])
  AC_SUBST([RSAG_COMPAT_CPPFLAGS])

  # Every internal header the component includes must be there; the first
  # missing one is named, and looked for in the Open MPI source tree.
  rsag_hdr_test='#include "ompi_config.h"
#include "ompi/op/op.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/mca/coll/base/coll_base_util.h"
#include "ompi/mca/pml/pml.h"'
  rsag_first_missing() {
    echo "$rsag_hdr_test" >conftest.c
    $CC -E $CPPFLAGS conftest.c -o /dev/null >conftest.err 2>&1
    cat conftest.err >&AS_MESSAGE_LOG_FD
    sed -n -e 's/.*fatal error: \([[^:]]*\): No such file.*/\1/p' conftest.err | sed -n -e 1p
    rm -f conftest.c conftest.err
  }
  AC_MSG_CHECKING([whether Open MPI's internal headers are all installed])
  rsag_missing=`rsag_first_missing`
  AS_IF([test -z "$rsag_missing"],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no, $rsag_missing is missing])
     AS_IF([test -n "$with_ompi_source" && test "x$with_ompi_source" != xyes && test "x$with_ompi_source" != xno],
       [rsag_ompi_source="$with_ompi_source"],
       [rsag_ompi_source="/usr/local/src/openmpi-$OMPI_VERSION"])
     rsag_howto="  contrib/install-deps.sh takes them from Debian's openmpi source package into
  /usr/local/src/openmpi-$OMPI_VERSION, where configure looks; or pass --with-ompi-source=DIR,
  an unpacked Open MPI $OMPI_VERSION source tree."
     AC_MSG_CHECKING([for $rsag_missing in $rsag_ompi_source])
     AS_IF([test -f "$rsag_ompi_source/$rsag_missing"],
       [AC_MSG_RESULT([yes])],
       [AC_MSG_RESULT([no])
        AC_MSG_ERROR([Open MPI $OMPI_VERSION's developer headers are incomplete: $rsag_missing,
  which its own headers include, is not installed (Debian 13's libopenmpi-dev 5.0.7 lacks
  such headers), and $rsag_ompi_source does not have it.
$rsag_howto])])
     rsag_src_flag="-idirafter $rsag_ompi_source"
     OMPI_CPPFLAGS="$OMPI_CPPFLAGS $rsag_src_flag"
     CPPFLAGS="$CPPFLAGS $rsag_src_flag"
     AC_MSG_CHECKING([whether Open MPI's internal headers are complete with $rsag_ompi_source])
     rsag_missing=`rsag_first_missing`
     AS_IF([test -z "$rsag_missing"],
       [AC_MSG_RESULT([yes])
        AC_MSG_NOTICE([using Open MPI $OMPI_VERSION headers missing from the installation from $rsag_ompi_source])],
       [AC_MSG_RESULT([no])
        AC_MSG_ERROR([$rsag_missing is neither installed nor in $rsag_ompi_source (is it Open MPI $OMPI_VERSION?).
$rsag_howto])])])

  AC_MSG_CHECKING([whether ompi/op/op.h and the coll base headers compile])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[
#include "ompi_config.h"
#include "ompi/op/op.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/mca/coll/base/coll_base_util.h"
#include "ompi/mca/pml/pml.h"
]], [[ (void) ompi_op_is_commute(&ompi_mpi_op_sum.op); ]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([Open MPI's internal headers do not compile here; see config.log.])])

  CPPFLAGS="$rsag_save_CPPFLAGS"
])

# RSAG_NO_UNDEFINED: libtool's -no-undefined only declares the intent; with
# GNU ld, -z defs makes an unresolved symbol (e.g. a missing -lopen-pal) a
# link error instead of a failure when Open MPI dlopens the component.
AC_DEFUN([RSAG_NO_UNDEFINED], [
  AC_MSG_CHECKING([whether the linker accepts -Wl,-z,defs])
  rsag_save_LDFLAGS="$LDFLAGS"
  LDFLAGS="$LDFLAGS -Wl,-z,defs"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])],
    [AC_MSG_RESULT([yes]); RSAG_LDFLAGS_DEFS="-Wl,-z,defs"],
    [AC_MSG_RESULT([no]); RSAG_LDFLAGS_DEFS=""])
  LDFLAGS="$rsag_save_LDFLAGS"
  AC_SUBST([RSAG_LDFLAGS_DEFS])
])

# RSAG_COMPONENT_DIR: where `make install` puts mca_coll_rsag.so.
AC_DEFUN([RSAG_COMPONENT_DIR], [
  AC_ARG_WITH([ompi-component-dir],
    [AS_HELP_STRING([--with-ompi-component-dir=DIR],
      [install mca_coll_rsag.so into DIR (default: Open MPI's pkglibdir;
       ~/.openmpi/components is searched by Open MPI for a user without root)])])
  AS_IF([test -n "$with_ompi_component_dir" && test "x$with_ompi_component_dir" != xyes],
    [ompicomponentdir="$with_ompi_component_dir"],
    [ompicomponentdir="$OMPI_PKGLIBDIR"])
  AS_IF([test -z "$ompicomponentdir"],
    [AC_MSG_ERROR([cannot find Open MPI's pkglibdir; pass --with-ompi-component-dir=DIR])])
  AC_SUBST([ompicomponentdir])
])
