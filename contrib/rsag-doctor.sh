#!/usr/bin/env bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-doctor: will your next `mpirun` use mca_coll_rsag, and if not, why?
# (installed as rsag-doctor next to the benchmark; doc/install.md, "Is rsag
# used? rsag-doctor").
#
#   rsag-doctor          check, in a few seconds; exit status 0 when rsag
#                        will be used, 1 when not, 2 on bad usage
#   rsag-doctor DIR      the same, and look for mca_coll_rsag.so in DIR too
#                        (where you installed it, if Open MPI does not find it)
#
# It looks at, in order: Open MPI (version, series, the libopen-pal it
# links); every copy of mca_coll_rsag.so in the directories Open MPI may
# search (its pkglibdir, ~/.openmpi/components, the directory rsag was
# installed into, every directory of mca_base_component_path in the
# environment and the parameter files) and the Open MPI series each was
# built for (the libopen-pal it needs); whether ompi_info loads it; then a
# 2-rank job, `mpirun -np 2 rsag_doctor_probe`, run with your environment and
# parameter files as your next job would be (only coll_base_verbose is
# added, to see the selection), which reports the component path and coll
# list the processes had and which of MPI_Allreduce, MPI_Reduce,
# MPI_Reduce_scatter_block and MPI_Reduce_scatter on MPI_COMM_WORLD rsag
# did; CMA (kernel.yama.ptrace_scope) and /dev/shm.  The last lines are
# "fix: ..." (the one thing to change) or "rsag will be used".
#
# RSAG_DOCTOR_TIMEOUT: seconds the 2-rank job may take (default 60).
set -uo pipefail

PROG=rsag-doctor
here=$(cd "$(dirname "$0")" && pwd)
# Where `make install` put the component, and for which Open MPI (set when
# the script is built; the @...@ forms when run from the source tree).
built_dir='@ompicomponentdir@'
built_ompi='@OMPI_VERSION@'
case "$built_dir" in @*) built_dir= ;; esac
case "$built_ompi" in @*) built_ompi= ;; esac
timeout_s=${RSAG_DOCTOR_TIMEOUT:-60}

extra_dir=""
case "${1:-}" in
    '') ;;
    -h|--help) sed -n '5,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "$PROG: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) [ -d "$1" ] || { echo "$PROG: $1 is not a directory" >&2; exit 2; }
       extra_dir=$(cd "$1" && pwd) ;;
esac
[ $# -le 1 ] || { echo "$PROG: too many arguments (see --help)" >&2; exit 2; }

say() { printf '%-14s %s\n' "$1" "$2"; }
more() { printf '%-14s %s\n' "" "$1"; }
# verdict FIX: the last line and the exit status 1.
verdict() {
    echo
    echo "fix: $1"
    exit 1
}

# ---- Open MPI -----------------------------------------------------------------
command -v ompi_info >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1 ||
    { say "Open MPI" "not found (no ompi_info or mpirun on PATH)"
      verdict "install Open MPI (Debian/Ubuntu: apt-get install openmpi-bin libopenmpi-dev), or put its bin directory on PATH"; }
oi=$(ompi_info --parsable 2>&1)
version=$(sed -n 's/^ompi:version:full:\([0-9.]*\).*/\1/p' <<<"$oi" | head -n 1)
series=${version%.*}
pkglibdir=$(ompi_info --parsable --path pkglibdir 2>/dev/null | sed 's/^path:pkglibdir://')
sysconfdir=$(ompi_info --parsable --path sysconfdir 2>/dev/null | sed 's/^path:sysconfdir://')
api=$(sed -n 's/^mca:coll:tuned:version:"api:\(.*\)"$/\1/p; s/^mca:coll:basic:version:"api:\(.*\)"$/\1/p' <<<"$oi" | head -n 1)
pal=$(ldd "$(command -v ompi_info)" 2>/dev/null | sed -n 's/^[[:space:]]*\(libopen-pal\.so\.[0-9]*\).*/\1/p' | head -n 1)
say "Open MPI" "$version (series $series, coll API ${api:-?}, ${pal:-libopen-pal ?}), components in $pkglibdir"

# series_of SONAME: the Open MPI series a libopen-pal soname belongs to.
series_of() {
    case "$1" in
        libopen-pal.so.40) echo 4.1 ;;    # 4.0 and 4.1
        libopen-pal.so.80) echo 5.0 ;;
        *) echo "unknown" ;;
    esac
}

