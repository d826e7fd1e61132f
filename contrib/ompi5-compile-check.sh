#!/usr/bin/env bash
# ompi5-compile-check.sh: build mca_coll_rsag against Open MPI 5.0.x on a host
# whose own Open MPI is 4.1 (Debian bookworm), as a compile and link check.
#
#   contrib/ompi5-compile-check.sh             uses /tmp/rsag-ompi5-cache
#   RSAG_OMPI5_CACHE=DIR contrib/ompi5-compile-check.sh
#
# 1. Open MPI 5.0.x comes from Debian's next release (RSAG_OMPI5_SUITE,
#    default trixie): `apt-get download` of libopenmpi-dev and libpmix-dev and
#    the libraries they pin, with a private sources list, lists and cache
#    under the cache dir (the system's apt configuration is not touched), the
#    archive address taken from the system's own apt sources (or from
#    RSAG_DEBIAN_MIRROR).  The .debs are unpacked with `dpkg -x`.
# 2. Debian's libopenmpi-dev lacks internal headers that ompi_config.h and
#    the coll headers include; they come from the same version's Debian
#    source package (`apt-get source --download-only`, `dpkg-source -x`):
#    the headers of its ompi/ and opal/ that the binary package does not
#    ship are copied to an extra include directory searched last.
# 3. The tree is copied (git ls-files: the working tree, uncommitted edits
#    included; a tree outside git is copied whole and distclean'd), autogen'd and configured out of tree (VPATH) with
#    --with-ompi=<unpacked>/usr --enable-werror; configure reads the flags
#    from ompi-c.pc because 5.0's mpicc cannot run on the older glibc.
# 4. make: the component (libtool -no-undefined, ld -z defs, against 5.0's
#    libmpi and libopen-pal), the unit tests (built and run), and the MPI test
#    and demo programs (linked against 5.0's libmpi; they cannot run here, so
#    the link allows the newer glibc symbols inside libmpi itself).
#
# Steps 1-2 are done once: later runs reuse the cache (offline).  Delete the
# cache dir to fetch again.  Steps 3-4 run in a fresh $cache/run.XXXXXX.  Any failure ends the script with a line
# "ompi5-compile-check: FAILED: ..." and exit status 1; success ends with
# "ompi5-compile-check: OK: ...".  Needs apt, dpkg-dev, xz-utils, git,
# pkg-config, gcc, autotools (contrib/install-deps.sh) and, for step 1,
# network access to a Debian mirror.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${RSAG_OMPI5_CACHE:-/tmp/rsag-ompi5-cache}
suite=${RSAG_OMPI5_SUITE:-trixie}
t_start=$SECONDS

die() { echo "ompi5-compile-check: FAILED: $*" >&2; exit 1; }
step() { echo "== [$((SECONDS - t_start))s] $*"; }
# run_logged LOG CMD...: run CMD with its output in LOG; on failure show the
# end of LOG and fail.
run_logged() {
    local log="$1"; shift
    if ! "$@" >"$log" 2>&1; then
        echo "---- last lines of $log:" >&2
        tail -n 40 "$log" >&2
        die "'$*' failed (whole output in $log)"
    fi
}

for tool in apt-get apt-cache dpkg dpkg-source xz git pkg-config flock readelf nm autoreconf make gcc; do
    command -v "$tool" >/dev/null 2>&1 ||
        die "$tool is missing (contrib/install-deps.sh installs what this script needs)"
done
mkdir -p "$cache"
# Each run builds in its own directory (several trees may share the cache);
# it is removed on success except its logs, kept whole on failure.
work=$(mktemp -d "$cache/run.XXXXXX")
logs="$work/logs"
mkdir -p "$logs"

# ---- 1. The Debian archive and Open MPI 5.0's binary packages -------------

# The URIs of the system's Debian archive (not -security, -updates is the same
# archive), from one-line (.list) and deb822 (.sources) files.
system_debian_uris() {
    local f
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -r "$f" ] || continue
        sed -nE 's/^[[:space:]]*deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+)[[:space:]].*/\2/p' "$f"
    done
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        sed -nE 's/^URIs:[[:space:]]*//p' "$f" | tr -s ' \t' '\n\n'
    done
}

aptdir="$cache/apt"
apt_opts=(
    -o "Dir::Etc::SourceList=$aptdir/sources.list"
    -o "Dir::Etc::SourceParts=$aptdir/empty"
    -o "Dir::Etc::Preferences=$aptdir/empty/none"
    -o "Dir::Etc::PreferencesParts=$aptdir/empty"
    -o "Dir::State::Lists=$aptdir/lists"
    -o "Dir::State::status=$aptdir/status"
    -o "Dir::Cache=$aptdir/cache"
    -o "APT::Default-Release="
    -o "Acquire::Languages=none"
    -o "Debug::NoLocking=1"
    -o "APT::Sandbox::User=$(id -un)"
)
apt_get() { apt-get -q "${apt_opts[@]}" "$@"; }
apt_cache() { apt-cache "${apt_opts[@]}" "$@"; }

