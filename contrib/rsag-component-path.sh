#!/usr/bin/env bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-component-path.sh: the one line of ~/.openmpi/mca-params.conf that
# makes a plain `mpirun` of Open MPI 5.0 load a component installed in
# ~/.openmpi/components (`make install` and `make uninstall` run it;
# doc/install.md, "Open MPI 5.0: the component path under mpirun").
#
#   rsag-component-path.sh install   OMPI_VERSION PKGLIBDIR DIR
#   rsag-component-path.sh uninstall OMPI_VERSION PKGLIBDIR DIR
#
# Why: 5.0's launcher hands every process OMPI_MCA_mca_base_component_path
# (Debian 13: PMIx's own component directory, from PMIx's
# pmix-mca-params.conf), which replaces Open MPI's default search path
# (PKGLIBDIR and ~/.openmpi/components), and an environment variable beats
# the same name in a parameter file.  Open MPI looks a parameter up by its
# long name, opal_mca_base_component_path, before its short one, and the
# launcher exports every line of ~/.openmpi/mca-params.conf to the processes
# as OMPI_MCA_<name>: so the line
#
#   opal_mca_base_component_path = PKGLIBDIR:DIR
#
# reaches every process as OMPI_MCA_opal_mca_base_component_path and wins
# over the launcher's OMPI_MCA_mca_base_component_path.  ompi_info and
# singletons read the file themselves and take it too.
#
# install: only on Open MPI 5.x, only when DIR is ~/.openmpi/components, and
# never under DESTDIR (a staged install).  An existing
# opal_mca_base_component_path line keeps its directories and gets DIR
# appended (unchanged if it has it); otherwise one line is added, starting
# from the user's mca_base_component_path line if there is one, else from
# PKGLIBDIR.  Nothing else in the file changes.  uninstall takes DIR out of
# that line again, and the line out when what is left is what install started
# from.
# Either says what it did on one line.
set -euo pipefail

prog=rsag-component-path
[ $# -eq 4 ] || { echo "usage: $0 install|uninstall OMPI_VERSION PKGLIBDIR DIR" >&2; exit 2; }
action=$1 version=$2 pkglibdir=$3 dir=$4
key=opal_mca_base_component_path

case "$action" in install|uninstall) ;; *) echo "$prog: unknown action $action" >&2; exit 2 ;; esac
case "$version" in 5.*) ;; *) exit 0 ;; esac    # 4.1 searches ~/.openmpi/components itself
[ -z "${DESTDIR:-}" ] || exit 0
[ -n "${HOME:-}" ] || exit 0
# DIR must be ~/.openmpi/components (the same directory, however written).
userdir="$HOME/.openmpi/components"
same_dir() { [ -d "$1" ] && [ -d "$2" ] && [ "$(cd "$1" && pwd -P)" = "$(cd "$2" && pwd -P)" ]; }
if [ "$dir" != "$userdir" ] && ! same_dir "$dir" "$userdir"; then
    exit 0
fi
dir=$userdir
file="$HOME/.openmpi/mca-params.conf"

# value NAME: the value of the last line setting NAME in $file (the one
# Open MPI takes), empty when there is none.
value() {
    [ -f "$file" ] || return 0
    sed -n -E "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*(.*[^[:space:]])?[[:space:]]*\$/\\1/p" "$file" | tail -n 1
}
has_line() { [ -f "$file" ] && grep -qE "^[[:space:]]*$key[[:space:]]*=" "$file"; }
# rewrite NEWLINE: the last line setting $key becomes NEWLINE (nothing when
# empty); the file is written in place (its mode, owner and any symlink kept).
rewrite() {
    local tmp
    tmp=$(mktemp)
    awk -v key="$key" -v new="$1" '
        { lines[NR] = $0 }
        $0 ~ "^[[:space:]]*" key "[[:space:]]*=" { last = NR }
        END { for (i = 1; i <= NR; ++i) if (i != last) print lines[i]; else if (new != "") print new }
    ' "$file" >"$tmp"
    cat "$tmp" >"$file"
    rm -f "$tmp"
}
contains() { case ":$1:" in *":$2:"*) true ;; *) false ;; esac; }

if [ "$action" = install ]; then
    if has_line; then
        old=$(value "$key")
        if contains "$old" "$dir"; then
            echo "$prog: $file already names $dir in $key: unchanged"
            exit 0
        fi
        new="${old:+$old:}$dir"
        rewrite "$key = $new"
        echo "$prog: added $dir to the $key line of $file (Open MPI 5.0's mpirun searches it then; doc/install.md)"
    else
        base=$(value mca_base_component_path)
        [ -n "$base" ] || base=$(value mca_component_path)
        [ -n "$base" ] || base=$pkglibdir
        contains "$base" "$dir" && new=$base || new="$base:$dir"
        mkdir -p "$(dirname "$file")"
        [ ! -s "$file" ] || [ -z "$(tail -c 1 "$file")" ] || echo >>"$file"
        echo "$key = $new" >>"$file"
        echo "$prog: added the line '$key = $new' to $file: Open MPI 5.0's mpirun replaces its component path, so rsag would not load without it (doc/install.md; make uninstall removes it)"
    fi
else
    has_line || exit 0
    old=$(value "$key")
    contains "$old" "$dir" || exit 0
    new=$(printf '%s' "$old" | tr ':' '\n' | grep -vxF -e "$dir" -e '' | paste -sd: - || true)
    base=$(value mca_base_component_path)
    [ -n "$base" ] || base=$(value mca_component_path)
    if [ -z "$new" ] || [ "$new" = "$pkglibdir" ] || [ "$new" = "$base" ]; then
        rewrite ""
        echo "$prog: removed the $key line from $file"
        [ -s "$file" ] || rm -f "$file"
    else
        rewrite "$key = $new"
        echo "$prog: removed $dir from the $key line of $file"
    fi
fi