# ---- the parameter files and settings -----------------------------------------
user_file="$HOME/.openmpi/mca-params.conf"
sys_file="$sysconfdir/openmpi-mca-params.conf"
override_file="$sysconfdir/openmpi-mca-params-override.conf"
# The parameter files in the order Open MPI reads them (the first that sets
# a name wins): mca_param_files if set, else the user's then the system's.
param_files=()
if [ -n "${OMPI_MCA_mca_param_files:-}" ]; then
    IFS=, read -r -a param_files <<<"$OMPI_MCA_mca_param_files"
else
    param_files=("$user_file" "$sys_file")
fi
# Open MPI 5.0's launcher exports the user's file to the processes as
# environment variables whatever mca_param_files says.
launcher_reads_user_file=0
[ "$series" = 5.0 ] && launcher_reads_user_file=1

# file_setting FILE NAME...: "LINE<TAB>VALUE" of the last line of FILE
# setting one of NAMEs (the one Open MPI takes), nothing when none does.
file_setting() {
    local f=$1; shift
    [ -r "$f" ] || return 0
    local alt
    alt=$(IFS='|'; echo "$*")
    awk -v re="^[[:space:]]*($alt)[[:space:]]*=" '
        $0 ~ re { v = $0; sub(/^[^=]*=[[:space:]]*/, "", v); sub(/[[:space:]]*$/, "", v); line = NR; val = v }
        END { if (line) printf "%d\t%s\n", line, val }' "$f"
}
# where_set NAME...: the place that sets a parameter for the next job, as
# "KIND<TAB>PLACE<TAB>LINE<TAB>VALUE" (KIND: override, env, file), the first
# in Open MPI's order: the override file, the environment (the user's file
# too on 5.0, exported by the launcher), the parameter files.
where_set() {
    local n r f
    r=$(file_setting "$override_file" "$@")
    [ -n "$r" ] && { printf 'override\t%s\t%s\n' "$override_file" "$r"; return; }
    for n in "$@"; do
        local ev="OMPI_MCA_$n"
        [ -n "${!ev+x}" ] && { printf 'env\t%s\t0\t%s\n' "$ev" "${!ev}"; return; }
    done
    if [ "$launcher_reads_user_file" = 1 ]; then
        r=$(file_setting "$user_file" "$@")
        [ -n "$r" ] && { printf 'file\t%s\t%s\n' "$user_file" "$r"; return; }
    fi
    for f in "${param_files[@]}"; do
        r=$(file_setting "$f" "$@")
        [ -n "$r" ] && { printf 'file\t%s\t%s\n' "$f" "$r"; return; }
    done
}

# ---- where rsag is installed ---------------------------------------------------
# Every directory Open MPI may search: its own, the user's, where rsag was
# installed, and every entry of a component path set anywhere.
dirs=("$pkglibdir" "$HOME/.openmpi/components")
[ -n "$built_dir" ] && dirs+=("$built_dir")
[ -n "$extra_dir" ] && dirs+=("$extra_dir")
paths=("${OMPI_MCA_mca_base_component_path:-}" "${OMPI_MCA_opal_mca_base_component_path:-}"
       "${OMPI_MCA_mca_component_path:-}")
for f in "$override_file" "${param_files[@]}" "$user_file"; do
    paths+=("$(file_setting "$f" mca_base_component_path opal_mca_base_component_path mca_component_path | cut -f2)")
done
for p in "${paths[@]}"; do
    IFS=: read -r -a parts <<<"$p"
    for d in "${parts[@]}"; do [ -n "$d" ] && dirs+=("${d/#\~/$HOME}"); done
done
found=()          # directories holding mca_coll_rsag.so
found_ok=()       # ... built for this series
declare -A seen=()
for d in "${dirs[@]}"; do
    d=${d%/}
    [ -n "$d" ] && [ -z "${seen[$d]:-}" ] || continue
    seen[$d]=1
    so="$d/mca_coll_rsag.so"
    [ -f "$so" ] || continue
    needs=$( { readelf -d "$so" 2>/dev/null || objdump -p "$so" 2>/dev/null; } |
             grep -o 'libopen-pal\.so\.[0-9]*' | head -n 1)
    [ -n "$needs" ] || needs=$(ldd "$so" 2>/dev/null | grep -o 'libopen-pal\.so\.[0-9]*' | head -n 1)
    found+=("$d")
    if [ -n "$pal" ] && [ "$needs" = "$pal" ]; then
        found_ok+=("$d")
        say "installed" "$so: built for Open MPI $series (needs $needs)"
    else
        say "installed" "$so: built for Open MPI $(series_of "$needs") (needs ${needs:-no libopen-pal}), not for $series: it cannot load"
    fi
