#!/usr/bin/env bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-mpich-tests.sh: run MPICH's own tests of the collectives rsag fills in
# -- nonblocking, persistent, neighborhood and intercommunicator -- against
# the Open MPI on PATH with a given coll list (default rsag,basic: every slot
# basic leaves empty is rsag's), each built with Open MPI's mpicc.
#
#   contrib/rsag-mpich-tests.sh                    every test, --coll rsag,basic
#   contrib/rsag-mpich-tests.sh --coll rsag,basic,libnbc,inter -k nbic
#   contrib/rsag-mpich-tests.sh -l                 list the tests, run nothing
#
# The tests are MPICH's (test/mpi/coll of Debian's mpich 4.0.2 source,
# checked against its SHA-256), downloaded at run time and never part of this
# tree: the tarball, MPICH's test configure (run once, with CC=mpicc) and the
# programs are kept in a cache outside the tree, RSAG_MPICH_CACHE (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/rsag-mpich-tests), one build directory per
# Open MPI version.  A test passes when its mpirun exits 0, prints MPICH's
# " No Errors" line, and rsag's verbose output shows rsag took part
# (proof_pattern below).  Each test is named external-mpich-<program>-np<N>,
# as in test/suites/external.sh.
#
# Options:
#   --coll LIST       the coll list (default rsag,basic)
#   -k NAME           only the tests whose name contains NAME ("^NAME": begins
#                     with it, "NAME$": ends with it); repeatable
#   -l                list the tests' names (no download, no build)
#   --build-only      download, verify and build; run nothing
#   --no-fetch        never download: fail unless the tarball is cached
#   --no-build        never download nor build: fail unless the programs are built
#   --tarball FILE    use FILE as mpich_4.0.2.orig.tar.xz (checked the same)
#   --mpirun-args "A" extra mpirun arguments for every job
#   --print-tarball   print the cached tarball's path (for copying it elsewhere)
#   --proof           print the verbose level and the pattern of the rsag check
# RSAG_MPIRUN_TIMEOUT (seconds, default 300) bounds every job.  The last line
# is "N passed, N failed"; the exit status is 0 iff none failed.
set -uo pipefail
prog=rsag-mpich-tests

# ---- What is tested, and how rsag's part is recognised ------------------------
url=${RSAG_MPICH_URL:-http://deb.debian.org/debian/pool/main/m/mpich/mpich_4.0.2.orig.tar.xz}
sha256=b27039f964afeb6b8a3e009c56b441cbe368c26d6d6476ad3bb7190996875860  # mpich_4.0.2-3.dsc
srcdir_in_tar=mpich-4.0.2/test/mpi
# rsag's part: coll_rsag_verbose level and the line it must print (grep -E).
# Level 2 names the slots rsag filled on each communicator (coll_rsag_fill.c).
proof_verbose=2
proof_pattern='coll:rsag: filled [0-9]+ empty slots on MPI_COMM_WORLD'
# Bump when the way the programs are built changes: the cache is rebuilt.
build_recipe=3

# The tests: program, MPICH source (coll/*.c), np, extra flags.  np is the
# first of MPICH's testlist capped at 4 (5 where the test needs a divisor of
# 10); nonblocking2/3 also at np 1.  "nb" programs are MPICH's blocking
# tests built with -DUSE_MTEST_NBC (every collective call made nonblocking
# and waited for), as MPICH's own Makefile builds them.
tests() {
    cat <<'EOF'
nonblocking             nonblocking             4
nonblocking2            nonblocking2            1
nonblocking2            nonblocking2            4
nonblocking3            nonblocking3            1
nonblocking3            nonblocking3            4
iallred                 iallred                 2
ibarrier                ibarrier                2
nballtoall1             alltoall1               4 -DUSE_MTEST_NBC
nbcoll2                 coll2                   5 -DUSE_MTEST_NBC
nbredscat               redscat                 4 -DUSE_MTEST_NBC
nbredscat3              redscat3                4 -DUSE_MTEST_NBC
nbredscatinter          redscatinter            4 -DUSE_MTEST_NBC
EOF
    local c
    for c in allgather allgatherv allreduce alltoall alltoallv alltoallw barrier bcast \
             gather gatherv reduce scatter scatterv; do
        printf '%-23s %-23s 4\n' "ic$c" "ic$c"
        printf '%-23s %-23s 4 -DUSE_MTEST_NBC\n' "nbic$c" "ic$c"
    done
    cat <<'EOF'
redscatinter            redscatinter            4
redscatbkinter          redscatbkinter          4
neighb_allgather        neighb_allgather        4
neighb_allgatherv       neighb_allgatherv       4
neighb_alltoall         neighb_alltoall         4
neighb_alltoallv        neighb_alltoallv        4
neighb_alltoallw        neighb_alltoallw        4
ring_neighbor_alltoall  ring_neighbor_alltoall  1
ring_neighbor_alltoall  ring_neighbor_alltoall  2
p_gatherv               p_gatherv               5
p_barrier               p_barrier               2
p_order                 p_order                 2
EOF
    for c in allgather allgatherv allred alltoall alltoallv alltoallw bcast bcast2 exscan \
             gather red red_scat_block redscat scan scatter scatterv neighb_allgather \
             neighb_allgatherv neighb_alltoall neighb_alltoallv neighb_alltoallw; do
        printf '%-23s %-23s 4\n' "p_$c" "p_$c"
    done
}

# ---- Options ----------------------------------------------------------------
die() { echo "$prog: $*" >&2; echo "0 passed, 1 failed"; exit 1; }
coll=rsag,basic
filters=()
list_only=0
build_only=0
no_fetch=0
no_build=0
tarball_opt=""
mpirun_args=""
cache=${RSAG_MPICH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rsag-mpich-tests}
tarball=$cache/${url##*/}
while [ $# -gt 0 ]; do
    case "$1" in
        --coll) [ $# -ge 2 ] || die "--coll needs a LIST"; coll=$2; shift 2 ;;
        -k) [ $# -ge 2 ] || die "-k needs a NAME"; filters+=("$2"); shift 2 ;;
        -l) list_only=1; shift ;;
        --build-only) build_only=1; shift ;;
        --no-fetch) no_fetch=1; shift ;;
        --no-build) no_fetch=1; no_build=1; shift ;;
        --tarball) [ $# -ge 2 ] || die "--tarball needs a FILE"; tarball_opt=$2; shift 2 ;;
        --mpirun-args) [ $# -ge 2 ] || die "--mpirun-args needs a value"; mpirun_args=$2; shift 2 ;;
        --print-tarball) echo "$tarball"; exit 0 ;;
        --proof) echo "$proof_verbose $proof_pattern"; exit 0 ;;
        -h|--help) sed -n '5,38p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
