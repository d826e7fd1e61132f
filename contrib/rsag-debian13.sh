#!/usr/bin/env bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-debian13.sh: build, install and test mca_coll_rsag on Debian 13
# (trixie) with its Open MPI 5.0 (libopenmpi-dev 5.0.7, UCX 1.18), on a
# Debian 12 host, in a root filesystem made with debootstrap from Debian's
# own packages.  Inside it runs README's command as a user on a fresh
# Debian 13 machine would:
#
#   contrib/install-deps.sh && ./autogen.pl && ./configure --with-ompi-component-dir=$HOME/.openmpi/components && make -j2 && make install && test/run_tests.sh
#
# Usage (as root):
#   contrib/rsag-debian13.sh            the CI subset (RSAG_DEBIAN13_SUBSET below)
#   contrib/rsag-debian13.sh --all      the whole suite
#   contrib/rsag-debian13.sh -k NAME... only the tests whose name contains NAME
#                                       (repeatable, as test/run_tests.sh -k)
#   contrib/rsag-debian13.sh --run CMD  run CMD (bash -c) in the built tree
#                                       inside the chroot instead of the tests
#   contrib/rsag-debian13.sh --root-only  make the root filesystem (when it
#                                       is not there) and stop: CI makes it in
#                                       the background while Debian 12's part
#                                       runs (a later run waits for it: the
#                                       same lock)
#
# The root filesystem is made once (debootstrap --variant=minbase, ~1.2 GB,
# a few minutes) in RSAG_DEBIAN13_ROOT (default /var/tmp/rsag-debian13-root)
# and reused while its stamp file .rsag-complete is there; delete the
# directory to make it again.  contrib/install-deps.sh (apt-get update and
# install, the Open MPI source headers) runs in it once per version of that
# script: its checksum is kept in .rsag-deps after a run that succeeded, and
# an unchanged script is not run again (RSAG_DEBIAN13_DEPS=always runs it
# every time).  The mirror is RSAG_DEBIAN_MIRROR (default
# http://deb.debian.org/debian).  Each run copies the tree (git ls-files:
# uncommitted edits included, build output not) to /root/rsag inside it and
# builds there from scratch.  /proc, /sys, /dev are bind-mounted and
# /dev/shm is a private tmpfs (so no shared-memory file of a test can be
# left in the host's /dev/shm); all are unmounted on every exit path.
#
# The last line is "N passed, N failed" (run_tests.sh's, one run with every
# filter; ", N skipped" follows when tests were skipped, each also shown by
# its SKIP line for .ci/run to judge); the exit status is non-zero when a
# test failed or the build did.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
root=${RSAG_DEBIAN13_ROOT:-/var/tmp/rsag-debian13-root}
mirror=${RSAG_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=trixie
t_start=$SECONDS

# The CI subset: every collective x algorithm forced through --mca (np 5)
# and through MPI_T (the matrix at np 2-5), ompi_info, default and explicit
# selection, opting out, the coll-list check, module life cycle (enable,
# disable, retained previous modules), Open MPI 5.0's own components
# (suites/ompi5.sh), tcp and UCX, valgrind.  Names as test/run_tests.sh -l
# prints them; each is a run_tests.sh -k filter ("^NAME": names that begin
# with NAME, so that matrix-np4 is not also multinode-matrix-np4).
RSAG_DEBIAN13_SUBSET=(
    installed-component-is-this-build unit- ompi_info-parameters ompi_info-version
    demo- verbose-decisions-np4 param-file-forces-algorithm env-forces-algorithm
    bad-algorithm-name-is-reported
    ^matrix-np2 ^matrix-np3 ^matrix-np4 ^matrix-np5 mca-forced-
    lifecycle-np colllist- ompi5-    # lifecycle-np: valgrind-lifecycle-np3 too
    transport-default-is-ob1-vader-np3 transport-ob1-tcp-np3 transport-ucx-np3
    valgrind-check-quick-np2
    ^nonblocking-matrix-nonblocking-np2 ^nonblocking-matrix-persistent-np2
    ^nonblocking-requests-np2              # MPI_*_init of 5.0, not MPIX_
    ^liveness-kill-direct-np3 ^liveness-kill-setup-np3 ^liveness-kill-persistent-np3
    direct-cma-seccomp-refused-np2                          # 5.0's PMIx clean-up, CMA fallback
    select-former-names select-unusable-settings-once-np3   # 5.0's help messages
    threads-multiple-np2
    exact-unit-kernels ^exact-sum-np4 ^reproducible-placement-node-np4   # 5.0's datatypes and ops
    ^direct-latency-np2 ^direct-latency-nonblocking-np2     # 5.0's MPI layer around kept requests
    ^direct-tree-bits-np3                   # the tree in all three forms (5.0's MPI_*_init)
    # -- install and rsag-doctor (doc/install.md): a plain mpirun after README's
    #    command, and the doctor on 5.0's launcher
    ^install- ^doctor-
    ^package-                # the Debian package (with RSAG_TEST_PACKAGE=1, as .ci/run sets)
    ^fill-                   # the slots rsag fills under --mca coll rsag,basic (5.0's *_init)
    ^external-                              # MPICH's tests and mpi4py 4.0 (MPI_*_init, 5.0's coll)
)
# Not in it: direct-shm-*-fallback (unshare cannot make a private mount
# namespace under this chroot, whose root is no mount point) and
# erroneous-*-differs (5.0.7's prterun crashes on the `-np 1 env ... : -np 2 ...`
# app contexts those tests need); both run on 4.1.

die() { echo "rsag-debian13: FAILED: $*" >&2; echo "0 passed, 1 failed"; exit 1; }
step() { echo "== [debian13 $((SECONDS - t_start))s] $*"; }

filters=()
run_cmd=""
root_only=0
while [ $# -gt 0 ]; do
    case "$1" in
        --all) filters=(""); shift ;;
        --root-only) root_only=1; shift ;;
        -k) filters+=("$2"); shift 2 ;;
        --run) run_cmd="$2"; shift 2 ;;
        -h|--help) sed -n '5,41p' "$0"; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
