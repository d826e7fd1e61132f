# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# package.sh: the Debian package (make deb; doc/install.md, "A Debian
# package"), in one test that builds it, installs it with dpkg into Open
# MPI's own component directory, uses it and purges it: a plain mpirun of
# the demo (no component path in the environment, a HOME whose
# ~/.openmpi/components is empty) is done by the package's rsag; with a
# user's own copy in ~/.openmpi/components too, Open MPI loads one rsag,
# not two (the first directory of its path that has it); purged,
# nothing of it is left.  The jobs start from a login shell (bash -l), as a
# user's do: on Open MPI 5.0 the package's /etc/profile.d script names the
# component path for mpirun's processes.
#
# It installs into the system (dpkg, as root), so it runs only with
# RSAG_TEST_PACKAGE=1 (CI sets it on its own machine and in its Debian 13
# root filesystem) and is a SKIP otherwise.  It refuses to run when the
# package is already installed (it would remove it).  The rest of the suite
# never sees the package: it is gone when this test ends, passed or failed.

package_name=mca-coll-rsag

# package_login HOME CMD...: CMD in a login shell of a user whose home is
# HOME, with none of the test suite's component path settings.
package_login() {
    local home=$1; shift
    env -u OMPI_MCA_mca_base_component_path -u OMPI_MCA_opal_mca_base_component_path \
        HOME="$home" bash -lc "$(printf '%q ' "$@")"
}

# package_cycle: the whole test; each step says what it checked.
package_cycle() {
    local deb home files f left rc=0
    if dpkg -s "$package_name" >/dev/null 2>&1; then
        echo "package: $package_name is already installed here; this test would remove it (dpkg --purge $package_name first)"
        return 1
    fi
    rm -f "$top"/${package_name}_*.deb
    make -C "$top" deb || { echo "package: make deb failed"; return 1; }
    deb=$(ls "$top"/${package_name}_*.deb)
    dpkg-deb -f "$deb" Package Version Depends
    dpkg -i "$deb" || { echo "package: dpkg -i failed"; dpkg --purge "$package_name"; return 1; }
    files=$(dpkg -L "$package_name")
    echo "$files" | sed 's/^/installed: /'
    home=$(mktemp -d)
    # a plain mpirun: no component path, no ~/.openmpi/components with rsag
    package_login "$home" env | grep -c '^OMPI_MCA_mca_base_component_path=' |
        sed 's/^/component path variables set: /'
    echo "user components: $(ls -A "$home/.openmpi/components" 2>/dev/null | wc -l)"
    package_login "$home" ompi_info | grep 'MCA coll: rsag' | sed 's/^ */plain ompi_info: /'
    package_login "$home" "${mpirun_cmd[@]}" -np 2 "$demo" 2>&1 | sed 's/^/plain mpirun: /' || rc=1
    # the package's rsag and a user's own copy (this tree's build) in
    # ~/.openmpi/components, both on Open MPI's default path (on 5.0 through
    # the package's profile.d script): one rsag loads, the first on the path
    mkdir -p "$home/.openmpi/components"
    cp "$top/ompi/mca/coll/rsag/.libs/mca_coll_rsag.so" "$home/.openmpi/components/"
    package_login "$home" ompi_info | grep -c 'MCA coll: rsag' |
        sed 's/^/two copies, ompi_info rsag lines: /'
    package_login "$home" "${mpirun_cmd[@]}" -np 2 "$demo" 2>&1 | sed 's/^/two copies: /' || rc=1
    rm -rf "$home"
    dpkg --purge "$package_name" || { echo "package: dpkg --purge failed"; return 1; }
    dpkg -s "$package_name" >/dev/null 2>&1 && echo "package: still installed after purge"
    left=0
    while IFS= read -r f; do
        # directories that other packages own stay
        [ -d "$f" ] && continue
        if [ -e "$f" ] || [ -L "$f" ]; then echo "left behind: $f"; left=$((left + 1)); fi
    done <<<"$files"
    for f in /usr/lib/$package_name /usr/share/doc/$package_name; do
        [ -e "$f" ] && { echo "left behind: $f"; left=$((left + 1)); }
    done
    echo "files left behind: $left"
    rm -f "$deb"
    return $rc
}

if [ "${RSAG_TEST_PACKAGE:-}" != 1 ]; then
    skip_test package-deb-cycle-np2 "installs into the system with dpkg: set RSAG_TEST_PACKAGE=1 (CI does)"
else
    run_test package-deb-cycle-np2 package_cycle
    expect_in_log '^Depends: .*libopenmpi[0-9]+ \(>= [45]\.[01]\.[0-9]+\), libopenmpi[0-9]+ \(<< [45]\.[12]~\), openmpi-bin \(>= '
    expect_in_log '^installed: /usr/lib/.*/openmpi/lib/openmpi[0-9]+/mca_coll_rsag\.so$'
    expect_in_log '^installed: /usr/bin/rsag-bench\.sh$'
    expect_in_log '^installed: /usr/share/doc/mca-coll-rsag/doc/install\.md$'
    expect_in_log '^component path variables set: 0$'
    expect_in_log '^user components: 0$'
    expect_in_log '^plain ompi_info: MCA coll: rsag .*Component v'
    expect_in_log '^plain mpirun: rsag_demo: rank 0: [1-9][0-9]* calls done by rsag, 0 delegated; results correct'
    expect_in_log '^two copies, ompi_info rsag lines: 1$'
    expect_in_log '^two copies: rsag_demo: rank 0: [1-9][0-9]* calls done by rsag, 0 delegated; results correct'
    expect_in_log '^files left behind: 0$'
    expect_not_in_log 'override variable file'
    expect_not_in_log '^package: '
fi