root="$cache/root"            # the unpacked packages: $root/usr is the prefix
extra="$cache/extra-include"  # headers from the source package

# One fetch at a time per cache (flock is released when the script ends).
exec 9>"$cache/.fetch.lock"
flock 9 || die "cannot lock $cache/.fetch.lock"
if [ -f "$root/.complete" ] && [ -f "$extra/.complete" ]; then
    step "reusing Open MPI $(cat "$root/.complete") in $cache"
else
    mirror=${RSAG_DEBIAN_MIRROR:-$(system_debian_uris | grep -E '^[a-z+]+://[^ ]*/debian/?$' | head -n 1 || true)}
    [ -n "$mirror" ] ||
        die "no Debian archive in /etc/apt/sources.list{,.d}: set RSAG_DEBIAN_MIRROR to a Debian archive URL"
    step "fetching the $suite package lists from $mirror"
    mkdir -p "$aptdir/empty" "$aptdir/lists/partial" "$aptdir/cache/archives/partial"
    : >"$aptdir/status"
    signed_by=""
    [ -r /usr/share/keyrings/debian-archive-keyring.gpg ] &&
        signed_by="[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] "
    printf 'deb %s%s %s main\ndeb-src %s%s %s main\n' \
        "$signed_by" "$mirror" "$suite" "$signed_by" "$mirror" "$suite" >"$aptdir/sources.list"
    if ! apt_get --error-on=any update >"$logs/apt-update.log" 2>&1; then
        tail -n 20 "$logs/apt-update.log" >&2
        die "cannot fetch Debian $suite's package lists from $mirror (network access to the mirror is needed; log: $logs/apt-update.log)"
    fi

    version=$(apt_cache policy libopenmpi-dev | sed -n 's/^ *Candidate: //p')
    case "$version" in
        5.0.*) ;;
        ""|"(none)") die "Debian $suite has no libopenmpi-dev" ;;
        *) die "Debian $suite has Open MPI $version, not 5.0.x (set RSAG_OMPI5_SUITE)" ;;
    esac
    # The libraries libopenmpi-dev and libpmix-dev pin to their own version
    # (libopenmpi40, libpmix2t64, ...): what their headers and links need.
    pinned_deps() {
        apt_cache show "$1=$2" | sed -n '/^Depends: /{s///p;q}' | tr ',' '\n' |
            sed -nE 's/^ *([a-z0-9.+-]+) \(= .*\).*/\1/p'
    }
    pmix_version=$(apt_cache policy libpmix-dev | sed -n 's/^ *Candidate: //p')
    [ -n "$pmix_version" ] && [ "$pmix_version" != "(none)" ] || die "Debian $suite has no libpmix-dev"
    debs=("libopenmpi-dev=$version" "libpmix-dev=$pmix_version")
    for p in $(pinned_deps libopenmpi-dev "$version"); do debs+=("$p=$version"); done
    for p in $(pinned_deps libpmix-dev "$pmix_version"); do debs+=("$p=$pmix_version"); done

    step "downloading ${debs[*]}"
    rm -rf "$cache/debs" && mkdir -p "$cache/debs"
    (cd "$cache/debs" && apt_get download "${debs[@]}") >"$logs/apt-download.log" 2>&1 ||
        { tail -n 20 "$logs/apt-download.log" >&2; die "apt-get download ${debs[*]} failed (log: $logs/apt-download.log)"; }

    step "unpacking them with dpkg -x"
    rm -rf "$root" "$root.tmp" && mkdir -p "$root.tmp"
    for deb in "$cache"/debs/*.deb; do
        dpkg -x "$deb" "$root.tmp" || die "dpkg -x $deb failed"
    done
    mv "$root.tmp" "$root"
    incdir=$(dirname "$(find "$root/usr" -name ompi_config.h -path '*/openmpi/*' -print -quit)")
    [ -f "$incdir/ompi/mca/coll/coll.h" ] || die "libopenmpi-dev $version has no ompi/mca/coll/coll.h"

    # ---- 2. Headers Debian's libopenmpi-dev does not ship -----------------
    srcpkg=$(apt_cache show "libopenmpi-dev=$version" | sed -n '/^Source: /{s/^Source: \([^ ]*\).*/\1/p;q}')
    srcpkg=${srcpkg:-openmpi}
    step "downloading the source package $srcpkg=$version"
    rm -rf "$cache/source" && mkdir -p "$cache/source"
    (cd "$cache/source" && apt_get source --download-only "$srcpkg=$version") >"$logs/apt-source.log" 2>&1 ||
        { tail -n 20 "$logs/apt-source.log" >&2; die "apt-get source --download-only $srcpkg=$version failed (log: $logs/apt-source.log)"; }
    dsc=$(ls "$cache"/source/*.dsc)
    step "unpacking $(basename "$dsc") and copying the headers missing from libopenmpi-dev"
    run_logged "$logs/dpkg-source.log" dpkg-source -x "$dsc" "$cache/source/tree"
    rm -rf "$extra" && mkdir -p "$extra"
    (cd "$cache/source/tree" && find ompi opal -name '*.h' | LC_ALL=C sort) >"$work/headers-source"
    (cd "$incdir" && find ompi opal -name '*.h' | LC_ALL=C sort) >"$work/headers-package"
    LC_ALL=C comm -23 "$work/headers-source" "$work/headers-package" >"$work/headers-missing"
    (cd "$cache/source/tree" && xargs -r -d '\n' cp --parents -t "$extra" <"$work/headers-missing") ||
        die "copying the missing headers to $extra failed"
    echo "   $(wc -l <"$work/headers-missing") headers copied to $extra"
    rm -rf "$cache/source"   # 25 MB of tarballs no longer needed
    echo "$version" >"$extra/.complete"
    echo "$version" >"$root/.complete"
fi
version=$(cat "$root/.complete")
flock -u 9

# ---- 3. A copy of the tree, configured out of tree -------------------------
# A tree configured in place cannot host a VPATH build; the copy also proves
# the build needs no file that git does not know about.
src="$work/src"
build="$work/build"
step "copying the tree to $src and running autogen.pl"
mkdir -p "$src" "$build"
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$top" && git ls-files -z -c -o --exclude-standard | xargs -0 cp --parents -t "$src" --)
else
    # Not a git checkout (e.g. an unpacked dist tarball): copy it all and
    # undo an in-place configure so the copy can host a VPATH build.
    cp -R "$top/." "$src"
    if [ -f "$src/config.status" ]; then
        run_logged "$logs/distclean.log" make -C "$src" distclean
    fi
fi
run_logged "$logs/autogen.log" sh -c "cd '$src' && ./autogen.pl"

step "configuring against Open MPI $version (--with-ompi=$root/usr)"
run_logged "$logs/configure.log" sh -c "cd '$build' && '$src/configure' --with-ompi='$root/usr' \
    --with-ompi-component-dir='$cache/component' --enable-werror CPPFLAGS='-I$extra'"
grep -q "coll framework: *coll 2.4.0 (Open MPI 5.0)" "$logs/configure.log" ||
    die "configure did not select Open MPI 5.0's coll framework (see $logs/configure.log)"

# ---- 4. Build -------------------------------------------------------------
step "building the component (-no-undefined, -z defs)"
run_logged "$logs/make-component.log" make -C "$build/ompi/mca/coll/rsag" V=1
so="$build/ompi/mca/coll/rsag/.libs/mca_coll_rsag.so"
[ -f "$so" ] || die "no $so after make"
grep -q -- "-Wl,-z,defs" "$logs/make-component.log" || die "the component was not linked with -z defs"
# (grep reads files, not pipes: with pipefail an early exit of grep -q
# could fail the writer.)
readelf -d "$so" >"$logs/readelf.txt" && nm -D --defined-only "$so" >"$logs/nm.txt" ||
    die "cannot read $so with readelf/nm"
grep -q 'NEEDED.*libopen-pal\.so\.80' "$logs/readelf.txt" ||
    die "$so is not linked against Open MPI 5.0's libopen-pal.so.80"
grep -q ' mca_coll_rsag_component$' "$logs/nm.txt" ||
    die "$so does not export mca_coll_rsag_component"

step "building and running the unit tests"
run_logged "$logs/make-unit.log" make -C "$build/test" unit/test_index unit/test_select
for t in test_index test_select; do
    run_logged "$logs/unit-$t.log" "$build/test/unit/$t"
    echo "   unit/$t: $(tail -n 1 "$logs/unit-$t.log")"
done

# 5.0's libmpi needs glibc >= 2.38 (trixie): the programs link here but
# cannot run, and ld must not reject libmpi's own references to that glibc.
step "building the MPI test programs and contrib programs"
run_logged "$logs/make-programs.log" make -C "$build" LDFLAGS=-Wl,--allow-shlib-undefined

rm -rf "$src" "$build"
echo "ompi5-compile-check: OK: mca_coll_rsag built against Open MPI $version (Debian $suite) in $((SECONDS - t_start))s; logs in $logs"