done

# selected NAME: no -k, or NAME matches one of them (as test/run_tests.sh -k).
selected() {
    local f g
    [ ${#filters[@]} -eq 0 ] && return 0
    for f in "${filters[@]}"; do
        g=${f#^}
        case "$f" in
            ^*\$) [[ "$1" == "${g%\$}" ]] && return 0 ;;
            ^*) [[ "$1" == "$g"* ]] && return 0 ;;
            *\$) [[ "$1" == *"${f%\$}" ]] && return 0 ;;
            *) [[ "$1" == *"$f"* ]] && return 0 ;;
        esac
    done
    return 1
}

# The selected tests as "name program source np flags" lines.
chosen=()
while read -r program source np flags; do
    name="external-mpich-$program-np$np"
    selected "$name" && chosen+=("$name $program $source $np $flags")
done < <(tests)
if [ "$list_only" = 1 ]; then
    for t in "${chosen[@]}"; do echo "${t%% *}"; done
    exit 0
fi
[ ${#chosen[@]} -gt 0 ] || [ "$build_only" = 1 ] || die "no test matches -k ${filters[*]} (-l lists them)"

# ---- 1. The tarball: cached, downloaded once, always verified ---------------
command -v mpicc >/dev/null 2>&1 || die "mpicc not found (Debian: apt-get install libopenmpi-dev)"
command -v mpirun >/dev/null 2>&1 || die "mpirun not found (Debian: apt-get install openmpi-bin)"
mkdir -p "$cache" || die "cannot create the cache directory $cache (set RSAG_MPICH_CACHE)"
exec 8>"$cache/.lock"
flock 8 || die "cannot lock $cache/.lock"

verify() { [ "$(sha256sum <"$1" | cut -d' ' -f1)" = "$sha256" ]; }

# download: fetch $url into $tarball.part, saying why when it cannot.
download() {
    local rc
    if command -v curl >/dev/null 2>&1; then
        curl -sS -f -L --connect-timeout 20 --max-time 600 -o "$tarball.part" "$url"
    elif command -v wget >/dev/null 2>&1; then
        wget -q -T 20 -O "$tarball.part" "$url"
    else
        die "neither curl nor wget is installed to download $url (Debian: apt-get install curl)"
    fi
    rc=$?
    [ "$rc" -eq 0 ] && return 0
    rm -f "$tarball.part"
    local host
    host=$(sed -E 's|^[a-z]+://([^/:]+).*|\1|' <<<"$url")
    if ! getent hosts "$host" >/dev/null 2>&1; then
        die "cannot download $url: no network here ($host does not resolve). These tests need it once; or give the file with --tarball FILE"
    fi
    die "cannot download $url (exit status $rc; $host resolves). Or give the file with --tarball FILE"
}

if [ -n "$tarball_opt" ]; then
    [ -f "$tarball_opt" ] || die "--tarball $tarball_opt: no such file"
    verify "$tarball_opt" || die "--tarball $tarball_opt is not Debian's mpich_4.0.2.orig.tar.xz (SHA-256 differs)"
    [ "$tarball_opt" -ef "$tarball" ] || cp "$tarball_opt" "$tarball" || die "cannot copy $tarball_opt to $cache"
fi
if [ ! -f "$tarball" ]; then
    [ "$no_fetch" = 0 ] || die "MPICH's tests are not in $cache and --no-fetch forbids downloading them"
    echo "$prog: downloading $url" >&2
    download
    verify "$tarball.part" ||
        { rm -f "$tarball.part"; die "$url does not have the SHA-256 of Debian's mpich_4.0.2-3.dsc ($sha256)"; }
    mv "$tarball.part" "$tarball"
elif ! verify "$tarball"; then
    rm -f "$tarball"
    die "the cached $tarball had the wrong SHA-256 and was removed; run again to download it"
fi

# ---- 2. MPICH's test sources, its test configure, the programs ---------------
src=$cache/src/$srcdir_in_tar
if [ ! -f "$cache/src/.complete" ]; then
    echo "$prog: unpacking MPICH's test/mpi" >&2
    rm -rf "$cache/src"
    mkdir -p "$cache/src"
    tar -xJf "$tarball" -C "$cache/src" "$srcdir_in_tar" || die "cannot unpack $tarball"
    touch "$cache/src/.complete"
fi
# One build per Open MPI (a chroot or an upgrade has its own) and recipe.
ompi_version=$(mpirun --version 2>/dev/null | head -n 1 | tr -c 'A-Za-z0-9.\n' '-')
build=$cache/build-$build_recipe-${ompi_version:-unknown}
log=$build/build.log
if [ "$no_build" = 1 ]; then
    for t in "${chosen[@]}"; do
        read -r _ program _ <<<"$t"
        [ -x "$build/bin/$program" ] ||
            die "$program is not built in $build and --no-build forbids building it (the build failed before: see its log)"
    done
fi
if [ ! -f "$build/include/mpitestconf.h" ]; then
    echo "$prog: configuring MPICH's tests with CC=mpicc in $build" >&2
    rm -rf "$build"
    mkdir -p "$build"
    # MPICH's test configure only for include/mpitestconf.h; the programs are
    # built below, the few this script runs.
    # (CXXCPP: libtool's check of a C++ preprocessor fails where no C++
    # compiler is installed, even with --disable-cxx; the C one passes it.)
    (cd "$build" && "$src/configure" CC=mpicc "CXXCPP=cpp -x c" --disable-fortran --disable-cxx --disable-dtpools \
        --disable-romio --disable-spawn --disable-rma --disable-ft-tests --disable-perftest \
        --enable-strictmpi --disable-checkerrors) >"$log" 2>&1 ||
        { tail -n 20 "$log" >&2; die "MPICH's test configure failed (log: $log)"; }
    [ -f "$build/include/mpitestconf.h" ] || die "MPICH's test configure made no include/mpitestconf.h (log: $log)"
fi
# Open MPI 4.1 has MPI-4's persistent collectives as MPIX_*_init (mpi-ext.h);
# each p_* program sees them under their MPI-4 names through this header.
compat=$build/rsag-mpi4-persistent.h
if [ ! -f "$compat" ]; then
    {
        echo '/* made by rsag-mpich-tests.sh: the MPI_*_init of MPI-4 on Open MPI 4.1 */'
        echo '#include <mpi.h>'
        echo '#if defined(OPEN_MPI) && OMPI_MAJOR_VERSION < 5   /* 5.0 says MPI 3.1 but has them */'
        echo '#include <mpi-ext.h>'
        for c in Allgather Allgatherv Allreduce Alltoall Alltoallv Alltoallw Barrier Bcast \
                 Exscan Gather Gatherv Neighbor_allgather Neighbor_allgatherv Neighbor_alltoall \
                 Neighbor_alltoallv Neighbor_alltoallw Reduce Reduce_scatter_block Reduce_scatter \
                 Scan Scatter Scatterv; do
            echo "#define MPI_${c}_init MPIX_${c}_init"
        done
        echo '#endif'
    } >"$compat.tmp" && mv "$compat.tmp" "$compat"
fi
cflags=(-O1 -w -I"$build/include" -I"$src/include" -include "$compat")
for u in mtest mtest_common mtest_single; do
    [ -f "$build/$u.o" ] && continue
    mpicc "${cflags[@]}" -c "$src/util/$u.c" -o "$build/$u.o" >>"$log" 2>&1 ||
        { tail -n 20 "$log" >&2; die "cannot compile MPICH's util/$u.c (log: $log)"; }
done
# nonblocking2.c and nonblocking3.c keep their MPI_Datatype arrays in int
# arrays (MPICH's handles are ints; Open MPI's are pointers, which would be
# cut to 32 bits): they are built from a copy with those arrays declared
# MPI_Datatype, nothing else changed.
source_of() {
    case "$1" in
        nonblocking2|nonblocking3)
            if [ ! -f "$build/$1.c" ]; then
                sed -E 's/^([[:space:]]*)int \*(send|recv)types/\1MPI_Datatype *\2types/' \
                    "$src/coll/$1.c" >"$build/$1.c.tmp" && mv "$build/$1.c.tmp" "$build/$1.c"
            fi
            echo "$build/$1.c" ;;
        *) echo "$src/coll/$1.c" ;;
    esac
}
# The programs the selected tests need (all with --build-only), two at a time.
to_build=()
if [ "$build_only" = 1 ]; then
    while read -r program source np flags; do to_build+=("$program $source $flags"); done < <(tests)
