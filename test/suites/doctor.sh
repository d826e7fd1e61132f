# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# doctor.sh: rsag-doctor (contrib/rsag-doctor.sh; doc/install.md, "Is rsag
# used? rsag-doctor") on a working install and on three broken ones: a
# component built for the other Open MPI series, a component in a directory
# Open MPI does not search, rsag left out by the coll list (environment and
# parameter file).  Each case is a user of its own: a fresh HOME holding
# this build's component (or the broken one) as `make install` leaves it,
# with no OMPI_MCA_* variable (run_tests.sh sets some for the other tests).
# A broken case must end with the right "fix:" line; the test then applies
# that fix as a user would and runs the doctor again, which must now say
# "rsag will be used" -- so the fix is checked, not only its text.

doctor="$top/contrib/rsag-doctor"
doctor_so="$top/ompi/mca/coll/rsag/.libs/mca_coll_rsag.so"
doctor_help="$top/ompi/mca/coll/rsag/help-coll-rsag.txt"
doctor_version=$(makevar ompi/mca/coll/rsag OMPI_VERSION)
doctor_pkglibdir=$(makevar ompi/mca/coll/rsag OMPI_PKGLIBDIR)

# doctor_user DIR: a user whose HOME is DIR, rsag installed in
# DIR/.openmpi/components as README's command does (on Open MPI 5.0 with
# the line of ~/.openmpi/mca-params.conf that `make install` writes).
doctor_user() {
    mkdir -p "$1/.openmpi/components"
    cp "$doctor_so" "$doctor_help" "$1/.openmpi/components/"
    HOME=$1 bash "$top/contrib/rsag-component-path.sh" install "$doctor_version" \
        "$doctor_pkglibdir" "$1/.openmpi/components" >/dev/null
}

# doctor_env HOME [VAR=VALUE...] [-- ARG...]: in a subshell, become that
# user (no OMPI_MCA_* but those given) and set doctor_args to the ARGs.
doctor_env() {
    local v
    for v in $(compgen -e | grep '^OMPI_MCA_'); do unset "$v"; done
    export HOME="$1"; shift
    doctor_args=()
    while [ $# -gt 0 ]; do
        [ "$1" = -- ] && { shift; doctor_args=("$@"); break; }
        export "${1?}"; shift
    done
}

# doctor_run HOME [VAR=VALUE...] [-- ARG...]: rsag-doctor as that user sees
# it, then "doctor exit N".
doctor_run() (
    doctor_env "$@"
    "$doctor" "${doctor_args[@]}" 2>&1
    echo "doctor exit $?"
)

# doctor_case HOME FIX-PATTERN [VAR=VALUE...] [-- ARG...]: the doctor must
# fail with a fix line matching FIX-PATTERN; the fix is applied and the
# doctor run again.  Prints both runs.
doctor_case() (
    local home=$1 pattern=$2 out fix f n new; shift 2
    out=$(doctor_run "$home" "$@")
    printf '%s\n' "--- first run" "$out"
    grep -q '^doctor exit 1$' <<<"$out" || { echo "FAILED: the doctor did not exit 1"; exit 1; }
    fix=$(sed -n 's/^fix: //p' <<<"$out")
    grep -Eq -- "$pattern" <<<"$fix" || { echo "FAILED: the fix does not match: $pattern"; exit 1; }
    echo "--- the fix applied: $fix"
    doctor_env "$home" "$@"
    case "$fix" in
        "export "*|"unset "*) eval "${fix%%   (*}" ;;
        "echo "*) eval "$fix" ;;
        "in "*", delete line "*)
            f=${fix#in }; f=${f%%, delete line *}
            n=${fix##*, delete line }; n=${n%% *}
            sed -i "${n}d" "$f" ;;
        "in "*", line "*)
            f=${fix#in }; f=${f%%, line *}
            n=${fix#*, line }; n=${n%%:*}
            new=${fix#*, line "$n": }; new=${new%%   (was*}
            sed -i "${n}s|.*|$new|" "$f" ;;
        *) echo "FAILED: the test cannot apply this fix"; exit 1 ;;
    esac
    echo "--- second run"
    "$doctor" "${doctor_args[@]}" 2>&1
    echo "doctor exit $?"
)

doctor_tmp="$results/doctor"
rm -rf "$doctor_tmp"

# A working install: rsag holds the four reductions, exit 0.
mkdir -p "$doctor_tmp/ok"
doctor_user "$doctor_tmp/ok"
run_test doctor-working-install-np2 doctor_run "$doctor_tmp/ok"
expect_in_log '^doctor exit 0$'
expect_in_log '^rsag will be used$'
expect_in_log "built for Open MPI ${doctor_version%.*} "
expect_in_log 'ompi_info +loads rsag'
expect_in_log "loaded from $doctor_tmp/ok/.openmpi/components"
expect_in_log 'MPI_Allreduce: rsag  MPI_Reduce: rsag  MPI_Reduce_scatter_block: rsag  MPI_Reduce_scatter: rsag'
expect_not_in_log '^fix:'

# Built for the other series: a mca_coll_rsag.so that needs the other
# series' libopen-pal (4.1: libopen-pal.so.40, 5.0: .so.80), made here
# against a stub of that library, in the user's directory.
case "$doctor_version" in
    5.*) doctor_other=40 doctor_other_series=4.1 ;;
    *) doctor_other=80 doctor_other_series=5.0 ;;