done
[ ${#found[@]} -gt 0 ] || say "installed" "no mca_coll_rsag.so in ${!seen[*]}"

# ---- ompi_info -----------------------------------------------------------------
if grep -q '^mca:coll:rsag:version' <<<"$oi"; then
    say "ompi_info" "loads rsag ($(sed -n 's/^mca:coll:rsag:version:"api:\(.*\)"$/coll API \1/p' <<<"$oi"))"
else
    say "ompi_info" "does not load rsag"
    loaderr=$(grep -i 'mca_coll_rsag' <<<"$oi" | head -n 2)
    [ -n "$loaderr" ] && more "$loaderr"
fi

# ---- a 2-rank job ----------------------------------------------------------------
probe="$here/rsag_doctor_probe"
[ -x "$probe" ] || { say "mpirun -np 2" "not run: $probe is missing"
                     verdict "reinstall rsag's tools (make install in rsag's build tree)"; }
run=(mpirun)
[ "$(id -u)" -eq 0 ] && run+=(--allow-run-as-root)
[ "$(nproc 2>/dev/null || echo 2)" -lt 2 ] && run+=(--oversubscribe)
run+=(--mca coll_base_verbose 9 -np 2 "$probe")
out=$(timeout -k 5 "$timeout_s" "${run[@]}" 2>&1 </dev/null)
rc=$?
val() { sed -n "s/^rsag_doctor_probe: $1 //p" <<<"$out" | head -n 1; }
job_path=$(val "cvar mca_base_component_path")
job_coll=$(val "cvar coll")
job_prio=$(val "cvar coll_rsag_priority")
counters=$(val rsag_counters)
say "mpirun -np 2" "${run[*]} (exit $rc)"
if [ -z "$counters" ]; then
    more "the job failed before it reported:"
    tail -n 8 <<<"$out" | sed 's/^/               | /'
fi
[ -n "$job_path" ] && more "component path of the processes: $job_path"
# The directory the processes load rsag from: the first of their path with it.
from=""
if [ "${counters:-0}" -gt 0 ]; then
    IFS=: read -r -a parts <<<"$job_path"
    for e in "${parts[@]}"; do
        [ -n "$e" ] && [ -f "${e/#\~/$HOME}/mca_coll_rsag.so" ] && { from=" from ${e/#\~/$HOME}"; break; }
    done
fi
[ -n "$counters" ] && more "coll list: ${job_coll:-(not set)}; rsag ${job_prio:+priority $job_prio, }$([ "${counters:-0}" -gt 0 ] && echo "loaded$from" || echo NOT loaded)"

# The components enabled on MPI_COMM_WORLD (one process's coll_base_verbose).
enabled=$(awk '
    / coll:base:comm_select: new communicator: / {
        if (first == "" && $0 ~ /MPI_COMM_WORLD/) first = $1
        if ($1 == first) world = ($0 ~ /MPI_COMM_WORLD/)
        next
    }
    $1 == first && world && / coll:base:comm_select: selecting .*Enabled/ {
        s = $0; sub(/.*selecting[[:space:]]+/, "", s); split(s, f, ",")
        p = f[2]; gsub(/[^0-9-]/, "", p); print f[1], p
    }' <<<"$out")
# provides COMPONENT K: whether the component has collective K (0 allreduce,
# 1 reduce, 2 reduce_scatter_block, 3 reduce_scatter); unknown ones may.
provides() {
    case "$1" in
        libnbc|inter|ftagree) false ;;
        sm|han|xhc|acoll|hcoll|portals4) [ "$2" -le 1 ] ;;
        adapt) [ "$2" -eq 1 ] ;;
        *) true ;;
    esac
}
colls=(MPI_Allreduce MPI_Reduce MPI_Reduce_scatter_block MPI_Reduce_scatter)
missing=()
line=""
for k in 0 1 2 3; do
    who=$(val "${colls[k]}")
    if [ "$who" = rsag ]; then
        holder=rsag
    else
        holder=$(sort -k2,2n <<<"$enabled" | awk '{print $1}' | while read -r c; do
                     [ "$c" != rsag ] && provides "$c" "$k" && echo "$c"; done | tail -n 1)
        holder=${holder:-?}
        missing+=("${colls[k]}")
    fi
    line+="${colls[k]}: $holder  "