else
    for t in "${chosen[@]}"; do
        read -r _ program source np flags <<<"$t"
        to_build+=("$program $source $flags")
    done
fi
export build
export -f source_of
# each line: program, source file, flags; built by mpicc with cflags (a file:
# words may hold blanks)
printf '%s\n' "${cflags[@]}" >"$build/cflags"
printf '%s\n' "${to_build[@]}" | sort -u | while read -r program source flags; do
    [ -x "$build/bin/$program" ] || echo "$program $(source_of "$source") $flags"
done | xargs -r -P 2 -d '\n' -n 1 bash -c '
    read -r p source flags <<<"$1"
    mapfile -t cflags <"$build/cflags"
    mkdir -p "$build/bin"
    # shellcheck disable=SC2086  # flags: words (the script runs in bash -c)
    if mpicc "${cflags[@]}" $flags "$source" "$build/mtest.o" "$build/mtest_common.o" "$build/mtest_single.o" -lm \
            -o "$build/bin/$p.tmp" >"$build/bin/$p.log" 2>&1; then
        mv "$build/bin/$p.tmp" "$build/bin/$p"
    else
        echo "cannot build $p: $(tail -n 3 "$build/bin/$p.log")"
    fi' _ 2>&1 | sed "s/^/$prog: /" >&2
