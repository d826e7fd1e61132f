# Checks that locate an installed Open MPI and its developer headers.

# RSAG_FIND_OMPI: find mpicc and ompi_info (--with-ompi=DIR or PATH) and
# derive the compile and link flags of Open MPI's internal API from them.
AC_DEFUN([RSAG_FIND_OMPI], [
  AC_ARG_WITH([ompi],
    [AS_HELP_STRING([--with-ompi=DIR],
      [Open MPI installation prefix (default: the one whose mpicc is on PATH)])])

  AS_IF([test -n "$with_ompi" && test "x$with_ompi" != xyes],
    [AC_PATH_PROG([MPICC], [mpicc], [], [$with_ompi/bin])
     AC_PATH_PROG([OMPI_INFO], [ompi_info], [], [$with_ompi/bin])],
    [AC_PATH_PROG([MPICC], [mpicc])
     AC_PATH_PROG([OMPI_INFO], [ompi_info])])

  AS_IF([test -z "$MPICC" || test -z "$OMPI_INFO"],
    [AC_MSG_ERROR([Open MPI was not found (need mpicc and ompi_info).
  On Debian/Ubuntu:  apt-get install -y libopenmpi-dev openmpi-bin
  Elsewhere: put Open MPI's bin/ on PATH or pass --with-ompi=DIR.])])

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

  AC_SUBST([MPICC])
  AC_SUBST([OMPI_INFO])
  AC_SUBST([OMPI_PREFIX])
  AC_SUBST([OMPI_PKGLIBDIR])
  AC_SUBST([OMPI_CPPFLAGS])
  AC_SUBST([OMPI_LIBS])
  AC_SUBST([MPI_LINK])
])

# RSAG_CHECK_OMPI_HEADERS: the developer headers must be installed, the
# version must be one we build for, and ompi/op/op.h must compile (Debian's
# libopenmpi-dev omits a Fortran helper header that op.h includes: we supply
# a compatible one from config/compat).
AC_DEFUN([RSAG_CHECK_OMPI_HEADERS], [
  rsag_save_CPPFLAGS="$CPPFLAGS"
  CPPFLAGS="$CPPFLAGS $OMPI_CPPFLAGS"

  AC_CHECK_HEADER([ompi/mca/coll/coll.h], [],
    [AC_MSG_ERROR([Open MPI's developer headers (ompi/mca/coll/coll.h) are missing.
  On Debian/Ubuntu:  apt-get install -y libopenmpi-dev
  From source: configure Open MPI with --with-devel-headers.])],
    [#include "ompi_config.h"])

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

  RSAG_COMPAT_CPPFLAGS=""
  AC_CHECK_HEADER([ompi/mpi/fortran/base/fint_2_int.h], [],
    [AC_MSG_NOTICE([ompi/mpi/fortran/base/fint_2_int.h is missing: using config/compat/])
     RSAG_COMPAT_CPPFLAGS='-I$(top_srcdir)/config/compat'
     CPPFLAGS="$CPPFLAGS -I$srcdir/config/compat"],
    [#include "ompi_config.h"])
  AC_SUBST([RSAG_COMPAT_CPPFLAGS])

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