done
[ -n "$counters" ] && more "on MPI_COMM_WORLD: $line"
[ -n "$enabled" ] && more "enabled there (priority): $(sort -k2,2n <<<"$enabled" | awk '{printf "%s%s (%s)", sep, $1, $2; sep=", "}')"

# ---- CMA and /dev/shm (information: rsag falls back without them) -------------
ps=/proc/sys/kernel/yama/ptrace_scope
if [ -r "$ps" ]; then
    case "$(cat "$ps")" in
        0) cma="allowed (kernel.yama.ptrace_scope 0)" ;;
        1) cma="restricted (kernel.yama.ptrace_scope 1: only with a ptracer exception); direct's test read is refused and it copies through the shared segment" ;;
        *) cma="refused (kernel.yama.ptrace_scope $(cat "$ps")); direct's test read is refused and it copies through the shared segment" ;;
    esac
else
    cma="allowed by Yama (no $ps)"
fi
say "CMA" "$cma"
if shm=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 {printf "%d MiB free of %d MiB", $4 / 1024, $2 / 1024}') && [ -n "$shm" ]; then
    say "/dev/shm" "$shm"
else
    say "/dev/shm" "missing: rsag's node path (direct) falls back to point-to-point"
fi

# ---- verdict ----------------------------------------------------------------------
if [ -n "$counters" ] && [ ${#missing[@]} -eq 0 ]; then
    echo
    echo "rsag will be used"
    exit 0
fi

# 1. The coll list leaves rsag out.
coll_excludes() {   # coll_excludes LIST: LIST leaves rsag out
    local l=$1
    [ -n "$l" ] || return 1
    if [ "${l#^}" != "$l" ]; then
        case ",${l#^}," in *,rsag,*) return 0 ;; esac
        return 1
    fi
    case ",$l," in *,rsag,*) return 1 ;; esac
    return 0
}
# fixed_list LIST: LIST with rsag in it (an exclusion without rsag; an
# inclusion with rsag first); empty when nothing is left.
fixed_list() {
    local l=$1
    if [ "${l#^}" != "$l" ]; then
        l=$(tr ',' '\n' <<<"${l#^}" | grep -vx rsag | paste -sd, -)
        [ -n "$l" ] && echo "^$l"
    else
        echo "rsag,$l"
    fi
}
coll_src=$(where_set coll)
coll_val=${job_coll:-$(cut -f4 <<<"$coll_src")}
if coll_excludes "$coll_val"; then
    IFS=$'\t' read -r kind place lno v <<<"$coll_src"
    new=$(fixed_list "$v")
    where="$place"; [ "$kind" = env ] || where="$place line $lno"
    more "the coll list \"$coll_val\" leaves rsag out${kind:+ (set by $where)}"
    case "$kind" in
        env) [ -n "$new" ] && verdict "export $place=$new" || verdict "unset $place" ;;
        file|override)
            if [ -n "$new" ]; then
                verdict "in $place, line $lno: coll = $new   (was: coll = $v)"
            else
                verdict "in $place, delete line $lno (coll = $v)"
            fi ;;
        *) verdict "leave coll unset, or put rsag in the list: --mca coll rsag,basic" ;;
    esac
fi

# 2. The job did not start or did not report.
if [ -z "$counters" ]; then
    IFS=$'\t' read -r kind place lno v <<<"$coll_src"
    if [ -n "$kind" ]; then
        # rsag's own advice when the list cannot start a job (libnbc, self,
        # inter missing): the list it names.
        new=$(sed -n 's/.*[Uu]se --mca coll \([^ ]*\).*/\1/p' <<<"$out" | head -n 1)
        if [ -n "$new" ]; then
            case "$kind" in
                env) verdict "export $place=$new   (or: unset $place)" ;;
                *) verdict "in $place, line $lno: coll = $new   (was: coll = $v)" ;;
            esac
        fi
    fi
    verdict "the 2-rank job itself fails (its last lines are above): make \`${run[*]}\` run, then run $PROG again"