esac
mkdir -p "$doctor_tmp/series/stub"
doctor_user "$doctor_tmp/series"
echo 'int opal_stub;' >"$doctor_tmp/series/stub/stub.c"
echo 'int mca_coll_rsag_component;' >"$doctor_tmp/series/stub/rsag.c"
gcc -shared -fPIC -Wl,-soname,libopen-pal.so.$doctor_other -o "$doctor_tmp/series/stub/libopen-pal.so.$doctor_other" \
    "$doctor_tmp/series/stub/stub.c" 2>/dev/null
gcc -shared -fPIC -Wl,--no-as-needed -o "$doctor_tmp/series/.openmpi/components/mca_coll_rsag.so" \
    "$doctor_tmp/series/stub/rsag.c" "$doctor_tmp/series/stub/libopen-pal.so.$doctor_other" 2>/dev/null
run_test doctor-wrong-series-np2 doctor_run "$doctor_tmp/series"
expect_in_log '^doctor exit 1$'
expect_in_log "mca_coll_rsag.so: built for Open MPI $doctor_other_series \\(needs libopen-pal.so.$doctor_other\\), not for ${doctor_version%.*}"
expect_in_log "^fix: rebuild and reinstall rsag for Open MPI ${doctor_version%.*}"

# Installed in a directory Open MPI does not search (named to the doctor,
# as a user who installed it there would): the fix is the component path
# line of ~/.openmpi/mca-params.conf, and it works.
mkdir -p "$doctor_tmp/path/.openmpi" "$doctor_tmp/path/elsewhere"
cp "$doctor_so" "$doctor_help" "$doctor_tmp/path/elsewhere/"
run_test doctor-path-not-searched-np2 doctor_case "$doctor_tmp/path" \
    "^echo 'opal_mca_base_component_path = $doctor_pkglibdir:$doctor_tmp/path/elsewhere' >> $doctor_tmp/path/.openmpi/mca-params.conf\$" \
    -- "$doctor_tmp/path/elsewhere"
expect_in_log "$doctor_tmp/path/elsewhere is not in the component path of the processes"
expect_in_log '^rsag will be used$'
expect_in_log '^doctor exit 0$'

# rsag left out by the coll list in the environment, and in the user's
# parameter file.
mkdir -p "$doctor_tmp/env"
doctor_user "$doctor_tmp/env"
run_test doctor-coll-excluded-env-np2 doctor_case "$doctor_tmp/env" \
    '^export OMPI_MCA_coll=rsag,basic,libnbc$' OMPI_MCA_coll=basic,libnbc
expect_in_log 'the coll list "basic,libnbc" leaves rsag out \(set by OMPI_MCA_coll\)'
expect_in_log '^rsag will be used$'
expect_in_log '^doctor exit 0$'

mkdir -p "$doctor_tmp/file"
doctor_user "$doctor_tmp/file"
printf 'coll = ^rsag\n' >>"$doctor_tmp/file/.openmpi/mca-params.conf"
run_test doctor-coll-excluded-file-np2 doctor_case "$doctor_tmp/file" \
    "^in $doctor_tmp/file/.openmpi/mca-params.conf, delete line [0-9]+ \\(coll = \\^rsag\\)\$"
expect_in_log 'the coll list "\^rsag" leaves rsag out'
expect_in_log '^rsag will be used$'
expect_in_log '^doctor exit 0$'