missing=0
for program in $(printf '%s\n' "${to_build[@]}" | cut -d' ' -f1 | sort -u); do
    [ -x "$build/bin/$program" ] || { echo "$prog: $program was not built (log: $build/bin/$program.log)" >&2; missing=1; }
done
[ "$missing" = 0 ] || die "MPICH's test programs did not all build"
if [ "$build_only" = 1 ]; then
    echo "$prog: built $(printf '%s\n' "${to_build[@]}" | cut -d' ' -f1 | sort -u | wc -l) programs of MPICH's tests in $build"
    exit 0
fi
flock -u 8

# ---- 3. The tests ------------------------------------------------------------
timeout_s=${RSAG_MPIRUN_TIMEOUT:-300}
passed=0
failed=0
echo "$prog: --mca coll $coll, $(mpirun --version 2>/dev/null | head -n 1)"
for t in "${chosen[@]}"; do
    read -r name program source np flags <<<"$t"
    # shellcheck disable=SC2206  # mpirun_args: words
    cmd=(timeout -k 10 "$timeout_s" mpirun --allow-run-as-root --oversubscribe -np "$np"
         --mca coll "$coll" --mca coll_rsag_verbose "$proof_verbose" $mpirun_args "$build/bin/$program")
    echo "+ ${cmd[*]}"
    out=$("${cmd[@]}" 2>&1)
    rc=$?
    printf '%s\n' "$out"
    why=""
    [ "$rc" -eq 0 ] || why="exit status $rc"
    # not anchored: rsag's verbose lines come from the other ranks on the
    # same stream, and a line of one may land inside a line of another
    grep -q ' No Errors' <<<"$out" || why="${why:+$why, }no \" No Errors\" line"
    grep -qE -- "$proof_pattern" <<<"$out" ||
        why="${why:+$why, }no rsag line matching '$proof_pattern'"
    if [ -z "$why" ]; then
        echo "$prog: PASS $name"
        passed=$((passed + 1))
    else
        echo "$prog: FAIL $name ($why)"
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