done
[ ${#filters[@]} -gt 0 ] || filters=("${RSAG_DEBIAN13_SUBSET[@]}")

[ "$(id -u)" -eq 0 ] || die "must run as root (debootstrap, chroot, mount)"
for tool in debootstrap chroot mount umount flock git; do
    command -v "$tool" >/dev/null 2>&1 ||
        die "$tool is missing (contrib/install-deps.sh installs debootstrap)"
done

# ---- 1. The root filesystem, made once --------------------------------------
mkdir -p "$(dirname "$root")"
exec 9>"$root.lock"
flock 9 || die "cannot lock $root.lock"
if [ -f "$root/.rsag-complete" ]; then
    step "reusing the Debian $suite root filesystem in $root"
else
    # What README's install-deps.sh would install, so later runs need the
    # network only for apt-get update.
    include=libopenmpi-dev,openmpi-bin,libucx-dev,autoconf,automake,libtool,make,gcc,pkg-config,valgrind,perl,git,ca-certificates,dpkg-dev,xz-utils
    step "making the Debian $suite root filesystem in $root (debootstrap from $mirror)"
    rm -rf "$root.tmp"
    debootstrap --variant=minbase --include="$include" "$suite" "$root.tmp" "$mirror" \
        >"$root.debootstrap.log" 2>&1 ||
        { tail -n 20 "$root.debootstrap.log" >&2; die "debootstrap failed (log: $root.debootstrap.log)"; }
    rm -rf "$root"
    mv "$root.tmp" "$root"
    date -u +%FT%TZ >"$root/.rsag-complete"
fi
if [ "$root_only" = 1 ]; then
    step "the root filesystem is ready"
    exit 0
fi

# ---- 2. Mounts, undone on every exit path ------------------------------------
mounted=()
cleanup() {
    local i rc=$?
    for (( i = ${#mounted[@]} - 1; i >= 0; i-- )); do
        umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" 2>/dev/null ||
            echo "rsag-debian13: cannot unmount ${mounted[i]}" >&2
    done
    mounted=()
    return $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mount_in_root() {  # mount_in_root TARGET-IN-ROOT MOUNT-ARGS...
    local target="$root$1"; shift
    mountpoint -q "$target" && die "$target is already mounted (another run? unmount it first)"
    mkdir -p "$target"
    mount "$@" "$target" || die "mount $* $target failed"
    mounted+=("$target")
}
mount_in_root /proc -t proc proc
mount_in_root /sys --bind /sys
mount_in_root /dev --bind /dev
mount_in_root /dev/shm -t tmpfs -o mode=1777,size=50% tmpfs
# apt inside needs a resolver.
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

# ---- 3. The tree, copied fresh ----------------------------------------------
step "copying the tree to $root/root/rsag"
rm -rf "$root/root/rsag"
mkdir -p "$root/root/rsag"
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$top" && git ls-files -z -c -o --exclude-standard |
        xargs -0 cp --parents -t "$root/root/rsag" -- 2>/dev/null) ||
        die "copying the tree failed"
else
    cp -R "$top/." "$root/root/rsag"
fi

# MPICH's tests (test/suites/external.sh): the host's cached tarball, when
# there, so that the chroot need not download it (the script verifies it).
mpich_tar=$("$top/contrib/rsag-mpich-tests.sh" --print-tarball)
mpich_in_root=$root/root/.cache/rsag-mpich-tests/${mpich_tar##*/}
if [ -f "$mpich_tar" ] && [ ! -f "$mpich_in_root" ]; then
    mkdir -p "${mpich_in_root%/*}" && cp "$mpich_tar" "$mpich_in_root"
fi

in_root() {
    chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        LANG=C.UTF-8 TERM=dumb USER=root RSAG_MPIRUN_TIMEOUT="${RSAG_MPIRUN_TIMEOUT:-900}" \
        RSAG_TEST_PACKAGE="${RSAG_TEST_PACKAGE:-}" \
        bash -c "cd /root/rsag && $1"
}

# ---- 4. README's commands ----------------------------------------------------
# install-deps.sh only when it changed since its last successful run here:
# apt-get update and install are most of a build's time and need the network.
build_log="$root/root/rsag-build.log"
deps_sum=$(sha256sum <"$top/contrib/install-deps.sh" | cut -d' ' -f1)
deps_stamp="$root/.rsag-deps"
: >"$build_log"
if [ "${RSAG_DEBIAN13_DEPS:-}" != always ] && [ -f "$deps_stamp" ] &&
        [ "$(cut -d' ' -f1 "$deps_stamp")" = "$deps_sum" ]; then
    step "contrib/install-deps.sh unchanged since $(cut -d' ' -f2 "$deps_stamp"): not run again"
else
    step "contrib/install-deps.sh (in the chroot)"
    rm -f "$deps_stamp"
    if ! in_root 'contrib/install-deps.sh' >>"$build_log" 2>&1 </dev/null; then
        tail -n 40 "$build_log" >&2
        die "contrib/install-deps.sh in the Debian $suite chroot failed (log: $build_log)"
    fi
    echo "$deps_sum $(date -u +%FT%TZ)" >"$deps_stamp"
fi
step "./autogen.pl && ./configure && make -j2 && make install (in the chroot)"
if ! in_root './autogen.pl && ./configure --with-ompi-component-dir=$HOME/.openmpi/components && make -j2 && make install' \
        >>"$build_log" 2>&1 </dev/null; then
    tail -n 40 "$build_log" >&2
    die "the build in the Debian $suite chroot failed (log: $build_log)"
fi
grep -E '^ *(Open MPI|coll framework):' "$build_log" | sed 's/^ */   /'
grep -q 'coll framework: *coll 2.4.0 (Open MPI 5.0)' "$build_log" ||
    die "configure did not find Open MPI 5.0 in the chroot (log: $build_log)"

if [ -n "$run_cmd" ]; then
    in_root "$run_cmd" </dev/null
    exit $?
fi

# ---- 5. The tests ------------------------------------------------------------
passed=0
failed=0
skipped=0
# One run_tests.sh with every filter (-k is repeatable; one that selects
# no test fails the run): the suites' set-up once, not once per filter.
args=()
for f in "${filters[@]}"; do
    [ -z "$f" ] || args+=(-k "$f")
done
step "the tests (${#filters[@]} filters, one run_tests.sh run)"
# Streamed as the tests finish; the whole output kept for its summary.
in_root "test/run_tests.sh ${args[*]:+${args[*]@Q}}" </dev/null 2>&1 |
    tee "$root/root/rsag-tests.out" | grep --line-buffered -E '^(PASS|FAIL|SKIP|    \|)' || true
out=$(cat "$root/root/rsag-tests.out")
line=$(printf '%s\n' "$out" | tail -n 1)
if [[ "$line" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)?$ ]]; then
    passed=${BASH_REMATCH[1]}
    failed=${BASH_REMATCH[2]}
    skipped=${BASH_REMATCH[4]:-0}
else
    echo "FAIL run_tests.sh ended without a summary:"; printf '%s\n' "$out" | tail -n 10
    failed=1
fi
# Shared memory a test left behind would stay in the private tmpfs; count it.
left=$(find "$root/dev/shm" -mindepth 1 | wc -l)
[ "$left" -eq 0 ] || echo "note: $left file(s) left in the chroot's /dev/shm (removed with its tmpfs)"
step "Debian $suite / Open MPI 5.0 done"
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