fi

# 3. rsag is not loaded.
if [ "$counters" -eq 0 ]; then
    # rebuild DIR: the command that rebuilds rsag for this Open MPI into DIR.
    rebuild() {
        if [ "$1" = "$pkglibdir" ]; then
            echo "rebuild and reinstall rsag for Open MPI $series, in rsag's source tree: make clean && ./configure && make -j2 && sudo make install"
        else
            echo "rebuild and reinstall rsag for Open MPI $series, in rsag's source tree: make clean && ./configure --with-ompi-component-dir=$1 && make -j2 && make install"
        fi
    }
    if [ ${#found[@]} -eq 0 ]; then
        more "no mca_coll_rsag.so is installed where Open MPI looks"
        verdict "install it (README's command: ./autogen.pl && ./configure --with-ompi-component-dir=\$HOME/.openmpi/components && make -j2 && make install)"
    fi
    searched() {   # searched DIR: DIR is in the processes' component path
        local p=${job_path:-$(sed -n 's/^mca:mca:base:param:mca_base_component_path:value:"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' \
                               <<<"$(ompi_info --parsable --param mca base --level 9 2>/dev/null)")}
        local d e
        d=$(cd "$1" 2>/dev/null && pwd -P)
        IFS=: read -r -a parts <<<"$p"
        for e in "${parts[@]}"; do
            e=${e/#\~/$HOME}
            [ -n "$e" ] && [ "$(cd "$e" 2>/dev/null && pwd -P)" = "$d" ] && return 0
        done
        return 1
    }
    for d in "${found[@]}"; do
        if searched "$d"; then
            case " ${found_ok[*]} " in *" $d "*) ;; *)
                more "$d/mca_coll_rsag.so is in the searched path but built for another Open MPI series"
                verdict "$(rebuild "$d")" ;;
            esac
        fi
    done
    if [ ${#found_ok[@]} -eq 0 ]; then
        more "every mca_coll_rsag.so found is built for another Open MPI series"
        verdict "$(rebuild "${found[0]}")"
    fi
    d=${found_ok[0]}
    case " ${found_ok[*]} " in *" $extra_dir "*) [ -n "$extra_dir" ] && d=$extra_dir ;; esac
    if searched "$d"; then
        more "$d/mca_coll_rsag.so is searched and built for $series, yet does not load:"
        grep -i 'rsag' <<<"$out" | head -n 3 | sed 's/^/               | /'
        verdict "$(rebuild "$d")"
    fi
    more "$d is not in the component path of the processes${job_path:+ ($job_path)}"
    [ "$series" = 5.0 ] &&
        more "(Open MPI 5.0's mpirun replaces the default path; the line below names it again: doc/install.md)"
    want=$pkglibdir
    [ "$d" = "$pkglibdir" ] || want="$pkglibdir:$d"
    # The one setting that names the path, changed to name $d too.
    for n in OMPI_MCA_opal_mca_base_component_path OMPI_MCA_mca_base_component_path; do
        [ "$n" = OMPI_MCA_mca_base_component_path ] && [ "$series" = 5.0 ] && continue
        [ -n "${!n:-}" ] && verdict "export $n=${!n}:$d"
    done
    r=$(file_setting "$override_file" mca_base_component_path opal_mca_base_component_path)
    [ -n "$r" ] && verdict "in $override_file (as root), line ${r%%$'\t'*}: add :$d to its value"
    r=$(file_setting "$user_file" opal_mca_base_component_path)
    if [ -n "$r" ]; then
        verdict "in $user_file, line ${r%%$'\t'*}: opal_mca_base_component_path = ${r#*$'\t'}:$d"
    fi
    verdict "echo 'opal_mca_base_component_path = $want' >> $user_file"
fi

# 4. rsag is loaded but others hold some of the reductions.
more "rsag is loaded but does not hold ${missing[*]}"
prio_src=$(where_set coll_rsag_priority)
if [ -n "$prio_src" ]; then
    IFS=$'\t' read -r kind place lno v <<<"$prio_src"
    case "$kind" in
        env) verdict "unset $place   (coll_rsag_priority $v puts rsag below the holder)" ;;
        *) verdict "in $place, delete line $lno (coll_rsag_priority = $v)" ;;
    esac
fi
verdict "a component of higher priority holds them (see 'enabled there' above): lower its priority or leave it out of --mca coll"
