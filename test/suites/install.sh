# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# install.sh: what README's command leaves behind works for a plain mpirun.
# On Open MPI 5.0 `make install` into ~/.openmpi/components adds the line
# opal_mca_base_component_path to ~/.openmpi/mca-params.conf
# (contrib/rsag-component-path.sh; doc/install.md, "Open MPI 5.0: the
# component path under mpirun"): these tests check that line's editing, and
# that `mpirun -np 2` with none of the OMPI_MCA_* variables run_tests.sh sets
# (a user's shell) loads rsag from the user's real files.

# The line's editing, on a made-up user (any Open MPI: the script is told
# the version): added once, idempotent, the user's own lines kept, an
# existing line extended, uninstall gives the user's file back unchanged.
install_line_check() (
    set -e
    local h="$results/install-line" s="$top/contrib/rsag-component-path.sh" lib=/opt/ompi/lib/openmpi
    rm -rf "$h"
    mkdir -p "$h/.openmpi/components"
    export HOME="$h"
    f="$h/.openmpi/mca-params.conf"
    echo "--- 4.1: nothing to do"
    bash "$s" install 4.1.4 "$lib" "$h/.openmpi/components"
    [ ! -e "$f" ]
    echo "--- 5.0, another directory: nothing to do"
    bash "$s" install 5.0.7 "$lib" /tmp/elsewhere
    [ ! -e "$f" ]
    echo "--- 5.0, DESTDIR: nothing to do"
    DESTDIR=/tmp/stage bash "$s" install 5.0.7 "$lib" "$h/.openmpi/components"
    [ ! -e "$f" ]
    echo "--- 5.0, no file"
    bash "$s" install 5.0.7 "$lib" "$h/.openmpi/components"
    grep -qx "opal_mca_base_component_path = $lib:$h/.openmpi/components" "$f"
    bash "$s" install 5.0.7 "$lib" "$h/.openmpi/components/"
    [ "$(wc -l <"$f")" -eq 1 ]
    bash "$s" uninstall 5.0.7 "$lib" "$h/.openmpi/components"
    [ ! -e "$f" ]
    echo "--- 5.0, the user's file with its own settings and no final newline"
    printf '# mine\ncoll_rsag_verbose = 1\nmca_base_component_path = /a:/b' >"$f"
    cp "$f" "$h/orig"
    bash "$s" install 5.0.7 "$lib" "$h/.openmpi/components"
    cat "$f"
    grep -qx "opal_mca_base_component_path = /a:/b:$h/.openmpi/components" "$f"
    grep -qx 'coll_rsag_verbose = 1' "$f"
    bash "$s" uninstall 5.0.7 "$lib" "$h/.openmpi/components"
    diff <(cat "$h/orig"; echo) "$f"
    echo "--- 5.0, the user's own opal_mca_base_component_path line"
    printf 'opal_mca_base_component_path = /x\ncoll_rsag_verbose = 1\n' >"$f"
    cp "$f" "$h/orig"
    bash "$s" install 5.0.7 "$lib" "$h/.openmpi/components"
    grep -qx "opal_mca_base_component_path = /x:$h/.openmpi/components" "$f"
    [ "$(wc -l <"$f")" -eq 2 ]
    bash "$s" uninstall 5.0.7 "$lib" "$h/.openmpi/components"
    cmp "$h/orig" "$f"
    echo "all checks passed"
)
run_test install-component-path-line install_line_check
expect_in_log '^all checks passed$'
expect_in_log "added the line 'opal_mca_base_component_path = "
expect_in_log 'unchanged$'

# README's command installed into ~/.openmpi/components: a plain
# `mpirun -np 2` in a clean environment (no OMPI_MCA_*: run_tests.sh's
# component path and mca_param_files=/dev/null undone) loads rsag, with the
# user's real ~/.openmpi/mca-params.conf -- on Open MPI 5.0 through the line
# `make install` wrote there.
install_plain_mpirun() (
    local v args=()
    for v in $(compgen -e | grep '^OMPI_MCA_'); do unset "$v"; done
    [ "$(id -u)" -eq 0 ] && args+=(--allow-run-as-root)
    [ "$(nproc)" -lt 2 ] && args+=(--oversubscribe)
    echo "mca-params.conf: $(grep -s 'component_path' "$HOME/.openmpi/mca-params.conf" || echo '(no component path line)')"
    echo "+ mpirun ${args[*]} -np 2 $demo"
    timeout -k 10 "$timeout_s" mpirun "${args[@]}" -np 2 "$demo"
)
if [ "$(cd "$componentdir" 2>/dev/null && pwd -P)" != "$(cd "$HOME/.openmpi/components" 2>/dev/null && pwd -P)" ]; then
    skip_test install-plain-mpirun-uses-rsag-np2 \
        "installed in $componentdir, not ~/.openmpi/components as README's command does"
else
    run_test install-plain-mpirun-uses-rsag-np2 install_plain_mpirun
    expect_in_log 'rank 0: [1-9][0-9]* calls done by rsag, 0 delegated; results correct'
    if [[ "$(makevar ompi/mca/coll/rsag OMPI_VERSION)" == 5.* ]]; then
        expect_in_log "mca-params.conf: opal_mca_base_component_path = .*$HOME/.openmpi/components"
    fi
fi
